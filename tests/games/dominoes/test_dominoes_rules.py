"""Rules of the dominoes engine, one behaviour a test, from fixed positions and seeded deals."""

from __future__ import annotations

import json

import pytest
from dominoes_helpers import moves_text, position

from boneyard.core import IllegalMoveError, Termination
from boneyard.games import GAMES
from boneyard.games.dominoes import GAME, MODES
from boneyard.games.dominoes.rules import (
    DRAW_MOVE,
    PASS_MOVE,
    TILES,
    Move,
    MoveKind,
    from_dict,
    mask_tiles,
    new_state,
    parse_move,
)

# -- registration, options, modes -----------------------------------------------------------------


def test_registered_with_options_and_levels():
    assert GAMES["dominoes"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert [o.name for o in GAME.options] == ["players", "hand_size", "draw", "target", "scoring", "teams"]
    assert GAME.levels == ("random", "easy", "medium", "hard", "expert")
    defaults = {o.name: o.default for o in GAME.options}
    assert defaults == {
        "players": 2,
        "hand_size": None,
        "draw": True,
        "target": None,
        "scoring": "pips",
        "teams": False,
    }


def test_option_parse_from_command_line():
    opts = {o.name: o for o in GAME.options}
    assert opts["draw"].parse("false") is False
    assert opts["target"].parse("100") == 100
    assert opts["target"].parse("none") is None
    assert opts["hand_size"].parse("7") == 7
    with pytest.raises(ValueError):
        opts["players"].parse("5")


def test_modes_table_names_the_five_matches_and_classic():
    assert list(MODES) == [
        "2 players, to 100",
        "2 players, to 50",
        "2 players, block (no drawing)",
        "3 players, to 100",
        "4 players, to 100",
        "Classic (single round)",
    ]
    assert MODES["2 players, to 50"]["target"] == 50
    assert MODES["2 players, block (no drawing)"]["draw"] is False
    assert MODES["Classic (single round)"]["target"] is None
    for options in MODES.values():
        state = GAME.new_state(seed=1, **options)
        assert state.view(0)["options"]["players"] == options["players"]


@pytest.mark.parametrize("players,size", [(2, 7), (3, 5), (4, 5)])
def test_default_hand_size(players, size):
    state = new_state(seed=3, players=players)
    view = state.view(0)
    assert view["options"]["hand_size"] == size
    assert sum(view["hand_counts"]) + view["stock"] == 28


def test_other_combinations_such_as_four_player_block_game_with_seven_each():
    state = new_state(seed=5, players=4, hand_size=7, draw=False)
    assert state.view(0)["stock"] == 0
    assert state.view(0)["hand_counts"] == [7, 7, 7, 7]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"players": 4, "hand_size": 8},
        {"hand_size": 0},
        {"draw": "yes"},
        {"target": 0},
        {"target": -50},
        {"colour": "red"},
    ],
)
def test_bad_options_raise_value_error(options):
    with pytest.raises(ValueError):
        new_state(seed=1, **options)


# -- move text ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["6-4", "6-4:L", "6-4:R", "0-0:L", "draw", "pass", "5-5"])
def test_move_text_round_trips(text):
    move = parse_move(text)
    assert str(move) == text
    assert parse_move(str(move)) == move


def test_move_text_is_forgiving_about_order_and_case():
    assert parse_move("4-6:l") == Move.lay((6, 4), "L")
    assert parse_move(" DRAW ") == DRAW_MOVE


@pytest.mark.parametrize("text", ["", "6", "6-", "7-1", "6-4:X", "6-4:", "a-b", "draws", "6-4-1", "6-4:LR"])
def test_bad_move_text_raises_value_error(text):
    with pytest.raises(ValueError):
        parse_move(text)


@pytest.mark.parametrize(
    "bad", ["", "7-7", "6-4:Q", "hello", 42, None, ("6", "4"), Move(MoveKind.LAY, (9, 9), "L")]
)
def test_play_refuses_malformed_moves_with_illegal_move_error(bad):
    state = new_state(seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalMoveError):
        state.play(bad)
    assert state.to_dict() == before


