"""A link's game in the page: the challenge dealt for the friend, the replay played out for the review.

The markup of links (the share row, the challenge's screen, both scores) is ``ui.share``, which the kit
draws; this module seats a link's table with the setup's own names and modes, and ``LinkFlow`` carries
out the links' steps for the app (open a link's screen, play a challenge, make and copy a link), asking
the app only what ``LinkApp`` lists.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from boneyard import saves
from boneyard.games import GAMES
from boneyard.links import HUMAN, Challenge, LinkError, Replay, Table
from boneyard.settings import Settings

from . import share, shell
from .games import screen_for
from .html import Markup
from .intents import Intents
from .ports import Port
from .routes import HOME, Route
from .seating import computer_name
from .session import Seat, Session
from .shell import LEVEL_LABELS
from .storage import Storage
from .table_screen import Screen, TableContext, TableState

__all__ = [
    "LinkApp",
    "LinkFlow",
    "Linked",
    "computer_levels",
    "is_linked",
    "mode_label",
    "replay_session",
    "start_challenge",
]


@dataclass
class Linked:
    """The link open in the page: its text, what it holds, and its game once played (or replayed)."""

    text: str
    opened: Challenge | Replay
    session: Session | None = None  # a challenge's game (dealt, or resumed), or the replayed game
    playing: bool = False  # its table is on show (a challenge's Play pressed; a replay at once)
    ui: TableState | None = None  # its table's UI state, apart from the player's own table of that game


def computer_levels(table: Table) -> list[str]:
    """Return the computer seats' levels in words ("Hard")."""
    return [LEVEL_LABELS.get(seat, seat) for seat in table.seats if seat != HUMAN]


def _seats(table: Table, name: str) -> list[Seat]:
    """Return the seats of a link's table: ``name`` in the person's, the computers named as in setup."""
    seats: list[Seat] = []
    computers = 0
    for seat in table.seats:
        if seat == HUMAN:
            seats.append(Seat("human", name))
        else:
            computers += 1
            seats.append(Seat("computer", computer_name(computers, seat), seat))
    return seats


def mode_label(table: Table) -> str:
    """Return the mode in words, from the game's modes and the link's stats key ("Classic, 2 players")."""
    key, players = table.mode.removesuffix("-device"), len(table.seats)
    screen = screen_for(table.game)
    for mode in screen.modes() if screen is not None else []:
        if key == mode.key:
            return str(mode.label)
        if key.startswith(mode.key + "-"):
            return f"{mode.label}, {players} players" if players > 1 else mode.label
    return f"{players} players" if players > 1 else GAMES[table.game].name


def start_challenge(challenge: Challenge, text: str, name: str) -> Session:
    """Deal a challenge's game: the same deal, seats and computer levels (their generator follows the seed)."""
    table = challenge.table
    info = GAMES[table.game]
    session = Session.start(
        info, _seats(table, name), table.mode, mode_label(table), table.options, challenge.seed
    )
    session.extra["challenge"] = {"link": text, "score": challenge.score, "name": challenge.name}
    return session


def replay_session(replay: Replay, text: str) -> Session:
    """Return the finished game a replay holds, replayed on this page's engine (its moves are checked)."""
    table = replay.table
    info = GAMES[table.game]
    sender = replay.name or "Your friend"
    session = Session.start(
        info, _seats(table, sender), table.mode, mode_label(table), table.options, replay.seed
    )
    for move in replay.moves:
        if session.seats[session.to_move() or 0].is_computer:
            session.play_computer(move)
        else:
            session.play(move)
    session.recorded = True  # someone else's game: never counted in this player's stats
    session.extra["replay"] = {"link": text, "name": replay.name}
    return session


def is_linked(session: Session) -> bool:
    """Tell whether a game came from a link (kept apart from the player's own game of that game)."""
    return "challenge" in session.extra or "replay" in session.extra


