"""This browser's rated results: its own chains, the players it met, and what Stats shows of them.

Stored in localStorage as JSON texts, one whole text a key (``ui.storage`` conventions):

- ``boneyard:rated:me``: the public key and name last used at a rated table (Stats reads the chains with it);
- ``boneyard:rated:chain:<game>``: this player's chain of fully signed records in one game family;
- ``boneyard:rated:seen``: the players met at rated tables, with what their chains proved there, each
  sealed: signed by this browser's own key when it checked that chain at the table.

A chain that does not hold when read (edited or damaged) is reported and kept aside whole; its good part
stays. Signatures are checked with WebCrypto (``verifier``): every one of a chain's when it goes to a table;
Stats reads a stored chain back with its form, order and ratings checked (not its signatures again). The
players met are not chains but what a table proved of them: Stats ranks one as verified only once its seal
verifies against this browser's key (``check_seals``, asked of the page's identity, not of storage), so a
summary edited by hand shows as unverified.
Pure Python: the tests run it under CPython.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from boneyard import rating, saves
from boneyard.rating import ChainCheck, Rating, Signature

__all__ = [
    "CHAIN_KEY",
    "ME_KEY",
    "SEEN_KEY",
    "Family",
    "Opponent",
    "append",
    "check_seals",
    "families",
    "family",
    "fingerprint_of",
    "identity_label",
    "load_chain",
    "me",
    "rating_text",
    "remember",
    "seal_text",
    "seen",
    "set_me",
    "verifier",
]

ME_KEY = saves.PREFIX + "rated:me"
CHAIN_KEY = saves.PREFIX + "rated:chain:"  # + game id
SEEN_KEY = saves.PREFIX + "rated:seen"
SEEN_KEPT = 200  # players remembered (the ones met last)


class Verifier(Protocol):
    """What checks a signature in the page (``ui.ports.Identity.verify``)."""

    async def verify(self, key: str, text: str, sig: str) -> bool: ...


class Signer(Protocol):
    """What signs with this browser's key and tells it (``ui.ports.Identity``)."""

    async def public_key(self) -> str | None: ...

    async def sign(self, text: str) -> str | None: ...

    async def verify(self, key: str, text: str, sig: str) -> bool: ...


async def verifier(identity: Verifier, signed: Iterable[Signature]) -> Any:
    """Check every signature with the page's WebCrypto (asynchronous); return ``check_chain``'s ``verify``."""
    good: set[tuple[str, bytes, str]] = set()
    for sig in {(s.key, s.message, s.signature) for s in signed}:
        try:
            text = sig[1].decode("ascii")
        except UnicodeDecodeError:
            continue
        if await identity.verify(sig[0], text, sig[2]):
            good.add(sig)
    return lambda s: (s.key, s.message, s.signature) in good


def chain_signatures(chain: Any) -> list[Signature]:
    """Return every signature a chain's records need checked."""
    return [s for signed in chain for s in rating.signatures(signed)] if isinstance(chain, list) else []


def rating_text(value: Rating) -> str:
    """Return a rating as players read it: mu and its uncertainty (two sigma), "25.0 ± 16.7"."""
    return f"{value.mu:.1f} ± {2 * value.sigma:.1f}"


def fingerprint_of(key: str) -> str:
    """Return a key's short fingerprint ("" for a key that is not one)."""
    try:
        return rating.fingerprint(key)
    except rating.RecordError:
        return ""


def identity_label(name: str, key: str) -> str:
    """Return a player as rated tables show them: the name and the key's short fingerprint."""
    fingerprint = fingerprint_of(key)
    return f"{name} · {fingerprint}" if fingerprint else name


def _trusted(signature: Signature) -> bool:
    """Take a stored record's signatures as checked (they were, when the record was added)."""
    return True


def _json(storage: Any, key: str) -> Any:
    text = storage.get(key)
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return ValueError


def me(storage: Any) -> tuple[str, str] | None:
    """Return (key, name) of this browser's player at its last rated table, or None."""
    data = _json(storage, ME_KEY)
    if isinstance(data, dict) and isinstance(data.get("key"), str) and isinstance(data.get("name"), str):
        return data["key"], data["name"]
    return None


