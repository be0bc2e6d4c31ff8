"""The arena's mixed tables: any mix of levels, every cyclic seating, expert accepted everywhere."""

from __future__ import annotations

import json

import pytest

from boneyard import arena
from boneyard.games import GAMES

TURN_BASED = [gid for gid, info in GAMES.items() if not info.realtime]


def test_cyclic_seatings_count_each_order_once():
    assert arena.cyclic_seatings(["hard", "medium", "easy"]) == [
        ("hard", "medium", "easy"),
        ("hard", "easy", "medium"),
    ]
    assert len(arena.cyclic_seatings(["hard", "medium", "easy", "easy"])) == 3
    assert len(arena.cyclic_seatings(["expert", "hard", "medium", "easy"])) == 6
    assert arena.cyclic_seatings(["hard", "medium"]) == [("hard", "medium")]
    assert arena.cyclic_seatings(["hard", "hard", "hard"]) == [("hard", "hard", "hard")]


def test_seats_take_counts():
    assert arena.parse_seats("hard, easy*3") == ["hard", "easy", "easy", "easy"]
    with pytest.raises(ValueError):
        arena.parse_seats("easy*x")


@pytest.mark.parametrize("game", TURN_BASED)
def test_every_turn_based_game_offers_expert(game):
    assert "expert" in GAMES[game].named_levels
    assert GAMES[game].levels[-1] == "expert"  # weakest first: expert is the strongest


def test_shares_of_a_table_add_up_to_one():
    result = arena.run_arena("dominoes", ["hard", "medium", "easy", "easy"], 40, seed=2)
    assert sum(t.share for t in result.levels.values()) == pytest.approx(40)
    assert result.levels["easy"].games == 80


def test_all_seatings_average_and_check_the_order(capsys):
    args = [
        "--game",
        "dominoes",
        "--seats",
        "hard,medium,easy",
        "--seatings",
        "all",
        "--games",
        "30",
        "--json",
    ]
    assert arena.main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["seats"] for s in data["seatings"]] == [["hard", "medium", "easy"], ["hard", "easy", "medium"]]
    assert list(data["averaged"]) == ["easy", "medium", "hard"]
    assert data["averaged"]["hard"]["games"] == 60
    assert isinstance(data["ordered"], bool) and isinstance(data["inversions"], list)
    assert arena.main(["--game", "dominoes", "--seats", "hard,easy*3", "--players", "4", "--games", "4"]) == 0
    assert "easy" in capsys.readouterr().out


def test_progress_file_holds_the_tally(tmp_path):
    path = tmp_path / "tally.json"
    assert (
        arena.main(["--game", "dominoes", "--seats", "hard,medium", "--games", "6", "--progress", str(path)])
        == 0
    )
    assert json.loads(path.read_text())["games"] == 6


def test_partnership_seatings_keep_partners_opposite():
    seatings = arena.cyclic_seatings(["hard", "easy", "medium", "easy"], teams=True)
    assert seatings == [("hard", "easy", "medium", "easy")]  # the other side's order is the same
    seatings = arena.cyclic_seatings(["hard", "medium", "easy", "easy"], teams=True)
    assert seatings == [("hard", "medium", "easy", "easy"), ("hard", "easy", "easy", "medium")]
    for order in seatings:
        assert {order[0], order[2]} == {"hard", "easy"}  # hard's partner is still easy
    assert arena.side_names(["hard", "medium", "hard", "medium"], GAMES["dominoes"].levels) == (
        "hard+hard",
        "medium+medium",
    )
    assert arena.side_names(["easy", "medium", "hard", "medium"], GAMES["dominoes"].levels) == (
        "hard+easy",
        "medium+medium",
    )
    assert arena.side_names(["hard", "easy", "easy", "hard"], GAMES["dominoes"].levels)[1] == "hard+easy (2)"


def test_partnership_arena_reports_a_row_a_side(capsys):
    args = ["--game", "dominoes", "--seats", "hard,easy,hard,easy", "--games", "24", "--json"]
    args += ["--option", "teams=true", "--option", "scoring=fives"]
    assert arena.main(args) == 0
    data = json.loads(capsys.readouterr().out)
    sides = data["sides"]
    assert set(sides) == {"hard+hard", "easy+easy"}
    assert sides["hard+hard"]["games"] == sides["easy+easy"]["games"] == 24  # a game once, not a seat
    # A side wins exactly when its partners do (the level rows count each partner).
    assert sides["hard+hard"]["wins"] * 2 == data["levels"]["hard"]["wins"]
    assert sides["hard+hard"]["wins"] + sides["easy+easy"]["wins"] + sides["easy+easy"]["draws"] == 24
    assert "sides" not in arena.run_arena("dominoes", ["hard", "easy"], 4, seed=1).to_json()
    text = arena.format_result(
        arena.run_arena("dominoes", ["hard", "easy"] * 2, 4, seed=1, options={"teams": True})
    )
    assert "hard+hard" in text and "easy+easy" in text
