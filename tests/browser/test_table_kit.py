"""The table kit in the page: the mute button and Web Audio (nothing created while Sound is off), the slide
of a laid tile (only with animations on), a four-player result at every size, and the accessibility audit of a
table in every theme. (A match's finished hand that stays until Next hand is tested under CPython:
tests/app/test_flows_dominoes.py.)"""

from __future__ import annotations

import json
import random

import pytest
from axe_playwright_python.sync_playwright import Axe

from boneyard import saves
from boneyard.games import GAMES
from ui.session import Seat, Session

from . import fit
from .conftest import local_storage, new_context, open_app, reload_ready
from .test_dominoes import start, take_turn, wait_for_human_or_end

COUNT_AUDIO = """
window.__audioContexts = 0;
const Real = window.AudioContext;
window.AudioContext = function (...args) { window.__audioContexts += 1; return new Real(...args); };
"""
SOUND_OFF = """
if (!localStorage.getItem('boneyard:settings')) {
  localStorage.setItem('boneyard:settings', JSON.stringify({schema: 1, settings: {sound: false}}));
}
"""


@pytest.fixture(scope="module")
def page(app_context, base_url, watch):
    from .conftest import watch_page

    page = app_context.new_page()
    watch_page(page, watch)
    yield page
    watch.assert_clean(page)


def settings_of(page):
    stored = json.loads(local_storage(page).get("boneyard:settings", "{}"))
    return stored.get("settings", stored)


def test_no_audio_context_is_made_while_sound_is_off_and_the_mute_button_turns_it_on(
    browser, base_url, watch
):
    context = new_context(browser, watch)
    context.add_init_script(COUNT_AUDIO + SOUND_OFF)
    try:
        page = open_app(context, base_url, watch)
        start(page, base_url, "classic", seed=8)
        wait_for_human_or_end(page)
        assert page.locator("#kit-mute").get_attribute("aria-pressed") == "true"
        for _ in range(3):
            wait_for_human_or_end(page)
            if page.locator("#kit-results").count():
                break
            take_turn(page)
        assert page.evaluate("window.__audioContexts") == 0, "an AudioContext was made while Sound was off"
        wait_for_human_or_end(page)
        page.click("#kit-mute")
        page.wait_for_selector("#kit-mute[aria-pressed='false']")
        assert settings_of(page).get("sound") is True
        if not page.locator("#kit-results").count():
            take_turn(page)
            page.wait_for_function("window.__audioContexts === 1", timeout=10_000)
        page.click("#kit-mute")
        page.wait_for_selector("#kit-mute[aria-pressed='true']")
        assert settings_of(page).get("sound") is False
        watch.assert_clean(page)
    finally:
        context.close()


