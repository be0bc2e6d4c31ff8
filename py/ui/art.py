"""Boneyard's own art as SVG: the logo and one illustration a game card, built with ``h()``.

Pure Python, so the tests render every piece under CPython. The logo has fixed colours (it is also the
file ``icons/logo.svg`` that the loading screen shows before any stylesheet of ours applies); the cards'
art is coloured by classes that ``css/app.css`` fills from the theme's custom properties, so every piece
follows the Felt, Light and Dark themes.
"""

from __future__ import annotations

import math

from .html import Markup, h

__all__ = [
    "BONEFALL_SCENE",
    "CARD_ART",
    "HEPTALION_ROWS",
    "LOGO_COLOURS",
    "TRIANGLE_STRIP",
    "card_art",
    "cell_points",
    "logo",
    "logo_file",
    "symbol_shape",
]

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


# -- the game cards -------------------------------------------------------------------------------
# Every card's picture is an <svg> of 360 x 120 user units, drawn in the middle of the card's art band.

ART_W, ART_H = 360, 120


def _art_svg(game_id: str, *children: object) -> Markup:
    return h(
        "svg",
        {
            "class_": f"card-art card-art-{game_id}",
            "viewBox": f"0 0 {ART_W} {ART_H}",
            "preserveAspectRatio": "xMidYMid meet",
            "aria_hidden": "true",
            "focusable": "false",
        },
        *children,
    )


def tile_svg(
    x: float, y: float, w: float, h_: float, halves: tuple[tuple[float, float, int], ...], s: float
) -> Markup:
    """Return a domino as the tables draw it (``ui.games.domino_svg``): body, dividing line, pips; in units."""
    (ax, ay, av), (bx, by, bv) = halves
    along_x = abs(ax - bx) > abs(ay - by)
    pad = 0.03 * s
    body = h(
        "rect",
        {
            "class_": "tile-body",
            "x": _n((x - w / 2) * s + pad),
            "y": _n((y - h_ / 2) * s + pad),
            "width": _n(w * s - 2 * pad),
            "height": _n(h_ * s - 2 * pad),
            "rx": _n(0.14 * s),
        },
    )
    mx, my = (ax + bx) / 2 * s, (ay + by) / 2 * s
    d = 0.36 * s
    ends = (mx, my - d, mx, my + d) if along_x else (mx - d, my, mx + d, my)
    line = h("line", {"class_": "tile-line", **dict(zip(("x1", "y1", "x2", "y2"), map(_n, ends)))})
    dots = []
    for cx, cy, value in ((ax, ay, av), (bx, by, bv)):
        for dx, dy in _PIPS[value]:
            if along_x and value == 6:  # a six shows as two rows of three along the tile
                dx, dy = dy, dx
            dots.append(
                h(
                    "circle",
                    {"cx": _n((cx + dx * 0.27) * s), "cy": _n((cy + dy * 0.27) * s), "r": _n(0.095 * s)},
                )
            )
    return h("g", {"class_": "tile"}, body, line, h("g", {"class_": "pips"}, dots))


def dominoes_art() -> Markup:
    """Return the Dominoes card: a line 3-5, 5-5 (across), 5-1 and a 1-4 about to be laid on the 1."""
    s = 30.0  # user units per half
    line = [
        tile_svg(3.2, 2.35, 2, 1, ((2.7, 2.35, 3), (3.7, 2.35, 5)), s),
        tile_svg(4.7, 2.35, 1, 2, ((4.7, 1.85, 5), (4.7, 2.85, 5)), s),
        tile_svg(6.2, 2.35, 2, 1, ((5.7, 2.35, 5), (6.7, 2.35, 1)), s),
    ]
    target = h(
        "rect",
        {
            "class_": "art-target",
            "x": _n(7.25 * s),
            "y": _n(1.88 * s),
            "width": _n(1.94 * s),
            "height": _n(0.94 * s),
            "rx": _n(0.14 * s),
        },
    )
    lifted = h(
        "g",
        {"class_": "art-lifted", "transform": f"rotate(-12 {_n(8.5 * s)} {_n(1.2 * s)})"},
        tile_svg(8.5, 1.2, 2, 1, ((8.0, 1.2, 1), (9.0, 1.2, 4)), s),
    )
    return _art_svg("dominoes", h("g", {"class_": "art-tiles"}, line, target, lifted))


