"""The page itself: loading screen, ready marker, offline-only requests, every module reachable, phone
layout, keyboard focus and an accessibility audit. (The home's game list and every screen rendering are
tested under CPython: tests/app/test_flows_shell.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from boneyard import links
from boneyard.games import GAMES

from .conftest import READY, READY_TIMEOUT_MS, ROOT, Watch, new_context, watch_page

SCREENS = (
    ["#/", "#/settings", "#/stats"]
    + [f"#/rules/{gid}" for gid in GAMES]
    + [f"#/setup/{gid}" for gid in GAMES]
)


def test_loading_screen_paints_before_python_then_gives_way(browser, base_url):
    """The loading screen shows the name and a progress bar before Python runs, then the home screen."""
    watch = Watch()
    context = new_context(browser, watch)
    page = context.new_page()
    watch_page(page, watch)
    # Hold the UI bundle until the loading screen has been looked at: the start is fast enough now that
    # Python could be ready between two of the checks below.
    held: list = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/py/ui.zip", hold)
    page.goto(base_url + "/", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-ready") is None
    loading = page.locator("#loading")
    assert loading.is_visible()
    assert "Boneyard" in loading.inner_text()
    assert page.locator("#loading [role=progressbar]").is_visible()
    assert page.locator("#app").is_hidden()
    page.wait_for_timeout(300)
    assert page.get_attribute("html", "data-ready") is None, "ready without the UI bundle"
    for route in held:
        route.continue_()
    page.unroute("**/py/ui.zip")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    assert loading.is_hidden()
    assert page.locator("#app").is_visible()
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint').map(e => e.startTime)")
    assert fcp, "the loading screen painted nothing"
    watch.assert_clean(page)
    context.close()


def test_every_module_under_py_is_reachable_and_imports_in_the_page(app_page):
    result = json.loads(app_page.evaluate("boneyardCheckModules()"))
    on_disk = sorted(
        p.relative_to(ROOT / "py").as_posix()
        for p in (ROOT / "py").rglob("*.py")
        if "__pycache__" not in p.parts and p.name != "main.py"
    )
    assert result["modules"] == on_disk
    assert result["failed"] == {}


def test_phone_portrait_has_no_horizontal_scrolling(app_page):
    app_page.set_viewport_size({"width": 360, "height": 740})
    try:
        for hash_ in SCREENS:
            app_page.evaluate(f"location.hash = {hash_!r}")
            app_page.wait_for_timeout(150)
            over = app_page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert over <= 0, f"{hash_} scrolls sideways by {over}px at 360px"
    finally:
        app_page.set_viewport_size({"width": 1100, "height": 850})


def test_keyboard_reaches_the_games_with_a_visible_focus(app_page):
    app_page.evaluate("location.hash = '#/'")
    app_page.wait_for_timeout(150)
    app_page.locator("body").focus()
    seen = []
    for _ in range(12):
        app_page.keyboard.press("Tab")
        seen.append(
            app_page.evaluate(
                "(() => { const e = document.activeElement; const s = getComputedStyle(e);"
                " return e === document.body ? ['', true] : [e.textContent.trim(), s.outlineStyle !== 'none' && s.outlineWidth !== '0px']; })()"
            )
        )
    names = [name for name, _ in seen]
    assert any("How to play" in n for n in names), names
    assert all(visible for name, visible in seen if name), seen


CHALLENGE = links.encode_challenge(
    links.Challenge(links.Table("dominoes", "classic-2", {"players": 2}, ("human", "medium")), 5, 40, "Ann")
)
AUDITED = ["#/", "#/settings", "#/stats", "#/rules/dominoes", "#/setup/dominoes"]
# The new screens: the Daily's table, Quick match's modes and its Looking screen, a challenge link.
AUDITED += ["#/daily/dominoes", "#/quick", "#/quick/dominoes", f"#/link/{CHALLENGE}"]


@pytest.mark.parametrize("hash_", AUDITED)
def test_accessibility_audit_finds_nothing_serious(app_page, hash_):
    app_page.evaluate(f"location.hash = {hash_!r}")
    app_page.wait_for_timeout(800 if hash_.count("/") > 2 or "link" in hash_ else 200)
    results = Axe().run(app_page)
    serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not serious, json.dumps(
        [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious], indent=1
    )


def test_the_web_app_manifest_makes_it_installable(app_page, base_url):
    manifest = app_page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["name"].startswith("Boneyard") and manifest["short_name"] == "Boneyard"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        status = app_page.evaluate(f"fetch({icon['src']!r}).then(r => r.status)")
        assert status == 200, icon


@pytest.mark.parametrize("game_id", list(GAMES))
def test_accessibility_audit_of_every_table(app_page, game_id):
    app_page.set_viewport_size({"width": 1100, "height": 850})
    app_page.evaluate(f"location.hash = '#/setup/{game_id}'")
    app_page.wait_for_selector("#start-game")
    app_page.click("#start-game")
    app_page.wait_for_selector("#screen-title")
    app_page.wait_for_timeout(800)
    results = Axe().run(app_page)
    serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not serious, json.dumps(
        [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious], indent=1
    )
    app_page.evaluate("location.hash = '#/'")


def test_the_fixture_sees_console_errors_and_error_toasts(app_page, watch):
    """A handler's error reaches the test: console errors and error toasts are recorded (and fail the test
    unless declared, as here)."""
    watch.expect_error("deliberate")
    app_page.evaluate(
        "console.error('Boneyard: deliberate failure');"
        " const t = document.createElement('div'); t.className = 'toast toast-error';"
        " t.innerHTML = '<p>deliberate toast</p>'; document.getElementById('toasts').appendChild(t); t.remove();"
    )
    watch.flush()
    assert any("deliberate failure" in text for text in watch.console_errors)
    assert "deliberate toast" in watch.error_toasts
    assert not watch.unexpected(watch.since)


def test_typing_a_name_in_setup_then_tab_keeps_it_and_moves_on(app_page):
    """A typed seat name survives the change event, and Tab lands on the next name (no redraw)."""
    page = app_page
    page.evaluate("location.hash = '#/setup/dominoes'")
    page.locator('input[data-field="opponents"][value="device"]').check()
    first = page.locator("#setup-name-0")
    first.wait_for()
    first.fill("Ada Lovelace")
    first.press("Tab")
    assert page.evaluate("document.activeElement.id") == "setup-name-1"
    page.keyboard.type("Ben")
    page.keyboard.press("Tab")
    assert page.locator("#setup-name-0").input_value() == "Ada Lovelace"
    assert page.locator("#setup-name-1").input_value() == "Ben"
    page.evaluate("location.hash = '#/'")
