"""Heptalion's table as HTML: the seven symbols, the diamond board, tiles, the log.

Pure Python (no browser): each function takes plain data (the engine's view, the selection) and returns
Markup, so tests render every piece under CPython. The board is a CSS grid of 11 x 11 cells; every
space is a square showing its symbol as an SVG shape (``<use>`` of a sprite drawn once per table),
a covered pair is one face-down domino spanning its two cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from boneyard.tiles import SYMBOL_NAMES, SYMBOLS

from ..art import SYMBOL_COLOURS as SYMBOL_COLOURS  # the colours the table and its tests name
from ..art import symbol_shape
from ..html import Markup, h, join

# Each symbol: its SVG drawing (viewBox -12 -12 24 24) and its colour. Shapes differ on their own
# (not by colour alone): a saltire, a ring, a tall rhombus, a solid square, a small dot, a plus, a clover.
# The seven symbols' drawings and colours are the home screen's card art's (``ui.art``, loaded at start),
# so the card and the table can never draw a symbol differently.
_symbol_shape = symbol_shape


def sprite() -> Markup:
    """Return the hidden SVG sprite defining the seven symbols (``#hx-s-X`` ...)."""
    symbols = [
        h("symbol", {"id": f"hx-s-{s}", "viewBox": "-12 -12 24 24"}, _symbol_shape(s)) for s in SYMBOLS
    ]
    return h(
        "svg",
        {"class_": "hx-sprite", "width": "0", "height": "0", "aria_hidden": "true", "focusable": "false"},
        h("defs", {}, symbols),
    )


def symbol_icon(sym: str, cls: str = "hx-sym") -> Markup:
    """Return one symbol as a small inline SVG (decorative: the text beside it names it)."""
    return h(
        "svg",
        {
            "class_": f"{cls} hx-sym-{sym}",
            "viewBox": "0 0 24 24",
            "aria_hidden": "true",
            "focusable": "false",
        },
        h("use", {"href": f"#hx-s-{sym}"}),
    )


def symbol_name(sym: str) -> str:
    """Return a symbol's name ("dot")."""
    return SYMBOL_NAMES[sym]


def tile_name(tile: str) -> str:
    """Return a tile's spoken name: ``"T-P"`` -> "dot–plus"."""
    a, b = tile.split("-")
    return f"{symbol_name(a)}–{symbol_name(b)}"


def tile_face(tile: str) -> Markup:
    """Return the two halves of a face-up tile."""
    a, b = tile.split("-")
    return join(
        [h("span", {"class_": "hx-half"}, symbol_icon(a)), h("span", {"class_": "hx-half"}, symbol_icon(b))]
    )


def tile_button(tile: str, *, playable: bool, selected: bool = False, small: bool = False) -> Markup:
    """Return a tile of a hand: a button when it can be played now, else an inert face."""
    cls = (
        "hx-tile"
        + (" is-small" if small else "")
        + (" is-playable" if playable else " is-dead")
        + (" is-selected" if selected else "")
    )
    label = tile_name(tile)
    if playable:
        return h(
            "button",
            {
                "type": "button",
                "class_": cls,
                "data_action": "tile",
                "data_value": tile,
                "data_tile": tile,
                "id": f"hx-t-{tile}",
                "aria_pressed": "true" if selected else "false",
                "aria_label": f"Tile {label}",
            },
            tile_face(tile),
        )
    return h(
        "span",
        {
            "class_": cls,
            "data_tile": tile,
            "role": "img",
            "aria_label": f"Tile {label}" + ("" if small else ", no room for it now"),
        },
        tile_face(tile),
    )


# -- the board ------------------------------------------------------------------------------------


def board(
    view: Mapping[str, Any],
    *,
    clickable: Iterable[int] = (),
    first: int | None = None,
    pending: tuple[str, int, int] | None = None,
    solution: Sequence[Mapping[str, Any]] | None = None,
    board_id: str | None = "table-board",
    label: str = "The board",
    names: Sequence[str] = (),
    faces: bool = False,
    recent: Iterable[int] = (),
    focus: int | None = None,
    arrived_from: str | None = None,
    tappable: bool = False,
) -> Markup:
    """Return the diamond: every space a cell, covered pairs as dominoes in their placer's colour.

    ``clickable`` spaces are buttons (``data-action="space"``); ``first`` is the chosen first space;
    ``pending`` (tile, first space, second space) is the unconfirmed placement shown face up;
    ``solution`` (placements with "tile" and "spaces") draws a layout face up instead of the game;
    ``names`` name the placer of each domino, ``faces`` shows the placed symbols face up, ``recent``
    are the numbers of the dominoes placed since the viewer's last turn, ``focus`` the space that the
    keyboard focus moves to; ``arrived_from`` is where the latest domino slides in from (``data-kit-from``:
    "pick" for the hand tile just clicked, or a seat's selector). When ``tappable`` (the viewer's turn), a
    tap on any other space or domino is a ``space`` action too, so the screen can say why it is no target.
    """
    clickable = set(clickable)
    recent = set(recent)
    spaces = view["spaces"]
    covered_by: dict[int, Mapping[str, Any]] = {}
    pieces: list[Markup] = []
    dominoes = solution if solution is not None else view["covered"]
    for placed in dominoes:
        a, b = placed["spaces"]
        covered_by[a] = covered_by[b] = placed
    pend_cells: set[int] = set()
    if pending is not None:
        pend_cells = {pending[1], pending[2]}
    for sp in spaces:
        sid = sp["id"]
        if sid in covered_by:
            continue
        sym = sp["symbol"]
        style = f"grid-row:{sp['row'] + 1};grid-column:{sp['col'] + 1}"
        cls = f"hx-cell hx-c-{sym}"
        if sid in pend_cells:
            cls += " is-pending"
        if sid == first:
            cls += " is-first"
        if sid in clickable:
            cls += " is-target"
            what = "reset this choice" if sid == first else "place here"
            pieces.append(
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": cls,
                        "style": style,
                        "id": f"hx-sp-{sid}",
                        "data_action": "space",
                        "data_value": str(sid),
                        "data_space": str(sid),
                        "data_focus": "true" if sid == focus else None,
                        "aria_label": f"{space_name(sp)}: {what}",
                    },
                    symbol_icon(sym),
                )
            )
        else:
            pieces.append(
                h(
                    "span",
                    {
                        "class_": cls,
                        "style": style,
                        "data_space": str(sid),
                        "data_action": "space" if tappable else None,
                        "data_value": str(sid) if tappable else None,
                        "data_key": str(sid),
                        "role": "img",
                        "aria_label": space_name(sp),
                    },
                    symbol_icon(sym),
                )
            )
    rows = {sp["id"]: (sp["row"], sp["col"]) for sp in spaces}
    for placed in dominoes:
        owner = placed.get("seat")
        who = names[owner] if owner is not None and 0 <= owner < len(names) else None
        pieces.append(
            _domino(
                placed,
                rows,
                face_up=solution is not None or faces,
                owner=None if solution is not None else owner,
                who=who,
                recent=placed.get("number") in recent,
                arrived_from=arrived_from if placed.get("latest") else None,
                tappable=tappable,
            )
        )
    if pending is not None:
        tile, a, b = pending
        pieces.append(
            _domino(
                {"tile": tile, "spaces": [a, b], "latest": False},
                rows,
                face_up=True,
                pending=True,
                symbols=(spaces[a]["symbol"], spaces[b]["symbol"]),
            )
        )
    props = {
        "class_": "hx-board"
        + (" is-solution" if solution is not None else "")
        + (" is-faces" if faces else ""),
        "role": "group",
        "aria_label": label,
    }
    if board_id:
        props["id"] = board_id
    return h("div", props, pieces)


