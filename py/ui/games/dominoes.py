"""The Dominoes table: setup modes, the line of play, open ends, hands, turns, and the summaries.

Pure Python: ``render`` turns the session's view into markup and ``on_action`` turns a click into a
move; every rule question (what fits, who is to move, who won) is answered by the engine's view.
"""

from __future__ import annotations

from typing import Any

from boneyard.games.dominoes import MODES

from ..html import Markup, h, join, name_attr
from ..screen import Mode, Screen, TableContext
from ..screens import field, select
from .domino_svg import _n, back_svg, standalone_tile, tile_svg
from .dominoes_layout import bounds, layout_line, reach_for_width

NAMED_MODES = [
    ("match-2-100", "2 players, to 100"),
    ("match-2-50", "2 players, to 50"),
    ("block-2", "2 players, block (no drawing)"),
    ("match-3-100", "3 players, to 100"),
    ("match-4-100", "4 players, to 100"),
]
END_NAMES = {"L": "left", "R": "right"}


def tile_text(tile: list[int] | tuple[int, int]) -> str:
    """Return a tile's text form, heavier end first: ``6-4``."""
    a, b = tile
    return f"{max(a, b)}-{min(a, b)}"


def plural(count: int, word: str) -> str:
    """Return ``1 tile`` / ``3 tiles``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


class DominoesScreen(Screen):
    """The table screen of ``dominoes``."""

    game_id = "dominoes"

    # -- setup --------------------------------------------------------------------------------------
    def modes(self) -> list[Mode]:
        """Return the setup screen's modes: Classic, the five match modes of the rules, Custom."""
        modes = [
            Mode(
                "classic",
                "Classic (single round)",
                {"draw": True, "target": None},
                None,
                "One round: the first to lay their last tile wins.",
            )
        ]
        for key, label in NAMED_MODES:
            options = dict(MODES[label])
            modes.append(
                Mode(
                    key,
                    label,
                    {k: v for k, v in options.items() if k != "players"},
                    options["players"],
                    "A points match: going out scores the pips left in the others' hands.",
                )
            )
        modes.append(Mode("custom", "Custom", {}, None, "Choose the game, the target and the hand size."))
        return modes

    def custom_fields(self, form: dict[str, Any]) -> Markup:
        """Return the Custom mode's extra fields."""
        if form.get("mode") != "custom":
            return Markup("")
        return join(
            [
                field(
                    "Game",
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
                ),
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

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the chosen mode (with its stats key and label) and the number of players."""
        modes = {m.key: m for m in self.modes()}
        mode = modes.get(str(form.get("mode", "classic")), modes["classic"])
        if mode.players is not None:
            return mode, mode.players
        try:
            players = min(4, max(2, int(form.get("players", 2))))
        except (TypeError, ValueError):
            players = 2
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

    # -- names -----------------------------------------------------------------------------------------
    def names(self, ctx: TableContext) -> list[str]:
        """Return each seat's name as this table shows it ("You" for the one person against computers), isolated."""
        session = ctx.session
        solo = len(session.human_seats) == 1
        return ["You" if solo and not seat.is_computer else name_attr(seat.name) for seat in session.seats]

    # -- render ------------------------------------------------------------------------------------------
    def render(self, ctx: TableContext) -> Markup:
        """Return the whole table for the seat whose eyes it is drawn for."""
        session = ctx.session
        seat = session.viewer()
        view = session.state.view(seat)
        names = self.names(ctx)
        to_move = view["turn"]
        hidden = self.hand_hidden(ctx, view)
        parts = [
            self.seats_panel(ctx, view, names, seat),
            self.status(ctx, view, names, hidden),
            self.board(ctx, view),
            self.ends_and_stock(ctx, view, hidden),
            self.hand(ctx, view, names, seat, hidden),
            self.log(view, names),
        ]
        dialog = self.dialog(ctx, view, names, hidden)
        cls = "dom-table" + (
            " is-my-turn" if to_move == seat and not hidden and not session.seats[seat].is_computer else ""
        )
        return h(
            "div", {"class_": cls, "data_turn": to_move if to_move is not None else "over"}, parts, dialog
        )

    def hand_hidden(self, ctx: TableContext, view: dict[str, Any]) -> bool:
        """Tell whether the hand must stay hidden until its player taps Show my tiles (same device)."""
        session = ctx.session
        if len(session.human_seats) < 2 or view["over"]:
            return False
        turn = view["turn"]
        return turn is not None and not session.seats[turn].is_computer and ctx.ui.get("revealed") != turn

    def seats_panel(self, ctx: TableContext, view: dict[str, Any], names: list[str], me: int) -> Markup:
        """Return the other players: name, level, tiles in hand, match score, and whose turn it is."""
        players = view["players"]
        rows = []
        last_action = self.last_actions(view)
        for offset in range(1, players):
            seat = (me + offset) % players
            count = view["hand_counts"][seat]
            turn = view["turn"] == seat
            score = f" · {view['scores'][seat]} pts" if view["scores"] is not None else ""
            rows.append(
                h(
                    "li",
                    {
                        "class_": "dom-seat" + (" is-turn" if turn else ""),
                        "data_seat": seat,
                        "aria_label": f"{names[seat]}: {plural(count, 'tile')}{score}{', to move' if turn else ''}",
                    },
                    h(
                        "div",
                        {"class_": "dom-seat-name"},
                        names[seat],
                        h("span", {"class_": "turn-dot", "aria_hidden": "true"}) if turn else "",
                    ),
                    h(
                        "div",
                        {"class_": "dom-seat-tiles"},
                        back_svg(count),
                        h("span", {"class_": "count"}, count),
                    ),
                    h(
                        "div",
                        {"class_": "dom-seat-meta"},
                        (f"{view['scores'][seat]} pts" if view["scores"] is not None else ""),
                        h("span", {"class_": "last"}, last_action.get(seat, "")),
                    ),
                )
            )
        return h("ul", {"class_": "dom-seats", "aria_label": "Other players"}, rows)

    def last_actions(self, view: dict[str, Any]) -> dict[int, str]:
        """Return each seat's latest public action this hand, in words."""
        out: dict[int, str] = {}
        draws: dict[int, int] = {}
        for event in view["history"]:
            seat, move = event["seat"], event["move"]
            if move == "draw":
                draws[seat] = draws.get(seat, 0) + 1
                out[seat] = f"drew {plural(draws[seat], 'tile')}"
            else:
                draws[seat] = 0
                out[seat] = "passed" if move == "pass" else f"laid {tile_text(event['tile'])}"
        return out

    def status(self, ctx: TableContext, view: dict[str, Any], names: list[str], hidden: bool) -> Markup:
        """Return the line that says whose turn it is and what they can do."""
        text = self.status_text(ctx, view, names, hidden)
        return h(
            "p", {"class_": "dom-status", "id": "dom-status", "role": "status", "aria_live": "polite"}, text
        )

    def status_text(self, ctx: TableContext, view: dict[str, Any], names: list[str], hidden: bool) -> str:
        """Return the status line's words."""
        if view["over"]:
            return self.result_title(ctx, view, names)
        turn = view["turn"]
        seat = ctx.session.seats[turn]
        if seat.is_computer:
            return f"{names[turn]} is thinking…"
        if hidden:
            return f"{names[turn]}'s turn. Pass the device to {names[turn]}."
        who = "Your" if names[turn] == "You" else f"{names[turn]}'s"
        legal = view["legal_moves"]
        selected = ctx.ui.get("selected")
        if selected and view["open_ends"]:
            left, right = view["open_ends"]
            return f"Choose an end for {selected}: left ({left}) or right ({right})."
        if view["opening"]:
            if len(legal) == 1:
                return f"{who} turn: open the hand with {legal[0]}."
            return f"{who} turn: open the hand with any tile."
        if any(m not in ("draw", "pass") for m in legal):
            left, right = view["open_ends"]
            return f"{who} turn: lay a tile that matches {left} or {right}."
        if "draw" in legal:
            return f"{who} turn: nothing fits. Draw from the stock."
        return f"{who} turn: nothing fits and the stock is empty. Pass."

    def board(self, ctx: TableContext, view: dict[str, Any]) -> Markup:
        """Return the line of play as SVG, bent into rows that fit the table's width."""
        line = [(t["tile"][0], t["tile"][1], t["double"]) for t in view["line"]]
        if not line:
            return h(
                "div",
                {"id": "table-board", "class_": "dom-board is-empty"},
                h(
                    "p",
                    {"class_": "dom-empty"},
                    "The table is empty: the hand opens with the highest double.",
                ),
            )
        opening = sum(1 for e in view["history"] if e["move"] not in ("draw", "pass") and e.get("end") == "L")
        unit = 24.0 if ctx.board_width < 560 else 30.0
        reach = reach_for_width(ctx.board_width - 8, unit)
        placed = layout_line(line, opening, reach)
        left, top, width, height = bounds(placed)
        scale = 40.0
        fresh = self.fresh_index(view, opening, len(line))
        selected = ctx.ui.get("selected")
        tiles = []
        for tile in placed:
            cls = []
            props: dict[str, str] = {}
            if tile.index == fresh:
                cls.append("fresh")
            if selected and tile.index in (0, len(placed) - 1):
                end = "L" if tile.index == 0 else "R"
                if len(placed) > 1 or end == "L":
                    cls.append("end-target")
                    props = {"data_action": "end", "data_value": end}
            tiles.append(tile_svg(tile.x, tile.y, tile.w, tile.h, tile.halves, scale, " ".join(cls), props))
        label = "Line of play: " + ", ".join(tile_text((t["tile"][0], t["tile"][1])) for t in view["line"])
        svg = h(
            "svg",
            {
                "class_": "dom-line",
                "viewBox": f"{_n(left * scale)} {_n(top * scale)} {_n(width * scale)} {_n(height * scale)}",
                "width": _n(width * unit),
                "height": _n(height * unit),
                "role": "img",
                "aria_label": label,
            },
            tiles,
        )
        return h("div", {"id": "table-board", "class_": "dom-board"}, svg)

    def fresh_index(self, view: dict[str, Any], opening: int, length: int) -> int | None:
        """Return the line index of the tile laid last (to animate it)."""
        for event in reversed(view["history"]):
            if event["move"] in ("draw", "pass"):
                continue
            end = event.get("end")
            return 0 if end == "L" else length - 1 if end == "R" else opening
        return None

    def ends_and_stock(self, ctx: TableContext, view: dict[str, Any], hidden: bool) -> Markup:
        """Return the two Open ends boxes (buttons when a tile waits for its end) and the stock."""
        ends = view["open_ends"]
        selected = ctx.ui.get("selected") if not hidden else None
        boxes = []
        for index, end in enumerate(("L", "R")):
            value = "–" if ends is None else str(ends[index])
            label = f"{END_NAMES[end].title()} end"
            if selected and ends is not None:
                boxes.append(
                    h(
                        "button",
                        {
                            "type": "button",
                            "class_": "dom-end is-target",
                            "data_action": "end",
                            "data_value": end,
                            "id": f"end-{end}",
                            "aria_label": f"Lay {selected} on the {END_NAMES[end]} end, showing {value}",
                        },
                        h("span", {"class_": "dom-end-label"}, label),
                        h("span", {"class_": "dom-end-value"}, value),
                    )
                )
            else:
                boxes.append(
                    h(
                        "div",
                        {
                            "class_": "dom-end",
                            "id": f"end-{end}",
                            "aria_label": f"{label}: {value}",
                            "role": "group",
                        },
                        h("span", {"class_": "dom-end-label"}, label),
                        h("span", {"class_": "dom-end-value"}, value),
                    )
                )
        stock = view["stock"]
        draw_game = view["options"]["draw"]
        stock_box = h(
            "div",
            {
                "class_": "dom-stock",
                "aria_label": f"Stock: {plural(stock, 'tile')}" if draw_game else "Block game: no stock",
            },
            h("span", {"class_": "dom-end-label"}, "Stock" if draw_game else "Block game"),
            h("span", {"class_": "dom-end-value"}, stock if draw_game else "–"),
        )
        title = h("h2", {"class_": "sr-only"}, "Open ends")
        return h("section", {"class_": "dom-ends", "aria_label": "Open ends"}, title, boxes, stock_box)

    def hand(
        self, ctx: TableContext, view: dict[str, Any], names: list[str], seat: int, hidden: bool
    ) -> Markup:
        """Return the hand of the seat at the table, with Draw and Pass."""
        session = ctx.session
        legal = view["legal_moves"] if not hidden else []
        my_turn = view["turn"] == seat and not session.seats[seat].is_computer and not hidden
        playable = {m.split(":")[0] for m in legal if m not in ("draw", "pass")}
        selected = ctx.ui.get("selected")
        owner = "Your tiles" if names[seat] == "You" else f"{names[seat]}'s tiles"
        if hidden:
            tiles = h("p", {"class_": "dom-hidden-hand"}, f"{names[view['turn']]}'s tiles are hidden.")
        else:
            buttons = []
            for tile in view["hand"]:
                text = tile_text(tile)
                fits = text in playable
                cls = ["dom-hand-tile"]
                if my_turn and ctx.settings.suggestions:
                    cls.append("is-playable" if fits else "is-dim")
                if text == selected:
                    cls.append("is-selected")
                label = f"Tile {text}" + (
                    ", playable" if my_turn and ctx.settings.suggestions and fits else ""
                )
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
                        },
                        standalone_tile(tile[0], tile[1], scale=34),
                    )
                )
            tiles = h("div", {"class_": "dom-hand-tiles", "role": "group", "aria_label": owner}, buttons)
        draw_on = my_turn and "draw" in legal
        pass_on = my_turn and "pass" in legal
        controls = h(
            "div",
            {"class_": "dom-controls"},
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn" + (" btn-primary" if draw_on else ""),
                    "data_action": "draw",
                    "id": "draw",
                    "disabled": not draw_on,
                    "aria_keyshortcuts": "D",
                },
                "Draw from stock",
            )
            if view["options"]["draw"]
            else "",
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn" + (" btn-primary" if pass_on else ""),
                    "data_action": "pass",
                    "id": "pass",
                    "disabled": not pass_on,
                    "aria_keyshortcuts": "P",
                },
                "Pass",
            ),
            h(
                "button",
                {"type": "button", "class_": "btn btn-ghost", "data_action": "deselect", "id": "deselect"},
                "Cancel",
            )
            if selected and not hidden
            else "",
        )
        pips = "" if hidden else h("span", {"class_": "dom-pips"}, f"{view['pips']} pips")
        score = f" · {view['scores'][seat]} pts" if view["scores"] is not None else ""
        head = h(
            "div",
            {"class_": "dom-hand-head"},
            h("h2", {}, owner, h("span", {"class_": "dom-score"}, score)),
            pips,
        )
        return h(
            "section",
            {
                "class_": "dom-hand" + (" is-turn" if my_turn else ""),
                "aria_label": owner,
                "tabindex": "-1",
                "data_focus_home": True,
                "id": "dom-hand",
            },
            head,
            tiles,
            controls,
        )

    def log(self, view: dict[str, Any], names: list[str]) -> Markup:
        """Return the hand's moves so far, newest first."""
        lines: list[tuple[Any, str]] = []
        for event in view["history"]:
            who = names[event["seat"]]
            move = event["move"]
            if move == "draw":
                if lines and lines[-1][0] == who and lines[-1][1].startswith("drew"):
                    count = int(lines[-1][1].split()[1]) + 1
                    lines[-1] = (who, f"drew {plural(count, 'tile')}")
                    continue
                lines.append((who, "drew 1 tile"))
            elif move == "pass":
                lines.append((who, "passed"))
            elif event.get("end") is None:
                lines.append((who, f"opened with {tile_text(event['tile'])}"))
            else:
                lines.append((who, f"laid {tile_text(event['tile'])} on the {END_NAMES[event['end']]}"))
        items = [h("li", {}, f"{who} {what}") for who, what in reversed(lines[-12:])]
        title = f"Hand {view['hand_number']}" + (f" · first to {view['target']}" if view["target"] else "")
        return h(
            "details",
            {"class_": "dom-log"},
            h("summary", {}, f"{title}: moves"),
            h("ol", {}, items) if items else h("p", {}, "No moves yet."),
        )

    # -- dialogs --------------------------------------------------------------------------------------
    def dialog(self, ctx: TableContext, view: dict[str, Any], names: list[str], hidden: bool) -> Markup:
        """Return the overlay due now: game over, a finished hand, or the privacy screen."""
        seen = int(ctx.session.extra.get("seen_hands", 0))
        results = view["hand_results"]
        if view["over"]:
            return self.game_over(ctx, view, names)
        if len(results) > seen:
            return self.hand_over(ctx, view, names, results[-1])
        if hidden:
            who = names[view["turn"]]
            return h(
                "div",
                {
                    "class_": "overlay privacy",
                    "role": "dialog",
                    "aria_modal": "true",
                    "aria_labelledby": "privacy-title",
                },
                h(
                    "div",
                    {"class_": "dialog"},
                    h("h2", {"id": "privacy-title"}, f"{who}'s turn"),
                    h("p", {}, f"Pass the device to {who}. The others look away."),
                    h(
                        "button",
                        {
                            "type": "button",
                            "class_": "btn btn-primary",
                            "data_action": "reveal",
                            "id": "reveal",
                            "autofocus": True,
                        },
                        "Show my tiles",
                    ),
                ),
            )
        return Markup("")

    def result_title(self, ctx: TableContext, view: dict[str, Any], names: list[str]) -> str:
        """Return who won the game, in words."""
        outcome = view["outcome"] or {}
        winners = outcome.get("winners", [])
        if len(winners) != 1:
            tied = " and ".join(names[w] for w in winners)
            return f"A draw between {tied}." if tied else "A draw."
        winner = names[winners[0]]
        return "You win!" if winner == "You" else f"{winner} wins."

    def hand_table(self, view: dict[str, Any], names: list[str], result: dict[str, Any]) -> Markup:
        """Return a table of each seat's pips left, points for the hand, and total."""
        match = view["target"] is not None
        head = ["Player", "Pips left"] + (["Points", "Total"] if match else [])
        rows = []
        for seat, name in enumerate(names):
            points = result["points"] if result["winner"] == seat else 0
            cells = [h("th", {"scope": "row"}, name), h("td", {}, result["pips"][seat])]
            if match:
                cells += [h("td", {}, points), h("td", {}, result["scores"][seat])]
            left = result["hands"][seat] if seat < len(result["hands"]) else []
            cells.append(
                h(
                    "td",
                    {"class_": "left-tiles"},
                    [standalone_tile(a, b, vertical=False, scale=22, label=f"{a}-{b}") for a, b in left],
                )
            )
            rows.append(h("tr", {"class_": "is-winner" if result["winner"] == seat else ""}, cells))
        return h(
            "table",
            {"class_": "stats-table dom-summary"},
            h("thead", {}, h("tr", {}, [h("th", {"scope": "col"}, c) for c in head + ["Tiles left"]])),
            h("tbody", {}, rows),
        )

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
                text += f", scoring {result['points']} points"
            elif winner is None:
                text += ", so nobody scores"
        return text + "."

    def hand_over(
        self, ctx: TableContext, view: dict[str, Any], names: list[str], result: dict[str, Any]
    ) -> Markup:
        """Return the summary of a finished hand of a match that goes on."""
        return h(
            "div",
            {"class_": "overlay", "role": "dialog", "aria_modal": "true", "aria_labelledby": "hand-title"},
            h(
                "div",
                {"class_": "dialog"},
                h("h2", {"id": "hand-title"}, f"Hand {result['hand']} is over"),
                h("p", {}, self.hand_reason(view, names, result)),
                self.hand_table(view, names, result),
                h("p", {"class_": "hint"}, f"First to {view['target']} points wins the match."),
                h(
                    "div",
                    {"class_": "actions"},
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
                    ),
                ),
            ),
        )

    def game_over(self, ctx: TableContext, view: dict[str, Any], names: list[str]) -> Markup:
        """Return the end of the game: who won and why, the pips or the match score, what next."""
        result = view["hand_results"][-1] if view["hand_results"] else None
        reason = self.hand_reason(view, names, result) if result else ""
        if view["target"] is not None and result is not None:
            top = max(result["scores"])
            reason += (
                " Final score: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(result["scores"])) + "."
            )
            if view["outcome"]["winners"] and len(view["outcome"]["winners"]) == 1:
                who = names[view["outcome"]["winners"][0]]
                reason += f" {'You reach' if who == 'You' else who + ' reaches'} {top} of {view['target']} and {'win' if who == 'You' else 'wins'} the match."
        counted = ctx.session.vs_computer
        return h(
            "div",
            {"class_": "overlay", "role": "dialog", "aria_modal": "true", "aria_labelledby": "over-title"},
            h(
                "div",
                {"class_": "dialog"},
                h("h2", {"id": "over-title"}, self.result_title(ctx, view, names)),
                h("p", {}, reason),
                self.hand_table(view, names, result) if result else "",
                h(
                    "p",
                    {"class_": "hint"},
                    "Counted in your stats."
                    if counted
                    else "Same-device games are not counted in the stats.",
                ),
                h(
                    "div",
                    {"class_": "actions"},
                    h(
                        "button",
                        {
                            "type": "button",
                            "class_": "btn btn-primary",
                            "data_action": "start-game",
                            "data_value": "dominoes",
                            "id": "play-again",
                            "autofocus": True,
                        },
                        "Play again",
                    ),
                    h("a", {"class_": "btn", "href": "#/setup/dominoes"}, "New game"),
                    h("a", {"class_": "btn btn-ghost", "href": "#/"}, "Home"),
                ),
            ),
        )

    # -- actions -------------------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> None:
        """Turn a click into a move (or a change of selection)."""
        session = ctx.session
        seat = session.viewer()
        view = session.state.view(seat)
        if action == "reveal":
            ctx.ui["revealed"] = view["turn"]
            ctx.rerender()
        elif action == "next-hand":
            session.extra["seen_hands"] = len(view["hand_results"])
            ctx.save()
            ctx.rerender()
        elif action == "deselect":
            ctx.ui.pop("selected", None)
            ctx.rerender()
        elif action in ("draw", "pass"):
            ctx.ui.pop("selected", None)
            ctx.play(action)
        elif action == "tile":
            self.choose_tile(ctx, view, value)
        elif action == "end":
            selected = ctx.ui.pop("selected", None)
            if selected:
                ctx.play(f"{selected}:{value}")

    def choose_tile(self, ctx: TableContext, view: dict[str, Any], tile: str) -> None:
        """Play a tile that fits one way; select one that fits both ends; refuse one that does not fit."""
        moves = [m for m in view["legal_moves"] if m.split(":")[0] == tile]
        if not moves:
            ctx.ui.pop("selected", None)
            if view["opening"]:
                why = (
                    f"{tile} cannot open this hand: {view['legal_moves'][0]} must be laid first."
                    if len(view["legal_moves"]) == 1
                    else f"{tile} cannot open."
                )
            elif view["open_ends"]:
                left, right = view["open_ends"]
                why = f"{tile} does not fit: the ends show {left} and {right}."
            else:
                why = f"{tile} cannot be played now."
            ctx.play(f"{tile}:L" if view["open_ends"] else tile)  # the engine refuses it with its own words
            ctx.announce(why)
            return
        if len(moves) == 1:
            ctx.ui.pop("selected", None)
            ctx.play(moves[0])
            return
        if ctx.ui.get("selected") == tile:
            ctx.ui.pop("selected", None)
        else:
            ctx.ui["selected"] = tile
            ctx.announce(f"{tile} fits both ends: choose the left or the right end.")
        ctx.rerender()

    def on_key(self, ctx: TableContext, key: str) -> bool:
        """Offer shortcuts: D draws, P passes, L/R choose the end, Escape cancels a selection."""
        lowered = key.lower()
        if lowered == "d" and "draw" in self._legal(ctx):
            self.on_action(ctx, "draw", "")
        elif lowered == "p" and "pass" in self._legal(ctx):
            self.on_action(ctx, "pass", "")
        elif lowered in ("l", "r", "arrowleft", "arrowright") and ctx.ui.get("selected"):
            self.on_action(ctx, "end", "L" if lowered in ("l", "arrowleft") else "R")
        elif lowered == "escape" and ctx.ui.get("selected"):
            self.on_action(ctx, "deselect", "")
        else:
            return False
        return True

    def _legal(self, ctx: TableContext) -> list[str]:
        session = ctx.session
        seat = session.to_move()
        if seat is None or session.seats[seat].is_computer:
            return []
        view = session.state.view(seat)
        return [] if self.hand_hidden(ctx, view) else view["legal_moves"]


SCREEN = DominoesScreen()
