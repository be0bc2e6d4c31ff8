"""Bonefall in Chromium: keys move and drop a domino where expected (with hold-to-repeat), a scripted
seeded game reaches its known scores on screen and in the stats, the game pauses when the page is
hidden, a reload resumes it exactly, and a 360 px phone gets no horizontal scroll and working touch pads.

The tests share one page (costly to start) and run in order. ``window.boneyardFalling`` is the screen's
hook: ``view()`` returns the game's view as JSON, ``script(json)`` replaces the game with a seeded one
fed a recorded input log.
"""

from __future__ import annotations

import json

from boneyard.games.falling import new_state
from boneyard.games.falling.autoplay import AutoPlayer

from .conftest import local_storage, reload_ready

SEED = 2024
OPTIONS = {"set": "norm", "mode": "sprint", "cascade_steps": 3}
KNOWN = {"max": "4", "power": "50", "speed": "255.3"}  # this seed's autoplayed game (checked below too)


def view(page) -> dict:
    return json.loads(page.evaluate("boneyardFalling.view()"))


def piece_cols(page) -> list[int]:
    piece = view(page)["piece"]
    return sorted(c for c, _ in piece["cells"]) if piece else []


def wait_view(page, condition: str, timeout: int = 15_000) -> None:
    """Wait until a JS condition over ``v`` (the parsed view) holds."""
    page.wait_for_function(f"(() => {{ const v = JSON.parse(boneyardFalling.view()); return {condition}; }})()",
                           timeout=timeout)


def test_keys_move_a_domino_and_it_lands_where_expected(app_page):
    page = app_page
    page.evaluate("location.hash = '#/setup/falling'")
    page.wait_for_selector("#start-game")
    page.select_option("#setup-mode", "sprint-norm")
    page.click("#start-game")
    page.wait_for_selector("#fall-canvas")
    wait_view(page, "v.piece && v.piece.id === 1")
    assert piece_cols(page) == [3, 4]
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert piece_cols(page) == [0, 1]
    page.keyboard.press("Space")
    wait_view(page, "v.piece && v.piece.id === 2")
    cells = {(c["col"], c["row"]): c for c in view(page)["cells"]}
    assert set(cells) == {(0, 15), (1, 15)}
    assert {c["piece"] for c in cells.values()} == {1}
    assert cells[(0, 15)]["link"] == "right"
    # Holding a direction repeats it after a short delay: the domino runs to the wall.
    page.keyboard.down("ArrowRight")
    wait_view(page, "v.piece && Math.min(v.piece.cells[0][0], v.piece.cells[1][0]) === 6")
    page.keyboard.up("ArrowRight")
    page.wait_for_timeout(150)  # let a frame see the key go up, or a last repeat may follow the rotation
    page.keyboard.press("x")  # rotate: vertical at the wall
    wait_view(page, "v.piece && v.piece.cells.every(c => c[0] === 6)")
    page.keyboard.press(" ")
    wait_view(page, "v.piece && v.piece.id === 3")
    landed = {(c["col"], c["row"]) for c in view(page)["cells"] if c["piece"] == 2}
    assert landed == {(6, 14), (6, 15)}
    # The side panel is redrawn on the next frame.
    page.wait_for_function("document.querySelector('#fall-left').textContent.trim() === '26'", timeout=10_000)


def test_a_scripted_seeded_game_reaches_its_known_scores(app_page):
    page = app_page
    state = new_state(SEED, **OPTIONS)
    player = AutoPlayer(delay=6)
    while not state.is_over():
        player.act(state)
        state.step()
    expected = {"max": str(state.max_score), "power": str(state.power), "speed": f"{state.speed:.1f}"}
    assert expected == KNOWN
    spec = {"seed": SEED, "options": OPTIONS, "log": state.log, "speed": 20}
    page.evaluate("spec => boneyardFalling.script(spec)", json.dumps(spec))
    page.wait_for_selector("#fall-summary", timeout=60_000)
    for name, value in KNOWN.items():
        assert page.locator(f"#fall-final-{name}").inner_text().startswith(value)
        assert page.locator(f"#fall-{name}").inner_text() == value
    assert page.locator(".fall-best").count() == 3  # first game of the mode: three new bests
    stats = json.loads(local_storage(page)["boneyard:stats"])
    assert json.dumps(stats).count("falling:sprint-norm") == 1
    assert "boneyard:save:falling" not in local_storage(page)  # a finished game is not kept
    # The Stats screen lists the best scores of the mode.
    page.evaluate("location.hash = '#/stats'")
    page.wait_for_selector(".stats-table")
    text = page.locator("#main").inner_text()
    assert "Sprint Norm" in text and "50" in text and "255.3" in text


def test_the_game_pauses_when_the_page_is_hidden(app_page):
    page = app_page
    page.evaluate("location.hash = '#/play/falling'")
    page.wait_for_selector("#fall-again")
    page.click("#fall-again")
    wait_view(page, "v.piece && v.step > 5 && !v.paused")
    page.evaluate("Object.defineProperty(document, 'hidden', {get: () => true, configurable: true});"
                  "document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_selector("#fall-paused")
    step = view(page)["step"]
    assert view(page)["paused"]
    page.wait_for_timeout(400)
    assert view(page)["step"] == step
    saved = json.loads(local_storage(page)["boneyard:save:falling"])
    assert saved["state"]["game_state"]["steps"] == step
    assert "hidden" in page.locator("#fall-paused").inner_text()


def test_a_reload_resumes_exactly_where_the_game_was(app_page):
    page = app_page
    before = view(page)
    reload_ready(page)
    page.wait_for_selector("#fall-paused")
    after = view(page)
    for key in ("step", "cells", "piece", "next", "power", "left_in_set"):
        assert after[key] == before[key], key
    page.keyboard.press("p")
    page.wait_for_selector("#fall-paused", state="detached")
    wait_view(page, f"v.step > {before['step']}")


def test_a_phone_gets_no_horizontal_scroll_and_touch_pads_work(app_page):
    page = app_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_selector(".fall-touch", state="visible")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.querySelector('.fall-well-wrap').getBoundingClientRect().right") <= 360
    wait_view(page, "v.piece && v.piece.cells[0][0] > 0 && v.piece.cells[1][0] > 0")
    now = view(page)["piece"]
    cols = sorted(c for c, _ in now["cells"])
    page.locator("[data-fall='left']").click()
    # one column to the left (or, if it locked meanwhile, the next domino came)
    wait_view(page, f"v.piece && (Math.min(v.piece.cells[0][0], v.piece.cells[1][0]) === {cols[0] - 1}"
                    f" || v.piece.id !== {now['id']})")
    page.set_viewport_size({"width": 1100, "height": 850})
