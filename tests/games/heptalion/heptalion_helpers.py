"""Shared helpers of the Heptalion tests: build deals, play seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator

from boneyard.games.heptalion.board import ORIGINAL, TILE_INDEX, TILES, Board, parse_tile
from boneyard.games.heptalion.rules import HeptalionState, from_dict, new_state


def ids(texts: list[str]) -> list[int]:
    """Return the tile indices of tiles written like "T-P"."""
    return [TILE_INDEX[parse_tile(t)] for t in texts]


def deal(
    first: list[str], players: int = 2, start: int = 0, hidden: bool = False, board: Board = ORIGINAL
) -> HeptalionState:
    """Return a new game where seat 0 holds ``first`` and the rest is dealt in tile order."""
    sizes = {2: 14, 3: 9, 4: 7}[players]
    rest = [t for t in range(len(TILES)) if t not in ids(first)]
    hands = [ids(first)] + [rest[i * sizes : (i + 1) * sizes] for i in range(players - 1)]
    discard = rest[(players - 1) * sizes] if players == 3 else None
    return HeptalionState(board, hands, start, hidden, discard)


def random_game(
    seed: int, players: int = 2, check_round_trip: bool = False, **options
) -> Iterator[HeptalionState]:
    """Play a seeded random game, yielding the state before every move and at the end."""
    state = new_state(seed=seed, players=players, **options)
    rng = random.Random(seed)
    while True:
        if check_round_trip:
            again = from_dict(state.to_dict())
            assert again.to_dict() == state.to_dict()
            for seat in range(players):
                assert again.view(seat) == state.view(seat)
        yield state
        if state.is_over():
            return
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
