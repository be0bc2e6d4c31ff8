"""Dominoes (double-six line of play): the single round and points matches, draw and block game.

One engine covers every mode (docs/architecture.md, "Dominoes"). Its options: ``players`` (2-4), ``hand_size``
(None: 7 for two players, 5 for three or four), ``draw`` (True: draw game, False: block game) and
``target`` (None: a single round; a positive int: a match to that many points).

Layers, one rules path:

- Lookup tables built once at import: a tile is an int 0..27 (its index in ``DOUBLE_SIX``), a hand
  is a 28-bit mask, and what a tile does at an end is a table lookup.
- ``Table``: one hand (deal) in progress, as ints and lists. ``Table.moves()`` lists the legal move
  codes and ``Table.apply(code)`` plays one. The state class, the bots' checks and the benchmark all
  go through these two methods; nothing else implements a rule, except that the classic state's
  ``play``/``undo`` inline the commonest branch (a lay at an end) of ``apply``/``revert`` to save a
  call a move (tests/games/dominoes/test_dominoes_fastpath.py holds the copy to the original).
- ``DominoesState``: the public state of the Engine API (moves as ``Move`` values or text, the
  public history, match scores, ``undo``, ``view``, ``to_dict``/``from_dict``), on ``core.TurnState``.
- ``sample(view, rng)``: a full state consistent with what one seat knows (for a search).

The public path is a hot path (a search plays and takes back millions of moves): every move has one
shared ``Move`` object that carries its code, ``legal_moves()`` is cached until the next move, the
history is kept as tuples and turned into dicts only for ``view``/``to_dict``, and undo records are
tuples. ``view`` builds each history event, hand result and line piece once (cached on the state) and
hands out fresh lists of those shared entries: a caller may keep or change a view's lists, and reads
the entries inside them (copy one before changing it).

Move text: ``6-4`` opens the line, ``6-4:L`` / ``6-4:R`` lays 6-4 at the left / right end,
``draw`` takes one tile from the boneyard, ``pass`` passes.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat, starmap
from typing import Any, ClassVar, NamedTuple, cast

from ...core import (
    IllegalMoveError,
    Outcome,
    Termination,
    TurnState,
    as_move,
    make_rng,
    rng_from_json,
    rng_to_json,
)
from ...tiles import DOUBLE_SIX, Domino, domino_text, parse_domino
from . import views
from .views import DominoesView, Layout, Options, Piece

__all__ = [
    "DRAW",
    "GAME_ID",
    "PASS",
    "TILES",
    "DominoesState",
    "Move",
    "MoveKind",
    "Table",
    "deal",
    "from_dict",
    "new_state",
    "parse_move",
    "resolve_options",
    "score_hand",
]

GAME_ID = "dominoes"

# ----------------------------------------------------------------------------------------------
# Lookup tables, built once.

TILES: tuple[Domino, ...] = DOUBLE_SIX  # tile id -> (high, low); id 0 is 6-6, id 27 is 0-0
TILE_COUNT = len(TILES)
FULL_SET = (1 << TILE_COUNT) - 1
TILE_ID: dict[Domino, int] = {tile: index for index, tile in enumerate(TILES)}
HIGH = tuple(t[0] for t in TILES)
LOW = tuple(t[1] for t in TILES)
PIPS = tuple(t[0] + t[1] for t in TILES)

DRAW = 2 * TILE_COUNT  # move code of "draw"; a lay is tile * 2 + side (0 left, 1 right)
PASS = DRAW + 1

# NUMBER_MASK[n]: the tiles that show the number n (seven each).
NUMBER_MASK = tuple(sum(1 << t for t in range(TILE_COUNT) if n in TILES[t]) for n in range(7))

# ENDS_MASK[left * 7 + right]: the tiles that fit at least one of the open ends.
ENDS_MASK = tuple(NUMBER_MASK[left] | NUMBER_MASK[right] for left in range(7) for right in range(7))

# OTHER[t * 7 + n]: the number tile t shows at its free half when laid against n (-1: it does not fit).
OTHER = tuple(
    (LOW[t] if HIGH[t] == n else HIGH[t]) if n in TILES[t] else -1
    for t in range(TILE_COUNT)
    for n in range(7)
)
# The oriented piece a lay adds to the line: at the left end it reads (free, n), at the right (n, free).
LEFT_PIECE = tuple((OTHER[k], k % 7) for k in range(TILE_COUNT * 7))
RIGHT_PIECE = tuple((k % 7, OTHER[k]) for k in range(TILE_COUNT * 7))


DRAW_CODES = (DRAW,)
PASS_CODES = (PASS,)


def _number_lays(n: int, side: int) -> dict[int, tuple[int, ...]]:
    """Return, for every set of the tiles showing ``n`` (a hand masked by ``NUMBER_MASK[n]``), their lay codes at one side."""
    tiles = [t for t in range(TILE_COUNT) if NUMBER_MASK[n] >> t & 1]
    lays = {}
    for subset in range(1 << len(tiles)):
        chosen = [t for i, t in enumerate(tiles) if subset >> i & 1]
        lays[sum(1 << t for t in chosen)] = tuple(2 * t + side for t in chosen)
    return lays


# LEFT_LAYS[n][hand & NUMBER_MASK[n]]: the codes that lay those tiles at the left end when it shows n,
# lowest tile first; RIGHT_LAYS the same at the right end. A hand with several fitting tiles merges the
# two (its codes in order: by tile, left before right).
LEFT_LAYS = tuple(_number_lays(n, 0) for n in range(7))
RIGHT_LAYS = tuple(_number_lays(n, 1) for n in range(7))


def _fit_codes(t: int, left: int, right: int) -> tuple[int, ...]:
    """Return the lay codes of tile t against the open ends; one code when both ends show one number."""
    codes = []
    if t in _TILES_WITH[left]:
        codes.append(2 * t)
    if right != left and t in _TILES_WITH[right]:
        codes.append(2 * t + 1)
    return tuple(codes)


_TILES_WITH = tuple(frozenset(t for t in range(TILE_COUNT) if n in TILES[t]) for n in range(7))
# FIT[t * 49 + left * 7 + right]: the lay codes of tile t when the open ends are (left, right).
FIT = tuple(_fit_codes(t, left, right) for t in range(TILE_COUNT) for left in range(7) for right in range(7))
# BIT[1 << t] == t, for reading a mask one tile at a time; BITS[t] == 1 << t.
BIT = {1 << t: t for t in range(TILE_COUNT)}
BITS = tuple(1 << t for t in range(TILE_COUNT))
ALL_TILES = tuple(range(TILE_COUNT))
_NO_ARGS = tuple(repeat((), TILE_COUNT))  # starmap(rng.random, _NO_ARGS): one random number a tile
# The opening order of the highest-double rule: doubles from 6-6 down, then (with no double dealt)
# the heaviest tile, ties going to the one with the higher end.
OPENING_ORDER = tuple(
    sorted(range(TILE_COUNT), key=lambda t: (HIGH[t] == LOW[t], PIPS[t], HIGH[t]), reverse=True)
)
# Pip totals of a mask, a byte at a time.
_BYTE_PIPS = tuple(
    tuple(
        sum(PIPS[8 * chunk + b] for b in range(8) if value >> b & 1 and 8 * chunk + b < TILE_COUNT)
        for value in range(256)
    )
    for chunk in range(4)
)


def mask_pips(mask: int) -> int:
    """Return the pip total of the tiles in a hand mask."""
    p = _BYTE_PIPS
    return p[0][mask & 255] + p[1][mask >> 8 & 255] + p[2][mask >> 16 & 255] + p[3][mask >> 24 & 255]


def mask_tiles(mask: int) -> list[int]:
    """Return the tile ids in a hand mask, lowest id (heaviest tile) first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(BIT[low])
        mask ^= low
    return out


