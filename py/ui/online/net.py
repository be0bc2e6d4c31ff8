"""What an online room needs from outside it: a transport, the page, the app (pure: no browser here).

A room talks to the other pages through a ``Transport`` (``ui.browser.peer.BrowserTransport`` wraps
js/online.js; the tests connect pages in memory) and to its page through an ``OnlinePort`` (the
address, the clipboard, the turn marks the browser tests read, timers). Events arrive as ``NetEvent``
texts from the transport, are queued and handled one at a time, in order (``Inbox``): a room never
handles an event while it is still handling another, and an error in its handler is reported, never
raised back into the transport. ``RoomApp`` is what a room asks of the app.
"""

from __future__ import annotations

import json
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "EVENT_TYPES",
    "Inbox",
    "NetEvent",
    "OnlinePort",
    "RoomApp",
    "Timer",
    "Transport",
    "broker_config",
    "parse_event",
]

# A channel opened (a guest's connection, or ours to the host), a message, a channel closed, an error,
# the broker's state (lost, regained): js/online.js's event types, kept as they are on the wire.
EVENT_TYPES = ("open", "message", "close", "error", "broker")
TROUBLE = "Something went wrong with a message from the room; the game is safe."


@dataclass(frozen=True)
class NetEvent:
    """One event of the transport: a channel opened or closed, a message, an error, the broker's state."""

    type: str
    peer: str = ""
    data: str = ""
    reason: str = ""


def parse_event(text: str) -> NetEvent | None:
    """Return the event a JSON text from js/online.js holds, or None when it is not one."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("type") not in EVENT_TYPES:
        return None

    def text_of(key: str) -> str:
        value = data.get(key)
        return value if isinstance(value, str) else ""

    return NetEvent(str(data["type"]), text_of("peer"), text_of("data"), text_of("reason"))


def broker_config(settings: Any) -> dict[str, Any]:
    """Return the PeerJS configuration the settings name ({} = the public broker and its STUN/TURN)."""
    for name in ("online_config", "online_broker"):
        value = getattr(settings, name, None)
        if callable(value):
            value = value()
        if isinstance(value, dict):
            return dict(value)
        if isinstance(value, str) and value.strip():
            try:
                parsed = json.loads(value)
            except ValueError:
                continue
            if isinstance(parsed, dict):
                return parsed
    return {}


class Inbox:
    """Hand a transport's events to a room's handler one at a time, in order (never re-entered)."""

    def __init__(
        self,
        handler: Callable[[NetEvent], None],
        report: Callable[[str], None],
        log: Callable[[str], None],
    ) -> None:
        self.handler = handler
        self.report = report
        self.log = log
        self.queue: deque[NetEvent] = deque()
        self.draining = False
        self.closed = False

    def put(self, event: NetEvent) -> None:
        """Queue an event and handle the queue unless a handler further up is doing so already."""
        if self.closed:
            return
        self.queue.append(event)
        if self.draining:
            return
        self.draining = True
        try:
            while self.queue and not self.closed:
                item = self.queue.popleft()
                try:
                    self.handler(item)
                except Exception:
                    self.log("Boneyard online: " + traceback.format_exc())
                    self.report(TROUBLE)
        finally:
            self.draining = False

    def close(self) -> None:
        """Handle no more events."""
        self.closed = True
        self.queue.clear()


class Transport(Protocol):
    """One page's connection to the others: as a room's host or as a guest (events go to its ``Inbox``)."""

    @property
    def closed(self) -> bool:
        """Tell whether ``close`` was called (nothing is sent or handled any more)."""

    async def host(self, room_id: str, config: dict[str, Any]) -> None:
        """Register the room at the broker; raise ConnectionError("unavailable-id") when it is taken."""

    async def join(self, room_id: str, config: dict[str, Any]) -> str:
        """Open a channel to the room's host; return the host's peer id (ConnectionError: why not)."""

    def send(self, peer: str, text: str) -> bool:
        """Send a text to a peer; return False when it was not sent (its channel is closed)."""

    def drop(self, peer: str) -> None:
        """Close one peer's channel (no ``close`` event follows)."""

    def release(self) -> None:
        """Give the registered id back to the broker and keep every open channel (quick match)."""

    async def claim(self, room_id: str, config: dict[str, Any]) -> None:
        """After ``release``, register ``room_id`` at the broker and keep every open channel (a quick match's
        table becomes a room guests reconnect to); raise ConnectionError like ``host``."""

    def close(self) -> None:
        """Leave the broker and close every channel; no more events are handled."""

    def qr_svg(self, text: str) -> str:
        """Return the QR code of ``text`` as SVG markup ("" when it cannot be drawn)."""


