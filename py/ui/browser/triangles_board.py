"""Triangles table in the page: drag to pan, pinch and wheel to zoom, Enter on a spot, focus care.

The browser half of ``ui.games.triangles`` (the only Triangles module that imports ``pyscript`` and
``pyodide``). Listeners sit once on ``document`` (the table's markup is replaced at every render, the
document is not) and act only on the board ``#tri-svg``; they are removed in ``unbind``. A pan or zoom
changes the SVG's ``viewBox`` directly (no redraw) and keeps it in the screen's ``ctx.ui.view`` so
the next render draws the same box. A drag that moved swallows the click that ends it, so panning never
places a tile. Every handler reports its errors to the console and never lets one reach the page.
"""

from __future__ import annotations

import math
import traceback
from typing import Any

from pyodide.ffi import create_proxy, jsnull, to_js
from pyscript import document, window

from boneyard.games.triangles import grid

from ..games import triangles_layout as lay
from . import board_watch

DRAG_START_PX = 7  # movement before a press becomes a pan
WHEEL_RATE = 0.0015

_s: dict[str, Any] = {
    "ctx": None,  # the latest TableContext (its ui dict is the screen's lasting state)
    "listeners": [],  # (target, kind, proxy, capture)
    "pointers": {},  # pointer id -> (x, y)
    "drag": None,  # {"x", "y", "box", "moved", "id"}
    "pinch": None,  # {"d", "box", "centre"}
    "suppress": False,  # swallow the click that ends a pan
    "focus_spot": False,  # a hand tile was chosen from the keyboard: focus the first spot
}


def _js(value: Any) -> Any:
    return None if value is None or value is jsnull else value


def _options(**values: Any) -> Any:
    return to_js(values, dict_converter=window.Object.fromEntries)


def _guard(handler: Any) -> Any:
    def run(event: Any, *_rest: Any) -> None:
        try:
            handler(event)
        except Exception:
            window.console.error("Boneyard (triangles board): " + traceback.format_exc())

    return run


def _svg() -> Any:
    return _js(document.getElementById("tri-svg"))


def _in_svg(target: Any) -> bool:
    target = _js(target)
    if target is None or not hasattr(target, "closest"):
        return False
    return _js(target.closest("#tri-svg")) is not None


def _box(svg: Any) -> lay.Box:
    ctx = _s["ctx"]
    found = lay.valid_box(ctx.ui.view) if ctx is not None else None
    if found:
        return found
    parts = str(svg.getAttribute("viewBox") or "0 0 6 4").split()
    return lay.valid_box(parts) or (0.0, 0.0, 6.0, 4.0)


def _set_box(svg: Any, box: lay.Box) -> None:
    svg.setAttribute("viewBox", lay.box_attr(box))
    ctx = _s["ctx"]
    if ctx is not None:
        ctx.ui.view = list(box)
    fit = _js(document.getElementById("tri-zoom-fit"))
    if fit is not None:
        fit.classList.add("is-manual")
        fit.setAttribute("aria-pressed", "false")


def _scale(svg: Any, box: lay.Box) -> tuple[float, float, float]:
    """Return (pixels per unit, left, top) of the drawn box inside the SVG (preserveAspectRatio meet)."""
    rect = svg.getBoundingClientRect()
    width, height = float(rect.width) or 1.0, float(rect.height) or 1.0
    scale = min(width / box[2], height / box[3])
    left = float(rect.left) + (width - box[2] * scale) / 2
    top = float(rect.top) + (height - box[3] * scale) / 2
    return scale, left, top


def _to_plane(svg: Any, box: lay.Box, x: float, y: float) -> tuple[float, float]:
    scale, left, top = _scale(svg, box)
    return (box[0] + (x - left) / scale, box[1] + (y - top) / scale)


# -- pointers -----------------------------------------------------------------------------------------


def _down(event: Any) -> None:
    if not _in_svg(event.target) or (event.pointerType == "mouse" and int(event.button) != 0):
        return
    svg = _svg()
    if svg is None:
        return
    _s["pointers"][int(event.pointerId)] = (float(event.clientX), float(event.clientY))
    _start(svg)


def _start(svg: Any) -> None:
    pts = list(_s["pointers"].items())
    box = _box(svg)
    if len(pts) == 1:
        pid, (x, y) = pts[0]
        moved = bool(_s["drag"] and _s["drag"].get("moved")) or _s["pinch"] is not None
        _s["drag"] = {"x": x, "y": y, "box": box, "moved": moved, "id": pid}
        _s["pinch"] = None
    elif len(pts) >= 2:
        (_, a), (_, b) = pts[0], pts[1]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        _s["pinch"] = {"d": max(math.dist(a, b), 1.0), "box": box, "centre": _to_plane(svg, box, *mid)}
        if _s["drag"] is not None:
            _s["drag"]["moved"] = True


