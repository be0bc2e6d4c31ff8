"""Online rooms end to end: two browser contexts (a host and a guest, each its own storage) meet through
the real PeerJS broker on 127.0.0.1 and play whole games over WebRTC, by clicking the normal tables.

The host's page runs the game and any bots; the guest's table is drawn from the views it receives.
Each page marks the turn on screen (``html[data-online-turn]``) and when it drew it
(``window.boneyardOnlineDrawn``), which the latency benchmark reads.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import READY, READY_TIMEOUT_MS, Watch, new_context, watch_page
from .peer import online_settings_script, peer_broker  # noqa: F401

MAX_TURNS = 600
FAST = """
(() => {
  const saved = JSON.parse(localStorage.getItem("boneyard:settings") || "null") || {};
  const settings = Object.assign({}, saved.settings || {}, {speed: "fast", sound: false, name: %NAME%});
  localStorage.setItem("boneyard:settings", JSON.stringify(Object.assign({schema: 1}, saved, {settings})));
})();
"""


def person_page(browser: Any, base_url: str, watch: Watch, broker: dict[str, Any], name: str) -> Any:
    """Return a ready page of a context of its own (its own storage), pointed at the test broker."""
    context = new_context(browser, watch)
    context.add_init_script(online_settings_script(broker))
    context.add_init_script(FAST.replace("%NAME%", json.dumps(name)))
    page = context.new_page()
    watch_page(page, watch)
    page.goto(base_url + "/#/")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    return page


@pytest.fixture(scope="module")
def people(browser: Any, base_url: str, watch: Watch, request: Any) -> Iterator[tuple[Any, Any]]:
    """Return the host's page and the guest's page (two contexts), shared by the module's tests."""
    broker = request.getfixturevalue("peer_broker")
    host = person_page(browser, base_url, watch, broker, "Ann")
    guest = person_page(browser, base_url, watch, broker, "Bob")
    yield host, guest
    for page in (host, guest):
        watch.assert_clean(page)
        page.context.close()


def create_room(
    host: Any, base_url: str, game: str, mode: str | None = None, players: int | None = None
) -> str:
    """Create a room on the host's page for ``game``; return its join link."""
    host.goto(f"{base_url}/#/setup/{game}")
    host.wait_for_selector("input[name=opponents][value=online]")
    host.check("input[name=opponents][value=online]")
    if mode is not None:
        host.select_option("#setup-mode", mode)
    if players is not None:
        host.select_option("#setup-players", str(players))
    host.click("#create-room")
    host.wait_for_selector("#room[data-room-status=open]", timeout=20_000)
    code = host.locator("#room-code").inner_text()
    assert re.fullmatch(r"[A-HJ-KM-NP-Z]{4}-[A-HJ-KM-NP-Z]{4}", code), code
    link = host.locator("#room-link").input_value()
    assert link.endswith("#/join/" + code.replace("-", ""))
    assert host.locator(".room-qr svg").count() == 1, "the room shows its QR code"
    return link


def join_room(guest: Any, link: str, name: str = "Bob") -> None:
    """Open the join link on the guest's page, give a name and join; wait for the lobby."""
    guest.goto(link)
    guest.wait_for_selector("#join-name")
    guest.fill("#join-name", name)
    guest.click("#join-room")
    guest.wait_for_selector("#join[data-join-state=lobby]", timeout=30_000)


def start(host: Any, guest: Any) -> None:
    """Start the room's game once the lobby is full; wait until both tables are up."""
    host.wait_for_selector("#room-start:not([disabled])", timeout=20_000)
    host.click("#room-start")
    for page in (host, guest):
        page.wait_for_selector("html[data-online-turn]", timeout=20_000)
        page.wait_for_selector("#online-bar")


def dominoes_turn(page: Any) -> bool:
    """Take this page's turn at a Dominoes table if it is its turn; return True when it moved."""
    if page.locator(".dom-table.is-my-turn").count() == 0:
        return False
    tiles = page.locator(".dom-hand-tile.is-playable")
    if tiles.count():
        tiles.first.click()
        if page.locator("button.dom-end.is-target").count():
            page.click("#end-L")
    elif page.locator("#draw:not([disabled])").count():
        page.click("#draw")
    elif page.locator("#pass:not([disabled])").count():
        page.click("#pass")
    else:
        return False
    return True


