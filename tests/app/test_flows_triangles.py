"""Triangles flows on a real App over the fake page, moved here from tests/browser/test_triangles_table.py:
Take back against the computer (the game then not counted) and the review with the board as it was.
(Fit, the refusal's fade and the audit stay in Chromium.)"""

from __future__ import annotations

from tests.app.conftest import Open
from tests.app.fakes import FakePort
from tests.app.test_flows_dominoes import walk_review
from ui.app import App


def deal(open_app: Open, seed: int) -> tuple[App, FakePort]:
    """Open the app with a seeded deal and start Triangles against the computer."""
    app, port = open_app(search=f"?seed={seed}")
    port.follow("#/setup/triangles")
    port.press_action("start-game", "triangles")
    assert port.exists(".tri-table")
    return app, port


def moves(port: FakePort) -> int:
    return int(port.attr(".tri-table", "data-moves") or 0)


def take_turn(port: FakePort) -> None:
    """Draw, else pass, else lay the first playable tile on the first marked spot (confirming its turn)."""
    before = moves(port)
    if not port.disabled("#tri-draw"):
        port.press("#tri-draw")
    elif not port.disabled("#tri-pass"):
        port.press("#tri-pass")
    else:
        if not port.exists(".tri-hand-tile.is-selected.is-playable"):
            port.press(".tri-hand-tile.is-playable")
        port.press(".tri-spot")
        if port.exists("#tri-confirm"):
            port.press("#tri-confirm")
    assert moves(port) > before, "no move made: " + port.text("#kit-message")


def play_through(port: FakePort, limit: int = 200) -> None:
    for _ in range(limit):
        if port.exists("#kit-results"):
            return
        take_turn(port)
    raise AssertionError("the game did not end")


def hand(port: FakePort) -> list[str]:
    return [t.attrs["data-value"] for t in port.find_all(".tri-hand-tile")]


def test_take_back_returns_to_your_previous_turn_and_the_game_is_not_counted(open_app: Open) -> None:
    app, port = deal(open_app, 31)
    assert port.disabled("#take-back"), "nothing to take back before your first move"
    take_turn(port)
    before, laid, tiles = hand(port), moves(port), port.attr(".tri-table", "data-tiles")
    take_turn(port)
    assert not port.exists("#kit-results")
    port.press("#take-back")
    assert port.exists(".tri-table.is-my-turn") and moves(port) == laid
    assert hand(port) == before and port.attr(".tri-table", "data-tiles") == tiles
    play_through(port)
    assert "Not counted in your stats: you took back 1 move." in port.text("#kit-results")
    assert app.storage.load_stats().recent == []


def test_review_steps_through_the_game_with_the_board_as_it_was(open_app: Open) -> None:
    _app, port = deal(open_app, 41)
    play_through(port)
    laid = len(port.find_all("#tri-svg .tri-tile"))

    def at_end() -> None:
        assert len(port.find_all("#tri-svg .tri-tile")) == laid

    def at_deal() -> None:
        assert port.find_all("#tri-svg .tri-tile") == [], "the deal: nothing on the table"
        assert len(port.find_all(".kit-seat .tri-face-up svg")) >= 7, "the others' hands are face up"
        tiles = port.find_all(".tri-hand-tile")
        assert len(tiles) >= 7 and all("disabled" in t.attrs for t in tiles)

    def after_one() -> None:
        assert len(port.find_all("#tri-svg .tri-tile")) == 1

    walk_review(port, at_end, at_deal, after_one)
