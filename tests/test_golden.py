"""Seeded games play exactly as they did when ``tests/data/golden_games.json`` was recorded.

The spine refactor (one turn-based base for every game) must not change a single move or arena tally;
this replays the recorded seeds and compares. Rewrite the data only for a deliberate rules or bot change:
``python tests/golden_record.py --write``.
"""

from __future__ import annotations

import json

import pytest

from tests import golden_record

GOLDEN = json.loads(golden_record.DATA.read_text())


@pytest.mark.parametrize("game,seats,options,games", golden_record.TABLES, ids=lambda v: str(v))
def test_seeded_games_play_the_recorded_moves(game, seats, options, games):
    key = golden_record.key(game, seats, options)
    assert golden_record.play_table(game, seats, options, games) == GOLDEN["tables"][key]


@pytest.mark.parametrize("game,seats,options,games", golden_record.ARENAS, ids=lambda v: str(v))
def test_arena_tallies_are_the_recorded_ones(game, seats, options, games):
    key = golden_record.key(game, seats, options)
    result = golden_record.run_arena(game, seats, games, seed=7, options=options).to_json()
    tallies = {level: [t["wins"], t["draws"]] for level, t in sorted(result["levels"].items())}
    assert tallies == GOLDEN["arenas"][key]
