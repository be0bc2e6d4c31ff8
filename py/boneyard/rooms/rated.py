"""A rated table's messages: the players' chains going round, and the start and the result being signed.

At the start of a rated game every page sends its chain of signed records (``chain_texts``: ``chain``
with the count, then ``link`` messages of up to 32 KiB of records each); the host relays each seat's to the others with the seat.
Each page collects a seat's links in a ``ChainInbox`` (in order, no more than announced, at most
``rating.MAX_CHAIN``) and recomputes that player's rating with ``rating.check_chain``: a tampered,
forged, replayed or oversized chain shows as unverified and only its good part counts. The host then
sends ``rated_start`` (``start_record``); every page checks it (``check_start``: its own key and name at
its seat, the ratings it recomputed, the deal's commitments it saw) and signs its canonical bytes;
signatures go round as ``sign``. At the end the same with ``rated_end`` (``end_record``). ``Signing``
keeps a stage's signatures, refusing one that does not verify, and gives the signed record
(``rating.check_record``'s form) to add to every player's chain.

Pure, like the rooms: signatures are verified by the caller's ``verify`` (WebCrypto in the page).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import rating
from ..rating import Rating, Signature
from .protocol import MAX_LINK, check_to_sign, encode

__all__ = [
    "ChainInbox",
    "Signing",
    "chain_texts",
    "check_start",
    "end_record",
    "moves_digest",
    "start_record",
]


def chain_texts(game: str, chain: Sequence[Any]) -> list[str]:
    """Return the guest texts that send ``chain``: its count, then ``link`` runs of records, each as
    long as a link may be; the newest records when it is longer than a chain may be."""
    kept = list(chain)[-rating.MAX_CHAIN :]
    texts = [encode("chain", sender="guest", game=game, count=len(kept))]
    if not kept:
        return texts
    lengths = [_length(signed) for signed in kept]
    # Everything of a link but its records' own text (a comma between two), with the longest n.
    frame = len(encode("link", sender="guest", n=rating.MAX_CHAIN - 1, records=kept[:1])) - lengths[0]
    first = 0
    while first < len(kept):
        last, size = first + 1, frame + lengths[first]  # one record always fits (4 KiB at most)
        while last < len(kept) and size + 1 + lengths[last] <= MAX_LINK:
            size, last = size + 1 + lengths[last], last + 1
        texts.append(encode("link", sender="guest", n=first, records=kept[first:last]))
        first = last
    return texts


def _length(signed: Any) -> int:
    """Return the characters a signed record takes in a message, as encode writes it."""
    return len(json.dumps(signed, ensure_ascii=False, separators=(",", ":")))


@dataclass
class ChainInbox:
    """One seat's chain as it arrives: ``chain`` first, then ``link`` runs in order up to the count."""

    game: str
    count: int | None = None
    links: list[Any] = field(default_factory=list)
    problem: str = ""

    def take(self, kind: str, fields: dict[str, Any]) -> bool:
        """Take a parsed ``chain`` or ``link``; return False (and keep nothing more) when it is out of turn."""
        if self.problem:
            return False
        if kind == "chain" and self.count is None and fields["game"] == self.game:
            self.count = fields["count"]
            return True
        if (
            kind == "link"
            and self.count is not None
            and fields["n"] == len(self.links)
            and len(self.links) + len(fields["records"]) <= self.count
        ):
            self.links += fields["records"]
            return True
        self.problem = f"an unexpected {kind}"
        self.links = []
        return False

    @property
    def complete(self) -> bool:
        """Tell whether every announced record has arrived."""
        return self.count is not None and len(self.links) == self.count and not self.problem

    def check(self, owner: str, verify: Callable[[Signature], bool]) -> rating.ChainCheck:
        """Recompute ``owner``'s rating from what arrived (unverified when it is incomplete or out of turn)."""
        if not self.complete:
            return rating.ChainCheck(
                rating=rating.default_rating(), problem=self.problem or "the chain did not arrive whole"
            )
        return rating.check_chain(owner, self.game, self.links, verify)


def moves_digest(moves: Sequence[str]) -> str:
    """Return the hash of a game's moves that its record carries (SHA-256, hex, one move a line)."""
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()


def start_record(
    game: str,
    mode: str,
    deal: Sequence[str],
    players: Sequence[tuple[str, str]],
    before: Sequence[Rating],
    teams: Sequence[Sequence[int]] | None,
    at: str,
) -> dict[str, Any]:
    """Return the start of a rated game, as the host sends it to sign: ``players`` are (key, name)."""
    start = {
        "v": rating.RECORD_VERSION,
        "game": game,
        "mode": mode,
        "deal": list(deal),
        "players": [{"key": key, "name": name} for key, name in players],
        "teams": [list(team) for team in teams] if teams else None,
        "before": [r.to_json() for r in before],
        "at": at,
    }
    check_to_sign(start)
    return start


def end_record(
    start: dict[str, Any], placings: Sequence[int], moves: str, forfeit: int | None
) -> dict[str, Any]:
    """Return the whole record of a rated game from its start; raise RecordError when it is malformed."""
    record = {**start, "placings": list(placings), "moves": moves, "forfeit": forfeit}
    check_to_sign(record)
    return record


def check_start(
    start: dict[str, Any],
    *,
    seat: int,
    key: str,
    name: str,
    game: str,
    mode: str,
    before: Sequence[Rating],
    deal: Sequence[str],
) -> str:
    """Return why this page must not sign the host's ``start`` ("" when it may)."""
    players = start["players"]
    if not 0 <= seat < len(players) or players[seat] != {"key": key, "name": name}:
        return "the start does not seat you as you are"
    if (start["game"], start["mode"]) != (game, mode):
        return "the start names another game"
    if start["deal"] != list(deal):
        return "the start's deal is not the one dealt"
    if len(before) != len(players) or not all(
        Rating(*pair).close_to(mine) for pair, mine in zip(start["before"], before)
    ):
        return "the start's ratings are not the ones the chains support"
    return ""


@dataclass
class Signing:
    """A stage's signatures (``start`` or ``end``) of one record, each checked as it comes."""

    record: dict[str, Any]
    stage: str
    sigs: dict[int, str] = field(default_factory=dict)

    @property
    def message(self) -> bytes:
        """Return the bytes every seat signs at this stage."""
        signed = rating.start_of(self.record) if self.stage == "start" else self.record
        return rating.canonical(signed)

    def take(self, seat: int, sig: str, verify: Callable[[Signature], bool]) -> bool:
        """Keep ``seat``'s signature when it verifies against that seat's key; return whether it did."""
        players = self.record["players"]
        if not 0 <= seat < len(players) or seat in self.sigs:
            return False
        if not verify(Signature(players[seat]["key"], self.message, sig)):
            return False
        self.sigs[seat] = sig
        return True

    def missing(self, forfeit: int | None = None) -> list[int]:
        """Return the seats whose signature has not come (a forfeiting seat signs no end)."""
        skip = forfeit if self.stage == "end" else None
        return [s for s in range(len(self.record["players"])) if s not in self.sigs and s != skip]

    def signed(self, start_sigs: Signing) -> dict[str, Any]:
        """Return the signed record from this ``end`` stage and the ``start`` one (RecordError if short)."""
        seats = len(self.record["players"])
        signed = {
            "record": self.record,
            "start_sigs": [start_sigs.sigs.get(s) for s in range(seats)],
            "sigs": [self.sigs.get(s) for s in range(seats)],
        }
        rating.check_record(signed)
        return signed
