"""A game in the page, under CPython: every registered turn-based game plays through a Session with
its computer levels, and the session survives the save envelope at every step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boneyard import saves
from boneyard.games import GAMES
from ui.session import Seat, Session

DATA = Path(__file__).parent / "data"
TURN_BASED = [gid for gid, info in GAMES.items() if not info.realtime]


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_a_game_against_every_level_round_trips_through_saves_at_every_step(game_id):
    info = GAMES[game_id]
    levels = [lv for lv in info.levels if lv != "random"]
    seats = [Seat("computer", f"C{i}", levels[i % len(levels)]) for i in range(2)]
    session = Session.start(info, seats, "mode", "Mode", {"players": 2}, seed=12)
    for _ in range(200):
        if session.state.is_over():
            break
        session.computer_move()
        text = saves.dump_save(game_id, session.to_json())
        loaded = saves.load_save(text, expected_game=game_id, validate=Session.from_json)
        again = Session.from_json(game_id, loaded.state)
        assert again.state.to_dict() == session.state.to_dict()
        assert again.bot_rng.getstate() == session.bot_rng.getstate()
    assert session.state.is_over()
    outcome = session.state.outcome()
    results = [session.result_for(seat) for seat in range(2)]
    if outcome.winner is None:
        assert "draw" in results
    else:
        assert sorted(results) == ["loss", "win"]


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_a_resumed_session_plays_on_exactly_as_the_original(game_id):
    info = GAMES[game_id]
    seats = [Seat("computer", "A", "easy"), Seat("computer", "B", "medium")]
    original = Session.start(info, seats, "m", "M", {"players": 2}, seed=5)
    for _ in range(3):
        original.computer_move()
    copy = Session.from_json(game_id, json.loads(json.dumps(original.to_json())))
    while not original.state.is_over():
        assert str(original.computer_move()) == str(copy.computer_move())
    assert copy.state.is_over()


def test_viewer_is_the_person_against_computers_and_the_mover_on_one_device():
    info = GAMES[TURN_BASED[0]]
    solo = Session.start(
        info, [Seat("human", "Ana"), Seat("computer", "C", "easy")], "m", "M", {"players": 2}, seed=1
    )
    assert solo.viewer() == 0 and solo.vs_computer
    shared = Session.start(
        info, [Seat("human", "Ana"), Seat("human", "Bo")], "m", "M", {"players": 2}, seed=1
    )
    assert not shared.vs_computer and shared.viewer() == shared.to_move()


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"seats": [{"kind": "robot", "name": "x"}], "game_state": {}, "mode": "m", "bot_rng": []},
        {
            "seats": [{"kind": "computer", "name": "x", "level": "godlike"}, {"kind": "human", "name": "y"}],
            "mode": "m",
            "bot_rng": [3, [0] * 625, None],
        },
    ],
)
def test_damaged_sessions_are_refused_with_a_value_error(bad):
    info = GAMES[TURN_BASED[0]]
    if "seats" in bad and "game_state" not in bad:
        bad["game_state"] = info.new_state(seed=1, players=2).to_dict()
    with pytest.raises(ValueError):
        Session.from_json(info.id, bad)


def test_the_computer_thinks_in_slices_and_chooses_what_it_would_at_once():
    """A long search yields every few hundred nodes, so the page can stay responsive; the move is the same."""
    from boneyard.core import run_thinking, think

    info = GAMES["heptalion"]
    hard = info.bot("hard")
    state = info.new_state(seed=4, players=2)
    view = state.view(state.current_player())
    import random

    thinking = think(hard, view, random.Random(9))
    pauses = 0
    while True:
        try:
            next(thinking)
            pauses += 1
        except StopIteration as stop:
            sliced = stop.value
            break
    assert pauses >= 10, "an opening search yields many times"
    assert str(sliced) == str(hard(view, random.Random(9)))
    easy = info.bot("easy")
    assert str(run_thinking(think(easy, view, random.Random(1)))) == str(easy(view, random.Random(1)))


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_computer_thinking_then_playing_is_computer_move(game_id):
    info = GAMES[game_id]
    seats = [Seat("computer", "A", "hard"), Seat("computer", "B", "hard")]
    one = Session.start(info, seats, "m", "M", {"players": 2}, seed=6)
    two = Session.start(info, seats, "m", "M", {"players": 2}, seed=6)
    for _ in range(4):
        if one.state.is_over():
            break
        from boneyard.core import run_thinking

        move = run_thinking(two.computer_thinking())
        two.play_computer(move)
        assert str(one.computer_move()) == str(move)
    assert one.state.to_dict() == two.state.to_dict()


def test_an_online_game_seats_guests_apart_from_the_people_on_this_device():
    info = GAMES["dominoes"]
    seats = [Seat("human", "Ann"), Seat("guest", "Bob"), Seat("computer", "Bot", "easy")]
    session = Session.start(info, seats, "classic-3", "Classic, 3 players", {"players": 3}, seed=4)
    assert session.human_seats == [0]
    assert session.remote_seats == [1]
    assert session.online and session.vs_computer
    assert session.viewer() == 0, "the host's table is drawn for the host, whoever is to move"
    assert not session.can_offer_take_back(), "no take-back in an online room"
    back = Session.from_json("dominoes", json.loads(json.dumps(session.to_json())))
    assert [s.kind for s in back.seats] == ["human", "guest", "computer"]
    assert back.seats[1].is_remote and not back.seats[1].is_computer
    while not session.state.is_over() and session.to_move() != 1:
        if session.computer_to_move():
            session.computer_move()
        else:
            session.play(session.state.legal_moves()[0])
    if not session.state.is_over():
        assert not session.local_to_move() and not session.computer_to_move()
        session.play(session.state.legal_moves()[0])  # a guest's move, as the host's room plays it
        assert session.extra.get("last_human", 0) == 0, "a guest's move is not the host's last move"


@pytest.mark.parametrize("game_id", ["dominoes", "triangles", "heptalion"])
def test_take_back_works_after_a_reload_of_a_save_written_before_it_did(game_id):
    # Written by the code of 2e162a2, when a reload lost take-back: the person has moved three times.
    text = (DATA / "page-saves" / f"{game_id}-take-back.json").read_text()
    loaded = saves.load_save(text, expected_game=game_id, validate=Session.from_json)
    session = Session.from_json(game_id, loaded.state)
    before = session.state.to_dict()
    assert session.local_to_move() and session.can_take_back(), "take-back survives the reload"
    assert session.state.to_dict() == before, "the replayed game is the saved one"
    steps = session.take_back()
    assert steps > 0 and session.local_to_move() and len(session.moves) == session.state.turn_number
    assert session.can_take_back(), "and again, to the turn before"
    session.play(session.state.legal_moves()[0])
    assert Session.from_json(game_id, session.to_json()).state.to_dict() == session.state.to_dict()


@pytest.mark.parametrize("game_id", ["dominoes", "triangles", "heptalion"])
def test_take_back_works_after_a_reload_while_the_computer_was_to_move(game_id):
    text = (DATA / "page-saves" / f"{game_id}-take-back.json").read_text()
    session = Session.from_json(game_id, saves.load_save(text, expected_game=game_id).state)
    while session.local_to_move():  # the person's moves (draws too) up to the computer's turn
        your_turn = session.state.to_dict()
        legal = session.state.legal_moves()
        session.play(next((m for m in legal if str(m) not in ("draw", "pass")), legal[0]))
    again = Session.from_json(game_id, json.loads(json.dumps(session.to_json())))  # reloaded mid-reply
    assert again.computer_to_move()
    while again.computer_to_move():
        again.computer_move()
    assert not again.state.is_over(), "the saves are chosen so that the game goes on"
    assert again.state.can_undo(), "the computer's reply can be undone, but not what came before it"
    assert again.can_take_back() and again.take_back() > 0 and again.local_to_move()
    assert again.state.to_dict() == your_turn, "back to the turn before the reload"


def test_a_move_log_that_does_not_lead_to_the_saved_game_leaves_take_back_off():
    text = (DATA / "page-saves" / "dominoes-take-back.json").read_text()
    data = saves.load_save(text, expected_game="dominoes", validate=Session.from_json).state
    data["seed"] += 1  # another deal: the log replays elsewhere, or not at all
    session = Session.from_json("dominoes", data)
    before = session.state.to_dict()
    assert not session.can_take_back() and session.take_back() == 0
    assert session.state.to_dict() == before
