"""Play seeded games between computer players and report each level's strength and the speed.

    PYTHONPATH=py python -m boneyard.arena --game dominoes --players 2 --seats medium,easy \
        --games 2000 --seed 1 [--json] [--option target=100 ...]

Seats rotate from game to game (game i shifts every level i seats on), so no level keeps the first
move. A level's win rate counts a draw (no single winner) as half a win; its 95% interval is
Wilson's score interval over the games it sat in. The same arguments give the same numbers.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import GameInfo, derive_seed, make_rng
from .games import GAMES, get_game

__all__ = ["ArenaResult", "LevelResult", "main", "run_arena", "wilson_interval"]


@dataclass
class LevelResult:
    """One level's tally over the games it played."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    moves: int = 0
    think_seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        """Return wins plus half the draws, over the games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def ci95(self) -> tuple[float, float]:
        """Return the 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    @property
    def ms_per_move(self) -> float:
        """Return the mean thinking time of one move, in milliseconds."""
        return 1000.0 * self.think_seconds / self.moves if self.moves else 0.0


@dataclass
class ArenaResult:
    """What an arena run measured."""

    game: str
    games: int
    seconds: float
    levels: dict[str, LevelResult] = field(default_factory=dict)

    @property
    def games_per_s(self) -> float:
        """Return the games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form fixed by DESIGN.md's arena contract (plus ms_per_move)."""
        return {
            "game": self.game,
            "games": self.games,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games_per_s, 2),
            "levels": {
                name: {
                    "wins": r.wins,
                    "draws": r.draws,
                    "games": r.games,
                    "win_rate": round(r.win_rate, 4),
                    "ci95": [round(x, 4) for x in r.ci95()],
                    "ms_per_move": round(r.ms_per_move, 4),
                }
                for name, r in self.levels.items()
            },
        }


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Return Wilson's score interval for a proportion (0, 1) when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_arena(
    game: GameInfo | str,
    seats: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> ArenaResult:
    """Play ``games`` seeded games with one computer level per seat; return the tally."""
    info = get_game(game) if isinstance(game, str) else game
    if info.realtime:
        raise ValueError(f"{info.name} is a real-time puzzle; the arena plays turn-based games")
    players = len(seats)
    if not info.min_players <= players <= info.max_players:
        raise ValueError(f"{info.name} takes {info.min_players} to {info.max_players} players, not {players}")
    bots = {level: info.bot(level) for level in seats}
    opts = dict(options or {})
    if info.max_players > info.min_players or "players" in {o.name for o in info.options}:
        opts["players"] = players
    master = make_rng(seed)
    result = ArenaResult(game=info.id, games=games, seconds=0.0)
    for level in seats:
        result.levels.setdefault(level, LevelResult())
    start = time.perf_counter()
    for index in range(games):
        game_seed = derive_seed(master)
        bot_rng = make_rng(derive_seed(master))
        shift = index % players
        seating = [seats[(seat + shift) % players] for seat in range(players)]
        state = info.new_state(seed=game_seed, **opts)
        while not state.is_over():
            seat = state.current_player()
            level = seating[seat]
            tally = result.levels[level]
            view = state.view(seat)
            t0 = time.perf_counter()
            move = bots[level](view, bot_rng)
            tally.think_seconds += time.perf_counter() - t0
            tally.moves += 1
            state.play(move)
        outcome = state.outcome()
        for seat, level in enumerate(seating):
            tally = result.levels[level]
            tally.games += 1
            if outcome.is_draw:
                if seat in outcome.winners or not outcome.winners:
                    tally.draws += 1
            elif outcome.winner == seat:
                tally.wins += 1
    result.seconds = time.perf_counter() - start
    return result


def _parse_options(info: GameInfo, pairs: Sequence[str]) -> dict[str, Any]:
    known = {option.name: option for option in info.options}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        if name not in known:
            raise ValueError(f"{info.name} has no option {name!r} (known: {', '.join(known) or 'none'})")
        options[name] = known[name].parse(value)
    return options


def _format(result: ArenaResult) -> str:
    lines = [
        f"{result.game}: {result.games} games in {result.seconds:.2f} s ({result.games_per_s:.1f} games/s)",
        f"{'level':<10} {'games':>6} {'wins':>6} {'draws':>6} {'win rate':>9}  {'95% interval':<15} {'ms/move':>8}",
    ]
    for name, r in result.levels.items():
        lo, hi = r.ci95()
        lines.append(
            f"{name:<10} {r.games:>6} {r.wins:>6} {r.draws:>6} {r.win_rate:>9.3f}  "
            f"[{lo:.3f}, {hi:.3f}]  {r.ms_per_move:>8.3f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m boneyard.arena", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", required=True, help=f"game id: {', '.join(i for i, g in GAMES.items() if not g.realtime)}"
    )
    parser.add_argument("--players", type=int, help="number of seats (defaults to the number of --seats)")
    parser.add_argument(
        "--seats", required=True, help="one level per seat, comma-separated, e.g. hard,medium"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    try:
        info = get_game(args.game)
        seats = [s.strip() for s in args.seats.split(",") if s.strip()]
        if args.players is not None and args.players != len(seats):
            raise ValueError(f"--players {args.players} but {len(seats)} seats given")
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        options = _parse_options(info, args.option)
        result = run_arena(info, seats, args.games, args.seed, options)
    except ValueError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json()) if args.json else _format(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
