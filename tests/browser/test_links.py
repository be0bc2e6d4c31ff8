"""Challenges, replays and the Daily by link in two browsers: one plays a seeded game and shares it, the other opens
each link and gets the same deal or the same review. (Every flow and every bad link is tested under
CPython on the fake page: tests/app/test_links_flows.py; this checks the page's address, Copy and layout.)"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from . import fit
from .conftest import local_storage, new_context, open_app
from .tables import module_page, viewport
from .test_dominoes import start, take_turn, wait_for_human_or_end

page = module_page()
SHOTS = Path(os.environ.get("BONEYARD_SHOTS", "")) if os.environ.get("BONEYARD_SHOTS") else None
HAND = "() => [...document.querySelectorAll('#kit-tray .dom-hand-tile')].map((b) => b.dataset.value)"
SEAT_TILES = "() => document.querySelectorAll('.kit-seat .dom-face-up g.tile').length"
FITS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#share-row, #challenge, #versus, .kit-review-panel')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -0.5 || r.right > innerWidth + 0.5)) out.push(el.id || el.className);
  }
  return out;
}"""


def shoot(page: Any, name: str) -> None:
    """Check the link's parts fit each viewport; keep screenshots when BONEYARD_SHOTS names a folder."""
    for width, height in fit.VIEWPORTS:
        with viewport(page, width, height):
            page.wait_for_timeout(150)
            assert page.evaluate(FITS) == [], f"{name} at {width}x{height}"
            if SHOTS is not None:
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))


def play_out(page: Any) -> list[str]:
    """Play the table to its end by clicks; return the person's hand at their first turn."""
    first: list[str] = []
    for _ in range(200):
        wait_for_human_or_end(page)
        if page.locator("#kit-results").count():
            return first
        first = first or page.evaluate(HAND)
        take_turn(page)
    raise AssertionError("the game did not end")


def audit(page: Any, where: str) -> None:
    """Fail on any serious or critical violation axe finds on the page as it is."""
    found = Axe().run(page).response["violations"]
    serious = [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    assert not serious, (where, serious)


@pytest.fixture(scope="module")
def friend(browser: Any, watch: Any) -> Any:
    """Return a second browser (its own storage): the friend who opens the links."""
    context = new_context(browser, watch)
    yield context
    context.close()


def test_a_challenge_and_a_replay_open_in_another_browser(page, friend, base_url, watch):
    start(page, base_url, "classic", seed=31)
    hand = play_out(page)
    page.click("#check-deal")  # the button goes: the focus stays on what it revealed, not the tray
    page.wait_for_selector("#deal-result")
    assert page.evaluate("document.activeElement.id") == "deal-result"
    page.click("#share-challenge")
    challenge = page.input_value("#share-address")
    assert challenge.startswith(f"{base_url}/#/link/1c") and len(challenge) < len(base_url) + 180
    assert page.evaluate("document.activeElement.id") == "share-address"
    page.click("#share-copy")  # copied, or the page says to copy it from the field: never an error
    page.wait_for_selector(".toast")
    shoot(page, "share-row")
    audit(page, "the results' share row with its link")
    page.click("#share-replay")
    replay = page.input_value("#share-address")
    assert replay.startswith(f"{base_url}/#/link/1r")
    page.click("#review")
    page.click("#review-first")
    page.wait_for_function("document.querySelector('#review-where').textContent.startsWith('Move 0 ')")
    sender_review = page.evaluate(HAND), page.evaluate(SEAT_TILES), page.inner_text("#review-where")
    assert page.locator(".kit-review-panel #share-challenge").count() == 1
    shoot(page, "review-share")
    audit(page, "the review with its share row")

    other = open_app(friend, base_url, watch, "#" + challenge.split("#", 1)[1])
    other.wait_for_selector("#challenge-play")
    assert "challenges you to Dominoes" in other.inner_text("#challenge-who")
    shoot(other, "challenge")
    audit(other, "the challenge")
    other.click("#challenge-play")
    assert play_out(other) == hand  # the same deal, from the same seat
    other.wait_for_selector("#versus")
    shoot(other, "versus")
    audit(other, "the versus box")
    assert "boneyard:save:dominoes" not in local_storage(other)

    other.goto(replay)
    other.wait_for_selector("#review-where")
    other.wait_for_function("document.querySelector('#review-where').textContent.startsWith('Move 0 ')")
    assert (
        other.evaluate(HAND),
        other.evaluate(SEAT_TILES),
        other.inner_text("#review-where"),
    ) == sender_review
    shoot(other, "replay")
    audit(other, "the replay")
    other.goto(challenge[:-12])  # cut off: a message and the home screen
    other.wait_for_selector(".toast-warning")
    assert "cannot be opened" in other.inner_text(".toast-warning")
    assert other.evaluate("location.hash") in ("", "#/")
    watch.assert_clean(other)


def test_the_daily_deals_the_same_game_in_another_browser(page, friend, base_url, watch):
    """The Daily is the same deal for everyone: the link its Share copies opens it in another browser (its
    own storage, nothing shared) with the same hand at the first turn."""
    hands = []
    for browser_page in (page, open_app(friend, base_url, watch, "#/")):
        browser_page.goto(f"{base_url}/#/daily/dominoes")
        browser_page.wait_for_selector("#kit-tray")
        wait_for_human_or_end(browser_page)
        hands.append(browser_page.evaluate(HAND))
        assert browser_page.inner_text("#screen-title").startswith(("Daily", "Practice"))
    assert hands[0] and hands[0] == hands[1]