def tiles_mask(tiles: list[int]) -> int:
    """Return the hand mask of a list of tile ids."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


# ----------------------------------------------------------------------------------------------
# Moves.


class MoveKind(enum.Enum):
    """What a move does."""

    LAY = "lay"
    DRAW = "draw"
    PASS = "pass"


# Public move codes: a lay is tile * 2 + side (0 left, 1 right), DRAW and PASS follow, and an opening
# lay (no end: the line is empty) is OPEN + tile * 2. ``code & CODE_MASK`` is the code ``Table`` plays.
# All Fives adds the spinner's two ends: ARM + tile * 2 + (0 north, 1 south).
OPEN = 64
CODE_MASK = OPEN - 1
ARM = 128


@dataclass(frozen=True)
class Move:
    """A move: lay ``tile`` at ``end`` ("L", "R", or None for the opening tile), draw, or pass.

    In All Fives the spinner's two ends are the arms "N" and "S"; "L" and "R" are the line's two ends
    (with a spinner: the arms off its two sides).

    ``parse_move``, ``Move.lay`` and ``legal_moves`` hand out one shared object a move, which knows its
    code (``_code``); a Move built by hand compares equal to it and is looked up when played.
    """

    kind: MoveKind
    tile: Domino | None = None
    end: str | None = None

    _code: ClassVar[int] = -1  # set on the shared objects only (not a field: equality ignores it)

    def __str__(self) -> str:
        if self.kind is MoveKind.LAY:
            assert self.tile is not None
            text = domino_text(self.tile)
            return f"{text}:{self.end}" if self.end else text
        return str(self.kind.value)

    @classmethod
    def lay(cls, tile: Domino, end: str | None = None) -> Move:
        """Return the move that lays ``tile`` at ``end`` (None opens the line)."""
        key = (max(tile), min(tile))
        shared = _MOVE_BY_KEY.get((MoveKind.LAY, key, end))
        return shared if shared is not None else cls(MoveKind.LAY, key, end)


def _shared_moves() -> list[Move | None]:
    """Return the shared Move of every public code (None where no code is)."""
    moves: list[Move | None] = [None] * (ARM + DRAW)
    for t in range(TILE_COUNT):
        moves[2 * t] = Move(MoveKind.LAY, TILES[t], "L")
        moves[2 * t + 1] = Move(MoveKind.LAY, TILES[t], "R")
        moves[OPEN + 2 * t] = Move(MoveKind.LAY, TILES[t], None)
        moves[ARM + 2 * t] = Move(MoveKind.LAY, TILES[t], "N")
        moves[ARM + 2 * t + 1] = Move(MoveKind.LAY, TILES[t], "S")
    moves[DRAW] = Move(MoveKind.DRAW)
    moves[PASS] = Move(MoveKind.PASS)
    for code, move in enumerate(moves):
        if move is not None:
            object.__setattr__(move, "_code", code)
    return moves


MOVE_OF: tuple[Move, ...] = tuple(_shared_moves())  # type: ignore[arg-type]  # public code -> shared Move
TEXT_OF: tuple[str, ...] = tuple("" if m is None else str(m) for m in MOVE_OF)  # public code -> move text
_MOVE_BY_KEY: dict[tuple[MoveKind, Domino | None, str | None], Move] = {
    (m.kind, m.tile, m.end): m for m in MOVE_OF if m is not None
}
_MOVE_BY_TEXT: dict[str, Move] = {text: m for text, m in zip(TEXT_OF, MOVE_OF) if m is not None}
_MOVE_AT = MOVE_OF.__getitem__
DRAW_MOVE = MOVE_OF[DRAW]
PASS_MOVE = MOVE_OF[PASS]
# What a history event shows of a lay (text, the tile's two numbers, its end); None for draw and pass.
_EVENT_LAY = tuple(
    None if m is None or m.tile is None else (str(m), m.tile[0], m.tile[1], m.end) for m in MOVE_OF
)


def parse_move(text: str) -> Move:
    """Parse ``6-4``, ``6-4:L``, ``6-4:R`` (All Fives also ``6-4:N``, ``6-4:S``), ``draw`` or ``pass``.

    Raise ValueError for any other text.
    """
    shared = _MOVE_BY_TEXT.get(text) if isinstance(text, str) else None
    if shared is not None:
        return shared
    if not isinstance(text, str):
        raise ValueError(f"not a move: {text!r}")
    cleaned = text.strip().lower()
    if cleaned == "draw":
        return DRAW_MOVE
    if cleaned == "pass":
        return PASS_MOVE
    tile_text, sep, end = cleaned.partition(":")
    end = end.strip().upper()
    if sep and end not in ("L", "R", "N", "S"):
        raise ValueError(f"not a move: {text!r} (the end is L or R, as in 6-4:L; N or S at a spinner)")
    try:
        tile = parse_domino(tile_text)
    except ValueError:
        raise ValueError(f"not a move: {text!r} (write 6-4, 6-4:L, 6-4:R, draw or pass)") from None
    if tile not in TILE_ID:
        raise ValueError(f"not a double-six tile: {tile_text.strip()!r}")
    return _MOVE_BY_KEY[(MoveKind.LAY, tile, end or None)]


def code_to_move(code: int, opening: bool = False) -> Move:
    """Return the Move of a move code (``opening``: a lay without the OPEN flag that opens the line)."""
    return MOVE_OF[code | OPEN if opening and code < DRAW else code]


# ----------------------------------------------------------------------------------------------
# One hand in progress: the lean core every caller shares.

OUT = Termination.OUT.value
BLOCKED = Termination.BLOCKED.value

# An undo record (also the history event of the state): seat, code, the left and right ends before the
# move, the state's legal codes before it, the passes in a row before it, the tile drawn (or -1).
Record = tuple[Any, ...]  # All Fives adds an eighth item (see ``FivesTable``)


NEXT_SEAT = {players: (*range(1, players), 0) for players in range(1, 5)}  # players -> seat -> next seat


class Table:
    """One hand of dominoes as plain ints and lists: hands, boneyard, line, ends, turn."""

    __slots__ = (
        "after",
        "codes",
        "draw_game",
        "ended",
        "hands",
        "left",
        "line",
        "opening_tile",
        "passes",
        "players",
        "right",
        "stock",
        "turn",
        "winner",
    )

    def __init__(
        self,
        players: int,
        draw_game: bool,
        hands: list[int],
        stock: list[int],
        turn: int,
        opening_tile: int,
    ) -> None:
        self.players = players
        self.after = NEXT_SEAT[players]  # after[seat]: the seat that plays next
        self.draw_game = draw_game
        self.hands = hands  # one tile mask a seat
        self.stock = stock  # the boneyard, face down; draws take the last one
        self.line: list[tuple[int, int]] = []  # oriented tiles, left end first
        self.left = -1  # the open ends; -1 before the opening lay
        self.right = -1
        self.turn = turn
        self.passes = 0  # passes in a row
        self.opening_tile = opening_tile  # the tile that must open (-1: any tile)
        self.ended: str | None = None  # None, "out" or "blocked"
        self.winner: int | None = None  # the seat that went out
        self.codes: Sequence[int] | None = None  # the legal codes, kept until the next move

    def copy(self) -> Table:
        """Return an independent copy."""
        other = Table.__new__(Table)
        other.players = self.players
        other.after = self.after
        other.draw_game = self.draw_game
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.line = self.line[:]
        other.left = self.left
        other.right = self.right
        other.turn = self.turn
        other.passes = self.passes
        other.opening_tile = self.opening_tile
        other.ended = self.ended
        other.winner = self.winner
        other.codes = self.codes
        return other

    def moves(self) -> Sequence[int]:
        """Return the legal move codes of the seat to move (empty once the hand is over).

        An opening lay carries the OPEN flag. The list is kept until the next move and handed out
        again: callers read it, never change it.
        """
        codes = self.codes
        if codes is not None:
            return codes
        if self.ended is not None:
            codes = ()
        else:
            hand = self.hands[self.turn]
            left = self.left
            if left < 0:
                if self.opening_tile >= 0:
                    codes = (OPEN | self.opening_tile << 1,)
                else:
                    codes = tuple([OPEN | t << 1 for t in mask_tiles(hand)])
            else:
                base = left * 7 + self.right
                fit = hand & ENDS_MASK[base]
                if not fit:
                    codes = DRAW_CODES if self.draw_game and self.stock else PASS_CODES
                elif not fit & (fit - 1):  # one tile fits: the common case
                    codes = FIT[BIT[fit] * 49 + base]
                elif left == self.right:
                    codes = LEFT_LAYS[left][hand & NUMBER_MASK[left]]
                else:
                    right = self.right
                    lays = (
                        LEFT_LAYS[left][hand & NUMBER_MASK[left]]
                        + RIGHT_LAYS[right][hand & NUMBER_MASK[right]]
                    )
                    codes = tuple(sorted(lays))
        self.codes = codes
        return codes

    def apply(self, code: int) -> Record:
        """Play a move code that ``moves()`` listed (no checks: callers check first); return its undo record.

        The record (seat, code, left and right ends, legal codes, passes in a row, all from before
        the move, and the tile drawn or -1) is what ``revert`` takes; the state keeps it as the move's
        history event too.
        """
        turn = self.turn
        left = self.left
        right = self.right
        passes = self.passes
        codes = self.codes
        self.codes = None
        if code < DRAW:  # a lay at an end: the common case
            t = code >> 1
            hands = self.hands
            hand = hands[turn] ^ BITS[t]
            hands[turn] = hand
            if code & 1:
                k = t * 7 + right
                self.right = OTHER[k]
                self.line.append(RIGHT_PIECE[k])
            else:
                k = t * 7 + left
                self.left = OTHER[k]
                self.line.insert(0, LEFT_PIECE[k])
            if passes:
                self.passes = 0
            if hand:
                self.turn = self.after[turn]
            else:
                self.ended = OUT
                self.winner = turn
            return (turn, code, left, right, codes, passes, -1)
        if code == PASS:
            passes_next = passes + 1
            self.passes = passes_next
            if passes_next >= self.players:
                self.ended = BLOCKED
            else:
                self.turn = turn + 1 if turn + 1 < self.players else 0
            return (turn, code, left, right, codes, passes, -1)
        if code == DRAW:  # the same seat plays on: it draws until a tile fits
            t = self.stock.pop()
            self.hands[turn] |= 1 << t
            return (turn, code, left, right, codes, passes, t)
        t = (code & CODE_MASK) >> 1  # the opening lay
        hand = self.hands[turn] ^ (1 << t)
        self.hands[turn] = hand
        self.left = HIGH[t]
        self.right = LOW[t]
        self.line.append(TILES[t])
        self.passes = 0
        if hand:
            self.turn = turn + 1 if turn + 1 < self.players else 0
        else:
            self.ended = OUT
            self.winner = turn
        return (turn, code, left, right, codes, passes, -1)

    def revert(self, record: Record) -> None:
        """Take back the last move applied, from the record ``apply`` returned for it."""
        turn, code, left, right, codes, passes, drawn = record
        self.turn = turn
        self.codes = codes
        if self.ended is not None:
            self.ended = None
            self.winner = None
        if code < DRAW:
            self.hands[turn] |= BITS[code >> 1]
            if code & 1:
                self.line.pop()
                self.right = right
            else:
                del self.line[0]
                self.left = left
            self.passes = passes
            return
        self.passes = passes
        if code == PASS:
            return
        if code == DRAW:
            self.hands[turn] ^= 1 << drawn
            self.stock.append(drawn)
            return
        self.hands[turn] |= 1 << ((code & CODE_MASK) >> 1)
        self.line.pop()
        self.left = left
        self.right = right

    def pip_totals(self) -> list[int]:
        """Return each seat's pip total in hand."""
        return [mask_pips(hand) for hand in self.hands]


