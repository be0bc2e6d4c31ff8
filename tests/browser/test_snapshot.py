"""Fast boot from the Pyodide memory snapshot: the page restores it and reaches ready with no error; a
missing, damaged or stale snapshot falls back to a normal boot that still reaches ready and tells the
player nothing; every load deals differently (Python's `random` is reseeded after the restore); the
offline reload restores the snapshot from the service worker's cache, which keeps it inflated.

``window.boneyardSnapshot`` (written by js/pyodide-snapshot.mjs) says whether the snapshot was used.
"""

from __future__ import annotations

import gzip
import json
import zipfile

import pytest
from serve import serve_in_thread

from .conftest import Watch, copy_site, new_context, open_app, reload_ready

STATUS = "JSON.stringify(window.boneyardSnapshot)"
PY_RANDOM = (
    "window.boneyardSnapshot.interpreter.runPython('import random; random.getrandbits(64)').toString()"
)


def snapshot_status(page) -> dict:
    return json.loads(page.evaluate(STATUS))


def assert_no_alarm(page) -> None:
    """The player sees the app, not the loading screen's error box."""
    assert page.evaluate("document.documentElement.dataset.bootError") is None
    assert page.locator("#loading-error").is_hidden()
    assert page.locator(".game-card").count() >= 1


@pytest.fixture(scope="module")
def snapshot_page(app_page):
    return app_page


def test_the_page_boots_from_the_snapshot(snapshot_page, watch):
    status = snapshot_status(snapshot_page)
    assert status["used"] is True, status
    assert_no_alarm(snapshot_page)
    # The engine and the controller (ui.app) came from the snapshot, the page's port from the served files; the
    # snapshot holds nothing the page does not import by its first render.
    modules = set(
        json.loads(
            snapshot_page.evaluate(
                "window.boneyardSnapshot.interpreter.runPython('import sys, json; json.dumps(sorted(sys.modules))')"
            )
        )
    )
    manifest = json.loads(snapshot_page.evaluate("fetch('snapshot/manifest.json').then(r => r.text())"))
    assert {"boneyard.games", "ui.app", "ui.shell"} <= modules
    assert "ui.browser.dom" not in manifest["modules"] and {"ui.app", "ui.shell"} <= set(manifest["modules"])
    assert not set(manifest["modules"]) - modules
    # The start asked no Python for what the page did in JS (zipfile) or did not need (importlib.metadata).
    assert "importlib.metadata" not in modules
    watch.assert_clean(snapshot_page)


def test_two_loads_deal_differently(browser, base_url, snapshot_page):
    watch = Watch()
    context = new_context(browser, watch)
    other = open_app(context, base_url, watch)
    assert snapshot_status(other)["used"] is True
    # Python's own generator (frozen in the snapshot) is reseeded on every load ...
    assert snapshot_page.evaluate(PY_RANDOM) != other.evaluate(PY_RANDOM)
    # ... and so are the games the player is dealt.
    hands = []
    for page in (snapshot_page, other):
        page.goto(base_url + "/#/setup/dominoes")
        page.wait_for_selector("#start-game")
        page.click("#start-game")
        page.wait_for_selector(".dom-hand-tile")
        hands.append(page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)"))
    assert hands[0] != hands[1]
    watch.assert_clean(other)
    context.close()


def damage(site):
    """Flip bytes in the middle of the snapshot file."""
    manifest = json.loads((site / "snapshot" / "manifest.json").read_text())
    path = site / "snapshot" / manifest["file"]
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(b ^ 0x5A for b in data[middle : middle + 64])
    path.write_bytes(bytes(data))


def truncate(site):
    manifest = json.loads((site / "snapshot" / "manifest.json").read_text())
    path = site / "snapshot" / manifest["file"]
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 3])


def remove(site):
    for path in (site / "snapshot").iterdir():
        path.unlink()


def change_bundle(bundle, member):
    """Append a comment to one module of a bundle (rewritten deflated: the page reads both kinds)."""
    with zipfile.ZipFile(bundle) as old:
        members = {name: old.read(name) for name in old.namelist()}
    members[member] += b"\n# changed after the snapshot was made\n"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as new:
        for name, data in members.items():
            new.writestr(name, data)


def stale_engine(site):
    """A served engine module that is not the one the snapshot imported."""
    change_bundle(site / "py" / "engine.zip", "boneyard/tiles.py")


def stale_ui(site):
    """A served module of the browser layer's warm half that is not the one the snapshot imported."""
    change_bundle(site / "py" / "ui.zip", "ui/html.py")


