"""Rules of Triangles, one behaviour a test: every rule sentence, hand-built positions, perft counts."""

from __future__ import annotations

import json

import pytest
from triangles_helpers import empty_stock_position, engine_placements, oracle_placements, position

from boneyard.core import IllegalMoveError
from boneyard.games import GAMES
from boneyard.games.triangles import GAME, grid
from boneyard.games.triangles.rules import (
    TILES,
    Board,
    Draw,
    Pass,
    Place,
    corner_values,
    from_dict,
    new_state,
    opening_tile,
    parse_move,
    parse_tile,
    rotations,
    tile_text,
)


def rot_for(tile: str, values: tuple[int, int, int]) -> int:
    """Return the rotation that lays ``tile`` showing ``values`` at corners 0, 1, 2."""
    t = parse_tile(tile)
    return next(k for k in rotations(t) if corner_values(t, k) == values)


# Position A (found by search, every tile once): eight tiles around cell T = (1, 1). T's corners
# (1,2) and (2,3) meet its only side neighbour (1,2); its corner (2,1) meets cell (1,-1) at a point
# only. Cell (1,0) lies between (0,0), (1,-1) and T.
T = (1, 1)
GAP = (1, 0)
TABLE_A = [
    ("1-1-3", (0, 0), (1, 3, 1)),
    ("1-2-3", (0, 1), (1, 2, 3)),
    ("2-2-3", (0, 2), (2, 2, 3)),
    ("2-3-3", (1, 2), (3, 2, 3)),
    ("0-1-1", (0, -1), (0, 1, 1)),
    ("0-1-2", (0, -2), (0, 1, 2)),
    ("1-1-2", (1, -2), (2, 1, 1)),
    ("1-1-4", (1, -1), (1, 4, 1)),
]
T_TILE_A = ("3-3-4", (3, 3, 4))
GAP_TILE_A = ("1-3-4", (1, 3, 4))

# Position B: the same cells; the gap (1,0) reads 2, 1, 0 clockwise, which only a mirrored 0-1-2 fits.
TABLE_B = [
    ("1-2-2", (0, 0), (2, 1, 2)),
    ("1-1-2", (0, 1), (2, 1, 1)),
    ("1-1-4", (0, 2), (1, 4, 1)),
    ("1-4-5", (1, 2), (1, 4, 5)),
    ("2-2-4", (0, -1), (4, 2, 2)),
    ("2-3-4", (0, -2), (4, 2, 3)),
    ("2-2-3", (1, -2), (3, 2, 2)),
    ("0-2-2", (1, -1), (2, 0, 2)),
    ("0-1-5", (1, 1), (1, 5, 0)),
]


def table(rows):
    return [(tile, cell, rot_for(tile, values)) for tile, cell, values in rows]


# -- registration, tiles, deal ----------------------------------------------------------------------


def test_registered_with_players_option_and_levels():
    assert GAMES["triangles"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert [o.name for o in GAME.options] == ["players"] and GAME.options[0].default == 2
    assert GAME.levels == ("random", "easy", "medium", "hard", "expert")
    assert GAME.parse_move("draw") == parse_move(
        "draw"
    )  # the registered parser is the engine's (imported lazily)


def test_56_three_cornered_tiles():
    """'Triangles swaps the usual rectangles for 56 three-cornered tiles.'"""
    assert len(TILES) == 56 and all(len(t) == 3 for t in TILES)
    state = new_state(seed=1)
    assert sum(len(h) for h in state.hands) + len(state.stock) == 56


def test_every_combination_of_0_to_5_once():
    """'Each corner shows a number from 0 to 5, and every combination appears once.'"""
    assert len(set(TILES)) == 56
    assert {tuple(sorted(t)) for t in TILES} == {
        (a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)
    }
    assert all(list(t) == sorted(t) for t in TILES)  # printed ascending clockwise


@pytest.mark.parametrize("players,size", [(2, 9), (3, 7), (4, 7)])
def test_hand_sizes(players, size):
    """'Hands are bigger here: nine tiles each for two players, seven each for three or four.'"""
    state = GAME.new_state(seed=5, players=players)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.stock) == 56 - players * size


