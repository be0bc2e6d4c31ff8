"""What the search knows of Dominoes: a Hard-like rollout policy, the model of rivals' plays, the values.

- ``policy``: in a rollout every seat plays like Hard, on the deal: go out when it can, else leave
  ends the next seat cannot match, keep a tile that follows, doubles and heavy tiles first.
- ``weight``: how likely each rival's lays in this hand were, had it held the deal's tiles then: a
  rival tends to lay doubles and heavy tiles first (what Medium and Hard do, and most people), so a
  rival who laid 2-1 with the ends showing 6 and 5 probably held no heavy tile that fitted. The
  model mixes that taste (a softmax over pips and doubles) with a uniform choice, so a player of
  another style only makes the deals a little less sharp. It reads the lays after which the rival
  has not drawn (its hand then is its hand now plus what it laid since).
- ``value``: a single round is worth the seat's share of the win (1, a tie split, 0); in a match a
  rollout stops when the hand ends, and the scores are turned into the chance of winning the match
  (``match_chance``), so points, not only hands, count; the match's end is worth 1 or 0.
- ``exact``: with the boneyard empty (or the block game) and few tiles in hand, two-player deals
  are solved exactly.
- All Fives: the rollouts score the count (a lay that scores, the more the better, then what the line
  game's policy likes); the model of the rivals' lays knows what each lay could have scored (a rival
  who could have scored 15 and laid a tile that scored nothing probably had no such tile), and the
  match's race is counted in All Fives' bigger points. Partnerships: the partner's score is the
  seat's, a side's win is worth 1 to both partners, and only the other side's score is the rival's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..games.dominoes.bots import ARMS, Layout, rival_voids
from ..games.dominoes.rules import (
    ARM,
    ENDS_MASK,
    NUMBER_MASK,
    OPEN,
    PIPS,
    TILE_ID,
    TILES,
    DominoesState,
    Move,
    parse_move,
)
from .search import lay_likelihood

__all__ = ["FEATURES", "DominoesFeatures", "FivesArms", "match_chance"]

EXACT_TILES = 9  # solve a two-player deal exactly when the hands hold this many tiles or fewer
MODEL_MIX = 0.35  # the share of a rival's choices the model takes as uniform
MODEL_DOUBLE = 1.5  # the model's taste for doubles, in softmax units
MODEL_PIP = 0.3  # and for pips
TASTE = tuple(math.exp(MODEL_DOUBLE * (a == b) + MODEL_PIP * (a + b)) for a, b in TILES)
DOUBLE = tuple(a == b for a, b in TILES)
MODEL_SCORE = 0.25  # All Fives: the model's taste for a lay's points, in softmax units a point
FIVES_HAND = (
    2.5  # All Fives: a hand's points against the line game's (57 against 22 between Hards; the race's scale)
)
POLICY_POINTS = 3.0  # All Fives rollouts: a point scored, against the line game's tastes


def match_chance(need_me: int, need_other: int, scale: float = 1.0) -> float:
    """Return the chance of winning a match when the seat needs ``need_me`` points and its best rival
    ``need_other`` (a race of hands worth some 20 points each, ``scale`` times that; even when the
    needs are equal)."""
    if need_me <= 0:
        return 1.0
    if need_other <= 0:
        return 0.0
    spread = 14.0 * scale * math.sqrt(1.0 + min(need_me, need_other) / (25.0 * scale))
    return 1.0 / (1.0 + math.exp(-(need_other - need_me) / spread))


class _Context:
    """What one search reads from the view once."""

    __slots__ = (
        "decisions",
        "fives",
        "hand_number",
        "match",
        "opponents",
        "players",
        "scale",
        "target",
        "teams",
    )

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.players: int = view["players"]
        self.target: int | None = view["target"]
        self.match = self.target is not None
        self.hand_number: int = view["hand_number"]
        options = view.get("options") or {}
        self.fives = options.get("scoring") == "fives"
        self.teams = bool(options.get("teams"))
        self.scale = FIVES_HAND if self.fives else 1.0
        me = view["seat"]
        self.opponents = tuple(
            s for s in range(self.players) if s != me and not (self.teams and s % 2 == me % 2)
        )
        self.decisions = _decisions(view, self.fives)


def _fives_taste(layout: Layout) -> tuple[float, ...]:
    """Return the model's taste of every tile on an All Fives layout: doubles, pips and the points it scores."""
    return tuple(TASTE[t] * math.exp(MODEL_SCORE * layout.best_score(TILES[t])) for t in range(len(TILES)))


