"""Bonefall's table screen: the setup modes and the page around the canvas (pure Python).

The well itself is drawn on a canvas by ``bonefall_canvas`` (the browser module), which runs the game in
real time through ``bonefall_play.Driver``. This module builds the markup (scores, next domino, controls
help, touch buttons, the pause and game-over panels) and handles the table's actions and keys, so it is
unit-tested under CPython.

Its UI state is a ``BonefallTableState``: the driver, whether it is paused and why, the end's summary,
and the demo's driver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from boneyard.core import fresh_seed
from boneyard.games.bonefall import new_state
from boneyard.games.bonefall.autoplay import AutoPlayer

from .. import share
from ..html import Markup, h
from ..intents import Announce, Finish, Intents, Render, Save
from ..table_screen import Mode, Screen, TableContext, TableState
from .bonefall_play import Driver, hud_values, key_command

if TYPE_CHECKING:
    from boneyard.games.bonefall.sim import BonefallState


@dataclass
class BonefallTableState(TableState):
    """Bonefall's table state."""

    driver: Driver | None = None  # the ``Driver`` of the session's state
    paused: bool | None = None  # None: not decided yet (a resumed game starts paused)
    pause_reason: str | None = None  # "hidden", "player", "resumed", "demo": shown in the panel
    summary: dict[str, Any] | None = None  # the end-of-game panel's data: the names of new bests
    demo: Driver | None = None  # an autoplayed demo game that is never saved


def state_of(ctx: TableContext) -> BonefallTableState:
    """Return Bonefall's table state."""
    ui = ctx.ui
    if not isinstance(ui, BonefallTableState):
        raise TypeError(f"a Bonefall table was given {type(ui).__name__}")
    return ui


def bonefall_state(ctx: TableContext) -> BonefallState:
    """Return the session's Bonefall state (a real-time game: not the turn-based protocol)."""
    return cast("BonefallState", ctx.session.state)


__all__ = ["DEMO_DELAY", "MODES", "SCREEN", "BonefallScreen", "cascade_steps_for", "hud_values"]

CASCADE_STEPS_ANIMATED = 12  # steps each resolution event is shown (0.2 s)
CASCADE_STEPS_QUICK = 3  # with animations off: a brief flash, 0.05 s an event
DEMO_DELAY = 8  # steps between two demo commands (7 a second: watchable)

# A word joiner after each dash: "0–6" never breaks before its last digit.
SETS = {"norm": ("Norm", "the 28 dominoes of 0–\u20606"), "max": ("Max", "the 55 dominoes of 0–\u20609")}
TYPES = {"sprint": ("Sprint", "one set"), "marathon": ("Marathon", "a new set each time one runs out")}

MODES = [
    Mode(
        key=f"{kind}-{set_}",
        label=f"{TYPES[kind][0]} · {SETS[set_][0]}",
        options={"set": set_, "mode": kind},
        players=1,
        note=f"{TYPES[kind][0]}: {TYPES[kind][1]}; {SETS[set_][0]}: {SETS[set_][1]}.",
    )
    for kind in ("sprint", "marathon")
    for set_ in ("norm", "max")
]

CONTROLS = (
    ("← →", "move"),
    ("↑ or X", "rotate ↻"),
    ("Z", "rotate ↺"),
    ("↓", "soft drop"),
    ("Space", "drop"),
    ("P or Esc", "pause"),
)

TOUCH = (
    ("rotate_ccw", "↺", "Rotate left"),
    ("left", "◀", "Move left"),
    ("soft_drop", "▼", "Soft drop"),
    ("right", "▶", "Move right"),
    ("rotate_cw", "↻", "Rotate right"),
    ("hard_drop", "⤓", "Drop"),
)

HUD = (
    ("power", "Power"),  # the headline score, across the panel
    ("max", "Max"),
    ("speed", "Speed"),
    ("turn", "This turn"),
    ("left", "Left"),
    ("level", "Level"),
)

