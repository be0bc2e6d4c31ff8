"""Heptalion's rules: the deal, placements, eliminations, the outcome, views and saves.

Move text: ``"T-P@12,13"`` -- the tile (its two symbols in ``SYMBOLS`` order, joined by ``-``), ``@``,
then the two space ids (0..55 in reading order, see ``board.SPACES``) in the order the tile's symbols
land: the T end on space 12, the P end on space 13. ``parse_move`` also takes the ends swapped
(``"P-T@13,12"`` is the same move); a double's spaces are written lower id first.

Turns: ``current_player()`` always names a seat that can place a tile. When a seat's turn arrives
and none of its tiles fits, it is eliminated on the spot (recorded in the public history) and the
turn passes on; with two players the other wins at once, with three or four the last seat standing
wins and everybody else shares second place.

One rules path: ``free_placements`` (the placements of a hand on the covered spaces' bit mask),
``next_alive`` and ``arrive`` (the turn passing on, eliminating every seat in turn with nothing that
fits) are the rules on bit masks; the state plays through them, and so does the Hard search in
``bots`` on its own positions. The state derives from ``core.TurnState``: ``undo()`` takes back a
placement with whatever eliminations and ending it caused.

Solo puzzle "How many can you fit?": ``players=1`` deals all 28 tiles to seat 0, who places as many
different tiles as possible; the game ends when none of the remaining tiles fits, and the outcome's
score is the number of tiles placed (``solve.solve`` computes the true maximum).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core import IllegalMoveError, Outcome, Termination, TurnState, derive_seed, make_rng
from . import views
from .board import (
    LAB_BOARDS,
    NEIGHBOURS,
    ORIGINAL,
    SPACES,
    TILE_INDEX,
    TILES,
    Board,
    Tile,
    board_problems,
    lab_board,
    parse_tile,
    random_board,
    tile_text,
)
from .views import HeptalionView

__all__ = [
    "HAND_SIZES",
    "HeptalionState",
    "Move",
    "board_from_view",
    "from_dict",
    "new_state",
    "parse_move",
    "selection_targets",
]

GAME_ID = "heptalion"
SAVE_VERSION = 1
# Tiles each, by number of players (1 = the solo puzzle); the 3-player game discards one tile face up.
HAND_SIZES = {1: 28, 2: 14, 3: 9, 4: 7}

PLAYING, ELIMINATED, WINNER = "playing", "eliminated", "winner"


@dataclass(frozen=True, order=True)
class Move:
    """One placement: ``tile``'s first symbol lands on ``spaces[0]``, its second on ``spaces[1]``."""

    tile: Tile
    spaces: tuple[int, int]

    def __str__(self) -> str:
        text: str | None = self.__dict__.get(
            "_text"
        )  # the board's own moves keep their text (see _move_table)
        return text if text is not None else f"{tile_text(self.tile)}@{self.spaces[0]},{self.spaces[1]}"

    @property
    def mask(self) -> int:
        """Return the bit mask of the two spaces."""
        return (1 << self.spaces[0]) | (1 << self.spaces[1])


def make_move(first: str, second: str, a: int, b: int) -> Move:
    """Return the move putting symbol ``first`` on space ``a`` and ``second`` on ``b``, normalised."""
    tile = parse_tile(f"{first}-{second}")
    if tile != (first, second):
        a, b = b, a
    if tile[0] == tile[1] and a > b:
        a, b = b, a
    return Move(tile, (a, b))


def parse_move(text: str) -> Move:
    """Parse ``"T-P@12,13"`` (or ``"P-T@13,12"``) into a move; raise ValueError on bad text."""
    if not isinstance(text, str):
        raise ValueError(f"a move is text like 'T-P@12,13', not {type(text).__name__}")
    tile_part, sep, space_part = text.strip().partition("@")
    ends = tile_part.strip().upper().split("-")
    spaces = space_part.split(",")
    if not sep or len(ends) != 2 or len(spaces) != 2:
        raise ValueError(f"not a move: {text!r} (expected a tile and two spaces, like 'T-P@12,13')")
    parse_tile(tile_part)  # validates the symbols
    try:
        a, b = (int(s.strip()) for s in spaces)
    except ValueError:
        raise ValueError(f"not a move: {text!r} (spaces are numbers 0..{len(SPACES) - 1})") from None
    for s in (a, b):
        if not 0 <= s < len(SPACES):
            raise ValueError(f"not a move: {text!r} (no space {s}; spaces are 0..{len(SPACES) - 1})")
    if a == b:
        raise ValueError(f"not a move: {text!r} (a tile covers two different spaces)")
    return make_move(ends[0], ends[1], a, b)


