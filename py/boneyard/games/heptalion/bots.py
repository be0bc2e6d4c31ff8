"""Automa+ for Heptalion: easy, medium and hard computer players. They read only the view.

- ``easy``: a random legal placement.
- ``medium``: one ply, scored by ``evaluate``: keep its own tiles placeable (above all the "safe" ones,
  which no opponent placement can touch), cut the opponents'.
- ``hard``: ``DeepSearcher``, an iterative-deepening alpha-beta (two players: negamax over each side's
  free placements, exact once the sides no longer touch; three or four: paranoid) with principal-variation
  search, a transposition table keeping each position's best placement, killer and history ordering and
  a deterministic node budget (``HARD_NODES`` with two players, ``HARD_NODES_MANY`` with three or four);
  it searches to the end when the position is small enough, else scores the leaves by the tiles that
  still fit and those out of every other seat's reach. With hidden hands it determinises: the unseen
  tiles (all 28 minus its hand, the covered tiles and the public discard) are dealt at random to the
  other seats by their tile counts, each deal is searched, and the moves vote. With two players the
  unseen tiles are exactly the opponent's hand, so one deal is exact. (``Searcher``, Hard's search
  before, stays as the plain paranoid alpha-beta the tests and the bench compare against.)
- ``expert`` (``boneyard.ai.heptalion``): ``ExpertSearcher``, this ``DeepSearcher`` with 6.75 times Hard's
  nodes and, with two players, a leaf that packs each side's safe placements and weighs the room only one
  side reaches (``EXPERT_LEAF``; Hard's is unchanged). ``boneyard.ai`` registers it as the game's level
  when imported; this module does not import the AI.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping, Sequence
from functools import lru_cache, reduce
from operator import or_
from typing import Any

from ...core import random_bot, run_thinking
from .board import TILE_INDEX, TILES, Board, parse_tile
from .rules import Move, arrive, board_from_view, free_placements, next_alive, parse_move

__all__ = [
    "BOTS",
    "HARD_NODES",
    "HARD_NODES_MANY",
    "DeepSearcher",
    "Position",
    "easy_bot",
    "evaluate",
    "hard_bot",
    "make_hard_bot",
    "medium_bot",
    "packed_placements",
]

TILE_BITS = (1 << 28) - 1  # one bit a tile index
# ``DeepSearcher`` packs a placement into one int: the mask of its two spaces (bits 0..55) and, above them,
# its tile's bit (TILE_SHIFT + tile). ``x & p`` is then nonzero when x shares a space or the tile with p,
# the union of a hand's placements holds its free spaces and its fitting tiles, and one test filters both.
TILE_SHIFT = 56
SPACE_BITS = (1 << TILE_SHIFT) - 1
_RANKS = 255  # the orderings' stable sort: a placement's index (at most 84 placements) below its score
_DOWN = range(_RANKS, -1, -1)  # each placement's rank in that sort, by its index
# Hard's node budget a move (deterministic): 8,000 with two players, 5,000 with three or four, whose
# nodes cost more (every seat's hand in the leaf score); CPU p95 under Hard's old 8,000 (tools/heptalion_bench.py --part hardcpu).
HARD_NODES = 8000
HARD_NODES_MANY = 5000
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
    hand = hands[seat]
    i = hand.index(tile)
    out[seat] = hand[:i] + hand[i + 1 :]
    return out


def packed_placements(masks: Masks, occ: int, hand: Sequence[int]) -> list[int]:
    """Return ``free_placements`` in ``DeepSearcher``'s packing: each mask with its tile's bit above it."""
    return [m | 1 << (TILE_SHIFT + t) for t in hand for m in masks[t] if not m & occ]


@lru_cache(maxsize=8)
def _after_table(players: int) -> tuple[tuple[int, ...], ...]:
    """Return ``next_alive`` for every set of seats still playing (a bit a seat) and every seat."""
    return tuple(
        tuple(next_alive([bool(bits >> s & 1) for s in range(players)], seat) for seat in range(players))
        for bits in range(1 << players)
    )


class _Budget(Exception):
    pass


SLICE_NODES = 200  # the search yields every this many nodes (a few ms in the page)
# The search's leaf score: a tile that fits counts FIT_W, one out of every other seat's reach SAFE_W;
# the seat to move gives up TEMPO_W (with equal room, the seat to move runs out first).
FIT_W, SAFE_W, TEMPO_W = 2, 3, 1


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
        masks = self.pos.masks
        if len(hands) == 2:  # both still play (else the game is over): ``arrive`` and ``evaluate`` inlined
            moves = [(t, m) for t in hands[seat] for m in masks[t] if not m & occ]
            if not moves:
                return -WIN + ply if seat == self.me else WIN - ply
            if depth <= 0:
                return self._leaf_two(occ, hands, seat, moves)
            key: tuple[Any, ...] = (occ, seat, hands[0], hands[1])
        else:
            alive = list(alive)
            seat, moves = arrive(masks, occ, hands, alive, seat, None)  # the state's own rules path
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

    def _leaf_two(
        self, occ: int, hands: Sequence[tuple[int, ...]], seat: int, moves: list[tuple[int, int]]
    ) -> int:
        """Return ``evaluate`` of a two-player position, from the placements of ``seat`` (to move)."""
        masks = self.pos.masks
        other = [(t, m) for t in hands[1 - seat] for m in masks[t] if not m & occ]
        um = 0
        for _, m in moves:
            um |= m
        uo = 0
        for _, m in other:
            uo |= m
        mover = 2 * len({t for t, _ in moves}) + len({t for t, m in moves if not m & uo})
        rest = 2 * len({t for t, _ in other}) + len({t for t, m in other if not m & um})
        return mover - rest if seat == self.me else rest - mover

    def _threat(self, occ: int, hands: Sequence[tuple[int, ...]], alive: Sequence[bool], seat: int) -> int:
        """Return the free spaces any other live seat's tiles could still take."""
        masks = self.pos.masks
        threat = 0
        for o in range(len(hands)):
            if o != seat and alive[o]:
                for t in hands[o]:
                    for m in masks[t]:
                        if not m & occ:
                            threat |= m
        return threat

    def _order(
        self,
        occ: int,
        hands: Sequence[tuple[int, ...]],
        alive: Sequence[bool],
        seat: int,
        moves: list[tuple[int, int]],
    ) -> list[tuple[int, int]]:
        """Put first the moves that cut the most placements of the other seats."""
        threat = self._threat(occ, hands, alive, seat)
        both: list[tuple[int, int]] = []  # a stable sort on the spaces cut (2, 1, then 0)
        one: list[tuple[int, int]] = []
        none: list[tuple[int, int]] = []
        for tm in moves:
            cut = tm[1] & threat
            if not cut:
                none.append(tm)
            elif cut & (cut - 1):
                both.append(tm)
            else:
                one.append(tm)
        return both + one + none

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