def _move(event: Any) -> None:
    pid = int(event.pointerId)
    if pid not in _s["pointers"]:
        return
    svg = _svg()
    if svg is None:
        return
    _s["pointers"][pid] = (float(event.clientX), float(event.clientY))
    pinch = _s["pinch"]
    if pinch is not None and len(_s["pointers"]) >= 2:
        a, b = list(_s["pointers"].values())[:2]
        factor = pinch["d"] / max(math.dist(a, b), 1.0)
        _set_box(svg, lay.zoom_box(pinch["box"], factor, pinch["centre"]))
        event.preventDefault()
        return
    drag = _s["drag"]
    if drag is None or drag["id"] != pid:
        return
    dx, dy = float(event.clientX) - drag["x"], float(event.clientY) - drag["y"]
    if not drag["moved"] and math.hypot(dx, dy) < DRAG_START_PX:
        return
    if not drag["moved"]:
        drag["moved"] = True
        try:
            svg.setPointerCapture(pid)
        except Exception:
            pass
    box = drag["box"]
    scale, _, _ = _scale(svg, box)
    _set_box(svg, (box[0] - dx / scale, box[1] - dy / scale, box[2], box[3]))
    event.preventDefault()


def _up(event: Any) -> None:
    pid = int(event.pointerId)
    if pid not in _s["pointers"]:
        return
    del _s["pointers"][pid]
    drag = _s["drag"]
    if _s["pointers"]:
        svg = _svg()
        if svg is not None:
            _start(svg)
        return
    if drag is not None and drag["moved"]:
        _s["suppress"] = True
        window.setTimeout(_s["clear_proxy"], 0)
    _s["drag"] = None
    _s["pinch"] = None


def _clear_suppress(*_args: Any) -> None:
    _s["suppress"] = False


def _click(event: Any) -> None:
    if _s["suppress"]:
        _s["suppress"] = False
        event.stopPropagation()
        event.preventDefault()


def _wheel(event: Any) -> None:
    if not _in_svg(event.target):
        return
    svg = _svg()
    if svg is None:
        return
    event.preventDefault()
    delta = float(event.deltaY) * (33.0 if int(event.deltaMode) == 1 else 1.0)
    box = _box(svg)
    centre = _to_plane(svg, box, float(event.clientX), float(event.clientY))
    _set_box(svg, lay.zoom_box(box, math.exp(delta * WHEEL_RATE), centre))


# -- keys and focus ------------------------------------------------------------------------------------


def _key(event: Any) -> None:
    key = str(event.key)
    if key not in ("Enter", " "):
        return
    target = _js(event.target)
    if target is None or not hasattr(target, "closest"):
        return
    if _js(target.closest(".tri-hand-tile")) is not None:
        _s["focus_spot"] = True
        return
    spot = _js(target.closest(".tri-spot"))
    if spot is not None:
        event.preventDefault()
        spot.dispatchEvent(window.MouseEvent.new("click", _options(bubbles=True, cancelable=True)))


def _focus(event: Any) -> None:
    """Bring a spot that the keyboard reached into view."""
    target = _js(event.target)
    if target is None or not hasattr(target, "closest"):
        return
    spot = _js(target.closest(".tri-spot"))
    svg = _svg()
    if spot is None or svg is None:
        return
    cell = lay.parse_cell(str(spot.getAttribute("data-value") or ""))
    if cell is None:
        return
    box = _box(svg)
    x, y = grid.cell_centre(cell)
    if box[0] + 0.5 <= x <= box[0] + box[2] - 0.5 and box[1] + 0.5 <= y <= box[1] + box[3] - 0.5:
        return
    _set_box(svg, (x - box[2] / 2, y - box[3] / 2, box[2], box[3]))


# -- binding ---------------------------------------------------------------------------------------------


def _listen(target: Any, kind: str, handler: Any, capture: bool = False, passive: bool | None = None) -> None:
    proxy = create_proxy(_guard(handler))
    opts = {"capture": capture}
    if passive is not None:
        opts["passive"] = passive
    target.addEventListener(kind, proxy, _options(**opts))
    _s["listeners"].append((target, kind, proxy, capture))


def bind(ctx: Any) -> None:
    """Remember the latest context; attach the listeners once; move the focus where it helps."""
    _s["ctx"] = ctx
    try:
        board_watch.watch(ctx)
    except Exception:
        window.console.error("Boneyard (triangles board): " + traceback.format_exc())
    if not _s["listeners"]:
        _s["clear_proxy"] = create_proxy(_clear_suppress)
        _listen(document, "pointerdown", _down)
        _listen(document, "pointermove", _move, passive=False)
        _listen(document, "pointerup", _up)
        _listen(document, "pointercancel", _up)
        _listen(document, "click", _click, capture=True)
        _listen(document, "wheel", _wheel, passive=False)
        _listen(document, "keydown", _key)
        _listen(document, "focusin", _focus)
    try:
        reveal = _js(document.getElementById("reveal"))
        if reveal is not None:
            reveal.focus()
        elif _s["focus_spot"]:
            spot = _js(document.querySelector(".tri-spot"))
            if spot is not None:
                spot.focus()
        _s["focus_spot"] = False
    except Exception:
        window.console.error("Boneyard (triangles board): " + traceback.format_exc())


def unbind() -> None:
    """Remove every listener and free its proxy."""
    for target, kind, proxy, capture in _s["listeners"]:
        try:
            target.removeEventListener(kind, proxy, _options(capture=capture))
            proxy.destroy()
        except Exception:
            pass
    _s["listeners"].clear()
    board_watch.stop()
    if _s.get("clear_proxy") is not None:
        try:
            _s["clear_proxy"].destroy()
        except Exception:
            pass
        _s["clear_proxy"] = None
    _s["pointers"].clear()
    _s["drag"] = _s["pinch"] = None
    _s["suppress"] = _s["focus_spot"] = False
    _s["ctx"] = None
