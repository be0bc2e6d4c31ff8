"""The Daily: the day's seed in every time zone and at midnight UTC, one counted attempt a day and
practice, the ordinary game set aside and given back, streaks and the Stats' section, the result card's
comparison and the share text (no tile of the deal in it), old saves and stats still loading."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Generator
from datetime import UTC, date, datetime
from typing import TypeVar

import pytest

from boneyard import saves
from boneyard.deals import daily_seed, streaks
from boneyard.games import GAMES
from boneyard.settings import Settings
from tests.app.conftest import Open
from tests.app.fakes import FakePort, FakeStorage
from ui import daily
from ui.app import App
from ui.games import screen_for
from ui.intents import Finish
from ui.ports import Event
from ui.seating import daily_session
from ui.session import Session

T = TypeVar("T")
DAY = date(2026, 12, 5)
NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC).timestamp()
GAME_IDS = ("dominoes", "triangles", "heptalion", "bonefall")


def at(app: App, timestamp: float) -> None:
    """Set the page's wall clock (the Daily's day comes from it)."""
    app.wall_clock = lambda: timestamp


def first_moves(session: Session, app: App | None = None, limit: int = 5000) -> None:
    """Play ``limit`` moves or to the end: the person's first legal move, the computer's own; ``app`` sees each."""
    for _ in range(limit):
        if session.state.is_over():
            break
        if session.computer_to_move():
            session.computer_move()
        else:
            session.play(session.state.legal_moves()[0])
        if app is not None:
            app.after_move(session)


def finish_by_first_moves(app: App, session: Session) -> None:
    """Play the session to its end by ``first_moves``; the app records it."""
    first_moves(session, app)
    assert session.state.is_over()


def drive(run: Generator[None, None, T]) -> tuple[int, T]:
    """Run a generator as the page does, a slice at a time; return the slices and its value."""
    slices = 0
    while True:
        try:
            next(run)
        except StopIteration as stop:
            return slices, stop.value
        slices += 1


def open_daily(open_app: Open, game_id: str, storage: FakeStorage | None = None) -> tuple[App, FakePort]:
    app, port = open_app(storage or FakeStorage(), "#/")
    at(app, NOON)
    port.go(f"#/daily/{game_id}")
    port.settle(0)
    return app, port


# -- the day ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("zone", ["Etc/GMT+11", "Etc/GMT-14", "UTC"])  # UTC-11, UTC+14 (POSIX signs)
def test_the_day_is_utcs_in_every_time_zone(zone: str) -> None:
    old = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        just_before = datetime(2026, 12, 5, 23, 59, 59, tzinfo=UTC).timestamp()
        assert daily.day_of(just_before) == DAY
        assert daily.day_of(just_before + 1) == date(2026, 12, 6)  # the day turns at midnight UTC
        assert daily.day_of(NOON) == DAY
    finally:
        if old is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = old
        time.tzset()


def test_each_games_daily_is_the_days_deal_the_same_everywhere() -> None:
    for game_id in GAME_IDS:
        info, screen = GAMES[game_id], screen_for(game_id)
        assert screen is not None
        one = daily_session(info, screen, DAY, Settings(), practice=False)
        two = daily_session(info, screen, DAY, Settings(name="Bea"), practice=False)
        assert one.seed == two.seed == daily_seed(game_id, DAY)
        assert one.state.to_dict() == two.state.to_dict()
        other = daily_session(info, screen, date(2026, 12, 6), Settings(), practice=False)
        assert other.state.to_dict() != one.state.to_dict()
        assert daily.daily_of(one) == {"day": "2026-12-05", "practice": False}
    dominoes = daily_session(GAMES["dominoes"], screen_for("dominoes"), DAY, Settings(), False)  # type: ignore[arg-type]
    assert dominoes.options["target"] == 100 and [s.level for s in dominoes.seats] == [None, daily.LEVEL]
    puzzle = daily_session(GAMES["heptalion"], screen_for("heptalion"), DAY, Settings(), False)  # type: ignore[arg-type]
    assert puzzle.options["board"] == "random" and len(puzzle.seats) == 1
    sprint = daily_session(GAMES["bonefall"], screen_for("bonefall"), DAY, Settings(), False)  # type: ignore[arg-type]
    assert sprint.options == {"set": "norm", "mode": "sprint"}


def test_the_same_moves_give_the_same_game() -> None:
    """The computer's choices are seeded by the day too: two players making the same moves see the same game."""
    info, screen = GAMES["dominoes"], screen_for("dominoes")
    assert screen is not None
    games = []
    for _ in range(2):
        session = daily_session(info, screen, DAY, Settings(), practice=False)
        first_moves(session, limit=40)
        games.append(session.moves)
    assert games[0] == games[1] and len(games[0] or []) >= 10


