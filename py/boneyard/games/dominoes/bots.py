"""Computer players for dominoes; each reads only ``state.view(seat)``.

- ``easy``: any legal tile at random.
- ``medium``: doubles and heavy tiles first (fewer pips in hand if the line jams), and it keeps a
  tile that follows the ends it leaves, so a player before it who blocks does not starve it; it
  remembers nothing of the rivals.
- ``expert``: ``boneyard.ai``'s search (determinized Monte Carlo with Hard-like rollouts).
- ``hard``: as medium, and it remembers which numbers each rival could not match (drew or passed on),
  from the public history, and prefers plays that leave those numbers on the ends, above all against
  the next player. It also counts the tiles of each number already seen (line and own hand), keeps a
  spread of numbers in its own hand, and keeps a tile that fits the ends it leaves.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from ...ai import expert_bot as _expert_bot
from ...core import random_bot
from .rules import Move, parse_move

__all__ = ["BOTS", "easy_bot", "expert_bot", "hard_bot", "medium_bot", "rival_voids"]


def _forced(view: dict[str, Any]) -> Move | None:
    """Return the only move when there is no choice (draw, pass, or a single lay)."""
    moves = view["legal_moves"]
    if not moves:
        raise ValueError("no legal move in this view: it is not this seat's turn")
    return parse_move(moves[0]) if len(moves) == 1 else None


easy_bot = random_bot(parse_move)  # any legal move at random


def _after(ends: list[int] | None, move: Move) -> tuple[int, int]:
    """Return the open ends after a lay."""
    assert move.tile is not None
    high, low = move.tile
    if ends is None:
        return (high, low)
    left, right = ends
    if move.end == "L":
        return (low if high == left else high, right)
    return (left, low if high == right else high)


# Weights of the medium bot: doubles and heavy tiles first, as before, and a tile kept to follow.
M_DOUBLE = 6.0
M_PIPS = 0.6
M_FOLLOW = 3.0  # own tiles left that fit the ends it leaves (capped at two)
M_SPREAD = 0.5  # distinct numbers left in own hand


def medium_bot(view: dict[str, Any], rng: random.Random) -> Move:
    """Lay doubles and heavy tiles first, keeping a tile that follows; draw or pass only when forced."""
    only = _forced(view)
    if only is not None:
        return only
    moves = [parse_move(m) for m in view["legal_moves"]]
    hand = [tuple(t) for t in view["hand"]]
    ends = view["open_ends"]
    best_score = None
    choices: list[Move] = []
    for move in moves:
        assert move.tile is not None
        high, low = move.tile
        after = _after(ends, move)
        left_hand = [t for t in hand if t != move.tile]
        follow = sum(1 for t in left_hand if t[0] in after or t[1] in after)
        score = M_DOUBLE * (high == low) + M_PIPS * (high + low) + M_FOLLOW * min(follow, 2)
        score += M_SPREAD * len({n for t in left_hand for n in t})
        if best_score is None or score > best_score + 1e-9:
            best_score = score
            choices = [move]
        elif abs(score - best_score) <= 1e-9:
            choices.append(move)
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def rival_voids(view: dict[str, Any]) -> list[set[int]]:
    """Return, for every seat, the numbers it is known to lack, read from the hand's public history.

    A seat that passed or drew while the ends showed a and b holds neither; a later draw may bring
    any other number back, so a draw keeps only what the ends showed at that draw.
    """
    voids: list[set[int]] = [set() for _ in range(view["players"])]
    for event in view["history"]:
        move = event["move"]
        if move == "pass":
            voids[event["seat"]].update(event["ends"])
        elif move == "draw":
            ends = set(event["ends"])
            seat = event["seat"]
            voids[seat] = (voids[seat] & ends) | ends
    return voids


# Weights of the hard bot's evaluation (tuned in the arena against medium).
W_NEXT_STUCK = 100.0  # chance the next player cannot match either end
W_OTHER_STUCK = 8.0  # same for the rivals after them
W_FOLLOW = 2.0  # own tiles left that fit the ends we leave (capped at two)
W_SPREAD = 1.0  # distinct numbers left in own hand
W_DOUBLE = 6.0  # medium's taste: doubles first
W_PIPS = 0.6  # medium's taste: heavy tiles first


def _stuck_chance(
    ends: tuple[int, int], pool: list[tuple[int, int]], void: set[int], hand_count: int
) -> float:
    """Return the chance that a rival holding ``hand_count`` unseen tiles matches neither end."""
    if set(ends) <= void:
        return 1.0
    candidates = [t for t in pool if t[0] not in void and t[1] not in void]
    size = len(candidates)
    fitting = sum(1 for t in candidates if t[0] in ends or t[1] in ends)
    if hand_count <= 0 or size < hand_count:
        return 0.0 if fitting else 1.0
    return comb(size - fitting, hand_count) / comb(size, hand_count)


def hard_bot(view: dict[str, Any], rng: random.Random) -> Move:
    """Play like medium, but leave on the ends the numbers rivals lack, above all the next player."""
    only = _forced(view)
    if only is not None:
        return only
    moves = [parse_move(m) for m in view["legal_moves"]]
    me = view["seat"]
    players = view["players"]
    hand = [tuple(t) for t in view["hand"]]
    seen = set(hand)
    for piece in view["line"]:
        a, b = piece["tile"]
        seen.add((max(a, b), min(a, b)))
    pool = [
        (a, b) for a in range(7) for b in range(a + 1) if (a, b) not in seen
    ]  # rivals' hands and boneyard
    voids = rival_voids(view)
    counts = view["hand_counts"]
    ends = view["open_ends"]
    best_score = None
    choices: list[Move] = []
    for move in moves:
        assert move.tile is not None
        high, low = move.tile
        after = _after(ends, move)
        left_hand = [t for t in hand if t != move.tile]
        score = W_DOUBLE * (high == low) + W_PIPS * (high + low)
        for step in range(1, players):
            rival = (me + step) % players
            stuck = _stuck_chance(after, pool, voids[rival], counts[rival])
            score += (W_NEXT_STUCK if step == 1 else W_OTHER_STUCK) * stuck
        follow = sum(1 for t in left_hand if t[0] in after or t[1] in after)
        score += W_FOLLOW * min(follow, 2)
        score += W_SPREAD * len({n for t in left_hand for n in t})
        if best_score is None or score > best_score + 1e-9:
            best_score = score
            choices = [move]
        elif abs(score - best_score) <= 1e-9:
            choices.append(move)
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


BOTS = {"easy": easy_bot, "medium": medium_bot, "hard": hard_bot}

BOTS["expert"] = expert_bot = _expert_bot("dominoes")  # boneyard.ai's search
