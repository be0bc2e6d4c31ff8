"""Bonefall's play loop without the browser: elapsed time into whole steps, held keys into commands.

Pure Python (tested under CPython). The browser module (``bonefall_canvas``) calls ``Driver.advance``
from its requestAnimationFrame callback with the milliseconds since the last frame; the driver turns
them into whole simulation steps (60 a second, the remainder carried to the next frame), applies the
inputs due before each step (held directions repeat after a short delay, like a native game's
auto-shift), lets an optional autoplayer or a recorded input log play, and tells the caller what
happened (a domino locked, the game ended) so it can save and redraw. ``FrameSamples`` keeps the frame
benchmark's numbers in fixed arrays, so a long session never grows the heap. ``hud_values`` gives the
score boxes' text, which the screen and the canvas both draw.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.games.bonefall.sim import SOFT_DROP_REPEAT, STEPS_PER_SECOND

__all__ = [
    "FRAME_SAMPLES",
    "KEYS",
    "MAX_FRAME_MS",
    "REPEAT_DELAY",
    "REPEAT_EVERY",
    "STEP_MS",
    "Advance",
    "Driver",
    "FrameSamples",
    "hud_values",
    "key_command",
    "running_turn_score",
]

STEP_MS = 1000.0 / STEPS_PER_SECOND
REPEAT_DELAY = 10  # steps a held direction waits before it repeats (1/6 s)
REPEAT_EVERY = 3  # then it repeats every this many steps (20 moves a second)
MAX_FRAME_MS = 250.0  # a longer gap (a stalled tab) counts as this much play, never a burst of steps
MAX_STEPS_PER_FRAME = 240  # safety cap for fast-forwarded (scripted) play
FRAME_SAMPLES = 3600  # frames the benchmark keeps: the last minute at 60 frames a second

# Keyboard keys (KeyboardEvent.key) -> commands; "pause" is the screen's own.
KEYS: dict[str, str] = {
    "ArrowLeft": "left",
    "ArrowRight": "right",
    "ArrowDown": "soft_drop",
    "ArrowUp": "rotate_cw",
    "x": "rotate_cw",
    "X": "rotate_cw",
    "z": "rotate_ccw",
    "Z": "rotate_ccw",
    " ": "hard_drop",
    "Spacebar": "hard_drop",
    "p": "pause",
    "P": "pause",
    "Escape": "pause",
}

REPEATING = {"left": REPEAT_DELAY, "right": REPEAT_DELAY, "soft_drop": SOFT_DROP_REPEAT}


def key_command(key: str) -> str | None:
    """Return the command a key gives (``left``, ..., ``pause``), or None."""
    return KEYS.get(key)


@dataclass
class Advance:
    """What one call of ``Driver.advance`` did."""

    steps: int = 0
    commands: int = 0  # accepted commands since the last call (keys and swipes apply theirs between frames)
    locked: int = 0  # dominoes locked since the last call
    over: bool = False  # the game ended since the last call (a step, or a drop pressed between frames)
    changed: bool = False  # anything to redraw (a step or an accepted command)


class Driver:
    """Runs a Bonefall state in real time: ``press`` / ``release`` inputs, ``advance(ms)`` each frame."""

    def __init__(self, state: Any, autoplayer: Any = None) -> None:
        self.state = state
        self.autoplayer = autoplayer
        self.carry = 0.0  # milliseconds not yet turned into a step
        self.held: dict[str, int] = {}  # held repeating command -> steps until its next repeat
        self.order: list[str] = []  # held directions, most recent last (the latest one wins)
        self.queue: list[str] = []  # commands pressed since the last step, applied at once
        self.script: list[tuple[int, str]] = []  # a recorded input log to feed (step, command)
        self.speed = 1  # steps per frame step (fast-forward for scripted play)
        self.autoplay_ms = 0.0  # time the autoplayer spent in the last advance (set by the caller's clock)
        self.clock: Any = None  # optional callable returning milliseconds, to time the autoplayer
        # What ``advance`` has reported: a drop pressed between two frames locks (and may end the game)
        # outside ``advance``, and the next call must still report it.
        self.turns_seen = state.turns
        self.log_seen = len(state.log)
        self.end_seen = state.phase == "over"

    # -- input --------------------------------------------------------------------------------

    def press(self, cmd: str) -> bool:
        """Start an input: apply it now and, for directions and soft drop, start its repeat.

        Returns whether the command was accepted by the simulation.
        """
        if cmd in REPEATING:
            if cmd in self.held:
                return False  # the system's own key repeat: ours does the repeating
            self.held[cmd] = REPEATING[cmd]
            if cmd in ("left", "right"):
                other = "right" if cmd == "left" else "left"
                self.held.pop(other, None)
                if other in self.order:
                    self.order.remove(other)
                self.order.append(cmd)
        return bool(self.state.command(cmd)) if self.state.phase == "falling" else False

    def release(self, cmd: str) -> None:
        """End a held input."""
        self.held.pop(cmd, None)
        if cmd in self.order:
            self.order.remove(cmd)

    def release_all(self) -> None:
        """Forget every held input (the page lost focus or was hidden)."""
        self.held.clear()
        self.order.clear()

    def load_script(self, log: Iterable[Sequence[Any]], speed: int = 1) -> None:
        """Feed a recorded input log: each command is applied once the game has run its step."""
        self.script = [(int(s), str(c)) for s, c in log]
        self.script.reverse()  # pop from the end
        self.speed = max(1, int(speed))

    # -- time ---------------------------------------------------------------------------------

    def advance(self, elapsed_ms: float) -> Advance:
        """Run the steps that ``elapsed_ms`` of real time holds; return what happened."""
        result = Advance()
        state = self.state
        self.autoplay_ms = 0.0
        if state.phase != "over":
            self.carry += min(max(elapsed_ms, 0.0), MAX_FRAME_MS)
            steps = int(self.carry // STEP_MS)
            self.carry -= steps * STEP_MS
            steps = min(steps * self.speed, MAX_STEPS_PER_FRAME if self.speed > 1 else steps)
            for _ in range(steps):
                self._inputs()
                state.step()
                result.steps += 1
                if state.phase == "over":
                    break
        result.locked, self.turns_seen = state.turns - self.turns_seen, state.turns
        result.commands, self.log_seen = len(state.log) - self.log_seen, len(state.log)
        result.over = state.phase == "over" and not self.end_seen
        self.end_seen = state.phase == "over"
        result.changed = bool(result.steps or result.commands)
        return result

    def ending(self) -> bool:
        """Tell whether the game has ended and ``advance`` has not reported it yet."""
        return self.state.phase == "over" and not self.end_seen

    def _inputs(self) -> None:
        """Apply what is due before the next step: script, autoplayer, held repeats."""
        state = self.state
        script = self.script
        while script and script[-1][0] <= state.steps:
            state.command(script.pop()[1])
        if self.autoplayer is not None and state.phase == "falling":
            clock = self.clock
            if clock is None:
                self.autoplayer.act(state)
            else:
                t = clock()
                self.autoplayer.act(state)
                self.autoplay_ms += clock() - t
        if not self.held or state.phase != "falling":
            return
        direction = self.order[-1] if self.order else None
        for cmd in list(self.held):
            if cmd in ("left", "right") and cmd != direction:
                continue
            left = self.held[cmd] - 1
            if left <= 0:
                state.command(cmd)
                left = REPEAT_EVERY if cmd != "soft_drop" else SOFT_DROP_REPEAT
            self.held[cmd] = left

    # -- what the renderer needs --------------------------------------------------------------

    def sub_step(self) -> float:
        """Return the fraction of a step already elapsed (0..1), for smooth motion between steps."""
        return min(1.0, self.carry / STEP_MS)


class FrameSamples:
    """The frame benchmark's numbers for the last ``capacity`` frames, in arrays allocated up front.

    ``add`` writes one frame into a ring (the oldest frame is overwritten once it is full), so recording
    allocates nothing however long the page plays; ``column`` reads a field back, oldest frame first.
    """

    FIELDS = ("frame_ms", "autoplay_ms", "ts", "advance_ms", "save_ms", "draw_ms", "layer")

    def __init__(self, capacity: int = FRAME_SAMPLES) -> None:
        self.capacity = max(1, capacity)
        self.columns = {name: array("d", bytes(8 * self.capacity)) for name in self.FIELDS}
        self.count = 0  # frames held (at most ``capacity``)
        self.total = 0  # frames recorded since the last ``clear``
        self.next = 0  # where the next frame goes

    def add(
        self,
        frame_ms: float,
        autoplay_ms: float,
        ts: float,
        advance_ms: float,
        save_ms: float,
        draw_ms: float,
        layer: bool,
    ) -> None:
        """Record one frame."""
        i = self.next
        columns = self.columns
        columns["frame_ms"][i] = frame_ms
        columns["autoplay_ms"][i] = autoplay_ms
        columns["ts"][i] = ts
        columns["advance_ms"][i] = advance_ms
        columns["save_ms"][i] = save_ms
        columns["draw_ms"][i] = draw_ms
        columns["layer"][i] = 1.0 if layer else 0.0
        self.next = (i + 1) % self.capacity
        self.total += 1
        if self.count < self.capacity:
            self.count += 1

    def column(self, name: str) -> list[float]:
        """Return one field of the frames held, oldest first."""
        values = self.columns[name]
        if self.count < self.capacity:
            return values[: self.count].tolist()
        return values[self.next :].tolist() + values[: self.next].tolist()

    def clear(self) -> None:
        """Forget every frame (the arrays stay allocated)."""
        self.count = self.total = self.next = 0


def running_turn_score(view: dict[str, Any]) -> int:
    """Return the turn score to show: while a cascade animates, the score reached so far."""
    index = view.get("event_index")
    if index is None:
        return int(view["turn_score"])
    score = 0
    for event in view["events"][: index + 1]:
        if event["kind"] == "annihilate":
            score = int(event["score"])
    return score


def hud_values(view: dict[str, Any]) -> dict[str, str]:
    """Return the text of each score box (element ids ``fall-<name>``) for a view."""
    left = view["left_in_set"] + (1 if view.get("piece") else 0)
    return {
        "turn": str(running_turn_score(view)),
        "max": str(view["max_score"]),
        "power": str(view["power"]),
        "speed": f"{view['speed']:.1f}",
        "left": str(left) if view["mode"] == "sprint" else str(view["sets_dealt"]),
        "level": str(view["level"]),
    }