def _domino(
    placed: Mapping[str, Any],
    rows: Mapping[int, tuple[int, int]],
    *,
    face_up: bool,
    pending: bool = False,
    symbols: tuple[str, str] | None = None,
    owner: int | None = None,
    who: str | None = None,
    recent: bool = False,
    arrived_from: str | None = None,
    tappable: bool = False,
) -> Markup:
    a, b = placed["spaces"]
    (ra, ca), (rb, cb) = rows[a], rows[b]
    top, left = min(ra, rb), min(ca, cb)
    vertical = ca == cb
    style = (
        f"grid-row:{top + 1}/span {2 if vertical else 1};grid-column:{left + 1}/span {1 if vertical else 2}"
    )
    cls = "hx-domino " + ("is-v" if vertical else "is-h")
    if owner is not None:
        cls += f" hx-own-{owner}"
    if placed.get("latest"):
        cls += " is-latest"
    if recent:
        cls += " is-recent"
    if pending:
        cls += " is-pending"
    by = f", placed by {who}" if who else ""
    latest = ", the latest" if placed.get("latest") else ""
    halves: list[Markup] = []
    if face_up:
        cls += " is-face"
        if symbols is None:
            x, y = placed["tile"].split("-")
            # The tile's first symbol lies on its first space.
            symbols = (x, y)
        first_cell = (ra, ca) <= (rb, cb)
        ends = symbols if first_cell else (symbols[1], symbols[0])
        label = ("Your placement: " if pending else "") + tile_name(placed["tile"]) + by + latest
        halves = [h("span", {"class_": "hx-half"}, symbol_icon(end)) for end in ends]
    else:
        label = "A domino face down" + by + latest
    return h(
        "span",
        {
            "class_": cls,
            "style": style,
            "role": "img",
            "aria_label": label,
            "data_covered": f"{a},{b}",
            "data_key": f"{a},{b}",
            "data_kit_from": arrived_from,
            "data_action": "space" if tappable else None,
            "data_value": str(a) if tappable else None,
        },
        *halves,
    )


