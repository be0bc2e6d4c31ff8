"""The shell's art and How to play in Chromium: every card's picture in every theme, the diagrams on each
How to play page, and the "?" of every table opening the rules over it and closing back to the same place."""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from boneyard.games import GAMES
from boneyard.settings import THEMES
from ui import howto

from .conftest import READY, READY_TIMEOUT_MS, new_context, watch_page


def serious(page) -> list:
    """Return the accessibility audit's serious and critical findings."""
    results = Axe().run(page)
    found = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    return [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in found]


def set_theme(page, theme: str) -> None:
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-theme")
    page.select_option("#set-theme", theme)
    page.wait_for_function(f"document.documentElement.dataset.theme === {theme!r}")


@pytest.mark.parametrize("theme", [t for t in THEMES if t != "auto"])
def test_every_card_shows_its_picture_in_every_theme(app_page, theme):
    page = app_page
    set_theme(page, theme)
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector(".game-card .card-art")
    assert page.locator(".brand .logo").is_visible()
    for game_id in GAMES:
        art = page.locator(f".game-card[data-game='{game_id}'] svg.card-art-{game_id}")
        assert art.is_visible(), game_id
        box = art.bounding_box()
        assert box["height"] >= 90 and box["width"] >= 200, (game_id, box)
        # the picture is drawn: its shapes are filled with the theme's colours, not left transparent
        fill = page.evaluate(
            "(sel) => getComputedStyle(document.querySelector(sel)).fill",
            f".card-art-{game_id} .tile-body, .card-art-{game_id} .art-tri, .card-art-{game_id} .art-space > rect,"
            f" .card-art-{game_id} .art-half",
        )
        assert fill not in ("none", "rgba(0, 0, 0, 0)"), (game_id, fill)
    # the symbols keep their own colours (the square is solid teal, not the tile's ivory)
    square = page.evaluate("getComputedStyle(document.querySelector('.card-art-heptalion svg rect')).fill")
    assert square == "rgb(15, 110, 94)", square
    heights = page.evaluate(
        "[...document.querySelectorAll('.game-card')].map(c => Math.round(c.getBoundingClientRect().height))"
    )
    assert len(set(heights[:3])) == 1, heights  # the first row's cards are even
    assert page.locator(".install-btn").is_hidden()
    assert not serious(page)
    set_theme(page, "felt")


@pytest.mark.parametrize("theme", [t for t in THEMES if t != "auto"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_how_to_play_shows_the_engines_diagrams(app_page, game_id, theme):
    page = app_page
    set_theme(page, theme)
    page.evaluate(f"location.hash = '#/rules/{game_id}'")
    page.wait_for_selector(".howto-fig")
    figs = howto.figures(game_id)
    assert page.locator(".howto-fig").count() == len(figs)
    for fig in figs:
        figure = page.locator(f"#fig-{fig.key}")
        assert figure.is_visible()
        assert figure.locator("svg, .hx-board").first.is_visible()
    over = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert over <= 0
    assert not serious(page)
    set_theme(page, "felt")


def start_table(page, base_url: str, game_id: str) -> None:
    page.goto(f"{base_url}/?seed=11#/setup/{game_id}")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("#start-game")
    page.click("#start-game")
    page.wait_for_selector("#table-board, #fall-canvas", timeout=30_000)


def settle(page) -> None:
    """Wait until the table has stopped changing (the computer has made its opening moves)."""
    page.evaluate(
        """() => new Promise((done) => {
          let last = document.getElementById('app').innerHTML, still = 0;
          const tick = setInterval(() => {
            const now = document.getElementById('app').innerHTML;
            still = now === last ? still + 1 : 0; last = now;
            if (still >= 8) { clearInterval(tick); done(); }
          }, 200);
        })"""
    )


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_question_mark_opens_the_rules_over_the_table_and_closes_back(browser, base_url, watch, game_id):
    context = new_context(browser, watch, viewport={"width": 1000, "height": 560})
    page = context.new_page()
    watch_page(page, watch)
    try:
        start_table(page, base_url, game_id)
        opener = page.locator(f'[data-action="rules"][data-value="{game_id}"]')
        if opener.count() == 0:
            pytest.skip(f"the {game_id} table has no '?' button yet")
        realtime = GAMES[game_id].realtime
        if not realtime:
            settle(page)
        page.evaluate("window.scrollTo(0, 120)")
        before = page.evaluate(
            "() => { const a = document.getElementById('app'); a.firstElementChild.dataset.probe = 'kept';"
            " return [a.innerHTML, window.scrollY, location.hash]; }"
        )
        opener.first.click()
        dialog = page.locator("dialog#rules-dialog")
        dialog.wait_for(state="visible")
        assert dialog.locator("#rules-dialog-title").inner_text() == f"How to play {GAMES[game_id].name}"
        assert dialog.locator(".howto-fig").count() == len(howto.figures(game_id))
        assert page.evaluate("document.activeElement.closest('dialog') !== null")
        if realtime:
            assert dialog.locator(".howto-keys kbd").count() >= 5  # Bonefall's controls are in its rules
            assert page.locator('[data-action="resume"]').count() >= 1  # the game paused underneath
        assert not serious(page)
        page.keyboard.press("ArrowLeft")  # the table's keys do nothing while the rules are open
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        after = page.evaluate(
            "() => { const a = document.getElementById('app');"
            " return [a.innerHTML, window.scrollY, location.hash, a.firstElementChild.dataset.probe || '']; }"
        )
        assert after[2] == before[2] and after[1] == before[1], (before[1:], after[1:])
        if not realtime:
            assert after[3] == "kept" and after[0] == before[0]  # the table was never redrawn: nothing lost
        focused = page.evaluate(
            "[document.activeElement.dataset.action, document.activeElement.dataset.value]"
        )
        assert focused == ["rules", game_id]
        # Close and a click beside the dialog close it too
        page.locator(f'[data-action="rules"][data-value="{game_id}"]').first.click()
        dialog.wait_for(state="visible")
        page.click("dialog#rules-dialog [data-action=close-rules]")
        dialog.wait_for(state="detached")
        page.locator(f'[data-action="rules"][data-value="{game_id}"]').first.click()
        dialog.wait_for(state="visible")
        page.mouse.click(5, 300)
        dialog.wait_for(state="detached")
        page.keyboard.press("?")  # the key opens them as well
        dialog.wait_for(state="visible")
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        assert page.evaluate("location.hash") == before[2]
        watch.assert_clean(page)
    finally:
        context.close()


def test_the_cascade_loop_plays_only_with_animations_on(app_page):
    page = app_page
    page.evaluate("location.hash = '#/rules/bonefall'")
    page.wait_for_selector(".howto-fig")
    motion = page.evaluate("document.documentElement.dataset.motion")
    film = page.locator(".howto-film")
    assert film.is_visible() == (motion == "on")
    page.evaluate("document.documentElement.dataset.motion = 'off'")
    assert film.is_hidden()
    page.evaluate(f"document.documentElement.dataset.motion = {json.dumps(motion)}")
