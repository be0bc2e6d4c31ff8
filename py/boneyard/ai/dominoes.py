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
  rollout stops when the hand ends, and the scores are turned into the chance of winning the match,
  so points, not only hands, count; the match's end is worth 1 or 0. Two players (pips): the match
  table (``MatchTable``: both needs and who leads the next hand, by dynamic programming over hands
  between Hards, so the pips won, the leader's edge near the target and the lead itself are priced);
  otherwise the logistic ``match_chance``.
- ``key``: what decides an endgame position's value within the hand (every hand, the ends, the turn,
  the passes in a row, the boneyard's size): the exact solver's positions are kept by it, between
  the root moves, the deals and the seat's moves of a hand (in a two-player draw game with the
  boneyard empty every deal is the same, so the next move finds most of its endgame solved).
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
from collections.abc import Iterator, Mapping, Sequence
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
    _Result,
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
MATCH_NEEDS = 100  # the match table covers needs up to this at least (a bigger target: a bigger table)


# Hands between two Hards in a two-player match, the leader opening with any tile (18,601 draw-game and
# 23,635 block-game hands): the hands, the ties, and how often the leader (then the other seat) won the
# hand with each number of points (the index). The match table (``MatchTable``) is built from them.
# fmt: off
HAND_POINTS: dict[bool, tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {
    True: (18601, 243, (
        176, 156, 326, 241, 390, 301, 480, 304, 400, 243, 433, 225, 386, 228, 266, 199, 221, 211, 245, 206,
        233, 207, 230, 192, 194, 152, 170, 149, 139, 127, 143, 132, 134, 117, 118, 103, 132, 117, 127, 91,
        98, 74, 97, 94, 82, 69, 83, 72, 79, 62, 61, 51, 51, 50, 49, 40, 41, 44, 43, 37, 36, 30, 34, 32, 38,
        28, 19, 20, 26, 19, 21, 17, 22, 16, 13, 19, 15, 16, 15, 8, 13, 8, 13, 11, 12, 7, 15, 9, 11, 13, 8,
        4, 9, 3, 3, 10, 4, 5, 2, 3, 6, 4, 7, 2, 3, 6, 3, 4, 1, 3, 2, 0, 1, 1, 3, 0, 1,
    ), (
        128, 123, 245, 195, 316, 244, 350, 220, 307, 204, 298, 160, 297, 168, 200, 173, 209, 132, 170, 124,
        161, 138, 155, 132, 165, 111, 128, 109, 143, 107, 104, 92, 100, 85, 90, 92, 92, 72, 99, 70, 65, 59,
        73, 48, 53, 58, 51, 47, 53, 41, 63, 49, 38, 37, 29, 25, 31, 25, 35, 30, 21, 17, 20, 17, 16, 23, 19,
        12, 22, 11, 10, 23, 11, 11, 9, 7, 10, 6, 11, 4, 14, 6, 7, 2, 5, 3, 4, 3, 7, 5, 5, 2, 2, 1, 0, 3, 2,
        3, 3, 2, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    )),  # the draw game
    False: (23635, 571, (
        148, 117, 318, 327, 537, 540, 857, 732, 817, 707, 880, 680, 876, 645, 586, 652, 545, 506, 541, 464,
        385, 366, 308, 293, 239, 241, 207, 204, 138, 133, 126, 88, 94, 67, 70, 75, 56, 52, 48, 35, 31, 21,
        15, 21, 15, 12, 9, 8, 6, 2, 2, 5, 1, 4, 1, 1, 0, 1, 3, 0, 0, 0, 1,
    ), (
        124, 121, 298, 277, 416, 500, 702, 595, 653, 505, 546, 412, 483, 322, 324, 295, 259, 253, 205, 147,
        130, 122, 94, 84, 79, 63, 36, 36, 24, 20, 20, 7, 11, 7, 6, 9, 4, 7, 3, 1, 0, 1, 0, 0, 2, 1, 0, 1,
    )),  # the block game
}
# fmt: on


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


class MatchTable:
    """The chance that the seat leading the next hand wins a two-player match, by the points each needs.

    Built from ``HAND_POINTS`` by dynamic programming over both needs: a hand's winner scores its
    points and leads the next hand (the lead is worth some 4% of the match at 0-0 and 12% when both
    need 10 in the draw game); after a tied hand either seat may open. ``build`` fills it in slices.
    """

    __slots__ = ("lead", "other", "rows", "size", "tie")

    def __init__(self, draw: bool) -> None:
        hands, ties, lead, other = HAND_POINTS[draw]
        self.tie = ties / hands
        self.lead = [c / hands for c in lead]
        self.other = [c / hands for c in other]
        self.size = 0
        self.rows: list[list[float]] = []

    def build(self, top: int) -> Iterator[None]:
        """Fill the table for needs up to ``top`` points (once), yielding every few dozen cells."""
        if self.size >= top:
            return
        size = max(top, MATCH_NEEDS)
        rows = [[0.5] * (size + 1) for _ in range(size + 1)]  # rows[a][b]: the leader needs a, the other b
        lead, other, tie = self.lead, self.other, self.tie
        lead_tail = [sum(lead[n:]) for n in range(size + 2)]  # the leader wins with n points or more
        other_below = [sum(other[:n]) for n in range(size + 2)]  # the other wins with fewer than n
        cells = 0
        for total in range(2, 2 * size + 1):
            level = [(a, total - a) for a in range(max(1, total - size), min(size, total - 1) + 1)]
            for _ in range(2):  # the level's cells lean on one another only through ties and 0-point wins
                for a, b in level:
                    row_b = rows[b]
                    v = lead_tail[a] + other_below[b] + tie * 0.5 * (rows[a][b] + 1.0 - row_b[a])
                    for k in range(min(a, len(lead))):
                        v += lead[k] * rows[a - k][b]
                    for k in range(min(b, len(other))):
                        v -= other[k] * rows[b - k][a]
                    rows[a][b] = v
                    cells += 1
                    if cells % 40 == 0:
                        yield
        self.rows = rows
        self.size = size

    def chance(self, need_me: int, need_other: int, leads: bool | None) -> float:
        """Return the seat's chance of the match: it needs ``need_me``, its rival ``need_other``, and it
        leads the next hand (``leads``; None: either may)."""
        if need_me <= 0:
            return 1.0
        if need_other <= 0:
            return 0.0
        size = self.size
        a = min(need_me, size)
        b = min(need_other, size)
        mine = self.rows[a][b]
        theirs = 1.0 - self.rows[b][a]
        if leads is None:
            return 0.5 * (mine + theirs)
        return mine if leads else theirs


MATCH_TABLES: dict[bool, MatchTable] = {}  # by draw game


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
        "table",
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
        self.table: MatchTable | None = None  # two players, pips, seven tiles: the match table's values
        if self.match and self.players == 2 and not self.fives and options.get("hand_size", 7) == 7:
            draw = bool(options.get("draw", True))
            if draw not in MATCH_TABLES:
                MATCH_TABLES[draw] = MatchTable(draw)
            self.table = MATCH_TABLES[draw]


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

    def warm(self, context: _Context) -> Iterator[None]:
        """Build the match table the values read (once a page), in slices."""
        if context.table is not None and context.target is not None:
            yield from context.table.build(context.target)

    def key(self, state: DominoesState) -> tuple[Any, ...] | None:
        """Return what decides an endgame's value within the hand (None: All Fives, whose count also does)."""
        if state.FIVES:
            return None
        table = state.table
        return (*table.hands, table.left, table.right, table.turn, table.passes, len(table.stock))

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
        table = context.table
        if table is not None:
            last = state._results[-1]
            winner = last.score.winner if isinstance(last, _Result) else last["winner"]
            other = 1 - seat
            leads = None if winner is None else winner == seat
            return table.chance(target - scores[seat], target - scores[other], leads)
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
