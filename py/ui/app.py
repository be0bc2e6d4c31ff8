"""The app: routes the address to a screen, turns the page's events into actions, saves, plays.

A headless controller: it runs under CPython as in the page. Everything it asks of the browser goes
through the ``Port`` it is given (``ui.ports``; the page's is ``ui.browser.dom.BrowserPort``, the tests'
is a fake), and the page's events reach it as plain values (``ports.Event``) through ``App.handle``.
Clicks go through one table of the app's own actions (``App.ACTIONS``), else to the table's screen,
whose intents one dispatcher carries out (``App.dispatch``); renders asked within one tick are one
(``request_render``). What it decides lives in pure modules: the address (``ui.routes``), seating a new
game (``ui.seating``), the end of a game (``ui.results``), the computer's turns (``ui.turns``) and other
tabs' saves (``ui.sync``); every rule question goes to the engine, every screen's markup comes from pure
modules (``ui.shell``, ``ui.games.*``). The links and the Daily are flows the app holds and routes to
(``ui.linked.LinkFlow``, ``ui.daily_flow.DailyFlow``). Any error inside a handler is reported to the player and logged;
it never stops the page.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, ClassVar, assert_never

from boneyard import saves
from boneyard.core import GameInfo, IllegalMoveError
from boneyard.games import GAMES
from boneyard.stats import PlayClock

from . import daily, intents, motion, ports, rated, settings_view, share, shell, sound, stats_view
from .daily_flow import DailyFlow
from .games import has_screen, screen_for
from .html import Markup, h, text
from .linked import LinkFlow, is_linked
from .ports import Event, Port
from .results import count_result, keep_bests
from .routes import HOME, Route, new_address, parse_route, seed_from_query
from .seating import seat_players
from .session import Session, computer_bot
from .settings_view import DataInfo
from .storage import SETTINGS_KEY, STATS_KEY, Storage
from .sync import Stamp, Verdict, judge
from .table_screen import Screen, TableContext, TableState
from .turns import ComputerTurns, TurnKey, beat_pause

THINK_SLICE_S = 0.012  # the longest a computer thinks before the page gets a turn
# The host's room (#/room/GAME), a guest's (#/join/CODE), quick match (#/quick/GAME: Looking, then its table).
ONLINE_SCREENS = ("room", "join", "quick")
ONLINE_ACTIONS = ("create-room", "deal-check")  # and every "room-", "join-" and "chat-" action


def _for_a_game(act: Callable[[App, str], None]) -> Callable[[App, str], bool]:
    """Return an action's handler that does ``act`` when its value names a game, else leaves the
    action to the table's screen (returns False)."""

    def handler(app: App, game_id: str) -> bool:
        if game_id not in GAMES:
            return False
        act(app, game_id)
        return True

    return handler


