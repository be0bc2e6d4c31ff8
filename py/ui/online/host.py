"""The host's online room in the page: ``HostRoom`` driven next to the host's ``Session``.

The host's page holds the game. Guests' seats are ``guest`` seats of the session: the app waits for
them as it waits for a person (no computer moves there); their moves arrive as texts and are played
through the same ``Session.play`` as the host's own. A guest's move is one event in, one state change
(``play_guest`` only plays it), its views out once (the room encodes each guest's view once per change)
and then the app's ``after_move`` (save, one render, the computer's turn): the room is never called back
from inside itself. When the game ends, the deal's proof goes out. The room is saved with the session
under ``boneyard:online:host:<game>``, so a reload reopens it with the same code, and guests who come
back get their seats by their tokens. The browser is reached only through the ``OnlinePort`` given.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from typing import Any

from boneyard.core import GameInfo, IllegalMoveError, make_rng
from boneyard.games import GAMES
from boneyard.rooms import protocol
from boneyard.rooms.host import HostRoom, Out, RoomError
from boneyard.rooms.lobby import Table

from ..html import Markup, h, join
from ..seating import computer_name, default_level, mode_options
from ..session import Seat, Session, SessionError
from ..shell import frame
from ..table_screen import Screen
from . import chat
from . import screens as online_screens
from .net import NetEvent, OnlinePort, RoomApp, Timer, Transport, hold_seconds
from .rated_table import RatedTable, bot_note, teams_of

__all__ = ["HOST_KEY", "OnlineHost", "bot_name", "reopen", "saved_quick", "session_seats"]

HOST_KEY = "boneyard:online:host:"  # + game id: the room this page hosts, with its game
TICK_S = 1.0  # how often the room's timers run
REOPEN_TRIES = 12  # attempts to take the room's code back at the broker after a reload
BOT_PAUSE_S = 0.2  # the shortest a computer's move stays on screen in a room (the guests watch it arrive)
CHAT_REDRAW_S = 0.1  # chat lines and reactions arriving within this are drawn in one redraw


def bot_name(seat: int, level: str | None) -> str:
    """Return a computer seat's name in a room, as a local game names it: "Computer 2 (Medium)"."""
    return computer_name(seat, level or "")


def session_seats(lobby: list[dict[str, Any]], host_seat: int) -> list[Seat]:
    """Return the host's session seats from the room's lobby: the host, its guests, its computers."""
    seats = []
    for row in lobby:
        index, kind = int(row["seat"]), str(row["kind"])
        if index == host_seat or kind == "host":
            seats.append(Seat("human", str(row.get("name") or "Host")))
        elif kind == "bot":
            seats.append(
                Seat("computer", bot_name(index, row.get("level")), str(row.get("level") or "medium"))
            )
        else:
            seats.append(Seat("guest", str(row.get("name") or f"Player {index + 1}")))
    return seats


