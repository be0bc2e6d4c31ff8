"""The wire messages of an online room: their schema, a strict parser and an encoder.

Every message is one JSON object whose ``"t"`` names its kind; the other keys are exactly the kind's
fields (optional ones may be left out, nothing else may be added). A guest sends ``hello``, ``move``,
``chat``, ``react``, ``commit``, ``reveal`` and ``leave``; the host sends ``welcome``, ``lobby``,
``commit_ask``, ``reveal_ask``, ``view``, ``refused``, ``chat``, ``react``, ``seat``, ``deal``,
``host_left``, ``removed`` and ``error``. At a rated table both also send ``chain``, ``link`` and ``sign``
(the players' signed records, relayed by the host with the sender's seat) and the host ``rated_start``
and ``rated_end`` (what every player signs). Quick match has two schemas of its own: a ``seeker``
sends ``seek`` and ``bye`` to a forming table's host, which answers as ``lobby`` with ``seated``,
``no`` and ``start`` (``boneyard.rooms.lobby``). ``parse(text, sender=...)`` checks a received text against the
sender's schema (size, JSON, kind, keys, types, lengths) and returns a ``Message``, or raises
``ProtocolError`` saying what is wrong: nothing a peer sends makes it raise anything else. Chat text and
names come back cleaned (control characters removed, spaces trimmed). ``encode(kind, **fields)`` writes
a message and checks it by the same schema, so a bug on our side is caught where it is made.

Room codes (``new_code``, ``normalize_code``, ``format_code``) and guest tokens (``new_token``) are
here too, as are the reaction keys (``REACTIONS``, ``STICKERS``).
"""

from __future__ import annotations

import json
import math
import random
import re
import secrets
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .. import rating

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "GUEST_KINDS",
    "HOST_KINDS",
    "LOBBY_KINDS",
    "MAX_CHAT",
    "MAX_FROM_GUEST",
    "MAX_FROM_HOST",
    "MAX_LINK",
    "MAX_LOBBY",
    "MAX_NAME",
    "MAX_SEATS",
    "REACTIONS",
    "REACTION_KEYS",
    "SEAT_KINDS",
    "SEAT_STATUSES",
    "SEEKER_KINDS",
    "STICKERS",
    "VERSION",
    "Message",
    "ProtocolError",
    "Sender",
    "check_to_sign",
    "clean_text",
    "encode",
    "format_code",
    "new_code",
    "new_token",
    "normalize_code",
    "parse",
    "safe_name",
]

Sender = Literal["guest", "host", "seeker", "lobby"]

VERSION = 1  # the protocol version a guest's hello carries; the host refuses any other
MAX_FROM_GUEST = 4096  # characters of one message a guest may send
MAX_FROM_HOST = 65536  # characters of one message the host may send (the transport drops longer ones)
MAX_LINK = 32768  # characters of a ``link``: a run of signed records (a 2-player one is about 1 KiB), so
# a whole chain of 500 takes 17 to 30 messages, well within the host's flood limit
MAX_LOBBY = 2048  # characters of a quick match message (four seats of names, keys and ratings fit in 1.2 KiB)
MAX_CHAT = 200  # characters of a chat message, after cleaning
MAX_NAME = 24  # characters of a player's name, after cleaning
MAX_REASON = 300  # characters of a refusal or error reason
MAX_MOVE = 80  # characters of a move's text
MAX_SEATS = 4
MAX_DEPTH = 24  # nesting of JSON arrays and objects in a view or options
MAX_TURN = 1_000_000
SEAT_KINDS = ("host", "guest", "open", "bot")
SEAT_STATUSES = ("connected", "reconnecting", "open")

# Reactions pop over the table as a face; stickers as a short domino word. The UI owns their drawing;
# the wire carries only the key. Label = what the UI shows or reads out.
REACTIONS: dict[str, str] = {
    "thumbs": "👍",
    "laugh": "😂",
    "wow": "😮",
    "clap": "👏",
    "think": "🤔",
    "fire": "🔥",
    "sad": "😢",
    "heart": "❤️",
}
STICKERS: dict[str, str] = {
    "double": "Double!",
    "domino": "Domino!",
    "blocked": "Blocked!",
    "gg": "Good game",
    "hurry": "Your turn…",
}
REACTION_KEYS: tuple[str, ...] = (*REACTIONS, *STICKERS)