# The Triangles card: cells of one row of the grid and the numbers at their corners (clockwise from the
# top, or from the top left for a down cell, as ``grid.cell_points`` orders them). Every corner that two
# tiles share shows one number, and each tile's numbers ascend clockwise, as printed. The last tile is
# lifted over its cell, about to be laid.
TRIANGLE_STRIP: tuple[tuple[tuple[int, int], tuple[int, int, int]], ...] = (
    ((0, 0), (1, 3, 5)),
    ((0, 1), (1, 2, 3)),
    ((0, 2), (2, 2, 3)),
    ((0, 3), (2, 5, 2)),
    ((0, 4), (5, 0, 2)),
)


TRI_H = math.sqrt(3) / 2  # the height of a cell of unit side


def cell_points(cell: tuple[int, int]) -> tuple[tuple[float, float], ...]:
    """Return a cell's corners in the plane as ``boneyard.games.triangles.grid`` orders them (clockwise).

    Only what the card needs: row 0, up cells at even columns, down cells at odd ones (unit side).
    """
    row, col = cell
    top, bottom = row * TRI_H, (row + 1) * TRI_H
    if (row + col) % 2 == 0:  # up: top, bottom right, bottom left
        return ((col + 1) / 2, top), ((col + 2) / 2, bottom), (col / 2, bottom)
    return (col / 2, top), ((col + 2) / 2, top), ((col + 1) / 2, bottom)  # down: top left, top right, bottom


def _triangle(
    cell: tuple[int, int], values: tuple[int, int, int], s: float, ox: float, oy: float, cls: str
) -> Markup:
    pts = [(ox + x * s, oy + y * s) for x, y in cell_points(cell)]
    cx, cy = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
    face = h(
        "polygon",
        {
            "class_": "art-tri",
            "points": " ".join(f"{_n(cx + (x - cx) * 0.965)},{_n(cy + (y - cy) * 0.965)}" for x, y in pts),
        },
    )
    labels = [
        h(
            "text",
            {"class_": f"art-num n{v}", "x": _n(x + (cx - x) * 0.43), "y": _n(y + (cy - y) * 0.43)},
            str(v),
        )
        for (x, y), v in zip(pts, values)
    ]
    return h("g", {"class_": cls}, face, labels)


