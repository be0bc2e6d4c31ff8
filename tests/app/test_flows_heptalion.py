"""Heptalion flows on a real App over the fake page, moved here from tests/browser/test_heptalion.py: a
seeded game to its end matching the same game under CPython, the Confirm flow with undo and redo over
only legal targets, three players with an elimination, a random board and Take back across a reload, and
the review. (Fit, the zoom's pan, keyboard focus, the puzzle at a phone's width and the audit stay in
Chromium.)"""

from __future__ import annotations

import json
import re
from typing import Any

from boneyard import saves
from boneyard.games import GAMES
from boneyard.games.heptalion.rules import selection_targets
from tests.app.conftest import Open
from tests.app.fakes import FakePort, FakeStorage
from tests.app.test_flows_dominoes import walk_review
from ui.app import App
from ui.session import Seat, Session

KEY = saves.save_key("heptalion")


def seeded(seats: list[Seat], seed: int, **options: Any) -> Session:
    """Return a new session as the setup screen would have started it."""
    options = {"players": len(seats), **options}
    return Session.start(
        GAMES["heptalion"],
        seats,
        f"game-original-{len(seats)}",
        f"Game, {len(seats)} players",
        options,
        seed=seed,
    )


def plant(open_app: Open, session: Session) -> tuple[App, FakePort]:
    """Open the app on the table of ``session``, put in its save."""
    storage = FakeStorage({KEY: saves.dump_save("heptalion", session.to_json())})
    return open_app(storage, "#/play/heptalion")


def versus(seed: int, level: str = "easy") -> Session:
    return seeded([Seat("human", "Ann"), Seat("computer", "Computer", level)], seed=seed, start=0)


def over(port: FakePort) -> bool:
    return port.attr(".hx-table", "data-over") == "true"


def click_first_placement(port: FakePort) -> None:
    """Click the first playable tile, its first target space, its first second space (unless the choice
    completed itself), and Confirm when the table asks for it."""
    port.press("button.hx-tile")
    port.press("button.hx-cell")
    if port.exists(".hx-cell.is-first") and not port.exists(".hx-domino.is-pending"):
        second = next(c for c in port.find_all("button.hx-cell") if not c.has_class("is-first"))
        port.press(f'button.hx-cell[data-value="{second.attrs["data-value"]}"]')
    if port.exists("#hx-confirm"):
        port.press("#hx-confirm")


def play_to_the_end(port: FakePort, limit: int = 30) -> int:
    """Place the first placement at each of seat 0's turns until the game is over; return the turns."""
    turns = 0
    while not over(port):
        assert port.attr(".hx-table", "data-turn") == "0" and port.exists("button.hx-tile"), port.text()
        click_first_placement(port)
        turns += 1
        assert turns <= limit
    return turns


def cpython_choice(view: dict[str, Any]) -> str:
    """Return the move ``click_first_placement`` makes (hand order, then lowest space ids)."""
    targets = selection_targets(view["legal_moves"])
    tile = next(t for t in view["hand"] if t in targets)
    first = min(targets[tile])
    second = min(targets[tile][first])
    sym = {sp["id"]: sp["symbol"] for sp in view["spaces"]}
    return f"{sym[first]}-{sym[second]}@{first},{second}"


def spaces(port: FakePort, selector: str = "button.hx-cell") -> list[int]:
    return sorted(int(c.attrs["data-value"]) for c in port.find_all(selector))


def test_a_full_seeded_game_by_clicking_matches_the_same_game_under_cpython(open_app: Open) -> None:
    session = seeded([Seat("human", "Ann"), Seat("computer", "Computer", "hard")], seed=20260501, start=0)
    twin = Session.from_json("heptalion", json.loads(json.dumps(session.to_json())))
    _app, port = plant(open_app, session)
    assert not port.exists("#hx-confirm")  # places at once by default
    play_to_the_end(port, 14)
    while not twin.state.is_over():
        if twin.computer_to_move():
            twin.computer_move()
        else:
            twin.play(cpython_choice(twin.state.view(0)))
    covered = [seat for seat, _ in twin.state.covered]
    assert len(port.find_all(".hx-domino")) == len(covered)
    for seat in set(covered):
        assert len(port.find_all(f".hx-domino.hx-own-{seat}")) == covered.count(seat)
    results = port.text("#kit-results")
    assert ("You win!" if twin.state.outcome().winner == 0 else "Computer wins") in results
    assert "Play again" in results and "(shared)" not in results
    assert KEY not in port.storage.items  # a finished game's save is dropped
    assert "heptalion" in port.storage.items.get("boneyard:stats", "")


