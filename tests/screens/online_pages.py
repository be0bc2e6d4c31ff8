"""Online pages under CPython: the real OnlineHost and OnlineGuest over an in-memory network.

``Network`` stands for the broker and the WebRTC channels: a host registers its room's code, a guest
joins it (the host sees its channel open), and every text sent is queued and delivered later, in order,
through each page's ``Inbox`` (as js/online.js delivers events one at a time). ``Page`` is what a room
sees of its page and of the app (``ui.online.net.OnlinePort`` and ``RoomApp``): it mirrors what
``ui.app.App`` does around a room (``after_move``: the room's ``moved``, the save, one render; a render
draws the room's markup and runs its ``after_render``) and counts renders. ``Network.counts`` counts the
texts sent; ``encodes`` counts the views the host encodes.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from boneyard.games import GAMES
from boneyard.rooms import host as room_host
from boneyard.settings import Settings
from tests.identity import FakeIdentity
from ui import intents
from ui.games import screen_for
from ui.online import host as online_host
from ui.online import join as online_join
from ui.online.net import Inbox, NetEvent
from ui.routes import Route
from ui.session import Session
from ui.table_screen import TableContext, TableState


class MemoryStorage:
    """The part of ui.storage.Storage a room uses."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, value: str) -> bool:
        self.items[key] = value
        return True

    def remove(self, key: str) -> None:
        self.items.pop(key, None)

    def move_aside(self, key: str, text: str, why: str) -> None:
        self.items.pop(key, None)

    def update_stats(self, change: Any) -> tuple[Any, Any]:
        from boneyard.stats import Stats

        stats = Stats()
        return stats, change(stats)


class Network:
    """The broker and the channels between pages, in memory (see the module)."""

    def __init__(self) -> None:
        self.rooms: dict[str, MemoryTransport] = {}
        self.queue: deque[tuple[MemoryTransport, NetEvent]] = deque()
        self.sent: list[tuple[str, str, str]] = []  # (from, to, text) of every text sent
        self.watch: Callable[[str, str, str], None] | None = None  # told of every text as it is sent
        self.ids = itertools.count(1)

    def deliver(self) -> int:
        """Deliver every queued event (and what they make the pages send) until quiet; return how many."""
        count = 0
        while self.queue:
            target, event = self.queue.popleft()
            count += 1
            target.inbox.put(event)
        return count

    async def settle(self) -> None:
        """Let the pages' tasks run and deliver everything, until nothing moves."""
        for _ in range(50):
            await asyncio.sleep(0)
            if not self.deliver() and not self.queue:
                await asyncio.sleep(0)
                if not self.queue:
                    return


class MemoryTransport:
    """One page's transport on a ``Network`` (``ui.online.net.Transport``)."""

    def __init__(self, network: Network, handler: Callable[[NetEvent], None], report: Callable[[str], None]):
        self.network = network
        self.inbox = Inbox(handler, report, lambda text: None)
        self.id = f"peer-{next(network.ids)}"
        self.peers: dict[str, MemoryTransport] = {}
        self.room = ""

    @property
    def closed(self) -> bool:
        return self.inbox.closed

    async def host(self, room_id: str, config: dict[str, Any]) -> None:
        if room_id in self.network.rooms:
            raise ConnectionError("unavailable-id")
        self.network.rooms[room_id] = self
        self.room = room_id

    async def join(self, room_id: str, config: dict[str, Any]) -> str:
        host = self.network.rooms.get(room_id)
        if host is None or host.closed:
            raise ConnectionError("peer-unavailable")
        self.peers[host.id] = host
        host.peers[self.id] = self
        self.network.queue.append((host, NetEvent("open", self.id)))
        self.network.queue.append((self, NetEvent("open", host.id)))  # js/online.js tells the joiner too
        return host.id

    def send(self, peer: str, text: str) -> bool:
        other = self.peers.get(peer)
        if self.closed or other is None or other.closed:
            return False
        self.network.sent.append((self.id, peer, text))
        if self.network.watch is not None:
            self.network.watch(self.id, peer, text)
        self.network.queue.append((other, NetEvent("message", self.id, text)))
        return True

    def drop(self, peer: str) -> None:
        other = self.peers.pop(peer, None)
        if other is not None and other.peers.pop(self.id, None) is not None:
            self.network.queue.append((other, NetEvent("close", self.id)))

    def release(self) -> None:
        if self.network.rooms.get(self.room) is self:
            del self.network.rooms[self.room]

    async def claim(self, room_id: str, config: dict[str, Any]) -> None:
        assert self.network.rooms.get(self.room) is not self, "claim follows release"
        await self.host(room_id, config)

    def close(self) -> None:
        if self.closed:
            return
        for peer in list(self.peers):
            self.drop(peer)
        self.inbox.close()
        if self.network.rooms.get(self.room) is self:
            del self.network.rooms[self.room]

    def qr_svg(self, text: str) -> str:
        return "<svg></svg>"