class Timer(Protocol):
    """A callback waiting to be called (``OnlinePort.later``)."""

    def cancel(self) -> Any:
        """Do not call it."""


class OnlinePort(Protocol):
    """What a room asks of its page: a transport, and the few things only a browser has."""

    def transport(self, handler: Callable[[NetEvent], None], report: Callable[[str], None]) -> Transport:
        """Return a new transport whose events go, in order, to ``handler`` (``report``: words for a fault)."""

    def address(self) -> str:
        """Return the page's address without its fragment (the join link is built on it)."""

    def copy(self, text: str) -> bool:
        """Put a text on the clipboard; return False when the browser refused."""

    def mark_turn(self, turn: int | None, mine: bool, legal: list[str]) -> None:
        """Mark the turn on screen on the page (None: no game) for the browser tests and the benchmark."""

    def field_value(self, element_id: str) -> str | None:
        """Return what is typed in a field of the page, or None when there is no such field."""

    def focus(self, element_id: str) -> None:
        """Move the focus to an element of the page, when it is there."""

    def console(self, text: str) -> None:
        """Log a problem to the browser's console."""

    def hold_seconds(self) -> float | None:
        """Return a shorter hold of a dropped guest's seat a browser test set on the page, or None."""

    def later(self, seconds: float, callback: Callable[[], None]) -> Timer | None:
        """Call ``callback`` once after ``seconds`` (None: no timers here, it is never called)."""

    async def public_key(self) -> str:
        """Return this player's public key (base64url of the raw P-256 point) for quick match."""

    def rated_rooms(self) -> bool:
        """Tell whether a browser test asked for friends' rooms to be rated (as quick match's tables are)."""

    def identity(self) -> Any:
        """Return the player's key pair for a rated table (a ``ui.ports.Identity``)."""


HOLD_S = 45.0  # how long a dropped guest's seat waits before the host is asked


def hold_seconds(port: OnlinePort) -> float:
    """Return how long a new room holds a dropped guest's seat: ``HOLD_S``, or a shorter positive number a
    browser test set on the page (so a test of a drop need not wait 45 s)."""
    value = port.hold_seconds()
    return value if value is not None and 0 < value < HOLD_S else HOLD_S


class RoomApp(Protocol):
    """What a room asks of the app (``ui.app.App``; the tests' stand-in): its state, its table's steps.

    ``request_render`` draws the page again (renders asked within one tick are merged); ``after_move``
    does what follows a move at the table (the room's ``moved``, the save, one render, a computer's turn).
    """

    settings: Any
    storage: Any
    stats: Any
    table_ui: dict[str, Any]  # each table's UI state (ui.table_screen.TableState), dropped for a new game
    generation: int
    route: Any
    online: Any

    def report(self, kind: str, message: str) -> None:
        """Show a toast."""

    def announce(self, message: str) -> None:
        """Read a message out to screen readers."""

    def request_render(self) -> None:
        """Draw the page again."""

    def cue(self, session: Any, *, by_computer: bool) -> None:
        """Play the sound of the move just made."""

    def after_move(self, session: Any) -> None:
        """Save, count a finished game, draw, and start the computer if it is to move."""

    def refused(self, session: Any, message: str) -> None:
        """Show why a move was refused."""

    def today(self) -> str:
        """Return today's date as the stats write it."""

    def close_online(self) -> None:
        """Leave the online room this page is in."""

    def go(self, hash_: str) -> None:
        """Navigate to a screen."""

    def screen(self, game_id: str) -> Any:
        """Return a game's table screen, or None."""

    def context(self, session: Any) -> Any:
        """Return what a table screen may use."""
