"""Player names in the page: a 24-letter name fits a 360 px phone (wrapped, never scrolling sideways), and
a name with U+202E (RIGHT-TO-LEFT OVERRIDE) reverses nothing but itself, on Home and at a table.

``BONEYARD_SCREENSHOTS=/some/dir`` keeps the screenshots (360x740 and 1280x800) for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import READY, READY_TIMEOUT_MS, Watch, new_context, open_app

LONG = "W" * 24  # the longest name Settings keeps, in the widest letter, with no space to wrap at
REAL = "Wolfeschlegelsteinhausen"  # 24 letters too
RTL = "\u202eAna Bo"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Where the pieces of Home's greeting are drawn: "Welcome," before the name, ". Pick" after it.
GREETING_BOXES = """
() => {
  const lead = document.querySelector('#main .lead');
  const name = lead.querySelector('.name');
  const box = (r) => ({left: r.left, right: r.right, top: r.top});
  const piece = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return box(range.getClientRects()[0]);
  };
  const lines = name.getClientRects();
  return {welcome: piece(lead.firstChild, 0, 8), first: box(lines[0]), last: box(lines[lines.length - 1]),
          period: piece(name.nextSibling, 0, 1), pick: piece(name.nextSibling, 2, 6), text: lead.innerText};
}
"""


@pytest.fixture(scope="module")
def phone(browser: Any, base_url: str, watch: Watch) -> Iterator[Any]:
    """Return a ready page at 360x740."""
    context = new_context(browser, watch, viewport=PHONE)
    page = open_app(context, base_url, watch)
    yield page
    watch.assert_clean(page)
    context.close()


def shots_dir(tmp_path: Path) -> Path:
    """Return where screenshots go (kept when BONEYARD_SCREENSHOTS names a folder)."""
    own = os.environ.get("BONEYARD_SCREENSHOTS")
    folder = Path(own) if own else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def set_name(page: Any, name: str) -> None:
    """Type a name on Settings, then open Home."""
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-name")
    page.fill("#set-name", name)
    page.locator("#set-name").dispatch_event("change")
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#main .lead .name")
    assert page.locator("#main .lead .name").inner_text() == name


def sideways(page: Any) -> int:
    """Return how far the page scrolls sideways (0 when it fits)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def in_order(boxes: dict[str, Any]) -> bool:
    """Tell whether "Welcome," comes before the name, the name before ".", and "." before "Pick"."""

    def before(a: dict[str, float], b: dict[str, float]) -> bool:
        return a["top"] + 4 < b["top"] or (abs(a["top"] - b["top"]) <= 4 and a["right"] <= b["left"] + 1)

    return (
        before(boxes["welcome"], boxes["first"])
        and before(boxes["last"], boxes["period"])
        and before(boxes["period"], boxes["pick"])
    )


@pytest.mark.parametrize("long", [REAL, LONG])
def test_a_24_letter_name_wraps_on_a_phone_and_never_scrolls_sideways(phone, tmp_path, long):
    page = phone
    set_name(page, long)
    assert sideways(page) <= 0, f"Home scrolls sideways by {sideways(page)}px with a {len(long)}-letter name"
    name = page.locator("#main .lead .name").bounding_box()
    assert name is not None and name["x"] >= 0 and name["x"] + name["width"] <= PHONE["width"], (
        "the name stays on screen"
    )
    assert long in page.locator("#main .lead").inner_text().replace("\n", ""), "the whole name is shown"
    page.screenshot(path=str(shots_dir(tmp_path) / f"names-home-360-{long[:4]}.png"))
    for hash_ in ("#/settings", "#/stats"):
        page.evaluate(f"location.hash = '{hash_}'")
        page.wait_for_selector("#screen-title")
        assert sideways(page) <= 0, f"{hash_} scrolls sideways"


def test_a_right_to_left_override_in_a_name_reverses_only_the_name(phone, tmp_path):
    page = phone
    set_name(page, RTL)
    boxes = page.evaluate(GREETING_BOXES)
    assert boxes["text"].startswith("Welcome, ") and ". Pick a game." in boxes["text"]
    assert in_order(boxes), f"the greeting is out of order around the name: {boxes}"
    page.screenshot(path=str(shots_dir(tmp_path) / "names-rtl-360.png"))
    # The check can tell: the same greeting without isolating the name runs backwards after it.
    page.evaluate("""() => { const lead = document.querySelector('#main .lead');
                             lead.innerHTML = ''; lead.append('Welcome, '); const s = document.createElement('span');
                             s.className = 'name'; s.style.unicodeBidi = 'normal'; s.textContent = '\\u202eAna Bo';
                             lead.append(s, '. Pick a game. Everything runs in your browser, even offline.'); }""")
    assert not in_order(page.evaluate(GREETING_BOXES)), "an unisolated override reorders the sentence"


def test_names_at_a_table_on_one_device_fit_and_stay_isolated(phone, base_url, tmp_path):
    page = phone
    page.goto(f"{base_url}/?seed=9#/setup/dominoes")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("#setup-mode")
    page.check("input[name=opponents][value=device]")
    page.wait_for_selector("#setup-name-1")
    for seat, name in enumerate((LONG, RTL)):
        page.fill(f"#setup-name-{seat}", name)
        page.locator(f"#setup-name-{seat}").dispatch_event("change")
    page.click("#start-game")
    page.wait_for_selector("#reveal")
    title = page.locator("#privacy-title")
    assert title.locator(".name").count() == 1 and title.inner_text().endswith("'s turn")
    assert sideways(page) <= 0, "the privacy screen scrolls sideways"
    page.screenshot(path=str(shots_dir(tmp_path) / "names-privacy-360.png"))
    page.click("#reveal")
    page.wait_for_selector(".dom-hand-tile")
    assert sideways(page) <= 0, "the table scrolls sideways with long names"
    page.screenshot(path=str(shots_dir(tmp_path) / "names-table-360.png"), full_page=True)
    for label in page.locator("[aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    ):
        if "\u202e" in label:
            assert "\u2068\u202e" in label and "\u2069" in label.split("\u202e", 1)[1], label


def test_home_at_desktop_size(browser, base_url, watch, tmp_path):
    context = new_context(browser, watch, viewport=DESKTOP)
    try:
        page = open_app(context, base_url, watch)
        set_name(page, LONG)
        assert sideways(page) <= 0
        assert page.locator("#main .lead").inner_text().startswith(f"Welcome, {LONG}. Pick a game.")
        page.screenshot(path=str(shots_dir(tmp_path) / "names-home-1280.png"))
        set_name(page, RTL)
        assert in_order(page.evaluate(GREETING_BOXES))
        page.screenshot(path=str(shots_dir(tmp_path) / "names-rtl-1280.png"))
        watch.assert_clean(page)
    finally:
        context.close()
