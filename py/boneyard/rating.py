"""Ratings without a server: each player's rating is the chain of the results every player signed.

A player's identity is a key pair made in the browser (ECDSA P-256; the private key never leaves it).
When a rated game starts, every player signs its **start** (game and mode, the fair deal's commitments,
who sits where with their public keys, the ratings they bring, the time); when it ends, every player
signs the whole **record** (the start plus the placings, a hash of the moves, and the seat that forfeited
by leaving, if any: that player cannot sign the end, so their signature of the start stands in for it).
A forfeit's record may be signed at the end by fewer: when the host leaves, the guests cannot reach each
other, so each keeps the record signed by itself alone; it counts only in the chain of a player who signed
its end (or of the one who forfeited).

A rating is never read from storage: it is recomputed from the chain, record by record, with the
Weng-Lin (Plackett-Luce) model of ``openskill`` (a maintained library for 2-4 players and partnerships,
so the maths is not ours to get wrong). ``check_chain`` stops at the first record that does not hold
(malformed, not the owner's, another game, a signature that does not verify, a replay of an earlier record,
out of order, or a rating before it that does not follow from the records before it) and reports the chain
as unverified with the reason; only the records before that point count.

Signatures are checked by the caller (in the page, WebCrypto, which is asynchronous): ``signatures(record)``
lists what must verify, and ``check_chain`` takes the caller's verdicts as a function. What this proves and
what it cannot: a result in a verified chain was signed by every key at the table, and the rating follows
from such results; it cannot prove that two keys belong to two people (one person with two devices can
still feed themselves wins).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

__all__ = [
    "MAX_CHAIN",
    "MAX_RECORD",
    "RECORD_VERSION",
    "ChainCheck",
    "Rating",
    "RecordError",
    "Signature",
    "canonical",
    "check_chain",
    "check_record",
    "default_rating",
    "fingerprint",
    "rate",
    "record_id",
    "signatures",
    "start_of",
]

RECORD_VERSION = 1
MAX_CHAIN = 500  # records a chain may hold (about two years of daily rated games)
MAX_RECORD = 4_096  # bytes of one record's canonical form
MAX_NAME = 24
KEY_BYTES = 65  # an uncompressed P-256 public key: 0x04, x, y
SIG_BYTES = 64  # WebCrypto's ECDSA signature: r and s, 32 bytes each
TOLERANCE = 1e-3  # ratings travel rounded; two machines' maths may differ in the last bits
START_KEYS = ("v", "game", "mode", "deal", "players", "teams", "before", "at")
RECORD_KEYS = (*START_KEYS, "placings", "moves", "forfeit")


@cache
def _model() -> Any:
    """Return openskill's Plackett-Luce model, imported at the first rating: the page's start (and its
    memory snapshot, which holds ui.app and so this module) never loads openskill."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


class RecordError(ValueError):
    """A record or chain that does not hold; the message says why."""


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma`` (shown as mu ± 2 sigma, or ordinal)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """Return the conservative rating a leaderboard sorts by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> list[float]:
        """Return ``[mu, sigma]`` rounded as records carry them."""
        return [round(self.mu, 4), round(self.sigma, 4)]

    def close_to(self, other: Rating) -> bool:
        """Tell whether two ratings are the same within what rounding and floating point leave."""
        return abs(self.mu - other.mu) <= TOLERANCE and abs(self.sigma - other.sigma) <= TOLERANCE


def default_rating() -> Rating:
    """Return a new player's rating: the library's default."""
    fresh = _model().rating()
    return Rating(fresh.mu, fresh.sigma)


def rate(
    before: Sequence[Rating], placings: Sequence[int], teams: Sequence[Sequence[int]] | None
) -> list[Rating]:
    """Return every seat's rating after a game, from the ratings before and the placings (1 = first)."""
    groups = [list(team) for team in teams] if teams else [[seat] for seat in range(len(before))]
    ratings = [[_model().rating(mu=before[s].mu, sigma=before[s].sigma) for s in group] for group in groups]
    ranks = [float(min(placings[s] for s in group)) for group in groups]
    after = _model().rate(ratings, ranks=ranks)
    out = list(before)
    for group, rated in zip(groups, after):
        for seat, new in zip(group, rated):
            out[seat] = Rating(new.mu, new.sigma)
    return out