def set_me(storage: Any, key: str, name: str) -> None:
    """Remember this browser's key and name (Stats reads the chains with it)."""
    if me(storage) != (key, name):
        storage.set(ME_KEY, json.dumps({"key": key, "name": name}))


def load_chain(storage: Any, game: str, owner: str, verify: Any = _trusted) -> tuple[list[Any], ChainCheck]:
    """Return ``owner``'s chain in ``game`` and what it proves (``verify``: the signatures' verdicts, as
    ``verifier`` gives them); a chain that does not hold is reported, kept aside whole, and its good part
    stored in its place."""
    key = CHAIN_KEY + game
    data = _json(storage, key)
    if data is None:
        return [], rating.check_chain(owner, game, [], verify)
    check = rating.check_chain(owner, game, data, verify)
    if check.verified:
        return list(data), check
    good = list(data[: check.counted]) if isinstance(data, list) else []
    text = storage.get(key) or ""
    storage.move_aside(key, text, f"Your rated results could not all be read ({check.problem}).")
    if good:
        storage.set(key, json.dumps(good))
    return good, rating.check_chain(owner, game, good, verify)


def append(storage: Any, game: str, owner: str, signed: dict[str, Any]) -> tuple[ChainCheck, ChainCheck]:
    """Add a fully signed record to ``owner``'s chain (once); return what the chain proves before and after."""
    chain, before = load_chain(storage, game, owner)
    ident = rating.record_id(signed["record"])
    if any(rating.record_id(old["record"]) == ident for old in chain):
        return before, before
    grown = chain + [signed]
    after = rating.check_chain(owner, game, grown, _trusted)
    if after.counted == len(grown):
        storage.set(CHAIN_KEY + game, json.dumps(grown[-rating.MAX_CHAIN :]))
    return before, after


def seen(storage: Any) -> dict[str, Any]:
    """Return the players met at rated tables: key -> {"name", "games": {game: what their chain proved}}."""
    data = _json(storage, SEEN_KEY)
    return data if isinstance(data, dict) else {}


def seal_text(key: str, game: str, name: str, proved: dict[str, Any]) -> str:
    """Return the text this browser signs to seal what a player's chain proved (ASCII, canonical)."""
    summary = {k: proved.get(k) for k in ("rating", "counted", "verified")}
    return rating.canonical({"key": key, "game": game, "name": name, **summary}).decode("ascii")


async def remember(
    signer: Signer, storage: Any, game: str, key: str, name: str, check: ChainCheck, at: str
) -> None:
    """Keep what a player's chain proved at a table, sealed with this browser's key (the newest per player
    and game; the last met kept)."""
    proved: dict[str, Any] = {
        "rating": check.rating.to_json(),
        "counted": check.counted,
        "verified": check.verified,
    }
    proved["seal"] = await signer.sign(seal_text(key, game, name, proved)) if check.verified else None
    players = seen(storage)
    entry = players.pop(key, None)
    if not isinstance(entry, dict) or not isinstance(entry.get("games"), dict):
        entry = {"games": {}}
    entry["name"] = name
    entry["at"] = at
    entry["games"][game] = proved
    players[key] = entry
    kept = sorted(
        players.items(), key=lambda item: str(item[1].get("at", "")) if isinstance(item[1], dict) else ""
    )
    storage.set(SEEN_KEY, json.dumps(dict(kept[-SEEN_KEPT:])))


_SEALS: dict[tuple[str, str, str], bool] = {}  # (this browser's key, seal text, seal) -> it verifies
_OWNER: list[str] = []  # this browser's key, as its identity gave it to check_seals


def _sealed(key: str, game: str, name: str, proved: dict[str, Any]) -> bool | None:
    """Tell whether a summary's seal verified (None: not checked yet)."""
    if not _OWNER:
        return None
    seal = proved.get("seal")
    if not _OWNER[0] or not isinstance(seal, str):
        return False  # a browser without a key sealed nothing
    return _SEALS.get((_OWNER[0], seal_text(key, game, name, proved), seal))