# Room codes: 8 letters without the look-alikes 0/O, 1/I/L (digits are left out altogether).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
_HEX64 = re.compile(r"[0-9a-f]{64}")
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")
# Characters that change how text is laid out without being visible: bidi overrides and isolates.
_LAYOUT = dict.fromkeys([0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF])


class ProtocolError(ValueError):
    """A message that is not in the schema; ``reason`` says what is wrong, in words for a log or a peer."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Message:
    """One checked message: its kind and its fields (cleaned; optional fields left out are absent)."""

    kind: str
    fields: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        """Return the field ``key``, or ``default`` when the message left it out."""
        return self.fields.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.fields


# -- cleaning ----------------------------------------------------------------------------------------


def clean_text(text: str, limit: int, what: str = "text") -> str:
    """Return ``text`` with line breaks as spaces, control and layout characters removed, trimmed.

    Raise ProtocolError when nothing is left or more than ``limit`` characters are.
    """
    if not isinstance(text, str):
        raise ProtocolError(f"{what} must be a string")
    if len(text) > limit * 4 + 64:
        raise ProtocolError(f"{what} is too long (at most {limit} characters)")
    out: list[str] = []
    for char in text:
        code = ord(char)
        if char in "\n\r\t\v\f\u2028\u2029\x85":
            out.append(" ")
        elif code in _LAYOUT or unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(char)
    cleaned = re.sub(r"\s{2,}", " ", "".join(out)).strip()
    if not cleaned:
        raise ProtocolError(f"{what} is empty")
    if len(cleaned) > limit:
        raise ProtocolError(f"{what} is too long (at most {limit} characters)")
    return cleaned


def safe_name(name: Any, fallback: str) -> str:
    """Return ``name`` cleaned and cut to ``MAX_NAME`` characters, or ``fallback`` when nothing is left."""
    try:
        cleaned = clean_text(str(name)[: MAX_NAME * 8], MAX_NAME * 8, "name")
    except ProtocolError:
        return fallback
    return cleaned[:MAX_NAME].rstrip() or fallback


# -- field checks: each returns the value (cleaned) or raises ProtocolError ---------------------------

Check = Callable[[Any, str], Any]


def _int(low: int, high: int) -> Check:
    def check(value: Any, key: str) -> Any:
        if value.__class__ is not int or not low <= value <= high:
            raise ProtocolError(f"{key} must be a whole number from {low} to {high}")
        return value

    return check


def _str(limit: int, pattern: re.Pattern[str] | None = None, *, clean: bool = False) -> Check:
    def check(value: Any, key: str) -> Any:
        if not isinstance(value, str):
            raise ProtocolError(f"{key} must be a string")
        if clean:
            return clean_text(value, limit, key)
        if len(value) > limit:
            raise ProtocolError(f"{key} is too long (at most {limit} characters)")
        if pattern is not None and not pattern.fullmatch(value):
            raise ProtocolError(f"{key} is not well formed")
        if pattern is None and any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
            raise ProtocolError(f"{key} holds control characters")
        return value

    return check


def _bool(value: Any, key: str) -> Any:
    if not isinstance(value, bool):
        raise ProtocolError(f"{key} must be true or false")
    return value


def _choice(choices: tuple[str, ...]) -> Check:
    def check(value: Any, key: str) -> Any:
        if not isinstance(value, str) or value not in choices:
            raise ProtocolError(f"{key} must be one of {', '.join(choices)}")
        return value

    return check


def _nullable(inner: Check) -> Check:
    def check(value: Any, key: str) -> Any:
        return None if value is None else inner(value, key)

    return check


def _list(inner: Check, low: int, high: int) -> Check:
    def check(value: Any, key: str) -> Any:
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise ProtocolError(f"{key} must be a list of {low} to {high} items")
        return [inner(item, f"{key}[{i}]") for i, item in enumerate(value)]

    return check


def _depth(value: Any, limit: int) -> int:
    """Return the nesting depth of a parsed JSON value, stopping once it passes ``limit``."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return depth
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _object(limit_depth: int) -> Check:
    def check(value: Any, key: str) -> Any:
        if not isinstance(value, dict):
            raise ProtocolError(f"{key} must be an object")
        if _depth(value, limit_depth) > limit_depth:
            raise ProtocolError(f"{key} is nested too deeply")
        return value

    return check