class DeepSearcher(Searcher):
    """Hard's and Expert's alpha-beta for seat ``me``: ``Searcher`` made stronger per node, under a budget.

    Two players: each side's free placements kept as lists, filtered move by move, and once no placement
    of one side touches the other's the position is decided exactly (each side then places its largest
    set of disjoint tiles: ``_pack``). Three or four seats: paranoid, every seat's free placements kept
    as lists too. Both search with one loop (``_node``, values for ``me``), principal-variation search
    with iterative deepening; a transposition table keeps each position's bound and best placement
    (tried first at the next depth), and killer and history placements order the rest. Leaves are scored
    by each seat's tiles that still fit and those out of reach of every other seat, with the turn's
    tempo (``_leaf_after``, ``_leaf_many_after``). Placements are packed ints (``packed_placements``: spaces and tile bit), so a child's lists are one
    filter each and a list's union holds its spaces and its fitting tiles.
    """

    def __init__(self, pos: Position, me: int, nodes: int) -> None:
        super().__init__(pos, me, nodes)
        # key -> (depth, value, flag, mask of the best placement or 0)
        self.table: dict[Any, tuple[int, int, int, int]] = {}  # type: ignore[assignment]
        self.killers: dict[int, list[int]] = {}  # ply -> the last two placements that cut off there
        self.history: dict[int, int] = {}  # placement mask -> how much it cut off, over the search
        self.weights = (SAFE_W, FIT_W, TEMPO_W)
        self.packs: dict[tuple[int, ...], int] = {}  # placements (packed) -> the most that fit together
        self.after = _after_table(pos.players)  # alive bits, seat -> the next seat that plays
        # ``_node``'s hooks, chosen once a search by ``think`` (three or four seats unless two play)
        self._enter: Callable[[int, Any, int, int, int], Any] = self._enter_many
        self._order_path: Callable[[Any, list[int], int, int], list[int]] = self._order_many
        self._after: Callable[[Any, int, int], int] = self._leaf_many_after

    def _node(
        self, occ: int, parent: Any, placed: int, depth: int, alpha: int, beta: int, ply: int
    ) -> Generator[None, None, int]:
        """Return (as a generator's value) the value for ``me`` after ``placed`` (on ``occ``) from ``parent``.

        Every path searches with this one loop; ``think`` chooses its hooks once a search (``_enter``,
        ``_order_path``, ``_after``: two players, or three and four). ``_enter`` makes the node from its
        parent's ``ctx`` and scores it if the search ends there, else returns its table key, the mover's
        placements, whether the mover is ``me``, the sign that turns ``_after``'s scores to ``me``'s and
        the node's own ``ctx``. The search is a generator so that the page can think in slices: it yields
        every ``SLICE_NODES`` nodes.
        """
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        if self.nodes % SLICE_NODES == 0:
            yield
        node = self._enter(occ, parent, placed, depth, ply)
        if node.__class__ is int:
            return node
        key, moves, maximising, after_sign, ctx = node
        entry = self.table.get(key)
        first = 0
        if entry is not None:
            d, val, flag, first = entry
            if d >= depth:
                if val >= WIN - 200:
                    val -= ply
                elif val <= -WIN + 200:
                    val += ply
                if flag == 0 or (flag < 0 and val <= alpha) or (flag > 0 and val >= beta):
                    return val
        if len(moves) > 1:
            moves = self._order_path(ctx, moves, first, ply)
        a0, b0 = alpha, beta
        best = -WIN * 2 if maximising else WIN * 2
        best_mask = moves[0]
        pv = True
        leaves = depth == 1  # the children are leaves: scored here, node for node as their own calls would be
        after = self._after
        node_value = self._node
        deeper, down = depth - 1, ply + 1  # the children's depth and ply
        for p in moves:
            if leaves:
                self.nodes += 1
                if self.nodes > self.budget:
                    raise _Budget
                if self.nodes % SLICE_NODES == 0:
                    yield
                val = after_sign * after(ctx, p, down)
                if pv:
                    pv = False
                elif alpha < val < beta:  # the re-search a leaf would have had: one more node, the same value
                    self.nodes += 1
                    if self.nodes > self.budget:
                        raise _Budget
                    if self.nodes % SLICE_NODES == 0:
                        yield
            else:
                child_occ = occ | p & SPACE_BITS
                if pv:
                    val = yield from node_value(child_occ, ctx, p, deeper, alpha, beta, down)
                    pv = False
                elif maximising:
                    val = yield from node_value(child_occ, ctx, p, deeper, alpha, alpha + 1, down)
                    if alpha < val < beta:
                        val = yield from node_value(child_occ, ctx, p, deeper, val, beta, down)
                else:
                    val = yield from node_value(child_occ, ctx, p, deeper, beta - 1, beta, down)
                    if alpha < val < beta:
                        val = yield from node_value(child_occ, ctx, p, deeper, alpha, val, down)
            if maximising:
                if val > best:
                    best = val
                    best_mask = p
                if best > alpha:
                    alpha = best
            else:
                if val < best:
                    best = val
                    best_mask = p
                if best < beta:
                    beta = best
            if alpha >= beta:
                self._cut(ply, p, depth)
                break
        flag = 0
        if best <= a0:
            flag = -1
        elif best >= b0:
            flag = 1
        self._store(key, depth, best, flag, ply, best_mask)
        return best

    def _cut(self, ply: int, move: int, depth: int) -> None:
        """Remember ``move``, which cut the search off at ``ply``: a killer there, and history by depth."""
        killers = self.killers.setdefault(ply, [0, 0])
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _store(self, key: Any, depth: int, best: int, flag: int, ply: int, best_mask: int) -> None:
        """Keep a node's value and best placement in the table (a win or loss by its distance from the root)."""
        stored = best
        if best >= WIN - 200:
            stored = best + ply
        elif best <= -WIN + 200:
            stored = best - ply
        self.table[key] = (depth, stored, flag, best_mask)

    def _pack(self, placements: list[int]) -> int:
        """Return the most placements of distinct tiles on disjoint spaces among ``placements`` (exact)."""
        if len(placements) <= 1:
            return len(placements)
        key = tuple(placements)  # one placement a mask
        known = self.packs.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        p = placements[0]
        rest = placements[1:]
        best = 1 + self._pack([x for x in rest if not x & p])  # neither its tile nor its spaces
        if best < (reduce(or_, placements) >> TILE_SHIFT).bit_count():
            best = max(best, self._pack(rest))
        self.packs[key] = best
        return best

    def _leaf_after(self, ctx: Any, p: int, ply: int) -> int:
        """Return the two-player value at depth 0 after the mover placed ``p`` (for the other seat, now to move).

        It reads the parent's lists (``_enter2``'s ``ctx``) without making the child's: the same checks
        in the same order.
        """
        mine, theirs, _, _ = ctx
        um = 0  # the child's mover is the parent's other seat
        for x in theirs:
            if not x & p:
                um |= x
        if not um:
            return -WIN + ply
        uo = 0
        for x in mine:
            if not x & p:
                uo |= x
        if not uo:
            return WIN - ply - 1
        if not um & uo:
            left = self._pack([x for x in theirs if not x & p])
            right = self._pack([x for x in mine if not x & p])
            return WIN - ply - 2 * right - 1 if left > right else -WIN + ply + 2 * left
        sm = 0
        cut = p | uo
        for x in theirs:
            if not x & cut:
                sm |= x
        so = 0
        cut = p | um
        for x in mine:
            if not x & cut:
                so |= x
        safe = (sm >> TILE_SHIFT).bit_count() - (so >> TILE_SHIFT).bit_count()
        fit = (um >> TILE_SHIFT).bit_count() - (uo >> TILE_SHIFT).bit_count()
        safe_w, fit_w, tempo_w = self.weights
        return (safe_w - fit_w) * safe + fit_w * fit - tempo_w

    def _enter2(self, occ: int, parent: Any, p: int, depth: int, ply: int) -> Any:
        """Return ``_node``'s entry at two players (``_enter``) after ``p``: a value for ``me``, or the loop's.

        ``parent`` is the parent's ``ctx``: the free placements (``packed_placements``) of its mover and of
        the other seat (who moves here), the union of the other's and both hands' tile bits packed for the
        table's key (the mover's low, the other's above bit 28). ``me`` moves at even plies; the scores
        below are the mover's, turned to ``me``'s by ``sign``.
        """
        sign = -1 if ply & 1 else 1
        if depth <= 0:
            return sign * self._leaf_after(parent, p, ply)
        mover, other, _, hands = parent
        mine = [x for x in other if not x & p]
        theirs = [x for x in mover if not x & p]
        hands = hands >> 28 | (hands & TILE_BITS & ~(p >> TILE_SHIFT)) << 28
        if not mine:
            return sign * (-WIN + ply)  # the seat to move has no tile that fits: it is out
        if not theirs:
            return sign * (WIN - ply - 1)  # whatever it places, the other seat has nothing left
        um = reduce(or_, mine)
        uo = reduce(or_, theirs)
        if not um & uo:  # apart for good: each side places its most disjoint tiles, the mover needs more
            left, right = self._pack(mine), self._pack(theirs)
            return sign * (WIN - ply - 2 * right - 1 if left > right else -WIN + ply + 2 * left)
        return occ | hands << 56, mine, sign > 0, -sign, (mine, theirs, uo, hands)

    def _order2(self, ctx: Any, mine: list[int], first: int, ply: int) -> list[int]:
        """Order the mover's placements: the table's best, killers, history, then the other's places cut."""
        threat = ctx[2]  # the union of the other's placements
        get = self.history.get
        # a stable sort, best first: each placement's score above its rank (255 - its index) in one int
        keyed = [((p & threat).bit_count() * 4 + get(p, 0)) << 8 | r for p, r in zip(mine, _DOWN)]
        killers = self.killers.get(ply)
        if killers is not None:
            for k in killers:
                if k != first and k in mine:
                    i = mine.index(k)
                    keyed[i] = 1 << 38 | _RANKS - i  # score 1 << 30
        if first and first in mine:
            i = mine.index(first)
            keyed[i] = 1 << 48 | _RANKS - i  # score 1 << 40
        keyed.sort(reverse=True)
        return [mine[_RANKS - (k & _RANKS)] for k in keyed]

    def _enter_many(self, occ: int, parent: Any, p: int, depth: int, ply: int) -> Any:
        """Return ``_node``'s entry at three or four seats (``_enter``) after ``p``: a value for ``me``, or the loop's.

        ``parent`` is the parent's ``ctx``: every seat's free placements (``packed_placements``; none for a
        seat that is out), the seats still playing (a bit a seat), its mover, the seat whose turn arrives
        here and the hands' tile bits (28 a seat) for the table's key. At least two seats play (so
        ``arrive``'s first check is already made).
        """
        if depth <= 0:
            return self._leaf_many_after(parent, p, ply)
        free, alive, seat, seat_after, hands = parent
        free = [[x for x in f if not x & p] for f in free]
        hands &= ~(p >> TILE_SHIFT << 28 * seat)
        seat = seat_after
        moves = free[seat]
        if not moves:  # ``arrive``: whoever has no fitting tile is out, in turn
            after = self.after
            while True:
                alive &= ~(1 << seat)
                seat = after[alive][seat]
                if not alive & (alive - 1):
                    break  # the last seat standing
                moves = free[seat]
                if moves:
                    break
        me = self.me
        if not alive >> me & 1:
            return -WIN + ply
        if not moves:
            return WIN - ply  # the last seat standing
        key = occ | seat << 56 | alive << 58 | hands << 62
        return key, moves, seat == me, 1, (free, alive, seat, self.after[alive][seat], hands)

    def _leaf_many_after(self, ctx: Any, p: int, ply: int) -> int:
        """Return the value at depth 0 after ``p`` was placed (three or four seats): the parent's lists, read.

        The same checks in the same order as the child's own call, without making the child's lists.
        """
        free, alive, _, seat, _ = ctx  # the next seat's turn arrives
        unions = []
        for f in free:
            u = 0
            for x in f:
                if not x & p:
                    u |= x
            unions.append(u)
        fits = unions[seat] != 0
        if not fits:  # ``arrive``: whoever has no fitting tile is out, in turn
            after = self.after
            while True:
                alive &= ~(1 << seat)
                seat = after[alive][seat]
                if not alive & (alive - 1):
                    break  # the last seat standing
                if unions[seat]:
                    fits = True
                    break
        me = self.me
        if not alive >> me & 1:
            return -WIN + ply
        if not fits:
            return WIN - ply
        reach = shared = 0
        for u in unions:
            shared |= reach & u
            reach |= u
        cut = p | shared
        safe = 0
        for f in free:
            for x in f:
                if not x & cut:
                    safe |= x
        safe >>= TILE_SHIFT
        mine = 0
        best_other: int | None = None
        for s, u in enumerate(unions):
            if not alive >> s & 1:
                continue
            fit = u >> TILE_SHIFT
            value = FIT_W * fit.bit_count() + (SAFE_W - FIT_W) * (safe & fit).bit_count()
            if s == seat:
                value -= TEMPO_W
            if s == me:
                mine = value
            elif best_other is None or value > best_other:
                best_other = value
        return mine - (best_other or 0)

    def _order_many(self, ctx: Any, moves: list[int], first: int, ply: int) -> list[int]:
        """Return ``_order`` of the mover's placements (three or four seats)."""
        free, alive, seat = ctx[0], ctx[1], ctx[2]
        threat = 0
        for o, placements in enumerate(free):
            if o != seat and alive >> o & 1:
                threat |= reduce(or_, placements, 0)
        threat &= SPACE_BITS
        get = self.history.get
        keyed = [((p & threat).bit_count() * 4 + get(p, 0)) << 8 | r for p, r in zip(moves, _DOWN)]
        killers = self.killers.get(ply)
        if killers is not None:
            for k in killers:
                if k != first and k in moves:
                    keyed[moves.index(k)] += 1 << 38  # score + 1 << 30
        if first and first in moves:
            keyed[moves.index(first)] += 1 << 48  # score + 1 << 40
        keyed.sort(reverse=True)
        return [moves[_RANKS - (k & _RANKS)] for k in keyed]

    def _order(
        self,
        occ: int,
        hands: Sequence[tuple[int, ...]],
        alive: Sequence[bool],
        seat: int,
        moves: list[tuple[int, int]],
        first: int = 0,
        ply: int = -1,
    ) -> list[tuple[int, int]]:
        """Order placements: the table's best first, then killers, history and the others' places cut."""
        threat = self._threat(occ, hands, alive, seat)
        killers = self.killers.get(ply, ())
        history = self.history
        keyed = []
        for tm in moves:
            m = tm[1]
            score = (m & threat).bit_count() * 4 + history.get(m, 0)
            if m == first:
                score += 1 << 40
            elif m in killers:
                score += 1 << 30
            keyed.append((score, tm))
        keyed.sort(key=_first, reverse=True)
        return [tm for _, tm in keyed]

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
        root_all = [m | 1 << (TILE_SHIFT + t) for t, m in root_moves]  # in the root's order, as ever
        if pos.players == 2 and all(pos.alive):
            self._enter, self._order_path, self._after = (
                self._enter2,
                self._order2,
                self._leaf_after,
            )
            mover_bits = sum(1 << t for t in pos.hands[self.me])
            other_bits = sum(1 << t for t in pos.hands[nxt])
            theirs = packed_placements(pos.masks, pos.occ, pos.hands[nxt])
            ctx: Any = (root_all, theirs, 0, mover_bits | other_bits << 28)
        else:
            placements = [
                packed_placements(pos.masks, pos.occ, h) if a else [] for h, a in zip(pos.hands, pos.alive)
            ]
            hands = sum(sum(1 << t for t in h) << 28 * s for s, h in enumerate(pos.hands))
            alive = sum(1 << s for s, a in enumerate(pos.alive) if a)
            ctx = (placements, alive, self.me, nxt, hands)
        depth = 1
        while depth <= 2 * 28:
            scores: dict[tuple[int, int], int] = {}
            alpha = -WIN * 2
            found = root_moves[0]
            try:
                for i, (t, m) in enumerate(root_moves):
                    child = pos.occ | m
                    p = m | 1 << (TILE_SHIFT + t)
                    if i == 0:
                        val = yield from self._node(child, ctx, p, depth - 1, alpha, WIN * 2, 1)
                    else:
                        val = yield from self._node(child, ctx, p, depth - 1, alpha, alpha + 1, 1)
                        if val > alpha:
                            val = yield from self._node(child, ctx, p, depth - 1, val, WIN * 2, 1)
                    scores[(t, m)] = val
                    if val > alpha:
                        alpha = val
                        found = (t, m)
            except _Budget:
                if found != root_moves[0]:
                    best = found  # a later move proved better than the last depth's best at this depth
                break  # the rest of a depth not finished is not trusted
            best = found
            self.scores = scores
            root_moves.remove(found)
            root_moves.insert(0, found)
            if abs(alpha) >= WIN - 100:
                break  # proven win or loss
            depth += 1
        return best


