"""Lay out the line of play so it bends to stay on screen: pure geometry, no browser.

Units: one half of a domino is 1 x 1; a tile is 2 x 1 along the line, and a double lies across it
(1 along, 2 across). The opening tile sits at the origin. Each arm grows outwards from it along a row
that spans x in [-reach, reach]; at the row's end the line turns through a column of tiles (two
ordinary tiles drop it by three units, enough that the doubles of two rows never touch) and comes back
along the next row. The right arm snakes downwards and the left arm, its mirror image through the
origin, upwards, so laying a tile at one end never moves the tiles already on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]

ROW_PITCH_MIN = 3.0  # the distance between two rows' centre lines, at least


@dataclass(frozen=True)
class PlacedTile:
    """One tile of the line as drawn: its box and where each of its two halves shows which number."""

    index: int  # position in the line, from the left end
    x: float  # centre
    y: float
    w: float  # width and height of the box
    h: float
    halves: tuple[tuple[float, float, int], tuple[float, float, int]]  # (x, y, value) of each half
    double: bool

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Return (left, top, right, bottom)."""
        return (self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2)


def _arm(
    tiles: list[tuple[int, int, bool]], start: float, reach: float
) -> list[tuple[float, float, float, float, Point, Point, int, int, bool]]:
    """Lay one arm going right from x=start on row 0 and snaking downwards.

    ``tiles`` are (near value, far value, double) in order from the centre outwards. Returns, per tile,
    (x, y, w, h, near half point, far half point, near value, far value, double).
    """
    out = []
    y = 0.0
    direction = 1.0
    cursor = start  # the near edge of the next tile along the row
    turning = False
    column_x = 0.0
    down = 0.0  # in a turn: the top edge of the next tile in the column
    for near, far, double in tiles:
        length = 1.0 if double else 2.0
        if not turning:
            fits = (cursor + direction * length) * direction <= reach
            # A double may overhang the row's end by one unit rather than start a turn with a tile
            # that lies across the column.
            if fits or double:
                cx = cursor + direction * length / 2
                if double:
                    out.append((cx, y, 1.0, 2.0, (cx, y - 0.5), (cx, y + 0.5), near, far, True))
                else:
                    p_near = (cursor + direction * 0.5, y)
                    p_far = (cursor + direction * 1.5, y)
                    out.append((cx, y, 2.0, 1.0, p_near, p_far, near, far, False))
                cursor += direction * length
                continue
            turning = True
            column_x = cursor + direction * 0.5
            down = y - 0.5
        # In the turn column, going down.
        if double:
            cy = down + 0.5
            out.append((column_x, cy, 2.0, 1.0, (column_x - 0.5, cy), (column_x + 0.5, cy), near, far, True))
            down += 1.0
            continue
        p_near = (column_x, down + 0.5)
        p_far = (column_x, down + 1.5)
        out.append((column_x, down + 1.0, 1.0, 2.0, p_near, p_far, near, far, False))
        down += 2.0
        if p_far[1] - y >= ROW_PITCH_MIN:
            y = p_far[1]
            direction = -direction
            cursor = column_x + direction * 0.5
            turning = False
    return out


