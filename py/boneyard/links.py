"""Challenges and replays as links: a deal, or a whole game, in a short text checked whole on load.

A **challenge** holds the table (game, mode, options, who sits where), the seed and the sender's score:
the friend who opens it plays the same deal from the same seat against the same computer levels. It
carries no move, so it reveals nothing the friend should not see before playing.

A **replay** holds the table, the seed and every move, each as its place in the list of legal moves at
that point (a number that nearly always fits in one byte): the receiver's page replays the game on its own
engine, so a replay cannot show a game the rules would not allow.

The text is ``<version><kind><payload>``: version ``1``, kind ``c`` or ``r``, then base64url (no padding)
of four check bytes (the start of a SHA-256 of the rest) and a zlib stream of a compact JSON header, a
newline, and for a replay the moves as unsigned LEB128 numbers. A link whose version is unknown, whose
check fails, or whose contents are not what the kind needs is refused with a ``LinkError`` that says why
in a player's words.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .games import GAMES, get_game
from .saves import current_game

__all__ = [
    "LINK_VERSION",
    "Challenge",
    "LinkError",
    "Replay",
    "Table",
    "decode",
    "encode_challenge",
    "encode_replay",
    "move_indexes",
    "replay_moves",
]

LINK_VERSION = 1
HUMAN = "human"  # a seat a person plays; every other seat names a computer level
CHECK_BYTES = 4
MAX_LINK = 8_000  # characters: far above any real game, far below what could hurt the page
MAX_INFLATED = 64_000  # bytes a link's payload may inflate to
MAX_MOVES = 5_000
MAX_NAME = 30
MAX_MODE = 40


class LinkError(ValueError):
    """A link that cannot be opened; the message says why, for the player."""


@dataclass(frozen=True)
class Table:
    """Who sits where in a shared game: the game, its mode (the stats key), options and seats."""

    game: str
    mode: str
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = ()  # per seat "human" or a computer level

    @property
    def human_seats(self) -> list[int]:
        """Return the seats people play."""
        return [i for i, seat in enumerate(self.seats) if seat == HUMAN]

    def new_state(self, seed: int) -> Any:
        """Deal this table's game from ``seed``; raise LinkError when this version cannot deal it."""
        try:
            return get_game(self.game).new_state(seed=seed, **dict(self.options))
        except (ValueError, TypeError) as exc:
            raise LinkError(f"this version of Boneyard cannot deal that game ({exc})") from None


@dataclass(frozen=True)
class Challenge:
    """A deal to play: the sender's table and seed, and the score to beat."""

    table: Table
    seed: int
    score: float
    name: str = ""


@dataclass(frozen=True)
class Replay:
    """A whole game to watch: the table, the seed and every move as text."""

    table: Table
    seed: int
    moves: tuple[str, ...]
    name: str = ""


# -- encoding -----------------------------------------------------------------------------------------


def _leb128(numbers: Sequence[int]) -> bytes:
    out = bytearray()
    for number in numbers:
        while True:
            byte = number & 0x7F
            number >>= 7
            out.append(byte | (0x80 if number else 0))
            if not number:
                break
    return bytes(out)


def _unleb128(data: bytes) -> list[int]:
    numbers: list[int] = []
    number = shift = 0
    for byte in data:
        number |= (byte & 0x7F) << shift
        shift += 7
        if shift > 35:
            raise LinkError("the link's moves are damaged")
        if not byte & 0x80:
            numbers.append(number)
            number = shift = 0
    if shift:
        raise LinkError("the link's moves are cut off")
    return numbers


def _pack(kind: str, header: list[Any], tail: bytes = b"") -> str:
    body = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode() + b"\n" + tail
    packed = zlib.compress(body, 9)
    check = hashlib.sha256(packed).digest()[:CHECK_BYTES]
    text = base64.urlsafe_b64encode(check + packed).decode().rstrip("=")
    return f"{LINK_VERSION}{kind}{text}"


def _table_header(table: Table) -> list[Any]:
    return [table.game, table.mode, dict(table.options), list(table.seats)]


def move_indexes(table: Table, seed: int, moves: Sequence[str]) -> list[int]:
    """Return each move's place among the legal moves at its turn; raise LinkError for an illegal move."""
    state = table.new_state(seed)
    indexes: list[int] = []
    for number, text in enumerate(moves, 1):
        legal = [str(move) for move in state.legal_moves()]
        if text not in legal:
            raise LinkError(f"move {number} ({text}) is not legal in this game")
        indexes.append(legal.index(text))
        state.play(text)
    return indexes


def encode_challenge(challenge: Challenge) -> str:
    """Return the link text of a challenge."""
    _check_table(challenge.table)
    score = challenge.score if not float(challenge.score).is_integer() else int(challenge.score)
    header = [*_table_header(challenge.table), challenge.seed, score, challenge.name[:MAX_NAME]]
    return _pack("c", header)


def encode_replay(replay: Replay) -> str:
    """Return the link text of a replay (its moves checked against the rules as they are encoded)."""
    _check_table(replay.table, replay=True)
    tail = _leb128(move_indexes(replay.table, replay.seed, replay.moves))
    return _pack("r", [*_table_header(replay.table), replay.seed, replay.name[:MAX_NAME]], tail)


