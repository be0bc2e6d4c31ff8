"""The Dominoes table: setup modes, the line of play, open ends, hands, turns, and the summaries.

Pure Python: ``render`` turns the session's view into markup and ``on_action`` turns a click into a
move; every rule question (what fits, who is to move, who won) is answered by the engine's view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import frame, kit
from ..html import Markup, h, join
from ..intents import Announce, Intents, Play, Render, Save
from ..results import stats_note
from ..shell import LEVEL_LABELS, field, select
from ..table_screen import Mode, Screen, TableContext, TableState
from .domino_svg import _n, board_svg, standalone_tile, tile_svg
from .dominoes_layout import (
    PlacedTile,
    arm_chains,
    arm_marker,
    bounds,
    end_markers,
    end_markers_as_tiles,
    layout_fives,
    layout_line,
    marker_boxes,
    reach_for_width,
)

# The matches the setup offers, whatever the number of players (2 to 4): key, label, target, draw game.
MATCHES = [
    ("match-100", "Match to 100", 100, True),
    ("match-50", "Match to 50", 50, True),
    ("block", "Block game, to 100 (no drawing)", 100, False),
]
# Modes of older forms and addresses that named the players: the match, and how many play.
LEGACY_MODES = {
    "match-2-100": ("match-100", 2),
    "match-2-50": ("match-50", 2),
    "block-2": ("block", 2),
    "match-3-100": ("match-100", 3),
    "match-4-100": ("match-100", 4),
}
END_NAMES = {"L": "left", "R": "right", "N": "top", "S": "bottom"}
FIVES_TARGET = 150
FIVES_TARGETS = (100, 150, 250)


def tile_text(tile: list[int] | tuple[int, int]) -> str:
    """Return a tile's text form, heavier end first: ``6-4``."""
    a, b = tile
    return f"{max(a, b)}-{min(a, b)}"


plural = kit.plural
ARMS = ("L", "R", "N", "S")
POP_MS = {"relaxed": 1800, "normal": 1200, "fast": 700}  # how long a scoring lay's "+15" shows


def is_fives(view: dict[str, Any]) -> bool:
    """Tell whether the view is of an All Fives game (a spinner, the count scored)."""
    return bool(view.get("options", {}).get("scoring") == "fives")


def has_spinner(view: dict[str, Any]) -> bool:
    """Tell whether an All Fives layout has its spinner yet (then it is drawn as a cross)."""
    layout = view.get("layout")
    if not layout:
        return False
    return layout.get("spinner") is not None and bool(view["line"])


