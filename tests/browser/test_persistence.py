"""Settings survive a reload; broken saves are reported and kept aside; a failed start is readable."""

from __future__ import annotations

import json

import pytest

from .conftest import READY, Watch, local_storage, new_context, open_app, reload_ready, watch_page


def test_settings_survive_a_reload(app_page):
    page = app_page
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-name")
    page.fill("#set-name", "Ana")
    page.locator("#set-name").dispatch_event("change")
    page.select_option("#set-theme", "light")
    page.locator("#set-suggestions").uncheck()
    page.select_option("#set-animations", "off")
    page.wait_for_function("document.documentElement.dataset.theme === 'light'")
    reload_ready(page)
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-name")
    assert page.input_value("#set-name") == "Ana"
    assert page.input_value("#set-theme") == "light"
    assert page.input_value("#set-animations") == "off"
    assert not page.locator("#set-suggestions").is_checked()
    assert page.get_attribute("html", "data-theme") == "light"
    assert page.get_attribute("html", "data-motion") == "off"
    page.evaluate("location.hash = '#/'")
    assert "Welcome, Ana." in page.locator("#main").inner_text()


def test_theme_applies_before_python_starts(app_context, base_url, watch):
    """boot.js reads the saved theme, so the loading screen has it too (no flash)."""
    page = app_context.new_page()
    watch_page(page, watch)
    page.goto(base_url + "/", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-theme") == "light"
    assert page.get_attribute("html", "data-ready") is None
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.close()


BAD = '{"schema": 2, "game": "dominoes", "saved_at": "2026-11-30T08:00:00Z", "state": {"game_st'


def test_a_corrupt_save_is_reported_and_moved_aside(browser, base_url):
    watch = Watch()
    context = new_context(browser, watch)
    context.add_init_script(
        f"if (!sessionStorage.getItem('planted')) {{ sessionStorage.setItem('planted', '1');"
        f" localStorage.setItem('boneyard:save:dominoes', {json.dumps(BAD)});"
        f" localStorage.setItem('boneyard:save:chess', '{{}}');"
        f" localStorage.setItem('boneyard:settings', '{{\"schema\": 99, \"settings\": {{}}}}'); }}"
    )
    page = open_app(context, base_url, watch)
    toasts = page.locator(".toast")
    toasts.first.wait_for()
    text = " ".join(toasts.all_inner_texts())
    assert "saved game could not be resumed" in text and "cut off" in text
    assert "unknown game" in text
    assert "settings could not be read" in text and "newer version" in text
    assert "kept aside (Settings › Your data)" in text and "boneyard:" not in text  # never a storage key
    stored = local_storage(page)
    assert "boneyard:save:dominoes" not in stored and "boneyard:save:chess" not in stored
    aside = {k: v for k, v in stored.items() if k.startswith("boneyard:broken:")}
    assert BAD in aside.values() and "{}" in aside.values()
    assert any(k.endswith(":save:dominoes") for k in aside)
    # The home screen offers no Resume for the broken game, and Settings lists what was kept aside.
    assert page.locator(".game-card[data-game='dominoes'] a", has_text="Resume").count() == 0
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector(".broken-list")
    assert page.locator(".broken-list li").count() == 3
    # A player can dismiss the reports; nothing crashed.
    while page.locator(".toast-close").count():
        page.locator(".toast-close").first.click()
    assert page.locator(".toast").count() == 0
    watch.assert_clean(page)
    context.close()


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