# -- opening -----------------------------------------------------------------------------------------


def _highest_double_dealt(state):
    dealt = [TILES[t] for h in state.table.hands for t in mask_tiles(h)]
    doubles = sorted((t for t in dealt if t[0] == t[1]), reverse=True)
    return doubles[0] if doubles else None


def test_holder_of_highest_double_must_lay_it():
    checked = 0
    for seed in range(200):
        state = new_state(seed=seed, players=3)
        double = _highest_double_dealt(state)
        if double is None:
            continue
        seat = state.current_player()
        assert TILES.index(double) in mask_tiles(state.table.hands[seat])
        assert moves_text(state) == [f"{double[0]}-{double[1]}"]
        other = next(
            str(Move.lay(TILES[t])) for t in mask_tiles(state.table.hands[seat]) if TILES[t] != double
        )
        with pytest.raises(IllegalMoveError, match="opens with"):
            state.play(other)
        checked += 1
    assert checked > 150


def test_with_no_double_dealt_the_heaviest_tile_opens_ties_to_the_higher_end():
    tie_seen = False
    checked = 0
    for seed in range(3000):
        state = new_state(seed=seed, players=2, hand_size=2)
        if _highest_double_dealt(state) is not None:
            continue
        dealt = [TILES[t] for h in state.table.hands for t in mask_tiles(h)]
        best = max(dealt, key=lambda t: (t[0] + t[1], t[0]))
        assert moves_text(state) == [f"{best[0]}-{best[1]}"]
        assert TILES.index(best) in mask_tiles(state.table.hands[state.current_player()])
        same = [t for t in dealt if t != best and sum(t) == sum(best)]
        tie_seen = tie_seen or bool(same)
        checked += 1
    assert checked > 100 and tie_seen


def test_opening_lay_starts_the_line_and_play_passes_to_the_next_seat():
    state = new_state(seed=2, players=4)
    opener = state.current_player()
    move = state.legal_moves()[0]
    state.play(move)
    assert state.view(0)["line"] == [{"tile": list(move.tile), "double": move.tile[0] == move.tile[1]}]
    assert state.view(0)["open_ends"] == list(move.tile)
    assert state.current_player() == (opener + 1) % 4


def test_opening_with_an_end_is_refused():
    state = new_state(seed=2)
    tile = state.legal_moves()[0].tile
    with pytest.raises(IllegalMoveError, match="no end"):
        state.play(Move.lay(tile, "L"))


# -- laying ------------------------------------------------------------------------------------------


def test_a_lay_at_an_end_shows_the_tiles_other_half():
    """Put a 4-2 against a 4, for example, and that end now shows a 2."""
    state = position([["4-2", "1-1"], ["0-0", "3-0"]], line=[(6, 4)])
    state.play("4-2:R")
    assert state.view(0)["open_ends"] == [6, 2]
    assert state.view(0)["line"][-1] == {"tile": [4, 2], "double": False}


def test_left_lays_are_oriented_to_read_left_to_right():
    state = position([["6-2", "1-1"], ["0-0", "3-0"]], line=[(6, 4)])
    state.play("6-2:L")
    assert [p["tile"] for p in state.view(1)["line"]] == [[2, 6], [6, 4]]
    assert state.view(1)["open_ends"] == [2, 4]


def test_a_tile_fitting_both_ends_differently_gives_two_moves():
    state = position([["6-3", "1-1"], ["0-0", "2-0"]], line=[(6, 5), (5, 3)])
    assert sorted(moves_text(state)) == ["6-3:L", "6-3:R"]
    left = state.clone()
    left.play("6-3:L")
    right = state.clone()
    right.play("6-3:R")
    assert left.view(0)["open_ends"] == [3, 3]
    assert right.view(0)["open_ends"] == [6, 6]


def test_both_ends_showing_one_number_list_one_move_per_tile():
    state = position([["4-1", "4-4", "2-2"], ["0-0", "2-0"]], line=[(4, 5), (5, 4)])
    assert sorted(moves_text(state)) == ["4-1:L", "4-4:L"]
    alias = state.clone()
    alias.play("4-1:R")  # the same play at the other end is accepted too
    state.play("4-1:L")
    assert alias.view(0)["open_ends"] == [4, 1]
    assert state.view(0)["open_ends"] == [1, 4]


