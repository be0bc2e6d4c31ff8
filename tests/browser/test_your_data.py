"""Settings › Your data in Chromium: a backup downloaded in one profile and chosen in the file input of a
fresh one restores every save, setting and stat exactly; the name field keeps what is typed and Tab moves
on. (Refused files and the storage's figures are tested under CPython: tests/app/test_your_data.py.)"""

from __future__ import annotations

import json

from tests.app.test_your_data import ASIDE_KEY, STATS

from .conftest import Watch, local_storage, new_context, open_app, reload_ready


def open_settings(page):
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-name")


def fill_profile(page):
    """Start a Dominoes game, change settings, and store stats and a record kept aside."""
    page.evaluate("location.hash = '#/setup/dominoes'")
    page.locator("[data-action='start-game']").first.click()
    page.wait_for_selector("#table-board")
    open_settings(page)
    page.fill("#set-name", "Ana")
    page.press("#set-name", "Tab")
    page.select_option("#set-theme", "dark")
    page.locator("#set-sound").uncheck()
    page.select_option("#set-speed", "fast")
    page.evaluate(
        "([stats, key]) => { localStorage.setItem('boneyard:stats', stats);"
        ' localStorage.setItem(key, \'{"schema": 2, "ga\'); }',
        [json.dumps(STATS), ASIDE_KEY],
    )
    reload_ready(page)


def export(page, tmp_path):
    open_settings(page)
    with page.expect_download() as info:
        page.click("#export-data")
    download = info.value
    assert download.suggested_filename.startswith("boneyard-backup-")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    return path


def test_export_then_import_on_a_fresh_profile_restores_everything(browser, base_url, tmp_path):
    watch = Watch()
    first = new_context(browser, watch, accept_downloads=True)
    page = open_app(first, base_url, watch)
    fill_profile(page)
    stored = local_storage(page)
    assert {"boneyard:save:dominoes", "boneyard:settings", "boneyard:stats", ASIDE_KEY} <= set(stored)
    path = export(page, tmp_path)
    watch.assert_clean(page)
    first.close()

    fresh = new_context(browser, watch)
    page = open_app(fresh, base_url, watch)
    open_settings(page)
    page.set_input_files("#import-file", str(path))
    preview = page.locator("#import-preview")
    preview.wait_for()
    words = preview.inner_text()
    assert "A saved game of Dominoes" in words and "“Ana”" in words and "4 games counted" in words
    assert "1 record kept aside" in words
    page.click("#import-confirm")
    page.locator("#import-done").wait_for()
    assert local_storage(page) == stored
    assert page.get_attribute("html", "data-theme") == "dark"
    reload_ready(page)
    assert local_storage(page) == stored
    page.evaluate("location.hash = '#/'")
    page.locator("a[href='#/play/dominoes']").wait_for()
    open_settings(page)
    assert page.input_value("#set-name") == "Ana"
    assert page.input_value("#set-speed") == "fast"
    assert not page.locator("#set-sound").is_checked()
    aside = page.locator(".broken-list").inner_text()
    assert "Your saved game of Triangles from 29\u00a0Nov\u00a02026, 10:00 (UTC), kept aside" in aside
    assert ASIDE_KEY not in aside
    watch.assert_clean(page)
    fresh.close()


def test_typing_a_name_never_redraws_and_tab_moves_on(app_page):
    page = app_page
    open_settings(page)
    page.click("#set-name")
    page.keyboard.press("Control+A")
    page.keyboard.type("Carmen Ruiz")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "set-suggestions"
    assert page.input_value("#set-name") == "Carmen Ruiz"
    assert json.loads(local_storage(page)["boneyard:settings"])["settings"]["name"] == "Carmen Ruiz"
