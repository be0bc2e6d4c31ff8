"""The computer's turns in the page: "Your turn" shows only once the computer's tile has landed. (A new
table during a computer's pause and a negative seed are tested under CPython: tests/app/test_turns.py.)"""

from __future__ import annotations

import pytest

from .conftest import READY, READY_TIMEOUT_MS, new_context, watch_page

SEED = 5  # with this seed the computer (seat 1) opens both a Classic round and a game of Triangles


@pytest.fixture(scope="module")
def animated(browser, watch):
    """Return a page with animations on, so that the computer pauses 0.7 s before each move."""
    context = new_context(browser, watch, reduced_motion="no-preference")
    page = context.new_page()
    watch_page(page, watch)
    yield page
    watch.assert_clean(page)
    context.close()


def open_setup(page, base_url, game_id, seed=SEED):
    page.goto(f"{base_url}/?seed={seed}#/setup/{game_id}")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("#start-game")


def deal(page, game_id, mode=None):
    """Start a game against the computer from its setup screen (the page is already open)."""
    page.evaluate(f"location.hash = '#/setup/{game_id}'")
    page.wait_for_selector("#start-game")
    page.check("input[name=opponents][value=computer]")
    if mode:
        page.select_option("#setup-mode", mode)
    page.click("#start-game")


# Counts, frame by frame, the frames where the message line says it is the person's turn while a tile
# still slides in (``data-kit-from``), and the frames where one slides at all.
WATCH_SETTLING = """() => {
  window.__settle = {early: 0, sliding: 0, turn: 0};
  const tick = () => {
    const line = document.querySelector('#kit-message');
    const sliding = document.getAnimations().some((a) => a.playState === 'running'
      && a.effect && a.effect.target && a.effect.target.hasAttribute('data-kit-from'));
    const turn = !!line && line.classList.contains('is-turn');
    window.__settle.sliding += sliding ? 1 : 0;
    window.__settle.turn += turn ? 1 : 0;
    window.__settle.early += turn && sliding ? 1 : 0;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


@pytest.mark.parametrize("game_id", ["dominoes", "triangles"])
def test_your_turn_shows_once_the_computers_tile_has_landed(animated, base_url, game_id):
    page = animated
    open_setup(page, base_url, game_id)
    page.evaluate(WATCH_SETTLING)
    deal(page, game_id, "classic" if game_id == "dominoes" else None)  # the computer opens
    page.wait_for_function("window.__settle.turn > 5", timeout=15_000)
    seen = page.evaluate("window.__settle")
    assert seen["sliding"] > 0, "the computer's opening tile slid in"
    assert seen["early"] == 0, f"'your turn' showed in {seen['early']} frames while the tile still moved"