class OnlineHost:
    """The room this page hosts: its ``HostRoom``, its game once dealt, its connection to the broker."""

    kind = "host"

    def __init__(
        self,
        app: RoomApp,
        info: GameInfo,
        room: HostRoom,
        mode: str,
        mode_label: str,
        port: OnlinePort,
        net: Transport | None = None,
        *,
        rated: bool = False,
    ) -> None:
        self.app = app
        self.rated = rated  # a rated table: its games are rated when no computer plays (rated_table)
        self.rated_table: RatedTable | None = None
        self.port = port
        self.info = info
        self.game_id = info.id
        self.room = room
        room.play = self.play_guest
        self.code = room.code
        self.mode = mode
        self.mode_label = mode_label
        self.session: Session | None = None
        self.status = "connecting"
        self.message = ""
        self.seats: list[dict[str, Any]] = room.lobby()
        self.start_ok = room.start_ok()
        self.bot_after = int(room.open_bot_after_s or 0)
        self.deciding: dict[int, str] = {}  # seats whose guests have not come back: name
        self.log = chat.ChatLog(room.host_seat)  # the table's chat: messages, reactions, mutes
        # A quick match's table keeps the transport its lobby used (``net``): the joiners' channels are open.
        self.net = net or port.transport(self.on_event, lambda words: app.report("warning", words))
        self.quick: Any = None  # a quick match's table (rooms.lobby.Table): who sits where, their keys
        self.ticker: Any = None
        self.connecting: Any = None
        self.reopened = False  # reopened from its save (a reload): the broker may still hold the code a while
        self.retries = 0
        self.saving = False
        self.redraw: Timer | None = None  # the chat's redraw, due soon
        self.pops: Timer | None = None  # the redraw that takes the reactions off once they have faded
        self.pops_due = 0.0

    # -- creating and reopening -------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        app: RoomApp,
        info: GameInfo,
        screen: Screen,
        form: dict[str, Any],
        port: OnlinePort,
        *,
        rated: bool = False,
    ) -> OnlineHost:
        """Open a room for the game and mode chosen on the setup form: the host in seat 0, the rest open."""
        mode, players = screen.mode_from_form(form)
        options = mode_options(info, mode, players)
        count = int(options.get("players", players))
        room = HostRoom(info.id, mode.label, options, app.settings.name, count, hold_s=hold_seconds(port))
        return cls(app, info, room, mode.key, mode.label, port, rated=rated or port.rated_rooms())

    @staticmethod
    def can_host(info: GameInfo, screen: Screen, form: dict[str, Any]) -> str:
        """Return why the chosen mode cannot be played online ("" when it can)."""
        mode, players = screen.mode_from_form(form)
        if info.realtime or players < 2:
            return f"{mode.label} is played alone: choose a mode for two or more players to play online."
        return ""

    def connect(self) -> None:
        """Register the room at the broker (in the background); the screen follows its progress."""
        self.status = "connecting"
        self.connecting = asyncio.ensure_future(self._connect())

    async def _connect(self) -> None:
        try:
            await self.net.host(self.code, self.app.settings.online_config())
        except ConnectionError as exc:
            reason = str(exc)
            if "unavailable-id" in reason and self.reopened and self.retries < REOPEN_TRIES:
                # The broker still holds the code for this page's previous self (a reload): try again.
                self.retries += 1
                await asyncio.sleep(1.5)
                self.connecting = asyncio.ensure_future(self._connect())
                return
            self.status = "taken" if "unavailable-id" in reason else "failed"
            self.message = "" if self.status == "taken" else _broker_words(reason)
            self.rerender()
            return
        except Exception as exc:
            self.status, self.message = "failed", _broker_words(str(exc))
            self.rerender()
            return
        self.status, self.message = "open", ""
        self.retries = 0
        if self.ticker is None:
            self.ticker = asyncio.ensure_future(self._tick())
        self.rerender()

    def start_ticker(self) -> None:
        """Run the room's timers (a quick match's table, open without ``connect``)."""
        if self.ticker is None:
            self.ticker = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        while not self.net.closed:
            await asyncio.sleep(TICK_S)
            try:
                self.handle(self.room.tick(time.monotonic()))
            except Exception:
                self.port.console(traceback.format_exc())

    # -- the transport's events -------------------------------------------------------------------------
    def on_event(self, event: NetEvent) -> None:
        """Feed one transport event to the room and carry out what it answers."""
        now = time.monotonic()
        if event.type == "open":
            self.handle(self.room.on_open(event.peer))
        elif event.type == "message":
            self.handle(self.room.on_message(event.peer, event.data, now))
        elif event.type == "close":
            self.handle(self.room.on_close(event.peer, now))
        elif event.type == "broker":
            self.status = "open" if event.reason != "lost" else "offline"
            self.rerender()

    def handle(self, outs: list[Out], draw: bool = True) -> None:
        """Send the texts and act on the notes the room returned, in order; then draw once, if asked.

        A guest's move (the ``moved`` note) ends in the app's ``after_move``, which draws the page itself.
        ``draw`` False: the caller is drawing the page anyway (the app's move path).
        """
        redraw = later = moved = False
        for out in outs:
            if out.peer is not None:
                if out.text:
                    self.net.send(out.peer, out.text)
                if out.drop:
                    self.net.drop(out.peer)
                continue
            if out.note == "moved":
                moved = True
                continue
            redraw = self.note(out.note, dict(out.data)) or redraw
            later = later or out.note == "removed"  # a flood's last message: redraw in a task of its own
        session = self.session
        if moved and session is not None:
            self.app.cue(session, by_computer=True)
            self.app.after_move(session)  # saves, draws once, lets a computer answer
        elif draw and redraw and (not later or redraw_soon(self)):
            self.rerender()

    def note(self, kind: str, data: dict[str, Any]) -> bool:
        """Act on one note of the room; return True when the screen must be redrawn."""
        if kind == "lobby":
            self.seats, self.start_ok = list(data["seats"]), bool(data["start_ok"])
            self.sync_seats()
            return True
        if kind == "deal":
            self.deal(int(data["seed"]))
            return True
        if kind == "decide":
            self.deciding[int(data["seat"])] = str(data.get("name") or "A player")
            if self.rated_table is not None:
                self.rated_table.forfeit(int(data["seat"]))  # gone past the grace: the rated game is lost
            return True
        if kind == "rated":
            self.take_rated(int(data["seat"]), data["message"])
            return False
        if kind == "returned":
            self.deciding.pop(int(data["seat"]), None)
            self.sync_seats()
            return True
        if kind == "seat":
            if data.get("status") == "connected":
                self.deciding.pop(int(data["seat"]), None)
            return True
        if kind == "chat":
            self.log.add(int(data["seat"]), str(data.get("name", "")), str(data["text"]))
            return redraw_soon(self)
        if kind == "react":
            self.log.react(int(data["seat"]), str(data["key"]), time.monotonic())
            return redraw_soon(self)
        if kind == "removed":  # the room removed a guest that flooded it or sent junk
            name = str(data.get("name") or "A player")
            self.app.report("warning", f"{name} was removed from the room ({data.get('reason', 'abuse')}).")
            return True
        if kind == "error":
            self.app.report("warning", str(data.get("reason", "The room refused that.")))
            return True
        if kind == "deal_stalled":
            self.message = (
                "Waiting for " + ", ".join(str(n) for n in data.get("names", []) if n) + " to join the deal."
            )
            return True
        return kind == "open_to_bot"

    # -- the game -------------------------------------------------------------------------------------------
    def deal(self, seed: int) -> None:
        """Deal the game from the fair deal's seed and send every guest its first view."""
        seats = session_seats(self.room.lobby(), self.room.host_seat)
        self.session = Session.start(
            self.info, seats, self.mode, self.mode_label, self.room.options, seed=seed
        )
        self.session.uid = f"online-{self.code}-{seed:x}"
        # The seed is public to the guests (the deal check; Heptalion's views show it): the computers'
        # generator must not follow from it, or a guest could foresee the bots' moves.
        self.session.bot_rng = make_rng()
        self.session.extra["online"] = self.code  # an online game even once bots hold every guest's seat
        if self.quick is not None:
            self.session.extra["rated"] = self.rated
        self.app.table_ui.pop(self.ui_key, None)  # a new game: its table's state starts afresh
        self.app.generation += 1
        self.handle(self.room.views(self.session.state))
        self.begin_rated(self.session)
        self.save()

    @property
    def ui_key(self) -> str:
        """Return the key of the table's UI state (the game id: the table screens read it by game)."""
        return self.game_id

    def sync_seats(self) -> None:
        """Follow the room's seats in the game: a computer took a guest's seat, or the guest came back."""
        session = self.session
        if session is None:
            return
        fresh = session_seats(self.room.lobby(), self.room.host_seat)
        if [s.kind for s in fresh] != [s.kind for s in session.seats] or fresh != session.seats:
            session.seats = fresh
            self.app.generation += 1

    def play_guest(self, seat: int, text: str) -> str | None:
        """Play a guest's move for its seat (the room checked the turn); return a refusal's reason or None."""
        session = self.session
        if session is None or session.to_move() != seat:
            return "it is not your turn"
        try:
            session.play(text)
        except IllegalMoveError as exc:
            return str(exc)
        except ValueError as exc:
            return f"that is not a move: {exc}"
        return None  # only the game changed: the room sends the views, its "moved" note does the rest

    def human_move(self, session: Session, move: Any) -> bool:
        """Play the host's own move (only on its own turn): the app's move path for this room."""
        if not session.local_to_move():
            seat = session.to_move()
            who = session.seats[seat].name if seat is not None else ""
            self.app.refused(session, f"It is {who}'s turn." if who else "The game is over.")
            return False
        try:
            session.play(move)
        except IllegalMoveError as exc:
            self.app.refused(session, str(exc))
            return False
        self.app.cue(session, by_computer=False)
        self.app.after_move(session)
        return True

    def moved(self, session: Session) -> None:
        """Send every guest its view after a move (none again after a guest's: the room sent them), and
        the deal's proof once the game is over; the app draws the page next."""
        self.handle(self.room.views(session.state), draw=False)
        if session.state.is_over() and self.room.phase != "over":
            self.handle(self.room.finish(session.moves or []), draw=False)
            if self.rated_table is not None:
                self.rated_table.finish(session)

    # -- a rated table (ui.online.rated_table) -----------------------------------------------------------
    def begin_rated(self, session: Session) -> None:
        """Start rating a new game at a rated table: every person's chain goes round (none with a computer)."""
        self.rated_table = None
        if not self.rated:
            return
        if any(seat.kind == "computer" for seat in session.seats):
            bot_note(session)
            return
        people = [int(row["seat"]) for row in self.room.lobby() if row["kind"] in ("host", "guest")]
        names = {int(row["seat"]): str(row.get("name") or "") for row in self.room.lobby()}
        self.rated_table = RatedTable(
            self,
            game=self.game_id,
            mode=str(self.room.mode or self.mode_label),
            seats=people,
            me=self.room.host_seat,
            names=names,
            deal=self.room.commits,
            teams=teams_of(self.room.options, len(session.seats)),
            send=self.send_rated,
        )
        self.rated_table.begin()

    def send_rated(self, kind: str, fields: dict[str, Any], skip: int | None) -> None:
        """Send a rated message to every guest but ``skip`` (this page's own carry its seat)."""
        if kind in ("chain", "link", "sign") and "seat" not in fields:
            fields = {**fields, "seat": self.room.host_seat}
        text = protocol.encode(kind, sender="host", **fields)
        for seat in self.room.guest_seats():
            peer = self.room.peer_of(seat)
            if seat != skip and peer is not None:
                self.net.send(peer, text)

    def take_rated(self, seat: int, message: Any) -> None:
        """Hand a guest's chain, link or signature to the rated table (none: not a rated game, ignored)."""
        if self.rated_table is not None:
            self.rated_table.take(seat, message.kind, dict(message.fields))

    def bot_delay(self, pause: float) -> float:
        """Return how long a computer's move waits in a room (never less than the guests need to see it)."""
        return max(pause, BOT_PAUSE_S) if self.room.guest_seats() else pause

    def finish(self, session: Session) -> None:
        """Count a finished online game in Stats (apart, by opponent) and keep the room saved."""
        if not session.recorded:
            count_online(self.app, session)
        session.recorded = True
        self.save()

    def at_table(self) -> bool:
        """Tell whether the room's game is dealt (the room's screen is then its table)."""
        return self.session is not None

    # -- the host's controls --------------------------------------------------------------------------------
    def action(self, action: str, value: str) -> None:
        """Carry out a click of the host in the room."""
        now = time.monotonic()
        try:
            if action == "room-start":
                self.handle(self.room.start(now))
            elif action == "room-remove":
                self.handle(self.room.remove(int(value), now))
            elif action == "room-bot":
                seat = int(value)
                self.deciding.pop(seat, None)
                self.handle(self.room.set_seat(seat, "bot", self.default_level(), now))
                self.sync_seats()
                self.app.request_render()
            elif action == "room-wait":
                seat = int(value)
                self.deciding.pop(seat, None)
                self.handle(self.room.wait(seat, now))
                self.app.request_render()
            elif action == "room-retry":
                if self.status == "taken":
                    self.room.code = protocol.new_code()
                    self.code = self.room.code
                self.connect()
                self.app.request_render()
            elif action == "room-copy":
                self.copy(value)
            elif action in ("room-close", "room-leave"):
                self.leave()
            elif action == "room-again":
                self.again(now)
            elif action.startswith("chat-"):
                wanted = chat_action(self, action, value)
                if wanted is not None and wanted[0] == "chat":
                    self.handle(self.room.say(wanted[1]))  # the room's note adds it to the log
                elif wanted is not None and wanted[0] == "react":
                    self.handle(self.room.react(wanted[1]))
                    self.log.react(self.room.host_seat, wanted[1], time.monotonic())
                    self.app.request_render()
        except (RoomError, protocol.ProtocolError, ValueError) as exc:
            self.app.report("warning", str(exc)[:1].upper() + str(exc)[1:] + ".")

    def change(self, what: str, value: str) -> None:
        """Follow a lobby control: a seat made open or a computer, the wait before open seats go to bots."""
        now = time.monotonic()
        try:
            if what.startswith("seat:"):
                seat = int(what.removeprefix("seat:"))
                if value == "open":
                    self.handle(self.room.set_seat(seat, "open", None, now))
                elif value.startswith("bot:"):
                    self.handle(self.room.set_seat(seat, "bot", value.removeprefix("bot:"), now))
            elif what == "bot_after":
                seconds = int(value)
                self.bot_after = seconds
                self.room.open_bot_after_s = float(seconds) if seconds > 0 else None
                self.room.open_bot_level = self.default_level()
                for row in self.room.seats:
                    if row.kind == "open":
                        row.open_since = now
                self.app.request_render()
        except (RoomError, ValueError) as exc:
            self.app.report("warning", str(exc)[:1].upper() + str(exc)[1:] + ".")
            self.app.request_render()

    def default_level(self) -> str:
        """Return the level a computer takes a seat at: Medium, or the game's strongest named level."""
        return default_level(self.info)

    def again(self, now: float) -> None:
        """Deal a new game in the same room with the same people (after a game)."""
        self.session = None
        self.handle(self.room.start(now))
        self.app.request_render()

    def connected(self) -> bool:
        """Tell whether the room is open at the broker (the chat can send)."""
        return self.status == "open"

    def copy(self, text: str) -> None:
        """Copy the join link to the clipboard."""
        if self.port.copy(text):
            self.app.announce("Join link copied.")
            self.app.report("info", "Join link copied.")
        else:
            self.app.report("info", "Select the link and copy it.")

    def leave(self) -> None:
        """Close the room: guests are told the host left; a game under way stays saved to reopen later
        (not a quick match's: its table was left on purpose, Quick match offers a new one)."""
        if self.session is None or self.session.state.is_over() or self.quick is not None:
            self.app.storage.remove(HOST_KEY + self.game_id)  # nothing to come back to
        else:
            self.save(now=True)
        self.app.close_online()
        self.app.go("#/")

    def close(self) -> None:
        """Tell every guest the host left and leave the broker."""
        try:
            self.handle(self.room.close())
        finally:
            self.net.close()
            for waiting in (self.ticker, self.redraw, self.pops):
                if waiting is not None:
                    waiting.cancel()

    # -- saving ---------------------------------------------------------------------------------------------
    def save(self, now: bool = False) -> None:
        """Save the room with its game, so a reload reopens it with the same code.

        A move's save waits until the page has drawn it (the guests' views went out first): saves in a
        row are written once. ``now`` writes at once (the page is about to reload or close).
        """
        if now:
            self.write()
            return
        if self.saving:
            return
        self.saving = True

        async def later() -> None:
            await asyncio.sleep(0)
            self.saving = False
            self.write()

        self.save_task = asyncio.ensure_future(later())

    def write(self) -> None:
        """Write the room and its game to storage now."""
        self.saving = False
        data = {
            "schema": 1,
            "game": self.game_id,
            "mode": self.mode,
            "mode_label": self.mode_label,
            "room": self.room.to_dict(),
            "session": self.session.to_json() if self.session is not None else None,
            "rated": self.rated,
            "rated_table": self.rated_table.to_dict() if self.rated_table is not None else None,
        }
        if self.quick is not None:  # a quick match's table: it resumes as one (``ui.online.quick.resume``)
            data["quick"] = {**self.quick.to_json(), "rated": self.rated, "saved_at": time.time()}
        self.app.storage.set(HOST_KEY + self.game_id, json.dumps(data))

    # -- drawing -------------------------------------------------------------------------------------------
    def link(self) -> online_screens.Link:
        """Return what the room shares: its code, the join link, its QR code."""
        url = f"{self.port.address()}#/join/{self.code}"
        return online_screens.Link(protocol.format_code(self.code), url, self.net.qr_svg(url))

    def markup(self) -> Markup:
        """Return the room's screen: the lobby before the game, the table with the room's bar after."""
        session = self.session
        if session is None:
            room = online_screens.RoomInfo(
                self.info.name,
                self.mode_label,
                self.status,
                self.message,
                self.bot_after,
                waiting_for(self.seats, self.room.phase),
                list(self.info.named_levels),
            )
            return online_screens.room_screen(room, self.link(), self.seats, self.start_ok)
        return table_markup(self.app, self, session, self.room.host_seat)

    def after_render(self) -> None:
        """Mark the page with the turn on screen (the browser tests and the latency benchmark read it)."""
        mark_turn(self.port, self.session)
        clear_pops_later(self)

    def bar_note(self) -> str:
        """Return what the bar over the table says besides the code (a stalled deal, say)."""
        return self.message

    def after_game(self) -> tuple[Markup, Markup]:
        """Return the bar's tools and words once a game is over: the results' Play again deals the next
        game in this room, and the guests check the deal on their own pages."""
        return Markup(""), Markup("")

    def rerender(self) -> None:
        """Redraw the room's screen when it is on screen."""
        screen = self.app.route.screen
        if screen in ("room", "quick") and self.app.route.arg == self.game_id and self.app.online is self:
            self.app.request_render()


