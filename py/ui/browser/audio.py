"""The tables' sounds in the page: ``ui.sound``'s notes played with Web Audio (oscillators and noise).

The AudioContext is created lazily, on the first sound (``ui.sound.play`` only plays after a user gesture,
as browsers require).
"""

from __future__ import annotations

import random
from typing import Any

from pyodide.ffi import to_js
from pyscript import window

from ..sound import Note

__all__ = ["play_notes"]

_state: dict[str, Any] = {"context": None, "noise": None}


def play_notes(notes: tuple[Note, ...], delay: float) -> bool:
    """Play the notes ``delay`` seconds from now; False where the browser has no Web Audio."""
    context = _context()
    if context is None:
        return False
    now = float(context.currentTime) + 0.01 + delay
    for note in notes:
        _note(context, note, now)
    return True


def _context() -> Any:
    """Return the page's AudioContext, creating it on first use (None where Web Audio is missing)."""
    context = _state["context"]
    if context is None:
        maker = getattr(window, "AudioContext", None) or getattr(window, "webkitAudioContext", None)
        if maker is None:
            return None
        context = _state["context"] = maker.new()
    if str(context.state) == "suspended":
        context.resume()
    return context


def _noise(context: Any) -> Any:
    """Return a half-second buffer of white noise (made once)."""
    buffer = _state["noise"]
    if buffer is None:
        rate = int(context.sampleRate)
        length = rate // 2
        buffer = context.createBuffer(1, length, rate)
        rng = random.Random(7)
        buffer.getChannelData(0).set(
            window.Float32Array.new(to_js([rng.uniform(-1.0, 1.0) for _ in range(length)]))
        )
        _state["noise"] = buffer
    return buffer


def _note(context: Any, note: Note, now: float) -> None:
    begin, end = now + note.start, now + note.start + note.length
    amp = context.createGain()
    amp.gain.setValueAtTime(0.0001, begin)
    amp.gain.exponentialRampToValueAtTime(max(0.0002, note.gain), begin + min(0.008, note.length / 4))
    amp.gain.exponentialRampToValueAtTime(0.0001, end)
    amp.connect(context.destination)
    if note.wave == "noise":
        source = context.createBufferSource()
        source.buffer = _noise(context)
        band = context.createBiquadFilter()
        band.type = "bandpass"
        band.frequency.value = note.freq
        band.Q.value = note.q
        source.connect(band)
        band.connect(amp)
    else:
        source = context.createOscillator()
        source.type = note.wave
        source.frequency.setValueAtTime(note.freq, begin)
        if note.glide:
            source.frequency.linearRampToValueAtTime(note.freq + note.glide, end)
        source.connect(amp)
    source.start(begin)
    source.stop(end + 0.02)
