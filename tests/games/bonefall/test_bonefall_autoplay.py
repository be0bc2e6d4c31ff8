"""Bonefall's autoplayer: reachable targets, sensible choices, determinism, strength and its command."""

from __future__ import annotations

import json

from bonefall_helpers import board_of, state_with

from boneyard.games.bonefall.autoplay import AutoPlayer, choose, play_game, reachable
from boneyard.games.bonefall.sim import WIDTH, Board, new_state, piece_cells, replay
from tools.bonefall_autoplay import main


def test_reachable_targets_stop_at_walls_of_pieces():
    wall = board_of(*[("s", 1, r, r % 2, 100 + r) for r in range(16)])
    places = reachable(wall, 3, 0, 0)
    assert places and all(p.col >= 2 for p in places)
    assert {p.orientation for p in places} == {0, 1, 2, 3}
    for p in places:
        state = state_with(wall.copy(), (1, 2))
        for cmd in p.path:
            assert state.command(cmd)  # every path is playable through the commands
        assert (state.col, state.orientation) == (p.col, p.orientation) and state.ghost_row() == p.row
    assert len(reachable(Board(), 3, 0, 0)) == 2 * (WIDTH - 1) + 2 * WIDTH


def test_takes_a_match_when_one_is_there():
    """Match as many domino halves as possible each turn to achieve the best power score."""
    board = board_of(("s", 0, 15, 4, 1), ("s", 0, 14, 9, 2))
    place = choose(board, 3, 0, 0, (6, 4))
    cells = piece_cells(place.col, place.row, place.orientation)
    after = board.copy()
    after.place(place.col, place.row, place.orientation, 6, 4, 50)
    assert after.resolve() >= 2, cells


def test_same_seed_same_game_and_it_plays_through_the_input_path():
    a, b = play_game(17), play_game(17)
    assert a.to_dict() == b.to_dict() and a.is_over()
    assert len(a.log) >= a.turns  # at least a hard drop a domino, all through command()
    again = replay(17, a.options(), a.log, until=a.steps)
    assert again.to_dict() == a.to_dict()


def test_marathon_is_capped_so_it_ends():
    state = play_game(5, mode="marathon", max_sets=2)
    assert state.is_over() and state.termination in ("set cap", "topped out") and state.turns <= 56


def test_demo_pace_spaces_the_commands_and_survives_animations():
    state = new_state(3, cascade_steps=12)
    player = AutoPlayer(delay=5)
    while not state.is_over():
        player.act(state)
        state.step()
    assert state.termination == "set played" and state.power > 0
    steps = [s for s, _ in state.log]
    assert all(b - a >= 5 for a, b in zip(steps, steps[1:]))


def _hard_drop_only(seed: int) -> int:
    state = new_state(seed, cascade_steps=0)
    while not state.is_over():
        state.command("hard_drop")
        state.step()
    return state.power


def test_autoplayer_beats_dropping_blindly_and_lookahead_beats_plain():
    """Try to build a long cascade of matches during a single turn to get the best max score."""
    seeds = (1, 2, 3)
    blind = sum(_hard_drop_only(s) for s in seeds)
    plain = [play_game(s) for s in seeds]
    assert sum(p.power for p in plain) > 3 * blind
    ahead = [play_game(s, lookahead=40) for s in seeds[:2]]
    assert sum(p.power for p in ahead) > sum(p.power for p in plain[:2])
    assert max(p.max_score for p in ahead) >= max(p.max_score for p in plain[:2])


def test_command_prints_json_and_is_reproducible(capsys):
    assert main(["--set", "norm", "--mode", "sprint", "--games", "2", "--seed", "4", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    for key in ("games", "mean_power", "best_power", "mean_max", "best_max", "steps_per_s"):
        assert key in first
    assert first["games"] == 2
    main(["--games", "2", "--seed", "4", "--json"])
    second = json.loads(capsys.readouterr().out)
    assert {k: first[k] for k in ("mean_power", "best_power", "mean_max", "best_max", "mean_speed")} == {
        k: second[k] for k in ("mean_power", "best_power", "mean_max", "best_max", "mean_speed")
    }
    assert main(["--set", "max", "--mode", "marathon", "--games", "1", "--max-sets", "1"]) == 0
    assert "Power" in capsys.readouterr().out
