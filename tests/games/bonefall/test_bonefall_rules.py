"""Bonefall: every rule sentence of rules/falling-puzzle.txt, on hand-built positions."""

from __future__ import annotations

import pytest
from bonefall_helpers import board_of, cell, check_invariants, state_with

from boneyard.games.bonefall.sim import (
    HEIGHT,
    LOCK_DELAY,
    SPAWN_COL,
    WIDTH,
    Board,
    gravity_steps,
    new_state,
)
from boneyard.tiles import DOUBLE_NINE, DOUBLE_SIX, domino

# -- Rules --------------------------------------------------------------------------------------


def test_game_consists_of_turns_each_starting_with_a_random_domino_from_the_set_at_the_top():
    """Game consists of turns. Each turn starts when random domino taken from the set falls from the top
    of the game area."""
    firsts = set()
    for seed in range(12):
        state = new_state(seed=seed)
        view = state.view()
        assert view["piece"]["cells"] == [[SPAWN_COL, 0], [SPAWN_COL + 1, 0]]  # horizontal, top centre
        assert SPAWN_COL + 1 == WIDTH // 2
        assert domino(*view["piece"]["values"]) in DOUBLE_SIX
        firsts.add(tuple(view["piece"]["values"]))
    assert len(firsts) > 4  # random
    state = new_state(seed=3, cascade_steps=0)
    assert state.turns == 0
    state.command("hard_drop")
    assert state.turns == 1 and state.view()["piece"]["cells"] == [[SPAWN_COL, 0], [SPAWN_COL + 1, 0]]


def test_a_falling_domino_falls_by_gravity_and_locks_after_the_lock_delay():
    """Each turn starts when random domino taken from the set falls from the top of the game area."""
    state = state_with(Board(), (1, 2))
    for _ in range(gravity_steps(1) - 1):
        state.step()
    assert state.row == 0
    state.step()
    assert state.row == 1
    state.run(gravity_steps(1) * (HEIGHT - 2))
    assert state.row == HEIGHT - 1 and state.turns == 0
    state.run(LOCK_DELAY)
    assert state.turns == 1 and cell(state.board, SPAWN_COL, HEIGHT - 1) == 1


def test_moved_left_or_right_unless_touching_a_wall():
    """While a domino is falling it can be dropped down, moved left or right and rotated either way
    unless it's touching a wall or another domino."""
    state = state_with(Board(), (1, 2))
    assert [state.command("left") for _ in range(4)] == [True, True, True, False]
    assert state.col == 0
    assert [state.command("right") for _ in range(7)] == [True] * 6 + [False]
    assert state.col == WIDTH - 2


def test_moves_and_rotations_refused_against_another_domino():
    """While a domino is falling it can be dropped down, moved left or right and rotated either way
    unless it's touching a wall or another domino."""
    board = board_of(("v", 1, 0, 5, 6, 1), ("v", 6, 0, 5, 6, 2), ("s", 3, 1, 5, 3))
    state = state_with(board, (1, 2))  # at columns 3-4 of row 0, blocked at columns 1, 6 and below col 3
    assert not state.command("rotate_cw")  # the lower half would go to (3, 1): occupied
    assert state.command("left") and not state.command("left")  # at 2-3; column 1 is taken
    assert state.command("right") and state.command("right") and not state.command("right")
    assert state.command("rotate_cw") and state.orientation == 1  # at column 4, vertical
    before = state.to_dict()
    assert not state.command("rotate_ccw") or True
    state2 = state_with(board_of(("v", 1, 0, 5, 6, 1), ("v", 6, 0, 5, 6, 2), ("s", 3, 1, 5, 3)), (1, 2))
    assert before["board"] == state2.to_dict()["board"]  # refused moves change nothing


def test_rotated_either_way_through_four_orientations():
    """While a domino is falling it can be dropped down, moved left or right and rotated either way
    unless it's touching a wall or another domino."""
    state = state_with(Board(), (1, 2))
    cells = []
    for _ in range(4):
        assert state.command("rotate_cw")
        cells.append(state.view()["piece"]["cells"])
    # first half stays at the pivot's box; second half goes right -> below -> left -> above -> right
    assert cells == [
        [[3, 0], [3, 1]],
        [[4, 0], [3, 0]],
        [[3, 1], [3, 0]],
        [[3, 0], [4, 0]],
    ]
    for _ in range(4):
        assert state.command("rotate_ccw")
    assert state.orientation == 0
    # at the right wall a vertical domino cannot turn horizontal
    state.command("rotate_cw")
    for _ in range(5):
        state.command("right")
    assert state.col == WIDTH - 1 and state.orientation == 1
    assert not state.command("rotate_cw") and not state.command("rotate_ccw")