# ----------------------------------------------------------------------------------------------
# All Fives: the layout is a tree with a spinner (docs/architecture.md, "All Fives").

ARM_NAMES = ("L", "R", "N", "S")


class FivesTable(Table):
    """One hand of All Fives: a ``Table`` whose layout grows a spinner (the first double laid).

    ``line`` runs left to right through the spinner (``left``/``right`` are its open ends, as in the
    line game); ``spinner`` is the spinner's number (-1: no double laid yet), ``left_arm`` and
    ``right_arm`` count the tiles on its two sides, and ``north``/``south`` hold the tiles laid on its
    two ends, outward, each as (inner, outer). A lay's record carries an eighth item: the count after
    it for a lay (the open numbers for a draw or a pass).
    """

    __slots__ = ("left_arm", "north", "right_arm", "south", "spinner")

    def __init__(
        self,
        players: int,
        draw_game: bool,
        hands: list[int],
        stock: list[int],
        turn: int,
        opening_tile: int,
    ) -> None:
        super().__init__(players, draw_game, hands, stock, turn, opening_tile)
        self.spinner = -1
        self.left_arm = 0
        self.right_arm = 0
        self.north: list[tuple[int, int]] = []
        self.south: list[tuple[int, int]] = []

    def copy(self) -> FivesTable:
        """Return an independent copy."""
        other = FivesTable.__new__(FivesTable)
        for name in Table.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.line = self.line[:]
        other.spinner = self.spinner
        other.left_arm = self.left_arm
        other.right_arm = self.right_arm
        other.north = self.north[:]
        other.south = self.south[:]
        return other

    def arms_open(self) -> bool:
        """Tell whether the spinner's ends take tiles (both its sides have one)."""
        return self.spinner >= 0 and self.left_arm > 0 and self.right_arm > 0

    def arm_ends(self) -> list[int]:
        """Return the open number of each arm L, R, N, S (-1: not open)."""
        if self.left < 0:
            return [-1, -1, -1, -1]
        if not self.arms_open():
            return [self.left, self.right, -1, -1]
        v = self.spinner
        return [
            self.left,
            self.right,
            self.north[-1][1] if self.north else v,
            self.south[-1][1] if self.south else v,
        ]

    def count(self) -> int:
        """Return the count: the rule decisions' sum over the open arms of the numbers at their ends."""
        if self.left < 0:
            return 0
        line = self.line
        v = self.spinner
        if v < 0:
            return self.left + self.right  # a line without a double (the opening tile counts both halves)
        total = 0
        if self.left_arm:
            a, b = line[0]
            total += a + b if a == b else a
        if self.right_arm:
            a, b = line[-1]
            total += a + b if a == b else b
        if not (self.left_arm and self.right_arm):
            return total + 2 * v  # the spinner counts both halves while a side is free
        for arm in (self.north, self.south):
            if arm:
                a, b = arm[-1]
                total += a + b if a == b else b
        return total

    def moves(self) -> Sequence[int]:
        """Return the legal codes: lays name the arm (L, R, then N, S once the spinner's sides are taken)."""
        codes = self.codes
        if codes is not None:
            return codes
        if self.ended is not None or self.left < 0 or self.spinner < 0:
            return Table.moves(self)
        hand = self.hands[self.turn]
        ends = self.arm_ends()
        alone = not self.left_arm and not self.right_arm
        both_bare = not self.north and not self.south
        found: list[int] = []
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            t = BIT[low]
            if OTHER[t * 7 + ends[0]] >= 0:
                found.append(2 * t)
            if not alone and OTHER[t * 7 + ends[1]] >= 0:  # the spinner alone: both sides are alike
                found.append(2 * t + 1)
            if ends[2] >= 0:
                if OTHER[t * 7 + ends[2]] >= 0:
                    found.append(ARM + 2 * t)
                if not both_bare and OTHER[t * 7 + ends[3]] >= 0:  # both ends bare: alike too
                    found.append(ARM + 2 * t + 1)
        if found:
            codes = tuple(found)
        else:
            codes = DRAW_CODES if self.draw_game and self.stock else PASS_CODES
        self.codes = codes
        return codes

    def apply(self, code: int) -> Record:
        """Play a listed code; return the undo record with the count after a lay (or the open numbers)."""
        if code in (DRAW, PASS):
            ends = tuple(n for n in self.arm_ends() if n >= 0)
            return (*Table.apply(self, code)[:7], ends)
        turn = self.turn
        left = self.left
        right = self.right
        passes = self.passes
        codes = self.codes
        self.codes = None
        spinner = self.spinner
        if code >= ARM:
            t = (code - ARM) >> 1
            arm = self.south if code & 1 else self.north
            inner = arm[-1][1] if arm else spinner
            arm.append((inner, OTHER[t * 7 + inner]))
        elif code >= OPEN:
            t = (code - OPEN) >> 1
            self.left = HIGH[t]
            self.right = LOW[t]
            self.line.append(TILES[t])
            if HIGH[t] == LOW[t]:
                self.spinner = HIGH[t]
        elif code & 1:
            t = code >> 1
            k = t * 7 + right
            self.right = OTHER[k]
            self.line.append(RIGHT_PIECE[k])
            if spinner >= 0:
                self.right_arm += 1
            elif HIGH[t] == LOW[t]:
                self.spinner = HIGH[t]
                self.left_arm = len(self.line) - 1
        else:
            t = code >> 1
            k = t * 7 + left
            self.left = OTHER[k]
            self.line.insert(0, LEFT_PIECE[k])
            if spinner >= 0:
                self.left_arm += 1
            elif HIGH[t] == LOW[t]:
                self.spinner = HIGH[t]
                self.right_arm = len(self.line) - 1
        hand = self.hands[turn] ^ (1 << t)
        self.hands[turn] = hand
        self.passes = 0
        if hand:
            self.turn = turn + 1 if turn + 1 < self.players else 0
        else:
            self.ended = OUT
            self.winner = turn
        return (turn, code, left, right, codes, passes, -1, self.count())

    def revert(self, record: Record) -> None:
        """Take back the last move applied, from its record."""
        turn, code, left, right, codes, passes = record[:6]
        if code in (DRAW, PASS):
            Table.revert(self, record[:7])
            return
        self.turn = turn
        self.codes = codes
        self.ended = None
        self.winner = None
        self.passes = passes
        if code >= ARM:
            (self.south if code & 1 else self.north).pop()
            t = (code - ARM) >> 1
        else:
            t = (code & CODE_MASK) >> 1
            if code >= OPEN or code & 1:
                self.line.pop()
            else:
                del self.line[0]
            if code >= OPEN:
                self.spinner = -1
            elif self.spinner >= 0 and code & 1 and self.right_arm:
                self.right_arm -= 1
            elif self.spinner >= 0 and not code & 1 and self.left_arm:
                self.left_arm -= 1
            else:  # this lay made the spinner
                self.spinner = -1
                self.left_arm = 0
                self.right_arm = 0
            self.left = left
            self.right = right
        self.hands[turn] |= 1 << t


def deal(
    rng: random.Random, players: int, hand_size: int, draw_game: bool, opener: int | None, fives: bool = False
) -> Table:
    """Shuffle and deal a hand; ``opener`` (the last hand's winner) opens with any tile, else the highest double rule.

    ``fives``: an All Fives hand (a ``FivesTable``); the deal itself is the same.
    """
    keys = list(starmap(rng.random, _NO_ARGS))  # a uniform shuffle: iid random sort keys, one a tile in order
    order = sorted(ALL_TILES, key=keys.__getitem__)
    hands = []
    bits = BITS
    for seat in range(players):
        hands.append(sum(map(bits.__getitem__, order[seat * hand_size : (seat + 1) * hand_size])))
    stock = order[players * hand_size :]
    kind = FivesTable if fives else Table
    if opener is not None:
        return kind(players, draw_game, hands, stock, opener, -1)
    seat, t = _rule_opener(hands)
    return kind(players, draw_game, hands, stock, seat, t)


