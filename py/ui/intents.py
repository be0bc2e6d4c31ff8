"""What a screen asks the app to do: intents, returned by a screen's handlers and carried out by one dispatcher.

A screen never calls the app. Its handlers (``Screen.on_action``, ``on_key``, ``on_played``, ...) return
a list of these values, and ``App.dispatch`` carries them out in order. A real-time table's loop, which
runs outside any handler, hands its intents to ``TableContext.emit``, which dispatches them the same way.
Every intent is plain data, so a CPython test reads what a click asked for without running an app.

Render requests merge: however many ``Render`` intents (and state changes) one event produces, the page
is drawn once, at the end of the tick.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Play:
    """Play a person's move (the engine's text or move) in the table's game.

    The dispatcher plays it (or sends it to the room, online) and then calls the screen back:
    ``Screen.on_played`` when it was made, ``Screen.on_refused`` with the reason when it was not.
    """

    move: Any


@dataclass(frozen=True)
class Announce:
    """Read this out to screen readers (the page's live region)."""

    text: str


@dataclass(frozen=True)
class Refuse:
    """Tell the player why something was refused: the table's message line if it shows it, else a toast."""

    reason: str


@dataclass(frozen=True)
class Render:
    """Draw the page again (merged: one render per tick however many are asked)."""


@dataclass(frozen=True)
class Save:
    """Save the table's game now (a real-time game saves when it pauses)."""


@dataclass(frozen=True)
class Finish:
    """The game ended outside ``Play`` (a real-time game): count it, keep these best scores, forget its save.

    The dispatcher calls ``Screen.on_finished`` with the names of the scores that are new bests.
    """

    scores: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class TakeBack:
    """Go back to the person's previous turn (against the computer)."""


@dataclass(frozen=True)
class Navigate:
    """Go to this address (``#/...``)."""

    hash: str


@dataclass(frozen=True)
class Remember:
    """Keep these choices in the game's setup form: Play again and the setup screen start from them."""

    form: Mapping[str, Any]


Intent = Play | Announce | Refuse | Render | Save | Finish | TakeBack | Navigate | Remember
Intents = list[Intent]
