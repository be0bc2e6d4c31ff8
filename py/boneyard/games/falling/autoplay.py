"""The Bonefall autoplayer: picks where each domino goes and plays it there through the input commands.

For the falling domino it enumerates every target reachable from where the domino is (a breadth-first
search over left / right / rotate moves in its current row, so a target behind a wall of pieces is never
chosen), drops it there on a copy of the board, resolves the turn and scores the result: the power points
won, then the shape of the stack (height, holes, bumpiness) and the chances it leaves (halves next to an
empty cell where a same-value half could land). With ``lookahead`` it also tries every placement of the
next domino (shown in the view) on each result. It then emits the commands of the path and a hard drop,
so it plays through the same input path as a player (for the title-screen demo, ``delay`` spaces them).

Command (Marathon games are capped at ``--max-sets`` sets, 10 by default, so the command finishes):

    PYTHONPATH=py python -m boneyard.games.falling.autoplay --set norm|max --mode sprint|marathon \
        --games N --seed S [--lookahead] [--max-sets K] [--json]

prints mean and best Max, Power and Speed, Power per set, and simulated steps per second (including
the autoplayer's thinking; ``sim_steps_per_s`` times the simulation alone replaying the same games).
The same arguments give the same scores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core import derive_seed, make_rng
from .sim import HEIGHT, SETS, SIZE, SPAWN_COL, WIDTH, Board, FallingState, new_state, replay

__all__ = ["AutoPlayer", "Placement", "Weights", "choose", "main", "play_game", "reachable", "run"]

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

    def act(self, state: FallingState) -> None:
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

    def _make_plan(self, state: FallingState) -> list[str]:
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
) -> FallingState:
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


def run(set: str, mode: str, games: int, seed: int, max_sets: int = 10, lookahead: int = 0) -> dict[str, Any]:
    """Autoplay ``games`` seeded games and return the summary the command prints."""
    rng = make_rng(seed)
    seeds = [derive_seed(rng) for _ in range(games)]
    results = []
    t0 = time.perf_counter()
    for s in seeds:
        results.append(play_game(s, set, mode, max_sets, lookahead))
    seconds = time.perf_counter() - t0
    steps = sum(r.steps for r in results)
    # the simulation alone: replay the recorded input logs, as fast as it goes, then step by step timed
    t1 = time.perf_counter()
    for s, r in zip(seeds, results):
        replay(s, r.options(), r.log, until=r.steps)
    sim_seconds = time.perf_counter() - t1
    step_times, view_times = _time_steps(seeds[:5], results[:5])
    powers = [r.power for r in results]
    maxes = [r.max_score for r in results]
    speeds = [r.speed for r in results]
    sets = [_sets_played(r) for r in results]
    return {
        "games": games,
        "set": set,
        "mode": mode,
        "seed": seed,
        "lookahead": lookahead,
        "mean_power": round(statistics.fmean(powers), 3),
        "best_power": max(powers),
        "mean_max": round(statistics.fmean(maxes), 3),
        "best_max": max(maxes),
        "mean_speed": round(statistics.fmean(speeds), 3),
        "best_speed": round(max(speeds), 3),
        "power_per_set": round(sum(powers) / sum(sets), 3),
        "mean_dominoes": round(statistics.fmean(r.turns for r in results), 2),
        "topped_out": sum(r.termination == "topped out" for r in results),
        "steps": steps,
        "seconds": round(seconds, 3),
        "steps_per_s": round(steps / seconds, 1),
        "ms_per_domino": round(1000 * seconds / max(1, sum(r.turns for r in results)), 3),
        "sim_steps_per_s": round(steps / sim_seconds, 1),
        "step_us_median": round(_quantile(step_times, 0.5), 2),
        "step_us_p99": round(_quantile(step_times, 0.99), 2),
        "step_us_p999": round(_quantile(step_times, 0.999), 2),
        "step_us_max": round(max(step_times), 2),
        "view_us_median": round(_quantile(view_times, 0.5), 2),
        "view_us_max": round(max(view_times), 2),
    }


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time_steps(seeds: Sequence[int], results: Sequence[FallingState]) -> tuple[list[float], list[float]]:
    """Replay games with the screen's animation time and time every step and every 10th view, in µs."""
    clock = time.perf_counter
    steps: list[float] = []
    views: list[float] = []
    for seed, result in zip(seeds, results):
        options = {**result.options(), "cascade_steps": 12}
        state = new_state(seed, **options)
        log = list(result.log)
        k = 0
        while not state.is_over() and state.steps < 4 * result.steps:
            while k < len(log) and log[k][0] <= state.steps:
                state.command(log[k][1])  # refused during an animation the autoplay did not have
                k += 1
            t = clock()
            state.step()
            steps.append((clock() - t) * 1e6)
            if state.steps % 10 == 0:
                t = clock()
                state.view()
                views.append((clock() - t) * 1e6)
    return steps, views


def _sets_played(state: FallingState) -> float:
    """Return how many sets' worth of dominoes the game used."""
    return state.turns / len(SETS[state.set_name])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the autoplay command."""
    parser = argparse.ArgumentParser(
        prog="python -m boneyard.games.falling.autoplay", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--set", choices=("norm", "max"), default="norm")
    parser.add_argument("--mode", choices=("sprint", "marathon"), default="sprint")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max-sets", type=int, default=10, help="cap of a Marathon game, in sets (default 10)"
    )
    parser.add_argument(
        "--lookahead",
        type=int,
        default=0,
        metavar="K",
        help="rescore the K best placements by the next domino's best follow-up (0: off)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.max_sets < 1:
        parser.error("--games and --max-sets must be at least 1")
    result = run(args.set, args.mode, args.games, args.seed, args.max_sets, args.lookahead)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"Bonefall autoplay: {result['games']} games, {args.set} {args.mode}, seed {args.seed}"
            f"{f' (lookahead {args.lookahead})' if args.lookahead else ''}"
        )
        print(f"  Max    mean {result['mean_max']:.2f}  best {result['best_max']}")
        print(
            f"  Power  mean {result['mean_power']:.2f}  best {result['best_power']}  "
            f"per set {result['power_per_set']:.2f}"
        )
        print(f"  Speed  mean {result['mean_speed']:.2f}  best {result['best_speed']:.2f}")
        print(f"  dominoes per game {result['mean_dominoes']}, topped out {result['topped_out']}")
        print(
            f"  {result['steps']} steps in {result['seconds']} s: {result['steps_per_s']:.0f} steps/s with "
            f"the autoplayer ({result['ms_per_domino']} ms a domino); simulation alone "
            f"{result['sim_steps_per_s']:.0f} steps/s"
        )
        print(
            f"  one step: median {result['step_us_median']} us, p99 {result['step_us_p99']} us, p99.9 "
            f"{result['step_us_p999']} us, max {result['step_us_max']} us; view(): median "
            f"{result['view_us_median']} us, max {result['view_us_max']} us"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
