"""The Daily's flow in the app: deal or resume the day's deal, keep its records, share its result.

The Daily's pure parts (its deal, records, card and share text) are ``ui.daily``; ``DailyFlow`` carries
out its steps for the app, asking the app only what ``DailyApp`` lists: open a game's Daily (setting the
ordinary game in progress aside, and bringing it back once the Daily is over), note each attempt, work
out the Expert's game of a finished Daily, copy the share text.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from boneyard import saves
from boneyard.games import GAMES
from boneyard.settings import Settings

from . import daily
from .html import Markup
from .ports import Port
from .seating import daily_session
from .session import Session
from .storage import Storage
from .table_screen import Screen, TableState

__all__ = ["DailyApp", "DailyFlow"]


class DailyApp(Protocol):
    """What the Daily's flow asks of the app (``ui.app.App``): its page, storage, games and clock."""

    port: Port
    storage: Storage
    settings: Settings
    sessions: dict[str, Session]
    written: dict[str, str | None]  # each game's save text as this tab last wrote or read it
    table_ui: dict[str, TableState]
    generation: int
    wall_clock: Callable[[], float]  # the Daily's day (UTC) comes from it

    @property
    def table(self) -> str | None:
        """Return the game whose table is on screen."""

    def screen(self, game_id: str) -> Screen | None:
        """Return a game's table screen."""

    def session_of(self, game_id: str) -> Session | None:
        """Return the session a table of ``game_id`` shows."""

    def save(self, session: Session) -> None:
        """Save a game in progress."""

    def report(self, kind: str, message: str) -> None:
        """Tell the player something."""

    def toast(self, kind: str, message: str, action: Markup | str = "") -> None:
        """Show a message in the toast area."""

    def request_render(self) -> None:
        """Draw the page again at the end of this tick."""

    def spawn(self, coro: Awaitable[None]) -> asyncio.Future[Any]:
        """Run a coroutine as a task."""

    async def think_in_slices(self, thinking: Any) -> Any:
        """Drive a computer's thinking, handing the page back every few milliseconds."""


class DailyFlow:
    """The Daily's flow: today's deal opened, its attempts noted, the game it set aside kept and given back."""

    def __init__(self, app: DailyApp) -> None:
        self.app = app
        self.experts: set[str] = set()  # the finished Dailies whose Expert game is being worked out

    def open_daily(self, game_id: str) -> None:
        """Open today's Daily of a game: resume it when it is under way, else deal it (practice after the
        day's counted attempt), setting the ordinary game in progress aside under its own key."""
        app = self.app
        info, screen = GAMES[game_id], app.screen(game_id)
        if screen is None:
            return
        today = daily.day_of(app.wall_clock())
        current = app.sessions.get(game_id)
        marks = daily.daily_of(current)
        if current is not None and not current.state.is_over():
            if marks is not None and marks["day"] == today.isoformat():
                app.port.replace_hash(f"#/play/{game_id}")  # today's Daily, under way: resume it
                return
            if marks is None and daily.started(current) and not self.park(current):
                app.report("error", "Storage is full: your game in progress stays, the Daily waits.")
                app.port.replace_hash(f"#/play/{game_id}")
                return
        practice = today.isoformat() in self.records().get(game_id, {})
        session = daily_session(info, screen, today, app.settings, practice)
        app.generation += 1
        app.sessions[game_id] = session
        app.table_ui.pop(game_id, None)  # a new deal: the table's state starts afresh
        app.save(session)
        app.port.replace_hash(f"#/play/{game_id}")

    def records(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Return the Daily records as stored now (another tab may have added to them); damaged ones are
        reported and kept aside (Settings lists them), never written over."""
        storage = self.app.storage
        text = storage.get(daily.DAILY_KEY)
        try:
            return daily.read_records(text)
        except saves.SaveError as exc:
            if text is not None:
                storage.move_aside(
                    daily.DAILY_KEY, text, f"The Daily's records could not be read: {exc.message}"
                )
            return {}

    def note_daily(self, session: Session) -> None:
        """Keep a Daily's attempt (from its first move) and, at its end, its score as the day's record."""
        if daily.daily_of(session) is None or not daily.started(session):
            return
        records = self.records()
        if daily.note_attempt(records, session):
            self.app.storage.set(daily.DAILY_KEY, daily.save_records(records))

    def park(self, session: Session) -> bool:
        """Set an ordinary game in progress aside while a Daily of its game is played; False when not stored."""
        storage = self.app.storage
        game_id = session.info.id
        text = storage.get(saves.save_key(game_id)) or saves.dump_save(
            game_id, session.to_json(), storage.clock()
        )
        return storage.set(daily.PARKED_PREFIX + game_id, text)

    def parked(self, game_id: str) -> Session | None:
        """Return the ordinary game a Daily set aside, or None (a damaged one is None too, and kept)."""
        text = self.app.storage.get(daily.PARKED_PREFIX + game_id)
        if text is None:
            return None
        built: list[Session] = []
        try:
            saves.load_save(
                text, expected_game=game_id, validate=lambda g, s: built.append(Session.from_json(g, s))
            )
        except (saves.SaveError, ValueError):
            return None
        return built[0] if built else None

    def unpark_all(self) -> None:
        """Bring back every game a Daily set aside whose place is free (at the start, after an import)."""
        for key in self.app.storage.keys(daily.PARKED_PREFIX):
            self.unpark(key.removeprefix(daily.PARKED_PREFIX))

    def unpark(self, game_id: str) -> None:
        """Bring the game a Daily set aside back once no unfinished game holds its place."""
        app = self.app
        key = daily.PARKED_PREFIX + game_id
        text = app.storage.get(key)
        current = app.sessions.get(game_id)
        if text is None or (current is not None and not current.state.is_over()):
            return
        session = self.parked(game_id)
        if session is None or not app.storage.set(saves.save_key(game_id), text):
            return
        app.storage.remove(key)
        app.sessions[game_id] = session
        app.written[game_id] = text
        app.table_ui.pop(game_id, None)
        app.generation += 1
        app.request_render()  # home offers to resume it

    def work_out_expert(self) -> None:
        """Start playing the finished Daily on screen again with the Expert, in slices between frames."""
        app = self.app
        game_id = app.table
        session = app.session_of(game_id) if game_id else None
        if (
            session is None
            or daily.daily_of(session) is None
            or not session.state.is_over()
            or session.info.id not in daily.EXPERT_GAMES
            or "daily_expert" in session.extra
            or session.uid in self.experts
        ):
            return
        self.experts.add(session.uid)

        async def work() -> None:
            try:
                score, words = await app.think_in_slices(daily.expert_run(session))
                session.extra["daily_expert"] = {"score": score, "words": words}
            except Exception:
                app.port.log("error", "Boneyard: " + traceback.format_exc())
                session.extra["daily_expert"] = {
                    "score": 0,
                    "words": "The Expert's game could not be worked out.",
                }
            finally:
                self.experts.discard(session.uid)
            app.request_render()

        app.spawn(work())

    def share_daily(self) -> None:
        """Copy the Daily's result to share; the card's field keeps it for a browser that refuses."""
        app = self.app
        session = app.session_of(app.table or "")
        words = daily.card_text(session, app.port.page_address()) if session is not None else None
        if words is None:
            return
        if app.port.copy_text(words):
            app.toast("info", "Copied: paste it in a message.")
        else:
            app.toast("info", "The browser did not let the page copy: select the text below and copy it.")
            app.port.set_attr(".daily-more", "open", "")  # Bonefall's card keeps the text folded
            app.port.focus("#daily-text")
