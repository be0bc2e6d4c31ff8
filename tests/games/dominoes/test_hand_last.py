"""A finished hand's result names the move that ended it (public: every seat saw it laid or passed).

A guest of an online match needs it: the play that ends a hand also deals the next one, so the last tile
of a hand that another seat ended never reaches the guest's view except through the hand's result.
"""

from __future__ import annotations

import random

import pytest

from boneyard.games.dominoes import new_state
from boneyard.games.dominoes.rules import from_dict


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "draw": True, "target": 50},
        {"players": 4, "draw": False, "target": 100, "teams": True},
        {"players": 3, "draw": True, "target": 100, "scoring": "fives"},
    ],
)
def test_every_hand_result_names_the_move_that_ended_it(options: dict[str, object]) -> None:
    for seed in range(6):
        state = new_state(seed=seed, **options)
        rng = random.Random(seed)
        results = 0
        while not state.is_over():
            seat = state.current_player()
            move = rng.choice(state.legal_moves())
            state.play(move)
            view = state.view(0)
            if len(view["hand_results"]) > results:
                results = len(view["hand_results"])
                last = view["hand_results"][-1]["last"]
                assert last == {"seat": seat, "move": str(move)}
                again = from_dict(state.to_dict())
                assert again.view(0)["hand_results"] == view["hand_results"]
        assert results >= 1


def test_a_saved_result_without_its_last_move_still_loads() -> None:
    state = new_state(seed=3, players=2, draw=True, target=50)
    rng = random.Random(3)
    while not state.view(0)["hand_results"]:
        state.play(rng.choice(state.legal_moves()))
    data = state.to_dict()
    for result in data["hand_results"]:
        del result["last"]
    again = from_dict(data)
    assert "last" not in again.view(0)["hand_results"][0]
    data["hand_results"][0]["last"] = {"seat": "x"}
    with pytest.raises(ValueError, match="last move"):
        from_dict(data)