def _first(item: tuple[int, Any]) -> int:
    return item[0]


easy_bot = random_bot(parse_move)  # a random legal placement


def medium_bot(view: Mapping[str, Any], rng: random.Random) -> Move:
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
    nodes: int = HARD_NODES, deals: int = HIDDEN_DEALS, many: int | None = None
) -> Callable[[Mapping[str, Any], random.Random], Move]:
    """Return a hard bot searching ``nodes`` nodes a move (split over ``deals`` deals when hidden).

    ``many`` is the budget at three or four players (``HARD_NODES_MANY`` scaled with ``nodes`` if None).
    """
    many_nodes = many if many is not None else max(1, nodes * HARD_NODES_MANY // HARD_NODES)

    def think(view: Mapping[str, Any], rng: random.Random) -> Generator[None, None, Move]:
        """Search as ``hard`` does, yielding now and then; the generator's value is the move."""
        positions = sample_positions(view, rng, deals)
        me = view["seat"]
        board = board_from_view(view)
        budget = nodes if view["players"] <= 2 else many_nodes
        votes: dict[tuple[int, int], int] = {}
        order: list[tuple[int, int]] = []
        for pos in positions:
            move = yield from DeepSearcher(pos, me, max(1, budget // len(positions))).think()
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

    def hard(view: Mapping[str, Any], rng: random.Random) -> Move:
        """Play the move alpha-beta search prefers, voting over deals of the unseen tiles."""
        move: Move = run_thinking(think(view, rng))
        return move

    hard.__name__ = f"hard_{nodes}"
    hard.think = think  # type: ignore[attr-defined]  # the page thinks in slices (see core.think)
    return hard


hard_bot = make_hard_bot()

BOTS = {"easy": easy_bot, "medium": medium_bot, "hard": hard_bot}
