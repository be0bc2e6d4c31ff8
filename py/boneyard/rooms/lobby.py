"""Quick match: how strangers who chose the same game and mode meet, with no server of ours.

The rooms' broker (PeerJS) refuses to register a peer id that is already registered, and that is the
whole mechanism: an id works as a lock. Every game, mode and number of seats has a few well-known
**lobby ids** (``lobby_id``: ``qm1-dominoes-match100-2p-0``, the protocol version first, then slots 0 to
``slots - 1``). A seeker tries to register slot 0: when the broker takes it, the seeker **hosts** a
forming table under that id; when the broker answers ``unavailable-id``, someone hosts there and the
seeker **joins** it (``seek``; the host answers ``seated``, ``no`` or, when the table starts, ``start``).
The host seats joiners in arrival order and starts as soon as the mode's seats are full, or else after
the wait with computers in the empty seats. When other seekers' channels are open then (they have not
asked yet), it gives them ``choose_s`` (a second) to ask: one nearer the host's rating than a seated
joiner takes the seat of the farthest (that one is told so and looks again), so players who press at
about the same time meet nearest in rating; at the start it **releases** the lobby id
(keeping its channels), so the next seekers form the next table under the same id. Why ids rather than
a rendezvous library over public relays: it needs nothing but the broker the rooms already use, so it
works the same with PeerJS's public broker (which lists no peers), a self-hosted ``peer`` and the test
broker on 127.0.0.1, and the broker's own refusal settles every race between two claimants.

The other slots are for what a single id cannot survive: an id still registered to a page that vanished
(the broker frees it only when it notices, up to a minute later) or held by a hostile peer. A seeker
whose slot's holder stays silent for ``answer_s``, or sends junk, moves to the next slot; one the
broker tells that no such peer is there (a host that has just started released the id) claims the
same slot once more; one told the table is full (it is starting) tries slot 0 again after a pause; one
whose host vanishes starts over. A host at a slot above 0 gives it back after ``probe_s`` and starts
over from slot 0 with its joiners (told "the table moved"), so seekers do not wait at two tables.
Whatever happens, a seeker ends at a table or gives up with the reason after ``give_up_s``; the UI can
offer to play the computers then.

Why 10 seconds before computers fill the empty seats (``Config.wait_s``, a setting): pairing two
pages through the local broker took 78 ms (median of 10; 5.4 s once on a loaded machine), through a
public broker and STUN it takes a second or more, so ten leaves room for a second player pressing
Quick match a few seconds later, and it is what the match rules call "a few seconds" without making a
lone player wait long. A table with a computer is not rated.

``Seeker`` is one player's side, a state machine with no I/O and no clock: the UI feeds it what the
transport reports (``claimed``, ``taken``, ``claim_failed``, ``connected``, ``unreachable``, ``opened``,
``message``, ``closed``), calls ``tick(now)`` about every half second, and carries out the ``Act`` items
every call returns (``claim``, ``connect``, ``send``, ``drop``, ``release``, ``close``). ``phase`` says
where it stands; once ``done``, ``table`` says who sits where. The ratings a seeker brings are its own
claim, used here only to choose between seekers for a seat: the table checks every player's signed chain
(``boneyard.rating``).
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from typing import Any

from ..rating import Rating, RecordError, fingerprint
from .protocol import MAX_SEATS, Message, ProtocolError, encode, parse, safe_name

__all__ = ["PHASES", "VERSION", "Act", "Config", "Entrant", "Place", "Seeker", "Table", "lobby_id"]

VERSION = 1  # in the lobby ids: seekers of another version never meet
BOT_NAME = "Computer"
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_MESSAGES = 6  # a joiner says seek and maybe bye; more is a flood
MAX_PENDING = 8  # channels open and not yet seated

IDLE, CLAIMING, CONNECTING, ASKING, SEATED, HOSTING, PAUSED = (
    "idle",
    "claiming",
    "connecting",
    "asking",
    "seated",
    "hosting",
    "paused",
)
DONE, GAVE_UP, CANCELLED = "done", "gave_up", "cancelled"
PHASES = (IDLE, CLAIMING, CONNECTING, ASKING, SEATED, HOSTING, PAUSED, DONE, GAVE_UP, CANCELLED)
ENDED = (DONE, GAVE_UP, CANCELLED)


def lobby_id(game: str, mode: str, seats: int, slot: int) -> str:
    """Return the broker id of a lobby slot (the transport adds its own prefix)."""
    if not _SLUG.fullmatch(game.replace("_", "-")) or not _SLUG.fullmatch(mode) or len(mode) > 40:
        raise ValueError(f"not a lobby's game and mode: {game!r}, {mode!r}")
    return f"qm{VERSION}-{game.replace('_', '-')}-{mode}-{seats}p-{slot}"


@dataclass(frozen=True)
class Config:
    """The timings of quick match, in seconds."""

    wait_s: float = 10.0  # from Quick match to computers in the empty seats
    min_host_s: float = 3.0  # a host waits at least this long for joiners once it holds an id
    answer_s: float = 6.0  # a claim, a connection or an answer must come within this (a loaded
    # machine took 5.4 s to pair once through the local broker, where the median is 78 ms)
    pause_s: float = 0.5  # before trying slot 0 again
    probe_s: float = 2.5  # a lone host at a slot above 0 starts over after this
    give_up_s: float = 45.0  # a seeker at no table by then gives up
    slots: int = 3
    choose_s: float = 1.0  # a full table waits at most this long for seekers at its door to ask


@dataclass(frozen=True)
class Entrant:
    """A player looking for a table: name, public key (base64url) and the rating they claim."""

    name: str
    key: str
    rating: Rating


@dataclass(frozen=True)
class Place:
    """One seat of a formed table: a person (name, key, claimed rating) or a labelled computer."""

    kind: str  # "human" | "bot"
    name: str
    key: str | None = None
    rating: Rating | None = None
    peer: str | None = None  # the host's channel to this joiner (only in the host's table)

    def to_json(self) -> dict[str, Any]:
        """Return the place as ``start`` carries it."""
        return {
            "kind": self.kind,
            "name": self.name,
            "key": self.key,
            "rating": self.rating.to_json() if self.rating else None,
        }


@dataclass(frozen=True)
class Table:
    """Where a seeker ended: the lobby id, whether it hosts, its seat, and every seat."""

    lobby: str
    host: bool
    seat: int
    places: tuple[Place, ...]

    @property
    def rated(self) -> bool:
        """Tell whether the game counts for ratings: people in every seat."""
        return all(place.kind == "human" for place in self.places)

    def to_json(self) -> dict[str, Any]:
        """Return the table as a save keeps it (the channels aside: a reload opens new ones)."""
        return {
            "lobby": self.lobby,
            "host": self.host,
            "seat": self.seat,
            "places": [place.to_json() for place in self.places],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """Return the table a save kept; raise ValueError, KeyError or TypeError for a damaged one."""
        places = tuple(_place(p) for p in data["places"])
        if not 2 <= len(places) <= MAX_SEATS or not 0 <= int(data["seat"]) < len(places):
            raise ValueError("not a quick match's table")
        return cls(str(data["lobby"]), bool(data["host"]), int(data["seat"]), places)


@dataclass(frozen=True)
class Act:
    """One thing for the transport to do.

    ``claim`` registers ``lobby`` at the broker (answer ``claimed``, ``taken`` or ``claim_failed``);
    ``connect`` opens a channel to ``lobby``'s holder (answer ``connected`` or ``unreachable``);
    ``send`` sends ``text`` to ``peer``; ``drop`` closes the channel to ``peer``; ``release`` gives the
    registered id back to the broker and keeps the channels; ``close`` ends the whole session.
    """

    kind: str
    lobby: str = ""
    peer: str = ""
    text: str = ""


@dataclass
class _Guest:
    peer: str
    opened_at: float
    seat: int | None = None
    entrant: Entrant | None = None
    messages: int = 0


@dataclass
class Seeker:
    """One player's quick match (see the module's docstring)."""

    game: str
    mode: str
    seats: int
    me: Entrant
    config: Config = field(default_factory=Config)
    phase: str = IDLE
    reason: str = ""  # why it gave up
    table: Table | None = None
    slot: int = 0
    started_at: float = 0.0
    deadline: float = 0.0  # when the current claim, connection, answer or pause runs out
    hosting_since: float = 0.0
    host_peer: str = ""
    my_seat: int = 0
    filled: int = 1  # seats taken at the table we wait at (for the screen)
    guests: dict[str, _Guest] = field(default_factory=dict)
    attempts: int = 0  # claims made (for the tests and the screen)
    missed: bool = False  # the slot's holder did not answer once already
    full_since: float = 0.0  # when the forming table's last seat was taken (0: not full)

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a table has 2 to {MAX_SEATS} seats")
        lobby_id(self.game, self.mode, self.seats, 0)  # raises for a bad game or mode

    # -- what the player does -------------------------------------------------------------------------

    def start(self, now: float) -> list[Act]:
        """Begin looking for a table."""
        if self.phase != IDLE:
            return []
        self.started_at = now
        return self._claim(0, now)

    def cancel(self, now: float) -> list[Act]:
        """Stop looking: tell whoever we are with, and leave the broker."""
        if self.phase in ENDED:
            return []
        acts: list[Act] = []
        if self.phase in (ASKING, SEATED):
            acts.append(Act("send", peer=self.host_peer, text=encode("bye", sender="seeker")))
        if self.phase == HOSTING:
            acts += self._send_all(encode("no", sender="lobby", reason="the table's host left"))
        self.phase = CANCELLED
        return acts + [Act("close")]

    def start_now(self, now: float) -> list[Act]:
        """Start the forming table at once, computers in the empty seats (host only)."""
        return self._begin(now) if self.phase == HOSTING else []

    def waited(self, now: float) -> float:
        """Return the seconds since Quick match was pressed."""
        return max(0.0, now - self.started_at)

    @property
    def lobby(self) -> str:
        """Return the lobby id of the slot we are at."""
        return lobby_id(self.game, self.mode, self.seats, self.slot)

    # -- what the broker answers ------------------------------------------------------------------------

    def claimed(self, now: float) -> list[Act]:
        """The broker registered our lobby id: we host a forming table."""
        if self.phase != CLAIMING:
            return []
        self.phase, self.hosting_since, self.filled, self.my_seat = HOSTING, now, 1, 0
        return []

    def taken(self, now: float) -> list[Act]:
        """The broker refused the id (``unavailable-id``): someone hosts there; join them."""
        if self.phase != CLAIMING:
            return []
        self.phase, self.deadline = CONNECTING, now + self.config.answer_s
        return [Act("connect", lobby=self.lobby)]

    def claim_failed(self, reason: str, now: float) -> list[Act]:
        """The broker could not be reached or refused us for another reason: give up, saying why."""
        if self.phase != CLAIMING:
            return []
        return self._give_up(f"the broker cannot be reached ({reason[:80]})")

    def connected(self, peer: str, now: float) -> list[Act]:
        """Our channel to the slot's host is open: ask for a seat."""
        if self.phase != CONNECTING:
            return []
        self.phase, self.host_peer, self.deadline = ASKING, peer, now + self.config.answer_s
        seek = encode(
            "seek",
            sender="seeker",
            v=VERSION,
            game=self.game,
            mode=self.mode,
            seats=self.seats,
            name=safe_name(self.me.name, "Player"),
            key=self.me.key,
            rating=self.me.rating.to_json(),
        )
        return [Act("send", peer=peer, text=seek)]

    def unreachable(self, now: float) -> list[Act]:
        """The slot's holder did not answer (it released the id just now, or vanished): try again, then
        the next slot."""
        if self.phase != CONNECTING:
            return []
        return [Act("close"), *self._next_slot(now)]

    # -- channels -----------------------------------------------------------------------------------------

    def opened(self, peer: str, now: float) -> list[Act]:
        """A joiner's channel to us opened (host); it must ask for a seat within ``answer_s``."""
        if self.phase != HOSTING:  # late: the table has started (its own channels stay as they are)
            return [] if peer in self.guests else self._turn_away(peer, "this table has started")
        pending = sum(1 for g in self.guests.values() if g.seat is None)
        if pending >= MAX_PENDING and peer not in self.guests:
            return self._turn_away(peer, "too many at the door")
        self.guests.setdefault(peer, _Guest(peer, now))
        return []

    def message(self, peer: str, text: Any, now: float) -> list[Act]:
        """Handle a text from a channel. Never raises for a peer's input."""
        if self.phase == HOSTING:
            return self._from_joiner(peer, text, now)
        if self.phase in (ASKING, SEATED) and peer == self.host_peer:
            return self._from_host(text, now)
        return []

    def closed(self, peer: str, now: float) -> list[Act]:
        """A channel closed: a joiner left (host), or our host vanished (joiner: start over)."""
        if self.phase == HOSTING and peer in self.guests:
            return self._forget(peer)
        if self.phase in (ASKING, SEATED) and peer == self.host_peer:
            return [Act("close"), *self._pause(now)]
        if self.phase == CONNECTING:  # turned away before our side saw it open: as if unreachable
            return [Act("close"), *self._next_slot(now)]
        return []

    def tick(self, now: float) -> list[Act]:
        """Run the timers: answers overdue, the wait over, a pause ended, the search too long."""
        config = self.config
        if self.phase == HOSTING:
            acts: list[Act] = []
            for guest in list(self.guests.values()):
                if guest.seat is None and now - guest.opened_at > config.answer_s:
                    acts += self._turn_away(guest.peer, "no request for a seat")
                    del self.guests[guest.peer]
            early = now - self.started_at < config.wait_s  # once the wait is over, stay and start
            if early and self.slot > 0 and now - self.hosting_since >= config.probe_s:
                acts += self._send_all(encode("no", sender="lobby", reason="the table moved"))
                self.guests.clear()
                return acts + [Act("close"), *self._claim(0, now)]
            chosen = self.full_since and (now >= self.full_since + config.choose_s or not self._at_door())
            if chosen or now >= max(self.started_at + config.wait_s, self.hosting_since + config.min_host_s):
                acts += self._begin(now)
            return acts
        if self.phase in ENDED:
            return []
        if now - self.started_at >= config.give_up_s:
            acts = self.cancel(now)
            self.phase, self.reason = GAVE_UP, "nobody could be reached to play with"
            return acts
        if self.phase in (CLAIMING, CONNECTING, ASKING) and now >= self.deadline:
            return [Act("close"), *self._next_slot(now, again=False)]  # silence: a vanished page
        if self.phase == SEATED and now >= self.deadline:
            return self._leave_host(now)
        if self.phase == PAUSED and now >= self.deadline:
            return self._claim(0, now)
        return []

    # -- the joiner's side --------------------------------------------------------------------------------

    def _from_host(self, text: Any, now: float) -> list[Act]:
        try:
            message = parse(text, sender="lobby")
        except ProtocolError:
            return [Act("close"), *self._next_slot(now)]  # junk: whoever holds this slot is no host
        if message.kind == "seated":
            seat = message["seat"]
            moved = self.phase == SEATED and seat != self.my_seat
            if moved or not 0 < seat < self.seats or message["seats"] != self.seats:
                return [Act("close"), *self._next_slot(now)]
            if self.phase == ASKING:  # later ones only say how full the table is; patience runs on
                config = self.config
                self.phase, self.my_seat = SEATED, seat
                self.deadline = now + config.wait_s + config.min_host_s + config.answer_s
            self.filled = message["filled"]
            return []
        if message.kind == "no":
            return [Act("close"), *self._pause(now)]
        return self._started(message, now)

    def _started(self, message: Message, now: float) -> list[Act]:
        places = [_place(p) for p in message["places"]]
        seat = message["seat"]
        mine = places[seat] if seat < len(places) else None
        if (
            self.phase != SEATED
            or seat != self.my_seat
            or len(places) != self.seats
            or mine is None
            or mine.key != self.me.key
            or places[0].kind != "human"
            or not _distinct_keys(places)
        ):
            return [Act("close"), *self._pause(now)]  # not the table we were seated at
        self.phase = DONE
        self.table = Table(self.lobby, False, seat, tuple(places))
        return []

    def _leave_host(self, now: float) -> list[Act]:
        return [
            Act("send", peer=self.host_peer, text=encode("bye", sender="seeker")),
            Act("close"),
            *self._pause(now),
        ]

    # -- the host's side ----------------------------------------------------------------------------------

    def _from_joiner(self, peer: str, text: Any, now: float) -> list[Act]:
        guest = self.guests.get(peer)
        if guest is None:
            guest = self.guests[peer] = _Guest(peer, now)
        guest.messages += 1
        if guest.messages > MAX_MESSAGES:
            return self._forget(peer, "too many messages")
        try:
            message = parse(text, sender="seeker")
        except ProtocolError as exc:
            return self._forget(peer, exc.reason)
        if message.kind == "bye":
            return self._forget(peer)
        if guest.seat is not None:
            return []  # asked twice: the seat stands
        entrant, problem = self._entrant(message)
        if entrant is None:
            return self._forget(peer, problem)
        taken = {g.seat for g in self.guests.values() if g.seat is not None}
        free = [s for s in range(1, self.seats) if s not in taken]
        acts = []
        if not free:
            farthest = self._farthest()
            if farthest is None or self._distance(entrant) >= self._distance(farthest.entrant):
                return self._forget(peer, "the table is full") + self._chosen(now)
            free = [farthest.seat or 0]  # a seeker nearer in rating takes the farthest one's seat
            acts = self._turn_away(farthest.peer, "a player nearer in rating took the seat")
            del self.guests[farthest.peer]
        guest.seat, guest.entrant = free[0], entrant
        acts += self._seated_all()
        if self.filled == self.seats:
            self.full_since = self.full_since or now
        return acts + self._chosen(now)

    def _at_door(self) -> bool:
        """Tell whether a joiner's channel is open that has not asked for a seat yet."""
        return any(g.seat is None for g in self.guests.values())

    def _chosen(self, now: float) -> list[Act]:
        """Start a full table unless seekers at the door may still ask (``choose_s`` at most)."""
        if self.phase != HOSTING or not self.full_since:
            return []
        if self.config.choose_s <= 0 or not self._at_door():
            return self._begin(now)
        return []

    def _distance(self, entrant: Entrant | None) -> float:
        """Return how far a seeker's claimed rating is from the host's (the claims only: the table
        verifies every chain once it starts)."""
        return abs(entrant.rating.mu - self.me.rating.mu) if entrant is not None else float("inf")

    def _farthest(self) -> _Guest | None:
        """Return the seated guest farthest from the host's rating (the latest of equals), or None."""
        seated = sorted((g for g in self.guests.values() if g.seat is not None), key=lambda g: g.opened_at)
        return max(reversed(seated), key=lambda g: self._distance(g.entrant), default=None)

    def _entrant(self, message: Message) -> tuple[Entrant | None, str]:
        if message["v"] != VERSION:
            return None, "another version of Boneyard"
        if (message["game"], message["mode"], message["seats"]) != (self.game, self.mode, self.seats):
            return None, "another game or mode"
        if not _is_key(message["key"]):
            return None, "a key that is not a key"
        keys = {self.me.key} | {g.entrant.key for g in self.guests.values() if g.entrant is not None}
        if message["key"] in keys:
            return None, "that player is already at this table"
        mu, sigma = message["rating"]
        return Entrant(message["name"], message["key"], Rating(float(mu), float(sigma))), ""

    def _seated_all(self) -> list[Act]:
        self.filled = 1 + sum(1 for g in self.guests.values() if g.seat is not None)
        if self.filled < self.seats:
            self.full_since = 0.0
        return [
            Act(
                "send",
                peer=g.peer,
                text=encode("seated", sender="lobby", seat=g.seat, filled=self.filled, seats=self.seats),
            )
            for g in self.guests.values()
            if g.seat is not None
        ]

    def _begin(self, now: float) -> list[Act]:
        """Start the table: people where seated, computers elsewhere; release the id, turn the rest away."""
        by_seat = {g.seat: g for g in self.guests.values() if g.seat is not None and g.entrant is not None}
        mine = Rating(*self.me.rating.to_json())  # as the joiners get it, so every page holds one table
        places = [Place("human", safe_name(self.me.name, "Player"), self.me.key, mine)]
        for seat in range(1, self.seats):
            guest = by_seat.get(seat)
            if guest is None or guest.entrant is None:
                places.append(Place("bot", BOT_NAME))
            else:
                entrant = guest.entrant
                places.append(Place("human", entrant.name, entrant.key, entrant.rating, guest.peer))
        wire = [place.to_json() for place in places]
        acts = [Act("release")]
        for guest in list(self.guests.values()):
            if guest.seat is None:
                acts += self._turn_away(guest.peer, "the table is full")
            else:
                text = encode("start", sender="lobby", seat=guest.seat, places=wire)
                acts.append(Act("send", peer=guest.peer, text=text))
        self.phase = DONE
        self.table = Table(self.lobby, True, 0, tuple(places))
        return acts

    def _forget(self, peer: str, reason: str = "") -> list[Act]:
        guest = self.guests.pop(peer, None)
        acts = self._turn_away(peer, reason) if reason else [Act("drop", peer=peer)]
        if guest is not None and guest.seat is not None:
            acts += self._seated_all()
        return acts

    def _turn_away(self, peer: str, reason: str) -> list[Act]:
        return [
            Act("send", peer=peer, text=encode("no", sender="lobby", reason=reason)),
            Act("drop", peer=peer),
        ]

    def _send_all(self, text: str) -> list[Act]:
        return [Act("send", peer=g.peer, text=text) for g in self.guests.values()]

    # -- moving on ----------------------------------------------------------------------------------------

    def _claim(self, slot: int, now: float) -> list[Act]:
        self.missed = self.missed and slot == self.slot
        self.slot, self.phase, self.deadline = slot, CLAIMING, now + self.config.answer_s
        self.host_peer, self.filled, self.attempts = "", 1, self.attempts + 1
        return [Act("claim", lobby=self.lobby)]

    def _next_slot(self, now: float, again: bool = True) -> list[Act]:
        """Move on from a slot whose holder did not answer: once more the same when ``again`` (the broker
        knew no such peer: a host that has just started released it, so it may be free now), then the
        next, then a pause and slot 0."""
        if again and not self.missed:
            self.missed = True
            return self._claim(self.slot, now)
        if self.slot + 1 < self.config.slots:
            return self._claim(self.slot + 1, now)
        return self._pause(now)

    def _pause(self, now: float) -> list[Act]:
        self.phase, self.deadline, self.host_peer = PAUSED, now + self.config.pause_s, ""
        self.missed = False
        return []

    def _give_up(self, reason: str) -> list[Act]:
        self.phase, self.reason = GAVE_UP, reason
        return [Act("close")]


# P-256 (FIPS 186-4 D.1.2.3): y^2 = x^3 - 3x + b over the prime p.
_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B


def _is_key(key: str) -> bool:
    """Tell whether ``key`` is an uncompressed P-256 public key: 0x04, then x and y on the curve."""
    try:
        fingerprint(key)  # 65 bytes of base64url
    except RecordError:
        return False
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    x, y = int.from_bytes(raw[1:33], "big"), int.from_bytes(raw[33:], "big")
    return raw[0] == 4 and x < _P and y < _P and (y * y - (x * x * x - 3 * x + _B)) % _P == 0


def _place(data: dict[str, Any]) -> Place:
    rating = data["rating"]
    return Place(data["kind"], data["name"], data["key"], Rating(*rating) if rating else None)


def _distinct_keys(places: list[Place]) -> bool:
    keys = [p.key for p in places if p.kind == "human"]
    return None not in keys and len(set(keys)) == len(keys)
