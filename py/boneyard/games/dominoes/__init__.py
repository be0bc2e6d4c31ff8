"""Dominoes: the double-six line of play, as a single round or a points match, draw or block game,
scored by pips or as All Fives (a spinner, the count in fives), every player for themselves or 2 against 2.

``GAME`` registers it as ``dominoes``; ``MODES`` names the setup screen's ready-made modes.
"""

from __future__ import annotations

from typing import Any

from ...core import GameInfo, LazyBots, Option, lazy_attributes, lazy_engine

__all__ = ["GAME", "MODES", "DominoesState", "Move", "from_dict", "new_state", "parse_move"]

# The five named match modes of the rules text, then the Classic single round (name -> options).
MODES: dict[str, dict[str, Any]] = {
    "2 players, to 100": {"players": 2, "hand_size": None, "draw": True, "target": 100},
    "2 players, to 50": {"players": 2, "hand_size": None, "draw": True, "target": 50},
    "2 players, block (no drawing)": {"players": 2, "hand_size": None, "draw": False, "target": 100},
    "3 players, to 100": {"players": 3, "hand_size": None, "draw": True, "target": 100},
    "4 players, to 100": {"players": 4, "hand_size": None, "draw": True, "target": 100},
    "Classic (single round)": {"players": 2, "hand_size": None, "draw": True, "target": None},
}

HOW_TO_PLAY = """\
A double-six set: 28 tiles. Two players get 7 tiles each, three or four get 5; the rest lie face down \
in the boneyard. Everyone plays for themselves.

The holder of the highest double lays it to open (with no double dealt, the heaviest tile). In a \
match, later hands are opened by the last hand's winner, with any tile.

Turns go round in order. Lay a tile with a half that matches one of the two open ends.

Nothing fits? Draw from the boneyard one tile at a time until one does; with the boneyard empty, \
pass. In the block game there is no drawing: you pass.

A hand ends when someone lays their last tile, or is blocked when every player in turn has passed: \
then the lowest pip total in hand wins, and a tie for the lowest is a draw.

Single round: the winner of the hand wins. Match: going out scores the pips left in all opponents' \
hands; a blocked hand's lowest total scores the pips of all the others (a tie scores nothing). The \
first to reach the target (100 or 50) at the end of a hand wins the match."""

GAME = GameInfo(
    id="dominoes",
    name="Dominoes",
    tagline="Match the open ends of the line; first out wins.",
    how_to_play=HOW_TO_PLAY,
    min_players=2,
    max_players=4,
    **lazy_engine(f"{__name__}.rules", f"{__name__}.sample"),
    bots=LazyBots(f"{__name__}.bots", "BOTS", ("easy", "medium", "hard", "expert")),
    options=(
        Option("players", "Players", 2, (2, 3, 4), "2, 3 or 4 players, each for themselves"),
        Option("hand_size", "Tiles each", None, (), "None: 7 for two players, 5 for three or four"),
        Option("draw", "Draw game", True, (True, False), "True: draw from the boneyard; False: block game"),
        Option(
            "target",
            "Play to",
            None,
            (),
            "None: a single round; 50 or 100 (any positive number): a match; All Fives: 150 unless given",
        ),
        Option(
            "scoring",
            "Scoring",
            "pips",
            ("pips", "fives"),
            "pips: the winner scores the pips left; fives: All Fives, a spinner and the count in fives",
        ),
        Option("teams", "Partners", False, (True, False), "True: four players, 2 against 2 (seats 0+2, 1+3)"),
    ),
    order=10,
)


__getattr__ = lazy_attributes(
    __name__, ".rules", ("DominoesState", "Move", "parse_move", "new_state", "from_dict")
)
