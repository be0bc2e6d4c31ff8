"""Motion at the tables: a laid tile slides from where it was played into its place (pure half).

The table screens mark the element that just arrived with ``data-kit-from``: ``"pick"`` (the hand tile
the player clicked, whose box the page keeps on the click), or a CSS selector of where it came from
(a seat, ``#dom-stock``). After a move the app arms the motion (``arm``); once the new markup is in the
page, the page's port slides each marked element from there (``ui.browser.slides``) if the motion was
armed (``take_armed``). Nothing moves when animations are off (Settings, or the system's reduced motion),
and a redraw without a move (a refusal, a resize, a reload) never replays a slide.
"""

from __future__ import annotations

__all__ = ["SLIDE_MS", "arm", "slide_offset", "take_armed"]

SLIDE_MS = 380

_armed = [False]


def arm() -> None:
    """Let the next slide play: a move has just been made."""
    _armed[0] = True


def take_armed() -> bool:
    """Tell whether a move armed the motion since the last time, and disarm it."""
    armed, _armed[0] = _armed[0], False
    return armed


def slide_offset(
    source: tuple[float, float], target: tuple[float, float], scale: float = 1.0
) -> tuple[float, float]:
    """Return the translation (in the element's own units) that puts ``target`` at ``source``."""
    return ((source[0] - target[0]) * scale, (source[1] - target[1]) * scale)
