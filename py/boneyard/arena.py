"""Play seeded games between computer players and report each level's strength and the speed.

    PYTHONPATH=py python -m boneyard.arena --game dominoes --players 2 --seats medium,easy \
        --games 2000 --seed 1 [--json] [--option target=100 ...]
    PYTHONPATH=py python -m boneyard.arena --game dominoes --seats hard,medium,easy*2 \
        --seatings all --games 500 [--progress /tmp/tally.json]

``--seats`` names one level a seat (``easy*2`` is two Easy seats); any level of the game, ``expert``
included, in any mix, at any table size the game allows (``--players`` only checks the count).

Seats rotate from game to game (game i shifts every level i seats on), so no level keeps the first
move. A level's win rate counts a draw (no single winner) as half a win; its 95% interval is
Wilson's score interval over the games it sat in. Its *share* splits every game's one win among the
winners (a three-way draw gives each a third), so the shares of a table's seats add up to 1 (a fair
share is 1/players); ``share a seat`` divides by the seats the level held.

At three or four seats the cyclic order matters (who sits after whom): ``--seatings all`` plays the
same seeded games at every distinct cyclic seating of the levels typed (each rotated as above) and
reports each seating's shares a seat and their average, with 95% intervals, and flags any seating
where a stronger level (later in the game's list: easy, medium, hard, expert) is significantly below
a weaker one. The same arguments give the same numbers.

Partnerships (Dominoes ``--option teams=true``, four seats): the typed seats 1 and 3 are partners, and
so are 2 and 4 (partners sit opposite); rotating keeps them opposite, and ``--seatings all`` plays
only the seatings that do (each side's two levels, the other side's in either order). The report
then adds a row a side (``hard+hard``): its games, wins (the side won), draws (nobody won a hand
that ended level), its win rate and interval over the games, the games being independent where the
level rows count each partner's game once a seat. With partners the order is checked on the sides:
the side whose levels are at least the other's seat for seat (``hard+easy`` against ``medium+easy``)
must win more, intervals apart (a level on both sides shares both sides' results).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ai  # noqa: F401  (imported for its effect: it registers Expert as each game's level)
from .core import GameInfo, derive_seed, make_rng
from .games import GAMES, get_game

__all__ = [
    "ArenaResult",
    "LevelResult",
    "SeatingsResult",
    "cyclic_seatings",
    "dominates",
    "format_result",
    "format_seatings",
    "main",
    "parse_seats",
    "run_arena",
    "run_seatings",
    "side_names",
    "wilson_interval",
]


@dataclass
class LevelResult:
    """One level's tally over the games it played (a level in two seats counts two games a game)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    moves: int = 0
    think_seconds: float = 0.0
    share: float = 0.0  # the wins split among a game's winners, summed
    max_think: float = 0.0

    @property
    def win_rate(self) -> float:
        """Return wins plus half the draws, over the games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def ci95(self) -> tuple[float, float]:
        """Return the 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    @property
    def share_rate(self) -> float:
        """Return the level's share of the wins a seat (draws split among the winners)."""
        return self.share / self.games if self.games else 0.0

    def share_ci95(self) -> tuple[float, float]:
        """Return the 95% Wilson interval of the share a seat."""
        return wilson_interval(self.share, self.games)

    @property
    def ms_per_move(self) -> float:
        """Return the mean thinking time of one move, in milliseconds."""
        return 1000.0 * self.think_seconds / self.moves if self.moves else 0.0

    def add(self, other: LevelResult) -> None:
        """Add another tally of the same level to this one."""
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws
        self.moves += other.moves
        self.think_seconds += other.think_seconds
        self.share += other.share
        self.max_think = max(self.max_think, other.max_think)


@dataclass
class ArenaResult:
    """What an arena run measured."""

    game: str
    games: int
    seconds: float
    levels: dict[str, LevelResult] = field(default_factory=dict)
    seats: tuple[str, ...] = ()
    sides: dict[str, LevelResult] = field(default_factory=dict)  # partnerships: a tally a side

    @property
    def games_per_s(self) -> float:
        """Return the games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form of docs/architecture.md, "The arena's JSON" (with ms_per_move, shares)."""
        return {
            "game": self.game,
            "games": self.games,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games_per_s, 2),
            "seats": list(self.seats),
            "levels": {name: _level_json(r) for name, r in self.levels.items()},
            "max_ms": {name: round(1000.0 * r.max_think, 2) for name, r in self.levels.items()},
            **({"sides": {name: _level_json(r) for name, r in self.sides.items()}} if self.sides else {}),
        }


