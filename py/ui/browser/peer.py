"""The online rooms' port in the browser: ``window.BoneyardNet`` (js/online.js) as a ``Transport``, and
the page's address, clipboard, turn marks, fields and timers as an ``OnlinePort`` (``ui.online.net``).

js/online.js is a classic script the page fetches only when a player opens or joins a room, so no other
screen ever contacts a broker. Its events arrive as JSON texts and go through an ``Inbox``: handled one
at a time, in order, an error reported, never raised back into JavaScript.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_proxy, jsnull
from pyscript import document, window

from ..online.net import Inbox, NetEvent, Timer, parse_event
from .clipboard import copy_text
from .scripts import global_of, load_script

__all__ = ["HOLD_HOOK", "RATED_HOOK", "BrowserTransport", "RoomPort"]

SCRIPT = "js/online.js"
HOLD_HOOK = "boneyardOnlineHoldS"  # test hook: a shorter hold (seconds) set on window before a room opens
RATED_HOOK = "boneyardRatedRooms"  # test hook: true on window before a room opens makes it a rated table


def _net() -> Any:
    """Return window.BoneyardNet, or None before js/online.js has loaded."""
    return global_of("BoneyardNet")


def _reason(exc: BaseException) -> str:
    """Return the words of a rejected JavaScript promise (e.g. "unavailable-id")."""
    text = str(exc)
    for prefix in ("Error: ", "JsException: "):
        text = text.replace(prefix, "")
    return text.strip() or "the connection failed"


class BrowserTransport:
    """One connection to the broker through js/online.js: as a room's host or as a guest."""

    def __init__(self, handler: Callable[[NetEvent], None], report: Callable[[str], None]) -> None:
        self.inbox = Inbox(handler, report, lambda text: window.console.error(text))
        self._proxy: Any = None

    @property
    def closed(self) -> bool:
        """Tell whether ``close`` was called."""
        return self.inbox.closed

    # -- loading ------------------------------------------------------------------------------------
    @staticmethod
    async def load() -> Any:
        """Load js/online.js (once) and PeerJS behind it; return window.BoneyardNet."""
        net = await load_script(SCRIPT, "boneyard-online-js", "BoneyardNet")
        if net is None:
            raise ConnectionError("The online part of Boneyard could not be loaded.")
        await net.ready()
        return net

    def _callback(self) -> Any:
        if self._proxy is None:
            self._proxy = create_proxy(self.receive)
        return self._proxy

    # -- connecting -----------------------------------------------------------------------------------
    async def host(self, room_id: str, config: dict[str, Any]) -> None:
        """Register the room at the broker; raise ConnectionError("unavailable-id") when it is taken."""
        net = await self.load()
        try:
            await net.host(room_id, json.dumps(config), self._callback())
        except Exception as exc:
            raise ConnectionError(_reason(exc)) from None

    async def join(self, room_id: str, config: dict[str, Any]) -> str:
        """Open a channel to the room's host; return the host's peer id."""
        net = await self.load()
        try:
            return str(await net.join(room_id, json.dumps(config), self._callback()))
        except Exception as exc:
            raise ConnectionError(_reason(exc)) from None

    # -- traffic ------------------------------------------------------------------------------------------
    def receive(self, text: Any) -> None:
        """Take an event from JavaScript (a JSON text); junk is ignored, never raised into JS."""
        event = parse_event(str(text))
        if event is not None:
            self.inbox.put(event)

    def send(self, peer: str, text: str) -> bool:
        """Send a text to a peer; return False when it was not sent (its channel is closed)."""
        net = _net()
        if self.closed or net is None:
            return False
        try:
            return bool(net.send(peer, text))
        except Exception:
            window.console.warn("Boneyard online: could not send: " + traceback.format_exc())
            return False

    def drop(self, peer: str) -> None:
        """Close one peer's channel."""
        net = _net()
        if net is not None:
            net.drop(peer)

    def release(self) -> None:
        """Give our id back to the broker and keep every open channel (a quick match's table started)."""
        net = _net()
        if net is not None and not self.closed:
            try:
                net.release()
            except Exception:
                window.console.warn("Boneyard online: " + traceback.format_exc())

    async def claim(self, room_id: str, config: dict[str, Any]) -> None:
        """After ``release``, register ``room_id`` at the broker and keep every open channel."""
        net = await self.load()
        try:
            await net.claim(room_id, json.dumps(config))
        except Exception as exc:
            raise ConnectionError(_reason(exc)) from None

    def close(self) -> None:
        """Leave the broker and close every channel; no more events are handled."""
        self.inbox.close()
        net = _net()
        if net is not None:
            try:
                net.close()
            except Exception:
                window.console.warn("Boneyard online: " + traceback.format_exc())

    def qr_svg(self, text: str) -> str:
        """Return the QR code of ``text`` as SVG markup (empty before js/online.js has loaded)."""
        net = _net()
        if net is None:
            return ""
        try:
            return str(net.qrSvg(text))
        except Exception:
            return ""