def _rule_opener(hands: list[int]) -> tuple[int, int]:
    """Return the seat that opens by the highest-double rule and the tile it must lay."""
    dealt = 0
    for mask in hands:
        dealt |= mask
    for t in OPENING_ORDER:
        if dealt >> t & 1:
            bit = 1 << t
            return next(s for s in range(len(hands)) if hands[s] & bit), t
    raise AssertionError("no tile dealt")  # unreachable: hand_size >= 1


class HandScore(NamedTuple):
    """The result of a finished hand: its winner (None: tie for lowest), how it ended, pips, points."""

    winner: int | None
    ended: str
    pips: tuple[int, ...]
    points: int
    tied: tuple[int, ...]  # the seats tied for the lowest total in a blocked hand with no winner


def score_hand(table: Table, teams: bool = False, fives: bool = False) -> HandScore:
    """Score a finished hand: out scores every opponent's pips; blocked, the lowest total scores the others'.

    ``teams``: partners sit opposite; the hand is won by the side of the player who went out or of the
    single lowest total (a tie for lowest between the sides: nobody), and scores the two opposing hands'
    pips. ``fives``: the points are rounded to the nearest five. ``winner`` is always a seat.
    """
    pips = tuple(map(mask_pips, table.hands))
    total = sum(pips)
    if table.ended == OUT:
        winner = table.winner
        assert winner is not None
        points = _opposing(pips, winner) if teams else total - pips[winner]
        return HandScore(winner, OUT, pips, round_five(points) if fives else points, ())
    lowest = min(pips)
    lows = tuple(seat for seat, p in enumerate(pips) if p == lowest)
    if len(lows) == 1 or (teams and all(seat % 2 == lows[0] % 2 for seat in lows)):
        points = _opposing(pips, lows[0]) if teams else total - lowest
        return HandScore(lows[0], BLOCKED, pips, round_five(points) if fives else points, ())
    return HandScore(None, BLOCKED, pips, 0, lows)


def _opposing(pips: tuple[int, ...], seat: int) -> int:
    """Return the pips in the two hands that oppose ``seat``'s side (four players, partners opposite)."""
    return pips[(seat + 1) % 4] + pips[(seat + 3) % 4]


def round_five(points: int) -> int:
    """Return ``points`` rounded to the nearest five (12 -> 10, 13 -> 15)."""
    return (points + 2) // 5 * 5


def side_of(seat: int, teams: bool) -> tuple[int, ...]:
    """Return the seats of ``seat``'s side: itself and its partner opposite in a partnership game."""
    return tuple(sorted((seat, (seat + 2) % 4))) if teams else (seat,)


# ----------------------------------------------------------------------------------------------
# The public state.


OPTION_NAMES = ("players", "hand_size", "draw", "target", "scoring", "teams")
FIVES_TARGET = 150  # All Fives' default target


def resolve_options(
    players: Any = 2,
    hand_size: Any = None,
    draw: Any = True,
    target: Any = None,
    scoring: Any = "pips",
    teams: Any = False,
) -> dict[str, Any]:
    """Check the options and fill in the defaults (hand size; All Fives' target); raise ValueError when one is not allowed."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
    if hand_size is None:
        hand_size = 7 if players == 2 else 5
    if (
        isinstance(hand_size, bool)
        or not isinstance(hand_size, int)
        or not 1 <= hand_size <= TILE_COUNT // players
    ):
        raise ValueError(
            f"hand_size must be 1 to {TILE_COUNT // players} for {players} players, not {hand_size!r}"
        )
    if not isinstance(draw, bool):
        raise ValueError(f"draw must be true or false, not {draw!r}")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int) or target < 1):
        raise ValueError(f"target must be None (single round) or a positive number of points, not {target!r}")
    if scoring not in ("pips", "fives"):
        raise ValueError(f"scoring must be 'pips' or 'fives' (All Fives), not {scoring!r}")
    if scoring == "fives" and target is None:
        target = FIVES_TARGET
    if not isinstance(teams, bool):
        raise ValueError(f"teams must be true or false, not {teams!r}")
    if teams and players != 4:
        raise ValueError("partnerships (teams) are for four players")
    return {
        "players": players,
        "hand_size": hand_size,
        "draw": draw,
        "target": target,
        "scoring": scoring,
        "teams": teams,
    }


def _tile_list(mask: int) -> list[list[int]]:
    tiles = TILES
    out = []
    while mask:
        low = mask & -mask
        a, b = tiles[BIT[low]]
        out.append([a, b])
        mask ^= low
    return out


def _sorted_hand(mask: int) -> list[list[int]]:
    """Return a hand for display: doubles and heavier tiles first (6-6, 6-5, ... 0-0)."""
    return _tile_list(mask)


# A history event is kept as the move's undo record (``Table.record``, with the public code and the legal
# codes before the move); ``_events_json`` turns events into the view's and the save's dicts.
Event = Record


def _event_json(event: Event) -> dict[str, Any]:
    """Return a history event as a fresh dict: draw/pass with the ends it was made on, a lay with tile and end."""
    seat, code, left, right = event[0], event[1], event[2], event[3]
    lay = _EVENT_LAY[code]
    if lay is None:
        return {"seat": seat, "move": TEXT_OF[code], "ends": [left, right]}
    move, a, b, end = lay
    return {"seat": seat, "move": move, "tile": [a, b], "end": end}


def _events_json(events: list[Event]) -> list[dict[str, Any]]:
    """Return history events as fresh dicts (``_event_json``)."""
    return [_event_json(e) for e in events]


# What the view shows of a line piece and of a tile in hand. The view hands out these shared objects
# (its lists are fresh, the entries are read-only).
PIECE_JSON: dict[tuple[int, int], Piece] = {
    (a, b): {"tile": [a, b], "double": a == b} for a in range(7) for b in range(7)
}
TILE_JSON: tuple[list[int], ...] = tuple([a, b] for a, b in TILES)
# _BYTE_JSON[chunk][byte]: the TILE_JSON entries of the tiles in one byte of a hand mask.
_BYTE_JSON = tuple(
    tuple(
        tuple(TILE_JSON[8 * chunk + b] for b in range(8) if value >> b & 1 and 8 * chunk + b < TILE_COUNT)
        for value in range(256)
    )
    for chunk in range(4)
)


def _hand_json(mask: int) -> list[list[int]]:
    """Return a hand as the view shows it, heaviest tile first (shared TILE_JSON entries)."""
    j = _BYTE_JSON
    return [*j[0][mask & 255], *j[1][mask >> 8 & 255], *j[2][mask >> 16 & 255], *j[3][mask >> 24]]


class _Result(NamedTuple):
    """A finished hand, kept compact until a view or a save asks for its dict (``_result_json``)."""

    hand: int
    score: HandScore
    hands: tuple[int, ...]  # the tile masks left in each hand
    scores: tuple[int, ...]  # the match scores after the hand
    match: bool  # a match (the hand's points count) rather than a single round
    last: dict[str, Any] | None = None  # the move that ended the hand: {"seat", "move"} (public)


def _result_json(result: _Result | Mapping[str, Any]) -> dict[str, Any]:
    """Return a finished hand's result as a fresh dict (the form the view and the save show)."""
    if not isinstance(result, _Result):
        return _copy_result(result)
    score = result.score
    return {
        "hand": result.hand,
        "winner": score.winner,
        "ended": score.ended,
        "pips": list(score.pips),
        "points": score.points if result.match else 0,
        "tied": list(score.tied),
        "hands": [_tile_list(h) for h in result.hands],
        "scores": list(result.scores),
        **({"last": dict(result.last)} if result.last is not None else {}),
    }


def _synced(cache: list[Any], built_from: list[Any], entries: list[Any], build: Any) -> list[Any]:
    """Return a fresh list of ``build(entry)`` for ``entries``, building only the entries not cached yet.

    ``built_from`` holds the entries the cache was built from. The entries are a stack of unique objects
    (history events, hand results: a move pushes one, undo pops it), so the cache is good up to the
    last position where both hold the same object, and rebuilt from there.
    """
    have = len(built_from)
    if have != len(entries) or (have and built_from[-1] is not entries[-1]):
        keep = min(have, len(entries))
        while keep and built_from[keep - 1] is not entries[keep - 1]:
            keep -= 1
        del cache[keep:], built_from[keep:]
        for entry in entries[keep:]:
            cache.append(build(entry))
            built_from.append(entry)
    return cache[:]


_ROUND_ENDS: dict[tuple[Any, ...], Outcome] = {}  # a single round's outcomes are few: share each one
_ROUND_OUTCOMES: dict[tuple[Any, ...], Outcome] = {}  # (winner, ended, pips) -> the round's outcome


