"""Heptalion on the turn-based spine: undo, older saves, turn_number, sample(), and one rules path with Hard."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boneyard.core import VIEW_KEYS, Termination
from boneyard.games.heptalion import GAME
from boneyard.games.heptalion.board import TILE_INDEX
from boneyard.games.heptalion.bots import Position, easy_bot, make_hard_bot, sample_positions, without
from boneyard.games.heptalion.rules import (
    HeptalionState,
    arrive,
    free_placements,
    from_dict,
    new_state,
    next_alive,
)
from boneyard.games.heptalion.sample import sample

SAVES = Path(__file__).resolve().parents[2] / "data" / "saves"
OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 2, "hidden": True, "board": "random"},
    {"players": 3, "hidden": True},
    {"players": 3, "board": "lab"},
    {"players": 4, "hidden": True, "board": "random"},
    {"players": 4},
    {"players": 1},
    {"players": 1, "board": "random"},
]


def through_json(value: Any) -> Any:
    """Return ``value`` after a trip through JSON text (as a bot or a remote player receives it)."""
    return json.loads(json.dumps(value))


def fingerprint(state: HeptalionState) -> tuple[Any, ...]:
    """Return everything a state holds (its save is a replay log, so it alone would miss the hands)."""
    return (
        state.to_dict(),
        [list(h) for h in state.hands],
        list(state.covered),
        state.occupied,
        list(state.alive),
        list(state.eliminated),
        [dict(e) for e in state.history],
        state.turn,
        list(state._moves),
        state.outcome(),
        state.turn_number,
        state.status,
    )


def random_games(count: int, seed0: int = 0) -> Iterator[tuple[int, HeptalionState, random.Random]]:
    """Yield fresh seeded games over every option set, with the generator that picks their moves."""
    for k in range(count):
        seed = seed0 + k
        yield seed, new_state(seed=seed, **OPTION_SETS[k % len(OPTION_SETS)]), random.Random(seed * 31 + 7)


def positions(count: int, seed0: int = 0) -> Iterator[tuple[HeptalionState, int]]:
    """Yield (state, seat) at every step of seeded random games, for every seat (the state is live: copy it)."""
    for _, state, rng in random_games(count, seed0):
        while True:
            for seat in range(state.players):
                yield state, seat
            if state.is_over():
                break
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])


# -- undo ---------------------------------------------------------------------------------------------


def test_undo_takes_back_every_move_exactly_and_replay_gives_the_same_state():
    """At every step of 1,200 seeded games: undo() restores everything, replaying the move redoes it."""
    steps = 0
    for seed, state, rng in random_games(1200):
        while not state.is_over():
            before = fingerprint(state)
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            state.play(move)
            after = fingerprint(state)
            views = [state.view(s) for s in range(state.players)] if seed % 25 == 0 else None
            state.undo()
            assert fingerprint(state) == before, f"seed {seed}, move {steps}"
            assert state.legal_moves() == legal
            state.play(str(move))  # the same move as text
            assert fingerprint(state) == after
            if views is not None:
                assert [state.view(s) for s in range(state.players)] == views
            steps += 1
    assert steps > 15_000


def test_games_with_undos_play_on_as_games_without():
    """Undo and replay in the middle of a game change nothing that comes after."""
    for seed, state, rng in random_games(40, 500):
        twin = new_state(seed=seed, **OPTION_SETS[(seed - 500) % len(OPTION_SETS)])
        while not state.is_over():
            move = state.legal_moves()[rng.randrange(len(state.legal_moves()))]
            state.play(move)
            twin.play(str(move))
            if len(state.covered) % 3 == 0:
                state.undo()
                state.play(move)
        assert fingerprint(state) == fingerprint(twin)


def test_undo_across_the_end_of_the_game():
    """Taking back the last move of a finished game (eliminations, the win, the solo end) reopens it."""
    for options in OPTION_SETS:
        state = new_state(seed=3, **options)
        rng = random.Random(3)
        snapshots = []
        while not state.is_over():
            snapshots.append(fingerprint(state))
            state.play(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
        end = fingerprint(state)
        last = state.covered[-1]
        outcome = state.outcome()
        assert outcome.termination in (Termination.ELIMINATED, Termination.FIT)
        state.undo()
        assert not state.is_over() and state.outcome() is None
        assert state.current_player() == last[0]
        assert all(e["kind"] not in ("winner", "no_fit") for e in state.history)
        assert fingerprint(state) == snapshots[-1]
        state.play(last[1])
        assert fingerprint(state) == end and state.outcome() == outcome
        while state.can_undo():  # back to the deal, move by move
            state.undo()
            assert fingerprint(state) == snapshots.pop()
        assert not snapshots


def test_can_undo_is_false_on_a_fresh_or_loaded_game():
    state = new_state(seed=4, players=3, hidden=True)
    assert not state.can_undo()
    with pytest.raises(IndexError):
        state.undo()
    state.play(state.legal_moves()[0])
    assert state.can_undo()
    loaded = from_dict(state.to_dict())
    assert not loaded.can_undo() and loaded.turn_number == 1
    with pytest.raises(IndexError):
        loaded.undo()
    copy = state.clone()
    copy.undo()  # a clone takes back on its own
    assert state.turn_number == 1 and copy.turn_number == 0 and state.covered and not copy.covered


# -- saves ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(SAVES.glob("heptalion-v1-*.json")), ids=lambda p: p.stem)
def test_saves_written_before_the_spine_still_load(path):
    """Saves of the code before the turn-based base (no turn_number) load, replay and play on."""
    data = json.loads(path.read_text())
    assert "turn_number" not in data
    state = from_dict(data)
    assert state.to_dict() == {**data, "turn_number": len(data["moves"])}
    assert state.turn_number == len(data["moves"]) and not state.can_undo()
    for seat in range(state.players):
        view = state.view(seat)
        assert view["turn_number"] == len(data["moves"]) and view["over"] == state.is_over()
    assert from_dict(through_json(state.to_dict())).to_dict() == state.to_dict()
    rng = random.Random(1)
    while not state.is_over():
        state.play(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    assert state.outcome().detail == ""


def test_turn_number_is_saved_and_checked():
    state = new_state(seed=2, players=4)
    for _ in range(5):
        state.play(state.legal_moves()[0])
    data = state.to_dict()
    assert data["turn_number"] == 5
    assert from_dict({k: v for k, v in data.items() if k != "turn_number"}).turn_number == 5
    with pytest.raises(ValueError, match="bad Heptalion save: turn_number"):
        from_dict({**data, "turn_number": 4})


# -- the view contract -----------------------------------------------------------------------------


def test_views_keep_the_contract():
    for state, seat in positions(16):
        view = state.view(seat)
        for key, types in VIEW_KEYS.items():
            assert isinstance(view[key], types), key
        assert view["seat"] == seat and view["turn"] == state.current_player()
        assert view["hand_counts"] == [s["tile_count"] for s in view["seats"]]
        assert view["turn_number"] == len(view["covered"])
        assert view["seed"] == (None if state.hidden else state.seed)  # the seed tells the deal
        for event in view["history"]:
            assert isinstance(event["seat"], int) and "move" in event and "kind" in event
            assert (event["move"] is None) == (event["kind"] != "place")
        assert through_json(view) == view


# -- sample() ---------------------------------------------------------------------------------------


def test_sample_is_registered():
    state = new_state(seed=1, players=3, hidden=True)
    assert GAME.sample(state.view(0), random.Random(0)).view(0) == state.view(0)


def test_a_sample_shows_the_seat_exactly_the_view_it_was_given():
    """Every key of the view, at every step of 120 games, every seat, hidden hands or not."""
    count = 0
    for state, seat in positions(120):
        view = through_json(state.view(seat))
        sampled = sample(view, random.Random(count))
        assert sampled.view(seat) == view
        count += 1
    assert count > 5000


def test_visible_hands_sample_an_exact_independent_copy():
    """With nothing hidden the sample is the game itself (the view shows the seed only then)."""
    for state, seat in positions(30):
        if state.hidden:
            continue
        copy = sample(through_json(state.view(seat)), random.Random(0))
        assert fingerprint(copy) == fingerprint(state)
        if not copy.is_over():
            before = fingerprint(state)
            copy.play(copy.legal_moves()[0])
            assert fingerprint(state) == before


def test_samples_from_the_same_seed_are_identical():
    for state, seat in positions(8, 40):
        view = state.view(seat)
        assert sample(view, random.Random(5)).to_dict() == sample(view, random.Random(5)).to_dict()


def proven(view: dict[str, Any], state: HeptalionState) -> None:
    """Assert that a sampled state keeps every fact the public history proves."""
    masks = state.board.placement_masks
    occ_after = [0]
    for entry in view["covered"]:
        a, b = entry["spaces"]
        occ_after.append(occ_after[-1] | 1 << a | 1 << b)
    for event in view["history"]:
        if event["kind"] == "eliminated":  # out: none of its tiles fitted the board as it was then
            assert not free_placements(masks, occ_after[event["after"]], state.hands[event["seat"]])
    if view["turn"] is not None:  # to move: one of its tiles fits now
        assert free_placements(masks, occ_after[-1], state.hands[view["turn"]])


def test_no_sample_breaks_what_the_history_proves():
    checked = 0
    for state, seat in positions(160, 1000):
        if not state.hidden:
            continue
        view = state.view(seat)
        for k in range(3):
            proven(view, sample(view, random.Random(k)))
            checked += 1
    assert checked > 3000


def rejection_deals(state: HeptalionState, seat: int, trials: int) -> list[HeptalionState]:
    """Return the deals of ``trials`` uniform shuffles of the unseen tiles that give ``seat`` the same view.

    An independent model of what a seat knows: deal blindly, keep what looks the same from the seat.
    """
    view = state.view(seat)
    rng = random.Random(99)
    hidden = [s for s in range(state.players) if view["seats"][s]["hand"] is None]
    pool = sorted(t for s in hidden for t in state.hands[s])
    kept = []
    for _ in range(trials):
        rng.shuffle(pool)
        hands = [list(h) for h in state.hands]
        at = 0
        for s in hidden:
            hands[s] = pool[at : at + len(hands[s])]
            at += len(hands[s])
        for who, move in state.covered:
            hands[who].append(TILE_INDEX[move.tile])
        other = HeptalionState(state.board, hands, state.start, True, state.discard)
        try:
            for _, move in state.covered:
                other.play(move)
        except ValueError:
            continue  # the replay went another way (somebody out earlier)
        if other.view(seat) == view:
            kept.append(other)
    return kept


def at_first_elimination(seed: int, players: int) -> HeptalionState:
    """Return a seeded hidden game at its first elimination, still going on."""
    state = new_state(seed=seed, players=players, hidden=True)
    rng = random.Random(seed)
    while not state.eliminated:
        state.play(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    assert not state.is_over()
    return state


@pytest.mark.parametrize(
    "seed,players,seat", [(3, 4, 2), (4, 4, 1), (15, 4, 2), (13, 4, 1), (10, 3, 1), (23, 3, 0)]
)
def test_every_unseen_tile_reaches_every_place_it_may_be_and_no_other(seed, players, seat):
    """Over many samples each unseen tile lands in every hand a blind deal that looks the same can give it,
    and nowhere else, about as often (the sampler is uniform over the deals the seat cannot tell apart)."""
    state = at_first_elimination(seed, players)
    if seat == state.current_player() or seat in state.eliminated:
        seat = next(s for s in range(players) if s != state.current_player() and s not in state.eliminated)
    view = state.view(seat)
    hidden = [s for s in range(players) if view["seats"][s]["hand"] is None]
    blind = rejection_deals(state, seat, 2500)
    assert len(blind) >= 100
    rng = random.Random(7)
    drawn = [sample(view, rng) for _ in range(1500)]

    def places(deals: list[HeptalionState]) -> Counter[tuple[int, int]]:
        return Counter((t, s) for d in deals for s in hidden for t in d.hands[s])

    want, got = places(blind), places(drawn)
    assert set(got) == set(want), "a tile missed a place it may be, or went where it may not"
    for place in want:
        assert abs(got[place] / len(drawn) - want[place] / len(blind)) < 0.12, place
    assert len(set(want)) < sum(len(state.hands[s]) for s in hidden) * len(
        hidden
    )  # the history did rule some out


def test_sample_is_fast():
    views = [through_json(s.view(seat)) for s, seat in positions(24, 2000) if s.hidden][:400]
    rng = random.Random(0)
    start = time.process_time()
    for view in views:
        sample(view, rng)
    micros = (time.process_time() - start) / len(views) * 1e6
    print(f"sample(): {micros:.0f} us per sample over {len(views)} hidden-hand views")
    assert micros < 5000


def test_sample_refuses_a_view_that_cannot_be():
    view = new_state(seed=1, players=4, hidden=True).view(0)
    view["hand_counts"][1] += 1
    with pytest.raises(ValueError):
        sample(view, random.Random(0))


# -- one rules path: the Hard search and the state ------------------------------------------------------


def test_searcher_moves_and_eliminations_equal_the_states():
    """The search reads a position from a view and steps it as the state plays: same moves, same
    eliminations, same seat to move, at every step of thousands of random positions (original and random
    boards, 2-4 players, hidden and visible)."""
    checked = 0
    for seed in range(240):
        players = 2 + seed % 3
        state = new_state(
            seed=seed, players=players, hidden=seed % 2 == 1, board="random" if seed % 4 >= 2 else "original"
        )
        view = state.view(state.current_player())
        if state.hidden:  # the search's view of a hidden game is a deal of it: take the true one
            truth = Position(
                state.board.placement_masks,
                state.occupied,
                [tuple(h) for h in state.hands],
                list(state.alive),
            )
            (guess,) = sample_positions(view, random.Random(seed), 1)
            assert (guess.occ, guess.alive, guess.hands[view["seat"]]) == (
                truth.occ,
                truth.alive,
                truth.hands[view["seat"]],
            )
            pos = truth
        else:
            (pos,) = sample_positions(view, random.Random(seed), 1)
            assert pos.hands == [tuple(h) for h in state.hands]
        occ, hands, alive, seat = pos.occ, pos.hands, list(pos.alive), view["turn"]
        rng = random.Random(seed)
        while True:
            seat, moves = arrive(pos.masks, occ, hands, alive, seat, None)  # as Searcher.value does at a node
            if not moves:
                assert state.is_over() and state.outcome().winners == (seat,)
                break
            assert seat == state.current_player()
            assert [state._by_mask[m] for _, m in moves] == state.legal_moves()
            assert alive == state.alive and occ == state.occupied
            assert hands == [tuple(h) for h in state.hands]
            t, m = moves[rng.randrange(len(moves))]
            state.play(state._by_mask[m])
            occ, hands, seat = occ | m, without(hands, seat, t), next_alive(alive, seat)
            checked += 1
        assert [s for s in range(players) if not alive[s]] == sorted(state.eliminated)
    assert checked > 3000


def hard_positions() -> Iterator[dict[str, Any]]:
    for players in (2, 3, 4):
        for hidden in (False, True):
            for seed in range(3):
                state = new_state(
                    seed=300 + seed,
                    players=players,
                    hidden=hidden,
                    board="random" if seed == 1 else "original",
                )
                rng = random.Random(seed)
                k = 0
                while not state.is_over():
                    view = state.view(state.current_player())
                    if k % 5 == 2:
                        yield view
                    state.play(easy_bot(view, rng))
                    k += 1


def test_hard_plays_the_moves_it_played_before_sharing_the_rules_path():
    """Golden: 70 positions, Hard at 600 nodes over 3 deals, recorded with the search's own bit-mask rules.

    Re-recorded once, on purpose, when Hard moved to ``DeepSearcher`` (commit ba34547): its moves changed.
    """
    hard = make_hard_bot(nodes=600, deals=3)
    moves = [str(hard(view, random.Random(i))) for i, view in enumerate(hard_positions())]
    assert len(moves) == 70
    assert hashlib.sha256(";".join(moves).encode()).hexdigest()[:16] == "b1e13a8d46bff128"
