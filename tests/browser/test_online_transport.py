"""Online rooms' transport (js/online.js): two browser contexts meet through the real PeerJS broker on
127.0.0.1 and talk over a WebRTC data channel; a page that never opens a room asks no other host.

Each page is the real app; the test adds js/online.js to it as py/ui/browser/peer.py does when a room opens.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Watch, new_context, open_app
from .peer import online_settings_script, peer_broker, start_broker, stop_broker  # noqa: F401

ROOM = "TRANSPORT"
LOAD_ONLINE = """
() => window.BoneyardNet ? true : new Promise((resolve, reject) => {
  const tag = document.createElement("script");
  tag.src = "js/online.js";
  tag.onload = () => resolve(true);
  tag.onerror = () => reject(new Error("js/online.js did not load"));
  document.head.appendChild(tag);
})
"""
# The page keeps every event; a host echoes "echo:" messages back at once (the round-trip benchmark).
OPEN = """
async ([how, room, config]) => {
  window.netEvents = [];
  const onEvent = (text) => {
    const event = JSON.parse(text);
    window.netEvents.push(Object.assign({at: performance.timeOrigin + performance.now()}, event));
    if (how === "host" && event.type === "message" && event.data.startsWith("echo:")) {
      BoneyardNet.send(event.peer, event.data);
    }
  };
  try {
    const result = await BoneyardNet[how](room, config, onEvent);
    return {ok: true, result: result === undefined ? null : result};
  } catch (error) {
    return {ok: false, reason: error.message};
  }
}
"""
SEND = "([id, text]) => [BoneyardNet.send(id, text), performance.timeOrigin + performance.now()]"


def wait_event(page: Any, kind: str, predicate: str = "true", timeout: int = 10_000) -> dict[str, Any]:
    """Wait until the page has an event of ``kind`` for which the JS ``predicate`` (of ``e``) holds."""
    finder = f"() => (window.netEvents || []).find((e) => e.type === {json.dumps(kind)} && ({predicate}))"
    page.wait_for_function(f"() => !!({finder})()", timeout=timeout, polling=20)
    event: dict[str, Any] = page.evaluate(finder)
    return event


def online_page(browser: Any, base_url: str, watch: Watch, broker: dict[str, Any]) -> tuple[Any, Any]:
    """Open the app in a context of its own, pointed at the test broker, with js/online.js loaded."""
    context = new_context(browser, watch)
    context.add_init_script(online_settings_script(broker))
    page = open_app(context, base_url, watch)
    page.evaluate(LOAD_ONLINE)
    return context, page


@pytest.fixture(scope="module")
def pair(browser: Any, base_url: str, watch: Watch, peer_broker: dict[str, Any]) -> Iterator[tuple[Any, Any]]:  # noqa: F811
    """A host page with the room open and a guest page joined to it."""
    host_context, host = online_page(browser, base_url, watch, peer_broker)
    guest_context, guest = online_page(browser, base_url, watch, peer_broker)
    config = json.dumps(peer_broker)
    assert host.evaluate(OPEN, ["host", ROOM, config]) == {"ok": True, "result": None}
    started = time.monotonic()
    joined = guest.evaluate(OPEN, ["join", ROOM, config])
    assert joined == {"ok": True, "result": "boneyard-" + ROOM.lower()}
    assert time.monotonic() - started < 10  # under a second on an idle machine
    yield host, guest
    for page in (host, guest):
        watch.assert_clean(page)
    host_context.close()
    guest_context.close()


def guest_id(host: Any) -> str:
    """Return the peer id of the guest whose channel opened at the host."""
    return str(wait_event(host, "open")["peer"])


def test_the_page_reads_the_broker_from_settings(pair, base_url):
    host, _guest = pair
    assert json.loads(host.evaluate("localStorage.getItem('boneyard:settings')"))["schema"] == 1
    host.evaluate("location.hash = '#/settings'")
    host.wait_for_selector("#online-broker")
    assert "ws://127.0.0.1:" in host.locator("#online-broker").inner_text()
    assert host.locator("#set-online-host").input_value() == "127.0.0.1"
    host.evaluate("location.hash = '#/'")


def test_a_message_goes_each_way_in_under_a_second(pair):
    host, guest = pair
    peer = guest_id(host)
    assert wait_event(guest, "open")["peer"] == "boneyard-" + ROOM.lower()
    text = 'hello {"t": "hello", "name": "Zoë <b>"} ✓'
    # Both pages share the browser's clock: each event is stamped when it reaches the page. A page that is
    # still importing the games in the background (App.warm_up) handles it late, so the best of a few
    # tries measures the transport.
    sent, started = guest.evaluate(SEND, ["boneyard-" + ROOM.lower(), text])
    event = wait_event(host, "message", "e.data.startsWith('hello ')")
    to_host = [event.pop("at") - started]
    assert sent and event == {"type": "message", "peer": peer, "data": text, "reason": ""}  # as sent
    to_guest = []
    for i in range(5):
        sent, started = host.evaluate(SEND, [peer, f"welcome {i}"])
        event = wait_event(guest, "message", f"e.data === 'welcome {i}'")
        to_guest.append(event["at"] - started)
        assert sent and event["peer"] == "boneyard-" + ROOM.lower()
        sent, started = guest.evaluate(SEND, ["boneyard-" + ROOM.lower(), f"thanks {i}"])
        to_host.append(wait_event(host, "message", f"e.data === 'thanks {i}'")["at"] - started)
    assert min(to_host) < 1000 and min(to_guest) < 1000, (to_host, to_guest)
    assert not host.evaluate("BoneyardNet.send('nobody', 'x')")  # no such channel: nothing sent


def test_messages_keep_their_order(pair):
    host, guest = pair
    host_id = "boneyard-" + ROOM.lower()
    guest.evaluate("(id) => { for (let i = 0; i < 300; i++) BoneyardNet.send(id, 'order:' + i); }", host_id)
    host.wait_for_function("() => netEvents.filter((e) => e.data.startsWith('order:')).length === 300")
    got = host.evaluate("() => netEvents.filter((e) => e.data.startsWith('order:')).map((e) => e.data)")
    assert got == [f"order:{i}" for i in range(300)]


def test_an_oversized_message_is_dropped_before_python(pair):
    host, guest = pair
    host_id = "boneyard-" + ROOM.lower()
    before = json.loads(host.evaluate("BoneyardNet.stats()"))["dropped"]
    guest.evaluate("(id) => BoneyardNet.send(id, 'big:' + 'x'.repeat(70000))", host_id)
    guest.evaluate("(id) => BoneyardNet.send(id, 'limit:' + 'y'.repeat(65536 - 6))", host_id)
    guest.evaluate("(id) => BoneyardNet.send(id, 'after the big one')", host_id)
    wait_event(host, "message", "e.data === 'after the big one'")
    datas = host.evaluate("() => netEvents.map((e) => e.data)")
    assert not [d for d in datas if d.startswith("big:")]
    assert [len(d) for d in datas if d.startswith("limit:")] == [65536]  # the limit itself passes
    assert json.loads(host.evaluate("BoneyardNet.stats()"))["dropped"] == before + 1


def test_round_trip_benchmark(pair, capsys):
    _host, guest = pair
    times = guest.evaluate(
        """async (id) => {
          const times = [];
          for (let i = 0; i < 200; i++) {
            const tag = 'echo:' + i;
            const seen = netEvents.length;
            const started = performance.now();
            BoneyardNet.send(id, tag);
            while (!netEvents.slice(seen).some((e) => e.data === tag)) {
              await new Promise((resolve) => setTimeout(resolve, 0));
            }
            times.push(performance.now() - started);
          }
          return times;
        }""",
        "boneyard-" + ROOM.lower(),
    )
    assert len(times) == 200
    ordered = sorted(times)
    median, p95 = statistics.median(ordered), ordered[int(0.95 * len(ordered)) - 1]
    line = f"online transport round trip over 200 messages: median {median:.1f} ms, p95 {p95:.1f} ms"
    with capsys.disabled():
        print("\n" + line)
    assert median < 150, line


def test_a_qr_code_of_the_join_link(pair, base_url):
    host, _guest = pair
    svg = host.evaluate("(url) => BoneyardNet.qrSvg(url)", base_url + "/#/join/ABCDEFGH")
    assert svg.startswith('<svg class="qr" shape-rendering="crispEdges" ') and svg.endswith("</svg>")
    size = int(svg.split('viewBox="0 0 ')[1].split(" ")[0])
    assert size in (33, 37, 41)  # versions 3-5 with a quiet zone of 4: a link this long, level M
    assert 'fill="black"' in svg and "<script" not in svg
    wide = host.evaluate("() => BoneyardNet.qrSvg('Zoë ✓ ' + 'x'.repeat(100))")
    assert int(wide.split('viewBox="0 0 ')[1].split(" ")[0]) > size


def test_a_second_guest_gets_its_own_channel(pair, browser, base_url, watch, peer_broker):  # noqa: F811
    host, guest = pair
    first = guest_id(host)
    context, second = online_page(browser, base_url, watch, peer_broker)
    try:
        assert second.evaluate(OPEN, ["join", ROOM, json.dumps(peer_broker)])["ok"]
        other = str(wait_event(host, "open", f"e.peer !== {json.dumps(first)}")["peer"])
        assert json.loads(host.evaluate("BoneyardNet.stats()"))["peers"] == [first, other]
        host.evaluate(
            "([a, b]) => { BoneyardNet.send(a, 'to:first'); BoneyardNet.send(b, 'to:second'); }",
            [first, other],
        )
        wait_event(second, "message", "e.data === 'to:second'")
        wait_event(guest, "message", "e.data === 'to:first'")
        assert not second.evaluate("() => netEvents.some((e) => e.data === 'to:first')")
        assert not guest.evaluate("() => netEvents.some((e) => e.data === 'to:second')")
        host.evaluate("(id) => BoneyardNet.drop(id)", other)  # the host removes a player
        wait_event(second, "close", "true", timeout=5_000)
        assert json.loads(host.evaluate("BoneyardNet.stats()"))["peers"] == [first]
        assert not host.evaluate(
            f"() => netEvents.some((e) => e.type === 'close' && e.peer === {json.dumps(other)})"
        )
        watch.assert_clean(second)
    finally:
        context.close()


def test_the_guests_close_reaches_the_host_and_a_taken_room_id_is_refused(pair, peer_broker):  # noqa: F811
    host, guest = pair
    peer = guest_id(host)
    guest.evaluate("BoneyardNet.close()")
    event = wait_event(host, "close", f"e.peer === {json.dumps(peer)}", timeout=5_000)
    assert event["reason"] == "closed"
    assert json.loads(host.evaluate("BoneyardNet.stats()"))["peers"] == []
    assert json.loads(guest.evaluate("BoneyardNet.stats()"))["broker"] == "closed"
    taken = guest.evaluate(OPEN, ["host", ROOM.lower(), json.dumps(peer_broker)])  # the code, any case
    assert taken == {"ok": False, "reason": "unavailable-id"}
    missing = guest.evaluate(OPEN, ["join", "NOBODYHERE", json.dumps(peer_broker)])
    assert missing == {"ok": False, "reason": "peer-unavailable"}


@pytest.mark.expect_error("WebSocket connection to")  # the browser's own words while the broker is down
def test_the_host_reconnects_to_a_broker_that_restarts(browser, base_url, watch):
    process, config = start_broker()
    try:
        context, page = online_page(browser, base_url, watch, config)
        assert page.evaluate(OPEN, ["host", "RESTART", json.dumps(config)])["ok"]
        stop_broker(process)
        assert wait_event(page, "broker", "e.reason === 'lost'")["peer"] == ""
        assert json.loads(page.evaluate("BoneyardNet.stats()"))["broker"] == "lost"
        process, _ = start_broker(config["port"])
        restarted = time.monotonic()
        wait_event(page, "broker", "e.reason === 'regained'", timeout=20_000)
        assert time.monotonic() - restarted < 10  # the retries start at half a second and double
        assert json.loads(page.evaluate("BoneyardNet.stats()"))["broker"] == "open"
        page.evaluate("BoneyardNet.close()")
        watch.assert_clean(page)
        context.close()
    finally:
        stop_broker(process)


def test_a_page_that_opens_no_room_asks_no_other_host(browser, base_url):
    watch = Watch()
    context = new_context(browser, watch)
    requested: list[str] = []
    sockets: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    page = open_app(context, base_url, watch)
    page.on("websocket", lambda ws: sockets.append(ws.url))
    for hash_ in ("#/settings", "#/stats", "#/setup/dominoes", "#/rules/heptalion", "#/"):
        page.evaluate(f"location.hash = {json.dumps(hash_)}")
        page.wait_for_timeout(300)
    assert page.evaluate("typeof window.BoneyardNet + typeof window.Peer") == "undefinedundefined"
    assert not [u for u in requested if "online.js" in u or "vendor/peerjs" in u or "vendor/qrcode" in u]
    assert not sockets and not watch.foreign
    assert all(u.startswith((base_url, "data:", "blob:")) for u in requested), requested
    watch.assert_clean(page)
    context.close()


def test_settings_online_takes_a_typed_broker_address(browser, base_url):
    watch = Watch()
    context = new_context(browser, watch)
    page = open_app(context, base_url, watch, "#/settings")
    page.wait_for_selector("#online-advanced")
    assert page.locator("#online-advanced").get_attribute("open") is None  # folded until a player opens it
    page.locator("#online-advanced > summary").click()
    page.wait_for_selector("#set-online-host")
    assert "PeerJS's public broker" in page.locator("#online-broker").inner_text()
    assert page.locator("details.online-details").get_attribute("open") is None
    page.locator("#set-online-host").fill("https://Peer.Example.org:9000/rooms")
    stored = json.loads(page.evaluate("localStorage.getItem('boneyard:settings')"))["settings"]
    assert (stored["online_host"], stored["online_port"], stored["online_path"]) == (
        "peer.example.org",
        9000,
        "/rooms",
    )
    assert stored["online_secure"] is True and stored["online_key"] == "peerjs"
    page.locator("#set-online-ice").select_option("none")  # a select redraws the screen
    page.wait_for_function("document.querySelector('#online-broker').textContent.includes('wss://')")
    assert "wss://peer.example.org:9000/rooms" in page.locator("#online-broker").inner_text()
    assert page.locator("details.online-details").get_attribute("open") is not None
    assert page.locator("#set-online-port").input_value() == "9000"
    page.locator("#set-online-port").fill("99999")  # not a port: the stored one falls back to 443
    stored = json.loads(page.evaluate("localStorage.getItem('boneyard:settings')"))["settings"]
    assert stored["online_port"] == 443 and stored["online_ice"] == "none"
    page.locator("#set-online-host").fill("")
    stored = json.loads(page.evaluate("localStorage.getItem('boneyard:settings')"))["settings"]
    assert stored["online_host"] == ""
    watch.assert_clean(page)
    context.close()
