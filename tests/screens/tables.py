"""Build what the table screens' tests drive: a TableContext as the app makes one, seats, seeded play."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from boneyard.settings import Settings
from ui.games import screen_for
from ui.intents import Announce, Finish, Intent, Intents, Play, Refuse, Remember, Render, Save
from ui.session import Seat, Session
from ui.table_screen import TableContext, TableState


def carry_out(
    ctx: TableContext,
    screen: Any,
    intent: Intent,
    *,
    play: Callable[[Any], bool],
    announce: Callable[[str], None],
    rerender: Callable[[], None],
    save: Callable[[], None] = lambda: None,
    finish: Callable[[dict[str, float]], list[str]] = lambda scores: [],
    remember: Callable[[Mapping[str, Any]], None] = lambda form: None,
) -> None:
    """Carry out one intent as the app's dispatcher does, with the test's stand-ins for the app."""
    if isinstance(intent, Play):
        if play(intent.move) and screen is not None:
            ctx.emit_all(screen.on_played(ctx, intent.move))
    elif isinstance(intent, Announce):
        announce(intent.text)
    elif isinstance(intent, Refuse):
        if screen is not None:
            screen.on_refused(ctx, intent.reason)
    elif isinstance(intent, Render):
        rerender()
    elif isinstance(intent, Save):
        save()
    elif isinstance(intent, Finish):
        new_bests = finish(dict(intent.scores))
        if screen is not None:
            ctx.emit_all(screen.on_finished(ctx, new_bests))
    elif isinstance(intent, Remember):
        remember(intent.form)


def table_context(
    session: Session,
    *,
    play: Callable[[Any], bool] | None = None,
    settings: Settings | None = None,
    ui: TableState | None = None,
    announce: Callable[[str], None] | None = None,
    rerender: Callable[[], None] | None = None,
    save: Callable[[], None] | None = None,
    finish: Callable[[dict[str, float]], list[str]] | None = None,
    remember: Callable[[Mapping[str, Any]], None] | None = None,
    screen: Any = None,
    **extra: Any,
) -> TableContext:
    """Return a context without animations for ``session`` whose ``emit`` carries intents out as the app
    does; what is not given does nothing (a Play goes through the session, a refusal to the screen)."""
    screen = screen if screen is not None else screen_for(session.info.id)
    if ui is None:
        ui = screen.new_state() if screen is not None else TableState()
    ctx = TableContext(
        session=session,
        settings=settings if settings is not None else Settings(),
        ui=ui,
        animations=False,
        **extra,
    )

    def through_session(move: Any) -> bool:
        try:
            session.play(move)
        except Exception as exc:
            if screen is not None:
                screen.on_refused(ctx, str(exc))
            return False
        return True

    ctx.emit = lambda intent: carry_out(
        ctx,
        screen,
        intent,
        play=play if play is not None else through_session,
        announce=announce if announce is not None else lambda text: None,
        rerender=rerender if rerender is not None else lambda: None,
        save=save if save is not None else lambda: None,
        finish=finish if finish is not None else lambda scores: [],
        remember=remember if remember is not None else lambda form: None,
    )
    return ctx


def act(screen: Any, ctx: TableContext, action: str, value: str = "") -> Intents | None:
    """Click ``action`` on the table as the app does: the screen's handler, then what it asked for."""
    asked: Intents | None = screen.on_action(ctx, action, value)
    ctx.emit_all(asked)
    return asked


class TableHarness:
    """A table as the app holds one: subclasses set ``screen``, ``session``, ``settings``, ``ui`` (the
    screen's state, made by the screen when not set) and ``heard`` (what was announced), and may override
    ``play`` (refuses by default) and ``rerender``."""

    screen: Any
    session: Session
    settings: Settings
    ui: TableState | None = None
    heard: list[str]
    form: dict[str, Any]  # the app's setup form of the game: what a finished table asked to keep

    def play(self, move: Any) -> bool:
        """Refuse the move (a table that only draws)."""
        return False

    def rerender(self) -> None:
        """Do nothing (the app would draw the table again)."""

    def context(self, **extra: Any) -> TableContext:
        """Return the context the app would give the screen now."""
        if self.ui is None:
            self.ui = self.screen.new_state()
        if "form" not in self.__dict__:
            self.form = {}
        return table_context(
            self.session,
            settings=self.settings,
            ui=self.ui,
            play=self.play,
            announce=self.heard.append,
            rerender=self.rerender,
            remember=self.form.update,
            screen=self.screen,
            **extra,
        )

    def act(self, action: str, value: str = "") -> Any:
        """Click ``action`` on the table (the screen's handler, then what it asked for); return what it asked."""
        return act(self.screen, self.context(), action, value)


def recording_context(
    session: Session, ui: TableState | None = None, width: int = 800, height: int = 420
) -> tuple[TableContext, list[Any]]:
    """Return a context whose plays go through the session, and the list of the moves it played."""
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
        act(screen, ctx, "next-hand")
    elif session.computer_to_move():
        session.computer_move()
    else:
        session.play(session.state.view(0)["legal_moves"][0])
