"""Measure Heptalion's generators, solver and Automa+ (long runs kept out of the test suite).

    PYTHONPATH=py python3 tools/heptalion_bench.py [--part boards|lab|solve|hard|hardcpu|expert|digest|api|arena|all]
        [--games N] [--seeds N]

Timings are CPython wall times on this machine; the page (Pyodide) runs pure Python ~1.45x slower.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boneyard.arena import format_result, run_arena
from boneyard.games.heptalion import GAME
from boneyard.games.heptalion.board import lab_search, random_board
from boneyard.games.heptalion.bots import (
    HARD_NODES,
    HARD_NODES_MANY,
    HIDDEN_DEALS,
    DeepSearcher,
    Searcher,
    easy_bot,
    hard_bot,
    medium_bot,
    sample_positions,
)
from boneyard.games.heptalion.rules import new_state
from boneyard.games.heptalion.sample import sample
from boneyard.games.heptalion.solve import solve

PAGE_FACTOR = 1.45


def _summary(label: str, seconds: Sequence[float]) -> str:
    med, worst = statistics.median(seconds), max(seconds)
    return (
        f"{label}: n={len(seconds)} median {med * 1000:.2f} ms, max {worst * 1000:.2f} ms "
        f"(page ~{med * PAGE_FACTOR * 1000:.2f} / {worst * PAGE_FACTOR * 1000:.2f} ms)"
    )


def _summary_p95(label: str, seconds: Sequence[float]) -> str:
    """Return ``_summary`` with the 95th percentile added (the slow moves a player waits for)."""
    ordered = sorted(seconds)
    return _summary(label, ordered) + f", p95 {ordered[int(0.95 * (len(ordered) - 1))] * 1000:.0f} ms"


def _timed(make: Callable[[int], object], seeds: int) -> list[float]:
    """Return the seconds ``make(seed)`` took for every seed below ``seeds``."""
    times = []
    for seed in range(seeds):
        t0 = time.perf_counter()
        make(seed)
        times.append(time.perf_counter() - t0)
    return times


def bench_boards(seeds: int) -> None:
    """Time random board generation over many seeds."""
    print(_summary("random board generation", _timed(random_board, seeds)))


def bench_lab(seeds: int) -> None:
    """Time the original-style (lab) board search."""
    print(_summary("lab board search", _timed(lab_search, seeds)))


def bench_solve(seeds: int) -> None:
    """Time the exact solver on the original and on random boards."""
    original = solve()
    print(f"original: max {original.max_tiles}, {original.nodes} nodes, {original.seconds * 1000:.2f} ms")
    times: list[float] = []
    maxima: dict[int, int] = {}
    for seed in range(seeds):
        solution = solve(random_board(seed))
        times.append(solution.seconds)
        maxima[solution.max_tiles] = maxima.get(solution.max_tiles, 0) + 1
    print(_summary("solver on random boards", times) + f"; maxima {dict(sorted(maxima.items()))}")


def bench_hard(games: int) -> None:
    """Time hard's moves in seeded games against medium (2, 3, 4 players; visible and hidden)."""
    for players in (2, 3, 4):
        for hidden in (False, True):
            times = []
            for seed in range(games):
                state = new_state(seed=seed, players=players, hidden=hidden)
                rng = random.Random(seed)
                while not state.is_over():
                    seat = state.current_player()
                    assert seat is not None
                    view = state.view(seat)
                    if seat == 0:
                        t0 = time.perf_counter()
                        move = hard_bot(view, rng)
                        times.append(time.perf_counter() - t0)
                    else:
                        move = medium_bot(view, rng)
                    state.play(move)
            print(_summary(f"hard move ({HARD_NODES} nodes), {players} players, hidden={hidden}", times))


