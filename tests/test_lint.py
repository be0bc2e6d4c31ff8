"""The habits `make test` holds the code to: ruff's rule set, ruff's format and mypy (strict for the engine).

The rule set and mypy's settings are in ``pyproject.toml``; ``make lint`` runs the same three checks and
``make fmt`` formats the code. Each check is skipped only where its tool is not installed (``make test``
installs all three from requirements-test.txt).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ["py", "tools", "tests"]


def tool(name: str) -> str:
    """Return the path of a tool installed beside this Python (or on PATH); skip when it is missing."""
    path = Path(sys.executable).parent / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed (make test installs it)")
    return found


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    done = run(tool("ruff"), "check", "--output-format", "concise", *TREES)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted_by_ruff_format():
    done = run(tool("ruff"), "format", "--check", *TREES)
    assert done.returncode == 0, "run `make fmt`:\n" + done.stdout + done.stderr


def test_mypy_finds_no_error():
    done = run(tool("mypy"), "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert done.returncode == 0, done.stdout + done.stderr
