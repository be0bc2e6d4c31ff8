"""Quick match in the page: a ``lobby.Seeker`` over the rooms' transport, then an ordinary online table.

``QuickMatch`` feeds the seeker what the transport reports (a claim's or a connection's outcome, the
channels' events) and the time, every half second, from the page's timers, and carries out the acts it
returns. When the seeker is seated it becomes a room: the seeker that hosts runs an ``OnlineHost`` over
the same transport (the lobby id released, the joiners' channels kept; each human seat kept for its
joiner's ``hello``, the computers in the empty seats), the others a ``QuickGuest`` that says hello on
the channel it already holds. From then on this page's ``app.online`` is that room. The host registers
the room's code at the broker once the lobby id is released (``Transport.claim``; the guests learn the
code in the room's welcome), so a reload of either side takes the table back as in a friends' room:
``resume`` reopens the host's save, or a guest's seat kept under ``QUICK_KEY``, within the grace. A table with no
computer is **rated** (``rated`` on the room and ``session.extra["rated"]``); one with a computer is not.

Pure: the browser is reached through the ``OnlinePort`` alone (``public_key`` for the player's key), so
the tests run whole matches over the in-memory network. The screens are at the end of the module.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boneyard.games import GAMES
from boneyard.rating import default_rating  # openskill itself comes with the first rating
from boneyard.rooms import lobby
from boneyard.rooms.host import HostRoom
from boneyard.rooms.lobby import Act, Config, Entrant, Seeker, Table

from ..html import Markup, h, name_text
from ..seating import default_level, mode_options
from ..shell import button, frame
from .host import HOST_KEY, OnlineHost, reopen, saved_quick
from .join import OnlineGuest, stored_token
from .net import HOLD_S, NetEvent, OnlinePort, RoomApp, Timer, Transport, hold_seconds

__all__ = [
    "MODES",
    "QUICK_KEY",
    "WAIT_CHOICES",
    "QuickGuest",
    "QuickMatch",
    "QuickMode",
    "find_mode",
    "looking_screen",
    "modes_of",
    "picker_screen",
    "resume",
]

QUICK_KEY = "boneyard:online:quick:"  # + game id: the quick match table this browser has a guest's seat at
RESUME_S = HOLD_S  # a reloaded page takes its quick table back within the seats' reconnect grace
TICK_S = 0.5  # the seeker's timers run this often
HELLO_S = 8.0  # a seated joiner's hello must reach the table's host within this, or a computer sits
WAIT_CHOICES = (5, 10, 20, 30)  # Settings: seconds before computers take the empty seats


@dataclass(frozen=True)
class QuickMode:
    """A mode of quick match: the game, the lobby's mode name, the seats and the setup form it plays."""

    game: str
    slug: str  # in the lobby id: "match100", "visible"...
    seats: int
    label: str
    form: tuple[tuple[str, str], ...]

    @property
    def key(self) -> str:
        """Return the mode's name in actions and addresses: ``match100-2``."""
        return f"{self.slug}-{self.seats}"


def _modes() -> list[QuickMode]:
    modes: list[QuickMode] = []
    for slug, mode, label, seats in (
        ("match100", "match-100", "to 100", 2),
        ("match50", "match-50", "to 50", 2),
        ("block", "block", "block (no drawing)", 2),
        ("match100", "match-100", "to 100", 3),
        ("match100", "match-100", "to 100", 4),
    ):
        dominoes = (("mode", mode), ("players", str(seats)))
        modes.append(QuickMode("dominoes", slug, seats, f"{seats} players, {label}", dominoes))
    for seats in (2, 3, 4):
        modes.append(QuickMode("triangles", "game", seats, f"{seats} players", (("players", str(seats)),)))
    for hands in ("visible", "hidden"):
        for seats in (2, 3, 4):
            form = (("mode", "game"), ("players", str(seats)), ("hands", hands), ("board", "original"))
            modes.append(QuickMode("heptalion", hands, seats, f"{seats} players, {hands} hands", form))
    return modes


MODES = _modes()


def modes_of(game: str) -> list[QuickMode]:
    """Return the quick match modes of a game (none for a game played alone)."""
    return [m for m in MODES if m.game == game]


def find_mode(value: str) -> QuickMode | None:
    """Return the mode an action's value names (``dominoes:match100-2``), or None."""
    game, _, key = value.partition(":")
    return next((m for m in modes_of(game) if m.key == key), None)


