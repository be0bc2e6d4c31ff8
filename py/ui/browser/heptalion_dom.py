"""Heptalion's table in the page: keeps the zoomed board's pan across redraws and moves the focus.

Browser-only (imports ``pyodide`` and ``pyscript``); ``heptalion.HeptalionScreen.after_render`` imports it
lazily, so the screen itself stays testable under CPython. The app redraws the table by replacing its
markup, which would put a zoomed board back at its top-left corner on every click: the stage's scroll
position is kept in the table's UI state (``ui.pan``, as fractions of the scrollable range) and put
back after each redraw; a board zoomed for the first time is centred.
"""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy, jsnull
from pyscript import document

from ..table_screen import TableContext

_state: dict[str, Any] = {"ui": None}


def _on_scroll(event: Any) -> None:
    ui = _state["ui"]
    stage = _js(event.currentTarget)
    if ui is None or stage is None:
        return
    ui.pan = (
        _fraction(stage.scrollLeft, stage.scrollWidth - stage.clientWidth),
        _fraction(stage.scrollTop, stage.scrollHeight - stage.clientHeight),
    )


def _js(value: Any) -> Any:
    """Return None for JS null and undefined, else the value."""
    return None if value is None or value is jsnull else value


def _fraction(at: float, span: float) -> float:
    return 0.5 if span <= 0 else max(0.0, min(1.0, float(at) / float(span)))


_scroll_proxy = create_proxy(_on_scroll)


def bind(ctx: TableContext) -> None:
    """Put the board's pan back (or centre it), listen for panning, and move the focus when asked."""
    ui: Any = ctx.ui  # the Heptalion table's state (``pan``, ``focus``)
    _state["ui"] = ui
    stage = _js(document.getElementById("hx-stage"))
    if stage is not None:
        x, y = ui.pan or (0.5, 0.5)
        stage.scrollLeft = x * max(0, stage.scrollWidth - stage.clientWidth)
        stage.scrollTop = y * max(0, stage.scrollHeight - stage.clientHeight)
        stage.addEventListener("scroll", _scroll_proxy)
    focus, ui.focus = ui.focus, False
    if focus:
        target = _js(document.querySelector(".hx-table [data-focus]")) or _js(
            document.querySelector(".hx-table [data-focus-home]")
        )
        if target is not None:
            target.focus()
