"""Shared test settings: the browser tests are left out when their packages are not installed, and the run's
summary lists the browser pages that crashed (tests/browser/conftest.py tries each again).

``make test PYTEST_ARGS='-m "not browser"'`` installs only requirements-test.txt, so Playwright may be
missing; the browser folder is then not even collected (its conftest imports Playwright's plugin).

The summary is written here, not in the browser folder's conftest: under pytest-xdist the controller that
writes it never collects that folder, so each worker hands over its crashes when it finishes.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import pytest

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("playwright") is None or importlib.util.find_spec("pytest_playwright") is None:
    collect_ignore_glob.append("browser/*")

WORKER_CRASHES: list[str] = []  # the crashes that pytest-xdist's workers reported


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """Keep the crashes a finished pytest-xdist worker saw (its ``boneyard_crashes`` output)."""
    WORKER_CRASHES.extend(getattr(node, "workeroutput", {}).get("boneyard_crashes", []))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """List the crashed pages the run saw (each was tried again)."""
    browser = sys.modules.get("tests.browser.conftest")
    crashes = WORKER_CRASHES + list(getattr(browser, "CRASH_LOG", []))
    if crashes:
        terminalreporter.write_sep("-", f"{len(crashes)} browser page crash(es), each tried again")
        for where in crashes:
            terminalreporter.write_line(where)
