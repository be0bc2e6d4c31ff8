"""Boot benchmark: time from navigation to ready, in one run, for three pages on the same vendored runtime.

    python3 tests/bench/bench_boot.py [--runs 7] [--return-runs 5] [--json]       (make bench runs it)

- (a) bare: a PyScript page that only prints "ready" (and sets the ready marker), no snapshot;
- (b) ours, no snapshot: Boneyard with its snapshot removed (our loader then starts Pyodide plainly);
- (c) ours, snapshot: Boneyard as built (restores the memory snapshot);
- (r) return visit: (c) again through its service worker, in a browser profile that has visited it;
- (s) the bare page again, in a profile of its own that has visited it (its HTTP cache warm): what (r)
  is compared with.

All pages are served by ``tools/serve.py`` from copies of one built site (so the bare page gets the same
runtime files, gzip copies included). Each cold load is a fresh browser context with no service worker
and an empty cache; the variants take turns (a, b, c, r in every round) so that the machine's load falls
on all of them alike, and the figures that matter are medians and ratios. "Ready" is the moment
``data-ready="true"`` appears on ``<html>`` (a MutationObserver in the page), measured from navigation
start. Every load, cold or return, opens its page (a new window of headless Chromium) and waits 3 s
before it navigates: a player opens the site in a browser that is already running, while a new window
loads its own WebUI pages (about 0.9 s of CPU on these two cores, measured). FCP is the first
contentful paint (the loading screen). A return visit launches the browser again on the same profile
(the worker installed, the HTTP cache and the compiled-code cache warm: the warm-up visit stays open
12 s, as a player's would, since V8 writes that cache only once it has optimised enough of the module),
and is traced (CDP, V8's ``v8.wasm`` events) to tell whether the WebAssembly came from that cache.

Phases (milliseconds from navigation start, medians; from the loader's ``boneyard:*`` marks, the
resource timings and a wrapper around WebAssembly's instantiate calls):

- html: the page's first byte has arrived (a return visit: from the service worker's cache, by its
  static route, without waiting for the worker to start);
- fcp: the first contentful paint (the loading screen); on a loaded machine the new browser context's
  own start before the page is asked for varies most, so the table also gives FCP - html;
- wasm: the WebAssembly has arrived (through the service worker on a return visit);
- snap: the snapshot is in Pyodide's buffer (``boneyard:snapshot-unpacked``: downloaded and inflated, or
  on a return visit read from the service worker's cache by a worker of the page);
- fetch: the last of the WebAssembly, the snapshot and the stdlib zip has arrived;
- compiled: the WebAssembly is compiled (ours: boot.js starts it while the page parses, the mark
  ``boneyard:wasm-compiled``; the bare page: the end of Pyodide's own instantiation);
- asks: PyScript asks our loader for the interpreter (its own start done, it waits for ours from here);
- restore: Python restored from the snapshot (Pyodide's start, the heap copied in, checked, reseeded);
- bundles: the page's Python written into Python's file system (our interpreter is handed to PyScript);
- pyscript: py/main.py starts (PyScript has set up: its config, plugins, its own Python package);
- ready: the home screen is drawn (first render = ready - pyscript).

Before every load the bench times a fixed Python loop (``machine_ms``) and prints its median for each page
beside the fastest: this virtual machine slows under sustained load, so a slow page may be a slow machine.

Goals (issue 16): c/a <= 0.35 (cold), return visit < 800 ms, FCP(c) <= FCP(a) + 50 ms.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402
from chromium import launch_options  # noqa: E402
from serve import serve_in_thread  # noqa: E402

TIMEOUT_MS = 120_000
SETTLE_S = 3  # seconds a new window (and a relaunched browser) is left to finish its own start

# Records when the ready marker appears, and how long WebAssembly's instantiation takes.
MARKER = """
(() => {
  const at = (name) => performance.mark("bench:" + name);
  const mark = () => {
    const root = document.documentElement;
    if (root && root.dataset.ready === "true" && window.__readyAt === undefined) window.__readyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  const wrap = (name) => {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      const start = performance.now();
      return original.apply(this, args).then((result) => {
        const module = result.module || result;
        // Only Pyodide's big module counts (it also compiles a tiny one of its own).
        if (result.instance && WebAssembly.Module.exports(module).length > 100) {
          window.__compile = { start, end: performance.now() };
        }
        return result;
      });
    };
  };
  wrap("instantiateStreaming");
  wrap("instantiate");
})();
"""
RESULT = """() => {
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  const marks = {};
  for (const m of performance.getEntriesByType("mark")) marks[m.name.replace("boneyard:", "")] = m.startTime;
  const resources = performance.getEntriesByType("resource");
  const arrived = (pattern) => {
    const hits = resources.filter((r) => pattern.test(r.name));
    return hits.length ? Math.max(...hits.map((r) => r.responseEnd)) : null;
  };
  const big = [arrived(/pyodide\\.asm\\.wasm$/), arrived(/\\.snap\\.gz$/), arrived(/python_stdlib\\.zip$/)];
  return {
    ready: window.__readyAt, fcp: fcp ? fcp.startTime : null, html: nav ? nav.responseStart : null,
    snapshot: window.boneyardSnapshot ? window.boneyardSnapshot.used : null,
    fetch: big.some((t) => t !== null) ? Math.max(...big.filter((t) => t !== null)) : null,
    wasm: big[0], snap: marks["snapshot-unpacked"] ?? big[1],
    compiled: marks["wasm-compiled"] ?? (window.__compile ? window.__compile.end : null),
    asks: marks["pyscript-asks"] ?? null,
    restore: marks["reseeded"] ?? null, bundles: marks["bundles-unpacked"] ?? null, pyscript: marks["main"] ?? null,
  };
}"""
PHASES = (
    "html",
    "fcp",
    "wasm",
    "snap",
    "fetch",
    "compiled",
    "asks",
    "restore",
    "bundles",
    "pyscript",
    "ready",
)

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare</title>
<script type="module" src="vendor/pyscript/core.js"></script></head>
<body><p>loading</p>
<script type="py" config="bare.toml">
from pyscript import document
print("ready")
document.documentElement.setAttribute("data-ready", "true")
</script></body></html>
"""
LABELS = {
    "a_bare": "(a) bare PyScript page",
    "b_ours_plain": "(b) Boneyard, no snapshot",
    "c_ours_snapshot": "(c) Boneyard, snapshot",
    "r_return": "(r) return visit (service worker)",
    "s_bare_return": "(s) bare page again (HTTP cache)",
}


