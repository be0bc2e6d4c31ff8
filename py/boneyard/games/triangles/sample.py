"""Sampling Triangles: a full state consistent with what one seat knows (what a search determinizes with).

``sample(view, rng)`` deals the tiles that ``view["seat"]`` cannot see (the other hands and the stock)
so that the new state's ``view(seat)`` equals the given view and nothing the public history proves is
broken. What it proves about a hidden seat:

- **the opening**: nobody was dealt a tile that ranks above the opening tile (``rules.opening_tile``'s
  order), and before the opening is laid its opener holds it;
- **a draw or a pass**: the seat held no tile with a placement on the board as it was then, unless it
  drew that tile since. A draw followed by the same seat's placement laid the drawn tile (the rest of
  its hand fitted nothing on that same board), so that tile is known; any other draw is "kept": it
  brought in a tile that may still be held;
- **the end**: each hand's pip total is the outcome's score.

Each tile a seat ever held came in through a *slot*: one of its dealt slots (before every event) or a
kept draw (at that event). A tile may come in at slot ``e`` only if it fits no board of the seat's voids
after ``e`` and, for a dealt slot, ranks no higher than the opening; ``_need`` is the earliest slot it
may use. The seat's laid tiles are known, each with a deadline (it was laid then); giving them slots
earliest-deadline-first (optimal for such interval matchings) leaves the slots of the tiles held now:
its hand *positions*, each accepting the tiles whose need is at most the slot.

Dealing: up to ``TRIES`` plain random deals (shuffle, cut) are tried and the first that every position
accepts is returned (a uniform draw among the consistent deals). When none is, the deal is made
constraint-aware instead: positions in random order each take a random tile among those that still
leave a complete assignment of the others (checked by bipartite matching), so a sample is always
consistent and the fallback only loses exact uniformity. A finished game's pip totals are met by a
randomized exhaustive search instead. A view that no deal can satisfy (not one that a real game
produced) raises ValueError.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

from ...core import Outcome, derive_seed, make_rng
from .rules import (
    HAND_SIZES,
    MAX_DRAWS,
    TILE_INDEX,
    TILES,
    Board,
    Laid,
    Place,
    Tile,
    TrianglesState,
    fit_mask,
    parse_move,
    parse_tile,
    tile_text,
)
from .views import TrianglesView

__all__ = ["TRIES", "sample"]

TRIES = 32  # plain random deals tried before the constraint-aware deal
SEARCH_NODES = 200_000  # bound of the search that meets a finished game's pip totals


def _rank(tile: Tile) -> tuple[Any, ...]:
    """Return the order in which tiles open (``rules.opening_tile``)."""
    return (tile[0] == tile[2], sum(tile), tuple(sorted(tile, reverse=True)))


_RANK = [_rank(tile) for tile in TILES]
_TILE_OF: dict[str, Tile] = {tile_text(tile): tile for tile in TILES}
_PIPS = [sum(tile) for tile in TILES]


def _tile(text: str) -> Tile:
    """Return the tile of a view's tile text (parsed the slow way only when unusual)."""
    found = _TILE_OF.get(text)
    return found if found is not None else parse_tile(text)


@lru_cache(maxsize=4096)
def _place(text: str) -> Place | None:
    """Return the placement a history entry's text names (None for a draw or a pass)."""
    move = parse_move(text)
    return move if isinstance(move, Place) else None


class _Seat:
    """What the history proves about one hidden seat."""

    __slots__ = ("kept", "laid", "voids")

    def __init__(self) -> None:
        self.voids: list[tuple[int, int]] = []  # (event index, bit set of tiles fitting the board then)
        self.kept: list[int] = []  # event indexes of kept draws
        self.laid: list[tuple[int, int]] = []  # (event index, tile index) of tiles laid from the hand


def _need(voids: list[tuple[int, int]], bit: int, before: int, above: bool) -> int:
    """Return the earliest slot a tile may come in through to be held at event ``before``."""
    need = 0 if above else -1
    for index, mask in reversed(voids):
        if index < before and mask & bit:
            return max(need, index)
    return need


