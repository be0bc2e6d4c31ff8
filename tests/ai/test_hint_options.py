"""Hints and reviews asked for a quicker search, and reasons that describe the move the search plays."""

from __future__ import annotations

import random

from boneyard import ai
from boneyard.ai.search import MoveStats
from boneyard.games import GAMES


def _heptalion_view(seed: int, turns: int):
    info = GAMES["heptalion"]
    state = info.new_state(seed=seed, players=2)
    rng = random.Random(seed)
    easy = info.bot("easy")
    for _ in range(turns):
        state.play(easy(state.view(state.current_player()), rng))
    return state, state.view(state.current_player())


def test_a_heptalion_hint_can_ask_for_fewer_nodes():
    _, view = _heptalion_view(3, 2)
    quick = ai.hint("heptalion", view, random.Random(1), nodes=300)
    assert quick.move in view["legal_moves"] and quick.reason
    full = ai.hint("heptalion", view, random.Random(1))
    assert full.move in view["legal_moves"]


def test_a_heptalion_reason_describes_the_hinted_move():
    for seed in range(4):
        _, view = _heptalion_view(seed, 4)
        hint = ai.hint("heptalion", view, random.Random(seed), nodes=2000)
        assert hint.reason.startswith(hint.move), hint.reason


def test_a_review_and_a_dominoes_hint_take_a_budget():
    info = GAMES["dominoes"]
    state = info.new_state(seed=4, players=2)
    view = state.view(state.current_player())
    small = ai.Budget(deals=4, sims=20, exact_nodes=0, min_deals=2)
    hint = ai.hint("dominoes", view, random.Random(2), budget=small)
    assert hint.move in view["legal_moves"]
    moves = []
    rng = random.Random(3)
    hard = info.bot("hard")
    while not state.is_over():
        move = hard(state.view(state.current_player()), rng)
        moves.append(str(move))
        state.play(move)
    start = info.new_state(seed=4, players=2)
    steps = ai.steps_from_moves(start, moves, 0)[:4]
    review = ai.review("dominoes", steps, random.Random(1), budget=small)
    assert len(review.entries) == len(steps)


def test_the_fallback_reason_names_the_move_played_not_the_best_mean():
    result = ai.SearchResult("b", {m: MoveStats(m) for m in "abc"})
    result.stats["a"].weight, result.stats["a"].total = 1.0, 0.9  # the best mean, not the move chosen
    result.stats["b"].weight, result.stats["b"].total = 1.0, 0.6

    class Plain:
        pass

    ai._FEATURES["plain-test"] = Plain()  # type: ignore[assignment]
    try:
        text = ai._reason("plain-test", {}, result, None)
    finally:
        del ai._FEATURES["plain-test"]
    assert text.startswith("b gives you") and "with a, the next best" in text
