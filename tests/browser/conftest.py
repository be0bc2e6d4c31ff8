"""Browser test fixtures: the built site served on 127.0.0.1, Debian's Chromium, and a guard that
fails a test when the page asks any other host for anything.

Pages are costly (~3 s before Python is ready), so modules share one page where they can (see
``app_page``). Every helper here checks the page for Python errors (``.py-error``) and ``pageerror``.

A page whose renderer crashes (Chromium's "Target crashed": one CI run lost 50 tests to it; no other run
has shown it, or traced it to a page or a test) is not a verdict on the app: the boot is tried again in a
new page, a test that hit one runs again (``pytest-rerunfailures``, twice at most, for that error only)
with any module page or context that crashed made anew, and the run's summary lists every crash it saw.

Every test also fails on any console error and on any error toast that it did not declare: the app's
handlers turn an exception into ``console.error`` and an error toast (``App.guard``), so a broken
handler would otherwise pass green. A test that provokes one on purpose declares it with
``watch.expect_error("words of the message")`` or ``@pytest.mark.expect_error("words")``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from chromium import launch_options  # noqa: E402
from serve import serve_in_thread  # noqa: E402

READY = "html[data-ready='true']"
READY_TIMEOUT_MS = 120_000

TOAST_MARK = "[boneyard-test] toast "
# Seen by the page before our code runs: every toast the app shows is echoed to the console, so a test
# sees an error toast even when the page replaces or closes it before the test looks.
TOAST_ECHO = """
(() => {
  const echo = (node) => {
    if (node.nodeType !== 1 || !node.classList.contains('toast')) return;
    const kind = [...node.classList].find((c) => c.startsWith('toast-')) || 'toast-info';
    const text = (node.querySelector('p') || node).textContent;
    console.debug('%TOAST%' + kind.slice(6) + ': ' + text);
  };
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(echo);
  }).observe(document, {childList: true, subtree: true});
})();
""".replace("%TOAST%", TOAST_MARK)
# Console errors the browser itself writes about requests a test blocks or a server it stops on purpose;
# every request to another host is caught by the route guard, and a missing file of ours fails elsewhere.
BROWSER_NOISE = ("Failed to load resource",)
# Playwright's words for a page whose renderer died; a test that fails with one of them runs again.
CRASH_WORDS = ("Target crashed", "Page crashed")
CRASH_RERUNS = 2
BOOT_TRIES = 3  # a boot whose page crashed is tried again in a new page, this many times in all
CRASHED: list[Any] = []  # every page whose renderer died in this run
CRASH_LOG: list[str] = []  # where each crash was seen, for the run's summary

pytestmark = pytest.mark.browser

# Playwright's driver copies Chromium's stderr to its own under this setting: a test that fails on a
# crashed page then shows what the browser said (and the run's summary quotes it).
os.environ.setdefault("DEBUG", "pw:browser")


def pytest_configure(config: Any) -> None:
    """Register the ``expect_error`` and ``flaky`` markers."""
    config.addinivalue_line(
        "markers",
        "expect_error(*fragments): the test provokes a console error or error toast containing each text",
    )
    # pytest-rerunfailures' marker (installed with the browser packages); inert without it.
    config.addinivalue_line("markers", "flaky(reruns, only_rerun): run a failed test again")


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Mark every test in this folder as a browser test, run again if a page of its crashed."""
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.flaky(reruns=CRASH_RERUNS, only_rerun=list(CRASH_WORDS)))


def has_reruns() -> bool:
    """Return whether pytest-rerunfailures is installed (the browser packages bring it)."""
    try:
        import pytest_rerunfailures  # noqa: F401
    except ImportError:
        return False
    return True


def is_crash(error: BaseException | str) -> bool:
    """Return whether an error (or a report's text) says a page's renderer died."""
    return any(word in str(error) for word in CRASH_WORDS)


def track_crashes(page: Any) -> None:
    """Record the page in ``CRASHED`` if its renderer dies."""
    page.on("crash", lambda crashed: CRASHED.append(crashed))


