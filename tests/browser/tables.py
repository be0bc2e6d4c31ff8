"""What the tables' browser tests share: one watched page a module, a seeded setup screen, a viewport for one
test, and a whole game played by clicks with the fit measured at every turn (fit.py's checks)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ui.games.dominoes import LEGACY_MODES

from . import fit
from .conftest import READY, READY_TIMEOUT_MS, watch_page

DEFAULT_VIEWPORT = {"width": 1100, "height": 850}  # new_context's, where each test leaves the page


def module_page() -> Any:
    """Return a module-scoped ``page`` fixture: one watched page for the module's tests, clean at the end."""

    @pytest.fixture(scope="module")
    def page(app_context: Any, base_url: str, watch: Any) -> Iterator[Any]:
        page = app_context.new_page()
        watch_page(page, watch)
        yield page
        watch.assert_clean(page)

    return page


def open_setup(page: Any, base_url: str, game: str, *, seed: int, opponents: str, ready: str) -> None:
    """Open ``game``'s setup screen with a seeded deal, wait for ``ready`` and choose the opponents."""
    page.goto(f"{base_url}/?seed={seed}#/setup/{game}")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector(ready)
    page.check(f"input[name=opponents][value={opponents}]")


def choose_mode(page: Any, mode: str, players: int | None = None) -> int | None:
    """Choose the setup's mode, and its players when a match names them ("match-4-100"); return the players."""
    mode, count = LEGACY_MODES.get(mode, (mode, players))
    page.select_option("#setup-mode", mode)
    if count is not None:
        page.select_option("#setup-players", str(count))
    return count


@contextmanager
def viewport(page: Any, width: int, height: int) -> Iterator[None]:
    """Size the page's viewport for the block, and give it back its usual size after."""
    page.set_viewport_size({"width": width, "height": height})
    try:
        yield
    finally:
        page.set_viewport_size(DEFAULT_VIEWPORT)


def play_fitting(
    page: Any,
    *,
    wait: Callable[[Any], None],
    take_turn: Callable[[Any], Any],
    over: str,
    max_turns: int,
    check: Callable[[Any], None] = lambda page: None,
) -> int:
    """Play a started game to its end (``over`` shows) by clicks: it opens at the top, never scrolls, and
    the tray stays still from turn to turn; ``check`` runs at each turn. Return the turns played."""
    wait(page)
    fit.assert_opens_at_top(page, "start")
    first = fit.snapshot(page)
    turns = 0
    for _ in range(max_turns):
        wait(page)
        fit.assert_fits(page, f"turn {turns}")
        if page.locator(over).count():
            break
        fit.assert_still(first, fit.snapshot(page), f"turn {turns}")
        check(page)
        take_turn(page)
        turns += 1
    assert page.locator(over).count(), f"the game did not end in {max_turns} turns"
    fit.assert_fits(page, "end")
    return turns


def play_through(
    page: Any,
    *,
    wait: Callable[[Any], None],
    take_turn: Callable[[Any], Any],
    over: str,
    max_turns: int,
    before_turn: Callable[[int], None] = lambda turn: None,
) -> tuple[int, int]:
    """Click through a started game to its end (``over`` shows): Next hand at each hand's summary, Show at a
    privacy screen, else ``before_turn(turn)`` and a turn. Return the hand summaries dismissed and the turns."""
    hands = turns = 0
    for _ in range(max_turns):
        wait(page)
        if page.locator(over).count():
            return hands, turns
        if page.locator("#next-hand").count():
            page.click("#next-hand")
            hands += 1
            continue
        if page.locator("#reveal").count():
            page.click("#reveal")
            continue
        before_turn(turns)
        take_turn(page)
        turns += 1
    raise AssertionError("the game did not end")