def layout_line(line: list[tuple[int, int, bool]], opening: int, reach: float) -> list[PlacedTile]:
    """Place every tile of the line.

    ``line`` lists the tiles from the left end to the right end as (left value, right value, double),
    ``opening`` is the index of the tile laid first, ``reach`` half the width of a row in units
    (at least 3). Returns one PlacedTile per tile, in line order.
    """
    if not line:
        return []
    reach = max(3.0, reach)
    opening = min(max(opening, 0), len(line) - 1)
    a, b, double = line[opening]
    placed: dict[int, PlacedTile] = {}
    if double:
        placed[opening] = PlacedTile(opening, 0.0, 0.0, 1.0, 2.0, ((0.0, -0.5, a), (0.0, 0.5, b)), True)
        start = 0.5
    else:
        placed[opening] = PlacedTile(opening, 0.0, 0.0, 2.0, 1.0, ((-0.5, 0.0, a), (0.5, 0.0, b)), False)
        start = 1.0
    right = [(line[i][0], line[i][1], line[i][2]) for i in range(opening + 1, len(line))]
    for k, (x, y, w, h, pn, pf, vn, vf, dbl) in enumerate(_arm(right, start, reach)):
        index = opening + 1 + k
        placed[index] = PlacedTile(index, x, y, w, h, ((pn[0], pn[1], vn), (pf[0], pf[1], vf)), dbl)
    # The left arm, from the opening outwards: its near half is the tile's right value.
    left = [(line[i][1], line[i][0], line[i][2]) for i in range(opening - 1, -1, -1)]
    for k, (x, y, w, h, pn, pf, vn, vf, dbl) in enumerate(_arm(left, start, reach)):
        index = opening - 1 - k
        # Mirror through the origin: the arm goes left and snakes upwards.
        placed[index] = PlacedTile(index, -x, -y, w, h, ((-pf[0], -pf[1], vf), (-pn[0], -pn[1], vn)), dbl)
    return [placed[i] for i in range(len(line))]


def bounds(tiles: list[PlacedTile], margin: float = 0.5) -> tuple[float, float, float, float]:
    """Return (left, top, width, height) of the tiles' boxes plus a margin."""
    if not tiles:
        return (-1.0 - margin, -1.0 - margin, 2.0 + 2 * margin, 2.0 + 2 * margin)
    left = min(t.box[0] for t in tiles) - margin
    top = min(t.box[1] for t in tiles) - margin
    right = max(t.box[2] for t in tiles) + margin
    bottom = max(t.box[3] for t in tiles) + margin
    return (left, top, right - left, bottom - top)


def overlaps(a: PlacedTile, b: PlacedTile) -> bool:
    """Tell whether two tiles' boxes overlap by more than a touch."""
    eps = 1e-9
    return (
        a.box[0] < b.box[2] - eps
        and b.box[0] < a.box[2] - eps
        and a.box[1] < b.box[3] - eps
        and b.box[1] < a.box[3] - eps
    )


def reach_for_width(width_px: float, unit_px: float) -> float:
    """Return the half-width of a row, in units, that fits ``width_px`` at ``unit_px`` a unit."""
    units = width_px / unit_px
    # A row spans 2 * reach; a double may overhang its end by 1 and a turn column add 1.5 on each side,
    # and the drawing keeps a margin of 0.5 all round.
    return max(3.0, min(16.0, (units - 6.0) / 2))


MARKER_GAP = 0.6  # from the end tile's free edge to the centre of its open-end marker, in units


def end_markers(tiles: list[PlacedTile]) -> tuple[Point, Point]:
    """Return where the two open-end markers sit: just beyond the free half of each end tile."""
    if not tiles:
        return ((-1.5, 0.0), (1.5, 0.0))
    if len(tiles) == 1:
        t = tiles[0]
        return ((t.x - t.w / 2 - MARKER_GAP, t.y), (t.x + t.w / 2 + MARKER_GAP, t.y))
    return (_beyond(tiles[0], tiles[1]), _beyond(tiles[-1], tiles[-2]))


def _beyond(end: PlacedTile, neighbour: PlacedTile) -> Point:
    dx, dy = end.x - neighbour.x, end.y - neighbour.y
    if abs(dx) >= abs(dy):
        step = 1.0 if dx >= 0 else -1.0
        return (end.x + step * (end.w / 2 + MARKER_GAP), end.y)
    step = 1.0 if dy >= 0 else -1.0
    return (end.x, end.y + step * (end.h / 2 + MARKER_GAP))


def end_markers_as_tiles(tiles: list[PlacedTile]) -> list[PlacedTile]:
    """Return the two markers as unit boxes, so ``bounds`` keeps them inside the drawing."""
    if not tiles:
        return []
    out = []
    for x, y in end_markers(tiles):
        out.append(PlacedTile(-1, x, y, 0.9, 0.9, ((x, y, 0), (x, y, 0)), False))
    return out
