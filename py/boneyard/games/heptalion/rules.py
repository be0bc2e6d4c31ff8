"""Heptalion's rules: the deal, placements, eliminations, the outcome, views and saves.

Move text: ``"T-P@12,13"`` -- the tile (its two symbols in ``SYMBOLS`` order, joined by ``-``), ``@``,
then the two space ids (0..55 in reading order, see ``board.SPACES``) in the order the tile's symbols
land: the T end on space 12, the P end on space 13. ``parse_move`` also takes the ends swapped
(``"P-T@13,12"`` is the same move); a double's spaces are written lower id first.

Turns: ``current_player()`` always names a seat that can place a tile. When a seat's turn arrives
and none of its tiles fits, it is eliminated on the spot (recorded in the public history) and the
turn passes on; with two players the other wins at once, with three or four the last seat standing
wins and everybody else shares second place.

Solo puzzle "How many can you fit?": ``players=1`` deals all 28 tiles to seat 0, who places as many
different tiles as possible; the game ends when none of the remaining tiles fits, and the outcome's
score is the number of tiles placed (``solve.solve`` computes the true maximum).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ...core import IllegalMoveError, as_move, Outcome, derive_seed, make_rng
from .board import (
    NEIGHBOURS,
    LAB_BOARDS,
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

__all__ = ["Move", "parse_move", "selection_targets", "HeptalionState", "new_state", "from_dict", "HAND_SIZES", "board_from_view"]

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
        return f"{tile_text(self.tile)}@{self.spaces[0]},{self.spaces[1]}"

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


class HeptalionState:
    """A game of Heptalion (or the solo puzzle) from the deal to the last elimination."""

    def __init__(
        self,
        board: Board,
        hands: Sequence[Sequence[int]],
        start: int,
        hidden: bool = False,
        discard: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.board = board
        self.players = len(hands)
        if self.players not in HAND_SIZES:
            raise ValueError(f"Heptalion takes 1 to 4 players, not {self.players}")
        if not 0 <= start < self.players:
            raise ValueError(f"no seat {start} to start")
        self.deal: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(h)) for h in hands)
        dealt = [t for h in self.deal for t in h] + ([discard] if discard is not None else [])
        if sorted(dealt) != list(range(len(TILES))):
            raise ValueError("the hands (and the discard) must hold each of the 28 tiles once")
        if any(len(h) != HAND_SIZES[self.players] for h in self.deal):
            raise ValueError(f"with {self.players} players each hand holds {HAND_SIZES[self.players]} tiles")
        if (discard is not None) != (self.players == 3):
            raise ValueError("only the 3-player game discards a tile")
        self.hidden = bool(hidden) and self.players > 1
        self.discard = discard
        self.start = start
        self.seed = seed
        self.hands: list[list[int]] = [list(h) for h in self.deal]
        self.covered: list[tuple[int, Move]] = []  # (seat, move) in order of play
        self.occupied = 0  # bit mask of covered spaces
        self.status: list[str] = [PLAYING] * self.players
        self.eliminated: list[int] = []  # seats in order of elimination
        self.history: list[dict[str, Any]] = []
        self.turn: int | None = None
        self._outcome: Outcome | None = None
        self._arrive(start)

    # -- the turn order ---------------------------------------------------------------------------

    def _fits(self, seat: int) -> bool:
        occ = self.occupied
        masks = self.board.placement_masks
        return any(not (m & occ) for t in self.hands[seat] for m in masks[t])

    def _next_seat(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if self.status[nxt] == PLAYING:
                return nxt
        return seat

    def _arrive(self, seat: int) -> None:
        """Give the turn to ``seat``, eliminating every seat in turn that has no fitting tile."""
        while True:
            if self.players == 1:
                if self._fits(seat):
                    self.turn = seat
                else:
                    self._finish_solo()
                return
            alive = [s for s in range(self.players) if self.status[s] == PLAYING]
            if len(alive) == 1:
                self._finish(alive[0])
                return
            if self._fits(seat):
                self.turn = seat
                return
            self.status[seat] = ELIMINATED
            self.eliminated.append(seat)
            self.history.append(
                {"kind": "eliminated", "seat": seat, "order": len(self.eliminated), "after": len(self.covered)}
            )
            seat = self._next_seat(seat)

    def _finish(self, winner: int) -> None:
        self.turn = None
        self.status[winner] = WINNER
        placings = tuple(1 if s == winner else 2 for s in range(self.players))
        if self.players == 2:
            detail = f"Seat {1 - winner} cannot place a tile: seat {winner} wins."
        else:
            order = ", ".join(str(s) for s in self.eliminated)
            detail = f"Seat {winner} is the last player remaining and wins (eliminated in order: {order}); everyone else shares second place."
        self._outcome = Outcome((winner,), "eliminated", placings, tuple(len(h) for h in self.hands), detail)
        self.history.append({"kind": "winner", "seat": winner})

    def _finish_solo(self) -> None:
        self.turn = None
        placed = len(self.covered)
        self.status[0] = WINNER
        self._outcome = Outcome((0,), "fit", (1,), (placed,), f"You fitted {placed} tiles on the board.")
        self.history.append({"kind": "no_fit", "seat": 0, "placed": placed})

    # -- the engine API ---------------------------------------------------------------------------

    def current_player(self) -> int | None:
        """Return the seat to move, or None once the game is over."""
        return self.turn

    def is_over(self) -> bool:
        """Tell whether the game has ended."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """Return how the game ended (None while it goes on)."""
        return self._outcome

    def legal_moves(self) -> list[Move]:
        """Return every legal placement of the seat to move (empty when over)."""
        if self.turn is None:
            return []
        return self.moves_for(self.turn)

    def moves_for(self, seat: int) -> list[Move]:
        """Return every placement of ``seat``'s tiles on the current board."""
        occ = self.occupied
        moves = []
        for t in self.hands[seat]:
            tile = TILES[t]
            for (a, b), m in zip(self.board.placements[t], self.board.placement_masks[t]):
                if not m & occ:
                    moves.append(Move(tile, (a, b)))
        return moves

    def play(self, move: Move | str) -> None:
        """Place a tile for the seat to move; raise IllegalMoveError for an illegal or malformed move."""
        move = as_move(move, parse_move, Move)
        try:  # normalise a hand-built Move (ends swapped, odd field types) through its text
            move = parse_move(str(move))
        except (ValueError, TypeError, IndexError) as exc:
            raise IllegalMoveError(f"not a move: {exc}") from None
        if self.turn is None:
            raise IllegalMoveError("the game is over")
        seat = self.turn
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
        if (self.board.symbols[a], self.board.symbols[b]) != move.tile:
            shown = f"{self.board.symbols[a]} and {self.board.symbols[b]}"
            raise IllegalMoveError(f"{tile_text(move.tile)} does not match the symbols {shown} of spaces {a} and {b}")
        self.hands[seat].remove(t)
        self.covered.append((seat, move))
        self.occupied |= move.mask
        self.history.append({"kind": "place", "seat": seat, "move": str(move), "number": len(self.covered)})
        self._arrive(self._next_seat(seat))

    def clone(self) -> HeptalionState:
        """Return an independent copy."""
        other = object.__new__(HeptalionState)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.covered = list(self.covered)
        other.status = list(self.status)
        other.eliminated = list(self.eliminated)
        other.history = [dict(e) for e in self.history]
        return other

    @property
    def name(self) -> str:
        """Return the display name: "Heptalion", "Heptalion (Random)" or "Heptalion (Lab)"."""
        return self.board.name()

    def view(self, player: int) -> dict[str, Any]:
        """Return what ``player``'s seat may see, JSON-ready (see the package docs for every key)."""
        if not isinstance(player, int) or not 0 <= player < self.players:
            raise ValueError(f"no seat {player!r} in a {self.players}-player game")
        latest = len(self.covered)
        seats = []
        for s in range(self.players):
            visible = not self.hidden or s == player
            seats.append(
                {
                    "seat": s,
                    "status": self.status[s],
                    "tile_count": len(self.hands[s]),
                    "hand": [tile_text(TILES[t]) for t in self.hands[s]] if visible else None,
                    "placed": sum(1 for who, _ in self.covered if who == s),
                    "start": s == self.start,
                }
            )
        return {
            "game": GAME_ID,
            "name": self.name,
            "board": self.board.to_dict(),
            "spaces": [
                {"id": i, "row": r, "col": c, "symbol": self.board.symbols[i], "covered": bool(self.occupied >> i & 1)}
                for i, (r, c) in enumerate(SPACES)
            ],
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
            "players": self.players,
            "solo": self.players == 1,
            "you": player,
            "hidden": self.hidden,
            "start": self.start,
            "turn": self.turn,
            "hand": [tile_text(TILES[t]) for t in self.hands[player]],
            "seats": seats,
            "discard": tile_text(TILES[self.discard]) if self.discard is not None else None,
            "eliminated": list(self.eliminated),
            "history": [dict(e) for e in self.history],
            "legal_moves": [str(m) for m in self.legal_moves()] if self.turn == player else [],
            "outcome": self._outcome.to_dict() if self._outcome else None,
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
        }


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


def from_dict(data: Mapping[str, Any]) -> HeptalionState:
    """Rebuild a game from ``to_dict`` by replaying its moves; raise ValueError when malformed."""
    try:
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
        state = HeptalionState(board, hands, start, bool(data.get("hidden", False)), discard_index, seed)
        if len(hands) != data.get("players", len(hands)):
            raise ValueError("the number of players does not match the deal")
        for text in data["moves"]:
            state.play(text)
        return state
    except IllegalMoveError as exc:
        raise ValueError(f"bad Heptalion save: a move does not replay ({exc})") from None
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"bad Heptalion save: {exc!r}") from None
    except ValueError as exc:
        raise ValueError(f"bad Heptalion save: {exc}") from None


@lru_cache(maxsize=64)
def _board_from_rows(rows: tuple[str, ...]) -> Board:
    return Board.from_rows(rows, "custom")


def board_from_view(view: Mapping[str, Any]) -> Board:
    """Return the board a view shows (cached by its rows)."""
    return _board_from_rows(tuple(view["board"]["rows"]))
