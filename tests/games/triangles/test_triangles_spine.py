"""Triangles on the shared spine: the view contract, exact undo, older saves, and sampling from a view."""

from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from pathlib import Path

import pytest

from boneyard.core import VIEW_KEYS, Termination
from boneyard.games.triangles import GAME
from boneyard.games.triangles import sample as sampler
from boneyard.games.triangles.bots import BOTS
from boneyard.games.triangles.rules import (
    TILES,
    Board,
    fit_mask,
    from_dict,
    new_state,
    parse_move,
    parse_tile,
    tile_text,
)

SAVES = Path(__file__).resolve().parents[2] / "data" / "saves"


def bot_game(seed: int, players: int, level: str = "medium", stop: int | None = None):
    """Yield the state after every move of a seeded game between bots of ``level``."""
    state = new_state(seed=seed, players=players)
    rng = random.Random(seed)
    yield state
    moves = 0
    while not state.is_over() and (stop is None or moves < stop):
        state.play(BOTS[level](state.view(state.current_player()), rng))
        moves += 1
        yield state


# -- the view contract ---------------------------------------------------------------------------------


def test_every_view_has_the_contracts_keys_with_their_types():
    for state in bot_game(3, 3):
        for seat in range(3):
            view = state.view(seat)
            for key, types in VIEW_KEYS.items():
                assert isinstance(view[key], types), key
            assert view["seat"] == seat and view["turn"] == state.current_player()
            assert view["turn_number"] == state.turn_number == len(view["history"])
            assert view["over"] == state.is_over()
            assert all(set(e) == {"seat", "move"} and isinstance(e["move"], str) for e in view["history"])
            assert "player" not in view and "current_player" not in view
            assert isinstance(view["stock"], int)
            json.dumps(view)
    assert state.view(0)["outcome"]["termination"] in ("out", "blocked")


def test_the_outcome_is_facts_only():
    for seed in range(6):
        *_, state = bot_game(seed, 2 + seed % 3)
        out = state.outcome()
        assert isinstance(out.termination, Termination) and out.detail == ""


# -- undo ------------------------------------------------------------------------------------------------


def test_undo_takes_back_every_move_exactly_and_play_goes_on_identically():
    """At every step of many random games: undo gives the state before, replaying gives the one after."""
    rng = random.Random(2024)
    steps = 0
    for game in range(700):
        players = 2 + game % 3
        state = new_state(seed=game, players=players)
        assert not state.can_undo()
        before = state.to_dict()
        while not state.is_over():
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            state.play(move)
            after = state.to_dict()
            legal_after = state.legal_moves()
            state.undo()
            assert state.to_dict() == before
            assert state.legal_moves() == moves
            state.play(move)
            assert state.to_dict() == after and state.legal_moves() == legal_after
            before = after
            steps += 1
    assert steps > 20_000, steps


def test_undo_unwinds_a_whole_game_back_to_the_deal_and_across_its_end():
    state = new_state(seed=8, players=4)
    snapshots = [state.to_dict()]
    views = [state.view(1)]
    rng = random.Random(8)
    while not state.is_over():
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
        snapshots.append(state.to_dict())
        views.append(state.view(1))
    assert state.is_over()
    state.undo()  # across the end: the game goes on again
    assert not state.is_over() and state.outcome() is None and state.to_dict() == snapshots[-2]
    for snapshot, view in zip(reversed(snapshots[:-1]), reversed(views[:-1])):
        assert state.to_dict() == snapshot and state.view(1) == view
        if state.can_undo():
            state.undo()
    assert not state.can_undo() and state.turn_number == 0
    with pytest.raises(IndexError):
        state.undo()


def test_a_loaded_state_cannot_take_back_moves_made_before_the_save():
    state = new_state(seed=5)
    for _ in range(6):
        state.play(state.legal_moves()[0])
    loaded = from_dict(json.loads(json.dumps(state.to_dict())))
    assert state.can_undo() and not loaded.can_undo()
    loaded.play(loaded.legal_moves()[0])
    loaded.undo()
    assert loaded.to_dict() == state.to_dict()


def test_a_clone_undoes_on_its_own():
    state = new_state(seed=9, players=3)
    for _ in range(12):
        state.play(state.legal_moves()[-1])
    copy = state.clone()
    copy.undo()
    copy.undo()
    assert copy.turn_number == state.turn_number - 2 and state.to_dict() != copy.to_dict()
    copy.play(state.history[-2][1])
    copy.play(state.history[-1][1])
    assert copy.to_dict() == state.to_dict()


