"""Expert's Dominoes features in All Fives and partnerships: the rollouts' count, the rivals' model, the values."""

from __future__ import annotations

import random

from boneyard.ai.dominoes import FEATURES, FivesArms, _Context, match_chance
from boneyard.games import GAMES
from boneyard.games.dominoes.bots import easy_bot
from boneyard.games.dominoes.rules import NUMBER_MASK, new_state


def test_the_rollouts_read_every_lays_count_as_the_engine_does():
    checked = 0
    master = random.Random(4)
    for game in range(80):
        players = 2 + game % 3
        state = new_state(seed=master.getrandbits(32), players=players, scoring="fives", draw=bool(game % 2))
        rng = random.Random(game)
        while not state.is_over():
            table = state.table
            arms = FivesArms(table)
            for move in state.legal_moves():
                if move.tile is None:
                    continue
                record = table.apply(move._code)
                fits = 0
                for number in table.arm_ends():
                    if number >= 0:
                        fits |= NUMBER_MASK[number]
                table.revert(record)
                assert arms.lay(move._code)[1:] == (record[7], fits)
                checked += 1
            state.play(easy_bot(state.view(state.current_player()), rng))
    assert checked > 5000


def test_a_partners_points_are_the_seats_and_a_sides_win_is_worth_one():
    state = new_state(seed=3, players=4, scoring="fives", teams=True)
    view = state.view(0)
    context = _Context(view)
    assert context.opponents == (1, 3) and context.fives and context.teams
    state.scores = [120, 40, 120, 40]  # the partner's points are the side's: 30 to go against 110
    assert FEATURES.value(state, 0, context) == match_chance(30, 110, context.scale)
    assert FEATURES.value(state, 0, context) > 0.85
    single = new_state(seed=3, players=4, teams=True)
    while not single.is_over():
        single.play(easy_bot(single.view(single.current_player()), random.Random(1)))
    outcome = single.outcome()
    for seat in range(4):
        worth = FEATURES.value(single, seat, _Context(single.view(seat)))
        assert worth == (1.0 if seat in outcome.winners else 0.0)


def test_the_model_knows_what_a_rivals_lay_could_score():
    """A rival who laid a tile that scored nothing when another scored is rated less likely to hold one."""
    info = GAMES["dominoes"]
    state = new_state(seed=11, players=2, scoring="fives")
    rng = random.Random(2)
    weights = []
    while not state.is_over() and len(weights) < 40:
        view = state.view(state.current_player())
        context = FEATURES.prepare(view)
        if context.decisions:
            sample = info.sample(view, rng)
            weights.append(FEATURES.weight(context, sample))
        state.play(easy_bot(view, rng))
    assert weights and all(0.0 < w <= 1.0 for w in weights)
    assert any(w < 1.0 for w in weights)


def test_the_race_is_counted_in_all_fives_points():
    """Twenty points behind is a closer race in All Fives (a hand is worth more) than in the line game."""
    assert match_chance(100, 80, 2.5) > match_chance(100, 80)
    assert match_chance(0, 10, 2.5) == 1.0 and match_chance(10, 0, 2.5) == 0.0


def test_an_all_fives_hint_says_what_the_lay_scores():
    from boneyard import ai

    texts = []
    for seed in range(12):
        state = new_state(seed=seed, players=2, scoring="fives")
        rng = random.Random(seed)
        while not state.is_over() and len(texts) < 6:
            view = state.view(state.current_player())
            if len(view["legal_moves"]) > 1 and state.current_player() == 0:
                hint = ai.hint("dominoes", view, rng)
                assert hint.move in view["legal_moves"] and hint.reason
                if "points for you" in hint.reason:
                    texts.append(hint.reason)
            state.play(easy_bot(view, rng))
        if len(texts) >= 2:
            break
    assert texts and all("makes the count" in t for t in texts)
