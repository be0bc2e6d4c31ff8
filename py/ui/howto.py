"""How to play with pictures: each game's rules text with diagrams drawn from the engine's own data.

Every diagram starts from a seeded deal, reaches its position by playing moves through the engine (the
first legal move each turn: the same moves every time), asks the engine which moves are legal and
draws the result with the game's own renderers. A tile is marked as fitting only when the engine lists
its move, and as refused only when the engine refuses it (its message is the caption's reason), so a
picture can never show an illegal move as legal. Each figure keeps the moves it shows as ``Claim``
values, which the tests replay against a fresh engine.

Bonefall's pictures are positions built on the simulation's own board (``boneyard.games.bonefall.sim``)
and played out by its ``resolve``: every frame is one the engine produced.

Pure Python (no browser): ``ui.shell.rules`` and the rules dialog over a table render these.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from boneyard.core import GameInfo, IllegalMoveError
from boneyard.games import GAMES

from .art import half as well_half
from .games.domino_svg import _n, board_svg, standalone_tile, tile_svg
from .games.dominoes_layout import arm_chains, arm_marker, bounds, layout_fives, layout_line, marker_boxes
from .html import Markup, h, join

__all__ = ["Claim", "Figure", "figures", "howto_body", "is_legal", "rules_dialog"]

FIRST_NAMES = ("Ana", "Ben", "Chloé", "Dev")


@dataclass(frozen=True)
class Claim:
    """One move a diagram shows, from the position reached by ``before``, and whether it shows it legal."""

    game: str
    seed: int
    options: tuple[tuple[str, Any], ...]
    before: tuple[str, ...]
    move: str
    legal: bool


@dataclass(frozen=True)
class Figure:
    """One diagram: a title, the picture, a caption, the moves it shows and where it goes in the text."""

    key: str
    title: str
    picture: Markup
    caption: Markup
    after: str  # words of the rules paragraph it follows (the end of the text when none matches)
    claims: tuple[Claim, ...] = ()
    facts: dict[str, Any] = field(default_factory=dict)  # what the tests check (Bonefall's events ...)


# -- the engine -------------------------------------------------------------------------------------


def _new(game: str, seed: int, options: tuple[tuple[str, Any], ...]) -> Any:
    return GAMES[game].new_state(seed=seed, **dict(options))


def replay(game: str, seed: int, options: tuple[tuple[str, Any], ...], moves: Iterable[str]) -> Any:
    """Return the state reached from the seeded deal by playing ``moves`` (text) through the engine."""
    state = _new(game, seed, options)
    for move in moves:
        state.play(move)
    return state


def is_legal(state: Any, move: str) -> tuple[bool, str]:
    """Ask the engine whether ``move`` may be played now: (legal, the engine's reason when refused)."""
    trial = state.clone()
    try:
        trial.play(move)
    except (IllegalMoveError, ValueError) as exc:
        return False, str(exc)
    return True, ""


def _walk(
    game: str, seed: int, options: tuple[tuple[str, Any], ...], until: Callable[[Any], bool], limit: int = 200
) -> tuple[Any, tuple[str, ...]]:
    """Play the first legal move each turn until ``until(state)`` holds; return the state and the moves."""
    state = _new(game, seed, options)
    moves: list[str] = []
    while not until(state):
        if state.is_over() or len(moves) >= limit:
            raise RuntimeError(f"no such position in {game} seed {seed}")
        move = str(state.legal_moves()[0])
        state.play(move)
        moves.append(move)
    return state, tuple(moves)


def _mark(ok: bool, text: str) -> Markup:
    return h("span", {"class_": "howto-mark " + ("is-ok" if ok else "is-bad")}, ("✓ " if ok else "✗ ") + text)


def _panel(picture: Markup, label: Any = "", cls: str = "") -> Markup:
    return h(
        "div",
        {"class_": "howto-panel" + (f" {cls}" if cls else "")},
        picture,
        h("p", {"class_": "howto-label"}, label) if label else "",
    )


def _arrow() -> Markup:
    return h("span", {"class_": "howto-arrow", "aria_hidden": "true"}, "→")


# -- Dominoes ---------------------------------------------------------------------------------------

DOMINOES_SEED = 0
DRAW_GAME: tuple[tuple[str, Any], ...] = (("players", 2),)
BLOCK_GAME: tuple[tuple[str, Any], ...] = (("players", 2), ("draw", False))


def _tile(t: Sequence[int]) -> str:
    return f"{t[0]}-{t[1]}"


def _line_svg(view: dict[str, Any], fresh: int | None = None, label: str = "") -> Markup:
    """Return the line of play of a view as the table draws it (bent rows, doubles across)."""
    line = [(t["tile"][0], t["tile"][1], t["double"]) for t in view["line"]]
    opening = sum(1 for e in view["history"] if e["move"] not in ("draw", "pass") and e.get("end") == "L")
    placed = layout_line(line, opening, 5.0)
    left, top, width, height = bounds(placed, 0.25)
    scale, unit = 40.0, 25.0
    tiles = [
        tile_svg(t.x, t.y, t.w, t.h, t.halves, scale, "howto-new" if t.index == fresh else "") for t in placed
    ]
    label = label or "Line of play: " + ", ".join(_tile(t["tile"]) for t in view["line"])
    return board_svg(
        "howto-line", (left, top, width, height), scale, width * unit, height * unit, label, tiles
    )


def _hand(
    tiles: Sequence[Sequence[int]], marks: dict[str, Markup] | None = None, dim: Iterable[str] = ()
) -> Markup:
    """Return a row of hand tiles, each with its mark (fits / refused) under it."""
    marks = marks or {}
    dimmed = set(dim)
    items = []
    for t in tiles:
        text = _tile(t)
        items.append(
            h(
                "li",
                {"class_": "howto-tile" + (" is-dim" if text in dimmed else "")},
                standalone_tile(t[0], t[1], scale=26, label=text),
                marks.get(text, ""),
            )
        )
    return h("ul", {"class_": "howto-hand", "aria_label": "Tiles in hand"}, items)


def _lays(state: Any, tile: str) -> list[str]:
    """Return the engine's legal moves that lay ``tile``."""
    return [str(m) for m in state.legal_moves() if str(m).split(":")[0] == tile]


def dominoes_figures() -> list[Figure]:
    """Return the Dominoes diagrams: the opening, a fitting and a refused tile, an end match, a draw, a block."""
    game, seed = "dominoes", DOMINOES_SEED
    out: list[Figure] = []

    # The opening: the highest double dealt must be laid; the engine refuses every other tile.
    state = _new(game, seed, DRAW_GAME)
    seat = state.current_player()
    hand = state.view(seat)["hand"]
    legal = [str(m) for m in state.legal_moves()]
    opener = legal[0]
    claims = [Claim(game, seed, DRAW_GAME, (), _tile(t), _tile(t) in legal) for t in hand]
    doubles = [_tile(t) for t in hand if t[0] == t[1] and _tile(t) != opener]
    marks = {opener: _mark(True, "opens")}
    marks.update({d: _mark(False, "not yet") for d in doubles})
    others = f"; {' and '.join(doubles)}, a lower double, must wait" if doubles else ""
    out.append(
        Figure(
            "dominoes-opening",
            "The opening",
            _panel(
                _hand(hand, marks, [_tile(t) for t in hand if _tile(t) != opener]),
                f"{FIRST_NAMES[seat]}'s hand",
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"The highest double dealt is {opener}: {FIRST_NAMES[seat]} holds it, so {FIRST_NAMES[seat]} "
                    f"opens with it{others}.",
                )
            ),
            "highest double",
            tuple(claims),
        )
    )

    # A fitting and a refused tile, then the end match that the fitting one makes.
    def fit_and_miss(s: Any) -> bool:
        if s.is_over() or len(s.view(0)["line"]) < 3:
            return False
        v = s.view(s.current_player())
        fits = [t for t in v["hand"] if _lays(s, _tile(t))]
        return bool(fits) and len(fits) < len(v["hand"])

    state, before = _walk(game, seed, DRAW_GAME, fit_and_miss)
    seat = state.current_player()
    view = state.view(seat)
    left, right = view["open_ends"]
    fit = next(t for t in view["hand"] if _lays(state, _tile(t)))
    miss = next(t for t in view["hand"] if not _lays(state, _tile(t)))
    move = _lays(state, _tile(fit))[0]
    claims = [Claim(game, seed, DRAW_GAME, before, move, True)]
    reasons = []
    for end in ("L", "R"):
        ok, why = is_legal(state, f"{_tile(miss)}:{end}")
        claims.append(Claim(game, seed, DRAW_GAME, before, f"{_tile(miss)}:{end}", ok))
        reasons.append(why)
    number = left if move.endswith(":L") else right
    marks = {_tile(fit): _mark(True, f"fits the {number}"), _tile(miss): _mark(False, "fits neither end")}
    out.append(
        Figure(
            "dominoes-legal",
            "A tile that fits, and one that does not",
            join(
                [
                    _panel(_line_svg(view), f"Open ends: {left} and {right}"),
                    _panel(
                        _hand(view["hand"], marks, [_tile(t) for t in view["hand"] if t not in (fit, miss)])
                    ),
                ]
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"The line's open ends show {left} and {right}. {_tile(fit)} has a {number}: it may be laid. "
                    f"{_tile(miss)} matches neither end, and the game refuses it ({reasons[0]}).",
                )
            ),
            "matches one of the two open ends",
            tuple(claims),
        )
    )
    after = state.clone()
    after.play(move)
    aview = after.view(seat)
    fresh = 0 if move.endswith(":L") else len(aview["line"]) - 1
    new_ends = aview["open_ends"]
    new_end = new_ends[0] if move.endswith(":L") else new_ends[1]
    out.append(
        Figure(
            "dominoes-end",
            "An end match",
            join(
                [
                    _panel(_line_svg(view), "Before"),
                    _arrow(),
                    _panel(_line_svg(aview, fresh), f"{_tile(fit)} laid on the {number}"),
                ]
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"The {number} of {_tile(fit)} goes against the {number} at the end of the line; its other "
                    f"half, {new_end}, is the new open end. A double is laid across.",
                )
            ),
            "matches one of the two open ends",
            (Claim(game, seed, DRAW_GAME, before, move, True),),
        )
    )

    # A draw: nothing fits, so the only move is to draw until a tile fits.
    def must_draw(s: Any) -> bool:
        return not s.is_over() and [str(m) for m in s.legal_moves()] == ["draw"]

    state, before = _walk(game, seed, DRAW_GAME, must_draw)
    seat = state.current_player()
    view = state.view(seat)
    left, right = view["open_ends"]
    claims = [
        Claim(game, seed, DRAW_GAME, before, "draw", True),
        Claim(game, seed, DRAW_GAME, before, "pass", False),
    ]
    for t in view["hand"]:
        for end in ("L", "R"):
            ok, _ = is_legal(state, f"{_tile(t)}:{end}")
            claims.append(Claim(game, seed, DRAW_GAME, before, f"{_tile(t)}:{end}", ok))
    drawn: list[list[int]] = []
    trial, moves = state.clone(), list(before)
    while [str(m) for m in trial.legal_moves()] == ["draw"]:
        held = {_tile(t) for t in trial.view(seat)["hand"]}
        trial.play("draw")
        moves.append("draw")
        drawn.append(next(t for t in trial.view(seat)["hand"] if _tile(t) not in held))
    lay = next(str(m) for m in trial.legal_moves() if str(m) not in ("draw", "pass"))
    claims.append(Claim(game, seed, DRAW_GAME, tuple(moves), lay, True))
    last = _tile(drawn[-1])
    dmarks = {_tile(t): _mark(False, "no fit") for t in drawn[:-1]}
    dmarks[last] = _mark(True, "fits")
    words = (
        f"the first {len(drawn) - 1} drawn do not fit either, the next, {last}, does"
        if len(drawn) > 2
        else f"the first drawn, {_tile(drawn[0])}, does not fit either; the second, {last}, does"
        if len(drawn) == 2
        else f"the tile drawn, {last}, fits"
    )
    out.append(
        Figure(
            "dominoes-draw",
            "Drawing from the boneyard",
            join(
                [
                    _panel(
                        _hand(view["hand"], {_tile(t): _mark(False, "") for t in view["hand"]}),
                        f"{FIRST_NAMES[seat]}'s hand: nothing matches {left} or {right}",
                    ),
                    _arrow(),
                    _panel(_hand(drawn, dmarks), "Drawn, one at a time"),
                ]
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"No tile in the hand has a {left} or a {right}, and passing is not allowed while the "
                    f"boneyard has tiles: {FIRST_NAMES[seat]} draws. In this deal {words}, and is laid at once.",
                )
            ),
            "Nothing fits?",
            tuple(claims),
        )
    )

    # A blocked hand in the block game: nobody can lay, the lowest pip total wins.
    state, before = _walk(game, seed, BLOCK_GAME, lambda s: s.is_over())
    outcome = state.outcome()
    final = state.view(0)
    result = final["hand_results"][-1] if final.get("hand_results") else {}
    hands = result.get("hands") or [state.view(s)["hand"] for s in range(2)]
    pips = [sum(a + b for a, b in hand) for hand in hands]
    winner = outcome.winners[0] if outcome.winners else None
    last_turn = before[:-1]
    pre = replay(game, seed, BLOCK_GAME, last_turn)
    claims = [Claim(game, seed, BLOCK_GAME, last_turn, "pass", True)]
    for t in pre.view(pre.current_player())["hand"]:
        for end in ("L", "R"):
            claims.append(Claim(game, seed, BLOCK_GAME, last_turn, f"{_tile(t)}:{end}", False))
    panels = [
        _panel(
            _hand(hand),
            f"{FIRST_NAMES[s]}: {pips[s]} pip{'' if pips[s] == 1 else 's'}"
            + (" — wins" if s == winner else ""),
            "is-winner" if s == winner else "",
        )
        for s, hand in enumerate(hands)
    ]
    loser_pips = sum(p for s, p in enumerate(pips) if s != winner)
    out.append(
        Figure(
            "dominoes-block",
            "A blocked hand",
            join(
                [
                    _panel(
                        _line_svg(final), "The line, blocked: " + " and ".join(map(str, final["open_ends"]))
                    ),
                    *panels,
                ]
            ),
            Markup(
                h(
                    "span",
                    {},
                    "In the block game there is no drawing. Here neither player can lay a tile and both pass "
                    "in turn: the hand is blocked, and the pips left in each hand are counted ("
                    + ", ".join(f"{FIRST_NAMES[s]} {p}" for s, p in enumerate(pips))
                    + "). "
                    + (
                        f"The lower total wins: {FIRST_NAMES[winner]}. In a match {FIRST_NAMES[winner]} would "
                        f"score the {loser_pips} pips the other holds."
                        if winner is not None
                        else "A tie for the lowest total is a draw."
                    ),
                )
            ),
            "blocked when every player",
            tuple(claims),
            {"pips": pips, "winner": winner},
        )
    )
    return out