@dataclass
class FakeTimer:
    """A callback a page's port holds until the test runs it."""

    due: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Page:
    """One browser page: the port and the app as a room sees them (see the module)."""

    network: Network
    name: str = "Ann"
    route: Route = field(default_factory=lambda: Route("home", ""))
    storage: MemoryStorage = field(default_factory=MemoryStorage)
    settings: Settings = field(init=False)
    stats: Any = None
    table_ui: dict[str, TableState] = field(default_factory=dict)
    generation: int = 0
    online: Any = None
    renders: int = 0
    markup: str = ""
    reports: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    timers: list[FakeTimer] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    turn: tuple[int | None, bool, list[str]] = (None, False, [])
    console_lines: list[str] = field(default_factory=list)
    ident: Any = None  # the browser's key pair (tests.identity.FakeIdentity), made when first asked

    def __post_init__(self) -> None:
        self.settings = Settings(name=self.name)

    def identity(self) -> Any:
        if self.ident is None:
            self.ident = FakeIdentity(self.name)
        return self.ident

    # -- the port ---------------------------------------------------------------------------------
    def transport(
        self, handler: Callable[[NetEvent], None], report: Callable[[str], None]
    ) -> MemoryTransport:
        return MemoryTransport(self.network, handler, report)

    def address(self) -> str:
        return "http://127.0.0.1:8000/"

    def copy(self, text: str) -> bool:
        return True

    def mark_turn(self, turn: int | None, mine: bool, legal: list[str]) -> None:
        self.turn = (turn, mine, legal)

    def field_value(self, element_id: str) -> str | None:
        return self.fields.get(element_id)

    def focus(self, element_id: str) -> None:
        pass

    def console(self, text: str) -> None:
        self.console_lines.append(text)

    def hold_seconds(self) -> float | None:
        return None

    async def public_key(self) -> str:
        """Return this page's player's public key (a fresh P-256 key for each page)."""
        from tests.test_rating import Player

        return Player.make(self.name).key

    def rated_rooms(self) -> bool:
        return False

    def later(self, seconds: float, callback: Callable[[], None]) -> FakeTimer:
        timer = FakeTimer(seconds, callback)
        self.timers.append(timer)
        return timer

    def run_timers(self) -> int:
        """Run the timers waiting now (as if their time had come); return how many ran."""
        waiting, self.timers = self.timers, []
        ran = 0
        for timer in waiting:
            if not timer.cancelled:
                timer.callback()
                ran += 1
        return ran

    # -- the app ----------------------------------------------------------------------------------
    def report(self, kind: str, message: str) -> None:
        self.reports.append(message)

    def announce(self, message: str) -> None:
        pass

    def request_render(self) -> None:
        """Draw the page as App.render does: the room's markup, then its after_render."""
        self.renders += 1
        if self.online is not None and self.route.screen in ("room", "join", "quick"):
            self.markup = str(self.online.markup())
            self.online.after_render()

    def cue(self, session: Any, *, by_computer: bool) -> None:
        pass

    def human_move(self, session: Session, move: Any) -> bool:
        """App.human_move's online branch: the room plays it."""
        return bool(self.online.human_move(session, move))

    def after_move(self, session: Session) -> None:
        """App.after_move for an online game: the room's moved, the save or the count, one render."""
        self.online.moved(session)
        if session.state.is_over():
            self.online.finish(session)
        else:
            self.online.save()
        self.request_render()

    def refused(self, session: Any, message: str) -> None:
        self.refusals.append(message)
        self.request_render()

    def today(self) -> str:
        return "2026-12-04"

    def close_online(self) -> None:
        online, self.online = self.online, None
        if online is not None:
            online.close()

    def go(self, hash_: str) -> None:
        pass

    def screen(self, game_id: str) -> Any:
        return screen_for(game_id)

    def context(self, session: Session) -> TableContext:
        game_id = session.info.id
        if game_id not in self.table_ui:
            screen = screen_for(game_id)
            self.table_ui[game_id] = screen.new_state() if screen is not None else TableState()
        return TableContext(
            session=session,
            settings=self.settings,
            ui=self.table_ui[game_id],
            animations=False,
            emit=lambda intent: self.dispatch(session, intent),
        )

    def dispatch(self, session: Session, intent: intents.Intent) -> None:
        """Carry out what the table asks, as ``App.dispatch`` does for what a room's table asks."""
        if isinstance(intent, intents.Play):
            screen = screen_for(session.info.id)
            if self.human_move(session, intent.move) and screen is not None:
                for then in screen.on_played(self.context(session), intent.move):
                    self.dispatch(session, then)
        elif isinstance(intent, intents.Announce):
            self.announce(intent.text)
        elif isinstance(intent, intents.Refuse):
            self.refused(session, intent.reason)
        elif isinstance(intent, intents.Render):
            self.request_render()


