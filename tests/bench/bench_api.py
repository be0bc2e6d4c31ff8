"""Measure Dominoes' public state API, the path a search drives, beside the `dominoes` package's.

    python3 tests/bench/bench_api.py [--games 3000] [--repeats 7] [--seed 1] [--quick] [--instructions]

Part 1, games a second: random 4-player block games with 7 tiles each (the whole set dealt), moves
picked uniformly at random:

- ours, as a search plays: ``legal_moves()``, ``play()`` of one of them, then ``undo()`` and ``play()``
  of the same move again, at every move (so each move is played twice and taken back once);
- ours, plain: ``legal_moves()`` then ``play()``;
- the peer: the `dominoes` package's ``Game.new()`` with ``valid_moves`` and ``make_move`` (its own
  API; it has no undo). It is a pinned test dependency (requirements-test.txt); without it that line is
  skipped with a message. Its games open with any tile of player 0 and skip passes, ours open with the
  highest double and count passes as moves: the figures are whole games a second either way;
- the engine's internal ``Table`` loop (``tools/dominoes_bench.py``), for reference, and the same
  loop reverting and replaying every move: what the rules core costs with no public API around it.

The runs alternate (ours, peer, ours, peer...) so that a busy machine slows both alike; each figure is
games per second of CPU time (steadier than wall time on a shared machine; both are printed), the
median over the repeats, and the ratios are of the medians. Our games and the moves' choices share one
seeded generator (``new_state(rng=...)``), as the peer's deal uses the ``random`` module's.

``--instructions`` instead counts the machine instructions a game of each contestant under valgrind
(200 games each unless ``--games`` says): exact and steady when other work loads the machine, so an
A/B of a change reads at once (instructions are not time: the ratios of CPU time run lower).

Part 2, the view's share of a computer player's decision: seeded 2-player rounds and 4-player
matches, Medium and Hard against each other; the CPU time of ``state.view(seat)`` at every decision
and of the bot's call on that view. The share is view / (view + bot), over all decisions and over
those with a choice of two or more moves (a forced move is answered at once). Also the time of one
``sample()``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from dominoes_bench import play_random_games

from boneyard.games.dominoes.bots import hard_bot, medium_bot
from boneyard.games.dominoes.rules import deal, new_state, score_hand
from boneyard.games.dominoes.sample import sample

try:
    import dominoes as peer  # the PyPI package (pinned in requirements-test.txt), not ours
except ImportError:  # pragma: no cover - depends on the environment
    peer = None


def ours_with_undo(games: int, seed: int) -> int:
    """Play random games through legal_moves()/play(), taking back and replaying every move; return moves."""
    rng = random.Random(seed)
    pick = rng.random
    moves = 0
    for _ in range(games):
        state = new_state(rng=rng, players=4, hand_size=7, draw=False)
        while not state.is_over():
            legal = state.legal_moves()
            move = legal[int(pick() * len(legal))]
            state.play(move)
            state.undo()
            state.play(move)
            moves += 1
    return moves


def ours_plain(games: int, seed: int) -> int:
    """Play random games through legal_moves()/play(); return the moves played."""
    rng = random.Random(seed)
    pick = rng.random
    moves = 0
    for _ in range(games):
        state = new_state(rng=rng, players=4, hand_size=7, draw=False)
        while not state.is_over():
            legal = state.legal_moves()
            state.play(legal[int(pick() * len(legal))])
            moves += 1
    return moves


def peer_games(games: int, seed: int) -> int:
    """Play random games with the `dominoes` package's Game, valid_moves and make_move; return the moves."""
    assert peer is not None
    random.seed(seed)  # the package deals with the module's generator
    pick = random.Random(seed).random
    moves = 0
    for _ in range(games):
        game = peer.Game.new()
        while game.result is None:
            valid = game.valid_moves
            game.make_move(*valid[int(pick() * len(valid))])
            moves += 1
    return moves


def internal(games: int, seed: int) -> int:
    """Play random games with the engine's Table loop; return the moves."""
    return play_random_games(games, seed)


def internal_with_undo(games: int, seed: int) -> int:
    """Play random games on the bare Table (moves/apply), reverting and replaying every move: the floor."""
    rng = random.Random(seed)
    pick = rng.random
    moves = 0
    for _ in range(games):
        table = deal(rng, 4, 7, False, None)
        while table.ended is None:
            codes = table.moves()
            code = codes[int(pick() * len(codes))]
            table.revert(table.apply(code))
            table.apply(code)
            moves += 1
        score_hand(table)
    return moves


def games_per_second(games: int, repeats: int, seed: int) -> dict[str, float]:
    """Run every contestant ``repeats`` times, alternating; print each run; return median games a CPU second."""
    runs: dict[str, Callable[[int, int], int]] = {
        "ours: legal_moves/play + undo/replay": ours_with_undo,
        "ours: legal_moves/play": ours_plain,
        "internal Table loop": internal,
        "internal Table loop + revert/replay": internal_with_undo,
    }
    if peer is not None:
        runs["peer dominoes 6.1 Game: valid_moves/make_move"] = peer_games
    else:
        print("peer skipped: the `dominoes` package is not importable (pip install -r requirements-test.txt)")
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for repeat in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            cpu_start = time.process_time()
            moves = run(games, seed + repeat)
            cpu = time.process_time() - cpu_start
            seconds = time.perf_counter() - start
            rates[name].append(games / cpu)
            print(
                f"  repeat {repeat + 1}  {name:<48} {games / cpu:>9,.0f} games per CPU second "
                f"({games / seconds:,.0f} of wall time; {moves / games:.1f} moves a game)"
            )
    return {name: statistics.median(values) for name, values in rates.items()}