# -- Triangles --------------------------------------------------------------------------------------

TRIANGLES_SEED = 0
TRIANGLES_MATCH_SEED = 2  # a deal whose play soon offers a tile that meets the table at all three corners
TRIANGLES_OPTIONS: tuple[tuple[str, Any], ...] = (("players", 2),)


def _tri_svg(
    table: list[dict[str, Any]],
    extra: Sequence[tuple[tuple[int, int], Sequence[int], str]],
    rings: Sequence[tuple[tuple[float, float], str]],
    label: str,
    focus: Sequence[tuple[int, int]] = (),
) -> Markup:
    """Return laid tiles and extra (cell, corner values, class) tiles, with rings at some corners."""
    from .games.triangles_layout import box_attr, tile_shape

    cells = [(int(t["cell"][0]), int(t["cell"][1])) for t in table] + [cell for cell, _, _ in extra]
    tiles = [tile_shape((int(t["cell"][0]), int(t["cell"][1])), t["corners"], "tri-tile") for t in table]
    more = [tile_shape(cell, values, f"tri-tile {cls}") for cell, values, cls in extra]
    marks = [
        h("circle", {"class_": f"howto-ring {cls}", "cx": _n(x), "cy": _n(y), "r": "0.16"})
        for (x, y), cls in rings
    ]
    from boneyard.games.triangles import grid

    x0, y0, x1, y1 = grid.bounding_box(list(focus) or cells)
    x, y, w, hh = x0 - 0.3, y0 - 0.3, x1 - x0 + 0.6, y1 - y0 + 0.6
    return h(
        "svg",
        {
            "class_": "howto-tri",
            "viewBox": box_attr((x, y, w, hh)),
            "role": "img",
            "aria_label": label,
            "style": f"aspect-ratio:{_n(w)}/{_n(hh)}",
        },
        tiles,
        more,
        marks,
    )


