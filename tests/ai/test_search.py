"""The search behind Expert, hints and the review, through the common API of every turn-based game."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from boneyard import ai
from boneyard.core import run_thinking
from boneyard.games import GAMES

FAIR: list[tuple[str, dict[str, Any], int]] = [
    ("dominoes", {}, 2),
    ("dominoes", {"target": 100}, 2),
    ("dominoes", {"target": 50}, 3),
    ("triangles", {}, 2),
    ("heptalion", {"hidden": True}, 3),
]


def _positions(game: str, options: dict[str, Any], seed: int, count: int, players: int = 2) -> list[Any]:
    """Return states of seeded Medium games where the seat to move has a choice."""
    info = GAMES[game]
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = info.new_state(seed=rng.getrandbits(32), players=players, **options)
        while not state.is_over() and len(found) < count:
            seat = state.current_player()
            view = state.view(seat)
            if len(view["legal_moves"]) > 1 and rng.random() < 0.3:
                found.append(state.clone())
            state.play(info.bot("medium")(view, rng))
    return found


@pytest.mark.parametrize("game,options,players", FAIR, ids=lambda v: str(v))
def test_expert_decides_from_the_view_alone(game, options, players):
    """A state dealt differently where the seat cannot see gives the same view, and the same move."""
    info = GAMES[game]
    expert = info.bot("expert")
    differing = 0
    for state in _positions(game, options, seed=3, count=3 if game == "heptalion" else 5, players=players):
        seat = state.current_player()
        view = state.view(seat)
        twin = info.sample(view, random.Random(99))
        assert twin.view(seat) == view
        differing += twin.to_dict() != state.to_dict()
        assert str(expert(view, random.Random(7))) == str(expert(twin.view(seat), random.Random(7)))
    assert differing


@pytest.mark.parametrize(
    "game,options,players",
    [("dominoes", {}, 2), ("dominoes", {"target": 50}, 3), ("dominoes", {}, 4), ("triangles", {}, 3)],
    ids=lambda v: str(v),
)
def test_expert_plays_legal_moves_to_the_end(game, options, players):
    info = GAMES[game]
    expert = info.bot("expert")
    rng = random.Random(5)
    state = info.new_state(seed=11, players=players, **options)
    while not state.is_over():
        seat = state.current_player()
        view = state.view(seat)
        move = expert(view, rng) if seat == 0 else info.bot("hard")(view, rng)
        assert str(move) in view["legal_moves"]
        state.play(move)


def _solve(state: Any, seat: int) -> float:
    """Return the exact value (1 win, 0.5 tie, 0 loss) of a two-player single round for ``seat``."""
    if state.is_over():
        winners = state.outcome().winners
        return 1.0 / len(winners) if seat in winners else 0.0
    values = []
    for move in state.legal_moves():
        state.play(move)
        values.append(_solve(state, seat))
        state.undo()
    return max(values) if state.current_player() == seat else min(values)


def test_a_won_dominoes_endgame_is_won():
    """With the boneyard empty two players' hands are known: wherever a move wins by force, Expert's does."""
    info = GAMES["dominoes"]
    expert = info.bot("expert")
    rng = random.Random(2)
    checked = 0
    for game in range(400):
        state = info.new_state(seed=game, players=2)
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            small = view["stock"] == 0 and sum(view["hand_counts"]) <= 8
            if small and len(view["legal_moves"]) > 1:
                best = max(_play_value(state, m, seat) for m in state.legal_moves())
                if best == 1.0:
                    move = expert(view, rng)
                    assert _play_value(state, move, seat) == 1.0, (view, move)
                    checked += 1
            state.play(info.bot("hard")(view, rng))
        if checked >= 12:
            break
    assert checked >= 12


def _play_value(state: Any, move: Any, seat: int) -> float:
    state.play(move)
    try:
        return _solve(state, seat)
    finally:
        state.undo()


def test_heptalion_expert_wins_what_its_search_proves_won():
    """In two-player Heptalion (nothing hidden) a position Expert's search proves won ends in its win."""
    info = GAMES["heptalion"]
    rng = random.Random(1)
    proven = 0
    for game in range(8):
        state = info.new_state(seed=game, players=2)
        while not state.is_over() and state.turn_number < 14:
            state.play(info.bot("easy")(state.view(state.current_player()), rng))
        me = state.current_player()
        won = False
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            if seat == me:
                result = run_thinking(ai.think("heptalion", view, rng))
                won = won or result.value >= 0.999
                state.play(result.move)
            else:
                state.play(info.bot("medium")(view, rng))
        if won:
            proven += 1
            assert state.outcome().winners == (me,)
            if proven >= 2:
                break
    assert proven


