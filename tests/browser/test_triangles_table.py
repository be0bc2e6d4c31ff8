"""The Triangles table on the table kit, in the page: seeded games played to the end by clicks at the
three viewports (no page scroll, the title in view at the open, the tray and its buttons still from turn
to turn, hand tiles at least 44 px wide, corner numbers readable), a refused tap that says why and fades,
and the accessibility audit. (Take back and the review are tested under CPython:
tests/app/test_flows_triangles.py.)"""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from . import fit
from .tables import module_page, open_setup, play_fitting, play_through, viewport

MAX_TURNS = 200
READABLE_PX = 40  # the fit never draws a tile's side smaller than this (lay.MIN_PX, less rounding)

VISIBLE_SPOT = """() => {
  const svg = document.querySelector('#tri-svg').getBoundingClientRect();
  const covers = [...document.querySelectorAll('.kit-board-bar > *, .tri-placing, #kit-results')]
    .map((e) => e.getBoundingClientRect());
  const inside = (x, y, r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  for (const spot of document.querySelectorAll('.tri-spot')) {
    const b = spot.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height * 0.6;
    if (inside(x, y, svg) && !covers.some((r) => inside(x, y, r))) return spot.id;
  }
  return null;
}"""

SIDE_PX = """() => {
  const svg = document.querySelector('#tri-svg');
  const vb = svg.viewBox.baseVal, b = svg.getBoundingClientRect();
  return Math.min(b.width / vb.width, b.height / vb.height);
}"""


def start(page, base_url, *, seed=7, players=2, opponents="computer"):
    """Open the setup screen with a seeded deal, choose the players, and start."""
    open_setup(page, base_url, "triangles", seed=seed, opponents=opponents, ready="#start-game")
    page.select_option("#setup-players", str(players))
    page.click("#start-game")
    page.wait_for_selector(".tri-table")


def wait_for_human_or_end(page):
    """Wait until it is a person's turn, a dialog is up, or the game is over."""
    page.wait_for_function(
        "document.querySelector('#kit-results, .overlay, .tri-table.is-my-turn') !== null", timeout=60_000
    )


def click_a_spot(page):
    """Click a marked spot that is in view (zooming out when none is)."""
    page.wait_for_selector(".tri-spot")
    for _ in range(8):
        spot = page.evaluate(VISIBLE_SPOT)
        if spot:
            box = page.locator(f"#{spot}").bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6)
            return
        page.click("#tri-zoom-out")
    raise AssertionError("no marked spot comes into view")


def take_turn(page):
    """Draw, else pass, else lay the first playable tile on a visible spot (turning it when asked)."""
    moves = int(page.get_attribute(".tri-table", "data-moves"))
    if page.is_enabled("#tri-draw"):
        page.click("#tri-draw")
    elif page.is_enabled("#tri-pass"):
        page.click("#tri-pass")
    else:
        if not page.locator(".tri-hand-tile.is-selected.is-playable").count():
            page.click(".tri-hand-tile.is-playable >> nth=0")
        click_a_spot(page)
        if page.locator("#tri-confirm").count():
            page.click("#tri-confirm")
    try:
        page.wait_for_function(f"+document.querySelector('.tri-table').dataset.moves > {moves}")
    except Exception:
        raise AssertionError("no move made: " + page.locator("#kit-message").inner_text()) from None


def play_to_the_end(page):
    """Click through a whole game (showing tiles on a shared device)."""
    play_through(
        page, wait=wait_for_human_or_end, take_turn=take_turn, over="#kit-results", max_turns=MAX_TURNS
    )


page = module_page()


@pytest.mark.parametrize("size", fit.VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_game_by_clicks_fits_the_viewport_and_the_tray_stays_still(page, base_url, watch, size):

    def readable_tiles(page):
        tile = page.locator(".tri-hand-tile").first.bounding_box()
        assert tile["width"] >= 44 and tile["height"] >= 38, f"hand tiles are {tile}"
        if not page.locator("#tri-zoom-fit.is-manual").count():
            assert page.evaluate(SIDE_PX) >= READABLE_PX, "the fit shrank the tiles below readable"

    with viewport(page, *size):
        start(page, base_url, seed=12, players=2)
        turns = play_fitting(
            page,
            wait=wait_for_human_or_end,
            take_turn=take_turn,
            over="#kit-results",
            max_turns=MAX_TURNS,
            check=readable_tiles,
        )
        assert turns > 3
        assert page.locator("#tri-svg .tri-tile").count() > 3, "the finished board stays under the result"
        page.click("#kit-fold")
        page.wait_for_selector("#kit-results.is-folded")
        fit.assert_fits(page, "folded")
    watch.assert_clean(page)


def test_a_refused_tap_says_why_in_the_message_line_and_fades(page, base_url, watch):
    start(page, base_url, seed=21)
    for _ in range(40):
        wait_for_human_or_end(page)
        if page.locator("#kit-results").count():
            pytest.skip("no turn offered a refused tap")
        playable = page.locator(".tri-hand-tile.is-playable")
        if playable.count() and page.locator(".tri-table").get_attribute("data-tiles") != "0":
            if not page.locator(".tri-hand-tile.is-selected").count():
                playable.first.click()
            page.wait_for_selector(".tri-open")
            cell = page.locator(".tri-open").first.get_attribute("data-value")
            page.locator(f".tri-open[data-value='{cell}']").dispatch_event("click")
            refusal = page.locator(".kit-refusal")
            refusal.wait_for()
            words = refusal.inner_text()
            assert "does not fit" in words and "row" not in words, "the spot named by the tiles beside it"
            assert page.locator(".kit-message .kit-refusal").count() == 1, "one message at a time"
            assert page.locator(".toast").count() == 0, "no toast over the hand"
            page.wait_for_function(
                "getComputedStyle(document.querySelector('.kit-refusal')).opacity === '0'", timeout=6000
            )
            return
        take_turn(page)
    pytest.skip("no turn offered a refused tap")


@pytest.mark.parametrize("theme", ["felt", "light", "dark"])
def test_the_table_passes_the_accessibility_audit(page, base_url, watch, theme):
    start(page, base_url, seed=5)
    wait_for_human_or_end(page)
    page.evaluate(f"document.documentElement.setAttribute('data-theme', '{theme}')")
    playable = page.locator(".tri-hand-tile.is-playable")
    if playable.count():
        playable.first.click()
        page.wait_for_selector(".tri-spot")
    for where in ("a tile chosen", "the end"):
        page.evaluate(f"document.documentElement.setAttribute('data-theme', '{theme}')")
        results = Axe().run(page)
        serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        assert not serious, (
            where
            + ": "
            + json.dumps(
                [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious], indent=1
            )
        )
        if where == "a tile chosen":
            page.keyboard.press("Escape")
            play_to_the_end(page)
    watch.assert_clean(page)