def _text_depth(text: str, limit: int) -> int:
    """Return the nesting depth of a JSON text's arrays and objects, before it is parsed, in linear time.

    Escapes are taken out, then the strings (every other piece between quotes), then everything but
    brackets, then the innermost pairs level by level. Return ``limit + 1`` once it is deeper than
    ``limit``, and -1 when the brackets do not pair up (not JSON). A deep text never reaches the parser,
    whose recursion could overflow a small stack (WebAssembly's).
    """
    if text.count("[") + text.count("{") <= limit:
        return 0  # too few brackets to be too deep; the parser checks the rest
    plain = "".join(_ESCAPE.sub("", text).split('"')[::2])
    brackets = _NOT_BRACKET.sub("", plain)
    depth = 0
    while brackets:
        if depth > limit:
            return limit + 1
        shorter = brackets.replace("[]", "").replace("{}", "")
        if len(shorter) == len(brackets):
            return -1
        brackets = shorter
        depth += 1
    return depth


def _view(value: Any, key: str) -> Any:
    if not isinstance(value, dict):
        raise ProtocolError(f"{key} must be an object")  # its depth is checked on the whole text
    for name, check in (("seat", _int(0, MAX_SEATS - 1)), ("turn_number", _int(0, MAX_TURN))):
        if name not in value:
            raise ProtocolError(f"{key} has no {name}")
        check(value[name], f"{key}.{name}")
    if not isinstance(value.get("game"), str):
        raise ProtocolError(f"{key} names no game")
    return value


def _record(fields: dict[str, Check], optional: dict[str, Check] | None = None) -> Check:
    """Check a nested object with exactly these keys (and maybe the optional ones)."""

    def check(value: Any, key: str) -> Any:
        if not isinstance(value, dict):
            raise ProtocolError(f"{key} must be an object")
        return _fields(value, fields, optional or {}, key)

    return check