def test_dropped_down_softly_one_row_or_hard_at_once():
    """While a domino is falling it can be dropped down, moved left or right and rotated either way
    unless it's touching a wall or another domino."""
    state = state_with(Board(), (1, 2))
    assert state.command("soft_drop") and state.row == 1
    assert state.view()["piece"]["ghost"] == [[3, HEIGHT - 1], [4, HEIGHT - 1]]
    assert state.command("hard_drop")
    assert cell(state.board, 3, HEIGHT - 1) == 1 and cell(state.board, 4, HEIGHT - 1) == 2
    assert state.turns == 1


def test_stops_at_the_lowest_unoccupied_spot():
    """When a domino comes to the lowest unoccupied spot it stops."""
    board = board_of(("h", 3, 15, 1, 2, 1), ("h", 3, 14, 3, 4, 2))
    state = state_with(board, (5, 6))
    state.command("hard_drop")
    assert (cell(state.board, 3, 13), cell(state.board, 4, 13)) == (5, 6)
    check_invariants(state)
    # vertical, in an empty column
    state = state_with(Board(), (5, 6))
    state.command("rotate_cw")
    state.command("hard_drop")
    assert (cell(state.board, 3, 14), cell(state.board, 3, 15)) == (5, 6)


def test_overhanging_horizontal_domino_tips_over_and_falls_on():
    """Horizontal domino overhanging a gap may overturn and fall down further if there is room for that."""
    board = board_of(("v", 4, 12, 1, 2, 1), ("v", 4, 14, 3, 4, 2))  # column 4 four high, column 3 empty
    state = state_with(board, (5, 6))
    state.command("hard_drop")  # lands on column 4 at row 11; its left half overhangs an empty column
    b = state.board
    # vertical in the unsupported column 3, the overhanging half (5) below, fallen to the floor
    assert cell(b, 3, 15) == 5 and cell(b, 3, 14) == 6
    assert cell(b, 3, 11) == -1 and cell(b, 4, 11) == -1
    assert b.mate[15 * WIDTH + 3] == 14 * WIDTH + 3
    fall = state.events[0]
    assert fall["kind"] == "fall" and fall["moves"][0]["tipped"]
    assert fall["moves"][0]["halves"] == [
        {"value": 5, "from": [3, 11], "to": [3, 15]},
        {"value": 6, "from": [4, 11], "to": [3, 14]},
    ]
    check_invariants(state)


def test_overhang_to_the_right_tips_the_other_way():
    """Horizontal domino overhanging a gap may overturn and fall down further if there is room for that."""
    board = board_of(("s", 3, 15, 1, 1))
    state = state_with(board, (5, 6))
    state.command("hard_drop")  # right half over the empty column 4
    assert cell(state.board, 4, 15) == 6 and cell(state.board, 4, 14) == 5 and cell(state.board, 3, 14) == -1


def test_no_tip_over_without_room():
    """Horizontal domino overhanging a gap may overturn and fall down further if there is room for that."""
    # both halves supported: no gap, no room to overturn; it stays horizontal
    board = board_of(("v", 3, 14, 1, 2, 1), ("v", 4, 14, 3, 4, 2))
    state = state_with(board, (5, 6))
    state.command("hard_drop")
    assert (cell(state.board, 3, 13), cell(state.board, 4, 13)) == (5, 6)
    assert state.board.mate[13 * WIDTH + 3] == 13 * WIDTH + 4
    assert state.events == []
    # on the floor nothing can overturn
    state = state_with(Board(), (5, 6))
    state.command("hard_drop")
    assert state.events == [] and cell(state.board, 3, 15) == 5


def test_resting_domino_annihilates_partially():
    """Resting domino can partially or fully annihilate with surrounding dominoes."""
    board = board_of(("s", 2, 15, 4, 1))
    state = state_with(board, (4, 6))  # 4 lands beside the 4 at column 2
    state.command("hard_drop")
    assert state.turn_score == 2
    assert cell(state.board, 4, 15) == 6 and state.board.mate[15 * WIDTH + 4] == -1  # a single square now
    assert cell(state.board, 3, 15) == -1 and cell(state.board, 2, 15) == -1


def test_resting_domino_annihilates_fully():
    """Resting domino can partially or fully annihilate with surrounding dominoes."""
    board = board_of(("s", 2, 15, 4, 1), ("s", 5, 15, 6, 2))
    state = state_with(board, (4, 6))
    state.command("hard_drop")
    assert state.turn_score == 4 and all(v < 0 for v in state.board.val)


