"""Dominoes drawn as SVG: pips laid out as on real tiles, for the table, the hand and the summaries.

Pure Python; coordinates are in tile units (a half is 1 x 1) scaled by ``scale`` user units.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..html import Markup, h

# Pip positions in a half, on a 3 x 3 grid from -1 to 1 (x, y), for 0..9.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
    7: ((-1, -1), (-1, 0), (-1, 1), (0, 0), (1, -1), (1, 0), (1, 1)),
    8: ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    9: tuple((x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)),
}


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def pips_svg(cx: float, cy: float, value: int, scale: float, along_x: bool) -> Markup:
    """Return the pips of one half centred at (cx, cy); ``along_x``: the tile lies horizontally."""
    spread = 0.27 * scale
    radius = 0.095 * scale
    dots = []
    for px, py in PIPS.get(value, ()):
        if along_x:  # a six shows as two rows of three along the tile
            px, py = py, px
        dots.append(h("circle", {"cx": _n(cx + px * spread), "cy": _n(cy + py * spread), "r": _n(radius)}))
    return h("g", {"class_": "pips"}, dots)


def tile_svg(
    x: float,
    y: float,
    w: float,
    h_: float,
    halves: tuple[tuple[float, float, int], tuple[float, float, int]],
    scale: float,
    cls: str = "",
    props: Mapping[str, Any] | None = None,
) -> Markup:
    """Return one tile as an SVG group: body, dividing line and pips (coordinates in units).

    ``cls`` adds classes after ``tile``; ``props`` are more attributes of the group (``data_action`` ...).
    """
    left, top = (x - w / 2) * scale, (y - h_ / 2) * scale
    (ax, ay, av), (bx, by, bv) = halves
    along_x = abs(ax - bx) > abs(ay - by)
    pad = 0.03 * scale
    width, height, radius = w * scale - 2 * pad, h_ * scale - 2 * pad, 0.16 * scale
    shadow = h(
        "rect",
        {
            "class_": "tile-shadow",
            "x": _n(left + pad + 0.02 * scale),
            "y": _n(top + pad + 0.07 * scale),
            "width": _n(width),
            "height": _n(height),
            "rx": _n(radius),
        },
    )
    body = h(
        "rect",
        {
            "class_": "tile-body",
            "x": _n(left + pad),
            "y": _n(top + pad),
            "width": _n(width),
            "height": _n(height),
            "rx": _n(radius),
        },
    )
    inset = 0.07 * scale
    shine = h(
        "rect",
        {
            "class_": "tile-shine",
            "x": _n(left + pad + inset),
            "y": _n(top + pad + inset),
            "width": _n(width - 2 * inset),
            "height": _n(height - 2 * inset),
            "rx": _n(radius * 0.7),
        },
    )
    mx, my = (ax + bx) / 2 * scale, (ay + by) / 2 * scale
    if along_x:
        ends = {"x1": _n(mx), "y1": _n(my - 0.36 * scale), "x2": _n(mx), "y2": _n(my + 0.36 * scale)}
    else:
        ends = {"x1": _n(mx - 0.36 * scale), "y1": _n(my), "x2": _n(mx + 0.36 * scale), "y2": _n(my)}
    line = h("line", {"class_": "tile-line", **ends})
    pips = pips_svg(ax * scale, ay * scale, av, scale, along_x) + pips_svg(
        bx * scale, by * scale, bv, scale, along_x
    )
    return h(
        "g", {"class_": f"tile {cls}" if cls else "tile", **(props or {})}, shadow, body, shine, line, pips
    )


def standalone_tile(a: int, b: int, *, vertical: bool = True, scale: float = 40.0, label: str = "") -> Markup:
    """Return a whole <svg> of one tile (a on top or left), e.g. for the hand."""
    if vertical:
        w, hh, halves = 1.0, 2.0, ((0.5, 0.5, a), (0.5, 1.5, b))
    else:
        w, hh, halves = 2.0, 1.0, ((0.5, 0.5, a), (1.5, 0.5, b))
    inner = tile_svg(w / 2, hh / 2, w, hh, halves, scale)
    props = {
        "class_": "domino-svg",
        "viewBox": f"0 0 {_n(w * scale)} {_n(hh * scale + 0.06 * scale)}",
        "width": _n(w * scale),
        "height": _n(hh * scale + 0.06 * scale),
        "aria_hidden": "true" if not label else None,
        "role": "img" if label else None,
        "aria_label": label or None,
        "focusable": "false",
    }
    return h("svg", props, inner)


def back_svg(count: int, scale: float = 14.0) -> Markup:
    """Return a row of face-down tiles (at most 7 drawn) for another seat's hand."""
    shown = min(count, 7)
    width = max(1, shown) * 0.62 * scale + 0.4 * scale
    rects = [
        h(
            "rect",
            {
                "class_": "tile-back",
                "x": _n(i * 0.62 * scale + 0.1 * scale),
                "y": _n(0.1 * scale),
                "width": _n(0.55 * scale),
                "height": _n(1.0 * scale),
                "rx": _n(0.1 * scale),
            },
        )
        for i in range(shown)
    ]
    props = {
        "class_": "backs",
        "viewBox": f"0 0 {_n(width)} {_n(1.2 * scale)}",
        "width": _n(width),
        "height": _n(1.2 * scale),
        "aria_hidden": "true",
        "focusable": "false",
    }
    return h("svg", props, rects)


def board_svg(
    cls: str,
    box: tuple[float, float, float, float],
    scale: float,
    px_w: float,
    px_h: float,
    label: str,
    tiles: Any,
) -> Markup:
    """Return the board's ``<svg>``: ``box`` (left, top, width, height) in layout units, drawn at ``scale``."""
    left, top, width, height = box
    return h(
        "svg",
        {
            "class_": cls,
            "viewBox": f"{_n(left * scale)} {_n(top * scale)} {_n(width * scale)} {_n(height * scale)}",
            "width": _n(px_w),
            "height": _n(px_h),
            "role": "img",
            "aria_label": label,
        },
        tiles,
    )
