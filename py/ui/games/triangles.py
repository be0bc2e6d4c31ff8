"""The Triangles table screen: choose a tile, tap a marked spot, draw or pass; pan and zoom the table.

Pure Python (markup and UI state only); the pointer, wheel and keyboard handling that needs the page
lives in ``ui.games.triangles_board``, loaded by ``after_render`` in the browser. Every rule question
goes to the engine: the spots are the view's ``legal_moves``, a tap plays through ``ctx.play``.

UI state (``ctx.ui``, forgotten on reload, which resets it sensibly): ``sel`` the chosen tile,
``pending`` ``[row, col, rotation]`` when a spot takes several rotations (the opening), ``msg`` a line
for the player, ``view`` the player's own view box (None: fit the layout), ``shown`` the seat whose
tiles are uncovered on a shared device, ``heard`` how many moves were read out, ``seen`` how many
tiles were on the table at the last draw (newer ones animate in).
"""

from __future__ import annotations

from typing import Any

from ..html import Markup, h, join, name_attr
from ..screen import Mode, Screen, TableContext
from ..screens import button
from . import triangles_layout as lay

PLAYERS = (2, 3, 4)


class TrianglesScreen(Screen):
    """The table screen of Triangles (the ``GameScreen`` protocol of ``ui.screen``)."""

    game_id = "triangles"

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
    def facts(self, ctx: TableContext) -> dict[str, Any]:
        """Return what one drawing of the table needs, with the UI state checked against the game."""
        session = ctx.session
        viewer = session.viewer()
        view = session.state.view(viewer)
        to_move = view["turn"]
        over = view["outcome"] is not None
        humans = session.human_seats
        shared = len(humans) > 1
        privacy = (
            shared
            and not over
            and to_move is not None
            and not session.seats[to_move].is_computer
            and ctx.ui.get("shown") != to_move
        )
        mine = not over and to_move == viewer and not session.seats[viewer].is_computer and not privacy
        legal = list(view["legal_moves"]) if mine else []
        by_tile = lay.placements_by_tile(legal)
        sel = ctx.ui.get("sel")
        if not mine or sel not in view["hand"]:
            sel = None
        spots = by_tile.get(sel, {}) if sel else {}
        pending = None
        raw = ctx.ui.get("pending")
        if sel and isinstance(raw, (list, tuple)) and len(raw) == 3:
            cell = (raw[0], raw[1])
            if cell in spots and raw[2] in spots[cell] and len(spots[cell]) > 1:
                pending = (cell, raw[2])
        placed = [(int(t["cell"][0]), int(t["cell"][1])) for t in view["table"]]
        return {
            "view": view,
            "viewer": viewer,
            "to_move": to_move,
            "over": over,
            "shared": shared,
            "privacy": privacy,
            "mine": mine,
            "legal": legal,
            "by_tile": by_tile,
            "sel": sel,
            "spots": spots,
            "pending": pending,
            "placed": placed,
            "open": lay.frontier(placed),
        }

    def name(self, ctx: TableContext, seat: int) -> str:
        """Return how the table calls a seat: "You" for the person playing the computer."""
        session = ctx.session
        if session.vs_computer and not session.seats[seat].is_computer:
            return "You"
        return name_attr(
            session.seats[seat].name
        )  # isolated: a right-to-left name keeps the sentence in order

    def auto_box(self, f: dict[str, Any]) -> lay.Box:
        """Return the view box that fits the whole layout and the cells around it."""
        return lay.fit_box(f["placed"] + f["open"])

    def box(self, ctx: TableContext, f: dict[str, Any]) -> lay.Box:
        """Return the view box to draw: the player's own, else the fit."""
        return lay.valid_box(ctx.ui.get("view")) or self.auto_box(f)

    # -- drawing -------------------------------------------------------------------------------------
    def render(self, ctx: TableContext) -> Markup:
        """Return the table: seats, the message line, the board (results over it), the tray, the log."""
        f = self.facts(ctx)
        view = f["view"]
        turn_state = "over" if f["over"] else "you" if f["mine"] else "privacy" if f["privacy"] else "wait"
        stage = h(
            "div",
            {"class_": "tri-stage"},
            h(
                "div",
                {"id": "table-board", "class_": "tri-board"},
                lay.board_svg(
                    view["table"],
                    self.box(ctx, f),
                    spots=f["spots"],
                    tile=f["sel"],
                    open_cells=f["open"],
                    pending=f["pending"],
                    fresh_from=ctx.ui.get("seen") if ctx.animations else None,
                ),
            ),
            self.zoom_controls(ctx),
            self.placing(ctx, f),
            self.summary(ctx, f) if f["over"] else "",
        )
        return h(
            "div",
            {
                "class_": f"tri-table players-{len(view['hand_counts'])}",
                "id": "tri-table",
                "data_turn": turn_state,
                "data_moves": len(view["history"]),
                "data_tiles": len(view["table"]),
            },
            self.turn_line(ctx, f),
            stage,
            self.tray(ctx, f),
            h(
                "aside",
                {"class_": "tri-side", "aria_label": "Players and moves"},
                self.seats(ctx, f),
                self.log(ctx, f),
            ),
            self.privacy(ctx, f) if f["privacy"] else "",
        )

    def is_you(self, ctx: TableContext, seat: int) -> bool:
        """Tell whether a seat is the one person playing the computer (a seat flag, never a name)."""
        session = ctx.session
        return session.vs_computer and not session.seats[seat].is_computer

    def opening_words(self, view: dict[str, Any]) -> str:
        """Return how the opener is told to lay the opening tile (how to turn it comes once it is down)."""
        tile = view["opening"]
        a, b, c = lay.tile_values(tile)
        why = "the highest triple" if a == b == c else "the highest total (no triple was dealt)"
        return f"you open with {tile}, {why}. Choose it and tap the marked spot."

    def turn_line(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the message line: whose turn it is and what to do, and the latest notice under it."""
        view = f["view"]
        msg = ctx.ui.get("msg") if f["mine"] else None
        if f["over"]:
            text, cls = self.result_head(ctx, view["outcome"]), "tri-turn is-over"
        elif f["privacy"]:
            text, cls = f"{self.name(ctx, f['to_move'])} is next", "tri-turn"
        elif f["mine"]:
            cls = "tri-turn is-mine"
            who = "Your turn" if ctx.session.vs_computer else f"{self.name(ctx, f['viewer'])}, your turn"
            if not view["table"]:
                text = f"{who}: {self.opening_words(view)}"
            elif f["sel"] and f["spots"]:
                n = len(f["spots"])
                text = (
                    f"{who}: tap one of the {n} marked spots for {f['sel']}."
                    if n > 1
                    else f"{who}: tap the marked spot for {f['sel']}."
                )
                if f["pending"]:
                    text = f"{who}: tap the spot again to turn {f['sel']}, then press Place."
            elif f["sel"]:
                text = f"{who}: {f['sel']} fits nowhere now. Choose another tile."
            elif "draw" in f["legal"]:
                left = view["draws_left"]
                text = f"{who}: nothing fits. Draw a tile ({left} draw{'s' if left != 1 else ''} left this turn)."
            elif "pass" in f["legal"]:
                text = f"{who}: nothing fits and you cannot draw. Pass."
            else:
                text = f"{who}: choose a tile."
        else:
            seat = f["to_move"]
            text, cls = f"{self.name(ctx, seat)} is thinking…", "tri-turn is-waiting"
        return h(
            "div",
            {"class_": cls, "id": "tri-line"},
            h("p", {"class_": "tri-turn-text", "id": "tri-turn-text"}, text),
            h("p", {"class_": "tri-msg", "id": "tri-msg", "role": "status"}, msg or ""),
        )

    def zoom_controls(self, ctx: TableContext) -> Markup:
        """Return the zoom buttons over the board (for keyboards; fingers and wheels work too)."""
        manual = lay.valid_box(ctx.ui.get("view")) is not None
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
        """Return Turn / Place / Cancel over the board while a tile is chosen (the tray never moves)."""
        if not f["sel"]:
            return Markup("")
        parts = []
        if f["pending"]:
            parts += [
                button("Turn ↻", "rotate", id="tri-rotate", aria_label=f"Turn {f['sel']}"),
                button(
                    "Place", "confirm", id="tri-confirm", kind="primary", aria_label=f"Place {f['sel']} here"
                ),
            ]
        parts.append(button("Cancel", "cancel", id="tri-cancel", aria_label="Put the tile back"))
        return h("div", {"class_": "tri-placing", "role": "group", "aria_label": "Placing"}, parts)

    def actions(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return Draw (with the stock and the draws left) and Pass, enabled only when legal; at the end
        Play again and Home in their place."""
        if f["over"]:
            return h(
                "div",
                {"class_": "tri-actions", "role": "group", "aria_label": "Actions"},
                button("Play again", "start-game", self.game_id, kind="primary", id="tri-again"),
                button("Home", "home", id="tri-home"),
            )
        view = f["view"]
        left = view["draws_left"] if f["mine"] else 0
        draw_ok = "draw" in f["legal"]
        stock = view["stock"]
        parts = [
            button(
                join(
                    [
                        "Draw",
                        h(
                            "span",
                            {"class_": "tri-badge", "id": "tri-stock-badge"},
                            left if draw_ok else stock,
                        ),
                    ]
                ),
                "draw",
                id="tri-draw",
                disabled=not draw_ok,
                aria_label=(
                    f"Draw a tile, {left} draw{'s' if left != 1 else ''} left this turn"
                    if draw_ok
                    else f"Draw (not now), {stock} tile{'s' if stock != 1 else ''} in the stock"
                ),
                title=(
                    f"{left} draw{'s' if left != 1 else ''} left this turn"
                    if draw_ok
                    else f"{stock} tile{'s' if stock != 1 else ''} in the stock"
                ),
                kind="primary" if draw_ok else "",
            ),
            button(
                "Pass",
                "pass",
                id="tri-pass",
                disabled="pass" not in f["legal"],
                kind="primary" if "pass" in f["legal"] else "",
            ),
        ]
        return h("div", {"class_": "tri-actions", "role": "group", "aria_label": "Actions"}, parts)

    def tray(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the tray docked under the board: the hand and Draw / Pass (the same size every turn)."""
        view = f["view"]
        covered = f["privacy"]
        count, pips = len(view["hand"]), view["pips"]
        who = "Your tiles"
        if f["shared"] and not ctx.session.vs_computer:
            who = f"{self.name(ctx, f['viewer'])}'s tiles"
        if covered:
            who, detail = "Tiles hidden", ""
        else:
            detail = f"{count} tile{'s' if count != 1 else ''} · {pips} pip{'s' if pips != 1 else ''}"
        title = h(
            "h2",
            {"class_": "tri-hand-title", "id": "tri-hand-title"},
            f"{who} ",
            h("span", {"class_": "tri-pips"}, detail),
        )
        return h(
            "div", {"class_": "tri-tray", "id": "tri-tray"}, title, self.hand(ctx, f), self.actions(ctx, f)
        )

    def hand(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the hand: one button a tile, the chosen one raised, playable ones marked (suggestions)."""
        view = f["view"]
        suggest = ctx.settings.suggestions and f["mine"]
        tiles = []
        for tile in [] if f["privacy"] else view["hand"]:
            playable = tile in f["by_tile"]
            cls = (
                "tri-hand-tile"
                + (" is-selected" if tile == f["sel"] else "")
                + (" is-playable" if suggest and playable else "")
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
                    },
                    lay.hand_tile_svg(tile),
                )
            )
        count = max(len(tiles), 1)
        return h(
            "section",
            {
                "class_": "tri-hand",
                "aria_labelledby": "tri-hand-title",
                "tabindex": "-1",
                "data_focus_home": True,
                "id": "tri-hand",
                "style": f"--n:{count};--half:{(count + 1) // 2}",
            },
            h("div", {"class_": "tri-rack"}, tiles),
        )

    def seats(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return every seat with its tile count and whose turn it is (the local player's seat last)."""
        view = f["view"]
        items = []
        for seat, count in enumerate(view["hand_counts"]):
            now = seat == f["to_move"]
            who = ctx.session.seats[seat]
            tag = "computer" if who.is_computer else "person"
            mine = self.is_you(ctx, seat)
            items.append(
                h(
                    "li",
                    {
                        "class_": "tri-seat" + (" is-turn" if now else "") + (" is-you" if mine else ""),
                        "aria_current": "true" if now else None,
                        "data_seat": seat,
                    },
                    h("span", {"class_": f"tri-seat-icon is-{tag}", "aria_hidden": "true"}),
                    h("span", {"class_": "tri-seat-name"}, self.name(ctx, seat)),
                    h("span", {"class_": "tri-seat-count"}, f"{count} tile{'s' if count != 1 else ''}"),
                    h("span", {"class_": "sr-only"}, ", to move") if now else "",
                )
            )
        return h("ul", {"class_": "tri-seats", "aria_label": "Players"}, items)

    def log(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the last few turns, newest last."""
        lines = lay.log_lines(f["view"]["history"], lambda seat: self.name(ctx, seat), limit=6)
        body = (
            h("ol", {"class_": "tri-log-list"}, [h("li", {}, line) for line in lines])
            if lines
            else h("p", {"class_": "hint"}, "No moves yet.")
        )
        return h(
            "section", {"class_": "tri-log", "aria_label": "Last moves"}, h("h2", {}, "Last moves"), body
        )

    def privacy(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the cover shown between two people's turns on one device."""
        who = self.name(ctx, f["to_move"])
        return h(
            "div",
            {
                "class_": "overlay privacy tri-privacy",
                "role": "dialog",
                "aria_modal": "true",
                "aria_labelledby": "tri-privacy-title",
            },
            h(
                "div",
                {"class_": "dialog"},
                h("h2", {"id": "tri-privacy-title"}, f"Pass the device to {who}"),
                h("p", {}, f"{who}, press the button when nobody else can see the screen."),
                h(
                    "div",
                    {"class_": "actions"},
                    button("Show my tiles", "reveal", kind="primary", id="tri-reveal"),
                    button("Home", "home", id="tri-privacy-home"),
                ),
            ),
        )

    def result_head(self, ctx: TableContext, outcome: dict[str, Any]) -> str:
        """Return the headline of the result: "You win!", "Ben wins", "A draw: Ada and Ben tie"."""
        winners = list(outcome["winners"])
        if len(winners) == 1:
            return "You win!" if self.is_you(ctx, winners[0]) else f"{self.name(ctx, winners[0])} wins"
        return "A draw: " + " and ".join(self.name(ctx, w) for w in winners) + " tie"

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
        names = " and ".join(self.name(ctx, w) for w in winners)
        return f"The game is blocked: {names} tie for the lowest pip total, {low}."

    @staticmethod
    def place_words(place: int, tied: bool) -> str:
        """Return "1st", "2nd"..., "=2nd" for a place shared by several (never with two players)."""
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        return ("=" if tied else "") + f"{place}{suffix}"

    def summary(self, ctx: TableContext, f: dict[str, Any]) -> Markup:
        """Return the result over the board: who won and how, each seat's place, pips and tiles left."""
        outcome = f["view"]["outcome"]
        winners = list(outcome["winners"])
        scores = list(outcome.get("scores") or [])
        placings = list(outcome.get("placings") or [])
        count = len(ctx.session.seats)
        hidden = bool(ctx.ui.get("result_hidden"))
        rows = []
        for seat in range(count):
            hand = ctx.session.state.view(seat)["hand"]
            place = placings[seat] if seat < len(placings) else None
            tied = place is not None and count > 2 and placings.count(place) > 1
            rows.append(
                h(
                    "tr",
                    {"class_": "is-winner" if seat in winners else ""},
                    h("th", {"scope": "row"}, self.name(ctx, seat)),
                    h(
                        "td",
                        {"data_place": place if place is not None else None},
                        self.place_words(place, tied) if place is not None else "",
                    ),
                    h("td", {}, scores[seat] if seat < len(scores) else ""),
                    h("td", {"class_": "tri-left"}, ", ".join(hand) if hand else "–"),
                )
            )
        toggle = button(
            "Show result" if hidden else "View board",
            "result",
            "show" if hidden else "hide",
            id="tri-result-toggle",
            aria_expanded="false" if hidden else "true",
            aria_controls="tri-result-body",
        )
        return h(
            "section",
            {
                "class_": "tri-summary" + (" is-collapsed" if hidden else ""),
                "aria_labelledby": "tri-result",
                "id": "tri-summary",
            },
            h(
                "div",
                {"class_": "tri-summary-head"},
                h("h2", {"id": "tri-result"}, self.result_head(ctx, outcome)),
                toggle,
            ),
            h(
                "div",
                {"id": "tri-result-body", "class_": "tri-summary-body", "hidden": hidden},
                h("p", {}, self.result_how(ctx, outcome)),
                h(
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
                ),
            ),
            h(
                "div",
                {"class_": "actions"},
                button(
                    "New game…",
                    "new-game",
                    self.game_id,
                    id="tri-new-game",
                    aria_label="New game: choose players",
                ),
            ),
        )

    # -- actions ----------------------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> None:
        """Carry out a click on the table."""
        ui = ctx.ui
        if action == "zoom":
            self.zoom(ctx, value)
            ctx.rerender()
            return
        if action == "result":
            ui["result_hidden"] = value == "hide"
            ctx.rerender()
            return
        if action == "reveal":
            ui["shown"] = ctx.session.to_move()
            ui.pop("sel", None)
            ui.pop("msg", None)
            ctx.rerender()
            return
        f = self.facts(ctx)
        if not f["mine"]:
            return
        if action == "select":
            self.clear(ui)
            if value != f["sel"] and value in f["view"]["hand"]:
                ui["sel"] = value
                if value not in f["by_tile"]:
                    ui["msg"] = f"{value} fits nowhere now."
                ctx.announce(self.selection_words(value, f["by_tile"].get(value, {})))
            ctx.rerender()
        elif action == "cell":
            self.tap_cell(ctx, f, lay.parse_cell(value))
        elif action == "rotate" and f["pending"]:
            self.turn_pending(ctx, f)
        elif action == "confirm" and f["pending"]:
            cell, rot = f["pending"]
            self.place(ctx, f["sel"], cell, rot)
        elif action == "cancel":
            self.clear(ui)
            ctx.rerender()
        elif action in ("draw", "pass") and action in f["legal"]:
            self.clear(ui)
            if ctx.play(action) and action == "draw":
                self.after_draw(ctx)

    def selection_words(self, tile: str, spots: dict[Any, list[int]]) -> str:
        """Return what a screen reader hears when a tile is chosen."""
        if not spots:
            return f"{tile} chosen; it fits nowhere now."
        return f"{tile} chosen; it fits {len(spots)} spot{'s' if len(spots) != 1 else ''} on the table."

    def clear(self, ui: dict[str, Any]) -> None:
        """Forget the chosen tile, the preview and the message."""
        for key in ("sel", "pending", "msg"):
            ui.pop(key, None)

    def tap_cell(self, ctx: TableContext, f: dict[str, Any], cell: lay.Cell | None) -> None:
        """Place the chosen tile on a marked spot, preview it when it turns several ways, else explain."""
        ui = ctx.ui
        sel = f["sel"]
        if cell is None:
            return
        if not sel:
            ui["msg"] = "Choose a tile from your hand first."
            ctx.rerender()
            return
        rots = f["spots"].get(cell)
        if not rots:
            ui.pop("pending", None)
            ui["msg"] = f"{sel} does not fit at row {cell[0]}, column {cell[1]}."
            ctx.announce(ui["msg"])
            ctx.rerender()
            return
        if len(rots) == 1:
            self.place(ctx, sel, cell, rots[0])
            return
        if f["pending"] and f["pending"][0] == cell:
            self.turn_pending(ctx, f)
            return
        ui["pending"] = [cell[0], cell[1], rots[0]]
        ui.pop("msg", None)
        ctx.announce(f"{sel} fits here {len(rots)} ways. Tap again or press Turn to turn it, then Place.")
        ctx.rerender()

    def turn_pending(self, ctx: TableContext, f: dict[str, Any]) -> None:
        """Show the previewed tile in its next rotation."""
        cell, rot = f["pending"]
        rots = f["spots"][cell]
        nxt = rots[(rots.index(rot) + 1) % len(rots)]
        ctx.ui["pending"] = [cell[0], cell[1], nxt]
        ctx.announce(f"{f['sel']} turned.")
        ctx.rerender()

    def place(self, ctx: TableContext, tile: str, cell: lay.Cell, rotation: int) -> None:
        """Play a placement through the engine."""
        self.clear(ctx.ui)
        ctx.play(lay.move_text(tile, cell, rotation))

    def after_draw(self, ctx: TableContext) -> None:
        """Say what was drawn and choose it when it fits."""
        f = self.facts(ctx)
        hand = f["view"]["hand"]
        if not f["mine"] or not hand:
            return
        drawn = hand[-1]
        if drawn in f["by_tile"]:
            ctx.ui["sel"] = drawn
            ctx.ui["msg"] = f"You drew {drawn}. It fits!"
        elif "draw" in f["legal"]:
            ctx.ui["msg"] = f"You drew {drawn}. It does not fit: draw again."
        else:
            ctx.ui["msg"] = f"You drew {drawn}. It does not fit." + (" Pass." if "pass" in f["legal"] else "")
        ctx.announce(ctx.ui["msg"])
        ctx.rerender()

    def zoom(self, ctx: TableContext, how: str) -> None:
        """Zoom the table in or out about its middle, or fit the whole layout again."""
        if how == "fit":
            ctx.ui["view"] = None
            return
        f = self.facts(ctx)
        current = self.box(ctx, f)
        factor = 1 / lay.ZOOM_STEP if how == "in" else lay.ZOOM_STEP
        ctx.ui["view"] = list(lay.zoom_box(current, factor))

    def on_key(self, ctx: TableContext, key: str) -> bool:
        """Offer shortcuts: + and - zoom, 0 fits, Escape puts the tile back, r turns a preview."""
        if key in ("+", "="):
            self.on_action(ctx, "zoom", "in")
        elif key in ("-", "_"):
            self.on_action(ctx, "zoom", "out")
        elif key == "0":
            self.on_action(ctx, "zoom", "fit")
        elif key == "Escape" and ctx.ui.get("sel"):
            self.on_action(ctx, "cancel", "")
        elif key in ("r", "R") and ctx.ui.get("pending"):
            self.on_action(ctx, "rotate", "")
        else:
            return False
        return True

    # -- the page -------------------------------------------------------------------------------------
    def news(self, ctx: TableContext) -> list[str]:
        """Return the sentences for the moves made since the last call (for screen readers)."""
        history = ctx.session.state.view(ctx.session.viewer())["history"]
        heard = ctx.ui.get("heard")
        ctx.ui["heard"] = len(history)
        if heard is None or heard >= len(history):
            return []
        name = lambda seat: self.name(ctx, seat)  # noqa: E731
        fresh = history[heard:]
        return lay.log_lines(fresh, name, limit=len(fresh))

    def after_render(self, ctx: TableContext) -> None:
        """Read out new moves, note the tiles seen, and bind pan, zoom and keys (in the page)."""
        f_view = ctx.session.state.view(ctx.session.viewer())
        ctx.ui["seen"] = len(f_view["table"])
        news = self.news(ctx)
        if news:
            ctx.announce(". ".join(news) + ".")
        try:
            from . import triangles_board
        except ImportError:  # not in the page (CPython tests)
            return
        triangles_board.bind(ctx)

    def leave(self, ctx: TableContext) -> None:
        """Drop the page listeners when the player leaves the table."""
        try:
            from . import triangles_board
        except ImportError:
            return
        triangles_board.unbind()


SCREEN = TrianglesScreen()
