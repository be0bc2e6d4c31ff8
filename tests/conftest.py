"""Shared test settings: the browser tests are left out when their packages are not installed.

``make test PYTEST_ARGS='-m "not browser"'`` installs only requirements-test.txt, so Playwright may be
missing; the browser folder is then not even collected (its conftest imports Playwright's plugin).
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("playwright") is None or importlib.util.find_spec("pytest_playwright") is None:
    collect_ignore_glob.append("browser/*")