def test_a_daily_started_before_midnight_is_that_days(open_app: Open) -> None:
    app, port = open_app(FakeStorage(), "#/")
    at(app, datetime(2026, 12, 5, 23, 59, tzinfo=UTC).timestamp())
    port.go("#/daily/heptalion")
    port.settle(0)
    session = app.sessions["heptalion"]
    at(app, datetime(2026, 12, 6, 0, 5, tzinfo=UTC).timestamp())
    finish_by_first_moves(app, session)
    entry = app.daily_records()["heptalion"]
    assert list(entry) == ["2026-12-05"] and entry["2026-12-05"]["uid"] == session.uid


# -- one attempt a day ----------------------------------------------------------------------------------------


def test_the_first_daily_counts_and_a_replay_is_practice(open_app: Open) -> None:
    app, port = open_daily(open_app, "heptalion")
    assert port.hash == "#/play/heptalion"
    assert port.text("#screen-title") == "Daily · Heptalion"
    first = app.sessions["heptalion"]
    finish_by_first_moves(app, first)
    record = app.daily_records()["heptalion"]["2026-12-05"]
    assert record["uid"] == first.uid and record["score"] == first.state.outcome().scores[0]
    port.settle(0)
    assert port.exists("#daily-card") and "Daily · 2026-12-05" in port.text("#daily-card-title")
    port.press("#hx-again")
    port.settle(0)
    again = app.sessions["heptalion"]
    assert again.uid != first.uid and again.state.to_dict()["board"] == first.replay(0).to_dict()["board"]
    assert daily.daily_of(again) == {"day": "2026-12-05", "practice": True}
    assert port.text("#screen-title") == "Practice · Heptalion"
    finish_by_first_moves(app, again)
    assert app.daily_records()["heptalion"]["2026-12-05"] == record  # practice changes nothing
    port.settle(0)
    assert "Daily practice" in port.text("#daily-card-title")
    assert "(practice)" in (port.text("#daily-text") or "")


def test_a_daily_left_after_a_move_is_the_days_attempt(open_app: Open) -> None:
    storage = FakeStorage()
    app, _ = open_daily(open_app, "dominoes", storage)
    session = app.sessions["dominoes"]
    assert "dominoes" not in app.daily_records()  # dealt, no move yet: not an attempt
    while session.computer_to_move():
        session.computer_move()
    session.play(session.state.legal_moves()[0])
    app.after_move(session)
    assert app.daily_records()["dominoes"]["2026-12-05"]["score"] is None
    # A reload resumes the Daily in progress, the same game.
    again, port2 = open_app(storage, "#/")
    at(again, NOON)
    port2.go("#/daily/dominoes")
    port2.settle(0)
    assert again.sessions["dominoes"].uid == session.uid
    # Another Daily of the day, after a new game replaced it, is practice.
    port2.go("#/setup/dominoes")
    port2.press("#start-game")
    port2.settle(0)
    port2.go("#/daily/dominoes")
    port2.settle(0)
    assert daily.daily_of(again.sessions["dominoes"]) == {"day": "2026-12-05", "practice": True}