@pytest.mark.parametrize(
    "pieces, matched",
    [
        ([("h", 2, 15, 3, 3, 1)], []),  # a double alone, horizontal
        ([("v", 2, 14, 3, 3, 1)], []),  # a double alone, vertical
        ([("s", 2, 15, 3, 1), ("s", 3, 15, 3, 2)], [(2, 15), (3, 15)]),  # two in a row
        ([("s", 2, 15, 3, 1), ("s", 2, 14, 3, 2)], [(2, 14), (2, 15)]),  # two in a column
        ([("h", 2, 15, 3, 3, 1), ("s", 4, 15, 3, 2)], [(2, 15), (3, 15), (4, 15)]),  # a double and one more
        ([("s", 2, 15, 3, 1), ("s", 4, 15, 3, 2)], []),  # not consecutive
        ([("s", 2, 15, 3, 1), ("s", 3, 14, 3, 2)], []),  # a diagonal of two
        ([("s", 2, 15, 3, 1), ("s", 3, 14, 3, 2), ("s", 4, 13, 3, 3)], [(4, 13), (3, 14), (2, 15)]),
        ([("s", 4, 15, 3, 1), ("s", 3, 14, 3, 2), ("s", 2, 13, 3, 3)], [(2, 13), (3, 14), (4, 15)]),
        ([("s", 2, 15, 3, 1), ("s", 3, 15, 4, 2)], []),  # different values
    ],
)
def test_annihilation_two_in_a_row_or_column_from_different_dominoes_three_on_a_diagonal(pieces, matched):
    """Annihilation occurs when two or more domino halves of same value, but from different dominoes,
    arranged horizontally or vertically, or three or more form a diagonal."""
    board = board_of(*pieces)
    assert board.find_matches() == sorted(r * WIDTH + c for c, r in matched)


def test_a_double_alone_never_annihilates_itself_in_play():
    """Annihilation occurs when two or more domino halves of same value, but from different dominoes,
    arranged horizontally or vertically, or three or more form a diagonal."""
    for rotations in (0, 1):
        state = state_with(Board(), (5, 5))
        for _ in range(rotations):
            state.command("rotate_cw")
        state.command("hard_drop")
        assert state.turn_score == 0 and sum(v == 5 for v in state.board.val) == 2


def test_survivors_fall_to_fill_gaps_as_units_and_single_squares():
    """Annihilated domino halves disappear and other dominoes can fall down to fill gaps, possibly causing
    cascade of matches."""
    # a horizontal domino resting on two singles, one of which annihilates: it tips into the gap
    board = board_of(
        ("s", 2, 15, 4, 1), ("s", 3, 15, 7, 2), ("h", 2, 14, 8, 9, 3), ("v", 3, 12, 0, 2, 4)
    )  # a vertical domino standing on the 9
    board.resolve()
    assert board.find_matches() == []
    assert board.is_at_rest()
    board = board_of(("s", 1, 15, 4, 1), ("v", 2, 14, 1, 4, 2))  # 4 beside 4: the vertical's lower half goes
    events: list = []
    assert board.resolve(events) == 2
    assert cell(board, 2, 15) == 1 and board.mate[15 * WIDTH + 2] == -1  # the single square fell
    assert [e["kind"] for e in events] == ["annihilate", "fall"]
    fell = [{"value": 1, "from": [2, 14], "to": [2, 15]}]
    assert events[1]["moves"] == [{"piece": 2, "tipped": False, "halves": fell}]


def two_round_board() -> Board:
    """Return a board where a 6-3 dropped upright in column 2 annihilates a 3, then the 2 that falls."""
    return board_of(
        ("s", 0, 15, 9, 1),
        ("s", 0, 14, 2, 2),
        ("s", 1, 15, 7, 3),
        ("s", 1, 14, 3, 4),
        ("s", 1, 13, 2, 5),
        ("s", 2, 15, 8, 6),
    )


def test_cascade_of_two_rounds_counts_every_half_in_the_turn_score():
    """Annihilated domino halves disappear and other dominoes can fall down to fill gaps, possibly causing
    cascade of matches. A turn ends when all dominoes in the game area come to rest. Total number of
    annihilated domino halves forms the turn score."""
    board = two_round_board()
    state = state_with(board, (6, 3))
    state.command("left")
    state.command("rotate_cw")  # vertical in column 2: 6 on top, 3 below
    state.command("hard_drop")  # 3 lands beside the 3 of column 1; then the 2 falls beside the 2
    assert [e["kind"] for e in state.events] == ["annihilate", "fall", "annihilate"]
    assert [e["count"] for e in state.events if e["kind"] == "annihilate"] == [2, 2]
    assert state.turn_score == 4 and state.max_score == 4 and state.power == 9
    assert cell(state.board, 2, 14) == 6 and cell(state.board, 0, 14) == -1
    check_invariants(state)