SLIDE_COUNTER = """
(() => {
  window.boneyardSlides = 0;
  if (Element.prototype.boneyardCounted) return;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.hasAttribute && this.hasAttribute("data-kit-from")) window.boneyardSlides++;
    return animate.apply(this, args);
  };
  Element.prototype.boneyardCounted = true;
})()
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_laid_tile_slides_in_only_with_animations_on(browser, base_url, watch, motion):
    context = new_context(browser, watch, reduced_motion=motion)
    try:
        page = open_app(context, base_url, watch)
        start(page, base_url, "classic", seed=12)
        for _ in range(8):
            page.wait_for_selector(".dom-table.is-my-turn", timeout=60_000)
            tiles = page.locator(".dom-hand-tile.is-playable")
            if not tiles.count():
                take_turn(page)
                continue
            # Count the slides the table starts (a slide can be over before a loaded machine looks).
            page.evaluate(SLIDE_COUNTER)
            held = page.locator(".dom-hand-tile").count()
            tiles.first.click()
            if page.locator("button.dom-end").count():
                page.click("#end-L")
            page.wait_for_function(
                f"document.querySelectorAll('.dom-hand-tile').length < {held}", timeout=30_000
            )
            if motion == "no-preference":
                page.wait_for_function("window.boneyardSlides > 0", timeout=10_000)
            assert (page.evaluate("window.boneyardSlides") > 0) == (motion == "no-preference")
            break
        watch.assert_clean(page)
    finally:
        context.close()


@pytest.mark.parametrize("theme", ["felt", "light", "dark"])
def test_the_table_passes_the_accessibility_audit_in_every_theme(page, base_url, watch, theme):
    page.goto(f"{base_url}/#/settings")
    page.wait_for_selector("[data-setting=theme]")
    page.select_option("[data-setting=theme]", theme)
    start(page, base_url, "match-4-100", seed=6)
    wait_for_human_or_end(page)
    for state in ("play", "result"):
        if state == "result":
            for _ in range(200):
                wait_for_human_or_end(page)
                if page.locator("#next-hand, #over-title").count():
                    break
                take_turn(page)
        results = Axe().run(page)
        serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        assert not serious, json.dumps(
            [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious], indent=1
        )
    watch.assert_clean(page)


# -- the results panel: opaque, read whole at every size, the board a click away ---------------------------

RESULTS_READ_WHOLE = r"""() => {
  const panel = document.querySelector('#kit-results'), body = document.querySelector('#kit-results-body');
  const box = body.getBoundingClientRect(), out = [];
  const bg = getComputedStyle(panel).backgroundColor;
  const m = bg.match(/rgba\([^)]*,\s*([\d.]+)\)|\/\s*([\d.]+)\)/), alpha = m ? parseFloat(m[1] ?? m[2]) : 1;
  if (alpha < 1) out.push('the board shows through the panel: ' + bg);
  if (body.scrollTop > 0) out.push('the body opens scrolled');
  const rows = [...body.querySelectorAll('h2, .kit-results-main p, .kit-results-main tr')];
  for (const row of rows) {
    const r = row.getBoundingClientRect();
    if (r.height && (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)) out.push('cut: ' + row.textContent.slice(0, 40));
  }
  const view = document.querySelector('#view-board').getBoundingClientRect(), p = panel.getBoundingClientRect();
  if (!(view.height && view.bottom <= p.bottom + 0.5 && view.bottom <= innerHeight)) out.push('View board out of view');
  if (p.bottom > innerHeight + 0.5 || p.right > innerWidth + 0.5) out.push('the panel runs off the screen');
  return out;
}"""
TOOLS_IN_LINE = """() => ['#kit-mute', '#kit-rules'].map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [Math.round(r.top), Math.round(r.height)];
})"""
FINISHED = {
    "dominoes": {"players": 4, "draw": True, "target": 100},
    "triangles": {"players": 4},
    "heptalion": {"players": 4},
}


def finished(game: str, seed: int = 7) -> Session:
    """Return a four-player game against three computers, played with random moves to its end."""
    seats = [Seat("human", "Ann")] + [Seat("computer", f"Computer {i} (Medium)", "medium") for i in (1, 2, 3)]
    session = Session.start(GAMES[game], seats, f"{game}-4", "Four players", FINISHED[game], seed=seed)
    rng = random.Random(seed)
    while not session.state.is_over():
        session.play(rng.choice(list(session.state.legal_moves())))
    return session


@pytest.mark.parametrize("game", list(FINISHED))
def test_a_four_player_result_reads_whole_over_the_board_at_every_size(page, base_url, watch, game):
    if not page.url.startswith(base_url):
        page.goto(f"{base_url}/#/")
    page.evaluate("location.hash = '#/'")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [saves.save_key(game), saves.dump_save(game, finished(game).to_json())],
    )
    reload_ready(page)
    page.evaluate(f"location.hash = '#/play/{game}'")
    page.wait_for_selector("#kit-results")
    try:
        for width, height in fit.VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            where = f"{game} at {width}x{height}"
            assert page.evaluate(RESULTS_READ_WHOLE) == [], where
            assert len(set(map(tuple, page.evaluate(TOOLS_IN_LINE)))) == 1, f"{where}: mute and ? out of line"
        page.click("#view-board")  # the board is a click away, and back
        page.wait_for_selector("#kit-results.is-folded")
        page.click("#kit-fold")
        page.wait_for_selector("#kit-results:not(.is-folded)")
        page.click("#review")
        page.wait_for_selector("#review-where")
        total = page.locator("#review-where").inner_text().split(" of ")[1].split()[0]
        page.keyboard.press("ArrowLeft")  # the review's arrows step through the game
        page.wait_for_function(
            f"document.querySelector('#review-where').textContent.startsWith('Move {int(total) - 1} ')"
        )
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"document.querySelector('#review-where').textContent.startsWith('Move {total} ')"
        )
        assert len(set(map(tuple, page.evaluate(TOOLS_IN_LINE)))) == 1, "mute and ? out of line in the review"
        page.click("#review-close")
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)
