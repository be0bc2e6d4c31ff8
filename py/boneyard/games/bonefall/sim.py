"""The falling-dominoes puzzle: a deterministic simulation advanced in fixed steps.

The playfield is ``WIDTH`` x ``HEIGHT`` cells (8 x 16), row 0 at the top. A domino enters horizontally at
the top centre and falls one row every ``gravity_steps(level)`` steps; the player moves, rotates and drops
it through ``command()``. When it can fall no further it waits ``LOCK_DELAY`` steps and locks; then the
turn resolves: horizontal dominoes overhanging a gap tip over, same-value halves annihilate, survivors
fall, and so on until nothing moves.

The simulation knows nothing of clocks or drawing: ``step()`` is one sixtieth of a second of play. It
draws every random number from its own seeded generator, so a game is reproducible from its seed,
options and input log (``replay``), and ``to_dict`` / ``from_dict`` resume it exactly.

Rule decisions (docs/architecture.md, "Bonefall", and where it is silent):
- Speed: level = 1 + dominoes locked // 10; a domino descends one row every ``gravity_steps(level)``
  steps (36 at level 1, about 0.6 s a row, down to 2). ``soft_drop`` moves it one row at once (the screen
  repeats it while the key is held); ``hard_drop`` drops and locks it at once. A landed domino locks after
  ``LOCK_DELAY`` steps; a move or rotation on the ground restarts that delay, at most ``MAX_LOCK_RESETS``
  times a domino. Moves and rotations that would leave the well or overlap a half are refused; there are
  no wall kicks. Rotation turns the domino inside its 2x2 box (see ``piece_cells``).
- Tip-over: a horizontal domino at rest with exactly one half supported (by the floor or a half) and the
  cell under the other half empty tips over, in the falling domino's turn and during cascades alike.
- Matches are looked for only once everything is at rest; all matches of a round vanish together.
- Sprint also ends if the next domino has no room at the top ("topped out"), as Marathon does. An
  optional ``max_sets`` caps a Marathon ("set cap") so that autoplayed games finish.
- Speed score = Power per minute of unpaused play = Power * 3600 / steps played.

Grid cells are numbered ``row * WIDTH + col``. A board keeps three parallel lists: the value of each
half (-1 for an empty cell), the id of the domino it belongs to (0 for empty) and the cell of its
partner half (-1 when the partner was annihilated: a single square).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core import IllegalMoveError, Outcome, Termination, make_rng, rng_from_json, rng_to_json
from ...tiles import DOUBLE_NINE, DOUBLE_SIX, Domino
from . import views
from .views import BonefallView, CascadeEvent, Cell, Piece

__all__ = [
    "COMMANDS",
    "DEFAULT_CASCADE_STEPS",
    "HEIGHT",
    "LOCK_DELAY",
    "MAX_LOCK_RESETS",
    "MODES",
    "SETS",
    "SOFT_DROP_REPEAT",
    "STEPS_PER_SECOND",
    "WIDTH",
    "Board",
    "BonefallState",
    "Move",
    "from_dict",
    "gravity_steps",
    "level_for",
    "new_state",
    "parse_move",
    "piece_cells",
    "replay",
]

WIDTH = 8
HEIGHT = 16
SIZE = WIDTH * HEIGHT
STEPS_PER_SECOND = 60
LOCK_DELAY = 30  # steps a landed domino waits before it locks (half a second)
MAX_LOCK_RESETS = 15  # moves/rotations on the ground that restart the lock delay, per domino
SOFT_DROP_REPEAT = 2  # the screen repeats soft_drop every this many steps while the key is held
DEFAULT_CASCADE_STEPS = 12  # steps the screen gets to animate each resolution event (0.2 s)
DOMINOES_PER_LEVEL = 10
SPAWN_COL = WIDTH // 2 - 1  # the left half enters at column 3, the right half at column 4
SAVE_VERSION = 1

COMMANDS = ("left", "right", "rotate_cw", "rotate_ccw", "soft_drop", "hard_drop")
SETS: dict[str, tuple[Domino, ...]] = {"norm": DOUBLE_SIX, "max": DOUBLE_NINE}
MODES = ("sprint", "marathon")

# Gravity: steps a falling domino takes to descend one row, by level (level 1 = index 0). Level rises by
# one every DOMINOES_PER_LEVEL dominoes locked: 0.6 s a row at level 1, about 0.04 s from level 15.
_GRAVITY = tuple(max(2, round(36 * 0.82**level)) for level in range(15))


def level_for(dominoes_played: int) -> int:
    """Return the level reached after ``dominoes_played`` dominoes have locked (1, 2, ...)."""
    return 1 + dominoes_played // DOMINOES_PER_LEVEL


def gravity_steps(level: int) -> int:
    """Return the steps a falling domino takes to descend one row at ``level``."""
    return _GRAVITY[min(max(level, 1), len(_GRAVITY)) - 1]


def _lines(min_len: int, diagonal: bool) -> tuple[tuple[int, ...], ...]:
    """Return every row and column (or every diagonal) of the grid with at least ``min_len`` cells."""
    found: list[tuple[int, ...]] = []
    if not diagonal:
        found += [tuple(r * WIDTH + c for c in range(WIDTH)) for r in range(HEIGHT)]
        found += [tuple(r * WIDTH + c for r in range(HEIGHT)) for c in range(WIDTH)]
    else:
        for dc in (1, -1):
            edge = 0 if dc == 1 else WIDTH - 1
            starts = [(0, c) for c in range(WIDTH)] + [(r, edge) for r in range(1, HEIGHT)]
            for r0, c0 in starts:
                line = []
                r, c = r0, c0
                while 0 <= r < HEIGHT and 0 <= c < WIDTH:
                    line.append(r * WIDTH + c)
                    r, c = r + 1, c + dc
                if len(line) >= min_len:
                    found.append(tuple(line))
    return tuple(found)


STRAIGHT_LINES = _lines(2, diagonal=False)  # rows and columns: two or more halves match
DIAGONAL_LINES = _lines(3, diagonal=True)  # diagonals: three or more halves match


def piece_cells(col: int, row: int, orientation: int) -> tuple[int, int, int, int]:
    """Return ``(col_a, row_a, col_b, row_b)``: where a falling domino's two halves are.

    The anchor ``(col, row)`` is the top-left cell of the domino's box. Orientation 0: first half left,
    second right; 1: first on top, second below; 2: second left, first right; 3: second on top, first
    below. Rotating clockwise adds one (0 -> 1 -> 2 -> 3 -> 0) and keeps the anchor, so a domino never
    rotates above the row it is in.
    """
    if orientation == 0:
        return col, row, col + 1, row
    if orientation == 1:
        return col, row, col, row + 1
    if orientation == 2:
        return col + 1, row, col, row
    return col, row + 1, col, row


class Board:
    """The cells at rest: values, domino ids and partner links, with the physics of a turn."""

    __slots__ = ("mate", "pid", "val")

    def __init__(
        self, val: list[int] | None = None, pid: list[int] | None = None, mate: list[int] | None = None
    ) -> None:
        self.val = val if val is not None else [-1] * SIZE
        self.pid = pid if pid is not None else [0] * SIZE
        self.mate = mate if mate is not None else [-1] * SIZE

    def copy(self) -> Board:
        """Return an independent copy."""
        return Board(self.val[:], self.pid[:], self.mate[:])

    def fits(self, col: int, row: int, orientation: int) -> bool:
        """Tell whether a domino anchored at ``(col, row)`` with ``orientation`` lies on empty cells."""
        val = self.val
        if orientation & 1:  # vertical
            if col < 0 or col >= WIDTH or row < 0 or row >= HEIGHT - 1:
                return False
            i = row * WIDTH + col
            return val[i] < 0 and val[i + WIDTH] < 0
        if col < 0 or col >= WIDTH - 1 or row < 0 or row >= HEIGHT:
            return False
        i = row * WIDTH + col
        return val[i] < 0 and val[i + 1] < 0

    def drop_row(self, col: int, row: int, orientation: int) -> int:
        """Return the lowest row the domino reaches falling straight down from ``(col, row)``."""
        while self.fits(col, row + 1, orientation):
            row += 1
        return row

    def place(self, col: int, row: int, orientation: int, a: int, b: int, piece: int) -> tuple[int, int]:
        """Write domino ``piece`` (first half ``a``, second ``b``) into the grid; return its two cells."""
        ca, ra, cb, rb = piece_cells(col, row, orientation)
        i, j = ra * WIDTH + ca, rb * WIDTH + cb
        self.val[i], self.val[j] = a, b
        self.pid[i] = self.pid[j] = piece
        self.mate[i], self.mate[j] = j, i
        return i, j

    def put(self, col: int, row: int, value: int, piece: int, mate: tuple[int, int] | None = None) -> None:
        """Write one half (for hand-built positions); ``mate`` is its partner's ``(col, row)``."""
        i = row * WIDTH + col
        self.val[i], self.pid[i] = value, piece
        if mate is None:
            self.mate[i] = -1
        else:
            j = mate[1] * WIDTH + mate[0]
            self.mate[i], self.mate[j] = j, i

    # -- physics ------------------------------------------------------------------------------

    def _move(self, cells: Sequence[int], shift: int) -> None:
        """Move the halves ``cells`` (one unit) by ``shift`` cell numbers, keeping their links."""
        val, pid, mate = self.val, self.pid, self.mate
        saved = [(i, val[i], pid[i], mate[i]) for i in cells]
        for i in cells:
            val[i], pid[i], mate[i] = -1, 0, -1
        for i, v, p, m in saved:
            k = i + shift
            val[k], pid[k] = v, p
            mate[k] = m + shift if m >= 0 else -1

    def settle(self, moves: list[dict[str, Any]] | None = None, landed: list[int] | None = None) -> bool:
        """Let everything fall to rest, tipping overhanging horizontal dominoes; tell whether anything moved.

        One pass from the bottom row up settles the whole grid: when a unit is reached, everything below
        it is already at rest. A single square or a vertical domino falls down its column; a horizontal
        domino falls while both halves hang free; resting with one half supported and the cell below the
        other half empty, it tips over into that column (the overhanging half below) and falls on. With
        ``moves`` given, each unit that moved is appended as a fall event entry; with ``landed``, the
        cells where moved halves came to rest.
        """
        val, pid, mate = self.val, self.pid, self.mate
        done: set[int] = set()
        moved = False
        for row in range(HEIGHT - 2, -1, -1):
            base = row * WIDTH
            if val[base : base + WIDTH] == _EMPTY_ROW:
                continue
            for col in range(WIDTH):
                i = base + col
                if val[i] < 0:
                    continue
                p = pid[i]
                if p in done:
                    continue
                m = mate[i]
                # Reached through its lower / left half. Test ``m >= 0`` first: a single square's -1
                # would otherwise read as "partner on the left" in cell 0, which then never fell.
                if m >= 0 and (m == i + WIDTH or m == i - 1):
                    continue
                done.add(p)
                tipped = False
                if m < 0 or m == i - WIDTH:  # single square, or vertical domino reached at its lower half
                    cells = [i] if m < 0 else [m, i]
                    k = i
                    while k + WIDTH < SIZE and val[k + WIDTH] < 0:
                        k += WIDTH
                    if k == i:
                        continue
                    before = self._snapshot(cells) if moves is not None else None
                    self._move(cells, k - i)
                    after = [c + k - i for c in cells]
                else:  # horizontal domino, left half i, right half i + 1
                    left, right = i, i + 1
                    k = left
                    while k + WIDTH < SIZE and val[k + WIDTH] < 0 and val[k + WIDTH + 1] < 0:
                        k += WIDTH
                    before = self._snapshot([left, right]) if moves is not None else None
                    if k != left:
                        self._move([left, right], k - left)
                    left, right = k, k + 1
                    after = [left, right]
                    if right + WIDTH < SIZE:
                        free_left = val[left + WIDTH] < 0
                        free_right = val[right + WIDTH] < 0
                        if free_left != free_right:
                            tipped = True
                            # The overhanging half drops one row; the supported half takes its place.
                            over, held = (left, right) if free_left else (right, left)
                            v_over, v_held = val[over], val[held]
                            val[held], pid[held], mate[held] = -1, 0, -1
                            top, bottom = over, over + WIDTH
                            val[bottom], pid[bottom] = v_over, p
                            val[top], pid[top] = v_held, p
                            mate[top], mate[bottom] = bottom, top
                            k = bottom
                            while k + WIDTH < SIZE and val[k + WIDTH] < 0:
                                k += WIDTH
                            if k != bottom:
                                self._move([top, bottom], k - bottom)
                            # keep the halves in the order of ``before`` (left half first)
                            after = [top + k - bottom, k] if free_right else [k, top + k - bottom]
                    if after == [i, i + 1] and not tipped:
                        continue
                moved = True
                if landed is not None:
                    landed.extend(after)
                if moves is not None and before is not None:
                    moves.append(
                        {
                            "piece": p,
                            "tipped": tipped,
                            "halves": [
                                {"value": v, "from": [c % WIDTH, c // WIDTH], "to": [a % WIDTH, a // WIDTH]}
                                for (c, v), a in zip(before, after)
                            ],
                        }
                    )
        return moved

    def _snapshot(self, cells: Sequence[int]) -> list[tuple[int, int]]:
        return [(c, self.val[c]) for c in cells]

    def find_matches(self) -> list[int]:
        """Return the cells that annihilate now, in cell order.

        A run of two or more equal values along a row or column annihilates when it holds halves of at
        least two different dominoes (so a double alone never does); a run of three or more along a
        diagonal always does (no domino has two halves on one diagonal).
        """
        val, pid = self.val, self.pid
        marked: set[int] = set()
        for lines, need in ((STRAIGHT_LINES, 2), (DIAGONAL_LINES, 3)):
            for line in lines:
                n = len(line)
                k = 0
                while k < n - need + 1:
                    v = val[line[k]]
                    if v < 0:
                        k += 1
                        continue
                    j = k + 1
                    while j < n and val[line[j]] == v:
                        j += 1
                    if j - k >= need:
                        run = line[k:j]
                        first = pid[run[0]]
                        if need == 3 or any(pid[c] != first for c in run):
                            marked.update(run)
                    k = j
        return sorted(marked)

    def matches_through(self, cells: Iterable[int]) -> list[int]:
        """Return the cells that annihilate in runs through any of ``cells``, in cell order.

        Same rule as ``find_matches``, looking only at the lines through ``cells``: after a board at rest
        changes, every new match runs through a cell that was filled or moved into.
        """
        val, pid = self.val, self.pid
        marked: set[int] = set()
        for i in cells:
            v = val[i]
            if v < 0:
                continue
            row, col = divmod(i, WIDTH)
            for dr, dc, need in _DIRECTIONS:
                run = [i]
                r, c = row - dr, col - dc
                while 0 <= r < HEIGHT and 0 <= c < WIDTH and val[r * WIDTH + c] == v:
                    run.append(r * WIDTH + c)
                    r, c = r - dr, c - dc
                r, c = row + dr, col + dc
                while 0 <= r < HEIGHT and 0 <= c < WIDTH and val[r * WIDTH + c] == v:
                    run.append(r * WIDTH + c)
                    r, c = r + dr, c + dc
                if len(run) >= need:
                    p = pid[i]
                    if need == 3 or any(pid[k] != p for k in run):
                        marked.update(run)
        return sorted(marked)

    def remove(self, cells: Iterable[int]) -> None:
        """Annihilate ``cells``: their partners become single squares."""
        val, pid, mate = self.val, self.pid, self.mate
        gone = set(cells)
        for i in gone:
            m = mate[i]
            if m >= 0 and m not in gone:
                mate[m] = -1
            val[i], pid[i], mate[i] = -1, 0, -1

    def resolve(
        self,
        events: list[CascadeEvent] | None = None,
        frames: list[Any] | None = None,
        changed: Iterable[int] | None = None,
    ) -> int:
        """Play out a turn after a domino locked: tip, annihilate, fall, repeat; return the turn score.

        With ``events`` given, appends one event a round: ``{"kind": "fall", "moves": [...]}`` or
        ``{"kind": "annihilate", "cells": [...], "count": n, "score": turn score so far}``. With ``frames``
        given, appends a copy of the grid as it was before each event (for the renderer). ``changed``
        (the cells of the domino just locked, on a board otherwise at rest) lets the search for matches
        look only where something changed; without it the whole grid is searched.
        """
        score = 0
        touched: list[int] | None = None if changed is None else list(changed)
        while True:
            if events is None:
                self.settle(None, touched)
            else:
                before = self.state_copy() if frames is not None else None
                moves: list[dict[str, Any]] = []
                if self.settle(moves, touched):
                    events.append({"kind": "fall", "moves": moves})
                    if frames is not None:
                        frames.append(before)
            matches = self.find_matches() if touched is None else self.matches_through(touched)
            if not matches:
                return score
            score += len(matches)
            if events is not None:
                if frames is not None:
                    frames.append(self.state_copy())
                events.append(
                    {
                        "kind": "annihilate",
                        "cells": [
                            {"col": c % WIDTH, "row": c // WIDTH, "value": self.val[c], "piece": self.pid[c]}
                            for c in matches
                        ],
                        "count": len(matches),
                        "score": score,
                    }
                )
            self.remove(matches)
            if touched is not None:
                touched = []

    def state_copy(self) -> list[list[int]]:
        """Return ``[values, ids, partners]`` as fresh lists (JSON-ready)."""
        return [self.val[:], self.pid[:], self.mate[:]]

    def heights(self) -> list[int]:
        """Return each column's stack height (rows from the floor to its highest half)."""
        val = self.val
        out = []
        for col in range(WIDTH):
            h = 0
            for row in range(HEIGHT):
                if val[row * WIDTH + col] >= 0:
                    h = HEIGHT - row
                    break
            out.append(h)
        return out

    def is_at_rest(self) -> bool:
        """Tell whether nothing would fall or tip (settling a copy changes nothing)."""
        return not self.copy().settle()

    def cells_json(
        self,
        val: Sequence[int] | None = None,
        pid: Sequence[int] | None = None,
        mate: Sequence[int] | None = None,
    ) -> list[Cell]:
        """Return the occupied cells as the view's ``cells`` list (of this board or of a saved frame)."""
        val = self.val if val is None else val
        pid = self.pid if pid is None else pid
        mate = self.mate if mate is None else mate
        out: list[Cell] = []
        for i in range(SIZE):
            if val[i] >= 0:
                m = mate[i]
                link = None if m < 0 else _LINK[m - i]
                out.append(
                    {"col": i % WIDTH, "row": i // WIDTH, "value": val[i], "piece": pid[i], "link": link}
                )
        return out


_EMPTY_ROW = [-1] * WIDTH
_DIRECTIONS = ((0, 1, 2), (1, 0, 2), (1, 1, 3), (1, -1, 3))  # (row step, col step, halves needed)
_LINK = {1: "right", -1: "left", WIDTH: "down", -WIDTH: "up"}


# ----------------------------------------------------------------------------------------------
# Moves: the input commands as the engine API's move objects.


@dataclass(frozen=True)
class Move:
    """One input: a command of ``COMMANDS``, or ``wait`` (let one step pass)."""

    command: str

    def __str__(self) -> str:
        return self.command


def parse_move(text: str) -> Move:
    """Parse a command name (``left``, ``hard_drop``, ``wait``...) into a Move; raise ValueError otherwise."""
    name = str(text).strip().lower().replace("-", "_").replace(" ", "_")
    if name not in COMMANDS and name != "wait":
        raise ValueError(f"not a command: {text!r} (known: wait, {', '.join(COMMANDS)})")
    return Move(name)


# ----------------------------------------------------------------------------------------------
# The game state.

FALLING, RESOLVING, OVER = "falling", "resolving", "over"


class BonefallState:
    """A game in progress: the board, the falling domino, the bag, the scores and the input log."""

    VIEW = views.VIEW  # the declared view (``BonefallView``)

    def __init__(
        self,
        seed: int,
        set: str = "norm",
        mode: str = "sprint",
        cascade_steps: int = DEFAULT_CASCADE_STEPS,
        max_sets: int | None = None,
    ) -> None:
        if set not in SETS:
            raise ValueError(f"set must be one of {', '.join(SETS)}, not {set!r}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if not isinstance(cascade_steps, int) or cascade_steps < 0:
            raise ValueError(f"cascade_steps must be a whole number >= 0, not {cascade_steps!r}")
        if max_sets is not None and (not isinstance(max_sets, int) or max_sets < 1):
            raise ValueError(f"max_sets must be None or a whole number >= 1, not {max_sets!r}")
        self.seed = seed
        self.set_name = set
        self.mode = mode
        self.cascade_steps = cascade_steps
        self.max_sets = max_sets
        self.rng = make_rng(seed)
        self.board = Board()
        self.bag: list[tuple[int, int]] = []
        self.sets_dealt = 0
        self.dominoes: list[tuple[int, int]] = []  # domino id - 1 -> (first, second) values as entered
        self.steps = 0
        self.phase = FALLING
        self.termination = ""
        # the falling domino
        self.piece = 0  # its id (0: none)
        self.values = (0, 0)
        self.col = self.row = self.orientation = 0
        self.gravity_timer = 0
        self.lock_timer = 0
        self.lock_resets = 0
        # scores
        self.turns = 0  # dominoes locked (turns played)
        self.turn_score = 0
        self.max_score = 0
        self.power = 0
        self.scoring_turns = 0
        self.halves_annihilated = 0
        # the resolution of the last turn, for the renderer
        self.events: list[CascadeEvent] = []
        self.frames: list[list[list[int]]] = []
        self.resolve_left = 0
        self.log: list[tuple[int, str]] = []
        self._deal()
        self._spawn()

    # -- dealing --------------------------------------------------------------------------------

    def _deal(self) -> None:
        """Put a freshly shuffled set into the bag, each domino turned a random way round."""
        tiles = list(SETS[self.set_name])
        self.rng.shuffle(tiles)
        self.bag.extend((a, b) if self.rng.random() < 0.5 else (b, a) for a, b in tiles)
        self.sets_dealt += 1

    def _spawn(self) -> None:
        """Bring the next domino in at the top centre, or end the game."""
        if not self.bag:
            self._end("set played" if self.mode == "sprint" else "set cap")
            return
        if not self.board.fits(SPAWN_COL, 0, 0):
            self._end("topped out")
            return
        self.values = self.bag.pop(0)
        more = self.max_sets is None or self.sets_dealt < self.max_sets
        if not self.bag and self.mode == "marathon" and more:
            self._deal()
        self.dominoes.append(self.values)
        self.piece = len(self.dominoes)
        self.col, self.row, self.orientation = SPAWN_COL, 0, 0
        self.gravity_timer = self.lock_timer = self.lock_resets = 0
        self.phase = FALLING

    def _end(self, termination: str) -> None:
        self.phase = OVER
        self.termination = termination
        self.piece = 0

    # -- stepping -------------------------------------------------------------------------------

    @property
    def level(self) -> int:
        """Return the current level (it sets the gravity)."""
        return level_for(self.turns)

    def step(self) -> None:
        """Advance the game by one fixed step (1/60 s of unpaused play)."""
        if self.phase == OVER:
            return
        self.steps += 1
        if self.phase == FALLING:
            if self.board.fits(self.col, self.row + 1, self.orientation):
                self.lock_timer = 0
                self.gravity_timer += 1
                if self.gravity_timer >= _GRAVITY[min(self.turns // DOMINOES_PER_LEVEL, len(_GRAVITY) - 1)]:
                    self.row += 1
                    self.gravity_timer = 0
            else:
                self.lock_timer += 1
                if self.lock_timer >= LOCK_DELAY:
                    self._lock()
        else:
            self.resolve_left -= 1
            if self.resolve_left <= 0:
                self._finish_turn()

    def run(self, steps: int) -> None:
        """Advance ``steps`` steps (stopping early if the game ends)."""
        for _ in range(steps):
            if self.phase == OVER:
                return
            self.step()

    def _lock(self) -> None:
        """Fix the falling domino where it is and resolve the turn."""
        a, b = self.values
        cells = self.board.place(self.col, self.row, self.orientation, a, b, self.piece)
        self.piece = 0
        self.turns += 1
        self.events = []
        self.frames = []
        animate = self.cascade_steps > 0
        score = self.board.resolve(self.events, self.frames if animate else None, cells)
        self.turn_score = score
        if score:
            self.scoring_turns += 1
            self.halves_annihilated += score
            self.power += (score - 1) ** 2
            self.max_score = max(self.max_score, score)
        if animate and self.events:
            self.phase = RESOLVING
            self.resolve_left = self.cascade_steps * len(self.events)
        else:
            self._finish_turn()

    def _finish_turn(self) -> None:
        self.resolve_left = 0
        self.frames = []
        self._spawn()

    # -- input ----------------------------------------------------------------------------------

    def command(self, cmd: str) -> bool:
        """Apply an input command now; return whether it changed anything (refused: False).

        ``soft_drop`` moves the domino down one row (the screen repeats it every ``SOFT_DROP_REPEAT``
        steps while the key is held); ``hard_drop`` drops it to the ghost position and locks it at once.
        Accepted commands go into the input log as ``(step, command)``.
        """
        if cmd not in COMMANDS:
            raise ValueError(f"not a command: {cmd!r} (known: {', '.join(COMMANDS)})")
        if self.phase != FALLING:
            return False
        board = self.board
        col, row, o = self.col, self.row, self.orientation
        if cmd == "left" or cmd == "right" or cmd == "rotate_cw" or cmd == "rotate_ccw":
            if cmd == "left":
                col -= 1
            elif cmd == "right":
                col += 1
            elif cmd == "rotate_cw":
                o = (o + 1) & 3
            else:
                o = (o + 3) & 3
            if not board.fits(col, row, o):
                return False
            self.col, self.orientation = col, o
            if self.lock_timer and self.lock_resets < MAX_LOCK_RESETS:
                self.lock_timer = 0
                self.lock_resets += 1
        elif cmd == "soft_drop":
            if not board.fits(col, row + 1, o):
                return False
            self.row += 1
            self.gravity_timer = 0
        else:  # hard_drop
            self.row = board.drop_row(col, row, o)
            self.log.append((self.steps, cmd))
            self._lock()
            return True
        self.log.append((self.steps, cmd))
        return True

    def ghost_row(self) -> int:
        """Return the row where the falling domino would land."""
        return self.board.drop_row(self.col, self.row, self.orientation)

    # -- the engine API ------------------------------------------------------------------------

    def current_player(self) -> int | None:
        """Return 0 (the one player) while the game runs, None once it is over."""
        return None if self.phase == OVER else 0

    def is_over(self) -> bool:
        """Tell whether the game has ended."""
        return self.phase == OVER

    def legal_moves(self) -> list[Move]:
        """Return ``wait`` and every command that would change something now."""
        if self.phase == OVER:
            return []
        moves = [Move("wait")]
        if self.phase == FALLING:
            fits, col, row, o = self.board.fits, self.col, self.row, self.orientation
            for cmd, ok in (
                ("left", fits(col - 1, row, o)),
                ("right", fits(col + 1, row, o)),
                ("rotate_cw", fits(col, row, (o + 1) & 3)),
                ("rotate_ccw", fits(col, row, (o + 3) & 3)),
                ("soft_drop", fits(col, row + 1, o)),
                ("hard_drop", True),
            ):
                if ok:
                    moves.append(Move(cmd))
        return moves

    def play(self, move: Move | str) -> None:
        """Apply a Move or its text (a command, or ``wait``: one step); raise IllegalMoveError if refused."""
        try:
            parsed = move if isinstance(move, Move) else parse_move(str(move))
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        if not isinstance(parsed, Move) or (parsed.command not in COMMANDS and parsed.command != "wait"):
            raise IllegalMoveError(f"not a command: {move!r}")
        if self.phase == OVER:
            raise IllegalMoveError("the game is over")
        if parsed.command == "wait":
            self.step()
        elif not self.command(parsed.command):
            raise IllegalMoveError(f"cannot {parsed.command.replace('_', ' ')} now")

    @property
    def seconds_played(self) -> float:
        """Return the time of unpaused play: the steps played at STEPS_PER_SECOND."""
        return self.steps / STEPS_PER_SECOND

    @property
    def speed(self) -> float:
        """Return the Speed score: Power per minute of unpaused play."""
        return self.power * STEPS_PER_SECOND * 60 / self.steps if self.steps else 0.0

    def outcome(self) -> Outcome | None:
        """Return how the game ended (the one seat 'wins' with its Power score), None while it runs."""
        if self.phase != OVER:
            return None
        detail = {
            "set played": "Every domino of the set has been played.",
            "set cap": "The last allowed set has been played.",
            "topped out": "No room at the top for the next domino.",
        }.get(self.termination, "")
        return Outcome(
            winners=(0,),
            termination=Termination(self.termination),
            placings=(1,),
            scores=(self.power,),
            detail=f"{detail} Max {self.max_score}, Power {self.power}, Speed {self.speed:.1f}.",
        )

    def clone(self, log: bool = True) -> BonefallState:
        """Return an independent copy (the input log too unless ``log`` is False)."""
        other = BonefallState.__new__(BonefallState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.board = self.board.copy()
        other.bag = self.bag[:]
        other.dominoes = self.dominoes[:]
        other.events = self.events  # never mutated in place: replaced at each lock
        other.frames = self.frames
        other.log = self.log[:] if log else []
        return other

    def view(self, player: int = 0) -> BonefallView:
        """Return everything the screen draws, JSON-ready (see the package docstring for the keys)."""
        resolving = self.phase == RESOLVING
        event_index = event_progress = 0
        if resolving:
            elapsed = self.cascade_steps * len(self.events) - self.resolve_left
            event_index, event_progress = divmod(elapsed, self.cascade_steps)
            event_index = min(event_index, len(self.events) - 1)
            val, pid, mate = self.frames[event_index]
            cells = self.board.cells_json(val, pid, mate)
        else:
            cells = self.board.cells_json()
        piece: Piece | None = None
        if self.phase == FALLING and self.piece:
            ghost = self.ghost_row()
            ca, ra, cb, rb = piece_cells(self.col, self.row, self.orientation)
            ga, gra, gb, grb = piece_cells(self.col, ghost, self.orientation)
            piece = {
                "id": self.piece,
                "values": list(self.values),
                "orientation": self.orientation,
                "cells": [[ca, ra], [cb, rb]],
                "ghost": [[ga, gra], [gb, grb]],
                "fall_progress": self.gravity_timer / gravity_steps(self.level),
                "landed": ghost == self.row,
            }
        over = self.phase == OVER
        outcome = self.outcome()
        return {
            "game": "bonefall",
            "set": self.set_name,
            "mode": self.mode,
            "width": WIDTH,
            "height": HEIGHT,
            "step": self.steps,
            "phase": self.phase,
            "cells": cells,
            "piece": piece,
            "next": list(self.bag[0]) if self.bag else None,
            "left_in_set": len(self.bag),
            "sets_dealt": self.sets_dealt,
            "dominoes_played": self.turns,
            "level": self.level,
            "gravity_steps": gravity_steps(self.level),
            "turn_score": self.turn_score,
            "max_score": self.max_score,
            "power": self.power,
            "speed": round(self.speed, 2),
            "events": self.events,
            "event_index": event_index if resolving else None,
            "event_progress": event_progress if resolving else None,
            "cascade_steps": self.cascade_steps,
            "over": over,
            "termination": self.termination or None,
            "outcome": outcome.to_dict() if outcome else None,
            "legal_moves": [] if over or player != 0 else [str(m) for m in self.legal_moves()],
        }

    # -- saving ---------------------------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """Return the options that rebuild this game with ``new_state`` (seed excluded)."""
        return {
            "set": self.set_name,
            "mode": self.mode,
            "cascade_steps": self.cascade_steps,
            "max_sets": self.max_sets,
        }

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state, JSON-ready, for saves."""
        return {
            "version": SAVE_VERSION,
            "game": "bonefall",
            "seed": self.seed,
            "options": self.options(),
            "rng": rng_to_json(self.rng),
            "board": self.board.state_copy(),
            "bag": [list(t) for t in self.bag],
            "sets_dealt": self.sets_dealt,
            "dominoes": [list(t) for t in self.dominoes],
            "steps": self.steps,
            "phase": self.phase,
            "termination": self.termination,
            "piece": self.piece,
            "values": list(self.values),
            "position": [self.col, self.row, self.orientation],
            "timers": [self.gravity_timer, self.lock_timer, self.lock_resets, self.resolve_left],
            "scores": [
                self.turns,
                self.turn_score,
                self.max_score,
                self.power,
                self.scoring_turns,
                self.halves_annihilated,
            ],
            "events": self.events,
            "frames": self.frames,
            "log": [[s, c] for s, c in self.log],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BonefallState:
        """Rebuild a state from ``to_dict``'s form; raise ValueError when it is malformed."""
        try:
            if not isinstance(data, Mapping):
                raise ValueError("a saved game must be an object")
            if data.get("game") not in ("bonefall", "falling"):  # "falling": its id before the rename
                raise ValueError(f"not a falling-puzzle save: game {data.get('game')!r}")
            if data.get("version") != SAVE_VERSION:
                raise ValueError(f"unknown save version {data.get('version')!r}")
            opts = data["options"]
            state = cls(
                int(data["seed"]),
                set=str(opts["set"]),
                mode=str(opts["mode"]),
                cascade_steps=int(opts["cascade_steps"]),
                max_sets=None if opts.get("max_sets") is None else int(opts["max_sets"]),
            )
            state.rng = rng_from_json(data["rng"])
            val, pid, mate = ([int(x) for x in lst] for lst in data["board"])
            if not (len(val) == len(pid) == len(mate) == SIZE):
                raise ValueError("the board has the wrong size")
            for i in range(SIZE):
                if val[i] < 0:
                    if pid[i] or mate[i] != -1:
                        raise ValueError("an empty cell holds a domino id or a link")
                    continue
                m = mate[i]
                if m >= 0 and (
                    m >= SIZE
                    or mate[m] != i
                    or pid[m] != pid[i]
                    or m - i not in _LINK
                    or (abs(m - i) == 1 and m // WIDTH != i // WIDTH)
                ):
                    raise ValueError("a domino's halves are not linked properly")
            state.board = Board(val, pid, mate)
            state.bag = [_pair(t) for t in data["bag"]]
            state.sets_dealt = int(data["sets_dealt"])
            state.dominoes = [_pair(t) for t in data["dominoes"]]
            state.steps = int(data["steps"])
            phase = str(data["phase"])
            if phase not in (FALLING, RESOLVING, OVER):
                raise ValueError(f"unknown phase {phase!r}")
            state.phase = phase
            state.termination = str(data["termination"])
            state.piece = int(data["piece"])
            state.values = _pair(data["values"])
            state.col, state.row, state.orientation = (int(x) for x in data["position"])
            (state.gravity_timer, state.lock_timer, state.lock_resets, state.resolve_left) = (
                int(x) for x in data["timers"]
            )
            (
                state.turns,
                state.turn_score,
                state.max_score,
                state.power,
                state.scoring_turns,
                state.halves_annihilated,
            ) = (int(x) for x in data["scores"])
            state.events = list(data["events"])
            state.frames = [[[int(x) for x in lst] for lst in frame] for frame in data["frames"]]
            state.log = [(int(s), str(c)) for s, c in data["log"]]
            if state.orientation not in (0, 1, 2, 3):
                raise ValueError(f"bad orientation {state.orientation}")
            if phase == FALLING and not (
                state.piece and state.board.fits(state.col, state.row, state.orientation)
            ):
                raise ValueError("the falling domino overlaps the board")
            if phase == RESOLVING and (
                state.cascade_steps <= 0 or not state.events or len(state.frames) != len(state.events)
            ):
                raise ValueError("a resolving turn lacks its events")
        except ValueError:
            raise
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"malformed falling-puzzle save: {exc!r}") from None
        return state


def _pair(item: Any) -> tuple[int, int]:
    a, b = item
    return int(a), int(b)


# ----------------------------------------------------------------------------------------------
# Entry points.


def new_state(
    seed: int | None = None,
    set: str = "norm",
    mode: str = "sprint",
    cascade_steps: int = DEFAULT_CASCADE_STEPS,
    max_sets: int | None = None,
) -> BonefallState:
    """Start a game: ``set`` "norm" (28 of 0-6) or "max" (55 of 0-9), ``mode`` "sprint" or "marathon".

    ``cascade_steps`` is the steps spent on each resolution event (0: resolve at once, for the
    autoplayer); ``max_sets`` caps a Marathon at that many sets (None: unlimited).
    """
    from ...core import fresh_seed

    return BonefallState(
        fresh_seed() if seed is None else seed,
        set=set,
        mode=mode,
        cascade_steps=cascade_steps,
        max_sets=max_sets,
    )


def from_dict(data: Mapping[str, Any]) -> BonefallState:
    """Rebuild a saved game; raise ValueError when ``data`` is malformed."""
    return BonefallState.from_dict(data)


def replay(
    seed: int, options: Mapping[str, Any], log: Iterable[Sequence[Any]], until: int | None = None
) -> BonefallState:
    """Rebuild a game from its seed, options and input log ``[(step, command), ...]``.

    Each command is applied once the game has run ``step`` steps; with ``until``, the game then runs
    on to that many steps.
    """
    state = new_state(seed, **dict(options))
    for step, cmd in log:
        while state.steps < int(step) and state.phase != OVER:
            state.step()
        state.command(str(cmd))
    if until is not None:
        while state.steps < until and state.phase != OVER:
            state.step()
    return state
