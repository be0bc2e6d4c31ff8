"""The host's room in the app (ui.online.host) under CPython: a fake page, the real HostRoom and GuestRoom,
the texts carried by hand instead of WebRTC. A guest joins, the fair deal runs, moves go both ways, the
room is saved with its game and reopens with the same code, and a leaving guest's seat goes to a bot."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from boneyard.games import GAMES
from boneyard.rooms.guest import GuestRoom
from tests.screens.online_pages import MemoryStorage, Network, Page
from tests.threads import on_own_loop
from ui.games import screen_for
from ui.online import host as online_host
from ui.online.net import NetEvent
from ui.routes import Route


def fake_app(name: str = "Ann", route: Route | None = None, storage: MemoryStorage | None = None) -> Page:
    """Return a page (app and port) on a network of its own: these tests carry the texts by hand."""
    page = Page(Network(), name, route or Route("room", "triangles"))
    if storage is not None:
        page.storage = storage
    return page


class FakeNet:
    """Keeps what the host sends instead of sending it."""

    closed = False

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def send(self, peer: str, text: str) -> None:
        self.sent.append((peer, text))

    def drop(self, peer: str) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def qr_svg(self, text: str) -> str:
        return ""


def carry(host: online_host.OnlineHost, guest: GuestRoom, peer: str = "p1") -> None:
    """Deliver every text the host sent to the guest, and the guest's answers back, until quiet."""
    net = host.net
    assert isinstance(net, FakeNet)
    while net.sent:
        to, text = net.sent.pop(0)
        assert to == peer
        for event in guest.on_message(text):
            if event.kind == "send":
                host.on_event(NetEvent("message", peer, str(event.data["text"])))


def open_room(app: Page) -> tuple[online_host.OnlineHost, GuestRoom]:
    info = GAMES["triangles"]
    screen = screen_for("triangles")
    assert screen is not None
    host = online_host.OnlineHost.create(app, info, screen, {"players": "2"}, app)
    host.net = FakeNet()  # type: ignore[assignment]
    app.online = host
    guest = GuestRoom(host.code, "Bob")
    host.on_event(NetEvent("open", "p1"))
    host.on_event(NetEvent("message", "p1", guest.hello()))
    carry(host, guest)
    return host, guest


def started_room(app: Page) -> tuple[online_host.OnlineHost, GuestRoom]:
    """Open a room, let the guest in and start the game."""
    host, guest = open_room(app)
    host.action("room-start", "")
    carry(host, guest)
    return host, guest


def test_a_guest_joins_the_deal_runs_and_moves_go_both_ways() -> None:
    async def run() -> None:
        app = fake_app()
        host, guest = open_room(app)
        assert [s["kind"] for s in host.seats] == ["host", "guest"] and host.start_ok
        host.action("room-start", "")
        carry(host, guest)
        session = host.session
        assert session is not None and [s.kind for s in session.seats] == ["human", "guest"]
        assert guest.view == session.state.view(1), "the guest has exactly its seat's view"
        for _ in range(6):
            if session.state.is_over():
                break
            move = str(session.state.legal_moves()[0])
            if session.to_move() == 0:
                assert host.human_move(session, move)
            else:
                assert not host.human_move(session, move), "the host cannot play the guest's seat"
                host.on_event(NetEvent("message", "p1", guest.move(move)))
            carry(host, guest)
            assert guest.view == session.state.view(1)
        await asyncio.sleep(0.01)  # the save after a move
        saved = json.loads(app.storage.items[online_host.HOST_KEY + "triangles"])
        assert saved["room"]["code"] == host.code and saved["session"]["extra"]["online"] == host.code
        reloaded = fake_app(storage=app.storage)
        again = online_host.reopen(reloaded, "triangles", reloaded)
        assert again is not None and again.code == host.code and again.session is not None
        assert again.session.state.to_dict() == session.state.to_dict()
        assert [s.kind for s in again.session.seats] == ["human", "guest"]
        again.net = FakeNet()  # type: ignore[assignment]
        back = GuestRoom(host.code, "Bob", guest.token)  # the guest's page reloaded too: its token
        again.on_event(NetEvent("open", "p9"))
        again.on_event(NetEvent("message", "p9", back.hello()))
        carry(again, back, "p9")
        assert back.seat == 1 and back.view == again.session.state.view(1), "the seat came back"
        if again.connecting is not None:
            again.connecting.cancel()

    on_own_loop(run)  # not asyncio.run: after the browser tests a loop may be set in this thread


def test_a_leaving_guest_is_asked_about_and_a_bot_plays_on() -> None:
    async def run() -> None:
        host, guest = started_room(fake_app())
        host.on_event(NetEvent("message", "p1", guest.leave()))
        assert host.deciding == {1: "Bob"}
        host.action("room-bot", "1")
        session = host.session
        assert session is not None and session.seats[1].is_computer and session.online
        assert host.deciding == {}

    on_own_loop(run)  # not asyncio.run: after the browser tests a loop may be set in this thread


def test_seats_and_waiting_words() -> None:
    lobby = [
        {"seat": 0, "name": "Ann", "kind": "host", "status": "connected"},
        {"seat": 1, "name": None, "kind": "bot", "level": "hard", "status": "connected"},
        {"seat": 2, "name": "Bob", "kind": "guest", "status": "reconnecting"},
    ]
    seats = online_host.session_seats(lobby, 0)
    assert [(s.kind, s.name) for s in seats] == [
        ("human", "Ann"),
        ("computer", "Computer 1 (Hard)"),
        ("guest", "Bob"),
    ]
    assert online_host.waiting_for(lobby, "lobby") == "Waiting for a player to reconnect."
    assert "1 more player" in online_host.waiting_for([{"kind": "open", "status": "open"}], "lobby")


