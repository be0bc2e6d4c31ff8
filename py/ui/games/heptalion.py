"""Heptalion's table screen: setup, the diamond, the select/undo/redo/confirm flow, privacy, puzzles.

Pure Python (no browser imports): the app calls ``SCREEN``'s methods (see ``ui.screen``) and puts the
returned markup into the page. Modes: a game (2-4 seats, each a person on this device or Automa+ at a
level; visible or hidden hands; original or random board; starting player), the puzzle "How many can
you fit?" (solo, with the solver's true maximum and one optimal layout on request) and the board lab
(a game on one of the cached, genuinely different original-style boards, with its checks shown).

The generic setup builds the seats as "you against the computer" or "all on this device"; the setup
here lets every seat be either, so the screen seats the players itself (``seats_from_form``) and names
the mode for the stats (``mode_from_form``: a game with more than one person on the device is its own
mode).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from boneyard.games.heptalion.board import (
    LAB_BOARDS,
    ORIGINAL,
    Board,
    board_problems,
    canonical_form,
)
from boneyard.games.heptalion.rules import HeptalionState, parse_move, selection_targets
from boneyard.games.heptalion.solve import solve
from boneyard.settings import MAX_NAME

from ..html import Markup, h, join, name_attr
from ..screen import Mode, Screen, TableContext
from ..session import Seat
from . import heptalion_view as hv

GAME_ID = "heptalion"
LEVELS = ("easy", "medium", "hard")
LEVEL_LABEL = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
WHO_LABEL = {
    "human": "Person on this device",
    "easy": "Automa+ Easy",
    "medium": "Automa+ Medium",
    "hard": "Automa+ Hard",
}
MODE_LABELS = {"game": "Game", "fit": "Puzzle: How many can you fit?", "lab": "Board lab"}


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _sel(
    form: Mapping[str, Any],
    fid: str,
    name: str,
    options: list[tuple[str, str]],
    value: str,
    label: str,
    hint: str = "",
) -> Markup:
    return h(
        "div",
        {"class_": "field"},
        h("label", {"for": fid}, label),
        h(
            "select",
            {"id": fid, "data_field": name},
            [h("option", {"value": v, "selected": v == value}, t) for v, t in options],
        ),
        h("p", {"class_": "hint"}, hint) if hint else "",
    )


class HeptalionScreen(Screen):
    """The table screen of Heptalion (``SCREEN``)."""

    game_id = GAME_ID

    def __init__(self) -> None:
        self._again: dict[str, Any] | None = None  # "play again" settings, merged into the form once

    # -- setup ------------------------------------------------------------------------------------------
    def modes(self) -> list[Mode]:
        """Return the three ways to play (the table's options come from ``mode_from_form``)."""
        return [
            Mode(
                "game",
                MODE_LABELS["game"],
                {"players": 2},
                None,
                "Place a tile each turn; whoever cannot place is out. Last one standing wins.",
            ),
            Mode(
                "fit",
                MODE_LABELS["fit"],
                {"players": 1},
                1,
                "Solo: fit as many different tiles as you can, then see the true maximum.",
            ),
            Mode(
                "lab",
                MODE_LABELS["lab"],
                {"players": 2, "board": "lab", "board_seed": 0},
                None,
                "Play on a genuinely different board where every tile also fits exactly three ways.",
            ),
        ]

    def _merge_again(self, form: dict[str, Any]) -> None:
        if self._again is not None:
            form.update(self._again)
            self._again = None

    def _who(self, form: Mapping[str, Any], seat: int) -> str:
        if seat == 0:
            return "human"
        default = "human" if form.get("opponents") == "device" else str(form.get(f"level_{seat}", "medium"))
        who = str(form.get(f"who_{seat}", default))
        return who if who in WHO_LABEL else "medium"

    def _players(self, form: Mapping[str, Any]) -> int:
        players = _int(form.get("players"), 2)
        return players if 2 <= players <= 4 else 2

    def custom_fields(self, form: dict[str, Any]) -> Markup:
        """Return the table's setup: players and seats, hands, board, starting player (or the puzzle's board)."""
        self._merge_again(form)
        opponents = form.get("opponents", "computer")
        if (
            form.get("_opp", opponents) != opponents
        ):  # the Opponents preset changed: drop explicit seat choices
            for key in [k for k in form if k.startswith("who_")]:
                del form[key]
        form["_opp"] = opponents
        mode = str(form.get("mode", "game"))
        parts: list[Markup] = []
        if mode == "fit":
            options = [("original", "The original board"), ("random", "A new random board")]
            if form.get("last_random") is not None:
                options.append(
                    (f"random:{form['last_random']}", f"The last random board (#{form['last_random']})")
                )
            options += [(f"lab:{i}", f"Lab board {i + 1}") for i in range(len(LAB_BOARDS))]
            parts.append(
                _sel(
                    form,
                    "hx-fit-board",
                    "fit_board",
                    options,
                    str(form.get("fit_board", "original")),
                    "Board",
                    "Every symbol 8 times; on the original and lab boards every tile fits exactly three ways.",
                )
            )
            return h("div", {"class_": "hx-setup hx-solo"}, parts)
        players = self._players(form)
        parts.append(
            _sel(
                form,
                "hx-players",
                "players",
                [(str(n), f"{n} players") for n in (2, 3, 4)],
                str(players),
                "Players",
                {2: "14 tiles each.", 3: "9 tiles each; one more is set aside face up.", 4: "7 tiles each."}[
                    players
                ],
            )
        )
        rows = []
        for seat in range(players):
            who = self._who(form, seat)
            if seat == 0:
                control = h("span", {"class_": "hx-seat-fixed"}, "Person on this device (you)")
            else:
                control = h(
                    "select",
                    {
                        "id": f"hx-who-{seat}",
                        "data_field": f"who_{seat}",
                        "aria_label": f"Seat {seat + 1} is played by",
                    },
                    [h("option", {"value": v, "selected": v == who}, t) for v, t in WHO_LABEL.items()],
                )
            name = ""
            if who == "human":
                default = "" if seat == 0 else f"Player {seat + 1}"
                name = h(
                    "input",
                    {
                        "id": f"hx-name-{seat}",
                        "type": "text",
                        "data_field": f"name_{seat}",
                        "maxlength": MAX_NAME,
                        "value": str(form.get(f"name_{seat}", default)),
                        "placeholder": "Your name" if seat == 0 else "Name",
                        "autocomplete": "off",
                        "aria_label": f"Seat {seat + 1} name",
                    },
                )
            rows.append(
                h(
                    "div",
                    {"class_": "hx-seat-row"},
                    h("span", {"class_": "hx-seat-no"}, f"Seat {seat + 1}"),
                    control,
                    name,
                )
            )
        parts.append(h("fieldset", {"class_": "hx-seats"}, h("legend", {}, "Seats (in playing order)"), rows))
        parts.append(
            h(
                "fieldset",
                {"class_": "radios hx-radios"},
                h("legend", {}, "Hands"),
                [
                    h(
                        "label",
                        {"class_": "radio"},
                        h(
                            "input",
                            {
                                "type": "radio",
                                "name": "hx-hands",
                                "value": v,
                                "checked": form.get("hands", "visible") == v,
                                "data_field": "hands",
                            },
                        ),
                        h("span", {}, t),
                    )
                    for v, t in (
                        ("visible", "Visible to all"),
                        ("hidden", "Hidden (only the owner sees them)"),
                    )
                ],
            )
        )
        if mode == "lab":
            number = _int(form.get("lab"), 0) % len(LAB_BOARDS)
            parts.append(
                _sel(
                    form,
                    "hx-lab",
                    "lab",
                    [(str(i), f"Lab board {i + 1}") for i in range(len(LAB_BOARDS))],
                    str(number),
                    "Lab board",
                )
            )
            parts.append(lab_proof(LAB_BOARDS[number]))
        else:
            options = [("original", "Original"), ("random", "Random (Heptalion (Random))")]
            parts.append(
                _sel(
                    form,
                    "hx-board",
                    "board",
                    options,
                    str(form.get("board", "original")),
                    "Board",
                    "Random: a new arrangement for this game, every tile fits at least two ways.",
                )
            )
        start_options = [("random", "Random")] + [
            (
                str(s),
                f"Seat {s + 1}"
                + (
                    f" ({name_attr(form.get(f'name_{s}'))})"
                    if self._who(form, s) == "human" and form.get(f"name_{s}")
                    else ""
                    if self._who(form, s) == "human"
                    else f" (Automa+ {LEVEL_LABEL[self._who(form, s)]})"
                ),
            )
            for s in range(players)
        ]
        loser = form.get("loser")
        if loser is not None and _int(loser, -1) < players:
            start_options.append(("loser", f"Loser of the previous game (seat {_int(loser, 0) + 1})"))
        start = str(form.get("start", "random"))
        if start not in {v for v, _ in start_options}:
            start = "random"
        parts.append(
            _sel(
                form,
                "hx-start",
                "start",
                start_options,
                start,
                "Starting player",
                "Marked with ★ at the table.",
            )
        )
        return h("div", {"class_": "hx-setup"}, parts)

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the chosen mode (options ready for the engine) and the number of players."""
        self._merge_again(form)
        mode = str(form.get("mode", "game"))
        if mode == "fit":
            choice = str(form.get("fit_board", "original"))
            options: dict[str, Any] = {"players": 1, "board": "original"}
            kind, _, number = choice.partition(":")
            if kind == "random":
                options["board"] = "random"
                if number:
                    options["board_seed"] = _int(number, 0)
            elif kind == "lab":
                options["board"] = "lab"
                options["board_seed"] = _int(number, 0) % len(LAB_BOARDS)
            note = "Solo: fit as many different tiles as you can, then see the true maximum."
            label = MODE_LABELS["fit"] + {"random": ", random board", "lab": ", lab board"}.get(
                options["board"], ""
            )
            return Mode(f"fit-{options['board']}", label, options, 1, note), 1
        players = self._players(form)
        hidden = form.get("hands", "visible") == "hidden"
        options = {"players": players, "hidden": hidden}
        if mode == "lab":
            options["board"] = "lab"
            options["board_seed"] = _int(form.get("lab"), 0) % len(LAB_BOARDS)
            board = "lab"
        else:
            mode = "game"
            board = "random" if form.get("board") == "random" else "original"
            options["board"] = board
        start = str(form.get("start", "random"))
        if start == "loser" and form.get("loser") is not None:
            seat = _int(form.get("loser"), 0)
            options["start"] = seat if 0 <= seat < players else None
        elif start.isdigit() and int(start) < players:
            options["start"] = int(start)
        else:
            options["start"] = None
        humans = sum(1 for s in range(players) if self._who(form, s) == "human")
        key = f"{mode}-{board if mode == 'game' else 'lab'}-{players}" + ("-hidden" if hidden else "")
        label = (
            f"{MODE_LABELS[mode]}, {players} players"
            + (", hidden hands" if hidden else "")
            + (", random board" if board == "random" else "")
        )
        if humans > 1:  # people playing each other on one device: not a result against the computer
            key += "-device"
            label += f", {humans} people on this device"
        notes = {m.key: m.note for m in self.modes()}
        return Mode(key, label, options, None, notes[mode]), players

    def final_scores(self, session: Any) -> dict[str, float] | None:
        """Return a finished puzzle's result (tiles fitted), kept as the best of its board's mode."""
        outcome = session.state.outcome()
        if outcome is None or outcome.termination != "fit" or not outcome.scores:
            return None
        return {"tiles": outcome.scores[0]}

    def seats_from_form(self, form: dict[str, Any], settings: Any) -> list[Seat]:
        """Seat the players chosen in setup: each a person on this device or Automa+ at a level."""
        self._merge_again(form)
        if str(form.get("mode", "game")) == "fit":
            return [Seat("human", str(form.get("name_0", "")).strip() or settings.name)]
        seats = []
        for s in range(self._players(form)):
            who = self._who(form, s)
            if who == "human":
                name = str(form.get(f"name_{s}", "")).strip()
                seats.append(Seat("human", name or (settings.name if s == 0 else f"Player {s + 1}")))
            else:
                seats.append(Seat("computer", f"Automa+ {s + 1} ({LEVEL_LABEL[who]})", who))
        return seats

    # -- state helpers ----------------------------------------------------------------------------------------
    @staticmethod
    def _names(ctx: TableContext) -> list[str]:
        return [name_attr(seat.name) for seat in ctx.session.seats]  # isolated right-to-left text

    @staticmethod
    def _ui(ctx: TableContext) -> dict[str, Any]:
        ui = ctx.ui
        ui.setdefault("steps", [(None, None, None)])
        ui.setdefault("at", 0)
        return ui

    def _choice(self, ctx: TableContext) -> tuple[str | None, int | None, int | None]:
        ui = self._ui(ctx)
        return tuple(ui["steps"][ui["at"]])

    def _step(self, ctx: TableContext, choice: tuple[str | None, int | None, int | None]) -> None:
        ui = self._ui(ctx)
        if tuple(ui["steps"][ui["at"]]) == choice:
            return
        del ui["steps"][ui["at"] + 1 :]
        ui["steps"].append(choice)
        ui["at"] = len(ui["steps"]) - 1

    def _reset_choice(self, ctx: TableContext) -> None:
        ctx.ui["steps"] = [(None, None, None)]
        ctx.ui["at"] = 0

    @staticmethod
    def _game(session: Any) -> HeptalionState:
        """Return the session's state as the Heptalion state it is."""
        return cast(HeptalionState, session.state)

    def _privacy(self, ctx: TableContext) -> bool:
        """Tell whether a privacy screen hides the table (hidden hands, several people, a person to move)."""
        session = ctx.session
        if not self._game(session).hidden or len(session.human_seats) < 2 or session.state.is_over():
            return False
        turn = session.to_move()
        if turn is None or session.seats[turn].is_computer:
            return False
        return ctx.ui.get("shown") != (turn, len(self._game(session).covered))

    def _hand_visible_to_viewer(self, ctx: TableContext, viewer: int) -> bool:
        session = ctx.session
        if not self._game(session).hidden or len(session.human_seats) < 2 or session.state.is_over():
            return True
        turn = session.to_move()
        return turn == viewer and not self._privacy(ctx)

    def _targets(self, ctx: TableContext, view: Mapping[str, Any]) -> dict[str, dict[int, list[int]]]:
        session = ctx.session
        turn = session.to_move()
        if turn is None or turn != view["seat"] or session.seats[turn].is_computer or self._privacy(ctx):
            return {}
        return selection_targets(view["legal_moves"])

    def _valid_choice(
        self, ctx: TableContext, targets: Mapping[str, Mapping[int, list[int]]]
    ) -> tuple[str | None, int | None, int | None]:
        """Return the current choice, dropped back to nothing if the position moved on under it."""
        tile, first, second = self._choice(ctx)
        if tile is not None and (
            tile not in targets
            or (
                first is not None
                and (
                    first not in targets[tile] or (second is not None and second not in targets[tile][first])
                )
            )
        ):
            self._reset_choice(ctx)
            return (None, None, None)
        return (tile, first, second)

    @staticmethod
    def _move_text(view: Mapping[str, Any], tile: str, first: int, second: int) -> str:
        spaces = view["spaces"]
        return str(parse_move(f"{spaces[first]['symbol']}-{spaces[second]['symbol']}@{first},{second}"))

    # -- drawing ---------------------------------------------------------------------------------------------
    def render(self, ctx: TableContext) -> Markup:
        """Return the table."""
        session = ctx.session
        state = session.state
        viewer = session.viewer()
        view = state.view(viewer)
        names = self._names(ctx)
        ui = self._ui(ctx)
        history = view["history"]
        seen = ui.get("seen")
        if seen is None or seen > len(history):
            seen = len(history)
        fresh = [e for e in history[seen:] if e["kind"] in ("eliminated", "winner", "no_fit")]
        if fresh:
            # The status line says who won; the news line keeps the eliminations.
            ui["news"] = [hv.event_text(e, names) for e in fresh if e["kind"] == "eliminated"]
            ui.setdefault("announce", []).extend(hv.event_text(e, names) for e in fresh)
        ui["seen"] = len(history)
        privacy = self._privacy(ctx)
        targets = self._targets(ctx, view)
        tile, first, second = self._valid_choice(ctx, targets)
        solo = view["solo"]

        clickable: list[int] = []
        pending = None
        if tile is not None and first is None:
            clickable = list(targets[tile])
        elif tile is not None and first is not None and second is None:
            clickable = [*targets[tile][first], first]
        elif tile is not None and first is not None and second is not None:
            pending = (tile, first, second)

        # The board (or the optimal layout beside it in the puzzle).
        board_markup = hv.board(view, clickable=clickable, first=first, pending=pending)
        extra_board: Markup | str = ""
        solution = session.extra.get("hx_max")
        if solo and solution and ui.get("show_layout", True):
            extra_board = h(
                "section",
                {"class_": "hx-solution"},
                h("h2", {}, f"One optimal layout: {solution['max']} tiles"),
                hv.board(view, solution=solution["layout"], board_id=None, label="One optimal layout"),
            )

        status = self._status(ctx, view, names, privacy, (tile, first, second))
        controls = self._controls(ctx, view, targets, (tile, first, second), privacy)

        # Panels: yours first, then the others in playing order.
        panels = []
        show_own = self._hand_visible_to_viewer(ctx, viewer)
        for s in hv.seat_order(view["players"], viewer):
            sv = view["seats"][s]
            seat = session.seats[s]
            mine = s == viewer
            hand = sv["hand"]
            if state.is_over():
                hand = state.view(s)["hand"]
            elif mine and not show_own:
                hand = None
            who = (
                "You"
                if mine and not seat.is_computer and len(session.human_seats) == 1
                else (
                    f"Automa+ {LEVEL_LABEL.get(seat.level or '', '')}".strip()
                    if seat.is_computer
                    else "Person"
                )
            )
            panels.append(
                hv.panel(
                    sv,
                    name=names[s],
                    who=who,
                    eliminated=view["eliminated"],
                    turn=view["turn"],
                    mine=mine,
                    hand=hand,
                    playable=targets.keys() if mine else (),
                    selected=tile if mine else None,
                    thinking=seat.is_computer and view["turn"] == s,
                )
            )
        items: list[Any] = [status]
        if state.is_over():
            items.append(self._results(ctx, view, names))
        items.append(controls)
        items.append(panels[0])
        if view["discard"]:
            items.append(
                h(
                    "p",
                    {"class_": "hx-discard"},
                    "Set aside face up (not used): ",
                    hv.tile_button(view["discard"], playable=False, small=True),
                    " ",
                    hv.tile_name(view["discard"]),
                )
            )
        if len(panels) > 1:
            items.append(h("div", {"class_": "hx-others"}, panels[1:]))
        if not solo:
            items.append(hv.log(history, names))
        if view["board"]["kind"] == "lab":
            items.append(
                lab_proof(Board.from_rows(view["board"]["rows"], "lab", view["board"]["seed"]), compact=True)
            )
        items.append(hv.legend())
        split = items.index(panels[0]) + 1

        overlay: Markup | str = ""
        if privacy:
            turn = session.to_move()
            assert turn is not None  # a privacy screen is for the person to move
            overlay = h(
                "div",
                {
                    "class_": "overlay privacy hx-privacy",
                    "role": "dialog",
                    "aria_modal": "true",
                    "aria_labelledby": "hx-privacy-title",
                },
                h(
                    "div",
                    {"class_": "dialog"},
                    h("h2", {"id": "hx-privacy-title"}, f"Pass the device to {names[turn]}"),
                    h("p", {}, "Hands are hidden. Only the player to move should look."),
                    h(
                        "div",
                        {"class_": "actions"},
                        h(
                            "button",
                            {
                                "type": "button",
                                "class_": "btn btn-primary",
                                "data_action": "reveal",
                                "id": "hx-reveal",
                            },
                            f"I am {names[turn]}: show my tiles",
                        ),
                    ),
                ),
            )
        board_kind = view["board"]["kind"]
        caption = {
            "original": "Original board",
            "random": f"Random board #{view['board']['seed']}",
            "lab": f"Lab board {(view['board']['seed'] or 0) + 1}",
        }.get(board_kind, "Custom board")
        main = h(
            "div",
            {"class_": "hx-main", "id": "hx-main"},
            h(
                "div",
                {"class_": "hx-board-wrap"},
                board_markup,
                h("p", {"class_": "hx-caption"}, caption, f" · {len(view['covered'])} placed"),
            ),
            extra_board,
        )
        return join(
            [
                hv.sprite(),
                h(
                    "div",
                    {
                        "class_": "hx-table" + (" is-solo" if solo else ""),
                        "data_game": GAME_ID,
                        "data_turn": "" if view["turn"] is None else str(view["turn"]),
                        "data_over": "true" if state.is_over() else "false",
                        "aria_hidden": "true" if privacy else None,
                    },
                    items[:split],
                    main,
                    items[split:],
                ),
                overlay,
            ]
        )

    def _status(
        self,
        ctx: TableContext,
        view: Mapping[str, Any],
        names: list[str],
        privacy: bool,
        choice: tuple[str | None, int | None, int | None],
    ) -> Markup:
        session = ctx.session
        turn = session.to_move()
        news = ctx.ui.get("news") or []
        tile, first, second = choice
        if turn is None or session.state.is_over():
            text = ending_text(view, names, view["seat"] if len(session.human_seats) == 1 else None)
            cls = "is-over"
        elif privacy:
            text, cls = f"{names[turn]} to move.", ""
        elif session.seats[turn].is_computer:
            text, cls = f"{names[turn]}: Automa+ is thinking…", "is-thinking"
        elif tile is None:
            who = (
                "Your turn" if len(session.human_seats) == 1 or view["solo"] else f"{names[turn]}, your turn"
            )
            text, cls = f"{who}: pick a tile.", "is-you"
        elif first is None:
            text, cls = f"{hv.tile_name(tile)}: tap the space for one of its ends.", "is-you"
        elif second is None:
            text, cls = "Now tap the space for its other end (or the first space again to reset).", "is-you"
        else:
            text, cls = f"Confirm to place {hv.tile_name(tile)}, or undo.", "is-you"
        lines = [h("p", {"class_": "hx-status-main"}, text)]
        lines += [h("p", {"class_": "hx-news"}, n) for n in news[-3:]]
        return h("div", {"class_": f"hx-status {cls}", "role": "status", "id": "hx-status"}, lines)

    def _controls(
        self,
        ctx: TableContext,
        view: Mapping[str, Any],
        targets: Mapping[str, Any],
        choice: tuple[str | None, int | None, int | None],
        privacy: bool,
    ) -> Markup:
        session = ctx.session
        ui = self._ui(ctx)
        buttons = []
        if session.state.is_over():
            again = "Try again" if view["solo"] else "Play again"
            buttons.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-primary",
                        "data_action": "start-game",
                        "data_value": GAME_ID,
                        "id": "hx-again",
                    },
                    again,
                )
            )
            if view["solo"] and view["covered"]:
                buttons.append(
                    h(
                        "button",
                        {"type": "button", "class_": "btn", "data_action": "takeback", "id": "hx-takeback"},
                        "Take back a tile",
                    )
                )
            buttons.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-ghost",
                        "data_action": "new-game",
                        "data_value": GAME_ID,
                    },
                    "New game…",
                )
            )
            self._remember_again(ctx, view)
        elif targets and not privacy:
            complete = choice[2] is not None
            buttons.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn",
                        "data_action": "undo",
                        "id": "hx-undo",
                        "disabled": ui["at"] == 0,
                        "aria_keyshortcuts": "Backspace",
                    },
                    "↶ Undo",
                )
            )
            buttons.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn",
                        "data_action": "redo",
                        "id": "hx-redo",
                        "disabled": ui["at"] >= len(ui["steps"]) - 1,
                    },
                    "Redo ↷",
                )
            )
            buttons.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-primary",
                        "data_action": "confirm",
                        "id": "hx-confirm",
                        "disabled": not complete,
                    },
                    "Confirm",
                )
            )
            if view["solo"] and view["covered"]:
                buttons.append(
                    h(
                        "button",
                        {
                            "type": "button",
                            "class_": "btn btn-ghost",
                            "data_action": "takeback",
                            "id": "hx-takeback",
                        },
                        "Take back a tile",
                    )
                )
        if view["solo"]:
            if session.extra.get("hx_max"):
                best = session.extra["hx_max"]["max"]
                buttons.append(
                    h(
                        "button",
                        {
                            "type": "button",
                            "class_": "btn btn-ghost",
                            "data_action": "toggle-layout",
                            "id": "hx-toggle-layout",
                        },
                        "Hide the layout" if ui.get("show_layout", True) else "Show the layout",
                    )
                )
                info = h(
                    "p",
                    {"class_": "hx-max", "id": "hx-max"},
                    f"The maximum on this board is {best} tiles",
                    f" (you have {len(view['covered'])})." if view["covered"] else ".",
                )
            else:
                buttons.append(
                    h(
                        "button",
                        {"type": "button", "class_": "btn", "data_action": "show-max", "id": "hx-show-max"},
                        "Show the maximum",
                    )
                )
                info = h(
                    "p",
                    {"class_": "hx-max"},
                    f"Placed {len(view['covered'])} of 28 tiles. No board takes all 28: at most 24 fit.",
                )
            return h("div", {"class_": "hx-controls"}, h("div", {"class_": "actions"}, buttons), info)
        return (
            h("div", {"class_": "hx-controls"}, h("div", {"class_": "actions"}, buttons))
            if buttons
            else Markup("")
        )

    def _results(self, ctx: TableContext, view: Mapping[str, Any], names: list[str]) -> Markup:
        outcome = view["outcome"]
        if view["solo"]:
            best = ctx.session.extra.get("hx_max")
            placed = outcome["scores"][0]
            line = f"You fitted {placed} tiles." + (f" The true maximum is {best['max']}." if best else "")
            if best and placed >= best["max"]:
                line += " That is the maximum: perfect!"
            return h(
                "section",
                {"class_": "hx-results", "aria_label": "Result"},
                h("h2", {}, "Puzzle over"),
                h("p", {}, line),
            )
        rows = []
        order = view["eliminated"]
        for s in sorted(
            range(view["players"]),
            key=lambda s: (outcome["placings"][s], -(order.index(s) if s in order else 99)),
        ):
            place = outcome["placings"][s]
            out = (
                f"out {hv.ORDINAL.get(order.index(s) + 1)}"
                if s in order
                else ("last standing" if place == 1 else "—")
            )
            rows.append(
                h(
                    "tr",
                    {"class_": "is-winner" if place == 1 else ""},
                    h("td", {}, "1st" if place == 1 else "2nd (shared)"),
                    h("th", {"scope": "row"}, names[s]),
                    h("td", {}, out),
                    h("td", {}, str(outcome["scores"][s])),
                )
            )
        return h(
            "section",
            {"class_": "hx-results", "aria_label": "Placings"},
            h("h2", {}, f"{names[outcome['winners'][0]]} wins"),
            h(
                "table",
                {"class_": "hx-placings"},
                h(
                    "thead",
                    {},
                    h(
                        "tr",
                        {},
                        [h("th", {"scope": "col"}, c) for c in ("Place", "Player", "", "Tiles left")],
                    ),
                ),
                h("tbody", {}, rows),
            ),
        )

    def _remember_again(self, ctx: TableContext, view: Mapping[str, Any]) -> None:
        """Keep the finished game's setup so "Play again" (and the setup screen) start from it."""
        session = ctx.session
        again: dict[str, Any] = {}
        board = view["board"]
        if view["solo"]:
            again["mode"] = "fit"
            kind = board["kind"]
            if kind == "random":
                again["fit_board"] = f"random:{board['seed']}"
                again["last_random"] = board["seed"]
            elif kind == "lab":
                again["fit_board"] = f"lab:{board['seed']}"
            else:
                again["fit_board"] = "original"
        else:
            again["mode"] = "lab" if board["kind"] == "lab" else "game"
            if board["kind"] == "lab":
                again["lab"] = str(board["seed"])
            else:
                again["board"] = "random" if board["kind"] == "random" else "original"
            again["players"] = str(view["players"])
            again["hands"] = "hidden" if view["hidden"] else "visible"
            for s, seat in enumerate(session.seats):
                if s:
                    again[f"who_{s}"] = "human" if not seat.is_computer else (seat.level or "medium")
                if not seat.is_computer:
                    again[f"name_{s}"] = seat.name
            again["opponents"] = "computer"
            again["_opp"] = "computer"
            loser = view["eliminated"][0] if view["eliminated"] else None
            if loser is not None:
                again["loser"] = loser
                again["start"] = "loser"
        self._again = again

    # -- actions ---------------------------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> None:
        """Handle a click on the table."""
        session = ctx.session
        if action == "reveal":
            turn = session.to_move()
            if turn is not None:
                ctx.ui["shown"] = (turn, len(self._game(session).covered))
                self._reset_choice(ctx)
            ctx.rerender()
            return
        if action == "show-max":
            self._solve(ctx)
            ctx.rerender()
            return
        if action == "toggle-layout":
            ctx.ui["show_layout"] = not ctx.ui.get("show_layout", True)
            ctx.rerender()
            return
        if action == "takeback":
            self._take_back(ctx)
            return
        viewer = session.viewer()
        view = session.state.view(viewer)
        targets = self._targets(ctx, view)
        if not targets:
            return
        tile, first, second = self._valid_choice(ctx, targets)
        ctx.ui["news"] = []
        if action == "tile":
            if (value in targets and value != tile) or (value == tile and first is not None):
                self._step(ctx, (value, None, None))
        elif action == "space":
            space = _int(value, -1)
            if tile is None or second is not None:
                return
            if first is None:
                if space in targets[tile]:
                    self._step(ctx, (tile, space, None))
            elif space == first:
                self._step(ctx, (tile, None, None))  # tapping the first space again resets it
            elif space in targets[tile][first]:
                self._step(ctx, (tile, first, space))
        elif action == "undo":
            if ctx.ui["at"] > 0:
                ctx.ui["at"] -= 1
        elif action == "redo":
            if ctx.ui["at"] < len(ctx.ui["steps"]) - 1:
                ctx.ui["at"] += 1
        elif action == "confirm":
            if tile is None or first is None or second is None:
                return
            move = self._move_text(view, tile, first, second)
            steps, at = ctx.ui["steps"], ctx.ui["at"]
            self._reset_choice(ctx)
            if not ctx.play(move):
                ctx.ui["steps"], ctx.ui["at"] = steps, at
                ctx.rerender()
            else:
                ctx.announce(f"{name_attr(session.seats[viewer].name)} placed {hv.tile_name(tile)}.")
            return
        else:
            return
        ctx.rerender()

    def _solve(self, ctx: TableContext) -> None:
        session = ctx.session
        if session.extra.get("hx_max"):
            return
        state = self._game(session)
        solution = solve(state.board)
        session.extra["hx_max"] = {
            "max": solution.max_tiles,
            "layout": [
                {"tile": f"{m.tile[0]}-{m.tile[1]}", "spaces": list(m.spaces)} for m in solution.layout
            ],
            "proven": solution.proven,
        }
        ctx.ui["show_layout"] = True
        ctx.announce(f"The maximum on this board is {solution.max_tiles} tiles. One optimal layout is shown.")
        if not state.is_over():
            ctx.save()

    def _take_back(self, ctx: TableContext) -> None:
        """Lift the last tile in the solo puzzle (replaying the others)."""
        session = ctx.session
        if session.state.players != 1 or not self._game(session).covered:
            return
        if session.state.can_undo():
            session.state.undo()
        else:  # loaded from a save: rebuild without the last move
            data = session.state.to_dict()
            data["moves"] = data["moves"][:-1]
            data.pop("turn_number", None)
            session.state = session.info.from_dict(data)
        session.recorded = False
        self._reset_choice(ctx)
        ctx.ui["news"] = []
        ctx.ui["seen"] = len(self._game(session).history)
        ctx.save()
        ctx.rerender()

    def on_key(self, ctx: TableContext, key: str) -> bool:
        """Keyboard: Backspace undoes a step of the choice, Escape clears it (letters stay free for the
        browser's own shortcuts, which the app cannot tell apart: it passes no modifier keys)."""
        if key == "Backspace" and ctx.ui.get("at", 0) > 0:
            self.on_action(ctx, "undo", "")
            return True
        if key == "Escape" and self._choice(ctx) != (None, None, None):
            self._step(ctx, (None, None, None))
            ctx.rerender()
            return True
        return False

    def after_render(self, ctx: TableContext) -> None:
        """Read out eliminations and the winner once."""
        pending = ctx.ui.pop("announce", None)
        if pending:
            ctx.announce(" ".join(pending))

    def leave(self, ctx: TableContext) -> None:
        """Nothing runs in the background; the save is already current."""


