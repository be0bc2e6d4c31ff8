"""Triangles in the page: the keyboard path, pan and zoom, no sideways scrolling at 360 px, and a phone's
results. (Marked spots against the engine, a seeded game by clicks with a reload, and the shared-device
cover are tested under CPython: tests/app/test_flows_triangles.py, which builds the positions.)
Positions are planted as saves built with the engine, then loaded through
the app's own "another tab saved" path (a storage event), which costs far less than a reload; going
back to an earlier position reloads (a shorter history never replaces a longer one).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))

from boneyard import saves
from boneyard.games import GAMES
from tests.app.test_flows_triangles import a_rich_position, after
from tests.app.test_flows_triangles import deal_session as deal
from ui.session import Seat, Session

from .conftest import reload_ready

KEY = "boneyard:save:triangles"
INFO = GAMES["triangles"]


def plant(page, session: Session) -> None:
    """Load ``session`` into the page as if another tab had saved it, and show its table."""
    page.wait_for_function("!document.querySelector('.tri-table[data-turn=\"wait\"]')")
    text = saves.dump_save("triangles", session.to_json())
    moves = len(session.state.history)
    shown = page.get_attribute(".tri-table", "data-moves") if page.query_selector(".tri-table") else None
    if shown is not None and int(shown) > moves:
        # Going back to an earlier position: the app never lets another tab's shorter history replace a
        # longer one of the same game, so this takes a reload.
        page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY, text])
        reload_ready(page)
        page.evaluate("location.hash = '#/play/triangles'")
    else:
        page.evaluate(
            "([key, text]) => { localStorage.setItem(key, text);"
            " window.dispatchEvent(new StorageEvent('storage', {key})); location.hash = '#/play/triangles'; }",
            [KEY, text],
        )
    page.wait_for_selector(f".tri-table[data-moves='{moves}']")
    page.evaluate("document.querySelectorAll('.toast').forEach(t => t.remove())")


@pytest.fixture(scope="module")
def page(app_page):
    return app_page


def test_the_keyboard_chooses_a_tile_and_places_it(page, watch):
    position, tile = a_rich_position()
    moves = len(position.state.history)
    plant(page, position)
    page.focus(f"#hand-{tile}")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.classList.contains('tri-spot')")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Place ") and "row" not in label, "a spot is named by the tiles beside it"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('tri-spot')")
    page.keyboard.press("Enter")
    page.wait_for_function(f"+document.querySelector('.tri-table').dataset.moves > {moves}")
    watch.assert_clean(page)


def test_pan_and_zoom_never_place_a_tile_and_fit_comes_back(page, watch):
    position, tile = a_rich_position()
    moves = len(position.state.history)
    plant(page, position)
    page.click(f"#hand-{tile}")
    page.wait_for_selector(".tri-spot")
    fit = page.get_attribute("#tri-svg", "viewBox")
    box = page.locator(".tri-spot").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 30, steps=6)
    page.mouse.up()
    panned = page.get_attribute("#tri-svg", "viewBox")
    assert panned != fit
    assert page.get_attribute(".tri-table", "data-moves") == str(moves)  # the drag started on a spot
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"document.querySelector('#tri-svg').getAttribute('viewBox') !== '{panned}'")
    zoomed = [float(v) for v in page.get_attribute("#tri-svg", "viewBox").split()]
    assert zoomed[2] < float(panned.split()[2])
    page.click("#tri-zoom-in")
    assert float(page.get_attribute("#tri-svg", "viewBox").split()[2]) < zoomed[2]
    page.click("#tri-zoom-fit")
    assert page.get_attribute("#tri-svg", "viewBox") == fit
    assert page.get_attribute(".tri-table", "data-moves") == str(moves)
    watch.assert_clean(page)


def test_no_sideways_scrolling_on_a_phone(page, watch):
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        position, tile = a_rich_position()
        plant(page, position)
        page.click(f"#hand-{tile}")
        page.wait_for_selector(".tri-spot")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        late = after(7, 12)
        if not late.state.is_over():
            plant(page, late)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
        size = page.locator(".tri-hand-tile").first.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44  # big enough to tap
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)


# The lines a results row's name takes: distinct tops of its letters' boxes.
NAME_LINES = """rows => rows.map(row => {
  const tops = new Set(), walk = document.createTreeWalker(row, NodeFilter.SHOW_TEXT), range = document.createRange();
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      range.setStart(node, i); range.setEnd(node, i + 1);
      for (const box of range.getClientRects()) if (box.width) tops.add(Math.round(box.top));
    }
  }
  return [row.innerText, tops.size];
})"""


def finished(seats: list[Seat], seed: int) -> Session:
    """Return a four-player game played to its end (the first legal move for each person)."""
    game = Session.start(INFO, seats, "players-4", "4 players", {"players": 4}, seed=seed)
    while not game.state.is_over():
        if game.computer_to_move():
            game.computer_move()
        else:
            game.play(str(game.state.legal_moves()[0]))
    return game


def test_a_phones_results_keep_each_name_on_one_line(page, watch):
    """At 360 px a four-player result reads "Computer 1" whole, never "Computer" over "1"; a long name
    wraps between its words and the table still fits."""
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        plant(page, finished(deal(3, players=4).seats, 3))
        page.wait_for_selector("#kit-results")
        names = page.eval_on_selector_all("#kit-results tbody th", NAME_LINES)
        assert [name for name, _ in names] == ["You", "Computer 1", "Computer 2", "Computer 3"]
        assert all(lines == 1 for _, lines in names), names
        long = ["Ann", "Alexandria Montgomery", "Bartholomew Fitzgerald", "Wolfgang Amadeus"]
        plant(page, finished([Seat("human", name) for name in long], 3))
        page.wait_for_selector("#kit-results")
        assert page.eval_on_selector_all("#kit-results tbody th", NAME_LINES)[0] == ["Ann", 1]
        fits = "t => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 0.5"
        assert page.eval_on_selector("#kit-results table", fits), "the tiles left are cut off"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)
