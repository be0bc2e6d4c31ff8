"""Run every benchmark of the repository in one go (``make bench``): page start-up, Bonefall's frames,
each engine's speed and computer players, Dominoes' public state API beside a peer package, and online
play's latency between two browsers.

    python3 tests/bench/run_all.py [--quick]

Each benchmark is also a command of its own (printed before its output). Timings on a shared machine
are noisy: the benchmarks report medians over repeats and ratios, and none of them is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def browser_test(py: str, path: str, keyword: str) -> list[str]:
    """Return the command that runs the browser tests of ``path`` named by ``keyword``, showing their output."""
    return [py, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", path, "-k", keyword]


def commands(quick: bool) -> list[list[str]]:
    """Return the benchmark commands, from the repository root."""
    py = sys.executable
    runs = "5" if quick else "7"
    return [
        [py, "tests/bench/bench_boot.py", "--runs", runs, "--return-runs", "5"],
        [py, "tests/bench/bench_bonefall_frames.py", "--seconds", "10" if quick else "30"],
        [py, "tools/dominoes_bench.py"],
        [py, "tests/bench/bench_api.py", *(["--quick"] if quick else [])],
        [
            py,
            "-m",
            "boneyard.arena",
            "--game",
            "dominoes",
            "--players",
            "2",
            "--seats",
            "hard,medium",
            "--games",
            "1000" if quick else "4000",
            "--seed",
            "1",
        ],
        [py, "tests/games/triangles/bench_triangles.py"],
        # Online play between two browser contexts over the local broker (tests/browser/peer.py): the
        # transport's round trip, and a move's time from the click to the other page's render over a match.
        browser_test(py, "tests/browser/test_online_transport.py", "round_trip_benchmark"),
        browser_test(py, "tests/browser/test_online_rooms.py", "match_to_50"),
        [py, "tools/heptalion_bench.py", "--part", "boards"],
        [py, "tools/heptalion_bench.py", "--part", "solve"],
        [py, "tools/heptalion_bench.py", "--part", "api"],
        [
            py,
            "tools/bonefall_autoplay.py",
            "--set",
            "norm",
            "--mode",
            "sprint",
            "--games",
            "20" if quick else "100",
            "--seed",
            "1",
        ],
    ]


def main(argv: list[str] | None = None) -> int:
    """Run each benchmark in turn; return non-zero if any of them failed to run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and games")
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    failed = 0
    for command in commands(args.quick):
        shown = " ".join(Path(c).name if c == sys.executable else c for c in command)
        print(f"\n$ PYTHONPATH=py {shown}", flush=True)
        failed += subprocess.run(command, cwd=ROOT, env=env).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