def test_laying_a_tile_that_does_not_match_is_refused():
    state = position([["4-2", "1-1"], ["0-0", "3-0"]], line=[(6, 4)])
    with pytest.raises(IllegalMoveError, match="does not match the left end"):
        state.play("4-2:L")
    with pytest.raises(IllegalMoveError, match="don't hold"):
        state.play("0-0:R")
    with pytest.raises(IllegalMoveError, match="which end"):
        state.play("4-2")


# -- draw and pass -----------------------------------------------------------------------------------


def test_no_fit_with_stock_means_draw_only_and_the_drawer_keeps_the_turn():
    state = position([["1-1", "0-0"], ["2-2", "3-2"]], line=[(6, 5)], stock=["4-4", "6-1", "5-3"])
    assert moves_text(state) == ["draw"]
    with pytest.raises(IllegalMoveError, match="can't pass"):
        state.play("pass")
    state.play("draw")  # draws 5-3: it fits the right end
    assert state.current_player() == 0
    assert sorted(moves_text(state)) == ["5-3:R"]
    with pytest.raises(IllegalMoveError, match="draw only when"):
        state.play("draw")
    with pytest.raises(IllegalMoveError):
        state.play("pass")


def test_drawing_goes_on_one_tile_at_a_time_until_one_fits():
    state = position([["1-1", "0-0"], ["2-2", "3-2"]], line=[(6, 5)], stock=["6-1", "4-4", "4-0"])
    state.play("draw")  # 4-0 does not fit
    assert moves_text(state) == ["draw"]
    state.play("draw")  # 4-4 does not fit
    assert moves_text(state) == ["draw"]
    state.play("draw")  # 6-1 fits the left end
    assert moves_text(state) == ["6-1:L"]
    assert state.view(0)["hand_counts"] == [5, 2]
    assert [e["move"] for e in state.view(1)["history"]] == ["draw", "draw", "draw"]


def test_draws_are_public_only_as_a_count_never_which_tile():
    state = position([["1-1", "0-0"], ["2-2", "3-2"]], line=[(6, 5)], stock=["6-1", "4-4", "4-0"])
    state.play("draw")
    other = state.view(1)
    assert other["history"] == [{"seat": 0, "move": "draw", "ends": [6, 5]}]
    assert "4-0" not in json.dumps(other) and [4, 0] not in other["hand"]


def test_boneyard_empty_and_nothing_fits_means_pass():
    state = position([["1-1", "0-0"], ["2-2", "3-2"]], line=[(6, 5)], stock=[])
    assert moves_text(state) == ["pass"]
    with pytest.raises(IllegalMoveError, match="boneyard is empty"):
        state.play("draw")
    state.play("pass")
    assert state.current_player() == 1
    assert state.view(0)["history"][-1] == {"seat": 0, "move": "pass", "ends": [6, 5]}


def test_no_passing_while_a_tile_fits():
    state = position([["5-1", "0-0"], ["2-2", "3-2"]], line=[(6, 5)], stock=[])
    assert moves_text(state) == ["5-1:R"]
    with pytest.raises(IllegalMoveError, match="can't pass while a tile"):
        state.play("pass")


def test_block_game_has_no_drawing_you_pass():
    state = position([["1-1", "0-0"], ["2-2", "3-2"]], line=[(6, 5)], draw=False, stock=["6-1", "4-4"])
    assert moves_text(state) == ["pass"]
    with pytest.raises(IllegalMoveError, match="block game"):
        state.play(DRAW_MOVE)
    state.play(PASS_MOVE)
    assert state.current_player() == 1


# -- the end of a hand: single round -----------------------------------------------------------------


def test_playing_the_last_tile_wins_the_round_on_the_spot():
    state = position([["5-1"], ["2-2", "3-2"], ["0-0"]], line=[(6, 5)])
    state.play("5-1:R")
    assert state.is_over() and state.current_player() is None
    outcome = state.outcome()
    assert outcome.winner == 0 and outcome.termination == "out"
    assert state.legal_moves() == [] and state.view(0)["legal_moves"] == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.play("pass")


