"""The Bonefall autoplayer: picks where each domino goes and plays it there through the input commands.

For the falling domino it enumerates every target reachable from where the domino is (a breadth-first
search over left / right / rotate moves in its current row, so a target behind a wall of pieces is never
chosen), drops it there on a copy of the board, resolves the turn and scores the result: the power points
won, then the shape of the stack (height, holes, bumpiness) and the chances it leaves (halves next to an
empty cell where a same-value half could land). With ``lookahead`` it also tries every placement of the
next domino (shown in the view) on each result. It then emits the commands of the path and a hard drop,
so it plays through the same input path as a player (for the title-screen demo, ``delay`` spaces them).

Its benchmark (many seeded games, scores and simulation speed) is ``tools/bonefall_autoplay.py``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .sim import HEIGHT, SIZE, SPAWN_COL, WIDTH, Board, BonefallState, new_state

__all__ = ["AutoPlayer", "Placement", "Weights", "choose", "play_game", "reachable"]

HUMAN_DELAY = 6  # steps between two autoplayer commands in benchmarks: 10 a second
_STEPS = (("left", -1, 0), ("right", 1, 0), ("rotate_cw", 0, 1), ("rotate_ccw", 0, 3))


@dataclass(frozen=True)
class Weights:
    """How the autoplayer values a board after a placement (all per unit)."""

    power: float = 10.0  # per power point won this turn
    halves: float = 0.5  # per half annihilated
    height: float = 0.4  # per row of the tallest column
    danger: float = 30.0  # per row of the tallest column above ``safe_height``
    safe_height: int = 10
    holes: float = 1.5  # per empty cell with a half above it in its column
    bumpiness: float = 0.3  # per row of difference between neighbouring columns
    chances: float = 0.6  # per pair of same-value halves one cell apart across an open cell


@dataclass(frozen=True)
class Placement:
    """A target for the falling domino: where it lands and the commands that take it there."""

    col: int
    row: int
    orientation: int
    path: tuple[str, ...]


def reachable(board: Board, col: int, row: int, orientation: int) -> list[Placement]:
    """Return every placement reachable by moving and rotating in the current row, then dropping."""
    start = (col, orientation)
    paths: dict[tuple[int, int], tuple[str, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        c, o = queue.popleft()
        for cmd, dc, do in _STEPS:
            nc, no = c + dc, (o + do) & 3
            if (nc, no) not in paths and board.fits(nc, row, no):
                paths[(nc, no)] = paths[(c, o)] + (cmd,)
                queue.append((nc, no))
    return [Placement(c, board.drop_row(c, row, o), o, path) for (c, o), path in paths.items()]


def _shape(board: Board, w: Weights) -> float:
    """Score the stack's shape: the lower, flatter and more promising, the higher."""
    val = board.val
    heights = [0] * WIDTH
    holes = 0
    for col in range(WIDTH):
        column = val[col::WIDTH]
        row = 0
        while row < HEIGHT and column[row] < 0:
            row += 1
        heights[col] = HEIGHT - row
        holes += column[row:].count(-1)
    top = max(heights)
    bump = sum(abs(heights[c] - heights[c + 1]) for c in range(WIDTH - 1))
    # chances: two same-value halves with one open cell between them (row or column): the next half of
    # that value dropped in the gap matches three.
    chances = 0
    for col in range(WIDTH):
        h = heights[col]
        if h >= HEIGHT:
            continue
        gap = (HEIGHT - 1 - h) * WIDTH + col  # the open cell on top of the column
        below = gap + WIDTH
        vb = val[below] if below < SIZE else -1
        left = val[gap - 1] if col > 0 else -1
        right = val[gap + 1] if col < WIDTH - 1 else -1
        if left >= 0 and (left in (right, vb)):
            chances += 1
        if right >= 0 and right == vb:
            chances += 1
    return (
        -w.height * top
        - w.danger * max(0, top - w.safe_height)
        - w.holes * holes
        - w.bumpiness * bump
        + w.chances * chances
    )


