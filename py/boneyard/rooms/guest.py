"""The guest's side of an online room: what a guest knows, built only from the host's messages.

``GuestRoom`` parses every text from the host (``on_message(text) -> list[Event]``) and keeps the
guest's token and seat, the lobby, the latest view (exactly the host's ``state.view(seat)``), the chat
log, the seats' connection status, the refusals, and for the fair deal its own nonce, the commitments
shown before the reveal, the first view of the game and a digest of every view since, and at the end
the host's deal proof. ``check_deal()`` replays the game from that proof. It answers the host's deal
round by itself: an ``Event`` of kind ``"send"`` carries a text (``data["text"]``) for the UI to send.

Event kinds: ``welcome``, ``lobby``, ``view``, ``refused``, ``chat``, ``react``, ``seat``, ``dealing``
(the deal round began; ``redeals`` counts rounds begun again after this guest had revealed, which
an honest host does only when someone dropped out), ``deal`` (the proof arrived), ``host_left``, ``removed``, ``error``, ``bad``
(a host text outside the schema, ignored), ``cheat`` (the host left this guest's commitment out),
``send``, ``rated`` (a rated table's message: ``kind`` and its fields, for ``rooms.rated``). The builders (``hello``, ``move``, ``chat``, ``react``, ``leave``) return texts to send.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import fairdeal
from .protocol import VERSION, ProtocolError, encode, parse, safe_name

__all__ = ["Event", "GuestRoom"]

CHAT_LOG = 200  # chat lines kept


@dataclass(frozen=True)
class Event:
    """Something the guest's screen should know about (see the module for the kinds)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


