"""Triangles table: pure drawing and layout helpers (SVG markup, the view box, move texts).

No browser imports: the screen (``ui.games.triangles``) builds its markup from these, the tests run
them under CPython, and the browser module (``ui.games.triangles_board``) only pans and zooms what they
drew. Plane coordinates are the engine's (``boneyard.games.triangles.grid``): unit side, y downward.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from boneyard.games.triangles import grid
from boneyard.games.triangles.rules import Place, corner_values, parse_move

from ..html import Markup, h, join

Cell = tuple[int, int]
Box = tuple[float, float, float, float]  # x, y, width, height (an SVG viewBox)

MIN_W = 6.0  # the smallest box the fit shows (one tile must not fill a phone)
MIN_H = 4.2
MARGIN = 0.35
BAND_PX = 52.0  # the band over the board's top (the stock, zoom, Turn / Place / Cancel)
MIN_PX = 42.0  # the fit never draws a side smaller than this many pixels (corner numbers ~11 px)
ZOOM_STEP = 1.35
ZOOM_MIN_W = 2.5  # closest zoom: about two tiles across
ZOOM_MAX_W = 90.0
LABEL_PULL = 0.56  # how far a corner's number sits from the corner toward the centre: clear of both
# sides (about 0.16 of a side away from each) and of the numbers of the five other tiles at that corner
INSET = 0.035  # tiles are drawn slightly inside their cells so neighbours show a seam
WEDGE = 0.3  # a corner's tint reaches this share of the way along its two sides


def fmt(value: float) -> str:
    """Return a short decimal for SVG attributes."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def points_attr(points: Iterable[tuple[float, float]]) -> str:
    """Return an SVG ``points`` attribute."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


def inset(points: Sequence[tuple[float, float]], amount: float = INSET) -> list[tuple[float, float]]:
    """Return the triangle pulled toward its centre by ``amount`` (a share of each corner's distance)."""
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    return [(x + (cx - x) * amount, y + (cy - y) * amount) for x, y in points]


def label_points(
    points: Sequence[tuple[float, float]], pull: float = LABEL_PULL
) -> list[tuple[float, float]]:
    """Return where each corner's number goes: ``pull`` of the way from the corner to the centre."""
    return inset(points, pull)


def cell_text(cell: Cell) -> str:
    """Return ``"4,-1"``, the data value of a cell."""
    return f"{cell[0]},{cell[1]}"


def parse_cell(value: str) -> Cell | None:
    """Parse ``"4,-1"`` into a cell, or None."""
    try:
        r, c = value.split(",")
        return (int(r), int(c))
    except (ValueError, AttributeError):
        return None


# Where a cell lies from each neighbour across its sides (``grid.neighbours`` order): an up cell's are
# right, below and left of it, a down cell's above, right and left.
SIDE_WORDS = {True: ("left of", "above", "right of"), False: ("below", "left of", "right of")}


def laid_tiles(table: Iterable[Mapping[str, Any]]) -> dict[Cell, str]:
    """Return the view's table as cell -> tile text."""
    return {(int(item["cell"][0]), int(item["cell"][1])): str(item["tile"]) for item in table}


def where(cell: Cell, laid: Mapping[Cell, str], *, brief: bool = False) -> str:
    """Return where a cell lies in a player's words: beside which laid tiles (``left of 2-3-5``).

    ``brief`` names one of them only (enough to find it, short enough for the message line on a phone).
    """
    words = SIDE_WORDS[grid.is_up(cell)]
    found = [f"{word} {laid[n]}" for word, n in zip(words, grid.neighbours(cell), strict=True) if n in laid]
    if found:
        return found[0] if brief else " and ".join(found)
    touching = [laid[n] for n in grid.point_neighbours(cell) if n in laid]
    return f"touching {touching[0]} at a corner" if touching else "in the middle of the table"


def place_label(cell: Cell, laid: Mapping[Cell, str]) -> str:
    """Return the spoken name of a spot: ``Place left of 2-3-5``."""
    return f"Place {where(cell, laid)}"


# -- moves ----------------------------------------------------------------------------------------


def placements_by_tile(legal_moves: Iterable[str]) -> dict[str, dict[Cell, list[int]]]:
    """Return, from the view's legal moves, each tile's fitting cells and the rotations for each."""
    found: dict[str, dict[Cell, list[int]]] = {}
    for text in legal_moves:
        if "@" not in text:
            continue
        move = parse_move(text)
        assert isinstance(move, Place)
        tile = text.split("@", 1)[0]
        found.setdefault(tile, {}).setdefault(move.cell, []).append(move.rotation)
    for cells in found.values():
        for rots in cells.values():
            rots.sort()
    return found


def tile_values(tile: str) -> tuple[int, int, int]:
    """Return the three numbers of a tile's text ``"2-3-5"``."""
    a, b, c = (int(x) for x in tile.split("-"))
    return (a, b, c)


def move_text(tile: str, cell: Cell, rotation: int) -> str:
    """Return the engine's move text ``2-3-5@4,-1r1``."""
    return f"{tile}@{cell[0]},{cell[1]}r{rotation}"


def frontier(cells: Iterable[Cell]) -> list[Cell]:
    """Return the empty cells that share a side with one of ``cells``, in reading order."""
    placed = set(cells)
    around = {n for cell in placed for n in grid.neighbours(cell) if n not in placed}
    return sorted(around)


# -- the view box ---------------------------------------------------------------------------------


def fit_box(cells: Iterable[Cell]) -> Box:
    """Return the view box that shows all ``cells`` with a margin, at least MIN_W x MIN_H."""
    cells = list(cells) or [grid.ORIGIN]
    x0, y0, x1, y1 = grid.bounding_box(cells)
    x0, y0, x1, y1 = x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN
    w, hgt = x1 - x0, y1 - y0
    if w < MIN_W:
        x0 -= (MIN_W - w) / 2
        w = MIN_W
    if hgt < MIN_H:
        y0 -= (MIN_H - hgt) / 2
        hgt = MIN_H
    return (x0, y0, w, hgt)


def readable_box(full: Box, width: float, height: float, focus: Sequence[Cell] = ()) -> Box:
    """Return ``full`` when it shows a side at MIN_PX or more in a ``width`` x ``height`` board; else
    the box of that scale centred on the middle of the ``focus`` cells, kept inside ``full``."""
    x, y, w, hgt = full
    if width <= 0 or height <= 0 or min(width / w, height / hgt) >= MIN_PX:
        return full
    bw, bh = width / MIN_PX, height / MIN_PX
    if focus:
        x0, y0, x1, y1 = grid.bounding_box(focus)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    else:
        cx, cy = x + w / 2, y + hgt / 2

    def place(centre: float, start: float, size: float, span: float) -> float:
        if span >= size:
            return start + (size - span) / 2
        return min(max(centre - span / 2, start), start + size - span)

    return (place(cx, x, w, bw), place(cy, y, hgt, bh), bw, bh)


def under_band(box: Box, width: float, height: float, band: float = 0.0) -> Box:
    """Return the box of the board's shape (``width`` x ``height`` pixels) that draws ``box`` as large as
    it fits below the band of ``band`` pixels (BAND_PX by default) over the board's top, centred there."""
    band = band or BAND_PX
    x, y, w, hgt = box
    if width <= 0 or height <= band:
        return box
    scale = min(width / w, (height - band) / hgt)
    new_w, new_h = width / scale, height / scale
    below = (height - band) / scale
    return (x - (new_w - w) / 2, y - band / scale - (below - hgt) / 2, new_w, new_h)


def zoom_box(box: Sequence[float], factor: float, centre: tuple[float, float] | None = None) -> Box:
    """Return ``box`` scaled by ``factor`` (>1 shows more, zooms out) about ``centre`` (its middle)."""
    x, y, w, hgt = (float(v) for v in box)
    if centre is None:
        centre = (x + w / 2, y + hgt / 2)
    new_w = min(max(w * factor, ZOOM_MIN_W), ZOOM_MAX_W)
    factor = new_w / w
    cx, cy = centre
    return (cx - (cx - x) * factor, cy - (cy - y) * factor, w * factor, hgt * factor)


def valid_box(value: Any) -> Box | None:
    """Return a stored view box when it is four finite numbers with a sane size, else None."""
    try:
        x, y, w, hgt = (float(v) for v in value)
    except (TypeError, ValueError):
        return None
    if not all(abs(v) < 1e5 for v in (x, y, w, hgt)) or not (0.5 < w < 500 and 0.5 < hgt < 500):
        return None
    return (x, y, w, hgt)


def box_attr(box: Box) -> str:
    """Return an SVG ``viewBox`` attribute."""
    return " ".join(fmt(v) for v in box)


# -- drawing ----------------------------------------------------------------------------------------


def numbers(points: Sequence[tuple[float, float]], values: Sequence[int], cls: str = "tri-num") -> Markup:
    """Return the three corner numbers of a triangle as SVG text."""
    return join(
        h("text", {"x": fmt(x), "y": fmt(y), "class_": f"{cls} n{v}"}, str(v))
        for (x, y), v in zip(label_points(points), values)
    )


def wedges(points: Sequence[tuple[float, float]], values: Sequence[int]) -> Markup:
    """Return a tint in each corner of a triangle in its number's colour (a match reads as one patch)."""
    parts = []
    for i, v in enumerate(values):
        a, b, c = points[i], points[(i + 1) % 3], points[(i + 2) % 3]
        near_b = (a[0] + (b[0] - a[0]) * WEDGE, a[1] + (b[1] - a[1]) * WEDGE)
        near_c = (a[0] + (c[0] - a[0]) * WEDGE, a[1] + (c[1] - a[1]) * WEDGE)
        parts.append(h("polygon", {"points": points_attr((a, near_b, near_c)), "class_": f"tri-wedge w{v}"}))
    return join(parts)


def tile_shape(cell: Cell, values: Sequence[int], cls: str = "tri-tile", **props: Any) -> Markup:
    """Return a laid tile: a triangle in ``cell`` with ``values`` at its corners 0, 1, 2."""
    pts = grid.cell_points(cell)
    face = inset(pts)
    return h(
        "g",
        {"class_": cls, **props},
        h("polygon", {"points": points_attr(face), "class_": "tri-face"}),
        wedges(face, values),
        h("polygon", {"points": points_attr(face), "class_": "tri-rim"}),
        numbers(pts, values),
    )


GRID_PATTERN = Markup(
    '<defs><pattern id="tri-lattice" patternUnits="userSpaceOnUse" width="1" height="1.7320508">'
    '<path d="M0 0H1M0 0.8660254H1M0.5 0L1 0.8660254L0.5 1.7320508L0 0.8660254Z" class="tri-lattice-line"/>'
    "</pattern></defs>"
)


def hand_tile_svg(tile: str, label: bool = False) -> Markup:
    """Return the small picture of a hand tile: an up triangle, values ascending clockwise from the top.

    ``label``: the picture names its tile for screen readers (a tile shown face up outside a button).
    """
    pts = grid.cell_points(grid.ORIGIN)
    values = corner_values(tile_values(tile), 0)
    named = {"role": "img", "aria_label": tile} if label else {"aria_hidden": "true"}
    return h(
        "svg",
        {"class_": "tri-mini", "viewBox": "-0.05 -0.05 1.1 0.97", "focusable": "false", **named},
        h("polygon", {"points": points_attr(pts), "class_": "tri-face"}),
        wedges(pts, values),
        h("polygon", {"points": points_attr(pts), "class_": "tri-rim"}),
        numbers(pts, values),
    )


def board_svg(
    table: list[dict[str, Any]],
    box: Box,
    *,
    spots: dict[Cell, list[int]] | None = None,
    tile: str | None = None,
    open_cells: Iterable[Cell] = (),
    pending: tuple[Cell, int] | None = None,
    fresh_from: int | None = None,
    since_from: int | None = None,
    arrive_from: str | None = None,
) -> Markup:
    """Return the table as SVG: the lattice, the laid tiles, and (with a tile chosen) its spots.

    ``spots`` maps each cell where ``tile`` fits to its rotations; ``open_cells`` are the other empty
    cells next to the layout (drawn faintly, clickable so a wrong tap can be explained); ``pending``
    is the cell and rotation being previewed when a spot takes several rotations; tiles laid at or
    after turn ``fresh_from`` get the ``tri-new`` class (animated in); those laid at or after turn
    ``since_from`` (the others' moves since the viewer's last turn) get ``tri-since`` (highlighted);
    the last tile slides in from ``arrive_from`` (a selector: the seat or the tray that laid it).
    """
    last_turn = len(table) - 1
    laid = laid_tiles(table)
    tiles = []
    for item in table:
        cell = (int(item["cell"][0]), int(item["cell"][1]))
        cls = "tri-tile"
        if item["turn"] == last_turn:
            cls += " tri-last"
        arriving = arrive_from if item["turn"] == last_turn else None
        if fresh_from is not None and item["turn"] >= fresh_from and not arriving:
            cls += " tri-new"
        if since_from is not None and item["turn"] >= since_from:
            cls += " tri-since"
        tiles.append(
            tile_shape(
                cell,
                item["corners"],
                cls,
                role="img",
                aria_label=f"Tile {item['tile']}, {where(cell, laid)}",
                data_kit_from=arriving,
                data_key=item["tile"],
            )
        )
    marks = []
    cells = []
    spots = spots or {}
    if tile:
        values = tile_values(tile)
        for cell in sorted(spots):
            rots = spots[cell]
            rot = pending[1] if pending and pending[0] == cell and pending[1] in rots else rots[0]
            pts = grid.cell_points(cell)
            cls = "tri-spot" + (" tri-pending" if pending and pending[0] == cell else "")
            label = place_label(cell, laid) + (f", {len(rots)} ways to turn it" if len(rots) > 1 else "")
            marks.append(
                h(
                    "g",
                    {
                        "class_": cls,
                        "id": f"spot-{cell[0]}_{cell[1]}",
                        "data_action": "cell",
                        "data_value": cell_text(cell),
                        "tabindex": "0",
                        "role": "button",
                        "aria_label": label,
                    },
                    h("polygon", {"points": points_attr(inset(pts, 0.06)), "class_": "tri-spot-face"}),
                    numbers(pts, corner_values(values, rot), "tri-ghost"),
                )
            )
        for cell in open_cells:
            if cell in spots:
                continue
            cells.append(
                h(
                    "polygon",
                    {
                        "points": points_attr(inset(grid.cell_points(cell), 0.08)),
                        "class_": "tri-open",
                        "data_action": "cell",
                        "data_value": cell_text(cell),
                        "aria_hidden": "true",
                    },
                )
            )
    label = f"The table: {len(table)} tile{'s' if len(table) != 1 else ''}" + (
        f"; {len(spots)} spot{'s' if len(spots) != 1 else ''} for {tile}" if tile else ""
    )
    return h(
        "svg",
        {
            "id": "tri-svg",
            "class_": "tri-svg",
            "viewBox": box_attr(box),
            "preserveAspectRatio": "xMidYMid meet",
            "role": "group",
            "aria_label": label,
            "xmlns": "http://www.w3.org/2000/svg",
        },
        GRID_PATTERN,
        h(
            "rect",
            {
                "x": "-500",
                "y": "-500",
                "width": "1000",
                "height": "1000",
                "class_": "tri-lattice",
                "fill": "url(#tri-lattice)",
            },
        ),
        h("g", {"class_": "tri-layer-tiles"}, tiles),
        h("g", {"class_": "tri-layer-open"}, cells),
        h("g", {"class_": "tri-layer-spots"}, marks),
    )


# -- words ------------------------------------------------------------------------------------------


def log_lines(history: list[dict[str, Any]], name: Any, limit: int = 8) -> list[str]:
    """Return the last turns as sentences: "Ana drew 2 tiles and laid 2-3-5", "Computer 1 passed".

    ``name(seat)`` returns the seat's name ("You" for the person against the computer).
    """
    turns: list[tuple[int, list[str]]] = []
    for entry in history:
        seat, move = int(entry["seat"]), str(entry["move"])
        if turns and turns[-1][0] == seat and turns[-1][1][-1] == "draw":
            turns[-1][1].append(move)
        else:
            turns.append((seat, [move]))
    lines = []
    for seat, moves in turns[-limit:]:
        parts = []
        draws = moves.count("draw")
        if draws:
            parts.append(f"drew {draws} tiles" if draws > 1 else "drew a tile")
        last = moves[-1]
        if last == "pass":
            parts.append("passed")
        elif last != "draw":
            parts.append(f"laid {last.split('@', 1)[0]}")
        lines.append(f"{name(seat)} {' and '.join(parts)}")
    return lines
