"""Several tabs on one game: deciding whether a tab's game is still the one in storage (pure, no browser).

Every tab keeps the exact text it last wrote (or took in) under a game's save key. When the stored text
is something else, another tab has written since, and ``judge`` says what to do:

- **adopt** the stored game: another tab played on (a longer history of the same deal, or the same
  length, the last writer winning a tie), started another deal, or finished the game (the save is gone);
- **reassert** ours: the stored save is the same deal with a *shorter* history, written by a stale tab
  (a slow or background one that had not yet seen the latest moves): a save never replaces a longer
  history of a game with a shorter one, so this tab writes its own back (or, when its game is over,
  removes the save again);
- keep going (**current**) when nothing changed, or when the stored text is unreadable (loading it
  reports it and moves it aside when this tab next needs it; an event is no reason to destroy it).
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, NamedTuple

from .session import game_identity

__all__ = ["Stamp", "Verdict", "judge", "stamp_of"]


class Verdict(StrEnum):
    """What a tab does about the stored save of a game it holds."""

    CURRENT = "current"
    ADOPT = "adopt"
    REASSERT = "reassert"


class Stamp(NamedTuple):
    """The deal a save belongs to and how many moves it has seen."""

    uid: str
    revision: int


def stamp_of(text: str | None) -> Stamp | None:
    """Return the stamp of a save's text; None when there is none; raise ValueError when unreadable."""
    if text is None:
        return None
    try:
        envelope: Any = json.loads(text)
        state = envelope["state"]
        uid, revision = game_identity(state)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise ValueError(f"not a readable save ({exc})") from None
    return Stamp(uid, revision)


def judge(ours: Stamp | None, written: str | None, stored: str | None) -> Verdict:
    """Decide about the stored save of a game this tab holds as ``ours`` and last wrote as ``written``."""
    if stored == written:
        return Verdict.CURRENT
    try:
        theirs = stamp_of(stored)
    except ValueError:
        return Verdict.CURRENT
    if ours is None:
        return Verdict.ADOPT if theirs is not None else Verdict.CURRENT
    if theirs is not None and theirs.uid == ours.uid and theirs.revision < ours.revision:
        return Verdict.REASSERT
    return Verdict.ADOPT