class GuestRoom:
    """What a guest knows about its room (see the module)."""

    def __init__(
        self, code: str, name: str, token: str | None = None, *, nonce_rng: random.Random | None = None
    ) -> None:
        """Start knowing only the room's ``code``, our ``name`` and the ``token`` kept from an earlier visit.

        Our nonce for the fair deal comes from the system's randomness (``nonce_rng`` only for tests).
        """
        self.nonce_rng = nonce_rng
        self.code = code
        self.name = name
        self.token = token
        self.seat: int | None = None
        self.game: str | None = None
        self.mode: str | None = None
        self.options: dict[str, Any] = {}
        self.seats: list[dict[str, Any]] = []
        self.start_ok = False
        self.status: dict[int, str] = {}
        self.view: dict[str, Any] | None = None
        self.chat_log: list[dict[str, Any]] = []
        self.refusals: list[str] = []
        self.host_left = False
        self.removed: str | None = None
        self.error: str | None = None
        # the fair deal of the game in progress
        self.nonce: str | None = None
        self.asked_commits: list[str] | None = None
        self.first_view: dict[str, Any] | None = None
        self.view_digests: dict[int, str] = {}
        self.proof: dict[str, Any] | None = None
        self.redeals = 0  # deal rounds begun again after this guest revealed (a host trying seeds?)

    # -- what the host sends --------------------------------------------------------------------------

    def on_message(self, text: Any) -> list[Event]:
        """Take one text from the host; return what changed. A text outside the schema is ignored (``bad``)."""
        try:
            message = parse(text, sender="host")
        except ProtocolError as exc:
            return [Event("bad", {"reason": exc.reason})]
        fields = dict(message.fields)
        kind = message.kind
        if kind == "welcome":
            self.seat = fields["seat"]
            self.token = fields["token"]
            self.code = fields["code"]
            self.game = fields["game"]
            self.mode = fields["mode"]
            self.options = dict(fields["options"])
            self.host_left = False
            self.removed = None
            return [Event("welcome", fields)]
        if kind == "lobby":
            self.seats = fields["seats"]
            self.start_ok = fields["start_ok"]
            self.status = {row["seat"]: row["status"] for row in self.seats}
            return [Event("lobby", fields)]
        if kind == "seat":
            self.status[fields["seat"]] = fields["status"]
            return [Event("seat", fields)]
        if kind == "view":
            return self._view(fields["view"])
        if kind == "commit_ask":
            if self.asked_commits is not None and self.first_view is None:
                self.redeals += 1  # the host began again after we had revealed and before any deal
            self.nonce = fairdeal.new_nonce(self.nonce_rng)
            self.asked_commits = None
            self.first_view = None
            self.view_digests = {}
            self.proof = None
            reply = encode("commit", sender="guest", hash=fairdeal.commitment(self.nonce))
            return [Event("dealing", {"redeals": self.redeals}), Event("send", {"text": reply})]
        if kind == "reveal_ask":
            commits = fields["commits"]
            if self.nonce is None:
                return [Event("bad", {"reason": "asked to reveal before committing"})]
            if fairdeal.commitment(self.nonce) not in commits:
                return [Event("cheat", {"reason": "the host left your commitment out of the deal"})]
            self.asked_commits = list(commits)
            return [Event("send", {"text": encode("reveal", sender="guest", nonce=self.nonce)})]
        if kind == "deal":
            self.proof = fields
            return [Event("deal", fields)]
        if kind == "chat":
            self.chat_log.append(fields)
            del self.chat_log[:-CHAT_LOG]
            return [Event("chat", fields)]
        if kind == "react":
            return [Event("react", fields)]
        if kind in ("chain", "link", "sign", "rated_start", "rated_end"):
            return [Event("rated", {"kind": kind, **fields})]  # the rated table's business (rooms.rated)
        if kind == "refused":
            self.refusals.append(fields["reason"])
            del self.refusals[:-20]
            return [Event("refused", fields)]
        if kind == "host_left":
            self.host_left = True
            return [Event("host_left")]
        if kind == "removed":
            self.removed = fields["reason"]
            self.token = None  # the seat is not ours any more: nothing saved may bring us back to it
            return [Event("removed", fields)]
        self.error = fields["reason"]
        return [Event("error", fields)]

    def _view(self, view: dict[str, Any]) -> list[Event]:
        if self.seat is not None and view.get("seat") != self.seat:
            return [Event("bad", {"reason": "a view for another seat"})]
        self.view = view
        number = view["turn_number"]
        if self.nonce is not None and self.asked_commits is not None:
            if self.first_view is None and number == 0:
                self.first_view = view
            self.view_digests[number] = fairdeal.view_digest(view)
        return [Event("view", {"view": view})]

    # -- reading ----------------------------------------------------------------------------------------

    def my_turn(self) -> bool:
        """Tell whether the latest view says this guest is to move."""
        view = self.view
        return view is not None and not view.get("over") and view.get("turn") == self.seat

    def legal_moves(self) -> list[str]:
        """Return the legal moves the latest view lists for this guest (empty when not its turn)."""
        moves = self.view.get("legal_moves", []) if self.view is not None else []
        return [m for m in moves if isinstance(m, str)] if isinstance(moves, list) else []

    def check_deal(self) -> tuple[bool, str]:
        """Check the finished game's deal against what this guest kept; return ``(ok, reason)``."""
        proof = self.proof
        if proof is None:
            return False, "the host has not sent the deal yet"
        if self.game is None or self.seat is None:
            return False, "this page never joined the game"
        if self.first_view is None:
            return False, "this page did not see the deal (it joined or reloaded later)"
        return fairdeal.check_deal(
            self.game,
            self.options,
            proof["commits"],
            proof["nonces"],
            proof["seed"],
            proof["moves"],
            self.seat,
            self.first_view,
            my_nonce=self.nonce,
            asked_commits=self.asked_commits,
            view_digests=self.view_digests,
        )

    # -- what the guest sends ---------------------------------------------------------------------

    def hello(self, name: str | None = None) -> str:
        """Return the hello text (with the kept token, so a returning guest gets its seat back)."""
        if name is not None:
            self.name = name
        fields: dict[str, Any] = {"name": safe_name(self.name, "Guest"), "v": VERSION}
        if self.token is not None:
            fields["token"] = self.token
        return encode("hello", sender="guest", **fields)

    def move(self, move: str) -> str:
        """Return the text of a move for the turn the latest view shows."""
        number = self.view["turn_number"] if self.view is not None else 0
        return encode("move", sender="guest", move=str(move), turn_number=number)

    def chat(self, text: str) -> str:
        """Return a chat text (raise ProtocolError when it is empty or too long once cleaned)."""
        return encode("chat", sender="guest", text=text)

    def react(self, key: str) -> str:
        """Return a reaction text (raise ProtocolError for a key outside the set)."""
        return encode("react", sender="guest", key=key)

    def leave(self) -> str:
        """Return the text that says this guest is leaving."""
        return encode("leave", sender="guest")

    # -- saving (so a reload can still check the deal) ------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return what a reload needs to carry on: token, seat, the deal round's secrets and first view."""
        return {
            "code": self.code,
            "name": self.name,
            "token": self.token,
            "seat": self.seat,
            "nonce": self.nonce,
            "asked_commits": self.asked_commits,
            "first_view": self.first_view,
            "view_digests": {str(k): v for k, v in self.view_digests.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GuestRoom:
        """Rebuild a guest room from ``to_dict``; raise ValueError when it is malformed."""
        try:
            room = cls(str(data["code"]), str(data["name"]), data.get("token"))
            room.seat = data.get("seat")
            room.nonce = data.get("nonce")
            asked = data.get("asked_commits")
            room.asked_commits = list(asked) if asked is not None else None
            first = data.get("first_view")
            room.first_view = dict(first) if first is not None else None
            room.view_digests = {int(k): str(v) for k, v in dict(data.get("view_digests") or {}).items()}
            return room
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"bad guest room save: {exc}") from None
