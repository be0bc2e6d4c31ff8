"""What the search knows of Triangles: a fast Medium-like rollout policy, the rivals' model, the values.

- ``policy``: in a rollout every seat goes out when it can, else lays its most urgent tile (triples
  first, then the heaviest, as Medium and Hard do), in a placement chosen at random.
- ``weight``: a rival lays triples and heavy tiles first (a softmax over the tile's weight, mixed
  with a uniform choice), read over the lays after which it has not drawn (its hand then is its hand
  now plus what it laid since); so a rival who laid a light tile probably held no heavy one that fitted.
- ``value``: the seat's share of the win, at the end of the game or, past ``HORIZON`` moves of a
  rollout, an estimate from the tiles and pips left in hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..games.triangles.rules import TILE_INDEX, TILES, Board, Place, TrianglesState, fit_mask, parse_move
from .search import lay_likelihood

__all__ = ["FEATURES", "TrianglesFeatures"]

HORIZON = 24  # rollout moves before the position is scored from the hands
MODEL_MIX = 0.4
MODEL_SCALE = 0.25  # softmax units per point of a tile's urgency (a triple is worth 100 more)
URGENCY = tuple((100 if t[0] == t[2] else 0) + sum(t) for t in TILES)
TASTE = tuple(math.exp(MODEL_SCALE * min(u, 30)) for u in URGENCY)


class _Context:
    __slots__ = ("decisions", "players", "start")

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.players: int = view["players"]
        self.start: int = view["turn_number"]
        self.decisions = _decisions(view)


def _decisions(view: Mapping[str, Any]) -> list[tuple[int, int, int, int]]:
    """Return (seat, mask of tiles fitting some open cell then, tile laid, tiles it laid since) of rival lays."""
    me = view["seat"]
    history = view["history"]
    board = Board()
    raw: list[tuple[int, int, int, int]] = []
    for index, entry in enumerate(history):
        seat, text = entry["seat"], entry["move"]
        if text in ("draw", "pass"):
            continue
        move = parse_move(text)
        assert isinstance(move, Place)
        if seat != me and board.values:
            open_mask = 0
            for cell in board.frontier:
                open_mask |= fit_mask(board.pattern(cell))
            raw.append((seat, open_mask, TILE_INDEX[move.tile], index))
        board.place(move.cell, move.values)
    out = []
    for seat, open_mask, tile, index in raw:
        later = history[index:]
        if any(e["seat"] == seat and e["move"] == "draw" for e in later):
            continue
        laid = 0
        for e in later:
            if e["seat"] == seat and e["move"] not in ("draw", "pass"):
                laid |= 1 << TILE_INDEX[parse_move(e["move"]).tile]  # type: ignore[union-attr]
        out.append((seat, open_mask, tile, laid))
    return out


def _mask(hand: list[tuple[int, int, int]]) -> int:
    mask = 0
    for tile in hand:
        mask |= 1 << TILE_INDEX[tile]
    return mask


class TrianglesFeatures:
    """The search's view of Triangles (see the module notes)."""

    game = "triangles"

    def prepare(self, view: Mapping[str, Any]) -> _Context:
        """Read the rivals' lays from the view."""
        return _Context(view)

    def weight(self, context: _Context, state: TrianglesState) -> float:
        """Return the model's likelihood of the rivals' lays on this deal."""
        weight = 1.0
        for seat, open_mask, tile, laid in context.decisions:
            weight *= lay_likelihood((_mask(state.hands[seat]) | laid) & open_mask, tile, TASTE, MODEL_MIX)
        return weight

    def policy(self, state: TrianglesState, rng: random.Random) -> Any:
        """Go out if possible, else lay the most urgent tile somewhere at random."""
        moves = state.legal_moves()
        if len(moves) == 1 or not isinstance(moves[0], Place):
            return moves[0]
        if len(state.hands[state.current]) == 1:
            return moves[0]
        top = -1
        best: list[Any] = []
        for move in moves:
            assert isinstance(move, Place)
            urgency = URGENCY[TILE_INDEX[move.tile]]
            if urgency > top:
                top, best = urgency, [move]
            elif urgency == top:
                best.append(move)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def stop(self, state: TrianglesState, context: _Context) -> bool:
        """Tell whether the game is over or the rollout has reached its horizon."""
        return state._outcome is not None or state.turn_number - context.start > HORIZON

    def value(self, state: TrianglesState, seat: int, context: _Context) -> float:
        """Return the seat's share of the win, or an estimate from the hands left."""
        outcome = state._outcome
        if outcome is not None:
            winners = outcome.winners
            return 1.0 / len(winners) if seat in winners else 0.0
        hands = state.hands
        mine = len(hands[seat]) + sum(map(sum, hands[seat])) / 40.0
        other = min(len(h) + sum(map(sum, h)) / 40.0 for i, h in enumerate(hands) if i != seat)
        return 1.0 / (1.0 + math.exp((mine - other) / 1.5))

    def exact(self, state: TrianglesState) -> bool:
        """Tell whether to solve exactly (never: the table is too wide)."""
        return False

    def explain(self, view: Mapping[str, Any], result: Any, names: Sequence[str] | None) -> str:
        """Return why the search prefers its move, in a player's words."""
        move = parse_move(result.move)
        if not isinstance(move, Place):
            return ""
        best = result.stats[result.move]
        others = [s for s in result.ranked() if s.move != result.move]
        odds = ""
        if others:
            odds = (
                f" The search gives you about {round(100 * best.mean)}% to win with it,"
                f" {round(100 * others[0].mean)}% with the next best."
            )
        tile = "-".join(map(str, move.tile))
        if len(view["hand"]) == 1:
            return f"{tile} is your last tile: it wins the game."
        if move.tile[0] == move.tile[2]:
            return f"{tile} is a triple: lay it while a spot fits it.{odds}"
        same = [o for o in others if o.move.startswith(tile + "@")]
        if same and best.mean - same[0].mean > 0.03:
            return f"{tile} goes here rather than elsewhere: this spot leaves the others fewer fits.{odds}"
        return f"{tile} sheds {sum(move.tile)} pips and keeps your chances best.{odds}"


FEATURES = TrianglesFeatures()