def holds_a_crashed_page(value: Any) -> bool:
    """Return whether a fixture's value is, or holds, a page that crashed or a context with one."""
    if isinstance(value, (tuple, list)):
        return any(holds_a_crashed_page(part) for part in value)
    pages = getattr(value, "pages", None)  # a BrowserContext
    if isinstance(pages, list):
        return any(holds_a_crashed_page(page) for page in pages)
    return any(value is page for page in CRASHED)


def drop_crashed_fixtures(item: Any) -> None:
    """Tear down the item's shared fixtures that hold a crashed page, so that its rerun makes them anew.

    Tearing one down tears down the fixtures built on it first (pytest's own order); what a crashed page
    fails to do in its teardown is no news, so it is not raised.
    """
    for fixturedefs in item._fixtureinfo.name2fixturedefs.values():
        for fixturedef in fixturedefs:
            cached = fixturedef.cached_result
            if fixturedef.scope == "function" or cached is None or not holds_a_crashed_page(cached[0]):
                continue
            try:
                fixturedef.finish(item._request)
            except Exception:  # the teardown of a dead page
                pass


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    """Note a test that failed on a crashed page, and free its crashed shared pages for the rerun."""
    report = yield
    if report.failed and is_crash(report.longreprtext):
        # What Chromium itself wrote meanwhile (its stderr reaches the test's captured output through
        # DEBUG=pw:browser, set at the top of this file): the crashed renderer's last words, if any.
        said = [line for line in report.capstderr.splitlines() if "[err]" in line][-12:]
        CRASH_LOG.append("\n    ".join([f"{item.nodeid} ({report.when})", *said]))
        drop_crashed_fixtures(item)
    return report


def pytest_sessionfinish(session: Any) -> None:
    """Hand this worker's crashes to pytest-xdist's controller, which lists them (tests/conftest.py)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["boneyard_crashes"] = list(CRASH_LOG)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (or Playwright's own where it is missing) headless, offline-friendly."""
    return {**browser_type_launch_args, **launch_options()}


def build_site(out: Path) -> None:
    """Build the site into ``out`` with the project's own builder."""
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def build_once(site: Path, *, always: bool) -> None:
    """Build the site into ``site`` (``always``, else only when it is missing), once per test run.

    pytest-xdist's workers each ask for it: they take turns on a file lock, the first builds and notes the
    run's id, and the others find the note and serve what it built instead of rebuilding under its server.
    """
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    key = hashlib.sha256(str(site.resolve()).encode()).hexdigest()[:16]
    lock = Path(tempfile.gettempdir()) / f"boneyard-site-{key}.lock"
    with lock.open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        handle.seek(0)
        if run and handle.read() == run and (site / "sw.js").exists():
            return
        if always or not (site / "sw.js").exists():
            build_site(site)
        handle.seek(0)
        handle.truncate()
        handle.write(run)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """Return the built site (``make test`` builds it first; built here when missing).

    ``BONEYARD_SITE=/some/dir`` builds and serves a site of its own there instead, so that two test runs
    in one work tree (or a run beside ``make serve``) never rebuild each other's files.
    """
    own = os.environ.get("BONEYARD_SITE")
    site = Path(own) if own else ROOT / "site"
    build_once(site, always=bool(own))
    return site


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    """Serve the site on 127.0.0.1 at a free port for the whole run."""
    server, url = serve_in_thread(site_dir)
    yield url
    server.shutdown()


_WATCHES: list[Watch] = []  # every Watch of the run, checked after each test