def test_turn_ends_only_when_everything_is_at_rest_and_the_animation_is_part_of_the_simulation():
    """A turn ends when all dominoes in the game area come to rest. Total number of annihilated domino
    halves forms the turn score."""
    board = two_round_board()
    state = state_with(board, (6, 3), bag=[(1, 0)], cascade_steps=10)
    state.command("left")
    state.command("rotate_cw")
    state.command("hard_drop")
    assert state.phase == "resolving" and state.view()["piece"] is None
    seen = []
    for _ in range(30):
        view = state.view()
        seen.append((view["event_index"], view["event_progress"]))
        assert not state.command("left")  # no input while the turn resolves
        state.step()
    assert seen[0] == (0, 0) and seen[10] == (1, 0) and seen[29] == (2, 9)
    assert state.phase == "falling" and state.values == (1, 0)


# -- Scores -------------------------------------------------------------------------------------


def _scripted_game():
    """Three turns: nothing; a tip-over that matches 2; a tip-over that cascades 2 + 2."""
    state = state_with(Board(), (1, 2), bag=[(1, 4), (4, 2)])
    turns = []
    for commands in (["hard_drop"], ["left", "hard_drop"], ["hard_drop"]):
        for cmd in commands:
            assert state.command(cmd)
        turns.append(state.turn_score)
        state.run(3)
    return state, turns


def test_scripted_game_scores_computed_by_hand():
    """Max score is the highest turn score achieved in a game. Power score is the total of power points
    achieved in a game, where power points are awarded each turn as (turn score - 1)², e.g. 1 power point
    for matching 2 domino halves, 4 for matching 3 halves, etc."""
    state, turns = _scripted_game()
    # turn 1: 1-2 lies on the floor at columns 3-4. Turn 2: 1-4 at columns 2-3 overhangs column 2, tips:
    # its 1 lands beside the 1 at column 3: 2 halves. Turn 3: 4-2 overhangs column 3, tips: its 4 meets
    # the fallen 4 of column 2 (2 halves), then its 2 falls beside the 2 of turn 1 (2 more).
    assert turns == [0, 2, 4]
    assert state.max_score == 4
    assert state.power == 0 + (2 - 1) ** 2 + (4 - 1) ** 2 == 10
    assert state.is_over() and state.termination == "set played"
    assert all(v < 0 for v in state.board.val)


def test_power_points_are_one_for_two_halves_and_four_for_three():
    """Power score is the total of power points achieved in a game, where power points are awarded each
    turn as (turn score - 1)², e.g. 1 power point for matching 2 domino halves, 4 for matching 3 halves,
    etc."""
    state = state_with(board_of(("s", 2, 15, 4, 1)), (4, 6))
    state.command("hard_drop")
    assert (state.turn_score, state.power) == (2, 1)
    state = state_with(board_of(("s", 2, 15, 4, 1), ("s", 4, 15, 4, 2)), (6, 4))
    state.command("rotate_cw")
    state.command("hard_drop")  # the 4 fills the gap between two 4s: three halves
    assert (state.turn_score, state.power) == (3, 4)


def test_speed_is_power_per_minute_of_play():
    """Speed score is a power score per minute."""
    state, _ = _scripted_game()
    assert state.speed == pytest.approx(state.power / (state.steps / 3600))
    slow = state_with(Board(), (1, 2), bag=[(1, 4), (4, 2)])
    for commands in (["hard_drop"], ["left", "hard_drop"], ["hard_drop"]):
        slow.run(60)  # a second of hesitation each turn
        for cmd in commands:
            slow.command(cmd)
        slow.run(3)
    assert slow.power == state.power and slow.speed < state.speed
    assert state.view()["speed"] == round(state.speed, 2)
    assert state.seconds_played == state.steps / 60  # what Stats count as time played


# -- Objectives (what the autoplayer aims for) -------------------------------------------------------


def test_objectives_are_scored():
    """Try to build a long cascade of matches during a single turn to get the best max score. Match as
    many domino halves as possible each turn to achieve the best power score. Play quickly as possible to
    get a good speed score."""
    state, turns = _scripted_game()
    view = state.view()
    assert view["max_score"] == max(turns) and view["power"] == 10 and view["speed"] > 0