def _round_end(
    winners: tuple[int, ...], termination: Termination, placings: tuple[int, ...], side: bool = False
) -> Outcome:
    """Return the (frozen, shared) outcome of a single round (``side``: the winners are partners)."""
    key = (winners, termination, placings, side)
    outcome = _ROUND_ENDS.get(key)
    if outcome is None:
        outcome = _ROUND_ENDS[key] = Outcome(winners, termination, placings, side=side)
    return outcome


def _below(values: Any, value: int) -> int:
    """Return how many of ``values`` are below ``value``."""
    count = 0
    for other in values:
        if other < value:
            count += 1
    return count


class _HandEnd:
    """The undo record of a move that ended a hand: what finishing it changed besides the table."""

    __slots__ = ("events", "hand_number", "rng_state", "scores", "table")

    def __init__(self, scores: list[int]) -> None:
        self.scores = scores  # the match scores before the hand was scored (the state then has a copy)
        self.table: Table | None = None  # set when the next hand was dealt: the finished hand's table
        self.events: list[Event] = []
        self.hand_number = 0
        self.rng_state: Any = None


class DominoesState(TurnState[DominoesView]):
    """A game of dominoes: a single round or a match, the draw game or the block game (``FivesState``: All Fives)."""

    FIVES: ClassVar[bool] = False
    # The codes ``play`` and ``undo`` inline: lays below ``_INLINED`` and the pass ``_PASS`` (All Fives
    # inlines none: its table's lays also grow arms and count).
    _INLINED: ClassVar[int] = DRAW
    _PASS: ClassVar[int] = PASS
    _EVENT_JSON = staticmethod(_event_json)  # a history event as the view and the save show it
    GAME = GAME_ID
    VIEW = views.VIEW
    NAME = "dominoes"
    MOVE_TYPES = (Move,)
    parse_move = staticmethod(parse_move)

    rng: random.Random
    table: Table
    _events: list[Event]  # public events of the hand in progress
    _floor: int  # the turn number when this state was dealt or loaded
    _undo: list[tuple[int, Any]]  # the moves that ended a hand (a _HandEnd; All Fives: also a _Scored)
    _results: list[_Result | dict[str, Any]]  # the finished hands (dicts: loaded from a save)
    # The view's JSON of the history and of the hand results, built once an entry (see ``_synced``).
    _history_json: list[dict[str, Any]]
    _history_of: list[Event]
    _results_json: list[dict[str, Any]]
    _results_of: list[_Result | dict[str, Any]]

    def _caches(self) -> None:
        """Start the view's caches empty; copy the mode's inlined codes onto the state (read faster there)."""
        self._inlined = self._INLINED
        self._pass = self._PASS
        self._history_json = []
        self._history_of = []
        self._results_json = []
        self._results_of = []
        self._line_cache: list[Piece] = []
        self._line_of: list[tuple[int, int]] | None = None
        self._line_last: Event | None = None

    @property
    def hand_results(self) -> list[dict[str, Any]]:
        """Return the results of the finished hands (fresh dicts), as the view and the save show them."""
        return [_result_json(r) for r in self._results]

    @hand_results.setter
    def hand_results(self, results: list[Mapping[str, Any]]) -> None:
        self._results = [_copy_result(r) for r in results]

    def __init__(self, options: Mapping[str, Any], rng: random.Random) -> None:
        self.options = dict(options)
        self._start(self.options["players"], rng)
        self._floor = 0
        self.scores = [0] * self.players
        self.hand_number = 1
        self._results: list[_Result | dict[str, Any]] = []
        self._events = []
        self._caches()
        self.table = deal(
            rng, self.players, self.options["hand_size"], self.options["draw"], None, self.FIVES
        )

    # -- Engine API ------------------------------------------------------------------------------

    def current_player(self) -> int | None:
        """Return the seat to move, or None once the game is over."""
        return None if self._outcome is not None else self.table.turn

    def legal_moves(self) -> list[Move]:
        """Return the legal moves of the seat to move (empty once the game is over)."""
        codes = self.table.codes
        if codes is None:
            codes = self.table.moves()
        if len(codes) == 1:
            return [MOVE_OF[codes[0]]]
        return list(map(_MOVE_AT, codes))

    def play(self, move: Move | str) -> None:
        """Play a move (a Move or its text) for the seat to move; raise IllegalMoveError if the rules refuse it.

        The hot path of every mode overrides ``TurnState.play`` with the same sequence (over? -> parse ->
        legal? -> apply): a shared Move that is legal now goes straight to the table by its code, and the
        table's undo record is also the move's history event (``_apply`` and ``_revert`` are inlined in
        ``play`` and ``undo``). The modes differ only in the class data ``_INLINED`` and ``_PASS`` (which
        codes are inlined) and the hook ``_score`` (what a move the table applied scores).
        """
        table = self.table
        codes = table.codes
        if codes is None:
            codes = table.moves()
        try:
            code = move._code  # type: ignore[union-attr]  # a shared Move (only Move has _code; a Move built by hand: -1)
        except AttributeError:  # text, or not a move at all: parsed and refused below
            code = -1
        if code not in codes:  # also every move once the hand is over (a finished hand lists none)
            if self._outcome is not None:
                raise IllegalMoveError("the game is over")
            code = self._accept(as_move(move, parse_move, Move, self.NAME))
        if code >= self._inlined:
            if code == self._pass:  # ``Table.apply``'s pass, inlined too
                turn = table.turn
                passes = table.passes
                table.codes = None
                self._events.append((turn, PASS, table.left, table.right, codes, passes, -1))
                self.turn_number += 1
                passes += 1
                table.passes = passes
                if passes < self.players:
                    table.turn = table.after[turn]
                    return
                table.ended = BLOCKED
            else:
                # All Fives: a match may end mid-hand, when its table still lists moves
                if self._outcome is not None:
                    raise IllegalMoveError("the game is over")
                record = table.apply(code)
                self._events.append(record)
                self.turn_number += 1
                if self._score(record) or table.ended is None:
                    return
            self._undo.append((self.turn_number, self._finish_hand()))
            return
        # A lay at an end, the common move: ``Table.apply``'s first branch, inlined (the rules tests
        # check that both give the same table and record at every move of thousands of games).
        turn = table.turn
        left = table.left
        right = table.right
        passes = table.passes
        table.codes = None
        t = code >> 1
        hands = table.hands
        hand = hands[turn] ^ BITS[t]
        hands[turn] = hand
        if code & 1:
            k = t * 7 + right
            table.right = OTHER[k]
            table.line.append(RIGHT_PIECE[k])
        else:
            k = t * 7 + left
            table.left = OTHER[k]
            table.line.insert(0, LEFT_PIECE[k])
        if passes:
            table.passes = 0
        self._events.append((turn, code, left, right, codes, passes, -1))
        self.turn_number += 1
        if hand:
            table.turn = table.after[turn]
            return
        table.ended = OUT
        table.winner = turn
        self._undo.append((self.turn_number, self._finish_hand()))

    def _score(self, record: Record) -> bool:
        """Score a move the table applied; tell whether it ended the match (only All Fives scores moves)."""
        return False

    # Undo: the history events are the moves' undo records (``Table.apply``), so the undo list holds only
    # the moves that ended a hand (All Fives: or scored), each with the turn number it led to; moves made
    # before a save was loaded (below ``_floor``) cannot be taken back.

    def can_undo(self) -> bool:
        """Tell whether a move can be taken back (moves made before a save was loaded cannot)."""
        return self.turn_number > self._floor

    def undo(self) -> None:
        """Take back the last move exactly (its points and the hand's end too); raise IndexError if there is none.

        The hot path overrides ``TurnState.undo`` (the same steps, ``_revert`` inlined as in ``play``).
        """
        turn = self.turn_number
        if turn <= self._floor:
            raise IndexError("no move to take back")
        ends = self._undo
        ended = False
        while ends and ends[-1][0] == turn:
            entry = ends.pop()[1]
            if entry.__class__ is _Scored:
                self.scores = entry.scores
                self._outcome = None
            else:
                self._unfinish(entry)
                ended = True
        record = self._events.pop()
        self.turn_number = turn - 1
        table = self.table
        code = record[1]
        if code >= self._inlined:
            if code != self._pass:
                table.revert(record)
                return
            table.turn = record[0]  # ``Table.revert``'s pass, inlined
            table.codes = record[4]
            table.passes = record[5]
            if ended:
                table.ended = None
            return
        # A lay at an end: ``Table.revert``'s first branch, inlined (checked beside it by the tests).
        seat, _, left, right, codes, passes, _ = record
        table.turn = seat
        table.codes = codes
        if ended:  # only a move that ended the hand ends the table
            table.ended = None
            table.winner = None
        table.hands[seat] |= BITS[code >> 1]
        if code & 1:
            table.line.pop()
            table.right = right
        else:
            del table.line[0]
            table.left = left
        table.passes = passes

    def _accept(self, move: Move) -> int:
        """Return the public code of a legal move; raise IllegalMoveError with the reason otherwise."""
        code = move._code
        if code < 0:
            shared = _MOVE_BY_KEY.get((move.kind, move.tile, move.end))
            code = shared._code if shared is not None else -1
        if code >= 0 and code in self.table.moves():
            return code
        return self._code_of(move)

    def _code_of(self, move: Move) -> int:
        """Return the code of a move that is not listed but allowed; raise IllegalMoveError with the reason."""
        table = self.table
        legal = table.moves()
        if move.kind is MoveKind.DRAW:
            if DRAW in legal:
                return DRAW
            if not table.draw_game:
                raise IllegalMoveError("this is the block game: there is no drawing; pass when nothing fits")
            if table.left >= 0 and not table.stock:
                raise IllegalMoveError("the boneyard is empty: pass")
            raise IllegalMoveError("you may draw only when no tile in your hand fits an open end")
        if move.kind is MoveKind.PASS:
            if PASS in legal:
                return PASS
            if DRAW in legal:
                raise IllegalMoveError("you can't pass while the boneyard has tiles: draw")
            raise IllegalMoveError("you can't pass while a tile in your hand fits an open end")
        t, text = self._held(move)
        if table.left < 0:
            if move.end is not None:
                raise IllegalMoveError(f"the line is empty: open it with {text} (no end)")
            if OPEN | t << 1 in legal:
                return OPEN | t << 1
            must = TILES[table.opening_tile]
            raise IllegalMoveError(f"the hand opens with {domino_text(must)}: lay it first")
        if move.end not in ("L", "R"):
            raise IllegalMoveError(f"say which end: {text}:L or {text}:R")
        side = 0 if move.end == "L" else 1
        number = table.left if side == 0 else table.right
        code = 2 * t + side
        if code in legal:
            return code
        if number in TILES[t] and table.left == table.right and code - side in legal:
            return code  # both ends show this number: the listed move lays it at the other end, same result
        name = "left" if side == 0 else "right"
        raise IllegalMoveError(f"{text} does not match the {name} end ({number})")

    def _held(self, move: Move) -> tuple[int, str]:
        """Return the id and text of the tile a lay names; raise IllegalMoveError unless the seat to move holds it."""
        tile = move.tile
        if tile not in TILE_ID:
            raise IllegalMoveError(f"not a double-six tile: {tile!r}")
        t = TILE_ID[tile]
        text = domino_text(tile)
        if not self.table.hands[self.table.turn] >> t & 1:
            raise IllegalMoveError(f"you don't hold {text}")
        return t, text

    def _copy_into(self, other: DominoesState) -> None:
        """Give a clone its own table, history, scores and results."""
        other.options = dict(self.options)
        other.table = self.table.copy()
        other._events = self._events[:]
        other.scores = self.scores[:]
        other._results = self._results[:]  # the results are never changed once written
        other._history_json = self._history_json[:]
        other._history_of = self._history_of[:]
        other._results_json = self._results_json[:]
        other._results_of = self._results_of[:]
        if self._line_of is self.table.line:  # the cached line is the line (if the history agrees)
            other._line_of = other.table.line

    # -- hands and the match ---------------------------------------------------------------------

    def _finish_hand(self) -> _HandEnd:
        """Record the finished hand, score it in a match, and deal the next hand unless the game is over.

        The hand's result is kept compact (``_Result``) and turned into its dict only when a view or a
        save asks: a search ends and takes back hands all the time.
        """
        table = self.table
        options = self.options
        teams = options["teams"]
        result = score_hand(table, teams, self.FIVES)
        target = options["target"]
        scores = self.scores
        end = _HandEnd(scores)
        if target is not None:
            scores = self.scores = scores[:]
            if result.winner is not None:
                for seat in side_of(result.winner, teams):
                    scores[seat] += result.points
        ended_by = self._EVENT_JSON(self._events[-1]) if self._events else None
        last = None if ended_by is None else {"seat": ended_by["seat"], "move": ended_by["move"]}
        self._results.append(
            _Result(self.hand_number, result, tuple(table.hands), tuple(scores), target is not None, last)
        )
        if target is None:
            self._outcome = self._team_round(result) if teams else self._round_outcome(result)
            return end
        if max(scores) >= target:
            self._outcome = self._match_outcome()
            return end
        end.table = table
        end.events = self._events
        end.hand_number = self.hand_number
        end.rng_state = self.rng.getstate()
        self.hand_number += 1
        self._events = []
        self.table = deal(
            self.rng, self.players, options["hand_size"], options["draw"], result.winner, self.FIVES
        )
        return end

    def _match_outcome(self) -> Outcome:
        """Return the end of a match that reached its target: the highest score wins (a side, with teams)."""
        scores = self.scores
        best = max(scores)
        winner = scores.index(best)
        teams = self.options["teams"]
        rivals = (0, 1) if teams else range(self.players)  # with teams, seats 0 and 1 stand for the sides
        placings = tuple(1 + sum(1 for s in rivals if scores[s] > mine) for mine in scores)
        return Outcome(side_of(winner, teams), Termination.TARGET, placings, tuple(scores), side=teams)

    def _team_round(self, result: HandScore) -> Outcome:
        """Return the outcome of a single round between two sides: the winning side, or nobody."""
        termination = Termination.OUT if result.ended == OUT else Termination.BLOCKED
        if result.winner is None:
            return _round_end((), termination, (1, 1, 1, 1))
        side = result.winner % 2
        return _round_end(
            side_of(side, True), termination, tuple(1 if s % 2 == side else 2 for s in range(4)), True
        )

    def _unfinish(self, end: _HandEnd) -> None:
        """Undo ``_finish_hand`` (the move that ended the hand is then taken back as any other)."""
        self._results.pop()
        self.scores = end.scores
        self._outcome = None
        if end.table is not None:
            # Copies: a clone shares this record, and the finished table is never changed again.
            self.table = end.table.copy()
            self._events = end.events[:]
            self.hand_number = end.hand_number
            self.rng.setstate(end.rng_state)

    def _round_outcome(self, result: HandScore) -> Outcome:
        """Return the outcome of a single round (facts only: the table screen words them), remembered."""
        key = (result.winner, result.ended, result.pips)
        outcome = _ROUND_OUTCOMES.get(key)
        if outcome is None:
            if len(_ROUND_OUTCOMES) >= 65536:
                _ROUND_OUTCOMES.clear()
            outcome = _ROUND_OUTCOMES[key] = self._placed_round(result)
        return outcome

    def _placed_round(self, result: HandScore) -> Outcome:
        """Return the outcome of a single round from its result."""
        pips = result.pips
        winner = result.winner
        if result.ended == OUT:
            assert winner is not None
            # The winner first, then the others by pips left (equal pips share a place).
            others = [p for s, p in enumerate(pips) if s != winner]
            placings = tuple(1 if s == winner else 2 + _below(others, p) for s, p in enumerate(pips))
            return _round_end((winner,), Termination.OUT, placings)
        placings = tuple(1 + _below(pips, p) for p in pips)
        if winner is not None:
            return _round_end((winner,), Termination.BLOCKED, placings)
        return _round_end(result.tied, Termination.BLOCKED, placings)

    # -- what a seat sees ------------------------------------------------------------------------

    @property
    def history(self) -> list[dict[str, Any]]:
        """Return the public events of the hand in progress, as the view shows them."""
        return [self._EVENT_JSON(e) for e in self._events]

    @history.setter
    def history(self, events: list[Mapping[str, Any]]) -> None:
        check = _check_fives_event if self.FIVES else _check_event
        self._events = [check(e, self.players) for e in events]

    def _hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.table.hands]

    def _public_history(self) -> list[dict[str, Any]]:
        return [self._EVENT_JSON(e) for e in self._events]

    def view(self, seat: int) -> DominoesView:
        """Return what ``seat`` may see, JSON-ready: the view contract's keys, then own hand, line, scores.

        The hot path overrides ``TurnState.view`` with the same keys built in one go.
        """
        if seat.__class__ is not int or not 0 <= seat < self.players:
            self.check_seat(seat)
        table = self.table
        outcome = self._outcome
        over = outcome is not None
        turn = None if over else table.turn
        hand = table.hands[seat]
        target = self.options["target"]
        return {
            "game": GAME_ID,
            "players": self.players,
            "seat": seat,
            "turn": turn,
            "turn_number": self.turn_number,
            "over": over,
            "hand_counts": [h.bit_count() for h in table.hands],
            "legal_moves": [TEXT_OF[c] for c in table.moves()] if turn == seat else [],
            "history": _synced(self._history_json, self._history_of, self._events, self._EVENT_JSON),
            "outcome": outcome.to_dict() if outcome is not None else None,
            "options": cast("Options", dict(self.options)),
            "target": target,
            "hand_number": self.hand_number,
            "line": self._line_json(table),
            "open_ends": None if table.left < 0 else [table.left, table.right],
            "hand": _hand_json(hand),
            "pips": mask_pips(hand),
            "stock": len(table.stock),
            "opening": table.left < 0,
            "scores": self.scores[:] if target is not None else None,
            "hand_results": _synced(self._results_json, self._results_of, self._results, _result_json),
            "partner": (seat + 2) % 4 if self.options["teams"] else None,
            "sides": [[0, 2], [1, 3]] if self.options["teams"] else None,
            "count": None,
            "layout": None,
        }

    def _line_json(self, table: Table) -> list[Piece]:
        """Return the line as the view shows it, cached while the line and the history stay as they were.

        The line changes only by a move, which pushes or pops a history event (a unique object): the
        same line list, as long, under the same last event, is the same line.
        """
        line = table.line
        events = self._events
        last = events[-1] if events else None
        if self._line_of is not line or self._line_last is not last or len(self._line_cache) != len(line):
            self._line_of = line
            self._line_last = last
            self._line_cache = [PIECE_JSON[piece] for piece in line]
        return self._line_cache[:]

    def _view(self, seat: int) -> dict[str, Any]:
        view: Mapping[str, Any] = self.view(seat)
        return {key: view[key] for key in _OWN_VIEW_KEYS}

    # -- saving ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state, JSON-ready; ``from_dict`` rebuilds it exactly (random generator included)."""
        table = self.table
        return {
            "game": GAME_ID,
            "version": 1,
            "options": _saved_options(self.options),
            "rng": rng_to_json(self.rng),
            "scores": self.scores[:],
            "hand_number": self.hand_number,
            "turn_number": self.turn_number,
            "hand_results": self.hand_results,
            "history": [self._EVENT_JSON(e) for e in self._events],
            "outcome": self._outcome.to_dict() if self._outcome else None,
            "table": {
                "hands": [[domino_text(TILES[t]) for t in mask_tiles(h)] for h in table.hands],
                "stock": [domino_text(TILES[t]) for t in table.stock],
                "line": [list(piece) for piece in table.line],
                "turn": table.turn,
                "passes": table.passes,
                "opening_tile": None if table.opening_tile < 0 else domino_text(TILES[table.opening_tile]),
                "ended": table.ended,
                "winner": table.winner,
                **(_layout_save(table) if isinstance(table, FivesTable) else {}),
            },
        }

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> DominoesState:
        return _from_dict(data)

    def __repr__(self) -> str:
        return f"<DominoesState hand {self.hand_number} turn {self.current_player()} ends {self.table.left},{self.table.right}>"


