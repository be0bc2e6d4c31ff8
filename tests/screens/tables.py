"""Build what the table screens' tests drive: a TableContext as the app makes one, seats, seeded play."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from boneyard.settings import Settings
from ui.session import Seat, Session
from ui.table_screen import TableContext


def table_context(
    session: Session,
    *,
    play: Callable[[Any], bool],
    settings: Settings | None = None,
    ui: dict[str, Any] | None = None,
    announce: Callable[[str], None] | None = None,
    rerender: Callable[[], None] | None = None,
    **extra: Any,
) -> TableContext:
    """Return a context without animations for ``session``; what is not given does nothing."""
    return TableContext(
        session=session,
        settings=settings if settings is not None else Settings(),
        ui=ui if ui is not None else {},
        animations=False,
        play=play,
        announce=announce if announce is not None else lambda text: None,
        rerender=rerender if rerender is not None else lambda: None,
        **extra,
    )


class TableHarness:
    """A table as the app holds one: subclasses set ``session``, ``settings``, ``ui`` (the screen's state)
    and ``heard`` (what was announced), and may override ``play`` (refuses by default) and ``rerender``."""

    session: Session
    settings: Settings
    ui: dict[str, Any]
    heard: list[str]

    def play(self, move: Any) -> bool:
        """Refuse the move (a table that only draws)."""
        return False

    def rerender(self) -> None:
        """Do nothing (the app would draw the table again)."""

    def context(self, **extra: Any) -> TableContext:
        """Return the context the app would give the screen now."""
        return table_context(
            self.session,
            settings=self.settings,
            ui=self.ui,
            play=self.play,
            announce=self.heard.append,
            rerender=self.rerender,
            **extra,
        )


def recording_context(
    session: Session, ui: dict[str, Any] | None = None, width: int = 800, height: int = 420
) -> tuple[TableContext, list[Any]]:
    """Return a context whose play() goes through the session, and the list of the moves it played."""
    played: list[Any] = []

    def play(move: Any) -> bool:
        try:
            session.play(move)
        except Exception:
            return False
        played.append(move)
        return True

    ctx = table_context(session, play=play, ui=ui, board_width=width, board_height=height)
    return ctx, played


def against_computers(players: int, level: str, name: str = "Ana") -> list[Seat]:
    """Return a person's seat followed by computers of one level."""
    return [Seat("human", name)] + [Seat("computer", f"Computer {i}", level) for i in range(1, players)]


def random_states(
    info: Any, seed: int, until: Callable[[Any], bool] | None = None, **options: Any
) -> list[Any]:
    """Play a seeded game with random legal moves; return a copy of every position, the first included."""
    state = info.new_state(seed=seed, **options)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_over() and not (until is not None and until(state)):
        state.play(rng.choice(state.view(state.current_player())["legal_moves"]))
        states.append(state.clone())
    return states


def play_on(screen: Any, ctx: TableContext) -> None:
    """Take the table one step on: the next hand when paused, else the computer's move or the first legal."""
    session = ctx.session
    if screen.paused(ctx):
        screen.on_action(ctx, "next-hand", "")
    elif session.computer_to_move():
        session.computer_move()
    else:
        session.play(session.state.view(0)["legal_moves"][0])
