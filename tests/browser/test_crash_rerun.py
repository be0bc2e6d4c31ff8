"""The suite's answer to a crashed page: the test runs again with its shared page made anew.

A renderer that dies (Chromium's "Target crashed") says nothing about the app, and one crash must not fail
a run of hundreds of tests. This test crashes its module's shared page on purpose (``chrome://crash``) on
its first run and checks, on its rerun, that it got a new page, ready, from the same fixtures.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import conftest

pytestmark = pytest.mark.skipif(
    not conftest.has_reruns(), reason="pytest-rerunfailures (a browser test package) is not installed"
)

PAGES: list[Any] = []  # the shared page of each run of the test


def test_a_crashed_shared_page_is_made_anew_and_the_test_runs_again(app_page: Any) -> None:
    PAGES.append(app_page)
    if len(PAGES) == 1:
        try:
            app_page.goto("chrome://crash")
        except Exception:
            pass
        app_page.evaluate("1")  # Target crashed: the test fails and runs again
        pytest.fail("the page did not crash")
    assert PAGES[-1] is not PAGES[0]
    assert app_page.evaluate("document.documentElement.dataset.ready") == "true"
    assert any("test_a_crashed_shared_page" in where for where in conftest.CRASH_LOG)
    # This crash was made on purpose: the run's summary lists only the ones nobody asked for.
    conftest.CRASH_LOG[:] = [w for w in conftest.CRASH_LOG if "test_a_crashed_shared_page" not in w]
