"""The tables' sounds, generated in the page with Web Audio: no sound files.

Each sound is a recipe of short notes (``RECIPES``, pure data, tested under CPython); ``play`` turns one
into oscillators and filtered noise (``ui.browser.audio``, the page's player). Nothing is created or played while ``Settings.sound`` is off, and the
AudioContext is created lazily, on the first sound after a user gesture (``unlock``, called by the app on
every click and key press), as browsers require.

Sounds: ``lay``, ``draw``, ``pass``, ``turn`` (your turn), ``win``, ``lose``, ``draw_game`` and ``cascade``
(Bonefall: ``play(settings, "cascade", strength=n)`` rises with the size of the cascade).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["RECIPES", "Note", "cascade", "play", "recipe", "set_player", "unlock"]


@dataclass(frozen=True)
class Note:
    """One sound event: a tone (``wave`` sine/triangle/square) or a burst of filtered ``noise``."""

    wave: str  # "sine", "triangle", "square" or "noise"
    freq: float  # Hz (for noise: the band-pass centre)
    start: float  # seconds after the sound begins
    length: float  # seconds
    gain: float  # peak loudness, 0..1
    glide: float = 0.0  # Hz the tone slides by over its length
    q: float = 1.0  # the noise filter's Q


RECIPES: dict[str, tuple[Note, ...]] = {
    # A tile put down: a bright click and a soft knock of wood.
    "lay": (Note("noise", 2600, 0.0, 0.045, 0.35, q=1.4), Note("sine", 190, 0.0, 0.07, 0.35, glide=-60)),
    # A tile drawn: a short slide.
    "draw": (Note("noise", 1200, 0.0, 0.11, 0.16, q=0.7), Note("noise", 1800, 0.05, 0.08, 0.12, q=0.9)),
    # A pass: two low notes, falling.
    "pass": (Note("triangle", 330, 0.0, 0.1, 0.18), Note("triangle", 247, 0.11, 0.14, 0.16)),
    # Your turn: a gentle rising chime.
    "turn": (Note("sine", 659, 0.0, 0.12, 0.16), Note("sine", 880, 0.1, 0.2, 0.14)),
    "win": (
        Note("triangle", 523, 0.0, 0.14, 0.22),
        Note("triangle", 659, 0.12, 0.14, 0.22),
        Note("triangle", 784, 0.24, 0.14, 0.22),
        Note("sine", 1047, 0.36, 0.42, 0.2),
    ),
    "lose": (
        Note("triangle", 392, 0.0, 0.18, 0.2),
        Note("triangle", 330, 0.17, 0.18, 0.2),
        Note("triangle", 262, 0.34, 0.4, 0.2, glide=-20),
    ),
    "draw_game": (Note("sine", 523, 0.0, 0.18, 0.18), Note("sine", 523, 0.2, 0.25, 0.14)),
}


def cascade(strength: int = 1) -> tuple[Note, ...]:
    """Return a cascade's sound: one rising blip per step of it (at most 8), brighter as it grows."""
    steps = max(1, min(8, int(strength)))
    notes = []
    for i in range(steps):
        notes.append(Note("sine", 440 * 2 ** (i * 2 / 12), i * 0.07, 0.09, 0.16))
        notes.append(Note("noise", 3000 + 300 * i, i * 0.07, 0.03, 0.08, q=2.0))
    return tuple(notes)


def recipe(name: str, strength: int = 1) -> tuple[Note, ...]:
    """Return the notes of a named sound (empty for an unknown name)."""
    if name == "cascade":
        return cascade(strength)
    return RECIPES.get(name, ())


# -- playing (the page gives the player: ui.browser.audio) -----------------------------------------

_state: dict[str, Any] = {"unlocked": False, "player": None}


def unlock() -> None:
    """Note that the user has interacted with the page (an AudioContext may be created from now on)."""
    _state["unlocked"] = True


def set_player(player: Callable[[tuple[Note, ...], float], bool] | None) -> None:
    """Give the notes to ``player`` (the page's Web Audio, ``ui.browser.audio.play_notes``); None: silence."""
    _state["player"] = player


def play(settings: Any, name: str, *, strength: int = 1, delay: float = 0.0) -> bool:
    """Play a named sound when Settings.sound is on and the page has had a user gesture; True if played."""
    if not getattr(settings, "sound", False) or not _state["unlocked"]:
        return False
    notes = recipe(name, strength)
    if not notes:
        return False
    player = _state["player"]
    if player is None:
        return False
    try:
        return bool(player(notes, delay))
    except Exception:  # a sound must never break the game
        return False
