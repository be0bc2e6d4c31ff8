"""What a game's table screen provides, and what the app gives it while it draws and plays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boneyard.settings import Settings

from .html import Markup
from .intents import Intent, Intents
from .session import Seat, Session


@dataclass(frozen=True)
class Mode:
    """A named way to play a game: what the setup screen offers."""

    key: str  # stats key, e.g. "classic-2"
    label: str  # e.g. "Classic (single round)"
    options: dict[str, Any]
    players: int | None = None  # fixed by the mode, or None for the player's choice
    note: str = ""


@dataclass
class TableState:
    """A table screen's own UI state (selection, review step, privacy, ...): each screen subclasses it.

    The app keeps one per game, made by ``Screen.new_state``, and makes a new one for a new deal.
    """

    start_demo: dict[str, Any] | bool | None = None  # set by the app: start a watched demo game

    def clear_selection(self) -> None:
        """Forget a chosen tile (a move was taken back)."""


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
    board_height: int = 420  # the height of the board (``#table-board``), measured by the app
    save: Callable[[], None] = lambda: None  # save the session now (real-time games save when they pause)
    finish: Callable[[], None] = lambda: None  # the game ended outside play(): count it and forget the save
    record_scores: Callable[[dict[str, float]], list[str]] = lambda scores: []  # keep best scores; new bests
    flags: dict[str, Any] = field(default_factory=dict)
    emit: Callable[[Intent], None] = lambda intent: None  # a loop outside any handler hands intents here


class Screen:
    """A game's table screen: what ``ui.games.<id>.SCREEN`` is an instance of.

    A screen overrides ``modes``, ``mode_from_form``, ``render`` and ``on_action``; every other hook
    does nothing here, so the app calls each hook on every screen without asking whether it has one.
    """

    game_id: str = ""

    # -- setup ------------------------------------------------------------------------------------
    def modes(self) -> list[Mode]:
        """Return the ways to play this game that the setup screen offers."""
        raise NotImplementedError

    def custom_fields(self, form: dict[str, Any]) -> Markup:
        """Return the game's own controls on the setup screen (none by default)."""
        return Markup("")

    def player_fields(self, form: dict[str, Any]) -> Markup:
        """Return the game's own controls in the setup's Players part, after the number of players (none)."""
        return Markup("")

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the mode and the number of players chosen in the setup form."""
        raise NotImplementedError

    def seats_from_form(self, form: dict[str, Any], settings: Settings) -> list[Seat] | None:
        """Seat people and computers from the setup form, or return None to let the shell seat them."""
        return None

    # -- the table ----------------------------------------------------------------------------------
    def new_state(self) -> Any:
        """Return a new UI state for this table (a ``TableState``; the dict is what older screens use)."""
        return {}

    def render(self, ctx: TableContext) -> Markup:
        """Return the table's markup."""
        raise NotImplementedError

    def on_action(self, ctx: TableContext, action: str, value: str) -> Intents | None:
        """Carry out a click on the table (``data-action`` and ``data-value``); return what the app must do."""
        return None

    def on_played(self, ctx: TableContext, move: Any) -> Intents:
        """The person's move (an ``intents.Play``) was made; return what follows it."""
        return []

    def on_finished(self, ctx: TableContext, new_bests: list[str]) -> Intents:
        """A game ended by ``intents.Finish`` was counted; these of its scores are new bests."""
        return []

    def on_key(self, ctx: TableContext, key: str) -> bool:
        """Handle a key pressed on the table; return True when it was used."""
        return False

    def on_key_up(self, ctx: TableContext, key: str) -> None:
        """Handle a key released on the table."""

    def paused(self, ctx: TableContext) -> bool:
        """Tell whether play waits for the player (a finished hand shown until Next hand): no computer moves."""
        return False

    def on_refused(self, ctx: TableContext, message: str) -> bool:
        """Show a refused move's reason on the table (``kit.refuse``); return False to let the app toast it."""
        return False

    def after_render(self, ctx: TableContext) -> None:
        """Work with the table once its markup is in the page (bind a canvas, start a loop)."""

    def leave(self, ctx: TableContext) -> None:
        """Stop loops, pause and save: the player leaves the table."""

    # -- the end --------------------------------------------------------------------------------------
    def final_scores(self, session: Session) -> dict[str, float] | None:
        """Return the scores of a finished game kept as its mode's bests, or None."""
        return None


GameScreen = Screen  # the name older modules use
