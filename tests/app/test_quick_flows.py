"""Quick match in the app: the home and setup screens' Quick match, the modes, Looking for players, the
back button and Cancel leaving nothing at the broker, the wait in Settings (the page's app over the fake
page, the rooms' in-memory network as its online port)."""

from __future__ import annotations

import asyncio

from tests.app.conftest import Open
from tests.screens.online_pages import Network, Page


def online(port: object) -> Network:
    network = Network()
    port.room_port = Page(network, "Ann")  # type: ignore[attr-defined]
    return network


def test_quick_match_from_home_looks_then_the_back_button_leaves_the_broker(open_app: Open) -> None:
    app, port = open_app()
    network = online(port)
    port.click("#home-quick")
    port.go("#/quick")
    for game, key in (("dominoes", "match100-2"), ("dominoes", "block-2"), ("triangles", "game-4")):
        assert port.exists(f"#quick-{game}-{key}")
    assert port.exists("#quick-heptalion-hidden-3") and port.exists("#quick-heptalion-visible-2")
    port.click("#quick-dominoes-match50-2")
    port.settle(1.0)
    assert port.hash == "#/quick/dominoes"
    assert "Looking for players" in port.text() and "Dominoes · 2 players, to 50" in port.text()
    assert port.exists("#quick-cancel") and app.online.kind == "quick"
    assert [room for room in network.rooms if room.startswith("qm1-dominoes-match50-2p")]
    port.go("#/")  # the page's Back: looking stops
    assert app.online is None and not network.rooms


def test_setup_offers_quick_match_and_cancel_goes_back_to_the_modes(open_app: Open) -> None:
    app, port = open_app(hash_="#/setup/heptalion")
    network = online(port)
    assert port.exists("#quick-match")
    port.go("#/quick/heptalion")
    assert not port.exists("#quick-dominoes-match100-2")
    port.click("#quick-heptalion-visible-4")
    port.settle(1.0)
    port.click("#quick-cancel")
    assert port.hash == "#/quick/heptalion" and port.exists("#quick-picker")
    assert app.online is None and not network.rooms


def test_the_wait_before_computers_is_a_setting(open_app: Open) -> None:
    app, port = open_app(hash_="#/settings")
    online(port)
    port.change("#set-quick-wait", "20")
    assert app.settings.quick_wait == 20
    port.change("#set-quick-wait", "7")  # not one of the choices: the default stays
    assert app.settings.quick_wait == 10
    port.change("#set-quick-wait", "5")
    port.go("#/quick/triangles")
    port.click("#quick-triangles-game-2")
    port.settle(1.0)
    assert "within 5 seconds" in port.text() and app.online.config.wait_s == 5.0


def test_a_quick_tables_save_reopens_at_its_quick_address_never_as_a_friends_room(open_app: Open) -> None:
    from tests.app.fakes import FakeStorage
    from tests.screens.test_quick_match import Clock, quick_table
    from tests.threads import on_own_loop

    saved: dict[str, str] = {}

    async def table() -> None:
        ann, _ = await quick_table(Network(), Clock())
        ann.online.save(now=True)
        saved.update(ann.storage.items)

    on_own_loop(table)
    app, port = open_app(FakeStorage(saved))
    network = online(port)
    asyncio.set_event_loop(port.loop)  # the reopened room's tasks (asyncio.ensure_future) run on the page's
    try:
        port.go("#/room/dominoes")  # a friends' room's address: the quick table comes back, as a quick one
    finally:
        asyncio.set_event_loop(None)
    assert port.hash == "#/quick/dominoes" and app.online.kind == "host" and app.online.quick is not None
    assert "Rated" in port.text() and "Bob is reconnecting" in port.text()
    assert app.online.status == "open" and list(network.rooms) == [app.online.code]


def test_the_keyboard_lands_on_cancel_when_looking_and_back_on_the_mode_after_cancel(open_app: Open) -> None:
    """A keyboard player's focus follows Quick match: Cancel once looking (from one game's modes or from
    every game's), the mode they pressed after Cancel, Cancel again after Try again."""
    for start in ("#/quick/dominoes", "#/quick"):
        app, port = open_app()
        online(port)
        port.go(start)
        port.focus("#quick-dominoes-match50-2")
        port.click("#quick-dominoes-match50-2")  # Enter on the focused button
        port.settle(1.0)
        assert port.exists("#quick") and port.focused_id() == "quick-cancel", (start, port.focused_id())
        # "Looking for players" is said politely once; its clock, ticking inside, is not said every second.
        assert (
            port.attr("#quick-status", "role") == "status" and port.attr("#quick-time", "aria-live") == "off"
        )
        port.click("#quick-cancel")
        port.settle(0)
        assert port.exists("#quick-picker") and port.focused_id() == "quick-dominoes-match50-2", start
    port.click("#quick-dominoes-match50-2")
    port.settle(1.0)
    app.online.failure = "the broker cannot be reached"  # as when it cannot be reached
    app.render()
    port.focus("#quick-retry")
    port.click("#quick-retry")
    port.settle(1.0)
    assert port.exists("#quick-lobby") and port.focused_id() == "quick-cancel"
