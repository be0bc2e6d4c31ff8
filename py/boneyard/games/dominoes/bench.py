"""Measure the engine's speed: random 4-player block games with 7 tiles each (the whole set dealt).

    PYTHONPATH=py python -m boneyard.games.dominoes.bench [--games 20000] [--repeats 5] [--seed 1]

Each game deals with ``rules.deal`` and plays uniformly random legal moves through ``Table.moves``
and ``Table.apply``, the same code the game state runs, then scores the hand with ``score_hand``.
Prints games per second for every repeat and their median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Sequence

from ...core import make_rng
from .rules import deal, score_hand

__all__ = ["play_random_games", "main"]


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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print every repeat and the median games per second."""
    parser = argparse.ArgumentParser(prog="python -m boneyard.games.dominoes.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rates = []
    for repeat in range(args.repeats):
        start = time.perf_counter()
        moves = play_random_games(args.games, args.seed + repeat)
        seconds = time.perf_counter() - start
        rates.append(args.games / seconds)
        print(f"repeat {repeat + 1}: {args.games} games, {moves} moves in {seconds:.3f} s: {rates[-1]:,.0f} games/s")
    print(
        f"median: {statistics.median(rates):,.0f} games/s "
        f"(4 players, block game, 7 tiles each; Python {sys.version.split()[0]})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
