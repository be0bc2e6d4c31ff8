"""Save files: the versioned JSON envelope, migration of old schemas, and validation on load.

A saved game is one JSON text under one ``localStorage`` key (one write, so a reader never sees half a
save)::

    {"schema": 2, "game": "dominoes", "saved_at": "2026-11-30T08:00:00Z", "state": {...}}

Loading never crashes: ``load_save`` either returns a valid, migrated ``Save`` or raises ``SaveError``
whose ``message`` tells the player what was wrong. The browser adapter then moves the text aside under
``broken_key(...)`` so nothing is ever silently deleted. Settings and stats are stored the same way
under their own ``kind`` (``load_record``).

A game that changed id (``RENAMED``: Bonefall was ``falling``) is read under its new id: an envelope naming
the old one loads as the new game's, and a backup's save under the old key is imported under the new.

A backup (Settings › Your data) is one JSON file holding every stored text exactly as it was, with a
check over them so a damaged file is refused rather than half imported::

    {"boneyard": "backup", "schema": 1, "exported_at": "...", "check": "<sha-256>", "items": {key: text}}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "BACKUP_SCHEMA",
    "MIGRATIONS",
    "PREFIX",
    "RENAMED",
    "SCHEMA",
    "Backup",
    "Save",
    "SaveError",
    "broken_key",
    "current_game",
    "dump_backup",
    "dump_record",
    "dump_save",
    "later_save",
    "load_backup",
    "load_record",
    "load_save",
    "now_iso",
    "renamed_items",
    "save_key",
]

SCHEMA = 2
PREFIX = "boneyard:"
MAX_SAVE_CHARS = 2_000_000  # a save is a few KiB; anything this large is not ours
BACKUP_SCHEMA = 1
BACKUP_KIND = "backup"
MAX_BACKUP_CHARS = 20_000_000  # localStorage holds about 5 MB; a larger file is not one of ours
# Games that changed id (old -> new): what was stored, linked or addressed under the old id is the new one's.
RENAMED = {"falling": "bonefall"}


class SaveError(ValueError):
    """A save that cannot be loaded; ``kind`` names the problem, ``message`` explains it to the player."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class Save:
    """A loaded, validated save at the current schema."""

    game: str
    saved_at: str
    state: dict[str, Any]
    schema: int = SCHEMA

    def to_json(self) -> dict[str, Any]:
        """Return the envelope as a JSON-ready dict."""
        return {"schema": self.schema, "game": self.game, "saved_at": self.saved_at, "state": self.state}


def save_key(game_id: str) -> str:
    """Return the localStorage key of the game in progress of ``game_id``."""
    return f"{PREFIX}save:{game_id}"


def current_game(game_id: str) -> str:
    """Return the id ``game_id`` goes by now: itself, or the new id of a renamed game."""
    return RENAMED.get(game_id, game_id)


def later_save(first: str, second: str) -> str:
    """Return whichever of two save texts was written later (``first`` on a tie or when either is unreadable)."""
    try:
        stamps = [json.loads(text)["saved_at"] for text in (first, second)]
    except (ValueError, KeyError, TypeError, RecursionError):
        return first
    if all(isinstance(stamp, str) for stamp in stamps) and stamps[1] > stamps[0]:
        return second
    return first


def renamed_items(items: Mapping[str, str]) -> dict[str, str]:
    """Return stored texts with each renamed game's save under its new key (the later one when both are)."""
    out = dict(items)
    for old, new in RENAMED.items():
        text = out.pop(save_key(old), None)
        if text is not None:
            kept = out.get(save_key(new))
            out[save_key(new)] = text if kept is None else later_save(kept, text)
    return out