def host_page(
    network: Network, game: str = "triangles", players: int = 2, name: str = "Ann", *, rated: bool = False
) -> Page:
    """Return a page that hosts a room of ``game`` (not yet registered: ``settle`` does it)."""
    page = Page(network, name, Route("room", game))
    info, screen = GAMES[game], screen_for(game)
    assert screen is not None
    page.online = online_host.OnlineHost.create(
        page, info, screen, {"players": str(players)}, page, rated=rated
    )
    page.online.connect()
    return page


def guest_page(network: Network, code: str, name: str) -> Page:
    """Return a page that joins room ``code`` as ``name`` (connecting: ``settle`` does it)."""
    page = Page(network, name, Route("join", code))
    page.online = online_join.OnlineGuest(page, code, name, page)
    page.online.connect()
    return page


async def room_at_table(
    game: str = "triangles", guests: tuple[str, ...] = ("Bob",), *, rated: bool = False
) -> tuple[Network, Page, list[Page]]:
    """Return a network, a host's page and its guests' pages, the game dealt and every page at its table."""
    network = Network()
    host = host_page(network, game, players=1 + len(guests), rated=rated)
    await network.settle()
    pages = []
    for name in guests:
        pages.append(guest_page(network, host.online.code, name))
        await network.settle()
    host.online.action("room-start", "")
    await network.settle()
    assert host.online.session is not None and all(p.online.session is not None for p in pages)
    return network, host, pages


def seat_of(page: Page) -> int:
    """Return the seat of a page's person."""
    online = page.online
    return int(online.room.host_seat if online.kind == "host" else online.room.seat)


@contextmanager
def counting_encodes() -> Iterator[Counter[str]]:
    """Count the texts the host's room encodes, by kind."""
    counts: Counter[str] = Counter()
    original = room_host.encode

    def encode(kind: str, **fields: Any) -> str:
        counts[kind] += 1
        return original(kind, **fields)

    room_host.encode = encode  # type: ignore[assignment]
    try:
        yield counts
    finally:
        room_host.encode = original  # type: ignore[assignment]
