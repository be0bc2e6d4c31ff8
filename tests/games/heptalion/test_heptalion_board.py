"""The board: the original's properties, random boards, lab boards and equivalence up to symmetry."""

from __future__ import annotations

import random

import pytest

from boneyard.games.heptalion import board as B
from boneyard.games.heptalion.board import (
    DARK,
    EDGES,
    LAB_BOARDS,
    NEIGHBOURS,
    ORIGINAL,
    ORIGINAL_ROWS,
    SPACES,
    SYMMETRIES,
    Board,
    board_problems,
    canonical_form,
    equivalent,
    random_board,
)
from boneyard.tiles import SYMBOLS


def test_shape_is_the_diamond_without_the_central_cross():
    """An 11x11 diamond (|row-5| + |col-5| <= 5) without the central cross of five cells: 56 spaces."""
    assert len(SPACES) == 56
    for r in range(11):
        for c in range(11):
            inside = abs(r - 5) + abs(c - 5) <= 5 and (r, c) not in {(5, 5), (4, 5), (6, 5), (5, 4), (5, 6)}
            assert ((r, c) in SPACES) == inside


def test_original_is_the_transcribed_diagram():
    """The original board's rows are the diagram of docs/architecture.md, each row centred on column 5."""
    assert [row.rstrip() for row in ORIGINAL.rows] == list(ORIGINAL_ROWS)
    assert all(len(row) == 11 for row in ORIGINAL.rows)
    assert ORIGINAL.symbols[:4] == "XCDS"


def test_seven_symbols_each_appearing_eight_times():
    """ "Seven symbols, each appearing eight times." / "Each symbol occurs eight times"."""
    assert set(ORIGINAL.symbols) == set(SYMBOLS)
    assert ORIGINAL.symbol_counts() == dict.fromkeys(SYMBOLS, 8)


def test_original_has_three_placements_for_every_tile():
    """ "Each of the 28 tiles has exactly three matching placements on the empty board." / "The default
    is the original board, with three matching placements for every tile.\""""
    counts = ORIGINAL.placement_counts()
    assert len(counts) == 28 and set(counts.values()) == {3}
    assert board_problems(ORIGINAL, 3, exact=True) == []
    # 84 adjacent pairs on the board, each the placement of exactly one tile
    assert len(EDGES) == 84 == sum(counts.values())


def test_placements_are_edge_adjacent_pairs_matching_the_symbols():
    """ "Diagonal contact does not count; gaps in the board are not spaces.\""""
    for t, placements in enumerate(ORIGINAL.placements):
        for a, b in placements:
            (ra, ca), (rb, cb) = SPACES[a], SPACES[b]
            assert abs(ra - rb) + abs(ca - cb) == 1
            assert (ORIGINAL.symbols[a], ORIGINAL.symbols[b]) == B.TILES[t]
    # the four spaces around the central cross are not neighbours across the gap
    left, right = B.SPACE_AT[(5, 3)], B.SPACE_AT[(5, 7)]
    assert right not in NEIGHBOURS[left]
    # diagonal spaces are never neighbours
    assert B.SPACE_AT[(1, 4)] not in NEIGHBOURS[B.SPACE_AT[(0, 5)]]


def test_the_56_spaces_equal_the_area_but_28_tiles_cannot_fit():
    """ "The 56 spaces equal the total area of the tiles, but placing all 28 tiles is impossible."

    Colour the spaces like a chessboard: 24 of one colour, 32 of the other; every tile covers one of
    each, so at most 24 tiles fit on any board."""
    assert len(SPACES) == 2 * 28
    assert len(DARK) == 24
    for a, b in EDGES:
        assert (a in DARK) != (b in DARK)


def test_random_boards_over_thousands_of_seeds():
    """ "The board shape stays the same, each symbol appears eight times, and every tile (including
    doubles) has at least two matching placements on the empty board.\""""
    for seed in range(2000):
        board = random_board(seed)
        assert board.kind == "random" and board.seed == seed
        assert board_problems(board, 2, exact=False) == [], seed
        assert all(len(row) == 11 for row in board.rows)


def test_random_boards_are_reproducible_and_vary():
    """ "Choose Random in the invitation to generate a new symbol arrangement when the game starts.\""""
    assert random_board(7) == random_board(7)
    assert len({random_board(s).symbols for s in range(50)}) == 50
    assert all(not equivalent(random_board(s), ORIGINAL) for s in range(20))


def test_lab_boards_are_original_style_and_genuinely_different():
    """ "Can you find a genuinely different symbol distribution with the same properties, beyond renaming
    symbols, rotation or reflection?\""""
    forms = {canonical_form(ORIGINAL)}
    assert len(LAB_BOARDS) >= 8
    for board in LAB_BOARDS:
        assert board_problems(board, 3, exact=True) == []
        assert canonical_form(board) not in forms
        forms.add(canonical_form(board))


def test_lab_search_finds_what_is_cached():
    """The cached lab board 0 is what the search finds from seed 0 (the search is reproducible)."""
    assert B.lab_search(0) == LAB_BOARDS[0]


def _transform(board: Board, perm: tuple[int, ...], rename: dict[str, str]) -> Board:
    moved = [""] * 56
    for i, j in enumerate(perm):
        moved[j] = rename[board.symbols[i]]
    return Board("".join(moved), "custom")


def test_canonical_form_ignores_symmetry_and_renaming():
    """Rotating, reflecting the diamond and renaming the symbols give an equivalent board."""
    rng = random.Random(3)
    assert len(set(SYMMETRIES)) == 8
    for perm in SYMMETRIES:
        letters = list(SYMBOLS)
        rng.shuffle(letters)
        rename = dict(zip(SYMBOLS, letters))
        other = _transform(ORIGINAL, perm, rename)
        assert equivalent(other, ORIGINAL)
        assert other.placement_counts() != {} and set(other.placement_counts().values()) == {3}
    # swapping two spaces' symbols breaks the equivalence
    sym = list(ORIGINAL.symbols)
    sym[0], sym[1] = sym[1], sym[0]
    assert not equivalent(Board("".join(sym)), ORIGINAL)


@pytest.mark.parametrize(
    "rows, message",
    [
        (["X"] * 10, "11 rows"),
        ([*ORIGINAL_ROWS[:-1], "     Q"], "expected a symbol"),
        (["X    X", *ORIGINAL_ROWS[1:]], "no square"),
        ("not rows", "11 rows"),
    ],
)
def test_bad_rows_are_refused(rows, message):
    """A board given as rows is checked: right shape, known symbols, nothing where there is no square."""
    with pytest.raises(ValueError, match=message):
        Board.from_rows(rows)


def test_board_round_trips_through_its_dict():
    """A board's dict form rebuilds the same board."""
    for board in (ORIGINAL, random_board(5), LAB_BOARDS[1]):
        assert Board.from_dict(board.to_dict()) == board
    with pytest.raises(ValueError):
        Board.from_dict({"rows": ORIGINAL.rows, "kind": "weird"})
