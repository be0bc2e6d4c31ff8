"""Dominoes in the page: keyboard play keeps the focus at the hand, the table fits a phone and every
viewport through a whole game, a refused tile's reason fades, and a round against Expert. (Whole games,
a match, same-device privacy, a reload, Draw and Pass, a full storage, take back, review and Play again
are tested under CPython: tests/app/test_flows_dominoes.py and tests/app/test_play.py.)"""

from __future__ import annotations

import pytest

from . import fit
from .tables import choose_mode, module_page, open_setup, play_fitting, play_through, viewport

MAX_TURNS = 400


def start(page, base_url, mode, *, seed=7, opponents="computer", players=None, levels=None):
    """Open the setup screen with a seeded deal, choose the mode, and start."""
    open_setup(page, base_url, "dominoes", seed=seed, opponents=opponents, ready="#setup-mode")
    choose_mode(page, mode, players)
    for seat, level in (levels or {}).items():
        page.select_option(f"#setup-level-{seat}", level)
    page.click("#start-game")
    page.wait_for_selector(".dom-table")


FINAL_SCORES = """() => {
  const total = document.querySelector('#kit-results .dom-summary .kit-score-total');
  if (total) return [...total.querySelectorAll('td')].map((td) => +td.innerText);
  return [...document.querySelectorAll('#kit-results .dom-summary tbody tr')]
    .map((tr) => +tr.querySelectorAll('td')[2].innerText);
}"""


def final_scores(page) -> list[int]:
    """Return a finished match's scores from its results' table (the Total column, or the total row)."""
    return page.evaluate(FINAL_SCORES)


def wait_for_human_or_end(page):
    """Wait until it is a person's turn, a dialog is up, or the game is over."""
    page.wait_for_function(
        "document.querySelector('#kit-results, .overlay, .dom-table.is-my-turn') !== null",
        timeout=60_000,
    )


def your_turns(page, count):
    """Yield at each of a person's next ``count`` turns; stop once a dialog or the result is up."""
    for _ in range(count):
        wait_for_human_or_end(page)
        if page.locator("#kit-results, .overlay").count():
            return
        yield


def check_buttons(page):
    """Draw and Pass are enabled exactly when the rules allow them (suggestions mark playable tiles)."""
    playable = page.locator(".dom-hand-tile.is-playable").count()
    stock_text = page.locator("#dom-stock").inner_text().split()[0]
    draw = page.locator("#draw")
    passing = page.locator("#pass")
    if playable:
        assert draw.count() == 0 or draw.is_disabled()
        assert passing.is_disabled()
    else:
        stock = int(stock_text) if stock_text.isdigit() else 0
        if draw.count():
            assert draw.is_enabled() == (stock > 0)
        assert passing.is_enabled() == (draw.count() == 0 or stock == 0)


def take_turn(page):
    """Play the first playable tile (choosing the left end when asked), or draw, or pass."""
    check_buttons(page)
    tiles = page.locator(".dom-hand-tile.is-playable")
    if tiles.count():
        before = page.locator(".dom-hand-tile").count()
        tiles.first.click()
        if page.locator("button.dom-end.is-target").count():
            page.click("#end-L")
        return before
    if page.locator("#draw:not([disabled])").count():
        page.click("#draw")
    else:
        page.click("#pass")
    return None


def play_to_the_end(page, *, hands=1):
    """Click through a whole game; return the number of hand summaries dismissed."""
    dismissed, _turns = play_through(
        page, wait=wait_for_human_or_end, take_turn=take_turn, over="#over-title", max_turns=MAX_TURNS
    )
    return dismissed


page = module_page()


def test_keyboard_play_keeps_the_focus_at_the_hand(page, base_url, watch):
    """A tile played with the keyboard leaves the focus on the hand, not at the top of the page."""
    start(page, base_url, "classic", seed=12)
    for _ in your_turns(page, 3):
        playable = page.locator(".dom-hand-tile.is-playable")
        if not playable.count():
            take_turn(page)
            continue
        playable.first.focus()
        page.keyboard.press("Enter")
        if page.locator("button.dom-end.is-target").count():
            page.keyboard.press("l")
        page.wait_for_timeout(200)
        inside = page.evaluate("document.activeElement.closest('.kit-tray') !== null")
        assert inside, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    watch.assert_clean(page)


def test_the_table_fits_a_phone_without_sideways_scrolling(page, base_url, watch):
    with viewport(page, 360, 740):
        start(page, base_url, "match-4-100", seed=2)
        for _ in your_turns(page, 6):
            take_turn(page)
            over = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert over <= 0, f"the table scrolls sideways by {over}px"
        assert page.locator(".kit-seat").count() == 3
    watch.assert_clean(page)


@pytest.mark.parametrize("size", fit.VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_fits_the_viewport_and_the_tray_stays_still_through_a_whole_game(
    page, base_url, watch, size
):
    """At every viewport, from the deal to the result: no page scroll, the title in view at the start, the
    tray and its buttons in the same place at every one of your turns, tiles at least 40 px wide."""

    def wide_tiles(page):
        # Seven upright tiles share a phone's row (every one whole, none scrolled away): a tile's button is
        # 40 px wide there and twice as tall, 64 px wide where there is room.
        box = page.locator(".dom-hand-tile").first.bounding_box()
        least = 40 if size[0] < 760 else 60
        assert box["width"] >= least and box["height"] >= 44, f"hand tiles are {box}"

    with viewport(page, *size):
        start(page, base_url, "classic", seed=17)
        turns = play_fitting(
            page,
            wait=wait_for_human_or_end,
            take_turn=take_turn,
            over="#over-title",
            max_turns=MAX_TURNS,
            check=wide_tiles,
        )
        assert turns > 2
        assert page.locator(".dom-line").count(), "the finished board stays visible under the result"
    watch.assert_clean(page)


def test_a_refused_tile_says_why_in_the_message_line_and_the_reason_fades(page, base_url, watch):
    start(page, base_url, "classic", seed=23)
    for _ in range(30):
        wait_for_human_or_end(page)
        if page.locator("#kit-results").count():
            pytest.skip("no turn offered a tile that does not fit")
        dim = page.locator(".dom-hand-tile.is-dim")
        if dim.count() and page.locator(".dom-hand-tile.is-playable").count():
            dim.first.click()
            refusal = page.locator(".kit-refusal")
            refusal.wait_for()
            assert "does not fit" in refusal.inner_text() or "cannot" in refusal.inner_text()
            assert page.locator(".kit-message .kit-refusal").count() == 1, "one message at a time"
            assert page.locator(".toast").count() == 0, "no toast over the hand"
            page.wait_for_function(
                "getComputedStyle(document.querySelector('.kit-refusal')).opacity === '0'", timeout=6000
            )
            break
        take_turn(page)
    watch.assert_clean(page)


def test_a_round_against_expert_plays_to_the_end(page, base_url, watch):
    """Expert (boneyard.ai's search, thinking in slices) is offered in setup and plays a whole round."""
    start(page, base_url, "classic", seed=5, levels={1: "expert"})
    assert "Expert" in page.locator(".kit-seat").first.inner_text()
    play_to_the_end(page)
    assert page.locator("#over-title").count() == 1
    watch.assert_clean(page)
