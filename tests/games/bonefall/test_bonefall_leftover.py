"""Bonefall: a half whose partner was annihilated falls as a single square, from every cell of the well.

The engine once skipped a single square in the top-left cell: its "no partner" link (-1) read as "partner
on the left" (cell 0 - 1), so the square hung there, the board said it was at rest, and the match its
fall would have made was never scored (about 1 Marathon in 15 of random placements). These tests put a
leftover half in every cell with its partner on every side, score the match such a fall makes, and
check every turn of seeded games against an independent model of the rules (``bonefall_model``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import bonefall_model as model
import pytest
from bonefall_helpers import check_invariants, state_with

from boneyard.games.bonefall.autoplay import reachable
from boneyard.games.bonefall.sim import HEIGHT, WIDTH, Board, BonefallState, from_dict, new_state

CELLS = [(col, row) for row in range(HEIGHT) for col in range(WIDTH)]
SIDES = {"right": (1, 0), "left": (-1, 0), "below": (0, 1), "above": (0, -1)}
LEFTOVER, PARTNER = 6, 2


def domino_with_partner(board: Board, col: int, row: int, side: str, piece: int = 1) -> int | None:
    """Place LEFTOVER at (col, row) and its PARTNER on ``side``; return the partner's cell (None: no room)."""
    dc, dr = SIDES[side]
    pc, pr = col + dc, row + dr
    if not (0 <= pc < WIDTH and 0 <= pr < HEIGHT):
        return None
    if side == "right":
        board.place(col, row, 0, LEFTOVER, PARTNER, piece)
    elif side == "left":
        board.place(pc, pr, 0, PARTNER, LEFTOVER, piece)
    elif side == "below":
        board.place(col, row, 1, LEFTOVER, PARTNER, piece)
    else:
        board.place(pc, pr, 1, PARTNER, LEFTOVER, piece)
    return pr * WIDTH + pc


def assert_single_square_at(board: Board, col: int, row: int, piece: int = 1) -> None:
    i = row * WIDTH + col
    assert (board.val[i], board.pid[i], board.mate[i]) == (LEFTOVER, piece, -1), (col, row)
    assert board.val.count(LEFTOVER) == 1


@pytest.mark.parametrize("col,row", CELLS, ids=[f"c{c}r{r}" for c, r in CELLS])
def test_a_leftover_half_falls_to_the_floor_from_every_cell(col, row):
    sides = 0
    for side in SIDES:
        board = Board()
        partner = domino_with_partner(board, col, row, side)
        if partner is None:
            continue
        sides += 1
        board.remove([partner])  # the partner annihilated: a single square is left
        expect_fall = row < HEIGHT - 1
        assert board.is_at_rest() is not expect_fall, side
        grid = model.grid_of(board)
        moves: list = []
        landed: list[int] = []
        assert board.settle(moves, landed) is expect_fall, side
        assert_single_square_at(board, col, HEIGHT - 1)
        assert board.is_at_rest()
        if expect_fall:
            assert moves == [
                {
                    "piece": 1,
                    "tipped": False,
                    "halves": [{"value": LEFTOVER, "from": [col, row], "to": [col, HEIGHT - 1]}],
                }
            ]
            assert landed == [(HEIGHT - 1) * WIDTH + col]
        model.settle(grid)
        assert model.grid_of(board) == grid
    corner = col in (0, WIDTH - 1) and row in (0, HEIGHT - 1)
    edge = col in (0, WIDTH - 1) or row in (0, HEIGHT - 1)
    assert sides == (2 if corner else 3 if edge else 4)  # both orientations, every side there is room for


@pytest.mark.parametrize("col,row", CELLS, ids=[f"c{c}r{r}" for c, r in CELLS])
def test_a_leftover_half_falls_one_row_onto_a_stack_from_every_cell(col, row):
    """The cell under it is empty, a stack of halves (other dominoes) under that: it falls exactly one row."""
    for side in SIDES:
        board = Board()
        partner = domino_with_partner(board, col, row, side)
        if partner is None or row == HEIGHT - 1:
            continue
        board.remove([partner])
        for r in range(row + 2, HEIGHT):
            board.put(col, r, 9, 100 + r)  # fillers: single squares of other dominoes
        assert not board.is_at_rest()
        assert board.settle()
        assert_single_square_at(board, col, row + 1)
        assert board.is_at_rest()


@pytest.mark.parametrize("col", range(WIDTH))
def test_a_single_square_in_the_top_row_falls_whether_put_there_or_left_by_a_match(col):
    board = Board()
    board.put(col, 0, LEFTOVER, 1)
    assert not board.is_at_rest()
    board.resolve()
    assert_single_square_at(board, col, HEIGHT - 1)


# -- the match a leftover's fall makes is scored ---------------------------------------------------


def stack(left: int, right: int, top: int) -> BonefallState:
    """Build a two-column stack whose next turn makes a leftover half fall and match.

    Column ``left`` holds a vertical domino 3 over 5 at rows ``top``/``top + 1`` on a column of single
    squares 3, 4, 3, 4... (from row ``top + 2`` down); column ``right`` holds 0, 2, 0, 2... from row
    ``top + 2`` down. The falling domino (1 over 5) is set vertical over column ``right``: it lands beside
    the 5, the two 5s annihilate, both leftovers (3 and 1) fall one row, and the 3 meets the 3 under it:
    two more halves. Turn score 4.
    """
    board = Board()
    board.place(left, top, 1, 3, 5, 1)
    ids = iter(range(10, 100))
    for k, r in enumerate(range(top + 2, HEIGHT)):
        board.put(left, r, (3, 4)[k % 2], next(ids))
        board.put(right, r, (0, 2)[k % 2], next(ids))
    assert board.is_at_rest() and board.find_matches() == []
    state = state_with(board, (1, 5))
    state.col, state.row, state.orientation = right, 0, 1  # vertical: 1 on top, 5 below
    assert board.fits(state.col, state.row, state.orientation)
    return state


