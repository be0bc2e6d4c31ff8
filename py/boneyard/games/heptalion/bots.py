"""Automa+ for Heptalion: easy, medium and hard computer players. They read only the view.

- ``easy``: a random legal placement.
- ``medium``: one ply, scored by ``evaluate``: keep its own tiles placeable (above all the "safe" ones,
  which no opponent placement can touch), cut the opponents'.
- ``hard``: paranoid alpha-beta (two players: plain alpha-beta, the game having perfect information
  when hands are visible) with iterative deepening, a transposition table and a deterministic node
  budget (``HARD_NODES``); it searches to the end when the position is small enough, else uses
  ``evaluate``. With hidden hands it determinises: the unseen tiles (all 28 minus its hand, the
  covered tiles and the public discard) are dealt at random to the other seats by their tile counts,
  each deal is searched, and the moves vote. With two players the unseen tiles are exactly the
  opponent's hand, so one deal is exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from ...ai import expert_bot as _expert_bot
from ...core import random_bot, run_thinking
from .board import TILE_INDEX, TILES, Board, parse_tile
from .rules import Move, arrive, board_from_view, free_placements, next_alive, parse_move

__all__ = [
    "BOTS",
    "HARD_NODES",
    "Position",
    "easy_bot",
    "evaluate",
    "hard_bot",
    "make_hard_bot",
    "medium_bot",
]

HARD_NODES = 8000  # default node budget of one hard move (deterministic; see bench.py)
HIDDEN_DEALS = 6  # deals searched per hidden-hand move (three or four players)
WIN = 100_000

Masks = Sequence[Sequence[int]]  # a board's placement masks, per tile


class Position:
    """What a bot knows of the table: the board's masks, covered spaces, hands, who still plays."""

    __slots__ = ("alive", "hands", "masks", "occ", "players")

    def __init__(self, masks: Masks, occ: int, hands: list[tuple[int, ...]], alive: list[bool]) -> None:
        self.masks = masks
        self.occ = occ
        self.hands = hands
        self.alive = alive
        self.players = len(hands)


def _view_basics(view: Mapping[str, Any]) -> tuple[Board, int, list[int]]:
    board = board_from_view(view)
    occ = 0
    for entry in view["covered"]:
        a, b = entry["spaces"]
        occ |= (1 << a) | (1 << b)
    return board, occ, [s["tile_count"] for s in view["seats"]]


def _hand(texts: Sequence[str]) -> tuple[int, ...]:
    return tuple(TILE_INDEX[parse_tile(t)] for t in texts)


def unseen_tiles(view: Mapping[str, Any]) -> list[int]:
    """Return the tiles this seat cannot see: not in its hand, not covered, not the discard, not shown."""
    known = set(_hand(view["hand"]))
    known.update(TILE_INDEX[parse_tile(e["tile"])] for e in view["covered"])
    if view.get("discard"):
        known.add(TILE_INDEX[parse_tile(view["discard"])])
    for seat in view["seats"]:
        if seat["hand"] is not None:
            known.update(_hand(seat["hand"]))
    return [t for t in range(len(TILES)) if t not in known]


def sample_positions(view: Mapping[str, Any], rng: random.Random, count: int) -> list[Position]:
    """Return positions consistent with the view: hidden hands dealt from the unseen tiles at random."""
    board, occ, counts = _view_basics(view)
    alive = [s["status"] == "playing" for s in view["seats"]]
    me = view["seat"]
    known: list[tuple[int, ...] | None] = []
    for seat in view["seats"]:
        if seat["seat"] == me:
            known.append(_hand(view["hand"]))
        elif seat["hand"] is not None:
            known.append(_hand(seat["hand"]))
        else:
            known.append(None)
    pool = unseen_tiles(view)
    if all(h is not None for h in known) or len([h for h in known if h is None]) == 1:
        count = 1  # nothing to guess: every hand is shown, or one hand holds all the unseen tiles
    out = []
    for _ in range(count):
        rng.shuffle(pool)
        hands: list[tuple[int, ...]] = []
        at = 0
        for seat, hand in enumerate(known):
            if hand is None:
                n = counts[seat]
                hands.append(tuple(sorted(pool[at : at + n])))
                at += n
            else:
                hands.append(hand)
        out.append(Position(board.placement_masks, occ, hands, alive))
    return out


def _free_union(masks: Masks, occ: int, hand: tuple[int, ...]) -> int:
    union = 0
    for t in hand:
        for m in masks[t]:
            if not m & occ:
                union |= m
    return union