class RoomPort:
    """The page as an online room sees it (``ui.online.net.OnlinePort``)."""

    def transport(
        self, handler: Callable[[NetEvent], None], report: Callable[[str], None]
    ) -> BrowserTransport:
        """Return a new transport over js/online.js."""
        return BrowserTransport(handler, report)

    async def public_key(self) -> str:
        """Return this player's public key (js/identity.js), or a throwaway one when the browser keeps no
        identity (a private window): quick match needs a key, a rated game the kept one."""
        key = await self.identity().public_key()
        if key is not None:
            return str(key)
        net = await BrowserTransport.load()
        return str(await net.ephemeralKey())

    def address(self) -> str:
        """Return the page's address without its fragment."""
        return str(window.location.href).split("#")[0]

    def copy(self, text: str) -> bool:
        """Put a text on the clipboard; return False when the browser refused."""
        return copy_text(text)

    def mark_turn(self, turn: int | None, mine: bool, legal: list[str]) -> None:
        """Write the turn on screen and when it was drawn on the page's root (for tests and timing)."""
        root = document.documentElement
        if turn is None:
            root.removeAttribute("data-online-turn")
            root.removeAttribute("data-online-mine")
            return
        root.setAttribute("data-online-mine", "true" if mine else "false")
        root.setAttribute("data-online-legal", json.dumps(legal))
        if root.getAttribute("data-online-turn") != str(turn):
            root.setAttribute("data-online-turn", str(turn))
            window.boneyardOnlineDrawn = window.Date.now()

    def field_value(self, element_id: str) -> str | None:
        """Return what is typed in a field of the page, or None when there is no such field."""
        field = document.getElementById(element_id)
        if field is None or field is jsnull or not hasattr(field, "value"):
            return None
        return str(field.value)

    def focus(self, element_id: str) -> None:
        """Move the focus to an element of the page, when it is there."""
        element = document.getElementById(element_id)
        if element is not None and element is not jsnull and hasattr(element, "focus"):
            element.focus()

    def console(self, text: str) -> None:
        """Log a problem to the browser's console."""
        window.console.error("Boneyard online: " + text)

    def hold_seconds(self) -> float | None:
        """Return the number a browser test put in ``window.boneyardOnlineHoldS``, or None."""
        try:
            raw = getattr(window, HOLD_HOOK)
        except Exception:
            return None
        # Only a real number counts (a JS number arrives as int or float).
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            return None
        return float(raw)

    def rated_rooms(self) -> bool:
        """Tell whether a test set ``window.boneyardRatedRooms`` true (its friends' rooms are rated)."""
        try:
            return getattr(window, RATED_HOOK) is True
        except Exception:
            return False

    def identity(self) -> Any:
        """Return the player's key pair (js/identity.js)."""
        from .identity import IDENTITY

        return IDENTITY

    def later(self, seconds: float, callback: Callable[[], None]) -> Timer | None:
        """Call ``callback`` once after ``seconds`` on the page's event loop."""
        try:
            return asyncio.get_running_loop().call_later(max(0.0, seconds), callback)
        except RuntimeError:
            return None