def _fields(
    data: dict[str, Any], fields: dict[str, Check], optional: dict[str, Check], where: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in data:
        if key not in fields and key not in optional:
            raise ProtocolError(f"{where} has an unknown field {str(key)[:40]!r}")
    for key, check in fields.items():
        if key not in data:
            raise ProtocolError(f"{where} has no {key}")
        out[key] = check(data[key], key)
    for key, check in optional.items():
        if key in data:
            out[key] = check(data[key], key)
    return out


_SEAT = _int(0, MAX_SEATS - 1)
_NAME = _str(MAX_NAME, clean=True)
_HASH = _str(64, _HEX64)
_TOKEN_FIELD = _str(64, _TOKEN)
_REASON = _str(MAX_REASON, clean=True)

_LOBBY_SEAT = _record(
    {"seat": _SEAT, "name": _nullable(_NAME), "kind": _choice(SEAT_KINDS), "status": _choice(SEAT_STATUSES)},
    {"level": _nullable(_str(24, re.compile(r"[a-z][a-z0-9_]{0,23}")))},
)

_KEY = _str(88, re.compile(r"[A-Za-z0-9_-]{86,88}"))  # a P-256 public key, raw, base64url
_SIG = _str(88, re.compile(r"[A-Za-z0-9_-]{86,88}"))  # an ECDSA signature, r and s, base64url
_GAME = _str(32, _GAME_ID)
_MODE_ID = _str(40, re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*"))
_STAGE = _choice(("start", "end"))
_COUNT = _int(0, rating.MAX_CHAIN)
_LINK_NUMBER = _int(0, rating.MAX_CHAIN - 1)
_UNSIGNED = "A" * 86  # 64 bytes of base64url: a signature's form, standing in where none is yet


def check_to_sign(record: Any) -> None:
    """Raise rating.RecordError unless ``record`` (a start, or a whole record) has the form a signed
    record must have, signatures aside: what the host asks the table to sign, or what we make to sign."""
    if not isinstance(record, dict):
        raise rating.RecordError("a record is malformed")
    whole = {"placings": None, "moves": "-", "forfeit": None, **record}
    seats = len(whole["players"]) if isinstance(whole.get("players"), list) else 0
    if whole["placings"] is None:
        whole["placings"] = [1] * seats
    rating.check_record({"record": whole, "start_sigs": [_UNSIGNED] * seats, "sigs": [_UNSIGNED] * seats})


def _signed(value: Any, key: str) -> Any:
    """Check one signed record's form (rating.check_record); its signatures are the receiver's to verify."""
    try:
        rating.check_record(value)
    except rating.RecordError as exc:
        raise ProtocolError(f"{key}: {exc}") from None
    return value


def _unsigned(keys: tuple[str, ...]) -> Check:
    """Check a record (or a start) the host asks the table to sign."""

    def check(value: Any, key: str) -> Any:
        if not isinstance(value, dict) or set(value) != set(keys):
            raise ProtocolError(f"{key} is not a record to sign")
        try:
            check_to_sign(value)
        except rating.RecordError as exc:
            raise ProtocolError(f"{key}: {exc}") from None
        return value

    return check


def _rating_pair(value: Any, key: str) -> Any:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(
            not isinstance(x, bool) and isinstance(x, (int, float)) and math.isfinite(x) for x in value
        )
        or not 0 < value[1] <= 1000
        or abs(value[0]) > 1000
    ):
        raise ProtocolError(f"{key} must be a rating [mu, sigma]")
    return value


_PLACE = _record(
    {
        "kind": _choice(("human", "bot")),
        "name": _NAME,
        "key": _nullable(_KEY),
        "rating": _nullable(_rating_pair),
    }
)

# kind -> (required fields, optional fields), one table per sender.
GUEST_KINDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "hello": ({"name": _NAME, "v": _int(0, 1000)}, {"token": _nullable(_TOKEN_FIELD)}),
    "move": ({"move": _str(MAX_MOVE), "turn_number": _int(0, MAX_TURN)}, {}),
    "chat": ({"text": _str(MAX_CHAT, clean=True)}, {}),
    "react": ({"key": _choice(REACTION_KEYS)}, {}),
    "commit": ({"hash": _HASH}, {}),
    "reveal": ({"nonce": _HASH}, {}),
    "leave": ({}, {}),
    # a rated table: my chain (its length, then each record), my signature of the start or the end
    "chain": ({"game": _GAME, "count": _COUNT}, {"key": _KEY}),  # key: the sender's public key
    "link": ({"n": _LINK_NUMBER, "records": _list(_signed, 1, rating.MAX_CHAIN)}, {}),
    "sign": ({"stage": _STAGE, "sig": _SIG}, {}),
}

