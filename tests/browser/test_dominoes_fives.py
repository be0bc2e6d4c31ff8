"""All Fives and partnerships in the page: the table fits one screen at the three viewports with four long
arms. (A seeded match by clicks checked against the engine, the spinner's arms, and a partnership match
behind the privacy gate are tested under CPython: tests/app/test_flows_fives.py.)

``BONEYARD_SHOTS=/tmp/dir`` also saves screenshots of a 4-player partnership game (start, middle, end)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from . import fit
from .conftest import new_context, watch_page
from .tables import module_page, open_setup, play_through

MAX_TURNS = 600

# The engine's view for seat 0 of the page's Dominoes game, read through the page's own Python.
ENGINE = """
import gc, json, builtins
app = getattr(builtins, "_fives_test_app", None)
if app is None:
    from ui.app import App
    app = next(o for o in gc.get_objects() if isinstance(o, App))
    builtins._fives_test_app = app
view = app.sessions["dominoes"].state.view(0)
json.dumps({key: view[key] for key in ("count", "scores", "over", "turn", "layout", "hand_number", "history")})
"""


def engine(page) -> dict:
    """Return the page's engine view (seat 0) of the Dominoes game in play."""
    return json.loads(
        page.evaluate("code => String(window.boneyardSnapshot.interpreter.runPython(code))", ENGINE)
    )


def start_fives(
    page, base_url, *, seed, players, teams=False, target=None, opponents="computer", levels=None
):
    """Open the setup with a seeded deal, choose All Fives (and partners), and start."""
    open_setup(page, base_url, "dominoes", seed=seed, opponents=opponents, ready="#setup-mode")
    page.select_option("#setup-mode", "fives")
    page.wait_for_selector("#setup-fives-target")
    page.select_option("#setup-players", str(players))
    if target is not None:
        page.select_option("#setup-fives-target", str(target))
    if teams:
        page.wait_for_selector("#setup-teams")
        page.select_option("#setup-teams", "yes")
        page.wait_for_selector("#setup-teams-hint")
    for seat, level in (levels or {}).items():
        page.select_option(f"#setup-level-{seat}", level)
    page.click("#start-game")
    page.wait_for_selector(".dom-table")


def wait_for_human_or_end(page):
    page.wait_for_function(
        "document.querySelector('#kit-results, #reveal, .dom-table.is-my-turn') !== null", timeout=60_000
    )


def page_count(page) -> int:
    return int(page.locator(".dom-count-value").inner_text())


def check_against_engine(page):
    """The count and every score on the page are the engine's."""
    view = engine(page)
    assert page_count(page) == view["count"]
    if view["scores"] is not None:
        mine = page.locator(".kit-tray").inner_text()
        me = view["turn"] if view["turn"] is not None else 0  # the tray is the seat to move's
        assert f"{view['scores'][me]} point" in mine, (mine, view["scores"])
        for seat in page.locator(".kit-seat").evaluate_all(
            "els => els.map(e => [+e.dataset.seat, e.innerText])"
        ):
            number, text = seat
            assert re.search(rf"\b{view['scores'][number]}\b", text), (text, view["scores"])
    return view


def take_turn(page, arm_choice: list[str] | None = None):
    """Play the first playable tile (the first arm offered when it fits several), or draw, or pass."""
    tiles = page.locator(".dom-hand-tile.is-playable")
    if tiles.count():
        tiles.first.click()
        targets = page.locator("button.dom-end.is-target")
        if targets.count():
            offered = targets.evaluate_all("els => els.map(e => e.dataset.value)")
            if arm_choice is not None:
                arm_choice.append(",".join(offered))
            pick = next((a for a in ("N", "S") if a in offered), offered[0])
            page.click(f"#end-{pick}")
        return
    if page.locator("#draw:not([disabled])").count():
        page.click("#draw")
    else:
        page.click("#pass")


def play_to_the_end(page, *, check=True, shots=None, arms=None):
    """Click through the whole match; check the count and scores at each of your turns."""

    def before_turn(turn):
        if check:
            check_against_engine(page)
        if shots is not None:
            shots(turn)

    return play_through(
        page,
        wait=wait_for_human_or_end,
        take_turn=lambda page: take_turn(page, arms),
        over="#over-title",
        max_turns=MAX_TURNS,
        before_turn=before_turn,
    )


page = module_page()


# A seeded hand of a four-player partnership game (to 150, draw game) whose lays fill all four arms: the
# spinner 5-5 with 4 tiles on each arm, and seat 0 (you) to move with a tile that fits two arms.
LONG_SEED = 15
LONG_MOVES = [
    "5-5",
    "6-5:L",
    "5-2:R",
    "5-1:N",
    "5-0:S",
    "6-3:L",
    "4-2:R",
    "3-0:S",
    "1-0:N",
    "3-2:L",
    "4-4:R",
    "2-0:N",
    "3-3:S",
    "draw",
    "5-3:S",
    "4-3:R",
    "2-1:L",
    "draw",
    "6-2:N",
]
SET_LONG = f"""
import builtins, json
from boneyard.games import GAMES
app = builtins._fives_test_app
session = app.sessions["dominoes"]
state = GAMES["dominoes"].new_state(seed={LONG_SEED}, **session.state.view(0)["options"])
for move in {list(LONG_MOVES)!r}:
    state.play(move)
session.state = state
session.moves = {list(LONG_MOVES)!r}
app.render()
json.dumps(state.view(0)["layout"])
"""

