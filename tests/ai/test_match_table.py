"""The match table behind Expert's values in a two-player Dominoes match: the chance of the match by the
points each seat needs and who leads the next hand."""

from __future__ import annotations

import random
import time

from boneyard import ai
from boneyard.ai.dominoes import FEATURES, MATCH_TABLES, MatchTable
from boneyard.games import get_game


def _built(draw: bool) -> MatchTable:
    table = MatchTable(draw)
    for _ in table.build(100):
        pass
    return table


def test_the_table_is_a_chance_that_grows_with_a_lead_in_points_and_the_lead_of_the_hand():
    for draw in (True, False):
        table = _built(draw)
        for a in (1, 5, 20, 50, 100):
            for b in (1, 5, 20, 50, 100):
                for leads in (True, False, None):
                    assert 0.0 < table.chance(a, b, leads) < 1.0
                assert table.chance(a, b, True) > table.chance(a, b, False)  # the lead is worth something
                if a > 1:
                    assert table.chance(a - 1, b, True) >= table.chance(a, b, True) - 1e-9
                if b < 100:
                    assert table.chance(a, b + 1, True) >= table.chance(a, b, True) - 1e-9
                # the two seats' chances add up to one
                assert abs(table.chance(a, b, True) + table.chance(b, a, False) - 1.0) < 1e-9
        assert table.chance(0, 30, False) == 1.0 and table.chance(30, 0, True) == 0.0
        assert 0.5 < table.chance(100, 100, True) < 0.56  # the lead at 0-0 is worth a few percent


def test_the_table_builds_in_short_slices():
    table = MatchTable(True)
    build = table.build(100)
    longest = 0.0
    slices = 0
    while True:
        t0 = time.process_time()
        try:
            next(build)
        except StopIteration:
            break
        longest = max(longest, time.process_time() - t0)
        slices += 1
    assert slices > 100 and longest < 0.02 and table.size == 100


def test_a_match_value_reads_the_table_at_the_end_of_a_hand():
    info = get_game("dominoes")
    state = info.new_state(seed=3, players=2, target=100)
    rng = random.Random(5)
    while state.hand_number == 1:
        seat = state.current_player()
        state.play(info.bot("hard")(state.view(seat), rng))
    view = state.view(0)
    context = FEATURES.prepare(view)
    assert context.table is MATCH_TABLES[True]
    for _ in FEATURES.warm(context):
        pass
    winner = state.hand_results[-1]["winner"]
    scores = state.scores
    for seat in (0, 1):
        expected = context.table.chance(100 - scores[seat], 100 - scores[1 - seat], winner == seat)
        assert FEATURES.value(state, seat, context) == expected
    # a match's search still plays: its move is legal
    result = ai.hint("dominoes", state.view(state.current_player()), random.Random(1))
    assert result.move in state.view(state.current_player())["legal_moves"]