HOST_KINDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "welcome": (
        {
            "seat": _SEAT,
            "token": _TOKEN_FIELD,
            "code": _str(CODE_LENGTH, re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")),
            "game": _str(32, _GAME_ID),
            "mode": _nullable(_str(64, clean=True)),
            "options": _object(4),
        },
        {},
    ),
    "lobby": ({"seats": _list(_LOBBY_SEAT, 1, MAX_SEATS), "start_ok": _bool}, {}),
    "commit_ask": ({}, {}),
    "reveal_ask": ({"commits": _list(_HASH, 1, MAX_SEATS)}, {}),
    "view": ({"view": _view}, {}),
    "refused": ({"reason": _REASON}, {}),
    "chat": ({"seat": _SEAT, "name": _NAME, "text": _str(MAX_CHAT, clean=True)}, {}),
    "react": ({"seat": _SEAT, "key": _choice(REACTION_KEYS)}, {}),
    "seat": ({"seat": _SEAT, "status": _choice(SEAT_STATUSES)}, {}),
    "deal": (
        {
            "commits": _list(_HASH, 1, MAX_SEATS),
            "nonces": _list(_HASH, 1, MAX_SEATS),
            "seed": _int(0, 2**63 - 1),
            "moves": _list(_str(MAX_MOVE), 0, 5000),
        },
        {},
    ),
    "host_left": ({}, {}),
    "removed": ({"reason": _REASON}, {}),
    "error": ({"reason": _REASON}, {}),
    # a rated table: a seat's chain and signatures relayed, and what every seat signs
    "chain": ({"seat": _SEAT, "game": _GAME, "count": _COUNT}, {"key": _KEY}),
    "link": ({"seat": _SEAT, "n": _LINK_NUMBER, "records": _list(_signed, 1, rating.MAX_CHAIN)}, {}),
    "sign": ({"seat": _SEAT, "stage": _STAGE, "sig": _SIG}, {}),
    "rated_start": ({"start": _unsigned(rating.START_KEYS)}, {}),
    "rated_end": ({"record": _unsigned(rating.RECORD_KEYS)}, {}),
}

# Quick match (boneyard.rooms.lobby): a seeker asks a forming table's host for a seat.
SEEKER_KINDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "seek": (
        {
            "v": _int(0, 1000),
            "game": _GAME,
            "mode": _MODE_ID,
            "seats": _int(2, MAX_SEATS),
            "name": _NAME,
            "key": _KEY,
            "rating": _rating_pair,
        },
        {},
    ),
    "bye": ({}, {}),
}

LOBBY_KINDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "seated": ({"seat": _SEAT, "filled": _int(1, MAX_SEATS), "seats": _int(2, MAX_SEATS)}, {}),
    "no": ({"reason": _REASON}, {}),
    "start": ({"seat": _SEAT, "places": _list(_PLACE, 2, MAX_SEATS)}, {}),
}

_KINDS: dict[str, dict[str, tuple[dict[str, Check], dict[str, Check]]]] = {
    "guest": GUEST_KINDS,
    "host": HOST_KINDS,
    "seeker": SEEKER_KINDS,
    "lobby": LOBBY_KINDS,
}
_LIMITS = {"guest": MAX_FROM_GUEST, "host": MAX_FROM_HOST, "seeker": MAX_LOBBY, "lobby": MAX_LOBBY}
# A guest's one longer kind: it may pass its sender's limit up to its own (written as encode writes it).
_LONG_PREFIX, _LONG_KIND = '{"t":"link",', "link"


def _reject_constant(name: str) -> Any:
    raise ProtocolError(f"not JSON: {name}")


def _finite_float(text: str) -> float:
    if len(text) > 40:
        raise ProtocolError("a number is too long")
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError("a number is too large")
    return value


def _check_message(data: Any, sender: Sender) -> Message:
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = data.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("the message names no kind")
    schema = _KINDS[sender].get(kind)
    if schema is None:
        raise ProtocolError(f"unknown message kind {kind[:40]!r}")
    body = {key: value for key, value in data.items() if key != "t"}
    required, optional = schema
    return Message(kind, _fields(body, required, optional, kind))


def parse(text: Any, *, sender: Sender = "guest") -> Message:
    """Return the message ``text`` holds, checked against the schema of what ``sender`` may send.

    Raise ProtocolError (and nothing else) for anything outside the schema: not a string, too long, not
    JSON, not an object, an unknown kind, missing or unknown fields, wrong types, lengths or values.
    """
    if sender not in _KINDS:
        raise ValueError(f"sender must be one of {', '.join(_KINDS)}, not {sender!r}")
    if not isinstance(text, str):
        raise ProtocolError("a message must be text")
    limit = _LIMITS[sender]
    long = len(text) > limit
    if long and not (sender == "guest" and len(text) <= MAX_LINK and text.startswith(_LONG_PREFIX)):
        raise ProtocolError(f"the message is too long (at most {limit} characters)")
    depth = _text_depth(text, MAX_DEPTH + 1)
    if depth < 0:
        raise ProtocolError("the message is not JSON")
    if depth > MAX_DEPTH + 1:
        raise ProtocolError("the message is nested too deeply")
    try:
        # Python refuses integers of more than 4300 digits by itself (ValueError: not JSON).
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError("the message is nested too deeply") from None
    except (ValueError, TypeError):
        raise ProtocolError("the message is not JSON") from None
    try:
        message = _check_message(data, sender)
        if long and message.kind != _LONG_KIND:  # '{"t":"link","t":"move",...}'
            raise ProtocolError(f"the message is too long (at most {limit} characters)")
        return message
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError("the message is nested too deeply") from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # a check's own slip: still refused
        raise ProtocolError(f"the message is malformed ({type(exc).__name__})") from None