def triangles_figures() -> list[Figure]:
    """Return the Triangles diagrams: the opening, and a placement the engine accepts beside one it refuses."""
    from boneyard.games.triangles import grid
    from boneyard.games.triangles.rules import corner_values

    from .games.triangles_layout import tile_values

    game, seed, options = "triangles", TRIANGLES_SEED, TRIANGLES_OPTIONS
    out: list[Figure] = []
    state = _new(game, seed, options)
    seat = state.current_player()
    hand = state.view(seat)["hand"]
    legal = [str(m) for m in state.legal_moves()]
    opener = legal[0].split("@")[0]
    claims = [Claim(game, seed, options, (), legal[0], True)]
    for tile in hand:
        if tile != opener:
            claims.append(Claim(game, seed, options, (), f"{tile}@0,0r0", False))
    from .games.triangles_layout import hand_tile_svg

    items = [
        h(
            "li",
            {"class_": "howto-tile" + ("" if t == opener else " is-dim")},
            hand_tile_svg(t),
            _mark(True, "opens") if t == opener else "",
        )
        for t in hand
    ]
    triple = len(set(opener.split("-"))) == 1
    out.append(
        Figure(
            "triangles-opening",
            "The opening",
            _panel(
                h("ul", {"class_": "howto-hand", "aria_label": "Tiles in hand"}, items),
                f"{FIRST_NAMES[seat]}'s hand",
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"{opener} is the highest triple dealt, so {FIRST_NAMES[seat]} lays it first."
                    if triple
                    else f"Nobody holds a triple: {opener}, the tile with the most pips, opens.",
                )
            ),
            "lays it first",
            tuple(claims),
        )
    )

    # A placement that matches along a side and at a point, and the same tile turned so it clashes.
    def good_spot(s: Any) -> bool:
        if s.is_over() or len(s.view(0)["table"]) < 4:
            return False
        return _touching_move(s) is not None

    seed = TRIANGLES_MATCH_SEED
    state, before = _walk(game, seed, options, good_spot)
    seat = state.current_player()
    view = state.view(seat)
    move = _touching_move(state)
    assert move is not None
    tile, rest = move.split("@")
    cell_text, rot = rest.split("r")
    cell = (int(cell_text.split(",")[0]), int(cell_text.split(",")[1]))
    values = corner_values(tile_values(tile), int(rot))
    shown = {
        tuple(grid.corners((int(t["cell"][0]), int(t["cell"][1])))[i]): v
        for t in view["table"]
        for i, v in enumerate(t["corners"])
    }
    touching = [(grid.vertex_point(vx), "is-ok") for vx in grid.corners(cell) if vx in shown]
    side = [n for n in grid.neighbours(cell) if any(tuple(t["cell"]) == n for t in view["table"])]
    point = [
        n
        for n in grid.point_neighbours(cell)
        if n not in side and any(tuple(t["cell"]) == n for t in view["table"])
    ]
    bad_move, why = "", ""
    for r in (0, 1, 2):
        trial = f"{tile}@{cell[0]},{cell[1]}r{r}"
        ok, reason = is_legal(state, trial)
        if not ok:
            bad_move, why = trial, reason
            break
    claims = [Claim(game, seed, options, before, move, True)]
    focus = [cell, *side, *point, *(n for x in side for n in grid.neighbours(x))]
    panels = [
        _panel(
            _tri_svg(
                view["table"],
                [(cell, values, "howto-ok")],
                touching,
                f"{tile} laid so every corner matches",
                focus,
            ),
            _mark(True, f"{tile} fits"),
        )
    ]
    caption = (
        f"{tile} shares a side with one tile and meets {len(point)} more only at a point: all "
        f"{len(touching)} of its corners touch the table, and each shows the number already there (ringed)."
    )
    if bad_move:
        claims.append(Claim(game, seed, options, before, bad_move, False))
        bad_values = corner_values(tile_values(tile), int(bad_move.rsplit("r", 1)[1]))
        clash = [
            (grid.vertex_point(vx), "is-bad")
            for vx, v in zip(grid.corners(cell), bad_values)
            if vx in shown and shown[vx] != v
        ]
        panels.append(
            _panel(
                _tri_svg(
                    view["table"],
                    [(cell, bad_values, "howto-bad")],
                    clash,
                    f"{tile} turned so a corner clashes",
                    focus,
                ),
                _mark(False, "turned, it clashes"),
            )
        )
        why = re.sub(r" of cell -?\d+,-?\d+", "", why)  # the player sees no cell numbers
        caption += f" Turned another way in the same place, the game refuses it: {why}."
    out.append(
        Figure(
            "triangles-match",
            "A side and corner match",
            join(panels),
            Markup(h("span", {}, caption)),
            "must show the same number",
            tuple(claims),
            {"side": len(side), "point": len(point)},
        )
    )
    return out


