"""The host's side of an online room: lobby, seats, tokens, the fair deal, guest moves, views, chat, drops.

``HostRoom`` is pure: it never touches a socket, a clock or the page. The host's UI feeds it what the
transport reports (``on_open``, ``on_message``, ``on_close``, with the time as a float ``now``), calls
``tick(now)`` now and then for the timers, and carries out the ``Out`` items every call returns: an
``Out`` with a ``peer`` is a text to send to that guest (and ``drop`` closes that channel after it); an
``Out`` without a peer is a ``note`` for the host's own screen (``data`` says more):

- ``lobby``: the seats changed (``data["seats"]``, ``data["start_ok"]``), redraw the lobby;
- ``deal``: the fair deal is done; deal the game with ``new_state(seed=data["seed"], **room.options)``
  and call ``views(state)`` at once (the guests keep that first view for "Check the deal");
- ``deal_stalled``: the deal waits for ``data["seats"]`` past the time allowed (drop them, or wait);
- ``moved``: a guest's move was played (``seat``, ``move``), its views to the guests before it: the
  host's page does what follows a move (saves, draws, lets a computer answer) without calling the room
  back for views (``views`` of that state again sends and encodes nothing);
- ``chat`` / ``react``: a guest's chat line or reaction to show (``seat``, ``name``, ``text`` / ``key``);
- ``seat``: a guest's connection changed (``seat``, ``status``);
- ``decide``: a guest has been away for ``hold_s`` during the game: wait (``wait(seat, now)``) or give
  the seat to a computer (``set_seat(seat, "bot", level)``);
- ``returned``: a guest came back to a seat a computer was keeping; stop that bot;
- ``open_to_bot``: an open seat went to a computer after ``open_bot_after_s``;
- ``error``: a view could not be sent to ``seat`` (``reason``; a bug, never a guest's doing);
- ``rated``: a seated guest's ``chain``, ``link`` or ``sign`` message (``seat``, ``message``), for the
  rated table (``rooms.rated``).

Guests are known by their token (given in ``welcome``, sent back in ``hello``): a guest that reloads
gets its seat back. A message from a peer that has not said hello gets nothing but ``error``; a message
outside the schema, for a seat not to move, with a stale ``turn_number`` or refused by the rules gets
``refused`` with the reason, and nothing changes. Guest moves go through the ``play(seat, move_text)``
callback the UI gives (the same ``play()`` as a local player; it returns the refusal reason or None).
``views(state)`` sends every connected guest exactly ``state.view(seat)`` (only what changed since the
last send). ``to_dict``/``from_dict`` save the room with the host's game so it reopens with the same
code and tokens.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import get_game
from . import fairdeal
from .protocol import (
    MAX_CHAT,
    MAX_NAME,
    MAX_SEATS,
    VERSION,
    Message,
    ProtocolError,
    clean_text,
    encode,
    new_code,
    new_token,
    normalize_code,
    parse,
    safe_name,
)

__all__ = ["ChatLimit", "HostRoom", "Out", "RoomError"]

PlayCallback = Callable[[int, str], str | None]
RATED_KINDS = ("chain", "link", "sign")  # a rated table's messages: passed on as a "rated" note

LOBBY, DEALING, PLAYING, OVER = "lobby", "dealing", "playing", "over"
PHASES = (LOBBY, DEALING, PLAYING, OVER)


def _same(name: str) -> str:
    """Return a name as two names compare: case, width and accents' encoding aside ("ＡＮＮ" is "ann")."""
    return unicodedata.normalize("NFKC", name).casefold()


class RoomError(ValueError):
    """A host action the room cannot take now (the message says why)."""


@dataclass(frozen=True)
class Out:
    """One thing for the host's UI to do: send ``text`` to ``peer`` (then close it when ``drop``), or,
    with no peer, show the ``note`` (with its ``data``) on the host's screen."""

    peer: str | None
    text: str = ""
    drop: bool = False
    note: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChatLimit:
    """How many messages a guest may send within a window of seconds (chat and reactions each)."""

    count: int = 5
    window_s: float = 10.0


@dataclass
class _Seat:
    seat: int
    kind: str  # "host" | "guest" | "open" | "bot"
    name: str | None = None
    level: str | None = None
    token: str | None = None  # the guest's (kept while a bot holds the seat for it)
    peer: str | None = None  # the connected guest's peer id
    away_since: float | None = None  # when the guest dropped (None: connected or not a guest)
    decide_sent: bool = False
    open_since: float | None = None
    chat_times: list[float] = field(default_factory=list)
    react_times: list[float] = field(default_factory=list)
    slowed_at: float | None = None  # when the guest was last told to slow down (chat, reactions)

    @property
    def status(self) -> str:
        if self.kind == "open":
            return "open"
        if self.kind == "guest" and self.peer is None:
            return "reconnecting"
        return "connected"