def _level_json(r: LevelResult) -> dict[str, Any]:
    return {
        "wins": r.wins,
        "draws": r.draws,
        "games": r.games,
        "win_rate": round(r.win_rate, 4),
        "ci95": [round(x, 4) for x in r.ci95()],
        "share": round(r.share_rate, 4),
        "share_ci95": [round(x, 4) for x in r.share_ci95()],
        "ms_per_move": round(r.ms_per_move, 4),
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


def _check_table(info: GameInfo, seats: Sequence[str]) -> None:
    if info.realtime:
        raise ValueError(f"{info.name} is a real-time puzzle; the arena plays turn-based games")
    players = len(seats)
    if not info.min_players <= players <= info.max_players:
        raise ValueError(f"{info.name} takes {info.min_players} to {info.max_players} players, not {players}")


def side_names(seats: Sequence[str], order: Sequence[str] = ()) -> tuple[str, str]:
    """Return the names of a partnership table's two sides (typed seats 1 and 3, then 2 and 4): "hard+medium".

    The stronger level first (``order``: the game's levels, weakest first); the same name twice gets
    "(2)" on the second.
    """

    def rank(level: str) -> int:
        return -list(order).index(level) if level in order else 0

    names = ["+".join(sorted((seats[i], seats[i + 2]), key=rank)) for i in (0, 1)]
    if names[0] == names[1]:
        names[1] += " (2)"
    return names[0], names[1]


def _teams(info: GameInfo, options: dict[str, Any] | None, players: int) -> bool:
    return bool((options or {}).get("teams")) and players == 4 and info.id == "dominoes"


def run_arena(
    game: GameInfo | str,
    seats: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play ``games`` seeded games with one computer level per seat; return the tally.

    ``progress``, when given, is called with the tally so far after every game (for checkpoints).
    """
    info = get_game(game) if isinstance(game, str) else game
    _check_table(info, seats)
    players = len(seats)
    bots = {level: info.bot(level) for level in seats}
    opts = dict(options or {})
    if info.max_players > info.min_players or "players" in {o.name for o in info.options}:
        opts["players"] = players
    master = make_rng(seed)
    result = ArenaResult(game=info.id, games=0, seconds=0.0, seats=tuple(seats))
    for level in seats:
        result.levels.setdefault(level, LevelResult())
    teams = _teams(info, opts, players)
    sides = side_names(seats, list(info.levels)) if teams else ()
    for name in sides:
        result.sides[name] = LevelResult()
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
            spent = time.perf_counter() - t0
            tally.think_seconds += spent
            tally.max_think = max(tally.max_think, spent)
            tally.moves += 1
            state.play(move)
        outcome = state.outcome()
        winners = outcome.winners
        for seat, level in enumerate(seating):
            tally = result.levels[level]
            tally.games += 1
            if outcome.is_draw:
                if seat in winners or not winners:
                    tally.draws += 1
                    tally.share += 1.0 / (len(winners) or players)
            elif seat in winners:  # one seat, or each partner of the winning side
                tally.wins += 1
                tally.share += 1.0 / len(winners)
        for typed, name in enumerate(sides):  # typed seats 0 and 2 (then 1 and 3) sit at seat - shift
            tally = result.sides[name]
            tally.games += 1
            if (typed - shift) % players in winners and not outcome.is_draw:
                tally.wins += 1
                tally.share += 1.0
            elif outcome.is_draw:
                tally.draws += 1
                tally.share += 0.5
        result.games = index + 1
        result.seconds = time.perf_counter() - start
        if progress is not None:
            progress(result)
    result.seconds = time.perf_counter() - start
    return result


def dominates(first: Sequence[int], second: Sequence[int]) -> bool:
    """Tell whether ranks ``first`` are at least ``second``'s one for one (both sorted strongest first), once above."""
    return (
        len(first) == len(second)
        and all(a >= b for a, b in zip(first, second))
        and list(first) != list(second)
    )


def cyclic_seatings(seats: Sequence[str], teams: bool = False) -> list[tuple[str, ...]]:
    """Return the distinct cyclic orders of ``seats`` (rotations count as one), the typed order first.

    Hard, Medium, Easy gives two: (hard, medium, easy) and (hard, easy, medium); Hard, Medium,
    Easy, Easy gives three. ``teams``: four seats, partners (typed 1 and 3, 2 and 4) kept opposite.
    """
    seats = tuple(seats)
    found: list[tuple[str, ...]] = []
    canon: set[tuple[str, ...]] = set()
    if teams:
        a, b, c, d = seats
        orders: Any = [(a, b, c, d), (a, d, c, b)]
    else:
        orders = itertools.permutations(seats)
    for perm in orders:
        key = min(perm[i:] + perm[:i] for i in range(len(perm)))
        if key not in canon:
            canon.add(key)
            found.append(perm)
    return found


@dataclass
class SeatingsResult:
    """A mixed table played at every distinct cyclic seating: each seating's tally and their average."""

    game: str
    order: tuple[str, ...]  # the levels, weakest first
    seatings: list[ArenaResult]

    def averaged_sides(self) -> dict[str, LevelResult]:
        """Return each side's tally summed over the seatings (partnerships only; else empty)."""
        total: dict[str, LevelResult] = {}
        for result in self.seatings:
            for name, tally in result.sides.items():
                total.setdefault(name, LevelResult()).add(tally)
        return total

    def averaged(self) -> dict[str, LevelResult]:
        """Return each level's tally summed over the seatings (equal games in each, so an average)."""
        total: dict[str, LevelResult] = {}
        for result in self.seatings:
            for level, tally in result.levels.items():
                total.setdefault(level, LevelResult()).add(tally)
        return {level: total[level] for level in self.order if level in total}

    def ordered(self) -> bool:
        """Tell whether each level's averaged share interval lies wholly above the next weaker one's.

        Partnerships compare the sides instead (a level on both sides shares both sides' results, so
        its row says nothing of its strength): the side that is stronger seat for seat (``dominates``)
        must have a win-rate interval wholly above the other's.
        """
        sides = self.averaged_sides()
        if sides:
            return all(
                sides[strong].ci95()[0] > sides[weak].ci95()[1] for strong, weak in self._side_pairs(sides)
            )
        tallies = list(self.averaged().values())
        return all(hi.share_ci95()[0] > lo.share_ci95()[1] for lo, hi in itertools.pairwise(tallies))

    def _side_pairs(self, sides: dict[str, LevelResult]) -> list[tuple[str, str]]:
        """Return (stronger, weaker) for the two sides when one dominates the other seat for seat."""
        names = list(sides)
        if len(names) != 2:
            return []
        first, second = (self._ranks(name) for name in names)
        if dominates(first, second):
            return [(names[0], names[1])]
        if dominates(second, first):
            return [(names[1], names[0])]
        return []

    def _ranks(self, side: str) -> list[int]:
        """Return the levels' ranks of a side's name ("hard+easy"), strongest first."""
        rank = {level: i for i, level in enumerate(self.order)}
        levels = side.split(" (")[0].split("+")
        return sorted((rank.get(level, -1) for level in levels), reverse=True)

    def inversions(self) -> list[tuple[tuple[str, ...], str, str]]:
        """Return (seating, stronger, weaker) wherever a stronger level is significantly below a weaker one.

        Partnerships: wherever the dominating side is significantly below the other.
        """
        found = []
        if self.averaged_sides():
            for result in self.seatings:
                for strong, weak in self._side_pairs(result.sides):
                    if result.sides[strong].ci95()[1] < result.sides[weak].ci95()[0]:
                        found.append((result.seats, strong, weak))
            return found
        rank = {level: i for i, level in enumerate(self.order)}
        for result in self.seatings:
            for strong, st in result.levels.items():
                for weak, wt in result.levels.items():
                    if rank[strong] > rank[weak] and st.share_ci95()[1] < wt.share_ci95()[0]:
                        found.append((result.seats, strong, weak))
        return found

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form: every seating's levels, the averaged levels, and the two checks."""
        return {
            "game": self.game,
            "seatings": [r.to_json() for r in self.seatings],
            "averaged": {name: _level_json(r) for name, r in self.averaged().items()},
            **(
                {"sides": {name: _level_json(r) for name, r in self.averaged_sides().items()}}
                if self.averaged_sides()
                else {}
            ),
            "ordered": self.ordered(),
            "inversions": [[list(s), a, b] for s, a, b in self.inversions()],
        }


def _level_order(info: GameInfo, seats: Sequence[str]) -> tuple[str, ...]:
    known = list(info.levels)
    return tuple(sorted(set(seats), key=lambda level: known.index(level) if level in known else len(known)))


def run_seatings(
    game: GameInfo | str,
    seats: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    progress: Callable[[SeatingsResult], None] | None = None,
) -> SeatingsResult:
    """Play the same ``games`` seeded games at every distinct cyclic seating of ``seats``."""
    info = get_game(game) if isinstance(game, str) else game
    _check_table(info, seats)
    result = SeatingsResult(info.id, _level_order(info, seats), [])
    for seating in cyclic_seatings(seats, _teams(info, options, len(seats))):
        done = list(result.seatings)

        def report(partial: ArenaResult, done: list[ArenaResult] = done) -> None:
            if progress is not None:
                progress(SeatingsResult(result.game, result.order, [*done, partial]))

        result.seatings.append(run_arena(info, seating, games, seed, options, report))
    return result


def parse_seats(text: str) -> list[str]:
    """Return the seats of ``--seats``: comma-separated levels, ``easy*2`` standing for two."""
    seats: list[str] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        level, star, count = item.partition("*")
        if star:
            if not count.strip().isdigit() or int(count) < 1:
                raise ValueError(f"--seats takes LEVEL*COUNT, not {item!r}")
            seats.extend([level.strip()] * int(count))
        else:
            seats.append(level)
    return seats


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


def _rows(levels: dict[str, LevelResult], seats: Sequence[str]) -> list[str]:
    lines = [
        f"{'level':<10} {'seats':>5} {'games':>6} {'wins':>6} {'draws':>6} {'win rate':>9}  {'95% interval':<15}"
        f" {'share/seat':>10}  {'95% interval':<15} {'ms/move':>8} {'max ms':>8}"
    ]
    for name, r in levels.items():
        lo, hi = r.ci95()
        slo, shi = r.share_ci95()
        lines.append(
            f"{name:<10} {seats.count(name):>5} {r.games:>6} {r.wins:>6} {r.draws:>6} {r.win_rate:>9.3f}  "
            f"[{lo:.3f}, {hi:.3f}]  {r.share_rate:>10.3f}  [{slo:.3f}, {shi:.3f}]  {r.ms_per_move:>8.3f}"
            f" {1000 * r.max_think:>8.1f}"
        )
    return lines


def _side_rows(sides: dict[str, LevelResult]) -> list[str]:
    lines = [f"{'side':<22} {'games':>6} {'wins':>6} {'draws':>6} {'win rate':>9}  {'95% interval':<15}"]
    for name, r in sides.items():
        lo, hi = r.ci95()
        lines.append(
            f"{name:<22} {r.games:>6} {r.wins:>6} {r.draws:>6} {r.win_rate:>9.3f}  [{lo:.3f}, {hi:.3f}]"
        )
    return lines


def format_result(result: ArenaResult) -> str:
    """Return the table a run prints: its games, speed and a row a level (and a side)."""
    lines = [
        f"{result.game}: {result.games} games in {result.seconds:.2f} s ({result.games_per_s:.1f} games/s),"
        f" seats {', '.join(result.seats)}",
        *_rows(result.levels, result.seats),
    ]
    if result.sides:
        lines += _side_rows(result.sides)
    return "\n".join(lines)


def format_seatings(result: SeatingsResult) -> str:
    """Return the tables of every seating, their average and whether the levels came out in order."""
    lines = []
    for played in result.seatings:
        lines += [format_result(played), ""]
    seats = result.seatings[0].seats if result.seatings else ()
    lines.append(f"averaged over {len(result.seatings)} cyclic seatings:")
    lines += _rows(result.averaged(), seats)
    if result.averaged_sides():
        lines += _side_rows(result.averaged_sides())
    what = "sides ordered (the stronger side above)" if result.averaged_sides() else "levels ordered"
    lines.append(f"{what} (intervals apart): {'yes' if result.ordered() else 'no'}")
    for order, strong, weak in result.inversions():
        lines.append(f"inversion: {strong} significantly below {weak} at {', '.join(order)}")
    return "\n".join(lines)


def _checkpoint(path: Path | None) -> Callable[[Any], None] | None:
    if path is None:
        return None
    last = [0.0]

    def write(result: Any) -> None:
        now = time.monotonic()
        if now - last[0] < 10.0:
            return
        last[0] = now
        path.write_text(json.dumps(result.to_json()) + "\n")

    return write


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m boneyard.arena", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", required=True, help=f"game id: {', '.join(i for i, g in GAMES.items() if not g.realtime)}"
    )
    parser.add_argument("--players", type=int, help="number of seats (defaults to the number of --seats)")
    parser.add_argument(
        "--seats", required=True, help="one level per seat, comma-separated, e.g. hard,medium or hard,easy*3"
    )
    parser.add_argument("--games", type=int, default=100, help="games (a seating, with --seatings all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--seatings",
        choices=("rotate", "all"),
        default="rotate",
        help="rotate: the typed cyclic order only; all: every distinct cyclic seating, averaged",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--progress", type=Path, help="write the tally so far to this JSON file as it runs")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    try:
        info = get_game(args.game)
        seats = parse_seats(args.seats)
        if args.players is not None and args.players != len(seats):
            raise ValueError(f"--players {args.players} but {len(seats)} seats given")
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        options = _parse_options(info, args.option)
        for level in set(seats):
            info.bot(level)
        progress = _checkpoint(args.progress)
        result: ArenaResult | SeatingsResult
        if args.seatings == "all":
            result = run_seatings(info, seats, args.games, args.seed, options, progress)
            text = format_seatings(result)
        else:
            result = run_arena(info, seats, args.games, args.seed, options, progress)
            text = format_result(result)
    except ValueError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    if args.progress is not None:
        args.progress.write_text(json.dumps(result.to_json()) + "\n")
    print(json.dumps(result.to_json()) if args.json else text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