def _strength(masks: Masks, occ: int, hand: tuple[int, ...], threat: int) -> int:
    """Score a hand: 2 a tile that still fits, 1 more when one of its placements is out of the threat."""
    score = 0
    for t in hand:
        fits = safe = False
        for m in masks[t]:
            if not m & occ:
                fits = True
                if not m & threat:
                    safe = True
                    break
        if fits:
            score += 3 if safe else 2
    return score


def evaluate(
    pos: Position, occ: int, hands: Sequence[tuple[int, ...]], alive: Sequence[bool], me: int
) -> int:
    """Score a position for ``me``: my hand's strength minus the strongest opponent's."""
    masks = pos.masks
    unions = [_free_union(masks, occ, hands[s]) if alive[s] else 0 for s in range(len(hands))]
    best_other = None
    mine = 0
    for s in range(len(hands)):
        if not alive[s]:
            continue
        threat = 0
        for o in range(len(hands)):
            if o != s and alive[o]:
                threat |= unions[o]
        value = _strength(masks, occ, hands[s], threat)
        if s == me:
            mine = value
        elif best_other is None or value > best_other:
            best_other = value
    return mine - (best_other or 0)


def _move_text(board: Board, t: int, m: int) -> str:
    """Return the text of placing tile ``t`` on the spaces of mask ``m``."""
    for (a, b), mask in zip(board.placements[t], board.placement_masks[t]):
        if mask == m:
            return str(Move(TILES[t], (a, b)))
    raise AssertionError("placement not on the board")


def without(hands: Sequence[tuple[int, ...]], seat: int, tile: int) -> list[tuple[int, ...]]:
    """Return the hands after ``seat`` placed ``tile`` (the search's side of ``HeptalionState.play``)."""
    out = list(hands)
    out[seat] = tuple(x for x in hands[seat] if x != tile)
    return out


class _Budget(Exception):
    pass


SLICE_NODES = 200  # the search yields every this many nodes (a few ms in the page)