def fingerprint(key: str) -> str:
    """Return a public key's short fingerprint as players read it ("3F2A-91C0")."""
    digest = hashlib.sha256(_b64(key, KEY_BYTES, "key")).hexdigest()[:8].upper()
    return f"{digest[:4]}-{digest[4:]}"


# -- the record's form --------------------------------------------------------------------------------


def canonical(data: Mapping[str, Any]) -> bytes:
    """Return the bytes a signature covers: compact JSON with sorted keys."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def start_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """Return the part of a record every player signs when the game starts."""
    return {key: record[key] for key in START_KEYS}


def record_id(record: Mapping[str, Any]) -> str:
    """Return a record's identity: the SHA-256 of its canonical form (the same game is the same id)."""
    return hashlib.sha256(canonical(record)).hexdigest()


def _b64(text: Any, size: int, what: str) -> bytes:
    if not isinstance(text, str) or len(text) > 2 * size:
        raise RecordError(f"a {what} is malformed")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise RecordError(f"a {what} is malformed") from None
    if len(raw) != size:
        raise RecordError(f"a {what} is malformed")
    return raw


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def check_record(signed: Any) -> tuple[dict[str, Any], list[str], list[str | None]]:
    """Return (record, start signatures, end signatures) of a signed record, or raise RecordError."""
    if not isinstance(signed, Mapping) or set(signed) != {"record", "start_sigs", "sigs"}:
        raise RecordError("a record is malformed")
    record, start_sigs, sigs = signed["record"], signed["start_sigs"], signed["sigs"]
    if not isinstance(record, Mapping) or set(record) != set(RECORD_KEYS):
        raise RecordError("a record is malformed")
    if len(canonical(record)) > MAX_RECORD:
        raise RecordError("a record is too large")
    if record["v"] != RECORD_VERSION:
        raise RecordError("a record is from another version of Boneyard")
    players, before, placings = record["players"], record["before"], record["placings"]
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise RecordError("a record's players are malformed")
    seats = len(players)
    for player in players:
        if not isinstance(player, Mapping) or set(player) != {"key", "name"}:
            raise RecordError("a record's players are malformed")
        _b64(player["key"], KEY_BYTES, "key")
        if not isinstance(player["name"], str) or len(player["name"]) > MAX_NAME:
            raise RecordError("a record's players are malformed")
    if len({player["key"] for player in players}) != seats:
        raise RecordError("a record seats one key twice")
    for name in ("game", "mode", "at", "moves"):
        if not isinstance(record[name], str) or not 0 < len(record[name]) <= 64:
            raise RecordError(f"a record's {name} is malformed")
    deal = record["deal"]
    if (
        not isinstance(deal, list)
        or len(deal) > 8
        or not all(isinstance(c, str) and len(c) == 64 for c in deal)
    ):
        raise RecordError("a record's deal is malformed")
    if not isinstance(before, list) or len(before) != seats:
        raise RecordError("a record's ratings are malformed")
    for pair in before:
        if not isinstance(pair, list) or len(pair) != 2 or not all(_number(x) for x in pair) or pair[1] <= 0:
            raise RecordError("a record's ratings are malformed")
    if not isinstance(placings, list) or len(placings) != seats:
        raise RecordError("a record's placings are malformed")
    if not all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= seats for p in placings):
        raise RecordError("a record's placings are malformed")
    teams = record["teams"]
    if teams is not None:
        flat = sorted(s for team in teams for s in team) if isinstance(teams, list) else None
        if flat != list(range(seats)) or not all(isinstance(team, list) and team for team in teams):
            raise RecordError("a record's teams are malformed")
    forfeit = record["forfeit"]
    if forfeit is not None and (
        isinstance(forfeit, bool) or not isinstance(forfeit, int) or not 0 <= forfeit < seats
    ):
        raise RecordError("a record's forfeit is malformed")
    if (
        not isinstance(start_sigs, list)
        or not isinstance(sigs, list)
        or not len(start_sigs) == len(sigs) == seats
    ):
        raise RecordError("a record's signatures are malformed")
    for seat in range(seats):
        _b64(start_sigs[seat], SIG_BYTES, "signature")
        # A forfeit's result may lack the others' signatures too: a host gone takes the relay with it, so
        # each guest left keeps the result signed alone (it counts in its signer's chain only: check_chain).
        if sigs[seat] is None and seat != forfeit and forfeit is None:
            raise RecordError(f"{players[seat]['name'] or 'a player'} did not sign the result")
        if sigs[seat] is not None:
            _b64(sigs[seat], SIG_BYTES, "signature")
    if all(sig is None for sig in sigs):
        raise RecordError("nobody signed the result")
    return dict(record), list(start_sigs), list(sigs)