def test_select_undo_redo_confirm_and_only_legal_targets(open_app: Open) -> None:
    session = versus(77)
    view = session.state.view(0)
    targets = selection_targets(view["legal_moves"])
    _app, port = plant(open_app, session)
    port.change("#hx-place-at-once", checked=False)
    tiles = [t.attrs["data-value"] for t in port.find_all("button.hx-tile")]
    assert sorted(tiles) == sorted(targets)  # only playable tiles are buttons
    assert len(port.find_all("#kit-tray .hx-tile")) == len(view["hand"])
    assert len(port.find_all(".kit-seat .hx-tile")) == len(session.state.view(1)["hand"])
    assert spaces(port) == []  # nothing on the board before a tile is chosen
    tile = next(t for t in tiles if any(len(v) > 1 for v in targets[t].values()))
    port.press(f'button.hx-tile[data-value="{tile}"]')
    assert spaces(port) == sorted(targets[tile])
    first = next(s for s in spaces(port) if len(targets[tile][s]) > 1)
    cell = f'button.hx-cell[data-value="{first}"]'
    port.press(cell)
    seconds = [s for s in spaces(port) if s != first]
    assert seconds == sorted(targets[tile][first])
    port.press(cell)  # tapping the first space again resets it
    assert not port.exists(".hx-cell.is-first")
    port.press(cell)
    port.press(f'button.hx-cell[data-value="{seconds[0]}"]')
    assert len(port.find_all(".hx-domino.is-pending")) == 1 and not port.disabled("#hx-confirm")
    port.press("#hx-undo")
    assert not port.exists(".hx-domino.is-pending") and len(port.find_all(".hx-cell.is-first")) == 1
    assert port.disabled("#hx-confirm")
    port.press("#hx-redo")
    assert len(port.find_all(".hx-domino.is-pending")) == 1
    port.press("#hx-confirm")
    moves = json.loads(port.storage.items[KEY])["state"]["game_state"]["moves"]
    assert len(moves) >= 2 and {int(x) for x in moves[0].split("@")[1].split(",")} == {first, seconds[0]}
    assert len(port.find_all(".hx-domino.is-latest")) == 1
    assert len(port.find_all(".hx-domino.is-recent")) == 1  # the computer's reply


def test_three_players_with_an_elimination(open_app: Open) -> None:
    seats = [
        Seat("human", "Ann"),
        Seat("computer", "Computer 1", "easy"),
        Seat("computer", "Computer 2", "medium"),
    ]
    _app, port = plant(open_app, seeded(seats, seed=3, start=0))
    assert len(port.find_all(".kit-seat")) == 2
    play_to_the_end(port)
    assert len(port.find_all(".hx-placings tbody tr")) == 3
    assert port.text("#kit-results").count("2nd (shared)") == 2
    text = port.text(".hx-table")
    assert "out 1st" in text and "out 2nd" in text


def test_a_random_board_game_survives_a_reload(open_app: Open) -> None:
    _app, port = open_app()
    port.go("#/setup/heptalion")
    port.change('[data-field="opponents"][value="computer"]', "computer", checked=True)
    port.change("#setup-mode", "game")
    port.change("#setup-players", "2")
    port.change("#hx-board", "random")
    port.change("#hx-start", "0")
    port.press("#start-game")
    assert "random" in port.storage.items[KEY]
    click_first_placement(port)
    cells = [c.attrs.get("data-space", "") + c.attrs.get("class", "") for c in port.find_all(".hx-cell")]
    covered = len(port.find_all(".hx-domino"))
    caption = port.text("#hx-caption")
    assert caption.startswith("Random board") and not re.search(r"\d{5,}", caption)
    _again, page = open_app(port.storage, "#/play/heptalion")
    assert [
        c.attrs.get("data-space", "") + c.attrs.get("class", "") for c in page.find_all(".hx-cell")
    ] == cells
    assert len(page.find_all(".hx-domino")) == covered and page.text("#hx-caption") == caption


def test_take_back_survives_a_reload_and_the_game_is_not_counted(open_app: Open) -> None:
    _app, port = plant(open_app, versus(31))
    assert port.disabled("#take-back"), "nothing to take back before your first move"
    hand = [t.attrs["data-tile"] for t in port.find_all("#kit-tray .hx-tile")]
    click_first_placement(port)
    assert len(port.find_all(".hx-domino")) == 2
    _again, page = open_app(port.storage, "#/play/heptalion")  # the save's move log gives the undo back
    assert not page.disabled("#take-back"), "Take back after a reload"
    page.press("#take-back")
    assert page.find_all(".hx-domino") == []
    assert [t.attrs["data-tile"] for t in page.find_all("#kit-tray .hx-tile")] == hand
    play_to_the_end(page)
    assert "Not counted in your stats: you took back 1 move." in page.text("#kit-results")


def test_review_steps_through_the_finished_game_with_the_board_as_it_was(open_app: Open) -> None:
    _app, port = plant(open_app, versus(41))
    play_to_the_end(port)
    placed = len(port.find_all(".hx-domino"))

    def at_deal() -> None:
        assert port.find_all(".hx-domino") == []
        assert len(port.find_all(".kit-seat .hx-tile")) == 14, "the other hand is face up"

    def after_one() -> None:
        assert len(port.find_all(".hx-domino.is-face")) == 1

    assert walk_review(port, lambda: None, at_deal, after_one) == placed