LEGAL = """
import builtins, json
json.dumps(builtins._fives_test_app.sessions["dominoes"].state.view(0)["legal_moves"])
"""


@pytest.mark.parametrize("size", fit.VIEWPORTS)
def test_four_long_arms_fit_one_screen(browser, base_url, watch, size):
    """Four long arms (4 tiles each round the spinner) fit the board: the page never scrolls, every
    tile and end marker stays on the board, with the arm buttons of a selected tile too."""
    width, height = size
    context = new_context(browser, watch, viewport={"width": width, "height": height})
    page = context.new_page()
    watch_page(page, watch)
    try:
        start_fives(page, base_url, seed=LONG_SEED, players=4, teams=True)
        wait_for_human_or_end(page)
        engine(page)  # finds the app
        layout = json.loads(
            page.evaluate("code => String(window.boneyardSnapshot.interpreter.runPython(code))", SET_LONG)
        )
        assert [len(layout["north"]), len(layout["south"])] == [4, 4]
        page.wait_for_function("document.querySelectorAll('.dom-cross .tile').length === 17")
        page.wait_for_timeout(300)  # the app re-measures the board once
        fit.assert_fits(page, f"{width}x{height}")
        assert_on_board(page)
        assert page.locator(".dom-end").count() == 4
        stage = page.locator(".dom-stage").bounding_box()
        board = page.locator("#table-board").bounding_box()
        shot = os.environ.get("BONEYARD_SHOTS")
        if shot:
            Path(shot).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shot}/long-arms-{width}x{height}.png")
        legal = json.loads(
            page.evaluate("code => String(window.boneyardSnapshot.interpreter.runPython(code))", LEGAL)
        )
        by_tile: dict[str, list[str]] = {}
        for move in legal:
            by_tile.setdefault(move.split(":")[0], []).append(move)
        several = [t for t, moves in by_tile.items() if len(moves) >= 2]
        assert several, legal
        if several:  # the arm buttons of a tile that fits several arms stay on the board too
            page.click(f"#tile-{several[0]}")
            assert page.locator("button.dom-end.is-target").count() == len(by_tile[several[0]])
            assert_on_board(page)
            fit.assert_fits(page, f"{width}x{height} with a tile selected")
            if shot:
                page.screenshot(path=f"{shot}/long-arms-{width}x{height}-choice.png")
        print(
            f"{width}x{height}: page {fit.page_height(page)} px, board {board['width']:.0f}x{board['height']:.0f},"
            f" layout {stage['width']:.0f}x{stage['height']:.0f}"
        )
    finally:
        context.close()


def assert_on_board(page):
    """Every tile and end marker lies inside the board."""
    inside = page.evaluate(
        """() => {
      const board = document.querySelector('#table-board').getBoundingClientRect();
      const out = [];
      for (const e of document.querySelectorAll('.dom-line .tile .tile-body, .dom-end')) {
        const b = e.getBoundingClientRect();
        if (b.left < board.left - 1 || b.right > board.right + 1 || b.top < board.top - 1 || b.bottom > board.bottom + 1)
          out.push(e.className.baseVal || e.className);
      }
      return out;
    }"""
    )
    assert inside == [], inside


@pytest.mark.skipif(
    not os.environ.get("BONEYARD_SHOTS"), reason="screenshots only when BONEYARD_SHOTS is set"
)
@pytest.mark.parametrize("size", fit.VIEWPORTS)
def test_screenshots_of_a_partnership_game(browser, base_url, watch, size):
    """Save the start, the middle and the end of an All Fives partnership game at one size."""
    width, height = size
    out = Path(os.environ["BONEYARD_SHOTS"])
    out.mkdir(parents=True, exist_ok=True)
    context = new_context(browser, watch, viewport={"width": width, "height": height})
    page = context.new_page()
    watch_page(page, watch)
    heights = []

    def shots(turn):
        heights.append(fit.page_height(page))
        if turn in (0, 3, 6):
            page.screenshot(path=str(out / f"fives-{width}x{height}-turn{turn}.png"))

    try:
        start_fives(page, base_url, seed=LONG_SEED, players=4, teams=True, target=100)
        play_to_the_end(page, check=False, shots=shots)
        heights.append(fit.page_height(page))
        page.screenshot(path=str(out / f"fives-{width}x{height}-end.png"))
        print(f"{width}x{height}: page heights {min(heights)}..{max(heights)}")
    finally:
        context.close()
