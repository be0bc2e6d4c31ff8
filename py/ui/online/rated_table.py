"""A rated game at an online table: the chains going round, the start and the result signed, the record kept.

When the host's game is dealt at a table whose ``rated`` flag is set (and no computer sits at it), the host
sends its chain (``boneyard.rooms.rated``), and each guest answers with its own; the host relays every
chain and signature to the others with the sender's seat. Each page checks every chain's signatures with
WebCrypto (``ui.rated.verifier``) and recomputes that player's rating (``ChainInbox.check``): a tampered,
forged, replayed, oversized or out-of-turn chain shows as unverified and only its good part counts. The
host then asks everyone to sign the start (``rated_start``); each page checks it (its own key and name, the
ratings it recomputed, the deal it saw) before it signs. At the end the host sends the record
(``rated_end``: the placings, the moves' digest, or the seat that forfeited by staying away past the
reconnect grace) and everyone checks and signs it; once every signature is in, each page adds the signed
record to its own chain (``ui.rated``) and shows the rating's change. Anything that does not hold is
refused with nothing stored, and the table says why.

Every step waits on WebCrypto, so the messages are queued and handled one at a time, in order, in a task.
Pure: the page is reached through the room's port (``identity()``) and the callbacks given.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from boneyard import rating
from boneyard.games import GAMES
from boneyard.rating import ChainCheck, RecordError
from boneyard.rooms import protocol
from boneyard.rooms import rated as rated_room

from .. import rated as book
from ..html import Markup, h, name_text
from .net import hold_seconds

__all__ = ["RatedTable", "bot_note", "placings_of", "rated_note", "teams_of"]

HOST_FOUND_S = 5.0  # a host back within its grace is found at the guest's next try (every 5 s at most)
NOTE_KEY = "rated_note"  # the session's extra: the results' line on the rating (kit.rated_line shows it)


def now_text() -> str:
    """Return the time a start record carries (UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def teams_of(options: dict[str, Any], seats: int) -> list[list[int]] | None:
    """Return the partnerships a game's options make (Dominoes' partners: seats 0+2 and 1+3), or None."""
    return [[0, 2], [1, 3]] if options.get("teams") and seats == 4 else None


def placings_of(outcome: Any, seats: int) -> list[int]:
    """Return every seat's place (1 = first) from a finished game's outcome."""
    if outcome.placings and len(outcome.placings) == seats:
        return [int(p) for p in outcome.placings]
    winners = set(outcome.winners)
    if not winners:
        return [1] * seats
    return [1 if seat in winners else 2 for seat in range(seats)]


def forfeit_placings(seats: int, forfeit: int) -> list[int]:
    """Return a forfeit's places: the one who left last, everyone else first."""
    return [seats if s == forfeit else 1 for s in range(seats)]


def rated_note(session: Any) -> str | None:
    """Return the results panel's line on the rating ("" or None: nothing to say)."""
    note = getattr(session, "extra", {}).get(NOTE_KEY)
    return note if isinstance(note, str) and note else None


def bot_note(session: Any) -> None:
    """Mark a game at a rated table where a computer played: the results say it is not rated."""
    session.extra[NOTE_KEY] = "Not rated: a computer played."


class RatedTable:
    """One rated game at an online table, on one page (see the module)."""

    def __init__(
        self,
        online: Any,
        *,
        game: str,
        mode: str,
        seats: Sequence[int],
        me: int,
        names: dict[int, str],
        deal: Sequence[str],
        teams: list[list[int]] | None,
        send: Callable[[str, dict[str, Any], int | None], None],
    ) -> None:
        self.online = online
        self.identity = online.port.identity()
        self.storage = online.app.storage
        self.game, self.mode = game, mode[:64] or game
        self.seats = sorted(seats)
        self.me = me
        self.names = {seat: names.get(seat, "")[: rating.MAX_NAME] for seat in self.seats}
        self.deal = list(deal)
        self.teams = teams
        self.send = send  # (kind, fields, seat not to send to): the room's way to the others
        self.is_host = online.kind == "host"
        self.key = ""
        self.keys: dict[int, str] = {}
        self.inboxes: dict[int, rated_room.ChainInbox] = {}
        self.checks: dict[int, ChainCheck] = {}
        self.start: dict[str, Any] | None = None
        self.start_sigs: rated_room.Signing | None = None
        self.end: dict[str, Any] | None = None
        self.end_sigs: rated_room.Signing | None = None
        self.early: list[tuple[int, dict[str, Any]]] = []  # signatures that came before their record
        self.problem = ""  # why this game is not rated after all ("" while it is)
        self.refused: list[str] = []  # what was refused from the others, in words
        self.result: tuple[ChainCheck, ChainCheck] | None = None  # my chain before and after
        self.my_chain: list[Any] = []
        self.pending_start: dict[str, Any] | None = None  # a start that came before every chain was checked
        self.queue: deque[tuple[int, str, dict[str, Any]]] = deque()
        self.ready = False
        self.task: asyncio.Future[Any] | None = None
        self.lone = False  # a guest's own record of its host's forfeit: signed by this page alone
        self.host_timer: Any = None  # a guest's: the grace the host has left to come back
        rows = getattr(online, "seats", [])
        self.host = next((int(row["seat"]) for row in rows if row.get("kind") == "host"), None)

    # -- what comes in ------------------------------------------------------------------------------------
    def begin(self) -> None:
        """Find this browser's key and send this player's chain (in the background)."""
        self.task = asyncio.ensure_future(self._begin())

    async def _begin(self) -> None:
        key = await self.identity.public_key()
        if not key:
            self.send("chain", {"game": self.game, "count": 0}, None)  # the others learn there is no key
            self.stop("this browser keeps no key (a private window?)")
            return
        self.key = key
        book.set_me(self.storage, key, self.names.get(self.me, ""))
        stored, _ = book.load_chain(self.storage, self.game, key)
        verify = await book.verifier(self.identity, book.chain_signatures(stored))
        chain, mine = book.load_chain(self.storage, self.game, key, verify)  # edited: kept aside, reported
        self.keys[self.me], self.checks[self.me] = key, mine
        self.my_chain = chain
        texts = rated_room.chain_texts(self.game, chain)
        for number, text in enumerate(texts):
            message = protocol.parse(text, sender="guest")
            fields = dict(message.fields)
            if number == 0:
                fields["key"] = key
            self.send(message.kind, fields, None)
        self.ready = True
        await self._drain()

    def take(self, seat: int, kind: str, fields: dict[str, Any]) -> None:
        """Queue a rated message from ``seat`` (the host's relay names it; a guest's own, its seat)."""
        if self.is_host and kind in ("chain", "link", "sign"):
            self.send(kind, {**fields, "seat": seat}, seat)  # the others see it as it came
        self.queue.append((seat, kind, {k: v for k, v in fields.items() if k != "seat"}))
        if self.ready and (self.task is None or self.task.done()):
            self.task = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        while self.queue and self.ready:
            seat, kind, fields = self.queue.popleft()
            try:
                await self._handle(seat, kind, fields)
            except (RecordError, protocol.ProtocolError, KeyError, TypeError, ValueError) as exc:
                self.refuse(f"{self.who(seat)}'s {kind} ({exc})")
        self.changed()

    async def _handle(self, seat: int, kind: str, fields: dict[str, Any]) -> None:
        if kind in ("chain", "link"):
            await self._chain(seat, kind, fields)
        elif kind == "sign":
            await self._sign(seat, fields)
        elif kind == "rated_start" and not self.is_host:
            await self._start(fields["start"])
        elif kind == "rated_end" and not self.is_host:
            await self._end(fields["record"])
        elif kind == "own_end" and seat == self.me and (self.is_host or self.lone):
            await self._take_end(fields["record"])

    async def _chain(self, seat: int, kind: str, fields: dict[str, Any]) -> None:
        if seat not in self.seats or seat == self.me or seat in self.checks:
            self.refuse(f"a chain nobody asked for (seat {seat + 1})")
            return
        inbox = self.inboxes.setdefault(seat, rated_room.ChainInbox(self.game))
        if kind == "chain":
            key = fields.pop("key", None)
            if key is None or key in self.keys.values():
                inbox.problem = "a chain without its own key"
            else:
                self.keys[seat] = key
        inbox.take(kind, fields)
        if not inbox.complete and not inbox.problem:
            return
        key = self.keys.get(seat, "")
        if inbox.problem or not key:
            check = ChainCheck(rating=rating.default_rating(), problem=inbox.problem or "no key")
        else:
            verify = await book.verifier(self.identity, book.chain_signatures(inbox.links))
            check = inbox.check(key, verify)
        self.checks[seat] = check
        if not check.verified:
            self.refuse(f"{self.who(seat)}'s rated results: {check.problem}")
        if key:
            await book.remember(
                self.identity, self.storage, self.game, key, self.names.get(seat, ""), check, now_text()
            )
        await self._all_checked()

    async def _all_checked(self) -> None:
        if any(seat not in self.checks for seat in self.seats):
            return
        keyless = [self.who(seat) for seat in self.seats if seat not in self.keys]
        if keyless:
            self.stop(f"{', '.join(keyless)} brought no key")
            return
        if self.is_host and self.start is None and not self.problem:
            latest = max(
                [now_text()]
                + [
                    str(signed["record"]["at"])
                    for inbox in self.inboxes.values()
                    for signed in inbox.links[-1:]
                ]
                + [str(signed["record"]["at"]) for signed in self.my_chain[-1:]]
            )  # a chain's records are in time order: the table's clock never goes back on anyone's
            start = rated_room.start_record(
                self.game,
                self.mode,
                self.deal,
                [(self.keys[s], self.names[s]) for s in self.seats],
                [self.checks[s].rating for s in self.seats],
                self.teams,
                latest,
            )
            self.send("rated_start", {"start": start}, None)
            await self._start(start)
        elif self.pending_start is not None:
            start, self.pending_start = self.pending_start, None
            await self._start(start)

    async def _start(self, start: dict[str, Any]) -> None:
        if self.start is not None:
            self.refuse("a second start")
            return
        if any(seat not in self.checks for seat in self.seats):
            self.pending_start = start  # signed once every chain is checked
            return
        why = rated_room.check_start(
            start,
            seat=self.seats.index(self.me),
            key=self.key,
            name=self.names[self.me],
            game=self.game,
            mode=self.mode,
            before=[self.checks[s].rating for s in self.seats],
            deal=self.deal,
        )
        if why or [p["key"] for p in start["players"]] != [self.keys[s] for s in self.seats]:
            self.stop(why or "the start seats other keys")
            return
        self.start = start
        self.start_sigs = rated_room.Signing(start, "start")
        await self._sign_mine(self.start_sigs)

    async def _sign_mine(self, signing: rated_room.Signing) -> None:
        sig = await self.identity.sign(signing.message.decode("ascii"))
        if not sig:
            self.stop("this browser could not sign")
            return
        signing.take(self.seats.index(self.me), sig, lambda _s: True)
        self.send("sign", {"stage": signing.stage, "sig": sig}, None)
        for seat, fields in [item for item in self.early if item[1]["stage"] == signing.stage]:
            self.early.remove((seat, fields))
            await self._sign(seat, fields)
        self.keep_if_signed()

    async def _sign(self, seat: int, fields: dict[str, Any]) -> None:
        signing = self.start_sigs if fields["stage"] == "start" else self.end_sigs
        if signing is None:
            if len(self.early) < 2 * len(self.seats):
                self.early.append((seat, fields))
            return
        if seat not in self.seats:
            self.refuse(f"a signature from seat {seat + 1}, not at this table")
            return
        index = self.seats.index(seat)
        ok = await self.identity.verify(
            signing.record["players"][index]["key"], signing.message.decode("ascii"), str(fields["sig"])
        )
        if not signing.take(index, str(fields["sig"]), lambda _s: ok):
            self.refuse(f"{self.who(seat)}'s signature of the {signing.stage} (it does not verify)")
            return
        self.keep_if_signed()

    async def _end(self, record: dict[str, Any]) -> None:
        if self.start is None or self.end is not None:
            self.refuse("a result before the start was signed" if self.start is None else "a second result")
            return
        if rating.start_of(record) != self.start:
            self.refuse("a result of another start")
            return
        why = self.check_end(record)
        if why:
            self.stop(why)
            return
        await self._take_end(record)

    def check_end(self, record: dict[str, Any]) -> str:
        """Return why this page must not sign the host's result ("" when it may)."""
        forfeit = record["forfeit"]
        mine = self.seats.index(self.me)
        if forfeit is not None:
            if forfeit == mine:
                return "the result says you left, but you are here"
            seat = self.seats[forfeit]
            rows = {int(row["seat"]): row for row in self.online.seats}
            if rows.get(seat, {}).get("status") == "connected" and rows.get(seat, {}).get("kind") == "guest":
                return "the result says a player left who is still here"
            if record["placings"] != forfeit_placings(len(self.seats), forfeit):
                return "the result's places are not a forfeit's"
            return ""
        session = self.online.session
        if session is None or not session.state.is_over():
            return "the result came before the game was over"
        if record["placings"] != placings_of(session.state.outcome(), len(self.seats)):
            return "the result's places are not the game's"
        proof = getattr(self.online.room, "proof", None)
        if proof is not None and record["moves"] != rated_room.moves_digest(list(proof.get("moves", []))):
            return "the result's moves are not the game's"
        return ""

    async def _take_end(self, record: dict[str, Any]) -> None:
        self.end = record
        self.end_sigs = rated_room.Signing(record, "end")
        await self._sign_mine(self.end_sigs)

    # -- the host's steps ---------------------------------------------------------------------------------
    def finish(self, session: Any) -> None:
        """Send the finished game's result to sign (the host; once the start is signed by all)."""
        if not self.is_host or self.end is not None or self.problem:
            return
        placings = placings_of(session.state.outcome(), len(self.seats))
        self._host_end(placings, list(session.moves or []), None)

    def forfeit(self, seat: int) -> None:
        """Record that ``seat`` left and did not come back within the grace: it loses (the host)."""
        if not self.is_host or self.end is not None or self.problem or seat not in self.seats:
            return
        index = self.seats.index(seat)
        session = self.online.session
        moves = list(session.moves or []) if session is not None else []
        self._host_end(forfeit_placings(len(self.seats), index), moves, index)

    def _host_end(self, placings: list[int], moves: list[str], forfeit: int | None) -> None:
        if self.start is None or self.start_sigs is None or self.start_sigs.missing():
            self.stop("not everyone signed the start")
            return
        record = rated_room.end_record(self.start, placings, rated_room.moves_digest(moves), forfeit)
        self.send("rated_end", {"record": record}, None)
        self._sign_end(record)

    def _sign_end(self, record: dict[str, Any]) -> None:
        self.end = record  # signed in turn, after what is queued already
        self.queue.append((self.me, "own_end", {"record": record}))
        if self.ready and (self.task is None or self.task.done()):
            self.task = asyncio.ensure_future(self._drain())

    # -- the host gone (a guest's steps) ---------------------------------------------------------------------
    def watch_host(self, present: bool) -> None:
        """Follow the host's channel (a guest): gone past the grace the host gives a guest, it forfeits."""
        if present or self.is_host:
            if self.host_timer is not None:
                self.host_timer.cancel()
                self.host_timer = None
        elif self.host_timer is None and self.end is None and not self.problem:
            grace = hold_seconds(self.online.port) + HOST_FOUND_S
            self.host_timer = self.online.port.later(grace, self._host_gone)

    def _host_gone(self) -> None:
        self.host_timer = None
        if getattr(self.online, "host_peer", None) is None:
            self.host_forfeit()

    def host_forfeit(self) -> None:
        """Record that the host left and did not come back within the grace: it loses (a guest).

        The host relayed every message, so the guests cannot reach each other: each keeps the record signed
        by itself alone (``lone``), which counts in its own chain only. At two players that is every
        signature the record needs; at three or four a guest's record carries its own word that the host
        left, as the host's carries the host's when a guest leaves (docs/architecture.md, "Ratings").
        """
        if self.is_host or self.end is not None or self.problem or self.start is None:
            return
        if self.start_sigs is None or self.start_sigs.missing():
            self.stop("the host left before everyone signed the start")
            return
        session = self.online.session
        if session is not None and session.state.is_over():
            self.stop("the host left before the result was signed")  # the game's own result, not a forfeit
            return
        if self.host not in self.seats or self.host == self.me:
            return
        index = self.seats.index(self.host)
        known = getattr(session, "known_moves", None)
        moves = (known() if known is not None else None) or list(getattr(session, "moves", None) or [])
        placings = forfeit_placings(len(self.seats), index)
        self.lone = True
        self._sign_end(rated_room.end_record(self.start, placings, rated_room.moves_digest(moves), index))

    # -- keeping the record ---------------------------------------------------------------------------------
    def keep_if_signed(self) -> None:
        """Add the record to this player's chain once everyone signed it (the one who left aside)."""
        if self.result is not None or self.end is None or self.end_sigs is None or self.start_sigs is None:
            return
        signed_end = (
            self.seats.index(self.me) in self.end_sigs.sigs  # the others cannot be reached
            if self.lone
            else not self.end_sigs.missing(forfeit=self.end["forfeit"])
        )
        if self.start_sigs.missing() or not signed_end:
            return
        try:
            signed = self.end_sigs.signed(self.start_sigs)
        except RecordError as exc:
            self.stop(str(exc))
            return
        before, after = book.append(self.storage, self.game, self.key, signed)
        if after.counted <= before.counted:
            self.stop("the record could not be added to your results")
            return
        self.result = (before, after)
        session = self.online.session
        if session is not None:
            session.extra[NOTE_KEY] = (
                f"Rated: your {self.game_name()} rating {book.rating_text(before.rating)} → "
                f"{book.rating_text(after.rating)}."
            )
            self.online.app.generation += 1

    # -- saving (a page reloaded during a rated game takes its part back) -------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Return what a reload needs to go on: the table, the ratings checked, the records and signatures."""
        return {
            "game": self.game,
            "mode": self.mode,
            "seats": self.seats,
            "me": self.me,
            "names": {str(s): n for s, n in self.names.items()},
            "deal": self.deal,
            "teams": self.teams,
            "key": self.key,
            "keys": {str(s): k for s, k in self.keys.items()},
            "checks": {str(s): [c.rating.to_json(), c.counted, c.problem] for s, c in self.checks.items()},
            "start": self.start,
            "start_sigs": self.start_sigs.sigs if self.start_sigs is not None else None,
            "end": self.end,
            "end_sigs": self.end_sigs.sigs if self.end_sigs is not None else None,
            "problem": self.problem,
            "done": self.result is not None,
            "lone": self.lone,
            "host": self.host,
        }

    @classmethod
    def from_dict(
        cls, online: Any, data: dict[str, Any], send: Callable[[str, dict[str, Any], int | None], None]
    ) -> RatedTable:
        """Rebuild a table saved by ``to_dict`` (ValueError when it is malformed); it goes on at once."""
        try:
            table = cls(
                online,
                game=str(data["game"]),
                mode=str(data["mode"]),
                seats=[int(s) for s in data["seats"]],
                me=int(data["me"]),
                names={int(s): str(n) for s, n in dict(data["names"]).items()},
                deal=[str(c) for c in data["deal"]],
                teams=data["teams"],
                send=send,
            )
            table.key = str(data["key"])
            table.keys = {int(s): str(k) for s, k in dict(data["keys"]).items()}
            for seat, (pair, counted, problem) in dict(data["checks"]).items():
                table.checks[int(seat)] = ChainCheck(rating.Rating(*pair), int(counted), str(problem))
            for stage in ("start", "end"):
                record, sigs = data[stage], data[f"{stage}_sigs"]
                if record is not None:
                    signing = rated_room.Signing(dict(record), stage)
                    signing.sigs = {int(s): str(v) for s, v in dict(sigs or {}).items()}
                    setattr(table, stage, signing.record)
                    setattr(table, f"{stage}_sigs", signing)
            table.problem = str(data["problem"])
            table.lone = bool(data.get("lone", False))  # saves from before it: False
            host = data.get("host")  # saves from before it: none, and no forfeit of the host
            table.host = int(host) if host is not None else None
            if data["done"]:
                table.result = (table.checks[table.me], table.checks[table.me])  # kept already
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"bad rated table save: {exc}") from None
        table.ready = True
        return table

    # -- what the table shows -----------------------------------------------------------------------------
    def stop(self, why: str) -> None:
        """Give up rating this game, saying why (nothing is signed or stored after this)."""
        if not self.problem and self.result is None:
            self.problem = why
            session = self.online.session
            if session is not None:
                session.extra[NOTE_KEY] = f"Not rated: {why}."
        self.changed()

    def refuse(self, what: str) -> None:
        """Note something refused from the others (kept to the last few)."""
        self.refused = [*self.refused[-3:], f"Refused {what}."]
        port = self.online.port
        port.console(f"rated table: refused {what}")

    def changed(self) -> None:
        """Redraw the table (a rating checked, a record kept)."""
        self.online.rerender()

    def who(self, seat: int) -> str:
        """Return a seat's name."""
        return self.names.get(seat) or f"Seat {seat + 1}"

    def game_name(self) -> str:
        """Return the game family's name."""
        info = GAMES.get(self.game)
        return info.name if info is not None else self.game

    def done_words(self) -> str:
        """Return what the table says of the record kept: signed by all, or who left."""
        forfeit = self.end["forfeit"] if self.end is not None else None
        if forfeit is None:
            return "Result signed by all and kept."
        if self.result is None or self.result[0] is self.result[1]:
            return f"{self.who(self.seats[forfeit])} left: their loss, kept."
        before, after = (check.rating.mu for check in self.result)  # the game will not end: said here
        return f"{self.who(self.seats[forfeit])} left: their loss; your rating {before:.1f} → {after:.1f}."

    def markup(self) -> Markup:
        """Return the table's rated line: every player with the fingerprint and the rating their chain
        proves, or "unverified"; then why the game is not rated, if it is not."""
        people = []
        for seat in self.seats:
            # On a phone the name and mu alone: the line stays one row over the table.
            fingerprint = book.fingerprint_of(self.keys.get(seat, ""))
            label = [
                name_text(self.who(seat)),
                h("span", {"class_": "online-wide"}, " · ", fingerprint) if fingerprint else "",
            ]
            check = self.checks.get(seat)
            if check is None:
                value: Any = h("span", {"class_": "rated-wait"}, "checking…")
            elif check.verified:
                mu, spread = book.rating_text(check.rating).split(" ± ")
                value = [mu, h("span", {"class_": "online-wide"}, " ± ", spread)]
            else:
                value = h(
                    "span",
                    {"class_": "rated-unverified", "title": check.problem},
                    "unverified",
                    h("span", {"class_": "online-wide"}, f" ({book.rating_text(check.rating)} counted)")
                    if check.counted
                    else "",
                )
            people.append(h("li", {"data_seat": str(seat)}, label, ": ", value))
        said = (
            h("p", {"class_": "rated-problem", "role": "status"}, "Not rated: ", self.problem, ".")
            if self.problem
            else ""
        )
        state = "done" if self.result else "off" if self.problem else "on"
        done = h("span", {"class_": "rated-done"}, self.done_words()) if self.result is not None else ""
        return h(
            "div",
            {"class_": "rated-line", "data_rated": state},
            h("span", {"class_": "rated-tag"}, "Rated"),
            h("ul", {"class_": "rated-players"}, people),
            said,
            done,
        )