# -- decoding -----------------------------------------------------------------------------------------


def decode(text: str) -> Challenge | Replay:
    """Return what a link holds; raise LinkError, saying why, for anything damaged, foreign or unknown."""
    if not isinstance(text, str) or not text:
        raise LinkError("the link is empty")
    text = text.strip()
    if len(text) > MAX_LINK:
        raise LinkError("the link is too long to be one of Boneyard's")
    if not text[0].isdigit():
        raise LinkError("this is not a Boneyard link")
    version = int(text[0])
    if version != LINK_VERSION:
        raise LinkError(
            f"the link was made by a newer version of Boneyard (link version {version}); reload to update"
        )
    kind, payload = text[1:2], text[2:]
    if kind not in ("c", "r"):
        raise LinkError("this is not a challenge or a replay")
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("the link is damaged (it was cut off or changed)") from None
    check, packed = raw[:CHECK_BYTES], raw[CHECK_BYTES:]
    if len(check) < CHECK_BYTES or hashlib.sha256(packed).digest()[:CHECK_BYTES] != check:
        raise LinkError("the link is damaged (it was cut off or changed)")
    inflater = zlib.decompressobj()
    try:
        body = inflater.decompress(packed, MAX_INFLATED)
    except zlib.error:
        raise LinkError("the link is damaged") from None
    if inflater.unconsumed_tail or not inflater.eof:
        raise LinkError("the link holds more than a game")
    head, _, tail = body.partition(b"\n")
    try:
        header = json.loads(head.decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise LinkError("the link is damaged") from None
    if kind == "c":
        return _challenge(header, tail)
    return _replay(header, tail)


def _check_table(table: Table, *, replay: bool = False) -> None:
    if table.game not in GAMES:
        raise LinkError("the link names a game this version does not have")
    info = get_game(table.game)
    if replay and info.realtime:
        raise LinkError(f"a {info.name} game is not replayed from a link (its moves are timed key presses)")
    if not isinstance(table.mode, str) or not 0 < len(table.mode) <= MAX_MODE:
        raise LinkError("the link's mode is damaged")
    if not isinstance(table.options, Mapping) or not all(isinstance(k, str) for k in table.options):
        raise LinkError("the link's options are damaged")
    for value in table.options.values():
        if not (value is None or isinstance(value, (bool, int, str)) or _finite(value)):
            raise LinkError("the link's options are damaged")
    if not 1 <= len(table.seats) <= info.max_players:
        raise LinkError("the link's seats are damaged")
    for seat in table.seats:
        if seat != HUMAN and seat not in info.levels:
            raise LinkError(f"the link names a computer level this version does not have ({seat!r})")
    if not table.human_seats:
        raise LinkError("the link has no seat for a person")


def _finite(value: Any) -> bool:
    return isinstance(value, float) and math.isfinite(value)


def _table(header: Any, size: int, *, replay: bool = False) -> tuple[Table, int, list[Any]]:
    if not isinstance(header, list) or len(header) != size:
        raise LinkError("the link's contents are damaged")
    game, mode, options, seats, seed, *rest = header
    if not isinstance(game, str) or not isinstance(options, dict) or not isinstance(seats, list):
        raise LinkError("the link's contents are damaged")
    if not all(isinstance(seat, str) for seat in seats):
        raise LinkError("the link's seats are damaged")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise LinkError("the link's deal is damaged")
    game = current_game(game)  # a link made before a game's rename names its old id
    table = Table(game=game, mode=mode, options=options, seats=tuple(seats))
    _check_table(table, replay=replay)
    return table, seed, rest


def _name(value: Any) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise LinkError("the link's name is damaged")
    return value


def _challenge(header: Any, tail: bytes) -> Challenge:
    table, seed, (score, name) = _table(header, 7)
    if tail or isinstance(score, bool) or not (isinstance(score, int) or _finite(score)):
        raise LinkError("the link's score is damaged")
    return Challenge(table=table, seed=seed, score=score, name=_name(name))


def _replay(header: Any, tail: bytes) -> Replay:
    table, seed, (name,) = _table(header, 6, replay=True)
    indexes = _unleb128(tail)
    if len(indexes) > MAX_MOVES:
        raise LinkError("the link holds more moves than any game has")
    return Replay(table=table, seed=seed, moves=tuple(replay_moves(table, seed, indexes)), name=_name(name))


def replay_moves(table: Table, seed: int, indexes: Sequence[int]) -> list[str]:
    """Replay ``indexes`` on ``table``'s deal and return the moves as text.

    Raise LinkError at the first move that is not legal, naming it (its number and whose turn it was).
    """
    state = table.new_state(seed)
    moves: list[str] = []
    for number, index in enumerate(indexes, 1):
        if state.is_over():
            raise LinkError(f"move {number} comes after the end of the game")
        legal = state.legal_moves()
        if index >= len(legal):
            seat = state.current_player()
            raise LinkError(
                f"move {number} (seat {seat + 1}'s) is not legal: choice {index + 1} of {len(legal)}"
            )
        text = str(legal[index])
        state.play(text)
        moves.append(text)
    return moves
