"""The saved theme applies before Python starts, and a failed start is readable. (Settings across a
reload and broken saves kept aside are tested under CPython: tests/app/test_saves_and_tabs.py.)"""

from __future__ import annotations

import pytest

from .conftest import READY, Watch, new_context, watch_page

LIGHT = 'localStorage.setItem(\'boneyard:settings\', \'{"schema": 1, "settings": {"theme": "light"}}\')'


def test_theme_applies_before_python_starts(app_page, app_context, base_url, watch):
    """boot.js reads the saved theme, so the loading screen has it too (no flash)."""
    app_page.evaluate(LIGHT)
    page = app_context.new_page()
    watch_page(page, watch)
    page.goto(base_url + "/", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-theme") == "light"
    assert page.get_attribute("html", "data-ready") is None
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.close()


@pytest.mark.expect_error("the table legs are missing")
def test_a_python_failure_at_start_is_shown_readably(browser, base_url):
    watch = Watch()
    context = new_context(browser, watch)
    context.route(
        "**/py/main.py",
        lambda route: route.fulfill(
            status=200,
            content_type="text/x-python",
            body="raise RuntimeError('the table legs are missing')\n",
        ),
    )
    page = context.new_page()
    watch_page(page, watch)
    page.goto(base_url + "/")
    page.wait_for_selector("#loading-error:not([hidden])", timeout=120_000)
    message = page.locator("#loading-error").inner_text()
    assert "could not start" in message and "table legs are missing" in message
    assert page.locator("#loading-error button", has_text="Try again").is_visible()
    assert page.get_attribute("html", "data-ready") is None
    assert not watch.foreign
    context.close()
