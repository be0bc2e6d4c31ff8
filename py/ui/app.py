"""The app in the page: routes the address to a screen, turns clicks into actions, saves, plays.

This is the thin browser layer: it reads and writes the DOM and localStorage and drives the computer's
turns. What it decides without the browser lives in pure modules tested under CPython: the address
(``ui.routes``), seating a new game (``ui.seating``), the end of a game (``ui.results``), the computer's
turns (``ui.turns``) and other tabs' saves (``ui.sync``); every rule question goes to the engine, every
screen's markup comes from pure modules (``ui.shell``, ``ui.games.*``). Any error inside a handler is
reported to the player and logged; it never stops the page.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pyodide.ffi import create_proxy, jsnull
from pyscript import document, window

from boneyard import saves
from boneyard.core import GameInfo, IllegalMoveError
from boneyard.games import GAMES
from boneyard.stats import PlayClock

from . import intents, motion, settings_view, shell, sound, stats_view
from .games import has_screen, screen_for
from .html import Markup, h, text
from .results import count_result, keep_bests
from .routes import HOME, Route, parse_route, seed_from_query
from .seating import seat_players
from .session import Session, computer_bot
from .settings_view import DataInfo
from .storage import SETTINGS_KEY, STATS_KEY, Storage
from .sync import Stamp, Verdict, judge
from .table_screen import Screen, TableContext
from .turns import ComputerTurns, TurnKey, beat_pause

THINK_SLICE_S = 0.012  # the longest a computer thinks before the page gets a turn
ONLINE_SCREENS = ("room", "join")  # the host's room (#/room/GAME) and a guest's (#/join/CODE)
ONLINE_ACTIONS = ("create-room", "deal-check")  # and every "room-", "join-" and "chat-" action


def _js(value: Any) -> Any:
    """Return None for JS null and undefined (Pyodide gives ``jsnull`` for null), else the value."""
    return None if value is None or value is jsnull else value


def _attr(element: Any, name: str) -> str | None:
    value = _js(element.getAttribute(name))
    return None if value is None else str(value)


def by_id(element_id: str) -> Any:
    """Return the element with this id, or None."""
    return _js(document.getElementById(element_id))


class LocalStorage:
    """window.localStorage with JS null read as None (what ``ui.storage.Storage`` expects)."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend

    @property
    def length(self) -> int:
        return int(self.backend.length)

    def key(self, index: int) -> str | None:
        value = _js(self.backend.key(index))
        return None if value is None else str(value)

    def getItem(self, key: str) -> str | None:
        value = _js(self.backend.getItem(key))
        return None if value is None else str(value)

    def setItem(self, key: str, value: str) -> None:
        self.backend.setItem(key, value)

    def removeItem(self, key: str) -> None:
        self.backend.removeItem(key)


