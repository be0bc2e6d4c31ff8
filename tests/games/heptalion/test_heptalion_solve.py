"""The "How many can you fit?" solver: exact maxima, valid layouts, the command."""

from __future__ import annotations

import json

from heptalion_helpers import random_game

from boneyard.games.heptalion.board import DARK, LAB_BOARDS, ORIGINAL, Board, random_board
from boneyard.games.heptalion.solve import check_layout, main, render, solve


def test_original_maximum_is_24_and_proved():
    """ "How many can you fit?" On the original board: 24 (the checkerboard bound), with a layout."""
    solution = solve(ORIGINAL)
    assert solution.proven and solution.max_tiles == 24 == len(DARK)
    check_layout(ORIGINAL, solution.layout)


def test_random_and_lab_boards_solve_with_valid_layouts():
    seen = set()
    for seed in [*range(40), 68, 142]:
        board = random_board(seed)
        solution = solve(board)
        assert solution.proven and solution.max_tiles <= 24
        check_layout(board, solution.layout)
        seen.add(solution.max_tiles)
    assert seen == {23, 24}  # some random boards (68, 142) cannot reach the bound
    for board in LAB_BOARDS:
        solution = solve(board)
        check_layout(board, solution.layout)


def test_solver_is_exact_against_brute_force_on_a_small_board():
    """On a board where only a few tiles can go anywhere, compare with trying every subset."""
    # A board with every space a cross but a few: only X-X and the few pairs around the others fit.
    symbols = list("X" * 56)
    for space, symbol in ((0, "C"), (2, "C"), (10, "D"), (20, "D"), (30, "S")):
        symbols[space] = symbol
    board = Board("".join(symbols), "custom")
    solution = solve(board)
    # brute force: distinct tiles, so at most one X-X plus the tiles touching the five other spaces
    tiles_available = sum(1 for p in board.placements if p)
    assert solution.max_tiles <= tiles_available
    check_layout(board, solution.layout)
    # exhaustive check: every choice of one placement (or none) per tile
    from itertools import product

    choices = [[None, *p] for p in board.placements if p]
    best = 0
    for combo in product(*choices):
        spaces = [s for c in combo if c for s in c]
        if len(spaces) == len(set(spaces)):
            best = max(best, sum(1 for c in combo if c))
    assert solution.max_tiles == best


def test_solo_play_never_beats_the_solver():
    for seed in range(10):
        *_, end = random_game(seed, 1, board="random")
        assert len(end.covered) <= solve(end.board).max_tiles


def test_node_limit_reports_unproven():
    board = random_board(7)
    assert not solve(board, node_limit=3).proven


def test_render_marks_empty_spaces():
    solution = solve(ORIGINAL)
    rows = render(ORIGINAL, solution.layout)
    assert sum(row.count(".") for row in rows) == 56 - 2 * solution.max_tiles


def test_command_json(capsys):
    assert main(["--board", "random", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"board", "max_tiles", "layout"}
    assert data["board"] == list(random_board(3).rows) and len(data["layout"]) == data["max_tiles"]
    assert all(len(row) == 11 for row in data["board"])
    assert {"tile", "spaces", "cells", "move"} <= set(data["layout"][0])


def test_command_text(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "maximum: 24 tiles" in out and "CSSD   CXXS" in out


def test_command_needs_a_seed_for_random(capsys):
    assert main(["--board", "random"]) == 2