def open_numbers(view: dict[str, Any]) -> list[int]:
    """Return the numbers the open ends show (every arm's in All Fives), each once, in arm order."""
    layout = view.get("layout")
    if layout:
        values = [layout["ends"][a] for a in ARMS if layout["ends"].get(a) is not None]
    else:
        values = list(view["open_ends"] or [])
    out: list[int] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def or_list(values: list[Any]) -> str:
    """Return "5", "5 or 3", "5, 3 or 6"."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def layout_count(line: list[Any], spinner: int | None, north: list[Any], south: list[Any]) -> int:
    """Return the count of an All Fives layout as the rules define it (the engine's ``FivesTable.count``).

    Tiles are {"tile": [a, b], "double": bool} as views give them: ``line`` left to right, ``north``
    and ``south`` outward, each as [inner, outer].
    """
    if not line:
        return 0
    if spinner is None:
        return int(line[0]["tile"][0] + line[-1]["tile"][1])
    v = line[spinner]["tile"][0]
    total = 0
    sides = 0
    if spinner > 0:
        a, b = line[0]["tile"]
        total += a + b if a == b else a
        sides += 1
    if spinner < len(line) - 1:
        a, b = line[-1]["tile"]
        total += a + b if a == b else b
        sides += 1
    if sides < 2:
        return int(total + 2 * v)
    for arm in (north, south):
        if arm:
            a, b = arm[-1]["tile"]
            total += a + b if a == b else b
    return total


def end_marker(
    end: str,
    value: int,
    at: tuple[float, float],
    box: tuple[float, float, float, float],
    selected: str | None,
    *,
    target: bool,
    off: bool = False,
) -> Markup:
    """Return an open end's marker at ``at`` (layout units) on the board ``box``: a button that lays the
    selected tile there when it is a ``target``, else the end's number (dimmed when ``off``)."""
    left, top, width, height = box
    style = f"left: {_n((at[0] - left) / width * 100)}%; top: {_n((at[1] - top) / height * 100)}%"
    name = END_NAMES[end]
    if target:
        return h(
            "button",
            {
                "type": "button",
                "class_": "dom-end is-target",
                "data_action": "end",
                "data_value": end,
                "id": f"end-{end}",
                "style": style,
                "aria_label": f"Lay {selected} on the {name} end, showing {value}",
            },
            str(value),
        )
    return h(
        "span",
        {
            "class_": "dom-end" + (" is-off" if off else ""),
            "id": f"end-{end}",
            "style": style,
            "role": "img",
            "aria_label": f"{name.title()} end: {value}",
        },
        str(value),
    )


def board_stage(cls: str, px_w: float, px_h: float, unit: float, *layers: Any) -> Markup:
    """Return the board's stage, ``px_w`` by ``px_h`` pixels at ``unit`` pixels a layout unit, with its layers
    (css/dominoes.css shrinks it, whole, into a board smaller than the one it was drawn for)."""
    style = f"--w: {_n(px_w)}px; --ratio: {px_w / px_h if px_h else 1:.4f}; --unit: {_n(unit)}px"
    return h("div", {"class_": cls, "style": style}, *layers)


def board_watcher() -> Any:
    """Return the board's size watcher in the page, None under CPython (it needs the browser)."""
    try:
        from ..ports import page_module

        board_watch = page_module("board_watch")
    except ImportError:
        return None
    return board_watch


@dataclass
class DominoesState(TableState):
    """The Dominoes table's own state: the chosen tile, and what the last render showed (for motion)."""

    selected: str | None = None  # a tile that fits several ends, waiting for its end
    popped: str | None = None  # the lay whose "+15" popped already (hand:lays)
    hand_seen: list[str] | None = None  # the hand's tiles at the last render (a draw's tiles slide in)

    def clear_selection(self) -> None:
        """Forget the chosen tile."""
        self.selected = None


def state_of(ctx: TableContext) -> DominoesState:
    """Return the Dominoes table's state."""
    ui = ctx.ui
    if not isinstance(ui, DominoesState):
        raise TypeError(f"a Dominoes table was given {type(ui).__name__}")
    return ui


END_WORDS = {"L": "on the left end", "R": "on the right end", "N": "on the top", "S": "on the bottom"}


class DominoesScreen(Screen):
    """The table screen of ``dominoes``."""

    game_id = "dominoes"
    expert = True
    move_pattern = re.compile(r"(?<![\w-])\d-\d:[LRNS](?![\w-])")

    def new_state(self, form: Mapping[str, Any] | None = None) -> DominoesState:
        """Return a new table state."""
        return DominoesState()

    def move_words(self, move: str) -> str:
        """Return a move in words: ``6-4:L`` -> "6-4 on the left end", ``6-6`` -> "6-6 to open"."""
        if move in ("draw", "pass"):
            return super().move_words(move)
        tile, _, end = move.partition(":")
        return f"{tile} {END_WORDS[end]}" if end in END_WORDS else f"{tile} to open"

    def hint_targets(self, move: str) -> list[str]:
        """Return the hinted tile in the hand and the end it goes to."""
        if move in ("draw", "pass"):
            return super().hint_targets(move)
        tile, _, end = move.partition(":")
        return [f"#tile-{tile}"] + ([f"#end-{end}"] if end else [])

    # -- setup --------------------------------------------------------------------------------------
    def modes(self) -> list[Mode]:
        """Return the setup screen's modes: Classic, the matches, All Fives, Custom (the players apart)."""
        modes = [
            Mode(
                "classic",
                "Classic (single round)",
                {"draw": True, "target": None},
                None,
                "One round: the first to lay their last tile wins.",
            )
        ]
        for key, label, target, draw in MATCHES:
            modes.append(
                Mode(
                    key,
                    label,
                    {"hand_size": None, "draw": draw, "target": target},
                    None,
                    "A points match: going out scores the pips left in the others' hands."
                    + ("" if draw else " Nobody draws: a player who cannot lay passes."),
                )
            )
        modes.append(
            Mode(
                "fives",
                "All Fives (Muggins)",
                {"scoring": "fives", "draw": True, "target": FIVES_TARGET},
                None,
                "A spinner and four arms: whenever the ends add up to a multiple of five, you score them.",
            )
        )
        modes.append(Mode("custom", "Custom", {}, None, "Choose the game, the target and the hand size."))
        return modes

    @staticmethod
    def _game_field(form: dict[str, Any]) -> Markup:
        return field(
            "Draw or block",
            select(
                "setup-draw",
                "draw",
                [
                    ("draw", "Draw game (draw from the boneyard)"),
                    ("block", "Block game (no drawing: pass)"),
                ],
                form.get("draw", "draw"),
            ),
            fid="setup-draw",
        )

    def _teams_field(self, form: dict[str, Any]) -> Markup:
        """Return the Partners choice, offered whenever four play."""
        if self.mode_from_form(form)[1] != 4:
            return Markup("")
        computer = form.get("opponents", "computer") == "computer"
        return field(
            "Seating",
            select(
                "setup-teams",
                "teams",
                [("no", "Every player for themselves"), ("yes", "Partners (2 against 2)")],
                "yes" if form.get("teams") == "yes" else "no",
            ),
            (
                "Partners sit opposite: your partner is Computer 2; choose its level below."
                if computer
                else "Partners sit opposite: Players 1 and 3 against Players 2 and 4."
            )
            if form.get("teams") == "yes"
            else "Partners sit opposite and score together.",
            "setup-teams",
        )

    def player_fields(self, form: dict[str, Any]) -> Markup:
        """Return Partners, offered whenever four play."""
        return self._teams_field(form)

    def custom_fields(self, form: dict[str, Any]) -> Markup:
        """Return the extra fields of All Fives and Custom."""
        mode = form.get("mode")
        if mode == "fives":
            return join(
                [
                    self._game_field(form),
                    field(
                        "Play to",
                        select(
                            "setup-fives-target",
                            "fives_target",
                            [(str(t), f"{t} points") for t in FIVES_TARGETS],
                            str(self._fives_target(form)),
                        ),
                        fid="setup-fives-target",
                    ),
                ]
            )
        if mode != "custom":
            return Markup("")
        return join(
            [
                self._game_field(form),
                field(
                    "Play to",
                    select(
                        "setup-target",
                        "target",
                        [("none", "A single round"), ("50", "50 points"), ("100", "100 points")],
                        form.get("target", "100"),
                    ),
                    fid="setup-target",
                ),
                field(
                    "Tiles each",
                    select(
                        "setup-hand",
                        "hand_size",
                        [("auto", "Usual (7 for two, 5 for three or four)")]
                        + [(str(n), str(n)) for n in range(3, 8)],
                        form.get("hand_size", "auto"),
                    ),
                    "Four players with 7 each deal the whole set.",
                    "setup-hand",
                ),
            ]
        )

    @staticmethod
    def _fives_target(form: dict[str, Any]) -> int:
        try:
            target = int(form.get("fives_target", FIVES_TARGET))
        except (TypeError, ValueError):
            return FIVES_TARGET
        return target if target in FIVES_TARGETS else FIVES_TARGET

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the chosen mode (with its stats key and label) and the number of players.

        Four players may play as partners in every mode: the key then says so ("fives-teams-4",
        "match-4-100-teams"), so a partnership's stats are kept apart.
        """
        mode, players = self._mode_from_form(form)
        if players != 4 or form.get("teams") != "yes":
            return mode, players
        if mode.options.get("scoring") == "fives":
            key = mode.key.replace("fives-4", "fives-teams-4", 1)
            label = mode.label.replace("4 players", "partners, 2 against 2", 1)
        else:
            key, label = mode.key + "-teams", mode.label + ", partners 2 against 2"
        return Mode(key, label, {**mode.options, "teams": True}, mode.players, mode.note), players

    def _mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        legacy = LEGACY_MODES.get(str(form.get("mode")))
        if legacy is not None:  # a mode named with its players: the form says the two apart from now on
            form["mode"], form["players"] = legacy[0], str(legacy[1])
        modes = {m.key: m for m in self.modes()}
        mode = modes.get(str(form.get("mode", "classic")), modes["classic"])
        try:
            players = min(4, max(2, int(form.get("players", 2))))
        except (TypeError, ValueError):
            players = 2
        match = next((m for m in MATCHES if m[0] == mode.key), None)
        if match is not None:  # the keys and labels of the modes that once named their players
            _, _, points, drawing = match
            key = f"match-{players}-{points}" if drawing else f"block-{players}"
            label = f"{players} players, " + (f"to {points}" if drawing else "block (no drawing)")
            return Mode(key, label, mode.options, None, mode.note), players
        if mode.key == "fives":
            fives_target = self._fives_target(form)
            draw = form.get("draw", "draw") != "block"
            key = (
                f"fives-{players}"
                + ("" if fives_target == FIVES_TARGET else f"-{fives_target}")
                + ("" if draw else "-block")
            )
            label = f"All Fives, {players} players, to {fives_target}" + ("" if draw else ", block game")
            return Mode(
                key, label, {"scoring": "fives", "draw": draw, "target": fives_target}, None, mode.note
            ), players
        if mode.key == "classic":
            return Mode(
                f"classic-{players}", f"Classic, {players} players", mode.options, None, mode.note
            ), players
        draw = form.get("draw", "draw") != "block"
        target = None if form.get("target", "100") == "none" else int(form.get("target", "100"))
        hand = form.get("hand_size", "auto")
        hand_size = None if hand == "auto" else int(hand)
        if hand_size is not None and hand_size * players > 28:
            hand_size = 28 // players
        parts = [
            f"{players} players",
            "draw game" if draw else "block game",
            "single round" if target is None else f"to {target}",
        ]
        if hand_size is not None:
            parts.append(f"{hand_size} tiles each")
        key = f"custom-{players}-{'draw' if draw else 'block'}-{target or 'round'}-{hand_size or 'std'}"
        return Mode(
            key,
            "Custom: " + ", ".join(parts),
            {"draw": draw, "target": target, "hand_size": hand_size},
            None,
            mode.note,
        ), players

    # -- play ------------------------------------------------------------------------------------------
    def paused(self, ctx: TableContext) -> bool:
        """Tell whether play waits for the player: a finished hand of a match stays until Next hand."""
        state = ctx.session.state
        if state.is_over():
            return False
        results = state.view(ctx.session.viewer())["hand_results"]
        return len(results) > self._seen(ctx, len(results))

    def on_refused(self, ctx: TableContext, message: str) -> bool:
        """Show a refused move's reason in the message line (the kit fades it) instead of a toast."""
        kit.refuse(ctx, message)
        return True

    @staticmethod
    def _seen(ctx: TableContext, results: int) -> int:
        # A take-back may have undone a finished hand that was seen: count no more than there are.
        return min(int(ctx.session.extra.get("seen_hands", 0)), results)

    # -- render ------------------------------------------------------------------------------------------
    def render(self, ctx: TableContext) -> Markup:
        """Return the whole table for the seat whose eyes it is drawn for (``ui.frame``)."""
        return frame.render(ctx, self)

    def table_parts(self, ctx: TableContext, facts: kit.TableFacts) -> frame.TableParts:
        """Return the table's pieces: the line, the seats, the tray, the message, a summary over the board."""
        if facts.review:
            return self.review_parts(ctx, facts)
        seat, names, view = facts.viewer, list(facts.names), dict(facts.view)
        results = view["hand_results"]
        pending, hidden, my_turn = facts.paused, facts.hidden, facts.mine
        face_up: list[list[list[int]]] | None = None
        if view["over"] or pending:
            line_view = self.finished_line(ctx, view) if pending else view
            if results and not self.ended_mid_hand(view):
                face_up = results[-1]["hands"]
        else:
            line_view = view
        panel: Markup | str = ""
        if view["over"]:
            panel = self.game_over(ctx, view, names)
        elif pending:
            panel = self.hand_over(ctx, view, names, results[-1])
        beats = self.beats(line_view["history"])
        seats_ = kit.seats(
            self.seat_views(
                ctx,
                view,
                names,
                seat,
                beats,
                face_up if ctx.ui.kit.face_up else None,
                live=not pending and not view["over"],
                scored=face_up,
            ),
            seat,
        )
        gate_markup: Markup | str = ""
        if facts.gate:
            who = view["turn"]
            gate_markup = kit.privacy_gate(names[who], kit.since_last_turn(beats, who, names))
        return frame.TableParts(
            board=self.board(ctx, line_view, interactive=my_turn, since=self.since_index(line_view, seat)),
            tray=self.tray(ctx, view, names, seat, hidden, my_turn, face_up, pending),
            status=self.status_text(ctx, view, names, hidden, pending),
            seats=seats_,
            results=panel,
            gate=gate_markup,
            board_extra=self.board_bar(ctx, view, names, pending),
            cls="dom-table" + (" is-my-turn" if my_turn else ""),
            data={
                "turn": view["turn"] if view["turn"] is not None else "over",
                "partner": view.get("partner"),
            },
        )

    def review_parts(self, ctx: TableContext, facts: kit.TableFacts) -> frame.TableParts:
        """Return the table as it was after the review's move, every hand face up, with the review's controls."""
        seat, names, state, view = facts.viewer, list(facts.names), facts.state, dict(facts.view)
        hands = [state.view(s)["hand"] for s in range(view["players"])]
        beats = self.beats(view["history"])
        caption = kit.review_caption(beats, names)
        panel = kit.review_panel(ctx, int(facts.step or 0), caption)
        tray = kit.tray(
            self.hand_tiles(ctx, hands[seat], set(), False),
            [],
            label="Your tiles" if names[seat] == "You" else f"{names[seat]}'s tiles",
            info=f"Hand {view['hand_number']}",
        )
        return frame.TableParts(
            board=self.board(ctx, view, interactive=False, since=None),
            tray=tray,
            status=f"Review · {caption}.",
            # Not live: nobody is "thinking" in a game being looked back on.
            seats=kit.seats(self.seat_views(ctx, view, names, seat, beats, hands, live=False), seat),
            results=panel,
            board_extra=self.board_bar(ctx, view, names, False),
            cls="dom-table is-review",
            data={"turn": "review"},
        )

    def finished_line(self, ctx: TableContext, view: dict[str, Any]) -> dict[str, Any]:
        """Return the line and history of the hand that just ended (the state has dealt the next one).

        Found by taking back the hand's last move on a copy and laying it again by hand; ``after_render``
        keeps it with the save, so a reload still shows the finished hand (a render writes nothing).
        """
        session = ctx.session
        result = view["hand_results"][-1]
        hand = result["hand"]
        # The hand's last move: the engine's result says it where it can (a guest's table never saw it).
        last = result.get("last") if isinstance(result.get("last"), dict) else {}
        final = str(last.get("move") or (session.moves[-1] if session.moves else ""))
        viewer = session.viewer()
        kept = session.extra.get("finished")
        if isinstance(kept, dict) and kept.get("hand") == hand:
            return kept
        line: list[dict[str, Any]] = []
        history: list[dict[str, Any]] = []
        trial = session.state.clone()
        if is_fives(view) and trial.can_undo():
            return self.finished_fives(trial, final, hand, viewer)
        if trial.can_undo():
            trial.undo()
            before = trial.view(viewer)
            line = [dict(t) for t in before["line"]]
            history = list(before["history"])
            move = final
            seat_ = trial.current_player()
            if ":" in move or (move not in ("draw", "pass", "") and not line):
                text, _, end = move.partition(":")
                a, b = (int(x) for x in text.split("-"))
                ends = before["open_ends"]
                if not line or ends is None:
                    line = [{"tile": [a, b], "double": a == b}]
                    history.append({"seat": seat_, "move": move, "tile": [a, b], "end": None})
                elif end == "L":
                    near = ends[0]
                    other = b if a == near else a
                    line.insert(0, {"tile": [other, near], "double": a == b})
                    history.append({"seat": seat_, "move": move, "tile": [a, b], "end": "L"})
                else:
                    near = ends[1]
                    other = b if a == near else a
                    line.append({"tile": [near, other], "double": a == b})
                    history.append({"seat": seat_, "move": move, "tile": [a, b], "end": "R"})
            elif move:
                history.append({"seat": seat_, "move": move})
        return {"hand": hand, "line": line, "history": history, "open_ends": None, "stock": 0}

    @staticmethod
    def finished_fives(trial: Any, move: str, hand: int, viewer: int = 0) -> dict[str, Any]:
        """Return the layout and history of an All Fives hand that just ended (``trial``: a copy of the
        state, whose last move ended the hand), laying that move again by hand on the layout before it."""
        trial.undo()
        before = trial.view(viewer)
        seat = trial.current_player()
        line = [dict(t) for t in before["line"]]
        layout = before["layout"] or {"spinner": None, "north": [], "south": []}
        spinner = layout["spinner"]
        north = [dict(t) for t in layout["north"]]
        south = [dict(t) for t in layout["south"]]
        history = list(before["history"])
        if move in ("draw", "pass", ""):
            if move:
                history.append({"seat": seat, "move": move})
        else:
            text, _, end = move.partition(":")
            a, b = (int(x) for x in text.split("-"))
            double = a == b
            if not line:
                line = [{"tile": [a, b], "double": double}]
                spinner = 0 if double else None
                end = ""
            elif end in ("N", "S"):
                arm = north if end == "N" else south
                inner = arm[-1]["tile"][1] if arm else line[spinner]["tile"][0]
                arm.append({"tile": [inner, b if a == inner else a], "double": double})
            elif end == "L":
                near = line[0]["tile"][0]
                line.insert(0, {"tile": [b if a == near else a, near], "double": double})
                if spinner is not None:
                    spinner += 1
                elif double:
                    spinner = 0
            else:
                end = "R"
                near = line[-1]["tile"][1]
                line.append({"tile": [near, b if a == near else a], "double": double})
                if spinner is None and double:
                    spinner = len(line) - 1
            count = layout_count(line, spinner, north, south)
            history.append(
                {
                    "seat": seat,
                    "move": move,
                    "tile": [a, b],
                    "end": end or None,
                    "count": count,
                    "points": count if count % 5 == 0 else 0,
                }
            )
        ends = dict.fromkeys(ARMS)
        return {
            "hand": hand,
            "line": line,
            "history": history,
            "open_ends": None,
            "stock": 0,
            "options": before["options"],
            "hand_number": before["hand_number"],
            "legal_moves": [],
            "layout": {"spinner": spinner, "north": north, "south": south, "ends": ends, "open": False},
            "count": layout_count(line, spinner, north, south),
        }

    def beats(self, history: list[dict[str, Any]]) -> list[kit.Beat]:
        """Return the hand's public actions in words, a computer's run of draws as one beat."""
        out = []
        for event in history:
            move = event["move"]
            if move == "draw":
                out.append(kit.Beat(event["seat"], "drew 1", "draw"))
            elif move == "pass":
                out.append(kit.Beat(event["seat"], "passed", "pass"))
            else:
                out.append(kit.Beat(event["seat"], f"laid {tile_text(event['tile'])}", "lay"))
        return kit.merge_beats(out)

    def seat_views(
        self,
        ctx: TableContext,
        view: dict[str, Any],
        names: list[str],
        me: int,
        beats: list[kit.Beat],
        face_up: list[Any] | None,
        live: bool = True,
        scored: list[Any] | None = None,
    ) -> list[kit.SeatView]:
        """Return every seat as the kit shows it (``live``: play goes on, so the seat to move is marked;
        ``scored``: the hands of the hand just scored, whose counts the seats keep until Next hand)."""
        session = ctx.session
        last = kit.last_beats(beats)
        short = self.short_names(ctx, names)
        history = view["history"]
        drawer = history[-1]["seat"] if live and history and history[-1]["move"] == "draw" else None
        out = []
        for seat in range(view["players"]):
            player = session.seats[seat]
            held = face_up if face_up is not None else scored  # the state has dealt the next hand already
            count = view["hand_counts"][seat] if held is None else len(held[seat])
            shown = None
            if face_up is not None:
                shown = h(
                    "span",
                    {"class_": "dom-face-up"},
                    [standalone_tile(a, b, vertical=True, scale=13) for a, b in face_up[seat]],
                )
            level = LEVEL_LABELS.get(player.level or "", "") if player.is_computer else ""
            if view.get("partner") is not None and seat == view["partner"]:
                level = f"Partner · {level}" if level else "Partner"
            out.append(
                kit.SeatView(
                    seat=seat,
                    name=short[seat],
                    level=level,
                    count=count,
                    score=view["scores"][seat] if view["scores"] is not None else None,
                    last=last.get(seat, ""),
                    to_move=live and view["turn"] == seat,
                    thinking=live and view["turn"] == seat and player.is_computer,
                    local=seat == me,
                    face_up=shown,
                    arrived="#dom-stock" if seat == drawer and seat != me else "",
                    playing=scored is None and not view["over"],  # not at a hand's summary or the end
                )
            )
        return out

    def short_names(self, ctx: TableContext, names: list[str]) -> list[str]:
        """Return the names without a computer's level ("Computer 1"), for the seats and the scoreboard."""
        out = []
        for name, seat in zip(names, ctx.session.seats):
            label = LEVEL_LABELS.get(seat.level or "", "")
            out.append(name.replace(f" ({label})", "") if seat.is_computer and label else name)
        return out

    def since_index(self, view: dict[str, Any], seat: int) -> int:
        """Return the number of this hand's lays before the seat's last action (later lays are highlighted)."""
        lays = 0
        since = 0
        for event in view["history"]:
            if event["seat"] == seat:
                since = lays + (0 if event["move"] in ("draw", "pass") else 1)
            if event["move"] not in ("draw", "pass"):
                lays += 1
        return since

    def status_text(
        self, ctx: TableContext, view: dict[str, Any], names: list[str], hidden: bool, pending: bool = False
    ) -> str:
        """Return the message line's words."""
        if view["over"]:
            return self.result_title(ctx, view, names)
        if pending:
            result = view["hand_results"][-1]
            return f"Hand {result['hand']} is over. {self.hand_reason(view, names, result)}"
        turn = view["turn"]
        seat = ctx.session.seats[turn]
        if seat.is_computer:
            return f"{names[turn]} is thinking…"
        if hidden or seat.kind == "guest":
            return f"{names[turn]}'s turn."
        local = len(ctx.session.human_seats) == 1
        who = "Your" if local else f"{names[turn]}'s"
        legal = view["legal_moves"]
        selected = state_of(ctx).selected
        if selected and has_spinner(view):
            arms = [m.split(":")[1] for m in legal if ":" in m and m.split(":")[0] == selected]
            ends = view["layout"]["ends"]
            choices = [f"the {END_NAMES[a]} ({ends[a]})" for a in ARMS if a in arms]
            how_many = "two ends" if len(choices) == 2 else f"{len(choices)} ends"
            values = sorted({ends[a] for a in arms})
            where = (
                f"either end showing {values[0]}"
                if len(values) == 1
                else f"the end showing {or_list([str(v) for v in values])}"
            )
            return f"{selected} fits {how_many}: tap {where}."
        if selected and view["open_ends"]:
            left, right = view["open_ends"]
            return f"{selected} fits both ends: tap the left ({left}) or the right ({right}) end."
        if view["opening"]:
            if len(legal) == 1:
                return f"{who} turn: open the hand with {legal[0]}."
            if view["hand_results"] and view["hand_results"][-1]["winner"] == turn:
                return f"{who} turn: you won the last hand, so open with any tile."
            return f"{who} turn: open the hand with any tile."
        if any(m not in ("draw", "pass") for m in legal) and is_fives(view):
            return f"{who} turn: lay a tile that matches {or_list(open_numbers(view))}."
        if any(m not in ("draw", "pass") for m in legal):
            left, right = view["open_ends"]
            ends = f"matches {left}" if left == right else f"matches {left} or {right}"
            return f"{who} turn: lay a tile that {ends}."
        if "draw" in legal:
            return f"{who} turn: nothing fits. Draw from the stock."
        return f"{who} turn: nothing fits and the stock is empty. Pass."

    # -- the board ---------------------------------------------------------------------------------------
    def fit(
        self, ctx: TableContext, line: list[tuple[int, int, bool]], opening: int
    ) -> tuple[float, list[Any]]:
        """Return the unit (px a half) and the layout that make the line as large as the board allows."""
        width = max(200, ctx.board_width - 12)
        height = max(140, ctx.board_height - 56)  # the stock and the score sit in a band at the top
        top = min(64.0, max(18.0, height / 3.2))
        unit = top
        while True:
            reach = reach_for_width(width, unit)
            placed = layout_line(line, opening, reach)
            _l, _t, w, hh = bounds(placed + end_markers_as_tiles(placed), margin=0.3)
            if (w * unit <= width and hh * unit <= height) or unit <= 12:
                return unit, placed
            unit -= 2.0

    def board(
        self, ctx: TableContext, view: dict[str, Any], *, interactive: bool, since: int | None
    ) -> Markup:
        """Return the line of play as SVG, bent to fit the board, with its two open ends marked."""
        line = [(t["tile"][0], t["tile"][1], t["double"]) for t in view["line"]]
        if not line:
            text = (
                "The table is empty: the hand opens with the highest double."
                if not view.get("hand_results")
                else "The table is empty: a new hand opens."
            )
            return h("p", {"class_": "dom-empty"}, text)
        if has_spinner(view):
            return self.fives_board(ctx, view, interactive=interactive, since=since)
        order = self.lay_order(view["history"], len(line))
        opening = order.index(0) if 0 in order else 0
        unit, placed = self.fit(ctx, line, opening)
        scale = 40.0
        markers = end_markers(placed)
        left, top, width, height = bounds(placed + end_markers_as_tiles(placed), margin=0.3)
        latest = max(order) if order else -1
        lays = [e for e in view["history"] if e["move"] not in ("draw", "pass")]
        layer = lays[-1]["seat"] if lays and since is not None else None
        origin = None
        if layer is not None:
            mine = layer == ctx.session.viewer() and not ctx.session.seats[layer].is_computer
            origin = "pick" if mine else f'.kit-seat[data-seat="{layer}"]'
        tiles = []
        for tile in placed:
            cls = []
            lay = order[tile.index] if tile.index < len(order) else -1
            if since is not None and lay >= since:
                cls.append("fresh")
            if lay == latest:
                cls.append("latest")
            props = {
                "data_kit_from": origin if lay == latest and origin else None,
                "data_key": tile_text((tile.halves[0][2], tile.halves[1][2])),
            }
            tiles.append(tile_svg(tile.x, tile.y, tile.w, tile.h, tile.halves, scale, " ".join(cls), props))
        label = "Line of play: " + ", ".join(tile_text((t["tile"][0], t["tile"][1])) for t in view["line"])
        px_w, px_h = width * unit, height * unit
        svg = board_svg("dom-line", (left, top, width, height), scale, px_w, px_h, label, tiles)
        ends = view.get("open_ends")
        selected = state_of(ctx).selected if interactive else None
        buttons = []
        if ends is not None:
            for end, at, value in zip(("L", "R"), markers, ends):
                buttons.append(
                    end_marker(end, value, at, (left, top, width, height), selected, target=bool(selected))
                )
        pop: Markup | str = ""
        if is_fives(view):
            latest_tile = next((t for t in placed if order[t.index] == latest), None) if latest >= 0 else None
            pop = self.points_pop(ctx, view, latest_tile, left, top, width, height, list(markers))
        return board_stage("dom-stage", px_w, px_h, unit, svg, buttons, pop)

    def points_pop(
        self,
        ctx: TableContext,
        view: dict[str, Any],
        tile: PlacedTile | None,
        left: float,
        top: float,
        width: float,
        height: float,
        markers: list[tuple[float, float]] | None = None,
    ) -> Markup | str:
        """Return the "+15" at a corner of the tile that just scored, the corner farthest from the open
        ends' markers: it pops once after the lay (held still, and left in place, with animations off);
        a redraw without a new lay does not pop it again."""
        lays = [e for e in view["history"] if e["move"] not in ("draw", "pass")]
        if tile is None or not lays or not lays[-1].get("points"):
            return ""
        points = lays[-1]["points"]
        key = f"{view['hand_number']}:{len(lays)}"
        if ctx.animations and state_of(ctx).popped == key:
            return ""  # it popped at the render before (``after_render`` noted it)
        corners = [(tile.x + dx * tile.w / 2, tile.y + dy * tile.h / 2) for dy in (-1, 1) for dx in (1, -1)]
        if markers:
            corners.sort(key=lambda c: -min(abs(c[0] - mx) + abs(c[1] - my) for mx, my in markers))
        cx, cy = corners[0]
        style = (
            f"left: {_n((cx - left) / width * 100)}%; "
            f"top: {_n((cy - top) / height * 100)}%; "
            f"--dom-pop-ms: {POP_MS.get(ctx.settings.speed, 1200)}ms"
        )
        return h(
            "span",
            {
                "class_": "dom-points",
                "id": "dom-points",
                "data_key": key,
                "style": style,
                "aria_hidden": "true",
            },
            f"+{points}",
        )

    @staticmethod
    def fives_order(
        history: list[dict[str, Any]], length: int, north: int, south: int
    ) -> dict[tuple[str, int], int]:
        """Return, for each tile of an All Fives layout (keyed as ``layout_fives`` keys it), the how-manieth
        lay of the hand put it there; empty when the history does not tell (no highlights)."""
        line: list[int] = []
        arms: dict[str, list[int]] = {"N": [], "S": []}
        count = 0
        for event in history:
            if event["move"] in ("draw", "pass"):
                continue
            end = event.get("end")
            if end == "L":
                line.insert(0, count)
            elif end in arms:
                arms[end].append(count)
            else:
                line.append(count)
            count += 1
        if len(line) != length or len(arms["N"]) != north or len(arms["S"]) != south:
            return {}
        out = {("line", i): c for i, c in enumerate(line)}
        out.update({(arm, i): c for arm, values in arms.items() for i, c in enumerate(values)})
        return out

    def fit_fives(
        self, ctx: TableContext, view: dict[str, Any]
    ) -> tuple[float, dict[tuple[str, int], PlacedTile], dict[str, tuple[float, float]]]:
        """Return the unit, the placed tiles and the open arms' markers that fit the cross on the board."""
        layout = view["layout"]
        line = [(t["tile"][0], t["tile"][1], t["double"]) for t in view["line"]]
        north = [(t["tile"][0], t["tile"][1], t["double"]) for t in layout["north"]]
        south = [(t["tile"][0], t["tile"][1], t["double"]) for t in layout["south"]]
        spinner = layout["spinner"]
        ends = layout.get("ends") or {}
        width = max(200, ctx.board_width - 12)
        height = max(140, ctx.board_height - 56)
        unit = min(64.0, max(18.0, height / 3.2))
        # The largest unit that fits, unless a smaller one (down to 0.6 of it, never below 22 px) bends fewer tiles
        # out of their arm's straight line: arms stay straight while the board has room for them.
        best: tuple[int, float, dict[tuple[str, int], PlacedTile], dict[str, tuple[float, float]]] | None = (
            None
        )
        first = 0.0
        while True:
            reach_x = reach_for_width(width, unit)
            reach_y = reach_for_width(height, unit)
            placed = layout_fives(line, spinner, north, south, reach_x, reach_y)
            chains = arm_chains(placed, spinner, len(line))
            markers = {arm: arm_marker(chains[arm], arm) for arm in ARMS if ends.get(arm) is not None}
            _l, _t, w, hh = bounds(list(placed.values()) + marker_boxes(list(markers.values())), margin=0.3)
            if (w * unit <= width and hh * unit <= height) or unit <= 10:
                bent = sum(
                    1
                    for arm, chain in chains.items()
                    for t in chain[1:]
                    if (abs(t.y) > 0.01 if arm in ("L", "R") else abs(t.x) > 0.01)
                )
                if best is None or bent < best[0]:
                    best = (bent, unit, placed, markers)
                first = first or unit
                if bent == 0 or unit <= 10 or unit - 1.0 < max(first * 0.6, 22.0):
                    return best[1], best[2], best[3]
            unit -= 1.0

    def fives_board(
        self, ctx: TableContext, view: dict[str, Any], *, interactive: bool, since: int | None
    ) -> Markup:
        """Return an All Fives layout: the spinner crosswise at the centre, its arms bent to fit the board,
        every open arm's end marked (buttons for the arms a selected tile fits)."""
        layout = view["layout"]
        unit, placed, markers = self.fit_fives(ctx, view)
        order = self.fives_order(
            view["history"], len(view["line"]), len(layout["north"]), len(layout["south"])
        )
        scale = 40.0
        left, top, width, height = bounds(
            list(placed.values()) + marker_boxes(list(markers.values())), margin=0.3
        )
        latest = max(order.values()) if order else -1
        lays = [e for e in view["history"] if e["move"] not in ("draw", "pass")]
        layer = lays[-1]["seat"] if lays and since is not None else None
        origin = None
        if layer is not None:
            mine = layer == ctx.session.viewer() and not ctx.session.seats[layer].is_computer
            origin = "pick" if mine else f'.kit-seat[data-seat="{layer}"]'
        tiles = []
        latest_tile = None
        for key, tile in placed.items():
            cls = []
            lay = order.get(key, -1)
            if since is not None and lay >= since:
                cls.append("fresh")
            if lay == latest and latest >= 0:
                cls.append("latest")
                latest_tile = tile
            if key == ("line", layout["spinner"]):
                cls.append("spinner")
            props = {
                "data_kit_from": origin if lay == latest and latest >= 0 and origin else None,
                "data_key": tile_text((tile.halves[0][2], tile.halves[1][2])),
            }
            tiles.append(tile_svg(tile.x, tile.y, tile.w, tile.h, tile.halves, scale, " ".join(cls), props))

        def texts(tiles_: list[dict[str, Any]]) -> str:
            return ", ".join(tile_text(t["tile"]) for t in tiles_) or "none"

        label = (
            f"Layout, spinner {tile_text(view['line'][layout['spinner']]['tile'])}: "
            f"left arm {texts(view['line'][: layout['spinner']][::-1])}; "
            f"right arm {texts(view['line'][layout['spinner'] + 1 :])}"
        )
        if layout["open"]:
            label += f"; top arm {texts(layout['north'])}; bottom arm {texts(layout['south'])}"
        px_w, px_h = width * unit, height * unit
        svg = board_svg("dom-line dom-cross", (left, top, width, height), scale, px_w, px_h, label, tiles)
        selected = state_of(ctx).selected if interactive else None
        targets = (
            {m.split(":")[1] for m in view["legal_moves"] if ":" in m and m.split(":")[0] == selected}
            if selected
            else set()
        )
        buttons = []
        for arm in ARMS:
            if arm not in markers:
                continue
            box = (left, top, width, height)
            buttons.append(
                end_marker(
                    arm,
                    layout["ends"][arm],
                    markers[arm],
                    box,
                    selected,
                    target=arm in targets,
                    off=bool(selected),
                )
            )
        pop = self.points_pop(ctx, view, latest_tile, left, top, width, height, list(markers.values()))
        return board_stage("dom-stage is-cross", px_w, px_h, unit, svg, buttons, pop)

    @staticmethod
    def lay_order(history: list[dict[str, Any]], length: int) -> list[int]:
        """Return, for each line position from the left, the how-manieth lay of the hand put it there."""
        order: list[int] = []
        count = 0
        for event in history:
            if event["move"] in ("draw", "pass"):
                continue
            if event.get("end") == "L":
                order.insert(0, count)
            else:
                order.append(count)
            count += 1
        if len(order) != length:  # a history that does not tell (an old save): no highlights
            return [-1] * length
        return order

    def board_bar(self, ctx: TableContext, view: dict[str, Any], names: list[str], pending: bool) -> Markup:
        """Return the band over the board: the stock as a pile with its count, and a match's scoreboard."""
        parts = []
        if view["options"]["draw"]:
            stock = 0 if pending else view["stock"]
            parts.append(
                h(
                    "div",
                    {
                        "class_": "dom-stock",
                        "id": "dom-stock",
                        "role": "img",
                        "aria_label": f"Stock: {plural(stock, 'tile')}",
                    },
                    h(
                        "span",
                        {"class_": "dom-pile", "aria_hidden": "true"},
                        [h("i", {}) for _ in range(min(3, stock))],
                    ),
                    h("span", {"class_": "dom-stock-count"}, stock),
                    h("span", {"class_": "dom-stock-word"}, "in stock"),
                )
            )
        else:
            parts.append(
                h("div", {"class_": "dom-stock is-block", "id": "dom-stock"}, "Block game: no stock")
            )
        if is_fives(view):
            parts.append(self.count_chip(ctx, view, names, pending))
        if view["target"] is not None and (is_fives(view) or view.get("sides")):
            labels, totals, history = self.score_rows(ctx, view, names)
            parts.append(kit.scoreboard(labels, totals, view["target"], history, open_=False))
        elif view["target"] is not None:
            history = [
                [r["points"] if r["winner"] == s else 0 for s in range(view["players"])]
                for r in view["hand_results"]
            ]
            short = self.short_names(ctx, names)
            parts.append(kit.scoreboard(short, view["scores"], view["target"], history, open_=False))
        return h("div", {"class_": "kit-board-bar"}, parts)

    def side_names(self, ctx: TableContext, names: list[str], brief: bool = False) -> list[str]:
        """Return each side's name in a partnership game: "You & Computer 2", "Computer 1 & Computer 3";
        ``brief`` (the scoreboard, the count) names the sides "You & partner" and "Opponents" when one
        person plays against computers."""
        short = self.short_names(ctx, names)
        if brief and "You" in short:
            ours = short.index("You") % 2
            return ["You & partner", "Opponents"] if ours == 0 else ["Opponents", "You & partner"]
        return [f"{short[0]} & {short[2]}", f"{short[1]} & {short[3]}"]

    def score_rows(
        self, ctx: TableContext, view: dict[str, Any], names: list[str]
    ) -> tuple[list[str], list[int], list[list[int]]]:
        """Return the scoreboard's names, totals and hand-by-hand points (by side in a partnership game).

        Each hand's row is what the scores gained in it: in All Fives the counts laid and the hand's end;
        a match that ended in the middle of a hand has that hand's row too.
        """
        seats = [0, 1] if view.get("sides") else list(range(view["players"]))
        labels = (
            self.side_names(ctx, names, brief=True) if view.get("sides") else self.short_names(ctx, names)
        )
        totals = [view["scores"][s] for s in seats]
        history: list[list[int]] = []
        before = [0] * view["players"]
        for result in view["hand_results"]:
            history.append([result["scores"][s] - before[s] for s in seats])
            before = result["scores"]
        if view["over"] and list(before) != list(view["scores"]):
            history.append([view["scores"][s] - before[s] for s in seats])
        return labels, totals, history

    def count_chip(self, ctx: TableContext, view: dict[str, Any], names: list[str], pending: bool) -> Markup:
        """Return the count of the layout ("Count 15"), with who scored by the last lay ("You +15")."""
        if pending:
            kept = self.finished_line(ctx, view)
            layout = kept.get("layout") or {}
            count = layout_count(
                kept["line"], layout.get("spinner"), layout.get("north", []), layout.get("south", [])
            )
            history = kept["history"]
        else:
            count = view["count"] or 0
            history = view["history"]
        lays = [e for e in history if e["move"] not in ("draw", "pass")]
        said = ""
        scored: Markup | str = ""
        if lays and lays[-1].get("points"):
            last = lays[-1]
            who = self.short_names(ctx, names)[last["seat"]]
            if view.get("sides"):
                who = self.side_names(ctx, names, brief=True)[last["seat"] % 2]
            said = f"{who} +{last['points']}"
            scored = h(
                "span",
                {"class_": "dom-count-scored"},
                h("span", {"class_": "dom-count-who"}, who),
                f" +{last['points']}",
            )
        scoring = count > 0 and count % 5 == 0
        return h(
            "div",
            {
                "class_": "dom-count" + (" is-scoring" if scoring else ""),
                "id": "dom-count",
                "role": "status",
                "aria_label": f"Count {count}" + (f"; {said}" if said else ""),
            },
            h("span", {"class_": "dom-count-word"}, "Count"),
            h("b", {"class_": "dom-count-value"}, count),
            scored,
        )

    # -- the tray -----------------------------------------------------------------------------------------
    def hand_tiles(
        self,
        ctx: TableContext,
        hand: list[Any],
        playable: set[str],
        my_turn: bool,
        arrived: set[str] | None = None,
    ) -> Markup:
        """Return the hand's tiles as buttons (large enough to read and tap); ``arrived`` came from the stock."""
        selected = state_of(ctx).selected
        buttons = []
        for tile in hand:
            text = tile_text(tile)
            fits = text in playable
            cls = ["dom-hand-tile"]
            if my_turn and ctx.settings.suggestions:
                cls.append("is-playable" if fits else "is-dim")
            if text == selected:
                cls.append("is-selected")
            if kit.shake(ctx, text):
                cls.append("kit-shake")
            label = f"Tile {text}" + (", playable" if my_turn and ctx.settings.suggestions and fits else "")
            buttons.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": " ".join(cls),
                        "data_action": "tile",
                        "data_value": text,
                        "id": f"tile-{text}",
                        "aria_label": label,
                        "aria_pressed": "true" if text == selected else "false",
                        "disabled": not my_turn,
                        "data_kit_from": "#dom-stock" if arrived and text in arrived else None,
                    },
                    standalone_tile(tile[0], tile[1], scale=52),
                )
            )
        return kit.rack(buttons, len(hand), "dom-hand")

    def tray(
        self,
        ctx: TableContext,
        view: dict[str, Any],
        names: list[str],
        seat: int,
        hidden: bool,
        my_turn: bool,
        face_up: list[Any] | None,
        pending: bool = False,
    ) -> Markup:
        """Return the hand tray: your tiles, pips and score, Draw, Pass and Take back."""
        session = ctx.session
        legal = view["legal_moves"] if my_turn else []
        playable = {m.split(":")[0] for m in legal if m not in ("draw", "pass")}
        owner = "Your tiles" if names[seat] == "You" else f"{names[seat]}'s tiles"
        hand = view["hand"] if face_up is None else face_up[seat]
        pips = sum(a + b for a, b in hand)
        info = "" if hidden else plural(pips, "pip")
        if view["scores"] is not None:
            info = (info + " · " if info else "") + plural(view["scores"][seat], "point")
        buttons = []
        if view["options"]["draw"]:
            draw_on = "draw" in legal
            buttons.append(
                kit.button(
                    "draw", "Draw", enabled=draw_on, primary=draw_on, key="D", title="Draw from the stock"
                )
            )
        pass_on = "pass" in legal
        buttons.append(kit.button("pass", "Pass", enabled=pass_on, primary=pass_on, key="P"))
        buttons.append(kit.take_back_button(session, enabled=not view["over"] and not pending))
        hidden_text = ""
        if hidden:
            turn = view["turn"]
            hidden_text = (
                f"{names[turn]}'s tiles are hidden."
                if turn is not None and not session.seats[turn].is_computer
                else "Tiles are hidden between turns."
            )
        texts = [tile_text(t) for t in hand]
        seen = state_of(ctx).hand_seen
        history = view["history"]
        drew = bool(history) and history[-1]["move"] == "draw" and history[-1]["seat"] == seat
        arrived = set(texts) - set(seen) if drew and seen is not None and not hidden else set()
        return kit.tray(
            self.hand_tiles(ctx, hand, playable, my_turn, arrived),
            buttons,
            label=owner,
            info=info,
            my_turn=my_turn,
            hidden=hidden_text,
        )

    # -- results ---------------------------------------------------------------------------------------
    def result_title(self, ctx: TableContext, view: dict[str, Any], names: list[str]) -> str:
        """Return who won the game, in words."""
        outcome = view["outcome"] or {}
        winners = outcome.get("winners", [])
        if outcome.get("side") and len(winners) == 2:
            side = self.side_names(ctx, names)[winners[0] % 2]
            return "You win!" if "You" in (names[w] for w in winners) else f"{side} win."
        if len(winners) != 1:
            tied = kit.describe_list([names[w] for w in winners])
            return f"A draw between {tied}." if tied else "A draw."
        winner = names[winners[0]]
        return "You win!" if winner == "You" else f"{winner} wins."

    def hand_table(self, view: dict[str, Any], names: list[str], result: dict[str, Any]) -> Markup:
        """Return a table of each seat's pips left, points for the hand, and total."""
        match = view["target"] is not None
        head = ["Player", "Pips left"] + (["Points", "Total"] if match else [])
        rows = []
        won = self.won_seats(view, result)
        for seat, name in enumerate(names):
            points = result["points"] if seat in won else 0
            cells = [h("th", {"scope": "row"}, name), h("td", {}, result["pips"][seat])]
            if match:
                cells += [h("td", {}, points), h("td", {}, result["scores"][seat])]
            left = result["hands"][seat] if seat < len(result["hands"]) else []
            cells.append(
                h(
                    "td",
                    {"class_": "left-tiles"},
                    [standalone_tile(a, b, vertical=False, scale=16, label=f"{a}-{b}") for a, b in left],
                )
            )
            rows.append(h("tr", {"class_": "is-winner" if seat in won else ""}, cells))
        return h(
            "table",
            {"class_": "stats-table dom-summary"},
            h(
                "thead",
                {},
                h(
                    "tr",
                    {},
                    [h("th", {"scope": "col"}, c) for c in head],
                    h("th", {"scope": "col", "class_": "left-tiles"}, "Tiles left"),  # hidden on a phone
                ),
            ),
            h("tbody", {}, rows),
        )

    @staticmethod
    def won_seats(view: dict[str, Any], result: dict[str, Any]) -> set[int]:
        """Return the seats that won a hand: its winner, and the winner's partner in a partnership game."""
        winner = result["winner"]
        if winner is None:
            return set()
        return {winner, (winner + 2) % 4} if view.get("sides") else {winner}

    def hand_reason(self, view: dict[str, Any], names: list[str], result: dict[str, Any]) -> str:
        """Return how a hand ended, in words."""
        winner = result["winner"]
        if result["ended"] == "out":
            who = names[winner]
            text = "You laid your last tile" if who == "You" else f"{who} laid their last tile"
        else:
            text = "The line is blocked: nobody can play"
            if winner is not None:
                who = names[winner]
                text += f"; {'you have' if who == 'You' else who + ' has'} the lowest pip total"
            else:
                text += "; a tie for the lowest pip total"
        if view["target"] is not None:
            if winner is not None and result["points"]:
                text += f", scoring {plural(result['points'], 'point')}"
                if view.get("sides"):
                    text += " for " + (
                        "your side" if "You" in (names[winner], names[(winner + 2) % 4]) else "their side"
                    )
                if is_fives(view):
                    text += " (the pips left, rounded to the nearest five)"
            elif winner is None:
                text += ", so nobody scores"
        return text + "."

    def hand_over(
        self, ctx: TableContext, view: dict[str, Any], names: list[str], result: dict[str, Any]
    ) -> Markup:
        """Return the summary of a finished hand of a match that goes on (the hand stays on the table)."""
        return frame.results_panel(
            ctx,
            self,
            f"Hand {result['hand']} is over.",
            join(
                [
                    h("p", {}, self.hand_reason(view, names, result)),
                    self.hand_table(view, self.short_names(ctx, names), result),
                    h("p", {"class_": "hint"}, f"First to {view['target']} points wins the match."),
                ]
            ),
            [
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-primary",
                        "data_action": "next-hand",
                        "id": "next-hand",
                        "autofocus": True,
                    },
                    "Next hand",
                )
            ],
            review=False,
            title_id="hand-title",
        )

    def game_over(self, ctx: TableContext, view: dict[str, Any], names: list[str]) -> Markup:
        """Return the end of the game: who won and why, the pips or the match score, what next."""
        result = view["hand_results"][-1] if view["hand_results"] else None
        mid_hand = self.ended_mid_hand(view)
        if mid_hand:
            result = None
        reason = self.hand_reason(view, names, result) if result else ""
        if mid_hand:
            reason = self.mid_hand_reason(ctx, view, names)
        if view["target"] is not None and (result is not None or mid_hand):
            top = max(view["scores"])  # the scores themselves are in the table below (Total)
            winners = view["outcome"]["winners"]
            if winners and len(winners) == 1:
                who = names[winners[0]]
                reason += (
                    f" You win the match with {top} points (first to {view['target']})."
                    if who == "You"
                    else f" {who} wins the match with {top} points (first to {view['target']})."
                )
            elif winners and view["outcome"].get("side"):
                ours = "You" in (names[w] for w in winners)
                who = "Your side wins" if ours else f"{self.side_names(ctx, names)[winners[0] % 2]} win"
                reason += f" {who} the match with {top} points (first to {view['target']})."
        session = ctx.session
        note = stats_note(session)
        return frame.results_panel(
            ctx,
            self,
            self.result_title(ctx, view, names),
            join(
                [
                    h("p", {}, reason),
                    self.hand_table(view, self.short_names(ctx, names), result) if result else "",
                    self.match_table(ctx, view, names) if mid_hand else "",
                ]
            ),
            [
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-primary",
                        "data_action": "play-again",
                        "data_value": "dominoes",
                        "id": "play-again",
                        "autofocus": True,
                    },
                    "Play again",
                ),
            ],
            note=note,
            review=session.move_count() > 0,
            more=[
                h("a", {"class_": "btn", "href": "#/setup/dominoes"}, "New game"),
                h("a", {"class_": "btn btn-ghost", "href": "#/"}, "Home"),
            ],
        )

    @staticmethod
    def ended_mid_hand(view: dict[str, Any]) -> bool:
        """Tell whether an All Fives match ended in the middle of a hand (a count reached the target)."""
        if not view["over"] or not is_fives(view) or view["target"] is None:
            return False
        results = view["hand_results"]
        return not results or list(results[-1]["scores"]) != list(view["scores"])

    def mid_hand_reason(self, ctx: TableContext, view: dict[str, Any], names: list[str]) -> str:
        """Return the lay that won an All Fives match in the middle of a hand, in words."""
        lays = [e for e in view["history"] if e["move"] not in ("draw", "pass")]
        if not lays:
            return "The target is reached."
        last = lays[-1]
        who = names[last["seat"]]
        did = "You laid" if who == "You" else f"{who} laid"
        return f"{did} {tile_text(last['tile'])}: the count is {last['count']}, scoring {last['points']}."

    def match_table(self, ctx: TableContext, view: dict[str, Any], names: list[str]) -> Markup:
        """Return the match hand by hand (a match that ended in the middle of a hand has no hand summary)."""
        labels, totals, history = self.score_rows(ctx, view, names)
        head = h("tr", {}, h("th", {"scope": "col"}, "Hand"), [h("th", {"scope": "col"}, n) for n in labels])
        rows = [
            h("tr", {}, h("th", {"scope": "row"}, i + 1), [h("td", {}, p) for p in row])
            for i, row in enumerate(history)
        ]
        rows.append(
            h(
                "tr",
                {"class_": "kit-score-total"},
                h("th", {"scope": "row"}, "Total"),
                [h("td", {}, t) for t in totals],
            )
        )
        return h("table", {"class_": "stats-table dom-summary"}, h("thead", {}, head), h("tbody", {}, rows))

    def after_render(self, ctx: TableContext) -> None:
        """Note what the table shows (the finished hand kept with the save, the points popped, the hand),
        and redraw when the board turns out another size than the line was bent for (in the page)."""
        self.note_shown(ctx)
        watcher = board_watcher()
        if watcher is not None:
            watcher.watch(ctx)

    def note_shown(self, ctx: TableContext) -> None:
        """Keep what the render just drew for the next one: it never writes while it draws."""
        session, ui = ctx.session, state_of(ctx)
        seat = session.viewer()
        view = session.state.view(seat)
        results = view["hand_results"]
        pending = not view["over"] and len(results) > self._seen(ctx, len(results))
        if pending:
            kept = session.extra.get("finished")
            if not (isinstance(kept, dict) and kept.get("hand") == results[-1]["hand"]):
                session.extra["finished"] = self.finished_line(ctx, view)
                ctx.emit(Save())
        shown = self.finished_line(ctx, view) if pending else view
        lays = [e for e in shown["history"] if e["move"] not in ("draw", "pass")]
        if is_fives(view) and lays and lays[-1].get("points"):
            ui.popped = f"{view['hand_number']}:{len(lays)}"
        face_up = (
            results[-1]["hands"]
            if (view["over"] or pending) and results and not self.ended_mid_hand(view)
            else None
        )
        ui.hand_seen = [tile_text(t) for t in (view["hand"] if face_up is None else face_up[seat])]

    def leave(self, ctx: TableContext) -> None:
        """Stop watching the board: the player left the table."""
        watcher = board_watcher()
        if watcher is not None:
            watcher.stop()

    # -- actions -------------------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> Intents | None:
        """Turn a click into a move (or a change of selection)."""
        session, ui = ctx.session, state_of(ctx)
        done = frame.handle(ctx, self, action, value, first=self.review_start(ctx))
        if done is not None:
            return done
        seat = session.viewer()
        view = session.state.view(seat)
        if action == "next-hand":
            session.extra["seen_hands"] = len(view["hand_results"])
            session.extra.pop("finished", None)
            ui.kit.face_up = ui.kit.folded = False
            return [Save(), Render()]
        if action == "deselect":
            ui.selected = None
            return [Render()]
        if action in ("draw", "pass"):
            ui.selected = None
            return [Play(action)]
        if action == "tile":
            return self.choose_tile(ctx, view, value)
        if action == "end":
            selected, ui.selected = ui.selected, None
            return [Play(f"{selected}:{value}")] if selected else []
        return None

    def review_start(self, ctx: TableContext) -> int:
        """Return the first move of the last hand (a match's review steps through its last hand)."""
        session = ctx.session
        view = session.state.view(session.viewer())
        if view["over"]:
            return max(0, session.move_count() - len(view["history"]))
        return 0

    def choose_tile(self, ctx: TableContext, view: dict[str, Any], tile: str) -> Intents:
        """Play a tile that fits one way; select one that fits both ends; refuse one that does not fit."""
        ui = state_of(ctx)
        moves = [m for m in view["legal_moves"] if m.split(":")[0] == tile]
        if not moves:
            ui.selected = None
            why = self.why_not(view, tile)
            kit.refuse(ctx, why, tile)
            return [Announce(why), Render()]
        if len(moves) == 1:
            ui.selected = None
            return [Play(moves[0])]
        if ui.selected == tile:
            ui.selected = None
            return [Render()]
        ui.selected = tile
        if len(moves) == 2 and all(m.endswith((":L", ":R")) for m in moves):
            said = f"{tile} fits both ends: choose the left or the right end."
        else:
            arms = [END_NAMES[m.split(":")[1]] for m in moves]
            said = f"{tile} fits {len(moves)} ends: choose the {or_list(arms)} end."
        return [Announce(said), Render()]

    @staticmethod
    def why_not(view: dict[str, Any], tile: str) -> str:
        """Return why ``tile`` cannot be played, in words."""
        if view["opening"]:
            return (
                f"{tile} cannot open this hand: {view['legal_moves'][0]} must be laid first."
                if len(view["legal_moves"]) == 1
                else f"{tile} cannot open."
            )
        if view["open_ends"] and has_spinner(view):
            numbers = open_numbers(view)
            shows = (
                f"every end shows {numbers[0]}" if len(numbers) == 1 else f"the ends show {or_list(numbers)}"
            )
            return f"{tile} does not fit: {shows.replace(' or ', ' and ')}."
        if view["open_ends"]:
            left, right = view["open_ends"]
            shows = f"both ends show {left}" if left == right else f"the ends show {left} and {right}"
            return f"{tile} does not fit: {shows}."
        return f"{tile} cannot be played now."

    def key_intents(self, ctx: TableContext, key: str) -> Intents | None:
        """Return what a key asks for: D draws, P passes, L/R (and Up/Down for the spinner's ends) choose
        the end, Escape cancels a selection; None when the table does not use it."""
        stepped = kit.review_key(ctx, key)  # the review's arrows step through the game
        if stepped is not None:
            return stepped
        lowered, selected = key.lower(), state_of(ctx).selected
        if lowered == "d" and "draw" in self._legal(ctx):
            return self.on_action(ctx, "draw", "")
        if lowered == "p" and "pass" in self._legal(ctx):
            return self.on_action(ctx, "pass", "")
        if lowered in ("l", "r", "arrowleft", "arrowright") and selected:
            return self.on_action(ctx, "end", "L" if lowered in ("l", "arrowleft") else "R")
        if lowered in ("arrowup", "arrowdown") and selected:
            arm = "N" if lowered == "arrowup" else "S"
            if f"{selected}:{arm}" not in self._legal(ctx):
                return None
            return self.on_action(ctx, "end", arm)
        if lowered == "escape" and selected:
            return self.on_action(ctx, "deselect", "")
        return None

    def _legal(self, ctx: TableContext) -> list[str]:
        """Return the moves the table takes now: none while the review is open, a hand is on show, the
        tiles are hidden, or another seat is to move."""
        return kit.table_facts(ctx, self).legal


SCREEN = DominoesScreen()
