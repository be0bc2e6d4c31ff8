"""What a game's table screen provides, and what the app gives it while it draws and plays."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from boneyard.settings import Settings

from .html import Markup
from .intents import Intent, Intents
from .kit import KitState, display_names
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
    kit: KitState = field(default_factory=KitState)  # the kit's own: face up, review, hint, privacy, ...

    def clear_selection(self) -> None:
        """Forget a chosen tile (a move was taken back)."""


@dataclass
class TableContext:
    """What a table screen may use: the session, the settings, its own UI state, and ``emit``.

    A screen asks the app for things by returning intents from its handlers; ``emit`` is for what runs
    outside any handler (a real-time loop, a key, the Expert's thinking), and dispatches at once.
    """

    session: Session
    settings: Settings
    ui: TableState  # the screen's own state (selection, privacy, ...); made anew for a new game
    animations: bool
    board_width: int = 640  # pixels available to the table, measured by the app
    board_height: int = 420  # the height of the board (``#table-board``), measured by the app
    flags: dict[str, Any] = field(default_factory=dict)
    emit: Callable[[Intent], None] = lambda intent: None  # a loop outside any handler hands intents here

    def emit_all(self, asked: Iterable[Intent] | None) -> None:
        """Dispatch these intents now, in order (what a key or a loop asked for)."""
        for intent in asked or ():
            self.emit(intent)


class Screen:
    """A game's table screen: what ``ui.games.<id>.SCREEN`` is an instance of.

    A screen overrides ``modes``, ``mode_from_form``, ``render`` and ``on_action``; every other hook
    does nothing here, so the app calls each hook on every screen without asking whether it has one.
    """

    game_id: str = ""
    expert: bool = False  # the Expert gives hints and reviews this game (``ui.hints``)
    hint_nodes: int | None = None  # the Expert's search size for a hint (None: the engine's own)
    review_nodes: int | None = None  # and for each decision it reviews
    move_pattern: re.Pattern[str] | None = None  # a move's text inside the engine's words

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
    def new_state(self, form: Mapping[str, Any] | None = None) -> TableState:
        """Return a new UI state for this table (``form``: the game's setup form, with what the last game
        asked to keep)."""
        return TableState()

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
        """Carry out a key pressed on the table (``key_intents``); return True when it was used."""
        asked = self.key_intents(ctx, key)
        if asked is None:
            return False
        ctx.emit_all(asked)
        return True

    def key_intents(self, ctx: TableContext, key: str) -> Intents | None:
        """Return what a key asks for, or None when the table does not use it (none here)."""
        return None

    def on_key_up(self, ctx: TableContext, key: str) -> None:
        """Handle a key released on the table."""

    def paused(self, ctx: TableContext) -> bool:
        """Tell whether play waits for the player (a finished hand shown until Next hand): no computer moves."""
        return False

    def on_refused(self, ctx: TableContext, message: str) -> bool:
        """Show a refused move's reason on the table (``kit.refuse``); return False to let the app toast it."""
        return False

    def before_render(self, ctx: TableContext) -> Intents:
        """Make what the next drawing shows (a real-time game's driver, a demo asked for): the app calls it
        before ``render``, which then only reads the view and the state."""
        return []

    def after_render(self, ctx: TableContext) -> None:
        """Work with the table once its markup is in the page (bind a canvas, start a loop)."""

    def leave(self, ctx: TableContext) -> None:
        """Stop loops, pause and save: the player leaves the table."""

    def names(self, ctx: TableContext) -> list[str]:
        """Return each seat's name as the table shows it ("You" for the one person against computers)."""
        return display_names(ctx.session)

    def private_hands(self, view: Mapping[str, Any]) -> bool:
        """Tell whether a position's hands are kept from the other people on the device (they are)."""
        return True

    # -- the Expert's words and marks (``ui.hints``) ------------------------------------------------------
    def move_words(self, move: str) -> str:
        """Return a move's text in a player's words (Draw, Pass; a game says its own moves)."""
        return {"draw": "Draw", "pass": "Pass"}.get(move, move)

    def other_words(self, move: str, than: str) -> str:
        """Return ``move`` in words that tell it from ``than`` (the same tile elsewhere)."""
        words = self.move_words(move)
        if move == than or words != self.move_words(than):
            return words
        return f"{words} elsewhere"

    def hint_title(self, move: str) -> str:
        """Return the hinted move for the hint card's title."""
        return self.move_words(move)

    def hint_help(self, move: str) -> str:
        """Return a line the hint card adds under the odds ("" for none)."""
        return ""

    def hint_targets(self, move: str) -> list[str]:
        """Return the CSS selectors of what the hinted move touches: Draw and Pass here, a game adds its own."""
        return [f'.kit-tray [data-action="{move}"]'] if move in ("draw", "pass") else []

    # -- the end --------------------------------------------------------------------------------------
    def final_scores(self, session: Session) -> dict[str, float] | None:
        """Return the scores of a finished game kept as its mode's bests, or None."""
        return None


GameScreen = Screen  # the name older modules use