# -- saves of older code -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["fresh", "midgame", "over"])
def test_saves_written_before_the_spine_still_load(name):
    data = json.loads((SAVES / f"triangles-v1-{name}.json").read_text())
    save, old_view = data["save"], data["view0"]
    assert "turn_number" not in save
    state = GAME.from_dict(save)
    assert state.turn_number == len(save["history"])
    view = state.view(0)
    renamed = {"player": "seat", "current_player": "turn"}
    for key, value in old_view.items():
        if key == "outcome" and value is not None:
            assert view["outcome"] == value  # the old detail text is kept
        else:
            assert view[renamed.get(key, key)] == value, key
    again = GAME.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict() and again.to_dict()["turn_number"] == state.turn_number
    if not state.is_over():
        state.play(state.legal_moves()[0])


def test_a_save_whose_turn_number_disagrees_with_its_history_is_refused():
    state = new_state(seed=2)
    state.play(state.legal_moves()[0])
    data = state.to_dict()
    data["turn_number"] = 7
    with pytest.raises(ValueError, match="bad Triangles save: turn_number"):
        GAME.from_dict(data)


# -- sampling ------------------------------------------------------------------------------------------


def voids_by_seat(view):
    """Return, per seat, its draw/pass events as (index, fit mask of the board then, kept draws after)."""
    board = Board()
    history = view["history"]
    events = defaultdict(list)
    for index, entry in enumerate(history):
        if entry["move"] in ("draw", "pass"):
            mask = 0
            for cell in board.frontier:
                mask |= fit_mask(board.pattern(cell))
            events[entry["seat"]].append((index, mask))
        else:
            move = parse_move(entry["move"])
            board.place(move.cell, move.values)
    kept = defaultdict(list)
    for index, entry in enumerate(history):
        nxt = history[index + 1]["move"] if index + 1 < len(history) else None
        if entry["move"] == "draw" and nxt in (None, "draw", "pass"):
            kept[entry["seat"]].append(index)
    return events, kept


def broken_voids(view, state):
    """Return the proven voids a sampled state breaks (an independent check of necessary conditions).

    For each draw or pass of a hidden seat, the tiles it holds now that fitted the board then must be
    no more than the draws it kept since (a tile drawn and laid at once is never held).
    """
    events, kept = voids_by_seat(view)
    broken = []
    for seat, voids in events.items():
        if seat == view["seat"]:
            continue
        hand = 0
        for tile in state.hands[seat]:
            hand |= 1 << TILES.index(tile)
        for index, mask in voids:
            later = sum(1 for k in kept[seat] if k >= index)
            if bin(hand & mask).count("1") > later:
                broken.append((seat, index))
    return broken


def sample_views(seeds, players_of=lambda s: 2 + s % 3):
    """Yield views (every seat, every step) of seeded medium-bot games."""
    for seed in seeds:
        players = players_of(seed)
        for state in bot_game(seed, players):
            for seat in range(players):
                yield state, seat, state.view(seat)


def test_a_sample_shows_the_same_view_and_breaks_no_proven_void():
    count = 0
    for _, seat, view in sample_views(range(20)):
        sampled = GAME.sample(view, random.Random(count))
        assert sampled.view(seat) == view
        assert not broken_voids(view, sampled)
        everything = (
            [t for hand in sampled.hands for t in hand] + sampled.stock + [i.tile for i in sampled.laid]
        )
        assert sorted(everything) == sorted(TILES)
        count += 1
    assert count > 1500, count


def test_a_sample_plays_on_like_a_state():
    for _, _, view in sample_views(range(5)):
        if view["over"]:
            continue
        sampled = GAME.sample(view, random.Random(1))
        copy = GAME.from_dict(json.loads(json.dumps(sampled.to_dict())))
        rng = random.Random(2)
        while not sampled.is_over():
            moves = sampled.legal_moves()
            move = moves[rng.randrange(len(moves))]
            sampled.play(move)
            copy.play(str(move))
        assert copy.to_dict() == sampled.to_dict()
        break