def prepare(site: Path, work: Path) -> dict[str, str]:
    """Make the three sites in ``work``; return variant -> folder."""
    ours = work / "ours"
    shutil.copytree(site, ours)
    plain = work / "plain"
    shutil.copytree(site, plain)
    # The page as it boots when it has no snapshot: our loader finds none and starts Pyodide plainly.
    shutil.rmtree(plain / "snapshot", ignore_errors=True)
    build_site.write_service_worker(plain)
    bare = work / "bare"
    bare.mkdir()
    shutil.copytree(site / "vendor", bare / "vendor")
    (bare / "index.html").write_text(BARE_HTML)
    (bare / "bare.toml").write_text('interpreter = "./vendor/pyodide/pyodide.mjs"\n')
    return {"a_bare": str(bare), "b_ours_plain": str(plain), "c_ours_snapshot": str(ours)}


def machine_ms() -> float:
    """Time a fixed pure-Python loop (a million steps): this machine's speed just before a load.

    The virtual machine slows down under sustained load and recovers at rest: this loop took 53-55 ms
    rested, and 80-100 ms right after a few minutes of benchmarking (measured here). The bench's loads keep
    both cores busy, so its later loads can run on a slower machine than its first ones; the table
    reports the loop's median for each page beside the fastest, so a reader can tell."""
    start = time.perf_counter()
    total = 0
    for step in range(1_000_000):
        total += step * step
    return (time.perf_counter() - start) * 1000


