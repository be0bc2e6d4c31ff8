"""Offline: the service worker precaches the site; with the server gone a reload and a new tab still
start the app; a rebuilt site is picked up as a whole, never mixed with the old one."""

from __future__ import annotations

import sys

import pytest

from .conftest import (
    READY,
    READY_TIMEOUT_MS,
    ROOT,
    Watch,
    copy_site,
    new_context,
    open_app,
    reload_ready,
    watch_page,
)

sys.path.insert(0, str(ROOT / "tools"))

import build_site
from serve import serve_in_thread

CONTROLLED = "navigator.serviceWorker.controller !== null"


def wait_controlled(page) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(CONTROLLED, timeout=60_000)


@pytest.fixture
def own_site(site_dir, tmp_path):
    """A private copy of the site on its own server, which the test may change or stop."""
    site = copy_site(site_dir, tmp_path / "site")
    server, url = serve_in_thread(site)
    yield site, server, url
    server.shutdown()


def test_reload_and_new_tab_start_with_the_server_stopped(browser, own_site):
    _site, server, url = own_site
    watch = Watch()
    context = new_context(browser, watch, service_workers="allow")
    page = open_app(context, url, watch)
    wait_controlled(page)
    server.shutdown()
    server.server_close()
    reload_ready(page)
    assert page.locator(".game-card").count() >= 1
    # The page came from the version's cache by the worker's static route, before (and without) the
    # worker itself: no worker start in its navigation timing (Chromium has static routing since 123).
    assert page.evaluate("performance.getEntriesByType('navigation')[0].workerStart") == 0
    assert page.evaluate(CONTROLLED)
    # The worker finds a file by its exact address (its cache's index) and, for an address with a query,
    # by its path alone: both answered from the cache with the server gone.
    answers = page.evaluate(
        """() => Promise.all(["css/app.css", "css/app.css?v=2", "py/main.py?seed=42"].map(
            (path) => fetch(path).then((r) => r.status, () => 0)))"""
    )
    assert answers == [200, 200, 200]
    second = context.new_page()
    watch_page(second, watch)
    second.goto(url + "/#/settings")
    second.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    second.wait_for_selector("#set-name")
    watch.assert_clean(page)
    watch.assert_clean(second)
    context.close()


def test_a_rebuilt_site_is_picked_up_whole_on_the_next_load(browser, own_site):
    site, _server, url = own_site
    watch = Watch()
    context = new_context(browser, watch, service_workers="allow")
    page = open_app(context, url, watch)
    wait_controlled(page)
    old_cache = page.evaluate("caches.keys()")
    assert len(old_cache) == 1 and old_cache[0].startswith("boneyard-")
    # Publish a new version: a changed page and stylesheet, and the service worker rewritten for them.
    index = site / "index.html"
    index.write_text(
        index.read_text().replace("<title>", '<meta name="boneyard-test" content="v2">\n  <title>')
    )
    css = site / "css" / "app.css"
    css.write_text(css.read_text() + "\n.v2-marker { color: red; }\n")
    new_version = build_site.write_service_worker(site)
    assert f"boneyard-{new_version}" != old_cache[0]
    page.reload()
    page.wait_for_function(
        "document.querySelector('meta[name=boneyard-test]') !== null && document.documentElement.dataset.ready === 'true'",
        timeout=READY_TIMEOUT_MS,
    )
    page.wait_for_function(
        f"caches.keys().then(k => k.length === 1 && k[0] === 'boneyard-{new_version}')", timeout=60_000
    )
    served_css = page.evaluate("fetch('css/app.css').then(r => r.text())")
    assert ".v2-marker" in served_css
    watch.assert_clean(page)
    context.close()
