"""Heptalion's ``sample(view, rng)``: a full state consistent with what one seat knows (for a search).

With visible hands (and in the solo puzzle) a seat sees everything (the game's seed included): the
sample is an exact independent copy of the game. With hidden hands the tiles the seat
cannot see (not in its hand, not covered, not the public 3-player discard) are dealt to the other
seats by their tile counts, never against what the public history proves:

- a seat eliminated when ``after`` tiles were covered could place none of its tiles on the board as it
  was then (its hand has not changed since), so it holds only tiles that fitted nowhere on that board;
- the seat to move can place a tile now (``current_player()`` always names one), so it holds at least
  one tile that fits the board as it is.

Nothing else is proven: a seat that placed had the tile it placed. The deal is uniform over every deal
that keeps these facts: the eliminated seats are dealt first, the earliest out first (each one's
allowed tiles contain those of every seat out before it, so each draw is uniform whatever came
before); the seat to move draws how many fitting tiles it holds by their exact odds (one at least),
then which; the other seats share what is left.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from math import comb
from typing import Any

from .board import TILE_INDEX, TILES, Board, parse_tile, tile_text
from .rules import HeptalionState, Move, board_moves, parse_move
from .views import HeptalionView

__all__ = ["sample"]


@lru_cache(maxsize=64)
def _board(rows: tuple[str, ...], kind: str, seed: int | None) -> Board:
    return Board.from_dict({"rows": list(rows), "kind": kind, "seed": seed})


_TILE_OF_TEXT = {tile_text(t): i for i, t in enumerate(TILES)}  # the views' tile texts


def _tiles(texts: Any) -> list[int]:
    of = _TILE_OF_TEXT
    return [of[t] if t in of else TILE_INDEX[parse_tile(t)] for t in texts]


def _move(by_text: Mapping[str, Move], text: str) -> Move:
    move = by_text.get(text)
    return move if move is not None else parse_move(text)


def _fits(masks: tuple[tuple[int, ...], ...], occ: int, tile: int) -> bool:
    return any(not m & occ for m in masks[tile])


def sample(view: HeptalionView, rng: random.Random) -> HeptalionState:
    """Return a full state whose ``view(seat)`` equals ``view``: unseen tiles dealt at random, consistently.

    Raise ValueError when the view cannot come from a game (counts that do not add up, no consistent deal).
    """
    board_data = view["board"]
    board = _board(tuple(board_data["rows"]), board_data["kind"], board_data["seed"])
    players = int(view["players"])
    me = int(view["seat"])
    counts = list(view["hand_counts"])
    covered = [(int(c["seat"]), str(c["move"])) for c in view["covered"]]
    discard = _tiles([view["discard"]])[0] if view["discard"] is not None else None

    hands: list[list[int] | None] = [None] * players
    hands[me] = _tiles(view["hand"])
    for entry in view["seats"]:
        if entry["hand"] is not None:
            hands[entry["seat"]] = _tiles(entry["hand"])
    seen = {t for hand in hands if hand is not None for t in hand}
    by_text = board_moves(board)
    moves = [_move(by_text, text) for _, text in covered]
    seen.update(TILE_INDEX[m.tile] for m in moves)
    if discard is not None:
        seen.add(discard)
    pool = [t for t in range(len(TILES)) if t not in seen]
    hidden = [s for s in range(players) if hands[s] is None]
    if len(pool) != sum(counts[s] for s in hidden):
        raise ValueError("the view's hand counts do not add up to the unseen tiles")

    if hidden:
        masks = board.placement_masks
        occ_after = [0]
        for m in moves:
            occ_after.append(occ_after[-1] | m.mask)
        left = set(pool)
        # The eliminated seats, earliest out first: only tiles that fitted nowhere when they went out.
        for event in view["history"]:
            if (
                event.get("kind") != "eliminated"
                or (seat := event["seat"]) is None
                or hands[seat] is not None
            ):
                continue
            occ = occ_after[event["after"]]
            allowed = [t for t in sorted(left) if not _fits(masks, occ, t)]
            if len(allowed) < counts[seat]:
                raise ValueError(f"no deal fits what the history proves of seat {seat}")
            hand = rng.sample(allowed, counts[seat])
            hands[seat] = sorted(hand)
            left.difference_update(hand)
        rest = sorted(left)
        turn = view["turn"]
        if turn is not None and hands[turn] is None:
            # The seat to move holds at least one tile that fits now: how many, by their exact odds.
            occ = occ_after[-1]
            live = [t for t in rest if _fits(masks, occ, t)]
            dead = [t for t in rest if not _fits(masks, occ, t)]
            k = counts[turn]
            weights = [comb(len(live), j) * comb(len(dead), k - j) for j in range(1, min(k, len(live)) + 1)]
            total = sum(weights)
            if total == 0:
                raise ValueError(f"no deal lets seat {turn} place a tile, though it is to move")
            pick = rng.randrange(total)
            j = 1
            for weight in weights:
                if pick < weight:
                    break
                pick -= weight
                j += 1
            hand = rng.sample(live, j) + rng.sample(dead, k - j)
            hands[turn] = sorted(hand)
            chosen = set(hand)
            rest = [t for t in rest if t not in chosen]
        rng.shuffle(rest)
        at = 0
        for seat in range(players):
            if hands[seat] is None:
                hands[seat] = sorted(rest[at : at + counts[seat]])
                at += counts[seat]

    deal = [list(hand or ()) for hand in hands]
    for (seat, _), move in zip(covered, moves):
        deal[seat].append(TILE_INDEX[move.tile])
    state = HeptalionState(board, deal, int(view["start"]), bool(view["hidden"]), discard, view.get("seed"))
    for move in moves:
        state.play(move)
    state._undo = []  # the sample starts where the view is: nothing before it to take back
    return state