def _touching_move(state: Any) -> str | None:
    """Return a legal placement that shares one side with a tile and its third corner with another, at a point."""
    from boneyard.games.triangles import grid

    placed = {tuple(t["cell"]) for t in state.view(0)["table"]}
    shown = {vx for cell in placed for vx in grid.corners((int(cell[0]), int(cell[1])))}
    for m in state.legal_moves():
        text = str(m)
        if "@" not in text:
            continue
        cell_text = text.split("@")[1].split("r")[0]
        cell = (int(cell_text.split(",")[0]), int(cell_text.split(",")[1]))
        side = [n for n in grid.neighbours(cell) if n in placed]
        point = [n for n in grid.point_neighbours(cell) if n in placed and n not in side]
        if len(side) == 1 and point and all(vx in shown for vx in grid.corners(cell)):
            return text
    return None


# -- Heptalion --------------------------------------------------------------------------------------

HEPTALION_SEED = 0
HEPTALION_OPTIONS: tuple[tuple[str, Any], ...] = (("players", 2),)


def heptalion_figures() -> list[Figure]:
    """Return the Heptalion diagram: a tile placed on two spaces that show its symbols, and a refusal."""
    from .games.heptalion_view import board, symbol_icon, symbol_name, tile_face, tile_name

    game, seed, options = "heptalion", HEPTALION_SEED, HEPTALION_OPTIONS
    state, before = _walk(game, seed, options, lambda s: len(s.view(0)["covered"]) >= 4)
    seat = state.current_player()
    view = state.view(seat)
    move = str(state.legal_moves()[0])
    tile, spaces = move.split("@")
    a, b = (int(x) for x in spaces.split(","))
    symbols = {sp["id"]: sp["symbol"] for sp in view["spaces"]}
    # The same tile on two empty neighbouring spaces that do not show its symbols: the engine refuses it.
    from boneyard.games.heptalion.board import EDGES

    covered = {x for c in view["covered"] for x in c["spaces"]}
    bad, why = "", ""
    for x, y in EDGES:
        if x in covered or y in covered or {x, y} & {a, b}:
            continue
        if sorted((symbols[x], symbols[y])) == sorted(tile.split("-")):
            continue
        ok, reason = is_legal(state, f"{tile}@{x},{y}")
        if not ok:
            bad, why = f"{tile}@{x},{y}", reason
            break
    claims = [Claim(game, seed, options, before, move, True)]
    pictures = [
        _panel(
            h(
                "div",
                {"class_": "howto-hx"},
                board(
                    view,
                    pending=(tile, a, b),
                    board_id=None,
                    label=f"The board, {tile_name(tile)} placed on a {symbol_name(symbols[a])} and a {symbol_name(symbols[b])}",
                ),
            ),
            _mark(True, f"{tile_name(tile)} fits here"),
        )
    ]
    caption = (
        f"{FIRST_NAMES[seat]} places {tile_name(tile)} (highlighted) on two empty spaces that share an edge and "
        f"show its two symbols, {tile_name(tile).replace('–', ' and ')}."
    )
    if bad:
        claims.append(Claim(game, seed, options, before, bad, False))
        x, y = (int(v) for v in bad.split("@")[1].split(","))
        pictures.append(
            _panel(
                h(
                    "div",
                    {
                        "class_": "howto-hx-bad",
                        "role": "img",
                        "aria_label": f"{tile_name(tile)} against spaces showing {symbols[x]} and {symbols[y]}",
                    },
                    h("span", {"class_": "hx-tile"}, tile_face(tile)),
                    h("span", {"class_": "howto-vs", "aria_hidden": "true"}, "≠"),
                    h(
                        "span",
                        {"class_": "howto-spaces"},
                        symbol_icon(symbols[x], "hx-sym howto-sym"),
                        symbol_icon(symbols[y], "hx-sym howto-sym"),
                    ),
                ),
                _mark(False, f"not on a {symbol_name(symbols[x])} and a {symbol_name(symbols[y])}"),
            )
        )
        caption += (
            f" On two neighbouring spaces showing a {symbol_name(symbols[x])} and a {symbol_name(symbols[y])}, "
            "the game refuses it: the symbols must be the tile's own."
        )
        del why
    return [
        Figure(
            "heptalion-place",
            "A placement on two spaces",
            join(pictures),
            Markup(h("span", {}, caption)),
            "place one of your tiles",
            tuple(claims),
        )
    ]


# -- Bonefall ---------------------------------------------------------------------------------------

# Each scene: the halves at rest in the bottom rows of the well (col, row from the floor up, value,
# partner side), then the domino that locks: (col, row from the floor, orientation, first, second).
Scene = tuple[tuple[tuple[int, int, int, str], ...], tuple[int, int, int, int, int]]
BONEFALL_SCENES: dict[str, Scene] = {
    "fall": (((0, 0, 1, "right"), (1, 0, 3, "left"), (2, 0, 5, "right"), (3, 0, 4, "left")), (1, 4, 0, 2, 6)),
    "tip": (((0, 0, 1, "up"), (0, 1, 3, "down"), (2, 0, 6, "right"), (3, 0, 2, "left")), (0, 4, 0, 4, 5)),
    "annihilate": (
        ((0, 0, 3, "right"), (1, 0, 5, "left"), (2, 0, 1, "right"), (3, 0, 6, "left")),
        (0, 3, 1, 2, 3),
    ),
    "cascade": (
        ((0, 0, 1, "right"), (1, 0, 3, "left"), (2, 0, 6, "right"), (3, 0, 4, "left")),
        (2, 3, 1, 4, 6),
    ),
}
WELL_COLS = 4
WELL_ROWS = 4