def test_a_daily_sets_the_ordinary_game_aside_and_gives_it_back(open_app: Open) -> None:
    storage = FakeStorage()
    app, port = open_app(storage, "#/setup/triangles")
    port.press("#start-game")
    port.settle(0)
    ordinary = app.sessions["triangles"]
    while ordinary.computer_to_move():
        ordinary.computer_move()
    ordinary.play(ordinary.state.legal_moves()[0])
    app.after_move(ordinary)
    port.settle(0)
    at(app, NOON)
    port.go("#/daily/triangles")
    port.settle(0)
    session = app.sessions["triangles"]
    assert daily.daily_of(session) is not None and session.uid != ordinary.uid
    assert storage.items[daily.PARKED_PREFIX + "triangles"]
    # A reload keeps both: the Daily in its place, the ordinary game aside.
    reloaded, port2 = open_app(storage, "#/")
    assert reloaded.sessions["triangles"].uid == session.uid
    at(reloaded, NOON)
    finish_by_first_moves(reloaded, reloaded.sessions["triangles"])
    port2.go("#/play/triangles")
    port2.settle(0)
    assert port2.exists("#daily-card")
    port2.go("#/")
    port2.settle(0)
    assert reloaded.sessions["triangles"].uid == ordinary.uid  # given back when the Daily's table is left
    assert daily.PARKED_PREFIX + "triangles" not in storage.items
    assert "triangles" in port2.text("#app").lower() and port2.exists('a[href="#/play/triangles"]')


# -- the card and the share text ---------------------------------------------------------------------------------


def test_the_card_compares_with_the_proved_maximum_and_shares_no_tile(open_app: Open) -> None:
    app, port = open_daily(open_app, "heptalion")
    session = app.sessions["heptalion"]
    finish_by_first_moves(app, session)
    port.settle(0)
    best = daily.best_possible(session)
    assert best is not None and best[0] >= session.state.outcome().scores[0]
    assert f"The most that fit: {best[0]:g}" in port.text("#daily-best")
    shared = daily.card_text(session, port.page_address()) or ""
    assert port.text("#daily-text") == " ".join(shared.split())  # the field to copy by hand holds it
    assert shared.splitlines()[0] == "Boneyard Daily · Heptalion · 2026-12-05"
    assert shared.splitlines()[-1] == port.page_address() + "#/daily/heptalion"
    port.press("#daily-share")
    assert port.clipboard == [daily.card_text(session, port.page_address())]
    port.clipboard_refused = True
    port.press("#daily-share")
    assert "select the text below" in port.toasts[-1][1]
    assert port.focused_id() == "daily-text"  # the keyboard is at the text to copy by hand


@pytest.mark.parametrize("game_id", ["dominoes", "triangles", "heptalion"])
def test_the_share_text_reveals_no_tile_of_the_deal(game_id: str) -> None:
    info, screen = GAMES[game_id], screen_for(game_id)
    assert screen is not None
    session = daily_session(info, screen, DAY, Settings(), practice=False)
    first_moves(session)
    lines = (daily.card_text(session, "http://localhost:8000/") or "").splitlines()
    # The game and day, the score, a picture of plain cells, the link: nothing else, so no tile.
    assert lines[0] == f"Boneyard Daily · {info.name} · 2026-12-05"
    assert re.fullmatch(
        r"(Won|Lost|Drew) \d+–\d+|(Won|Lost|Drew), pips left \d+–\d+|\d+ tiles fitted", lines[1]
    ), lines[1]
    picture = lines[2:-1]
    assert picture and all(re.fullmatch(r"[■□]+( you| computer)?|[■□·]+ hands won", line) for line in picture)
    assert lines[-1] == f"http://localhost:8000/#/daily/{game_id}"
    if game_id == "dominoes":  # the match hand by hand: who won each, nothing of what was in them
        winners = [hand["winner"] for hand in session.state.view(0)["hand_results"]]
        expected = "".join("■" if w == 0 else "□" if w is not None else "·" for w in winners)
        assert picture[-1] == f"{expected} hands won"


def test_bonefalls_card_says_power() -> None:
    info, screen = GAMES["bonefall"], screen_for("bonefall")
    assert screen is not None
    session = daily_session(info, screen, DAY, Settings(), practice=False)
    assert daily.result_of(session) is None
    session.state.power = 1234  # type: ignore[attr-defined]
    session.state.is_over = lambda: True  # type: ignore[method-assign]
    score, words, picture = daily.result_of(session) or (0, "", "")
    assert (score, words) == (1234.0, "Power 1234") and picture == "■" * daily.BAR


