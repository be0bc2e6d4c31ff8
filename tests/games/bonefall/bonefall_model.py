"""An independent model of Bonefall's turn resolution, written from the rules text alone, to check the engine.

It shares no code with ``sim.Board``: the grid is a dict ``(col, row) -> (value, domino id)``, a domino's
halves are simply the cells with the same id (a single square is an id with one cell left, so partner
links are never consulted), and everything moves one row at a time, the lowest movable unit first:

- a single square or a vertical domino falls while the cell under its lowest half is empty;
- a horizontal domino falls while the cells under both halves are empty; resting on one half with the
  cell under the other empty (and not on the floor), it tips over: the overhanging half drops one row and
  the held half takes the overhanging half's old cell, so it stands vertical in the unsupported column;
- once nothing moves, every maximal run of one value annihilates: two or more along a row or a column
  when the run holds halves of at least two dominoes, three or more along a diagonal; all at once.

``resolve`` repeats fall and match until nothing changes and returns the turn score.
"""

from __future__ import annotations

from typing import Any

WIDTH, HEIGHT = 8, 16

Grid = dict[tuple[int, int], tuple[int, int]]  # (col, row) -> (value, domino id)


def grid_of(board: Any) -> Grid:
    """Return the model grid of an engine ``Board`` (values and ids only, never its links)."""
    return {(i % WIDTH, i // WIDTH): (v, board.pid[i]) for i, v in enumerate(board.val) if v >= 0}


def _units(grid: Grid) -> list[list[tuple[int, int]]]:
    by_id: dict[int, list[tuple[int, int]]] = {}
    for cell, (_, piece) in grid.items():
        by_id.setdefault(piece, []).append(cell)
    # lowest first (largest bottom row), then leftmost
    return sorted(
        (sorted(cells) for cells in by_id.values()),
        key=lambda cells: (-max(r for _, r in cells), min(c for c, _ in cells)),
    )


def _free(grid: Grid, col: int, row: int) -> bool:
    return row < HEIGHT and (col, row) not in grid


def _step(grid: Grid) -> bool:
    """Move the lowest unit that can move by one row (or tip it); tell whether one moved."""
    for cells in _units(grid):
        if len(cells) == 2 and cells[0][1] == cells[1][1]:  # horizontal
            (lc, row), (rc, _) = cells
            free_l, free_r = _free(grid, lc, row + 1), _free(grid, rc, row + 1)
            if free_l and free_r:
                moves = {(lc, row): (lc, row + 1), (rc, row): (rc, row + 1)}
            elif free_l != free_r and row + 1 < HEIGHT:
                over, held = ((lc, row), (rc, row)) if free_l else ((rc, row), (lc, row))
                moves = {over: (over[0], row + 1), held: over}
            else:
                continue
        else:  # a single square or a vertical domino
            bottom = max(cells, key=lambda cell: cell[1])
            if not _free(grid, bottom[0], bottom[1] + 1):
                continue
            moves = {cell: (cell[0], cell[1] + 1) for cell in cells}
        halves = {to: grid.pop(frm) for frm, to in moves.items()}
        grid.update(halves)
        return True
    return False


def settle(grid: Grid) -> bool:
    """Let everything fall and tip to rest; tell whether anything moved."""
    moved = False
    while _step(grid):
        moved = True
    return moved


def matches(grid: Grid) -> set[tuple[int, int]]:
    """Return every cell in a maximal run that annihilates."""
    found: set[tuple[int, int]] = set()
    for (col, row), (value, _) in grid.items():
        for dc, dr, need in ((1, 0, 2), (0, 1, 2), (1, 1, 3), (-1, 1, 3)):
            if grid.get((col - dc, row - dr), (None,))[0] == value:
                continue  # not the start of the run
            run = [(col, row)]
            while grid.get((run[-1][0] + dc, run[-1][1] + dr), (None,))[0] == value:
                run.append((run[-1][0] + dc, run[-1][1] + dr))
            if len(run) >= need and (need == 3 or len({grid[c][1] for c in run}) > 1):
                found.update(run)
    return found


def resolve(grid: Grid) -> int:
    """Play out a turn on ``grid`` (in place): fall, annihilate, repeat; return the turn score."""
    score = 0
    while True:
        settle(grid)
        gone = matches(grid)
        if not gone:
            return score
        score += len(gone)
        for cell in gone:
            del grid[cell]


def partners(grid: Grid) -> dict[tuple[int, int], tuple[int, int] | None]:
    """Return each half's partner cell (the other cell with its id), None for a single square."""
    by_id: dict[int, list[tuple[int, int]]] = {}
    for cell, (_, piece) in grid.items():
        by_id.setdefault(piece, []).append(cell)
    out: dict[tuple[int, int], tuple[int, int] | None] = {}
    for cells in by_id.values():
        assert len(cells) <= 2
        for cell in cells:
            others = [c for c in cells if c != cell]
            out[cell] = others[0] if others else None
    return out


def engine_partners(board: Any) -> dict[tuple[int, int], tuple[int, int] | None]:
    """Return the engine board's partner links in the model's form."""
    return {
        (i % WIDTH, i // WIDTH): (None if m < 0 else (m % WIDTH, m // WIDTH))
        for i, (v, m) in enumerate(zip(board.val, board.mate))
        if v >= 0
    }
