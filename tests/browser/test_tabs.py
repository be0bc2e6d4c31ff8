"""Several tabs on one game: a slow tab never plays its computer's move on an old position nor saves a
shorter history over a longer one, and every tab's results add up in the stats."""

from __future__ import annotations

import json
from itertools import pairwise

from .conftest import READY, READY_TIMEOUT_MS, local_storage, watch_page
from .test_dominoes import play_to_the_end, start, take_turn, wait_for_human_or_end

# Samples the stored history length of the Dominoes save every 20 ms (null: no save), in the page.
SAMPLE = """
window.__lengths = [];
setInterval(() => {
  const text = localStorage.getItem('boneyard:save:dominoes');
  window.__lengths.push(text === null ? null : JSON.parse(text).state.game_state.history.length);
}, 20);
"""


def open_table(context, url, watch, hash_="#/play/dominoes"):
    page = context.new_page()
    watch_page(page, watch)
    page.goto(url + "/" + hash_)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    return page


def line(page) -> str | None:
    return page.locator(".dom-line").get_attribute("aria-label")


def test_a_slow_tab_never_plays_on_an_old_position(app_context, base_url, watch):
    first = app_context.new_page()
    watch_page(first, watch)
    start(first, base_url, "classic", seed=8)
    second = open_table(app_context, base_url, watch)
    second.wait_for_selector(".dom-table")
    cdp = app_context.new_cdp_session(second)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 30})  # a background tab, a slow phone
    first.evaluate(SAMPLE)
    shown = []
    try:
        for _ in range(8):
            wait_for_human_or_end(first)
            if first.locator("#kit-results, .overlay").count():
                break
            take_turn(first)
            first.wait_for_timeout(400)
            shown.append(first.locator(".dom-hand-tile").count())
        first.wait_for_timeout(2500)  # the slow tab catches up (and, before the fix, plays on)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    first.wait_for_timeout(1500)
    lengths = [n for n in first.evaluate("window.__lengths") if n is not None]
    assert lengths, "nothing was saved"
    drops = [(a, b) for a, b in pairwise(lengths) if b < a]
    assert not drops, f"the save lost moves: {drops[:5]} in {lengths[::10]}"
    stored = local_storage(first).get("boneyard:save:dominoes")
    if stored is not None:  # both tabs show the stored position
        history = json.loads(stored)["state"]["game_state"]["history"]
        assert len(history) == lengths[-1]
        second.wait_for_function(
            "(want) => document.querySelector('.dom-line') &&"
            " document.querySelector('.dom-line').getAttribute('aria-label') === want",
            arg=line(first),
            timeout=30_000,
        )
    watch.assert_clean(first)
    watch.assert_clean(second)
    cdp.detach()
    first.close()
    second.close()


def played(page) -> int:
    text = local_storage(page).get("boneyard:stats")
    if text is None:
        return 0
    tallies = json.loads(text)["stats"]["tallies"]
    return sum(t["wins"] + t["losses"] + t["draws"] for t in tallies)


def finish_a_game(page):
    """Deal and play a Classic round against the computer in this page (no reload: its stats stay in memory)."""
    page.evaluate("location.hash = '#/setup/dominoes'")
    page.wait_for_selector("#setup-mode")
    page.check("input[name=opponents][value=computer]")
    page.select_option("#setup-mode", "classic")
    page.click("#start-game")
    page.wait_for_selector(".dom-table")
    play_to_the_end(page)
    page.wait_for_selector("#over-title")
    page.evaluate("location.hash = '#/stats'")  # one table open at a time: the other tab looks at its stats
    page.wait_for_selector("#screen-title")


def test_results_from_two_tabs_add_up_and_a_cleared_storage_stays_cleared(browser, base_url):
    from .conftest import Watch, new_context

    watch = Watch()
    context = new_context(browser, watch)
    first = open_table(context, base_url, watch, "?seed=1#/stats")
    second = open_table(context, base_url, watch, "?seed=2#/stats")  # both tabs read the (empty) stats now
    finish_a_game(first)
    finish_a_game(second)
    finish_a_game(first)
    assert played(first) == 3, "a tab's results erased the other's"
    second.evaluate("location.hash = '#/stats'")
    second.wait_for_selector(".stat-card")  # the Stats screen shows a card per mode
    assert "Classic, 2 players" in second.locator("#main").inner_text()
    first.evaluate("localStorage.clear()")  # the player clears the site's data in the first tab
    finish_a_game(second)
    assert played(second) == 1, "the second tab wrote back the stats that were cleared"
    first.evaluate("location.hash = '#/stats'")
    first.wait_for_selector("#screen-title")
    watch.assert_clean(first)
    watch.assert_clean(second)
    context.close()
