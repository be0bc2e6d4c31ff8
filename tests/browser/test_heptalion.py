"""Heptalion in the page: a seeded game against Automa+ by clicking, the select/undo/redo/confirm flow,
only legal targets clickable, a 3-player game with an elimination, a random board across a reload,
the puzzle's maximum, and no sideways scrolling on a phone."""

from __future__ import annotations

import json
from typing import Any

from boneyard import saves
from boneyard.games import GAMES
from boneyard.games.heptalion.rules import selection_targets
from ui.session import Seat, Session

from .conftest import local_storage, reload_ready

INFO = GAMES["heptalion"]
KEY = saves.save_key("heptalion")
TURN_OR_OVER = (
    "(() => { const t = document.querySelector('.hx-table');"
    " return t && (t.dataset.over === 'true' || (t.dataset.turn === '{seat}' && document.querySelector('button.hx-tile'))); })()"
)


def seeded(seats: list[Seat], seed: int, **options: Any) -> Session:
    """Return a new session as this screen would have started it."""
    options = {"players": len(seats), **options}
    session = Session.start(
        INFO, seats, f"game-original-{len(seats)}", f"Game, {len(seats)} players", options, seed=seed
    )
    return session


def plant(page: Any, session: Session) -> None:
    """Put the session into the page's save and reload onto its table."""
    text = saves.dump_save("heptalion", session.to_json())
    page.evaluate("location.hash = '#/'")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, text])
    reload_ready(page)
    page.evaluate("location.hash = '#/play/heptalion'")
    page.wait_for_selector(".hx-table")


def wait_turn(page: Any, seat: int = 0) -> bool:
    """Wait until ``seat`` may click a tile or the game is over; return True when over."""
    page.wait_for_function(TURN_OR_OVER.replace("{seat}", str(seat)), timeout=60_000)
    return page.get_attribute(".hx-table", "data-over") == "true"


def click_first_placement(page: Any) -> None:
    """Click the first playable tile, its first target space, its first second space, and Confirm."""
    page.locator("button.hx-tile").first.click()
    page.locator("button.hx-cell").first.click()
    page.locator("button.hx-cell:not(.is-first)").first.click()
    page.click("#hx-confirm")


def cpython_choice(view: dict[str, Any]) -> str:
    """Return the move ``click_first_placement`` makes (hand order, then lowest space ids)."""
    targets = selection_targets(view["legal_moves"])
    tile = next(t for t in view["hand"] if t in targets)
    first = min(targets[tile])
    second = min(targets[tile][first])
    sym = {sp["id"]: sp["symbol"] for sp in view["spaces"]}
    return f"{sym[first]}-{sym[second]}@{first},{second}"


def test_a_full_seeded_game_against_automa_by_clicking(app_page, watch):
    page = app_page
    session = seeded(
        [Seat("human", "Ann"), Seat("computer", "Automa+ 2 (Hard)", "hard")], seed=20260501, start=0
    )
    twin = Session.from_json("heptalion", json.loads(json.dumps(session.to_json())))
    plant(page, session)
    clicks = 0
    while not wait_turn(page):
        click_first_placement(page)
        clicks += 1
        assert clicks <= 14
    # The same game under CPython: the same clicks and the same Automa+ answers.
    while not twin.state.is_over():
        if twin.computer_to_move():
            twin.computer_move()
        else:
            twin.play(cpython_choice(twin.state.view(0)))
    outcome = twin.state.outcome()
    assert page.locator(".hx-domino").count() == len(twin.state.covered)
    results = page.locator(".hx-results").inner_text()
    assert f"{twin.seats[outcome.winner].name} wins" in results
    assert "Play again" in page.locator(".hx-controls").inner_text()
    assert KEY not in local_storage(page)  # a finished game's save is dropped
    stats = local_storage(page).get("boneyard:stats", "")
    assert "heptalion" in stats
    watch.assert_clean(page)


