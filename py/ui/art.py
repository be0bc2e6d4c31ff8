"""Boneyard's own art as SVG: the logo and one illustration a game card, built with ``h()``.

Pure Python, so the tests render every piece under CPython. The logo has fixed colours (it is also the
file ``icons/logo.svg`` that the loading screen shows before any stylesheet of ours applies); the cards'
art is coloured by classes that ``css/app.css`` fills from the theme's custom properties, so every piece
follows the Felt, Light and Dark themes.
"""

from __future__ import annotations

from .html import Markup, h

__all__ = ["LOGO_COLOURS", "logo", "logo_file"]

# The logo's colours: an ivory tile and a gold one, both outlined in near-black so the mark reads on
# the dark felt and on the Light theme's cream alike.
LOGO_COLOURS = {"ivory": "#fbf8ef", "gold": "#f2c14e", "edge": "#21160a", "pip": "#1b1b1b"}

# Pip offsets in a half, on a 3 x 3 grid from -1 to 1 (x, y), as on a real tile.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((1, -1), (-1, 1)),
    3: ((1, -1), (0, 0), (-1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def pips(cx: float, cy: float, value: int, spread: float, radius: float, **props: str) -> list[Markup]:
    """Return the pip circles of one half centred at (cx, cy)."""
    return [
        h("circle", {"cx": _n(cx + dx * spread), "cy": _n(cy + dy * spread), "r": _n(radius), **props})
        for dx, dy in _PIPS[value]
    ]


def logo(size: int = 32, *, label: str = "") -> Markup:
    """Return the logo: an ivory 3-5 tile leaning on a gold double blank, as they fall in the boneyard.

    Without ``label`` the mark is decorative (``aria-hidden``); with one it is an image of that name.
    """
    c = LOGO_COLOURS
    rear = h(
        "g",
        {"transform": "rotate(-18 21 34)"},
        h(
            "rect",
            {
                "x": "9",
                "y": "12",
                "width": "24",
                "height": "44",
                "rx": "5.5",
                "fill": c["gold"],
                "stroke": c["edge"],
                "stroke-width": "2.6",
            },
        ),
        h(
            "line",
            {
                "x1": "13",
                "y1": "34",
                "x2": "29",
                "y2": "34",
                "stroke": c["edge"],
                "stroke-width": "2.2",
                "stroke-linecap": "round",
            },
        ),
    )
    front = h(
        "g",
        {"transform": "rotate(9 40 32)"},
        h(
            "rect",
            {
                "x": "27",
                "y": "7",
                "width": "26",
                "height": "50",
                "rx": "6",
                "fill": c["ivory"],
                "stroke": c["edge"],
                "stroke-width": "2.6",
            },
        ),
        h(
            "line",
            {
                "x1": "31",
                "y1": "32",
                "x2": "49",
                "y2": "32",
                "stroke": c["edge"],
                "stroke-width": "2.2",
                "stroke-linecap": "round",
            },
        ),
        h("g", {"fill": c["pip"]}, pips(40, 19.5, 3, 6.2, 2.9), pips(40, 44.5, 5, 6.2, 2.9)),
    )
    props = {
        "xmlns": "http://www.w3.org/2000/svg",
        "class_": "logo",
        "viewBox": "0 0 64 64",
        "width": str(size),
        "height": str(size),
        "role": "img" if label else None,
        "aria_label": label or None,
        "aria_hidden": None if label else "true",
        "focusable": "false",
    }
    return h("svg", props, h("title", {}, label) if label else "", rear, front)


def logo_file() -> str:
    """Return the text of ``icons/logo.svg`` (the logo as an image named Boneyard, 256 px)."""
    return logo(256, label="Boneyard") + "\n"
