"""Rules of Triangles: 56 three-cornered tiles laid on a triangular grid by 2-4 players.

The rules text is ``rules/domino-classic-triangles.txt`` (The Triangles Variant); docs/architecture.md fixes
what it leaves open. Decisions taken here:

- **Tiles** are ``boneyard.tiles.TRIANGLES``, values ascending clockwise, written ``"2-3-5"``. A tile
  is rotated, never mirrored: laid in a cell, its values read clockwise round the cell are a cyclic
  shift of its ascending form.
- **Rotation** ``k`` puts the tile's first (lowest) value on corner ``k`` of the cell (corner order:
  ``grid``), the others following clockwise: corner ``(k + j) % 3`` shows ``tile[j]``. A triple looks
  the same in every rotation, so its only rotation is ``r0``; every other tile has three distinct
  rotations, and each one that fits a cell is its own legal move.
- **Placement**: an empty cell sharing a side with a placed tile, and every corner of the new tile
  that meets a corner already on the table (along a side or only at a point) shows the same number.
  The table keeps one number per lattice vertex, so that check is a lookup per corner.
- **Opening**: the holder of the highest triple (5-5-5 down to 0-0-0) must lay it in cell (0, 0).
  With no triple dealt, the tile with the highest total opens, ties going to the tile whose values,
  compared from the highest down, are higher (5-5-3 before 5-4-4). The opening is the opener's move
  ``<tile>@0,0r<k>``, in any of the tile's distinct rotations (r0 only for a triple); those are the
  only legal moves at the start. Laid next to tiles, a tile fits a cell in at most one rotation (a
  shared side fixes an ordered pair of values, which a tile's clockwise cycle holds at most once),
  so several rotations of one tile in one cell occur only at the opening.
- **No fit**: with no tile that fits, the player draws (move ``draw``) one tile at a time, at most
  three a turn, and must play as soon as a tile fits. With nothing that fits and either three drawn
  this turn or an empty stock, the only move is ``pass``. Nobody may draw or pass while a tile fits.
  ``draws_left`` counts the draws still allowed this turn (3 at the start of every turn).
- **End**: a player who lays their last tile wins (``out``). The game is **blocked** when every player
  in a row has passed with the stock empty (a pass made while the stock still has tiles, after three
  draws, resets that count, as does any placement); then the lowest pip total (sum of corners) wins
  and a tie for lowest is a draw (``Outcome.winners`` lists the tied seats).
- **Deal**: 9 tiles each for two players, 7 each for three or four, seat 0 first from the shuffled set;
  the rest is the stock, drawn from its end.

Move text: ``2-3-5@4,-1r1`` (tile, ``@`` row ``,`` col, ``r`` rotation), ``draw``, ``pass``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from ...core import IllegalMoveError, Outcome, Termination, TurnState, make_rng, rng_from_json, rng_to_json
from ...tiles import TRIANGLES, Triangle
from . import grid, views
from .grid import Cell, Vertex
from .views import TrianglesView

__all__ = [
    "HAND_SIZES",
    "MAX_DRAWS",
    "TILES",
    "Board",
    "Draw",
    "Move",
    "Pass",
    "Pattern",
    "Place",
    "Tile",
    "TrianglesState",
    "corner_values",
    "fit_mask",
    "fitting",
    "from_dict",
    "new_state",
    "opening_tile",
    "parse_move",
    "parse_tile",
    "rotations",
    "tile_text",
]

Tile = Triangle
Pattern = tuple[int | None, int | None, int | None]  # what a cell's corners require
BoardUndo = tuple[tuple[Vertex, ...], tuple[Cell, ...], bool]  # what Board.unplace takes back

TILES: tuple[Tile, ...] = TRIANGLES
TILE_INDEX: dict[Tile, int] = {tile: i for i, tile in enumerate(TILES)}
HAND_SIZES = {2: 9, 3: 7, 4: 7}
MAX_DRAWS = 3
SAVE_VERSION = 1


# ----------------------------------------------------------------------------------------------
# Tiles and rotations


def tile_text(tile: Tile) -> str:
    """Return the text form ``"2-3-5"`` of a tile."""
    return f"{tile[0]}-{tile[1]}-{tile[2]}"


_TILE_RE = re.compile(r"^([0-5])-([0-5])-([0-5])$")


def parse_tile(text: str) -> Tile:
    """Parse ``"2-3-5"`` (values ascending) into a tile; raise ValueError otherwise."""
    found = _TILE_RE.match(text.strip()) if isinstance(text, str) else None
    if not found:
        raise ValueError(f"not a Triangles tile: {text!r} (write three values 0-5 like 2-3-5)")
    tile = (int(found[1]), int(found[2]), int(found[3]))
    if tile not in TILE_INDEX:
        raise ValueError(
            f"write a tile's values in ascending order, like {'-'.join(str(v) for v in sorted(tile))}"
        )
    return tile


def is_triple(tile: Tile) -> bool:
    """Tell whether all three values of a tile are the same."""
    return tile[0] == tile[2]


def rotations(tile: Tile) -> tuple[int, ...]:
    """Return the distinct rotations of a tile: only 0 for a triple, else 0, 1 and 2."""
    return (0,) if is_triple(tile) else (0, 1, 2)


def corner_values(tile: Tile, rotation: int) -> tuple[int, int, int]:
    """Return the values shown at corners 0, 1, 2 of a cell when ``tile`` is laid in ``rotation``."""
    k = rotation % 3
    values = [0, 0, 0]
    for j in range(3):
        values[(k + j) % 3] = tile[j]
    return (values[0], values[1], values[2])


# Every pattern of corner requirements (None = free) -> {tile index: rotations that fit}.
_FITS: dict[Pattern, dict[int, tuple[int, ...]]] = {}
_FIT_MASK: dict[Pattern, int] = {}
for _pattern in product((None, 0, 1, 2, 3, 4, 5), repeat=3):
    _found: dict[int, tuple[int, ...]] = {}
    _mask = 0
    for _index, _tile in enumerate(TILES):
        _rots = tuple(
            rot
            for rot in rotations(_tile)
            if all(want is None or want == got for want, got in zip(_pattern, corner_values(_tile, rot)))
        )
        if _rots:
            _found[_index] = _rots
            _mask |= 1 << _index
    _FITS[_pattern] = _found  # type: ignore[index]
    _FIT_MASK[_pattern] = _mask  # type: ignore[index]


def fitting(pattern: Pattern) -> dict[int, tuple[int, ...]]:
    """Return, for a cell whose corners require ``pattern``, each fitting tile's index and rotations."""
    return _FITS[pattern]


