"""The Triangles table screen, on the table kit (``ui.kit``): choose a tile, tap a marked spot, draw or
pass; pan and zoom the board.

Pure Python (markup and UI state only); the pointer, wheel and keyboard handling that needs the page
lives in ``ui.games.triangles_board``, loaded by ``after_render`` in the browser. Every rule question
goes to the engine: the spots are the view's ``legal_moves``, a tap returns an ``intents.Play``. The kit
draws the seats, the message line, the tray, the privacy gate, the results panel and the review's bar;
this screen draws the board (from the live state or, in the review, from the state replayed to a move).

UI state (``TrianglesState``, forgotten on reload, which resets it sensibly) says what the player chose
and what the page showed; the kit keeps its own (``KitState``: privacy, review, refusal, results).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import frame, kit
from ..html import Markup, h, join, name_attr
from ..intents import Announce, Intents, Play, Render
from ..online.remote import public_hands
from ..results import stats_note
from ..shell import LEVEL_LABELS, button
from ..table_screen import Mode, Screen, TableContext, TableState
from . import triangles_layout as lay

plural = kit.plural

PLAYERS = (2, 3, 4)


@dataclass
class TrianglesState(TableState):
    """The Triangles table's own state."""

    sel: str | None = None  # the chosen tile
    pending: tuple[int, int, int] | None = None  # (row, col, rotation) previewed at a spot of several ways
    msg: str | None = None  # what the last draw brought
    view: list[float] | None = None  # the player's own view box (None: the readable fit)
    heard: int | None = None  # how many moves were read out
    seen: int | None = None  # how many tiles were on the table at the last drawing (newer ones animate in)

    def clear_selection(self) -> None:
        """Forget the chosen tile, the preview and the message."""
        self.sel = self.pending = self.msg = None


def state_of(ctx: TableContext) -> TrianglesState:
    """Return the Triangles table's state."""
    ui = ctx.ui
    if not isinstance(ui, TrianglesState):
        raise TypeError(f"a Triangles table was given {type(ui).__name__}")
    return ui