class Searcher:
    """Paranoid alpha-beta for seat ``me`` (exact two-player alpha-beta) under a node budget."""

    def __init__(self, pos: Position, me: int, nodes: int) -> None:
        self.pos = pos
        self.me = me
        self.budget = nodes
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[int, int, int]] = {}  # key -> (depth, value, flag)
        # Every root move's score at the deepest depth finished (Expert reads them; Hard needs only the best).
        self.scores: dict[tuple[int, int], int] = {}

    def value(
        self,
        occ: int,
        hands: list[tuple[int, ...]],
        alive: Sequence[bool],
        seat: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> Generator[None, None, int]:
        """Return (as a generator's value) the value for ``me`` of ``seat``'s turn arriving here.

        The search is a generator so that the page can think in slices: it yields every
        ``SLICE_NODES`` nodes, and whoever drives it may let the page breathe in between.
        """
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        if self.nodes % SLICE_NODES == 0:
            yield
        alive = list(alive)
        seat, moves = arrive(self.pos.masks, occ, hands, alive, seat, None)  # the state's own rules path
        if not alive[self.me]:
            return -WIN + ply
        if not moves:
            return WIN - ply  # the last seat standing
        if depth <= 0:
            return evaluate(self.pos, occ, hands, alive, self.me)
        key = (occ, seat, tuple(alive), tuple(hands))
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, val, flag = entry
            if flag == 0 or (flag < 0 and val <= alpha) or (flag > 0 and val >= beta):
                return val
        maximising = seat == self.me
        moves = self._order(occ, hands, alive, seat, moves)
        a0, b0 = alpha, beta
        best = -WIN * 2 if maximising else WIN * 2
        nxt_seat = next_alive(alive, seat)
        for t, m in moves:
            val = yield from self.value(
                occ | m, without(hands, seat, t), alive, nxt_seat, depth - 1, alpha, beta, ply + 1
            )
            if maximising:
                if val > best:
                    best = val
                if best > alpha:
                    alpha = best
            else:
                if val < best:
                    best = val
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        flag = 0
        if best <= a0:
            flag = -1
        elif best >= b0:
            flag = 1
        self.table[key] = (depth, best, flag)
        return best

    def _order(
        self,
        occ: int,
        hands: Sequence[tuple[int, ...]],
        alive: Sequence[bool],
        seat: int,
        moves: list[tuple[int, int]],
    ) -> list[tuple[int, int]]:
        """Put first the moves that cut the most placements of the other seats."""
        masks = self.pos.masks
        threat = 0
        for o in range(len(hands)):
            if o != seat and alive[o]:
                threat |= _free_union(masks, occ, hands[o])
        return sorted(moves, key=lambda tm: -(tm[1] & threat).bit_count())

    def best_move(self) -> tuple[int, int] | None:
        """Return the best root move found within the budget (iterative deepening)."""
        best: tuple[int, int] | None = run_thinking(self.think())
        return best

    def think(self) -> Generator[None, None, tuple[int, int] | None]:
        """Search, yielding now and then; the generator's value is the best root move (or None)."""
        pos = self.pos
        root_moves = free_placements(pos.masks, pos.occ, pos.hands[self.me])
        if not root_moves:
            return None
        root_moves = self._order(pos.occ, pos.hands, pos.alive, self.me, root_moves)
        best = root_moves[0]
        self.scores = dict.fromkeys(root_moves, 0)
        if pos.players == 1 or len(root_moves) == 1:
            return best  # the solo puzzle (no opponent to search against), or nothing to choose
        nxt = next_alive(pos.alive, self.me)
        depth = 1
        while depth <= 2 * 28:
            scores: dict[tuple[int, int], int] = {}
            try:
                alpha = -WIN * 2
                found = root_moves[0]
                for t, m in root_moves:
                    hands = without(pos.hands, self.me, t)
                    val = yield from self.value(
                        pos.occ | m, hands, pos.alive, nxt, depth - 1, alpha, WIN * 2, 1
                    )
                    scores[(t, m)] = val
                    if val > alpha:
                        alpha = val
                        found = (t, m)
            except _Budget:
                break  # a depth not finished is not trusted
            best = found
            self.scores = scores
            root_moves.remove(found)
            root_moves.insert(0, found)
            if abs(alpha) >= WIN - 100:
                break  # proven win or loss
            depth += 1
        return best


easy_bot = random_bot(parse_move)  # a random legal placement


def medium_bot(view: dict[str, Any], rng: random.Random) -> Move:
    """Play the placement that leaves the best ``evaluate`` score (ties broken at random)."""
    positions = sample_positions(view, rng, 4)
    me = view["seat"]
    board = board_from_view(view)
    best_texts: list[str] = []
    best_score = None
    pos0 = positions[0]
    for t, m in free_placements(pos0.masks, pos0.occ, pos0.hands[me]):
        score = 0
        for pos in positions:
            hands = without(pos.hands, me, t)
            score += evaluate(pos, pos.occ | m, hands, pos.alive, me)
        if best_score is None or score > best_score:
            best_score, best_texts = score, [_move_text(board, t, m)]
        elif score == best_score:
            best_texts.append(_move_text(board, t, m))
    return parse_move(best_texts[rng.randrange(len(best_texts))])


def make_hard_bot(
    nodes: int = HARD_NODES, deals: int = HIDDEN_DEALS
) -> Callable[[dict[str, Any], random.Random], Move]:
    """Return a hard bot searching ``nodes`` nodes a move (split over ``deals`` deals when hidden)."""

    def think(view: dict[str, Any], rng: random.Random) -> Generator[None, None, Move]:
        """Search as ``hard`` does, yielding now and then; the generator's value is the move."""
        positions = sample_positions(view, rng, deals)
        me = view["seat"]
        board = board_from_view(view)
        votes: dict[tuple[int, int], int] = {}
        order: list[tuple[int, int]] = []
        for pos in positions:
            move = yield from Searcher(pos, me, max(1, nodes // len(positions))).think()
            if move is None:
                continue
            if move not in votes:
                order.append(move)
            votes[move] = votes.get(move, 0) + 1
        if not order:
            fallback: Move = easy_bot(view, rng)
            return fallback
        best = max(order, key=lambda mv: votes[mv])
        return parse_move(_move_text(board, *best))

    def hard(view: dict[str, Any], rng: random.Random) -> Move:
        """Play the move alpha-beta search prefers, voting over deals of the unseen tiles."""
        move: Move = run_thinking(think(view, rng))
        return move

    hard.__name__ = f"hard_{nodes}"
    hard.think = think  # type: ignore[attr-defined]  # the page thinks in slices (see core.think)
    return hard


hard_bot = make_hard_bot()

BOTS = {"easy": easy_bot, "medium": medium_bot, "hard": hard_bot}
BOTS["expert"] = expert_bot = _expert_bot("heptalion")  # boneyard.ai's search
