"""Two tabs of the app at once: every save stays whole (the last writer wins), and a tab that sees the
other tab's save follows it instead of overwriting it with an older position."""

from __future__ import annotations

from boneyard import saves
from ui.session import Session

from .conftest import READY, READY_TIMEOUT_MS, local_storage, watch_page


def test_two_tabs_never_tear_a_save(app_context, base_url, watch):
    first = app_context.new_page()
    watch_page(first, watch)
    first.goto(f"{base_url}/?seed=8#/setup/dominoes")
    first.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    first.select_option("#setup-mode", "classic")
    first.click("#start-game")
    first.wait_for_selector(".dom-table.is-my-turn")
    second = app_context.new_page()
    watch_page(second, watch)
    second.goto(f"{base_url}/#/play/dominoes")
    second.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    second.wait_for_selector(".dom-table")
    for turn in range(6):
        page = first if turn % 2 == 0 else second
        page.wait_for_function(
            "document.querySelector('.overlay') !== null || document.querySelector('.dom-table.is-my-turn') !== null",
            timeout=60_000,
        )
        if page.locator("#kit-results, .overlay").count():
            break
        tiles = page.locator(".dom-hand-tile.is-playable")
        if tiles.count():
            tiles.first.click()
            if page.locator("button.dom-end.is-target").count():
                page.click("#end-L")
        elif page.locator("#draw:not([disabled])").count():
            page.click("#draw")
        else:
            page.click("#pass")
        page.wait_for_timeout(300)
        text = local_storage(page).get("boneyard:save:dominoes")
        if text is not None:  # a finished game's save is gone; any save there is whole and loadable
            loaded = saves.load_save(text, expected_game="dominoes", validate=Session.from_json)
            assert loaded.game == "dominoes"
    # Both tabs show the position that was saved last.
    first.wait_for_timeout(500)
    if "boneyard:save:dominoes" in local_storage(first):
        assert first.locator(".dom-line").get_attribute("aria-label") == second.locator(
            ".dom-line"
        ).get_attribute("aria-label")
    watch.assert_clean(first)
    watch.assert_clean(second)
    first.close()
    second.close()