def _fives_event_json(event: Event) -> dict[str, Any]:
    """Return an All Fives history event: a lay also says the count after it and the points it scored;
    a draw or a pass lists every open number (``ends``)."""
    seat, code = event[0], event[1]
    lay = _EVENT_LAY[code]
    if lay is None:
        return {"seat": seat, "move": TEXT_OF[code], "ends": list(event[7])}
    move, a, b, end = lay
    count = event[7]
    return {
        "seat": seat,
        "move": move,
        "tile": [a, b],
        "end": end,
        "count": count,
        "points": count if count % 5 == 0 else 0,
    }


def _layout_save(table: FivesTable) -> dict[str, Any]:
    """Return the spinner's part of a saved All Fives table."""
    return {
        "spinner": table.left_arm if table.spinner >= 0 else None,
        "north": [list(piece) for piece in table.north],
        "south": [list(piece) for piece in table.south],
    }


def layout_json(table: FivesTable) -> Layout:
    """Return what a view shows of an All Fives layout, for the table to draw.

    ``spinner``: the spinner's index in the view's ``line`` (None before a double is laid); ``north``
    and ``south``: the tiles on the spinner's two ends, outward; ``ends``: the number each arm takes
    (L, R: the line's two ends; N, S: the spinner's ends; None where nothing can be laid); ``open``:
    whether the spinner's ends take tiles (both its sides have one).
    """
    ends = table.arm_ends()
    return {
        "spinner": table.left_arm if table.spinner >= 0 else None,
        "north": [PIECE_JSON[piece] for piece in table.north],
        "south": [PIECE_JSON[piece] for piece in table.south],
        "ends": {name: (None if n < 0 else n) for name, n in zip(ARM_NAMES, ends)},
        "open": table.arms_open(),
    }