def bench_expert(games: int) -> None:
    """Time Expert's 2-player decisions (a move, or a hint: the same search) in CPU time, Hard replying."""
    from boneyard.ai.heptalion import EXPERT_NODES, FEATURES
    from boneyard.core import run_thinking

    times: list[float] = []
    for seed in range(games):
        state = new_state(seed=seed, players=2)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.current_player()
            assert seat is not None
            view = state.view(seat)
            if seat == 0:
                t0 = time.process_time()
                move = run_thinking(FEATURES.direct(view, rng)).move
                if len(view["legal_moves"]) > 1:
                    times.append(time.process_time() - t0)
                state.play(move)
            else:
                state.play(hard_bot(view, rng))
    print(_summary_p95(f"expert decision ({EXPERT_NODES} nodes, CPU), 2 players", times))


def fixed_positions(count: int = 150) -> list[Mapping[str, object]]:
    """Return ``count`` fixed views with a choice: Mediums' seeded games, 2-4 players, visible and hidden."""
    views: list[Mapping[str, object]] = []
    seed = 0
    while len(views) < count:
        players, hidden = 2 + seed % 3, seed // 3 % 2 == 1
        state = new_state(seed=seed, players=players, hidden=hidden)
        rng = random.Random(seed)
        turn = 0
        while (seat := state.current_player()) is not None:
            view = state.view(seat)
            if len(view["legal_moves"]) > 1 and turn % 3 == seed % 3 and len(views) < count:
                views.append(view)
            state.play(medium_bot(view, rng))
            turn += 1
        seed += 1
    return views


def bench_hard_cpu(count: int) -> None:
    """Time Hard's moves in CPU time over fixed positions (the same for every version of Hard)."""
    times: list[float] = []
    for i, view in enumerate(fixed_positions(count)):
        rng = random.Random(i)
        t0 = time.process_time()
        hard_bot(view, rng)
        times.append(time.process_time() - t0)
    print(_summary_p95(f"hard move ({HARD_NODES} nodes, CPU), fixed positions", times))


