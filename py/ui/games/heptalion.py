"""Heptalion's table screen: setup, the diamond, the select/undo/redo/confirm flow, privacy, puzzles.

Pure Python (no browser imports): the app calls ``SCREEN``'s methods (see ``ui.table_screen``) and puts the
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

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
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

from .. import frame, kit
from ..html import Markup, h, join, name_attr
from ..intents import Announce, Intents, Play, Refuse, Remember, Render, Save
from ..online.remote import public_hands
from ..results import stats_note
from ..session import Seat
from ..table_screen import Mode, Screen, TableContext, TableState
from . import heptalion_view as hv

GAME_ID = "heptalion"
LEVELS = ("easy", "medium", "hard", "expert")
LEVEL_LABEL = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}
WHO_LABEL = {
    "human": "Person on this device",
    "easy": "Computer, easy",
    "medium": "Computer, medium",
    "hard": "Computer, hard",
    "expert": "Computer, expert",
}
MODE_LABELS = {"game": "Game", "fit": "Puzzle: How many can you fit?", "lab": "Other boards"}
FACES_KEY = "_faces"  # the setup form's note of the Faces choice, carried to the next game
ZOOM_MIN, ZOOM_MAX = -1, 2  # -1 the whole board; 0 cells of at least 40 px; 1, 2 bigger


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


Choice = tuple[str | None, int | None, int | None]  # (tile, first space, second space) chosen so far
NO_CHOICE: Choice = (None, None, None)


@dataclass
class HeptalionTableState(TableState):
    """The Heptalion table's own state: the choice and its undo steps, the view's switches, the news."""

    steps: list[Choice] = field(default_factory=lambda: [NO_CHOICE])  # the choice's steps (undo, redo)
    at: int = 0  # the step shown
    faces: bool = False  # the placed dominoes show their symbols
    remembered: bool = False  # the finished game's setup is kept in the app's form (Play again)
    seen: int | None = None  # the events the last render showed (later ones are news)
    news: list[str] = field(default_factory=list)  # the latest eliminations, said before the turn text
    show_layout: bool = False  # the puzzle's optimal layout instead of the player's board
    menu: bool = False  # the "More" menu is open
    zoom: int = 0
    pan: tuple[float, float] | None = None  # the board's scroll, as fractions (``heptalion_dom``)
    focus: bool = False  # move the keyboard focus to the board (or the tray) after the next render
    placing: tuple[list[Choice], int, str] | None = None  # steps, step, who: a placement being played

    def clear_selection(self) -> None:
        """Forget the choice."""
        self.steps, self.at = [NO_CHOICE], 0


def state_of(ctx: TableContext) -> HeptalionTableState:
    """Return the Heptalion table's state."""
    ui = ctx.ui
    if not isinstance(ui, HeptalionTableState):
        raise TypeError(f"a Heptalion table was given {type(ui).__name__}")
    return ui


