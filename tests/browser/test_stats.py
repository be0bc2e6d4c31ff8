"""Stats in Chromium: a mode card's chart at its size, and an audit of Stats (with a leaderboard) and
Settings. (The cards' numbers, the leaderboard, Bonefall's bests and a reload are tested under CPython:
tests/app/test_stats.py.)"""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.app.test_rated_stats import rated_items
from tests.app.test_stats import stats_record, tally
from ui import daily

from .conftest import Watch, local_storage, new_context, open_app, reload_ready


@pytest.fixture(scope="module")
def stats_page(browser, base_url):
    watch = Watch()
    context = new_context(browser, watch)
    days = [["2026-11-28", 2, 1, 0], ["2026-11-29", 1, 0, 0], ["2026-11-30", 0, 1, 0]]
    record = stats_record(tally("Player", 3, 2, days))
    context.add_init_script(
        f"if (!localStorage.getItem('boneyard:stats')) localStorage.setItem('boneyard:stats', {json.dumps(record)});"
    )
    page = open_app(context, base_url, watch, "#/stats")
    page.wait_for_selector(".stat-card")
    yield page
    watch.assert_clean(page)
    context.close()


def test_a_mode_card_shows_win_rate_streaks_and_a_chart(stats_page):
    page = stats_page
    card = page.locator(".stat-card[data-mode='classic-2']")
    text = card.inner_text()
    assert "60%" in text and "5 played · 3 won · 2 lost" in text and "Best streak 2" in text
    chart = card.locator("svg.stats-chart")
    assert chart.get_attribute("aria-label").startswith("Results by day. 28 Nov: 2 won, 1 lost")
    assert chart.locator("rect").count() == 4
    box = chart.bounding_box()
    assert box and box["width"] > 150 and box["height"] > 30


@pytest.mark.parametrize("theme", ["felt", "light", "dark"])
def test_stats_and_settings_pass_the_accessibility_audit(stats_page, theme):
    page = stats_page
    stored = json.loads(local_storage(page)["boneyard:stats"])
    if len(stored["stats"]["tallies"]) == 1:  # a second name: the audit covers the leaderboard too
        stored["stats"]["tallies"].append(tally("Bo", 1, 0, [["2026-11-30", 1, 0, 0]]))
        page.evaluate("text => localStorage.setItem('boneyard:stats', text)", json.dumps(stored))
    # The Daily and rated sections too: a few Dailies played, and a chain of rated games with players met.
    records = {
        "heptalion": {"2026-12-02": {"uid": "a", "score": 20}, "2026-12-03": {"uid": "b", "score": 22}}
    }
    seeds = {**rated_items(), daily.DAILY_KEY: daily.save_records(records)}
    page.evaluate("items => { for (const k in items) localStorage.setItem(k, items[k]); }", seeds)
    page.evaluate(
        "theme => { const s = JSON.parse(localStorage.getItem('boneyard:settings') || "
        '\'{"schema": 1, "settings": {}}\'); s.settings.theme = theme;'
        " localStorage.setItem('boneyard:settings', JSON.stringify(s)); }",
        theme,
    )
    reload_ready(page)
    for hash_ in ("#/stats", "#/settings"):
        page.evaluate(f"location.hash = '{hash_}'")
        page.wait_for_selector(".stat-card" if hash_ == "#/stats" else "#set-name")
        page.wait_for_timeout(300)
        if hash_ == "#/stats":
            assert page.locator(".leaderboard").count() == 1
            assert page.locator("#daily-table").count() == 1
            assert page.locator('[data-rated="triangles"] svg').count() == 1
        results = Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, (
            theme,
            hash_,
            [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in serious],
        )


def test_the_overall_facts_fit_a_phone_and_a_tablet(stats_page):
    """ "Under a minute", the widest time played, wraps inside its card: nothing cut off, no sideways
    scroll (at 360 and 800 px it ran 13 and 52 px out of the page)."""
    page = stats_page
    stored = json.loads(local_storage(page)["boneyard:stats"])
    stored["stats"]["seconds"] = {"dominoes": 30.0}
    page.evaluate("text => localStorage.setItem('boneyard:stats', text)", json.dumps(stored))
    page.evaluate("location.hash = '#/stats'")  # the audit left the page on Settings
    reload_ready(page)
    page.wait_for_selector("#overall-time")
    assert page.locator("#overall-time dd").inner_text() == "under a minute"
    for width, height in ((360, 740), (800, 1280)):
        page.set_viewport_size({"width": width, "height": height})
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.overall-fact')]
                 .filter(card => card.scrollWidth > card.clientWidth + 1
                                 || card.getBoundingClientRect().right > innerWidth)
                 .map(card => card.id)"""
        )
        assert cut == [] and page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), width