def mark_turn(port: OnlinePort, session: Session | None) -> None:
    """Mark the turn on screen, whether it is this page's person's and their legal moves, on the page."""
    if session is None:
        port.mark_turn(None, False, [])
        return
    mine = not session.state.is_over() and session.local_to_move()
    legal = [str(m) for m in session.state.legal_moves()] if mine else []
    port.mark_turn(session.state.turn_number, mine, legal)


def redraw_soon(online: Any) -> bool:
    """Redraw once ``CHAT_REDRAW_S`` from now, however many chat lines and reactions arrive till then (a
    burst must not redraw the table a line at a time); return True when the caller must redraw now
    instead (the page has no timers)."""
    if online.redraw is not None:
        return False

    def due() -> None:
        online.redraw = None
        if online.app.online is online:
            online.rerender()

    online.redraw = online.port.later(CHAT_REDRAW_S, due)
    return online.redraw is None


def clear_pops_later(online: Any) -> None:
    """Redraw once, when the last reaction on show has faded, to take the faded ones off the page.

    The pops play by CSS alone (each drawn where it is in its life): nothing redraws while they play.
    """
    live = online.log.live_pops(time.monotonic())
    if not live:
        return
    due = max(pop.at for pop in live) + chat.POP_S
    if online.pops is not None and due <= online.pops_due:
        return  # the redraw already waiting comes once this one has faded too
    if online.pops is not None:
        online.pops.cancel()

    def faded() -> None:
        online.pops = None
        if online.app.online is online:
            online.rerender()

    online.pops_due = due
    online.pops = online.port.later(max(0.0, due - time.monotonic()) + 0.05, faded)


