"""Measure the engine's speed: random 4-player block games with 7 tiles each (the whole set dealt).

    PYTHONPATH=py python3 tools/dominoes_bench.py [--games 20000] [--repeats 5] [--seed 1]
    PYTHONPATH=py python3 tools/dominoes_bench.py --strength 10000


Each game deals with ``rules.deal`` and plays uniformly random legal moves through ``Table.moves``
and ``Table.apply``, the same code the game state runs, then scores the hand with ``score_hand``.
Prints games per second of wall time (and of CPU time, steadier on a busy machine) for every
repeat and their medians. ``--strength N`` instead runs the long
bot-strength measurement: the arena over N seeded 2-player single rounds for medium against easy and
hard against medium, and the median time of one hard move.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from boneyard.core import make_rng
from boneyard.games.dominoes.rules import deal, new_state, score_hand

__all__ = ["hard_move_times", "main", "play_random_games"]


def play_random_games(games: int, seed: int, players: int = 4, hand_size: int = 7, draw: bool = False) -> int:
    """Play ``games`` random hands with the real rules; return the total number of moves played."""
    rng = make_rng(seed)
    random = rng.random
    total = 0
    for _ in range(games):
        table = deal(rng, players, hand_size, draw, None)
        moves = table.moves
        apply = table.apply
        while table.ended is None:
            codes = moves()
            apply(codes[int(random() * len(codes))] if len(codes) > 1 else codes[0])
            total += 1
        score_hand(table)
    return total


def hard_move_times(games: int, seed: int, choices_only: bool = False) -> list[float]:
    """Return the seconds each hard move took over ``games`` seeded 2-player rounds against medium."""
    from boneyard.games.dominoes.bots import hard_bot, medium_bot

    rng = make_rng(seed)
    times = []
    for index in range(games):
        state = new_state(seed=rng.getrandbits(63), players=2)
        while not state.is_over():
            seat = state.current_player()
            assert seat is not None
            view = state.view(seat)
            if (seat + index) % 2 == 0:
                start = time.perf_counter()
                move = hard_bot(view, rng)
                if len(view["legal_moves"]) > 1 or not choices_only:
                    times.append(time.perf_counter() - start)
            else:
                move = medium_bot(view, rng)
            state.play(move)
    return times


def strength(games: int, seed: int) -> None:
    """Print the arena tables of the long strength measurement and the hard bot's median move time."""
    from boneyard.arena import run_arena

    for seats in (["medium", "easy"], ["hard", "medium"]):
        result = run_arena("dominoes", seats, games, seed)
        print(f"{seats[0]} against {seats[1]}, {games} seeded 2-player single rounds, seed {seed}:")
        for name, r in result.levels.items():
            lo, hi = r.ci95()
            print(
                f"  {name:<7} wins {r.wins:>6}  draws {r.draws:>4}  win rate {r.win_rate:.3f}  "
                f"95% [{lo:.3f}, {hi:.3f}]  {r.ms_per_move:.3f} ms/move"
            )
    times = hard_move_times(min(games, 2000), seed)
    print(f"hard move: median {1000 * statistics.median(times):.3f} ms over {len(times)} moves")
    times = hard_move_times(min(games, 2000), seed, choices_only=True)
    print(
        f"hard move with a choice of two or more: median {1000 * statistics.median(times):.3f} ms, "
        f"slowest {1000 * max(times):.3f} ms over {len(times)} moves"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print every repeat and the median games per second."""
    parser = argparse.ArgumentParser(prog="tools/dominoes_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strength", type=int, metavar="N", help="measure the bots over N rounds instead")
    args = parser.parse_args(argv)
    if args.strength:
        strength(args.strength, args.seed)
        return 0
    rates = []
    cpu_rates = []
    for repeat in range(args.repeats):
        start = time.perf_counter()
        cpu_start = time.process_time()
        moves = play_random_games(args.games, args.seed + repeat)
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        rates.append(args.games / seconds)
        cpu_rates.append(args.games / cpu_seconds if cpu_seconds > 0 else float("inf"))
        print(
            f"repeat {repeat + 1}: {args.games} games, {moves} moves in {seconds:.3f} s: "
            f"{rates[-1]:,.0f} games/s ({cpu_rates[-1]:,.0f} per CPU second)"
        )
    print(
        f"median: {statistics.median(rates):,.0f} games/s, {statistics.median(cpu_rates):,.0f} per CPU second "
        f"(4 players, block game, 7 tiles each; Python {sys.version.split()[0]})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
