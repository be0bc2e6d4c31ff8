"""Deal a full Dominoes state consistent with what one seat knows (``sample(view, rng)``).

A search determinizes with it: the tiles the seat cannot see (the other hands and the boneyard) are
dealt at random, with the right counts, never against what the public history of the hand proves:

- A seat that drew or passed while the ends showed a and b held no tile with a or b then. Whatever it
  held at that moment stays void of a and b for as long as it keeps it; a tile it draws later may show
  them again. So each other seat's hand is a few groups ("slots") of tiles, each with the numbers its
  tiles cannot show: the tiles held since the deal, and each tile drawn since, voided by every later
  draw or pass. A tile laid straight after a draw is the tile drawn (nothing else fitted); a tile laid
  at another time leaves from a group that could hold it, and when that is not known the groups it may
  have come from are merged, keeping only the numbers all of them lack.
- At the opening of a hand opened by the highest-double rule, the seat to move holds the highest tile
  dealt (above every tile in the other hands).
- Once the game is over, the hands are public (the last hand's result): only the boneyard is dealt.

Deals are drawn uniformly when nothing is proven, else by a randomised most-constrained-first deal
(every consistent deal can come out, though not with exactly equal odds), with an exact matching as
the last resort. The boneyard's order is shuffled; the new state gets its own generator from ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ...core import Outcome, derive_seed
from ...matching import max_matching
from .rules import (
    BLOCKED,
    CODE_MASK,
    DRAW,
    OPENING_ORDER,
    OPTION_NAMES,
    OUT,
    PASS,
    TILE_COUNT,
    TILE_ID,
    TILES,
    DominoesState,
    FivesState,
    FivesTable,
    Table,
    _check_event,
    _check_fives_event,
    _check_result,
    resolve_options,
    tiles_mask,
)
from .views import DominoesView

__all__ = ["hand_slots", "sample"]

RANK = {t: index for index, t in enumerate(OPENING_ORDER)}  # 0: the tile that opens first (6-6)
NUMBERS = tuple(frozenset(TILES[t]) for t in range(TILE_COUNT))
TRIES = 60  # randomised deals before the exact matching


class Slot:
    """Tiles of one seat that share what they cannot show; ``count`` None: the rest of the hand."""

    __slots__ = ("count", "void")

    def __init__(self, count: int | None, void: frozenset[int] = frozenset()) -> None:
        self.count = count
        self.void = void

    def __repr__(self) -> str:
        return f"Slot({self.count}, {sorted(self.void)})"


def _tile_of(pair: Any) -> int:
    a, b = pair
    return TILE_ID[(max(a, b), min(a, b))]


def hand_slots(history: Sequence[Mapping[str, Any]], players: int) -> list[list[Slot]]:
    """Return each seat's slots from the hand's public history (the first slot of a seat is its rest)."""
    slots: list[list[Slot]] = [[Slot(None)] for _ in range(players)]
    previous: Mapping[str, Any] | None = None
    for event in history:
        seat = event["seat"]
        move = event["move"]
        mine = slots[seat]
        if move in ("draw", "pass"):
            ends = frozenset(event["ends"])
            for slot in mine:
                slot.void |= ends
            if move == "draw":
                mine.append(Slot(1))
        else:
            numbers = NUMBERS[_tile_of(event["tile"])]
            if (
                previous is not None
                and previous["seat"] == seat
                and previous["move"] == "draw"
                and len(mine) > 1
            ):
                mine.pop()  # the tile just drawn: nothing else fitted
            else:
                could = [slot for slot in mine if not slot.void & numbers]
                drawn = [slot for slot in could if slot.count is not None]
                if len(could) == 1 and drawn:
                    drawn[0].count = (drawn[0].count or 1) - 1
                    if drawn[0].count == 0:
                        mine.remove(drawn[0])
                elif len(could) > 1:
                    # Unknown which group gave the tile: merge them (into the rest when it is one of them).
                    void = frozenset.intersection(*(slot.void for slot in could))
                    if could[0] is mine[0]:
                        mine[0].void = void
                        for slot in could[1:]:
                            mine.remove(slot)
                    else:
                        total = sum(slot.count or 0 for slot in could) - 1
                        for slot in could:
                            mine.remove(slot)
                        if total > 0:
                            mine.append(Slot(total, void))
                # No group could hold it (a position built by hand): the rest gave it.
        previous = event
    return slots


def _places(view: DominoesView, seat: int, unseen_count: int) -> list[tuple[int, Slot]]:
    """Return (seat, slot) for every group of unseen tiles in the other hands, counts filled in."""
    players = view["players"]
    counts = view["hand_counts"]
    places: list[tuple[int, Slot]] = []
    for other, slots in enumerate(hand_slots(view["history"], players)):
        if other == seat:
            continue
        held = sum(slot.count or 0 for slot in slots[1:])
        if held > counts[other]:  # an inconsistent history: prove nothing about this seat
            slots = [Slot(counts[other])]
        else:
            slots[0].count = counts[other] - held
        places += [(other, slot) for slot in slots if slot.count]
    return places


def _deal(
    unseen: list[int], places: list[tuple[int, Slot]], rng: random.Random, below: int | None
) -> list[list[int]] | None:
    """Return the tiles of each place (same order) and, last, the boneyard; None when no deal fits."""
    allowed = [
        [t for t in unseen if not slot.void & NUMBERS[t] and (below is None or RANK[t] > below)]
        for _, slot in places
    ]
    if all(len(a) == len(unseen) for a in allowed):  # nothing proven: a uniform deal
        tiles = unseen[:]
        rng.shuffle(tiles)
        out = []
        at = 0
        for _, slot in places:
            out.append(tiles[at : at + (slot.count or 0)])
            at += slot.count or 0
        out.append(tiles[at:])
        return out
    order = sorted(range(len(places)), key=lambda i: len(allowed[i]) - (places[i][1].count or 0))
    for _ in range(TRIES):
        free = set(unseen)
        dealt: list[list[int]] = [[] for _ in places]
        for i in order:
            choices = [t for t in allowed[i] if t in free]
            count = places[i][1].count or 0
            if len(choices) < count:
                break
            dealt[i] = rng.sample(choices, count)
            free.difference_update(dealt[i])
        else:
            stock = [t for t in unseen if t in free]
            rng.shuffle(stock)
            return [*dealt, stock]
    return _matching(unseen, places, allowed, rng)


def _matching(
    unseen: list[int], places: list[tuple[int, Slot]], allowed: list[list[int]], rng: random.Random
) -> list[list[int]] | None:
    """Return a deal by augmenting paths (exact: finds one whenever one exists), or None."""
    seats = [i for i, (_, slot) in enumerate(places) for _ in range(slot.count or 0)]
    rng.shuffle(seats)
    owner = max_matching([allowed[seat] for seat in seats], rng.shuffle)  # tile -> position in seats
    if len(owner) < len(seats):
        return None
    dealt: list[list[int]] = [[] for _ in places]
    for t, k in owner.items():
        dealt[seats[k]].append(t)
    stock = [t for t in unseen if t not in owner]
    rng.shuffle(stock)
    return [*dealt, stock]


def _rule_opened(view: DominoesView) -> bool:
    """Tell whether the hand in progress opens by the highest-double rule (not by the last winner)."""
    number = view["hand_number"]
    earlier = [r for r in view["hand_results"] if r["hand"] == number - 1]
    return number == 1 or not earlier or earlier[-1]["winner"] is None


def sample(view: DominoesView, rng: random.Random) -> DominoesState:
    """Return a full state whose ``view(seat)`` is ``view``, the unseen tiles dealt at random (see the module notes)."""
    if view.get("game") != "dominoes":
        raise ValueError(f"not a dominoes view: {view.get('game')!r}")
    given: Mapping[str, Any] = view["options"]
    options = resolve_options(**{k: given[k] for k in OPTION_NAMES if k in given})
    players = options["players"]
    fives = options["scoring"] == "fives"
    seat = view["seat"]
    mine = [_tile_of(t) for t in view["hand"]]
    line = cast("list[tuple[int, int]]", [tuple(piece["tile"]) for piece in view["line"]])
    layout: Mapping[str, Any] = view.get("layout") or {}
    north = [tuple(piece["tile"]) for piece in layout.get("north", ())]
    south = [tuple(piece["tile"]) for piece in layout.get("south", ())]
    results = [_check_result(r, players) for r in view["hand_results"]]
    # Once over, the hands are public in the last hand's result, unless All Fives ended mid-hand.
    over = view["over"] and bool(results) and results[-1]["hand"] == view["hand_number"]
    events = [(_check_fives_event if fives else _check_event)(e, players) for e in view["history"]]
    known = set(mine) | {_tile_of(p) for p in line + north + south}
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[seat] = mine
    if over:
        # Every hand is shown in the last hand's result; only the boneyard's order is unknown.
        for other, hand in enumerate(results[-1]["hands"]):
            if other != seat:
                hands[other] = [_tile_of(t) for t in hand]
                known.update(hands[other])
        stock = [t for t in range(TILE_COUNT) if t not in known]
        rng.shuffle(stock)
    else:
        unseen = [t for t in range(TILE_COUNT) if t not in known]
        places = _places(view, seat, len(unseen))
        opening_rule = not line and _rule_opened(view)
        opener = view["turn"]
        dealt = None
        if opening_rule and opener != seat:
            # The opener holds the highest tile dealt: deal, and keep the first deal where it does.
            top = min(RANK[t] for t in mine) if mine else TILE_COUNT
            for _ in range(TRIES * 4):
                dealt = _deal(unseen, places, rng, None)
                if dealt is None:
                    break
                best = min((RANK[t] for d in dealt[:-1] for t in d), default=TILE_COUNT)
                if best < top and any(
                    RANK[t] == best for i, d in enumerate(dealt[:-1]) if places[i][0] == opener for t in d
                ):
                    break
            else:
                dealt = None
            if dealt is None:
                raise ValueError("no deal fits this view")
        else:
            below = min(RANK[t] for t in mine) if opening_rule and mine else None
            dealt = _deal(unseen, places, rng, below)
            if dealt is None:
                raise ValueError("no deal fits this view")
        for (other, _), tiles in zip(places, dealt):
            hands[other] += tiles
        stock = dealt[-1]
    state = DominoesState.__new__(FivesState if fives else DominoesState)
    state.options = options
    state._start(players, random.Random(derive_seed(rng)))
    state.turn_number = view["turn_number"]
    state._floor = state.turn_number
    state.scores = list(view["scores"]) if view["scores"] is not None else [0] * players
    state.hand_number = view["hand_number"]
    state._results = list(results)
    state._caches()
    state._events = events
    state._outcome = None if view["outcome"] is None else Outcome.from_dict(view["outcome"])
    masks = [tiles_mask(h) for h in hands]
    if view["turn"] is None:
        turn = events[-1][0] if events else 0
    else:
        turn = view["turn"]
    opening_tile = -1
    if _rule_opened(view):
        if not line:
            dealt_mask = 0
            for mask in masks:
                dealt_mask |= mask
            opening_tile = next(t for t in OPENING_ORDER if dealt_mask >> t & 1)
        else:
            first = next((e for e in events if not DRAW <= e[1] <= PASS), None)
            opening_tile = (first[1] & CODE_MASK) >> 1 if first is not None else -1
    table = (FivesTable if fives else Table)(players, options["draw"], masks, stock, turn, opening_tile)
    table.line = line
    if line:
        table.left = line[0][0]
        table.right = line[-1][1]
    if isinstance(table, FivesTable) and layout.get("spinner") is not None:
        at = layout["spinner"]
        table.spinner = line[at][0]
        table.left_arm = at
        table.right_arm = len(line) - 1 - at
        table.north = north
        table.south = south
    passes = 0
    for event in reversed(events):
        if event[1] != PASS:
            break
        passes += 1
    table.passes = passes
    if over:
        last = results[-1]
        table.ended = last["ended"]
        table.winner = last["winner"] if last["ended"] == OUT else None
        assert table.ended in (OUT, BLOCKED)
    state.table = table
    return state
