"""The slides of a laid tile, in the page (Web Animations): the browser half of ``ui.motion``.

The page keeps its nodes across redraws (js/morph.js), so a slide runs on through a redraw: it sets no
style of its own on the element (a redraw puts the markup's back), only keyframes. A tile laid from the
hand is still a new node on the board, and the hand tile it was is gone: hence the box kept on the click.
"""

from __future__ import annotations

from typing import Any

from pyodide.ffi import to_js
from pyscript import window

from ..motion import SLIDE_MS, slide_offset

__all__ = ["animate", "remember", "settled"]

_state: dict[str, Any] = {"pick": None, "slides": []}


def remember(target: Any) -> None:
    """Keep the box of a clicked hand tile (``data-action="tile"`` or ``data-kit-pick``)."""
    try:
        if target.getAttribute("data-action") == "tile" or target.hasAttribute("data-kit-pick"):
            box = target.getBoundingClientRect()
            _state["pick"] = (float(box.left + box.width / 2), float(box.top + box.height / 2))
    except Exception:
        _state["pick"] = None


def animate(document: Any, play: bool) -> int:
    """Slide the elements marked ``data-kit-from`` from where they came (when ``play``: a move armed the
    motion and animations are on); return how many moved."""
    _state["slides"] = []
    if not play:
        _state["pick"] = None
        return 0
    moved = 0
    for element in document.querySelectorAll("[data-kit-from]"):
        try:
            origin = str(element.getAttribute("data-kit-from"))
            if origin == "pick":
                source = _state["pick"]
            else:
                found = document.querySelector(origin)
                box = found.getBoundingClientRect() if found is not None else None
                source = (float(box.left + box.width / 2), float(box.top + box.height / 2)) if box else None
            if source is None:
                continue
            box = element.getBoundingClientRect()
            target = (float(box.left + box.width / 2), float(box.top + box.height / 2))
            scale = 1.0
            svg = element.ownerSVGElement if hasattr(element, "ownerSVGElement") else None
            if svg is not None and float(svg.clientWidth or 0) > 0:
                scale = float(svg.viewBox.baseVal.width) / float(svg.clientWidth)  # px to the drawing's units
            dx, dy = slide_offset(source, target, scale)
            _state["slides"].append(_slide(element, dx, dy))
            moved += 1
        except Exception:  # motion must never break the table
            continue
    _state["pick"] = None
    return moved


async def settled() -> None:
    """Return once the slides the last ``animate`` started have ended (at once when none did)."""
    for slide in list(_state["slides"]):
        try:
            await slide.finished
        except Exception:  # cancelled: its element left the page with a redraw
            continue


def _slide(element: Any, dx: float, dy: float) -> Any:
    around = {"transformBox": "fill-box", "transformOrigin": "center"}  # an SVG tile scales about itself
    frames = [
        {"transform": f"translate({dx:.1f}px, {dy:.1f}px) scale(1.08)", "opacity": 0.85, **around},
        {"transform": "translate(0px, 0px) scale(1)", "opacity": 1, **around},
    ]
    options = {"duration": SLIDE_MS, "easing": "cubic-bezier(.2, .8, .2, 1)"}
    return element.animate(
        to_js(frames, dict_converter=window.Object.fromEntries),
        to_js(options, dict_converter=window.Object.fromEntries),
    )
