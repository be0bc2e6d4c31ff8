"""Bonefall frame benchmark: Python time per frame over a 30-second autoplayed game in headless Chromium.

    python3 tools/build_site.py && python3 tests/bench/bench_bonefall_frames.py [--seconds 30] [--dpr 1]
        [--mode marathon-norm] [--json]

Serves ``site/`` on 127.0.0.1, opens the game in Debian's Chromium (the browser tests' flags, animations
on), starts a game of ``--mode`` and lets the autoplayer play it through the screen's own loop (the same
input path, saves and drawing as a person's game; 10 commands a second). The page measures each
requestAnimationFrame callback with ``performance.now()`` (simulation steps, saves, drawing; the
autoplayer's planning is measured apart) and exposes the numbers on ``window.boneyardBonefall.stats()``.

Prints: frames, the frame rate reached, Python ms per frame (median, 95th and 99th percentile, max),
the same without the autoplayer's thinking (``sim_draw``), and the breakdown (advance, save, draw).
The goal: 60 frames a second with the 95th percentile of Python time under 4 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from chromium import launch_options  # noqa: E402
from serve import serve_in_thread  # noqa: E402


def run(seconds: float, dpr: float, mode: str, warmup: float = 2.0) -> dict:
    """Play ``seconds`` of an autoplayed game in the page and return the page's frame numbers."""
    from playwright.sync_api import sync_playwright

    site = ROOT / "site"
    if not (site / "sw.js").exists():
        raise SystemExit("bench_bonefall_frames: build the site first (python3 tools/build_site.py)")
    server, url = serve_in_thread(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch_options())
            context = browser.new_context(
                viewport={"width": 1100, "height": 850},
                device_scale_factor=dpr,
                service_workers="block",
                reduced_motion="no-preference",
            )
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url + "/#/setup/bonefall")
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
            page.select_option("#setup-mode", mode)
            page.click("#start-game")
            page.wait_for_selector("#fall-canvas")
            page.evaluate("boneyardBonefall.autoplay(true)")
            page.wait_for_timeout(int(warmup * 1000))
            page.evaluate("boneyardBonefall.resetStats()")
            t0 = time.monotonic()
            page.wait_for_timeout(int(seconds * 1000))
            stats = json.loads(page.evaluate("boneyardBonefall.stats()"))
            stats["wall_seconds"] = round(time.monotonic() - t0, 2)
            game = json.loads(page.evaluate("boneyardBonefall.view()"))
            stats["game"] = {
                k: game[k]
                for k in ("mode", "set", "step", "dominoes_played", "max_score", "power", "speed", "over")
            }
            stats["mode"] = mode
            stats["page_errors"] = errors
            stats["load_average"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
            stats["cpus"] = os.cpu_count()
            browser.close()
    finally:
        server.shutdown()
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--dpr", type=float, default=1.0, help="devicePixelRatio of the page (2: a phone's)")
    parser.add_argument(
        "--mode",
        default="marathon-norm",
        choices=("sprint-norm", "sprint-max", "marathon-norm", "marathon-max"),
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    stats = run(args.seconds, args.dpr, args.mode)
    if args.json:
        print(json.dumps(stats))
        return 0
    goal = stats["fps"] >= 58 and stats["python_ms_p95"] < 4.0
    print(
        f"Bonefall frames: {stats['frames']} frames in {stats['seconds']} s of {args.mode} at dpr {stats['dpr']} "
        f"({stats['cell_px']} px cells), load average {stats['load_average']} on {stats['cpus']} CPUs"
    )
    print(
        f"  frame rate {stats['fps']} fps (interval median {stats['frame_interval_median_ms']} ms, "
        f"p95 {stats['frame_interval_p95_ms']} ms)"
    )
    print(
        f"  Python per frame: median {stats['python_ms_median']} ms, p95 {stats['python_ms_p95']} ms, "
        f"p99 {stats['python_ms_p99']} ms, max {stats['python_ms_max']} ms"
    )
    print(
        f"  without the autoplayer's planning: median {stats['sim_draw_ms_median']} ms, "
        f"p95 {stats['sim_draw_ms_p95']} ms, max {stats['sim_draw_ms_max']} ms "
        f"(autoplayer {stats['autoplay_ms_total']} ms in all)"
    )
    print(
        f"  parts: advance p95 {stats['advance_ms_p95']} ms; draw median {stats['draw_ms_median']} ms, "
        f"p95 {stats['draw_ms_p95']} ms ({stats['layer_redraws']} board redraws, median "
        f"{stats['draw_layer_ms_median']} ms); {stats['saves']} saves, max {stats['save_ms_max']} ms"
    )
    g = stats["game"]
    print(
        f"  game: {g['dominoes_played']} dominoes, {g['step']} steps, Max {g['max_score']}, Power {g['power']}, "
        f"Speed {g['speed']}{' (over)' if g['over'] else ''}"
    )
    print(f"  goal (60 fps, p95 < 4 ms): {'met' if goal else 'NOT met'}")
    if stats["page_errors"]:
        print(f"  page errors: {stats['page_errors']}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
