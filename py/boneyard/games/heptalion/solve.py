"""The exact solver of the puzzle "How many can you fit?" and its command.

    PYTHONPATH=py python -m boneyard.games.heptalion.solve [--board original | --board random --seed S
        | --board lab --seed N] [--json]

A layout places tiles on the empty board, each of the 28 tiles at most once and each space at most
once. ``solve`` finds the largest layout and proves it largest. Every tile covers one dark and one
light space of the checkerboard colouring (24 dark, 32 light), so the search decides the dark spaces
one at a time, the one with the fewest remaining choices first: covered by one of its placements
(its tile unused, the light neighbour free), or left empty. A branch is cut when even the best
completion cannot beat the best layout so far; that bound is the smaller of two maximum matchings
that each relax one constraint: open dark spaces to unused tiles (ignoring light-space clashes) and
open dark spaces to free light spaces (ignoring tile reuse).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...matching import max_matching
from .board import DARK, EDGES, LAB_BOARDS, ORIGINAL, SPACES, TILES, Board, lab_board, random_board, tile_text
from .rules import Move

__all__ = ["Solution", "main", "solve"]


@dataclass
class Solution:
    """The largest layout found: its moves, whether it is proved largest, and the search's work."""

    max_tiles: int
    layout: list[Move]
    proven: bool
    nodes: int
    seconds: float = 0.0
    board: Board = field(default=ORIGINAL)

    def to_json(self) -> dict[str, Any]:
        """Return the command's JSON form: board rows, max_tiles, one layout entry per tile."""
        return {
            "board": list(self.board.rows),
            "max_tiles": self.max_tiles,
            "layout": [
                {
                    "tile": tile_text(m.tile),
                    "spaces": list(m.spaces),
                    "cells": [list(SPACES[s]) for s in m.spaces],
                    "move": str(m),
                }
                for m in self.layout
            ],
            "proven": self.proven,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def _options(board: Board) -> dict[int, list[tuple[int, int, int, int]]]:
    """Return per dark space its placements: (tile, light space, space of tile[0], space of tile[1])."""
    opts: dict[int, list[tuple[int, int, int, int]]] = {d: [] for d in DARK}
    for t, placements in enumerate(board.placements):
        for a, b in placements:
            dark, light = (a, b) if a in DARK else (b, a)
            opts[dark].append((t, light, a, b))
    return opts


def _matching(left: list[list[int]]) -> int:
    """Return the size of a maximum bipartite matching (Kuhn's augmenting paths)."""
    return len(max_matching(left))


def solve(board: Board = ORIGINAL, node_limit: int | None = None) -> Solution:
    """Return a largest layout of distinct tiles on ``board`` (proved unless ``node_limit`` stops it)."""
    start = time.perf_counter()
    options = _options(board)
    best: list[tuple[int, int, int, int]] = []
    state = {"nodes": 0, "stopped": False}

    def search(open_darks: list[int], used: int, light: int, chosen: list[tuple[int, int, int, int]]) -> None:
        nonlocal best
        state["nodes"] += 1
        if node_limit is not None and state["nodes"] > node_limit:
            state["stopped"] = True
            return
        live: list[tuple[int, list[tuple[int, int, int, int]]]] = []
        for d in open_darks:
            avail = [o for o in options[d] if not (used >> o[0] & 1) and not (light >> o[1] & 1)]
            if avail:
                live.append((d, avail))
        if len(chosen) > len(best):
            best = list(chosen)
        if not live or len(chosen) + len(live) <= len(best):
            return
        by_tile = _matching([[o[0] for o in avail] for _, avail in live])
        if len(chosen) + by_tile <= len(best):
            return
        by_light = _matching([[o[1] for o in avail] for _, avail in live])
        if len(chosen) + by_light <= len(best):
            return
        d, avail = min(live, key=lambda item: len(item[1]))
        rest = [x for x, _ in live if x != d]
        for o in avail:
            chosen.append(o)
            search(rest, used | (1 << o[0]), light | (1 << o[1]), chosen)
            chosen.pop()
            if state["stopped"] or len(best) == len(DARK):
                return
        search(rest, used, light, chosen)  # leave d empty

    search(sorted(DARK), 0, 0, [])
    layout = sorted(Move(TILES[t], (a, b)) for t, _, a, b in best)
    return Solution(
        len(layout), layout, not state["stopped"], state["nodes"], time.perf_counter() - start, board
    )


def check_layout(board: Board, layout: Sequence[Move]) -> None:
    """Raise AssertionError unless the layout uses distinct tiles on distinct, matching, adjacent spaces."""
    used: set[int] = set()
    tiles: set[tuple[str, str]] = set()
    for m in layout:
        a, b = m.spaces
        assert (min(a, b), max(a, b)) in EDGES, f"{m} is not on adjacent spaces"
        assert (board.symbols[a], board.symbols[b]) == m.tile, f"{m} does not match the board"
        assert a not in used and b not in used, f"{m} overlaps another tile"
        assert m.tile not in tiles, f"{m} repeats a tile"
        used.update((a, b))
        tiles.add(m.tile)


def render(board: Board, layout: Sequence[Move]) -> list[str]:
    """Return the board rows with every space left empty by the layout shown as '.'."""
    covered = {s for m in layout for s in m.spaces}
    grid = [list(row) for row in board.rows]
    for i, (r, c) in enumerate(SPACES):
        if i not in covered:
            grid[r][c] = "."
    return ["".join(row) for row in grid]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the solver command; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m boneyard.games.heptalion.solve", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--board", choices=("original", "random", "lab"), default="original")
    parser.add_argument(
        "--seed", type=int, default=None, help="the random board's seed (or the lab board's number)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.board != "original" and args.seed is None:
        print("solve: --board random and --board lab need --seed", file=sys.stderr)
        return 2
    if args.board == "random":
        board = random_board(args.seed)
    elif args.board == "lab":
        board = lab_board(args.seed) if args.seed >= 0 else LAB_BOARDS[0]
    else:
        board = ORIGINAL
    solution = solve(board)
    check_layout(board, solution.layout)
    if args.json:
        print(json.dumps(solution.to_json()))
        return 0
    print(f"{board.name()} board ({board.kind}{'' if board.seed is None else ', seed ' + str(board.seed)}):")
    for row in board.rows:
        print("  " + row)
    print(
        f"maximum: {solution.max_tiles} tiles (proved in {solution.nodes} search nodes, {solution.seconds:.2f} s)"
    )
    print("one optimal layout (tile@space of its first symbol,space of its second):")
    print("  " + " ".join(str(m) for m in solution.layout))
    print("spaces left empty by it shown as '.':")
    for row in render(board, solution.layout):
        print("  " + row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