def test_rest_becomes_the_stock_kept_face_down():
    """'Whatever is left becomes the stock, kept face down.'"""
    state = new_state(seed=2, players=3)
    view = state.view(0)
    assert view["stock"] == 56 - 21
    text = json.dumps(view)
    for tile in state.stock:
        # a stock tile may show in the view only if it is in nobody's view at all: it never is
        assert tile_text(tile) not in view["hand"]
    assert "stock_tiles" not in text


@pytest.mark.parametrize("bad", [1, 5, 0, "2", True, None])
def test_players_option_is_checked(bad):
    with pytest.raises(ValueError):
        new_state(seed=1, players=bad)


def test_same_seed_same_deal():
    assert new_state(seed=9).to_dict() == new_state(seed=9).to_dict()
    assert new_state(seed=9).to_dict() != new_state(seed=10).to_dict()


# -- opening ----------------------------------------------------------------------------------------


def test_highest_triple_opens():
    """'Opening: the holder of the highest triple (5-5-5 down to 0-0-0) lays it'"""
    state = position([["2-2-2", "4-5-5", "0-1-2"], ["3-3-3", "0-0-0", "1-2-3"]])
    assert state.current_player() == 1
    assert [str(m) for m in state.legal_moves()] == ["3-3-3@0,0r0"]


def test_without_a_triple_the_highest_total_opens_in_any_rotation():
    """'with no triple, the highest total' (laid at 0,0; every distinct rotation is its own move)"""
    state = position([["3-5-5", "0-1-2"], ["4-5-5", "1-2-3"]])
    assert state.current_player() == 1
    assert [str(m) for m in state.legal_moves()] == ["4-5-5@0,0r0", "4-5-5@0,0r1", "4-5-5@0,0r2"]


def test_highest_total_tie_goes_to_the_higher_values():
    """5-5-3 and 5-4-4 both total 13: compared from the highest value down, 5-5-3 opens."""
    assert opening_tile([[(4, 4, 5)], [(3, 5, 5)]]) == (1, (3, 5, 5))
    assert opening_tile([[(3, 5, 5)], [(4, 4, 5)]]) == (0, (3, 5, 5))
    assert opening_tile([[(0, 0, 0)], [(4, 5, 5)]]) == (0, (0, 0, 0))  # any triple beats any total


def test_opening_with_anything_else_is_refused():
    state = position([["2-2-2", "4-5-5"], ["3-3-3", "1-2-3"]])
    with pytest.raises(IllegalMoveError, match="opens with 3-3-3"):
        state.play("1-2-3@0,0r0")
    with pytest.raises(IllegalMoveError, match="opens"):
        state.play("3-3-3@0,1r0")
    with pytest.raises(IllegalMoveError):
        state.play("draw")
    state.play("3-3-3@0,0r0")
    assert state.current_player() == 0 and state.view(0)["table"][0]["cell"] == [0, 0]


# -- placement --------------------------------------------------------------------------------------