@dataclass
class _Peer:
    peer: str
    seat: int | None = None
    hellos: int = 0
    strikes: list[float] = field(default_factory=list)  # times of refusals, for the junk limit
    last_view: str = ""
    viewed: tuple[Any, int] | None = None  # the state and turn whose view ``last_view`` is (encoded once)
    window_start: float = float("-inf")  # the flood limit's window: when it began, messages in it
    window_count: int = 0


class HostRoom:
    """The host's room: seats and guests, the deal round, what every guest receives (see the module)."""

    HELLO_LIMIT = 4  # hellos a peer may send before it is dropped
    STRIKE_LIMIT = 20  # refusals within STRIKE_WINDOW_S before a peer is dropped
    STRIKE_WINDOW_S = 10.0
    # Messages a peer may send within FLOOD_WINDOW_S, counted before any parsing: past it the guest is
    # removed for good (its token banned). A person sends a few a second at most (moves, chat within its
    # limit, reactions within theirs); past STRIKE_LIMIT refusals a sender is removed as well.
    FLOOD_LIMIT = 100
    FLOOD_WINDOW_S = 5.0
    GONE_KEPT = 256  # peers removed by the host whose late messages are ignored unread

    def __init__(
        self,
        game: str,
        mode: str | None,
        options: Mapping[str, Any],
        host_name: str,
        players: int | Sequence[str],
        rng: random.Random | None = None,
        *,
        code: str | None = None,
        play: PlayCallback | None = None,
        hold_s: float = 60.0,
        deal_timeout_s: float = 20.0,
        open_bot_after_s: float | None = None,
        open_bot_level: str | None = None,
        chat_limit: ChatLimit = ChatLimit(),
        react_limit: ChatLimit = ChatLimit(8, 10.0),
        nonce_rng: random.Random | None = None,
    ) -> None:
        """Open a room for ``game`` (a registry id) in ``mode`` (its name, for the guests) with ``options``.

        ``players`` is the number of seats (the host in seat 0, the others open) or one entry a seat:
        ``"host"`` (exactly one), ``"open"``, ``"bot"`` or ``"bot:<level>"``. ``rng`` draws the code
        and tokens (the system's randomness when None). ``hold_s`` is how long a dropped guest's seat
        waits before the host is asked to decide; ``open_bot_after_s`` (None: never) gives an open seat
        to a computer at ``open_bot_level`` after that long in the lobby. The host's nonce for the fair
        deal comes from the system's randomness (``nonce_rng`` is for reproducible tests only).
        """
        self.info = get_game(game)
        if self.info.realtime:
            raise RoomError(f"{self.info.name} has no turns to play online")
        self.game = game
        self.mode = mode
        self.options = dict(options)
        self.host_name = safe_name(host_name, "Host")
        self.rng = rng
        self.code = normalize_code(code) if code is not None else new_code(rng)
        self.play = play
        self.hold_s = hold_s
        self.deal_timeout_s = deal_timeout_s
        self.open_bot_after_s = open_bot_after_s
        self.open_bot_level = open_bot_level
        self.chat_limit = chat_limit
        self.react_limit = react_limit
        self.nonce_rng = nonce_rng
        self.seats: list[_Seat] = self._seats_from(players)
        count = self.options.get("players", len(self.seats))
        if count != len(self.seats):
            raise RoomError(f"the options say {count} players but the room has {len(self.seats)} seats")
        if not 2 <= len(self.seats) <= MAX_SEATS:
            raise RoomError(f"a room seats 2 to {MAX_SEATS} players")
        self.phase = LOBBY
        self.state: Any = None  # the host's game, once dealt (the last one ``views`` saw)
        self.banned: set[str] = set()  # tokens of removed guests
        self._peers: dict[str, _Peer] = {}
        self._gone: set[str] = set()  # peers the host removed: what they still send is not read
        self._commits: dict[int, str] = {}
        self._nonces: dict[int, str] = {}
        self._deal_started: float | None = None
        self._deal_stalled_sent = False
        self._stage = ""  # "commit" | "reveal" while dealing
        self.seed: int | None = None
        self.commits: list[str] = []  # the deal's commitments and nonces in seat order, once dealt
        self.nonces: list[str] = []
        self.moves: list[str] = []  # every move of the finished game (``finish``), for the deal proof
        self.reserved: dict[int, str] = {}  # open seats kept for one peer's hello (a quick match's table)

    def _seats_from(self, players: int | Sequence[str]) -> list[_Seat]:
        entries: list[str]
        if isinstance(players, int):
            entries = ["host"] + ["open"] * (players - 1)
        else:
            entries = list(players)
        seats: list[_Seat] = []
        for number, entry in enumerate(entries):
            kind, _, level = str(entry).partition(":")
            if kind == "host":
                seats.append(_Seat(number, "host", self.host_name))
            elif kind in ("open", "guest"):
                seats.append(_Seat(number, "open"))
            elif kind == "bot":
                seats.append(_Seat(number, "bot", level=self._level(level or None)))
            else:
                raise RoomError(f"a seat is host, open or bot[:level], not {entry!r}")
        if sum(s.kind == "host" for s in seats) != 1:
            raise RoomError("a room has exactly one host seat")
        return seats

    def _level(self, level: str | None) -> str:
        levels = self.info.named_levels
        if level is None:
            return "medium" if "medium" in levels else levels[0]
        if level not in self.info.levels:
            raise RoomError(f"{self.info.name} has no computer level {level!r}")
        return level

    # -- reading the room -----------------------------------------------------------------------------

    @property
    def host_seat(self) -> int:
        """Return the host's own seat."""
        return next(s.seat for s in self.seats if s.kind == "host")

    def guest_seats(self) -> list[int]:
        """Return the seats held by guests (connected or not)."""
        return [s.seat for s in self.seats if s.kind == "guest"]

    def bot_seats(self) -> dict[int, str]:
        """Return the seats a computer plays, with its level."""
        return {s.seat: s.level or self._level(None) for s in self.seats if s.kind == "bot"}

    def seat_of(self, peer: str) -> int | None:
        """Return the seat of a connected guest's peer, or None."""
        known = self._peers.get(peer)
        return known.seat if known is not None else None

    def peer_of(self, seat: int) -> str | None:
        """Return the peer id of the guest connected at ``seat``, or None."""
        return self.seats[seat].peer if 0 <= seat < len(self.seats) else None

    @property
    def seating(self) -> bool:
        """Tell whether seats may change hands: in the lobby, or between games (after one ended)."""
        return self.phase in (LOBBY, OVER)

    def start_ok(self) -> bool:
        """Tell whether a game can start: in the lobby (or after a game), no open seat, every guest connected."""
        return self.seating and all(s.kind != "open" and s.status == "connected" for s in self.seats)

    def lobby(self) -> list[dict[str, Any]]:
        """Return the seats as the lobby message shows them."""
        rows: list[dict[str, Any]] = []
        for s in self.seats:
            row: dict[str, Any] = {"seat": s.seat, "name": s.name, "kind": s.kind, "status": s.status}
            if s.kind == "bot":
                row["level"] = s.level
            rows.append(row)
        return rows

    # -- sending ---------------------------------------------------------------------------------------

    def _send(self, peer: str, kind: str, drop: bool = False, **fields: Any) -> Out:
        return Out(peer, encode(kind, sender="host", **fields), drop=drop)

    def _broadcast(self, kind: str, *, skip: int | None = None, **fields: Any) -> list[Out]:
        text = encode(kind, sender="host", **fields)
        return [Out(s.peer, text) for s in self.seats if s.peer is not None and s.seat != skip]

    def _lobby_outs(self) -> list[Out]:
        seats = self.lobby()
        start_ok = self.start_ok()
        outs = self._broadcast("lobby", seats=seats, start_ok=start_ok)
        outs.append(Out(None, note="lobby", data={"seats": seats, "start_ok": start_ok}))
        return outs

    def _refuse(self, known: _Peer, reason: str, now: float, answer: bool = True) -> list[Out]:
        kind = "refused" if known.seat is not None else "error"
        known.strikes = [t for t in known.strikes if now - t < self.STRIKE_WINDOW_S] + [now]
        if len(known.strikes) > self.STRIKE_LIMIT:
            return self._expel(known, "too many refused messages", now)
        return [self._send(known.peer, kind, reason=reason[:300] or "refused")] if answer else []

    def _slow_down(self, known: _Peer, seat: _Seat, reason: str, now: float) -> list[Out]:
        """Refuse a chat line or reaction over its limit: said once a window, then only counted, so a
        flood costs the host little before it is removed."""
        said = seat.slowed_at is not None and now - seat.slowed_at < self.chat_limit.window_s
        if not said:
            seat.slowed_at = now
        return self._refuse(known, reason, now, answer=not said)

    # -- the transport's events -------------------------------------------------------------------

    def on_open(self, peer: str) -> list[Out]:
        """Note a new channel; it gets nothing until it says hello."""
        self._peers.setdefault(peer, _Peer(peer))
        return []

    def on_message(self, peer: str, text: Any, now: float) -> list[Out]:
        """Handle one text from ``peer``; return what to send and show. Never raises for a peer's input."""
        if peer in self._gone:
            return []
        known = self._peers.get(peer)
        if known is None:
            known = self._peers[peer] = _Peer(peer)
        if now - known.window_start >= self.FLOOD_WINDOW_S:
            known.window_start, known.window_count = now, 0
        known.window_count += 1
        if known.window_count > self.FLOOD_LIMIT:
            return self._expel(known, "too many messages", now)
        try:
            message = parse(text, sender="guest")
        except ProtocolError as exc:
            return self._refuse(known, exc.reason, now)
        if message.kind == "hello":
            return self._hello(known, message, now)
        if known.seat is None:
            return self._refuse(known, "say hello first", now)
        seat = self.seats[known.seat]
        if message.kind in RATED_KINDS:  # the rated table's business, not the room's
            return [Out(None, note="rated", data={"seat": seat.seat, "message": message})]
        handler = {
            "move": self._move,
            "chat": self._chat,
            "react": self._react,
            "commit": self._commit,
            "reveal": self._reveal,
            "leave": self._leave,
        }[message.kind]
        return handler(known, seat, message, now)

    def on_close(self, peer: str, now: float) -> list[Out]:
        """Note that a channel closed; a guest's seat is held for it ("reconnecting")."""
        return self._lost(peer, now)

    def _lost(self, peer: str, now: float) -> list[Out]:
        known = self._peers.pop(peer, None)
        if known is None or known.seat is None:
            return []
        seat = self.seats[known.seat]
        if seat.peer != peer:
            return []
        seat.peer = None
        if seat.kind != "guest":
            return []
        seat.away_since = now
        seat.decide_sent = False
        outs = self._broadcast("seat", seat=seat.seat, status="reconnecting")
        outs.append(
            Out(None, note="seat", data={"seat": seat.seat, "status": "reconnecting", "name": seat.name})
        )
        return outs + self._lobby_outs()

    def _expel(self, known: _Peer, reason: str, now: float) -> list[Out]:
        """Remove a peer that abused the room: a seated guest as the host's Remove does (its token is
        banned, so a reload does not bring it back), anyone else by closing its channel."""
        seat = self.seats[known.seat] if known.seat is not None else None
        if seat is not None and seat.kind == "guest" and seat.peer == known.peer and seat.token is not None:
            name = seat.name
            outs = self.remove(seat.seat, now, reason=f"removed from the room: {reason}")
            return outs + [
                Out(None, note="removed", data={"seat": seat.seat, "name": name, "reason": reason})
            ]
        self._forget(known.peer)
        return [self._send(known.peer, "removed", drop=True, reason=f"removed from the room: {reason}")]

    def _forget(self, peer: str) -> None:
        """Stop reading a peer the host removed (its channel is being closed)."""
        self._peers.pop(peer, None)
        if len(self._gone) >= self.GONE_KEPT:
            self._gone.clear()
        self._gone.add(peer)

    # -- hello, seats ---------------------------------------------------------------------------

    def _hello(self, known: _Peer, message: Message, now: float) -> list[Out]:
        known.hellos += 1
        if known.hellos > self.HELLO_LIMIT:
            return self._expel(known, "too many hellos", now)
        if known.seat is not None:
            return self._refuse(known, "you are already in the room", now)
        if message["v"] != VERSION:
            return [
                self._send(
                    known.peer, "error", drop=True, reason="this room runs another version; reload the page"
                )
            ]
        token = message.get("token")
        if token is not None and token in self.banned:
            return [
                self._send(known.peer, "removed", drop=True, reason="the host removed you from this room")
            ]
        seat = next((s for s in self.seats if token is not None and s.token == token), None)
        returning = seat is not None
        outs: list[Out] = []
        if seat is not None:  # a guest coming back (or opening a second page): the seat is theirs
            if seat.peer is not None and seat.peer != known.peer:
                old = seat.peer
                outs.append(
                    self._send(old, "removed", drop=True, reason="you joined this room from another page")
                )
                self._peers.pop(old, None)
            if seat.kind == "bot":  # a computer kept the seat while they were away
                seat.kind = "guest"
                outs.append(Out(None, note="returned", data={"seat": seat.seat, "name": seat.name}))
            seat.name = self._unique_name(message["name"], seat.seat)
        else:
            if not self.seating:
                return [self._send(known.peer, "error", drop=True, reason="the game has already started")]
            seat = self._open_seat_for(known.peer)
            if seat is None:
                return [self._send(known.peer, "error", drop=True, reason="the room is full")]
            seat.kind = "guest"
            seat.name = self._unique_name(message["name"], seat.seat)
            seat.token = new_token(self.rng)
            seat.open_since = None
        assert seat.token is not None
        seat.peer = known.peer
        seat.away_since = None
        seat.decide_sent = False
        known.seat = seat.seat
        known.last_view, known.viewed = "", None
        outs.append(
            self._send(
                known.peer,
                "welcome",
                seat=seat.seat,
                token=seat.token,
                code=self.code,
                game=self.game,
                mode=self.mode,
                options=self.options,
            )
        )
        outs += self._broadcast("seat", seat=seat.seat, status="connected", skip=seat.seat)
        outs.append(
            Out(None, note="seat", data={"seat": seat.seat, "status": "connected", "name": seat.name})
        )
        outs += self._lobby_outs()
        if self.phase == DEALING:
            outs += self._begin_deal(now)
        elif returning and self.phase in (PLAYING, OVER) and self.state is not None:
            outs += self.views(self.state)
            if self.phase == OVER and self.seed is not None:
                outs += self._deal_proof_to(known.peer)
        return outs

    def reserve(self, seat: int, peer: str) -> None:
        """Keep open seat ``seat`` for ``peer``'s hello: nobody else takes it (quick match seated them)."""
        if self._seat(seat).kind != "open":
            raise RoomError(f"seat {seat + 1} is not open")
        self.reserved[seat] = peer

    def _open_seat_for(self, peer: str) -> _Seat | None:
        """Return the open seat kept for ``peer``, else the first open seat kept for nobody."""
        kept = next((s for s in self.seats if s.kind == "open" and self.reserved.get(s.seat) == peer), None)
        return kept or next((s for s in self.seats if s.kind == "open" and s.seat not in self.reserved), None)

    def _unique_name(self, name: str, seat: int) -> str:
        """Return ``name``, or with a number ("Ann (2)") when another seat has it already: a guest never
        passes for the host or another guest at the table or in the chat."""
        taken = {_same(s.name) for s in self.seats if s.seat != seat and s.name}
        if _same(name) not in taken:
            return name
        number = 2
        while True:
            suffix = f" ({number})"
            candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
            if _same(candidate) not in taken:
                return candidate
            number += 1

    def set_seat(self, seat: int, kind: str, level: str | None = None, now: float | None = None) -> list[Out]:
        """Make ``seat`` open or a computer at ``level`` (in the lobby; during the game only a computer,
        for a guest who left). A guest sitting there in the lobby is removed first."""
        target = self._seat(seat)
        if target.kind == "host":
            raise RoomError("the host's seat is the host's")
        if kind not in ("open", "bot"):
            raise RoomError(f"a seat can be made open or bot, not {kind!r}")
        outs: list[Out] = []
        if not self.seating:
            if kind != "bot":
                raise RoomError("during the game a seat can only go to a computer")
            if target.kind == "guest" and target.peer is not None:
                raise RoomError("that guest is still here")
            if target.kind == "open":
                raise RoomError("no seat is open during the game")
            target.kind = "bot"
            target.level = self._level(level)
            target.away_since = None
            outs += self._broadcast("seat", seat=seat, status="connected")
            outs += self._lobby_outs()
            if self.phase == DEALING:  # one fewer taking part: the round starts again
                outs += self._begin_deal(self._deal_clock(now))
            return outs
        if target.kind == "guest":
            outs += self._evict(target, "the host gave your seat to someone else")
        target.kind = kind
        target.name = None
        target.token = None
        target.level = self._level(level) if kind == "bot" else None
        target.open_since = now if kind == "open" else None
        return outs + self._lobby_outs()

    def remove(
        self, seat: int, now: float | None = None, reason: str = "the host removed you from this room"
    ) -> list[Out]:
        """Remove the guest at ``seat`` (it cannot come back with its token); in the lobby the seat opens,
        during the game a computer takes it."""
        target = self._seat(seat)
        if target.kind not in ("guest", "bot") or target.token is None:
            raise RoomError("no guest sits there")
        outs = self._evict(target, reason)
        if target.token is not None:
            self.banned.add(target.token)
        target.token = None
        if self.seating:
            target.kind, target.name, target.open_since = "open", None, now
        else:
            target.kind = "bot"
            target.level = target.level or self._level(None)
            target.away_since = None
        outs += self._lobby_outs()
        if self.phase == DEALING:
            outs += self._begin_deal(self._deal_clock(now))
        return outs

    def wait(self, seat: int, now: float) -> list[Out]:
        """Keep holding an away guest's seat for another ``hold_s`` (the host chose to wait)."""
        target = self._seat(seat)
        if target.kind == "guest" and target.peer is None:
            target.away_since = now
            target.decide_sent = False
        return []

    def _seat(self, seat: int) -> _Seat:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise RoomError(f"no seat {seat!r}")
        return self.seats[seat]

    def _evict(self, target: _Seat, reason: str) -> list[Out]:
        outs: list[Out] = []
        if target.peer is not None:
            outs.append(self._send(target.peer, "removed", drop=True, reason=reason))
            self._forget(target.peer)
            target.peer = None
        return outs

    # -- the fair deal ----------------------------------------------------------------------------

    def _participants(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind in ("host", "guest")]

    def start(self, now: float) -> list[Out]:
        """Start the game: ask every guest for its commitment (the host's own is drawn here)."""
        if self.phase not in (LOBBY, OVER):
            raise RoomError("the game is already under way")
        if self.phase == OVER:
            self.phase = LOBBY
        if not self.start_ok():
            raise RoomError("every seat must be filled and every guest connected")
        self.phase = DEALING
        return self._begin_deal(now) + self._lobby_outs()

    def _deal_clock(self, now: float | None) -> float:
        """Return ``now``, or when the deal began when the caller gave no time."""
        if now is not None:
            return now
        return self._deal_started if self._deal_started is not None else 0.0

    def _begin_deal(self, now: float) -> list[Out]:
        """(Re)start the commit round: everyone draws afresh."""
        self._stage = "commit"
        self._commits = {}
        self._nonces = {}
        self._deal_started = now
        self._deal_stalled_sent = False
        host = self.host_seat
        self._nonces[host] = fairdeal.new_nonce(self.nonce_rng)
        self._commits[host] = fairdeal.commitment(self._nonces[host])
        outs = self._broadcast("commit_ask")
        return outs + self._deal_progress()

    def _deal_progress(self) -> list[Out]:
        seats = self._participants()
        if self._stage == "commit" and all(s in self._commits for s in seats):
            self._stage = "reveal"
            outs = self._broadcast("reveal_ask", commits=[self._commits[s] for s in seats])
            return outs + self._deal_progress()  # the host alone (computers elsewhere) has revealed
        if self._stage == "reveal" and all(s in self._nonces for s in seats):
            self.commits = [self._commits[s] for s in seats]
            self.nonces = [self._nonces[s] for s in seats]
            self.seed = fairdeal.seed_from(self.nonces)
            self.phase = PLAYING
            self._stage = ""
            self.state = None
            for known in self._peers.values():
                known.last_view, known.viewed = "", None
            return [Out(None, note="deal", data={"seed": self.seed})]
        return []

    def _commit(self, known: _Peer, seat: _Seat, message: Message, now: float) -> list[Out]:
        if self.phase != DEALING or self._stage != "commit":
            return self._refuse(known, "no deal is waiting for a commitment", now)
        if seat.seat in self._commits:
            return self._refuse(known, "you have already committed", now)
        self._commits[seat.seat] = message["hash"]
        return self._deal_progress()

    def _reveal(self, known: _Peer, seat: _Seat, message: Message, now: float) -> list[Out]:
        if self.phase != DEALING or self._stage != "reveal":
            return self._refuse(known, "no deal is waiting for a reveal", now)
        if seat.seat in self._nonces:
            return self._refuse(known, "you have already revealed", now)
        if fairdeal.commitment(message["nonce"]) != self._commits.get(seat.seat):
            return self._refuse(known, "that number does not match your commitment", now)
        self._nonces[seat.seat] = message["nonce"]
        return self._deal_progress()

    def waiting_for(self) -> list[int]:
        """Return the seats the deal is waiting for (empty when no deal is under way)."""
        if self.phase != DEALING:
            return []
        have = self._commits if self._stage == "commit" else self._nonces
        return [s for s in self._participants() if s not in have]

    # -- the game -------------------------------------------------------------------------------------

    def _move(self, known: _Peer, seat: _Seat, message: Message, now: float) -> list[Out]:
        state = self.state
        if self.phase != PLAYING or state is None:
            return self._refuse(known, "the game is not under way", now)
        if seat.kind != "guest":
            return self._refuse(known, "a computer is playing your seat", now)
        try:
            over = bool(state.is_over())
            turn = state.current_player()
            number = state.turn_number
        except Exception:  # the host's own state misbehaving must not crash the room
            return self._refuse(known, "the host's game is not ready", now)
        if over or turn is None:
            return self._refuse(known, "the game is over", now)
        if turn != seat.seat:
            return self._refuse(known, "it is not your turn", now)
        if message["turn_number"] != number:
            return self._refuse(
                known, f"that move was for turn {message['turn_number']}, not turn {number}", now
            )
        if self.play is None:
            return self._refuse(known, "the host is not ready for moves", now)
        try:
            reason = self.play(seat.seat, message["move"])
        except Exception as exc:  # the UI's callback; whatever it raises is a refusal, never a crash
            reason = str(exc) or "that move is not allowed"
        if reason:
            return self._refuse(known, str(reason), now)
        # The views go out before the note: the host's page draws the move after the guests have it.
        return self.views(self.state) + [
            Out(None, note="moved", data={"seat": seat.seat, "move": message["move"]})
        ]

    def views(self, state: Any) -> list[Out]:
        """Send every connected guest its ``state.view(seat)`` (exactly that), when it changed.

        A guest's view is encoded once per change: called again for the same state at the same turn (the
        host's page after a guest's move the room has already answered), it sends and encodes nothing.
        """
        self.state = state
        if state is None:
            return []
        if self.phase == DEALING:
            return []
        turn = getattr(state, "turn_number", None)
        outs: list[Out] = []
        for s in self.seats:
            if s.kind != "guest" or s.peer is None:
                continue
            known = self._peers.get(s.peer)
            if known is None:
                continue
            seen = known.viewed
            if seen is not None and seen[0] is state and seen[1] == turn:
                continue  # this change's view went out already
            try:
                text = encode("view", sender="host", view=state.view(s.seat))
            except ProtocolError as exc:  # a view the schema refuses (e.g. too long): say so, never crash
                outs.append(Out(None, note="error", data={"seat": s.seat, "reason": exc.reason}))
                continue
            known.viewed = (state, turn) if isinstance(turn, int) else None
            if text != known.last_view:
                known.last_view = text
                outs.append(Out(s.peer, text))
        return outs

    def finish(self, moves: Sequence[str]) -> list[Out]:
        """End the game: send every guest the deal proof (commitments, nonces, seed and ``moves``, every
        move since the deal) for "Check the deal"; Start again begins the next game in this room."""
        self.phase = OVER
        self.moves = [str(m) for m in moves]
        outs: list[Out] = []
        for s in self.seats:
            if s.peer is not None:
                outs += self._deal_proof_to(s.peer)
        return outs + self._lobby_outs()

    def _deal_proof_to(self, peer: str) -> list[Out]:
        if self.seed is None:
            return []
        proof: dict[str, Any] = {
            "commits": self.commits,
            "nonces": self.nonces,
            "seed": self.seed,
            "moves": self.moves,
        }
        return [self._send(peer, "deal", **proof)]

    # -- chat and reactions --------------------------------------------------------------------------

    @staticmethod
    def _within(times: list[float], limit: ChatLimit, now: float) -> bool:
        times[:] = [t for t in times if now - t < limit.window_s]
        if len(times) >= limit.count:
            return False
        times.append(now)
        return True

    def _chat(self, known: _Peer, seat: _Seat, message: Message, now: float) -> list[Out]:
        if not self._within(seat.chat_times, self.chat_limit, now):
            limit = self.chat_limit
            return self._slow_down(
                known, seat, f"slow down: at most {limit.count} messages in {limit.window_s:g} seconds", now
            )
        return self._say(seat.seat, seat.name or "Guest", message["text"])

    def _react(self, known: _Peer, seat: _Seat, message: Message, now: float) -> list[Out]:
        if not self._within(seat.react_times, self.react_limit, now):
            return self._slow_down(known, seat, "slow down with the reactions", now)
        return self._broadcast("react", seat=seat.seat, key=message["key"]) + [
            Out(None, note="react", data={"seat": seat.seat, "key": message["key"]})
        ]

    def _say(self, seat: int, name: str, text: str) -> list[Out]:
        outs = self._broadcast("chat", seat=seat, name=name, text=text)
        return outs + [Out(None, note="chat", data={"seat": seat, "name": name, "text": text})]

    def say(self, text: str) -> list[Out]:
        """Send the host's own chat line to every guest (cleaned as a guest's; raise ProtocolError when empty)."""
        return self._say(self.host_seat, self.host_name, clean_text(text, MAX_CHAT, "chat"))

    def react(self, key: str) -> list[Out]:
        """Send the host's own reaction to every guest."""
        return self._broadcast("react", seat=self.host_seat, key=key)

    def _leave(self, known: _Peer, seat: _Seat, message: Message, now: float) -> list[Out]:
        if self.seating:
            outs = self._evict(seat, "you left the room")
            seat.kind, seat.name, seat.token, seat.open_since = "open", None, None, now
            return outs + self._lobby_outs()
        outs = [Out(known.peer, "", drop=True)] + self._lost(known.peer, now)
        seat.away_since = now - self.hold_s  # they said they are going: ask the host at once
        return outs + self.tick(now)

    # -- time ---------------------------------------------------------------------------------------

    def tick(self, now: float) -> list[Out]:
        """Run the timers: away guests (lobby: the seat opens; game: ``decide``), open seats to bots,
        a stalled deal."""
        outs: list[Out] = []
        changed = False
        for s in self.seats:
            if s.kind == "guest" and s.peer is None:
                if s.away_since is None:
                    s.away_since = now
                elif now - s.away_since >= self.hold_s:
                    if self.seating:
                        s.kind, s.name, s.token, s.away_since, s.open_since = "open", None, None, None, now
                        changed = True
                    elif not s.decide_sent:
                        s.decide_sent = True
                        outs.append(Out(None, note="decide", data={"seat": s.seat, "name": s.name}))
            elif s.kind == "open" and self.seating and self.open_bot_after_s is not None:
                if s.open_since is None:
                    s.open_since = now
                elif now - s.open_since >= self.open_bot_after_s:
                    s.kind, s.level, s.open_since = "bot", self._level(self.open_bot_level), None
                    outs.append(Out(None, note="open_to_bot", data={"seat": s.seat, "level": s.level}))
                    changed = True
        if self.phase == DEALING and self._deal_started is not None and not self._deal_stalled_sent:
            if now - self._deal_started >= self.deal_timeout_s:
                self._deal_stalled_sent = True
                waiting = self.waiting_for()
                names = [self.seats[s].name for s in waiting]
                outs.append(Out(None, note="deal_stalled", data={"seats": waiting, "names": names}))
        if changed:
            outs += self._lobby_outs()
        return outs

    def close(self) -> list[Out]:
        """Leave the room as the host: every guest is told, every channel closes (the room can reopen)."""
        outs = [Out(s.peer, encode("host_left"), drop=True) for s in self.seats if s.peer is not None]
        for s in self.seats:
            s.peer = None
        self._peers.clear()
        return outs

    # -- saving ---------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the room, JSON-ready (saved with the host's game; connections are not saved)."""
        return {
            "version": 1,
            "game": self.game,
            "mode": self.mode,
            "options": dict(self.options),
            "host_name": self.host_name,
            "code": self.code,
            "phase": self.phase,
            "seats": [
                {"kind": s.kind, "name": s.name, "level": s.level, "token": s.token} for s in self.seats
            ],
            "banned": sorted(self.banned),
            "seed": self.seed,
            "commits": list(self.commits),
            "nonces": list(self.nonces),
            "moves": list(self.moves),
            "hold_s": self.hold_s,
            "deal_timeout_s": self.deal_timeout_s,
            "open_bot_after_s": self.open_bot_after_s,
            "open_bot_level": self.open_bot_level,
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, play: PlayCallback | None = None, rng: random.Random | None = None
    ) -> HostRoom:
        """Reopen a saved room with its code and tokens (guests get their seats back by saying hello).

        A room saved while dealing reopens in the lobby (Start deals afresh). Raise ValueError when the
        save is malformed.
        """
        try:
            seats = data["seats"]
            entries = ["host" if s["kind"] == "host" else "open" for s in seats]
            room = cls(
                data["game"],
                data.get("mode"),
                data["options"],
                data["host_name"],
                entries,
                rng,
                code=data["code"],
                play=play,
                hold_s=float(data.get("hold_s", 60.0)),
                deal_timeout_s=float(data.get("deal_timeout_s", 20.0)),
                open_bot_after_s=data.get("open_bot_after_s"),
                open_bot_level=data.get("open_bot_level"),
            )
            for seat, saved in zip(room.seats, seats):
                kind = saved["kind"]
                if kind not in ("host", "guest", "open", "bot"):
                    raise ValueError(f"bad seat kind {kind!r}")
                seat.kind = kind
                seat.name = saved.get("name") if kind != "host" else room.host_name
                seat.level = saved.get("level")
                seat.token = saved.get("token")
            room.banned = set(data.get("banned", []))
            phase = data.get("phase", LOBBY)
            if phase not in PHASES:
                raise ValueError(f"bad phase {phase!r}")
            room.phase = LOBBY if phase == DEALING else phase
            room.seed = data.get("seed")
            room.commits = list(data.get("commits", []))
            room.nonces = list(data.get("nonces", []))
            room.moves = list(data.get("moves", []))
            return room
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ValueError(f"bad room save: {exc}") from None