def bonefall_run(name: str) -> dict[str, Any]:
    """Play one scene through the simulation: the frames, the events, the turn score and its power.

    The locking domino is dropped from where the scene holds it (``drop_row``), written into the grid
    with ``place`` and the turn resolved with ``resolve``, which returns every event and frame.
    """
    from boneyard.games.bonefall.sim import HEIGHT, WIDTH, Board

    rest, (col, lift, orient, first, second) = BONEFALL_SCENES[name]
    board = Board()
    step = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}
    ids: dict[tuple[int, int], int] = {}
    for c, up, value, link in rest:
        row = HEIGHT - 1 - up
        dc, dr = step[link] if link else (0, 0)
        mate = (c + dc, row + dr) if link else None
        piece = ids.get(mate, 0) if mate else 0
        piece = piece or len(ids) + 1
        ids[(c, row)] = piece
        board.put(c, row, value, piece, mate)
    start_row = HEIGHT - 1 - lift - (1 if orient & 1 else 0)
    before = board.state_copy()
    land = board.drop_row(col, start_row, orient)
    cells = board.place(col, land, orient, first, second, 99)
    events: list[Any] = []
    frames: list[Any] = []
    score = board.resolve(events, frames, changed=cells)
    return {
        "before": before,
        "piece": (col, start_row, orient, first, second),
        "landed": (col, land),
        "frames": frames,
        "events": events,
        "after": board.state_copy(),
        "score": score,
        "power": (score - 1) ** 2 if score else 0,
        "width": WIDTH,
        "height": HEIGHT,
    }


def _well_svg(
    grid_state: Sequence[Sequence[int]],
    *,
    piece: tuple[int, int, int, int, int] | None = None,
    burst: Iterable[tuple[int, int]] = (),
    ghost: tuple[int, int, int] | None = None,
    label: str = "",
    cls: str = "",
) -> Markup:
    """Return the bottom of the well: the cells of a frame, a falling domino, rings on annihilating halves."""
    from boneyard.games.bonefall.sim import HEIGHT, Board, piece_cells

    c = 22.0
    top = HEIGHT - WELL_ROWS - 1  # one row of air above the scene
    val, pid, mate = grid_state
    halves = []
    for cell in Board(list(val), list(pid), list(mate)).cells_json():
        if cell["col"] >= WELL_COLS or cell["row"] < top:
            continue
        halves.append(
            well_half(cell["col"], cell["row"] - top, cell["value"], cell["link"] or "", c, 4, 0, "art-rest")
        )
    if piece is not None:
        col, row, orient, a, b = piece
        ca, ra, cb, rb = piece_cells(col, row, orient)
        link_a = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}[(cb - ca, rb - ra)]
        link_b = {"right": "left", "left": "right", "down": "up", "up": "down"}[link_a]
        halves.append(well_half(ca, ra - top, a, link_a, c, 4, 0, "art-falling howto-drop"))
        halves.append(well_half(cb, rb - top, b, link_b, c, 4, 0, "art-falling howto-drop"))
    if ghost is not None:  # where the falling domino will land, as the well shows it
        gc, gr, go = ghost
        ca, ra, cb, rb = piece_cells(gc, gr, go)
        x0, y0 = 4 + min(ca, cb) * c, (min(ra, rb) - top) * c
        halves.insert(
            0,
            h(
                "rect",
                {
                    "class_": "art-target",
                    "x": _n(x0 + 1.5),
                    "y": _n(y0 + 1.5),
                    "width": _n((abs(cb - ca) + 1) * c - 3),
                    "height": _n((abs(rb - ra) + 1) * c - 3),
                    "rx": "4",
                },
            ),
        )
    rings = [
        h(
            "rect",
            {
                "class_": "art-burst",
                "x": _n(4 + col * c - 1.5),
                "y": _n((row - top) * c - 1.5),
                "width": _n(c + 3),
                "height": _n(c + 3),
                "rx": "5",
            },
        )
        for col, row in burst
    ]
    w, hh = WELL_COLS * c + 8, (WELL_ROWS + 1) * c + 4
    walls = h("path", {"class_": "art-well", "d": f"M2 0V{_n(hh - 2)}H{_n(w - 2)}V0"})
    return h(
        "svg",
        {
            "class_": "howto-well" + (f" {cls}" if cls else ""),
            "viewBox": f"0 0 {_n(w)} {_n(hh)}",
            "width": _n(w),
            "height": _n(hh),
            "role": "img",
            "aria_label": label,
        },
        walls,
        halves,
        rings,
    )


def _cells(event: dict[str, Any]) -> list[tuple[int, int]]:
    return [(c["col"], c["row"]) for c in event.get("cells", ())]


def _frames(run: dict[str, Any]) -> list[tuple[Markup, str]]:
    """Return the pictures of a run: the domino about to lock, then the grid before each event, then the end."""
    col, row, orient = run["piece"][0], run["landed"][1], run["piece"][2]
    falling = _well_svg(run["before"], piece=run["piece"], ghost=(col, row, orient), label="A domino falling")
    pics = [(falling, "Falling")]
    frames, events = run["frames"], run["events"]
    if not events:
        pics.append((_well_svg(run["after"], label="At rest"), "At rest"))
        return pics
    for i, (frame, event) in enumerate(zip(frames, events)):
        if event["kind"] == "annihilate":
            words = f"{event['count']} annihilate"
            pics.append(
                (_well_svg(frame, burst=_cells(event), label=f"{event['count']} halves annihilate"), words)
            )
        elif any(m.get("tipped") for m in event["moves"]):
            pics.append((_well_svg(frame, label="Landed on one half: it tips over"), "Tips over"))
        else:
            words = "What is left falls" if i else "Falls on"
            pics.append((_well_svg(frame, label=words), words))
    pics.append((_well_svg(run["after"], label="At rest"), "At rest"))
    return pics


def bonefall_figures() -> list[Figure]:
    """Return the Bonefall diagrams: a fall, a tip, an annihilation and a cascade (with its scores)."""
    texts = {
        "fall": (
            "A fall",
            "A domino falls straight down until a half lands on something, then locks.",
            "Dominoes fall",
        ),
        "tip": (
            "A tip",
            "This domino lands with one half on the stack and a gap under the other: it tips over into "
            "the gap, standing up, and falls on to the floor.",
            "tips over",
        ),
        "annihilate": ("An annihilation", "", "annihilate"),
        "cascade": ("A cascade", "", "a cascade"),
    }
    out = []
    for name, (title, words, after) in texts.items():
        run = bonefall_run(name)
        kinds = [e["kind"] for e in run["events"]]
        if name == "annihilate":
            words = (
                "Two halves with the same number meet in a column, from different dominoes: they annihilate. "
                f"The half left alone falls on. Turn score {run['score']}, so Power gains "
                f"({run['score']} − 1)² = {run['power']}."
            )
        if name == "cascade":
            counts = [e["count"] for e in run["events"] if e["kind"] == "annihilate"]
            words = (
                f"Two 6s annihilate; the 4 left alone falls beside another 4, and they annihilate too: a cascade. "
                f"{' + '.join(map(str, counts))} halves make a turn score of {run['score']}: Power gains "
                f"({run['score']} − 1)² = {run['power']}, where two separate pairs would give 1 + 1."
            )
        strip: list[Markup] = []
        for i, (pic, label) in enumerate(_frames(run)):
            if i:
                strip.append(_arrow())
            strip.append(_panel(pic, label))
        film = _film(run) if name == "cascade" else ""
        out.append(
            Figure(
                f"bonefall-{name}",
                title,
                join([h("div", {"class_": "howto-strip"}, strip), film]),
                Markup(h("span", {}, words)),
                after,
                (),
                {"events": kinds, "score": run["score"], "power": run["power"]},
            )
        )
    return out


