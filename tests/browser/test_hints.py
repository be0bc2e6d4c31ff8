"""The Expert at the tables in the page: Hint on Dominoes, Triangles and Heptalion (it thinks, then marks the
tile and its place and says why; the next move clears it; the game is then not counted). (The Expert's
review of a finished game is tested under CPython: tests/app/test_flows_dominoes.py.)

Hint latency in the page: ``BONEYARD_HINT_SAMPLES=20`` asks for that many hints a game (6 by default) and
prints the median and p95 of the time from the click to the hint on screen.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

import pytest

from ui.session import Seat

from . import test_dominoes as dom
from . import test_triangles_table as tri
from .conftest import new_context, open_app
from .test_heptalion import click_first_placement, plant, seeded, wait_turn

SAMPLES = int(os.environ.get("BONEYARD_HINT_SAMPLES", "6"))
FAST = """
if (!localStorage.getItem('boneyard:settings')) {
  localStorage.setItem('boneyard:settings', JSON.stringify({schema: 1, settings: {sound: false, speed: 'fast'}}));
}
"""
OUTLINED = "(sel) => { const e = document.querySelector(sel); return !!e && getComputedStyle(e).outlineStyle === 'solid'; }"
LATENCIES: dict[str, list[int]] = {}


@pytest.fixture(scope="module")
def page(browser, base_url, watch):
    context = new_context(browser, watch)
    context.add_init_script(FAST)
    page = open_app(context, base_url, watch)
    yield page
    watch.assert_clean(page)
    context.close()


def ask_hint(page: Any, by_key: bool = False) -> dict[str, Any]:
    """Click Hint (or press H), wait for the card, and return what it says (move, title, reason, ms)."""
    page.wait_for_selector("#kit-hint:not([disabled])")
    started = time.perf_counter()
    if by_key:
        page.keyboard.press("h")
    else:
        page.click("#kit-hint")
    page.wait_for_selector("#kit-hint-card", timeout=30_000)
    wall = round(1000 * (time.perf_counter() - started))
    card = page.locator("#kit-hint-card")
    return {
        "move": card.get_attribute("data-move"),
        "ms": int(card.get_attribute("data-ms") or wall),
        "wall": wall,
        "title": page.inner_text(".kit-hint-title"),
        "why": page.inner_text(".kit-hint-why"),
    }


def report(game: str, hint: dict[str, Any]) -> None:
    LATENCIES.setdefault(game, []).append(hint["ms"])
    found = sorted(LATENCIES[game])
    p95 = found[min(len(found) - 1, round(0.95 * (len(found) - 1)))]
    print(
        f"{game} hint {len(found)}: {hint['ms']} ms; median {statistics.median(found):.0f} ms, p95 {p95} ms"
    )


def test_a_dominoes_hint_marks_the_tile_and_its_end_and_the_next_move_clears_it(page, base_url, watch):
    seed, hints = 11, 0
    while hints < SAMPLES:
        dom.start(page, base_url, "classic", seed=seed)
        seed += 1
        for _ in range(dom.MAX_TURNS):
            dom.wait_for_human_or_end(page)
            if page.locator("#kit-results").count() or hints >= SAMPLES:
                break
            hint = ask_hint(page, by_key=hints % 2 == 1)  # every other hint by its key, H
            hints += 1
            report("dominoes", hint)
            move = hint["move"]
            assert hint["title"].startswith("Hint: ") and hint["why"]
            if move in ("draw", "pass"):
                assert page.evaluate(OUTLINED, f"#{move}")
            else:
                tile, _, end = move.partition(":")
                assert page.evaluate(OUTLINED, f"#tile-{tile}"), "the hinted tile is not marked"
                if end:
                    assert page.evaluate(OUTLINED, f"#end-{end}"), "the hinted end is not marked"
            moves = page.get_attribute(".dom-table", "data-turn")
            dom.take_turn(page)
            page.wait_for_function(
                f"document.querySelector('.dom-table') && document.querySelector('.dom-table').dataset.turn !== '{moves}'"
                " || document.querySelector('#kit-hint-card') === null"
            )
            assert page.locator("#kit-hint-card").count() == 0, "the hint stayed after the move"
    dom.play_to_the_end(page)
    assert "Not counted in your stats" in page.inner_text("#kit-results")
    assert "hint" in page.inner_text("#kit-results")


def test_a_triangles_hint_marks_the_tile_and_its_spot(page, base_url, watch):
    seed, hints = 5, 0
    while hints < SAMPLES:
        tri.start(page, base_url, seed=seed)
        seed += 1
        for _ in range(tri.MAX_TURNS):
            tri.wait_for_human_or_end(page)
            if page.locator("#kit-results").count() or hints >= SAMPLES:
                break
            hint = ask_hint(page)
            hints += 1
            report("triangles", hint)
            move = hint["move"]
            if "@" in move:
                tile, _, place = move.partition("@")
                assert page.evaluate(OUTLINED, f"#hand-{tile}")
                page.click(f"#hand-{tile}")  # selected, its spots show: the hinted one glows
                if not page.locator(f"#hand-{tile}.is-selected").count():
                    page.click(
                        f"#hand-{tile}"
                    )  # just after a draw the first tap is taken (the table's own way)
                spot = "#spot-" + place.split("r")[0].replace(",", "_")
                page.wait_for_selector(spot, state="attached")  # perhaps outside the zoomed board
                assert (
                    page.evaluate(
                        "(sel) => getComputedStyle(document.querySelector(sel + ' .tri-spot-face')).strokeWidth",
                        spot,
                    )
                    == "4px"
                )
                page.click(f"#hand-{tile}")  # unselect: take_turn chooses for itself
                page.wait_for_selector(".tri-hand-tile.is-selected", state="detached")
            tri.take_turn(page)
            assert page.locator("#kit-hint-card").count() == 0


def test_a_heptalion_hint_marks_the_tile_and_its_two_spaces(page, base_url, watch):
    hints, seed = 0, 20260601
    while hints < SAMPLES:
        plant(
            page, seeded([Seat("human", "Ann"), Seat("computer", "Computer", "medium")], seed=seed, start=0)
        )
        seed += 1
        while hints < SAMPLES and not wait_turn(page):
            hint = ask_hint(page)
            hints += 1
            report("heptalion", hint)
            tile, _, spaces = hint["move"].partition("@")
            assert page.evaluate(OUTLINED, f'.kit-tray [data-tile="{tile}"]')
            for space in spaces.split(","):
                assert page.evaluate(OUTLINED, f'[data-space="{space}"]'), f"space {space} is not marked"
            assert "on the glowing spaces" in hint["title"]
            click_first_placement(page)
            page.wait_for_selector("#kit-hint-card", state="detached")
