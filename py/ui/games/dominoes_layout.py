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
    tiles: list[tuple[int, int, bool]], start: float, reach: float, low: float | None = None
) -> list[tuple[float, float, float, float, Point, Point, int, int, bool]]:
    """Lay one arm going right from x=start on row 0 and snaking downwards.

    ``tiles`` are (near value, far value, double) in order from the centre outwards; the rows coming
    back end at x=``low`` (default ``-reach``: the whole width). Returns, per tile,
    (x, y, w, h, near half point, far half point, near value, far value, double).
    """
    low = -reach if low is None else low
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
            fits = cursor + length <= reach if direction > 0 else cursor - length >= low
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
            if direction > 0 and column_x - 0.5 - 2.0 < low:
                continue  # no room for a tile on the way back: the column goes on down
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


# -- All Fives: the spinner and its four arms ----------------------------------------------------------

SPINNER_CLEAR = 3.0  # the rows of an arm coming back stop this far from the spinner's own lines
ARM_TURNS = {"R": 0, "S": 1, "L": 2, "N": 3}  # quarter turns (clockwise on screen) from the right arm


def _turn(point: Point, quarters: int) -> Point:
    x, y = point
    for _ in range(quarters % 4):
        x, y = -y, x
    return (x, y)


def layout_fives(
    line: list[tuple[int, int, bool]],
    spinner: int,
    north: list[tuple[int, int, bool]],
    south: list[tuple[int, int, bool]],
    reach_x: float,
    reach_y: float,
) -> dict[tuple[str, int], PlacedTile]:
    """Place an All Fives layout around its spinner, which sits crosswise at the origin.

    ``line`` runs left to right through the spinner (at index ``spinner``), as (left, right, double);
    ``north`` and ``south`` are the tiles on the spinner's two ends, outward, as (inner, outer, double).
    The left and right arms run along row 0 and snake within ``reach_x``; the north and south arms run
    up and down from the spinner's ends and snake within ``reach_y``. Each arm bends into its own
    quarter (right: down; south: left; left: up; north: right), so no two arms ever meet and laying a
    tile never moves another. Returns the tiles keyed ("line", index) or ("N"/"S", index outward).
    """
    placed: dict[tuple[str, int], PlacedTile] = {}
    a, b, _double = line[spinner]
    placed[("line", spinner)] = PlacedTile(spinner, 0.0, 0.0, 1.0, 2.0, ((0.0, -0.5, a), (0.0, 0.5, b)), True)
    right = [line[i] for i in range(spinner + 1, len(line))]
    left = [(line[i][1], line[i][0], line[i][2]) for i in range(spinner - 1, -1, -1)]
    arms: list[tuple[str, list[tuple[int, int, bool]], float, float, int]] = [
        ("R", right, 0.5, reach_x, 1),
        ("L", left, 0.5, reach_x, -1),
        ("S", list(south), 1.0, reach_y, 0),
        ("N", list(north), 1.0, reach_y, 0),
    ]
    for name, tiles, start, reach, step in arms:
        quarters = ARM_TURNS[name]
        for k, (x, y, w, hh, pn, pf, vn, vf, dbl) in enumerate(
            _arm(tiles, start, max(start + 2.5, reach), SPINNER_CLEAR)
        ):
            cx, cy = _turn((x, y), quarters)
            if quarters % 2:
                w, hh = hh, w
            near, far = _turn(pn, quarters), _turn(pf, quarters)
            if name in ("R", "L"):
                index = spinner + step * (k + 1)
                key = ("line", index)
                # Line tiles list their halves left to right (as ``layout_line`` does).
                halves = ((*near, vn), (*far, vf)) if name == "R" else ((*far, vf), (*near, vn))
            else:
                index = k
                key = (name, k)
                halves = ((*near, vn), (*far, vf))
            placed[key] = PlacedTile(index, cx, cy, w, hh, halves, dbl)
    return placed


def arm_chains(
    placed: dict[tuple[str, int], PlacedTile], spinner: int, length: int
) -> dict[str, list[PlacedTile]]:
    """Return each arm's tiles from the spinner outward, the spinner first (L, R, N, S)."""
    hub = placed[("line", spinner)]
    north = sorted((k[1], t) for k, t in placed.items() if k[0] == "N")
    south = sorted((k[1], t) for k, t in placed.items() if k[0] == "S")
    return {
        "L": [hub] + [placed[("line", i)] for i in range(spinner - 1, -1, -1)],
        "R": [hub] + [placed[("line", i)] for i in range(spinner + 1, length)],
        "N": [hub] + [t for _, t in north],
        "S": [hub] + [t for _, t in south],
    }


HUB_OUT = {"L": (-1.0, 0.0), "R": (1.0, 0.0), "N": (0.0, -1.0), "S": (0.0, 1.0)}


def arm_marker(chain: list[PlacedTile], arm: str) -> Point:
    """Return where an arm's open-end marker sits: beyond its last tile (beside the spinner when bare)."""
    if len(chain) > 1:
        return _beyond(chain[-1], chain[-2])
    hub = chain[0]
    dx, dy = HUB_OUT[arm]
    return (hub.x + dx * (hub.w / 2 + MARKER_GAP), hub.y + dy * (hub.h / 2 + MARKER_GAP))


def marker_boxes(points: list[Point]) -> list[PlacedTile]:
    """Return markers as unit boxes, so ``bounds`` keeps them inside the drawing."""
    return [PlacedTile(-1, x, y, 0.9, 0.9, ((x, y, 0), (x, y, 0)), False) for x, y in points]