def ending_text(view: Mapping[str, Any], names: list[str], you: int | None = None) -> str:
    """Word how the game ended from the view's facts (the engine writes no sentences).

    ``names`` are the players' names by seat; ``you`` is the one person playing against the computer
    (None when several people share the device: then everybody is named).
    """
    outcome = view["outcome"]
    if view["solo"]:
        placed = outcome["scores"][0]
        return f"No more tiles fit. You placed {placed} tile{'s' if placed != 1 else ''}."
    winner = outcome["winners"][0]
    if view["players"] == 2:
        loser = 1 - winner
        if you == winner:
            return f"{names[loser]} cannot place a tile: you win!"
        if you == loser:
            return f"None of your tiles fits: {names[winner]} wins."
        return f"{names[loser]} cannot place a tile: {names[winner]} wins!"
    if you == winner:
        return "You are the last player standing: you win! Everyone else shares second place."
    return f"{names[winner]} is the last player standing and wins! Everyone else shares second place."


def lab_proof(board: Board, compact: bool = False) -> Markup:
    """Return the checks that make a lab board original-style and genuinely different."""
    counts = board.symbol_counts()
    placements = board.placement_counts()
    problems = board_problems(board, 3, exact=True)
    different = canonical_form(board) != canonical_form(ORIGINAL)
    checks = [
        ("56 spaces in the diamond", len(board.symbols) == 56),
        ("each symbol 8 times", all(n == 8 for n in counts.values())),
        (
            "each of the 28 tiles fits exactly 3 ways",
            all(n == 3 for n in placements.values()) and not problems,
        ),
        ("not the original, whatever the rotation, reflection or renaming of symbols", different),
    ]
    items = [
        h("li", {"class_": "is-ok" if ok else "is-bad"}, ("✓ " if ok else "✗ ") + text) for text, ok in checks
    ]
    return h(
        "section",
        {"class_": "hx-lab-proof" + (" is-compact" if compact else ""), "aria_label": "Board lab checks"},
        h("h3", {}, "Board lab: checked"),
        h("ul", {}, items),
    )


SCREEN = HeptalionScreen()
