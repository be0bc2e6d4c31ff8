"""Geometry of the unbounded triangular grid that Triangles is played on.

Coordinates (the screens draw from these):

- A **cell** is ``(row, col)``, any integers. Row ``r`` is the horizontal strip between the lines
  ``y = r*H`` and ``y = (r+1)*H`` where ``H = sqrt(3)/2`` (unit side length). A cell points **up**
  when ``row + col`` is even and **down** when it is odd; ``(0, 0)`` (the opening cell) points up.
  Cells ``(r, c)`` and ``(r, c+1)`` always share a side.
- A **vertex** (a corner point of the lattice) is ``(line, half)`` with ``line + half`` odd; its point
  in the plane is ``x = half/2``, ``y = line*H``.
- The plane has x to the right and **y downward**, as on a screen, so "clockwise" below means
  clockwise as the player sees it.
- The **corners** of a cell come in a fixed clockwise order, corner 0 first:

  * up cell ``(r, c)``: 0 top ``(r, c+1)``, 1 bottom-right ``(r+1, c+2)``, 2 bottom-left ``(r+1, c)``
  * down cell ``(r, c)``: 0 top-left ``(r, c)``, 1 top-right ``(r, c+2)``, 2 bottom ``(r+1, c+1)``

- Side ``i`` of a cell joins its corners ``i`` and ``i+1`` (mod 3); ``neighbours(cell)[i]`` is the
  cell across side ``i``.
- Up cell ``(0, 0)`` has its corners at (0.5, 0), (1, H), (0, H).

Tables are built once for the region around the origin that a game can reach in practice and
computed (then kept) on demand outside it, so the grid has no bounds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = [
    "ORIGIN",
    "Cell",
    "H",
    "Point",
    "Vertex",
    "bounding_box",
    "cell_centre",
    "cell_points",
    "cells_at",
    "corners",
    "is_up",
    "neighbours",
    "point_neighbours",
    "vertex_point",
]

Cell = tuple[int, int]  # (row, col); up when row + col is even
Vertex = tuple[int, int]  # (line, half); line + half is odd
Point = tuple[float, float]  # (x, y) in the plane, unit side, y downward

H: float = math.sqrt(3) / 2  # height of a cell
ORIGIN: Cell = (0, 0)

_CORNERS: dict[Cell, tuple[Vertex, Vertex, Vertex]] = {}
_NEIGHBOURS: dict[Cell, tuple[Cell, Cell, Cell]] = {}
_CELLS_AT: dict[Vertex, tuple[Cell, ...]] = {}
_POINT_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {}


def is_up(cell: Cell) -> bool:
    """Tell whether a cell points up (its row + col is even)."""
    return (cell[0] + cell[1]) % 2 == 0


def _compute_corners(cell: Cell) -> tuple[Vertex, Vertex, Vertex]:
    r, c = cell
    if is_up(cell):
        return ((r, c + 1), (r + 1, c + 2), (r + 1, c))
    return ((r, c), (r, c + 2), (r + 1, c + 1))


def _compute_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    r, c = cell
    if is_up(cell):
        return ((r, c + 1), (r + 1, c), (r, c - 1))  # right, bottom, left
    return ((r - 1, c), (r, c + 1), (r, c - 1))  # top, right, left


def _compute_cells_at(vertex: Vertex) -> tuple[Cell, ...]:
    i, j = vertex
    return ((i - 1, j - 2), (i - 1, j - 1), (i - 1, j), (i, j - 2), (i, j - 1), (i, j))


def corners(cell: Cell) -> tuple[Vertex, Vertex, Vertex]:
    """Return the cell's three corner vertices in clockwise order, corner 0 first."""
    found = _CORNERS.get(cell)
    if found is None:
        found = _CORNERS[cell] = _compute_corners(cell)
    return found


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """Return the three cells sharing a side with ``cell``; item ``i`` lies across side ``i``."""
    found = _NEIGHBOURS.get(cell)
    if found is None:
        found = _NEIGHBOURS[cell] = _compute_neighbours(cell)
    return found


def cells_at(vertex: Vertex) -> tuple[Cell, ...]:
    """Return the six cells that have ``vertex`` as a corner."""
    found = _CELLS_AT.get(vertex)
    if found is None:
        found = _CELLS_AT[vertex] = _compute_cells_at(vertex)
    return found


def point_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """Return the nine cells that touch ``cell`` only at a corner (no shared side)."""
    found = _POINT_NEIGHBOURS.get(cell)
    if found is None:
        sides = set(neighbours(cell))
        seen: list[Cell] = []
        for vertex in corners(cell):
            for other in cells_at(vertex):
                if other != cell and other not in sides and other not in seen:
                    seen.append(other)
        found = _POINT_NEIGHBOURS[cell] = tuple(seen)
    return found


def vertex_point(vertex: Vertex) -> Point:
    """Return the plane point ``(x, y)`` of a vertex (unit side length, y downward)."""
    return (vertex[1] / 2, vertex[0] * H)


def cell_points(cell: Cell) -> tuple[Point, Point, Point]:
    """Return the plane points of the cell's three corners, in corner order (clockwise on screen)."""
    a, b, c = corners(cell)
    return (vertex_point(a), vertex_point(b), vertex_point(c))


def cell_centre(cell: Cell) -> Point:
    """Return the centre of the cell in the plane (where a label fits best)."""
    pts = cell_points(cell)
    return (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)


def bounding_box(cells: Iterable[Cell]) -> tuple[float, float, float, float]:
    """Return ``(min_x, min_y, max_x, max_y)`` around the cells (the origin cell when none)."""
    xs: list[float] = []
    ys: list[float] = []
    for cell in cells:
        for x, y in cell_points(cell):
            xs.append(x)
            ys.append(y)
    if not xs:
        return bounding_box([ORIGIN])
    return (min(xs), min(ys), max(xs), max(ys))


def _precompute(rows: int, cols: int) -> None:
    for r in range(-rows, rows + 1):
        for c in range(-cols, cols + 1):
            cell = (r, c)
            corners(cell)
            neighbours(cell)
            point_neighbours(cell)


# The region a game of 56 tiles reaches in practice; anything beyond is computed when first needed.
_precompute(12, 24)
