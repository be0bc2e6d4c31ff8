"""Pyflakes' checks over the whole repository: no unused imports or variables, no undefined names."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_pyflakes_finds_nothing():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (make test installs it)")
    done = subprocess.run(
        [ruff, "check", "--select", "F,E9", "--output-format", "concise", "py", "tools", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