def _fits(schema: tuple[dict[str, Check], dict[str, Check]], fields: Mapping[str, Any]) -> bool:
    required, optional = schema
    return set(required) <= set(fields) <= set(required) | set(optional)


def encode(kind: str, /, *, sender: Sender | None = None, **fields: Any) -> str:
    """Return the text of a message of ``kind`` with ``fields``, checked by the schema (chat text and
    names cleaned as ``parse`` would clean them).

    ``sender`` says whose schema applies; by default the host's for a kind only the host sends, the
    guest's for one only guests send, and for ``chat`` and ``react`` (both send them) the one whose
    fields match. Raise ProtocolError when the message would not pass ``parse`` on the other side.
    """
    if sender is None:
        sides: list[Sender] = [side for side in ("host", "guest", "lobby", "seeker") if kind in _KINDS[side]]
        if len(sides) > 1:
            sides = [side for side in sides if _fits(_KINDS[side][kind], fields)] or sides
        if not sides:
            raise ProtocolError(f"unknown message kind {kind!r}")
        sender = sides[0]
    data = {"t": kind, **fields}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    limit = MAX_LINK if (sender, kind) == ("guest", _LONG_KIND) else _LIMITS[sender]
    if len(text) > limit:
        raise ProtocolError(f"the message is too long (at most {limit} characters)")
    if _text_depth(text, MAX_DEPTH + 1) > MAX_DEPTH + 1:
        raise ProtocolError("the message is nested too deeply")
    checked = _check_message(data, sender)
    if checked.fields != fields:  # text fields were cleaned: send the clean form
        text = json.dumps({"t": kind, **checked.fields}, ensure_ascii=False, separators=(",", ":"))
    return text


# -- room codes and tokens ---------------------------------------------------------------------------


def new_code(rng: random.Random | None = None) -> str:
    """Return a fresh room code: 8 letters of ``CODE_ALPHABET`` (about 36 bits; the system's randomness
    unless a generator is given, as tests do)."""
    pick = rng if rng is not None else secrets.SystemRandom()
    return "".join(pick.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """Return the room code a player typed or pasted (any case, spaces, dashes, or a whole join link).

    Raise ValueError saying what is wrong when it is not a room code.
    """
    if not isinstance(text, str):
        raise ValueError("a room code is text")
    text = text.strip()
    if "/" in text:
        text = text.rstrip("/").rsplit("/", 1)[-1]
    code = re.sub(r"[\s\-_.]", "", text).upper()
    if not code:
        raise ValueError("type the room code")
    wrong = sorted({c for c in code if c not in CODE_ALPHABET})
    if wrong:
        raise ValueError(f"a room code has no {', '.join(wrong)}")
    if len(code) != CODE_LENGTH:
        raise ValueError(f"a room code has {CODE_LENGTH} letters, not {len(code)}")
    return code


def format_code(code: str) -> str:
    """Return a code as players read it: two groups of four letters, ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}" if len(code) == CODE_LENGTH else code


def new_token(rng: random.Random | None = None) -> str:
    """Return a fresh guest token (22 URL-safe characters; the system's randomness unless given a generator)."""
    if rng is None:
        return secrets.token_urlsafe(16)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return "".join(rng.choice(alphabet) for _ in range(22))
