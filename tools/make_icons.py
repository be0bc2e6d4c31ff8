"""Draw the app icons (PNG, 192 and 512 px, and a maskable 512) with the standard library only.

    python3 tools/make_icons.py                  the icons
    python3 tools/make_icons.py --screenshots    the install dialog's screenshots (needs Playwright)

The pictures match ``icons/icon.svg``: a six-five domino on the table's green. The PNGs are
committed; run this again only when the design changes.

``--screenshots`` photographs the real page (the site built into a scratch folder, served on 127.0.0.1,
in Chromium) for the manifest's ``screenshots``, which make the browser's install dialog look like a
store page: the home screen wide (1280x800) and a seeded Dominoes game on a phone (390x844 at 2x).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN = (0x17, 0x36, 0x2A)
IVORY = (0xF7, 0xF3, 0xE8)
INK = (0x0B, 0x1A, 0x13)
PIPS = [
    (25, 13),
    (39, 13),
    (32, 19),
    (25, 25),
    (39, 25),
    (25, 39),
    (39, 39),
    (25, 45),
    (39, 45),
    (25, 51),
    (39, 51),
]


def _inside_round_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r and x0 <= x <= x1 and y0 <= y <= y1


def pixel(x: float, y: float, maskable: bool) -> tuple[int, int, int]:
    """Return the colour at a point of the 64-unit design square."""
    if maskable:  # keep the domino inside the 80% safe zone
        x, y = 32 + (x - 32) / 0.78, 32 + (y - 32) / 0.78
    if _inside_round_rect(x, y, 16, 5, 48, 59, 7):
        if not _inside_round_rect(x, y, 18, 7, 46, 57, 5):
            return INK
        if abs(y - 32) <= 1 and 21 <= x <= 43:
            return INK
        if any((x - px) ** 2 + (y - py) ** 2 <= 9 for px, py in PIPS):
            return INK
        return IVORY
    if not maskable and not _inside_round_rect(x, y, 0, 0, 64, 64, 12):
        return (0, 0, 0)
    return GREEN


def png(size: int, maskable: bool = False) -> bytes:
    """Return a PNG of the icon at ``size`` pixels, 2x2 supersampled."""
    rows = bytearray()
    scale = 64 / size
    for j in range(size):
        rows.append(0)
        for i in range(size):
            acc = [0, 0, 0, 0]
            for dx, dy in ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)):
                x, y = (i + dx) * scale, (j + dy) * scale
                colour = pixel(x, y, maskable)
                outside = not maskable and not _inside_round_rect(x, y, 0, 0, 64, 64, 12)
                acc[0] += colour[0]
                acc[1] += colour[1]
                acc[2] += colour[2]
                acc[3] += 0 if outside else 255
            rows.extend(v // 4 for v in acc)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


SCREENSHOTS = {
    # name: (viewport, device scale, address, what to wait for)
    "screenshot-wide.png": ((1280, 800), 1, "#/", ".game-card"),
    "screenshot-narrow.png": ((390, 844), 2, "?seed=5#/setup/dominoes", ".dom-table"),
}


def screenshots(out: Path) -> list[str]:
    """Photograph the built page for the manifest's screenshots into ``out``; return the file names."""
    import sys
    import tempfile

    tools = Path(__file__).resolve().parent
    sys.path.insert(0, str(tools))
    import build_site
    from chromium import launch_options
    from playwright.sync_api import sync_playwright
    from serve import serve_in_thread

    site = Path(tempfile.mkdtemp(prefix="boneyard-shots-")) / "site"
    build_site.build(site)
    server, url = serve_in_thread(site)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(**launch_options())
            for name, ((width, height), scale, address, selector) in SCREENSHOTS.items():
                context = browser.new_context(
                    viewport={"width": width, "height": height}, device_scale_factor=scale
                )
                page = context.new_page()
                page.goto(f"{url}/{address}")
                page.wait_for_selector("html[data-ready='true']", state="attached", timeout=120_000)
                if selector == ".dom-table":
                    page.click("#start-game")
                    page.wait_for_selector(".dom-table.is-my-turn", timeout=60_000)
                page.wait_for_selector(selector)
                page.wait_for_timeout(600)  # let the entrance animations settle
                page.screenshot(path=str(out / name))
                context.close()
            browser.close()
    finally:
        server.shutdown()
    return list(SCREENSHOTS)


if __name__ == "__main__":
    import sys

    out = Path(__file__).resolve().parent.parent / "icons"
    if "--screenshots" in sys.argv[1:]:
        print("wrote " + ", ".join(f"icons/{name}" for name in screenshots(out)))
        raise SystemExit(0)
    (out / "icon-192.png").write_bytes(png(192))
    (out / "icon-512.png").write_bytes(png(512))
    (out / "icon-512-maskable.png").write_bytes(png(512, maskable=True))
    print("wrote icons/icon-192.png, icon-512.png, icon-512-maskable.png")