def waiting_for(seats: list[dict[str, Any]], phase: str) -> str:
    """Return what Start waits for, in words ("" when nothing)."""
    if phase == "dealing":
        return "Shuffling together…"
    open_seats = sum(1 for s in seats if s.get("kind") == "open")
    away = sum(1 for s in seats if s.get("status") == "reconnecting")
    if open_seats:
        return f"Waiting for {open_seats} more player{'s' * (open_seats != 1)}: share the code, or give the seat to a bot."
    if away:
        return "Waiting for a player to reconnect."
    return ""


def table_markup(app: Any, online: Any, session: Session, me: int) -> Markup:
    """Return an online table: the room's bar, the game's own table screen, chat, the host's questions."""
    screen = app.screen(session.info.id)
    table = screen.render(app.context(session)) if screen is not None else Markup("")
    extra: list[Any] = [rated_markup(online)]
    for seat, name in sorted(getattr(online, "deciding", {}).items()):
        extra.append(online_screens.decide_dialog(seat, name))
    tools, words = online.after_game() if session.state.is_over() else (Markup(""), Markup(""))
    quick = getattr(online, "quick", None) is not None
    bar = online_screens.online_bar(
        "" if quick else protocol.format_code(online.code),  # a quick match's code joins nothing
        online.seats,
        me,
        online.bar_note(),
        join([tools, chat.chat_toggle(online.log)]),
        join([online_screens.rated_tag(online.rated) if quick else "", words]),
    )
    # On a phone the title is the game's name alone (the mode cut to "2 play…" said nothing).
    title = join([session.info.name, h("span", {"class_": "online-wide"}, " · ", session.mode_label)])
    talk = chat_markup(online, session, me, online.connected())
    return frame(title, join([bar, h("div", {"class_": "online-extra"}, extra), table, talk]), back="#/")