PAIRS = [
    (left, left + d, top)
    for left in range(WIDTH)
    for d in (-1, 1)
    if 0 <= left + d < WIDTH
    for top in range(HEIGHT - 2)
]


@pytest.mark.parametrize("left,right,top", PAIRS, ids=[f"c{a}-c{b}-top{t}" for a, b, t in PAIRS])
def test_the_match_a_leftover_half_makes_by_falling_is_scored(left, right, top):
    state = stack(left, right, top)
    before = model.grid_of(state.board)
    piece = state.piece
    assert state.command("hard_drop")
    assert (state.turn_score, state.power, state.max_score, state.scoring_turns) == (4, 9, 4, 1)
    board = state.board
    assert board.val[top * WIDTH + left] == -1  # the leftover 3 did not stay behind ...
    assert board.val[(top + 1) * WIDTH + left] == -1  # ... it fell and annihilated with the 3 below
    assert board.val[(top + 1) * WIDTH + right] == 1  # the dropped domino's leftover fell onto the stack
    check_invariants(state)
    # the independent model agrees, board and score
    before[(right, top)], before[(right, top + 1)] = (1, piece), (5, piece)
    assert model.resolve(before) == 4
    assert model.grid_of(board) == before


def test_the_top_left_corner_case_animates_and_scores_on_screen():
    """With the animation on, the leftover's fall is an event of the turn and the view's score says 4."""
    state = stack(0, 1, 0)
    state.cascade_steps = 3
    state.command("hard_drop")
    kinds = [event["kind"] for event in state.events]
    assert kinds == ["annihilate", "fall", "annihilate"]
    falls = [half for move in state.events[1]["moves"] for half in move["halves"]]
    assert {"value": 3, "from": [0, 0], "to": [0, 1]} in falls
    assert state.events[-1]["score"] == 4
    while state.phase == "resolving":
        state.step()
    assert state.view()["turn_score"] == 4 and state.view()["power"] == 9 and state.view()["max_score"] == 4


# -- seeded games against the independent model ---------------------------------------------------


def play_checked(seed: int, set_name: str = "norm", turns: int | None = None) -> BonefallState:
    """Play a Marathon placing each domino at a random reachable spot; check every turn against the model."""
    state = new_state(seed, set=set_name, mode="marathon", cascade_steps=0)
    rng = random.Random(seed)
    power = max_score = 0
    while not state.is_over() and (turns is None or state.turns < turns):
        board = state.board
        place = rng.choice(reachable(board, state.col, state.row, state.orientation))
        for cmd in place.path:
            assert state.command(cmd)
        grid = model.grid_of(board)
        a, b = state.values
        for (c, r), v in zip(
            _cells(state.col, board.drop_row(state.col, state.row, state.orientation), state.orientation),
            (a, b),
        ):
            grid[(c, r)] = (v, state.piece)
        score = model.resolve(grid)
        assert state.command("hard_drop")
        assert state.turn_score == score, (seed, state.turns)
        assert model.grid_of(state.board) == grid, (seed, state.turns)
        assert model.engine_partners(state.board) == model.partners(grid), (seed, state.turns)
        if score:
            power += (score - 1) ** 2
            max_score = max(max_score, score)
        assert (state.power, state.max_score) == (power, max_score)
        check_invariants(state)
    return state


def _cells(col: int, row: int, orientation: int) -> list[tuple[int, int]]:
    """Return the cells of the first and second half (the rules' four orientations, written out)."""
    return {
        0: [(col, row), (col + 1, row)],
        1: [(col, row), (col, row + 1)],
        2: [(col + 1, row), (col, row)],
        3: [(col, row + 1), (col, row)],
    }[orientation]


@pytest.mark.parametrize("seed", [1, 33, 42, 66, 91, 109])  # seeds whose games the bug changed
def test_seeded_games_that_met_the_bug_agree_with_the_model(seed):
    state = play_checked(seed)
    assert state.termination == "topped out"


@pytest.mark.parametrize("set_name,seeds", [("norm", range(200, 212)), ("max", range(300, 306))])
def test_more_seeded_games_agree_with_the_model_turn_by_turn(set_name, seeds):
    for seed in seeds:
        play_checked(seed, set_name)


# -- old saves --------------------------------------------------------------------------------------

STUCK_SAVE = Path(__file__).with_name("bonefall-v1-stuck-corner.json")


def test_a_save_written_with_a_stuck_corner_square_loads_and_the_square_falls_next_turn():
    """The fixture was saved by the engine before the fix, in a game where the 5 hung in cell 0."""
    state = from_dict(json.loads(STUCK_SAVE.read_text()))
    board = state.board
    assert state.phase == "falling" and board.val[0] == 5 and board.mate[0] == -1 and board.val[WIDTH] < 0
    assert not board.is_at_rest()
    state.view()  # the screen can draw it
    written = json.loads(STUCK_SAVE.read_text()) | {"game": "bonefall"}  # saved under the old id "falling"
    assert json.loads(json.dumps(state.to_dict())) == written  # round trip
    state.command("hard_drop")
    while state.phase == "resolving":
        state.step()
    assert board.val[0] == -1 and board.val[WIDTH] == 5  # it fell with the turn that followed
    check_invariants(state)
    rng = random.Random(4)
    for _ in range(3000):  # and the game plays on soundly
        if state.is_over():
            break
        if rng.random() < 0.3:
            state.command(rng.choice(("left", "right", "rotate_cw", "hard_drop")))
        state.step()
        check_invariants(state)