class App:
    """The one app object of the page."""

    def __init__(self) -> None:
        self.root = by_id("app")
        self.announcer = by_id("announcer")
        self.early_reports: list[tuple[str, str]] = []
        self.ready = False
        self.storage = Storage(LocalStorage(window.localStorage), self.report)
        self.settings = self.storage.load_settings()
        self.stats = self.storage.load_stats()
        self.data = DataInfo()  # Settings › Your data: storage use, an import being previewed
        self.persist_asked = False  # navigator.storage.persist() is asked once, at the first save
        self.forms: dict[str, dict[str, Any]] = {}
        self.sessions: dict[str, Session] = {}
        self.table_ui: dict[str, dict[str, Any]] = {}
        self.written: dict[str, str | None] = {}  # each game's save text as this tab last wrote or read it
        self.clock = PlayClock()  # time played in each deal, for the stats
        self.generation = 0  # counts new deals and games taken in from other tabs
        self.turns = ComputerTurns(self.computer_turn)
        # The message line to keep while a computer's tile lands, and the task that then shows the new one.
        self.held_line: tuple[str, str] | None = None
        self.releasing: Any = None
        self.board_width = 640
        self.board_height = 420
        self.route: Route = HOME
        self.last_route: Route | None = None
        self.rules_for = ""  # the game whose rules are open over its table ("" when none)
        self.online: Any = None  # the online room this page hosts or has joined (ui.online), or None
        self.last_table: str | None = None  # the game whose table was on screen at the last render
        self._proxies: list[Any] = []
        self.load_saved_games()

    # -- start ------------------------------------------------------------------------------------
    def load_saved_games(self) -> None:
        """Load every saved game now, so a broken one is reported at once and moved aside."""
        for key in self.storage.keys(saves.PREFIX + "save:"):
            game_id = key.removeprefix(saves.PREFIX + "save:")
            if game_id not in GAMES:
                text = self.storage.get(key) or ""
                self.storage.move_aside(
                    key, text, "A saved game of an unknown game was found (perhaps from a newer version)."
                )
                continue
            stored = self.storage.get(key)
            session = self.storage.load_game(game_id, Session.from_json)
            if session is not None:
                self.sessions[game_id] = session
                self.written[game_id] = stored

    def mount(self) -> None:
        """Attach the page's event listeners, draw the first screen, and mark the page ready."""
        self.apply_look()
        for kind, handler in (
            ("click", self.on_click),
            ("change", self.on_change),
            ("input", self.on_input),
            ("keydown", self.on_keydown),
            ("submit", self.on_submit),
        ):
            proxy = create_proxy(lambda event, handler=handler: self.guard(handler, event))
            self._proxies.append(proxy)
            document.addEventListener(kind, proxy)
        for kind, handler in (
            ("hashchange", lambda event: self.navigate()),
            ("resize", lambda event: self.on_resize()),
            ("storage", self.on_storage),
            ("boneyard:update-ready", lambda event: self.offer_update()),
            ("pagehide", lambda event: self.online.save(now=True) if self.online is not None else None),
        ):
            proxy = create_proxy(lambda event, handler=handler: self.guard(handler, event))
            self._proxies.append(proxy)
            window.addEventListener(kind, proxy)
        self.navigate()
        self.root.hidden = False
        self.ready = True
        for kind, message in self.early_reports:
            self.toast(kind, message)
        self.early_reports.clear()
        document.documentElement.setAttribute("data-ready", "true")
        window.boneyardBoot.done()
        self.warming = asyncio.ensure_future(self.warm_up())  # kept: a task nobody holds may be collected

    async def warm_up(self) -> None:
        """Import each game's engine and table once the page is idle, so its first open is instant.

        The page starts with only what the first screen needs; these imports (a few hundred ms in all)
        run one module at a time, yielding to the page in between.
        """
        await asyncio.sleep(1.0)
        for game_id, info in GAMES.items():
            for load in _preloads(game_id, info):
                try:
                    load()
                except Exception:
                    window.console.warn(
                        "Boneyard: could not preload " + game_id + ": " + traceback.format_exc()
                    )
                await asyncio.sleep(0.02)

    def guard(self, handler: Any, event: Any) -> None:
        """Run an event handler; report instead of crashing on any error."""
        try:
            handler(event)
        except Exception as exc:
            window.console.error("Boneyard: " + traceback.format_exc())
            self.report("error", f"Something went wrong: {exc}. Your game is safe; try again.")

    # -- reports ------------------------------------------------------------------------------------
    def report(self, kind: str, message: str) -> None:
        """Tell the player something (a toast; errors and warnings stay until closed)."""
        if not self.ready:
            self.early_reports.append((kind, message))
            return
        self.toast(kind, message)

    def toast(self, kind: str, message: str, action: Markup | str = "") -> None:
        """Show a message in the toast area."""
        box = by_id("toasts")
        item = document.createElement("div")
        item.className = f"toast toast-{kind}"
        item.setAttribute("role", "alert" if kind in ("error", "warning") else "status")
        item.innerHTML = str(
            h("p", {}, message)
            + text(action)  # Markup passes through; a plain string is escaped
            + h(
                "button",
                {
                    "type": "button",
                    "class_": "toast-close",
                    "data_action": "close-toast",
                    "aria_label": "Dismiss",
                },
                "×",
            )
        )
        box.appendChild(item)
        if kind == "info":
            window.setTimeout(create_once(lambda: item.remove()), 5000)

    def announce(self, message: str) -> None:
        """Read a message out to screen readers."""
        if self.announcer is not None:
            self.announcer.textContent = ""
            self.announcer.textContent = message

    def offer_update(self) -> None:
        """Tell the player a new version is ready; the offer stays until they reload or close it."""
        if _js(document.querySelector(".toast-update")) is not None:
            return
        self.toast(
            "update",
            "A new version is ready; your game is saved.",
            h("button", {"type": "button", "class_": "btn btn-primary", "data_action": "update"}, "Reload"),
        )

    def save_before_reload(self) -> None:
        """Save the game on screen before the page reloads (a real-time table stops and saves)."""
        if self.online is not None:
            self.online.save(now=True)
        game_id = self.table
        session = self.session_of(game_id) if game_id else None
        if game_id is None or session is None or session.online:
            return
        self.leave_table(game_id)
        self.sync(game_id)  # writes our game back unless the stored one is the same or newer

    # -- look -----------------------------------------------------------------------------------------
    def reduced_motion(self) -> bool:
        """Tell whether the system asks for reduced motion."""
        return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)

    def animations(self) -> bool:
        """Tell whether to animate."""
        return self.settings.animations_on(self.reduced_motion())

    def apply_look(self) -> None:
        """Apply the theme and the motion setting to the page."""
        theme = self.settings.theme
        if theme == "auto":
            theme = "dark" if window.matchMedia("(prefers-color-scheme: dark)").matches else "light"
        document.documentElement.setAttribute("data-theme", theme)
        document.documentElement.setAttribute("data-motion", "on" if self.animations() else "off")

    # -- routing --------------------------------------------------------------------------------------
    def go(self, hash_: str) -> None:
        """Navigate to a screen."""
        if str(window.location.hash) == hash_:
            self.navigate()
        else:
            window.location.hash = hash_

    @property
    def table(self) -> str | None:
        """Return the game whose table is on screen: a local game's, or the online room's once it plays."""
        if self.route.table:
            return self.route.table
        online = self.online
        if online is not None and self.route.screen in ONLINE_SCREENS and online.at_table():
            return str(online.game_id)
        return None

    def session_of(self, game_id: str) -> Session | None:
        """Return the session a table of ``game_id`` shows: the online room's on its screens, else the saved one."""
        online = self.online
        if online is not None and self.route.screen in ONLINE_SCREENS and online.game_id == game_id:
            if online.session is not None:
                return online.session  # type: ignore[no-any-return]
        return self.sessions.get(game_id)

    def navigate(self) -> None:
        """Draw the screen the address names."""
        self.route = parse_route(str(window.location.hash))
        self.close_rules(refocus=False)
        self.render()

    def render(self) -> None:
        """Draw the current screen, keeping the focus where it was."""
        focused = _js(document.activeElement)
        focus_id = _attr(focused, "id") if focused is not None and focused != document.body else None
        name, arg = self.route
        markup = self.screen_markup(name, arg)
        self.root.innerHTML = str(markup)
        changed = self.route != self.last_route
        if changed and self.last_table and self.last_table != self.table:
            self.leave_table(self.last_table)
        self.last_route = self.route
        self.last_table = self.table
        if changed:
            title = by_id("screen-title")
            document.title = f"{title.textContent} — Boneyard" if title is not None else "Boneyard"
            main = by_id("main")
            if main is not None and self.ready:
                main.focus()
            window.scrollTo(0, 0)
        elif focus_id:
            # Keep the focus where it was; when that control is gone (a tile just played), move it to the
            # place the screen marks as its focus home, so a keyboard player is not thrown to the top.
            # A control that keeps its focus has not moved: focusing it again must not scroll the page (when
            # it is <main>, a long screen's re-render would jump to main's top).
            again = by_id(focus_id)
            if again is not None:
                from pyodide.ffi import to_js

                again.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
            else:
                home = _js(document.querySelector("[data-focus-home]"))
                if home is not None:
                    home.focus()
        self.after_render()

    def screen_markup(self, name: str, arg: str) -> Markup:
        """Return the markup of a screen."""
        playable = {gid for gid in GAMES if has_screen(gid)}
        if name == "home":
            saved = {gid for gid, session in self.sessions.items() if not session.state.is_over()}
            return shell.home(GAMES.values(), saved, playable, self.settings, self.room_link())
        if name == "settings":
            if self.last_route is None or self.last_route.screen != "settings":
                self.data.refusal = self.data.imported = ""
                self.storage_info = asyncio.ensure_future(self.refresh_storage_info())
            self.data.used_chars = self.storage.used_chars()
            return settings_view.settings_screen(
                self.settings, self.reduced_motion(), self.storage.broken(), self.data
            )
        if name == "stats":
            return stats_view.stats_screen(self.stats, GAMES.values(), self.settings.name)
        if name in ONLINE_SCREENS:
            return self.online_markup(name, arg)
        info = GAMES.get(arg)
        if info is None:
            return shell.not_found(f"#/{name}/{arg}")
        if name == "rules":
            return shell.rules(info, arg in playable)
        screen = self.screen(arg)
        if screen is None:
            return shell.rules(info, False)
        if name == "setup":
            return self.setup_markup(info, screen)
        if name == "play":
            session = self.sessions.get(arg)
            if session is None:
                window.location.replace(f"#/setup/{arg}")
                return self.setup_markup(info, screen)
            return shell.frame(
                session.info.name if info.realtime else f"{info.name} · {session.mode_label}",
                screen.render(self.context(session)),
                back="#/",
            )
        return shell.not_found(f"#/{name}/{arg}")

    @staticmethod
    def screen(game_id: str) -> Screen | None:
        """Return a game's table screen, or None when it has none yet."""
        return screen_for(game_id)

    # -- setup ------------------------------------------------------------------------------------------
    def setup_markup(self, info: GameInfo, screen: Screen) -> Markup:
        """Return the setup screen of a game."""
        form = self.forms.setdefault(info.id, {})
        return shell.setup_screen(info, screen, form, self.in_progress(info.id))

    def in_progress(self, game_id: str) -> str:
        """Return the mode of this game's saved game when it is not over (else ""): New game replaces it."""
        session = self.sessions.get(game_id)
        if session is None or session.state.is_over() or session.moves == []:
            return ""  # none, finished, or dealt and not played yet (an older save has no log: None)
        return session.mode_label

    def start_game(self, game_id: str) -> None:
        """Deal a new game from the setup form and open its table."""
        info = GAMES[game_id]
        screen = self.screen(game_id)
        if screen is None:
            return
        seating = seat_players(info, screen, self.forms.setdefault(game_id, {}), self.settings)
        session = Session.start(
            info, seating.seats, seating.mode, seating.mode_label, seating.options, seed=self.url_seed()
        )
        self.generation += 1
        self.sessions[game_id] = session
        self.table_ui[game_id] = {}
        self.save(session)
        self.go(f"#/play/{game_id}")

    def play_again(self, game_id: str) -> None:
        """Deal again with the finished game's own seats, mode and options (the setup form may be empty
        after a reload, and must not turn a four-player game into the default one)."""
        session = self.sessions.get(game_id)
        if session is None:
            self.start_game(game_id)
            return
        again = Session.start(
            session.info,
            session.seats,
            session.mode,
            session.mode_label,
            session.options,
            seed=self.url_seed(),
        )
        self.generation += 1
        self.sessions[game_id] = again
        self.table_ui[game_id] = {}
        self.save(again)
        self.go(f"#/play/{game_id}")

    def url_seed(self) -> int | None:
        """Return the deal's seed from the address (``?seed=42``: replay a deal, or test one), else None."""
        return seed_from_query(str(window.location.search))

    # -- the table ----------------------------------------------------------------------------------------
    def context(self, session: Session) -> TableContext:
        """Return what the game's screen may use."""
        from .table_screen import TableState, held_state  # (only this method may change here for now)

        game_id = session.info.id
        screen = self.screen(game_id)
        return TableContext(
            session=session,
            settings=self.settings,
            ui=held_state(self.table_ui.setdefault(game_id, {}), screen.new_state if screen else TableState),
            animations=self.animations(),
            board_width=self.board_width,
            board_height=self.board_height,
            emit=lambda intent: self.dispatch(session, intent),
        )

    def request_render(self) -> None:
        """Draw the page again (the headless controller merges these into one render per tick)."""
        self.render()

    def dispatch_all(self, session: Session, asked: intents.Intents | None) -> None:
        """Carry out what a table's screen asked for, in order."""
        for intent in asked or ():
            self.dispatch(session, intent)

    def dispatch(self, session: Session, intent: intents.Intent) -> None:
        """Carry out one intent of the table of ``session``."""
        screen = self.screen(session.info.id)
        if isinstance(intent, intents.Play):
            if self.human_move(session, intent.move) and screen is not None:
                self.dispatch_all(session, screen.on_played(self.context(session), intent.move))
        elif isinstance(intent, intents.Announce):
            self.announce(intent.text)
        elif isinstance(intent, intents.Refuse):
            self.refused(session, intent.reason)
        elif isinstance(intent, intents.Render):
            self.request_render()
        elif isinstance(intent, intents.Save):
            self.save(session)
        elif isinstance(intent, intents.Finish):
            new_bests = self.record_scores(session, dict(intent.scores)) if intent.scores else []
            self.finish(session)
            if screen is not None:
                self.dispatch_all(session, screen.on_finished(self.context(session), new_bests))
        elif isinstance(intent, intents.TakeBack):
            self.take_back(session.info.id)
        elif isinstance(intent, intents.Navigate):
            self.go(intent.hash)

    @staticmethod
    def today() -> str:
        """Return today's date (UTC) as the stats write it."""
        return datetime.now(UTC).strftime("%Y-%m-%d")

    def record_scores(self, session: Session, scores: dict[str, float]) -> list[str]:
        """Keep a real-time game's best scores for its mode; return the names of new bests."""
        today = self.today()
        improved: list[str] = []

        def change(stats: Any) -> bool:
            improved[:] = keep_bests(stats, session, scores, today)
            ran = stats.record_run(session.info.id, session.mode, scores, today, session.uid)  # once a deal
            return bool(improved) or ran

        self.stats, _ = self.storage.update_stats(change)
        return improved

    def human_move(self, session: Session, move: Any) -> bool:
        """Play a person's move; report a refusal; save; let the computer answer.

        When another tab has played on meanwhile, its position is shown instead and the move is not made.
        In an online room the room plays it: the host's page checks that its own person is to move, a
        guest's page sends the move to the host and waits for the view that answers it.
        """
        if session.online and self.online is not None:
            return bool(self.online.human_move(session, move))
        if self.sync(session.info.id) is Verdict.ADOPT:
            return False
        try:
            session.play(move)
        except IllegalMoveError as exc:
            self.refused(session, str(exc))
            return False
        self.cue(session, by_computer=False)
        self.after_move(session)
        return True

    def refused(self, session: Session, message: str) -> None:
        """Show why a move was refused: in the table's message line, else as a toast."""
        message = message[:1].upper() + message[1:]
        screen = self.screen(session.info.id)
        if (
            self.table == session.info.id
            and screen is not None
            and screen.on_refused(self.context(session), message)
        ):
            self.render()  # the table shows the reason in its message line
        else:
            self.report("warning", message)

    def cue(self, session: Session, *, by_computer: bool) -> None:
        """Play the sound of the move just made, the result's at the end, and "your turn" after a computer's."""
        motion.arm()  # the redraw after this move slides the tile in
        if self.table != session.info.id or not self.settings.sound:
            return
        if session.state.is_over():
            humans = session.human_seats
            result = session.result_for(humans[0]) if len(humans) == 1 else "win"
            sound.play(self.settings, {"win": "win", "loss": "lose"}.get(result or "", "draw_game"))
            return
        last = session.moves[-1] if session.moves else ""
        sound.play(self.settings, "draw" if last.startswith("draw") else "pass" if last == "pass" else "lay")
        seat = session.to_move()
        if by_computer and seat is not None and not session.seats[seat].is_computer:
            sound.play(self.settings, "turn", delay=motion.SLIDE_MS / 1000 if self.animations() else 0.18)

    def take_back(self, game_id: str) -> None:
        """Go back to the person's previous turn against the computer (the table's Take back)."""
        session = self.sessions.get(game_id)
        if session is None or self.sync(game_id) is Verdict.ADOPT:
            return
        self.turns.stop()  # a computer thinking about the position being taken back stops
        if session.take_back():
            self.table_ui.setdefault(game_id, {}).pop("selected", None)
            self.save(session)
            self.announce("Taken back: your turn again.")
        self.render()

    def after_move(self, session: Session) -> None:
        """Save, count a finished game, redraw, and start the computer if it is to move."""
        if session.online and self.online is not None:
            self.online.moved(session)  # the host sends every guest its view
        self.clock.tick(session.uid, time.monotonic())
        if session.state.is_over():
            self.finish(session)
        else:
            self.save(session)
        if self.table == session.info.id:
            self.render()
        self.schedule_computer()

    def finish(self, session: Session) -> None:
        """Count a finished game in the stats (against the computer only), keep best scores, forget its save."""
        if session.online:
            if self.online is not None:
                self.online.finish(session)  # counted apart, by opponent; the room keeps the game
            return
        if not session.recorded:
            screen = self.screen(session.info.id)
            final = screen.final_scores(session) if screen is not None else None  # a solo puzzle's result
            today, name = self.today(), self.settings.name

            seconds = self.time_played(session)

            def change(stats: Any) -> bool:
                counted = count_result(stats, session, name, today)
                best = bool(keep_bests(stats, session, final, today))
                game, mode, deal = session.info.id, session.mode, session.uid
                ran = bool(final) and stats.record_run(game, mode, final or {}, today, deal)
                if counted or ran:  # the overview's Recent results and time played
                    result = session.result_for(session.human_seats[0]) if counted else ""
                    stats.record_recent(game, session.mode_label, today, result or "", final or {}, seconds)
                return best or counted or ran

            self.stats, _ = self.storage.update_stats(change)
        session.recorded = True
        self.drop(session)

    def time_played(self, session: Session) -> float:
        """Return the time played in a finished deal: a real-time game's unpaused steps, else its moves' gaps."""
        measured = self.clock.take(session.uid)
        played = getattr(session.state, "seconds_played", None)  # a real-time game counts its own
        return played if session.info.realtime and isinstance(played, float) else measured

    def save(self, session: Session) -> None:
        """Save a game in progress (an online game is saved with its room, on the host's page only)."""
        if session.online:
            if self.online is not None:
                self.online.save()
            return
        text = self.storage.write_game(session.info.id, session.to_json())
        if text is not None:
            self.written[session.info.id] = text
            if not self.persist_asked:
                self.persist_asked = True
                self.persisting = asyncio.ensure_future(self.ask_persistence())

    # -- your data ----------------------------------------------------------------------------------------
    @staticmethod
    def browser_storage() -> Any:
        """Return navigator.storage (the Storage API), or None where the browser has none."""
        return _js(getattr(window.navigator, "storage", None))

    async def ask_persistence(self) -> None:
        """Ask the browser to keep this site's data (the first time a game is saved)."""
        storage = self.browser_storage()
        if storage is None or not hasattr(storage, "persist"):
            return
        try:
            self.data.persisted = bool(await storage.persisted()) or bool(await storage.persist())
            self.data.checked = True
        except Exception:
            window.console.warn("Boneyard: " + traceback.format_exc())

    async def refresh_storage_info(self) -> None:
        """Read whether storage is persistent and how much the site uses; show it on Settings."""
        storage = self.browser_storage()
        try:
            if storage is not None and hasattr(storage, "persisted"):
                self.data.persisted = bool(await storage.persisted())
            if storage is not None and hasattr(storage, "estimate"):
                estimate = await storage.estimate()
                self.data.usage, self.data.quota = int(estimate.usage or 0), int(estimate.quota or 0) or None
        except Exception:
            window.console.warn("Boneyard: " + traceback.format_exc())
        self.data.checked = True
        self.data.used_chars = self.storage.used_chars()
        data = self.data
        for element_id, words in (
            ("storage-persist", settings_view.persist_text(data.persisted, data.checked)),
            ("storage-used", settings_view.usage_text(data.used_chars, data.usage, data.quota)),
        ):
            element = by_id(element_id)
            if element is not None:
                element.textContent = words
                if element_id == "storage-persist":
                    element.setAttribute("data-persisted", settings_view.persisted_attr(self.data))

    def export_data(self) -> None:
        """Download a backup file of everything stored."""
        from pyodide.ffi import to_js

        text = self.storage.export_text()
        kind = to_js({"type": "application/json"}, dict_converter=window.Object.fromEntries)
        blob = window.Blob.new(to_js([text]), kind)
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = f"boneyard-backup-{self.today()}.json"
        document.body.appendChild(link)
        link.click()
        link.remove()
        window.setTimeout(create_once(lambda: window.URL.revokeObjectURL(url)), 60_000)
        self.announce("Backup file saved.")

    async def read_import(self, target: Any) -> None:
        """Read the chosen backup file and show what it holds, or why it cannot be imported."""
        files = _js(target.files)
        chosen = _js(files.item(0)) if files is not None and int(files.length) else None
        target.value = ""  # choosing the same file again reads it again
        if chosen is None:
            return
        self.data.preview, self.data.imported, self.data.refusal = None, "", ""
        self.data.file_name = str(chosen.name)
        try:
            if int(chosen.size) > saves.MAX_BACKUP_CHARS:
                raise saves.SaveError("foreign", "This file is far too large to be a Boneyard backup.")
            text = str(await chosen.text())
            self.data.preview = self.storage.read_backup(text, Session.from_json)
        except saves.SaveError as exc:
            self.data.refusal = exc.message
        except Exception as exc:
            self.data.refusal = f"It could not be read ({exc})."
        if self.route.screen == "settings":
            self.render()
            focus = by_id("import-confirm") or _js(document.querySelector("#import-refused button"))
            if focus is not None:
                focus.focus()

    def confirm_import(self) -> None:
        """Store the previewed backup, keep what it replaces aside, and take in its games and settings."""
        preview = self.data.preview
        if preview is None:
            return
        aside = self.storage.import_backup(preview)
        self.data.preview = None
        if aside is None:
            self.data.refusal = (
                "Your browser's storage has no room for it. Delete records kept aside or finished games, "
                "then try again."
            )
            self.render()
            return
        self.turns.want(None)
        self.settings = self.storage.load_settings()
        self.stats = self.storage.load_stats()
        self.sessions, self.written, self.table_ui = {}, {}, {}
        self.generation += 1
        self.load_saved_games()
        self.apply_look()
        n = len(aside)
        kept = f" What it replaced ({n} record{'s' * (n != 1)}) is kept aside." if n else ""
        self.data.imported = "Imported. " + " ".join(settings_view.describe_import(preview)) + kept
        self.render()
        self.announce(self.data.imported)

    def watch_demo(self, game_id: str) -> None:
        """Open a game's table with its demo running (the setup screen's Watch a demo)."""
        session = self.sessions.get(game_id)
        if session is None or session.state.is_over():
            self.start_game(game_id)
        else:
            self.go(f"#/play/{game_id}")
        screen = self.screen(game_id)
        mode = screen.mode_from_form(self.forms.setdefault(game_id, {}))[0] if screen is not None else None
        self.table_ui.setdefault(game_id, {})["start_demo"] = dict(mode.options) if mode is not None else True

    def drop(self, session: Session) -> None:
        """Forget a finished game's save."""
        self.storage.drop_game(session.info.id)
        self.written[session.info.id] = None

    # -- other tabs --------------------------------------------------------------------------------------
    def sync(self, game_id: str) -> Verdict:
        """Check a game against its stored save and act: take in another tab's game, or write ours back.

        Called before every move and on every storage event, so a tab that fell behind (a slow or
        background one) never plays on an old position, and its stale save never replaces a longer history.
        """
        session = self.sessions.get(game_id)
        stored = self.storage.get(saves.save_key(game_id))
        ours = Stamp(session.uid, session.revision) if session is not None else None
        verdict = judge(ours, self.written.get(game_id), stored)
        if verdict is Verdict.ADOPT:
            self.adopt(game_id)
        elif verdict is Verdict.REASSERT and session is not None:
            if session.state.is_over():
                self.drop(session)
            else:
                self.save(session)
        return verdict

    def adopt(self, game_id: str) -> None:
        """Take in the stored game (or its absence) that another tab wrote, and show it."""
        text = self.storage.get(saves.save_key(game_id))
        session = self.storage.load_game(game_id, Session.from_json) if text is not None else None
        had = self.sessions.get(game_id)
        if session is None:
            self.sessions.pop(game_id, None)
            self.written[game_id] = None
        else:
            self.sessions[game_id] = session
            self.written[game_id] = text
            self.table_ui[game_id] = {}
        self.generation += 1
        if self.route.table == game_id or self.route.screen == "home":
            if self.route.table == game_id and had is not None:
                self.report("info", "This game was played on in another tab; showing the latest position.")
            self.render()

    # -- the computer -------------------------------------------------------------------------------------
    def turn_key(self) -> TurnKey | None:
        """Return the computer turn due on the table on screen, or None."""
        game_id = self.table
        session = self.session_of(game_id) if game_id else None
        if game_id is None or session is None or not session.computer_to_move():
            return None
        screen = self.screen(game_id)
        if screen is not None and screen.paused(self.context(session)):
            return None  # the table waits for the player (a finished hand stays until Next hand)
        return TurnKey(game_id, session.uid, session.revision, self.generation)

    def schedule_computer(self) -> None:
        """Let the computer play if it is to move on the table on screen (and stop a stale turn)."""
        self.turns.want(self.turn_key())

    async def computer_turn(self, key: TurnKey) -> None:
        """Play one beat of a computer's turn, unless the table or its game changes meanwhile.

        It thinks while the last move is still on show, so a long search shortens the pause instead of
        adding to it; a run of draws (nothing fits) is one beat, and the lay after it follows sooner.
        """
        session = self.session_of(key.game_id)
        if session is None or self.turn_key() != key:
            return
        pause = beat_pause(self.settings.speed, self.animations(), after_draw=session.just_drew())
        if session.online and self.online is not None:
            pause = self.online.bot_delay(pause)
        ready = time.perf_counter() + pause
        try:
            move = await self.think_in_slices(session.computer_thinking())
            await asyncio.sleep(max(0.0, ready - time.perf_counter()))
            if self.turn_key() != key:
                return  # the player left, or this game changed: drop this thought
            if not session.online and self.sync(key.game_id) is Verdict.ADOPT:
                return  # another tab played on meanwhile: its position is on screen now
            self.held_line = self.turn_line()  # shown until the computer's tile has landed
            session.play_computer_beat(move)
            self.cue(session, by_computer=True)
        except Exception as exc:
            window.console.error("Boneyard: " + traceback.format_exc())
            self.report("error", f"The computer could not move ({exc}).")
            return
        self.after_move(session)

    async def think_in_slices(self, thinking: Any) -> Any:
        """Drive a computer's thinking, handing the page back every ~12 ms so it never freezes."""
        started = time.perf_counter()
        while True:
            try:
                next(thinking)
            except StopIteration as stop:
                return stop.value
            if time.perf_counter() - started > THINK_SLICE_S:
                await asyncio.sleep(0)
                started = time.perf_counter()

    def after_render(self) -> None:
        """Measure the table and redraw it once if its width changed; focus a dialog; start the computer."""
        wanted = _js(document.querySelector(".overlay [autofocus]"))
        active = _js(document.activeElement)
        if wanted is not None and (active is None or not bool(active.closest(".overlay"))):
            wanted.focus()
        board = by_id("table-board")
        if board is not None:
            width, height = int(board.clientWidth), int(board.clientHeight)
            if (width and abs(width - self.board_width) > 8) or (
                height and abs(height - self.board_height) > 8
            ):
                self.board_width = width or self.board_width
                self.board_height = height or self.board_height
                self.render()
                return
        game_id = self.table
        if game_id:
            session = self.session_of(game_id)
            screen = self.screen(game_id)
            if session is not None and screen is not None:
                screen.after_render(self.context(session))
            moved = motion.animate(document, self.animations())
            held, self.held_line = self.held_line, None
            if moved and held is not None:
                self.hold_turn_line(held)
        if self.online is not None and self.route.screen in ONLINE_SCREENS:
            self.online.after_render()
        self.schedule_computer()

    @staticmethod
    def turn_line() -> tuple[str, str] | None:
        """Return the message line as it is now (its words and its class), or None when there is none."""
        line, words = by_id("kit-message"), by_id("kit-turn")
        return None if line is None or words is None else (str(words.innerHTML), str(line.className))

    def hold_turn_line(self, held: tuple[str, str]) -> None:
        """Keep the message line's last words while the computer's tile slides in, then say "Your turn".

        Saying it before the board is settled sends the player's eyes to a line while a tile still moves.
        """
        now = self.turn_line()
        if now is None or "is-turn" not in now[1].split():
            return  # not a person's turn (another computer moves next): nothing to hold back
        line, words = by_id("kit-message"), by_id("kit-turn")
        words.innerHTML, line.className = held

        async def release() -> None:
            await motion.settled()
            if bool(words.isConnected):  # a redraw meanwhile has put the new words in already
                words.innerHTML, line.className = now

        self.releasing = asyncio.ensure_future(release())

    def leave_table(self, game_id: str) -> None:
        """Tell a table screen that the player left it (it stops its loops and saves)."""
        session = self.session_of(game_id) if game_id == self.last_table else self.sessions.get(game_id)
        if session is None:
            session = self.sessions.get(game_id)
        screen = self.screen(game_id)
        if session is not None and screen is not None:
            screen.leave(self.context(session))

    def on_resize(self) -> None:
        """Redraw the table for the new width."""
        if self.table:
            self.after_render()

    def on_storage(self, event: Any) -> None:
        """Follow another tab's writes: a game's save, the stats, the settings, or storage cleared."""
        key = _js(event.key)
        if key is None:  # the other tab cleared the whole storage
            self.settings = self.storage.load_settings()
            self.stats = self.storage.load_stats()
            self.apply_look()
            for game_id in list(self.sessions):
                self.sync(game_id)
            if self.route.screen != "setup":
                self.render()
            return
        key = str(key)
        if key == STATS_KEY:
            self.stats = self.storage.load_stats()
            if self.route.screen == "stats":
                self.render()
        elif key == SETTINGS_KEY:
            self.settings = self.storage.load_settings()
            self.apply_look()
            if self.route.screen != "setup":
                self.render()
        elif key.startswith(saves.PREFIX + "save:"):
            game_id = key.removeprefix(saves.PREFIX + "save:")
            if game_id in GAMES:
                self.sync(game_id)

    # -- events ------------------------------------------------------------------------------------------
    def on_click(self, event: Any) -> None:
        """Route a click on anything with ``data-action``."""
        sound.unlock()  # a user gesture: sounds may start from now on
        target = _js(event.target)
        if target is not None and _attr(target, "id") == "rules-dialog":  # a click on the backdrop
            self.close_rules()
            return
        target = _js(target.closest("[data-action]")) if target is not None else None
        if target is None or target.hasAttribute("disabled"):
            return
        action = _attr(target, "data-action") or ""
        value = _attr(target, "data-value") or ""
        if action == "chat-draft":
            return  # a click into the chat's input: the typing is followed by on_input
        if action == "chat-send" and str(getattr(target, "tagName", "")).lower() == "form":
            return  # a click inside the chat's form but on no button of it
        event.preventDefault()
        motion.remember(target)  # where a played tile slides from
        self.do(action, value, target)

    def do(self, action: str, value: str, target: Any = None) -> None:
        """Carry out an app-level action, or pass it to the table's screen."""
        if action == "close-toast":
            target.closest(".toast").remove()
        elif action == "reload":
            self.save_before_reload()
            window.location.reload()
        elif action == "update":  # the new version takes over (js/boot.js), then the page reloads into it
            self.save_before_reload()
            window.boneyardBoot.update()
        elif action == "install":  # the browser's install dialog (js/boot.js keeps the offer)
            window.boneyardBoot.install()
        elif (
            action in ("play-again", "new-game", "start-game")  # Heptalion's Play again is "start-game"
            and self.online is not None
            and self.table
            and self.session_of(self.table) is getattr(self.online, "session", None)
        ):
            self.online_action("room-again", value, target)  # at an online table: the room's next game
        elif action == "start-game":
            self.start_game(value)
        elif action == "play-again" and value in GAMES:
            self.play_again(value)
        elif action == "delete-broken":
            if value.startswith(saves.PREFIX + "broken:"):
                self.storage.remove(value)
                self.render()
        elif action == "export-data":
            self.export_data()
        elif action == "import-confirm":
            self.confirm_import()
        elif action == "import-cancel":
            self.data.preview, self.data.refusal, self.data.imported = None, "", ""
            self.render()
            again = by_id("import-file")
            if again is not None:
                again.focus()
        elif action == "watch-demo" and value in GAMES:
            self.watch_demo(value)
        elif action == "new-game":
            self.go(f"#/setup/{value}")
        elif action == "home":
            self.go("#/")
        elif action == "toggle-sound":  # the tables' mute button
            self.settings = self.storage.update_settings(sound=not self.settings.sound)
            self.render()
        elif action in ONLINE_ACTIONS or action.startswith(("room-", "join-", "chat-")):
            self.online_action(action, value, target)
        elif action == "take-back" and self.route.table:
            self.take_back(self.route.table)
        elif action == "rules" and value in GAMES:  # the tables' "?": the rules over the table
            self.open_rules(value)
        elif action == "close-rules":
            self.close_rules()
        elif self.table:
            game_id = self.table
            session = self.session_of(game_id)
            screen = self.screen(game_id)
            if session is not None and screen is not None:
                self.dispatch_all(session, screen.on_action(self.context(session), action, value))

    # -- online rooms ----------------------------------------------------------------------------------
    def online_markup(self, name: str, arg: str) -> Markup:
        """Return the host's room (``#/room/GAME``) or a guest's (``#/join/CODE``): lobby, table or form."""
        from .online import host as online_host
        from .online import join as online_join

        online = self.online
        if name == "room":
            if online is not None and online.kind == "host" and online.game_id == arg:
                return online.markup()  # type: ignore[no-any-return]
            reopened = online_host.reopen(self, arg)  # the room this page hosted, saved with its game
            if reopened is not None:
                self.close_online()
                self.online = reopened
                return reopened.markup()
            if arg in GAMES:
                window.location.replace(f"#/setup/{arg}")
                form = self.forms.setdefault(arg, {})
                form["opponents"] = "online"
                screen = self.screen(arg)
                if screen is not None:
                    return self.setup_markup(GAMES[arg], screen)
            return shell.not_found(f"#/room/{arg}")
        code = online_join.code_from(arg)
        if online is not None and online.kind == "guest" and (not arg or online.code == code):
            return online.markup()  # type: ignore[no-any-return]
        if online is not None and online.kind == "guest":
            self.close_online()  # another room's link: leave the one we were in
        form = self.forms.setdefault("join", {})
        if code:
            form["code"] = code
        rejoin = online_join.stored_token(self.storage, code) if code else None
        if rejoin is not None:  # this browser has a seat in that room: take it back at once
            self.online = online_join.OnlineGuest(self, code, str(form.get("name") or self.settings.name))
            self.online.connect()
            return self.online.markup()  # type: ignore[no-any-return]
        return online_join.form_markup(form, self.settings.name)

    def online_action(self, action: str, value: str, target: Any) -> None:
        """Carry out a click in an online room, or create or join one."""
        from .online import host as online_host
        from .online import join as online_join

        if action == "create-room" and value in GAMES:
            screen = self.screen(value)
            if screen is None:
                return
            form = self.forms.setdefault(value, {})
            why = online_host.OnlineHost.can_host(GAMES[value], screen, form)
            if why:
                self.report("warning", why)
                return
            self.close_online()
            self.online = online_host.OnlineHost.create(self, GAMES[value], screen, form)
            self.online.connect()
            self.go(f"#/room/{value}")
            return
        if action == "join-room":
            form = self.forms.setdefault("join", {})
            for key in ("code", "name"):
                element = by_id(f"join-{key}")
                if element is not None:
                    form[key] = str(element.value)
            code = online_join.code_from(str(form.get("code", "")))
            if not code:
                form["error"] = "That is not a room code: it has 8 letters, like ABCD EFGH."
                self.render()
                return
            form.pop("error", None)
            name = str(form.get("name") or "").strip() or self.settings.name
            if name != self.settings.name and name:
                self.settings = self.storage.update_settings(name=name)
            self.close_online()
            self.online = online_join.OnlineGuest(self, code, name)
            self.online.connect()
            self.go(f"#/join/{code}")
            return
        if self.online is not None:
            self.online.action(action, value)

    def online_change(self, target: Any) -> None:
        """Follow a control of a room: a seat's kind, the wait before bots, the join form's fields."""
        joining = _attr(target, "data-join")
        if joining:
            self.forms.setdefault("join", {})[joining] = str(target.value)
            return
        if self.online is None:
            return
        seat = _attr(target, "data-room-seat")
        if seat is not None:
            self.online.change("seat:" + seat, str(target.value))
        else:
            self.online.change(_attr(target, "data-room") or "", str(target.value))

    def online_move(self, text: str) -> str:
        """Play a move text at the online table on screen, as a click would; return "" or why not.

        The browser tests drive Triangles and Heptalion through it (the same ``ctx.play`` a click calls).
        """
        game_id = self.table
        session = self.session_of(game_id) if game_id else None
        if session is None or not session.online:
            return "no online table"
        return "" if self.human_move(session, str(text)) else "refused"

    def room_link(self) -> tuple[str, str] | None:
        """Return the address and words of the online room this page is in, for the home screen."""
        online = self.online
        if online is None:
            return None
        game = GAMES.get(online.game_id or "")
        name = game.name if game is not None else "a game"
        if online.kind == "host":
            return f"#/room/{online.game_id}", f"You host a room of {name}."
        return f"#/join/{online.code}", f"You are in a room of {name}."

    def close_online(self) -> None:
        """Leave the online room this page is in (the host's game stays saved with its room)."""
        online, self.online = self.online, None
        if online is not None:
            online.close()

    # -- the rules over a table ---------------------------------------------------------------------
    def open_rules(self, game_id: str) -> None:
        """Show a game's rules in a modal dialog over its table, which stays as it is underneath.

        The dialog lives outside the app's root, so the table is neither redrawn nor scrolled; a real-time
        game is paused first. Closing it (Close, Esc, a click beside it) puts the focus back on the "?".
        """
        from .howto import rules_dialog

        self.close_rules(refocus=False)
        if self.route.table and GAMES[self.route.table].realtime:
            self.do("pause", "")
        holder = document.createElement("div")
        on_heptalion_table = self.table == "heptalion"  # that table has the symbols' sprite already
        holder.innerHTML = str(rules_dialog(GAMES[game_id], sprite=not on_heptalion_table))
        dialog = holder.firstElementChild
        document.body.appendChild(dialog)
        self.rules_for = game_id
        proxy = create_proxy(lambda event: self.guard(lambda _e: self.rules_closed(), event))
        self._proxies.append(proxy)
        dialog.addEventListener("close", proxy)
        dialog.showModal()

    def close_rules(self, refocus: bool = True) -> None:
        """Close the rules dialog if one is open."""
        dialog = by_id("rules-dialog")
        if dialog is None:
            return
        if not refocus:  # leaving the table or opening other rules: no "close" event, no refocus
            self.rules_for = ""
            dialog.remove()
        else:
            dialog.close()  # fires "close": rules_closed() removes it and refocuses the "?"

    def rules_closed(self) -> None:
        """Remove the closed rules dialog and put the focus back on the table's "?" without scrolling."""
        dialog = by_id("rules-dialog")
        if dialog is not None:
            dialog.remove()
        game_id, self.rules_for = self.rules_for, ""
        if not game_id:
            return
        opener = _js(document.querySelector(f'[data-action="rules"][data-value="{game_id}"]'))
        if opener is not None:
            from pyodide.ffi import to_js

            opener.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))

    def on_change(self, event: Any) -> None:
        """Keep setup forms and settings in step with their controls."""
        target = _js(event.target)
        if target is None or not hasattr(target, "getAttribute"):
            return
        if _attr(target, "data-import") == "file":
            self.importing = asyncio.ensure_future(self.read_import(target))
            return
        if self.online is not None or self.route.screen in ONLINE_SCREENS:
            if (
                _attr(target, "data-room-seat") is not None
                or _attr(target, "data-room")
                or _attr(target, "data-join")
            ):
                self.online_change(target)
                return
        setting = _attr(target, "data-setting")
        if setting:
            value: Any = bool(target.checked) if str(target.type) == "checkbox" else str(target.value)
            self.settings = self.storage.update_settings(**{setting: value})
            self.apply_look()
            if str(target.type) != "text":  # a redraw would undo a Tab that moved on from the name
                self.render()
            return
        field = _attr(target, "data-field")
        if field and self.route.screen == "setup":
            form = self.forms.setdefault(self.route.arg, {})
            form[field] = bool(target.checked) if str(target.type) == "checkbox" else str(target.value)
            if str(target.type) != "text":  # a typed name changes nothing else: a redraw would undo a Tab
                self.render()

    def on_input(self, event: Any) -> None:
        """Remember typed names without redrawing (which would move the caret)."""
        target = _js(event.target)
        field = (
            _attr(target, "data-field") if target is not None and hasattr(target, "getAttribute") else None
        )
        if field and self.route.screen == "setup" and str(target.type) == "text":
            self.forms.setdefault(self.route.arg, {})[field] = str(target.value)
        named = target is not None and hasattr(target, "getAttribute")
        joining = _attr(target, "data-join") if named else None
        if joining:  # the join screen's code and name, kept as typed
            self.forms.setdefault("join", {})[joining] = str(target.value)
        if named and _attr(target, "data-action") == "chat-draft" and self.online is not None:
            self.online.log.draft = str(target.value)[:200]  # kept across redraws, never redrawn here
        setting = _attr(target, "data-setting") if named else None
        if setting and str(target.type) == "text":  # kept as typed, never redrawn (the caret stays)
            self.settings = self.storage.update_settings(**{setting: str(target.value)})
            if setting.startswith("online_"):  # the "Rooms connect through ..." line follows the typing
                shown = _js(document.querySelector("#online-broker strong"))
                if shown is not None:
                    shown.textContent = self.settings.online_broker()

    def on_submit(self, event: Any) -> None:
        """Keep a form's Enter on the page (no form is ever sent anywhere); the chat's sends its message."""
        event.preventDefault()
        form = _js(event.target)
        if form is not None and _attr(form, "id") == "chat-form":
            self.online_action("chat-send", "", form)
        elif form is not None and _attr(form, "id") == "join-form":
            self.online_action("join-room", "", form)

    def on_keydown(self, event: Any) -> None:
        """Offer the table's keyboard shortcuts."""
        sound.unlock()
        game_id = self.table
        if game_id is None or event.ctrlKey or event.metaKey or event.altKey:
            return  # leave the browser's own shortcuts (Ctrl+R, Ctrl+C...) alone
        if self.rules_for:
            return  # the rules dialog is open: its keys are its own (Esc closes it)
        target = _js(event.target)
        tag = str(getattr(target, "tagName", "")).lower() if target is not None else ""
        if tag in ("input", "select", "textarea"):
            return
        if str(event.key) == "?" and _js(document.querySelector('[data-action="rules"]')) is not None:
            event.preventDefault()  # "?" opens the rules, as the table's "?" button does
            self.open_rules(game_id)
            return
        if str(event.key) in ("u", "U"):  # the tables' Take back button, where it is offered and enabled
            button = _js(document.getElementById("take-back"))
            if button is not None and not bool(button.disabled):
                event.preventDefault()
                self.take_back(game_id)
                return
        if str(event.key) in ("h", "H"):  # the tables' Hint button, where Settings' Hints shows it
            button = _js(document.getElementById("kit-hint"))
            if button is not None and not bool(button.disabled):
                event.preventDefault()
                button.click()  # the button's own action, exactly as a click
                return
        screen = self.screen(game_id)
        session = self.session_of(game_id)
        if (
            session is not None
            and screen is not None
            and screen.on_key(self.context(session), str(event.key))
        ):
            event.preventDefault()