def _outcome(board: Board, place: Placement, a: int, b: int) -> tuple[int, Board]:
    after = board.copy()
    cells = after.place(place.col, place.row, place.orientation, a, b, 1_000_000)
    return after.resolve(changed=cells), after


def _gain(score: int, w: Weights) -> float:
    return w.power * (score - 1) ** 2 + w.halves * score if score else 0.0


def choose(
    board: Board,
    col: int,
    row: int,
    orientation: int,
    values: tuple[int, int],
    next_values: tuple[int, int] | None = None,
    weights: Weights = Weights(),
    width: int = 0,
) -> Placement:
    """Return the best placement of the falling domino (ties: the shortest path, then leftmost).

    With ``next_values`` and ``width`` > 0, the ``width`` best placements by themselves are scored
    again by the best placement of the next domino that follows them.
    """
    a, b = values
    scored: list[tuple[float, int, Placement, int, Board]] = []
    for n, place in enumerate(reachable(board, col, row, orientation)):
        score, after = _outcome(board, place, a, b)
        scored.append((_gain(score, weights) + _shape(after, weights), n, place, score, after))
    if next_values is None or width <= 0:
        return max(scored, key=lambda item: (item[0], -item[1]))[2]
    scored.sort(key=lambda item: (-item[0], item[1]))
    na, nb = next_values
    best: Placement = scored[0][2]
    best_value = float("-inf")
    for _, _n, place, score, after in scored[:width]:
        value = _gain(score, weights)
        if after.fits(SPAWN_COL, 0, 0):
            follow = (_outcome(after, nxt, na, nb) for nxt in reachable(after, SPAWN_COL, 0, 0))
            value += max(_gain(s2, weights) + _shape(final, weights) for s2, final in follow)
        else:
            value += _shape(after, weights) - 1000.0
        if value > best_value:
            best, best_value = place, value
    return best


@dataclass
class AutoPlayer:
    """Plays the falling domino through ``state.command``; call ``act`` once before every step.

    ``delay`` is the steps between two commands (0: the whole plan at once, as the benchmark does;
    a few steps make a watchable demo). A refused command (the domino fell into a new obstacle) makes
    it plan again from where the domino is.
    """

    delay: int = 0
    lookahead: int = 0
    weights: Weights = field(default_factory=Weights)
    _piece: int = 0
    _plan: list[str] = field(default_factory=list)
    _wait: int = 0

    def act(self, state: BonefallState) -> None:
        """Issue the next command(s) for the falling domino, if any are due."""
        if state.phase != "falling":
            return
        if state.piece != self._piece:
            self._piece = state.piece
            self._plan = self._make_plan(state)
            self._wait = self.delay
        if self._wait > 0:
            self._wait -= 1
            return
        while self._plan:
            cmd = self._plan.pop(0)
            if not state.command(cmd):
                self._plan = self._make_plan(state)
                self._wait = self.delay
                return
            if self.delay:
                self._wait = self.delay
                return

    def _make_plan(self, state: BonefallState) -> list[str]:
        nxt = (state.bag[0][0], state.bag[0][1]) if self.lookahead and state.bag else None
        place = choose(
            state.board,
            state.col,
            state.row,
            state.orientation,
            state.values,
            nxt,
            self.weights,
            self.lookahead,
        )
        return [*place.path, "hard_drop"]


def play_game(
    seed: int,
    set: str = "norm",
    mode: str = "sprint",
    max_sets: int = 10,
    lookahead: int = 0,
    weights: Weights = Weights(),
    delay: int = HUMAN_DELAY,
) -> BonefallState:
    """Autoplay one seeded game to its end (cascades resolve at once) and return the final state.

    ``delay`` steps pass between two commands (the default, 10 commands a second, is a quick human's
    pace, which makes the Speed score meaningful; 0 plays instantly).
    """
    state = new_state(
        seed, set=set, mode=mode, cascade_steps=0, max_sets=max_sets if mode == "marathon" else None
    )
    player = AutoPlayer(delay=delay, lookahead=lookahead, weights=weights)
    while not state.is_over():
        player.act(state)
        state.step()
    return state