def test_a_new_tile_must_share_a_side():
    """'A new tile has to share a side with one already on the table'"""
    state = position([["4-5-5", "0-0-1"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    cells = {m.cell for m in state.legal_moves()}
    assert cells == set(grid.neighbours((0, 0)))
    # (1,1) touches the 5-5-5 at its corner (1,2) only: not enough
    assert (1, 1) in grid.point_neighbours((0, 0))
    with pytest.raises(IllegalMoveError, match="shares no side"):
        state.play("4-5-5@1,1r1")
    with pytest.raises(IllegalMoveError, match="already holds a tile"):
        state.play("4-5-5@0,0r0")


def test_every_corner_it_touches_must_match():
    """'every corner it touches must match the number already sitting there.'"""
    state = position([["4-5-5", "3-4-5"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    moves = [str(m) for m in state.legal_moves()]
    assert all(m.startswith("4-5-5") for m in moves) and len(moves) == 3  # 3-4-5 has one 5 only
    with pytest.raises(IllegalMoveError, match="meets a 5 on the table, but the tile shows 3"):
        state.play("3-4-5@0,1r0")


def test_point_only_contact_must_match_too():
    """'every corner of the new tile that meets a corner already on the table (along a side or only
    at a point) must show the same number': a mismatch at a point-only contact is refused."""
    state = position([["3-3-5", "3-3-4", "0-0-0"], ["5-5-5"]], table(TABLE_A))
    point_only = (2, 1)
    assert point_only in grid.corners(T) and point_only in grid.corners((1, -1))
    assert (1, -1) in grid.point_neighbours(T) and (1, 2) in grid.neighbours(T)
    assert state.board.pattern(T) == (3, 3, 4)
    # 3-3-5 matches the side it shares with (1,2) (3 and 3) but shows 5 where the table shows 4
    bad = Place(parse_tile("3-3-5"), T, rot_for("3-3-5", (3, 3, 5)))
    assert bad not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="meets a 4 on the table, but the tile shows 5"):
        state.play(bad)
    good = Place(parse_tile("3-3-4"), T, rot_for("3-3-4", T_TILE_A[1]))
    assert good in state.legal_moves()
    assert engine_placements(state) == oracle_placements(state.board.values, state.hands[0])


def test_a_tile_fitting_a_gap_between_three_tiles_is_found():
    state = position([["1-3-4", "5-5-5"], ["0-0-0"]], table(TABLE_A) + [(T_TILE_A[0], T, rot_for(*T_TILE_A))])
    assert all(n in state.board.values for n in grid.neighbours(GAP))
    assert state.board.pattern(GAP) == GAP_TILE_A[1]
    legal = state.legal_moves()
    move = Place(parse_tile("1-3-4"), GAP, rot_for(*GAP_TILE_A))
    assert move in legal
    assert engine_placements(state) == oracle_placements(state.board.values, state.hands[0])
    state.play(move)
    assert GAP not in state.board.frontier and state.board.values[GAP] == (1, 3, 4)


def test_rotated_but_never_mirrored():
    """'A tile may be rotated but never mirrored': the gap reads 2, 1, 0 clockwise, which 0-1-2
    (0, 1, 2 clockwise) matches only mirrored, so it is not offered there in any rotation."""
    state = position([["0-1-2", "5-5-5"], ["0-0-0"]], table(TABLE_B))
    assert state.board.pattern(GAP) == (2, 1, 0)
    assert not [m for m in state.legal_moves() if m.cell == GAP]
    for k in range(3):
        with pytest.raises(IllegalMoveError):
            state.play(Place((0, 1, 2), GAP, k))
    # a mirrored tile would fit: the oracle, told to allow reversed values, finds it
    mirrored = oracle_placements(state.board.values, [(2, 1, 0)])
    assert any(cell == GAP for _, cell, _ in mirrored)
    assert engine_placements(state) == oracle_placements(state.board.values, state.hands[0])


def test_placed_values_are_a_rotation_of_the_ascending_tile():
    for tile in TILES:
        for k in rotations(tile):
            values = corner_values(tile, k)
            assert values in {tile, tile[1:] + tile[:1], tile[2:] + tile[:2]}
            assert values[k] == tile[0]  # rotation k puts the lowest value on corner k
    assert rotations((3, 3, 3)) == (0,) and rotations((3, 3, 4)) == (0, 1, 2)


def test_the_game_marks_the_spots_where_your_tile_fits():
    """'The game marks the spots where your chosen tile fits, and you tap one.' (legal moves list every
    cell and rotation of every tile in hand that fits, and nothing else)"""
    state = position([["4-5-5", "3-5-5", "0-0-0", "1-2-3"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    view = state.view(0)
    assert view["legal_moves"] == [str(m) for m in state.legal_moves()]
    assert sorted(view["legal_moves"]) == sorted(
        f"{t}@{c[0]},{c[1]}r{k}"
        for t in ("3-5-5", "4-5-5")
        for c in grid.neighbours((0, 0))
        for k in [0, 1, 2]
        if state.board.refusal(c, corner_values(parse_tile(t), k)) is None
    )
    assert len(view["legal_moves"]) == 6


def test_builds_on_cells_pointing_up_and_down():
    """'you build outward on a grid of triangles pointing up and down'"""
    state = position([["4-5-5", "3-5-5"], ["1-1-1", "4-4-5"]], [("5-5-5", (0, 0), 0)])
    state.play("4-5-5@0,1r1")
    state.play(next(m for m in state.legal_moves() if m.cell == (0, 2)))
    ups = [item["up"] for item in state.view(0)["table"]]
    assert ups == [True, False, True]


# -- perft: counts of legal placements from fixed positions ----------------------------------------


def _perft(board: Board, tiles, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.placements(tiles):
        nxt = board.copy()
        nxt.place(move.cell, move.values)
        total += _perft(nxt, [t for t in tiles if t != move.tile], depth - 1)
    return total


def _oracle_perft(placed: dict, tiles, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for tile, cell, values in oracle_placements(placed, tiles):
        total += _oracle_perft({**placed, cell: values}, [t for t in tiles if t != tile], depth - 1)
    return total


@pytest.mark.parametrize(
    "opening,counts",
    [
        # 5-5-5: each of its 3 sides takes x-5-5 for x = 0..4 in exactly one rotation: 15
        ((5, 5, 5), [15, 210, 3270]),
        ((0, 1, 2), [9, 108, 1578]),
        ((2, 2, 4), [11, 142, 2120]),
    ],
)
def test_perft_from_an_opening_with_every_other_tile(opening, counts):
    board = Board()
    board.place((0, 0), corner_values(opening, 0))
    rest = [t for t in TILES if t != opening]
    assert [_perft(board, rest, d) for d in (1, 2, 3)] == counts
    assert _oracle_perft({(0, 0): corner_values(opening, 0)}, rest, 2) == counts[1]


def test_perft_from_position_a():
    state = position([[], []], table(TABLE_A))
    rest = [t for t in TILES if t not in {parse_tile(x[0]) for x in TABLE_A}]
    one = _perft(state.board, rest, 1)
    assert one == len(oracle_placements(state.board.values, rest)) == 18
    assert _perft(state.board, rest, 2) == _oracle_perft(dict(state.board.values), rest, 2) == 342


# -- drawing and passing ----------------------------------------------------------------------------


def test_draw_one_at_a_time_at_most_three_then_pass_even_with_stock():
    """'If nothing fits, you draw at most three tiles and then pass, even if the stock isn't empty.'"""
    state = position(
        [["0-0-1", "0-0-2"], ["1-1-1"]], [("5-5-5", (0, 0), 0)], stock=["3-3-4", "0-1-2", "0-0-3", "1-1-2"]
    )
    assert [str(m) for m in state.legal_moves()] == ["draw"]
    with pytest.raises(IllegalMoveError, match="draw from the stock first"):
        state.play("pass")
    for n, drawn in enumerate(["1-1-2", "0-0-3", "0-1-2"]):
        assert state.view(0)["draws_left"] == 3 - n
        state.play("draw")
        assert state.view(0)["hand"][-1] == drawn  # one tile at a time, from the top
    assert state.view(0)["draws_left"] == 0 and state.view(0)["stock"] > 0
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMoveError, match="drawn 3 tiles this turn"):
        state.play("draw")
    state.play("pass")
    assert state.current_player() == 1 and state.view(1)["draws_left"] == 3
    assert state.passes == 0  # a pass with tiles in the stock does not count toward a block
    assert [h["move"] for h in state.view(1)["history"]] == ["5-5-5@0,0r0", "draw", "draw", "draw", "pass"]


def test_play_as_soon_as_a_drawn_tile_fits():
    """'No fit: draw one at a time, at most three, playing as soon as one fits; otherwise pass.'"""
    state = position([["0-0-1"], ["1-1-1"]], [("5-5-5", (0, 0), 0)], stock=["4-5-5", "0-0-3"])
    state.play("draw")
    state.play("draw")
    moves = state.legal_moves()
    assert moves and all(isinstance(m, Place) and m.tile == (4, 5, 5) for m in moves)
    for text in ("draw", "pass"):
        with pytest.raises(IllegalMoveError, match="fits: play it"):
            state.play(text)


def test_no_draw_or_pass_while_a_tile_fits():
    state = position([["4-5-5", "0-0-0"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    assert Draw() not in state.legal_moves() and Pass() not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.play(Draw())


def test_empty_stock_means_pass():
    state = empty_stock_position([["0-0-1"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMoveError, match="stock is empty"):
        state.play("draw")


# -- the end ----------------------------------------------------------------------------------------


def test_last_tile_wins_on_the_spot():
    """'Someone plays their last tile. That player wins on the spot.'"""
    state = position([["4-5-5"], ["1-1-1", "0-0-0"]], [("5-5-5", (0, 0), 0)])
    state.play("4-5-5@0,1r1")
    out = state.outcome()
    assert state.is_over() and state.current_player() is None
    assert out.winners == (0,) and out.termination == "out" and out.scores == (0, 3)
    assert state.legal_moves() == [] and state.view(1)["legal_moves"] == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.play("pass")


def test_blocked_when_everyone_passes_in_a_row_with_the_stock_gone():
    """'The chain jams. With the stock gone, every player passes in a row.'"""
    state = empty_stock_position([["0-0-1"], ["1-1-1"], ["0-1-3"]], [("5-5-5", (0, 0), 0)])
    state.play("pass")
    state.play("pass")
    assert not state.is_over() and state.view(0)["passes"] == 2
    state.play("pass")
    assert state.is_over() and state.outcome().termination == "blocked"


def test_blocked_lowest_pip_total_wins():
    """'Everyone counts the pips left in hand, and the lowest total wins.' (pips = sum of corners)"""
    state = empty_stock_position([["0-0-1", "0-1-1"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    state.play("pass")
    state.play("pass")
    out = state.outcome()
    assert out.scores == (3, 3)
    assert out.winners == (0, 1) and out.is_draw  # 3 and 3: see the tie test below
    state = empty_stock_position([["0-0-1"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    state.play("pass")
    state.play("pass")
    assert state.outcome().winners == (0,) and state.outcome().scores == (1, 3)
    assert state.outcome().placings == (1, 2)


def test_blocked_tie_for_lowest_is_a_draw():
    """'A tie for lowest is a draw.'"""
    state = empty_stock_position([["0-0-2"], ["0-1-1"], ["3-3-3"]], [("5-5-5", (0, 0), 0)])
    for _ in range(3):
        state.play("pass")
    out = state.outcome()
    assert out.is_draw and out.winner is None and out.winners == (0, 1)
    assert out.placings == (1, 1, 3) and out.termination == "blocked" and out.detail == ""


def test_a_placement_resets_the_pass_count():
    state = empty_stock_position([["0-0-1"], ["4-5-5", "1-1-1"]], [("5-5-5", (0, 0), 0)])
    state.play("pass")
    assert state.passes == 1
    state.play("4-5-5@0,1r1")
    assert state.passes == 0 and not state.is_over()


# -- move text --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["2-3-5@4,-1r1", "0-0-0@0,0r0", "1-4-5@-12,33r2", "draw", "pass"])
def test_move_text_round_trips(text):
    move = parse_move(text)
    assert str(move) == text and parse_move(str(move)) == move


def test_move_text_is_forgiving_about_case_and_spaces():
    assert parse_move(" DRAW ") == Draw() and parse_move("2-3-5 @ 4, -1 r1") == Place((2, 3, 5), (4, -1), 1)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "drew",
        "5-3-2@0,0r0",
        "2-3-5@0,0",
        "2-3-5@0,0r3",
        "2-3-6@0,0r0",
        "2-3@0,0r0",
        "2-3-5@a,0r0",
        None,
        5,
    ],
)
def test_bad_move_text_is_a_value_error_and_an_illegal_move(bad):
    with pytest.raises(ValueError):
        parse_move(bad)
    state = new_state(seed=3)
    with pytest.raises(IllegalMoveError):
        state.play(bad)


@pytest.mark.parametrize(
    "bad",
    [
        Place((1, 2), (0, 0), 0),
        Place((5, 5, 5), (0,), 0),
        Place((5, 5, 5), (0, 0), 7),
        Place([5, 5, 5], (0, 0), 0),
        object(),
    ],
)
def test_malformed_move_objects_are_refused(bad):
    state = new_state(seed=3)
    with pytest.raises(IllegalMoveError):
        state.play(bad)


def test_triple_has_only_rotation_zero():
    state = position([["5-5-5", "0-0-0"], ["1-1-1"]], [("4-5-5", (0, 0), 0)])
    assert [str(m) for m in state.legal_moves() if m.tile == (5, 5, 5)] == ["5-5-5@1,0r0"]
    for k in (1, 2):
        with pytest.raises(IllegalMoveError, match="same in every rotation: use r0"):
            state.play(f"5-5-5@1,0r{k}")


def test_you_do_not_hold_that_tile():
    state = position([["4-5-5"], ["3-5-5", "1-1-1"]], [("5-5-5", (0, 0), 0)])
    with pytest.raises(IllegalMoveError, match="do not hold 3-5-5"):
        state.play("3-5-5@0,1r1")


# -- saves ------------------------------------------------------------------------------------------


def test_save_resumes_identically():
    state = new_state(seed=11, players=3)
    for _ in range(10):
        state.play(state.legal_moves()[0])
    data = json.loads(json.dumps(state.to_dict()))
    again = from_dict(data)
    assert again.to_dict() == state.to_dict()
    for _ in range(20):
        if state.is_over():
            break
        move = state.legal_moves()[-1]
        state.play(move)
        again.play(str(move))
    assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(game="dominoes"),
        lambda d: d.update(version=99),
        lambda d: d.update(players=7),
        lambda d: d.pop("hands"),
        lambda d: d["hands"][0].append("0-0-0"),
        lambda d: d["hands"][0].__setitem__(0, "9-9-9"),
        lambda d: d.update(stock="nope"),
        lambda d: d.update(current=5),
        lambda d: d.update(draws_left=-1),
        lambda d: d.update(rng=[1, 2]),
        lambda d: d["table"].append(
            {"tile": d["hands"][0].pop(), "cell": [30, 30], "rotation": 0, "seat": 0}
        ),
        lambda d: d["table"][0].update(cell=[1, 1]),
        lambda d: d["table"][0].update(rotation="x"),
        lambda d: d.update(history=[[0, "nonsense"]]),
        lambda d: d.update(history=[5]),
        lambda d: d.update(history=[]),
        lambda d: d["history"][0].__setitem__(0, 1),
        lambda d: d.update(outcome={"x": 1}),
    ],
)
def test_malformed_saves_raise_value_error(damage):
    state = new_state(seed=4)
    state.play(state.legal_moves()[0])
    data = json.loads(json.dumps(state.to_dict()))
    damage(data)
    with pytest.raises(ValueError):
        GAME.from_dict(data)


def test_from_dict_rejects_non_mappings():
    for bad in (None, [], "x", 3):
        with pytest.raises(ValueError):
            from_dict(bad)
