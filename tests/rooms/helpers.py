"""Shared helpers of the room tests: seeded games played to the end with random legal moves."""

from __future__ import annotations

import random
from typing import Any

from boneyard.games import get_game

# (game, options) pairs covering every mode the rooms offer.
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("dominoes", {"players": 2}),
    ("dominoes", {"players": 2, "target": 50}),
    ("dominoes", {"players": 2, "draw": False, "target": 100}),
    ("dominoes", {"players": 3, "target": 100}),
    ("dominoes", {"players": 4}),
    ("dominoes", {"players": 2, "scoring": "fives"}),
    ("dominoes", {"players": 4, "teams": True, "target": 100}),
    ("triangles", {"players": 2}),
    ("triangles", {"players": 4}),
    ("heptalion", {"players": 2}),
    ("heptalion", {"players": 3, "hidden": True}),
    ("heptalion", {"players": 4, "hidden": True}),
]


def random_game(game: str, options: dict[str, Any], seed: int, rng_seed: int = 0) -> tuple[Any, list[str]]:
    """Return a finished game dealt from ``seed`` and its move texts, played with random legal moves."""
    state = get_game(game).new_state(seed=seed, **options)
    rng = random.Random(rng_seed)
    moves: list[str] = []
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state.play(move)
    return state, moves