def _decisions(
    view: Mapping[str, Any], fives: bool = False
) -> list[tuple[int, int, int, int, Sequence[float]]]:
    """Return the rivals' lays worth weighing: (seat, ends mask or -1 at the opening, tile, tiles it laid
    since, the model's taste of the tiles then)."""
    me = view["seat"]
    history = view["history"]
    ends: tuple[int, int] | None = None
    layout = Layout((-1, -1, -1, -1), (False,) * 4, (False,) * 4, -1)
    raw: list[tuple[int, int, int, int, Sequence[float]]] = []  # (seat, ends mask, tile, index, taste)
    for index, event in enumerate(history):
        move = event["move"]
        if move in ("draw", "pass"):
            continue
        a, b = event["tile"]
        tile = TILE_ID[(max(a, b), min(a, b))]
        high, low = TILES[tile]
        taste: Sequence[float] = TASTE
        if fives:
            opening = layout.ends[0] < 0
            mask = -1 if opening else _numbers_mask(layout.numbers())
            if event["seat"] != me and not opening:
                taste = _fives_taste(layout)
            layout = layout.lay((high, low), ARMS[event["end"]])
        elif ends is None:
            mask = -1
            ends = (high, low)
        else:
            mask = ENDS_MASK[ends[0] * 7 + ends[1]]
            left, right = ends
            if event["end"] == "L":
                ends = (low if high == left else high, right)
            else:
                ends = (left, low if high == right else high)
        if event["seat"] != me:
            raw.append((event["seat"], mask, tile, index, taste))
    out = []
    for seat, mask, tile, index, taste in raw:
        later = history[index:]
        if any(e["seat"] == seat and e["move"] == "draw" for e in later):
            continue  # it drew since: its hand then is not known from its hand now
        if mask == -1 and not view["hand_results"]:
            continue  # the first hand opens with the highest double: no choice
        laid = 0
        for e in later:
            if e["seat"] == seat and e["move"] not in ("draw", "pass"):
                a, b = e["tile"]
                laid |= 1 << TILE_ID[(max(a, b), min(a, b))]
        out.append((seat, mask, tile, laid, taste))
    return out


def _numbers_mask(numbers: set[int]) -> int:
    """Return the tiles that show at least one of ``numbers``."""
    mask = 0
    for n in numbers:
        mask |= NUMBER_MASK[n]
    return mask


def _pick(
    moves: Sequence[Move], lays: Sequence[tuple[int, int, float]], hand: int, nxt: int, rng: random.Random
) -> Move:
    """Return the rollout's move among ``moves``, each lay given as (tile, the tiles that fit after it,
    a bonus): go out, else leave what the next hand cannot match, keep a follower, doubles and pips."""
    best = moves[0]
    best_score = -1.0
    for move, (t, fits, bonus) in zip(moves, lays, strict=True):
        rest = hand & ~(1 << t)
        if not rest:
            return move
        score = 6.0 * DOUBLE[t] + 0.6 * PIPS[t] + rng.random() * 0.5 + bonus
        if not nxt & fits:
            score += 40.0
        if rest & fits:
            score += 4.0
        if score > best_score:
            best, best_score = move, score
    return best


