"""Benchmark of the Triangles bots: long arena runs and the time of a Hard move.

    PYTHONPATH=py python3 tests/games/triangles/bench_triangles.py [--games 2000] [--seed 1]

Prints each pairing's arena table (wins, draws, win rate, 95% Wilson interval, ms per move) and the
median time of one Hard decision (bot call alone, and view + bot), over positions of seeded games.
Not collected by pytest (no ``test_`` prefix): the suite keeps a reduced strength check.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boneyard.arena import _format, run_arena
from boneyard.games.triangles import GAME
from boneyard.games.triangles.rules import new_state


def hard_move_times(games: int, seed: int, players: int = 2) -> tuple[list[float], list[float]]:
    """Return the ms of every Hard decision with a choice (bot alone, and view + bot)."""
    bot = GAME.bot("hard")
    medium = GAME.bot("medium")
    rng = random.Random(seed)
    alone: list[float] = []
    whole: list[float] = []
    for index in range(games):
        state = new_state(seed=seed * 1000 + index, players=players)
        while not state.is_over():
            seat = state.current_player()
            t0 = time.perf_counter()
            view = state.view(seat)
            t1 = time.perf_counter()
            if seat == index % players:
                move = bot(view, rng)
                t2 = time.perf_counter()
                if len(view["legal_moves"]) > 1:
                    alone.append(1000 * (t2 - t1))
                    whole.append(1000 * (t2 - t0))
            else:
                move = medium(view, rng)
            state.play(move)
    return alone, whole


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for seats in (["medium", "easy"], ["hard", "medium"], ["hard", "easy"]):
        print(_format(run_arena("triangles", seats, args.games, args.seed)))
        print()
    for players in (2, 4):
        runs = [hard_move_times(40, args.seed + r, players) for r in range(3)]
        alone = [statistics.median(a) for a, _ in runs]
        whole = [statistics.median(w) for _, w in runs]
        worst = max(max(a) for a, _ in runs)
        print(
            f"hard move, {players} players: median of 3 runs: bot {statistics.median(alone):.3f} ms, "
            f"view + bot {statistics.median(whole):.3f} ms (run medians {[round(x, 3) for x in alone]}, "
            f"slowest single {worst:.2f} ms, {sum(len(a) for a, _ in runs)} decisions)"
        )


if __name__ == "__main__":
    main()
