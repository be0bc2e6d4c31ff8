"""The search keeps what a seat solved between its moves of a hand, and only where it stays valid."""

from __future__ import annotations

import importlib
import random

from boneyard import ai
from boneyard.ai import features_of
from boneyard.core import run_thinking
from boneyard.games import get_game

search = importlib.import_module("boneyard.ai.search")


def _think(view: dict, seed: int):
    return run_thinking(ai.think("dominoes", view, random.Random(seed)))


def _solve(solver, state) -> float:
    thinking = search._solve_value(solver, state)
    while True:
        try:
            next(thinking)
        except StopIteration as stop:
            return stop.value


def test_the_solved_positions_give_the_same_values_in_fewer_nodes():
    info = get_game("dominoes")
    features = features_of("dominoes")
    plain = kept = positions = 0
    for options in ({}, {"target": 100}, {"draw": False}):
        for seed in range(8):
            state = info.new_state(seed=300 + seed, players=2, **options)
            rng = random.Random(seed)
            while not state.is_over():
                view = state.view(state.current_player())
                deal = info.sample(view, random.Random(seed))
                if len(view["legal_moves"]) > 1 and features.exact(deal):
                    context = features.prepare(view)
                    for _ in features.warm(context):
                        pass
                    without = search._Solver(features, context, view["seat"], 10**7, {})
                    without.key = None
                    table: dict = {}
                    with_table = search._Solver(features, context, view["seat"], 10**7, table)
                    for move in deal.legal_moves():
                        deal.play(move)
                        assert _solve(without, deal) == _solve(with_table, deal)
                        deal.undo()
                    assert table
                    plain += without.nodes
                    kept += with_table.nodes
                    positions += 1
                    break
                state.play(info.bot("hard")(view, rng))
    assert positions >= 12 and kept < plain


def test_the_next_move_of_a_hand_finds_its_endgame_solved_and_a_new_game_starts_afresh():
    info = get_game("dominoes")
    search.MEMORY.clear()
    carried = endgames = 0
    for seed in range(40):  # the two-player draw game: once the boneyard is empty, every deal is the same
        if carried:
            break
        state = info.new_state(seed=700 + seed, players=2)
        rng = random.Random(seed)
        first = True
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            if seat == 0 and len(view["legal_moves"]) > 1:
                result = _think(view, seed)
                if first:
                    assert result.known == 0  # a new game: nothing carried from the last
                    first = False
                endgames += result.exact > 0
                carried += result.known > 0 and result.exact > 0
                assert 0 < result.effective <= result.deals + 1e-9
                state.play(info.parse_move(result.move))
            else:
                state.play(info.bot("hard")(view, rng))
    assert endgames and carried


def test_the_same_view_twice_is_searched_afresh_and_alike():
    info = get_game("dominoes")
    search.MEMORY.clear()
    for seed in range(10):
        state = info.new_state(seed=700 + seed, players=2)
        rng = random.Random(seed)
        last = None
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            if seat == 0 and len(view["legal_moves"]) > 1:
                result = _think(view, seed)
                last = view
                state.play(info.parse_move(result.move))
            else:
                state.play(info.bot("hard")(view, rng))
        if last is not None and search.MEMORY:
            break
    assert last is not None
    again = _think(last, 5)  # the memory holds this very view: nothing to carry over
    search.MEMORY.clear()
    fresh = _think(last, 5)
    assert again.known == fresh.known == 0
    assert again.move == fresh.move
    assert {m: s.mean for m, s in again.stats.items()} == {m: s.mean for m, s in fresh.stats.items()}