def _facts(
    view: TrianglesView,
) -> tuple[dict[int, list[int]], dict[int, _Hand], list[Tile], Tile | None, Board]:
    """Return what a view proves: per hidden seat the slots of its hand positions (ascending) and each
    what its positions accept (``_Hand``); the unseen tiles; the opening tile when a hidden opener
    still holds it; and the table as a Board.

    Raise ValueError when the view is not one a game of Triangles can show.
    """
    players = view["players"]
    me = view["seat"]
    opening_rank = _RANK[TILE_INDEX[_tile(view["opening"])]]
    seats = {s: _Seat() for s in range(players) if s != me}
    board = Board()
    history: Sequence[Mapping[str, Any]] = view["history"]  # every Triangles event names its seat and move
    last = len(history) - 1
    mask = -1  # the fit mask of the board as it is now (-1: not worked out since the last placement)
    for index, entry in enumerate(history):
        seat, text = entry["seat"], entry["move"]
        info = seats.get(seat)
        if text == "draw" or text == "pass":
            if info is None:
                continue
            if mask < 0:
                mask = 0
                for pattern in board.frontier.values():
                    mask |= fit_mask(pattern)
            info.voids.append((index, mask))
            if text == "draw" and (index == last or history[index + 1]["move"] in ("draw", "pass")):
                info.kept.append(index)
            continue
        move = _place(text)
        if move is None:
            raise ValueError(f"not a move of the history: {text!r}")
        board.place(move.cell, move.values)
        mask = -1
        if info is not None and not (index > 0 and history[index - 1]["move"] == "draw"):
            info.laid.append((index, TILE_INDEX[move.tile]))  # (after a draw: the drawn tile, known)
    seen = {_tile(t) for t in view["hand"]}
    seen.update(_tile(item["tile"]) for item in view["table"])
    unseen = [tile for tile in TILES if tile not in seen]
    pending = _tile(view["opening"]) if not view["table"] and view["turn"] != me else None
    slots: dict[int, list[int]] = {}
    needs: dict[int, _Hand] = {}
    size = HAND_SIZES[players]
    above = [rank > opening_rank for rank in _RANK]
    high = sum(1 << t for t in range(len(TILES)) if above[t])
    for seat, info in seats.items():
        # The tiles laid from the hand take their slots earliest deadline first.
        laid = sorted((_need(info.voids, 1 << t, index, above[t]), index) for index, t in info.laid)
        free: list[int] = []
        waiting: list[int] = []  # deadlines of laid tiles that may come in by now
        pointer = 0
        for slot in [-1] * size + info.kept:
            while pointer < len(laid) and laid[pointer][0] <= slot:
                waiting.append(laid[pointer][1])
                pointer += 1
            waiting.sort()
            if waiting and waiting[0] <= slot:
                raise ValueError(f"seat {seat} laid a tile it cannot have held")
            if waiting:
                waiting.pop(0)
            else:
                free.append(slot)
        if waiting or pointer < len(laid):
            raise ValueError(f"seat {seat} laid more tiles than it can have held")
        if len(free) != view["hand_counts"][seat]:
            raise ValueError(
                f"seat {seat} holds {view['hand_counts'][seat]} tiles, its history gives {len(free)}"
            )
        if pending is not None and seat == view["turn"]:
            free.pop(0)  # the opener's slot of the opening tile
        slots[seat] = free
        needs[seat] = _Hand(free, info.voids, high)
    if pending is not None:
        unseen.remove(pending)
    if sum(len(free) for free in slots.values()) + view["stock"] != len(unseen):
        raise ValueError("the hidden hands and the stock do not add up to the unseen tiles")
    return slots, needs, unseen, pending, board


