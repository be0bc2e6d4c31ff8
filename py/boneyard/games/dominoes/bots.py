"""Computer players for dominoes; each reads only ``state.view(seat)``.

- ``easy``: any legal tile at random.
- ``medium``: doubles and heavy tiles first (fewer pips in hand if the line jams), and it keeps a
  tile that follows the ends it leaves, so a player before it who blocks does not starve it; it
  remembers nothing of the rivals.
- ``expert``: ``boneyard.ai``'s search (determinized Monte Carlo with Hard-like rollouts), which
  registers itself as the game's level when imported (this module does not import the AI).
- ``hard``: as medium, and it remembers which numbers each rival could not match (drew or passed on),
  from the public history, and prefers plays that leave those numbers on the ends, above all against
  the next player (at three or four seats without partners it weighs that squeeze less, and the later
  rivals not at all, and plays its own hand more). It also counts the tiles of each number already seen
  (line and own hand), keeps a spread of numbers in its own hand, and keeps a tile that fits the ends it
  leaves. With a partner
  (``teams``) a lay that leaves the partner unable to follow counts against it instead.

All Fives (``scoring="fives"``; ``Layout`` reads the spinner's arms and the count from the view):

- ``medium`` takes the biggest score the count gives now, then doubles and heavy tiles, keeping a tile
  that follows.
- ``hard`` also weighs what the next player is expected to score in reply on the layout it leaves (from
  the unseen tiles, without the numbers it is known to lack), leaves numbers it lacks on the arms (the
  voids read from passes and draws over every open arm), and keeps a score of its own for later; with a
  partner it avoids leaving only numbers the partner lacks and keeps open the numbers the partner showed
  (``partner_signals``: what it laid this hand and never passed on). At three or four seats without
  partners (``H_MANY``) it sheds doubles and heavy tiles sooner, blocks the next player harder and the
  rivals after it a little, and weighs the next player's reply less.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from math import comb
from typing import Any

from ...core import random_bot
from .rules import Move, parse_move

__all__ = [
    "BOTS",
    "Layout",
    "easy_bot",
    "hard_bot",
    "medium_bot",
    "partner_signals",
    "rival_voids",
]


def _forced(view: Mapping[str, Any]) -> Move | None:
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


def _walk(
    view: Mapping[str, Any],
    rng: random.Random,
    tastes: tuple[float, float, float, float],
    rivals: Callable[[float, tuple[int, int]], float] | None = None,
) -> Move:
    """Score every lay of a line-game view and return the best, a tie broken by the generator.

    ``tastes``: the weights of a double, a pip, a tile kept that follows the ends left (capped at
    two) and a distinct number kept in hand; ``rivals`` adds to a lay's score what it does to the
    others (given the score so far and the ends it leaves). Medium and Hard share this walk.
    """
    w_double, w_pips, w_follow, w_spread = tastes
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
        score = w_double * (high == low) + w_pips * (high + low)
        if rivals is not None:
            score = rivals(score, after)
        follow = sum(1 for t in left_hand if t[0] in after or t[1] in after)
        score += w_follow * min(follow, 2)
        score += w_spread * len({n for t in left_hand for n in t})
        if best_score is None or score > best_score + 1e-9:
            best_score = score
            choices = [move]
        elif abs(score - best_score) <= 1e-9:
            choices.append(move)
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def medium_bot(view: Mapping[str, Any], rng: random.Random) -> Move:
    """Lay doubles and heavy tiles first, keeping a tile that follows; draw or pass only when forced."""
    only = _forced(view)
    if only is not None:
        return only
    if view.get("layout") is not None:
        return _fives_medium(view, rng)
    return _walk(view, rng, (M_DOUBLE, M_PIPS, M_FOLLOW, M_SPREAD))


def rival_voids(view: Mapping[str, Any]) -> list[set[int]]:
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
W_PARTNER_STUCK = 8.0  # with a partner: the chance the partner cannot follow counts against a lay
W_FOLLOW = 2.0  # own tiles left that fit the ends we leave (capped at two)
W_SPREAD = 1.0  # distinct numbers left in own hand
W_DOUBLE = 6.0  # medium's taste: doubles first
W_PIPS = 0.6  # medium's taste: heavy tiles first
# At three or four seats without partners, squeezing the next player pays Hard no more than it pays the
# players after that one (the seat before Hard gained as much from it as Hard did, and sat above it in
# matches), so Hard squeezes it less and plays its own hand more: measured over every cyclic seating
# (seed 12), in docs/ai.md.
W_NEXT_STUCK_MANY = 15.0
W_OTHER_STUCK_MANY = 0.0


def _stuck_chance(
    ends: tuple[int, ...], pool: list[tuple[int, int]], void: set[int], hand_count: int
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


def hard_bot(view: Mapping[str, Any], rng: random.Random) -> Move:
    """Play like medium, but leave on the ends the numbers rivals lack, above all the next player."""
    only = _forced(view)
    if only is not None:
        return only
    if view.get("layout") is not None:
        return _fives_hard(view, rng)
    me = view["seat"]
    partner = view.get("partner")
    players = view["players"]
    seen = {tuple(t) for t in view["hand"]}
    for piece in view["line"]:
        a, b = piece["tile"]
        seen.add((max(a, b), min(a, b)))
    pool = [
        (a, b) for a in range(7) for b in range(a + 1) if (a, b) not in seen
    ]  # rivals' hands and boneyard
    voids = rival_voids(view)
    counts = view["hand_counts"]
    many = players >= 3 and partner is None
    w_next = W_NEXT_STUCK_MANY if many else W_NEXT_STUCK
    w_other = W_OTHER_STUCK_MANY if many else W_OTHER_STUCK

    def rivals(score: float, after: tuple[int, int]) -> float:
        for step in range(1, players):
            rival = (me + step) % players
            if rival == partner:
                score -= W_PARTNER_STUCK * _stuck_chance(after, pool, voids[rival], counts[rival])
            elif step == 1 or w_other:
                stuck = _stuck_chance(after, pool, voids[rival], counts[rival])
                score += (w_next if step == 1 else w_other) * stuck
        return score

    return _walk(view, rng, (W_DOUBLE, W_PIPS, W_FOLLOW, W_SPREAD), rivals)


# ----------------------------------------------------------------------------------------------
# All Fives (``scoring="fives"``): the count decides most points, so Medium and Hard weigh it.


@dataclass(frozen=True, slots=True)
class Layout:
    """What an All Fives layout shows a bot: the number open on each arm and what the count reads.

    ``ends``: the number each arm L, R, N, S takes (-1: closed); ``doubles``: whether the piece at that
    arm's end is a double lying crosswise (it counts both halves); ``laid``: whether the arm has a
    tile (L and R: a side of the spinner; before any double every lay is on the line); ``spinner``:
    the spinner's number (-1: no double laid yet).
    """

    ends: tuple[int, ...]
    doubles: tuple[bool, ...]
    laid: tuple[bool, ...]
    spinner: int

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> Layout:
        """Return the layout of an All Fives view."""
        layout = view["layout"]
        line = view["line"]
        at = layout["spinner"]
        named = layout["ends"]
        ends = tuple(-1 if named[name] is None else named[name] for name in ("L", "R", "N", "S"))
        if at is None:
            return cls(ends, (False,) * 4, (False,) * 4, -1)
        north, south = layout["north"], layout["south"]
        laid = (at > 0, at < len(line) - 1, bool(north), bool(south))
        doubles = (
            laid[0] and line[0]["double"],
            laid[1] and line[-1]["double"],
            laid[2] and north[-1]["double"],
            laid[3] and south[-1]["double"],
        )
        return cls(ends, doubles, laid, line[at]["tile"][0])

    def count(self) -> int:
        """Return the count (docs/architecture.md, "All Fives": the sum of the open arms' end numbers)."""
        ends = self.ends
        if ends[0] < 0:
            return 0
        spinner = self.spinner
        if spinner < 0:
            return ends[0] + ends[1]  # no double yet: the line's two ends
        laid = self.laid
        doubles = self.doubles
        total = 0
        for arm in (0, 1):
            if laid[arm]:
                total += ends[arm] * (2 if doubles[arm] else 1)
        if not (laid[0] and laid[1]):
            return total + 2 * spinner  # the spinner counts both halves while a side is free
        for arm in (2, 3):
            if laid[arm]:
                total += ends[arm] * (2 if doubles[arm] else 1)
        return total

    def numbers(self) -> set[int]:
        """Return the numbers that can be matched (every open arm's)."""
        return {n for n in self.ends if n >= 0}

    def lay(self, tile: tuple[int, int], arm: int) -> Layout:
        """Return the layout after laying ``tile`` on ``arm`` (0..3: L, R, N, S; the opening: any)."""
        high, low = tile
        ends = list(self.ends)
        if ends[0] < 0:  # the opening tile
            if high == low:
                return Layout((high, high, -1, -1), (False,) * 4, (False,) * 4, high)
            return Layout((high, low, -1, -1), (False,) * 4, (False,) * 4, -1)
        number = ends[arm]
        free = low if high == number else high
        doubles = list(self.doubles)
        laid = list(self.laid)
        spinner = self.spinner
        if spinner < 0 and high == low:  # the first double: the spinner, its far side still free
            laid = [arm == 1, arm == 0, False, False]
            ends[arm] = high
            return Layout(tuple(ends), (False,) * 4, tuple(laid), high)
        ends[arm] = free
        doubles[arm] = high == low
        laid[arm] = spinner >= 0
        if spinner >= 0 and laid[0] and laid[1] and ends[2] < 0:
            ends[2] = ends[3] = spinner  # both sides taken: the spinner's ends open
        return Layout(tuple(ends), tuple(doubles), tuple(laid), spinner)

    def best_score(self, tile: tuple[int, int]) -> int:
        """Return the most a lay of ``tile`` scores here (0: it scores nothing or does not fit)."""
        best = 0
        high, low = tile
        for arm, number in enumerate(self.ends):
            if number < 0 or (number != high and number != low):
                continue
            count = self.lay(tile, arm).count()
            if count % 5 == 0 and count > best:
                best = count
        return best


ARMS = {"L": 0, "R": 1, "N": 2, "S": 3, None: 0}


def _points(count: int) -> int:
    """Return what a lay that leaves ``count`` scores (a positive multiple of five, else nothing)."""
    return count if count > 0 and count % 5 == 0 else 0


# Medium's weights in All Fives: the biggest score first, then doubles and heavy tiles, as in the line game.
F_POINTS = 2.0  # a point scored now
F_DOUBLE = 6.0
F_PIPS = 0.6
F_FOLLOW = 2.0  # own tiles left that fit what it leaves open (capped at two)


def _fives_medium(view: Mapping[str, Any], rng: random.Random) -> Move:
    """Take the biggest score the count gives now; else lay doubles and heavy tiles, keeping a follower."""
    moves = [parse_move(m) for m in view["legal_moves"]]
    hand = [tuple(t) for t in view["hand"]]
    layout = Layout.of_view(view)
    scored = []
    for move in moves:
        assert move.tile is not None
        high, low = move.tile
        after = layout.lay(move.tile, ARMS[move.end])
        open_numbers = after.numbers()
        left_hand = [t for t in hand if t != move.tile]
        follow = sum(1 for t in left_hand if t[0] in open_numbers or t[1] in open_numbers)
        score = F_POINTS * _points(after.count()) + F_DOUBLE * (high == low) + F_PIPS * (high + low)
        scored.append((score + F_FOLLOW * min(follow, 2), move))
    return _best(scored, rng)


def _best(scored: list[tuple[float, Move]], rng: random.Random) -> Move:
    """Return the best-scored move, a tie broken by the generator."""
    top = max(score for score, _ in scored)
    choices = [move for score, move in scored if score >= top - 1e-9]
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


# Hard's weights in All Fives (tuned in the arena against Medium, two players and two against two).
H_POINTS = 2.0  # a point scored now
H_DENY = 1.2  # a point the next player is expected to score in reply
H_NEXT_STUCK = 14.0  # chance the next player matches no open number (it draws or passes)
H_PARTNER_STUCK = 10.0  # the same for the partner: a lay that blocks the partner costs this much
H_SIGNAL = 2.0  # an open number the partner showed it holds (it laid it out, and never passed on it)
H_SETUP = 0.4  # a point own tiles left could score on what this lay leaves
H_DOUBLE = 4.0
H_PIPS = 0.5
H_FOLLOW = 2.0
H_SPREAD = 0.5


@dataclass(frozen=True, slots=True)
class FivesWeights:
    """The weights of Hard's All Fives terms that differ with the table (``H_TWO``, ``H_MANY``)."""

    deny: float
    next_stuck: float
    other_stuck: float  # each rival after the next one (no partner)
    setup: float
    double: float
    pips: float
    follow: float
    spread: float


# At three or four seats without partners the same terms, weighed otherwise (tuned on seed 11 against the
# seating Hard, Easy, Easy, Medium, where the seat after two Easys fed Medium more than Hard could deny
# it; checked on fresh seeds over every seating, in docs/ai.md): Hard sheds doubles and heavy tiles
# sooner (five tiles a hand, so one goes out soon and the others pay their pips), blocks the next player
# harder and the rivals after it a little, and weighs less the next player's reply, its own later score,
# its followers and its spread. Two players and partners keep the weights above (``H_TWO``).
H_TWO = FivesWeights(H_DENY, H_NEXT_STUCK, 0.0, H_SETUP, H_DOUBLE, H_PIPS, H_FOLLOW, H_SPREAD)
H_MANY = FivesWeights(
    deny=0.6, next_stuck=28.0, other_stuck=10.0, setup=0.2, double=8.0, pips=1.0, follow=1.0, spread=0.0
)


def _expected_best(layout: Layout, pool: list[tuple[int, int]], void: set[int], hand_count: int) -> float:
    """Return the points a rival holding ``hand_count`` of the unseen tiles is expected to score in reply.

    Each unseen tile it could hold (none showing a number it lacks) is held with the same chance;
    its best scoring lay is taken when it holds it and no better one.
    """
    candidates = [t for t in pool if t[0] not in void and t[1] not in void]
    if not candidates or hand_count <= 0:
        return 0.0
    held = min(1.0, hand_count / len(candidates))
    gains = sorted((g for g in (layout.best_score(t) for t in candidates) if g), reverse=True)
    expected = 0.0
    none_better = 1.0
    for gain in gains:
        expected += gain * held * none_better
        none_better *= 1.0 - held
    return expected


def partner_signals(view: Mapping[str, Any], partner: int) -> set[int]:
    """Return the numbers the partner showed it holds: the free halves it laid out this hand."""
    shown: set[int] = set()
    for event in view["history"]:
        if event["seat"] == partner and event.get("tile") is not None:
            shown.update(event["tile"])
    for event in view["history"]:
        if event["seat"] == partner and event["move"] in ("draw", "pass"):
            shown.difference_update(event["ends"])
    return shown


def _fives_hard(view: Mapping[str, Any], rng: random.Random) -> Move:
    """Score the count, deny the next player its reply, read voids, and play with the partner."""
    moves = [parse_move(m) for m in view["legal_moves"]]
    me = view["seat"]
    players = view["players"]
    partner = view["partner"]
    hand = [tuple(t) for t in view["hand"]]
    seen = set(hand)
    pieces = [*view["line"], *view["layout"]["north"], *view["layout"]["south"]]
    for piece in pieces:
        a, b = piece["tile"]
        seen.add((max(a, b), min(a, b)))
    pool = [(a, b) for a in range(7) for b in range(a + 1) if (a, b) not in seen]
    voids = rival_voids(view)
    counts = view["hand_counts"]
    nxt = (me + 1) % players
    signals = partner_signals(view, partner) - voids[partner] if partner is not None else set()
    layout = Layout.of_view(view)
    w = H_MANY if players >= 3 and partner is None else H_TWO
    later = [(me + step) % players for step in range(2, players)] if w.other_stuck else []
    scored = []
    for move in moves:
        assert move.tile is not None
        high, low = move.tile
        after = layout.lay(move.tile, ARMS[move.end])
        open_numbers = tuple(after.numbers())
        left_hand = [t for t in hand if t != move.tile]
        score = H_POINTS * _points(after.count()) + w.double * (high == low) + w.pips * (high + low)
        if left_hand:
            score -= w.deny * _expected_best(after, pool, voids[nxt], counts[nxt])
            score += w.next_stuck * _stuck_chance(open_numbers, pool, voids[nxt], counts[nxt])
            for rival in later:
                score += w.other_stuck * _stuck_chance(open_numbers, pool, voids[rival], counts[rival])
            if partner is not None:
                score -= H_PARTNER_STUCK * _stuck_chance(open_numbers, pool, voids[partner], counts[partner])
                score += H_SIGNAL * sum(1 for n in after.ends if n in signals)
            score += w.setup * max((after.best_score(t) for t in left_hand), default=0)
        follow = sum(1 for t in left_hand if t[0] in open_numbers or t[1] in open_numbers)
        score += w.follow * min(follow, 2) + w.spread * len({n for t in left_hand for n in t})
        scored.append((score, move))
    return _best(scored, rng)


BOTS = {"easy": easy_bot, "medium": medium_bot, "hard": hard_bot}
