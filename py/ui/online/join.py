"""A guest's online room in the page: ``GuestRoom`` over the transport, and the table from its views.

The guest's page never holds the game: ``RemoteSession`` (``ui.online.remote``) draws the table from the
views the host sends, a click becomes one ``move`` text to the host, and the host's next view (or its
refusal) answers it: the page draws once, when that answer arrives. The guest's token, seat and the
secrets of the fair deal are kept under ``boneyard:online:token:<CODE>``, so a reload or the link opened
again takes the same seat back. When the channel closes, the page keeps trying to join again (the host
may be reloading). Each event from the transport draws the page at most once, however many things it
changed; the browser is reached only through the ``OnlinePort`` given.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from boneyard.games import GAMES
from boneyard.rooms import protocol
from boneyard.rooms.guest import Event, GuestRoom

from ..html import Markup, h, join
from ..session import Session
from . import chat
from . import screens as online_screens
from .host import (
    chat_action,
    clear_pops_later,
    count_online,
    host_seat,
    mark_turn,
    redraw_soon,
    table_markup,
)
from .net import NetEvent, OnlinePort, RoomApp, Timer, Transport
from .rated_table import RatedTable, teams_of
from .remote import RemoteSession, seats_from_lobby

__all__ = ["TOKEN_KEY", "OnlineGuest", "code_from", "form_markup", "stored_token"]

TOKEN_KEY = "boneyard:online:token:"  # + the room's code: this browser's seat in that room
RATED_KEY = "boneyard:online:rated:"  # + the room's code: this browser's part in its rated game
RETRY_S = (1.0, 2.0, 3.0, 5.0)  # pauses between attempts to join again, then every 5 s
# Refusals in the table's message line: two lines on a phone.
RECONNECTING_MOVE = "The host is reconnecting: your move was not sent."
LOST_MOVE = "Your move did not reach the host: play it again."


def code_from(text: str) -> str:
    """Return the room code a typed text or a link's tail names, or "" when it names none."""
    try:
        return protocol.normalize_code(text.rsplit("/", 1)[-1])
    except (protocol.ProtocolError, ValueError):
        return ""


def stored_token(storage: Any, code: str) -> dict[str, Any] | None:
    """Return what this browser kept about its seat in room ``code``, or None."""
    text = storage.get(TOKEN_KEY + code)
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) and data.get("token") else None


def form_markup(form: dict[str, Any], name: str) -> Markup:
    """Return the join screen before anything was sent: the code and the name."""
    return online_screens.join_screen(
        str(form.get("code", "")),
        str(form.get("name") or name),
        "form",
        message=str(form.get("error", "")),
    )