def test_samples_from_the_same_seed_are_identical():
    for _, _, view in sample_views([4, 7]):
        a = GAME.sample(view, random.Random(99)).to_dict()
        b = GAME.sample(view, random.Random(99)).to_dict()
        assert a == b


def rank(tile):
    """Return the order in which tiles open (the rules' opening order)."""
    return (tile[0] == tile[2], sum(tile), tuple(sorted(tile, reverse=True)))


def allowed_places(view):
    """Return, for each unseen tile, the places a lone tile may be: the stock and the hidden hands
    whose draws and passes do not rule it out (or that kept a draw after the last void it fits)."""
    events, kept = voids_by_seat(view)
    seat = view["seat"]
    seen = set(view["hand"]) | {item["tile"] for item in view["table"]}
    opening = parse_tile(view["opening"])
    places = {}
    for tile in TILES:
        text = tile_text(tile)
        if text in seen:
            continue
        bit = 1 << TILES.index(tile)
        where = {"stock"} if view["stock"] else set()
        for other in range(view["players"]):
            if other == seat or not view["hand_counts"][other]:
                continue
            latest = max([index for index, mask in events[other] if mask & bit], default=-1)
            if rank(tile) > rank(opening):  # nobody was dealt a tile that outranks the opening
                latest = max(latest, 0)
            if latest < 0 or any(k >= latest for k in kept[other]):
                where.add(other)
        places[text] = where
    return places


@pytest.mark.parametrize(
    "seed,players,moves,viewer", [(7, 3, 0, 1), (7, 3, 40, 0), (12, 2, 30, 1), (3, 4, 24, 2)]
)
def test_over_many_samples_every_unseen_tile_appears_wherever_it_may_be(seed, players, moves, viewer):
    *_, state = bot_game(seed, players, stop=moves)
    view = state.view(viewer)
    expected = allowed_places(view)
    seen = defaultdict(set)
    rng = random.Random(seed)
    for _ in range(1500):
        sampled = GAME.sample(view, rng)
        assert sampled.view(viewer) == view
        for tile in sampled.stock:
            seen[tile_text(tile)].add("stock")
        for other, hand in enumerate(sampled.hands):
            if other != viewer:
                for tile in hand:
                    seen[tile_text(tile)].add(other)
    assert {t: seen[t] for t in expected} == expected
    if moves:
        events, _ = voids_by_seat(view)
        assert any(events.values()), "the position should have a draw or pass to respect"


def test_a_hidden_opener_holds_the_opening_tile_and_nobody_a_higher_one():
    state = new_state(seed=21, players=3)
    viewer = next(s for s in range(3) if s != state.current_player())
    view = state.view(viewer)
    for k in range(200):
        sampled = GAME.sample(view, random.Random(k))
        assert parse_tile(view["opening"]) in sampled.hands[view["turn"]]
        assert sampled.view(viewer) == view


def test_the_constraint_aware_deal_is_used_when_random_deals_fail(monkeypatch):
    """With no random deal allowed, every sample comes from the constraint-aware deal, still consistent."""
    monkeypatch.setattr(sampler, "TRIES", 0)
    count = 0
    for _, seat, view in sample_views(range(8)):
        sampled = GAME.sample(view, random.Random(count))
        assert sampled.view(seat) == view and not broken_voids(view, sampled)
        count += 1
    assert count > 500


def test_a_finished_game_is_sampled_with_its_pip_totals():
    for seed in range(4):
        *_, state = bot_game(seed, 2 + seed % 3)
        view = state.view(0)
        for k in range(20):
            sampled = GAME.sample(view, random.Random(k))
            assert sampled.view(0) == view
            assert [sum(sum(t) for t in hand) for hand in sampled.hands] == view["outcome"]["scores"]


def test_a_view_that_no_deal_can_meet_is_refused():
    state = new_state(seed=3)
    state.play(state.legal_moves()[0])
    view = state.view(0)
    view["stock"] += 1
    with pytest.raises(ValueError):
        GAME.sample(view, random.Random(1))


def test_sampling_is_fast():
    views = [view for _, _, view in sample_views(range(6))]
    rng = random.Random(3)
    start = time.process_time()
    for view in views:
        GAME.sample(view, rng)
    per = (time.process_time() - start) / len(views)
    print(f"triangles sample: {per * 1e6:.0f} us per sample over {len(views)} views")
    assert per < 0.02