class TrianglesScreen(Screen):
    """The table screen of Triangles (the ``GameScreen`` protocol of ``ui.table_screen``)."""

    game_id = "triangles"
    expert = True
    move_pattern = re.compile(r"(?<![\w-])\d-\d-\d@-?\d+,-?\d+r\d(?![\w-])")

    def new_state(self, form: Mapping[str, Any] | None = None) -> TrianglesState:
        """Return a new table state."""
        return TrianglesState()

    def move_words(self, move: str) -> str:
        """Return a move in words: its tile (``1-5-5@0,1r1`` -> "1-5-5"); the card's glow shows the spot."""
        return super().move_words(move) if move in ("draw", "pass") else move.partition("@")[0]

    def other_words(self, move: str, than: str) -> str:
        """Return ``move`` told from ``than``: turned another way, or on another spot."""
        words = self.move_words(move)
        if move == than or words != self.move_words(than):
            return words
        if move.split("r")[0] == than.split("r")[0]:
            return f"{words} turned another way"
        return f"{words} on another spot"

    def hint_help(self, move: str) -> str:
        """Tell the player how to see the hinted spot."""
        return "Select the tile: its spot glows." if "@" in move else ""

    def hint_targets(self, move: str) -> list[str]:
        """Return the hinted tile in the hand and its spot on the board."""
        if move in ("draw", "pass"):
            return super().hint_targets(move)
        tile, _, place = move.partition("@")
        return [f"#hand-{tile}", f"#spot-{place.split('r')[0].replace(',', '_')}"]

    # -- setup ------------------------------------------------------------------------------------
    def modes(self) -> list[Mode]:
        """Return no named modes: the setup offers players and levels only."""
        return []

    def custom_fields(self, form: dict[str, Any]) -> Markup:
        """Return no extra setup fields."""
        return Markup("")

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the mode for the chosen number of players (2-4; 2 when unreadable)."""
        try:
            players = int(form.get("players", 2))
        except (TypeError, ValueError):
            players = 2
        if players not in PLAYERS:
            players = 2
        return Mode(f"players-{players}", f"{players} players", {"players": players}), players

    # -- reading the position ----------------------------------------------------------------------
    def facts(self, ctx: TableContext, table: kit.TableFacts | None = None) -> dict[str, Any]:
        """Return what one drawing of the table needs: the kit's facts (``table``, found now when not
        given) with this table's own, the UI state checked against the game."""
        session = ctx.session
        table = table if table is not None else kit.table_facts(ctx, self)
        viewer, view, review = table.viewer, dict(table.view), table.review
        to_move = view["turn"]
        over = view["outcome"] is not None
        shared = len(session.human_seats) > 1
        mine = table.mine and not over
        legal = table.legal if mine else []
        by_tile = lay.placements_by_tile(legal)
        ui = state_of(ctx)
        sel = ui.sel
        if not mine or sel not in view["hand"]:
            sel = None
        spots = by_tile.get(sel, {}) if sel else {}
        pending = None
        raw = ui.pending
        if sel and raw is not None:
            cell = (raw[0], raw[1])
            if cell in spots and raw[2] in spots[cell] and len(spots[cell]) > 1:
                pending = (cell, raw[2])
        placed = [(int(t["cell"][0]), int(t["cell"][1])) for t in view["table"]]
        return {
            "state": table.state,
            "view": view,
            "viewer": viewer,
            "to_move": to_move,
            "over": over,
            "shared": shared,
            "privacy": table.gate,
            "hidden": table.hidden,
            "review": review,
            "mine": mine,
            "legal": legal,
            "by_tile": by_tile,
            "sel": sel,
            "spots": spots,
            "pending": pending,
            "placed": placed,
            "open": lay.frontier(placed),
        }

    def names(self, ctx: TableContext) -> list[str]:
        """Return each seat's full name as the table shows it: "You" for this device's one person (against
        computers, or in an online room), else the name, isolated."""
        session = ctx.session
        humans = session.human_seats
        return [
            "You" if len(humans) == 1 and seat == humans[0] else name_attr(player.name)
            for seat, player in enumerate(session.seats)
        ]

    def hands(self, ctx: TableContext, f: dict[str, Any]) -> list[list[str] | None]:
        """Return every seat's hand where all are public (the review; the end of the game); None for a
        seat this table cannot know yet (an online guest's, before the host revealed the deal)."""
        return public_hands(f["state"], len(f["view"]["hand_counts"]))

    def name(self, ctx: TableContext, seat: int) -> str:
        """Return how the table calls a seat: "You" for the person playing the computer."""
        return self.names(ctx)[seat]

    def auto_box(self, ctx: TableContext, f: dict[str, Any]) -> lay.Box:
        """Return the view box that fits the layout and the cells around it, as long as the numbers stay
        readable in the board's measured size; past that, a readable box about the chosen tile's spots or
        the last tile laid (zoom out or pan for the rest)."""
        full = lay.fit_box(f["placed"] + f["open"])
        focus: list[lay.Cell] = list(f["spots"]) or f["placed"][-1:]
        return lay.under_band(
            lay.readable_box(full, ctx.board_width, ctx.board_height - lay.BAND_PX, focus),
            ctx.board_width,
            ctx.board_height,
        )

    def box(self, ctx: TableContext, f: dict[str, Any]) -> lay.Box:
        """Return the view box to draw: the player's own, else the fit."""
        return lay.valid_box(state_of(ctx).view) or self.auto_box(ctx, f)

    # -- drawing -------------------------------------------------------------------------------------
    def render(self, ctx: TableContext) -> Markup:
        """Return the table on the kit: seats, the board (results or review over it), message, tray."""
        return frame.render(ctx, self)

    def table_parts(self, ctx: TableContext, facts: kit.TableFacts) -> frame.TableParts:
        """Return the table's pieces: the board, the seats, the tray, the message, results or review."""
        f = self.facts(ctx, facts)
        view = f["view"]
        names = list(facts.names)
        beats = self.beats(view["history"])
        turn_state = (
            "review"
            if f["review"]
            else "over"
            if f["over"]
            else "you"
            if f["mine"]
            else "privacy"
            if f["privacy"]
            else "wait"
        )
        face_up = f["review"] or (f["over"] and ctx.ui.kit.face_up)
        panel: Any = ""
        if f["review"]:
            caption = kit.review_caption(beats, names)
            panel = kit.review_panel(ctx, int(facts.step or 0), caption)
        elif f["over"]:
            panel = self.summary(ctx, f)
        gate: Any = ""
        if f["privacy"]:
            who = f["to_move"]
            gate = kit.privacy_gate(
                names[who], kit.since_last_turn(beats, who, names), first="Your first turn."
            )
        return frame.TableParts(
            board=self.board(ctx, f),
            tray=self.tray(ctx, f),
            status=self.status_text(ctx, f),
            seats=kit.seats(self.seat_views(ctx, f, beats, face_up), f["viewer"]),
            results=panel,
            gate=gate,
            board_extra=self.board_bar(ctx, f),
            cls=f"tri-table players-{len(view['hand_counts'])}" + (" is-my-turn" if f["mine"] else ""),
            data={
                "turn": turn_state,
                "moves": len(view["history"]),
                "tiles": len(view["table"]),
            },
        )

    def board(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the board's SVG: the layout, and the chosen tile's spots."""
        view = f["view"]
        return lay.board_svg(
            view["table"],
            self.box(ctx, f),
            spots=f["spots"],
            tile=f["sel"],
            open_cells=f["open"],
            pending=f["pending"],
            fresh_from=state_of(ctx).seen if ctx.animations and not f["review"] else None,
            since_from=None if f["review"] or f["over"] else self.since_turn(f),
            arrive_from=None if f["review"] else self.arrival(f),
        )

    @staticmethod
    def last_event(f: dict[str, Any]) -> dict[str, Any] | None:
        """Return the last move of the game shown, or None before the first."""
        history = f["view"]["history"]
        return history[-1] if history else None

    def arrival(self, f: dict[str, Any]) -> str | None:
        """Return where the tile just laid slides in from: the tray for your own, else the seat's card."""
        last = self.last_event(f)
        if last is None or "@" not in str(last["move"]):
            return None
        seat = int(last["seat"])
        return "#kit-tray" if seat == f["viewer"] else f'.kit-seat[data-seat="{seat}"]'

    def since_turn(self, f: dict[str, Any]) -> int | None:
        """Return the number of tiles laid before the viewer's last action (later ones are highlighted)."""
        if f["shared"] and f["hidden"]:
            return None
        lays = 0
        since = None
        for event in f["view"]["history"]:
            if event["seat"] == f["viewer"]:
                since = lays + (0 if event["move"] in ("draw", "pass") else 1)
            if event["move"] not in ("draw", "pass"):
                lays += 1
        return since

    def beats(self, history: list[dict[str, Any]]) -> list[kit.Beat]:
        """Return the public actions in words, a seat's run of draws as one beat ("drew 3")."""
        out = []
        for event in history:
            move = str(event["move"])
            if move == "draw":
                out.append(kit.Beat(int(event["seat"]), "drew 1", "draw"))
            elif move == "pass":
                out.append(kit.Beat(int(event["seat"]), "passed", "pass"))
            else:
                out.append(kit.Beat(int(event["seat"]), f"laid {move.split('@', 1)[0]}", "lay"))
        return kit.merge_beats(out)

    def seat_views(
        self, ctx: TableContext, f: dict[str, Any], beats: list[kit.Beat], face_up: bool
    ) -> list[kit.SeatView]:
        """Return every seat as the kit shows it: full name, tiles left, last action, whose turn."""
        session = ctx.session
        view = f["view"]
        names = self.names(ctx)
        last = kit.last_beats(beats)
        live = not f["over"] and not f["review"]
        hands = self.hands(ctx, f) if face_up else [None] * len(view["hand_counts"])
        latest = self.last_event(f)
        drawer = int(latest["seat"]) if latest and latest["move"] == "draw" and live else None
        out = []
        for seat, count in enumerate(view["hand_counts"]):
            player = session.seats[seat]
            shown = None
            hand = hands[seat]
            if hand is not None:
                shown = h(
                    "span",
                    {"class_": "tri-face-up"},
                    [lay.hand_tile_svg(t, label=True) for t in hand],
                )
            out.append(
                kit.SeatView(
                    seat=seat,
                    name=names[seat],
                    level=LEVEL_LABELS.get(player.level or "", "") if player.is_computer else "",
                    count=count,
                    last=last.get(seat, ""),
                    to_move=live and view["turn"] == seat,
                    thinking=live and view["turn"] == seat and player.is_computer,
                    local=seat == f["viewer"],
                    backs=self.backs(count),
                    face_up=shown,
                    arrived="#tri-stock" if seat == drawer and seat != f["viewer"] else "",
                    playing=not f["over"],
                )
            )
        return out

    @staticmethod
    def backs(count: int) -> Markup:
        """Return a seat's tiles face down: small triangles (up to ten)."""
        return h(
            "span",
            {"class_": "tri-backs", "aria_hidden": "true"},
            [h("i", {"class_": "tri-back"}) for _ in range(min(count, 10))],
        )

    def opening_words(self, view: dict[str, Any]) -> str:
        """Return how the opener is told to lay the opening tile (how to turn it comes once it is down)."""
        tile = view["opening"]
        a, b, c = lay.tile_values(tile)
        why = ", the highest triple" if a == b == c else " (no triple was dealt)"
        return f"you open with {tile}{why}. Choose it, then tap the spot."

    def status_text(self, ctx: TableContext, f: dict[str, Any]) -> str:
        """Return the message line's words: whose turn it is and what to do (or what just happened)."""
        view = f["view"]
        names = self.names(ctx)
        if f["review"]:  # as every table's review: what the move shown did
            return f"Review · {kit.review_caption(self.beats(view['history']), names)}."
        if f["over"]:
            return self.result_head(ctx, view["outcome"])
        turn = f["to_move"]
        if ctx.session.seats[turn].is_computer:
            return f"{names[turn]} is thinking…"
        if f["hidden"] or ctx.session.seats[turn].kind == "guest":
            return f"{names[turn]}'s turn."
        msg = state_of(ctx).msg
        if msg:
            return str(msg)
        who = "Your turn" if len(ctx.session.human_seats) == 1 else f"{names[turn]}, your turn"
        if not view["table"] and not f["sel"]:
            return f"{who}: {self.opening_words(view)}"
        if f["sel"] and f["spots"]:
            if f["pending"]:
                return f"{who}: tap the spot again to turn {f['sel']}, then press Place."
            n = len(f["spots"])
            return (
                f"{who}: tap one of the {n} marked spots for {f['sel']}."
                if n > 1
                else f"{who}: tap the marked spot for {f['sel']}."
            )
        if f["sel"]:
            return f"{who}: {f['sel']} fits nowhere now. Choose another tile."
        if "draw" in f["legal"]:
            left = view["draws_left"]
            return f"{who}: nothing fits. Draw a tile ({plural(left, 'draw')} left this turn)."
        if "pass" in f["legal"]:
            return f"{who}: nothing fits and you cannot draw. Pass."
        return f"{who}: choose a tile."

    def board_bar(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the band over the board: the stock (and draws left) at the left, zoom at the right."""
        view = f["view"]
        stock = view["stock"]
        words = plural(stock, "tile") + " in stock"
        chip = h(
            "div",
            {"class_": "tri-stock", "id": "tri-stock", "role": "img", "aria_label": "Stock: " + words},
            h(
                "span",
                {"class_": "tri-pile", "aria_hidden": "true"},
                [h("i", {}) for _ in range(min(3, stock))],
            ),
            h("b", {}, stock),
            h("span", {"class_": "tri-stock-word"}, (" tile" if stock == 1 else " tiles") + " in stock"),
        )
        left = self.placing(ctx, f) if f["sel"] else chip
        return h("div", {"class_": "kit-board-bar"}, left, self.zoom_controls(ctx))

    def zoom_controls(self, ctx: TableContext) -> Markup:
        """Return the zoom buttons over the board (for keyboards; fingers and wheels work too)."""
        manual = lay.valid_box(state_of(ctx).view) is not None
        return h(
            "div",
            {"class_": "tri-zoom", "role": "group", "aria_label": "Zoom"},
            button("+", "zoom", "in", id="tri-zoom-in", aria_label="Zoom in", title="Zoom in (+)"),
            button("−", "zoom", "out", id="tri-zoom-out", aria_label="Zoom out", title="Zoom out (-)"),
            button(
                "Fit",
                "zoom",
                "fit",
                id="tri-zoom-fit",
                aria_label="Fit the whole table",
                title="Fit the whole table (0)",
                aria_pressed="false" if manual else "true",
                class_="is-manual" if manual else "",
            ),
        )

    def placing(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return Turn / Place / Cancel for the chosen tile (in the band over the board, so no spot is
        ever under them, and the tray never moves)."""
        parts = []
        if f["pending"]:
            parts += [
                button(
                    join(["↻", h("span", {"class_": "tri-word"}, " Turn")]),
                    "rotate",
                    id="tri-rotate",
                    aria_label=f"Turn {f['sel']}",
                    title="Turn it (R)",
                ),
                button(
                    "Place", "confirm", id="tri-confirm", kind="primary", aria_label=f"Place {f['sel']} here"
                ),
            ]
        parts.append(
            button(
                join(["✕", h("span", {"class_": "tri-word"}, " Cancel")]),
                "cancel",
                id="tri-cancel",
                aria_label="Put the tile back",
                title="Put the tile back (Esc)",
            )
        )
        return h(
            "div", {"class_": "tri-placing", "role": "group", "aria_label": "Placing " + f["sel"]}, parts
        )

    def tray(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the kit's hand tray: the tiles, Draw, Pass and Take back (kept in place, disabled)."""
        view = f["view"]
        session = ctx.session
        names = self.names(ctx)
        seat = f["viewer"]
        label = "Your tiles" if len(session.human_seats) == 1 else f"{names[seat]}'s tiles"
        count, pips = len(view["hand"]), view["pips"]
        info = f"{plural(count, 'tile')} · {plural(pips, 'pip')}"
        hidden = ""
        if f["hidden"]:
            turn = f["to_move"]
            info = ""
            hidden = (
                f"{names[turn]}'s tiles are hidden."
                if turn is not None and not session.seats[turn].is_computer
                else "Tiles are hidden between turns."
            )
        if f["review"]:
            buttons: list[Any] = []
        else:
            draw_on = "draw" in f["legal"]
            pass_on = "pass" in f["legal"]
            buttons = [
                kit.button(
                    "draw",
                    "Draw",
                    enabled=draw_on,
                    primary=draw_on,
                    bid="tri-draw",
                    key="D",
                    title="Draw a tile from the stock",
                ),
                kit.button("pass", "Pass", enabled=pass_on, primary=pass_on, bid="tri-pass", key="P"),
                kit.take_back_button(session, enabled=not f["over"]),
            ]
        return kit.tray(
            self.hand(ctx, f),
            buttons,
            label=label,
            info=info,
            my_turn=f["mine"],
            hidden=hidden,
        )

    def hand(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the hand: one button a tile, the chosen one raised, playable ones marked (suggestions)."""
        view = f["view"]
        suggest = ctx.settings.suggestions and f["mine"]
        tiles = []
        last = self.last_event(f)
        drew = last is not None and last["move"] == "draw" and int(last["seat"]) == f["viewer"]
        drawn = view["hand"][-1] if drew and view["hand"] and not f["review"] else None
        for tile in [] if f["hidden"] else view["hand"]:
            playable = tile in f["by_tile"]
            cls = (
                "tri-hand-tile"
                + (" is-selected" if tile == f["sel"] else "")
                + (" is-playable" if suggest and playable else "")
                + (" kit-shake" if kit.shake(ctx, tile) else "")
            )
            tiles.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": cls,
                        "id": f"hand-{tile}",
                        "data_action": "select",
                        "data_value": tile,
                        "aria_label": f"Tile {tile}" + (", playable" if suggest and playable else ""),
                        "aria_pressed": "true" if tile == f["sel"] else "false",
                        "disabled": not f["mine"],
                        "data_kit_from": "#tri-stock" if tile == drawn else None,
                    },
                    lay.hand_tile_svg(tile),
                )
            )
        return kit.rack(tiles, len(tiles), "tri-rack")

    def is_you(self, ctx: TableContext, seat: int) -> bool:
        """Tell whether a seat is the one person playing the computer (a seat flag, never a name)."""
        humans = ctx.session.human_seats
        return len(humans) == 1 and seat == humans[0]

    def result_head(self, ctx: TableContext, outcome: dict[str, Any]) -> str:
        """Return the headline of the result: "You win!", "Ben wins.", "A draw: Ada and Ben tie."."""
        winners = list(outcome["winners"])
        if len(winners) == 1:
            return "You win!" if self.is_you(ctx, winners[0]) else f"{self.name(ctx, winners[0])} wins."
        return "A draw: " + kit.describe_list([self.name(ctx, w) for w in winners]) + " tie."

    def result_how(self, ctx: TableContext, outcome: dict[str, Any]) -> str:
        """Return how the game ended, worded from the facts."""
        winners = list(outcome["winners"])
        scores = list(outcome.get("scores") or [])
        if outcome["termination"] == "out" and len(winners) == 1:
            return ("You laid" if self.is_you(ctx, winners[0]) else f"{self.name(ctx, winners[0])} laid") + (
                " the last tile."
            )
        low = min(scores) if scores else None
        if low is None:
            return "The game is blocked: the lowest pip total wins."
        if len(winners) == 1:
            who = "you have" if self.is_you(ctx, winners[0]) else self.name(ctx, winners[0]) + " has"
            return f"The game is blocked: {who} the lowest pip total, {low}."
        names = kit.describe_list([self.name(ctx, w) for w in winners])
        return f"The game is blocked: {names} tie for the lowest pip total, {low}."

    @staticmethod
    def place_words(place: int, tied: bool) -> str:
        """Return "1st", "2nd"..., "=2nd" for a place shared by several (never with two players)."""
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        return ("=" if tied else "") + f"{place}{suffix}"

    def summary(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the kit's results panel: who won and how, each seat's place, pips and tiles left."""
        outcome = f["view"]["outcome"]
        session = ctx.session
        winners = list(outcome["winners"])
        scores = list(outcome.get("scores") or [])
        placings = list(outcome.get("placings") or [])
        count = len(session.seats)
        hands = self.hands(ctx, f)
        rows = []
        plain = kit.plain_names(session)  # who, without the level: a phone's table keeps a row a line
        for seat in range(count):
            left, hand = f["view"]["hand_counts"][seat], hands[seat]
            if hand is not None:
                left_text = ", ".join(hand) if hand else "–"
            else:  # a guest's table before the deal is revealed: how many, not which
                left_text = plural(left, "tile") if left else "–"
            place = placings[seat] if seat < len(placings) else None
            tied = place is not None and count > 2 and placings.count(place) > 1
            rows.append(
                h(
                    "tr",
                    {"class_": "is-winner" if seat in winners else ""},
                    h("th", {"scope": "row"}, plain[seat]),
                    h(
                        "td",
                        {"data_place": place if place is not None else None},
                        self.place_words(place, tied) if place is not None else "",
                    ),
                    h("td", {}, scores[seat] if seat < len(scores) else ""),
                    h("td", {"class_": "tri-left"}, kit.keep_whole(left_text)),
                )
            )
        table_ = h(
            "table",
            {"class_": "stats-table tri-scores"},
            h(
                "thead",
                {},
                h(
                    "tr",
                    {},
                    [h("th", {"scope": "col"}, c) for c in ("Player", "Place", "Pips", "Tiles left")],
                ),
            ),
            h("tbody", {}, rows),
        )
        note = stats_note(session)
        return frame.results_panel(
            ctx,
            self,
            self.result_head(ctx, outcome),
            join([h("p", {}, self.result_how(ctx, outcome)), table_]),
            [
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-primary",
                        "data_action": "play-again",
                        "data_value": self.game_id,
                        "id": "tri-again",
                        "autofocus": True,
                    },
                    "Play again",
                ),
            ],
            more=[
                button("New game", "new-game", self.game_id, id="tri-new-game"),
                button("Home", "home", id="tri-home", kind="ghost"),
            ],
            note=note,
            review=session.move_count() > 0,
            title_id="tri-result",
        )

    # -- actions ----------------------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> Intents | None:
        """Carry out a click on the table."""
        ui = state_of(ctx)
        if action in ("reveal", "kit-reveal") or action == "kit-review":
            ui.clear_selection()
        done = frame.handle(ctx, self, action, value)
        if done is not None:
            return done
        if action == "zoom":
            self.zoom(ctx, value)
            return [Render()]
        f = self.facts(ctx)
        if not f["mine"]:
            return None
        if action == "select":
            ui.clear_selection()
            if value != f["sel"] and value in f["view"]["hand"]:
                ui.sel = value
                if value not in f["by_tile"]:
                    kit.refuse(ctx, f"{value} fits nowhere now.", value)
                return [Announce(self.selection_words(value, f["by_tile"].get(value, {}))), Render()]
            return [Render()]
        if action == "cell":
            return self.tap_cell(ctx, f, lay.parse_cell(value))
        if action == "rotate" and f["pending"]:
            return self.turn_pending(ctx, f)
        if action == "confirm" and f["pending"]:
            cell, rot = f["pending"]
            return self.place(ctx, f["sel"], cell, rot)
        if action == "cancel":
            ui.clear_selection()
            return [Render()]
        if action in ("draw", "pass") and action in f["legal"]:
            ui.clear_selection()
            return [Play(action)]
        return None

    def on_played(self, ctx: TableContext, move: Any) -> Intents:
        """Say what a draw brought (and choose it when it fits)."""
        return self.after_draw(ctx) if move == "draw" else []

    def on_refused(self, ctx: TableContext, message: str) -> bool:
        """Show a move the engine refused in the message line (it fades) instead of a toast."""
        kit.refuse(ctx, message)
        return True

    def selection_words(self, tile: str, spots: dict[Any, list[int]]) -> str:
        """Return what a screen reader hears when a tile is chosen."""
        if not spots:
            return f"{tile} chosen; it fits nowhere now."
        return f"{tile} chosen; it fits {len(spots)} spot{'s' if len(spots) != 1 else ''} on the table."

    def tap_cell(self, ctx: TableContext, f: dict[str, Any], cell: lay.Cell | None) -> Intents:
        """Place the chosen tile on a marked spot, preview it when it turns several ways, else explain."""
        ui = state_of(ctx)
        sel = f["sel"]
        if cell is None:
            return []
        if not sel:
            kit.refuse(ctx, "Choose a tile from your hand first.")
            return [Render()]
        rots = f["spots"].get(cell)
        if not rots:
            ui.pending = None
            spot = lay.where(cell, lay.laid_tiles(f["view"]["table"]), brief=True)
            why = f"{sel} does not fit {spot}" + ("; try a marked spot." if f["spots"] else ".")
            kit.refuse(ctx, why, sel)
            return [Announce(why), Render()]
        if len(rots) == 1:
            return self.place(ctx, sel, cell, rots[0])
        if f["pending"] and f["pending"][0] == cell:
            return self.turn_pending(ctx, f)
        ui.pending = (cell[0], cell[1], rots[0])
        ui.msg = None
        said = f"{sel} fits here {len(rots)} ways. Tap again or press Turn to turn it, then Place."
        return [Announce(said), Render()]

    def turn_pending(self, ctx: TableContext, f: dict[str, Any]) -> Intents:
        """Show the previewed tile in its next rotation."""
        cell, rot = f["pending"]
        rots = f["spots"][cell]
        nxt = rots[(rots.index(rot) + 1) % len(rots)]
        state_of(ctx).pending = (cell[0], cell[1], nxt)
        return [Announce(f"{f['sel']} turned."), Render()]

    def place(self, ctx: TableContext, tile: str, cell: lay.Cell, rotation: int) -> Intents:
        """Play a placement through the engine."""
        state_of(ctx).clear_selection()
        return [Play(lay.move_text(tile, cell, rotation))]

    def after_draw(self, ctx: TableContext) -> Intents:
        """Say what was drawn and choose it when it fits."""
        ui = state_of(ctx)
        f = self.facts(ctx)
        hand = f["view"]["hand"]
        if not f["mine"] or not hand:
            return []
        drawn = hand[-1]
        if drawn in f["by_tile"]:
            ui.sel = drawn
            ui.msg = f"You drew {drawn}. It fits: tap a marked spot."
        elif "draw" in f["legal"]:
            ui.msg = f"You drew {drawn}. It does not fit: draw again."
        else:
            ui.msg = f"You drew {drawn}. It does not fit." + (" Pass." if "pass" in f["legal"] else "")
        return [Announce(ui.msg), Render()]

    def zoom(self, ctx: TableContext, how: str) -> None:
        """Zoom the table in or out about its middle, or fit the whole layout again."""
        ui = state_of(ctx)
        if how == "fit":
            ui.view = None
            return
        f = self.facts(ctx)
        current = self.box(ctx, f)
        factor = 1 / lay.ZOOM_STEP if how == "in" else lay.ZOOM_STEP
        ui.view = list(lay.zoom_box(current, factor))

    def key_intents(self, ctx: TableContext, key: str) -> Intents | None:
        """Return what a key asks for: + and - zoom, 0 fits, Escape puts the tile back, r turns a preview,
        D draws, P passes; None when the table does not use it."""
        stepped = kit.review_key(ctx, key)  # the review's arrows step through the game
        if stepped is not None:
            return stepped
        ui = state_of(ctx)
        if key in ("d", "D", "p", "P"):
            action = "draw" if key in ("d", "D") else "pass"
            if action not in self.facts(ctx)["legal"]:
                return None
            return self.on_action(ctx, action, "") or []
        zooms = {"+": "in", "=": "in", "-": "out", "_": "out", "0": "fit"}
        if key in zooms:
            return self.on_action(ctx, "zoom", zooms[key]) or []
        if key == "Escape" and ui.sel:
            return self.on_action(ctx, "cancel", "") or []
        if key in ("r", "R") and ui.pending:
            return self.on_action(ctx, "rotate", "") or []
        return None

    # -- the page -------------------------------------------------------------------------------------
    def news(self, ctx: TableContext) -> list[str]:
        """Return the sentences for the moves made since the last call (for screen readers)."""
        ui = state_of(ctx)
        history = ctx.session.state.view(ctx.session.viewer())["history"]
        heard = ui.heard
        ui.heard = len(history)
        if heard is None or heard >= len(history):
            return []
        name = lambda seat: self.name(ctx, seat)  # noqa: E731
        fresh = history[heard:]
        return lay.log_lines(fresh, name, limit=len(fresh))

    def after_render(self, ctx: TableContext) -> None:
        """Read out new moves, note the tiles seen, and bind pan, zoom and keys (in the page)."""
        f_view = ctx.session.state.view(ctx.session.viewer())
        state_of(ctx).seen = len(f_view["table"])
        news = self.news(ctx)
        if news:
            ctx.emit(Announce(". ".join(news) + "."))
        try:
            from ..ports import page_module

            triangles_board = page_module("triangles_board")
        except ImportError:  # not in the page (CPython tests)
            return
        triangles_board.bind(ctx)

    def leave(self, ctx: TableContext) -> None:
        """Drop the page listeners when the player leaves the table."""
        try:
            from ..ports import page_module

            triangles_board = page_module("triangles_board")
        except ImportError:
            return
        triangles_board.unbind()


SCREEN = TrianglesScreen()