def _film(run: dict[str, Any]) -> Markup:
    """Return the cascade as a short loop (each frame in turn); shown only while animations are on."""
    pics = _frames(run)
    frames = [
        h("div", {"class_": "howto-film-frame", "style": f"--i:{i}"}, pic) for i, (pic, _) in enumerate(pics)
    ]
    return h(
        "div",
        {"class_": "howto-film", "aria_hidden": "true", "style": f"--n:{len(pics)}"},
        frames,
    )


def bonefall_controls() -> Markup:
    """Return Bonefall's keys and touch buttons as the table lists them."""
    from .games.bonefall import CONTROLS, TOUCH

    return h(
        "section",
        {"class_": "howto-controls", "aria_labelledby": "howto-controls-title"},
        h("h2", {"id": "howto-controls-title"}, "Controls"),
        h(
            "ul",
            {"class_": "howto-keys"},
            [h("li", {}, h("kbd", {}, key), " ", what) for key, what in CONTROLS],
        ),
        h(
            "p",
            {},
            "On a touch screen: ",
            join(
                [
                    f"{sym} {label.lower()}" + ("" if i == len(TOUCH) - 1 else ", ")
                    for i, (_, sym, label) in enumerate(TOUCH)
                ]
            ),
            ". Or swipe on the well to move, tap it to rotate and flick down to drop.",
        ),
    )


# -- Dominoes: All Fives and partnerships ----------------------------------------------------------------

# The rule decisions "All Fives" and "Partnerships" (docs/architecture.md), in the players' words
# (after the rules of the line game, which the engine's text gives).
FIVES_TEXT = """\
## All Fives

All Fives (also sold as Muggins or Five Up) uses the same tiles, deal and turns, as a draw or a block \
game. What scores is the count. A match is played to 150 (100 or 250 if you choose).

The spinner is the first double laid, whether it opens the hand or comes later. Tiles are laid against \
its two sides first; once both sides have a tile, its two ends take tiles too: up to four arms. Every \
other double is laid crosswise at the end of its arm and is not a spinner.

The count, after every lay, is the sum of the numbers showing at the ends of the open arms. A double \
lying crosswise at an arm's end counts both halves. The spinner counts both halves while fewer than two \
of its sides have a tile (alone, 5-5 counts 10); once both sides have a tile it no longer counts, and \
its two ends count only when a tile has been laid on them.

When the count is a multiple of five, the player who laid the tile scores the count at once: a count \
of 15 scores 15.

A hand ends as in the draw or the block game. Going out scores the pips left in all the opponents' \
hands, rounded to the nearest five; in a blocked hand the player with the lowest pip total scores the \
others' pips, rounded to the nearest five (a tie for the lowest scores nothing). The match ends the \
moment a player or a side reaches the target, even in the middle of a hand.

## Partners (2 against 2)

Four players may play as two sides in every mode. Partners sit opposite each other: you and the player \
across the table against the two beside you. Play passes round as usual, and every hand stays hidden, \
your partner's too.

A hand is won by the side of the player who goes out, or, when it is blocked, by the side of the single \
player with the lowest pip total (a tie for the lowest between the sides: nobody wins the hand). The \
winning side scores the pips in the two opposing hands (rounded to the nearest five in All Fives), and \
in All Fives every count scores for the side of the player who laid. The player who went out leads the \
next hand."""

EXTRA_TEXT = {"dominoes": FIVES_TEXT}
# Every game dealt against the computer (not Bonefall: no one deals against you there) ends with this.
DEAL_TEXT = """## Check the deal

Against the computer the table shows "Deal" and twelve characters from the start: a fingerprint of the
deal's secret seed, fixed before the first move, so the deal cannot change afterwards. When the game ends, press
Check the deal in the results: it reveals the seed, deals it again and says whether it matches. To check
it yourself, run the command it shows in a copy of Boneyard:
PYTHONPATH=py python3 -m boneyard.deals --game GAME --seed SEED --commitment FINGERPRINT."""

# Every game with turns can be rated online (Quick match against people); what the rating proves.
RATED_TEXT = """## Rated games and what the rating proves

Online, a game between people with no computer at the table can be rated. Your rating (shown with its
uncertainty, the ± part) is recomputed from your results, each signed by every player at the table with a
key this browser made and keeps to itself; Settings shows your name with the key's short fingerprint. At a
rated table every page checks the others' signed results, so a rating edited by hand, a result someone did
not sign, or a replayed one shows as "unverified" and is not counted. A player who leaves and does not come
back within the reconnect wait loses the game, even the one whose page runs it: then each of the others
keeps that result, signed by themselves alone.

What it cannot prove: that two keys are two people. One person with two browsers or devices can still
play themselves and feed one key wins. Nor, when a connection breaks, which side left: each page may
record the other as gone. The key is this browser's alone: clearing the browser's storage (or
a private window) loses it, and the rating with it, and another browser starts afresh."""

FIVES_SEED = 4  # a deal whose first legal moves open all four arms of the spinner in a few lays
FIVES_CHOICE_SEED = 14  # a deal reaching a turn where one tile scores and another does not
FIVES: tuple[tuple[str, Any], ...] = (("players", 2), ("scoring", "fives"))
TEAMS: tuple[tuple[str, Any], ...] = (("players", 4), ("scoring", "fives"), ("teams", True))
ARM_WORDS = {"L": "left", "R": "right", "N": "top", "S": "bottom"}