class OnlineGuest:
    """This page's seat in a friend's room."""

    kind = "guest"

    def __init__(
        self, app: RoomApp, code: str, name: str, port: OnlinePort, net: Transport | None = None
    ) -> None:
        self.app = app
        self.port = port
        self.code = code
        kept = stored_token(app.storage, code)
        room: GuestRoom | None = None
        if kept is not None:
            try:
                room = GuestRoom.from_dict(kept)
            except ValueError:
                room = None
        self.room = room or GuestRoom(code, name)
        if name.strip():
            self.room.name = name.strip()[: protocol.MAX_NAME]
        self.game_id: str | None = None
        self.session: Session | None = None
        self.state = (
            "connecting"  # connecting, lobby, dealing, playing, reconnecting, host_left, removed, failed
        )
        self.message = ""
        self.host_peer: str | None = None
        # A quick match's seat keeps the channel its lobby opened (``net``) and learns the code in welcome:
        # the table's host registers it once the game starts, so the seat reconnects as in a friends' room.
        self.net = net or port.transport(self.on_event, lambda words: app.report("warning", words))
        self.quick: Any = None  # a quick match's table (rooms.lobby.Table): who sits where, their keys
        self.rated = False  # a quick match with people in every seat (the rated games read it)
        self.tries = 0
        self.joining: Any = None
        self.closed = False
        self.deal_result: tuple[bool, str] | None = None
        self.log = chat.ChatLog(int(self.room.seat or 0))
        self.deciding: dict[int, str] = {}
        self.redraw: Timer | None = None  # the chat's redraw, due soon
        self.pops: Timer | None = None  # the redraw that takes the reactions off once they have faded
        self.pops_due = 0.0
        self.unanswered: int | None = None  # the turn of the move sent last, until a view answers it
        self.rated_table: RatedTable | None = None  # the game's rating, when the host rates it
        self.restore_rated()

    @property
    def seats(self) -> list[dict[str, Any]]:
        """Return the lobby's seats with their latest connection status."""
        return [
            {**row, "status": self.room.status.get(int(row["seat"]), row["status"])}
            for row in self.room.seats
        ]

    # -- connecting ---------------------------------------------------------------------------------
    def connect(self) -> None:
        """Open a channel to the room's host and say hello (in the background)."""
        if self.joining is None or self.joining.done():
            self.joining = asyncio.ensure_future(self._connect())

    async def _connect(self) -> None:
        while not self.closed:
            try:
                self.host_peer = await self.net.join(self.code, self.app.settings.online_config())
            except Exception as exc:
                reason = str(exc)
                if self.state == "connecting" and self.room.token is None and self.tries >= 2:
                    self.state = "failed"
                    self.message = join_failure(reason)
                    self.rerender()
                    return
                self.tries += 1
                if self.state not in ("host_left", "reconnecting") and self.room.token is not None:
                    self.state = "reconnecting"
                    self.rerender()
                await asyncio.sleep(RETRY_S[min(self.tries, len(RETRY_S) - 1)])
                continue
            self.tries = 0
            self.net.send(self.host_peer, self.room.hello())
            return

    def on_event(self, event: NetEvent) -> None:
        """Handle one transport event: the host's messages, our channel closing; then draw once."""
        redraw = False
        if event.type == "message":
            for item in self.room.on_message(event.data):
                redraw = self.on_room(item) or redraw
        elif event.type == "close":
            self.host_peer = None  # nothing sent now would arrive: moves wait for the next channel
            if self.state not in ("removed", "failed") and not self.closed:
                if self.state != "host_left":
                    self.state = (
                        "reconnecting" if self.session is not None or self.room.token else "connecting"
                    )
                redraw = True
                self.connect()
        self.watch_rated_host()
        if redraw:
            self.rerender()

    def on_room(self, item: Event) -> bool:
        """Act on one event of the guest's room; return True when the page must be drawn again."""
        kind, data = item.kind, dict(item.data)
        if kind == "send":
            if self.host_peer is not None:
                self.net.send(self.host_peer, str(data["text"]))
            return False
        if kind == "welcome":
            self.code = self.room.code or self.code
            self.game_id = self.room.game if self.room.game in GAMES else None
            self.log.me = int(self.room.seat or 0)
            if self.game_id is None:
                self.state, self.message = (
                    "failed",
                    "This room plays a game this page does not know; reload it.",
                )
            else:
                self.state = "playing" if self.session is not None else "lobby"
            self.keep()
        elif kind == "lobby":
            if self.session is not None:
                self.session.seats = self.guest_seats()
            elif self.quick is not None and any(row.get("kind") == "bot" for row in self.room.seats):
                self.rated = False  # a computer took the seat of a joiner that never came: not rated
        elif kind == "dealing":
            self.state = "dealing"
            self.session = None
            self.deal_result = None
            self.rated_table = None
        elif kind == "rated":
            self.take_rated(data)
            return False
        elif kind == "view":
            if not self.take_view(data["view"]):
                return False
            self.keep()
            if self.unanswered is not None and self.session is not None:
                if self.session.local_to_move() and self.session.state.turn_number == self.unanswered:
                    # the host reloaded before it played our move: it never arrived
                    self.app.refused(self.session, LOST_MOVE)
                self.unanswered = None
        elif kind == "refused":
            self.unanswered = None  # the move may be played again
            if self.session is not None:
                self.app.refused(self.session, str(data.get("reason", "")))  # draws the reason itself
            return False
        elif kind == "deal":
            if self.session is not None:
                try:
                    self.session.reveal(int(data["seed"]), list(data["moves"]))  # type: ignore[attr-defined]
                except (ValueError, AttributeError):
                    pass  # Check the deal says what is wrong
        elif kind == "chat":
            self.log.add(int(data["seat"]), str(data.get("name", "")), str(data["text"]))
            return redraw_soon(self)  # a burst of lines is drawn once
        elif kind == "react":
            self.log.react(int(data["seat"]), str(data["key"]), time.monotonic())
            return redraw_soon(self)
        elif kind == "host_left":
            self.state = "host_left"
        elif kind == "removed":
            self.state, self.message = "removed", ""
            self.app.storage.remove(TOKEN_KEY + self.code)
            self.app.storage.remove(RATED_KEY + self.code)
            self.closed = True
        elif kind == "error":
            self.state, self.message = "failed", str(data.get("reason", "")).capitalize() + "."
            if self.room.token is None:
                self.closed = True
        elif kind in ("bad", "cheat"):
            if kind == "cheat":
                self.message = "The host left your number out of the deal: this game is not fair."
            else:
                return False
        return True

    # -- a rated table (ui.online.rated_table) -----------------------------------------------------------
    def take_rated(self, data: dict[str, Any]) -> None:
        """Hand the host's rated message to this game's rated table, made when the first one comes."""
        kind = str(data.pop("kind"))
        if self.rated_table is None:
            if self.session is None or kind != "chain" or self.room.asked_commits is None:
                return  # a rated table begins with the host's chain, once the game is dealt
            rows = self.room.seats
            if any(row["kind"] not in ("host", "guest") for row in rows):
                return
            self.rated_table = RatedTable(
                self,
                game=str(self.game_id),
                mode=str(self.room.mode or ""),
                seats=[int(row["seat"]) for row in rows],
                me=int(self.room.seat or 0),
                names={int(row["seat"]): str(row.get("name") or "") for row in rows},
                deal=list(self.room.asked_commits),
                teams=teams_of(self.room.options, len(rows)),
                send=self.send_rated,
            )
            self.rated_table.begin()
        seat = data.get("seat", host_seat(self.seats))
        self.rated_table.take(int(seat or 0), kind, data)

    def watch_rated_host(self) -> None:
        """Tell the rated game whether its host is here (gone past the grace, the host forfeits it)."""
        if self.rated_table is not None:
            self.rated_table.watch_host(self.host_peer is not None and self.state != "host_left")

    def keep_rated(self) -> None:
        """Keep this page's part in the rated game, so a reload goes on signing it."""
        if self.rated_table is None:
            self.app.storage.remove(RATED_KEY + self.code)
        else:
            self.app.storage.set(RATED_KEY + self.code, json.dumps(self.rated_table.to_dict()))

    def restore_rated(self) -> None:
        """Take back this page's part in the rated game it was in before a reload (a damaged one is dropped:
        that game goes unrated)."""
        text = self.app.storage.get(RATED_KEY + self.code)
        if not text or self.room.token is None:
            return
        try:
            self.rated_table = RatedTable.from_dict(self, json.loads(text), self.send_rated)
        except ValueError:
            self.app.storage.remove(RATED_KEY + self.code)
        self.watch_rated_host()  # the host's grace runs until its welcome: a host gone meanwhile forfeits

    def send_rated(self, kind: str, fields: dict[str, Any], skip: int | None) -> None:
        """Send this page's chain or signature to the host (which passes it on)."""
        if self.host_peer is not None:
            fields = {k: v for k, v in fields.items() if k != "seat"}
            self.net.send(self.host_peer, protocol.encode(kind, sender="guest", **fields))

    def guest_seats(self) -> list[Any]:
        """Return the table's seats from the lobby (this page's person, the others, the bots)."""
        return seats_from_lobby(self.room.seats, int(self.room.seat or 0))

    def take_view(self, view: dict[str, Any]) -> bool:
        """Show the host's latest view: the first of a game deals the guest's table. Return False for a
        view this table cannot take (another game's or seat's, or one without its turn: a host's bug or
        forgery), which changes nothing."""
        if self.game_id is None:
            return False
        session = self.session
        try:
            if session is None or int(view.get("turn_number", 0)) < session.state.turn_number:
                label = str(self.room.mode or GAMES[self.game_id].name)
                self.session = RemoteSession.join(
                    self.game_id,
                    int(self.room.seat or 0),
                    self.guest_seats(),
                    label,
                    label,
                    self.room.options,
                    view,
                    uid=f"online-{self.code}",
                )
                self.session.extra["online"] = self.code
                if self.quick is not None:
                    self.session.extra["rated"] = self.rated
                self.app.table_ui.pop(self.game_id, None)  # a new game: its table's state starts afresh
                self.app.generation += 1
            else:
                assert isinstance(session, RemoteSession)
                session.receive(view)
        except (ValueError, TypeError, KeyError) as exc:
            self.port.console(f"a view this table cannot take: {exc}")
            return False
        self.state = "playing"
        self.app.cue(self.session, by_computer=view.get("turn") == self.room.seat)
        if self.session is not None and self.session.state.is_over() and not self.session.recorded:
            count_online(self.app, self.session)
            self.session.recorded = True
        return True

    def keep(self) -> None:
        """Keep this seat's token and the deal's secrets, so a reload takes the seat back (never once the
        host removed us: the page's save when it is hidden must not write the seat back)."""
        if self.room.token and self.state != "removed":
            self.app.storage.set(TOKEN_KEY + self.code, json.dumps(self.room.to_dict()))
            self.keep_rated()

    # -- the table's moves ---------------------------------------------------------------------------------
    def human_move(self, session: Session, move: Any) -> bool:
        """Send this guest's move to the host (checked against the view first); the next view answers."""
        from boneyard.core import IllegalMoveError

        if self.unanswered == session.state.turn_number and self.host_peer is not None:
            return False  # a second click while the first move is on its way: the host's view answers it
        try:
            session.play(move)
        except IllegalMoveError as exc:
            self.app.refused(session, str(exc))
            return False
        text = session.take_pending()  # type: ignore[attr-defined]
        sent = (
            text is not None
            and self.host_peer is not None
            and self.state == "playing"
            and self.net.send(self.host_peer, self.room.move(text))
        )
        if not sent:
            self.app.refused(session, RECONNECTING_MOVE)  # draws the reason itself
            return False
        self.unanswered = session.state.turn_number
        return True  # nothing changed on this page yet: it draws when the host's view answers

    def moved(self, session: Session) -> None:
        """Nothing to do: the host plays the moves."""

    def finish(self, session: Session) -> None:
        """Count the finished game once (apart, by opponent)."""
        if not session.recorded:
            count_online(self.app, session)
            session.recorded = True

    def save(self, now: bool = False) -> None:
        """Keep the seat's token (a guest's page holds no game to save)."""
        self.keep()

    def bot_delay(self, pause: float) -> float:
        """Return the pause unchanged (the host plays the computers)."""
        return pause

    def at_table(self) -> bool:
        """Tell whether the game is dealt and this page shows its table."""
        return self.session is not None and self.state not in ("removed", "failed", "dealing")

    # -- controls -----------------------------------------------------------------------------------------------
    def action(self, action: str, value: str) -> None:
        """Carry out a click in the room."""
        try:
            if action == "deal-check":
                self.deal_result = self.room.check_deal()
                self.app.request_render()
                self.app.announce(
                    "The deal was fair." if self.deal_result[0] else "The deal does not check out."
                )
            elif action == "join-retry":
                self.closed, self.tries = False, 0
                self.state = "connecting"
                self.connect()
                self.app.request_render()
            elif action == "room-again":
                self.app.report("info", "The host deals the next game: it appears here when they do.")
            elif action in ("join-leave", "room-leave"):
                self.leave()
            elif action.startswith("chat-"):
                wanted = chat_action(self, action, value)
                if wanted is not None and self.host_peer is not None:
                    kind, what = wanted
                    # The host passes it on to everyone, this page too: it shows when it comes back.
                    self.net.send(
                        self.host_peer, self.room.chat(what) if kind == "chat" else self.room.react(what)
                    )
        except protocol.ProtocolError as exc:
            self.app.report("warning", exc.reason[:1].upper() + exc.reason[1:] + ".")

    def change(self, what: str, value: str) -> None:
        """Guests have no lobby controls."""

    def connected(self) -> bool:
        """Tell whether the channel to the host is open (the chat can send)."""
        return self.host_peer is not None and self.state == "playing"

    def leave(self) -> None:
        """Leave the room (the seat is given up; the host decides what plays it)."""
        if self.host_peer is not None:
            self.net.send(self.host_peer, self.room.leave())
        self.app.storage.remove(TOKEN_KEY + self.code)
        self.app.storage.remove(RATED_KEY + self.code)
        self.app.close_online()
        self.app.go("#/")

    def close(self) -> None:
        """Leave the broker and stop trying to join."""
        self.closed = True
        self.net.close()
        for waiting in (self.joining, self.redraw, self.pops):
            if waiting is not None:
                waiting.cancel()

    # -- drawing ----------------------------------------------------------------------------------------------
    def markup(self) -> Markup:
        """Return the guest's screen: the table once dealt, else the lobby or why not."""
        session = self.session
        if session is not None and self.at_table():
            return table_markup(self.app, self, session, int(self.room.seat or 0))
        info = GAMES.get(self.game_id or "")
        return online_screens.join_screen(
            protocol.format_code(self.code),
            self.room.name,
            self.state,
            message=self.message,
            game_name=info.name if info is not None else "",
            mode_label=str(self.room.mode or ""),
            seats=self.seats if self.state != "removed" else [],  # no more ours to show
            me=self.room.seat,
        )

    def after_game(self) -> tuple[Markup, Markup]:
        """Return the bar's tools and words once a game is over: Check the deal, and what it found."""
        return online_screens.deal_button(self.room.proof is not None), online_screens.deal_words(
            self.deal_result
        )

    def after_render(self) -> None:
        """Mark the page with the turn on screen (the browser tests and the latency benchmark read it)."""
        mark_turn(self.port, self.session)
        clear_pops_later(self)

    def rerender(self) -> None:
        """Redraw the room's screen when it is on screen."""
        if self.app.route.screen in ("join", "quick") and self.app.online is self:
            self.app.request_render()

    def bar_note(self) -> str:
        """Return the state in words for the bar over the table."""
        if self.rated_table is not None and self.rated_table.lone and self.rated_table.result is not None:
            return "The host left and lost the rated game: it is over. Leave the table when you like."
        if self.state == "reconnecting":  # on a phone the first half alone: the bar stays one row
            return join(
                ["The host is reconnecting…", h("span", {"class_": "online-wide"}, " Moves wait for them.")]
            )
        return {"host_left": "The host left; waiting for them to reopen the room…"}.get(
            self.state, self.message
        )


def join_failure(reason: str) -> str:
    """Return why joining failed, in a player's words."""
    if "peer-unavailable" in reason or "timeout" in reason or "could not connect" in reason:
        return "No room with that code is open. Check the code, or ask the host to open the room."
    if "network" in reason or "server" in reason or "socket" in reason:
        return "The broker cannot be reached: check the connection, or Settings › Online."
    return f"Joining failed ({reason})." if reason else "Joining failed."