def selection_targets(legal_moves: Sequence[str]) -> dict[str, dict[int, list[int]]]:
    """Map each playable tile's text to the spaces a player may click first, each to its second spaces.

    Either end may be clicked first, so both spaces of every legal placement appear as a first space.
    """
    targets: dict[str, dict[int, list[int]]] = {}
    for text in legal_moves:
        move = parse_move(text)
        a, b = move.spaces
        firsts = targets.setdefault(tile_text(move.tile), {})
        for first, second in ((a, b), (b, a)):
            seconds = firsts.setdefault(first, [])
            if second not in seconds:
                seconds.append(second)
    return targets


def _board_for(board: Any, board_seed: int | None, rng: random.Random) -> Board:
    """Return the board chosen by the options (drawing a board seed from ``rng`` when needed)."""
    if isinstance(board, Board):
        return board
    if board in (None, "original"):
        return ORIGINAL
    if board == "random":
        return random_board(derive_seed(rng) if board_seed is None else int(board_seed))
    if board == "lab":
        return lab_board(derive_seed(rng) % len(LAB_BOARDS) if board_seed is None else int(board_seed))
    if isinstance(board, (list, tuple)):
        custom = Board.from_rows(board, "lab")
        problems = board_problems(custom, 3, exact=True)
        if problems:
            raise ValueError("this board is not original-style: " + "; ".join(problems))
        return custom
    raise ValueError(f"board must be 'original', 'random', 'lab' or a list of 11 rows, not {board!r}")


# ----------------------------------------------------------------------------------------------
# The one rules path: placements and eliminations on bit masks, shared by the state and the search.
# A hand is a sequence of tile indices, ``occ`` the bit mask of covered spaces, ``masks`` the board's
# ``placement_masks``; ``alive`` says which seats still play.

Placement = tuple[int, int]  # (tile index, bit mask of its two spaces)


def free_placements(masks: Sequence[Sequence[int]], occ: int, hand: Iterable[int]) -> list[Placement]:
    """Return every placement of ``hand``'s tiles on the empty spaces: (tile, mask), tile by tile in hand order."""
    return [(t, m) for t in hand for m in masks[t] if not m & occ]


def next_alive(alive: Sequence[bool], seat: int) -> int:
    """Return the next seat after ``seat`` round the table that still plays (``seat`` itself if none)."""
    n = len(alive)
    nxt = seat
    for _ in range(n):
        nxt += 1
        if nxt == n:
            nxt = 0
        if alive[nxt]:
            return nxt
    return seat


def arrive(
    masks: Sequence[Sequence[int]],
    occ: int,
    hands: Sequence[Iterable[int]],
    alive: list[bool],
    seat: int,
    out: list[int] | None,
) -> tuple[int, list[Placement]]:
    """Give the turn to ``seat``: eliminate every seat in turn that has no fitting tile; return who moves.

    Each eliminated seat is marked in ``alive`` and appended to ``out`` (unless None). Returns (seat, its placements);
    no placements means the game is over: ``seat`` is then the last seat standing (two players or more)
    or the solo player, whom nothing fits any more.
    """
    solo = len(alive) == 1
    while True:
        if not solo and alive.count(True) == 1:
            return alive.index(True), []
        moves = free_placements(masks, occ, hands[seat])
        if moves or solo:
            return seat, moves
        alive[seat] = False
        if out is not None:
            out.append(seat)
        seat = next_alive(alive, seat)


Entry = tuple[int, int, Move, str]  # a placement's tile, mask, move and text


@lru_cache(maxsize=64)
def _move_table(board: Board) -> tuple[dict[int, Move], dict[int, Entry], dict[Move, Entry], dict[str, Move]]:
    """Return the board's moves by the mask of their spaces, their entries by id and by equal move, moves by text.

    Every move the state hands out is one of these objects, so ``play`` finds it by identity first.
    """
    by_mask: dict[int, Move] = {}
    by_id: dict[int, Entry] = {}
    by_move: dict[Move, Entry] = {}
    by_text: dict[str, Move] = {}
    for t, (placements, masks) in enumerate(zip(board.placements, board.placement_masks)):
        for (a, b), m in zip(placements, masks):
            move = Move(TILES[t], (a, b))
            entry = (t, m, move, str(move))
            object.__setattr__(move, "_text", entry[3])  # not a field: equality, hash and saves ignore it
            by_mask[m] = move  # an edge's two symbols name its tile: one move a mask
            by_id[id(move)] = by_move[move] = entry
            by_text[entry[3]] = move
    return by_mask, by_id, by_move, by_text