def test_expert_thinks_in_short_slices():
    """The search yields at least once a deal, and no stretch between yields is long (CPU time)."""
    for state in _positions("dominoes", {}, seed=8, count=6):
        view = state.view(state.current_player())
        thinking = ai.think("dominoes", view, random.Random(1))
        longest = 0.0
        slices = 0
        while True:
            t0 = time.process_time()
            try:
                next(thinking)
            except StopIteration as stop:
                result = stop.value
                break
            longest = max(longest, time.process_time() - t0)
            slices += 1
        assert slices >= result.deals >= ai.BUDGETS["dominoes"].min_deals
        assert longest < 0.05


def test_a_two_player_match_move_has_the_match_budget():
    """A two-player match's decision deals up to the match budget; a round's, or a bigger table's, the round's."""
    match = ai.MATCH_BUDGETS["dominoes"]
    assert match.deals > ai.BUDGETS["dominoes"].deals
    for options, players, budget in (
        ({"target": 100}, 2, match),
        ({}, 2, ai.BUDGETS["dominoes"]),
        ({"target": 100}, 3, ai.BUDGETS["dominoes"]),
    ):
        state = _positions("dominoes", options, seed=12, count=1, players=players)[0]
        view = state.view(state.current_player())
        assert ai.budget_of("dominoes", view) == budget
        result = run_thinking(ai.think("dominoes", view, random.Random(2)))
        assert budget.min_deals <= result.deals <= budget.deals


@pytest.mark.parametrize("game", ["dominoes", "triangles", "heptalion"])
def test_a_hint_is_a_legal_move_with_a_reason(game):
    state = _positions(game, {}, seed=6, count=1)[0]
    view = state.view(state.current_player())
    found = ai.hint(game, view, random.Random(3), names=["Ada", "Ben"])
    assert found.move in view["legal_moves"]
    assert len(found.reason.split()) > 4 and found.reason.endswith(".")
    assert 0.0 <= found.chance <= 1.0
    assert {m for m, _ in found.alternatives} == set(view["legal_moves"]) - {found.move}


def test_no_hint_when_it_is_not_the_seats_turn():
    info = GAMES["dominoes"]
    state = info.new_state(seed=1, players=2)
    other = 1 - state.current_player()
    with pytest.raises(ValueError):
        ai.hint("dominoes", state.view(other), random.Random(1))


def test_a_dominoes_hint_names_the_rival_who_cannot_follow():
    """Reasons are taken from what the search saw: a rival's pass or draw on a number."""
    info = GAMES["dominoes"]
    rng = random.Random(0)
    seen = 0
    for game in range(60):
        state = info.new_state(seed=game, players=2)
        while not state.is_over() and seen < 2:
            seat = state.current_player()
            view = state.view(seat)
            if (
                seat == 0
                and len(view["legal_moves"]) > 1
                and any(e["seat"] == 1 and e["move"] == "draw" for e in view["history"])
            ):
                found = ai.hint("dominoes", view, rng, names=["Ben", "Ada"])
                if "Ada could not play" in found.reason:
                    seen += 1
            state.play(info.bot("hard")(view, rng))
        if seen >= 2:
            break
    assert seen >= 2


def test_the_review_rates_every_decision_of_a_seat():
    info = GAMES["dominoes"]
    rng = random.Random(4)
    start = info.new_state(seed=3, players=2)
    state = start.clone()
    moves = []
    while not state.is_over():
        seat = state.current_player()
        move = info.bot("easy" if seat == 0 else "hard")(state.view(seat), rng)
        moves.append(str(move))
        state.play(move)
    steps = ai.steps_from_moves(start, moves, 0)
    assert steps and all(view["seat"] == 0 for view, _ in steps)
    review = ai.Review(0, 0)
    thinking = ai.review_thinking("dominoes", steps, random.Random(1), review=review)
    progress = []
    while True:
        try:
            next(thinking)
        except StopIteration as stop:
            assert stop.value is review
            break
        progress.append(review.progress)
    assert progress == sorted(progress) and review.progress == 1.0
    assert [e.move for e in review.entries] == [text for _, text in steps]
    for entry in review.entries:
        assert 0.0 <= entry.after <= 1.0 and 0.0 <= entry.before <= 1.0
        assert (entry.reason == "") == (entry.best == entry.move)
    assert all(e.cost >= 0.05 for e in review.costly())