def fit_mask(pattern: Pattern) -> int:
    """Return the bit set (bit i = ``TILES[i]``) of the tiles that fit ``pattern`` in some rotation."""
    return _FIT_MASK[pattern]


def tile_mask(tiles: Iterable[Tile]) -> int:
    """Return the bit set of some tiles (bit i = ``TILES[i]``)."""
    mask = 0
    for tile in tiles:
        mask |= 1 << TILE_INDEX[tile]
    return mask


# ----------------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True, order=True)
class Place:
    """Lay ``tile`` in ``cell`` turned by ``rotation`` (see the module notes); text ``2-3-5@4,-1r1``."""

    tile: Tile
    cell: Cell
    rotation: int = 0

    def __str__(self) -> str:
        return f"{tile_text(self.tile)}@{self.cell[0]},{self.cell[1]}r{self.rotation}"

    @property
    def values(self) -> tuple[int, int, int]:
        """Return the numbers this placement shows at the cell's corners 0, 1, 2."""
        return corner_values(self.tile, self.rotation)


@dataclass(frozen=True)
class Draw:
    """Draw one tile from the stock (allowed only when nothing fits); text ``draw``."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass:
    """Pass the turn (allowed only when nothing fits and no draw is left); text ``pass``."""

    def __str__(self) -> str:
        return "pass"


Move = Place | Draw | Pass

_PLACE_RE = re.compile(r"^([0-5]-[0-5]-[0-5])@(-?\d+),(-?\d+)r([0-2])$")


def parse_move(text: str) -> Move:
    """Parse a move's text (``2-3-5@4,-1r1``, ``draw``, ``pass``); raise ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"not a move: {text!r}")
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned == "draw":
        return Draw()
    if cleaned == "pass":
        return Pass()
    found = _PLACE_RE.match(cleaned)
    if not found:
        raise ValueError(f"not a move: {text!r} (expected like 2-3-5@4,-1r1, draw or pass)")
    tile = parse_tile(found[1])
    return Place(tile, (int(found[2]), int(found[3])), int(found[4]))