@lru_cache(maxsize=64)
def _space_views(board: Board) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """Return per space its view entry when empty and when covered (the view hands out copies)."""
    entries = []
    for i, (r, c) in enumerate(SPACES):
        empty: dict[str, Any] = {"id": i, "row": r, "col": c, "symbol": board.symbols[i], "covered": False}
        entries.append((empty, {**empty, "covered": True}))
    return tuple(entries)


TILE_TEXTS: tuple[str, ...] = tuple(tile_text(t) for t in TILES)


def board_moves(board: Board) -> dict[str, Move]:
    """Return every placement of ``board`` (on its empty board) by its move text (cached per board)."""
    return _move_table(board)[3]


class HeptalionState(TurnState[HeptalionView]):
    """A game of Heptalion (or the solo puzzle) from the deal to the last elimination.

    The frame (``play``, ``undo``, ``clone``, ``view``, ``from_dict``) is ``core.TurnState``'s. Placements
    and eliminations go through ``free_placements`` and ``arrive``, the same functions the Hard search
    runs on its bit masks.
    """

    GAME = GAME_ID
    VIEW = views.VIEW
    NAME = "Heptalion"
    MOVE_TYPES = (Move,)
    parse_move = staticmethod(parse_move)

    def __init__(
        self,
        board: Board,
        hands: Sequence[Sequence[int]],
        start: int,
        hidden: bool = False,
        discard: int | None = None,
        seed: int | None = None,
    ) -> None:
        players = len(hands)
        if players not in HAND_SIZES:
            raise ValueError(f"Heptalion takes 1 to 4 players, not {players}")
        if not 0 <= start < players:
            raise ValueError(f"no seat {start} to start")
        self._start(players, None)
        self.board = board
        self.deal: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(h)) for h in hands)
        dealt = [t for h in self.deal for t in h] + ([discard] if discard is not None else [])
        if sorted(dealt) != list(range(len(TILES))):
            raise ValueError("the hands (and the discard) must hold each of the 28 tiles once")
        if any(len(h) != HAND_SIZES[players] for h in self.deal):
            raise ValueError(f"with {players} players each hand holds {HAND_SIZES[players]} tiles")
        if (discard is not None) != (players == 3):
            raise ValueError("only the 3-player game discards a tile")
        self.hidden = bool(hidden) and players > 1
        self.discard = discard
        self.start = start
        self.seed = seed
        self.hands: list[list[int]] = [list(h) for h in self.deal]
        self.covered: list[tuple[int, Move]] = []  # (seat, move) in order of play
        self.occupied = 0  # bit mask of covered spaces
        self.alive: list[bool] = [True] * players
        self.eliminated: list[int] = []  # seats in order of elimination
        self.history: list[dict[str, Any]] = []  # public events (never changed once written)
        self.turn: int | None = None
        self._masks = board.placement_masks
        self._by_mask, self._by_id, self._by_move, _ = _move_table(board)
        self._spaces = _space_views(board)
        self._moves: list[Placement] = []  # the placements of the seat to move
        self._arrive(start)

    # -- the turn order ---------------------------------------------------------------------------

    def _arrive(self, seat: int) -> None:
        """Give the turn to ``seat``, eliminating every seat in turn that has no fitting tile."""
        out: list[int] = []
        seat, moves = arrive(self._masks, self.occupied, self.hands, self.alive, seat, out)
        for s in out:
            self.eliminated.append(s)
            self.history.append(
                {
                    "kind": "eliminated",
                    "seat": s,
                    "move": None,
                    "order": len(self.eliminated),
                    "after": len(self.covered),
                }
            )
        self._moves = moves
        if moves:
            self.turn = seat
        elif self.players == 1:
            self._finish_solo()
        else:
            self._finish(seat)

    def _finish(self, winner: int) -> None:
        self.turn = None
        placings = tuple(1 if s == winner else 2 for s in range(self.players))
        scores = tuple(len(h) for h in self.hands)
        self._outcome = Outcome((winner,), Termination.ELIMINATED, placings, scores)
        self.history.append({"kind": "winner", "seat": winner, "move": None})

    def _finish_solo(self) -> None:
        self.turn = None
        placed = len(self.covered)
        self._outcome = Outcome((0,), Termination.FIT, (1,), (placed,))
        self.history.append({"kind": "no_fit", "seat": 0, "move": None, "placed": placed})

    @property
    def status(self) -> list[str]:
        """Return each seat's standing: "playing", "eliminated" or "winner"."""
        winners = self._outcome.winners if self._outcome is not None else ()
        return [
            WINNER if s in winners else PLAYING if self.alive[s] else ELIMINATED for s in range(self.players)
        ]

    # -- the game's hooks of TurnState --------------------------------------------------------------

    def current_player(self) -> int | None:
        """Return the seat to move, or None once the game is over."""
        return self.turn

    def legal_moves(self) -> list[Move]:
        """Return every legal placement of the seat to move (empty when over)."""
        by_mask = self._by_mask
        return [by_mask[m] for _, m in self._moves]

    def moves_for(self, seat: int) -> list[Move]:
        """Return every placement of ``seat``'s tiles on the current board."""
        by_mask = self._by_mask
        return [by_mask[m] for _, m in free_placements(self._masks, self.occupied, self.hands[seat])]

    def _accept(self, move: Move) -> Entry:
        """Return the entry (tile, mask, move, text) of a legal placement; raise IllegalMoveError saying why otherwise."""
        entry = self._by_id.get(id(move))  # a move this state handed out (the table keeps them alive)
        if entry is None:
            try:
                entry = self._by_move.get(move)
            except TypeError:  # a hand-built Move with unhashable fields
                entry = None
            if entry is None:
                entry = self._normalised(move)
        if entry[0] not in self.hands[self.turn] or entry[1] & self.occupied:  # type: ignore[index]
            self._refuse(entry[2])
        return entry

    def _normalised(self, move: Move) -> Entry:
        """Return the entry of a hand-built move in its normal form (ends swapped, odd field types)."""
        try:
            move = parse_move(str(move))
        except (ValueError, TypeError, IndexError) as exc:
            raise IllegalMoveError(f"not a move: {exc}") from None
        entry = self._by_move.get(move)
        if entry is None:
            self._refuse(move)
        return entry  # type: ignore[return-value]

    def _refuse(self, move: Move) -> None:
        """Raise IllegalMoveError saying why the rules refuse the (normalised) ``move`` now."""
        seat = self.turn
        assert seat is not None
        t = TILE_INDEX.get(move.tile)
        if t is None or t not in self.hands[seat]:
            raise IllegalMoveError(f"you do not hold the tile {tile_text(move.tile)}")
        a, b = move.spaces
        if not (0 <= a < len(SPACES) and 0 <= b < len(SPACES)) or a == b:
            raise IllegalMoveError("a tile covers two different spaces of the board")
        if b not in NEIGHBOURS[a]:
            raise IllegalMoveError(f"spaces {a} and {b} do not share an edge")
        for s in (a, b):
            if self.occupied >> s & 1:
                raise IllegalMoveError(f"space {s} is already covered")
        shown = f"{self.board.symbols[a]} and {self.board.symbols[b]}"
        raise IllegalMoveError(
            f"{tile_text(move.tile)} does not match the symbols {shown} of spaces {a} and {b}"
        )

    def _apply(self, accepted: Entry) -> tuple[Any, ...]:
        t, m, move, text = accepted
        seat = self.turn
        assert seat is not None
        hand = self.hands[seat]
        at = hand.index(t)
        del hand[at]
        record = (seat, t, at, m, self._moves, len(self.history), len(self.eliminated))
        self.covered.append((seat, move))
        self.occupied |= m
        self.history.append({"kind": "place", "seat": seat, "move": text, "number": len(self.covered)})
        self._arrive(next_alive(self.alive, seat))
        return record

    def _revert(self, record: tuple[Any, ...]) -> None:
        seat, t, at, m, moves, events, out = record
        for s in self.eliminated[out:]:
            self.alive[s] = True
        del self.eliminated[out:]
        del self.history[events:]
        self.covered.pop()
        self.occupied &= ~m
        self.hands[seat].insert(at, t)
        self._moves = moves
        self.turn = seat
        self._outcome = None

    def _copy_into(self, other: HeptalionState) -> None:
        other.hands = [list(h) for h in self.hands]
        other.covered = list(self.covered)
        other.alive = list(self.alive)
        other.eliminated = list(self.eliminated)
        other.history = list(self.history)  # the events themselves never change

    def _hand_counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def _public_history(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self.history]

    @property
    def name(self) -> str:
        """Return the display name: "Heptalion", "Heptalion (Random)" or "Heptalion (Lab)"."""
        return self.board.name()

    def _view(self, seat: int) -> dict[str, Any]:
        """Return Heptalion's own view keys for ``seat`` (see the package docs for every key)."""
        latest = len(self.covered)
        placed = [0] * self.players
        for who, _ in self.covered:
            placed[who] += 1
        status = self.status
        texts = TILE_TEXTS
        seats = []
        for s in range(self.players):
            visible = not self.hidden or s == seat
            seats.append(
                {
                    "seat": s,
                    "status": status[s],
                    "tile_count": len(self.hands[s]),
                    "hand": [texts[t] for t in self.hands[s]] if visible else None,
                    "placed": placed[s],
                    "start": s == self.start,
                }
            )
        occ = self.occupied
        return {
            "name": self.name,
            "board": self.board.to_dict(),
            "spaces": [entry[occ >> i & 1].copy() for i, entry in enumerate(self._spaces)],
            "covered": [
                {
                    "number": n,
                    "seat": who,
                    "tile": tile_text(m.tile),
                    "spaces": list(m.spaces),
                    "move": str(m),
                    "latest": n == latest,
                }
                for n, (who, m) in enumerate(self.covered, start=1)
            ],
            "solo": self.players == 1,
            "hidden": self.hidden,
            "start": self.start,
            "hand": [texts[t] for t in self.hands[seat]],
            "seats": seats,
            "discard": texts[self.discard] if self.discard is not None else None,
            "eliminated": list(self.eliminated),
            "seed": None if self.hidden else self.seed,  # it tells the deal: shown only when every hand is
        }

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready save: the board, the deal, the start and the moves in order."""
        return {
            "game": GAME_ID,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "players": self.players,
            "hidden": self.hidden,
            "board": self.board.to_dict(),
            "deal": [[tile_text(TILES[t]) for t in h] for h in self.deal],
            "discard": tile_text(TILES[self.discard]) if self.discard is not None else None,
            "start": self.start,
            "moves": [str(m) for _, m in self.covered],
            "turn_number": self.turn_number,
        }

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> HeptalionState:
        """Rebuild a game from ``to_dict`` by replaying its moves (saves without turn_number load too)."""
        if not isinstance(data, Mapping) or data.get("game") != GAME_ID:
            raise ValueError("not a Heptalion save")
        if data.get("version") != SAVE_VERSION:
            raise ValueError(f"unknown Heptalion save version {data.get('version')!r}")
        board = Board.from_dict(data["board"])
        if board.kind == "original" and board != ORIGINAL:
            raise ValueError("the board says original but its symbols differ")
        hands = [[TILE_INDEX[parse_tile(t)] for t in hand] for hand in data["deal"]]
        discard = data.get("discard")
        discard_index = TILE_INDEX[parse_tile(discard)] if discard is not None else None
        start = data["start"]
        if isinstance(start, bool) or not isinstance(start, int):
            raise ValueError("start must be a seat number")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError("seed must be an integer or null")
        state = cls(board, hands, start, bool(data.get("hidden", False)), discard_index, seed)
        if len(hands) != data.get("players", len(hands)):
            raise ValueError("the number of players does not match the deal")
        moves = data["moves"]
        for text in moves:
            try:
                state.play(text)
            except IllegalMoveError as exc:
                raise ValueError(f"a move does not replay ({exc})") from None
        if data.get("turn_number", len(moves)) != state.turn_number:
            raise ValueError("turn_number does not match the moves")
        state._undo = []  # moves made before the save cannot be taken back
        return state


def new_state(
    seed: int | None = None,
    players: int = 2,
    hidden: bool = False,
    board: Any = "original",
    start: int | None = None,
    board_seed: int | None = None,
) -> HeptalionState:
    """Deal a new game.

    ``players`` 2-4 (1 = the solo puzzle), ``hidden`` hides the other hands, ``board`` is "original",
    "random" (generated from ``board_seed``, by default drawn from ``seed``), "lab" (original-style board
    number ``board_seed``) or a list of 11 row strings (checked original-style). ``start`` is the first
    seat (None: drawn from the seed).
    """
    if isinstance(players, bool) or not isinstance(players, int) or players not in HAND_SIZES:
        raise ValueError(f"Heptalion takes 2 to 4 players (1 for the solo puzzle), not {players!r}")
    rng = make_rng(seed)
    chosen = _board_for(board, board_seed, rng)
    tiles = list(range(len(TILES)))
    rng.shuffle(tiles)
    size = HAND_SIZES[players]
    hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
    discard = tiles[players * size] if players == 3 else None
    first = rng.randrange(players) if start is None else start
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise ValueError(f"start must be a seat 0..{players - 1} or None, not {start!r}")
    return HeptalionState(chosen, hands, first, hidden, discard, seed)


from_dict = HeptalionState.from_dict


@lru_cache(maxsize=64)
def _board_from_rows(rows: tuple[str, ...]) -> Board:
    return Board.from_rows(rows, "custom")


def board_from_view(view: Mapping[str, Any]) -> Board:
    """Return the board a view shows (cached by its rows)."""
    return _board_from_rows(tuple(view["board"]["rows"]))
