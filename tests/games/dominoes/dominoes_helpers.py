"""Shared helpers of the dominoes tests: build positions, play seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from boneyard.games.dominoes.rules import TILE_ID, DominoesState, Table, mask_tiles, new_state, tiles_mask
from boneyard.tiles import parse_domino


def ids(texts: list[str]) -> list[int]:
    """Return the tile ids of tiles written like "6-4"."""
    return [TILE_ID[parse_domino(t)] for t in texts]


def position(
    hands: list[list[str]],
    line: list[tuple[int, int]] = (),  # type: ignore[assignment]
    stock: list[str] | None = None,
    turn: int = 0,
    draw: bool = True,
    target: int | None = None,
    opening_tile: str | None = None,
    scores: list[int] | None = None,
) -> DominoesState:
    """Return a state whose hand in progress is exactly as given (the boneyard: the rest, unless given)."""
    players = len(hands)
    state = new_state(seed=0, players=players, draw=draw, target=target)
    hand_masks = [tiles_mask(ids(h)) for h in hands]
    used = set(ids([t for h in hands for t in h]))
    used |= {TILE_ID[(max(p), min(p))] for p in line}
    stock_ids = ids(stock) if stock is not None else [t for t in range(28) if t not in used]
    forced = -1 if opening_tile is None else ids([opening_tile])[0]
    table = Table(players, draw, hand_masks, stock_ids, turn, forced)
    table.line = [tuple(p) for p in line]
    if line:
        table.left, table.right = line[0][0], line[-1][1]
    state.table = table
    state.history = []
    if scores is not None:
        state.scores = list(scores)
    return state


def moves_text(state: DominoesState) -> list[str]:
    """Return the legal moves as text."""
    return [str(m) for m in state.legal_moves()]


def random_games(
    count: int, seed: int, options: dict[str, Any]
) -> Iterator[tuple[DominoesState, random.Random]]:
    """Yield fresh seeded games with the given options and a move-picking generator each."""
    master = random.Random(seed)
    for _ in range(count):
        yield new_state(seed=master.getrandbits(63), **options), random.Random(master.getrandbits(63))


def hidden_twin(state: DominoesState, seat: int, rng: random.Random) -> DominoesState:
    """Return the state with every tile ``seat`` may not see dealt differently (same counts)."""
    twin = state.clone()
    table = twin.table
    others = [s for s in range(table.players) if s != seat]
    hidden = [t for s in others for t in mask_tiles(table.hands[s])] + list(table.stock)
    rng.shuffle(hidden)
    at = 0
    for s in others:
        count = table.hands[s].bit_count()
        table.hands[s] = tiles_mask(hidden[at : at + count])
        at += count
    table.stock = hidden[at:]
    return twin
