"""Triangles: 56 three-cornered tiles laid on a triangular grid by 2-4 players.

Modules: ``grid`` (cells, corners, plane points), ``rules`` (tiles, moves, table, state; the rule
decisions are in its notes), ``bots`` (easy, medium, hard), ``sample`` (a full state from a view).

Start a game with ``GAME.new_state(seed=S, players=2)``. Move text: ``2-3-5@4,-1r1`` (lay tile
2-3-5 in cell row 4, col -1, rotation 1), ``draw``, ``pass``.

``state.view(seat)`` returns (JSON-ready) the keys of core's view contract, then Triangles' own:

- ``game`` ``"triangles"``, ``players``, ``seat`` (whose view), ``turn`` (the seat to move, None once
  over), ``turn_number`` (moves so far, draws and passes included), ``over``, ``hand_counts``,
  ``legal_moves`` (text, for the seat to move only), ``history`` (every move, public: ``{"seat": s,
  "move": text}``; a draw shows only ``draw``), ``outcome`` (None while playing, else
  ``Outcome.to_dict()``: ``winners``, ``termination`` ``"out"`` or ``"blocked"``, ``placings``,
  ``scores`` = each seat's pip total left in hand).
- ``hand``: this seat's tiles as text, in the order held (drawn tiles at the end); ``pips`` their total.
- ``stock``: how many tiles are left to draw.
- ``draws_left``: draws still allowed to the seat to move this turn (3 at the start of a turn, 0 when
  over); ``passes``: passes in a row made with the stock empty (the game is blocked at ``players``).
- ``opening``: the tile that opens (or opened) the game.
- ``table``: the tiles laid, in the order laid; each ``{"cell": [row, col], "tile": "a-b-c",
  "rotation": k, "corners": [v0, v1, v2], "up": bool, "seat": s, "turn": i}`` where ``corners`` are
  the numbers at the cell's corners 0, 1, 2 (``grid``: up cell top, bottom-right, bottom-left; down
  cell top-left, top-right, bottom; clockwise on screen) and ``turn`` the tile's index in laying order.
  Draw a cell with ``grid.cell_points(cell)`` (unit side, y downward).

``sample(view, rng)`` (module ``sample``) deals a full state consistent with a view, for a search.
"""

from __future__ import annotations

from ...core import GameInfo, LazyBots, Option, lazy_attributes, lazy_engine

__all__ = ["GAME"]

HOW_TO_PLAY = """\
Triangles uses 56 three-cornered tiles: each corner shows a number from 0 to 5, and every \
combination appears once. Two players get nine tiles each, three or four players seven each; the \
rest is the stock.

The player holding the highest triple (5-5-5 down to 0-0-0) lays it first; if nobody has a triple, \
the tile with the most pips opens.

A new tile must share a side with a tile on the table, and every corner it touches, along a side or \
only at a point, must show the same number as the tiles already there. Tiles can be turned but not \
flipped over.

If nothing fits, draw one tile at a time, at most three a turn, and play as soon as one fits; \
otherwise pass.

Lay your last tile to win. If the stock is empty and every player passes in a row, the lowest pip \
total wins; a tie for lowest is a draw."""

GAME = GameInfo(
    id="triangles",
    name="Triangles",
    tagline="Three-cornered dominoes on a grid of triangles: match every corner.",
    how_to_play=HOW_TO_PLAY,
    min_players=2,
    max_players=4,
    **lazy_engine(f"{__name__}.rules", sample=f"{__name__}.sample"),
    bots=LazyBots(f"{__name__}.bots", "BOTS", ("easy", "medium", "hard", "expert")),
    options=(Option("players", "Players", 2, (2, 3, 4), "How many seats at the table"),),
    order=20,
)


__getattr__ = lazy_attributes(__name__, ".rules", ("new_state", "from_dict", "parse_move"))