def rated_markup(online: Any) -> Markup:
    """Return a rated table's line (the players' verified ratings), or nothing at an unrated table."""
    table = getattr(online, "rated_table", None)
    return table.markup() if table is not None else Markup("")


def chat_markup(online: Any, session: Session, me: int, connected: bool) -> Markup:
    """Return the room's chat panel and the reactions popping over the table."""
    from .. import kit

    names = kit.display_names(session)
    people = [i for i, seat in enumerate(session.seats) if seat.kind != "computer"]
    positions = dict(kit.seat_positions(len(session.seats), me))
    log = online.log
    return join(
        [
            chat.chat_panel(log, names, can_send=connected, people=people, host=host_seat(online.seats)),
            chat.reaction_pops(log, names, positions, time.monotonic()),
        ]
    )


def host_seat(seats: list[dict[str, Any]]) -> int | None:
    """Return the host's seat in a room's lobby rows, or None."""
    return next((int(row["seat"]) for row in seats if row.get("kind") == "host"), None)


def chat_action(online: Any, action: str, value: str) -> tuple[str, str] | None:
    """Carry out a click of the chat (the typed text read from its input); return what to send."""
    text = ""
    if action == "chat-send":
        typed = online.port.field_value("chat-input")
        text = typed if typed is not None else online.log.draft
    wanted: tuple[str, str] | None = online.log.on_action(action, value, text)
    if action in ("chat-toggle", "chat-close", "chat-mute", "chat-send", "chat-react"):
        online.app.request_render()
        if action == "chat-toggle" and online.log.open:
            online.port.focus("chat-input")
    return wanted


