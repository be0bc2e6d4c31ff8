"""Scheduling the computer's turns: one task at a time, for the table on screen (pure asyncio, no browser).

The shell says which computer turn it wants played (a ``TurnKey``: the game, its deal, its revision and
the shell's generation) every time it draws a table, or None when no computer is to move there. A task
plays that one turn; the shell draws again afterwards and so asks for the next one.

- Asking for a different turn while a task is busy cancels that task and starts the new one as soon as
  the old one has stopped: a computer pausing or thinking on a table the player has left, or on a game
  that another tab or a new deal replaced, never blocks the table now on screen.
- Asking again for the turn that is being played changes nothing; a turn whose task ran to its end
  (played, or failed and reported) is not started again until the shell asks for another, so a failing
  computer does not retry in a loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

__all__ = ["AFTER_DRAW_SHARE", "ComputerTurns", "TurnKey", "beat_pause"]

COMPUTER_DELAY_S = 0.7  # a computer move, with animations on
COMPUTER_DELAY_FAST_S = 0.05
# How long a computer's move stays on screen before the next (Settings.speed); with animations off the
# "normal" and "fast" pauses shrink to COMPUTER_DELAY_FAST_S (the table does not move, nothing to watch).
COMPUTER_DELAYS_S = {"relaxed": 1.3, "normal": COMPUTER_DELAY_S, "fast": 0.3}
COMPUTER_DELAYS_STILL_S = {"relaxed": 0.8, "normal": COMPUTER_DELAY_FAST_S, "fast": COMPUTER_DELAY_FAST_S}
# A computer's lay after its draws comes sooner (at the normal speed 0.42 s: time enough for the drawn
# tiles to land, motion.SLIDE_MS), so a turn of draws and a lay stays under 1.2 s.
AFTER_DRAW_SHARE = 0.6


def beat_pause(speed: str, animations: bool, *, after_draw: bool = False) -> float:
    """Return how long a computer's beat lasts at least (its thinking runs within it, not after it)."""
    delays = COMPUTER_DELAYS_S if animations else COMPUTER_DELAYS_STILL_S
    pause = delays.get(speed, COMPUTER_DELAY_S)
    return pause * AFTER_DRAW_SHARE if after_draw else pause


class TurnKey(NamedTuple):
    """One computer turn: of this game's deal, at this revision, in this generation of the shell."""

    game_id: str
    uid: str
    revision: int
    generation: int


class ComputerTurns:
    """Runs ``play(key)`` for the turn the shell wants, one task at a time."""

    def __init__(
        self,
        play: Callable[[TurnKey], Awaitable[None]],
        spawn: Callable[[Awaitable[None]], asyncio.Future[Any]] = asyncio.ensure_future,
    ) -> None:
        self.play = play
        self.spawn = spawn
        self.wanted: TurnKey | None = None
        self.running: TurnKey | None = None
        self.finished: TurnKey | None = None  # the last turn whose task ran to its end
        self.task: asyncio.Future[Any] | None = None

    @property
    def busy(self) -> bool:
        """Tell whether a task is playing (or stopping) a turn."""
        return self.task is not None and not self.task.done()

    def want(self, key: TurnKey | None) -> None:
        """Ask for ``key``'s turn to be played (None: no computer turn now); cancel a stale task."""
        self.wanted = key
        if self.busy:
            if self.running != key and self.task is not None and not self._inside(self.task):
                self.task.cancel()  # its done callback starts what is wanted then
            return
        self._start()

    def stop(self) -> None:
        """Cancel any turn in progress and want none."""
        self.want(None)

    @staticmethod
    def _inside(task: asyncio.Future[Any]) -> bool:
        """Tell whether we are running inside ``task`` (the turn asking for the next one as it ends)."""
        try:
            return asyncio.current_task() is task
        except RuntimeError:  # no loop is running: called from outside any task
            return False

    def _start(self) -> None:
        key = self.wanted
        if key is None or key == self.finished:
            return
        self.running = key
        self.task = self.spawn(self.play(key))
        self.task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        if task is not self.task:
            return
        self.finished = None if task.cancelled() else self.running
        self.task = None
        self.running = None
        self._start()
