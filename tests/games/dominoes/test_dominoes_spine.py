"""Dominoes on the shared spine: undo, turn numbers, older saves, structured endings and sample()."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from dominoes_helpers import position

from boneyard.core import Termination
from boneyard.games import GAMES
from boneyard.games.dominoes.rules import TILE_ID, TILES, DominoesState, from_dict, mask_tiles, new_state
from boneyard.games.dominoes.sample import sample

SAVES = sorted((Path(__file__).resolve().parents[2] / "data" / "saves").glob("dominoes-v1-*.json"))
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 4, "draw": False, "hand_size": 7},
    {"players": 2, "target": 50},
    {"players": 4, "target": 100},
    {"players": 3, "draw": False, "target": 50},
]


def random_move(state: DominoesState, rng: random.Random) -> Any:
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


def tile(pair: list[int]) -> int:
    return TILE_ID[(max(pair), min(pair))]


# -- undo ------------------------------------------------------------------------------------------


def snapshot(state: DominoesState, full: bool) -> Any:
    """Return the whole state: its save when ``full``, else the same facts as plain values (cheaper)."""
    if full:
        return state.to_dict()
    t = state.table
    return (
        tuple(t.hands),
        tuple(t.stock),
        tuple(t.line),
        t.left,
        t.right,
        t.turn,
        t.passes,
        t.opening_tile,
        t.ended,
        t.winner,
        tuple(e[:4] for e in state._events),
        tuple(state.scores),
        state.hand_number,
        len(state.hand_results),
        state.outcome(),
        state.turn_number,
        state.rng.getstate(),
    )


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"
)
def test_undo_restores_every_step_exactly_and_play_goes_on_identically(options):
    # Thousands of games in all: every step compared in full (the save and the view) in one game of ten,
    # as plain values in the others; each game is also taken back whole and replayed.
    games = 250 if options.get("target") is None else 30
    master = random.Random(len(options) * 31 + sum(map(hash, map(str, options.items()))) % 1000)
    for index in range(games):
        full = index % 10 == 0
        seed = master.getrandbits(32)
        state = new_state(seed=seed, **options)
        rng = random.Random(seed)
        assert not state.can_undo()
        start = state.to_dict()
        played = []
        while not state.is_over():
            before = snapshot(state, full)
            legal = state.legal_moves()
            seat = state.current_player()
            view = state.view(seat) if full else None
            move = legal[rng.randrange(len(legal))]
            state.play(move)
            after = snapshot(state, full)
            assert state.can_undo()
            state.undo()
            assert snapshot(state, full) == before
            assert state.legal_moves() == legal
            if full:
                assert state.view(seat) == view
            state.play(str(move) if full else move)  # text replays as the move did
            assert snapshot(state, full) == after
            played.append(move)
        final = state.to_dict()
        while state.can_undo():
            state.undo()
        assert state.to_dict() == start and state.turn_number == 0
        with pytest.raises(IndexError):
            state.undo()
        for move in played:
            state.play(move)
        assert state.to_dict() == final


def test_undo_takes_back_the_end_of_a_hand_and_the_new_deal_and_the_end_of_the_game():
    # A match hand that ends (scores, next deal from the generator), then the game's end.
    state = position([["5-1"], ["2-2", "3-2"], ["6-6"]], line=[(6, 5)], target=30, scores=[10, 0, 0])
    before = state.to_dict()
    state.play("5-1:R")
    assert state.hand_number == 1 and state.scores == [31, 0, 0] and state.is_over()
    assert state.outcome().termination is Termination.TARGET
    state.undo()
    assert state.to_dict() == before and not state.is_over() and state.hand_results == []
    state = position([["5-1"], ["2-2", "3-2"], ["6-6"]], line=[(6, 5)], target=100, scores=[10, 0, 0])
    before = state.to_dict()
    state.play("5-1:R")
    dealt = state.to_dict()
    assert state.hand_number == 2 and state.history == []
    state.undo()
    assert state.to_dict() == before
    state.play("5-1:R")
    assert state.to_dict() == dealt  # the generator was wound back: the same next deal


def test_a_clone_and_its_original_take_back_a_hand_end_independently():
    state = position([["5-1"], ["2-2", "3-2"], ["6-6"]], line=[(6, 5)], target=100)
    before = state.to_dict()
    state.play("5-1:R")
    twin = state.clone()
    state.undo()
    state.play("5-1:R")
    state.play(state.legal_moves()[0])
    twin.undo()
    assert twin.to_dict() == before
    twin.play("5-1:R")
    state.undo()
    assert twin.to_dict() == state.to_dict()


def test_a_loaded_state_cannot_take_back_moves_made_before_the_save():
    state = new_state(seed=4)
    state.play(state.legal_moves()[0])
    loaded = from_dict(json.loads(json.dumps(state.to_dict())))
    assert state.can_undo() and not loaded.can_undo()
    loaded.play(loaded.legal_moves()[0])
    loaded.undo()
    assert not loaded.can_undo()


def test_a_refused_move_changes_nothing_and_keeps_the_cached_legal_moves_right():
    state = position([["6-4", "1-1"], ["2-2"]], line=[(6, 5)])
    legal = state.legal_moves()
    before = state.to_dict()
    for bad in ("1-1:L", "draw", "pass", "2-2:R", "6-4", "junk"):
        with pytest.raises(ValueError):
            state.play(bad)
    assert state.to_dict() == before and state.legal_moves() == legal
    legal.clear()  # the caller's list: the state keeps its own
    assert [str(m) for m in state.legal_moves()] == ["6-4:L"]


# -- turn numbers and older saves --------------------------------------------------------------------


def test_turn_number_counts_every_move_and_is_saved():
    state = new_state(seed=8, players=3, target=50)
    rng = random.Random(8)
    moves = 0
    while not state.is_over():
        state.play(random_move(state, rng))
        moves += 1
        assert state.turn_number == moves == state.view(0)["turn_number"]
    saved = state.to_dict()
    assert saved["turn_number"] == moves and from_dict(saved).turn_number == moves


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_saves_written_before_the_spine_still_load_and_play_on(path):
    data = json.loads(path.read_text())
    assert "turn_number" not in data
    state = from_dict(data)
    saved = state.to_dict()
    assert saved["turn_number"] >= len(data["history"])
    assert {k: v for k, v in saved.items() if k != "turn_number"} == data
    for seat in range(state.players):
        view = state.view(seat)
        assert view["turn_number"] == saved["turn_number"]
    was_over = state.is_over()
    rng = random.Random(1)
    while not state.is_over():
        state.play(random_move(state, rng))
    assert was_over or state.outcome().detail == ""  # an older finished save keeps its sentence


def test_a_round_from_an_older_save_derives_its_turn_number_from_its_history():
    data = json.loads(next(p for p in SAVES if "round-midgame" in p.name).read_text())
    assert from_dict(data).turn_number == len(data["history"])


# -- endings as facts --------------------------------------------------------------------------------


def test_endings_say_how_they_ended_and_leave_the_words_to_the_screen():
    out = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)])
    out.play("5-1:R")
    assert out.outcome().termination is Termination.OUT and out.outcome().detail == ""
    blocked = position([["1-1"], ["2-0", "4-4"]], line=[(6, 5)], stock=[], draw=False)
    blocked.play("pass")
    blocked.play("pass")
    assert blocked.outcome().termination is Termination.BLOCKED and blocked.outcome().winners == (0,)
    assert blocked.view(1)["outcome"]["termination"] == "blocked"


# -- sample() ----------------------------------------------------------------------------------------


def positions(options: dict[str, Any], games: int, seed: int, every: int = 1):
    """Yield (state, seat) at every ``every``-th position of seeded random games, for every seat."""
    master = random.Random(seed)
    for _ in range(games):
        state = new_state(seed=master.getrandbits(32), **options)
        rng = random.Random(master.getrandbits(32))
        k = 0
        while True:
            if k % every == 0:
                for seat in range(state.players):
                    yield state, seat
            if state.is_over():
                break
            state.play(random_move(state, rng))
            k += 1


def proven_voids(view: dict[str, Any]) -> dict[int, set[int]]:
    """Return the numbers each seat cannot hold: those it passed on (or drew on), unless it drew since.

    A draw brings a tile that may show them: the ends of a draw count once the seat has moved on
    (laid the tile drawn, or passed) without drawing again.
    """
    voids: dict[int, set[int]] = {}
    history = view["history"]
    for i, event in enumerate(history):
        if event["move"] not in ("draw", "pass"):
            continue
        if event["move"] == "draw" and not any(e["seat"] == event["seat"] for e in history[i + 1 :]):
            continue
        seat = event["seat"]
        if any(e["seat"] == seat and e["move"] == "draw" for e in history[i + 1 :]):
            continue
        voids.setdefault(seat, set()).update(event["ends"])
    return voids


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"
)
def test_a_sample_shows_the_seat_exactly_its_view_and_breaks_no_proven_void(options):
    count = 0
    games = 6 if options.get("target") is None else 1
    for state, seat in positions(options, games, seed=len(options) * 7 + 1, every=2):
        view = state.view(seat)
        rng = random.Random(count)
        sampled = sample(view, rng)
        count += 1
        seen = sampled.view(seat)
        assert seen == view, sorted(k for k in view if seen.get(k) != view.get(k))
        assert from_dict(json.loads(json.dumps(sampled.to_dict()))).to_dict() == sampled.to_dict()
        again = sample(view, random.Random(count - 1))
        assert again.to_dict() == sampled.to_dict()
        for other, void in proven_voids(view).items():
            if other == seat:
                continue
            for t in mask_tiles(sampled.table.hands[other]):
                assert not set(TILES[t]) & void, (other, TILES[t], void)
        if not sampled.is_over():  # a sample plays on like any state
            legal = sampled.legal_moves()
            sampled.play(legal[0])
    assert count > 30


def test_samples_put_every_unseen_tile_in_every_place_it_may_be():
    # Block game: no draws, so a seat that passed holds nothing with the ends it passed on, for good.
    checked = 0
    master = random.Random(5)
    while checked < 6:
        state = new_state(seed=master.getrandbits(32), players=3, draw=False, hand_size=5)
        rng = random.Random(1)
        while not state.is_over() and not any(e["move"] == "pass" for e in state.history):
            state.play(random_move(state, rng))
        if state.is_over() or len(state.history) > 8:
            continue
        seat = state.current_player()
        view = state.view(seat)
        voids = proven_voids(view)
        unseen = set(range(28)) - {tile(t) for t in view["hand"]} - {tile(p["tile"]) for p in view["line"]}
        allowed = set()
        for t in unseen:
            numbers = set(TILES[t])
            for other in range(3):
                if other != seat and not numbers & voids.get(other, set()):
                    allowed.add((t, other))
            allowed.add((t, "stock"))
        found = set()
        for r in range(400):
            sampled = sample(view, random.Random(r))
            table = sampled.table
            for t in unseen:
                place = next((o for o in range(3) if o != seat and table.hands[o] >> t & 1), "stock")
                assert (t, place) in allowed, (t, place, voids)
                found.add((t, place))
        assert found == allowed
        checked += 1


def test_the_opener_of_a_rule_opened_hand_holds_the_highest_tile_dealt_in_every_sample():
    for seed in range(30):
        state = new_state(seed=seed, players=3)
        opener = state.current_player()
        for seat in range(3):
            view = state.view(seat)
            for r in range(5):
                sampled = sample(view, random.Random(r))
                assert sampled.view(seat) == view
                assert sampled.current_player() == opener
                legal = sampled.legal_moves()
                assert len(legal) == 1  # the highest tile dealt, held by the opener
                if seat == opener:
                    assert legal == state.legal_moves()


def test_a_sample_at_the_end_deals_only_the_boneyard():
    state = new_state(seed=3, players=2)
    rng = random.Random(3)
    while not state.is_over():
        state.play(random_move(state, rng))
    view = state.view(0)
    sampled = sample(view, random.Random(9))
    assert sampled.view(0) == view and sampled.view(1) == state.view(1)
    assert sorted(sampled.table.stock) == sorted(state.table.stock)


def test_sampling_is_fast():
    views = [state.view(seat) for state, seat in positions({"players": 4, "target": 100}, 2, seed=2, every=3)]
    rng = random.Random(1)
    start = time.process_time()
    for view in views:
        sample(view, rng)
    per_sample = (time.process_time() - start) / len(views)
    print(f"sample(): {1e6 * per_sample:.0f} us a sample over {len(views)} views")
    assert per_sample < 0.005


def test_the_registry_offers_sample():
    info = GAMES["dominoes"]
    state = info.new_state(seed=1)
    assert info.sample(state.view(0), random.Random(1)).view(0) == state.view(0)