# -- stats, streaks and old records ---------------------------------------------------------------------------


def test_streaks_and_the_stats_section(open_app: Open) -> None:
    records = {
        "heptalion": {
            "2026-12-02": {"uid": "a", "score": 20},
            "2026-12-03": {"uid": "b", "score": 22},
            "2026-12-04": {"uid": "c", "score": None},
        }
    }
    facts = daily.summary(records, "heptalion", DAY)
    assert (facts["days"], facts["best"], facts["average"]) == (3, 22.0, 21.0)
    assert (
        (facts["streak"], facts["best_streak"])
        == streaks([date(2026, 12, 2), date(2026, 12, 3), date(2026, 12, 4)], DAY)
        == (3, 3)
    )
    storage = FakeStorage({daily.DAILY_KEY: daily.save_records(records)})
    app, port = open_app(storage, "#/")
    at(app, NOON)
    port.go("#/stats")
    port.settle(0)
    cells = port.find_all('#daily-table tr[data-game="heptalion"] td')
    assert [cell.text for cell in cells] == ["3", "22", "21", "3", "3"]
    port.go("#/")
    port.settle(0)
    assert "streak 3" in port.text('.daily-item[data-game="heptalion"]')
    assert "Not played yet" in port.text('.daily-item[data-game="dominoes"]')


def test_old_stats_and_saves_load_and_damaged_records_are_empty(open_app: Open) -> None:
    assert daily.load_records(None) == {} and daily.load_records("{not json") == {}
    assert daily.load_records(
        '{"schema":1,"daily":{"heptalion":{"nonsense":{},"2026-12-01":{"score":3}}}}'
    ) == {"heptalion": {"2026-12-01": {"score": 3}}}
    info, screen = GAMES["dominoes"], screen_for("dominoes")
    assert screen is not None
    old = Session.start(info, daily_session(info, screen, DAY, Settings(), False).seats, "m", "M", {})
    storage = FakeStorage({saves.save_key("dominoes"): saves.dump_save("dominoes", old.to_json())})
    app, port = open_app(storage, "#/stats")
    assert app.sessions["dominoes"].uid == old.uid and daily.daily_of(app.sessions["dominoes"]) is None
    assert port.exists("#stats-daily")


# -- the Expert on the same deal --------------------------------------------------------------------------------


def test_the_card_works_out_the_experts_game_of_the_deal_between_frames(open_app: Open) -> None:
    app, port = open_daily(open_app, "triangles")
    session = app.sessions["triangles"]
    finish_by_first_moves(app, session)
    app.render()  # the card before the Expert's game is known
    assert port.text("#daily-expert") == "Working out how the Expert plays this deal…"
    port.settle()
    line = port.text("#daily-expert")
    assert line.startswith("The Expert in your seat on this deal: ") and line.endswith(
        ("You beat it.", "You matched it.", "It did better.")
    ), line
    known = session.extra["daily_expert"]
    slices, value = drive(daily.expert_run(session))  # the same game again, the same answer
    assert value == (known["score"], known["words"])
    assert slices > 10  # handed back to the page between moves, never one long freeze


def test_bonefalls_autoplayer_plays_the_days_sequence_in_slices() -> None:
    info, screen = GAMES["bonefall"], screen_for("bonefall")
    assert screen is not None
    session = daily_session(info, screen, DAY, Settings(), practice=False)
    slices, (power, words) = drive(daily.expert_run(session))
    assert slices > 1 and words == f"The autoplayer on this sequence: Power {power:g}." and power > 0