class LinkApp(Protocol):
    """What the links' flow asks of the app (``ui.app.App``): its page, storage and table's steps."""

    port: Port
    storage: Storage
    settings: Settings
    route: Route
    generation: int

    @property
    def table(self) -> str | None:
        """Return the game whose table is on screen."""

    def screen(self, game_id: str) -> Screen | None:
        """Return a game's table screen."""

    def session_of(self, game_id: str) -> Session | None:
        """Return the session a table of ``game_id`` shows."""

    def context(self, session: Session) -> TableContext:
        """Return what the game's screen may use."""

    def new_table_state(self, game_id: str) -> TableState:
        """Return a fresh UI state of a game's table."""

    def dispatch_all(self, session: Session, asked: Intents | None) -> None:
        """Carry out what a table's screen asked for."""

    def table_markup(self, session: Session, screen: Screen, kind: str = "") -> Markup:
        """Return a game's table screen."""

    def screen_markup(self, name: str, arg: str) -> Markup:
        """Return the markup of a screen."""

    def save(self, session: Session) -> None:
        """Save a game in progress."""

    def render(self) -> None:
        """Draw the current screen now."""

    def go(self, hash_: str) -> None:
        """Navigate to a screen."""

    def guard(self, fn: Callable[[], Any]) -> None:
        """Run a callback; report instead of crashing on any error."""

    def report(self, kind: str, message: str) -> None:
        """Tell the player something."""

    def toast(self, kind: str, message: str, action: Markup | str = "") -> None:
        """Show a message in the toast area."""

    def announce(self, message: str) -> None:
        """Read a message out to screen readers."""