class _Hand:
    """What a hidden seat's hand positions accept: a position of slot ``e`` takes a tile that fits no
    board of the seat's voids after ``e`` (and, for a dealt slot, ranks no higher than the opening)."""

    __slots__ = ("forbid", "free", "level_of", "levels")

    def __init__(self, free: list[int], voids: list[tuple[int, int]], high: int) -> None:
        self.free = free  # the slots of the positions, ascending
        self.levels = sorted(set(free))
        self.forbid = []  # per level: the bit set of the tiles it refuses
        for slot in self.levels:
            mask = high if slot < 0 else 0
            for index, void in voids:
                if index > slot:
                    mask |= void
            self.forbid.append(mask)
        self.level_of = [self.levels.index(slot) for slot in free]

    def allows(self, tile: Tile, position: int) -> bool:
        """Tell whether the position (an index into ``free``) may take the tile."""
        return not self.forbid[self.level_of[position]] >> TILE_INDEX[tile] & 1

    def accepts(self, hand: list[Tile]) -> bool:
        """Tell whether the tiles can fill the positions, one each (they are as many)."""
        forbid = self.forbid
        if not forbid:
            return not hand
        mask = 0
        for tile in hand:
            mask |= 1 << TILE_INDEX[tile]
        if not mask & forbid[0]:
            return True  # every tile may have been dealt
        if mask & forbid[-1]:
            return False  # a tile that fits even the latest void
        # Largest need first against the latest positions (the slots are nested).
        wants = []
        for tile in hand:
            bit = 1 << TILE_INDEX[tile]
            level = 0
            while forbid[level] & bit:
                level += 1
            wants.append(level)
        wants.sort(reverse=True)
        return all(want <= level for want, level in zip(wants, reversed(self.level_of)))


def sample(view: TrianglesView, rng: random.Random) -> TrianglesState:
    """Return a full state whose ``view(view["seat"])`` equals ``view``, the unseen tiles dealt at random
    to the places that seat cannot see, never against what the history proves (module notes)."""
    if view.get("game") != "triangles":
        raise ValueError(f"not a Triangles view (game {view.get('game')!r})")
    slots, needs, unseen, pending, board = _facts(view)
    pips: dict[int, int] = {}
    if view["outcome"] is not None:
        scores = view["outcome"]["scores"]
        pips = {seat: scores[seat] for seat in slots}
    seats = sorted(slots)
    counts = [len(slots[seat]) for seat in seats]
    hidden = sum(counts)
    hands: dict[int, list[Tile]] | None = None
    for _ in range(TRIES):
        dealt = rng.sample(unseen, hidden)
        trial: dict[int, list[Tile]] = {}
        at = 0
        for seat, count in zip(seats, counts):
            hand = trial[seat] = dealt[at : at + count]
            at += count
            if not needs[seat].accepts(hand) or (
                pips and sum(_PIPS[TILE_INDEX[t]] for t in hand) != pips[seat]
            ):
                break
        else:
            hands = trial
            break
    if hands is None:
        hands = _search(slots, needs, unseen, pips, rng) if pips else _matched(slots, needs, unseen, rng)
    return _build(view, hands, pending, unseen, board, rng)


def _matched(
    slots: dict[int, list[int]], needs: dict[int, _Hand], unseen: list[Tile], rng: random.Random
) -> dict[int, list[Tile]]:
    """Deal constraint-aware: each position in random order takes a random tile that leaves a complete
    assignment of the others (kept by augmenting paths of a bipartite matching)."""
    places = [(seat, k) for seat in sorted(slots) for k in range(len(slots[seat]))]
    allowed = [[t for t in unseen if needs[seat].allows(t, k)] for seat, k in places]
    match: list[Tile | None] = [None] * len(places)
    owner: dict[Tile, int] = {}
    fixed = [False] * len(places)

    def augment(p: int, visited: set[Tile]) -> bool:
        for tile in allowed[p]:
            if tile in visited:
                continue
            visited.add(tile)
            q = owner.get(tile)
            if q is None or (not fixed[q] and augment(q, visited)):
                match[p] = tile
                owner[tile] = p
                return True
        return False

    for p in range(len(places)):
        if not augment(p, set()):
            raise ValueError("no deal of the unseen tiles fits what the history proves")
    order = list(range(len(places)))
    rng.shuffle(order)
    for p in order:
        choices = allowed[p]
        tried: set[Tile] = set()
        while True:  # a uniform pick among the tiles that still leave the others an assignment
            tile = choices[rng.randrange(len(choices))]
            if tile in tried:
                continue
            tried.add(tile)
            old, q = match[p], owner.get(tile)
            if q == p:
                break
            if q is not None and fixed[q]:
                continue
            match[p], owner[tile] = tile, p
            del owner[old]  # type: ignore[arg-type]
            if q is None:
                break
            fixed[p] = True
            match[q] = None
            if augment(q, {tile}):
                break
            fixed[p] = False
            match[p], owner[old], owner[tile], match[q] = old, p, q, tile  # type: ignore[index]
        fixed[p] = True
    hands: dict[int, list[Tile]] = {seat: [] for seat in slots}
    for (seat, _), held in zip(places, match):
        assert held is not None  # every position was matched above
        hands[seat].append(held)
    return hands