class _Scored:
    """The undo record of an All Fives lay that scored: the scores before it (and the outcome it set)."""

    __slots__ = ("scores",)

    def __init__(self, scores: list[int]) -> None:
        self.scores = scores


class FivesState(DominoesState):
    """A game of All Fives (``scoring="fives"``): the layout grows a spinner and every lay may score.

    After each lay the count (``FivesTable.count``) scores for the layer's side when it is a positive
    multiple of five; the match ends the moment a side reaches the target, even in the middle of a hand.
    """

    FIVES = True
    _INLINED = 0
    _PASS = -1
    _EVENT_JSON = staticmethod(_fives_event_json)
    table: FivesTable

    def legal_moves(self) -> list[Move]:
        """Return the legal moves of the seat to move (none once the match is over)."""
        if self._outcome is not None:
            return []
        return DominoesState.legal_moves(self)

    def _score(self, record: Record) -> bool:
        """Score the count after a lay when it is a positive multiple of five; tell whether the match ended."""
        count = record[7]
        if count.__class__ is int and count and count % 5 == 0:
            scores = self.scores
            self._undo.append((self.turn_number, _Scored(scores)))
            scores = self.scores = scores[:]
            for seat in side_of(record[0], self.options["teams"]):
                scores[seat] += count
            if max(scores) >= self.options["target"]:
                self._outcome = self._match_outcome()
                return True
        return False

    def view(self, seat: int) -> DominoesView:
        """Return what ``seat`` may see: the view of every mode, with the count and the spinner's arms."""
        view = DominoesState.view(self, seat)
        table = self.table
        view["count"] = table.count()
        view["layout"] = layout_json(table)
        return view

    def _code_of(self, move: Move) -> int:
        """Return the code of a lay at an arm, or raise IllegalMoveError saying why not."""
        table = self.table
        if move.kind is not MoveKind.LAY or table.left < 0 or table.spinner < 0:
            if move.kind is MoveKind.LAY and move.end in ("N", "S"):
                raise IllegalMoveError("there is no spinner yet: lay at L or R")
            return DominoesState._code_of(self, move)
        t, text = self._held(move)
        if move.end not in ARM_NAMES:
            raise IllegalMoveError(f"say which arm: {text}:L, {text}:R, {text}:N or {text}:S")
        index = ARM_NAMES.index(move.end)
        number = table.arm_ends()[index]
        if number < 0:
            raise IllegalMoveError("the spinner's ends take tiles once both its sides have one")
        code = (ARM if index >= 2 else 0) + 2 * t + (index & 1)
        legal = table.moves()
        if code in legal:
            return code
        if number in TILES[t]:  # an arm listed as its twin (the spinner alone, both ends bare): same layout
            twin = code ^ 1
            if twin in legal:
                return twin
        raise IllegalMoveError(f"{text} does not match the {move.end} arm ({number})")


_OWN_VIEW_KEYS = (
    "options",
    "target",
    "hand_number",
    "line",
    "open_ends",
    "hand",
    "pips",
    "stock",
    "opening",
    "scores",
    "hand_results",
    "partner",
    "sides",
    "count",
    "layout",
)


def _copy_result(result: Mapping[str, Any]) -> dict[str, Any]:
    """Return a fresh copy of a hand result (its lists copied too)."""
    out = dict(result)
    out["pips"] = list(result["pips"])
    out["tied"] = list(result["tied"])
    out["scores"] = list(result["scores"])
    out["hands"] = [list(map(list, hand)) for hand in result["hands"]]
    if "last" in result:
        out["last"] = dict(result["last"])
    return out


def new_state(seed: int | None = None, rng: random.Random | None = None, **options: Any) -> DominoesState:
    """Start a game: a single round or a match (``target``), seeded by ``seed`` or a given ``rng``."""
    unknown = set(options) - set(OPTION_NAMES)
    if unknown:
        raise ValueError(f"dominoes has no option {', '.join(sorted(unknown))}")
    resolved = resolve_options(**options)
    kind = FivesState if resolved["scoring"] == "fives" else DominoesState
    return kind(resolved, rng if rng is not None else make_rng(seed))


# ----------------------------------------------------------------------------------------------
# Loading.

from_dict = DominoesState.from_dict