# ----------------------------------------------------------------------------------------------
# The table


class Board:
    """The tiles on the table: one number per lattice vertex and the frontier of open cells.

    The frontier (empty cells sharing a side with a placed tile, each with the pattern its corners
    require) is kept up to date as tiles are laid and taken back, so finding legal placements never
    scans the whole table nor looks a pattern up twice.
    """

    __slots__ = ("frontier", "order", "values", "vertices")

    def __init__(self) -> None:
        self.values: dict[Cell, tuple[int, int, int]] = {}  # placed cell -> corner values
        self.vertices: dict[Vertex, int] = {}  # vertex -> the number shown there
        self.frontier: dict[Cell, Pattern] = {}  # empty cells sharing a side with a tile -> their pattern
        self.order: list[Cell] = []  # placed cells in the order laid

    def copy(self) -> Board:
        """Return an independent copy."""
        other = Board.__new__(Board)
        other.values = dict(self.values)
        other.vertices = dict(self.vertices)
        other.frontier = dict(self.frontier)
        other.order = list(self.order)
        return other

    def __len__(self) -> int:
        return len(self.values)

    def pattern(self, cell: Cell) -> Pattern:
        """Return what the corners of ``cell`` must show (None where nothing is on the table yet)."""
        get = self.vertices.get
        a, b, c = grid.corners(cell)
        return (get(a), get(b), get(c))

    def refusal(self, cell: Cell, values: tuple[int, int, int]) -> str | None:
        """Return why ``values`` may not be laid in ``cell`` (None when the placement is legal)."""
        if cell in self.values:
            return f"cell {cell[0]},{cell[1]} already holds a tile"
        if self.values and cell not in self.frontier:
            return f"cell {cell[0]},{cell[1]} shares no side with a tile on the table"
        for vertex, value in zip(grid.corners(cell), values):
            there = self.vertices.get(vertex)
            if there is not None and there != value:
                return (
                    f"a corner of cell {cell[0]},{cell[1]} meets a {there} on the table, "
                    f"but the tile shows {value} there"
                )
        return None

    def place(self, cell: Cell, values: tuple[int, int, int]) -> BoardUndo:
        """Lay corner ``values`` in ``cell`` (unchecked: call ``refusal`` first); return what ``unplace`` needs."""
        self.values[cell] = values
        self.order.append(cell)
        vertices = self.vertices
        fresh: list[Vertex] = []
        for vertex, value in zip(grid.corners(cell), values):
            if vertex not in vertices:
                vertices[vertex] = value
                fresh.append(vertex)
        frontier = self.frontier
        was_open = frontier.pop(cell, None) is not None
        opened: list[Cell] = []
        placed = self.values
        for other in grid.neighbours(cell):
            if other not in placed and other not in frontier:
                opened.append(other)
                frontier[other] = self.pattern(other)
        self._refresh(fresh)
        return (tuple(fresh), tuple(opened), was_open)

    def unplace(self, cell: Cell, record: BoardUndo) -> None:
        """Take back the tile last laid in ``cell``, given what ``place`` returned."""
        fresh, opened, was_open = record
        del self.values[cell]
        self.order.pop()
        for vertex in fresh:
            del self.vertices[vertex]
        frontier = self.frontier
        for other in opened:
            del frontier[other]
        if was_open:
            frontier[cell] = self.pattern(cell)
        self._refresh(fresh)

    def _refresh(self, vertices: Iterable[Vertex]) -> None:
        """Work out again the patterns of the open cells at ``vertices`` (whose numbers changed)."""
        frontier = self.frontier
        get = self.vertices.get
        for vertex in vertices:
            for other in grid.cells_at(vertex):
                if other in frontier:
                    a, b, c = grid.corners(other)
                    frontier[other] = (get(a), get(b), get(c))

    def placements(self, tiles: Iterable[Tile]) -> list[Place]:
        """Return every legal placement of the given tiles, sorted (empty table: none)."""
        wanted = 0
        for tile in tiles:
            wanted |= 1 << TILE_INDEX[tile]
        if not wanted:
            return []
        found: list[tuple[Tile, Cell, int]] = []
        for cell, pattern in self.frontier.items():
            both = _FIT_MASK[pattern] & wanted
            if not both:
                continue
            fits = _FITS[pattern]
            while both:
                low = both & -both
                index = low.bit_length() - 1
                both ^= low
                tile = TILES[index]
                for rot in fits[index]:
                    found.append((tile, cell, rot))
        found.sort()  # the order of Place's fields: tile, cell, rotation
        return [Place(tile, cell, rot) for tile, cell, rot in found]

    def fits_any(self, tiles: Iterable[Tile]) -> bool:
        """Tell whether any of the tiles fits anywhere."""
        mask = tile_mask(tiles)
        return any(_FIT_MASK[pattern] & mask for pattern in self.frontier.values())