def count_online(app: RoomApp, session: Session) -> None:
    """Count a finished online game for this page's person, against each other person (bots aside)."""
    me = session.human_seats[0] if session.human_seats else None
    if me is None:
        return
    result = session.result_for(me)
    if result is None:
        return
    opponents = [s.name for i, s in enumerate(session.seats) if i != me and s.kind != "computer"]
    today = app.today()

    def change(stats: Any) -> bool:
        mark = "online:" + session.uid
        if stats.has_counted(mark):
            return False
        for name in opponents or ["Bots"]:
            stats.record_online(session.info.id, session.mode, session.mode_label, name, result, today)
        stats.mark_counted(mark)
        return True

    app.stats, _ = app.storage.update_stats(change)


def saved_quick(app: RoomApp, game_id: str) -> dict[str, Any] | None:
    """Return the quick match table the room saved for ``game_id`` says it was ({} for a save written
    before saves said so: its game is marked rated or not), or None for a friends' room or no save."""
    text = app.storage.get(HOST_KEY + game_id)
    try:
        data = json.loads(text) if text else None
        if not isinstance(data, dict):
            return None
        if isinstance(data.get("quick"), dict):
            return dict(data["quick"])
        session = data.get("session")
        return {} if isinstance(session, dict) and "rated" in (session.get("extra") or {}) else None
    except (ValueError, TypeError, AttributeError):
        return None