def search_record(views: Sequence[Mapping[str, object]], expert: int = 0) -> list[object]:
    """Return every search Hard (and Expert, over the first ``expert`` views) makes over ``views``.

    Each decision is recorded as its move and, per deal searched, the search's move, node count and
    root scores: two versions of the search that record the same made the same moves the same way.
    """
    from boneyard.ai.heptalion import DEALS, EXPERT_NODES, FEATURES, ExpertSearcher
    from boneyard.core import run_thinking

    def searches(
        view: Mapping[str, Any],
        rng: random.Random,
        deals: int,
        nodes: int,
        cls: type[DeepSearcher] = DeepSearcher,
    ) -> list[object]:
        positions = sample_positions(view, rng, deals)
        out: list[object] = []
        for pos in positions:
            searcher = cls(pos, view["seat"], max(1, nodes // len(positions)))
            move = run_thinking(searcher.think())
            out.append((move, searcher.nodes, sorted(searcher.scores.items())))
        return out

    record: list[object] = []
    for i, view in enumerate(views):
        budget = HARD_NODES if view["players"] == 2 else HARD_NODES_MANY
        record.append(
            (
                "hard",
                str(hard_bot(view, random.Random(i))),
                searches(view, random.Random(i), HIDDEN_DEALS, budget),
            )
        )
    for i, view in enumerate(views[:expert]):
        texts = list(view["legal_moves"])  # type: ignore[call-overload]
        result = run_thinking(FEATURES.direct(view, random.Random(i)))
        deals = (
            searches(view, random.Random(i), DEALS, EXPERT_NODES, ExpertSearcher) if len(texts) > 1 else []
        )
        stats = sorted((t, s.weight, s.total, s.samples) for t, s in result.stats.items())
        record.append(("expert", result.move, deals, stats))
    return record


def search_digest(views: Sequence[Mapping[str, object]], expert: int = 0) -> str:
    """Return a short hash of ``search_record`` (to compare two versions of the search)."""
    return hashlib.sha256(repr(search_record(views, expert)).encode()).hexdigest()[:16]


# ``bench_digest`` over the 150 fixed positions and Expert's 40: a faster search must print the same. Hard's
# searches are as the search before its placements were packed into ints (commit 00f9467) recorded them
# (Hard alone, expert=0: f32de2b0d318435e); Expert's since its leaf weighs the room only one side reaches
# (``EXPERT_LEAF``, its chances on the fitted scale) and it searches 54,000 nodes.
DIGEST_RECORDED = "046e0dec5a7d679f"


def bench_digest(count: int, expert: int) -> None:
    """Print the hash of Hard's searches over the fixed positions and Expert's over the first ``expert``."""
    t0 = time.process_time()
    digest = search_digest(fixed_positions(count), expert)
    same = "the recorded one" if digest == DIGEST_RECORDED else f"NOT the recorded {DIGEST_RECORDED}"
    print(
        f"search digest over {count} fixed positions (Hard) and {expert} (Expert): {digest}, {same}"
        f" ({time.process_time() - t0:.0f} s CPU)"
    )


def bench_api(games: int) -> None:
    """Time the state API a search drives: play/undo, view(), sample(), and the Hard search's nodes a second."""
    clock = time.process_time
    start, moves = clock(), 0
    for seed in range(games):
        state = new_state(seed=seed, players=4)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            state.play(move)
            state.undo()
            state.play(move)
            moves += 1
    spent = clock() - start
    print(
        f"4-player games through legal_moves()/play()/undo()/play(): {games / spent:.0f} games/s ({moves} moves)"
    )
    views = []
    for seed in range(min(games, 40)):
        state = new_state(seed=seed, players=2 + seed % 3, hidden=seed % 2 == 1)
        rng = random.Random(seed)
        while (seat := state.current_player()) is not None:
            views.append(state.view(seat))
            state.play(easy_bot(views[-1], rng))
    start = clock()
    for view in views:
        sample(view, rng)
    print(
        f"sample(): {(clock() - start) / len(views) * 1e6:.0f} us a view (n={len(views)}, 2-4 players, half hidden)"
    )
    nodes, start = 0, clock()
    for i, view in enumerate(views[::3]):
        (pos,) = sample_positions(view, random.Random(i), 1)
        searcher = Searcher(pos, view["seat"], 2000)
        searcher.best_move()
        nodes += searcher.nodes
    print(f"Hard search: {nodes / (clock() - start):.0f} nodes/s ({nodes} nodes, CPU time)")
    nodes, start = 0, clock()
    for i, view in enumerate(views[::3]):
        (pos,) = sample_positions(view, random.Random(i), 1)
        deep = DeepSearcher(pos, view["seat"], 2000)
        deep.best_move()
        nodes += deep.nodes
    print(f"Expert search: {nodes / (clock() - start):.0f} nodes/s ({nodes} nodes, CPU time)")


def bench_arena(games: int) -> None:
    """Run the 2-player arena pairs the issue asks for, visible and hidden hands."""
    for hidden in (False, True):
        for seats in (["medium", "easy"], ["hard", "medium"]):
            result = run_arena(GAME, seats, games, seed=1, options={"hidden": hidden})
            print(f"--- {','.join(seats)} hidden={hidden}")
            print(format_result(result))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen benchmarks."""
    parser = argparse.ArgumentParser(prog="tools/heptalion_bench.py")
    parser.add_argument(
        "--part",
        default="all",
        choices=("boards", "lab", "solve", "hard", "hardcpu", "expert", "digest", "api", "arena", "all"),
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=1000)
    args = parser.parse_args(argv)
    parts = (
        ("boards", "lab", "solve", "hard", "expert", "api", "arena") if args.part == "all" else (args.part,)
    )
    for part in parts:
        if part == "boards":
            bench_boards(args.seeds)
        elif part == "lab":
            bench_lab(min(args.seeds, 30))
        elif part == "solve":
            bench_solve(args.seeds)
        elif part == "hard":
            bench_hard(min(args.games, 20))
        elif part == "hardcpu":
            bench_hard_cpu(150)
        elif part == "expert":
            bench_expert(min(args.games, 10))
        elif part == "digest":
            bench_digest(150, 40)
        elif part == "api":
            bench_api(args.games)
        else:
            bench_arena(args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