def _cross_svg(view: dict[str, Any], fresh: tuple[str, int] | None = None, label: str = "") -> Markup:
    """Return an All Fives layout as the table draws it: the spinner crosswise, its arms, each open
    arm's number in a ring beyond its end."""
    layout = view["layout"]
    line = [(t["tile"][0], t["tile"][1], t["double"]) for t in view["line"]]
    north = [(t["tile"][0], t["tile"][1], t["double"]) for t in layout["north"]]
    south = [(t["tile"][0], t["tile"][1], t["double"]) for t in layout["south"]]
    spinner = layout["spinner"]
    placed = layout_fives(line, spinner, north, south, 9.0, 6.0)
    chains = arm_chains(placed, spinner, len(line))
    ends = layout["ends"]
    markers = {arm: arm_marker(chains[arm], arm) for arm in ("L", "R", "N", "S") if ends.get(arm) is not None}
    left, top, width, height = bounds(list(placed.values()) + marker_boxes(list(markers.values())), 0.25)
    scale, unit = 40.0, 22.0
    parts = [
        tile_svg(t.x, t.y, t.w, t.h, t.halves, scale, "howto-new" if key == fresh else "")
        for key, t in placed.items()
    ]
    for arm, (x, y) in markers.items():
        parts.append(
            h(
                "g",
                {"class_": "howto-end"},
                h(
                    "circle",
                    {
                        "cx": _n(x * scale),
                        "cy": _n(y * scale),
                        "r": _n(0.42 * scale),
                        "fill": "none",
                        "stroke": "currentColor",
                        "stroke_width": "2",
                        "stroke_dasharray": "4 3",
                    },
                ),
                h(
                    "text",
                    {
                        "x": _n(x * scale),
                        "y": _n(y * scale + 0.17 * scale),
                        "text_anchor": "middle",
                        "font_size": _n(0.48 * scale),
                        "font_weight": "800",
                        "fill": "currentColor",
                    },
                    str(ends[arm]),
                ),
            )
        )
    label = label or "All Fives layout: " + ", ".join(_tile(t["tile"]) for t in view["line"])
    return board_svg(
        "howto-line howto-cross", (left, top, width, height), scale, width * unit, height * unit, label, parts
    )


def count_parts(view: dict[str, Any]) -> list[tuple[str, int]]:
    """Return what makes up the count, arm by arm, as the rule decisions define it: [("left end", 4), ...]."""
    layout = view["layout"]
    line = view["line"]
    spinner = layout["spinner"]
    if spinner is None:
        return [("left end", line[0]["tile"][0]), ("right end", line[-1]["tile"][1])]
    out: list[tuple[str, int]] = []

    def end(tile: dict[str, Any], outer: int, word: str) -> None:
        a, b = tile["tile"]
        out.append((f"{word}, a double: both halves" if a == b else word, a + b if a == b else outer))

    sides = 0
    if spinner > 0:
        end(line[0], line[0]["tile"][0], "the left end")
        sides += 1
    if spinner < len(line) - 1:
        end(line[-1], line[-1]["tile"][1], "the right end")
        sides += 1
    v = line[spinner]["tile"][0]
    if sides < 2:
        out.append((f"the spinner {v}-{v}: both halves while a side is free", 2 * v))
        return out
    for arm, word in ((layout["north"], "the top end"), (layout["south"], "the bottom end")):
        if arm:
            end(arm[-1], arm[-1]["tile"][1], word)
    return out


def _sum_words(parts: list[tuple[str, int]]) -> str:
    if len(parts) == 1:
        return f"{parts[0][1]} ({parts[0][0]})"
    return " + ".join(f"{value} ({word})" for word, value in parts) + f" = {sum(v for _w, v in parts)}"


def fives_figures() -> list[Figure]:
    """Return the All Fives and partnership diagrams: the spinner's four arms and their count, a lay that
    scores beside one that does not, and partners sitting opposite who score together."""
    game = "dominoes"
    out: list[Figure] = []

    def four_arms(s: Any) -> bool:
        v = s.view(0)
        layout = v["layout"]
        return bool(layout["open"] and layout["north"] and layout["south"])

    state, before = _walk(game, FIVES_SEED, FIVES, four_arms)
    view = state.view(0)
    parts = count_parts(view)
    if sum(v for _w, v in parts) != view["count"]:
        raise RuntimeError("the count's parts do not add up to the engine's count")
    spinner = view["line"][view["layout"]["spinner"]]["tile"][0]
    out.append(
        Figure(
            "fives-spinner",
            "The spinner and its four arms",
            _panel(_cross_svg(view), f"Count {view['count']}"),
            Markup(
                h(
                    "span",
                    {},
                    f"{spinner}-{spinner} was the first double laid: it is the spinner. Both its sides have a "
                    f"tile, so its ends took tiles too. The count: {_sum_words(parts)}"
                    + (
                        f", a multiple of five: the player who laid last scored {view['count']}."
                        if view["count"] % 5 == 0
                        else ", not a multiple of five: nothing scores."
                    ),
                )
            ),
            "The count, after every lay",
            (Claim(game, FIVES_SEED, FIVES, before[:-1], before[-1], True),) if before else (),
        )
    )

    # A lay that scores and one that does not, from the same turn.
    def choice(s: Any) -> bool:
        if s.is_over():
            return False
        v = s.view(s.current_player())
        if v["layout"]["spinner"] is None or len(v["line"]) < 3:
            return False
        counts = []
        for m in s.legal_moves():
            if str(m) in ("draw", "pass"):
                continue
            trial = s.clone()
            trial.play(m)
            counts.append(trial.view(0)["count"])
        return any(c % 5 == 0 and c for c in counts) and any(c % 5 for c in counts)

    state, before = _walk(game, FIVES_CHOICE_SEED, FIVES, choice)
    seat = state.current_player()
    view = state.view(seat)
    scoring = missing = None
    for m in state.legal_moves():
        trial = state.clone()
        trial.play(m)
        if str(m) in ("draw", "pass"):
            continue
        if trial.view(0)["count"] % 5 == 0 and scoring is None:
            scoring = (str(m), trial)
        elif trial.view(0)["count"] % 5 and missing is None:
            missing = (str(m), trial)
    assert scoring is not None and missing is not None
    move, after = scoring
    aview = after.view(seat)
    lost, lost_state = missing
    name = FIRST_NAMES[seat]
    arm = move.split(":")[1] if ":" in move else "R"
    fresh = _fresh_key(aview, arm)
    gained = after.view(seat)["scores"][seat] - view["scores"][seat]
    out.append(
        Figure(
            "fives-score",
            "A lay that scores",
            join(
                [
                    _panel(_cross_svg(view), f"Before: count {view['count']}"),
                    _arrow(),
                    _panel(
                        _cross_svg(aview, fresh),
                        f"{move.split(':')[0]} laid: count {aview['count']}, +{gained}",
                    ),
                ]
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"{name} lays {move.split(':')[0]} on the {ARM_WORDS.get(arm, 'right')} end: the count becomes "
                    f"{_sum_words(count_parts(aview))}, and {name} scores {gained} at once. Laying "
                    f"{lost.split(':')[0]} on the {ARM_WORDS.get(lost.split(':')[1] if ':' in lost else 'R')} end "
                    f"instead would make the count {lost_state.view(0)['count']}: no score.",
                )
            ),
            "When the count is a multiple of five",
            (
                Claim(game, FIVES_CHOICE_SEED, FIVES, before, move, True),
                Claim(game, FIVES_CHOICE_SEED, FIVES, before, lost, True),
            ),
        )
    )

    # Partners: a count scored by one player counts for the side.
    def side_scores(s: Any) -> bool:
        return not s.is_over() and any(p for p in s.view(0)["scores"])

    state, before = _walk(game, 0, TEAMS, side_scores)
    view = state.view(0)
    last = view["history"][-1]
    layer = last["seat"]
    partner = (layer + 2) % 4
    out.append(
        Figure(
            "partners",
            "Partners sit opposite",
            join(
                [
                    _panel(_seating(view["scores"]), "Ana and Chloé against Ben and Dev"),
                    _panel(_cross_or_line(view)),
                ]
            ),
            Markup(
                h(
                    "span",
                    {},
                    f"{FIRST_NAMES[layer]} lays {_tile(last['tile'])}: the count is "
                    f"{_sum_words(count_parts(view))}, so {FIRST_NAMES[layer]} and {FIRST_NAMES[partner]}, "
                    f"partners, both have {view['scores'][layer]}: a side scores together.",
                )
            ),
            "Partners sit opposite each other",
            (Claim(game, 0, TEAMS, before[:-1], before[-1], True),),
        )
    )
    return out


