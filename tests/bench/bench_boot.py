"""Boot benchmark: time from navigation to ready, in one run, for three pages on the same vendored runtime.

    python3 tests/bench/bench_boot.py [--runs 5] [--json]        (make bench runs it)

- (a) bare: a PyScript page that only prints "ready" (and sets the ready marker), no snapshot;
- (b) ours, no snapshot: Boneyard with its snapshot removed (our loader then starts Pyodide plainly);
- (c) ours, snapshot: Boneyard as built (restores the memory snapshot).

Each cold load is a fresh browser context with no service worker and an empty cache; the variants take
turns so that the machine's load falls on all of them alike. "Ready" is the moment ``data-ready="true"``
appears on ``<html>`` (recorded in the page by a MutationObserver), measured from navigation start. FCP
is the first contentful paint (the loading screen). The return visit reuses one persistent browser
profile with the service worker on: a first visit installs it, then each later launch loads the page
again from the worker's cache. The goals: b/a <= 1.15 (issue 2), c/a <= 0.5 (issue 7).
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

# Records when the ready marker appears, and the first contentful paint.
MARKER = """
(() => {
  const mark = () => {
    const root = document.documentElement;
    if (root && root.dataset.ready === "true" && window.__readyAt === undefined) window.__readyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
})();
"""
RESULT = """() => {
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return { ready: window.__readyAt, fcp: fcp ? fcp.startTime : null,
           snapshot: window.boneyardSnapshot ? window.boneyardSnapshot.used : null };
}"""

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


def load(context, url: str) -> dict:
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS, polling=50)
    result = page.evaluate(RESULT)
    page.close()
    return result


def cold_loads(playwright, urls: dict[str, str], runs: int) -> dict[str, list[dict]]:
    browser = playwright.chromium.launch(**launch_options())
    results: dict[str, list[dict]] = {name: [] for name in urls}
    try:
        for name, url in urls.items():  # one warm-up each: the OS file cache, not the browser's
            context = browser.new_context(service_workers="block")
            context.add_init_script(MARKER)
            load(context, url)
            context.close()
        for _ in range(runs):
            for name, url in urls.items():
                context = browser.new_context(service_workers="block")
                context.add_init_script(MARKER)
                results[name].append(load(context, url))
                context.close()
    finally:
        browser.close()
    return results


def return_visits(playwright, url: str, runs: int) -> list[dict]:
    """Install the service worker in a persistent profile, then time ``runs`` later visits."""
    profile = tempfile.mkdtemp(prefix="boneyard-profile-")
    out = []
    try:
        for visit in range(runs + 1):
            context = playwright.chromium.launch_persistent_context(
                profile, **launch_options(), service_workers="allow")
            context.add_init_script(MARKER)
            page = context.new_page()
            page.goto(url)
            page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS, polling=50)
            if visit == 0:
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
                time.sleep(1)  # let the precache finish writing
            else:
                controlled = page.evaluate("navigator.serviceWorker.controller !== null")
                result = page.evaluate(RESULT)
                result["controlled"] = controlled
                out.append(result)
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out


def median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.median(values)) if values else None


def summarize(cold: dict[str, list[dict]], returning: list[dict]) -> dict:
    out: dict = {"runs": {name: len(rows) for name, rows in cold.items()}, "variants": {}}
    for name, rows in cold.items():
        out["variants"][name] = {
            "ready_ms_median": median([r["ready"] for r in rows]),
            "fcp_ms_median": median([r["fcp"] for r in rows]),
            "ready_ms": [round(r["ready"]) for r in rows],
            "snapshot_used": [r["snapshot"] for r in rows],
        }
    a = out["variants"]["a_bare"]["ready_ms_median"]
    b = out["variants"]["b_ours_plain"]["ready_ms_median"]
    c = out["variants"]["c_ours_snapshot"]["ready_ms_median"]
    out["ratios"] = {"b_over_a": round(b / a, 3), "c_over_a": round(c / a, 3), "c_over_b": round(c / b, 3)}
    out["goals"] = {"b_over_a_max": 1.15, "c_over_a_max": 0.5}
    out["return_visit"] = {
        "ready_ms_median": median([r["ready"] for r in returning]),
        "fcp_ms_median": median([r["fcp"] for r in returning]),
        "ready_ms": [round(r["ready"]) for r in returning],
        "snapshot_used": [r["snapshot"] for r in returning],
        "controlled": [r["controlled"] for r in returning],
    }
    return out


def table(summary: dict) -> str:
    labels = {"a_bare": "(a) bare PyScript page", "b_ours_plain": "(b) Boneyard, no snapshot",
              "c_ours_snapshot": "(c) Boneyard, snapshot"}
    lines = [f"{'page':34} {'ready ms (median)':>18} {'FCP ms':>8}  runs"]
    for name, row in summary["variants"].items():
        lines.append(f"{labels[name]:34} {row['ready_ms_median']:>18} {row['fcp_ms_median']:>8}  {row['ready_ms']}")
    ret = summary["return_visit"]
    lines.append(f"{'(c) return visit, service worker':34} {ret['ready_ms_median']:>18} {ret['fcp_ms_median']:>8}  {ret['ready_ms']}")
    r = summary["ratios"]
    lines.append(f"b/a = {r['b_over_a']} (goal <= 1.15)   c/a = {r['c_over_a']} (goal <= 0.5)   c/b = {r['c_over_b']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads of each page (at least 5)")
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
            cold = cold_loads(playwright, urls, args.runs)
            returning = return_visits(playwright, urls["c_ours_snapshot"], args.return_runs)
        summary = summarize(cold, returning)
    finally:
        for server in servers:
            server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(summary, indent=1) if args.json else table(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
