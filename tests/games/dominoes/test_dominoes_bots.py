"""The computer players: legal, view-only, and ordered by strength."""

from __future__ import annotations

import random

import pytest
from dominoes_helpers import hidden_twin, position, random_games

from boneyard.arena import run_arena
from boneyard.games.dominoes import GAME
from boneyard.games.dominoes.bots import easy_bot, hard_bot, medium_bot, rival_voids
from boneyard.games.dominoes.rules import Move

LEVELS = ["random", "easy", "medium", "hard"]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves_to_the_end(level):
    bot = GAME.bot(level)
    for options in ({"players": 2}, {"players": 4, "target": 50}, {"players": 3, "draw": False}):
        for state, rng in random_games(30, seed=5, options=options):
            while not state.is_over():
                view = state.view(state.current_player())
                move = bot(view, rng)
                assert str(move) in view["legal_moves"]
                state.play(move)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_decide_from_the_view_alone(level):
    """Same view with different hidden tiles elsewhere gives the same decision."""
    bot = GAME.bot(level)
    shuffler = random.Random(3)
    checked = differing = 0
    for state, rng in random_games(40, seed=11, options={"players": 3}):
        while not state.is_over():
            seat = state.current_player()
            twin = hidden_twin(state, seat, shuffler)
            differing += twin.table.hands != state.table.hands
            seed = rng.getrandbits(32)
            first = bot(state.view(seat), random.Random(seed))
            second = bot(twin.view(seat), random.Random(seed))
            assert first == second
            checked += 1
            state.play(first)
    assert checked > 300 and differing > checked // 2


def test_easy_plays_any_legal_tile_at_random():
    state = position([["6-1", "6-2", "6-3", "5-5"], ["0-0"]], line=[(6, 6)])
    picks = {str(easy_bot(state.view(0), random.Random(seed))) for seed in range(60)}
    assert picks == {"6-1:L", "6-2:L", "6-3:L"}


def test_medium_lays_doubles_first_then_the_heaviest_tile():
    state = position([["6-1", "5-2", "1-1", "6-5"], ["0-0"]], line=[(1, 6)])
    assert str(medium_bot(state.view(0), random.Random(0))) == "1-1:L"
    state = position([["6-1", "6-5", "4-1", "3-3"], ["0-0"]], line=[(1, 6)])
    assert medium_bot(state.view(0), random.Random(0)).tile == (6, 5)


def test_rival_voids_come_from_draws_and_passes_in_the_history():
    view = {
        "players": 3,
        "history": [
            {"seat": 1, "move": "6-6", "tile": [6, 6], "end": None},
            {"seat": 2, "move": "pass", "ends": [6, 6]},
            {"seat": 0, "move": "draw", "ends": [6, 6]},
            {"seat": 0, "move": "6-3:L", "tile": [6, 3], "end": "L"},
            {"seat": 1, "move": "draw", "ends": [3, 6]},
            {"seat": 2, "move": "pass", "ends": [3, 6]},
            {"seat": 0, "move": "draw", "ends": [3, 6]},
        ],
    }
    voids = rival_voids(view)
    assert voids[1] == {3, 6}
    assert voids[2] == {3, 6}
    assert voids[0] == {3, 6}


def test_a_later_draw_forgets_numbers_that_may_have_come_back():
    view = {
        "players": 2,
        "history": [
            {"seat": 1, "move": "draw", "ends": [2, 5]},
            {"seat": 1, "move": "draw", "ends": [4, 4]},
        ],
    }
    assert rival_voids(view)[1] == {4}


def test_hard_leaves_on_the_ends_a_number_the_next_player_lacks():
    """Hard remembers which numbers each rival couldn't match and tries to leave those numbers on the ends."""
    # Seat 1 drew on 3s; seat 0 can leave a 3 (3-1 at the left turns 1 into 3) or a 5 (5-1).
    state = position([["3-1", "5-1", "0-0", "2-0"], ["6-6", "6-5", "2-2", "4-4", "1-0"]], line=[(1, 4)])
    view = state.view(0)
    assert str(medium_bot(view, random.Random(0))) == "5-1:L"
    assert str(hard_bot(view, random.Random(0))) == "5-1:L"  # nothing known yet: as medium
    state.history = [{"seat": 1, "move": "draw", "ends": [3, 3]}]
    view = state.view(0)
    assert str(medium_bot(view, random.Random(0))) == "5-1:L"
    assert str(hard_bot(view, random.Random(0))) == "3-1:L"


def test_reduced_strength_check_medium_beats_easy_and_hard_beats_medium():
    """The full measurement is in the arena (see the report); this is a fixed seeded sample."""
    medium = run_arena("dominoes", ["medium", "easy"], games=1000, seed=1)
    assert medium.levels["medium"].win_rate > 0.52
    hard = run_arena("dominoes", ["hard", "medium"], games=1000, seed=1)
    assert hard.levels["hard"].win_rate > 0.55


def test_bots_refuse_a_view_with_no_legal_moves():
    state = position([["6-1"], ["0-0"]], line=[(6, 6)])
    with pytest.raises(ValueError):
        medium_bot(state.view(1), random.Random(0))
    assert isinstance(hard_bot(state.view(0), random.Random(0)), Move)