def _search(
    slots: dict[int, list[int]],
    needs: dict[int, _Hand],
    unseen: list[Tile],
    pips: dict[int, int],
    rng: random.Random,
) -> dict[int, list[Tile]]:
    """Deal a finished game's hidden hands with their exact pip totals: a randomized depth-first search
    over each seat's tiles in turn (bounded by ``SEARCH_NODES``)."""
    seats = sorted(slots)
    pool = list(unseen)
    rng.shuffle(pool)
    nodes = 0
    hands: dict[int, list[Tile]] = {}

    def fill(k: int, left: list[Tile]) -> bool:
        if k == len(seats):
            return True
        seat = seats[k]
        count, total, need = len(slots[seat]), pips[seat], needs[seat]
        chosen: list[Tile] = []

        def pick(start: int, room: int) -> bool:
            nonlocal nodes
            nodes += 1
            if nodes > SEARCH_NODES:
                raise ValueError("no deal with the finished game's pip totals found within the search bound")
            if len(chosen) == count:
                if room or not need.accepts(chosen):
                    return False
                hands[seat] = list(chosen)
                rest = [t for t in left if t not in chosen]
                return fill(k + 1, rest)
            for i in range(start, len(left)):
                tile = left[i]
                value = sum(tile)
                if value > room or not need.allows(tile, count - 1):
                    continue
                if len(chosen) + 1 == count and value != room:
                    continue
                chosen.append(tile)
                if pick(i + 1, room - value):
                    return True
                chosen.pop()
            return False

        return pick(0, total)

    if not fill(0, pool):
        raise ValueError("no deal of the unseen tiles gives the finished game's pip totals")
    return hands


def _build(
    view: TrianglesView,
    dealt: dict[int, list[Tile]],
    pending: Tile | None,
    unseen: list[Tile],
    board: Board,
    rng: random.Random,
) -> TrianglesState:
    """Return the state of the view with the hidden hands ``dealt`` and the other unseen tiles as stock."""
    players, me = view["players"], view["seat"]
    held = {t for hand in dealt.values() for t in hand}
    stock = [t for t in unseen if t not in held]
    rng.shuffle(stock)
    hands: list[list[Tile]] = []
    for seat in range(players):
        if seat == me:
            hands.append([_tile(t) for t in view["hand"]])
        else:
            hand = list(dealt[seat])
            if pending is not None and seat == view["turn"]:
                hand.insert(0, pending)
            hands.append(hand)
    state = TrianglesState.__new__(TrianglesState)
    state._start(players, make_rng(derive_seed(rng)))
    state.hands = hands
    state.stock = stock
    state.board = board
    state.laid = [
        Laid(_tile(item["tile"]), (item["cell"][0], item["cell"][1]), item["rotation"], item["seat"])
        for item in view["table"]
    ]
    history: Sequence[Mapping[str, Any]] = view["history"]  # every Triangles event names its seat and move
    state.history = [(entry["seat"], entry["move"]) for entry in history]
    state.turn_number = view["turn_number"]
    state.opening = _tile(view["opening"])
    turn = cast("int", view["turn"])  # None only once over, and a game is not over before a tile is laid
    state.opener = state.laid[0].seat if state.laid else turn
    state.passes = view["passes"]
    state._legal = None
    if view["outcome"] is None:
        state.current = turn
        state.draws_left = view["draws_left"]
    else:
        # The game ended on the last move: its seat was to move, with the draws it had not used.
        state.current = state.history[-1][0]
        drawn = 0
        for seat, text in reversed(state.history[:-1]):
            if seat != state.current or text != "draw":
                break
            drawn += 1
        state.draws_left = MAX_DRAWS - drawn
        state._outcome = Outcome.from_dict(view["outcome"])
    return state