def test_blocked_when_every_player_in_turn_has_passed_lowest_total_wins():
    state = position([["1-1", "0-0"], ["2-2", "3-2"], ["4-4"]], line=[(6, 5)], stock=[])
    state.play("pass")
    state.play("pass")
    assert not state.is_over()
    state.play("pass")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.termination == "blocked"
    assert outcome.winner == 0  # 2 pips against 9 and 8
    assert state.hand_results[-1]["pips"] == [2, 9, 8]


def test_blocked_with_a_tie_for_lowest_is_a_draw():
    state = position([["1-1", "0-0"], ["2-0"], ["4-4"]], line=[(6, 5)], stock=[])
    for _ in range(3):
        state.play("pass")
    outcome = state.outcome()
    assert outcome.is_draw and set(outcome.winners) == {0, 1}
    assert outcome.termination is Termination.BLOCKED and outcome.detail == ""


def test_single_round_carries_no_score():
    state = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)])
    state.play("5-1:R")
    view = state.view(1)
    assert view["scores"] is None and view["target"] is None
    assert view["hand_results"][-1]["points"] == 0
    assert view["outcome"]["winners"] == [0]


# -- matches -------------------------------------------------------------------------------------------


def test_match_out_scores_the_pips_left_in_all_opponents_hands_and_deals_the_next_hand():
    state = position([["5-1"], ["2-2", "3-2"], ["6-6"]], line=[(6, 5)], target=100, scores=[10, 0, 0])
    state.play("5-1:R")
    assert not state.is_over()
    assert state.scores == [10 + 9 + 12, 0, 0]
    result = state.hand_results[-1]
    assert result["winner"] == 0 and result["ended"] == "out" and result["points"] == 21
    assert result["hands"] == [[], [[3, 2], [2, 2]], [[6, 6]]]
    assert state.hand_number == 2 and state.history == []
    # the last hand's winner opens the next hand, with any tile
    assert state.current_player() == 0
    assert sorted(moves_text(state)) == sorted(
        f"{TILES[t][0]}-{TILES[t][1]}" for t in mask_tiles(state.table.hands[0])
    )
    assert len(moves_text(state)) == 5


def test_match_blocked_lowest_total_scores_the_pips_of_all_the_others():
    state = position([["1-1", "0-0"], ["2-2", "3-2"], ["4-4"]], line=[(6, 5)], stock=[], target=100)
    for _ in range(3):
        state.play("pass")
    assert state.scores == [9 + 8, 0, 0]
    assert state.hand_results[-1]["points"] == 17 and state.hand_results[-1]["ended"] == "blocked"
    assert state.current_player() == 0  # the winner opens


def test_match_blocked_tie_for_lowest_scores_nothing_and_highest_double_opens_again():
    state = position([["1-1", "0-0"], ["2-0"], ["4-4"]], line=[(6, 5)], stock=[], target=100)
    for _ in range(3):
        state.play("pass")
    assert state.scores == [0, 0, 0]
    assert state.hand_results[-1]["winner"] is None and state.hand_results[-1]["tied"] == [0, 1]
    assert len(state.legal_moves()) == 1  # the highest-double (or heaviest tile) rule is back
    dealt = [TILES[t] for h in state.table.hands for t in mask_tiles(h)]
    doubles = sorted((t for t in dealt if t[0] == t[1]), reverse=True)
    best = doubles[0] if doubles else max(dealt, key=lambda t: (sum(t), t[0]))
    assert state.legal_moves()[0].tile == best


def test_match_is_won_by_the_first_to_reach_the_target_at_the_end_of_a_hand():
    state = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)], target=50, scores=[41, 49])
    state.play("5-1:R")
    assert state.is_over() and state.scores == [50, 49]
    outcome = state.outcome()
    assert outcome.winner == 0 and outcome.termination == "target"
    assert outcome.scores == (50, 49) and outcome.placings == (1, 2)