def create_once(fn: Any) -> Any:
    """Return a JS callback that runs ``fn`` once and frees itself."""
    from pyodide.ffi import create_once_callable

    return create_once_callable(fn)


def check_modules() -> str:
    """Import every module the page's file system holds; return JSON {"modules": [...], "failed": {...}}.

    The browser tests compare the list with the ``py/`` tree, so a module the configuration forgot
    (or one that fails to import in the page) fails a test.
    """
    import importlib
    import json
    import os

    modules, failed = [], {}
    for package in ("boneyard", "ui"):
        for folder, _dirs, files in os.walk(package):
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                module = path[:-3].replace(os.sep, ".").removesuffix(".__init__")
                modules.append(path)
                try:
                    importlib.import_module(module)
                except Exception as exc:
                    failed[path] = repr(exc)
    return json.dumps({"modules": sorted(modules), "failed": failed})


def start() -> None:
    """Build the app and show it (called by main.py)."""
    try:
        window.boneyardBoot.stage("Setting the table…", 94)
        app = App()
        window.boneyardCheckModules = create_proxy(check_modules)
        window.boneyardOnlineMove = create_proxy(app.online_move)
        app.mount()
    except Exception as exc:
        window.console.error("Boneyard: " + traceback.format_exc())
        window.boneyardBoot.fail(f"Boneyard could not start: {exc}")
        raise


def _preloads(game_id: str, info: Any) -> tuple[Callable[[], Any], ...]:
    """Return the steps that import a game's engine, its first bot, the AI and its table screen."""
    return (
        lambda: info.new_state.resolve() if hasattr(info.new_state, "resolve") else None,
        lambda: info.bots.get("easy") if info.bots else None,
        lambda: computer_bot(info, "expert") if "expert" in info.levels else None,
        lambda: screen_for(game_id),
    )
