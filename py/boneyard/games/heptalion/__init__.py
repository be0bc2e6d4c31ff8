"""Heptalion: place your dominoes on the diamond of seven symbols; the first who cannot place loses.

Modules: ``board`` (the diamond, symbol layouts, placements, checks, random and lab boards),
``rules`` (state, moves, views, saves, and the one rules path on bit masks that the Hard search shares),
``sample`` (a state consistent with a view), ``bots`` (Automa+ easy, medium, hard) and ``solve`` (the
exact "How many can you fit?" solver and its command).

Options of ``GAME.new_state(seed=S, ...)``: ``players`` (2-4; 1 = the solo puzzle "How many can you
fit?"), ``hidden`` (hide the other hands), ``board`` ("original", "random", "lab", or 11 row strings),
``board_seed`` (which random or lab board; None = drawn from the seed), ``start`` (first seat; None =
drawn from the seed; "play again" passes the previous game's loser).

Move text: ``"T-P@12,13"``: the tile (symbols in SYMBOLS order "XCDSTPL"), then the spaces its first
and second symbol land on. ``parse_move`` also takes ``"P-T@13,12"``; doubles list the lower space first.

``state.view(seat)`` (JSON-ready, the only thing bots and screens see): the keys of ``core``'s view
contract (``game`` "heptalion", ``players`` 1-4, ``seat`` this seat, ``turn``, ``turn_number`` (tiles
placed), ``over``, ``hand_counts``, ``legal_moves``, ``history``, ``outcome``), then Heptalion's own:

- ``name`` "Heptalion", "Heptalion (Random)" or "Heptalion (Lab)";
- ``board``: ``{"rows": [11 strings of 11 characters, a space where there is no square], "kind":
  "original" | "random" | "lab" | "custom", "seed": int | None}``;
- ``spaces``: per space ``{"id", "row", "col", "symbol", "covered"}`` (row/col in the 11x11 grid);
- ``covered``: placed tiles in order, ``{"number" (1 = first placed), "seat", "tile", "spaces": [a, b],
  "move", "latest" (True for the most recent one)}``;
- ``solo`` (the puzzle), ``hidden``, ``start`` (the starred seat), ``hand`` (this seat's unplayed tiles);
- ``seats``: per seat ``{"seat", "status" ("playing" | "eliminated" | "winner"), "tile_count", "hand"
  (list of tiles, or None when hidden from this seat), "placed" (tiles it placed), "start"}``;
- ``discard``: the 3-player game's public discarded tile, else None;
- ``eliminated``: seats in order of elimination;
- ``seed``: the game's seed when no hand is hidden (it tells the deal), else None.

``history`` holds the public events in order, each with ``seat``, ``move`` (the text, None for an event
that is not a move) and ``kind``: ``{"kind": "place", "number"}``, ``{"kind": "eliminated", "order"
(1 = first out), "after" (tiles placed by then)}``, ``{"kind": "winner"}`` or, solo, ``{"kind":
"no_fit", "placed"}``. ``outcome`` is ``Outcome.to_dict()``: winners [seat], termination "eliminated"
(solo: "fit"), placings (1 the winner, 2 everyone else), scores (tiles left in each hand; solo: tiles
placed); the engine writes no sentences (the screen words the ending).

``GAME.sample(view, rng)`` (``sample.py``) deals a full state consistent with a view, for a search.
"""

from __future__ import annotations

from ...core import GameInfo, LazyBots, Option, lazy_attributes, lazy_engine

__all__ = ["GAME"]

HOW_TO_PLAY = """\
The board is a diamond of 56 spaces, each showing one of seven symbols, eight of each. The 28 tiles \
are every pair of the seven symbols, doubles included; they are dealt out: 14 each with two players, \
9 each with three (one more is laid aside face up and not used), 7 each with four.

On your turn place one of your tiles on two empty spaces that share an edge and show its two \
symbols, in either order. You cannot pass. When your turn comes and none of your tiles fits, you are \
eliminated: with two players your opponent wins at once; with three or four the others play on until \
one remains, who wins; everyone else shares second place.

Puzzle: how many different tiles can you fit on the board? (Not all 28: that is impossible.)"""

GAME = GameInfo(
    id="heptalion",
    name="Heptalion",
    tagline="Fit your dominoes on the seven-symbol diamond; the first who cannot is out.",
    how_to_play=HOW_TO_PLAY,
    min_players=2,
    max_players=4,
    **lazy_engine(f"{__name__}.rules", sample=f"{__name__}.sample"),
    bots=LazyBots(f"{__name__}.bots", "BOTS", ("easy", "medium", "hard", "expert")),
    options=(
        Option(
            "players", "Players", 2, (1, 2, 3, 4), "2-4 players; 1 is the solo puzzle 'How many can you fit?'"
        ),
        Option("hidden", "Hidden hands", False, (), "only the owner sees their unplayed tiles"),
        Option(
            "board",
            "Board",
            "original",
            ("original", "random", "lab"),
            "the published board, a random one, or a lab board",
        ),
        Option(
            "board_seed",
            "Board number",
            None,
            (),
            "which random or lab board (empty: drawn from the game seed)",
        ),
        Option("start", "Starting player", None, (None, 0, 1, 2, 3), "the first seat; empty draws one"),
    ),
    order=30,
)


__getattr__ = lazy_attributes(__name__, ".rules", ("new_state", "from_dict", "parse_move"))