def test_the_deal_checks_out_for_an_honest_host_and_not_for_a_changed_seed() -> None:
    async def run() -> None:
        host, guest = started_room(fake_app())
        session = host.session
        assert session is not None
        for _ in range(400):
            if session.state.is_over():
                break
            move = str(session.state.legal_moves()[0])
            if session.to_move() == 0:
                host.human_move(session, move)
            else:
                host.on_event(NetEvent("message", "p1", guest.move(move)))
            carry(host, guest)
        assert session.state.is_over() and guest.proof is not None, "the proof comes with the end"
        assert guest.check_deal() == (True, "") or guest.check_deal()[0]
        guest.proof = {**guest.proof, "seed": guest.proof["seed"] ^ 1}
        ok, reason = guest.check_deal()
        assert not ok and reason

    on_own_loop(run)  # not asyncio.run: after the browser tests a loop may be set in this thread


class GuestNet(FakeNet):
    """A guest's transport: keeps what it sends; ``up`` False is a closed channel (send says so)."""

    up = True

    def send(self, peer: str, text: str) -> bool:  # type: ignore[override]
        if self.up:
            self.sent.append((peer, text))
        return self.up


def guest_page(host: online_host.OnlineHost, name: str = "Bob") -> Any:
    """Return a guest's page (OnlineGuest on a fake app of its own) seated in ``host``'s room as "p1"."""
    from ui.online.join import OnlineGuest

    app = fake_app(name, Route("join", host.code))
    page = OnlineGuest(app, host.code, name, app)
    page.net = GuestNet()  # type: ignore[assignment]
    app.online = page
    page.host_peer = "host"
    host.on_event(NetEvent("open", "p1"))
    page.net.send("host", page.room.hello())
    between(host, page)
    return page


def host_and_guest_page() -> tuple[online_host.OnlineHost, Any]:
    """Return a Triangles room's host and a guest's page seated in it (the lobby)."""
    app = fake_app()
    info, screen = GAMES["triangles"], screen_for("triangles")
    host = online_host.OnlineHost.create(app, info, screen, {"players": "2"}, app)  # type: ignore[arg-type]
    host.net = FakeNet()  # type: ignore[assignment]
    app.online = host
    return host, guest_page(host)


def between(host: online_host.OnlineHost, page: Any) -> None:
    """Carry every text both ways between the host's page and a guest's page until quiet."""
    while host.net.sent or page.net.sent:  # type: ignore[attr-defined]
        while page.net.sent:
            _to, text = page.net.sent.pop(0)
            host.on_event(NetEvent("message", "p1", text))
        while host.net.sent:  # type: ignore[attr-defined]
            to, text = host.net.sent.pop(0)  # type: ignore[attr-defined]
            if to == "p1":
                page.on_event(NetEvent("message", "host", text))


def test_a_removed_guests_page_never_writes_its_seat_back() -> None:
    async def run() -> None:
        host, page = host_and_guest_page()
        key = "boneyard:online:token:" + host.code
        assert page.state == "lobby" and key in page.app.storage.items
        host.action("room-remove", "1")
        between(host, page)
        assert page.state == "removed" and key not in page.app.storage.items
        page.save(now=True)  # what the page does when it is hidden (a reload, a closed tab)
        assert key not in page.app.storage.items, "the removed seat's token came back"
        shown = str(page.markup())
        assert 'id="join-retry"' not in shown, "nothing offers to come back"
        assert "Bob" not in shown, "the lobby it was removed from is not shown as if it were still in it"

    on_own_loop(run)


def test_a_guests_move_while_the_host_reconnects_is_refused_in_words() -> None:
    async def run() -> None:
        from ui.online.join import LOST_MOVE, RECONNECTING_MOVE

        host, page = host_and_guest_page()
        host.action("room-start", "")
        between(host, page)
        session, mine = host.session, page.session
        assert session is not None and mine is not None
        while not mine.local_to_move():
            assert host.human_move(session, session.state.legal_moves()[0])
            between(host, page)
        turn = mine.state.turn_number
        # The host's page reloads: the channel closes, and the guest clicks a move meanwhile.
        page.on_event(NetEvent("close", "host"))
        if page.joining is not None:
            page.joining.cancel()
        assert page.state == "reconnecting"
        assert "host is reconnecting" in page.bar_note()
        move = mine.state.legal_moves()[0]
        assert page.human_move(mine, move) is False
        assert page.app.refusals[-1] == RECONNECTING_MOVE
        assert page.net.sent == [] and mine.pending is None, "nothing was sent, nothing is stuck"
        # The channel is back, but a move sent just as the host went away never arrived.
        page.host_peer, page.state = "host", "playing"
        page.net.up = False
        assert page.human_move(mine, move) is False and page.app.refusals[-1] == RECONNECTING_MOVE
        page.net.up = True
        assert page.human_move(mine, move) is True
        page.net.sent.clear()  # lost on the way: the host reloads before it reads it
        host.on_event(NetEvent("close", "p1"))
        host.on_event(NetEvent("open", "p1"))
        page.net.send("host", page.room.hello())
        between(host, page)
        assert mine.state.turn_number == turn and mine.local_to_move()
        assert page.app.refusals[-1] == LOST_MOVE
        assert page.human_move(mine, move) is True
        between(host, page)
        assert session.state.turn_number == turn + 1, "the move played the second time"

    on_own_loop(run)
