"""Heptalion in the page: the puzzle's maximum and a phone's width, the table fitting one screen at three
viewports with the tray still from turn to turn, the zoomed board's pan, the keyboard focus moving to the
board, the puzzle's buttons, and the accessibility audit. (Whole games by clicks, the Confirm flow with
undo and redo, an elimination, a random board and Take back across a reload, and the review are tested
under CPython: tests/app/test_flows_heptalion.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from boneyard import saves
from boneyard.games import GAMES
from tests.app.test_flows_heptalion import seeded
from ui.session import Seat, Session

from . import fit
from .conftest import reload_ready

INFO = GAMES["heptalion"]
KEY = saves.save_key("heptalion")
TURN_OR_OVER = (
    "(() => { const t = document.querySelector('.hx-table');"
    " return t && (t.dataset.over === 'true' || (t.dataset.turn === '{seat}' && document.querySelector('button.hx-tile'))); })()"
)


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
    """Click the first playable tile, its first target space, its first second space (unless the choice
    completed itself), and Confirm when the table asks for it."""
    page.locator("button.hx-tile").first.click()
    page.locator("button.hx-cell").first.click()
    if page.locator(".hx-cell.is-first").count() and not page.locator(".hx-domino.is-pending").count():
        page.locator("button.hx-cell:not(.is-first)").first.click()
    if page.locator("#hx-confirm").count():
        page.click("#hx-confirm")


def set_place_at_once(page: Any, on: bool) -> None:
    """Switch "Place at once" in the table's More menu."""
    page.click("#hx-menu")
    box = page.locator("#hx-place-at-once")
    if box.is_checked() != on:
        box.click()
        page.wait_for_function(f"document.querySelector('#hx-confirm') {'===' if on else '!=='} null")
    if page.get_attribute("#hx-menu", "aria-expanded") == "true":
        page.click("#hx-menu")


def play_to_the_end(page: Any, limit: int = 30) -> int:
    """Place the first placement at each of seat 0's turns until the game is over; return the turns."""
    turns = 0
    while not wait_turn(page):
        click_first_placement(page)
        turns += 1
        assert turns <= limit
    return turns


def test_puzzle_maximum_and_phone_width(app_page, watch):
    page = app_page
    page.evaluate("location.hash = '#/setup/heptalion'")
    page.wait_for_selector("#setup-mode")
    page.select_option("#setup-mode", "fit")
    page.wait_for_selector("#hx-fit-board")
    page.click("#start-game")
    page.wait_for_selector(".hx-table.is-solo")
    page.click("#hx-show-max")
    page.wait_for_selector("#hx-toggle-layout")
    assert "the most is 24" in page.locator("#kit-tray").inner_text()
    assert page.locator(".hx-board.is-solution .hx-domino").count() == 24
    page.click("#hx-toggle-layout")
    assert page.locator(".hx-board.is-solution").count() == 0
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
        page.select_option("#setup-players", "4")
        page.click("#start-game")
        page.wait_for_selector(".hx-table")
        page.wait_for_timeout(200)
        fit.assert_fits(page, "a 4-player table at 360x740")
        assert page.locator(".kit-seat").count() == 3
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)


@pytest.mark.parametrize("size", fit.VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_fits_the_viewport_and_the_tray_stays_still_through_a_whole_game(app_page, watch, size):
    """At every viewport, from the deal to the result: no page scroll, the title in view at the start, the
    tray and its buttons in the same place at every one of your turns, cells of 40 px or more, tiles at
    least 44 px wide; the board stays visible under the result (on a phone the open result takes the tray's
    place, and folding it brings the tray back where it was)."""
    page = app_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        plant(page, seeded([Seat("human", "Ann"), Seat("computer", "Computer", "medium")], seed=5, start=0))
        wait_turn(page)
        fit.assert_opens_at_top(page, "start")
        first = fit.snapshot(page)
        turns = 0
        while not wait_turn(page):
            fit.assert_fits(page, f"turn {turns}")
            fit.assert_still(first, fit.snapshot(page), f"turn {turns}")
            tile = page.locator("#kit-tray button.hx-tile").first.bounding_box()
            assert tile["width"] >= 44, f"hand tiles are {tile['width']} px wide"
            cell = page.locator(".hx-cell").first.bounding_box()
            assert cell["width"] >= 40, f"cells are {cell['width']} px"
            click_first_placement(page)
            turns += 1
        assert turns > 3
        fit.assert_fits(page, "end")
        if size[0] < 760:  # a phone: the open results take the tray's place (css/table.css)
            assert page.locator("#kit-tray").is_hidden(), "the open results panel takes the tray's place"
        else:
            fit.assert_still(first, fit.snapshot(page, [".kit-tray", ".kit-message"]), "end")
        assert page.locator("#kit-results").count() and page.locator(".hx-board").count()
        page.click("#kit-fold")
        assert page.locator("#kit-results-body").is_hidden()
        fit.assert_still(first, fit.snapshot(page, [".kit-tray", ".kit-message"]), "end, results folded")
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)