def test_select_undo_redo_confirm_and_only_legal_targets(app_page, watch):
    page = app_page
    session = seeded([Seat("human", "Ann"), Seat("computer", "Automa+ 2 (Easy)", "easy")], seed=77, start=0)
    view = session.state.view(0)
    targets = selection_targets(view["legal_moves"])
    plant(page, session)
    wait_turn(page)
    # Only playable tiles are buttons, and nothing on the board before a tile is chosen.
    tiles = page.locator("button.hx-tile").evaluate_all("els => els.map(e => e.dataset.value)")
    assert sorted(tiles) == sorted(targets)
    assert page.locator(".hx-tile").count() == len(view["hand"]) + len(session.state.view(1)["hand"])
    assert page.locator("button.hx-cell").count() == 0
    tile = tiles[0]
    page.click(f"button.hx-tile[data-value='{tile}']")
    spaces = page.locator("button.hx-cell").evaluate_all("els => els.map(e => +e.dataset.value)")
    assert sorted(spaces) == sorted(targets[tile])
    first = spaces[0]
    page.click(f"button.hx-cell[data-value='{first}']")
    seconds = page.locator("button.hx-cell:not(.is-first)").evaluate_all(
        "els => els.map(e => +e.dataset.value)"
    )
    assert sorted(seconds) == sorted(targets[tile][first])
    # Tapping the first space again resets it.
    page.click(f"button.hx-cell[data-value='{first}']")
    assert page.locator(".hx-cell.is-first").count() == 0
    page.click(f"button.hx-cell[data-value='{first}']")
    page.click(f"button.hx-cell[data-value='{seconds[0]}']")
    assert page.locator(".hx-domino.is-pending").count() == 1
    assert page.locator("#hx-confirm").is_enabled()
    page.click("#hx-undo")
    assert page.locator(".hx-domino.is-pending").count() == 0
    assert page.locator(".hx-cell.is-first").count() == 1
    assert page.locator("#hx-confirm").is_disabled()
    page.click("#hx-redo")
    assert page.locator(".hx-domino.is-pending").count() == 1
    # Selecting another tile changes the choice.
    if len(tiles) > 1:
        page.click(f"button.hx-tile[data-value='{tiles[1]}']")
        assert page.locator(".hx-domino.is-pending").count() == 0
        assert page.get_attribute(f"button.hx-tile[data-value='{tiles[1]}']", "aria-pressed") == "true"
        page.click("#hx-undo")
        assert page.locator(".hx-domino.is-pending").count() == 1
    page.click("#hx-confirm")
    wait_turn(page)
    saved = json.loads(local_storage(page)[KEY])
    moves = saved["state"]["game_state"]["moves"]
    assert len(moves) >= 2 and {int(x) for x in moves[0].split("@")[1].split(",")} == {first, seconds[0]}
    assert page.locator(".hx-domino.is-latest").count() == 1
    watch.assert_clean(page)


def test_three_players_with_an_elimination(app_page, watch):
    page = app_page
    seats = [
        Seat("human", "Ann"),
        Seat("computer", "Automa+ 2 (Easy)", "easy"),
        Seat("computer", "Automa+ 3 (Medium)", "medium"),
    ]
    plant(page, seeded(seats, seed=3, start=0))
    assert "Set aside face up" in page.locator(".hx-table").inner_text()
    while not wait_turn(page):
        click_first_placement(page)
    text = page.locator(".hx-table").inner_text()
    assert "is eliminated" in text
    assert page.locator(".hx-placings tbody tr").count() == 3
    assert text.count("2nd (shared)") == 2
    assert page.locator(".hx-chip.is-out").count() == 2 and page.locator(".hx-chip.is-winner").count() == 1
    watch.assert_clean(page)


def test_a_random_board_game_survives_a_reload(app_page, watch):
    page = app_page
    page.evaluate("location.hash = '#/setup/heptalion'")
    page.wait_for_selector("#hx-board")
    page.check("input[name='opponents'][value='computer']")
    page.select_option("#setup-mode", "game")
    page.select_option("#hx-players", "2")
    page.select_option("#hx-board", "random")
    page.select_option("#hx-start", "0")
    page.click("#start-game")
    page.wait_for_selector(".hx-table")
    assert "Heptalion (Random)" in local_storage(page)[KEY] or "random" in local_storage(page)[KEY]
    wait_turn(page)
    click_first_placement(page)
    wait_turn(page)
    cells = "els => els.map(e => e.dataset.space + e.className).join('|')"
    before = page.locator(".hx-cell").evaluate_all(cells)
    covered = page.locator(".hx-domino").count()
    caption = page.locator(".hx-caption").inner_text()
    assert "Random board #" in caption
    reload_ready(page)
    page.wait_for_selector(".hx-table")
    assert page.locator(".hx-cell").evaluate_all(cells) == before
    assert page.locator(".hx-domino").count() == covered
    assert page.locator(".hx-caption").inner_text() == caption
    watch.assert_clean(page)


def test_puzzle_maximum_and_phone_width(app_page, watch):
    page = app_page
    page.evaluate("location.hash = '#/setup/heptalion'")
    page.wait_for_selector("#setup-mode")
    page.select_option("#setup-mode", "fit")
    page.wait_for_selector("#hx-fit-board")
    page.click("#start-game")
    page.wait_for_selector(".hx-table.is-solo")
    page.click("#hx-show-max")
    page.wait_for_selector("#hx-max")
    assert "The maximum on this board is 24 tiles" in page.locator("#hx-max").inner_text()
    assert page.locator(".hx-board.is-solution .hx-domino").count() == 24
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        for hash_ in ("#/play/heptalion", "#/setup/heptalion"):
            page.evaluate(f"location.hash = {hash_!r}")
            page.wait_for_timeout(200)
            over = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert over <= 0, f"{hash_} scrolls sideways by {over}px at 360px"
        page.select_option("#setup-mode", "game")
        page.select_option("#hx-players", "4")
        page.click("#start-game")
        page.wait_for_selector(".hx-table")
        page.wait_for_timeout(200)
        over = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert over <= 0, f"a 4-player table scrolls sideways by {over}px at 360px"
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)
