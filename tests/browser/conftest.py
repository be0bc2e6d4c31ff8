"""Browser test fixtures: the built site served on 127.0.0.1, Debian's Chromium, and a guard that
fails a test when the page asks any other host for anything.

Pages are costly (~3 s before Python is ready), so modules share one page where they can (see
``app_page``). Every helper here checks the page for Python errors (``.py-error``) and ``pageerror``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from chromium import launch_options  # noqa: E402
from serve import serve_in_thread  # noqa: E402
READY = "html[data-ready='true']"
READY_TIMEOUT_MS = 120_000

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Mark every test in this folder as a browser test."""
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (or Playwright's own where it is missing) headless, offline-friendly."""
    return {**browser_type_launch_args, **launch_options()}


def build_site(out: Path) -> None:
    """Build the site into ``out`` with the project's own builder."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """Return the built site (``make test`` builds it first; built here when missing).

    ``BONEYARD_SITE=/some/dir`` builds and serves a site of its own there instead, so that two test runs
    in one work tree (or a run beside ``make serve``) never rebuild each other's files.
    """
    own = os.environ.get("BONEYARD_SITE")
    if own:
        site = Path(own)
        build_site(site)
        return site
    site = ROOT / "site"
    if not (site / "sw.js").exists():
        build_site(site)
    return site


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    """Serve the site on 127.0.0.1 at a free port for the whole run."""
    server, url = serve_in_thread(site_dir)
    yield url
    server.shutdown()


@dataclass
class Watch:
    """What a page did that a test must check: errors, console errors and foreign requests."""

    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)

    def assert_clean(self, page: Any) -> None:
        """Fail on any page error, Python error element, or request to another host."""
        assert not self.foreign, f"the page asked other hosts: {self.foreign}"
        assert not self.page_errors, f"page errors: {self.page_errors}"
        py_errors = page.locator(".py-error").all_inner_texts()
        assert not py_errors, f"Python errors shown: {py_errors}"


def guard(context: Any, watch: Watch) -> None:
    """Abort and record every request to a host other than 127.0.0.1."""

    def handle(route: Any) -> None:
        host = urlparse(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            watch.foreign.append(route.request.url)
            route.abort()

    context.route("**/*", handle)


def watch_page(page: Any, watch: Watch) -> None:
    """Record the page's errors into ``watch``."""
    page.on("pageerror", lambda exc: watch.page_errors.append(str(exc)))
    page.on("console", lambda msg: watch.console_errors.append(msg.text) if msg.type == "error" else None)


def new_context(browser: Any, watch: Watch, *, service_workers: str = "block", **kwargs: Any) -> Any:
    """Return a guarded context (reduced motion by default, so computers move at once)."""
    options = {"reduced_motion": "reduce", "viewport": {"width": 1100, "height": 850}, **kwargs}
    context = browser.new_context(service_workers=service_workers, **options)
    guard(context, watch)
    return context


def open_app(context: Any, url: str, watch: Watch, hash_: str = "") -> Any:
    """Open the app in a new page of ``context`` and wait until it is ready."""
    page = context.new_page()
    watch_page(page, watch)
    page.goto(url + "/" + hash_)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    return page


def reload_ready(page: Any) -> None:
    """Reload the page and wait until it is ready again."""
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)


@pytest.fixture(scope="module")
def watch() -> Watch:
    """Return the module's error and request record."""
    return Watch()


@pytest.fixture(scope="module")
def app_context(browser: Any, watch: Watch) -> Iterator[Any]:
    """Return one guarded context shared by the tests of a module."""
    context = new_context(browser, watch)
    yield context
    context.close()


@pytest.fixture(scope="module")
def app_page(app_context: Any, base_url: str, watch: Watch) -> Iterator[Any]:
    """Return one ready page shared by the tests of a module."""
    page = open_app(app_context, base_url, watch)
    yield page
    watch.assert_clean(page)


def local_storage(page: Any) -> dict[str, str]:
    """Return the page's localStorage as a dict."""
    return json.loads(page.evaluate("JSON.stringify(Object.assign({}, localStorage))"))


def copy_site(site_dir: Path, dest: Path) -> Path:
    """Copy the built site into ``dest`` (for tests that change or stop their own server)."""
    shutil.copytree(site_dir, dest)
    return dest