def test_match_short_of_the_target_plays_on_with_the_next_hand():
    state = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)], target=50, scores=[40, 49])
    state.play("5-1:R")
    assert state.scores == [49, 49]
    assert not state.is_over() and state.hand_number == 2
    assert state.view(1)["hand_results"][-1]["scores"] == [49, 49]


def test_a_full_seeded_match_ends_with_a_winner_over_the_target():
    import random

    from boneyard.games.dominoes.bots import medium_bot

    for target in (50, 100):
        state = new_state(seed=target, players=3, target=target)
        rng = random.Random(1)
        hands = 0
        while not state.is_over():
            before = len(state.hand_results)
            state.play(medium_bot(state.view(state.current_player()), rng))
            hands += len(state.hand_results) - before
        assert max(state.scores) >= target
        assert state.outcome().winner == state.scores.index(max(state.scores))
        assert hands == len(state.hand_results) == state.hand_number
        assert sum(r["points"] for r in state.hand_results) == sum(state.scores)


# -- view ----------------------------------------------------------------------------------------------


def test_view_has_every_key_the_screen_needs_and_is_json_ready():
    state = new_state(seed=9, players=3, target=100)
    seat = state.current_player()
    view = state.view(seat)
    assert set(view) == {
        "game",
        "seat",
        "players",
        "options",
        "target",
        "hand_number",
        "line",
        "open_ends",
        "hand",
        "pips",
        "hand_counts",
        "stock",
        "turn",
        "turn_number",
        "opening",
        "history",
        "scores",
        "hand_results",
        "over",
        "outcome",
        "legal_moves",
        "partner",
        "sides",
        "count",
        "layout",
    }
    assert json.loads(json.dumps(view)) == view
    assert view["turn"] == seat and view["opening"] is True and view["open_ends"] is None
    assert view["legal_moves"] and state.view((seat + 1) % 3)["legal_moves"] == []
    assert view["scores"] == [0, 0, 0] and view["target"] == 100


def test_view_hand_is_sorted_heaviest_first():
    state = position([["0-0", "6-6", "3-1", "6-2"], ["1-0"]], line=[(5, 5)])
    assert state.view(0)["hand"] == [[6, 6], [6, 2], [3, 1], [0, 0]]


def test_view_of_a_missing_seat_raises_value_error():
    with pytest.raises(ValueError):
        new_state(seed=1).view(2)


# -- saving ------------------------------------------------------------------------------------------


def test_to_dict_from_dict_round_trip_through_json():
    state = new_state(seed=4, players=3, target=50)
    for _ in range(10):
        state.play(state.legal_moves()[0])
    data = json.loads(json.dumps(state.to_dict()))
    restored = GAME.from_dict(data)
    assert restored.to_dict() == state.to_dict()
    for _ in range(200):
        if state.is_over():
            break
        move = state.legal_moves()[-1]
        state.play(move)
        restored.play(str(move))
        assert restored.to_dict() == state.to_dict()


def _corrupt(path, value):
    data = new_state(seed=4).to_dict()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "path,value",
    [
        (("game",), "chess"),
        (("version",), 99),
        (("options",), {"players": 9}),
        (("options",), "x"),
        (("rng",), [1, 2]),
        (("scores",), [0]),
        (("table",), KeyError),
        (("table", "hands"), [["6-6"], ["6-6"]]),
        (("table", "hands"), [["9-9"], []]),
        (("table", "stock"), ["nonsense"]),
        (("table", "turn"), 5),
        (("table", "line"), [[6, 6], [5, 5]]),
        (("table", "line"), "6-6"),
        (("history",), [{"seat": 7, "move": "pass"}]),
        (("hand_results",), [{"ended": "???"}]),
        (("outcome",), {"bad": 1}),
    ],
)
def test_from_dict_refuses_a_malformed_save_with_value_error(path, value):
    with pytest.raises(ValueError, match="bad dominoes save"):
        from_dict(_corrupt(path, value))


def test_from_dict_refuses_non_objects():
    for bad in (None, [], "x", 3):
        with pytest.raises(ValueError):
            from_dict(bad)