def opening_tile(hands: Iterable[Iterable[Tile]]) -> tuple[int, Tile]:
    """Return ``(seat, tile)`` that opens: the highest triple, else the highest total (module notes)."""
    best: tuple[Any, int, Tile] | None = None
    for seat, hand in enumerate(hands):
        for tile in hand:
            key = (is_triple(tile), sum(tile), tuple(sorted(tile, reverse=True)))
            if best is None or key > best[0]:
                best = (key, seat, tile)
    if best is None:
        raise ValueError("nobody holds a tile")
    return best[1], best[2]


# ----------------------------------------------------------------------------------------------
# The state


@dataclass(frozen=True)
class Laid:
    """One tile on the table: where, how turned, by whom."""

    tile: Tile
    cell: Cell
    rotation: int
    seat: int


class TrianglesState(TurnState[TrianglesView]):
    """A game of Triangles in progress (see the module notes for the rules as implemented).

    The frame (``play``, ``undo``, ``clone``, ``view``, ``from_dict``) is ``core.TurnState``'s; this class
    keeps the hands, the stock, the table and the rules. Each move appends one public history entry, so
    ``turn_number`` always equals ``len(history)``.
    """

    GAME = "triangles"
    VIEW = views.VIEW
    NAME = "Triangles"
    MOVE_TYPES = (Place, Draw, Pass)
    parse_move = staticmethod(parse_move)

    def __init__(self, players: int, hands: list[list[Tile]], stock: list[Tile], rng: random.Random) -> None:
        self._start(players, rng)
        self.hands = hands
        self.stock = stock  # drawn from the end
        self.rng: random.Random = rng  # kept for saves; the deal used it
        self.board = Board()
        self.laid: list[Laid] = []
        self.history: list[tuple[int, str]] = []  # (seat, move text), public
        self.opener, self.opening = opening_tile(hands)
        self.current = self.opener
        self.draws_left = MAX_DRAWS
        self.passes = 0  # passes in a row made with the stock empty
        self._legal: list[Move] | None = None

    # -- the game's hooks of TurnState ------------------------------------------------------------

    def current_player(self) -> int | None:
        """Return the seat to move, or None once the game is over."""
        return None if self._outcome is not None else self.current

    def legal_moves(self) -> list[Move]:
        """Return every legal move of the seat to move (placements sorted, then draw or pass)."""
        if self._outcome is not None:
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Move]:
        if not self.board.values:
            return [Place(self.opening, grid.ORIGIN, rot) for rot in rotations(self.opening)]
        placements: list[Move] = list(self.board.placements(self.hands[self.current]))
        if placements:
            return placements
        if self.draws_left > 0 and self.stock:
            return [Draw()]
        return [Pass()]

    def _accept(self, move: Move) -> Move:
        """Return ``move`` when it is legal now; raise IllegalMoveError saying why otherwise."""
        if isinstance(move, Place) and not _well_formed(move):
            raise IllegalMoveError(f"not a Triangles placement: {move!r}")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if move in legal:
            return move
        raise IllegalMoveError(self._why_illegal(move, legal))

    def _apply(self, move: Move) -> tuple[Any, ...]:
        """Apply a legal move; return the undo record (its kind, the legal moves before, what changed)."""
        seat = self.current
        legal = self._legal
        self.history.append((seat, str(move)))
        self._legal = None
        kind = type(move)
        if kind is Draw:
            self.hands[seat].append(self.stock.pop())
            self.draws_left -= 1
            return (_DRAW, legal)
        record: tuple[Any, ...]
        if kind is Pass:
            record = (_PASS, legal, self.passes, self.draws_left)
            self.passes = self.passes + 1 if not self.stock else 0
            if self.passes >= self.players:
                self._finish_blocked()
            else:
                self._next_turn()
            return record
        assert isinstance(move, Place)
        hand = self.hands[seat]
        index = hand.index(move.tile)
        del hand[index]
        undo_board = self.board.place(move.cell, move.values)
        self.laid.append(Laid(move.tile, move.cell, move.rotation, seat))
        record = (_PLACE, legal, self.passes, self.draws_left, index, undo_board)
        self.passes = 0
        if not hand:
            self._finish_out(seat)
        else:
            self._next_turn()
        return record

    def _revert(self, record: tuple[Any, ...]) -> None:
        """Take back the move ``record`` came from: hand order, stock order, table, turn and counts."""
        seat = self.history.pop()[0]
        kind = record[0]
        self._legal = record[1]
        if kind == _DRAW:
            self.stock.append(self.hands[seat].pop())
            self.draws_left += 1
            return
        self._outcome = None
        self.current = seat
        self.passes, self.draws_left = record[2], record[3]
        if kind == _PLACE:
            item = self.laid.pop()
            self.board.unplace(item.cell, record[5])
            self.hands[seat].insert(record[4], item.tile)

    def _copy_into(self, other: Any) -> None:
        """Give a clone its own hands, stock, table and history."""
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.board = self.board.copy()
        other.laid = list(self.laid)
        other.history = list(self.history)

    def _next_turn(self) -> None:
        self.current = self.next_seat(self.current)
        self.draws_left = MAX_DRAWS

    def _why_illegal(self, move: Move, legal: list[Move]) -> str:
        can_place = any(isinstance(m, Place) for m in legal)
        if isinstance(move, (Draw, Pass)):
            if can_place:
                return "a tile of yours fits: play it (you may draw or pass only when nothing fits)"
            if isinstance(move, Pass):
                return f"draw from the stock first ({self.draws_left} draws left this turn)"
            if not self.stock:
                return "the stock is empty: pass"
            return f"you have drawn {MAX_DRAWS} tiles this turn: pass"
        assert isinstance(move, Place)
        if not self.board.values:
            return f"the game opens with {tile_text(self.opening)} laid at 0,0 (for example {legal[0]})"
        if move.tile not in self.hands[self.current]:
            return f"you do not hold {tile_text(move.tile)}"
        if move.rotation not in rotations(move.tile):
            return f"{tile_text(move.tile)} looks the same in every rotation: use r0"
        reason = self.board.refusal(move.cell, move.values)
        if reason:
            return reason
        return "that placement is not allowed now"

    def _pips(self) -> tuple[int, ...]:
        return tuple(sum(sum(tile) for tile in hand) for hand in self.hands)

    def _placings(self, first: Iterable[int]) -> tuple[int, ...]:
        pips = self._pips()
        firsts = set(first)
        places = []
        for seat in range(self.players):
            if seat in firsts:
                places.append(1)
            else:
                better = sum(
                    1 for o in range(self.players) if o != seat and (o in firsts or pips[o] < pips[seat])
                )
                places.append(better + 1)
        return tuple(places)

    def _finish_out(self, seat: int) -> None:
        self._outcome = Outcome(
            winners=(seat,), termination=Termination.OUT, placings=self._placings([seat]), scores=self._pips()
        )

    def _finish_blocked(self) -> None:
        pips = self._pips()
        low = min(pips)
        winners = tuple(seat for seat in range(self.players) if pips[seat] == low)
        self._outcome = Outcome(
            winners=winners, termination=Termination.BLOCKED, placings=self._placings(winners), scores=pips
        )

    # -- the view ------------------------------------------------------------------------------------

    def _hand_counts(self) -> list[int]:
        return [len(hand) for hand in self.hands]

    def _public_history(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "move": text} for seat, text in self.history]

    def _view(self, seat: int) -> dict[str, Any]:
        """Return Triangles' own view keys (documented in the package notes)."""
        hand = self.hands[seat]
        return {
            "hand": [_TEXT[tile] for tile in hand],
            "pips": sum(sum(tile) for tile in hand),
            "stock": len(self.stock),
            "draws_left": self.draws_left if self._outcome is None else 0,
            "passes": self.passes,
            "opening": _TEXT[self.opening],
            "table": [
                {
                    "cell": [item.cell[0], item.cell[1]],
                    "tile": _TEXT[item.tile],
                    "rotation": item.rotation,
                    "corners": list(self.board.values[item.cell]),
                    "up": (item.cell[0] + item.cell[1]) % 2 == 0,
                    "seat": item.seat,
                    "turn": index,
                }
                for index, item in enumerate(self.laid)
            ],
        }

    # -- saves -----------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state, JSON-ready, for ``from_dict``."""
        return {
            "game": "triangles",
            "version": SAVE_VERSION,
            "players": self.players,
            "hands": [[tile_text(t) for t in hand] for hand in self.hands],
            "stock": [tile_text(t) for t in self.stock],
            "table": [
                {
                    "tile": tile_text(i.tile),
                    "cell": [i.cell[0], i.cell[1]],
                    "rotation": i.rotation,
                    "seat": i.seat,
                }
                for i in self.laid
            ],
            "current": self.current,
            "draws_left": self.draws_left,
            "passes": self.passes,
            "history": [[seat, text] for seat, text in self.history],
            "turn_number": self.turn_number,
            "outcome": self._outcome.to_dict() if self._outcome is not None else None,
            "rng": rng_to_json(self.rng),
        }

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> TrianglesState:
        try:
            return _from_dict(data)
        except (
            OverflowError
        ) as exc:  # a number out of range (generator words, infinite scores): core lets it through
            raise ValueError(f"OverflowError: {exc}") from None