def reopen(app: RoomApp, game_id: str, port: OnlinePort, quick: bool = False) -> OnlineHost | None:
    """Reopen the room this page hosted for ``game_id`` (saved with its game), or return None. A quick
    match's table reopens only when ``quick`` asks for one (never as a friends' room), and a friends'
    room only when it does not."""
    info = GAMES.get(game_id)
    text = app.storage.get(HOST_KEY + game_id) if info is not None else None
    if info is None or not text or (saved_quick(app, game_id) is not None) != quick:
        return None
    try:
        data = json.loads(text)
        room = HostRoom.from_dict(data["room"])
        host = OnlineHost(
            app, info, room, str(data["mode"]), str(data["mode_label"]), port, rated=data.get("rated") is True
        )
        if data.get("session") is not None:
            host.session = Session.from_json(game_id, data["session"])
            host.session.seats = session_seats(room.lobby(), room.host_seat)
            room.state = host.session.state
            if data.get("rated_table") is not None:
                host.rated_table = RatedTable.from_dict(host, data["rated_table"], host.send_rated)
        if quick:
            table = data.get("quick")
            host.quick = Table.from_json(table) if isinstance(table, dict) else None
            host.rated = bool(host.quick and table.get("rated"))
    except (ValueError, KeyError, TypeError, SessionError):
        app.storage.move_aside(
            HOST_KEY + game_id, text, "A saved online room could not be reopened: it is damaged."
        )
        return None
    host.reopened = True
    host.connect()
    return host


def _broker_words(reason: str) -> str:
    """Return a broker failure in a player's words."""
    if "network" in reason or "server-error" in reason or "socket" in reason:
        return "The broker cannot be reached: check the connection, or Settings › Online."
    return f"({reason})" if reason else ""
