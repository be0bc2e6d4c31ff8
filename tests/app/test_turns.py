"""The computer's turns on a real App over the fake page, its pauses on the fake page's clock: a new deal
or another table never waits for a computer that was pausing on the last one, and ``?seed=-5`` is not
``?seed=5`` (the CPython half of tests/browser/test_turns.py; the slide and "Your turn" timing stay there).
"""

from __future__ import annotations

from tests.app.conftest import Open
from tests.app.fakes import FakePort
from ui.app import App

SEED = "?seed=5"  # with this seed the computer (seat 1) opens a Classic round and a game of Triangles


def deal(port: FakePort, game_id: str, seconds: float = 600.0) -> None:
    """Deal a game against the computer from its setup screen; let ``seconds`` pass."""
    port.go(f"#/setup/{game_id}")
    port.change('[data-field="opponents"][value="computer"]', "computer", checked=True)
    port.fire(port._event("click", port.get('[data-action="start-game"]')))
    port.settle(seconds)


def moves(app: App, game_id: str) -> int:
    return app.sessions[game_id].move_count()


def test_a_new_deal_during_the_computers_pause_is_played(open_app: Open) -> None:
    app, port = open_app(search=SEED)
    deal(port, "triangles", seconds=0.2)
    first = app.sessions["triangles"]
    assert moves(app, "triangles") == 0 and app.turns.busy  # the computer pauses before its opening
    deal(port, "triangles", seconds=0.2)
    assert app.sessions["triangles"] is not first and moves(app, "triangles") == 0
    port.settle(1.0)
    assert moves(app, "triangles") > 0 and first.move_count() == 0


def test_another_table_opened_during_the_computers_pause_is_played(open_app: Open) -> None:
    app, port = open_app(search=SEED)
    deal(port, "triangles", seconds=0.2)
    deal(port, "dominoes", seconds=2.0)  # leave for another table while that computer pauses
    assert moves(app, "triangles") == 0
    session = app.sessions["dominoes"]
    assert not session.seats[session.to_move() or 0].is_computer  # Dominoes waits for the person
    port.go("#/play/triangles")  # and back: its computer plays its opening now
    port.settle(2.0)
    assert moves(app, "triangles") > 0


def test_a_negative_seed_deals_another_game(open_app: Open) -> None:
    hands = {}
    for seed in (5, -5, 5):
        _app, port = open_app(search=f"?seed={seed}")
        deal(port, "dominoes")
        hands.setdefault(seed, []).append(sorted(t.attrs["data-value"] for t in port.actions("tile")))
    assert hands[5][0] == hands[5][1], "the same seed deals the same game"
    assert hands[-5][0] != hands[5][0], "?seed=-5 dealt the game of ?seed=5"