class QuickGuest(OnlineGuest):
    """A guest's seat at a quick match's table: it also keeps which table it is, so a reload of
    ``#/quick/<game>`` takes the seat back (``resume``)."""

    def keep(self) -> None:
        """Keep the seat's token, and the table under ``QUICK_KEY`` + the game."""
        super().keep()
        if self.room.token and self.state != "removed" and self.game_id and self.quick is not None:
            data = {
                "code": self.code,
                "table": self.quick.to_json(),
                "rated": self.rated,
                "over": self.session is not None and self.session.state.is_over(),
                "saved_at": time.time(),
            }
            self.app.storage.set(QUICK_KEY + self.game_id, json.dumps(data))

    def on_event(self, event: NetEvent) -> None:
        """Handle a transport event as a friends' room does, except that once the host said it left (its
        Leave: a quick table's host keeps nothing to reopen), the closed channel is not knocked at again."""
        if event.type == "close" and self.state == "host_left":
            self.host_peer = None
            return
        super().on_event(event)

    def bar_note(self) -> str:
        """Return the state in words for the bar over the table."""
        if self.state == "host_left":
            return "The player whose page ran this game left: it cannot go on."
        return super().bar_note()

    def leave(self) -> None:
        """Leave the table for good: nothing is kept to take it back."""
        self.app.storage.remove(QUICK_KEY + (self.game_id or ""))
        super().leave()


def resume(app: RoomApp, game_id: str, port: OnlinePort, now: float | None = None) -> Any:
    """Return the quick match table this browser was at for ``game_id``, taken up again after a reload:
    the host's (its save) or a guest's seat (``QUICK_KEY``), or None. A table left longer than the
    reconnect grace (``RESUME_S``), or whose game is over, is not taken up: its save is dropped, so the
    game ends as abandoned and Quick match offers a new one."""
    now = time.time() if now is None else now
    saved = saved_quick(app, game_id)
    if saved is not None:
        fresh = now - float(saved.get("saved_at") or 0) < RESUME_S  # saves before this said no time: stale
        host = reopen(app, game_id, port, quick=True) if fresh else None
        if host is not None and host.session is not None and not host.session.state.is_over():
            return host
        if host is not None:
            host.close()
        app.storage.remove(HOST_KEY + game_id)
        return None
    text = app.storage.get(QUICK_KEY + game_id)
    if not text:
        return None
    try:
        data = json.loads(text)
        code = str(data["code"])
        table = Table.from_json(data["table"])
        fresh = now - float(data["saved_at"]) < RESUME_S and not data.get("over")
    except (ValueError, KeyError, TypeError):
        fresh = False
    if not fresh or stored_token(app.storage, code) is None:
        app.storage.remove(QUICK_KEY + game_id)
        return None
    guest = QuickGuest(app, code, str(getattr(app.settings, "name", "") or "Player"), port)
    guest.game_id, guest.quick, guest.rated = game_id, table, bool(data.get("rated"))
    guest.connect()
    return guest