@dataclass
class Watch:
    """What a page did that a test must check: errors, console errors, error toasts and foreign requests."""

    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    error_toasts: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)  # fragments of errors the running test provokes
    pages: list[Any] = field(default_factory=list)
    since: tuple[int, int] = (0, 0)  # what was seen before the running test began (judged by then)

    def __post_init__(self) -> None:
        _WATCHES.append(self)

    def expect_error(self, *fragments: str) -> None:
        """Declare console errors or error toasts that the running test provokes on purpose."""
        self.expected.extend(fragments)

    def mark(self) -> tuple[int, int]:
        """Return how many console errors and error toasts were seen so far."""
        return (len(self.console_errors), len(self.error_toasts))

    def unexpected(self, since: tuple[int, int] = (0, 0)) -> list[str]:
        """Return the console errors and error toasts seen after ``since`` that nobody declared."""
        found = [f"console error: {text}" for text in self.console_errors[since[0] :]]
        found += [f"error toast: {text}" for text in self.error_toasts[since[1] :]]
        return [text for text in found if not any(fragment in text for fragment in self.expected)]

    def flush(self) -> None:
        """Let the pages deliver the console messages they have already written."""
        for page in self.pages:
            try:
                if not page.is_closed():
                    page.evaluate("0")
            except Exception:
                pass

    def assert_clean(self, page: Any) -> None:
        """Fail on any page error, Python error element, undeclared console error or error toast, or
        request to another host."""
        assert not self.foreign, f"the page asked other hosts: {self.foreign}"
        assert not self.page_errors, f"page errors: {self.page_errors}"
        py_errors = page.locator(".py-error").all_inner_texts()
        assert not py_errors, f"Python errors shown: {py_errors}"
        self.flush()
        problems = self.unexpected(self.since)
        assert not problems, "the page reported errors: " + "; ".join(problems)


@pytest.fixture(autouse=True)
def _fail_on_reported_errors(request: Any) -> Iterator[None]:
    """Fail a test on any console error or error toast it caused and did not declare."""
    marks = {id(w): w.mark() for w in _WATCHES}
    declared = [str(f) for m in request.node.iter_markers("expect_error") for f in m.args]
    for w in _WATCHES:
        w.expected = list(declared)
        w.since = marks[id(w)]
    yield
    problems = []
    for w in list(_WATCHES):
        w.flush()
        if declared and id(w) not in marks:
            w.expected.extend(declared)
        problems += w.unexpected(marks.get(id(w), (0, 0)))
        w.expected = []
        w.since = w.mark()
    if problems:
        pytest.fail("the page reported errors during this test: " + "; ".join(problems), pytrace=False)


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
    if page in watch.pages:
        return
    watch.pages.append(page)
    track_crashes(page)
    page.on("pageerror", lambda exc: watch.page_errors.append(str(exc)))

    def on_console(msg: Any) -> None:
        text = msg.text
        if text.startswith(TOAST_MARK):
            if text.startswith(TOAST_MARK + "error:"):
                watch.error_toasts.append(text.removeprefix(TOAST_MARK + "error:").strip())
        elif msg.type == "error" and not text.startswith(BROWSER_NOISE):
            watch.console_errors.append(text)

    page.on("console", on_console)
    page.on("close", lambda _page: watch.pages.remove(page) if page in watch.pages else None)


def new_context(browser: Any, watch: Watch, *, service_workers: str = "block", **kwargs: Any) -> Any:
    """Return a guarded context (reduced motion by default, so computers move at once)."""
    options = {"reduced_motion": "reduce", "viewport": {"width": 1100, "height": 850}, **kwargs}
    context = browser.new_context(service_workers=service_workers, **options)
    context.add_init_script(TOAST_ECHO)
    context.on("page", track_crashes)
    guard(context, watch)
    return context


def open_app(context: Any, url: str, watch: Watch, hash_: str = "") -> Any:
    """Open the app in a new page of ``context`` and wait until it is ready."""
    for attempt in range(1, BOOT_TRIES + 1):
        page = context.new_page()
        watch_page(page, watch)
        try:
            page.goto(url + "/" + hash_)
            page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
            return page
        except Exception as error:
            if not is_crash(error) or attempt == BOOT_TRIES:
                raise
            CRASH_LOG.append(f"a boot of {url}/{hash_} (try {attempt} of {BOOT_TRIES})")
            try:
                page.close()
            except Exception:  # a dead page's close is no news either
                pass
    raise AssertionError("unreachable")


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