def over(page: Any) -> bool:
    """Tell whether the page shows the finished game."""
    return page.locator("#over-title").count() > 0


def play_dominoes(pages: list[Any], *, until_over: bool = True, turns: int = MAX_TURNS) -> int:
    """Click through a Dominoes game on every person's page; return the moves they made."""
    moves = 0
    for _ in range(turns * 4):
        if until_over and over(pages[0]) and all(over(p) for p in pages):
            return moves
        acted = False
        for page in pages:
            if page.locator("#next-hand").count():
                page.click("#next-hand")
                acted = True
            if dominoes_turn(page):
                moves += 1
                acted = True
                page.wait_for_function(
                    "document.querySelector('.dom-table.is-my-turn') === null || "
                    "document.querySelector('#over-title') !== null",
                    timeout=15_000,
                )
        if not until_over and moves >= turns:
            return moves
        if not acted:
            time.sleep(0.05)
    raise AssertionError("the online game did not end")


def turn_of(page: Any) -> int:
    """Return the turn number the page's table shows."""
    return int(page.evaluate("document.documentElement.dataset.onlineTurn || '-1'"))


def test_a_two_player_dominoes_round_between_two_browsers_by_clicking(people: tuple[Any, Any], base_url: str) -> None:
    host, guest = people
    link = create_room(host, base_url, "dominoes", "classic")
    join_room(guest, link)
    host.wait_for_selector(".lobby-seat[data-seat='1'][data-kind=guest]")
    assert "Bob" in host.locator(".lobby-seat[data-seat='1']").inner_text()
    start(host, guest)
    assert guest.locator(".dom-hand-tile").count() == 7, "the guest sees its own hand"
    play_dominoes([host, guest])
    assert turn_of(host) == turn_of(guest)
    for page in (host, guest):
        assert page.locator("#over-title").count() == 1
    # The result counts in Stats apart, by opponent.
    guest.goto(base_url + "/#/stats")
    guest.wait_for_selector(".online-record")
    assert "Ann" in guest.locator(".online-record").inner_text()


def play_by_moves(pages: list[Any], *, pick: int = 0, limit: int = MAX_TURNS) -> int:
    """Play every person's turn through the table's move path (``boneyardOnlineMove``, what a click calls),
    choosing the ``pick``-th legal move (modulo their number); return the moves made once the game is over."""
    moves = 0
    for _ in range(limit * 20):
        if all(p.evaluate("document.querySelector('#kit-results, #over-title') !== null") for p in pages):
            if all(p.get_attribute("html", "data-online-mine") == "false" for p in pages):
                return moves
        acted = False
        for page in pages:
            if page.locator("#next-hand").count():
                page.click("#next-hand")
                acted = True
            if page.get_attribute("html", "data-online-mine") != "true":
                continue
            legal = json.loads(page.get_attribute("html", "data-online-legal") or "[]")
            if not legal:
                continue
            turn = turn_of(page)
            assert page.evaluate("(m) => window.boneyardOnlineMove(m)", legal[pick % len(legal)]) == ""
            page.wait_for_function(
                f"Number(document.documentElement.dataset.onlineTurn) > {turn}", timeout=15_000
            )
            moves += 1
            acted = True
        if not acted:
            time.sleep(0.05)
    raise AssertionError("the online game did not end")


def test_triangles_between_two_browsers(people: tuple[Any, Any], base_url: str) -> None:
    host, guest = people
    link = create_room(host, base_url, "triangles")
    join_room(guest, link)
    start(host, guest)
    assert play_by_moves([host, guest]) > 0
    assert turn_of(host) == turn_of(guest)
    # Check the deal: the guest replays the game from everyone's committed numbers.
    guest.click("#deal-check-btn")
    guest.wait_for_selector("#deal-result.deal-ok")