async def check_seals(storage: Any, identity: Signer) -> bool:
    """Check the seals of the players met that claim to be verified; return whether any verdict is new."""
    owner = await identity.public_key() or ""
    new = [owner] != _OWNER
    _OWNER[:] = [owner]
    for key, entry in seen(storage).items() if owner else ():
        games = entry.get("games") if isinstance(entry, dict) else None
        for game, proved in games.items() if isinstance(games, dict) else ():
            if not isinstance(proved, dict) or proved.get("verified") is not True:
                continue
            seal, name = proved.get("seal"), str(entry.get("name", ""))
            try:
                text = seal_text(str(key), str(game), name, proved)
            except (TypeError, ValueError):
                continue
            if isinstance(seal, str) and (owner, text, seal) not in _SEALS:
                _SEALS[(owner, text, seal)] = await identity.verify(owner, text, seal)
                new = True
    return new


@dataclass(frozen=True)
class Opponent:
    """A player met at rated tables, as the leaderboard shows them."""

    name: str
    key: str
    rating: Rating
    counted: int
    verified: bool
    me: bool = False
    checking: bool = False  # its seal is being checked: not ranked yet

    @property
    def label(self) -> str:
        """Return the name with the key's fingerprint."""
        return identity_label(self.name, self.key)


@dataclass
class Family:
    """One game family's rated section: my rating, its history, my record, the players met."""

    game: str
    rating: Rating
    history: list[tuple[str, Rating]] = field(default_factory=list)
    played: int = 0
    won: int = 0
    lost: int = 0
    forfeits: int = 0
    players: list[Opponent] = field(default_factory=list)  # verified first by ordinal, then unverified


def _tally(owner: str, chain: Sequence[Any], counted: int, result: Family) -> None:
    for signed in chain[:counted]:
        record = signed["record"]
        seat = [p["key"] for p in record["players"]].index(owner)
        places = record["placings"]
        result.played += 1
        if record["forfeit"] == seat:
            result.forfeits += 1
        if places[seat] == min(places) and places.count(min(places)) < len(places):
            result.won += 1
        elif places[seat] > min(places):
            result.lost += 1


_READ: dict[str, tuple[tuple[str | None, ...], Family | None]] = {}  # game -> (the texts read, the section)


def family(storage: Any, game: str) -> Family | None:
    """Return a game family's rated section, or None when nothing rated was played or met in it.

    Read once per change of the stored texts: a chain of 500 records takes tens of milliseconds to check.
    """
    texts = (
        storage.get(ME_KEY),
        storage.get(CHAIN_KEY + game),
        storage.get(SEEN_KEY),
        str(len(_SEALS)),
        *_OWNER,
    )
    known = _READ.get(game)
    if known is not None and known[0] == texts:
        return known[1]
    section = _family(storage, game)
    if texts[:3] == (storage.get(ME_KEY), storage.get(CHAIN_KEY + game), storage.get(SEEN_KEY)):
        _READ[game] = (texts, section)  # not when reading it moved a damaged chain aside
    return section


def _family(storage: Any, game: str) -> Family | None:
    mine = me(storage)
    chain: list[Any] = []
    result = Family(game, rating.default_rating())
    if mine is not None:
        chain, check = load_chain(storage, game, mine[0])
        result.rating, result.history = check.rating, list(check.history)
        _tally(mine[0], chain, check.counted, result)
    for key, entry in seen(storage).items():
        if not isinstance(entry, dict) or (mine is not None and key == mine[0]):
            continue
        games = entry.get("games")
        proved: Any = games.get(game) if isinstance(games, dict) else None
        try:
            mu, sigma = proved["rating"]
            name = str(entry.get("name", ""))
            sealed = _sealed(key, game, name, proved) if proved["verified"] is True else False
            opponent = Opponent(
                name[: rating.MAX_NAME],
                key,
                Rating(float(mu), float(sigma)),
                int(proved["counted"]),
                sealed is True,
                checking=sealed is None,
            )
        except (TypeError, KeyError, ValueError, AttributeError):
            continue
        result.players.append(opponent)
    if not result.played and not result.players:
        return None
    if mine is not None:
        result.players.append(Opponent(mine[1], mine[0], result.rating, result.played, True, me=True))
    result.players.sort(key=lambda o: (not o.verified, -o.rating.ordinal if o.verified else 0, o.name))
    return result


def families(storage: Any, games: Iterable[Any]) -> list[tuple[Any, Family]]:
    """Return (game info, rated section) of every turn-based game with something rated to show."""
    found = []
    for info in games:
        if not getattr(info, "realtime", False):
            section = family(storage, info.id)
            if section is not None:
                found.append((info, section))
    return found