class QuickMatch:
    """This page looking for players (see the module); ``room`` is its table once seated."""

    kind = "quick"

    def __init__(
        self,
        app: RoomApp,
        port: OnlinePort,
        mode: QuickMode,
        *,
        wait_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        back: str = "#/",
        spawn: Callable[[Any], Any] = asyncio.ensure_future,
    ) -> None:
        self.app = app
        self.port = port
        self.mode = mode
        self.game_id = mode.game
        self.clock = clock
        self.back = back
        self.spawn = spawn  # the app's (its tasks run on the page's loop)
        self.config = Config(wait_s=float(wait_s))
        self.seeker: Seeker | None = None
        self.net: Transport | None = None
        self.attempt = 0  # bumped by every claim, connection and close: late answers are dropped
        self.timer: Timer | None = None
        self.tasks: set[Any] = set()
        self.failure = ""  # why it could not start (no key, ...)
        self.room: Any = None  # the OnlineHost or OnlineGuest once seated
        self.seated_at = 0.0
        self.shown_second = -1
        self.session = None
        self.closed = False

    # -- looking --------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start looking (in the background: the player's key comes first)."""
        self._spawn(self._start())

    async def _start(self) -> None:
        try:
            key = str(await self.port.public_key())
        except Exception as exc:
            self.port.console(f"quick match: no key: {exc}")
            key = ""
        if self.closed:
            return
        mode = self.mode
        name = str(getattr(self.app.settings, "name", "") or "Player")
        try:
            self.seeker = Seeker(
                mode.game, mode.slug, mode.seats, Entrant(name, key, default_rating()), self.config
            )
        except ValueError as exc:
            self.failure = str(exc)
            self.rerender()
            return
        self.run(self.seeker.start(self.clock()))
        self.schedule()

    def _spawn(self, coro: Any) -> None:
        task = self.spawn(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def schedule(self) -> None:
        """Run the timers again in ``TICK_S``."""
        if not self.closed:
            self.timer = self.port.later(TICK_S, self.tick)

    def tick(self) -> None:
        """Run the seeker's timers (and a seated host's wait for hellos); redraw the elapsed time."""
        self.timer = None
        if self.closed:
            return
        now = self.clock()
        if self.room is not None:
            self.start_table(now)
            if isinstance(self.room, OnlineHost) and self.room.session is None:
                self.schedule()
            return
        if self.seeker is not None:
            self.run(self.seeker.tick(now))
            second = int(self.seeker.waited(now))
            if second != self.shown_second and self.room is None:
                self.shown_second = second
                self.rerender()
        if self.room is None and (self.seeker is None or self.seeker.phase not in lobby.ENDED):
            self.schedule()

    def run(self, acts: list[Act]) -> None:
        """Carry out the seeker's acts in order; then move on when it is seated or gave up."""
        for act in acts:
            if act.kind == "claim":
                net = self._fresh()
                self._spawn(self._claim(net, act.lobby, self.attempt))
            elif act.kind == "connect":
                net = self._fresh()
                self._spawn(self._connect(net, act.lobby, self.attempt))
            elif self.net is None:
                continue
            elif act.kind == "send":
                self.net.send(act.peer, act.text)
            elif act.kind == "drop":
                self.net.drop(act.peer)
            elif act.kind == "release":
                self.net.release()
            elif act.kind == "close":
                self._drop_net()
        seeker = self.seeker
        if seeker is not None and seeker.phase == lobby.DONE and self.room is None:
            self.seated(seeker)
        elif seeker is not None and seeker.phase == lobby.GAVE_UP:
            self._drop_net()
            self.rerender()

    def _fresh(self) -> Transport:
        self._drop_net()
        self.net = self.port.transport(self.on_event, lambda words: self.app.report("warning", words))
        return self.net

    def _drop_net(self) -> None:
        self.attempt += 1
        if self.net is not None:
            self.net.close()
            self.net = None

    async def _claim(self, net: Transport, lobby_id: str, attempt: int) -> None:
        try:
            await net.host(lobby_id, self.app.settings.online_config())
        except Exception as exc:
            if attempt == self.attempt and self.seeker is not None:
                reason = str(exc)
                now = self.clock()
                taken = "unavailable-id" in reason
                self.run(self.seeker.taken(now) if taken else self.seeker.claim_failed(reason, now))
                self.rerender()
            return
        if attempt == self.attempt and self.seeker is not None:
            self.run(self.seeker.claimed(self.clock()))
            self.rerender()

    async def _connect(self, net: Transport, lobby_id: str, attempt: int) -> None:
        try:
            peer = await net.join(lobby_id, self.app.settings.online_config())
        except Exception:
            if attempt == self.attempt and self.seeker is not None:
                self.run(self.seeker.unreachable(self.clock()))  # nobody there (or too slow): move on
            return
        if attempt == self.attempt and self.seeker is not None:
            self.run(self.seeker.connected(peer, self.clock()))

    def on_event(self, event: NetEvent) -> None:
        """Feed one transport event to the seeker, or to the table once seated."""
        if self.room is not None:
            self.room.on_event(event)
            self.start_table(self.clock())
            return
        seeker = self.seeker
        if seeker is None:
            return
        now = self.clock()
        before = seeker.filled
        if event.type == "open" and event.peer != seeker.host_peer and seeker.phase != lobby.CONNECTING:
            self.run(seeker.opened(event.peer, now))  # a joiner's channel (our own to a host: ``connected``)
        elif event.type == "message":
            self.run(seeker.message(event.peer, event.data, now))
        elif event.type == "close":
            self.run(seeker.closed(event.peer, now))
        if seeker.filled != before and self.room is None:
            self.rerender()

    # -- seated ---------------------------------------------------------------------------------------
    def seated(self, seeker: Seeker) -> None:
        """Become the table the seeker found: its host runs the game, a joiner says hello to it."""
        table = seeker.table
        net = self.net
        if table is None or net is None:
            return
        self.seated_at = self.clock()
        mode = self.mode
        info = GAMES[mode.game]
        screen = self.app.screen(mode.game)
        form = dict(mode.form)
        if table.host:
            game_mode, players = screen.mode_from_form(form)
            options = mode_options(info, game_mode, players)
            level = default_level(info)
            seats = ["host"] + ["open" if p.kind == "human" else f"bot:{level}" for p in table.places[1:]]
            name = table.places[0].name
            room = HostRoom(info.id, game_mode.label, options, name, seats, hold_s=hold_seconds(self.port))
            for index, place in enumerate(table.places):
                if index and place.kind == "human" and place.peer:
                    room.reserve(index, place.peer)
            host = OnlineHost(self.app, info, room, game_mode.key, game_mode.label, self.port, net=net)
            host.status = "open"
            self.room = host
            self._spawn(self._open_room(host))
        else:
            guest = QuickGuest(self.app, "", table.places[table.seat].name, self.port, net=net)
            guest.host_peer = seeker.host_peer
            self.room = guest
        self.room.quick = table
        self.room.rated = table.rated
        self.app.online = self.room  # from now on an ordinary online table
        if isinstance(self.room, OnlineGuest):
            net.send(seeker.host_peer, self.room.room.hello())
        self.start_table(self.seated_at)
        if isinstance(self.room, OnlineHost):
            self.room.start_ticker()
            self.schedule()
        self.room.rerender()

    async def _open_room(self, host: OnlineHost) -> None:
        """Register the table's room code at the broker (the lobby id is released), so a reloaded page of
        either side finds the table again: the guests learn the code in the room's welcome."""
        try:
            await host.net.claim(host.code, self.app.settings.online_config())
        except Exception as exc:  # the table goes on; only a reload cannot find it
            self.port.console(f"quick match: the table's code was not registered: {exc}")

    def start_table(self, now: float) -> None:
        """Start the host's game once every joiner said hello (a computer sits for one that did not)."""
        host = self.room
        if not isinstance(host, OnlineHost) or host.session is not None or host.room.phase != "lobby":
            return
        room = host.room
        if not room.start_ok() and now - self.seated_at >= HELLO_S:
            for row in room.seats:
                if row.kind == "open":
                    room.set_seat(row.seat, "bot", host.default_level(), now)
            host.rated = False  # a computer sits: the table is no longer rated
            host.sync_seats()
        if room.start_ok():
            host.handle(room.start(now))

    # -- the player -----------------------------------------------------------------------------------
    def action(self, action: str, value: str) -> None:
        """Carry out Cancel or Try again."""
        if action == "quick-cancel":
            back = self.back
            self.app.close_online()
            self.app.go(back)
        elif action == "quick-retry":
            self.close()
            self.closed = False
            self.seeker, self.failure, self.shown_second = None, "", -1
            self.start()
            self.rerender()

    def close(self) -> None:
        """Stop looking: tell whoever we are with, close the channels and leave the broker."""
        if self.room is not None:
            self.room.close()
        elif self.seeker is not None:
            self.run(self.seeker.cancel(self.clock()))
        self.closed = True
        self._drop_net()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        for task in list(self.tasks):
            task.cancel()

    # -- what the app asks of app.online while looking ----------------------------------------------------
    def at_table(self) -> bool:
        """Tell whether a table is on screen (never while looking)."""
        return False

    def save(self, now: bool = False) -> None:
        """Nothing to save while looking."""

    def after_render(self) -> None:
        """Nothing to mark while looking."""

    def rerender(self) -> None:
        """Redraw the Looking screen when it is on screen."""
        if self.app.online is self and self.app.route.screen == "quick":
            self.app.request_render()

    def markup(self) -> Markup:
        """Return the Looking screen: game and mode, the time, who joined, Cancel; or why it stopped."""
        seeker = self.seeker
        now = self.clock()
        if self.failure or (seeker is not None and seeker.phase == lobby.GAVE_UP):
            reason = self.failure or (seeker.reason if seeker is not None else "")
            return looking_screen(
                self.mode, 0, [], failure=reason or "it could not start", wait_s=self.config.wait_s
            )
        waited = seeker.waited(now) if seeker is not None else 0.0
        return looking_screen(self.mode, waited, self.joined(), wait_s=self.config.wait_s)

    def joined(self) -> list[str]:
        """Return who sits at the forming table so far: this player first."""
        seeker = self.seeker
        if seeker is None:
            return ["You"]
        if seeker.phase == lobby.HOSTING:
            guests = sorted((g.seat, g.entrant.name) for g in seeker.guests.values() if g.seat and g.entrant)
            return ["You", *(name for _, name in guests)]
        return ["You"] + ["A player"] * max(0, seeker.filled - 1)


# -- screens --------------------------------------------------------------------------------------------


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def looking_screen(
    mode: QuickMode, waited: float, joined: list[str], *, failure: str = "", wait_s: float = 10.0
) -> Markup:
    """Return "Looking for players": the game and mode, the time so far, who has joined, Cancel."""
    info = GAMES[mode.game]
    lead = h("p", {"class_": "lead room-mode", "id": "quick-mode"}, f"{info.name} · {mode.label}")
    if failure:
        body = [
            lead,
            h(
                "p",
                {"class_": "room-status room-failed", "id": "quick-status", "role": "alert"},
                f"No match: {failure}. Check the connection, or Settings › Online.",
            ),
            h(
                "div",
                {"class_": "actions"},
                button("Try again", "quick-retry", kind="primary", id="quick-retry"),
                button("Back", "quick-cancel", id="quick-cancel"),
            ),
        ]
        state = "failed"
    else:
        rows = [
            h("li", {"class_": "lobby-seat", "data_seat": i}, name_text(name))
            for i, name in enumerate(joined)
        ]
        rows += [
            h("li", {"class_": "lobby-seat lobby-open", "data_seat": i}, "Waiting for a player…")
            for i in range(len(joined), mode.seats)
        ]
        body = [
            lead,
            h(
                "p",
                {"class_": "room-status room-connecting", "id": "quick-status", "role": "status"},
                "Looking for players… ",
                h("span", {"class_": "quick-time", "id": "quick-time", "aria_live": "off"}, _clock(waited)),
            ),
            h(
                "section",
                {"class_": "room-lobby", "aria_labelledby": "quick-players"},
                h("h2", {"id": "quick-players"}, "Players"),
                h("ol", {"class_": "lobby", "id": "quick-lobby"}, rows),
            ),
            h(
                "p",
                {"class_": "hint"},
                f"If nobody comes within {int(wait_s)} seconds, computers take the empty seats "
                "(a game with a computer is not rated).",
            ),
            h(
                "div",
                {"class_": "actions"},
                button("Cancel", "quick-cancel", id="quick-cancel", data_focus_home=True),
            ),
        ]
        state = "looking"
    return frame(
        f"Quick match: {info.name}",
        h("div", {"class_": "room quick", "id": "quick", "data_quick_state": state}, body),
        back="#/",
    )


def picker_screen(game: str | None) -> Markup:
    """Return the modes quick match offers (one game's, or every game's): each button starts looking."""
    games = [game] if game else sorted({m.game for m in MODES}, key=lambda g: list(GAMES).index(g))
    sections = []
    for gid in games:
        info = GAMES[gid]
        buttons = [
            button(m.label, "quick-start", f"{gid}:{m.key}", id=f"quick-{gid}-{m.key}") for m in modes_of(gid)
        ]
        sections.append(
            h(
                "section",
                {"class_": "quick-game", "aria_labelledby": f"quick-title-{gid}"},
                h("h2", {"id": f"quick-title-{gid}"}, info.name),
                h("div", {"class_": "actions quick-modes"}, buttons),
            )
        )
    lead = h(
        "p",
        {"class_": "lead"},
        "Play people you do not know: choose a game and a mode, and Boneyard looks for players who chose "
        "the same. Computers fill the seats nobody takes.",
    )
    title = f"Quick match: {GAMES[game].name}" if game else "Quick match"
    back = f"#/setup/{game}" if game else "#/"
    return frame(title, h("div", {"class_": "room quick", "id": "quick-picker"}, lead, sections), back=back)