def test_bonefalls_play_again_after_a_daily_is_the_days_sequence_as_practice(open_app: Open) -> None:
    from boneyard.games.bonefall.autoplay import AutoPlayer

    app, _ = open_daily(open_app, "bonefall")
    session = app.sessions["bonefall"]
    state, player = session.state, AutoPlayer()
    while not state.is_over():
        player.act(state)
        state.step()
    app.dispatch(session, Finish({"power": float(state.power)}))  # as the screen's game_over emits it
    record = app.daily_records()["bonefall"]["2026-12-05"]
    assert record["uid"] == session.uid and record["score"] == float(state.power)
    card = str(daily.daily_card(session, "http://localhost:8000/", compact=True))
    assert 'class="daily-card is-compact"' in card and "Daily</summary>" in card
    screen = screen_for("bonefall")
    assert screen is not None
    app.dispatch_all(session, screen.on_action(app.context(session), "again", ""))  # its Play again
    again = app.sessions["bonefall"]
    assert again.seed == daily_seed("bonefall", DAY) and daily.daily_of(again) == {
        "day": "2026-12-05",
        "practice": True,
    }
    assert app.daily_records()["bonefall"]["2026-12-05"] == record


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_setup_screen_and_the_home_row_open_the_days_daily(open_app: Open, game_id: str) -> None:
    app, port = open_app(FakeStorage(), f"#/setup/{game_id}")
    at(app, NOON)
    assert port.attr("#setup-daily", "href") == f"#/daily/{game_id}"
    port.go("#/")
    port.settle(0)
    assert port.attr(f"#daily-{game_id}", "href") == f"#/daily/{game_id}"
    assert "Not played yet" in port.text(f'.daily-item[data-game="{game_id}"]')


def test_an_import_names_the_daily_record_and_the_game_set_aside() -> None:
    from ui.settings_view import _key_name

    names = {"dominoes": "Dominoes"}
    assert _key_name(daily.DAILY_KEY, names) == "your Daily record"
    assert _key_name(daily.PARKED_PREFIX + "dominoes", names) == "your saved game of Dominoes"


def test_another_tabs_daily_shows_on_this_tabs_home_and_makes_this_one_practice(open_app: Open) -> None:
    storage = FakeStorage()
    one, port_one = open_app(storage, "#/")
    at(one, NOON)
    port_one.go("#/")
    port_one.settle(0)
    two, _ = open_daily(open_app, "heptalion", storage)
    finish_by_first_moves(two, two.sessions["heptalion"])
    port_one.settle(0)
    assert "tiles fitted" in port_one.text('.daily-item[data-game="heptalion"]')
    port_one.go("#/daily/heptalion")
    port_one.settle(0)
    assert daily.daily_of(one.sessions["heptalion"]) == {"day": "2026-12-05", "practice": True}


def test_the_daily_puzzles_maximum_waits_for_the_end(open_app: Open) -> None:
    app, port = open_daily(open_app, "heptalion")
    assert port.disabled("#hx-show-max")
    port.fire(Event("click", action="show-max", id="hx-show-max"))  # pressed anyway (a stale page)
    port.settle(0)
    assert "hx_max" not in app.sessions["heptalion"].extra
    finish_by_first_moves(app, app.sessions["heptalion"])
    port.settle(0)
    assert not port.disabled("#hx-show-max")


def test_a_daily_played_with_take_backs_or_hints_says_so_in_the_record_and_the_share(open_app: Open) -> None:
    app, _ = open_daily(open_app, "triangles")
    session = app.sessions["triangles"]
    session.extra["hints"] = 2
    finish_by_first_moves(app, session)
    assert app.daily_records()["triangles"]["2026-12-05"]["words"].endswith("(with help)")
    assert (daily.card_text(session, "") or "").splitlines()[1].endswith("(with help)")


def test_damaged_daily_records_are_reported_and_kept_aside_not_written_over(open_app: Open) -> None:
    damaged = '{"schema":1,"daily":{"heptalion":{"2026-12-01":{"score":3}'  # cut off mid-write
    storage = FakeStorage({daily.DAILY_KEY: damaged})
    app, port = open_daily(open_app, "heptalion", storage)
    session = app.session_of("heptalion")
    assert session is not None
    finish_by_first_moves(app, session)
    port.settle(0)
    assert any("The Daily's records could not be read" in words for _, words in port.toasts)
    aside = [v for k, v in storage.items.items() if k.startswith("boneyard:broken:")]
    assert aside == [damaged]  # the old record kept whole, where Settings lists it
    assert "2026-12-05" in daily.load_records(storage.items[daily.DAILY_KEY])["heptalion"]