class App:
    """The one app object of the page."""

    def __init__(self, port: Port) -> None:
        self.port = port
        ports.install(port)
        self.early_reports: list[tuple[str, str]] = []
        self.ready = False
        self.storage = Storage(port.local_storage(), self.report)
        self.settings = self.storage.load_settings()
        self.stats = self.storage.load_stats()
        self.data = DataInfo()  # Settings › Your data: storage use, an import being previewed
        self.persist_asked = False  # navigator.storage.persist() is asked once, at the first save
        self.forms: dict[str, dict[str, Any]] = {}
        self.sessions: dict[str, Session] = {}
        self.table_ui: dict[str, TableState] = {}  # each table's UI state (made by its screen when drawn)
        self.written: dict[str, str | None] = {}  # each game's save text as this tab last wrote or read it
        self.clock = PlayClock()  # time played in each deal, for the stats
        self.generation = 0  # counts new deals and games taken in from other tabs
        self.turns = ComputerTurns(self.computer_turn, port.spawn)
        # Whether the next render holds the message line while a computer's tile lands (the port's morph
        # keeps its old words), and the task that then shows the new one.
        self.holding = False
        self.releasing: Any = None
        self.board_width = 640
        self.board_height = 420
        self.route: Route = HOME
        self.last_route: Route | None = None
        self.rules_for = ""  # the game whose rules are open over its table ("" when none)
        self.online: Any = None  # the online room this page hosts or has joined (ui.online), or None
        self.links = LinkFlow(self)  # the challenge or replay opened by a link (#/link/...)
        self.last_table: str | None = None  # the game whose table was on screen at the last render
        self.renders = 0  # renders so far (the tests count them: one per move)
        self.render_due = False  # a render is asked for this tick (``request_render``)
        self.focus_next = ""  # the control an action leads the keyboard to, once a render shows it
        self.toasts = 0  # toasts shown so far (each has its own id)
        self.tasks: set[Any] = set()  # tasks started here, held so none is collected while it runs
        self.wall_clock: Callable[[], float] = time.time  # the Daily's day (UTC) comes from it
        self.dailies = DailyFlow(self)  # the Daily's deals, records and the games they set aside
        self.load_saved_games()

    # -- start ------------------------------------------------------------------------------------
    def load_saved_games(self) -> None:
        """Load every saved game now, so a broken one is reported at once and moved aside."""
        self.storage.move_renamed()
        for key in self.storage.keys(saves.PREFIX + "save:"):
            game_id = key.removeprefix(saves.PREFIX + "save:")
            if game_id in saves.RENAMED:
                continue  # not moved (storage is full): kept where it is for the next start
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
        self.dailies.unpark_all()

    def mount(self, *, warm: bool = True) -> None:
        """Draw the first screen and mark the page ready (the port has attached its listeners to ``handle``).

        ``warm``: import every game's modules once the page is idle (the tests leave it out).
        """
        self.apply_look()
        self.navigate()
        self.port.reveal()
        self.ready = True
        for kind, message in self.early_reports:
            self.toast(kind, message)
        self.early_reports.clear()
        self.port.set_root_attr("data-ready", "true")
        self.port.boot("done")
        if warm:
            self.spawn(self.warm_up())

    def spawn(self, coro: Awaitable[None]) -> asyncio.Future[Any]:
        """Run a coroutine as a task, held until it ends."""
        task = self.port.spawn(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def warm_up(self) -> None:
        """Import each game's engine and table once the page is idle, so its first open is instant.

        The page starts with only what the first screen needs; these imports (a few hundred ms in all)
        run one module at a time, yielding to the page in between.
        """
        await self.port.sleep(1.0)
        for game_id, info in GAMES.items():
            for load in _preloads(game_id, info):
                try:
                    load()
                except Exception:
                    self.port.log(
                        "warn", "Boneyard: could not preload " + game_id + ": " + traceback.format_exc()
                    )
                await self.port.sleep(0.02)

    def handle(self, event: Event) -> bool:
        """Carry out a page event; return True when the page's default for it must not happen.

        Any error is reported to the player and logged; it never stops the page.
        """
        try:
            handler = self.EVENTS.get(event.kind)
            return bool(handler(self, event)) if handler is not None else False
        except Exception as exc:
            self.port.log("error", "Boneyard: " + traceback.format_exc())
            self.report("error", f"Something went wrong: {exc}. Your game is safe; try again.")
            return False

    def guard(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` (a timer's or a dialog's callback); report instead of crashing on any error."""
        try:
            fn()
        except Exception as exc:
            self.port.log("error", "Boneyard: " + traceback.format_exc())
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
        self.toasts += 1
        toast_id = f"toast-{self.toasts}"
        markup = str(
            h("p", {}, message)
            + text(action)  # Markup passes through; a plain string is escaped
            + h(
                "button",
                {
                    "type": "button",
                    "class_": "toast-close",
                    "data_action": "close-toast",
                    "data_value": toast_id,
                    "aria_label": "Dismiss",
                },
                "×",
            )
        )
        role = "alert" if kind in ("error", "warning") else "status"
        self.port.add_toast(toast_id, kind, role, markup)
        if kind == "info":
            self.port.later(5.0, lambda: self.port.remove("#" + toast_id))

    def announce(self, message: str) -> None:
        """Read a message out to screen readers."""
        self.port.announce(message)

    def offer_update(self) -> None:
        """Tell the player a new version is ready; the offer stays until they reload or close it."""
        if self.port.exists(".toast-update"):
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
        return self.port.media("(prefers-reduced-motion: reduce)")

    def animations(self) -> bool:
        """Tell whether to animate."""
        return self.settings.animations_on(self.reduced_motion())

    def apply_look(self) -> None:
        """Apply the theme and the motion setting to the page."""
        theme = self.settings.theme
        if theme == "auto":
            theme = "dark" if self.port.media("(prefers-color-scheme: dark)") else "light"
        self.port.set_root_attr("data-theme", theme)
        self.port.set_root_attr("data-motion", "on" if self.animations() else "off")

    # -- routing --------------------------------------------------------------------------------------
    def go(self, hash_: str) -> None:
        """Navigate to a screen."""
        if self.port.location_hash() == hash_:
            self.navigate()
        else:
            self.port.set_hash(hash_)

    @property
    def table(self) -> str | None:
        """Return the game whose table is on screen: a local game's, or the online room's once it plays."""
        if self.route.table:
            return self.route.table
        linked = self.links.linked_session()
        if linked is not None:
            return linked.info.id
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
        linked = self.links.linked_session()
        if linked is not None and linked.info.id == game_id:
            return linked
        return self.sessions.get(game_id)

    def navigate(self) -> None:
        """Draw the screen the address names."""
        hash_ = self.port.location_hash()
        self.route = parse_route(hash_)
        if (new := new_address(hash_)) is not None:
            self.port.replace_hash(new)  # an old game id in the address: show the one it goes by now
        if self.route.screen == "daily" and self.route.arg in GAMES and self.screen(self.route.arg):
            self.dailies.open_daily(self.route.arg)  # the day's Daily, at its table (#/play/GAME)
            self.route = parse_route(self.port.location_hash())
        self.close_rules(refocus=False)
        if getattr(self.online, "kind", "") == "quick" and self.route.screen != "quick":
            self.close_online()  # away from Looking for players (Back): stop looking, leave the broker
        self.render()

    def render(self) -> None:
        """Draw the current screen now (``request_render`` merges): the page keeps every node that stays
        (js/morph.js), and with it the focus, a caret and a running animation."""
        self.render_due = False
        self.renders += 1
        had_focus = self.port.focus_within("#app")
        name, arg = self.route
        self.measure_board()  # the table is drawn for the board it will fill: no second render per move
        markup = self.screen_markup(name, arg)
        self.port.show(str(markup), hold=("kit-message",) if self.holding else ())
        changed = self.route != self.last_route
        if changed and self.last_table and self.last_table != self.table:
            self.leave_table(self.last_table)
        self.last_route = self.route
        self.last_table = self.table
        if changed:
            title = self.port.text_of("#screen-title")
            self.port.set_title(f"{title} — Boneyard" if title is not None else "Boneyard")
            if self.ready:
                self.port.focus("#main")
            self.port.scroll_top()
        elif had_focus and not self.port.focus_within("#app"):
            # The focused control is gone (a tile just played): move the focus to the place the screen
            # marks as its focus home, so a keyboard player is not thrown to the top.
            self.port.focus("[data-focus-home]")
        if self.focus_next and (self.port.focus(self.focus_next) or changed):
            self.focus_next = ""  # shown (or the address moved on without it): the promise is kept or void
        self.after_render()

    def screen_markup(self, name: str, arg: str) -> Markup:
        """Return the markup of a screen."""
        playable = {gid for gid in GAMES if has_screen(gid)}
        if name == "home":
            saved = {gid for gid, session in self.sessions.items() if not session.state.is_over()}
            today = daily.day_of(self.wall_clock())
            row = daily.home_daily(self.daily_records(), GAMES.values(), playable, today)
            return shell.home(GAMES.values(), saved, playable, self.settings, self.room_link(), row)
        if name == "settings":
            if self.last_route is None or self.last_route.screen != "settings":
                self.data.refusal = self.data.imported = ""
                self.spawn(self.refresh_storage_info())
                self.spawn(self.refresh_identity())
            self.data.used_chars = self.storage.used_chars()
            return settings_view.settings_screen(
                self.settings, self.reduced_motion(), self.storage.broken(), self.data
            )
        if name == "stats":
            if self.last_route is None or self.last_route.screen != "stats":
                self.spawn(self.check_rated_seals())
            mine = rated.me(self.storage)
            today = daily.day_of(self.wall_clock())
            return stats_view.stats_screen(
                self.stats,
                GAMES.values(),
                self.settings.name,
                rated.families(self.storage, GAMES.values()),
                rated.identity_label(*mine[::-1]) if mine else "",
                stats_view.daily_section(self.daily_records(), GAMES.values(), today),
            )
        if name in ONLINE_SCREENS:
            return self.online_markup(name, arg)
        if name == share.LINK_ROUTE:
            return self.links.link_markup(arg)
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
                self.port.replace_hash(f"#/setup/{arg}")
                return self.setup_markup(info, screen)
            return self.table_markup(session, screen)
        return shell.not_found(f"#/{name}/{arg}")

    def table_markup(self, session: Session, screen: Screen, kind: str = "") -> Markup:
        """Return a game's table screen (``kind``: "Challenge" or "Replay" before its title)."""
        info = session.info
        context = self.context(session)
        self.dispatch_all(session, screen.before_render(context))
        title = info.name if info.realtime else f"{info.name} · {session.mode_label}"
        marks = daily.daily_of(session)
        if marks is not None:  # first, so a phone's cut title still says it; the card dates it
            title = f"{'Practice' if marks.get('practice') else 'Daily'} · {info.name}"
        return shell.frame(f"{kind} · {title}" if kind else title, screen.render(context), back="#/")

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
        """Return the mode of this game's saved game when it is not over (else ""): New game replaces it
        (and the ordinary game a Daily set aside: that is the one named)."""
        parked = self.dailies.parked(game_id)
        if parked is not None and not parked.state.is_over():
            return parked.mode_label
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
        if self.route.table == game_id and daily.daily_of(self.sessions.get(game_id)) is not None:
            # Try again at a Daily's table: the day's deal again, as practice
            self.dailies.open_daily(game_id)
            self.go(f"#/play/{game_id}")
            return
        seating = seat_players(info, screen, self.forms.setdefault(game_id, {}), self.settings)
        session = Session.start(
            info, seating.seats, seating.mode, seating.mode_label, seating.options, seed=self.url_seed()
        )
        self.storage.remove(daily.PARKED_PREFIX + game_id)  # the new game replaces the one set aside
        self.generation += 1
        self.sessions[game_id] = session
        self.table_ui.pop(game_id, None)  # a new deal: the table's state starts afresh
        self.save(session)
        self.go(f"#/play/{game_id}")

    def play_again(self, game_id: str) -> None:
        """Deal again with the finished game's own seats, mode and options (the setup form may be empty
        after a reload, and must not turn a four-player game into the default one)."""
        session = self.sessions.get(game_id)
        if session is None:
            self.start_game(game_id)
            return
        if daily.daily_of(session) is not None:
            self.dailies.open_daily(game_id)  # the day's deal again, as practice
            self.go(f"#/play/{game_id}")
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
        self.table_ui.pop(game_id, None)  # a new deal: the table's state starts afresh
        self.save(again)
        self.go(f"#/play/{game_id}")

    def daily_records(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Return the Daily records as stored now (another tab may have added to them)."""
        return self.dailies.records()

    def url_seed(self) -> int | None:
        """Return the deal's seed from the address (``?seed=42``: replay a deal, or test one), else None."""
        return seed_from_query(self.port.location_search())

    # -- the table ----------------------------------------------------------------------------------------
    def table_state(self, game_id: str) -> TableState:
        """Return a table's UI state, made by its screen the first time (and after a new deal)."""
        state = self.table_ui.get(game_id)
        if state is None:
            state = self.table_ui[game_id] = self.new_table_state(game_id)
        return state

    def new_table_state(self, game_id: str) -> TableState:
        """Return a fresh UI state of a game's table."""
        screen = self.screen(game_id)
        return screen.new_state(self.forms.get(game_id)) if screen is not None else TableState()

    def context(self, session: Session) -> TableContext:
        """Return what the game's screen may use (a link's game has its own UI state)."""
        ui = self.links.ui_of(session)
        return TableContext(
            session=session,
            settings=self.settings,
            ui=ui if ui is not None else self.table_state(session.info.id),
            animations=self.animations(),
            board_width=self.board_width,
            board_height=self.board_height,
            emit=lambda intent: self.dispatch(session, intent),
        )

    def request_render(self) -> None:
        """Draw the page again at the end of this tick: the renders asked within one tick are one."""
        if not self.render_due:
            self.render_due = True
            self.port.soon(self.render_if_due)

    def render_if_due(self) -> None:
        """Draw the page if a render is still due (a direct ``render`` since has drawn it already)."""
        if self.render_due:
            self.guard(self.render)

    def dispatch_all(self, session: Session, asked: intents.Intents | None) -> None:
        """Carry out what a table's screen asked for, in order."""
        for intent in asked or ():
            self.dispatch(session, intent)

    def dispatch(self, session: Session, intent: intents.Intent) -> None:
        """Carry out one intent of the table of ``session`` (every kind is handled: mypy checks it)."""
        screen = self.screen(session.info.id)
        match intent:
            case intents.Play(move=move):
                if self.human_move(session, move) and screen is not None:
                    self.dispatch_all(session, screen.on_played(self.context(session), move))
            case intents.Announce(text=words):
                self.announce(words)
            case intents.Refuse(reason=reason):
                self.refused(session, reason)
            case intents.Render():
                self.request_render()
            case intents.Save():
                self.save(session)
            case intents.Finish(scores=scores):
                new_bests = self.record_scores(session, dict(scores)) if scores else []
                self.finish(session)
                if screen is not None:
                    self.dispatch_all(session, screen.on_finished(self.context(session), new_bests))
            case intents.TakeBack():
                self.take_back(session.info.id)
            case intents.Navigate(hash=hash_):
                self.go(hash_)
            case intents.Remember(form=values):
                self.forms.setdefault(session.info.id, {}).update(values)
            case _:
                assert_never(intent)

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
        if not is_linked(session) and self.sync(session.info.id) is Verdict.ADOPT:
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
            self.request_render()  # the table shows the reason in its message line
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
            self.table_state(game_id).clear_selection()
            self.save(session)
            self.announce("Taken back: your turn again.")
        self.request_render()

    def after_move(self, session: Session) -> None:
        """Save, count a finished game, redraw, and start the computer if it is to move."""
        if session.online and self.online is not None:
            self.online.moved(session)  # the host sends every guest its view
        self.clock.tick(session.uid, self.port.now())
        if session.state.is_over():
            self.finish(session)
        else:
            self.save(session)
        if self.table == session.info.id:
            self.request_render()
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
        self.dailies.note_daily(session)
        self.drop(session)
        if self.links.holds(session):
            self.request_render()  # the results: both scores side by side

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
        if is_linked(session):
            if "challenge" in session.extra:  # kept apart: never over the player's own game of it
                self.storage.set(share.CHALLENGE_KEY, saves.dump_save(session.info.id, session.to_json()))
            return
        self.dailies.note_daily(session)
        text = self.storage.write_game(session.info.id, session.to_json())
        if text is not None:
            self.written[session.info.id] = text
            if not self.persist_asked:
                self.persist_asked = True
                self.spawn(self.ask_persistence())

    # -- your data ----------------------------------------------------------------------------------------
    async def ask_persistence(self) -> None:
        """Ask the browser to keep this site's data (the first time a game is saved)."""
        try:
            persisted = await self.port.persisted()
            if persisted is None:
                return  # no Storage API in this browser
            self.data.persisted = persisted or bool(await self.port.persist())
            self.data.checked = True
        except Exception:
            self.port.log("warn", "Boneyard: " + traceback.format_exc())

    async def refresh_identity(self) -> None:
        """Ask the page for this browser's key and show its fingerprint with the name on Settings."""
        try:
            key = await self.port.identity().public_key()
        except Exception:
            self.port.log("warn", "Boneyard: " + traceback.format_exc())
            key = None
        label = rated.identity_label(self.settings.name, key) if key else "no key: this browser keeps none"
        self.data.identity = label
        self.port.set_text("#set-identity", label)

    async def check_rated_seals(self) -> None:
        """Check with this browser's key that the players met were verified here; draw Stats again."""
        try:
            if await rated.check_seals(self.storage, self.port.identity()):
                self.request_render()
        except Exception:
            self.port.log("warn", "Boneyard: " + traceback.format_exc())

    async def refresh_storage_info(self) -> None:
        """Read whether storage is persistent and how much the site uses; show it on Settings."""
        try:
            persisted = await self.port.persisted()
            if persisted is not None:
                self.data.persisted = persisted
            estimate = await self.port.estimate()
            if estimate is not None:
                self.data.usage, self.data.quota = estimate
        except Exception:
            self.port.log("warn", "Boneyard: " + traceback.format_exc())
        self.data.checked = True
        self.data.used_chars = self.storage.used_chars()
        data = self.data
        self.port.set_text("#storage-persist", settings_view.persist_text(data.persisted, data.checked))
        self.port.set_attr("#storage-persist", "data-persisted", settings_view.persisted_attr(data))
        self.port.set_text("#storage-used", settings_view.usage_text(data.used_chars, data.usage, data.quota))

    def export_data(self) -> None:
        """Download a backup file of everything stored."""
        self.port.download(
            f"boneyard-backup-{self.today()}.json", self.storage.export_text(), "application/json"
        )
        self.announce("Backup file saved.")

    async def read_import(self, selector: str) -> None:
        """Read the chosen backup file and show what it holds, or why it cannot be imported."""
        chosen = self.port.chosen_file(selector)
        if chosen is None:
            return
        self.data.preview, self.data.imported, self.data.refusal = None, "", ""
        self.data.file_name = chosen.name
        try:
            if chosen.size > saves.MAX_BACKUP_CHARS:
                raise saves.SaveError("foreign", "This file is far too large to be a Boneyard backup.")
            text = await chosen.read()
            self.data.preview = self.storage.read_backup(text, Session.from_json)
        except saves.SaveError as exc:
            self.data.refusal = exc.message
        except Exception as exc:
            self.data.refusal = f"It could not be read ({exc})."
        if self.route.screen == "settings":
            self.render()
            if not self.port.focus("#import-confirm"):
                self.port.focus("#import-refused button")

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
            self.request_render()
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
        self.request_render()
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
        self.table_state(game_id).start_demo = dict(mode.options) if mode is not None else True

    def drop(self, session: Session) -> None:
        """Forget a finished game's save."""
        if is_linked(session):
            if "challenge" in session.extra:
                self.storage.remove(share.CHALLENGE_KEY)
            return
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
            self.table_ui.pop(game_id, None)  # a new deal: the table's state starts afresh
        self.generation += 1
        if self.route.table == game_id or self.route.screen == "home":
            if self.route.table == game_id and had is not None:
                self.report("info", "This game was played on in another tab; showing the latest position.")
            self.request_render()

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
        ready = self.port.now() + pause
        try:
            move = await self.think_in_slices(session.computer_thinking())
            await self.port.sleep(max(0.0, ready - self.port.now()))
            if self.turn_key() != key:
                return  # the player left, or this game changed: drop this thought
            if not session.online and not is_linked(session) and self.sync(key.game_id) is Verdict.ADOPT:
                return  # another tab played on meanwhile: its position is on screen now
            self.holding = True  # the message line waits until the computer's tile has landed
            session.play_computer_beat(move)
            self.cue(session, by_computer=True)
        except Exception as exc:
            self.port.log("error", "Boneyard: " + traceback.format_exc())
            self.report("error", f"The computer could not move ({exc}).")
            return
        self.after_move(session)

    async def think_in_slices(self, thinking: Any) -> Any:
        """Drive a computer's thinking, handing the page back every ~12 ms so it never freezes."""
        started = self.port.now()
        while True:
            try:
                next(thinking)
            except StopIteration as stop:
                return stop.value
            if self.port.now() - started > THINK_SLICE_S:
                await self.port.sleep(0)
                started = self.port.now()

    def after_render(self) -> None:
        """Measure the table and redraw it once if its width changed; focus a dialog; start the computer."""
        if not self.port.focus_within(".overlay"):
            self.port.focus(".overlay [autofocus]")
        if self.measure_board():  # a table just opened, or the window changed: its board has a new size
            self.request_render()
            return
        game_id = self.table
        if game_id:
            session = self.session_of(game_id)
            screen = self.screen(game_id)
            if session is not None and screen is not None:
                screen.after_render(self.context(session))
            self.dailies.work_out_expert()
            self.release_line(self.port.animate(self.animations()))
        if self.online is not None and self.route.screen in ONLINE_SCREENS:
            self.online.after_render()
        self.schedule_computer()

    def measure_board(self) -> bool:
        """Take the size of the table's board from the page; tell whether it changed by more than 8 px."""
        board = self.port.board_size()
        if board is None:
            return False
        width, height = board
        if (width and abs(width - self.board_width) > 8) or (height and abs(height - self.board_height) > 8):
            self.board_width = width or self.board_width
            self.board_height = height or self.board_height
            return True
        return False

    def release_line(self, moved: int) -> None:
        """Show the held message line: once the computer's tile has landed when it says "your turn", else
        at once. Saying it before the board is settled sends the player's eyes to a line while a tile moves.
        """
        self.holding = False
        held = self.port.held_class("kit-message")
        if held is None:
            return
        if self.releasing is not None:
            self.releasing.cancel()
            self.releasing = None
        if not moved or "is-turn" not in held.split():
            self.port.release("kit-message")
            return

        async def release() -> None:
            await self.port.settled()
            self.port.release("kit-message")  # a render meanwhile has shown the newest words already: no-op

        self.releasing = self.spawn(release())

    def leave_table(self, game_id: str) -> None:
        """Tell a table screen that the player left it (it stops its loops and saves)."""
        session = self.session_of(game_id) if game_id == self.last_table else self.sessions.get(game_id)
        linked = self.links.linked
        if self.last_route is not None and self.last_route.screen == share.LINK_ROUTE and linked is not None:
            session = linked.session if linked.playing else None  # the link's table was the one left
        if session is None:
            session = self.sessions.get(game_id)
        screen = self.screen(game_id)
        if session is not None and screen is not None:
            screen.leave(self.context(session))
        if daily.daily_of(self.sessions.get(game_id)) is not None:
            self.dailies.unpark(game_id)  # a finished Daily gives its place back to the game it set aside

    def on_resize(self, event: Event) -> None:
        """Redraw the table for the new width."""
        if self.table:
            self.after_render()

    def on_storage(self, event: Event) -> None:
        """Follow another tab's writes: a game's save, the stats, the settings, or storage cleared."""
        key = event.storage_key
        if key is None:  # the other tab cleared the whole storage
            self.settings = self.storage.load_settings()
            self.stats = self.storage.load_stats()
            self.apply_look()
            for game_id in list(self.sessions):
                self.sync(game_id)
            if self.route.screen != "setup":
                self.request_render()
            return
        if key == STATS_KEY:
            self.stats = self.storage.load_stats()
            if self.route.screen == "stats":
                self.request_render()
        elif key == daily.DAILY_KEY:  # another tab played a Daily: home's row and Stats' section follow
            if self.route.screen in ("home", "stats"):
                self.request_render()
        elif key == SETTINGS_KEY:
            self.settings = self.storage.load_settings()
            self.apply_look()
            if self.route.screen != "setup":
                self.request_render()
        elif key.startswith(saves.PREFIX + "save:"):
            game_id = key.removeprefix(saves.PREFIX + "save:")
            if game_id in GAMES:
                self.sync(game_id)
            elif game_id in saves.RENAMED:  # a tab of the old version played: follow it under the new id
                for new in self.storage.move_renamed(keep_old=True):
                    self.sync(new)

    # -- events ------------------------------------------------------------------------------------------
    def on_click(self, event: Event) -> bool:
        """Route a click on anything with ``data-action``; True when it was the app's (no default)."""
        sound.unlock()  # a user gesture: sounds may start from now on
        if event.id == "rules-dialog":  # a click on the backdrop
            self.close_rules()
            return False
        if not event.action or event.disabled:
            return False
        if event.action == "chat-draft":
            return False  # a click into the chat's input: the typing is followed by on_input
        if event.action == "chat-send" and event.tag == "form":
            return False  # a click inside the chat's form but on no button of it
        self.do(event.action, event.value)
        return True

    def do(self, action: str, value: str) -> None:
        """Carry out an app-level action (``ACTIONS``), or pass it to the table's screen."""
        online = self.online
        if (
            action in ("play-again", "new-game", "start-game")  # Heptalion's Play again is "start-game"
            and online is not None
            and self.table
            and self.session_of(self.table) is getattr(online, "session", None)
        ):
            self.online_action("room-again", value)  # at an online table: the room's next game
            return
        if action in ("play-again", "start-game", "again") and self.links.again():  # Bonefall's is "again"
            return  # at a link's table: the challenge's deal again, or the player's own next game set up
        handler = self.ACTIONS.get(action)
        if handler is not None and handler(self, value) is not False:
            return
        if action in ONLINE_ACTIONS or action.startswith(("room-", "join-", "chat-", "quick-")):
            if action == "quick-cancel" and getattr(self.online, "kind", "") == "quick":
                mode = self.online.mode  # back on the modes, the keyboard is where it pressed
                self.focus_next = f"#quick-{mode.game}-{mode.key}"
            self.online_action(action, value)
        elif self.table:
            game_id = self.table
            session = self.session_of(game_id)
            screen = self.screen(game_id)
            if session is not None and screen is not None:
                self.dispatch_all(session, screen.on_action(self.context(session), action, value))

    # The app's own actions (``data-action`` -> handler of its ``data-value``); any other goes to the table.
    def close_toast(self, toast_id: str) -> None:
        """Dismiss a toast."""
        self.port.remove("#" + toast_id)

    def reload(self, _value: str = "") -> None:
        """Save, then reload the page."""
        self.save_before_reload()
        self.port.reload()

    def update(self, _value: str = "") -> None:
        """Save, then let the new version take over (js/boot.js), and the page reloads into it."""
        self.save_before_reload()
        self.port.boot("update")

    def install(self, _value: str = "") -> None:
        """Open the browser's install dialog (js/boot.js keeps the offer)."""
        self.port.boot("install")

    def delete_broken(self, key: str) -> None:
        """Delete a record kept aside."""
        if key.startswith(saves.PREFIX + "broken:"):
            self.storage.remove(key)
            self.request_render()

    def import_cancel(self, _value: str = "") -> None:
        """Drop the backup being previewed and go back to the file input."""
        self.data.preview, self.data.refusal, self.data.imported = None, "", ""
        self.render()
        self.port.focus("#import-file")

    def toggle_sound(self, _value: str = "") -> None:
        """Turn the sounds on or off (the tables' mute button)."""
        self.settings = self.storage.update_settings(sound=not self.settings.sound)
        self.request_render()

    def take_back_here(self, _value: str = "") -> bool:
        """Take back on the local table on screen; False (the table's) at an online table."""
        if not self.route.table:
            return False
        self.take_back(self.route.table)
        return True

    # A handler that returns False leaves the action to the table's screen.
    ACTIONS: ClassVar[dict[str, Callable[[App, str], bool | None]]] = {
        "close-toast": close_toast,
        "reload": reload,
        "update": update,
        "install": install,
        "start-game": lambda app, value: app.start_game(value),
        "play-again": _for_a_game(lambda app, game_id: app.play_again(game_id)),
        "delete-broken": delete_broken,
        "export-data": lambda app, value: app.export_data(),
        "import-confirm": lambda app, value: app.confirm_import(),
        "import-cancel": import_cancel,
        "watch-demo": _for_a_game(lambda app, game_id: app.watch_demo(game_id)),
        "new-game": lambda app, value: app.go(f"#/setup/{value}"),
        "home": lambda app, value: app.go("#/"),
        "toggle-sound": toggle_sound,
        "take-back": take_back_here,
        "rules": _for_a_game(lambda app, game_id: app.open_rules(game_id)),  # the tables' "?"
        "close-rules": lambda app, value: app.close_rules(),
        "link-play": lambda app, value: app.links.play_link(),
        "share-link": lambda app, value: app.links.share_link(value),
        "share-copy": lambda app, value: app.links.copy_link(),
        "daily-share": lambda app, value: app.dailies.share_daily(),
    }

    # -- online rooms ----------------------------------------------------------------------------------
    def online_port(self) -> Any:
        """Return the page as an online room sees it (``ui.online.net.OnlinePort``): js/online.js's
        transport, the clipboard, timers."""
        return self.port.online()

    def online_markup(self, name: str, arg: str) -> Markup:
        """Return the host's room (``#/room/GAME``) or a guest's (``#/join/CODE``): lobby, table or form."""
        from .online import host as online_host
        from .online import join as online_join

        online = self.online
        if name == "quick":
            from .online import quick

            if arg and arg not in GAMES:
                return shell.not_found(f"#/quick/{arg}")
            if online is not None and online.game_id == arg and (online.kind == "quick" or online.quick):
                return online.markup()  # type: ignore[no-any-return]
            resumed = quick.resume(self, arg, self.online_port()) if arg else None  # a reload at its table
            if resumed is not None:
                self.close_online()
                self.online = resumed
                return resumed.markup()  # type: ignore[no-any-return]
            return quick.picker_screen(arg or None)
        if name == "room":
            if online is not None and online.kind == "host" and online.game_id == arg:
                return online.markup()  # type: ignore[no-any-return]
            if online_host.saved_quick(self, arg) is not None:  # a quick table's save: never a friends' room
                self.port.replace_hash(f"#/quick/{arg}")
                self.route = Route("quick", arg)
                return self.online_markup("quick", arg)
            # the room this page hosted, saved with its game
            reopened = online_host.reopen(self, arg, self.online_port())
            if reopened is not None:
                self.close_online()
                self.online = reopened
                return reopened.markup()
            if arg in GAMES:
                self.port.replace_hash(f"#/setup/{arg}")
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
            name = str(form.get("name") or self.settings.name)
            self.online = online_join.OnlineGuest(self, code, name, self.online_port())
            self.online.connect()
            return self.online.markup()  # type: ignore[no-any-return]
        return online_join.form_markup(form, self.settings.name)

    def online_action(self, action: str, value: str) -> None:
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
            self.online = online_host.OnlineHost.create(self, GAMES[value], screen, form, self.online_port())
            self.online.connect()
            self.go(f"#/room/{value}")
            return
        if action == "quick-start":
            from .online import quick

            mode = quick.find_mode(value)
            if mode is None:
                return
            self.close_online()
            self.online = quick.QuickMatch(
                self,
                self.online_port(),
                mode,
                wait_s=self.settings.quick_wait,
                clock=self.port.now,
                back=f"#/quick/{mode.game}",
                spawn=self.spawn,
            )
            self.online.start()
            self.focus_next = "#quick-cancel"  # the Looking screen's way out (or Back, if it failed)
            self.go(f"#/quick/{mode.game}")
            return
        if action == "join-room":
            form = self.forms.setdefault("join", {})
            for key in ("code", "name"):
                typed = self.port.value(f"#join-{key}")
                if typed is not None:
                    form[key] = typed
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
            self.online = online_join.OnlineGuest(self, code, name, self.online_port())
            self.online.connect()
            self.go(f"#/join/{code}")
            return
        if self.online is not None:
            self.online.action(action, value)

    def online_change(self, target: Event) -> None:
        """Follow a control of a room: a seat's kind, the wait before bots, the join form's fields."""
        joining = target.attr("data-join")
        if joining:
            self.forms.setdefault("join", {})[joining] = target.text
            return
        if self.online is None:
            return
        seat = target.attr("data-room-seat")
        if seat is not None:
            self.online.change("seat:" + seat, target.text)
        else:
            self.online.change(target.attr("data-room") or "", target.text)

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
        if online.kind == "quick" or getattr(online, "quick", None) is not None:
            return f"#/quick/{online.game_id}", f"You are in a quick match of {name}."
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
        on_heptalion_table = self.table == "heptalion"  # that table has the symbols' sprite already
        self.rules_for = game_id
        dialog = str(rules_dialog(GAMES[game_id], sprite=not on_heptalion_table))
        self.port.open_dialog(dialog, lambda: self.guard(self.rules_closed))

    def close_rules(self, refocus: bool = True) -> None:
        """Close the rules dialog if one is open."""
        if not self.port.exists("#rules-dialog"):
            return
        if not refocus:  # leaving the table or opening other rules: no "close" event, no refocus
            self.rules_for = ""
            self.port.remove("#rules-dialog")
        else:
            self.port.close_dialog("#rules-dialog")  # fires "close": rules_closed() removes it, refocuses "?"

    def rules_closed(self) -> None:
        """Remove the closed rules dialog and put the focus back on the table's "?" without scrolling."""
        self.port.remove("#rules-dialog")
        game_id, self.rules_for = self.rules_for, ""
        if game_id:
            self.port.focus(f'[data-action="rules"][data-value="{game_id}"]', keep_scroll=True)

    def on_change(self, target: Event) -> bool:
        """Keep setup forms and settings in step with their controls."""
        if target.attr("data-import") == "file":
            self.spawn(self.read_import('[data-import="file"]'))
            return False
        if self.online is not None or self.route.screen in ONLINE_SCREENS:
            if (
                target.attr("data-room-seat") is not None
                or target.attr("data-room")
                or target.attr("data-join")
            ):
                self.online_change(target)
                return False
        checkbox = target.type == "checkbox"
        setting = target.attr("data-setting")
        if setting:
            value: Any = target.checked if checkbox else target.text
            self.settings = self.storage.update_settings(**{setting: value})
            self.apply_look()
            if target.type != "text":  # a redraw would undo a Tab that moved on from the name
                self.request_render()
            return False
        field = target.attr("data-field")
        if field and self.route.screen == "setup":
            form = self.forms.setdefault(self.route.arg, {})
            form[field] = target.checked if checkbox else target.text
            if target.type != "text":  # a typed name changes nothing else: a redraw would undo a Tab
                self.request_render()
        return False

    def on_input(self, target: Event) -> bool:
        """Remember typed names without redrawing (which would move the caret)."""
        field = target.attr("data-field")
        if field and self.route.screen == "setup" and target.type == "text":
            self.forms.setdefault(self.route.arg, {})[field] = target.text
        joining = target.attr("data-join")
        if joining:  # the join screen's code and name, kept as typed
            self.forms.setdefault("join", {})[joining] = target.text
        if target.action == "chat-draft" and self.online is not None:
            self.online.log.draft = target.text[:200]  # kept across redraws, never redrawn here
        setting = target.attr("data-setting")
        if setting and target.type == "text":  # kept as typed, never redrawn (the caret stays)
            self.settings = self.storage.update_settings(**{setting: target.text})
            if setting.startswith("online_"):  # the "Rooms connect through ..." line follows the typing
                self.port.set_text("#online-broker strong", self.settings.online_broker())
        return False

    def on_submit(self, form: Event) -> bool:
        """Keep a form's Enter on the page (no form is ever sent anywhere); the chat's sends its message."""
        if form.id == "chat-form":
            self.online_action("chat-send", "")
        elif form.id == "join-form":
            self.online_action("join-room", "")
        return True

    def on_keydown(self, event: Event) -> bool:
        """Offer the table's keyboard shortcuts; True when a key was the table's."""
        sound.unlock()
        game_id = self.table
        if game_id is None or event.ctrl or event.meta or event.alt:
            return False  # leave the browser's own shortcuts (Ctrl+R, Ctrl+C...) alone
        if self.rules_for:
            return False  # the rules dialog is open: its keys are its own (Esc closes it)
        if event.tag in ("input", "select", "textarea"):
            return False
        if event.key == "?" and self.port.exists('[data-action="rules"]'):
            self.open_rules(game_id)  # "?" opens the rules, as the table's "?" button does
            return True
        if event.key in ("u", "U"):  # the tables' Take back button, where it is offered and enabled
            if self.port.exists("#take-back") and not self.port.disabled("#take-back"):
                self.take_back(game_id)
                return True
        if event.key in ("h", "H"):  # the tables' Hint button, where Settings' Hints shows it
            if self.port.exists("#kit-hint") and not self.port.disabled("#kit-hint"):
                self.port.click("#kit-hint")  # the button's own action, exactly as a click
                return True
        screen = self.screen(game_id)
        session = self.session_of(game_id)
        return bool(
            session is not None and screen is not None and screen.on_key(self.context(session), event.key)
        )

    def on_pagehide(self, event: Event) -> None:
        """Save the online room's game now: the page may not come back."""
        if self.online is not None:
            self.online.save(now=True)

    # The page's events, by kind (``handle``); a handler's True keeps the page's default from happening.
    EVENTS: ClassVar[dict[str, Callable[[App, Event], bool | None]]] = {
        "click": on_click,
        "change": on_change,
        "input": on_input,
        "keydown": on_keydown,
        "submit": on_submit,
        "hashchange": lambda app, event: app.navigate(),
        "resize": on_resize,
        "storage": on_storage,
        "update-ready": lambda app, event: app.offer_update(),
        "pagehide": on_pagehide,
    }


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


def _preloads(game_id: str, info: Any) -> tuple[Callable[[], Any], ...]:
    """Return the steps that import a game's engine, its first bot, the AI and its table screen."""
    return (
        lambda: info.new_state.resolve() if hasattr(info.new_state, "resolve") else None,
        lambda: info.bots.get("easy") if info.bots else None,
        lambda: computer_bot(info, "expert") if "expert" in info.levels else None,
        lambda: screen_for(game_id),
    )