def load(context, url: str, trace: bool = False, stay: float = 0) -> dict:
    """Open ``url`` in a new page of ``context``, wait for ready, return the page's figures.

    With ``trace``, V8's WebAssembly trace events say whether the module came from Chromium's
    compiled-code cache (``wasm_cached``); ``stay`` keeps the page open that many seconds after ready."""
    page = context.new_page()
    # A player loads the site in a browser window that is already open. A new page here is a new window
    # of headless Chromium, which then loads its own WebUI pages (the omnibox popup's) on the same two
    # cores: about 0.9 s of CPU. Measured in one run, 10 cold loads each: ready 1,550 ms without this
    # wait, 1,244 ms with it. So the page is asked for once the window has settled.
    time.sleep(SETTLE_S)
    machine = machine_ms()
    events: list[dict] = []
    if trace:
        cdp = context.new_cdp_session(page)
        cdp.on("Tracing.dataCollected", lambda event: events.extend(event["value"]))
        finished: list[bool] = []
        cdp.on("Tracing.tracingComplete", lambda _event: finished.append(True))
        # A module read from the code cache is deserialized (V8's "wasm.Deserialize", category v8.wasm);
        # Blink's own "v8.wasm.moduleCacheHit" is under disabled-by-default-devtools.timeline, which
        # "devtools.timeline" does not include (an earlier version looked for it there and never saw it).
        cdp.send("Tracing.start", {"categories": "v8.wasm", "transferMode": "ReportEvents"})
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)  # "ready" is what counts, not the load event
    page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS, polling=50)
    result = page.evaluate(RESULT)
    result["controlled"] = page.evaluate("!!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    result["machine"] = machine
    if trace:
        cdp.send("Tracing.end")
        while not finished:
            page.wait_for_timeout(50)
        # Only Pyodide's module is large enough for the cache (over 128 KB); the event names no URL.
        result["wasm_cached"] = any(e["name"] == "wasm.Deserialize" for e in events)
    if stay:
        page.wait_for_timeout(stay * 1000)
    page.close()
    return result


def cold_load(browser, url: str) -> dict:
    context = browser.new_context(service_workers="block")
    context.add_init_script(MARKER)
    try:
        return load(context, url)
    finally:
        context.close()


def visit(playwright, profile: str, url: str, install: bool = False, stay: float = 0) -> dict:
    """Launch the browser on ``profile`` and load ``url`` through its service worker (traced)."""
    context = playwright.chromium.launch_persistent_context(
        profile, **launch_options(), service_workers="allow"
    )
    context.add_init_script(MARKER)
    try:
        if not install:
            return load(context, url, trace=True, stay=stay)
        page = context.new_page()
        page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
        page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS, polling=50)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        page.wait_for_function("caches.keys().then(k => k.length === 1)", timeout=60_000)
        time.sleep(2)  # let the precache and the compiled-code cache finish writing
        return {}
    finally:
        context.close()


def run(playwright, urls: dict[str, str], runs: int, return_runs: int) -> dict[str, list[dict]]:
    """Take turns: a, b, c cold and one return visit of c and of a per round (after a warm-up round)."""
    results: dict[str, list[dict]] = {name: [] for name in [*urls, "r_return", "s_bare_return"]}
    profile = tempfile.mkdtemp(prefix="boneyard-profile-")
    bare_profile = tempfile.mkdtemp(prefix="boneyard-bare-profile-")
    browser = playwright.chromium.launch(**launch_options())
    try:
        for url in urls.values():  # warm-up: the OS file cache, not the browser's
            cold_load(browser, url)
        visit(playwright, profile, urls["c_ours_snapshot"], install=True)
        # V8 writes its compiled-code cache for the WebAssembly on a later visit, once enough of the
        # module has been optimised: a player's session does that, a page closed at once does not.
        visit(playwright, profile, urls["c_ours_snapshot"], stay=12)
        visit(playwright, bare_profile, urls["a_bare"], stay=2)  # the bare page: the HTTP cache only
        visit(playwright, bare_profile, urls["a_bare"], stay=12)
        for round_ in range(max(runs, return_runs)):
            if round_ < runs:
                for name, url in urls.items():
                    results[name].append(cold_load(browser, url))
            if round_ < return_runs:
                results["r_return"].append(visit(playwright, profile, urls["c_ours_snapshot"]))
                results["s_bare_return"].append(visit(playwright, bare_profile, urls["a_bare"]))
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(bare_profile, ignore_errors=True)
    return results


def median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.median(values)) if values else None


def summarize(results: dict[str, list[dict]]) -> dict:
    out: dict = {"runs": {name: len(rows) for name, rows in results.items()}, "variants": {}}
    for name, rows in results.items():
        row = {f"{phase}_ms_median": median([r.get(phase) for r in rows]) for phase in PHASES}
        row["ready_ms"] = [round(r["ready"]) for r in rows]
        row["machine_ms_median"] = median([r.get("machine") for r in rows])
        row["snapshot_used"] = [r["snapshot"] for r in rows]
        row["controlled"] = [r["controlled"] for r in rows]
        if any("wasm_cached" in r for r in rows):
            row["wasm_cached"] = [r.get("wasm_cached") for r in rows]
        out["variants"][name] = row
    v = out["variants"]
    a, b, c = (v[k]["ready_ms_median"] for k in ("a_bare", "b_ours_plain", "c_ours_snapshot"))
    out["ratios"] = {
        "b_over_a": round(b / a, 3),
        "c_over_a": round(c / a, 3),
        "c_over_b": round(c / b, 3),
        "r_over_a": round(v["r_return"]["ready_ms_median"] / a, 3) if v["r_return"]["ready_ms"] else None,
        "r_over_s": (
            round(v["r_return"]["ready_ms_median"] / v["s_bare_return"]["ready_ms_median"], 3)
            if v["r_return"]["ready_ms"] and v["s_bare_return"]["ready_ms"]
            else None
        ),
    }
    machine = [r["machine"] for rows in results.values() for r in rows if r.get("machine") is not None]
    out["machine_ms_fastest"] = round(min(machine)) if machine else None
    out["fcp_c_minus_a_ms"] = v["c_ours_snapshot"]["fcp_ms_median"] - v["a_bare"]["fcp_ms_median"]
    after_html = {
        name: median(
            [r["fcp"] - r["html"] for r in rows if r.get("fcp") is not None and r.get("html") is not None]
        )
        for name, rows in results.items()
    }
    out["fcp_after_html_ms_median"] = after_html
    if after_html.get("c_ours_snapshot") is not None and after_html.get("a_bare") is not None:
        out["fcp_after_html_c_minus_a_ms"] = after_html["c_ours_snapshot"] - after_html["a_bare"]
    out["goals"] = {
        "c_over_a_max": 0.35,
        "return_ms_max": 800,
        "fcp_c_minus_a_max_ms": 50,
        "b_over_a_max": 1.15,
    }
    return out


