"""The shell's decisions under CPython: the address, seating a new game, the end of a game, the computer's
turns, and several tabs on one game (saves, stats and settings)."""

from __future__ import annotations

import asyncio
import json

import pytest

from boneyard import saves
from boneyard.core import run_thinking
from boneyard.games import GAMES
from boneyard.settings import Settings
from boneyard.stats import Stats, stats_from_json
from ui.games.dominoes import SCREEN as DOMINOES
from ui.games.heptalion import SCREEN as HEPTALION
from ui.results import count_result, keep_bests
from ui.routes import HOME, Route, parse_route, seed_from_query
from ui.seating import seat_players
from ui.session import Seat, Session
from ui.storage import Storage
from ui.sync import Stamp, Verdict, judge, stamp_of
from ui.table_screen import Screen
from ui.turns import ComputerTurns, TurnKey, beat_pause

from .test_saves import FakeStorage
from .threads import on_own_loop


# -- the address ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hash_", "route"),
    [
        ("", HOME),
        ("#", HOME),
        ("#/", HOME),
        ("#/settings", Route("settings", "")),
        ("#/play/dominoes", Route("play", "dominoes")),
        ("#//rules//triangles/", Route("rules", "triangles")),
    ],
)
def test_the_hash_names_a_screen(hash_, route):
    assert parse_route(hash_) == route


def test_only_a_play_route_names_a_table():
    assert Route("play", "dominoes").table == "dominoes"
    assert Route("setup", "dominoes").table is None and HOME.table is None


@pytest.mark.parametrize(
    ("query", "seed"),
    [
        ("", None),
        ("?seed=42", 42),
        ("?x=1&seed=7", 7),
        ("?seed= 9 ", 9),
        ("?seed=abc", None),
        ("?seed=", None),
        ("?seed=0", 0),
        ("?seed=-1", 2**64 - 1),
        ("?seed=-5", 2**64 - 5),
        (f"?seed={2**63}", None),
        (f"?seed={-(2**63)}", 2**63),
        (f"?seed={2**63 - 1}", 2**63 - 1),
    ],
)
def test_the_seed_in_the_address(query, seed):
    assert seed_from_query(query) == seed


def test_a_negative_seed_deals_another_game_than_its_positive():
    info = GAMES["dominoes"]
    seats = [Seat("human", "Ana"), Seat("computer", "C", "easy")]
    deals = {
        text: Session.start(info, seats, "m", "M", {"players": 2}, seed=seed_from_query(text)).state.to_dict()
        for text in ("?seed=5", "?seed=-5", "?seed=6")
    }
    assert deals["?seed=5"] != deals["?seed=-5"] != deals["?seed=6"]
    again = Session.start(info, seats, "m", "M", {"players": 2}, seed=seed_from_query("?seed=-5"))
    assert again.state.to_dict() == deals["?seed=-5"]


# -- seating ------------------------------------------------------------------------------------------
def test_seating_against_the_computer_names_each_level():
    form = {"mode": "classic", "opponents": "computer", "players": "3", "level_1": "easy", "level_2": "hard"}
    seating = seat_players(GAMES["dominoes"], DOMINOES, form, Settings(name="Ana"))
    mode, players = DOMINOES.mode_from_form(form)
    assert seating.seats[0].name == "Ana" and len(seating.seats) == players
    assert [s.level for s in seating.seats[1:]] == ["easy", "hard"][: players - 1]
    assert seating.seats[1].name == "Computer 1 (Easy)"
    assert seating.vs_computer and seating.mode == mode.key and seating.mode_label == mode.label
    assert seating.options["players"] == players


def test_seating_people_on_one_device_counts_the_mode_apart():
    form = {"mode": "classic", "opponents": "device", "name_0": "  Ana ", "name_1": ""}
    seating = seat_players(GAMES["dominoes"], DOMINOES, form, Settings(name="Ana"))
    assert [s.name for s in seating.seats] == ["Ana", "Player 2"]
    assert not seating.vs_computer
    assert seating.mode.endswith("-device") and seating.mode_label.endswith(", same device")


def test_a_screen_that_seats_its_own_players_names_its_modes_itself():
    form: dict = {}
    seating = seat_players(GAMES["heptalion"], HEPTALION, form, Settings(name="Ana"))
    mode, _ = HEPTALION.mode_from_form(form)
    assert seating.seats == HEPTALION.seats_from_form(form, Settings(name="Ana"))
    assert seating.mode == mode.key


def test_the_screen_base_class_has_a_no_op_for_every_optional_hook():
    for game_id in ("dominoes", "triangles", "heptalion", "bonefall"):
        module = __import__(f"ui.games.{game_id}", fromlist=["SCREEN"])
        assert isinstance(module.SCREEN, Screen), game_id
    blank = Screen()
    assert blank.on_key(None, "x") is False  # type: ignore[arg-type]
    assert blank.seats_from_form({}, Settings()) is None and blank.final_scores(None) is None  # type: ignore[arg-type]
    assert str(blank.custom_fields({})) == ""