def test_the_zoomed_board_keeps_its_pan_across_moves(app_page, watch):
    page = app_page
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        plant(page, seeded([Seat("human", "Ann"), Seat("computer", "Computer", "easy")], seed=8, start=0))
        wait_turn(page)
        stage = "document.getElementById('hx-stage')"
        span = page.evaluate(f"{stage}.scrollWidth - {stage}.clientWidth")
        assert span > 0, "a phone's board pans (cells of 40 px do not all fit)"
        assert abs(page.evaluate(f"{stage}.scrollLeft") - span / 2) <= 2, "it opens centred"
        page.evaluate(f"{stage}.scrollLeft = 0")
        page.wait_for_timeout(50)
        page.locator("#kit-tray button.hx-tile").last.click()
        assert page.evaluate(f"{stage}.scrollLeft") <= 40 or page.evaluate(
            "document.activeElement.classList.contains('hx-cell')"
        )
        page.click("#hx-zoom-out")
        assert page.locator("#hx-zoom-out").is_disabled()
        assert page.evaluate(f"{stage}.scrollWidth - {stage}.clientWidth") <= 1, "zoomed out, it all fits"
        page.click("#hx-zoom-in")
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)


def test_keyboard_picks_a_tile_then_the_focus_is_on_the_board(app_page, watch):
    page = app_page
    plant(page, seeded([Seat("human", "Ann"), Seat("computer", "Computer", "easy")], seed=12, start=0))
    wait_turn(page)
    page.locator("#kit-tray button.hx-tile").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('hx-cell')"), "focus on the first target"
    placed = page.locator(".hx-domino").count()
    for _ in range(3):
        if page.locator(".hx-domino").count() > placed:
            break
        page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('.hx-domino').length > {placed}")
    assert page.evaluate("document.activeElement.closest('#kit-tray') !== null"), "back at the tray"
    wait_turn(page)
    watch.assert_clean(page)


@pytest.mark.parametrize("theme", ["felt", "light", "dark"])
def test_the_table_passes_the_accessibility_audit(app_page, base_url, watch, theme):
    page = app_page
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("[data-setting=theme]")
    page.select_option("[data-setting=theme]", theme)
    plant(page, seeded([Seat("human", "Ann"), Seat("computer", "Computer", "easy")], seed=6, start=0))
    wait_turn(page)
    page.locator("#kit-tray button.hx-tile").first.click()
    page.click("#hx-menu")
    for state in ("play", "result"):
        if state == "result":
            page.click("#hx-menu")
            play_to_the_end(page)
        results = Axe().run(page)
        serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        assert not serious, json.dumps(
            [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious], indent=1
        )
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("[data-setting=theme]")
    page.select_option("[data-setting=theme]", "felt")
    watch.assert_clean(page)


BUTTONS_INSIDE = """() => {
  const buttons = [...document.querySelectorAll('.kit-tray-buttons .kit-btn')];
  const out = buttons.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.id + ' ' + b.scrollWidth + '>' + b.clientWidth);
  const boxes = buttons.map((b) => b.getBoundingClientRect());
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
      out.push(buttons[i].id + ' overlaps ' + buttons[i + 1 + j].id);
    }
  }));
  return out;
}"""


@pytest.mark.parametrize("at_once", [True, False], ids=["at-once", "confirm"])
def test_the_puzzle_buttons_keep_their_words_inside_them_and_its_result_has_home(app_page, watch, at_once):
    page = app_page
    session = Session.start(INFO, [Seat("human", "Ann")], "fit-original", "Puzzle", {"players": 1}, seed=5)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        plant(page, session)
        set_place_at_once(page, at_once)
        page.wait_for_selector("#hx-show-max")
        assert page.evaluate(BUTTONS_INSIDE) == [], "a button's words run out of it"
        play_to_the_end(page, limit=40)
        page.wait_for_selector("#kit-results")
        assert page.locator("#kit-results a[href='#/']").count() == 1, "the puzzle's result offers Home"
        assert page.evaluate(BUTTONS_INSIDE) == []
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)
