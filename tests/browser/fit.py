"""Fit and stillness measurements every table's browser tests share (Dominoes, Triangles, Heptalion).

- ``assert_fits(page)``: the page does not scroll, neither down nor sideways (the table fits the viewport).
- ``assert_opens_at_top(page)``: the page is at the top and the screen's title is in view.
- ``snapshot(page)`` / ``assert_still(before, after)``: the tray and its buttons keep their places (2 px).
- ``VIEWPORTS``: the three sizes every table is measured at.
"""

from __future__ import annotations

from typing import Any

VIEWPORTS = [(1280, 800), (800, 1280), (360, 740)]
TOLERANCE_PX = 2.0

_MEASURE = """() => {
  const d = document.documentElement;
  return {scrollHeight: d.scrollHeight, clientHeight: d.clientHeight, innerHeight: window.innerHeight,
          scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, scrollY: window.scrollY, scrollX: window.scrollX};
}"""

_SNAPSHOT = """(selectors) => {
  const out = {};
  const rect = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; };
  for (const selector of selectors) {
    document.querySelectorAll(selector).forEach((e, i) => {
      const key = e.id ? '#' + e.id : selector + '[' + i + ']';
      out[key] = rect(e);
    });
  }
  return out;
}"""

STILL = [".kit-tray", ".kit-tray-buttons button", ".kit-message", "#kit-mute", "#kit-rules"]


def measure(page: Any) -> dict[str, float]:
    """Return the page's scroll and client sizes and its scroll position."""
    return dict(page.evaluate(_MEASURE))


def page_height(page: Any) -> int:
    """Return document.documentElement.scrollHeight."""
    return int(measure(page)["scrollHeight"])


def assert_fits(page: Any, where: str = "") -> dict[str, float]:
    """Fail when the page scrolls down or sideways; return the measurements."""
    m = measure(page)
    assert m["scrollHeight"] <= m["innerHeight"], (
        f"{where}: the page is {m['scrollHeight']} px tall in {m['innerHeight']}"
    )
    assert m["scrollWidth"] <= m["clientWidth"], (
        f"{where}: the page scrolls sideways ({m['scrollWidth']} > {m['clientWidth']})"
    )
    return m


def assert_opens_at_top(page: Any, where: str = "") -> None:
    """Fail unless the page sits at the top with the screen's title fully in view."""
    m = measure(page)
    assert m["scrollY"] == 0, f"{where}: opened scrolled by {m['scrollY']} px"
    box = page.locator("#screen-title").bounding_box()
    assert box is not None, f"{where}: no title"
    assert box["y"] >= 0 and box["y"] + box["height"] <= m["innerHeight"], (
        f"{where}: the title is out of view: {box}"
    )


def snapshot(page: Any, selectors: list[str] | None = None) -> dict[str, list[float]]:
    """Return the boxes of the tray, its buttons, the message line and the header tools."""
    return dict(page.evaluate(_SNAPSHOT, selectors or STILL))


def assert_still(before: dict[str, list[float]], after: dict[str, list[float]], where: str = "") -> None:
    """Fail when something present in both snapshots moved or changed size by more than 2 px."""
    for key, box in before.items():
        if key not in after:
            continue
        moved = max(abs(a - b) for a, b in zip(box, after[key]))
        assert moved <= TOLERANCE_PX, f"{where}: {key} moved by {moved:.1f} px ({box} -> {after[key]})"
