"""Bonefall: the falling-dominoes puzzle (game id ``bonefall``).

Named Bonefall because dominoes are "bones" (this is the Boneyard) and the whole game is bones falling:
dropped from the top, tipping over gaps and tumbling down in cascades of matches.

``GAME.new_state(seed=S, set="norm"|"max", mode="sprint"|"marathon")`` starts a game (extra keyword
arguments: ``cascade_steps``, ``max_sets``; see ``sim.new_state``). The simulation (``sim``) advances in
fixed steps of 1/60 s: the screen calls ``state.step()`` once a step while unpaused and
``state.command(cmd)`` for each input (``left``, ``right``, ``rotate_cw``, ``rotate_ccw``, ``soft_drop``,
``hard_drop``); ``sim.replay(seed, options, log)`` rebuilds a game from its input log.

``state.view()`` (JSON-ready) holds:
- ``game``, ``set``, ``mode``, ``width`` (8), ``height`` (16), ``step`` (steps played), ``phase``
  (``"falling"``, ``"resolving"`` or ``"over"``);
- ``cells``: the resting halves, each ``{"col", "row", "value", "piece", "link"}`` (row 0 at the top;
  ``piece`` the domino id; ``link`` where its partner half is: ``"left"``, ``"right"``, ``"up"``,
  ``"down"``, or None for a single square). While resolving, the grid as it was before the event now
  animating;
- ``piece``: the falling domino or None: ``{"id", "values": [first, second], "orientation" (0-3),
  "cells": [[col, row] of first, [col, row] of second], "ghost": same cells where it would land,
  "fall_progress" (0..1 towards the next row), "landed"}``;
- ``next`` (``[first, second]`` or None), ``left_in_set`` (dominoes still to enter from the current set),
  ``sets_dealt``, ``dominoes_played``, ``level``, ``gravity_steps``;
- ``turn_score`` (of the current or last turn), ``max_score``, ``power``, ``speed`` (Power per minute);
- ``events``: the last turn's resolution, one entry a round, in order: ``{"kind": "fall", "moves":
  [{"piece", "tipped", "halves": [{"value", "from": [col, row], "to": [col, row]}]}]}`` or
  ``{"kind": "annihilate", "cells": [{"col", "row", "value", "piece"}], "count", "score"}`` (``score``:
  the turn score so far); ``event_index`` / ``event_progress`` (the event animating and the steps into
  it, None unless resolving), ``cascade_steps`` (steps per event);
- ``over``, ``termination`` (``"set played"``, ``"topped out"``, ``"set cap"`` or None), ``outcome``;
- ``legal_moves``: ``"wait"`` and the commands that would change something now.
"""

from __future__ import annotations

from ...core import GameInfo, Option, lazy_attributes, lazy_engine

__all__ = ["GAME", "BonefallState", "Move", "from_dict", "new_state", "parse_move", "replay"]

GAME = GameInfo(
    id="bonefall",
    name="Bonefall",
    tagline="Drop, tip and match falling dominoes into long cascades.",
    how_to_play=(
        "Dominoes fall one at a time into a well 8 cells wide and 16 deep. Move them left and right, "
        "rotate them either way and drop them.\n\n"
        "A horizontal domino resting on one half with a gap under the other tips over into the gap and "
        "falls on.\n\n"
        "Two or more halves with the same number in a row or a column (from different dominoes), or three "
        "or more along a diagonal, annihilate. What is left falls down and may match again: a cascade.\n\n"
        "Every half annihilated in a turn counts towards the turn score. Max is your best turn; Power adds "
        "(turn score - 1) squared each turn; Speed is Power per minute.\n\n"
        "Sprint plays one set; Marathon deals a new set whenever one runs out and ends when there is no "
        "room at the top."
    ),
    min_players=1,
    max_players=1,
    **lazy_engine(f"{__name__}.sim"),
    bots={},
    options=(
        Option(
            "set", "Domino set", "norm", ("norm", "max"), "Norm: the 28 dominoes of 0-6; Max: the 55 of 0-9."
        ),
        Option(
            "mode",
            "Game type",
            "sprint",
            ("sprint", "marathon"),
            "Sprint: one set. Marathon: a new set whenever one runs out, until the top is full.",
        ),
    ),
    realtime=True,
    order=90,
)


__getattr__ = lazy_attributes(
    __name__, ".sim", ("BonefallState", "Move", "new_state", "from_dict", "parse_move", "replay")
)
