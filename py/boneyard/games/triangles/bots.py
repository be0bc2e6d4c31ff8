"""Computer players of Triangles; each reads only the view of its seat.

- ``easy``: any legal move at random.
- ``medium``: triples first, then the heaviest tile; among that tile's placements, the one that leaves
  it the most of its own tiles playable (ties at random).
- ``hard``: as medium, but weighs every placement by how likely it leaves the next player with no
  fit. It replays the public history to learn, for each rival, which tiles the rival cannot hold:
  every tile that would have fitted an open spot when the rival last drew or passed (their hand now
  is a part of the hand they held then, see ``rival_exclusions``). The next player's possible tiles
  are the unseen ones (not on the table, not in its own hand) minus those, and the chance that none
  of them fits any open spot after a placement is hypergeometric.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import comb
from typing import Any

from ...core import random_bot
from . import grid
from .grid import Cell
from .rules import (
    TILES,
    Board,
    Move,
    Place,
    corner_values,
    fit_mask,
    parse_move,
    parse_tile,
    tile_mask,
)

__all__ = ["BOTS", "board_from_view", "easy", "hard", "medium", "rival_exclusions"]

ALL_TILES = (1 << len(TILES)) - 1


def board_from_view(view: Mapping[str, Any]) -> Board:
    """Rebuild the table of a view (its ``table`` list) as a Board."""
    board = Board()
    for item in view["table"]:
        board.place((item["cell"][0], item["cell"][1]), tuple(item["corners"]))
    return board


def rival_exclusions(view: Mapping[str, Any]) -> dict[int, int]:
    """Return, per seat that has drawn or passed, the tiles (bit set) it cannot hold now.

    Replays the public history: when a seat draws or passes, none of its tiles fits any open spot.
    Its later hand is that hand (plus the drawn tile, which it either lays at once or keeps only
    through a further draw or pass, itself recorded), so the tiles fitting the open spots at its
    latest draw or pass are not in its hand.
    """
    board = Board()
    excluded: dict[int, int] = {}
    for entry in view["history"]:
        seat, text = entry["seat"], entry["move"]
        if text in ("draw", "pass"):
            mask = 0
            for cell in board.frontier:
                mask |= fit_mask(board.pattern(cell))
            excluded[seat] = mask
        else:
            move = parse_move(text)
            assert isinstance(move, Place)
            board.place(move.cell, move.values)
    return excluded


def _moves(view: Mapping[str, Any]) -> list[Move]:
    return [parse_move(text) for text in view["legal_moves"]]


easy = random_bot(parse_move)  # any legal move at random


def _weight(tile: tuple[int, int, int]) -> int:
    """Return how urgently a tile should leave the hand: triples first, then by pips."""
    return (100 if tile[0] == tile[2] else 0) + sum(tile)


def _overlay_masks(board: Board, move: Place) -> tuple[list[tuple[Cell, int]], set[Cell]]:
    """Return the fit masks of the open cells whose needs change when ``move`` is laid, and the cells
    that stop being (or never were) plain base cells: the laid cell and those changed."""
    new_vertices = dict(zip(grid.corners(move.cell), corner_values(move.tile, move.rotation)))
    touched: set[Cell] = set()
    for vertex in new_vertices:
        for cell in grid.cells_at(vertex):
            if cell != move.cell and cell not in board.values:
                touched.add(cell)
    changed: list[tuple[Cell, int]] = []
    get = board.vertices.get
    for cell in touched:
        if cell not in board.frontier and cell not in grid.neighbours(move.cell):
            continue  # touches the new tile at a point only and shares no side with any tile
        pattern = tuple(new_vertices.get(v, get(v)) for v in grid.corners(cell))
        changed.append((cell, fit_mask(pattern)))  # type: ignore[arg-type]
    return changed, touched | {move.cell}


def _open_mask_after(board: Board, base: dict[Cell, int], move: Place) -> int:
    """Return the bit set of tiles that fit some open cell once ``move`` is laid."""
    changed, skip = _overlay_masks(board, move)
    mask = 0
    for cell, cell_mask in base.items():
        if cell not in skip:
            mask |= cell_mask
    for _, cell_mask in changed:
        mask |= cell_mask
    return mask


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _choose_medium(view: Mapping[str, Any], rng: random.Random, moves: list[Place]) -> Place:
    board = board_from_view(view)
    base = {cell: fit_mask(board.pattern(cell)) for cell in board.frontier}
    top = max(_weight(m.tile) for m in moves)
    best: list[Place] = []
    best_score = -1
    hand = [parse_tile(t) for t in view["hand"]]
    for move in moves:
        if _weight(move.tile) != top:
            continue
        rest = list(hand)
        rest.remove(move.tile)
        score = _popcount(_open_mask_after(board, base, move) & tile_mask(rest))
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return best[rng.randrange(len(best))]


def medium(view: Mapping[str, Any], rng: random.Random) -> Move:
    """Lay a triple if one fits, else the heaviest tile that fits, keeping its own tiles playable."""
    moves = _moves(view)
    places = [m for m in moves if isinstance(m, Place)]
    if len(moves) == 1 or not places:
        return moves[0]
    return _choose_medium(view, rng, places)


# Weights of the hard bot's score: the chance the next player is stuck, its own playable tiles, pips.
BLOCK_WEIGHT = 100.0
MOBILITY_WEIGHT = 15.0
PIP_WEIGHT = 1.0


def hard(view: Mapping[str, Any], rng: random.Random) -> Move:
    """Lay heavy tiles and triples, preferring placements that leave the next player without a fit."""
    moves = _moves(view)
    places = [m for m in moves if isinstance(m, Place)]
    if len(moves) == 1 or not places:
        return moves[0]
    board = board_from_view(view)
    me, players = view["seat"], view["players"]
    rival = (me + 1) % players
    hand = [parse_tile(t) for t in view["hand"]]
    seen = tile_mask(hand) | tile_mask(parse_tile(item["tile"]) for item in view["table"])
    possible = ALL_TILES & ~seen & ~rival_exclusions(view).get(rival, 0)
    pool = _popcount(possible)
    held = view["hand_counts"][rival]
    pool = max(pool, held)
    base = {cell: fit_mask(board.pattern(cell)) for cell in board.frontier}
    total_comb = comb(pool, held)
    best: list[Place] = []
    best_score = float("-inf")
    for move in places:
        rest = list(hand)
        rest.remove(move.tile)
        open_mask = _open_mask_after(board, base, move)
        fits_rival = _popcount(open_mask & possible)
        p_stuck = comb(pool - fits_rival, held) / total_comb if total_comb else 0.0
        mine = _popcount(open_mask & tile_mask(rest)) / max(1, len(rest))
        score = PIP_WEIGHT * _weight(move.tile) + BLOCK_WEIGHT * p_stuck + MOBILITY_WEIGHT * mine
        if not rest:
            score += 10_000  # going out wins at once
        if score > best_score + 1e-9:
            best, best_score = [move], score
        elif abs(score - best_score) <= 1e-9:
            best.append(move)
    return best[rng.randrange(len(best))]


BOTS = {"easy": easy, "medium": medium, "hard": hard}