CONTESTANTS: dict[str, Callable[[int, int], int]] = {
    "ours_with_undo": ours_with_undo,
    "ours_plain": ours_plain,
    "internal": internal,
    "internal_with_undo": internal_with_undo,
    "peer": peer_games,
}


def instructions(games: int, seed: int) -> None:
    """Print each contestant's machine instructions a game, counted by valgrind (exact on a busy machine).

    Each contestant runs in a child process under ``valgrind --tool=callgrind``, counting only inside
    one ``eval()`` that plays the games (start-up and imports excluded). Instruction counts are not time,
    but they do not move with the load: an A/B of a change is read at once.
    """
    if shutil.which("valgrind") is None:
        print("  --instructions needs valgrind (apt-get install valgrind)")
        return
    counts: dict[str, float] = {}
    for name in CONTESTANTS:
        if name == "peer" and peer is None:
            continue
        command = [
            "valgrind",
            "--tool=callgrind",
            "--toggle-collect=builtin_eval",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--child",
            name,
            "--games",
            str(games),
            "--seed",
            str(seed),
        ]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stderr
        collected = [line for line in output.splitlines() if "Collected" in line]
        counts[name] = int(collected[-1].split()[-1]) / games
        print(f"  {name:<20} {counts[name]:>12,.0f} instructions a game")
    if "peer" in counts:
        for name in ("ours_with_undo", "ours_plain"):
            print(f"  ratio {name} / peer: {counts['peer'] / counts[name]:.2f}x (fewer instructions)")


def _child(name: str, games: int, seed: int) -> None:
    """Play one contestant's games inside eval() (what ``instructions`` counts), after a warm-up."""
    run = CONTESTANTS[name]
    run(20, seed + 99)
    eval("run(games, seed)", {"run": run, "games": games, "seed": seed})


def view_share(games: int, seed: int) -> None:
    """Print the share of Medium's and Hard's decisions spent building their view."""
    setups: list[tuple[str, dict[str, Any]]] = [
        ("2-player rounds", {"players": 2}),
        ("4-player matches to 100", {"players": 4, "target": 100}),
    ]
    for label, options in setups:
        count = games if options["players"] == 2 else max(1, games // 10)
        # Play the games once, keeping every decision's position, then time all the views and all the
        # bots' calls in two batches of CPU time (steadier than timing each call on a busy machine).
        decisions: dict[tuple[str, bool], list[tuple[Any, int, dict[str, Any]]]] = {}
        master = random.Random(seed)
        for index in range(count):
            state = new_state(seed=master.getrandbits(63), **options)
            rng = random.Random(master.getrandbits(63))
            while not state.is_over():
                seat = state.current_player()
                assert seat is not None
                bot = hard_bot if (seat + index) % 2 == 0 else medium_bot
                view = state.view(seat)
                key = (bot.__name__, len(view["legal_moves"]) > 1)
                decisions.setdefault(key, []).append((state.clone(), seat, view))
                state.play(bot(view, rng))
        for name, bot in (("hard", hard_bot), ("medium", medium_bot)):
            for subset, kinds in (("every decision", (False, True)), ("with a choice", (True,))):
                cases = [case for kind in kinds for case in decisions.get((bot.__name__, kind), [])]
                if not cases:
                    continue
                rng = random.Random(seed)
                start = time.process_time()
                for position, seat, _ in cases:
                    position.view(seat)
                view_time = time.process_time() - start
                start = time.process_time()
                for _, _, view in cases:
                    bot(view, rng)
                bot_time = time.process_time() - start
                print(
                    f"  {label:<24} {name:<7} {subset:<15} view {1e6 * view_time / len(cases):6.1f} us, "
                    f"bot {1e6 * bot_time / len(cases):6.1f} us: view share {view_time / (view_time + bot_time):4.0%} "
                    f"({len(cases)} decisions)"
                )


def sample_time(games: int, seed: int) -> None:
    """Print the median time of one sample() from the views of seeded games."""
    master = random.Random(seed)
    rng = random.Random(seed)
    times = []
    for _ in range(games):
        state = new_state(seed=master.getrandbits(63), players=4, target=100)
        while not state.is_over():
            seat = state.current_player()
            assert seat is not None
            view = state.view((seat + 1) % 4)
            start = time.perf_counter()
            sample(view, rng)
            times.append(time.perf_counter() - start)
            legal = state.legal_moves()
            state.play(legal[rng.randrange(len(legal))])
    print(
        f"  sample(view, rng): median {1e6 * statistics.median(times):.1f} us over {len(times)} views of 4-player matches"
    )


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print the figures and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instead count each contestant's machine instructions a game with valgrind (steady under load)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.games, args.seed)
        return 0
    if args.instructions:
        games = 200 if args.games == 3000 else args.games
        print(f"Machine instructions a game (valgrind callgrind), {games} games each:")
        instructions(games, args.seed)
        return 0
    games, repeats = (1000, 3) if args.quick else (args.games, args.repeats)
    print(
        f"Dominoes state API: random 4-player block games, 7 tiles each; {repeats} alternating runs of {games} games"
    )
    medians = games_per_second(games, repeats, args.seed)
    for name, rate in medians.items():
        print(f"median  {name:<48} {rate:>9,.0f} games per CPU second")
    peer_name = next((n for n in medians if n.startswith("peer")), None)
    if peer_name is not None:
        for name in ("ours: legal_moves/play + undo/replay", "ours: legal_moves/play"):
            print(f"ratio   {name} / peer: {medians[name] / medians[peer_name]:.2f}x")
    print("View share of a computer player's decision (Medium and Hard seated alternately):")
    view_share(200 if args.quick else 600, args.seed)
    sample_time(5 if args.quick else 20, args.seed)
    print(f"(Python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