class FivesArms:
    """An All Fives table's arms read once, to tell fast what each lay would make the count."""

    __slots__ = ("ends", "laid", "spinner", "worth")

    def __init__(self, table: Any) -> None:
        self.ends = ends = table.arm_ends()
        self.spinner = spinner = table.spinner
        self.laid = laid = (table.left_arm > 0, table.right_arm > 0, bool(table.north), bool(table.south))
        line = table.line
        worth = [0, 0, 0, 0]  # what each arm's end adds to the count now (with a spinner)
        if spinner >= 0 and ends[0] >= 0:
            if laid[0]:
                a, b = line[0]
                worth[0] = a + b if a == b else a
            if laid[1]:
                a, b = line[-1]
                worth[1] = a + b if a == b else b
            for arm, pieces in ((2, table.north), (3, table.south)):
                if pieces:
                    a, b = pieces[-1]
                    worth[arm] = a + b if a == b else b
        self.worth = worth

    def lay(self, code: int) -> tuple[int, int, int]:
        """Return (tile, the count after it, the tiles that fit the layout after it) of a lay's code."""
        if code >= ARM:
            arm = 2 + (code & 1)
            t = (code - ARM) >> 1
        elif code >= OPEN:
            t = (code - OPEN) >> 1
            high, low = TILES[t]
            return t, high + low, NUMBER_MASK[high] | NUMBER_MASK[low]  # the opening tile
        else:
            arm = code & 1
            t = code >> 1
        high, low = TILES[t]
        ends = self.ends
        spinner = self.spinner
        laid = self.laid
        worth = self.worth
        free = low if high == ends[arm] else high
        here = 2 * free if high == low else free
        fits = NUMBER_MASK[free]
        for other in range(4):
            if other != arm and ends[other] >= 0:
                fits |= NUMBER_MASK[ends[other]]
        if spinner < 0:
            count = ends[1 - arm] + (2 * high if high == low else free)
        elif arm >= 2 or (laid[0] and laid[1]):
            count = sum(worth) - worth[arm] + here
        elif laid[1 - arm]:  # this lay takes the spinner's last free side: its ends open
            count = worth[1 - arm] + here
            fits |= NUMBER_MASK[spinner]
        else:
            count = here + 2 * spinner
        return t, count, fits


