"""What the search knows of Heptalion: a deep alpha-beta of every deal instead of rollouts.

Heptalion has no chance once the tiles are dealt, and with two players (hands shown or not: the
unseen tiles are the opponent's hand) one deal is the position itself, so Expert searches it deep:
``games.heptalion.bots.DeepSearcher``, the iterative-deepening alpha-beta Hard plays too
(principal-variation search, a table that keeps each position's best placement, killer and history
ordering, a leaf score with the tempo, and an exact count once the two sides' places no longer touch)
with ``EXPERT_NODES`` nodes, 6.75 times Hard's, as ``ExpertSearcher``: its two-player leaf counts the safe
tiles that fit together (packed), not every tile with a safe spot, and weighs the empty spaces only one
side reaches and the tiles down to their last placement (``EXPERT_LEAF``); it plays a proven win at
once. With hidden hands at three or four players it deals the unseen tiles (``DEALS`` deals) and the
deals vote, each searched with its share of the nodes. The values it reports (for hints and the review) are the root scores
turned into a chance: a proven win 1, a proven loss 0, else a logistic of the evaluation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator, Mapping, Sequence
from functools import reduce
from operator import or_
from typing import Any, NamedTuple

from ..games.heptalion.board import TILE_INDEX, parse_tile
from ..games.heptalion.bots import (
    SPACE_BITS,
    TILE_SHIFT,
    WIN,
    DeepSearcher,
    _move_text,
    sample_positions,
    unseen_tiles,
)
from ..games.heptalion.rules import board_from_view, free_placements
from .search import MoveStats, SearchResult

__all__ = [
    "DEALS",
    "EXPERT_LEAF",
    "EXPERT_NODES",
    "FEATURES",
    "ExpertLeaf",
    "ExpertSearcher",
    "HeptalionFeatures",
    "chance",
]

EXPERT_NODES = 54_000
DEALS = 6


class ExpertLeaf(NamedTuple):
    """The weights of Expert's two-player leaf, for the seat to move against the other (each a difference).

    Fitted by logistic regression to 362 positions at plies 3-12 of seeded two-player games (Hard's play with
    random moves mixed in), each solved exactly, and chosen in the arena against Hard (the figures are in
    the commit that made it and in docs/ai.md): the spaces only one side can reach predict the winner more
    than any count of tiles.
    """

    pack: int  # safe tiles that fit together (``_pack`` of the placements out of the other side's reach)
    fit: int  # tiles that still fit somewhere
    room: int  # empty spaces that only this side's placements reach
    single: int  # tiles with one placement left (counted against): covering one of its spaces ends it
    tempo: int  # given up by the seat to move: with equal room, the seat to move runs out first


EXPERT_LEAF = ExpertLeaf(pack=2, fit=5, room=3, single=2, tempo=1)


class ExpertSearcher(DeepSearcher):
    """Expert's alpha-beta: ``DeepSearcher`` with a sharper two-player leaf (three or four seats: the same).

    Hard's leaf counts a tile "safe" when one of its placements is out of the other side's reach, so two
    tiles whose only safe spot is the same two squares both count. Expert's counts the safe tiles that fit
    together: the most placements of distinct tiles on disjoint spaces among each side's safe placements
    (``_pack``, exact, its steps counted as nodes). Beside them it weighs (``EXPERT_LEAF``) the tiles that
    fit, the empty spaces only one side reaches and the tiles down to their last placement.
    """

    def _leaf2(self, mine: list[int], theirs: list[int], um: int, uo: int) -> int:
        """Score a two-player position for the seat to move (``EXPERT_LEAF``'s terms, each mine minus theirs).

        ``um`` and ``uo`` are the unions of each side's placements (spaces, and above them its fitting tiles).
        """
        safe = self._pack([p for p in mine if not p & uo]) - self._pack([p for p in theirs if not p & um])
        room = (um & ~uo & SPACE_BITS).bit_count() - (uo & ~um & SPACE_BITS).bit_count()
        seen = twice = 0  # tile bits seen in one placement, and in two or more
        for p in mine:
            t = p >> TILE_SHIFT
            twice |= seen & t
            seen |= t
        single = (seen & ~twice).bit_count()
        fit = seen.bit_count()
        seen = twice = 0
        for p in theirs:
            t = p >> TILE_SHIFT
            twice |= seen & t
            seen |= t
        single -= (seen & ~twice).bit_count()
        fit -= seen.bit_count()
        pack_w, fit_w, room_w, single_w, tempo_w = EXPERT_LEAF
        return pack_w * safe + fit_w * fit + room_w * room - single_w * single - tempo_w

    def _leaf_after(self, ctx: Any, p: int, ply: int) -> int:
        """Return the two-player value at depth 0 after the mover placed ``p``: the same checks, then ``_leaf2``."""
        mine, theirs, _, _ = ctx
        child_mine = [x for x in theirs if not x & p]  # the child's mover is the parent's other seat
        if not child_mine:
            return -WIN + ply
        child_theirs = [x for x in mine if not x & p]
        if not child_theirs:
            return WIN - ply - 1
        um = reduce(or_, child_mine)
        uo = reduce(or_, child_theirs)
        if not um & uo:
            left, right = self._pack(child_mine), self._pack(child_theirs)
            return WIN - ply - 2 * right - 1 if left > right else -WIN + ply + 2 * left
        return self._leaf2(child_mine, child_theirs, um, uo)


def chance(score: float) -> float:
    """Return a root score of the alpha-beta as a chance of winning (0..1).

    The logistic's scale is the one fitted to ``EXPERT_LEAF``'s score over the 362 solved positions
    behind it (``tools/heptalion_leaf_fit.py``'s: the seat to move won with chance 1 / (1 + exp(-score / 5.2))).
    """
    if score >= WIN - 100:
        return 1.0
    if score <= -WIN + 100:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / 5.0))


class HeptalionFeatures:
    """The search's view of Heptalion: it searches whole deals deep (``direct``)."""

    game = "heptalion"

    def direct(
        self, view: Mapping[str, Any], rng: random.Random, nodes: int = EXPERT_NODES
    ) -> Generator[None, None, SearchResult]:
        """Search the view's deals with alpha-beta; the generator's value is the ``SearchResult``."""
        texts = list(view["legal_moves"])
        if not texts:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        result = SearchResult(texts[0], {t: MoveStats(t) for t in texts})
        if len(texts) == 1:
            return result
        positions = sample_positions(view, rng, DEALS)
        me = view["seat"]
        board = board_from_view(view)
        votes: dict[str, int] = {}
        for pos in positions:
            searcher = ExpertSearcher(pos, me, max(1, nodes // len(positions)))
            move = yield from searcher.think()
            result.deals += 1
            if move is None:
                continue
            text = _move_text(board, *move)
            votes[text] = votes.get(text, 0) + 1
            for (t, m), score in searcher.scores.items():
                stats = result.stats[_move_text(board, t, m)]
                stats.weight += 1.0
                stats.total += chance(score)
                stats.samples += 1
        if votes:
            result.move = max(texts, key=lambda t: (votes.get(t, 0), result.stats[t].mean))
        return result

    def explain(self, view: Mapping[str, Any], result: SearchResult, names: Sequence[str] | None) -> str:
        """Return why the search prefers its move, in a player's words."""
        best = result.stats[result.move]
        others = [s for s in result.ranked() if s.move != result.move]
        if best.mean >= 0.999:
            return f"{result.move} wins by force: whatever is placed next, the others run out of room first."
        if others and others[0].mean <= 0.001 and best.mean > 0.001:
            return f"{result.move} is the one placement that does not lose by force."
        if best.mean <= 0.001:
            return f"{result.move} holds out longest: every placement loses against the best replies."
        return _placement_reason(view, result.move, best.mean)


def _placement_reason(view: Mapping[str, Any], text: str, mean: float) -> str:
    """Return what a placement does to the places left, for its tiles and the others': a reason in words."""
    board = board_from_view(view)
    masks = board.placement_masks
    occ = 0
    for entry in view["covered"]:
        a, b = entry["spaces"]
        occ |= (1 << a) | (1 << b)
    hand = [TILE_INDEX[parse_tile(t)] for t in view["hand"]]
    chosen = next(
        ((t, m) for t, m in free_placements(masks, occ, hand) if _move_text(board, t, m) == text), None
    )
    if chosen is None:
        return ""
    tile, mask = chosen
    theirs = list(unseen_tiles(view))
    for seat in view["seats"]:
        if seat["seat"] != view["seat"] and seat["hand"] is not None:
            theirs += [TILE_INDEX[parse_tile(t)] for t in seat["hand"]]
    before = len(free_placements(masks, occ, theirs))
    cut = before - len(free_placements(masks, occ | mask, theirs))
    rest = [t for t in hand if t != tile]
    kept = sum(1 for t in rest if any(not m & (occ | mask) for m in masks[t]))
    whose = "your opponent's tiles" if view["players"] == 2 else "the others' tiles"
    odds = f" The search gives you about {round(100 * mean)}% with it."
    if not rest:
        return f"{text} places your last tile.{odds}"
    mine = f"{kept} of your {len(rest)} other tiles" if len(rest) > 1 else "your other tile"
    if kept == len(rest) > 1:
        mine = f"all {kept} of your other tiles"
    if kept == 0:
        mine = "none of your other tiles" if len(rest) > 1 else "not your other tile"
    if cut > 0:
        places = "place" if cut == 1 else "places"
        return f"{text} takes {cut} {places} from {whose} and keeps room for {mine}.{odds}"
    return f"{text} keeps room for {mine}, on spaces {whose} could not use anyway.{odds}"


FEATURES = HeptalionFeatures()