def _fresh_key(view: dict[str, Any], arm: str) -> tuple[str, int]:
    layout = view["layout"]
    if arm == "N":
        return ("N", len(layout["north"]) - 1)
    if arm == "S":
        return ("S", len(layout["south"]) - 1)
    return ("line", 0 if arm == "L" else len(view["line"]) - 1)


def _cross_or_line(view: dict[str, Any]) -> Markup:
    return _cross_svg(view) if view["layout"]["spinner"] is not None else _line_svg(view)


def _seating(scores: Sequence[int]) -> Markup:
    """Return four seats round a table, partners opposite (seat 0 at the bottom, play going clockwise)."""
    places = ((110, 170, 0), (20, 95, 1), (110, 20, 2), (200, 95, 3))
    felt = "fill: color-mix(in srgb, var(--ok) 22%, var(--bg)); stroke: var(--line); stroke-width: 2"
    parts = [h("rect", {"x": "60", "y": "45", "width": "100", "height": "100", "rx": "14", "style": felt})]
    for x, y, seat in places:
        colour = "var(--accent)" if seat % 2 == 0 else "var(--muted)"
        parts.append(
            h(
                "g",
                {"class_": "howto-seat"},
                h(
                    "rect",
                    {
                        "x": _n(x - 42),
                        "y": _n(y - 16),
                        "width": "84",
                        "height": "32",
                        "rx": "8",
                        "style": f"fill: var(--surface); stroke: {colour}; stroke-width: 3",
                    },
                ),
                h(
                    "text",
                    {
                        "x": _n(x),
                        "y": _n(y + 5),
                        "text_anchor": "middle",
                        "font_size": "14",
                        "font_weight": "700",
                        "style": "fill: var(--text)",
                    },
                    f"{FIRST_NAMES[seat]} {scores[seat]}",
                ),
            )
        )
    return h(
        "svg",
        {
            "class_": "howto-seating",
            "viewBox": "-25 0 270 190",
            "width": "270",
            "height": "190",
            "role": "img",
            "aria_label": "Ana sits opposite Chloé, Ben opposite Dev; play goes Ana, Ben, Chloé, Dev",
        },
        parts,
    )


def dominoes_all_figures() -> list[Figure]:
    """Return the line game's diagrams, then All Fives' and the partnerships'."""
    return dominoes_figures() + fives_figures()


# -- the page ---------------------------------------------------------------------------------------

FIGURES: dict[str, Callable[[], list[Figure]]] = {
    "dominoes": dominoes_all_figures,
    "triangles": triangles_figures,
    "heptalion": heptalion_figures,
    "bonefall": bonefall_figures,
}


@cache
def figures(game_id: str) -> tuple[Figure, ...]:
    """Return a game's diagrams (worked out once: the engine is deterministic)."""
    make = FIGURES.get(game_id)
    if make is None:
        return ()
    try:
        return tuple(make())
    except Exception:  # a diagram must never take the rules text down with it (the unit tests catch it)
        traceback.print_exc()
        return ()


def figure_markup(fig: Figure, prefix: str = "") -> Markup:
    """Return one diagram as a <figure> with its title and caption."""
    fid = f"{prefix}fig-{fig.key}"
    return h(
        "figure",
        {"class_": "howto-fig", "id": fid, "aria_labelledby": f"{fid}-title"},
        h("h3", {"class_": "howto-fig-title", "id": f"{fid}-title"}, fig.title),
        h("div", {"class_": "howto-pics"}, fig.picture),
        h("figcaption", {}, fig.caption),
    )


def howto_body(info: GameInfo, *, prefix: str = "", sprite: bool = True) -> Markup:
    """Return a game's rules text with its diagrams after the paragraphs they show.

    ``prefix`` keeps ids apart when the rules open over a page that has them; ``sprite`` adds the
    Heptalion symbols' sprite (a Heptalion table has its own).
    """
    figs = list(figures(info.id))
    blocks: list[Markup] = []
    text = info.how_to_play.strip() + ("\n\n" + EXTRA_TEXT[info.id] if info.id in EXTRA_TEXT else "")
    text += "" if info.realtime else "\n\n" + DEAL_TEXT + "\n\n" + RATED_TEXT
    for para in text.split("\n\n"):
        para = para.strip()
        if not para:
            continue
        if para.startswith("## "):
            blocks.append(h("h2", {}, para[3:]))
        elif all(line.lstrip().startswith(("- ", "• ")) for line in para.splitlines()):
            blocks.append(h("ul", {}, [h("li", {}, line.lstrip()[2:]) for line in para.splitlines()]))
        else:
            blocks.append(h("p", {}, " ".join(para.split())))
        flat = " ".join(para.split())
        for fig in [f for f in figs if f.after in flat]:
            blocks.append(figure_markup(fig, prefix))
            figs.remove(fig)
    blocks.extend(figure_markup(fig, prefix) for fig in figs)
    if info.id == "bonefall":
        blocks.append(bonefall_controls())
    extra = ""
    if sprite and info.id == "heptalion":
        from .games.heptalion_view import sprite as hx_sprite

        extra = hx_sprite()
    return join([extra, *blocks])


def rules_dialog(info: GameInfo, *, sprite: bool = True) -> Markup:
    """Return the rules of a game as a modal dialog over its table (the table's "?"), with a Close button."""
    return h(
        "dialog",
        {"class_": "rules-dialog", "id": "rules-dialog", "aria_labelledby": "rules-dialog-title"},
        h(
            "div",
            {"class_": "rules-dialog-inner"},
            h(
                "div",
                {"class_": "rules-dialog-head"},
                h("h2", {"id": "rules-dialog-title"}, f"How to play {info.name}"),
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn rules-close",
                        "data_action": "close-rules",
                        "aria_label": "Close the rules and go back to the game",
                        "autofocus": True,
                    },
                    "Close",
                ),
            ),
            h("article", {"class_": "rules howto"}, howto_body(info, prefix="dlg-", sprite=sprite)),
        ),
    )