@dataclass(frozen=True)
class Signature:
    """One signature to check: the public key, the signed bytes and the signature (base64url)."""

    key: str
    message: bytes
    signature: str


def signatures(signed: Any) -> list[Signature]:
    """Return every signature a signed record needs checked (none when it is malformed)."""
    try:
        parts = check_record(signed)
    except RecordError:
        return []
    return _signatures(*parts)


def _signatures(record: Mapping[str, Any], start_sigs: list[str], sigs: list[str | None]) -> list[Signature]:
    start, whole = canonical(start_of(record)), canonical(record)
    out = []
    for player, start_sig, end_sig in zip(record["players"], start_sigs, sigs):
        out.append(Signature(player["key"], start, start_sig))
        if end_sig is not None:
            out.append(Signature(player["key"], whole, end_sig))
    return out


# -- the chain ----------------------------------------------------------------------------------------


@dataclass
class ChainCheck:
    """What a chain proves: the rating it supports, how many records count, and the first problem."""

    rating: Rating
    counted: int = 0
    problem: str = ""  # empty when every record holds
    history: list[tuple[str, Rating]] = field(default_factory=list)  # (time, rating after) per record

    @property
    def verified(self) -> bool:
        """Tell whether every record of the chain holds."""
        return not self.problem


def check_chain(owner: str, game: str, chain: Any, verify: Callable[[Signature], bool]) -> ChainCheck:
    """Recompute ``owner``'s rating in ``game`` from a chain of signed records, checking each.

    ``verify`` answers whether one signature is valid. Counting stops at the first record that does not
    hold; the rating is what the records before it support.
    """
    result = ChainCheck(rating=default_rating())
    if not isinstance(chain, list):
        result.problem = "the chain is malformed"
        return result
    if len(chain) > MAX_CHAIN:
        result.problem = f"the chain holds more than {MAX_CHAIN} records"
        return result
    seen: set[str] = set()
    last_time = ""
    for number, signed in enumerate(chain, 1):
        try:
            record, start_sigs, sigs = check_record(signed)
            if record["game"] != game:
                raise RecordError("it is from another game")
            keys = [player["key"] for player in record["players"]]
            if owner not in keys:
                raise RecordError("it is not this player's")
            ident = record_id(record)
            if ident in seen:
                raise RecordError("it repeats an earlier record")
            if record["at"] < last_time:
                raise RecordError("it is out of order")
            if not all(verify(signature) for signature in _signatures(record, start_sigs, sigs)):
                raise RecordError("a signature does not verify")
            seat = keys.index(owner)
            if sigs[seat] is None and seat != record["forfeit"]:
                raise RecordError("its owner did not sign the result")
            before = [Rating(mu, sigma) for mu, sigma in record["before"]]
            if not before[seat].close_to(result.rating):
                raise RecordError("the rating before it does not follow from the records before it")
        except RecordError as exc:
            result.problem = f"record {number}: {exc}"
            return result
        before[seat] = result.rating
        result.rating = rate(before, record["placings"], record["teams"])[seat]
        result.counted += 1
        result.history.append((record["at"], result.rating))
        seen.add(ident)
        last_time = record["at"]
    return result