# -- words ------------------------------------------------------------------------------------------


def space_name(space: Mapping[str, Any]) -> str:
    """Return a space in a player's words: its symbol, row and column from the diamond's top-left.

    The grid's own rows and columns (not counted within a row), so neighbours differ by one.
    """
    return f"{symbol_name(space['symbol']).capitalize()}, row {space['row'] + 1}, column {space['col'] + 1}"


def space_refusal(view: Mapping[str, Any], tile: str | None, first: int | None, space: int) -> str:
    """Return why a tapped space is no target for the chosen ``tile`` (``first``: its first space, if chosen).

    Short enough for the message line's two lines on a phone.
    """
    if tile is None:
        return "Pick a tile first, then tap a marked space."
    spaces = {sp["id"]: sp for sp in view["spaces"]}
    if any(space in placed["spaces"] for placed in view["covered"]) or space not in spaces:
        return "That space is taken: tap a marked space."
    here = symbol_name(spaces[space]["symbol"])
    ends = tile.split("-")
    if first is None:
        if spaces[space]["symbol"] not in ends:
            return f"{tile_name(tile).capitalize()} has no {here} end."
        other = symbol_name(ends[1] if ends[0] == spaces[space]["symbol"] else ends[0])
        return f"No free {other} touches this {here}: tap a marked space."
    (r1, c1), (r2, c2) = (
        (spaces[first]["row"], spaces[first]["col"]),
        (spaces[space]["row"], spaces[space]["col"]),
    )
    if abs(r1 - r2) + abs(c1 - c2) != 1:
        return "The other end goes next to the first: tap a marked space."
    other = symbol_name(ends[1] if ends[0] == spaces[first]["symbol"] else ends[0])
    return f"The other end is {other}, not {here}: tap a marked space."


ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def tiles_word(count: int) -> str:
    """Return "1 tile" or "9 tiles"."""
    return f"{count} tile{'' if count == 1 else 's'}"


def swatch(seat: int) -> Markup:
    """Return the small mark in a seat's colour that its placed dominoes carry."""
    return h("span", {"class_": f"hx-swatch hx-own-{seat}", "aria_hidden": "true"})


def event_text(event: Mapping[str, Any], names: Sequence[str], you: int | None = None) -> str:
    """Return one public event as a sentence (``you``: the seat worded "You")."""
    seat = event["seat"]
    mine = seat == you
    who = "You" if mine else (names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}")
    kind = event["kind"]
    if kind == "place":
        tile = event["move"].split("@")[0]
        return f"{who} placed {tile_name(tile)}."
    if kind == "eliminated":
        order = ORDINAL.get(event["order"], event["order"])
        if mine:
            return f"You are out: none of your tiles fits ({order} out)."
        return f"{who} is eliminated: no tile fits ({order} out)."
    if kind == "winner":
        return "You win!" if mine else f"{who} wins!"
    if kind == "no_fit":
        return f"No more tiles fit: {event['placed']} placed."
    return ""


def log(
    history: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    limit: int = 12,
    you: int | None = None,
    opened: bool = False,
) -> Markup:
    """Return the latest public events, newest first, in a "Log" that folds (``opened``: unfolded)."""
    items = [
        h("li", {"class_": f"hx-ev-{e['kind']}"}, event_text(e, names, you)) for e in list(history)[-limit:]
    ][::-1]
    if not items:
        items = [h("li", {"class_": "hx-ev-none"}, "No tiles placed yet.")]
    return h(
        "details", {"class_": "hx-log", "open": opened}, h("summary", {}, "Game log"), h("ol", {}, items)
    )


def legend() -> Markup:
    """Return the key of the seven symbols."""
    return h(
        "ul",
        {"class_": "hx-legend", "aria_label": "The seven symbols"},
        [h("li", {}, symbol_icon(s), symbol_name(s)) for s in SYMBOLS],
    )