_DRAW, _PASS, _PLACE = 0, 1, 2  # the kinds of undo record
_TEXT: dict[Tile, str] = {tile: tile_text(tile) for tile in TILES}


def _well_formed(move: Place) -> bool:
    """Tell whether a placement's fields have the right shapes (a real tile, an integer cell)."""
    try:
        cell_ok = len(move.cell) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) for x in move.cell
        )
        return move.tile in TILE_INDEX and cell_ok and move.rotation in (0, 1, 2)
    except TypeError:
        return False


def new_state(seed: int | None = None, players: int = 2, rng: random.Random | None = None) -> TrianglesState:
    """Deal a new game for 2-4 players from ``seed`` (or from ``rng`` when given)."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in HAND_SIZES:
        raise ValueError(f"Triangles takes 2 to 4 players, not {players!r}")
    rng = rng if rng is not None else make_rng(seed)
    tiles = list(TILES)
    rng.shuffle(tiles)
    size = HAND_SIZES[players]
    hands = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
    stock = tiles[players * size :]
    return TrianglesState(players, hands, stock, rng)


# Rebuild a state from ``to_dict``'s form; any malformed save is one ValueError ("bad Triangles save: ...").
from_dict = TrianglesState.from_dict


def _int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer {low}-{high}, not {value!r}")
    return value


def _from_dict(data: Mapping[str, Any]) -> TrianglesState:
    if not isinstance(data, Mapping):
        raise ValueError("not a mapping")
    if data.get("game") != "triangles":
        raise ValueError(f"not a Triangles save (game {data.get('game')!r})")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(f"unknown Triangles save version {data.get('version')!r}")
    players = _int(data["players"], "players", 2, 4)
    hands = [[parse_tile(t) for t in hand] for hand in data["hands"]]
    if len(hands) != players:
        raise ValueError(f"{len(hands)} hands for {players} players")
    stock = [parse_tile(t) for t in data["stock"]]
    laid = []
    for item in list(data["table"]):
        cell = item["cell"]
        if not isinstance(cell, list) or len(cell) != 2:
            raise ValueError(f"bad cell {cell!r}")
        r = _int(cell[0], "row", -1000, 1000)
        c = _int(cell[1], "col", -1000, 1000)
        rotation = _int(item["rotation"], "rotation", 0, 2)
        laid.append(
            Laid(parse_tile(item["tile"]), (r, c), rotation, _int(item["seat"], "seat", 0, players - 1))
        )
    everything = [t for hand in hands for t in hand] + stock + [i.tile for i in laid]
    if sorted(everything) != sorted(TILES):
        raise ValueError("the tiles in hands, stock and table are not the 56 tiles once each")
    state = TrianglesState.__new__(TrianglesState)
    state._start(players, rng_from_json(data["rng"]))
    state.hands = hands
    state.stock = stock
    state.board = Board()
    state.laid = []
    state._legal = None
    for index, item in enumerate(laid):
        if index == 0 and item.cell != grid.ORIGIN:
            raise ValueError("the first tile is not at 0,0")
        if item.rotation not in rotations(item.tile):
            raise ValueError(f"{tile_text(item.tile)} cannot take rotation {item.rotation}")
        values = corner_values(item.tile, item.rotation)
        reason = state.board.refusal(item.cell, values)
        if reason:
            raise ValueError(f"table tile {index + 1}: {reason}")
        state.board.place(item.cell, values)
        state.laid.append(item)
    history = []
    for entry in data["history"]:
        seat, text = entry
        parse_move(text)
        history.append((_int(seat, "history seat", 0, players - 1), str(text)))
    state.history = history
    laid_texts = [(item.seat, str(Place(item.tile, item.cell, item.rotation))) for item in laid]
    if [entry for entry in history if entry[1] not in ("draw", "pass")] != laid_texts:
        raise ValueError("the history does not match the tiles on the table")
    # A save from before turn_number was kept has one history entry a move: derive it.
    state.turn_number = _int(data.get("turn_number", len(history)), "turn_number", 0, 100_000)
    if state.turn_number != len(history):
        raise ValueError(f"turn_number {state.turn_number} but {len(history)} moves in the history")
    # The opener is decided by the deal: the hands as they were before any tile was laid or drawn.
    if not laid:
        state.opener, state.opening = opening_tile(hands)
    else:
        state.opener, state.opening = laid[0].seat, laid[0].tile
    state.current = _int(data["current"], "current", 0, players - 1)
    state.draws_left = _int(data["draws_left"], "draws_left", 0, MAX_DRAWS)
    state.passes = _int(data["passes"], "passes", 0, players)
    if not laid and state.current != state.opener:
        raise ValueError("before the opening it must be the opener's turn")
    outcome = data.get("outcome")
    if outcome is not None:
        state._outcome = Outcome.from_dict(outcome)
    return state
