"""Shared helpers of the Triangles tests: build positions, play seeded games, a brute-force oracle."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from boneyard.games.triangles import grid
from boneyard.games.triangles.rules import (
    TILES,
    Board,
    Place,
    TrianglesState,
    corner_values,
    from_dict,
    new_state,
    opening_tile,
    parse_tile,
    rotations,
    tile_text,
)


def position(
    hands: list[list[str]],
    table: list[tuple[str, tuple[int, int], int]] = (),  # type: ignore[assignment]
    stock: list[str] | None = None,
    current: int | None = None,
    draws_left: int = 3,
    passes: int = 0,
    history: list[tuple[int, str]] | None = None,
) -> TrianglesState:
    """Return a state with the given hands and table (tile, cell, rotation); the rest is the stock.

    ``stock`` puts those tiles on top of the stock (the last one is drawn first); every tile not
    mentioned anywhere lies below them.
    """
    used = [t for hand in hands for t in hand] + [t for t, _, _ in table] + list(stock or [])
    rest = [tile_text(t) for t in TILES if tile_text(t) not in used]
    if stock is None:
        stock_list = rest
    else:
        stock_list = rest + list(stock)  # unmentioned tiles at the bottom, the given ones on top
    if current is None:
        current = opening_tile([[parse_tile(t) for t in h] for h in hands])[0] if not table else 0
    data: dict[str, Any] = {
        "game": "triangles",
        "version": 1,
        "players": len(hands),
        "hands": hands,
        "stock": stock_list,
        "table": [{"tile": t, "cell": list(c), "rotation": r, "seat": 0} for t, c, r in table],
        "current": current,
        "draws_left": draws_left,
        "passes": passes,
        "history": [[s, m] for s, m in history]
        if history is not None
        else [[0, f"{t}@{c[0]},{c[1]}r{r}"] for t, c, r in table],
        "outcome": None,
        "rng": [3, [0] * 624 + [624], None],
    }
    return from_dict(data)


def empty_stock_position(
    hands: list[list[str]], table: list[tuple[str, tuple[int, int], int]], **kw: Any
) -> TrianglesState:
    """Return a position like ``position`` with an empty stock (its tiles are out of play)."""
    state = position(hands, table, **kw)
    state.stock = []
    state._legal = None
    return state


def random_games(seed: int, players: int, count: int = 1) -> Iterator[TrianglesState]:
    """Yield the state after every move of ``count`` seeded random games."""
    rng = random.Random(seed)
    for _ in range(count):
        state = new_state(seed=rng.getrandbits(32), players=players)
        yield state
        while not state.is_over():
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
            yield state


def _key(point: tuple[float, float]) -> tuple[int, int]:
    return (round(point[0] * 2), round(point[1] / grid.H))


def oracle_placements(
    placed: dict[tuple[int, int], tuple[int, int, int]], hand: list[tuple[int, int, int]]
) -> set[tuple]:
    """Return every legal (tile, cell, corner values) by brute force from plane points only.

    Independent of the engine's tables: adjacency is "two corner points in common", a corner meets
    the table where a placed cell has a corner at the same point, and the values of a rotated tile
    are its ascending values shifted cyclically onto the cell's corners in clockwise order.
    """
    at_point: dict[tuple[int, int], int] = {}
    point_sets = {}
    for cell, values in placed.items():
        pts = [_key(p) for p in grid.cell_points(cell)]
        point_sets[cell] = set(pts)
        for p, v in zip(pts, values):
            assert at_point.setdefault(p, v) == v
    rows = [c[0] for c in placed]
    cols = [c[1] for c in placed]
    found: set[tuple] = set()
    for r in range(min(rows) - 1, max(rows) + 2):
        for c in range(min(cols) - 2, max(cols) + 3):
            cell = (r, c)
            if cell in placed:
                continue
            pts = [_key(p) for p in grid.cell_points(cell)]
            if not any(len(set(pts) & other) == 2 for other in point_sets.values()):
                continue
            for tile in set(hand):
                for k in range(3):
                    values = tuple(tile[(i - k) % 3] for i in range(3))
                    if all(at_point.get(p, v) == v for p, v in zip(pts, values)):
                        found.add((tile, cell, values))
    return found


def engine_placements(state: TrianglesState) -> set[tuple]:
    """Return the placements among the legal moves as (tile, cell, corner values)."""
    return {(m.tile, m.cell, m.values) for m in state.legal_moves() if isinstance(m, Place)}


__all__ = [
    "Board",
    "corner_values",
    "empty_stock_position",
    "engine_placements",
    "oracle_placements",
    "parse_tile",
    "position",
    "random_games",
    "rotations",
]