def foreign_heap(site):
    """A well-formed snapshot file whose heap is not a Pyodide heap: the restore itself must fail."""
    manifest = json.loads((site / "snapshot" / "manifest.json").read_text())
    path = site / "snapshot" / manifest["file"]
    size = sum(length for _, length in manifest["runs"])
    path.write_bytes(gzip.compress(bytes(size), mtime=0))


def foreign_wasm_pages(site):
    """The pages the restore copies from the WebAssembly's memory are not those the snapshot was made
    with (here: each run a page further on): checked before the restore, they must be refused."""
    path = site / "snapshot" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["wasm_runs"] = [[offset + 4096, length] for offset, length in manifest["wasm_runs"]]
    path.write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    "spoil", [damage, truncate, remove, stale_engine, stale_ui, foreign_heap, foreign_wasm_pages]
)
def test_a_bad_snapshot_falls_back_to_a_normal_boot(browser, site_dir, tmp_path, spoil):
    site = copy_site(site_dir, tmp_path / "site")
    spoil(site)
    server, url = serve_in_thread(site)
    watch = Watch()
    context = new_context(browser, watch)
    try:
        page = open_app(context, url, watch)
        status = snapshot_status(page)
        assert status["used"] is False and status["reason"], status
        assert_no_alarm(page)
        watch.assert_clean(page)
    finally:
        context.close()
        server.shutdown()


def test_offline_reload_restores_the_snapshot(browser, site_dir, tmp_path):
    site = copy_site(site_dir, tmp_path / "site")
    server, url = serve_in_thread(site)
    watch = Watch()
    context = new_context(browser, watch, service_workers="allow")
    try:
        page = open_app(context, url, watch)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        cached = page.evaluate(
            "caches.keys().then(k => caches.open(k[0])).then(c => c.keys())"
            ".then(r => r.map(x => x.url).filter(u => u.includes('/snapshot/')))"
        )
        assert len(cached) == 2, cached  # the manifest and the snapshot file
        server.shutdown()
        server.server_close()
        reload_ready(page)
        status = snapshot_status(page)
        # The worker keeps the snapshot inflated (js/sw.template.js): the reload only copied it, read
        # straight from the cache by boot.js (a worker of the page), never asked of the service worker.
        assert status["used"] is True and status["inflated"] is True, status
        asked = page.evaluate(
            "performance.getEntriesByType('resource').map(r => r.name).filter(n => n.includes('/snapshot/'))"
        )
        assert asked == [], asked
        # The same helper compiled the WebAssembly, offline: its fetch went through the service worker
        # (Chromium reads the compiled code from its cache there, and only while the helper lives).
        assert page.evaluate("window.boneyardWasm.compiledBy") == "helper"
        assert page.evaluate("performance.getEntriesByName('boneyard:wasm-compiled').length") == 1
        assert_no_alarm(page)
        watch.assert_clean(page)
    finally:
        context.close()


def test_the_webassembly_is_fetched_once_and_compiled_while_the_page_parses(browser, base_url):
    watch = Watch()
    context = new_context(browser, watch)
    try:
        page = context.new_page()
        wasm = []
        page.on("request", lambda request: request.url.endswith("/pyodide.asm.wasm") and wasm.append(request))
        page.goto(base_url + "/")
        page.wait_for_selector("html[data-ready=true]", state="attached", timeout=120_000)
        # boot.js started the compile; the loader handed that module to Pyodide (no second download).
        assert len(wasm) == 1, [r.url for r in wasm]
        assert page.evaluate("window.boneyardWasm.compiledBy") == "page"  # a first visit: no helper
        assert page.evaluate("performance.getEntriesByName('boneyard:wasm-compiled').length") == 1
        assert snapshot_status(page)["used"] is True
        assert_no_alarm(page)
    finally:
        context.close()


def test_a_host_that_sends_the_webassembly_untyped_still_boots(browser, base_url):
    """A host that does not send ``application/wasm``: streaming refuses it, the whole file compiles."""
    watch = Watch()
    context = new_context(browser, watch)

    def untyped(route):
        response = route.fetch()
        route.fulfill(status=200, body=response.body(), headers={"Content-Type": "application/octet-stream"})

    context.route("**/pyodide.asm.wasm", untyped)
    try:
        page = open_app(context, base_url, watch)
        # The streamed compile refused the file (no mark), the loader compiled it whole instead.
        assert page.evaluate("performance.getEntriesByName('boneyard:wasm-compiled').length") == 0
        assert snapshot_status(page)["used"] is True
        assert_no_alarm(page)
    finally:
        context.close()