class HeptalionScreen(Screen):
    """The table screen of Heptalion (``SCREEN``)."""

    game_id = GAME_ID
    expert = True
    # A hint searches as Expert plays (36,000: its own move; CPython median 68 ms, p95 0.77 s over 29
    # hints); the review, many decisions in a row, looks with Hard's 8,000.
    hint_nodes = 36_000
    review_nodes = 8_000
    move_pattern = re.compile(r"(?<![\w-])[A-Z]-[A-Z]@\d+,\d+(?![\w-])")

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
                "The same game on another board where every symbol appears 8 times and every tile fits"
                " exactly three ways, like the original.",
            ),
        ]

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
        """Return the game's setup: the board and the hands (or the puzzle's board)."""
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
                options.append((f"random:{form['last_random']}", "The last random board again"))
            options += [(f"lab:{i}", f"Other board {i + 1}") for i in range(len(LAB_BOARDS))]
            parts.append(
                _sel(
                    form,
                    "hx-fit-board",
                    "fit_board",
                    options,
                    str(form.get("fit_board", "original")),
                    "Board",
                    "Every symbol 8 times; on the original and the other boards every tile fits exactly three ways.",
                )
            )
            return h("div", {"class_": "hx-setup hx-solo"}, parts)
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
                    [(str(i), f"Other board {i + 1}") for i in range(len(LAB_BOARDS))],
                    str(number),
                    "Board",
                )
            )
            parts.append(lab_proof(LAB_BOARDS[number]))
        else:
            options = [("original", "Original"), ("random", "Random")]  # the hint below says what it is
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
        return h("div", {"class_": "hx-setup"}, parts)

    def player_fields(self, form: dict[str, Any]) -> Markup:
        """Return the seats (each a person on this device or the computer at a level) and who starts."""
        if str(form.get("mode", "game")) == "fit" or form.get("opponents") == "online":
            return Markup("")  # a solo puzzle; or the room's lobby seats the players
        players = self._players(form)
        parts: list[Markup] = [
            h(
                "p",
                {"class_": "hint hx-deal"},
                {2: "14 tiles each.", 3: "9 tiles each; one more is set aside face up.", 4: "7 tiles each."}[
                    players
                ],
            )
        ]
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
        start_options = [("random", "Random")] + [
            (
                str(s),
                f"Seat {s + 1}"
                + (
                    f" ({name_attr(form.get(f'name_{s}'))})"
                    if self._who(form, s) == "human" and form.get(f"name_{s}")
                    else ""
                    if self._who(form, s) == "human"
                    else f" (computer, {LEVEL_LABEL[self._who(form, s)].lower()})"
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
        return h("div", {"class_": "hx-setup hx-players"}, parts)

    def mode_from_form(self, form: dict[str, Any]) -> tuple[Mode, int]:
        """Return the chosen mode (options ready for the engine) and the number of players."""
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
            label = MODE_LABELS["fit"] + {"random": ", random board", "lab": ", other board"}.get(
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
        if str(form.get("mode", "game")) == "fit":
            return [Seat("human", str(form.get("name_0", "")).strip() or settings.name)]
        seats = []
        players = self._players(form)
        computers = sum(1 for s in range(players) if self._who(form, s) != "human")
        for s in range(players):
            who = self._who(form, s)
            if who == "human":
                name = str(form.get(f"name_{s}", "")).strip()
                seats.append(Seat("human", name or (settings.name if s == 0 else f"Player {s + 1}")))
            else:
                number = sum(1 for t in range(s + 1) if self._who(form, t) != "human")
                seats.append(Seat("computer", "Computer" + (f" {number}" if computers > 1 else ""), who))
        return seats

    def new_state(self, form: Mapping[str, Any] | None = None) -> HeptalionTableState:
        """Return a new table state (the placed symbols shown as in the last game: the form keeps it)."""
        return HeptalionTableState(faces=bool((form or {}).get(FACES_KEY)))

    # -- the Expert's words ---------------------------------------------------------------------------------
    def move_words(self, move: str) -> str:
        """Return a move in words: its tile's name ("cross–plus")."""
        if move in ("draw", "pass"):
            return super().move_words(move)
        tile = move.partition("@")[0]
        try:
            return hv.tile_name(tile)
        except Exception:  # an unknown symbol: its letters
            return tile

    def hint_title(self, move: str) -> str:
        """Return the hinted move and where it goes: the spaces glow."""
        words = self.move_words(move)
        return f"{words} on the glowing spaces" if "@" in move else words

    def hint_targets(self, move: str) -> list[str]:
        """Return the hinted tile in the tray and its two spaces."""
        if move in ("draw", "pass"):
            return super().hint_targets(move)
        tile, _, spaces = move.partition("@")
        return [f'.kit-tray [data-tile="{tile}"]'] + [f'[data-space="{s}"]' for s in spaces.split(",") if s]

    # -- state helpers ----------------------------------------------------------------------------------------
    @staticmethod
    def _names(ctx: TableContext) -> list[str]:
        return [name_attr(seat.name) for seat in ctx.session.seats]  # isolated right-to-left text

    @staticmethod
    def _you(ctx: TableContext) -> int | None:
        """Return the seat of the one person playing (against the computer or the puzzle), else None."""
        humans = ctx.session.human_seats
        return humans[0] if len(humans) == 1 else None

    def _shown_names(self, ctx: TableContext) -> list[str]:
        """Return the names as seats show them: "You" for the one person playing, no level suffix."""
        return kit.plain_names(ctx.session)

    def _choice(self, ctx: TableContext) -> Choice:
        ui = state_of(ctx)
        return ui.steps[ui.at]

    def _step(self, ctx: TableContext, choice: Choice) -> None:
        ui = state_of(ctx)
        if ui.steps[ui.at] == choice:
            return
        del ui.steps[ui.at + 1 :]
        ui.steps.append(choice)
        ui.at = len(ui.steps) - 1

    def _reset_choice(self, ctx: TableContext) -> None:
        state_of(ctx).clear_selection()

    @staticmethod
    def _game(session: Any) -> HeptalionState:
        """Return the session's state as the Heptalion state it is."""
        return cast(HeptalionState, session.state)

    def _targets(self, facts: kit.TableFacts) -> dict[str, dict[int, list[int]]]:
        """Return the viewer's tiles and their spaces, when it is the viewer's turn (else none)."""
        return selection_targets(facts.legal) if facts.mine else {}

    def _valid_choice(
        self, ctx: TableContext, targets: Mapping[str, Mapping[int, list[int]]], *, forget: bool = False
    ) -> Choice:
        """Return the current choice, or nothing if the position moved on under it (then a handler
        ``forget``s it; a render only reads)."""
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
            if forget:
                self._reset_choice(ctx)
            return NO_CHOICE
        return (tile, first, second)

    @staticmethod
    def _move_text(view: Mapping[str, Any], tile: str, first: int, second: int) -> str:
        spaces = view["spaces"]
        return str(parse_move(f"{spaces[first]['symbol']}-{spaces[second]['symbol']}@{first},{second}"))

    @staticmethod
    def _beats(history: list[dict[str, Any]]) -> list[kit.Beat]:
        """Return the public events as the kit's beats ("placed dot–plus", "is out")."""
        beats = []
        for event in history:
            if event["kind"] == "place":
                beats.append(
                    kit.Beat(event["seat"], "placed " + hv.tile_name(event["move"].split("@")[0]), "place")
                )
            elif event["kind"] == "eliminated":
                beats.append(kit.Beat(event["seat"], "is out: no tile fits", "out"))
        return beats

    # -- drawing ---------------------------------------------------------------------------------------------
    def render(self, ctx: TableContext) -> Markup:
        """Return the table: seats around the zoomable board, the message line and your hand tray (the kit)."""
        return frame.render(ctx, self)

    def names(self, ctx: TableContext) -> list[str]:
        """Return each seat's name, isolated (the log and the sentences say "you" themselves)."""
        return self._names(ctx)

    def private_hands(self, view: Mapping[str, Any]) -> bool:
        """Tell whether the hands are hidden from the other people on the device (the game's choice)."""
        return bool(view["hidden"])

    def table_parts(self, ctx: TableContext, facts: kit.TableFacts) -> frame.TableParts:
        """Return the table's pieces: the board in its zoomed stage, seats, log, tray, menu and results."""
        if facts.review:
            return self._review_parts(ctx, facts)
        session = ctx.session
        viewer, view = facts.viewer, dict(facts.view)
        ui = state_of(ctx)
        you = self._you(ctx)
        names = list(facts.names)
        shown = self._shown_names(ctx)
        history = view["history"]
        news = self._news(ctx, view)
        privacy, private = facts.gate, facts.hidden
        targets = self._targets(facts)
        tile, first, second = self._valid_choice(ctx, targets)
        solo = view["solo"]
        over = facts.over
        my_turn = bool(targets)

        clickable: list[int] = []
        pending = None
        focus = None
        if tile is not None and first is None:
            clickable = sorted(targets[tile])
            focus = clickable[0] if clickable else None
        elif tile is not None and first is not None and second is None:
            seconds = sorted(targets[tile][first])
            clickable = [*seconds, first]
            focus = seconds[0] if seconds else first
        elif tile is not None and first is not None and second is not None:
            pending = (tile, first, second)

        # The dominoes placed since the viewer's own last placement.
        recent: list[int] = []
        if not solo:
            for placed in reversed(view["covered"]):
                if placed["seat"] == viewer:
                    break
                recent.append(placed["number"])

        solution: dict[str, Any] = session.extra.get("hx_max") or {}
        show_solution = bool(solo and solution and ui.show_layout)
        if show_solution:
            board_markup = hv.board(
                view,
                solution=solution["layout"],
                board_id=None,
                label=f"One optimal layout: {solution['max']} tiles",
            )
        else:
            board_markup = hv.board(
                view,
                clickable=clickable,
                first=first,
                pending=pending,
                names=shown,
                faces=ui.faces or (over and ui.kit.face_up),
                recent=recent,
                focus=focus,
                board_id=None,
                arrived_from=self._arrived_from(view),
                tappable=my_turn and not privacy,
            )
        beats = self._beats(history)
        seats_ = "" if solo else kit.seats(self._seat_views(ctx, view, shown, beats, over), viewer)
        side = h(
            "aside",
            {"class_": "hx-side", "aria_label": "Game log"},
            "" if solo else hv.log(history, names, you=you, opened=True),
            self._discard(view),
            hv.legend(),
        )
        gate: Markup | str = ""
        if privacy:
            turn = facts.turn
            assert turn is not None  # a privacy gate is for the person to move
            gate = kit.privacy_gate(
                names[turn], kit.since_last_turn(beats, turn, names), first="Your first turn of the game."
            )
        return frame.TableParts(
            board=self._stage(ctx, board_markup, browse=over),
            tray=self._tray(ctx, view, shown, viewer, targets, tile, private, my_turn, over),
            status=self._status(ctx, view, names, privacy, (tile, first, second), news),
            seats=join([seats_, side]),
            results=self._results(ctx, view, names) if over else "",
            gate=gate,
            board_extra=self._board_bar(ctx, view, over, show_solution),
            tools=self._menu(ctx, view, names, you),
            cls="hx-table" + (" is-solo" if solo else "") + f" hx-p{view['players']}",
            data={
                "turn": "" if view["turn"] is None else str(view["turn"]),
                "over": "true" if over else "false",
            },
            before=hv.sprite(),
        )

    def _stage(self, ctx: TableContext, board_markup: Markup, *, browse: bool = False) -> Markup:
        """Return the board in its zoomed stage; ``browse`` (a board with no control on it: the game over,
        a review) makes the stage a named stop of the keyboard, so that it can scroll it on a phone."""
        attrs = {"tabindex": "0", "role": "region", "aria_label": "The board (arrow keys scroll it)"}
        cls = f"hx-stage hx-zoom-{self._zoom(ctx)}"
        return h("div", {"class_": cls, "id": "hx-stage", **(attrs if browse else {})}, board_markup)

    def _review_parts(self, ctx: TableContext, facts: kit.TableFacts) -> frame.TableParts:
        """Return the game as it was after the review's move, every hand and domino face up, with the controls."""
        viewer, state, view, step = facts.viewer, facts.state, dict(facts.view), int(facts.step or 0)
        shown = self._shown_names(ctx)
        beats = self._beats(view["history"])
        caption = kit.review_caption(beats, shown)
        hands = [state.view(s)["hand"] for s in range(view["players"])]
        seats_ = (
            ""
            if view["solo"]
            else kit.seats(self._seat_views(ctx, view, shown, beats, True, hands=hands), viewer)
        )
        board_markup = hv.board(
            view, names=shown, faces=True, board_id=None, label=f"The board after move {step}"
        )
        tray = kit.tray(
            kit.rack(
                [hv.tile_button(t, playable=False) for t in hands[viewer]], len(hands[viewer]), "hx-hand"
            ),
            [],
            label="Your tiles" if shown[viewer] == "You" else f"{shown[viewer]}'s tiles",
            info=hv.tiles_word(len(hands[viewer])),
        )
        panel = kit.review_panel(ctx, step, caption)
        return frame.TableParts(
            board=self._stage(ctx, board_markup, browse=True),
            tray=tray,
            status=f"Review · {caption}.",
            seats=seats_,
            results=panel,
            board_extra=self._board_bar(ctx, view, True, False),
            cls="hx-table is-review" + (" is-solo" if view["solo"] else "") + f" hx-p{view['players']}",
            data={"turn": "", "over": "true", "review": str(step)},
            before=hv.sprite(),
        )

    def _seat_views(
        self,
        ctx: TableContext,
        view: Mapping[str, Any],
        shown: list[str],
        beats: list[kit.Beat],
        over: bool,
        hands: list[list[str]] | None = None,
    ) -> list[kit.SeatView]:
        """Return every seat for the kit: name (★ for the starting player), level, tiles, what they did last."""
        session = ctx.session
        last = kit.last_beats(beats)
        if hands is None and over:  # every hand is public at the end (a guest's once the deal is revealed)
            hands = public_hands(session.state, view["players"])
        views = []
        for s in range(view["players"]):
            sv = view["seats"][s]
            seat = session.seats[s]
            hand = hands[s] if hands is not None and hands[s] is not None else sv["hand"]
            status = sv["status"]
            if status == "eliminated":
                order = view["eliminated"].index(s) + 1 if s in view["eliminated"] else 0
                did = f"out {hv.ORDINAL.get(order, '')}".strip()
            elif status == "winner":
                did = "wins"
            else:
                did = last.get(s, "")
            turn = view["turn"] == s and not over
            views.append(
                kit.SeatView(
                    seat=s,
                    name=shown[s] + (" ★" if sv["start"] else ""),
                    level=LEVEL_LABEL.get(seat.level or "", "") if seat.is_computer else "",
                    count=sv["tile_count"],
                    last=did,
                    to_move=turn,
                    thinking=turn and seat.is_computer,
                    local=s == view["seat"],
                    face_up=h(
                        "span",
                        {"class_": "hx-minis"},
                        [hv.tile_button(t, playable=False, small=True) for t in hand],
                    )
                    if hand is not None
                    else None,
                    last_call="",
                )
            )
        return views

    def _tray(
        self,
        ctx: TableContext,
        view: Mapping[str, Any],
        shown: list[str],
        viewer: int,
        targets: Mapping[str, Any],
        tile: str | None,
        private: bool,
        my_turn: bool,
        over: bool,
    ) -> Markup:
        """Return your hand tray: your tiles (the playable ones are buttons) and the same buttons every turn."""
        session = ctx.session
        sv = view["seats"][viewer]
        hand = session.state.view(viewer)["hand"] if over else sv["hand"]
        tiles = (
            kit.rack(
                [hv.tile_button(t, playable=t in targets, selected=t == tile) for t in hand],
                len(hand),
                "hx-hand",
                {"dealt": self._dealt(view)},
            )
            if hand
            else h("p", {"class_": "hx-hand-empty"}, "No tiles left.")
        )
        info = f"{hv.tiles_word(sv['tile_count'])} · {sv['placed']} placed" + (" · ★" if sv["start"] else "")
        if view["solo"] and session.extra.get("hx_max"):
            info = f"{len(view['covered'])} placed · the most is {session.extra['hx_max']['max']}"
        label = "Your tiles" if shown[viewer] == "You" else f"{shown[viewer]}'s tiles"
        return kit.tray(
            tiles,
            self._buttons(ctx, view, targets, over),
            label=label,
            info=info,
            my_turn=my_turn,
            hidden=f"{shown[viewer]}'s tiles are hidden." if private else "",
        )

    def _buttons(
        self, ctx: TableContext, view: Mapping[str, Any], targets: Mapping[str, Any], over: bool
    ) -> list[Markup]:
        """Return the tray's buttons: the same ones, in the same places, on every turn of the game."""
        session = ctx.session
        ui = state_of(ctx)
        quick = ctx.settings.place_at_once
        mine = bool(targets) and not over
        choice = self._choice(ctx)
        buttons = [
            kit.button(
                "undo",
                "↶ Undo",
                enabled=mine and ui.at > 0,
                bid="hx-undo",
                key="Backspace",
                title="Undo a step of your choice",
            )
        ]
        if not quick:
            buttons.append(
                kit.button("redo", "Redo ↷", enabled=mine and ui.at < len(ui.steps) - 1, bid="hx-redo")
            )
            complete = mine and choice[2] is not None
            confirm = kit.button("confirm", "Confirm", enabled=complete, primary=True, bid="hx-confirm")
            if complete:
                confirm = Markup(str(confirm).replace("<button ", '<button data-focus="true" ', 1))
            buttons.append(confirm)
        if view["solo"]:
            buttons.append(
                kit.button("takeback", "Take back", enabled=bool(view["covered"]), bid="hx-takeback")
            )
            if session.extra.get("hx_max"):
                showing = ui.show_layout
                buttons.append(
                    kit.button(
                        "toggle-layout",
                        "Your board" if showing else "Optimal layout",
                        bid="hx-toggle-layout",
                    )
                )
            else:  # a Daily's maximum waits for the end of the attempt
                hidden = "daily" in session.extra and not session.state.is_over()
                buttons.append(
                    kit.button("show-max", "Show the maximum", enabled=not hidden, bid="hx-show-max")
                )
        else:
            buttons.append(kit.take_back_button(session, enabled=not over))
        return buttons

    def _board_bar(self, ctx: TableContext, view: Mapping[str, Any], over: bool, solution: bool) -> Markup:
        """Return the band over the board: which board, how many placed, and the zoom buttons."""
        board_kind = view["board"]["kind"]
        caption = {
            "original": "Original board",
            "random": "Random board",
            "lab": f"Other board {(view['board']['seed'] or 0) + 1}",
        }.get(board_kind, "Custom board")
        if solution:
            caption = f"One optimal layout: {ctx.session.extra['hx_max']['max']} tiles"
        else:
            caption += f" · {len(view['covered'])} placed"
        zoom = self._zoom(ctx)
        return h(
            "div",
            {"class_": "kit-board-bar hx-bar"},
            h("p", {"class_": "hx-caption", "id": "hx-caption"}, caption),
            h(
                "div",
                {"class_": "hx-zoom", "role": "group", "aria_label": "Zoom"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn hx-tool",
                        "id": "hx-zoom-out",
                        "data_action": "zoom",
                        "data_value": "-1",
                        "aria_label": "Zoom out",
                        "title": "Zoom out",
                        "disabled": zoom <= ZOOM_MIN,
                    },
                    "−",
                ),
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn hx-tool",
                        "id": "hx-zoom-in",
                        "data_action": "zoom",
                        "data_value": "1",
                        "aria_label": "Zoom in",
                        "title": "Zoom in",
                        "disabled": zoom >= ZOOM_MAX,
                    },
                    "+",
                ),
            ),
        )

    def _menu(self, ctx: TableContext, view: Mapping[str, Any], names: list[str], you: int | None) -> Markup:
        """Return the table's "More" menu: Place at once, Faces up, the game log, the symbols, the board checks."""
        ui = state_of(ctx)
        opened = ui.menu
        body: list[Any] = [
            h(
                "label",
                {"class_": "hx-check"},
                h(
                    "input",
                    {
                        "type": "checkbox",
                        "id": "hx-place-at-once",
                        "data_setting": "place_at_once",
                        "checked": ctx.settings.place_at_once,
                    },
                ),
                h(
                    "span",
                    {},
                    "Place at once",
                    h("small", {}, "A tile is placed on its second space, without Confirm."),
                ),
            ),
        ]
        if not view["solo"]:
            body.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn hx-faces",
                        "id": "hx-faces",
                        "data_action": "faces",
                        "aria_pressed": "true" if ui.faces else "false",
                    },
                    "Hide the placed symbols" if ui.faces else "Show the placed symbols",
                )
            )
            body.append(hv.log(view["history"], names, you=you))
            body.append(self._discard(view))
        if view["board"]["kind"] == "lab":
            body.append(
                lab_proof(Board.from_rows(view["board"]["rows"], "lab", view["board"]["seed"]), compact=True)
            )
        body.append(hv.legend())
        return h(
            "div",
            {"class_": "hx-menu" + (" is-open" if opened else "")},
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn kit-tool hx-menu-btn",
                    "id": "hx-menu",
                    "data_action": "menu",
                    "aria_expanded": "true" if opened else "false",
                    "aria_controls": "hx-menu-pop",
                    "aria_label": "More: options and the game log",
                    "title": "More",
                },
                "⋯",
            ),
            h("div", {"class_": "hx-menu-pop", "id": "hx-menu-pop", "hidden": not opened}, body),
        )

    @staticmethod
    def _arrived_from(view: Mapping[str, Any]) -> str | None:
        """Return where the latest domino slides in from: the hand tile you clicked, or its placer's seat."""
        if not view["covered"]:
            return None
        seat = view["covered"][-1]["seat"]
        return "pick" if seat == view["seat"] else f".kit-seat[data-seat='{seat}']"

    @staticmethod
    def _discard(view: Mapping[str, Any]) -> Markup | str:
        """Return the tile set aside face up in a three-player game."""
        if not view["discard"]:
            return ""
        return h(
            "p",
            {"class_": "hx-discard"},
            "Set aside face up (not used): ",
            hv.tile_button(view["discard"], playable=False, small=True),
            h("span", {"class_": "sr-only"}, hv.tile_name(view["discard"])),
        )

    @staticmethod
    def _dealt(view: Mapping[str, Any]) -> int:
        """Return how many tiles each hand was dealt (the tray keeps room for them)."""
        return {1: 28, 2: 14, 3: 9, 4: 7}.get(view["players"], 14)

    def _zoom(self, ctx: TableContext) -> int:
        return max(ZOOM_MIN, min(ZOOM_MAX, state_of(ctx).zoom))

    def _fresh(self, ctx: TableContext, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Return the eliminations and the end since the last render noted what it showed."""
        history = view["history"]
        seen = state_of(ctx).seen
        if seen is None or seen > len(history):
            seen = len(history)
        return [e for e in history[seen:] if e["kind"] in ("eliminated", "winner", "no_fit")]

    def _news(self, ctx: TableContext, view: Mapping[str, Any]) -> list[str]:
        """Return the eliminations the message line says before the turn text: fresh ones, else the kept."""
        fresh = self._fresh(ctx, view)
        if not fresh:
            return state_of(ctx).news
        names, you = self._names(ctx), self._you(ctx)
        return [hv.event_text(e, names, you) for e in fresh if e["kind"] == "eliminated"]

    def _status(
        self,
        ctx: TableContext,
        view: Mapping[str, Any],
        names: list[str],
        privacy: bool,
        choice: Choice,
        news: list[str] = [],  # noqa: B006 (read only)
    ) -> str:
        """Return the message line's text: whose turn and what to do next (or how the game ended)."""
        session = ctx.session
        turn = session.to_move()
        tile, first, second = choice
        quick = ctx.settings.place_at_once
        if turn is None or session.state.is_over():
            return ending_text(view, names, self._you(ctx))
        if privacy:
            text = f"{names[turn]} to move."
        elif session.seats[turn].is_computer:
            text = f"{names[turn]} is thinking…"
        elif session.seats[turn].kind == "guest":  # a person in an online room
            text = f"{names[turn]}'s turn."
        elif tile is None:
            who = "Your turn" if self._you(ctx) is not None else f"{names[turn]}, your turn"
            text = f"{who}: pick a tile."
        elif first is None:
            text = f"{hv.tile_name(tile).capitalize()}: tap a space for one of its ends."
        elif second is None:
            text = "Now tap the space for its other end" + (
                "." if quick else " (or the first space again to reset)."
            )
        else:
            text = f"Confirm to place {hv.tile_name(tile)}, or undo."
        return (news[-1] + " " + text) if news else text

    def _results(self, ctx: TableContext, view: Mapping[str, Any], names: list[str]) -> Markup:
        """Return the result panel (the kit's: over the board, with View board and Review)."""
        session = ctx.session
        outcome = view["outcome"]
        again = h(
            "button",
            {
                "type": "button",
                "class_": "btn btn-primary",
                "data_action": "start-game",
                "data_value": GAME_ID,
                "id": "hx-again",
                "autofocus": True,
            },
            "Try again" if view["solo"] else "Play again",
        )
        more = [  # as every table's result: New game and Home after the result, Play again at its foot
            h("a", {"class_": "btn", "href": f"#/setup/{GAME_ID}", "id": "hx-new"}, "New game"),
            h("a", {"class_": "btn btn-ghost", "href": "#/", "id": "hx-home"}, "Home"),
        ]
        review = session.move_count() > 0
        if view["solo"]:
            best = session.extra.get("hx_max")
            placed = outcome["scores"][0]
            line = f"You fitted {hv.tiles_word(placed)}." + (
                f" The true maximum is {best['max']}." if best else ""
            )
            if best and placed >= best["max"]:
                line += " That is the maximum: perfect!"
            return frame.results_panel(
                ctx,
                self,
                "Puzzle over.",
                h("p", {}, line),
                [again],
                note="Your best is kept in Stats.",
                review=review,
                more=more,
            )
        you = self._you(ctx)
        shown = self._shown_names(ctx)
        rows = []
        order = view["eliminated"]
        two = view["players"] == 2
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
                    {"class_": "is-winner" if place == 1 else "", "data_seat": str(s)},
                    h("td", {}, "1st" if place == 1 else ("2nd" if two else "2nd (shared)")),
                    h("th", {"scope": "row"}, hv.swatch(s), shown[s]),
                    h("td", {}, out),
                    h("td", {}, str(outcome["scores"][s])),
                )
            )
        table = h(
            "table",
            {"class_": "hx-placings"},
            h(
                "thead",
                {},
                h("tr", {}, [h("th", {"scope": "col"}, c) for c in ("Place", "Player", "How", "Tiles left")]),
            ),
            h("tbody", {}, rows),
        )
        note = stats_note(session, "Games on one device are not counted in the stats.")
        winner = outcome["winners"][0]
        title = "You win!" if winner == you else f"{shown[winner]} wins."
        return frame.results_panel(ctx, self, title, table, [again], note=note, review=review, more=more)

    def _remember_again(self, ctx: TableContext, view: Mapping[str, Any]) -> None:
        """Keep the finished game's setup in the app's setup form (once a game), so "Play again" and the
        setup screen start from it.

        Not for an online game: its seats (guests, the room's computers) are no setup for this device.
        """
        session, ui = ctx.session, state_of(ctx)
        if session.online or ui.remembered:
            return
        ui.remembered = True
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
        ctx.emit(Remember(again))

    # -- actions ---------------------------------------------------------------------------------------------
    def on_action(self, ctx: TableContext, action: str, value: str) -> Intents | None:
        """Handle a click on the table."""
        session, ui = ctx.session, state_of(ctx)
        if action == "kit-reveal":
            self._reset_choice(ctx)
        done = frame.handle(ctx, self, action, value)
        if done is not None:
            return done
        if action == "menu":
            ui.menu = not ui.menu
            return [Render()]
        if action == "show-max":
            if "daily" in session.extra and not session.state.is_over():
                return [Refuse("The Daily's maximum shows once you have finished.")]
            return self._solve(ctx) + [Render()]
        if action == "toggle-layout":
            ui.show_layout = not ui.show_layout
            return [Render()]
        if action == "faces":
            ui.faces = not ui.faces
            return [Remember({FACES_KEY: ui.faces}), Render()]
        if action == "zoom":
            ui.zoom = max(ZOOM_MIN, min(ZOOM_MAX, self._zoom(ctx) + _int(value, 0)))
            ui.pan = None
            return [Render()]
        if action == "takeback":
            return self._take_back(ctx)
        viewer = session.viewer()
        view = session.state.view(viewer)
        targets = self._targets(kit.table_facts(ctx, self))
        if not targets:
            return None
        tile, first, second = self._valid_choice(ctx, targets, forget=True)
        ui.news = []
        if action == "tile":
            if (value in targets and value != tile) or (value == tile and first is not None):
                self._step(ctx, (value, None, None))
                ui.focus = True  # the keyboard focus moves to the board
        elif action == "space":
            space = _int(value, -1)
            if tile is not None and second is not None:
                return self._refuse(ctx, f"Confirm {hv.tile_name(tile)} first, or undo it.")
            if tile is None or (first is None and space not in targets[tile]):
                return self._refuse(ctx, hv.space_refusal(view, tile, None, space))
            if first is None:
                seconds = targets[tile][space]
                if len(seconds) == 1:  # only one way to lay it from here: no second tap needed
                    self._step(ctx, (tile, space, None))
                    return self._complete(ctx, view, (tile, space, seconds[0]))
                self._step(ctx, (tile, space, None))
            elif space == first:
                self._step(ctx, (tile, None, None))  # tapping the first space again resets it
            elif space in targets[tile][first]:
                return self._complete(ctx, view, (tile, first, space))
            else:
                return self._refuse(ctx, hv.space_refusal(view, tile, first, space))
            ui.focus = True
        elif action == "undo":
            ui.at = max(0, ui.at - 1)
        elif action == "redo":
            ui.at = min(len(ui.steps) - 1, ui.at + 1)
        elif action == "confirm":
            if tile is None or first is None or second is None:
                return None
            return self._place(ctx, view, (tile, first, second))
        else:
            return None
        return [Render()]

    def _refuse(self, ctx: TableContext, why: str) -> Intents:
        """Say why a tap on the board was not taken (as the other tables explain a wrong tap)."""
        kit.refuse(ctx, why)
        return [Announce(why), Render()]

    def _complete(self, ctx: TableContext, view: Mapping[str, Any], choice: tuple[str, int, int]) -> Intents:
        """Finish a choice on its second space: place it at once, or show it for Confirm."""
        self._step(ctx, choice)
        if ctx.settings.place_at_once:
            return self._place(ctx, view, choice)
        state_of(ctx).focus = True  # on Confirm
        return [Render()]

    def _place(self, ctx: TableContext, view: Mapping[str, Any], choice: tuple[str, int, int]) -> Intents:
        """Play the chosen placement (``on_refused`` restores the choice if it is refused)."""
        session, ui = ctx.session, state_of(ctx)
        viewer = session.viewer()
        tile, first, second = choice
        move = self._move_text(view, tile, first, second)
        who = "You" if viewer == self._you(ctx) else name_attr(session.seats[viewer].name)
        ui.placing = (ui.steps, ui.at, who)
        self._reset_choice(ctx)
        ui.focus = True  # back to the tray once the board has no targets
        return [Play(move)]

    def on_played(self, ctx: TableContext, move: Any) -> Intents:
        """Say who placed which tile (the choice made for it is done)."""
        ui = state_of(ctx)
        placing, ui.placing = ui.placing, None
        if placing is None or "@" not in str(move):
            return []
        return [Announce(f"{placing[2]} placed {hv.tile_name(str(move).split('@')[0])}.")]

    def _solve(self, ctx: TableContext) -> Intents:
        session = ctx.session
        if session.extra.get("hx_max"):
            return []
        state = self._game(session)
        solution = solve(state.board)
        session.extra["hx_max"] = {
            "max": solution.max_tiles,
            "layout": [
                {"tile": f"{m.tile[0]}-{m.tile[1]}", "spaces": list(m.spaces)} for m in solution.layout
            ],
            "proven": solution.proven,
        }
        state_of(ctx).show_layout = True
        said = f"The maximum on this board is {solution.max_tiles} tiles. One optimal layout is shown."
        asked: Intents = [Announce(said)]
        return asked if state.is_over() else asked + [Save()]

    def _take_back(self, ctx: TableContext) -> Intents:
        """Lift the last tile in the solo puzzle (replaying the others)."""
        session, ui = ctx.session, state_of(ctx)
        if session.state.players != 1 or not self._game(session).covered:
            return []
        if session.state.can_undo():
            session.state.undo()
        else:  # loaded from a save: rebuild without the last move
            data = session.state.to_dict()
            data["moves"] = data["moves"][:-1]
            data.pop("turn_number", None)
            session.state = session.info.from_dict(data)
        session.recorded = False
        self._reset_choice(ctx)
        ui.news = []
        ui.seen = len(self._game(session).history)
        return [Save(), Render()]

    def on_refused(self, ctx: TableContext, message: str) -> bool:
        """Show a refused placement's reason in the message line (it fades by itself); the choice is back."""
        ui = state_of(ctx)
        if ui.placing is not None:
            ui.steps, ui.at, _ = ui.placing
            ui.placing = None
        kit.refuse(ctx, message)
        return True

    def key_intents(self, ctx: TableContext, key: str) -> Intents | None:
        """Return what a key asks for: Backspace undoes a step of the choice, Escape clears it (letters stay
        free for the browser's own shortcuts); None when the table does not use it."""
        stepped = kit.review_key(ctx, key)  # the review's arrows step through the game
        if stepped is not None:
            return stepped
        ui = state_of(ctx)
        if key == "Backspace" and ui.at > 0:
            return self.on_action(ctx, "undo", "") or []
        if key == "Escape" and ui.menu:
            ui.menu = False
            return [Render()]
        if key == "Escape" and self._choice(ctx) != NO_CHOICE:
            self._step(ctx, NO_CHOICE)
            return [Render()]
        return None

    def after_render(self, ctx: TableContext) -> None:
        """Note what was shown: read out eliminations and the winner once, keep a finished game's setup for
        Play again; in the page, keep the board's pan and move the focus."""
        ui = state_of(ctx)
        view = ctx.session.state.view(ctx.session.viewer())
        fresh = self._fresh(ctx, view)
        if fresh:
            ui.news = self._news(ctx, view)
            names, you = self._names(ctx), self._you(ctx)
            ctx.emit(Announce(" ".join(hv.event_text(e, names, you) for e in fresh)))
        ui.seen = len(view["history"])
        if ctx.session.state.is_over():
            self._remember_again(ctx, view)
        try:
            from ..ports import page_module

            heptalion_dom = page_module("heptalion_dom")  # browser-only
        except ImportError:  # under CPython (the screen tests): no page
            ui.focus = False
            return
        heptalion_dom.bind(ctx)

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
        {"class_": "hx-lab-proof" + (" is-compact" if compact else ""), "aria_label": "Checks of this board"},
        h("h3", {}, "This board, checked"),
        h("ul", {}, items),
    )


SCREEN = HeptalionScreen()