# -- the end of a game ----------------------------------------------------------------------------------
def finished(vs_computer: bool = True, seed: int = 3) -> Session:
    seats = [Seat("computer", "A", "easy"), Seat("computer", "B", "easy")]
    session = Session.start(GAMES["dominoes"], seats, "classic-2", "Classic", {"players": 2}, seed=seed)
    while not session.state.is_over():
        session.computer_move()
    session.seats = [Seat("human", "Ana"), Seat("computer" if vs_computer else "human", "B", "easy")]
    return session


def test_a_game_against_the_computer_counts_once_however_many_tabs_end_it():
    stats, session = Stats(), finished()
    assert count_result(stats, session, "Ana", "2026-01-02")
    assert not count_result(stats, session, "Ana", "2026-01-02")
    tally = stats.for_player("Ana")[0]
    assert tally.played == 1 and tally.last == "2026-01-02"
    again = stats_from_json(json.loads(json.dumps(stats.to_json())))
    assert not count_result(again, session, "Ana", "2026-01-03")


def test_a_game_on_one_device_does_not_count():
    assert not count_result(Stats(), finished(vs_computer=False), "Ana", "2026-01-02")


def test_best_scores_are_kept_by_mode():
    stats, session = Stats(), finished()
    assert keep_bests(stats, session, {"tiles": 5}, "d1") == ["tiles"]
    assert keep_bests(stats, session, {"tiles": 4}, "d2") == []
    assert keep_bests(stats, session, None, "d2") == []
    assert stats.bests["dominoes:classic-2"]["tiles"].value == 5


def test_stats_written_before_deals_had_ids_still_load():
    old = {
        "tallies": [{"game": "dominoes", "mode": "classic-2", "label": "Classic", "name": "Ana", "wins": 2}],
        "bests": {},
    }
    stats = stats_from_json(old)
    assert stats.counted == [] and stats.for_player("Ana")[0].wins == 2


# -- stats and settings across tabs ------------------------------------------------------------------------
def two_tabs() -> tuple[FakeStorage, Storage, Storage]:
    backend = FakeStorage()
    return backend, Storage(backend, lambda kind, text: None), Storage(backend, lambda kind, text: None)


def test_two_tabs_results_add_up():
    _, first, second = two_tabs()
    first.load_stats(), second.load_stats()  # each tab read the stats when it opened
    for tab, seed in ((first, 1), (second, 2), (first, 3)):
        session = finished(seed=seed)
        tab.update_stats(lambda stats, s=session: count_result(stats, s, "Ana", "d"))
    assert first.load_stats().for_player("Ana")[0].played == 3


def test_stats_cleared_in_one_tab_stay_cleared_when_the_other_counts_a_game():
    backend, first, second = two_tabs()
    first.update_stats(lambda stats: count_result(stats, finished(seed=1), "Ana", "d"))
    second_copy = second.load_stats()
    assert second_copy.for_player("Ana")[0].played == 1
    backend.data.clear()  # the player cleared the site's storage in the first tab
    second.update_stats(lambda stats: count_result(stats, finished(seed=2), "Ana", "d"))
    assert first.load_stats().for_player("Ana")[0].played == 1


def test_a_setting_changed_in_one_tab_survives_another_tab_changing_another():
    _, first, second = two_tabs()
    first.load_settings(), second.load_settings()
    first.update_settings(name="Ana")
    second.update_settings(theme="dark")
    assert first.load_settings() == Settings(name="Ana", theme="dark")


# -- several tabs on one game --------------------------------------------------------------------------------
def save_text(session: Session) -> str:
    return saves.dump_save(session.info.id, session.to_json())


def test_a_session_carries_its_deal_and_revision_through_saves():
    session = finished()
    loaded = Session.from_json("dominoes", json.loads(save_text(session))["state"])
    assert (loaded.uid, loaded.revision) == (session.uid, session.revision) and session.revision > 0
    assert (
        Session.start(GAMES["dominoes"], session.seats, "m", "M", {"players": 2}, seed=3).uid != session.uid
    )


def test_a_save_written_before_deals_had_ids_gets_the_same_identity_in_every_tab():
    data = finished().to_json()
    del data["uid"], data["revision"]
    one, two = Session.from_json("dominoes", data), Session.from_json("dominoes", data)
    assert one.uid == two.uid == f"seed-{data['seed']}-classic-2" and one.revision == 0


def test_judging_another_tabs_save():
    seats = [Seat("human", "Ana"), Seat("computer", "C", "easy")]
    ours = Session.start(GAMES["dominoes"], seats, "classic-2", "Classic", {"players": 2}, seed=4)
    written = save_text(ours)
    stamp = Stamp(ours.uid, ours.revision)
    assert stamp_of(written) == stamp and stamp_of(None) is None
    assert judge(stamp, written, written) is Verdict.CURRENT
    longer = Session.from_json("dominoes", json.loads(written)["state"])
    longer.play(longer.state.legal_moves()[0])
    assert judge(stamp, written, save_text(longer)) is Verdict.ADOPT  # another tab played on
    ahead = Stamp(ours.uid, ours.revision + 2)
    assert judge(ahead, "x", written) is Verdict.REASSERT  # a stale tab wrote a shorter history
    other = Session.start(GAMES["dominoes"], seats, "classic-2", "Classic", {"players": 2}, seed=4)
    assert judge(ahead, "x", save_text(other)) is Verdict.ADOPT  # a new deal started elsewhere
    assert judge(stamp, written, None) is Verdict.ADOPT  # finished (or abandoned) in another tab
    assert judge(stamp, written, "{not json") is Verdict.CURRENT  # unreadable: reported when loaded
    assert judge(None, None, written) is Verdict.ADOPT and judge(None, None, None) is Verdict.CURRENT
    assert judge(stamp, None, written) is Verdict.ADOPT  # our own write failed (storage full): same length
    with pytest.raises(ValueError):
        stamp_of('{"schema": 2, "state": {"revision": -1, "uid": "x"}}')


