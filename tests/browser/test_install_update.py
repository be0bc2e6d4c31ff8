"""Install and update: the Install button appears only where the browser offers installation and opens
its dialog; a new version published while a game is open is offered, never forced, and the reload the
player chooses saves the game first and resumes it in the new version; the loading screen follows the
player's own Animations setting."""

from __future__ import annotations

import json
import sys

import pytest

from .conftest import READY, READY_TIMEOUT_MS, ROOT, Watch, copy_site, new_context, open_app
from .test_dominoes import start, take_turn, wait_for_human_or_end

sys.path.insert(0, str(ROOT / "tools"))

import build_site
from serve import serve_in_thread

CONTROLLED = "navigator.serviceWorker.controller !== null"
# What a browser that offers installation fires: a cancelable event with prompt() and userChoice.
OFFER = """() => {
  const event = new Event("beforeinstallprompt", { cancelable: true });
  event.prompt = () => { window.__prompted = (window.__prompted || 0) + 1; return Promise.resolve(); };
  event.userChoice = Promise.resolve({ outcome: "accepted", platform: "web" });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""
BUTTON = (
    "document.querySelector('.install-btn') || document.querySelector('#main').insertAdjacentHTML('beforeend',"
    ' \'<button type="button" class="btn install-btn" data-action="install" hidden>Install</button>\')'
)


@pytest.fixture
def own_site(site_dir, tmp_path):
    """A private copy of the site on its own server, which the test may publish a new version to."""
    site = copy_site(site_dir, tmp_path / "site")
    server, url = serve_in_thread(site)
    yield site, url
    server.shutdown()


def publish_new_version(site) -> str:
    """Change the page and write the service worker for it, as a new build would; return its version."""
    index = site / "index.html"
    index.write_text(
        index.read_text().replace("<title>", '<meta name="boneyard-test" content="v2">\n  <title>')
    )
    return build_site.write_service_worker(site)


def test_the_install_button_shows_only_when_the_browser_offers_and_opens_its_dialog(app_page, watch):
    page = app_page
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#main")
    page.evaluate(BUTTON)
    button = page.locator(".install-btn").first
    assert button.is_hidden()
    assert page.get_attribute("html", "data-installable") is None
    assert page.evaluate(OFFER) is True  # the browser's own mini-infobar is held back
    page.wait_for_selector("html[data-installable]", state="attached")
    button.wait_for(state="visible")
    # A redraw of the screen keeps the button shown.
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-name")
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#main")
    page.evaluate(BUTTON)
    page.locator(".install-btn").first.wait_for(state="visible")
    page.locator(".install-btn").first.click()
    page.wait_for_function("window.__prompted === 1")
    # The offer is spent: the button hides until the browser offers again.
    page.wait_for_function("document.documentElement.dataset.installable === undefined")
    assert page.locator(".install-btn").first.is_hidden()
    watch.assert_clean(page)


def test_a_new_version_is_offered_and_the_reload_keeps_the_game(browser, own_site):
    site, url = own_site
    watch = Watch()
    context = new_context(browser, watch, service_workers="allow")
    page = open_app(context, url, watch)
    page.wait_for_function(CONTROLLED, timeout=60_000)
    page.wait_for_function("caches.keys().then(k => k.length === 1)", timeout=60_000)
    old_cache = page.evaluate("caches.keys()")[0]
    start(page, url, "classic", seed=3, players=3)
    for _ in range(2):
        wait_for_human_or_end(page)
        take_turn(page)
    wait_for_human_or_end(page)
    line = page.locator(".dom-line").get_attribute("aria-label")
    hand = page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)")
    saved = json.loads(page.evaluate("localStorage.getItem('boneyard:save:dominoes')"))

    new_version = publish_new_version(site)
    # Asked as the app asks (every 30 minutes, and on coming back to the tab). On a loaded machine one
    # check can still be settling the worker's last one; the player's next check finds the version.
    found = []
    for _ in range(5):
        found.append(page.evaluate("window.boneyardBoot.checkForUpdate()"))
        if found[-1] is True:
            break
        page.wait_for_timeout(2000)
    assert found[-1] is True, found
    offer = page.locator(".toast-update")
    offer.wait_for(timeout=60_000)
    assert "your game is saved" in offer.inner_text()
    # Nothing is forced: the page plays on in its own version, served from its own cache.
    page.wait_for_timeout(1500)
    assert page.locator("meta[name=boneyard-test]").count() == 0
    assert page.locator(".dom-table").count() == 1
    assert page.evaluate("fetch('index.html').then(r => r.text())").find("boneyard-test") < 0
    assert old_cache in page.evaluate("caches.keys()")

    offer.locator("[data-action=update]").click()
    page.wait_for_function(
        "document.querySelector('meta[name=boneyard-test]') !== null"
        " && document.documentElement.dataset.ready === 'true'",
        timeout=READY_TIMEOUT_MS,
    )
    page.wait_for_selector(".dom-table")
    wait_for_human_or_end(page)
    assert page.evaluate("location.hash") == "#/play/dominoes"
    assert page.locator(".dom-line").get_attribute("aria-label") == line
    assert page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)") == hand
    resumed = json.loads(page.evaluate("localStorage.getItem('boneyard:save:dominoes')"))
    assert resumed["state"] == saved["state"]
    page.wait_for_function(
        f"caches.keys().then(k => k.length === 1 && k[0] === 'boneyard-{new_version}')", timeout=60_000
    )
    watch.assert_clean(page)
    context.close()


@pytest.mark.parametrize(
    ("setting", "reduced", "expected"),
    [
        ("on", "reduce", "on"),
        ("off", "no-preference", "off"),
        ("system", "reduce", "off"),
        (True, "reduce", "on"),
    ],
)
def test_the_loading_screen_follows_the_players_animations_setting(
    browser, base_url, setting, reduced, expected
):
    watch = Watch()
    context = new_context(browser, watch, reduced_motion=reduced)
    record = json.dumps({"schema": 1, "settings": {"animations": setting}})
    context.add_init_script(f"localStorage.setItem('boneyard:settings', {json.dumps(record)})")
    page = context.new_page()
    page.goto(base_url + "/", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-motion") == expected
    animation = page.eval_on_selector(".loading-logo", "e => getComputedStyle(e).animationName")
    assert animation == ("tilt" if expected == "on" else "none")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    context.close()
