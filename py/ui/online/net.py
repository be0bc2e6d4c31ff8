"""The Python side of ``window.BoneyardNet`` (js/online.js): load it on demand, queue its events, send.

js/online.js is a classic script the page fetches only when a player opens or joins a room, so no other
screen ever contacts a broker. Events from JavaScript arrive as JSON texts; they are queued and handled
one at a time, in order, by the handler the room gives, and an error in the handler is reported, never
raised back into JavaScript.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Net", "NetEvent", "broker_config", "parse_event"]

SCRIPT = "js/online.js"
EVENT_TYPES = ("open", "message", "close", "error", "broker")


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


class Net:
    """One connection to the broker: as a room's host or as a guest; events go to ``handler``."""

    def __init__(self, handler: Callable[[NetEvent], None], report: Callable[[str], None]) -> None:
        self.handler = handler
        self.report = report
        self.queue: deque[NetEvent] = deque()
        self.draining = False
        self.closed = False
        self._proxy: Any = None

    # -- loading ------------------------------------------------------------------------------------
    @staticmethod
    async def load() -> Any:
        """Load js/online.js (once) and PeerJS behind it; return window.BoneyardNet."""
        from pyscript import document, window

        net = getattr(window, "BoneyardNet", None)
        if net is None:
            done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            from pyodide.ffi import create_once_callable, jsnull

            script = document.getElementById("boneyard-online-js")
            if script is None or script is jsnull:
                script = document.createElement("script")
                script.id = "boneyard-online-js"
                script.src = SCRIPT
                script.addEventListener("load", create_once_callable(lambda _e: done.set_result(True)))
                script.addEventListener("error", create_once_callable(lambda _e: done.set_result(False)))
                document.head.appendChild(script)
                if not await done:
                    raise ConnectionError("The online part of Boneyard could not be loaded.")
            else:
                for _ in range(200):
                    if getattr(window, "BoneyardNet", None) is not None:
                        break
                    await asyncio.sleep(0.05)
            net = getattr(window, "BoneyardNet", None)
            if net is None:
                raise ConnectionError("The online part of Boneyard could not be loaded.")
        await net.ready()
        return net

    def _callback(self) -> Any:
        from pyodide.ffi import create_proxy

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
        """Queue an event from JavaScript and handle the queue in order (never raises into JS)."""
        if self.closed:
            return
        event = parse_event(str(text))
        if event is None:
            return
        self.queue.append(event)
        if self.draining:
            return
        self.draining = True
        try:
            while self.queue:
                item = self.queue.popleft()
                try:
                    self.handler(item)
                except Exception:
                    from pyscript import window

                    window.console.error("Boneyard online: " + traceback.format_exc())
                    self.report("Something went wrong with a message from the room; the game is safe.")
        finally:
            self.draining = False

    def send(self, peer: str, text: str) -> bool:
        """Send a text to a peer; return False when it was not sent (its channel is closed)."""
        if self.closed:
            return False
        from pyscript import window

        net = getattr(window, "BoneyardNet", None)
        if net is not None:
            try:
                return bool(net.send(peer, text))
            except Exception:
                window.console.warn("Boneyard online: could not send: " + traceback.format_exc())
        return False

    def drop(self, peer: str) -> None:
        """Close one peer's channel."""
        from pyscript import window

        net = getattr(window, "BoneyardNet", None)
        if net is not None:
            net.drop(peer)

    def close(self) -> None:
        """Leave the broker and close every channel; no more events are handled."""
        self.closed = True
        self.queue.clear()
        from pyscript import window

        net = getattr(window, "BoneyardNet", None)
        if net is not None:
            try:
                net.close()
            except Exception:
                window.console.warn("Boneyard online: " + traceback.format_exc())

    @staticmethod
    def qr_svg(text: str) -> str:
        """Return the QR code of ``text`` as SVG markup (empty before js/online.js has loaded)."""
        from pyscript import window

        net = getattr(window, "BoneyardNet", None)
        if net is None:
            return ""
        try:
            return str(net.qrSvg(text))
        except Exception:
            return ""


def _reason(exc: BaseException) -> str:
    """Return the words of a rejected JavaScript promise (e.g. "unavailable-id")."""
    text = str(exc)
    for prefix in ("Error: ", "JsException: "):
        text = text.replace(prefix, "")
    return text.strip() or "the connection failed"