def _saved_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return the options as a save keeps them: scoring and teams only when not the defaults.

    A pips game without partners saves exactly as before All Fives came, so older pages still open it.
    """
    saved = dict(options)
    if saved.get("scoring") == "pips":
        del saved["scoring"]
    if saved.get("teams") is False:
        del saved["teams"]
    return saved


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _tile_id(text: Any) -> int:
    _check(isinstance(text, str), f"not a tile: {text!r}")
    tile = parse_domino(text)
    _check(tile in TILE_ID, f"not a double-six tile: {text!r}")
    return TILE_ID[tile]


def _from_dict(data: Mapping[str, Any]) -> DominoesState:
    _check(isinstance(data, Mapping), "a save is a JSON object")
    _check(data.get("game") == GAME_ID, f"not a dominoes game: {data.get('game')!r}")
    _check(data.get("version") == 1, f"unknown version {data.get('version')!r}")
    raw = data["options"]
    _check(isinstance(raw, Mapping), "options must be an object")
    _check(set(raw) <= set(OPTION_NAMES), "unknown options")
    # Saves from before All Fives and partnerships have no scoring and teams: the defaults.
    options = resolve_options(
        **{k: raw[k] for k in ("players", "hand_size", "draw", "target")},
        **{k: raw[k] for k in ("scoring", "teams") if k in raw},
    )
    _check(all(options[k] == raw[k] for k in raw), "options do not match their defaults")
    players = options["players"]
    fives = options["scoring"] == "fives"
    state = DominoesState.__new__(FivesState if fives else DominoesState)
    state.options = options
    try:
        rng = rng_from_json(data["rng"])
    except OverflowError as exc:  # core's rng_from_json lets this one through (noted for core)
        raise ValueError(f"bad random generator state: {exc}") from None
    state._start(players, rng)
    scores = data["scores"]
    _check(isinstance(scores, list) and len(scores) == players, "scores must list one number a seat")
    _check(all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in scores), "bad scores")
    state.scores = list(scores)
    hand_number = data["hand_number"]
    _check(isinstance(hand_number, int) and hand_number >= 1, "bad hand number")
    state.hand_number = hand_number
    results = data["hand_results"]
    _check(isinstance(results, list), "hand_results must be a list")
    state._results = [_check_result(r, players) for r in results]
    state._caches()
    history = data["history"]
    _check(isinstance(history, list), "history must be a list")
    state._events = [(_check_fives_event if fives else _check_event)(e, players) for e in history]
    outcome = data["outcome"]
    state._outcome = None if outcome is None else Outcome.from_dict(outcome)

    raw_table = data["table"]
    hands_text = raw_table["hands"]
    _check(isinstance(hands_text, list) and len(hands_text) == players, "hands must list one hand a seat")
    hands = []
    seen: list[int] = []
    for hand in hands_text:
        _check(isinstance(hand, list), "a hand is a list of tiles")
        ids = [_tile_id(t) for t in hand]
        seen += ids
        hands.append(tiles_mask(ids))
    stock = [_tile_id(t) for t in raw_table["stock"]]
    seen += stock
    line_raw = raw_table["line"]
    _check(isinstance(line_raw, list), "the line is a list of tiles")
    line: list[tuple[int, int]] = []
    for piece in line_raw:
        _check(
            isinstance(piece, list) and len(piece) == 2 and all(isinstance(x, int) for x in piece),
            "bad line tile",
        )
        a, b = piece
        _check((max(a, b), min(a, b)) in TILE_ID, f"not a double-six tile: {piece!r}")
        if line:
            _check(line[-1][1] == a, "the line's tiles do not match where they meet")
        line.append((a, b))
        seen.append(TILE_ID[(max(a, b), min(a, b))])
    if fives:
        spinner_at, north, south = _check_layout(raw_table, line, seen)
    _check(sorted(seen) == list(range(TILE_COUNT)), "every one of the 28 tiles must be in exactly one place")
    turn = raw_table["turn"]
    _check(isinstance(turn, int) and 0 <= turn < players, "bad turn")
    passes = raw_table["passes"]
    _check(isinstance(passes, int) and 0 <= passes <= players, "bad pass count")
    opening = raw_table["opening_tile"]
    opening_tile = -1 if opening is None else _tile_id(opening)
    _check(
        opening_tile < 0 or bool(hands[turn] >> opening_tile & 1) or bool(line),
        "the opening tile is not in the opener's hand",
    )
    table = (FivesTable if fives else Table)(players, options["draw"], hands, stock, turn, opening_tile)
    table.line = line
    if line:
        table.left = line[0][0]
        table.right = line[-1][1]
    if isinstance(table, FivesTable) and spinner_at is not None:
        table.spinner = line[spinner_at][0]
        table.left_arm = spinner_at
        table.right_arm = len(line) - 1 - spinner_at
        table.north = north
        table.south = south
    table.passes = passes
    ended = raw_table["ended"]
    _check(ended in (None, OUT, BLOCKED), f"bad hand end {ended!r}")
    table.ended = ended
    winner = raw_table["winner"]
    _check(winner is None or (isinstance(winner, int) and 0 <= winner < players), "bad winner")
    table.winner = winner
    mid_hand_end = fives and state._outcome is not None and state._outcome.termination is Termination.TARGET
    _check(
        (ended is None) == (state._outcome is None) or (ended is None and mid_hand_end),
        "a finished hand must go with a finished game",
    )
    state.table = table
    turn_number = data.get("turn_number")
    if turn_number is None:
        turn_number = _derived_turn_number(state)
    _check(isinstance(turn_number, int) and not isinstance(turn_number, bool), "bad turn number")
    _check(turn_number >= len(state._events), "the turn number is below the moves of the hand in progress")
    state.turn_number = turn_number
    state._floor = turn_number
    return state


def _derived_turn_number(state: DominoesState) -> int:
    """Return the moves made so far for a save from before ``turn_number`` was saved.

    The hand in progress counts exactly; an earlier hand of a match counts the tiles its players laid
    (its draws and passes were not saved), so the figure only ever grows from one save to the next.
    """
    size = state.options["hand_size"]
    laid = sum(max(0, size - len(hand)) for r in state.hand_results[:-1] for hand in r["hands"])
    if state.hand_results and (state._outcome is None):
        laid += sum(max(0, size - len(hand)) for hand in state.hand_results[-1]["hands"])
    return int(laid) + len(state._events)


def _check_event(event: Any, players: int) -> Event:
    """Return a saved history entry as an event tuple; raise ValueError when it is malformed."""
    _check(isinstance(event, Mapping), "a history entry is an object")
    seat = event.get("seat")
    _check(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players, "bad seat in history"
    )
    move = parse_move(event["move"])
    if move.kind is MoveKind.LAY:
        return (seat, move._code, -1, -1, None, 0, -1)
    ends = event["ends"]
    _check(
        isinstance(ends, list) and len(ends) == 2 and all(isinstance(x, int) and 0 <= x <= 6 for x in ends),
        "bad open ends in history",
    )
    return (seat, move._code, ends[0], ends[1], None, 0, -1)


def _check_layout(
    raw_table: Mapping[str, Any], line: list[tuple[int, int]], seen: list[int]
) -> tuple[int | None, list[tuple[int, int]], list[tuple[int, int]]]:
    """Return a saved All Fives layout's spinner index and its two ends' tiles (their tiles added to ``seen``)."""
    spinner_at = raw_table["spinner"]
    _check(spinner_at is None or (isinstance(spinner_at, int) and 0 <= spinner_at < len(line)), "bad spinner")
    doubles = [i for i, (a, b) in enumerate(line) if a == b]
    if spinner_at is None:
        _check(not doubles, "a double was laid but there is no spinner")
    else:
        _check(line[spinner_at][0] == line[spinner_at][1], "the spinner is not a double")
    arms = []
    for name in ("north", "south"):
        raw = raw_table[name]
        _check(isinstance(raw, list), f"{name} is a list of tiles")
        _check(not raw or spinner_at is not None, "a spinner's end has tiles but there is no spinner")
        if raw:
            _check(
                spinner_at is not None and 0 < spinner_at < len(line) - 1,
                "the spinner's ends take tiles once both its sides have one",
            )
        arm: list[tuple[int, int]] = []
        inner = line[spinner_at][0] if spinner_at is not None else -1
        for piece in raw:
            _check(
                isinstance(piece, list) and len(piece) == 2 and all(isinstance(x, int) for x in piece),
                "bad arm tile",
            )
            a, b = piece
            _check((max(a, b), min(a, b)) in TILE_ID, f"not a double-six tile: {piece!r}")
            _check(a == inner, "the arm's tiles do not match where they meet")
            arm.append((a, b))
            inner = b
            seen.append(TILE_ID[(max(a, b), min(a, b))])
        arms.append(arm)
    return spinner_at, arms[0], arms[1]


def _check_fives_event(event: Any, players: int) -> Event:
    """Return a saved All Fives history entry as an event: a lay with its count, a draw or pass with its open numbers."""
    _check(isinstance(event, Mapping), "a history entry is an object")
    seat = event.get("seat")
    _check(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players, "bad seat in history"
    )
    code = parse_move(event["move"])._code
    if _EVENT_LAY[code] is not None:
        count = event["count"]
        _check(
            isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= 60,
            "bad count in history",
        )
        return (seat, code, -1, -1, None, 0, -1, count)
    ends = event["ends"]
    _check(
        isinstance(ends, list)
        and 1 <= len(ends) <= 4
        and all(isinstance(x, int) and 0 <= x <= 6 for x in ends),
        "bad open ends in history",
    )
    return (seat, code, -1, -1, None, 0, -1, tuple(ends))


def _check_result(result: Any, players: int) -> dict[str, Any]:
    _check(isinstance(result, Mapping), "a hand result is an object")
    _check(result["ended"] in (OUT, BLOCKED), "bad hand result")
    _check(len(result["pips"]) == players and len(result["hands"]) == players, "bad hand result")
    last = result.get("last")
    _check(
        last is None
        or (
            isinstance(last, Mapping)
            and isinstance(last.get("seat"), int)
            and isinstance(last.get("move"), str)
        ),
        "bad last move of a hand result",
    )
    return _copy_result(result)