def table(summary: dict) -> str:
    head = "".join(f"{phase:>9}" for phase in PHASES)
    lines = [f"{'page (medians, ms from navigation)':36}{head}  ready, each run"]
    for name, row in summary["variants"].items():
        cells = "".join(
            f"{'' if row[f'{p}_ms_median'] is None else row[f'{p}_ms_median']:>9}" for p in PHASES
        )
        lines.append(f"{LABELS[name]:36}{cells}  {row['ready_ms']}")
    r = summary["ratios"]
    lines.append(
        f"cold c/a = {r['c_over_a']} (goal <= 0.35)   b/a = {r['b_over_a']} (goal <= 1.15)   "
        f"return = {summary['variants']['r_return']['ready_ms_median']} ms (goal < 800)   "
        f"FCP c-a = {summary['fcp_c_minus_a_ms']} ms (goal <= 50)"
    )
    after = summary.get("fcp_after_html_ms_median", {})
    lines.append(
        "FCP after the page's first byte: "
        + "   ".join(f"{name.split('_')[0]} {ms}" for name, ms in after.items())
        + f"   (c-a {summary.get('fcp_after_html_c_minus_a_ms')} ms)"
    )
    lines.append(
        f"return r/s = {r['r_over_s']} (ours through its worker / the bare page from the HTTP cache); "
        f"WebAssembly from the code cache: r {summary['variants']['r_return'].get('wasm_cached')}, "
        f"s {summary['variants']['s_bare_return'].get('wasm_cached')}"
    )
    lines.append(
        "machine speed before each load (a fixed Python loop, median ms per page; higher = slower): "
        + "   ".join(
            f"{name.split('_')[0]} {row['machine_ms_median']}" for name, row in summary["variants"].items()
        )
        + f"   (fastest {summary.get('machine_ms_fastest')})"
    )
    rv = summary["variants"]["r_return"]
    if rv["ready_ms_median"] and rv["pyscript_ms_median"] and rv["bundles_ms_median"]:
        lines.append(
            f"(r) first render {rv['ready_ms_median'] - rv['pyscript_ms_median']} ms, PyScript's set-up "
            f"{rv['pyscript_ms_median'] - rv['bundles_ms_median']} ms after our interpreter was ready"
        )
    c = summary["variants"]["c_ours_snapshot"]
    if c["ready_ms_median"] and c["pyscript_ms_median"] and c["bundles_ms_median"]:
        lines.append(
            f"(c) first render {c['ready_ms_median'] - c['pyscript_ms_median']} ms, PyScript's set-up "
            f"{c['pyscript_ms_median'] - c['bundles_ms_median']} ms after our interpreter was ready"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=7, help="cold loads of each page (at least 7 for the goals)"
    )
    parser.add_argument("--return-runs", type=int, default=5)
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site = Path(args.site)
    if not (site / "snapshot" / "manifest.json").exists():
        build_site.build(site)
    work = Path(tempfile.mkdtemp(prefix="boneyard-bench-"))
    servers = []
    try:
        urls = {}
        for name, folder in prepare(site, work).items():
            server, url = serve_in_thread(folder)
            servers.append(server)
            urls[name] = url + "/"
        with sync_playwright() as playwright:
            results = run(playwright, urls, args.runs, args.return_runs)
        summary = summarize(results)
    finally:
        for server in servers:
            server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(summary, indent=1) if args.json else table(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
