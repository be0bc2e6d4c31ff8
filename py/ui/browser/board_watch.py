"""Watch a table's board for a size it was not drawn for (browser only: imports ``pyscript``).

The app measures ``#table-board`` after each render, but the board can change size later: the
stylesheets arriving after the first render of a reloaded table, the phone turning. A table drawn for a
stale size bends its line for the wrong width or scales its board past the edge; this asks the app to
measure again (through its resize path, which re-renders) whenever the real size differs from the one
the table was drawn for.
"""

from __future__ import annotations

import traceback
from typing import Any

from pyodide.ffi import create_proxy, jsnull
from pyscript import document, window

TOLERANCE_PX = 8  # the app's own: smaller changes are not worth a redraw

_s: dict[str, Any] = {"drawn": (0, 0), "observer": None, "proxy": None}


def _board() -> Any:
    board = document.getElementById("table-board")
    return None if board is None or board is jsnull else board


def _resized(*_args: Any) -> None:
    try:
        board = _board()
        if board is None:
            return
        width, height = int(board.clientWidth), int(board.clientHeight)
        drawn_w, drawn_h = _s["drawn"]
        if width and height and (abs(width - drawn_w) > TOLERANCE_PX or abs(height - drawn_h) > TOLERANCE_PX):
            window.dispatchEvent(window.Event.new("resize"))
    except Exception:
        window.console.error("Boneyard (board watch): " + traceback.format_exc())


def watch(ctx: Any) -> None:
    """Observe the board now in the page; ``ctx`` says the size the table was drawn for."""
    _s["drawn"] = (ctx.board_width, ctx.board_height)
    board = _board()
    if board is None or not hasattr(window, "ResizeObserver"):
        return
    if _s["observer"] is None:
        _s["proxy"] = create_proxy(_resized)
        _s["observer"] = window.ResizeObserver.new(_s["proxy"])
    _s["observer"].disconnect()
    _s["observer"].observe(board)


def stop() -> None:
    """Stop observing and free the callback (the player left the table)."""
    if _s["observer"] is not None:
        try:
            _s["observer"].disconnect()
            _s["proxy"].destroy()
        except Exception:
            pass
        _s["observer"] = None
