"""The arena's seatings and its order checks (levels, and sides with partners)."""

from __future__ import annotations

from boneyard.arena import (
    ArenaResult,
    LevelResult,
    SeatingsResult,
    cyclic_seatings,
    dominates,
    parse_seats,
    run_seatings,
)

ORDER = ("easy", "medium", "hard")


def tally(wins: int, games: int) -> LevelResult:
    """Return a level's tally with ``wins`` whole wins (its share) over ``games``."""
    return LevelResult(games=games, wins=wins, share=float(wins))


def test_cyclic_seatings_count_each_rotation_once():
    assert cyclic_seatings(["hard", "medium", "easy"]) == [
        ("hard", "medium", "easy"),
        ("hard", "easy", "medium"),
    ]
    assert len(cyclic_seatings(["hard", "medium", "easy", "easy"])) == 3
    assert cyclic_seatings(["hard", "medium", "medium", "medium"]) == [("hard", "medium", "medium", "medium")]
    partners = cyclic_seatings(["hard", "medium", "easy", "easy"], teams=True)
    assert partners == [("hard", "medium", "easy", "easy"), ("hard", "easy", "easy", "medium")]


def test_parse_seats_expands_counts():
    assert parse_seats("hard, easy*3") == ["hard", "easy", "easy", "easy"]


def test_dominates_seat_for_seat():
    assert dominates([2, 0], [1, 0])  # hard+easy over medium+easy
    assert dominates([2, 2], [1, 1])
    assert not dominates([2, 0], [1, 1])  # hard+easy against medium+medium: no claim
    assert not dominates([1, 0], [1, 0])


def test_levels_are_ordered_when_each_interval_is_above_the_next_weaker():
    seating = ArenaResult("dominoes", 3000, 1.0, seats=("hard", "medium", "easy"))
    seating.levels = {"hard": tally(1300, 3000), "medium": tally(1000, 3000), "easy": tally(700, 3000)}
    result = SeatingsResult("dominoes", ORDER, [seating])
    assert result.ordered() and result.inversions() == []
    seating.levels["medium"] = tally(1290, 3000)  # touches hard's interval
    assert not result.ordered()
    seating.levels["medium"] = tally(1500, 3000)  # significantly above hard
    assert result.inversions() == [(("hard", "medium", "easy"), "hard", "medium")]


def test_partnerships_are_ordered_by_their_sides():
    """Easy on both sides shares both sides' results: the level rows say nothing, the sides do."""
    seating = ArenaResult("dominoes", 4000, 1.0, seats=("hard", "medium", "easy", "easy"))
    seating.levels = {"hard": tally(2100, 4000), "medium": tally(1900, 4000), "easy": tally(4000, 8000)}
    seating.sides = {"hard+easy": tally(2200, 4000), "medium+easy": tally(1800, 4000)}
    result = SeatingsResult("dominoes", ORDER, [seating])
    assert result.ordered() and result.inversions() == []
    seating.sides = {"hard+easy": tally(1700, 4000), "medium+easy": tally(2300, 4000)}
    assert not result.ordered()
    assert result.inversions() == [(("hard", "medium", "easy", "easy"), "hard+easy", "medium+easy")]


def test_run_seatings_plays_every_seating_with_the_same_seeds():
    result = run_seatings("dominoes", ["hard", "medium", "easy"], 20, seed=3)
    assert [r.seats for r in result.seatings] == cyclic_seatings(["hard", "medium", "easy"])
    assert all(r.games == 20 for r in result.seatings)
    averaged = result.averaged()
    assert list(averaged) == ["easy", "medium", "hard"]
    assert abs(sum(t.share for t in averaged.values()) - 40) < 1e-9
    again = run_seatings("dominoes", ["hard", "medium", "easy"], 20, seed=3).averaged()
    assert [(t.wins, t.draws, t.share) for t in again.values()] == [
        (t.wins, t.draws, t.share) for t in averaged.values()
    ]