def broken_key(when: datetime | None = None, original: str = "") -> str:
    """Return the key a broken save is moved aside to: ``boneyard:broken:<time>[:<original key>]``."""
    stamp = (when or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    suffix = f":{original.removeprefix(PREFIX)}" if original else ""
    return f"{PREFIX}broken:{stamp}{suffix}"


def now_iso(when: datetime | None = None) -> str:
    """Return an ISO-8601 UTC time stamp to the second, ending in Z."""
    return (when or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------
# Migrations: MIGRATIONS[n] turns a schema-n envelope into a schema-(n+1) one.


def _v1_to_v2(envelope: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 stamped ``saved_at`` as Unix seconds; schema 2 uses ISO-8601 text."""
    saved = envelope.get("saved_at")
    if isinstance(saved, (int, float)) and not isinstance(saved, bool):
        try:
            envelope["saved_at"] = now_iso(datetime.fromtimestamp(float(saved), UTC))
        except (OverflowError, OSError, ValueError):
            raise SaveError("invalid", "The save's time stamp is impossible.") from None
    envelope["schema"] = 2
    return envelope


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


def _parse_json(text: Any) -> Any:
    if not isinstance(text, str):
        raise SaveError("corrupt", "The save is not text.")
    if len(text) > MAX_SAVE_CHARS:
        raise SaveError("foreign", "The save is far too large to be a Boneyard save.")
    if not text.strip():
        raise SaveError("truncated", "The save is empty.")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) - 1 or "Unterminated" in exc.msg:
            raise SaveError("truncated", "The save was cut off part-way (it is incomplete).") from None
        raise SaveError("corrupt", f"The save is damaged (unreadable at character {exc.pos}).") from None
    except (RecursionError, ValueError):
        raise SaveError("corrupt", "The save is damaged (it is not valid JSON).") from None


def _check_schema(envelope: Mapping[str, Any]) -> int:
    schema = envelope.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise SaveError("foreign", "This is not a Boneyard save (it has no valid schema number).")
    if schema > SCHEMA:
        raise SaveError(
            "newer",
            f"This save comes from a newer version of Boneyard (format {schema}; this version reads up to "
            f"{SCHEMA}). Reload to update, then resume it.",
        )
    return schema


def _migrate(envelope: dict[str, Any]) -> dict[str, Any]:
    schema = _check_schema(envelope)
    while schema < SCHEMA:
        envelope = MIGRATIONS[schema](envelope)
        schema = envelope["schema"]
    return envelope


def dump_save(game: str, state: Mapping[str, Any], when: datetime | None = None) -> str:
    """Return the JSON text of a save of ``state`` (a game's ``to_dict()`` or a wrapper of it)."""
    envelope = {"schema": SCHEMA, "game": game, "saved_at": now_iso(when), "state": state}
    return json.dumps(envelope, separators=(",", ":"), allow_nan=False)


def load_save(
    text: Any,
    expected_game: str | None = None,
    validate: Callable[[str, dict[str, Any]], object] | None = None,
) -> Save:
    """Parse, migrate and validate a save; raise SaveError saying what is wrong.

    ``validate(game, state)`` (for example the game's ``from_dict``) may raise any exception for a
    state it cannot rebuild; that becomes a SaveError too, so a damaged save never stops the page.
    """
    data = _parse_json(text)
    if not isinstance(data, dict):
        raise SaveError("foreign", "This is not a Boneyard save (it is not a save envelope).")
    if not {"schema", "game", "state"} <= data.keys():
        raise SaveError("foreign", "This is not a Boneyard save (schema, game or state is missing).")
    envelope = _migrate(dict(data))
    game, state, saved_at = envelope.get("game"), envelope.get("state"), envelope.get("saved_at", "")
    if not isinstance(game, str) or not game:
        raise SaveError("foreign", "The save does not say which game it belongs to.")
    game = current_game(game)
    if expected_game is not None and game != current_game(expected_game):
        raise SaveError("foreign", f"The save belongs to another game ({game!r}, not {expected_game!r}).")
    if not isinstance(state, dict):
        raise SaveError("invalid", "The saved game is damaged (its state is not a record).")
    if not isinstance(saved_at, str):
        raise SaveError("invalid", "The save's time stamp is damaged.")
    if validate is not None:
        try:
            validate(game, state)
        except SaveError:
            raise
        except RecursionError:
            raise SaveError("invalid", "The saved game is damaged and cannot be resumed.") from None
        except Exception as exc:
            raise SaveError("invalid", f"The saved game is damaged and cannot be resumed ({exc}).") from None
    return Save(game=game, saved_at=saved_at, state=state, schema=envelope["schema"])


def dump_record(kind: str, data: Mapping[str, Any], schema: int = 1) -> str:
    """Return the JSON text of a settings or stats record: ``{"schema": n, kind: data}``."""
    return json.dumps({"schema": schema, kind: data}, separators=(",", ":"), allow_nan=False)


def load_record(text: Any, kind: str, schema: int = 1) -> dict[str, Any]:
    """Parse a settings or stats record; raise SaveError if it is not one of ``schema`` or older."""
    data = _parse_json(text)
    if not isinstance(data, dict) or not isinstance(data.get(kind), dict):
        raise SaveError("foreign", f"The stored {kind} are not in Boneyard's format.")
    version = data.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError("foreign", f"The stored {kind} have no valid schema number.")
    if version > schema:
        raise SaveError("newer", f"The stored {kind} come from a newer version of Boneyard.")
    record: dict[str, Any] = data[kind]
    return record


# ---------------------------------------------------------------------------------------------
# Backups: every stored text in one file.


@dataclass(frozen=True)
class Backup:
    """A backup file read and checked: when it was made and each stored key's exact text."""

    exported_at: str
    items: dict[str, str]
    schema: int = BACKUP_SCHEMA


def _backup_check(items: Mapping[str, str]) -> str:
    canonical = json.dumps(items, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def dump_backup(items: Mapping[str, str], when: datetime | None = None) -> str:
    """Return the text of a backup file holding ``items`` (stored key -> stored text)."""
    ordered = {key: items[key] for key in sorted(items)}
    envelope = {
        "boneyard": BACKUP_KIND,
        "schema": BACKUP_SCHEMA,
        "exported_at": now_iso(when),
        "check": _backup_check(ordered),
        "items": ordered,
    }
    return json.dumps(envelope, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def load_backup(text: Any) -> Backup:
    """Read a backup file; raise SaveError (``foreign``, ``corrupt``, ``truncated``, ``newer``) when it is not one to import."""
    if not isinstance(text, str):
        raise SaveError("foreign", "This file is not text, so it is not a Boneyard backup.")
    if len(text) > MAX_BACKUP_CHARS:
        raise SaveError("foreign", "This file is far too large to be a Boneyard backup.")
    if not text.strip():
        raise SaveError("truncated", "This file is empty.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) - 1 or "Unterminated" in exc.msg:
            raise SaveError(
                "truncated", "This backup was cut off part-way (the file is incomplete)."
            ) from None
        if not text.lstrip().startswith("{"):
            raise SaveError(
                "foreign", "This file is not a Boneyard backup (it is not a JSON file)."
            ) from None
        raise SaveError("corrupt", f"This backup is damaged (unreadable at character {exc.pos}).") from None
    except (RecursionError, ValueError):
        raise SaveError("corrupt", "This backup is damaged (it is not valid JSON).") from None
    if not isinstance(data, dict) or data.get("boneyard") != BACKUP_KIND:
        raise SaveError("foreign", "This file is not a Boneyard backup.")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise SaveError("corrupt", "This backup is damaged (it has no valid format number).")
    if schema > BACKUP_SCHEMA:
        raise SaveError(
            "newer",
            f"This backup comes from a newer version of Boneyard (format {schema}; this version reads up to "
            f"{BACKUP_SCHEMA}). Reload to update, then import it.",
        )
    items, check, exported_at = data.get("items"), data.get("check"), data.get("exported_at", "")
    if not isinstance(items, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in items.items()
    ):
        raise SaveError("corrupt", "This backup is damaged (its records are not stored texts).")
    if not isinstance(check, str) or check != _backup_check(items):
        raise SaveError("corrupt", "This backup is damaged (its contents do not match their check).")
    if not isinstance(exported_at, str):
        raise SaveError("corrupt", "This backup is damaged (its date is not a date).")
    for key in items:
        if not key.startswith(PREFIX) or len(key) > 300:
            raise SaveError("corrupt", f"This backup holds a record that is not Boneyard's ({key[:40]!r}).")
    return Backup(exported_at=exported_at, items=renamed_items(items), schema=schema)