def triangles_art() -> Markup:
    """Return the Triangles card: four tiles matched corner to corner and a fifth lifted over its cell."""
    s = 88.0
    ox, oy = (ART_W - 3.0 * s) / 2 - 6, (ART_H - TRI_H * s) / 2 + 8
    laid = [_triangle(cell, values, s, ox, oy, "art-tri-tile") for cell, values in TRIANGLE_STRIP[:-1]]
    cell, values = TRIANGLE_STRIP[-1]
    pts = [(ox + x * s, oy + y * s) for x, y in cell_points(cell)]
    slot = h("polygon", {"class_": "art-target", "points": " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)})
    lifted = h(
        "g",
        {
            "class_": "art-lifted",
            "transform": "translate(26 -12) rotate(9 "
            f"{_n(sum(p[0] for p in pts) / 3)} {_n(sum(p[1] for p in pts) / 3)})",
        },
        _triangle(cell, values, s, ox, oy, "art-tri-tile"),
    )
    return _art_svg("triangles", laid, slot, lifted)


# The Heptalion card: the top five rows of the published diamond (``boneyard.games.heptalion.board``),
# a face-down domino already placed and a face-up one laid on two spaces that show its two symbols.
HEPTALION_ROWS = ("     X     ", "    CDS    ", "   XTDDT   ", "  LTTXDLC  ", " TSTP PLLL ")
HEPTALION_FACE_DOWN = ((1, 4), (2, 4))
HEPTALION_FACE_UP = ((3, 6), (3, 7))


# Heptalion's symbols, for the card and for its table (``ui.games.heptalion_view`` draws these):
# a saltire, a ring, a tall rhombus, a solid square, a small dot, a plus, a clover, each in its colour.
SYMBOL_COLOURS = {
    "X": "#c0392b",
    "C": "#1f5fa8",
    "D": "#7b3fa0",
    "S": "#0f6e5e",
    "T": "#2b2b2b",
    "P": "#c2610f",
    "L": "#2e8b3a",
}


def symbol_shape(sym: str) -> Markup:
    """Return one symbol's drawing in a -12..12 box."""
    c = SYMBOL_COLOURS[sym]
    stroke = {"stroke": c, "stroke_width": "4.2", "stroke_linecap": "round", "fill": "none"}
    if sym == "X":
        return h("path", {"d": "M-7,-7 L7,7 M7,-7 L-7,7", **stroke})
    if sym == "C":
        return h("circle", {"r": "7", "stroke": c, "stroke_width": "3.4", "fill": "none"})
    if sym == "D":
        return h("path", {"d": "M0,-10 L7,0 L0,10 L-7,0 Z", "fill": c})
    if sym == "S":
        return h("rect", {"x": "-7", "y": "-7", "width": "14", "height": "14", "rx": "1.5", "fill": c})
    if sym == "T":
        return h("circle", {"r": "4", "fill": c})
    if sym == "P":
        return h("path", {"d": "M0,-8.5 V8.5 M-8.5,0 H8.5", **stroke})
    if sym == "L":
        leaves = [
            h("circle", {"cx": x, "cy": y, "r": "4"})
            for x, y in (("0", "-4.6"), ("4.6", "0"), ("0", "4.6"), ("-4.6", "0"))
        ]
        stalk = h("path", {"d": "M0,0 L3,10", "stroke": c, "stroke_width": "2", "stroke_linecap": "round"})
        return h("g", {"fill": c}, leaves, stalk)
    raise ValueError(f"no symbol {sym!r}")


def _symbol(sym: str, x: float, y: float, size: float) -> Markup:
    return h(
        "svg",
        {"x": _n(x), "y": _n(y), "width": _n(size), "height": _n(size), "viewBox": "-12 -12 24 24"},
        symbol_shape(sym),
    )


def heptalion_art() -> Markup:
    """Return the Heptalion card: a piece of the diamond with its symbols and two placed dominoes."""
    size, gap = 20.0, 2.4
    pitch = size + gap
    ox = (ART_W - 9 * pitch + gap) / 2 - pitch  # columns 1-9 are used
    oy = (ART_H - 5 * pitch + gap) / 2

    def at(row: int, col: int) -> tuple[float, float]:
        return ox + col * pitch, oy + row * pitch

    covered = set(HEPTALION_FACE_DOWN) | set(HEPTALION_FACE_UP)
    spaces = []
    for r, row in enumerate(HEPTALION_ROWS):
        for c, sym in enumerate(row):
            if sym == " " or (r, c) in covered:
                continue
            x, y = at(r, c)
            spaces.append(
                h(
                    "g",
                    {"class_": "art-space"},
                    h("rect", {"x": _n(x), "y": _n(y), "width": _n(size), "height": _n(size), "rx": "3.5"}),
                    _symbol(sym, x + 2.5, y + 2.5, 15),
                )
            )
    (r0, c0), _ = HEPTALION_FACE_DOWN
    x, y = at(r0, c0)
    back = h(
        "rect",
        {
            "class_": "art-back",
            "x": _n(x),
            "y": _n(y),
            "width": _n(size),
            "height": _n(size + pitch),
            "rx": "4",
        },
    )
    (r0, c0), _ = HEPTALION_FACE_UP
    x, y = at(r0, c0)
    face = h(
        "g",
        {"class_": "art-placed"},
        h(
            "rect",
            {
                "class_": "art-domino",
                "x": _n(x - 1),
                "y": _n(y - 1),
                "width": _n(size + pitch + 2),
                "height": _n(size + 2),
                "rx": "4",
            },
        ),
        h(
            "line",
            {
                "class_": "art-domino-line",
                "x1": _n(x + pitch - gap / 2),
                "y1": _n(y + 3),
                "x2": _n(x + pitch - gap / 2),
                "y2": _n(y + size - 3),
            },
        ),
        [_symbol(HEPTALION_ROWS[r][c], at(r, c)[0] + 2.5, y + 2.5, 15) for r, c in HEPTALION_FACE_UP],
    )
    return _art_svg("heptalion", spaces, back, face)


# The Bonefall card: the bottom of the well, as (col, row, value, partner side or "") halves at rest, and
# a 5-2 falling onto the single 2: two 2s meet in a column and annihilate.
BONEFALL_SCENE: tuple[tuple[int, int, int, str], ...] = (
    (0, 3, 3, "right"),
    (1, 3, 5, "left"),
    (2, 3, 2, ""),
    (3, 3, 6, "right"),
    (4, 3, 1, "left"),
    (5, 3, 4, "right"),
    (6, 3, 6, "left"),
    (0, 2, 5, "up"),
    (0, 1, 1, "down"),
    (5, 2, 3, "right"),
    (6, 2, 4, "left"),
    (4, 2, 4, ""),
)
BONEFALL_PIECE = ((2, 1, 5, "down"), (2, 2, 2, "up"))
BONEFALL_MATCH = ((2, 2), (2, 3))


def half(col: int, row: int, value: int, link: str, c: float, ox: float, oy: float, cls: str) -> Markup:
    """Return one half of a Bonefall domino: a rounded square joined to its partner's side."""
    x, y = ox + col * c, oy + row * c
    inset = 1.2
    x0 = x if link == "left" else x + inset
    y0 = y if link == "up" else y + inset
    x1 = x + c if link == "right" else x + c - inset
    y1 = y + c if link == "down" else y + c - inset
    body = h(
        "rect",
        {
            "class_": "art-half",
            "x": _n(x0),
            "y": _n(y0),
            "width": _n(x1 - x0),
            "height": _n(y1 - y0),
            "rx": "4",
        },
    )
    divider = ""
    if link == "right":
        divider = h(
            "line",
            {
                "class_": "art-half-line",
                "x1": _n(x + c),
                "y1": _n(y + 4),
                "x2": _n(x + c),
                "y2": _n(y + c - 4),
            },
        )
    elif link == "down":
        divider = h(
            "line",
            {
                "class_": "art-half-line",
                "x1": _n(x + 4),
                "y1": _n(y + c),
                "x2": _n(x + c - 4),
                "y2": _n(y + c),
            },
        )
    dots = pips(x + c / 2, y + c / 2, value, c * 0.27, c * 0.085)
    return h("g", {"class_": cls}, body, divider, h("g", {"class_": f"art-pips p{value}"}, dots))


def bonefall_art() -> Markup:
    """Return the Bonefall card: the well's floor, a domino falling, two equal halves annihilating."""
    c = 25.0
    ox, oy = (ART_W - 7 * c) / 2, ART_H - 4 * c - 8
    well = h(
        "path",
        {
            "class_": "art-well",
            "d": f"M{_n(ox - 4)} {_n(oy - 6)}V{_n(oy + 4 * c + 3)}H{_n(ox + 7 * c + 4)}V{_n(oy - 6)}",
        },
    )
    rest = [half(col, row, v, link, c, ox, oy, "art-rest") for col, row, v, link in BONEFALL_SCENE]
    rings = [
        h(
            "rect",
            {
                "class_": "art-burst",
                "x": _n(ox + col * c - 2),
                "y": _n(oy + row * c - 2),
                "width": _n(c + 4),
                "height": _n(c + 4),
                "rx": "6",
            },
        )
        for col, row in BONEFALL_MATCH
    ]
    trail = h(
        "path",
        {
            "class_": "art-trail",
            "d": f"M{_n(ox + 2.3 * c)} {_n(oy - 2)}V{_n(oy + 0.8 * c)}"
            f"M{_n(ox + 2.7 * c)} {_n(oy - 6)}V{_n(oy + 0.6 * c)}",
        },
    )
    piece = [half(col, row, v, link, c, ox, oy, "art-falling") for col, row, v, link in BONEFALL_PIECE]
    sparks = h(
        "g",
        {"class_": "art-sparks"},
        [
            h("path", {"d": f"M{_n(ox + 3 * c + 6)} {_n(oy + 3 * c - 2)}l9 -7"}),
            h("path", {"d": f"M{_n(ox + 3 * c + 7)} {_n(oy + 3 * c + 6)}h11"}),
            h("path", {"d": f"M{_n(ox + 2 * c - 6)} {_n(oy + 3 * c - 2)}l-9 -7"}),
            h("path", {"d": f"M{_n(ox + 2 * c - 7)} {_n(oy + 3 * c + 6)}h-11"}),
        ],
    )
    return _art_svg("bonefall", well, rest, trail, rings, piece, sparks)


CARD_ART = {
    "dominoes": dominoes_art,
    "triangles": triangles_art,
    "heptalion": heptalion_art,
    "bonefall": bonefall_art,
}


def card_art(game_id: str) -> Markup:
    """Return a game card's picture (a plain domino for a game that has none of its own yet)."""
    return CARD_ART.get(game_id, dominoes_art)()