# -- the computer's turns ----------------------------------------------------------------------------------
def key(game: str = "dominoes", revision: int = 0, generation: int = 0) -> TurnKey:
    return TurnKey(game, "deal", revision, generation)


def run(scenario) -> list[str]:
    """Run ``scenario(turns, log)`` on a fresh loop; each turn pauses 0.05 s, then logs its key."""
    log: list[str] = []

    async def play(k: TurnKey) -> None:
        log.append(f"start {k.game_id}:{k.revision}")
        await asyncio.sleep(0.05)
        log.append(f"played {k.game_id}:{k.revision}")

    async def main() -> None:
        turns = ComputerTurns(play)
        await scenario(turns, log)
        while turns.busy:
            await asyncio.sleep(0.01)

    on_own_loop(main)
    return log


def test_a_turn_asked_for_during_another_tables_pause_is_played():
    async def scenario(turns: ComputerTurns, log: list[str]) -> None:
        turns.want(key("dominoes"))
        await asyncio.sleep(0.01)  # the computer is pausing on the dominoes table...
        turns.want(key("triangles"))  # ...when the player opens another table where the computer is to move

    assert run(scenario) == ["start dominoes:0", "start triangles:0", "played triangles:0"]


def test_a_new_deal_during_the_computers_pause_gets_its_turn():
    async def scenario(turns: ComputerTurns, log: list[str]) -> None:
        turns.want(key(generation=0))
        await asyncio.sleep(0.01)
        turns.want(key(generation=1))

    assert run(scenario) == ["start dominoes:0", "start dominoes:0", "played dominoes:0"]


def test_asking_again_for_the_same_turn_changes_nothing_and_a_finished_turn_is_not_replayed():
    async def scenario(turns: ComputerTurns, log: list[str]) -> None:
        turns.want(key())
        await asyncio.sleep(0.01)
        turns.want(key())  # a redraw (a resize) while the computer pauses
        await asyncio.sleep(0.1)
        turns.want(key())  # the turn ended (say it failed): no retry in a loop
        turns.want(key(revision=1))

    assert run(scenario) == ["start dominoes:0", "played dominoes:0", "start dominoes:1", "played dominoes:1"]


def test_leaving_the_table_cancels_the_turn_and_coming_back_plays_it():
    async def scenario(turns: ComputerTurns, log: list[str]) -> None:
        turns.want(key())
        await asyncio.sleep(0.01)
        turns.stop()
        await asyncio.sleep(0.1)
        turns.want(key())

    assert run(scenario) == ["start dominoes:0", "start dominoes:0", "played dominoes:0"]


def test_a_turn_that_asks_for_the_next_one_as_it_ends_is_not_cancelled():
    log: list[str] = []

    async def main() -> None:
        async def play(k: TurnKey) -> None:
            await asyncio.sleep(0.01)
            log.append(f"played {k.revision}")
            if k.revision < 2:
                turns.want(key(revision=k.revision + 1))  # the move is drawn, and the redraw asks again
            await asyncio.sleep(0)

        turns = ComputerTurns(play)
        turns.want(key())
        while turns.busy:
            await asyncio.sleep(0.01)

    on_own_loop(main)
    assert log == ["played 0", "played 1", "played 2"]


@pytest.mark.parametrize("game_id", ["dominoes", "triangles"])
def test_a_computer_turn_of_many_draws_takes_two_beats_at_most(game_id):
    """A computer that draws tile after tile shows its draws as one beat; the lay follows a shorter one."""
    info = GAMES[game_id]
    longest = 0  # the most draws one computer turn made
    for seed in range(12):
        seats = [Seat("computer", f"C{i}", "hard") for i in range(2)]
        session = Session.start(info, seats, "m", "M", {"players": 2}, seed=seed)
        seat, spent, draws = None, 0.0, 0
        while not session.state.is_over():
            if session.to_move() != seat:
                seat, spent, draws = session.to_move(), 0.0, 0
            spent += beat_pause("normal", True, after_draw=session.just_drew())
            before = session.move_count()
            session.play_computer_beat(run_thinking(session.computer_thinking()))
            draws += sum(m.startswith("draw") for m in session.moves[before:])
            longest = max(longest, draws)
            assert spent <= 1.2, f"a computer turn of {draws} draws took {spent:.2f} s of pauses"
    assert longest >= 3, "some computer drew three tiles or more in one turn"
