"""Computer players of Triangles: legal, view-only, and ordered by strength on a seeded sample."""

from __future__ import annotations

import random

import pytest
from triangles_helpers import position

from boneyard.arena import run_arena
from boneyard.games.triangles import GAME
from boneyard.games.triangles.bots import easy, hard, medium, rival_exclusions
from boneyard.games.triangles.rules import TILE_INDEX, from_dict, new_state

LEVELS = ["easy", "medium", "hard"]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_legal_moves_to_the_end(level, players):
    bot = GAME.bot(level)
    rng = random.Random(players)
    for seed in range(3):
        state = new_state(seed=seed, players=players)
        while not state.is_over():
            view = state.view(state.current_player())
            move = bot(view, rng)
            assert str(move) in view["legal_moves"]
            state.play(move)


def _shuffle_hidden(state, seat, rng):
    """Return a copy where the tiles hidden from ``seat`` (other hands, stock) are dealt afresh."""
    data = state.to_dict()
    others = [q for q in range(state.players) if q != seat]
    pool = [t for q in others for t in data["hands"][q]] + data["stock"]
    rng.shuffle(pool)
    for q in others:
        size = len(data["hands"][q])
        data["hands"][q], pool = pool[:size], pool[size:]
    data["stock"] = pool
    return from_dict(data)


@pytest.mark.parametrize("level", LEVELS)
def test_bots_see_only_their_view(level):
    """Same view with different hidden tiles elsewhere gives the same decision."""
    bot = GAME.bot(level)
    shuffler = random.Random(7)
    checked = 0
    for seed in range(6):
        state = new_state(seed=seed, players=3)
        step = 0
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            if len(view["legal_moves"]) > 1 and step % 3 == 0:
                other = _shuffle_hidden(state, seat, shuffler)
                assert other.view(seat) == view
                assert other.to_dict() != state.to_dict() or not other.stock
                assert bot(other.view(seat), random.Random(step)) == bot(view, random.Random(step))
                checked += 1
            state.play(bot(view, random.Random(step)))
            step += 1
    assert checked > 20


def test_easy_plays_any_legal_tile_at_random():
    """'Easy plays any legal tile at random.'"""
    state = position([["4-5-5", "3-5-5", "2-5-5"], ["1-1-1"]], [("5-5-5", (0, 0), 0)])
    view = state.view(0)
    chosen = {str(easy(view, random.Random(i))) for i in range(200)}
    assert chosen == set(view["legal_moves"])


def test_medium_dumps_triples_first_then_heaviest():
    """'Medium dumps its doubles first, then its heaviest tiles' (in Triangles: triples, then pips)."""
    state = position([["5-5-5", "4-4-5", "0-0-0"], ["1-1-1"]], [("4-5-5", (0, 0), 0)])
    view = state.view(0)
    assert {str(m)[:5] for m in map(str, view["legal_moves"])} >= {"5-5-5", "4-4-5"}
    for i in range(20):
        assert medium(view, random.Random(i)).tile == (5, 5, 5)
    state = position([["3-5-5", "2-4-5", "0-0-4"], ["1-1-1"]], [("4-5-5", (0, 0), 0)])
    view = state.view(0)
    assert {m.split("@")[0] for m in view["legal_moves"]} == {"3-5-5", "2-4-5"}
    assert {medium(view, random.Random(i)).tile for i in range(20)} == {(3, 5, 5)}


def test_hard_learns_what_a_rival_cannot_hold():
    """'Hard ... remembers which numbers each rival couldn't match.'"""
    state = position(
        [["4-5-5", "0-1-1"], ["0-0-1", "0-0-2"]], [("5-5-5", (0, 0), 0)], stock=["1-1-2", "0-0-3", "0-1-2"]
    )
    state.play("4-5-5@0,1r1")
    for _ in range(3):
        state.play("draw")
    state.play("pass")
    excluded = rival_exclusions(state.view(0))
    # seat 1 drew with the 5-5-5 and 4-5-5 showing: it holds nothing that fits those spots
    assert set(excluded) == {1}
    assert excluded[1] >> TILE_INDEX[(3, 5, 5)] & 1 and excluded[1] >> TILE_INDEX[(4, 4, 5)] & 1
    assert not excluded[1] >> TILE_INDEX[(0, 0, 0)] & 1


def test_hard_prefers_a_spot_the_next_player_cannot_fill():
    """'It tries to leave those numbers on the ends, above all against the player who goes next.'
    A seeded position (two Medium players, 14 moves in, the rival has drawn before): Hard lays its
    tile where the next player has no fit, though another spot for the same tile would give it one."""
    state = new_state(seed=3, players=2)
    rng = random.Random(3)
    for _ in range(14):
        state.play(medium(state.view(state.current_player()), rng))
    seat = state.current_player()
    view = state.view(seat)
    assert any(h["seat"] != seat and h["move"] in ("draw", "pass") for h in view["history"])
    move = hard(view, random.Random(0))
    after = state.clone()
    after.play(move)
    assert not after.board.fits_any(after.hands[1 - seat])
    others = [m for m in state.legal_moves() if m.tile == move.tile and m != move]
    gives = []
    for other in others:
        alt = state.clone()
        alt.play(other)
        gives.append(alt.board.fits_any(alt.hands[1 - seat]))
    assert any(gives)


def test_hard_goes_out_when_it_can():
    state = position([["0-5-5"], ["1-1-1", "2-2-2"]], [("5-5-5", (0, 0), 0)])
    view = state.view(0)
    assert hard(view, random.Random(0)).tile == (0, 5, 5)


def test_strength_order_on_a_seeded_sample():
    """Medium beats Easy and Hard beats Medium over a fixed seeded sample (the long runs and their
    95% intervals are in bench_triangles.py and the report)."""
    m = run_arena("triangles", ["medium", "easy"], 300, 11)
    assert m.levels["medium"].wins > m.levels["easy"].wins
    h = run_arena("triangles", ["hard", "medium"], 300, 11)
    assert h.levels["hard"].wins > h.levels["medium"].wins
