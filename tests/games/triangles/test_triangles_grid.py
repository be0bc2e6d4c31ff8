"""Geometry of the triangular grid: corners, neighbours, plane points."""

from __future__ import annotations

import itertools

import pytest

from boneyard.games.triangles import grid

REGION = [(r, c) for r in range(-6, 7) for c in range(-8, 9)]
FAR = [(40, -71), (-33, 90), (101, 100)]  # outside the precomputed tables: the grid has no bounds


def _area(points):
    """Return the shoelace sum: positive for clockwise on screen (y downward)."""
    return sum(
        points[i][0] * points[(i + 1) % 3][1] - points[(i + 1) % 3][0] * points[i][1] for i in range(3)
    )


def _close(a, b):
    return abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9


def test_origin_points_up_with_documented_corners():
    """The opening cell (0, 0) points up; its corners are at (0.5, 0), (1, H), (0, H)."""
    assert grid.is_up((0, 0))
    pts = grid.cell_points((0, 0))
    for got, want in zip(pts, [(0.5, 0.0), (1.0, grid.H), (0.0, grid.H)]):
        assert _close(got, want)


def test_cells_point_up_and_down_by_parity():
    """'you build outward on a grid of triangles pointing up and down'"""
    for cell in REGION + FAR:
        pts = grid.cell_points(cell)
        ys = sorted(p[1] for p in pts)
        apex_on_top = ys[0] < ys[1]  # one point alone at the top: up
        assert apex_on_top == grid.is_up(cell)
        assert grid.is_up(cell) == ((cell[0] + cell[1]) % 2 == 0)


@pytest.mark.parametrize("cell", REGION + FAR)
def test_corners_are_clockwise_unit_triangles(cell):
    pts = grid.cell_points(cell)
    assert _area(pts) > 0  # clockwise as seen on screen
    for a, b in itertools.combinations(pts, 2):
        assert abs(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 - 1) < 1e-9
    for vertex in grid.corners(cell):
        assert (vertex[0] + vertex[1]) % 2 == 1
        assert cell in grid.cells_at(vertex)


@pytest.mark.parametrize("cell", REGION + FAR)
def test_neighbour_i_lies_across_side_i(cell):
    corners = grid.corners(cell)
    for i, other in enumerate(grid.neighbours(cell)):
        side = {corners[i], corners[(i + 1) % 3]}
        assert set(grid.corners(other)) & set(corners) == side
        assert grid.is_up(other) != grid.is_up(cell)
        assert cell in grid.neighbours(other)


@pytest.mark.parametrize("cell", REGION + FAR)
def test_point_neighbours_share_exactly_one_corner(cell):
    points = grid.point_neighbours(cell)
    assert len(points) == 9 and len(set(points)) == 9
    for other in points:
        assert len(set(grid.corners(other)) & set(grid.corners(cell))) == 1
    # and nothing else touches the cell: 3 side neighbours + 9 point neighbours = 12 cells
    around = {o for v in grid.corners(cell) for o in grid.cells_at(v)} - {cell}
    assert around == set(points) | set(grid.neighbours(cell))


def test_six_cells_meet_at_every_vertex():
    for cell in REGION:
        for vertex in grid.corners(cell):
            cells = grid.cells_at(vertex)
            assert len(set(cells)) == 6
            point = grid.vertex_point(vertex)
            for other in cells:
                assert any(_close(point, p) for p in grid.cell_points(other))


def test_cells_tile_the_plane_without_overlap():
    """Every vertex point is shared by six cells, no two cells have the same three points."""
    seen = {}
    for cell in REGION:
        key = tuple(sorted(grid.corners(cell)))
        assert key not in seen
        seen[key] = cell


def test_bounding_box_and_centre():
    assert grid.bounding_box([]) == grid.bounding_box([(0, 0)])
    x0, y0, x1, y1 = grid.bounding_box([(0, 0), (0, 1)])
    assert (x0, y0) == (0.0, 0.0) and abs(x1 - 1.5) < 1e-9 and abs(y1 - grid.H) < 1e-9
    cx, cy = grid.cell_centre((0, 0))
    assert abs(cx - 0.5) < 1e-9 and abs(cy - 2 * grid.H / 3) < 1e-9