# The three scores in plain words (the table's "What the scores mean", and How to play).
EXPLAIN = (
    (
        "Power",
        "your score. Each turn adds (halves cleared − 1)²: 2 halves give 1, 3 give 4, 5 give 16, so one "
        "long cascade is worth more than many small ones.",
    ),
    ("Max", "the most halves you cleared in one turn: the drop and every cascade after it."),
    ("Speed", "your Power per minute of play."),
)

SCORE_NAMES = {"power": "Power", "max": "Max", "speed": "Speed"}  # Power leads


def cascade_steps_for(animations: bool) -> int:
    """Return the steps each resolution event is shown: shortened when animations are off."""
    return CASCADE_STEPS_ANIMATED if animations else CASCADE_STEPS_QUICK


def final_scores(state: Any) -> dict[str, float]:
    """Return the scores a finished game records: Max, Power, Speed (one decimal)."""
    return {"max": state.max_score, "power": state.power, "speed": round(state.speed, 1)}


class BonefallScreen(Screen):
    """The ``SCREEN`` of game ``bonefall``."""

    game_id = "bonefall"

    def new_state(self, form: Mapping[str, Any] | None = None) -> BonefallTableState:
        """Return a new table state."""
        return BonefallTableState()

    # -- setup ------------------------------------------------------------------------------------
    def modes(self) -> list[Mode]:
        """Return the four modes: Sprint or Marathon, with the Norm or Max set."""
        return list(MODES)

    def custom_fields(self, form: dict[str, Any]) -> Markup:
        """Return the card shown on the setup screen: what to do, the keys, the scores, and the demo."""
        return h(
            "div",
            {"class_": "fall-setup-card"},
            h(
                "p",
                {"class_": "fall-setup-lead"},
                "Dominoes fall into the well. Line up equal halves to make them vanish; what is left falls "
                "and may match again.",
            ),
            controls_help(),
            # A phone has no keys: the pad under the well and the swipes (bonefall.css shows one or the other).
            h(
                "p",
                {"class_": "fall-setup-touch"},
                "Play with the pad under the well, or ",
                SWIPES[0].lower(),
                SWIPES[1:],
            ),
            explain_scores(open_=True),
            h(
                "p",
                {"class_": "fall-setup-demo"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn",
                        "data_action": "watch-demo",
                        "data_value": "bonefall",
                        "id": "fall-watch-demo",
                    },
                    "Watch a demo",
                ),
                h(
                    "span",
                    {"class_": "hint"},
                    " The computer plays a game of the chosen mode; nothing is saved.",
                ),
            ),
        )

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the chosen mode (Sprint · Norm by default) and one player."""
        key = str(form.get("mode", MODES[0].key))
        mode = next((m for m in MODES if m.key == key), MODES[0])
        return mode, 1

    # -- the table --------------------------------------------------------------------------------
    def driver(self, ctx: TableContext) -> Driver:
        """Return the driver of the session's game (made on first use, or when the game changed)."""
        ui = state_of(ctx)
        state = bonefall_state(ctx)
        driver = ui.driver
        if driver is None or driver.state is not state:
            state = self.prepare(ctx)
            driver = Driver(state)
            ui.driver = driver
            if ui.paused is None:
                ui.paused = state.steps > 0 and not state.is_over()
            if ui.paused and ui.pause_reason is None:
                ui.pause_reason = "resumed"
        return driver

    def prepare(self, ctx: TableContext) -> Any:
        """Give a game that has not started yet the cascade timing of the animation setting."""
        session = ctx.session
        state = bonefall_state(ctx)
        want = cascade_steps_for(ctx.animations)
        if state.steps == 0 and not state.log and state.cascade_steps != want and not state.is_over():
            options = {**state.options(), "cascade_steps": want}
            session.state = state = new_state(session.seed, **options)
            session.options = {**session.options, "cascade_steps": want}
        return state

    def before_render(self, ctx: TableContext) -> Intents:
        """Make the game's driver, and start the demo the setup screen asked for (Watch a demo, of the mode
        chosen there): the player's game is paused and saved."""
        ui = state_of(ctx)
        self.driver(ctx)
        wanted, ui.start_demo = ui.start_demo, None
        if not wanted or ui.demo is not None:
            return []
        asked = self.toggle_demo(ctx, wanted if isinstance(wanted, dict) else None)
        ui.pause_reason = "demo"
        return asked

    def render(self, ctx: TableContext) -> Markup:
        """Return the table: the well, the side panel, the touch controls and any panel over the well."""
        ui = state_of(ctx)
        demo = ui.demo
        driver = demo if demo is not None else ui.driver
        if driver is None or (driver.state is not ctx.session.state and demo is None):
            raise RuntimeError("Bonefall's table is drawn after before_render made its driver")
        state = driver.state
        view = state.view()
        values = hud_values(view)
        sprint = view["mode"] == "sprint"
        scores = h(
            "dl",
            {"class_": "fall-scores"},
            [
                h(
                    "div",
                    {"class_": f"fall-score fall-score-{name}"},
                    h(
                        "dt",
                        {},
                        "Left" if name == "left" and sprint else ("Sets" if name == "left" else label),
                    ),
                    h("dd", {"id": f"fall-{name}"}, values[name]),
                )
                for name, label in HUD
            ],
        )
        side = h(
            "aside",
            {"class_": "fall-side", "aria_label": "Scores and next domino"},
            h(
                "div",
                {
                    "class_": "fall-mode",
                    "aria_label": f"{TYPES[view['mode']][0]}, {SETS[view['set']][0]} set",
                },
                h("span", {"class_": "fall-mode-part"}, TYPES[view["mode"]][0]),
                h("span", {"class_": "fall-mode-part"}, SETS[view["set"]][0]),
                h("span", {"class_": "fall-demo-tag"}, "Demo") if demo else "",
            ),
            h(
                "div",
                {"class_": "fall-next-box"},
                h("span", {"class_": "fall-next-label"}, "Next"),
                h(
                    "canvas",
                    {
                        "id": "fall-next",
                        "class_": "fall-next",
                        "width": "96",
                        "height": "48",
                        "role": "img",
                        "aria_label": next_label(view),
                    },
                ),
            ),
            scores,
            h(
                "div",
                {"class_": "fall-side-actions"},
                self.pause_button(ui, state),
                h(
                    "button",
                    {
                        "type": "button",
                        "data_action": "demo",
                        "id": "fall-demo",
                        "class_": "btn fall-demo-btn " + ("btn-primary" if demo else "btn-ghost"),
                        "title": "Watch the computer play a game (not saved)" if not demo else None,
                    },
                    "Stop demo" if demo else "Demo",
                ),
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-ghost fall-help",
                        "data_action": "rules",
                        "data_value": "bonefall",
                        "aria_label": "How to play Bonefall",
                        "title": "How to play",
                    },
                    "?",
                ),
            ),
            explain_scores("fall-explain-side"),
            h("div", {"class_": "fall-keys", "aria_label": "Keys"}, controls_help()),
        )
        well = h(
            "div",
            {"class_": "fall-well-wrap"},
            h(
                "canvas",
                {
                    "id": "fall-canvas",
                    "class_": "fall-well",
                    "width": "240",
                    "height": "480",
                    "role": "img",
                    "aria_label": well_label(view),
                    "tabindex": "0",
                },
            ),
            self.panel(ctx, driver, view),
        )
        touch = h(
            "div",
            {"class_": "fall-touch", "role": "group", "aria_label": "Touch controls"},
            [
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": f"fall-pad fall-pad-{cmd}",
                        "data_fall": cmd,
                        "aria_label": label,
                    },
                    symbol,
                )
                for cmd, symbol, label in TOUCH
            ],
        )
        return h(
            "div",
            {
                "class_": "fall",
                "id": "fall-table",
                "data_phase": view["phase"],
                "data_paused": "true" if ui.paused and not demo else "false",
                "data_demo": "true" if demo else "false",
            },
            h("div", {"class_": "fall-main"}, well, side),
            touch,
            h("p", {"class_": "fall-touch-hint hint"}, SWIPES),
            # On a phone the swipes and the scores are one small sheet that opens over the pad (bonefall.css).
            explain_scores(
                "fall-explain-below",
                phone="Swipes and scores",
                lead=h("p", {"class_": "fall-explain-swipes"}, SWIPES),
            ),
        )

    def pause_button(self, ui: BonefallTableState, state: Any) -> Markup:
        if state.is_over() or ui.demo is not None:
            return Markup("")
        if ui.paused:
            return h(
                "button",
                {"type": "button", "class_": "btn btn-primary", "data_action": "resume", "id": "fall-pause"},
                "Resume",
            )
        return h(
            "button", {"type": "button", "class_": "btn", "data_action": "pause", "id": "fall-pause"}, "Pause"
        )

    def panel(self, ctx: TableContext, driver: Driver, view: dict[str, Any]) -> Markup:
        """Return the panel over the well: paused, or the game-over summary (or nothing)."""
        ui = state_of(ctx)
        if ui.demo is not None:
            return Markup("")  # the side panel says "Demo" and offers to stop it
        if view["over"]:
            from ..daily import page_card, share_button  # loaded with the end of a game, not with the table

            card = page_card(ctx.session, compact=True)
            return summary_panel(
                view,
                ui.summary or {},
                share.versus(ctx.session),
                share.share_row(ctx),
                card,
                share_button() if card else "",
            )
        if ui.paused:
            reason = ui.pause_reason or "player"
            text = {
                "hidden": "Paused while the page was hidden.",
                "resumed": "Your game is where you left it.",
                "demo": "Your own game is ready: press Resume to play.",
            }.get(reason, "Take your time.")
            return h(
                "div",
                {"class_": "fall-panel", "id": "fall-paused", "role": "dialog", "aria_label": "Paused"},
                h("h2", {}, "Paused"),
                h("p", {}, text),
                h(
                    "div",
                    {"class_": "fall-panel-actions"},
                    h(
                        "button",
                        {
                            "type": "button",
                            "class_": "btn btn-primary",
                            "data_action": "resume",
                            "id": "fall-resume",
                        },
                        "Resume",
                    ),
                    h("button", {"type": "button", "class_": "btn", "data_action": "again"}, "Restart"),
                    h("button", {"type": "button", "class_": "btn btn-ghost", "data_action": "home"}, "Home"),
                ),
                h("p", {"class_": "hint"}, "Press P or Esc to resume."),
            )
        return Markup("")

    # -- actions and keys -------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> Intents | None:
        """Pause, resume, play again, or toggle the demo."""
        if action == "pause":
            return self.pause(ctx, "player") + [Render()]
        if action == "resume":
            self.resume(ctx)
        elif action == "again":
            return self.again(ctx) + [Render()]
        elif action == "demo":
            return self.toggle_demo(ctx) + [Render()]
        else:
            return None
        return [Render()]

    def on_key(self, ctx: TableContext, key: str) -> bool:
        """Handle a key pressed at the table; True when it is one of the game's keys."""
        cmd = key_command(key)
        if cmd is None:
            return False
        ui = state_of(ctx)
        if ui.demo is not None:
            if cmd == "pause":
                ctx.emit_all(self.toggle_demo(ctx) + [Render()])
                return True
            return False
        state = bonefall_state(ctx)
        if state.is_over():
            return False
        if cmd == "pause":
            if ui.paused:
                self.resume(ctx)
                ctx.emit(Render())
            else:
                ctx.emit_all(self.pause(ctx, "player") + [Render()])
            return True
        if ui.paused:
            return False  # let Space and Enter press the panel's buttons
        self.driver(ctx).press(cmd)
        return True

    def on_key_up(self, ctx: TableContext, key: str) -> None:
        """End a held key (called by the browser module)."""
        cmd = key_command(key)
        driver = state_of(ctx).driver
        if cmd is not None and driver is not None:
            driver.release(cmd)

    def pause(self, ctx: TableContext, reason: str) -> Intents:
        """Pause the game (it is saved)."""
        ui = state_of(ctx)
        state = bonefall_state(ctx)
        if state.is_over() or ui.demo is not None:
            return []
        ui.paused = True
        ui.pause_reason = reason
        driver = ui.driver
        if driver is not None:
            driver.release_all()
        return [Save()]

    def resume(self, ctx: TableContext) -> None:
        """Resume the game where it was."""
        ui = state_of(ctx)
        ui.paused = False
        ui.pause_reason = None
        driver = self.driver(ctx)
        driver.carry = 0.0

    def new_game(
        self, ctx: TableContext, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> Intents:
        """Start a new game in place: of the same mode (Play again / Restart), or the given one (a test's)."""
        session = ctx.session
        ui = state_of(ctx)
        seed = fresh_seed() if seed is None else seed
        state = bonefall_state(ctx)
        options = options or {
            "set": state.set_name,
            "mode": state.mode,
            "cascade_steps": cascade_steps_for(ctx.animations),
        }
        session.state = new_state(seed, **options)
        session.seed = seed
        session.options = dict(options)
        session.recorded = False
        session.extra = {}
        session.uid = f"{fresh_seed():016x}"  # a new deal: its result counts on its own
        ui.driver = ui.summary = ui.pause_reason = ui.demo = None
        ui.paused = False
        return [Save()]

    def again(self, ctx: TableContext) -> Intents:
        """Play again (or restart): a Daily's own sequence again, as practice, else a new deal."""
        session = ctx.session
        marks = session.extra.get("daily")
        if not isinstance(marks, dict):
            return self.new_game(ctx)
        ctx.emit(Save())  # saved as it stands first: the app keeps a Daily's attempt (played on) as it saves
        asked = self.new_game(ctx, seed=session.seed)
        session.extra["daily"] = {**marks, "practice": True}
        return asked

    def toggle_demo(self, ctx: TableContext, mode: dict[str, Any] | None = None) -> Intents:
        """Start or stop the demo: the autoplayer plays a fresh game (never saved) in the well, of the
        player's mode or of ``mode`` (options ``set`` and ``mode``)."""
        ui = state_of(ctx)
        if ui.demo is not None:
            ui.demo = None
            return []
        state = bonefall_state(ctx)
        asked = self.pause(ctx, "player") if not state.is_over() and not ui.paused else []
        mode = mode or {}
        kind = str(mode.get("mode", state.mode))
        demo_state = new_state(
            fresh_seed(),
            set=str(mode.get("set", state.set_name)),
            mode=kind,
            cascade_steps=cascade_steps_for(ctx.animations),
            max_sets=2 if kind == "marathon" else None,
        )
        ui.demo = Driver(demo_state, AutoPlayer(delay=DEMO_DELAY))
        return asked

    def game_over(self, ctx: TableContext) -> None:
        """Record the finished game's scores once and count it (``on_finished`` keeps the summary)."""
        session = ctx.session
        if session.recorded:
            return
        ui = state_of(ctx)
        ui.summary = {"new": []}
        ui.paused = False
        ctx.emit(Finish(final_scores(session.state)))
        session.recorded = True

    def on_finished(self, ctx: TableContext, new_bests: list[str]) -> Intents:
        """Keep the new bests for the end's panel and say the scores."""
        state_of(ctx).summary = {"new": list(new_bests)}
        state = bonefall_state(ctx)
        return [Announce(f"Game over. Max {state.max_score}, Power {state.power}, Speed {state.speed:.1f}.")]

    # -- browser hooks (the canvas module does the work) ------------------------------------------
    def after_render(self, ctx: TableContext) -> None:
        """Bind the canvas and run the frame loop."""
        from ..ports import page_module

        bonefall_canvas = page_module("bonefall_canvas")  # browser-only

        bonefall_canvas.bind(self, ctx)

    def leave(self, ctx: TableContext) -> None:
        """Stop the loop, pause and save."""
        from ..ports import page_module

        bonefall_canvas = page_module("bonefall_canvas")  # browser-only

        bonefall_canvas.unbind(self, ctx)


SWIPES = "Swipe on the well: sideways to move, down to drop, tap to rotate."


def explain_scores(cls: str = "", open_: bool = False, *, phone: str = "", lead: Any = "") -> Markup:
    """Return the three scores explained in plain words (a disclosure: open on the setup screen).

    ``phone`` is the summary a phone shows instead, ``lead`` what comes before the scores (the swipes).
    """
    return h(
        "details",
        {"class_": ("fall-explain " + cls).strip(), "open": open_},
        h(
            "summary",
            {},
            h("span", {"class_": "fall-explain-scores"}, "What the scores mean"),
            h("span", {"class_": "fall-explain-phone"}, phone) if phone else "",
        ),
        h(
            "div",
            {"class_": "fall-explain-body"},
            lead,
            h("dl", {}, [h("div", {}, h("dt", {}, name), h("dd", {}, words)) for name, words in EXPLAIN]),
        ),
    )


def controls_help() -> Markup:
    """Return the keys list."""
    return h(
        "ul",
        {"class_": "fall-controls"},
        [h("li", {}, h("kbd", {}, key), " ", what) for key, what in CONTROLS],
    )


def next_label(view: dict[str, Any]) -> str:
    nxt = view.get("next")
    if nxt:
        return f"Next domino: {nxt[0]}-{nxt[1]}"
    return "No next domino: the last one is falling" if view.get("piece") else "No next domino"


def well_label(view: dict[str, Any]) -> str:
    piece = view.get("piece")
    falling = f"Falling {piece['values'][0]}-{piece['values'][1]}. " if piece else ""
    return f"The well: {len(view['cells'])} halves at rest. {falling}"


def summary_panel(
    view: dict[str, Any],
    summary: dict[str, Any],
    versus: Any = "",
    shared: Any = "",
    daily: Markup | str = "",
    daily_share: Markup | str = "",
) -> Markup:
    """Return the game-over panel: the three scores, new bests highlighted, a challenge's scores side by
    side (``versus``), Play again / Home, and the share row (``shared``); after a Daily, its card
    (``daily``) and its Share (``daily_share``) beside Stats."""
    new = set(summary.get("new", []))
    values = {"max": str(view["max_score"]), "power": str(view["power"]), "speed": f"{view['speed']:.1f}"}
    played = view["dominoes_played"]
    reason = {
        "set played": f"All {played} dominoes played.",
        "topped out": f"No room at the top after {played} dominoes.",
        "set cap": f"The last set is played: {played} dominoes.",
    }.get(view.get("termination") or "", f"{played} dominoes played.")
    rows = [
        h(
            "div",
            {"class_": "fall-final" + (" fall-best" if name in new else ""), "data_score": name},
            h("dt", {}, label),
            h(
                "dd",
                {"id": f"fall-final-{name}"},
                values[name],
                h("span", {"class_": "fall-best-tag"}, "New best!") if name in new else "",
            ),
        )
        for name, label in SCORE_NAMES.items()
    ]
    return h(
        "div",
        {"class_": "fall-panel fall-over", "id": "fall-summary", "role": "dialog", "aria_label": "Game over"},
        h("h2", {}, "Game over"),
        h("p", {}, reason),
        versus,
        daily,
        h("dl", {"class_": "fall-finals"}, rows),
        h(
            "div",
            {"class_": "fall-panel-actions"},
            h(
                "button",
                {"type": "button", "class_": "btn btn-primary", "data_action": "again", "id": "fall-again"},
                "Play again",
            ),
            daily_share,
            h("a", {"class_": "btn", "href": "#/stats"}, "Stats"),
            h("button", {"type": "button", "class_": "btn btn-ghost", "data_action": "home"}, "Home"),
        ),
        shared,
    )


SCREEN = BonefallScreen()
