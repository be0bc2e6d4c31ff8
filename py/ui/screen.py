"""What a game's table screen provides, and what the app gives it while it draws and plays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from boneyard.settings import Settings

from .html import Markup
from .session import Session


@dataclass(frozen=True)
class Mode:
    """A named way to play a game: what the setup screen offers."""

    key: str  # stats key, e.g. "classic-2"
    label: str  # e.g. "Classic (single round)"
    options: dict[str, Any]
    players: int | None = None  # fixed by the mode, or None for the player's choice
    note: str = ""


@dataclass
class TableContext:
    """What a table screen may use: the session, the settings, its own UI state, and actions."""

    session: Session
    settings: Settings
    ui: dict[str, Any]  # the screen's own state (selection, privacy, ...); cleared on a new game
    animations: bool
    play: Callable[[Any], bool]  # play a person's move (text or move); False if refused (reported)
    announce: Callable[[str], None]  # read out to screen readers, and shown in the status line
    rerender: Callable[[], None]
    board_width: int = 640  # pixels available to the table, measured by the app
    save: Callable[[], None] = lambda: None  # save the session now (real-time games save when they pause)
    finish: Callable[[], None] = lambda: None  # the game ended outside play(): count it and forget the save
    record_scores: Callable[[dict[str, float]], list[str]] = lambda scores: []  # keep best scores; new bests
    flags: dict[str, Any] = field(default_factory=dict)


class GameScreen(Protocol):
    """The methods each ``ui.games.<id>.SCREEN`` has."""

    game_id: str

    def modes(self) -> list[Mode]: ...

    def custom_fields(self, form: dict[str, Any]) -> Markup: ...

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]: ...

    def render(self, ctx: TableContext) -> Markup: ...

    def on_action(self, ctx: TableContext, action: str, value: str) -> None: ...

    # Optional hooks (the app calls them when present):
    #   on_key(ctx, key) -> bool            a key pressed on the table (True: handled)
    #   after_render(ctx) -> None           the table's markup is in the page (bind canvas, start a loop)
    #   leave(ctx) -> None                  the player leaves the table (stop loops, pause, save)
    #   seats_from_form(form, settings) -> list[Seat]   seat people and computers from the setup form
    #   final_scores(session) -> dict | None            scores of a finished game kept as its mode's bests