class LinkFlow:
    """The links' flow: a link's screen (``#/link/...``), its challenge played, a finished game's link made."""

    def __init__(self, app: LinkApp) -> None:
        self.app = app
        self.linked: Linked | None = None  # the challenge or replay opened by a link (#/link/...)

    def linked_session(self) -> Session | None:
        """Return the game of the link on screen (a challenge being played, a replay), or None."""
        linked = self.linked
        if self.app.route.screen != share.LINK_ROUTE or linked is None or not linked.playing:
            return None
        return linked.session

    def ui_of(self, session: Session) -> TableState | None:
        """Return the UI state of the link's table when ``session`` is the link's game, else None."""
        linked = self.linked
        return linked.ui if linked is not None and linked.session is session else None

    def holds(self, session: Session) -> bool:
        """Tell whether ``session`` is the game of the link open in the page."""
        return self.linked is not None and self.linked.session is session

    def link_markup(self, text: str) -> Markup:
        """Return the screen of a link: a challenge's (then its table), a replay's review; refuse a bad one."""
        app = self.app
        linked = self.linked
        if linked is None or linked.text != text:
            try:
                linked = self.open_link(text)
            except LinkError as exc:
                return self.refuse_link(share.refused_words(exc))
            except Exception as exc:  # a link that decodes but that this engine cannot play out
                app.port.log("error", "Boneyard: " + traceback.format_exc())
                return self.refuse_link(f"This link cannot be opened: it is damaged ({exc}).")
            self.linked = linked
        session, screen = linked.session, app.screen(linked.opened.table.game)
        if linked.playing and session is not None and screen is not None:
            return app.table_markup(
                session, screen, "Challenge" if "challenge" in session.extra else "Replay"
            )
        opened = linked.opened
        assert isinstance(opened, Challenge)
        words = mode_label(opened.table), computer_levels(opened.table)
        return shell.frame(
            "A challenge", share.challenge_screen(opened, session is not None, *words), back="#/"
        )

    def open_link(self, text: str) -> Linked:
        """Decode a link: a replay is replayed now; a challenge is resumed if it is the one saved."""
        app = self.app
        opened = share.decode(text)
        if app.screen(opened.table.game) is None:
            raise LinkError("this version of Boneyard has no table for that game")
        linked = Linked(text, opened)
        if isinstance(opened, Challenge):
            opened.table.new_state(opened.seed)  # a deal this version cannot make is refused now, not at Play
            saved = self.saved_challenge()
            if (
                saved is not None
                and saved.extra["challenge"].get("link") == text
                and not saved.state.is_over()
            ):
                linked.session = saved
            return linked
        linked.session, linked.playing = replay_session(opened, text), True
        ui = linked.ui = app.new_table_state(opened.table.game)
        ui.kit.review, ui.kit.review_first = 0, 0  # the review, from the deal
        app.port.later(0, lambda: app.guard(self.analyse_replay))
        return linked

    def analyse_replay(self) -> None:
        """Start the Expert's review of a replay's moves (its comments follow the review's steps)."""
        app = self.app
        session = self.linked_session()
        screen = app.screen(session.info.id) if session is not None else None
        if session is not None and screen is not None and "replay" in session.extra:
            app.dispatch_all(session, screen.on_action(app.context(session), "kit-analyse", ""))

    def refuse_link(self, message: str) -> Markup:
        """Say why a link was refused and show the home screen in its place."""
        app = self.app
        app.report("warning", message)
        app.port.replace_hash("#/")
        app.route = HOME
        return app.screen_markup("home", "")

    def saved_challenge(self) -> Session | None:
        """Return the challenge saved in this browser, or None (a broken one is put aside and reported)."""
        storage = self.app.storage
        text = storage.get(share.CHALLENGE_KEY)
        if text is None:
            return None
        built: list[Session] = []

        def rebuild(game: str, state: dict[str, Any]) -> None:
            session = Session.from_json(game, state)
            if not isinstance(session.extra.get("challenge"), dict):
                raise ValueError("it is not a challenge")
            built.append(session)

        try:
            saves.load_save(text, validate=rebuild)
        except saves.SaveError as exc:
            storage.move_aside(
                share.CHALLENGE_KEY, text, f"The challenge could not be resumed. {exc.message}"
            )
            return None
        return built[0]

    def play_link(self, _value: str = "") -> None:
        """Play the challenge on screen: its saved game, else the same deal dealt now."""
        app = self.app
        linked = self.linked
        if linked is None or app.route.screen != share.LINK_ROUTE or not isinstance(linked.opened, Challenge):
            return
        if linked.session is None:
            linked.session = start_challenge(linked.opened, linked.text, app.settings.name)
            app.save(linked.session)
        linked.ui = app.new_table_state(linked.session.info.id)
        linked.playing = True
        app.generation += 1
        app.render()
        app.port.focus("[data-focus-home]")

    def again(self) -> bool:
        """Carry out Play again at a link's table (True), or leave it to the app when no link is on screen.

        A challenge not yet over deals its own deal again (Bonefall's Restart); after a link's game the
        player's own next one is set up.
        """
        session = self.linked_session()
        if session is None:
            return False
        if "challenge" in session.extra and not session.state.is_over() and self.linked is not None:
            self.linked.session = None
            self.play_link()
        else:
            self.app.go(f"#/setup/{self.app.table}")
        return True

    def share_link(self, kind: str) -> None:
        """Make the link of the finished game on screen (a challenge or a replay) and show it, to copy."""
        app = self.app
        game_id = app.table
        session = app.session_of(game_id) if game_id else None
        if session is None or not session.state.is_over() or kind not in ("c", "r"):
            return
        try:
            text = share.make_link(session, kind, app.settings.name)
        except LinkError as exc:
            app.report("warning", share.refused_words(exc).replace("opened", "made"))
            return
        app.context(session).ui.kit.shared = (kind, share.link_address(app.port.page_address(), text))
        app.render()
        app.port.focus("#share-address")
        app.announce("Challenge link made." if kind == "c" else "Replay link made.")

    def copy_link(self, _value: str = "") -> None:
        """Copy the link shown to the clipboard; say so, or say to copy it from its field."""
        app = self.app
        game_id = app.table
        session = app.session_of(game_id) if game_id else None
        shared = app.context(session).ui.kit.shared if session is not None else None
        if shared is None:
            return
        if app.port.copy_text(shared[1]):
            app.toast("info", "Link copied: paste it to a friend.")
        else:
            app.toast("warning", "The browser did not let the page copy: select the link and copy it.")
            app.port.focus("#share-address")
