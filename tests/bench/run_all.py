"""Run the page benchmarks (``make bench``): the boot benchmark, table and JSON.

    python3 tests/bench/run_all.py [bench_boot options]

Engine speed has its own commands (``python -m boneyard.games.<game>.bench``, ``python -m boneyard.arena``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_boot  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(bench_boot.main(sys.argv[1:]))
