"""Bonefall's autoplayer benchmark: seeded games played by ``boneyard.games.bonefall.autoplay``.

Command (Marathon games are capped at ``--max-sets`` sets, 10 by default, so the command finishes):

    PYTHONPATH=py python3 tools/bonefall_autoplay.py --set norm|max --mode sprint|marathon \
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
from collections.abc import Sequence
from typing import Any

from boneyard.core import derive_seed, make_rng
from boneyard.games.bonefall.autoplay import play_game
from boneyard.games.bonefall.sim import SETS, BonefallState, new_state, replay

__all__ = ["main", "run"]


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


def _time_steps(seeds: Sequence[int], results: Sequence[BonefallState]) -> tuple[list[float], list[float]]:
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


def _sets_played(state: BonefallState) -> float:
    """Return how many sets' worth of dominoes the game used."""
    return state.turns / len(SETS[state.set_name])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the autoplay command."""
    parser = argparse.ArgumentParser(
        prog="tools/bonefall_autoplay.py", description=(__doc__ or "").split("\n")[0]
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