# -- Domino sets and game types -------------------------------------------------------------------


def _play_out(state, limit=100_000):
    while not state.is_over() and limit:
        state.command("hard_drop")
        state.step()
        limit -= 1
    return state


def test_norm_set_is_the_28_dominoes_of_0_to_6():
    """Norm is the classic set of 28 dominoes marked with 0-6 spots on each half of a domino."""
    state = new_state(seed=5, set="norm", cascade_steps=0)
    assert len(state.bag) + 1 == 28
    played = sorted(domino(*t) for t in [state.values, *state.bag])
    assert played == sorted(DOUBLE_SIX)


def test_max_set_is_the_55_dominoes_of_0_to_9():
    """Max is extended set of 55 dominoes marked with 0-9 spots on each half of a domino."""
    state = new_state(seed=5, set="max", cascade_steps=0)
    assert sorted(domino(*t) for t in [state.values, *state.bag]) == sorted(DOUBLE_NINE)


@pytest.mark.parametrize("set_name, tiles", [("norm", DOUBLE_SIX), ("max", DOUBLE_NINE)])
def test_sprint_ends_when_every_domino_of_the_set_has_been_played(set_name, tiles):
    """Sprint is a short game where you play with a single domino set (norm or max). The game ends when
    all dominoes in a set have been played."""
    state = new_state(seed=11, set=set_name, mode="sprint", cascade_steps=0)
    # spread the dominoes over the columns so the well never fills
    step = 0
    while not state.is_over():
        for _ in range(step % 5):
            state.command("left" if step % 2 else "right")
        if step % 3 == 0:
            state.command("rotate_cw")
        state.command("hard_drop")
        state.step()
        step += 1
    if state.termination == "set played":
        assert state.turns == len(tiles)
        assert sorted(domino(*t) for t in state.dominoes) == sorted(tiles)
    else:
        assert state.termination == "topped out"


def test_sprint_ends_after_the_last_domino():
    """Sprint is a short game where you play with a single domino set (norm or max). The game ends when
    all dominoes in a set have been played."""
    state = state_with(Board(), (1, 2), bag=[(3, 4)])
    state.command("hard_drop")
    assert not state.is_over() and state.view()["left_in_set"] == 0 and state.view()["next"] is None
    state.command("left")
    state.command("hard_drop")
    assert state.is_over() and state.termination == "set played" and state.current_player() is None
    assert state.outcome().scores == (state.power,)


def test_marathon_deals_a_new_set_as_soon_as_the_previous_one_runs_out():
    """Marathon gives you unlimited number of domino sets. Every new set is generated as soon as previous
    one runs out of dominoes."""
    state = new_state(seed=2, mode="marathon", cascade_steps=0)
    assert state.sets_dealt == 1
    for _ in range(27):
        state.bag.pop(0) if len(state.bag) > 1 else None
    assert len(state.bag) == 1
    state.board = Board()
    state.command("hard_drop")  # the last domino of set 1 enters: set 2 is dealt at once
    assert state.sets_dealt == 2 and len(state.bag) == 28
    assert sorted(domino(*t) for t in state.bag) == sorted(DOUBLE_SIX)
    assert state.view()["next"] is not None


def test_marathon_ends_when_there_is_no_free_space_at_the_top():
    """The game ends when there is no free space for next domino at the top of the game area."""
    state = new_state(seed=4, mode="marathon", cascade_steps=0)
    _play_out(state)
    assert state.is_over() and state.termination == "topped out"
    assert state.turns > 0 and state.outcome().termination == "topped out"
    # the spawn cells are what decides: columns 3 and 4 full up to row 1
    board = board_of(
        *[("s", 3, r, 9 if r % 2 else 0, 100 + r) for r in range(1, 16)],
        *[("s", 4, r, 0 if r % 2 else 9, 200 + r) for r in range(1, 16)],
    )
    assert board.find_matches() == []
    state = state_with(board, (1, 2), mode="marathon")
    assert not state.is_over()
    state.command("hard_drop")  # rests on row 0, on both columns: no room for the next domino
    assert state.is_over() and state.termination == "topped out" and state.view()["over"]


def test_tagline_relaxing_and_easy_to_play():
    """Relaxing and easy to play, yet challenging strategic puzzle."""
    state = new_state(seed=1)
    assert gravity_steps(state.level) >= 30  # level 1 falls slowly: half a second a row or more
    assert set(state.view()["legal_moves"]) == {
        "wait",
        "left",
        "right",
        "rotate_cw",
        "rotate_ccw",
        "soft_drop",
        "hard_drop",
    }