class DominoesFeatures:
    """The search's view of Dominoes (see the module notes)."""

    game = "dominoes"

    def prepare(self, view: Mapping[str, Any]) -> _Context:
        """Read the rivals' decisions and the match from the view."""
        return _Context(view)

    def weight(self, context: _Context, state: DominoesState) -> float:
        """Return the model's likelihood of the rivals' lays on this deal."""
        hands = state.table.hands
        weight = 1.0
        for seat, mask, tile, laid, taste in context.decisions:
            held = hands[seat] | laid
            weight *= lay_likelihood(held & mask if mask >= 0 else held, tile, taste, MODEL_MIX)
        return weight

    def policy(self, state: DominoesState, rng: random.Random) -> Move:
        """Return Hard's kind of move, read on the deal (it sees the next hand: a rollout is a guess)."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if state.FIVES:
            return self._fives_policy(state, moves, rng)
        table = state.table
        me = table.turn
        players = table.players
        hand = table.hands[me]
        nxt = table.hands[me + 1 if me + 1 < players else 0]
        left = table.left
        right = table.right
        lays = []
        for move in moves:
            tile = move.tile
            assert tile is not None
            high, low = tile
            if left < 0:
                a, b = high, low
            elif move.end == "L":
                a, b = (low if high == left else high), right
            else:
                a, b = left, (low if high == right else high)
            lays.append((TILE_ID[tile], ENDS_MASK[a * 7 + b], 0.0))
        return _pick(moves, lays, hand, nxt, rng)

    def _fives_policy(self, state: DominoesState, moves: list[Move], rng: random.Random) -> Move:
        """Return an All Fives rollout move: the biggest score first, then the line game's tastes."""
        table: Any = state.table
        me = table.turn
        hand = table.hands[me]
        nxt = table.hands[me + 1 if me + 1 < table.players else 0]
        arms = FivesArms(table)
        lays = []
        for move in moves:
            t, count, fits = arms.lay(move._code)
            lays.append((t, fits, POLICY_POINTS * count if count % 5 == 0 else 0.0))
        return _pick(moves, lays, hand, nxt, rng)

    def stop(self, state: DominoesState, context: _Context) -> bool:
        """Tell whether the game is over or, in a match, the hand searched from has ended."""
        return state._outcome is not None or state.hand_number != context.hand_number

    def value(self, state: DominoesState, seat: int, context: _Context) -> float:
        """Return the seat's share of the win, or in a match its chance of winning the match."""
        outcome = state._outcome
        if outcome is not None:
            winners = outcome.winners
            if seat not in winners:
                return 0.0
            return 1.0 if outcome.side else 1.0 / len(winners)
        target = context.target
        assert target is not None
        scores = state.scores
        best_other = max(scores[i] for i in context.opponents)
        return match_chance(target - scores[seat], target - best_other, context.scale)

    def exact(self, state: DominoesState) -> bool:
        """Tell whether the deal is small enough to solve: nothing to draw and few tiles in hand."""
        table = state.table
        if table.draw_game and table.stock:
            return False
        return sum(h.bit_count() for h in table.hands) <= EXACT_TILES

    def explain(self, view: Mapping[str, Any], result: Any, names: Sequence[str] | None) -> str:
        """Return why the search prefers its move, in a player's words."""
        text = result.move
        move = parse_move(text)
        ranked = result.ranked()
        best = result.stats[text]
        others = [s for s in ranked if s.move != text]
        odds = ""
        if others:
            goal = "the match" if view["target"] is not None else "the hand"
            odds = (
                f" The search gives you about {round(100 * best.mean)}% to win {goal} with it,"
                f" {round(100 * others[0].mean)}% with {others[0].move}."
            )
        if move.tile is None:
            return f"{text}: nothing in your hand fits."
        hand = [tuple(t) for t in view["hand"]]
        if len(hand) == 1:
            return f"{text} is your last tile: it wins the hand."
        if result.exact and result.exact == result.deals and best.mean >= 0.999:
            return f"{text} wins whatever the others hold: the search played every ending out."
        players = view["players"]
        seat = view["seat"]
        nxt = (seat + 1) % players
        name = (
            names[nxt]
            if names and nxt < len(names)
            else ("your opponent" if players == 2 else "the next player")
        )
        ends = view["open_ends"]
        high, low = move.tile
        after: tuple[int, ...]
        if view.get("layout") is not None:  # All Fives: the count first, then every open arm
            laid = Layout.of_view(dict(view)).lay(move.tile, ARMS[move.end])
            count = laid.count()
            if count and count % 5 == 0:
                side = "your side" if view.get("partner") is not None else "you"
                return f"{text} makes the count {count}: {count} points for {side}.{odds}"
            after = tuple(n for n in laid.ends if n >= 0)
        elif ends is None:
            after = (high, low)
        elif move.end == "L":
            after = (low if high == ends[0] else high, ends[1])
        else:
            after = (ends[0], low if high == ends[1] else high)
        void = rival_voids(dict(view))[nxt]
        shown = sorted(set(after))
        lacking = [n for n in shown if n in void]
        if len(after) > 2:
            where = ", ".join(str(n) for n in after[:-1]) + f" and {after[-1]} open"
        else:
            where = f"{after[0]} and {after[1]}" if after[0] != after[1] else f"{after[0]} at both ends"
        if lacking and len(lacking) == len(shown):
            numbers = " or ".join(str(n) for n in lacking)
            return (
                f"{text} leaves {where}: {name} could not play on {numbers}, so probably cannot follow.{odds}"
            )
        if lacking:
            return f"{text} leaves {where}: {name} could not play on {lacking[0]} before.{odds}"
        doubles = [t for t in hand if t[0] == t[1]]
        if high == low and doubles and max(doubles) == (high, low):
            return f"{text} lays your heaviest double before the line closes on it.{odds}"
        mine = [t for t in hand if t != (high, low)]
        follow = [t for t in mine if t[0] in after or t[1] in after]
        if follow and len(others) and best.mean - others[0].mean > 0.02:
            return f"{text} keeps {len(follow)} of your tiles playable on the ends it leaves.{odds}"
        return f"{text} sheds {high + low} pips and keeps your chances best.{odds}"


FEATURES = DominoesFeatures()
