"""Properties over thousands of seeded random games, checked at every step."""

from __future__ import annotations

import json
import random

from dominoes_helpers import random_games
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.core import IllegalMoveError
from boneyard.games.dominoes.rules import (
    TILE_ID,
    TILES,
    DominoesState,
    from_dict,
    mask_tiles,
    new_state,
)

OPTION_MIX = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "draw": False},
    {"players": 3, "draw": False},
    {"players": 4, "hand_size": 7, "draw": False},
    {"players": 4, "hand_size": 7},
    {"players": 2, "hand_size": 3},
    {"players": 2, "target": 50},
    {"players": 3, "target": 100},
    {"players": 4, "target": 100},
    {"players": 2, "draw": False, "target": 100},
]


def canonical(piece) -> int:
    a, b = piece
    return TILE_ID[(max(a, b), min(a, b))]


def check_tiles_and_ends(state: DominoesState) -> None:
    """Every one of the 28 tiles is in exactly one place; the open ends match the line."""
    table = state.table
    places = [t for h in table.hands for t in mask_tiles(h)] + list(table.stock)
    places += [canonical(p) for p in table.line]
    assert sorted(places) == list(range(28))
    line = table.line
    if line:
        assert (table.left, table.right) == (line[0][0], line[-1][1])
        for before, after in zip(line, line[1:]):
            assert before[1] == after[0]
        view = state.view(0)
        assert view["open_ends"] == [line[0][0], line[-1][1]]
        assert [p["tile"] for p in view["line"]] == [list(p) for p in line]
        assert all(p["double"] == (p["tile"][0] == p["tile"][1]) for p in view["line"])
    else:
        assert (table.left, table.right) == (-1, -1)


def expected_moves(state: DominoesState) -> set[str]:
    """Return the legal moves computed from scratch, straight from the rules (the oracle)."""
    table = state.table
    hand = [TILES[t] for t in mask_tiles(table.hands[table.turn])]
    if not table.line:
        if table.opening_tile >= 0:
            return {"%d-%d" % TILES[table.opening_tile]}
        return {"%d-%d" % t for t in hand}
    left, right = table.left, table.right
    moves = set()
    for tile in hand:
        if left in tile:
            moves.add("%d-%d:L" % tile)
        if right in tile and right != left:
            moves.add("%d-%d:R" % tile)
    if moves:
        return moves
    if state.options["draw"] and table.stock:
        return {"draw"}
    return {"pass"}


def check_hand_result(result: dict, options: dict) -> None:
    """Scores equal the pips as the rules define them."""
    pips = [sum(a + b for a, b in hand) for hand in result["hands"]]
    assert result["pips"] == pips
    if result["ended"] == "out":
        winner = result["winner"]
        assert result["hands"][winner] == []
        expected = sum(pips) - pips[winner]
    else:
        low = min(pips)
        lows = [s for s, p in enumerate(pips) if p == low]
        if len(lows) > 1:
            assert result["winner"] is None and result["tied"] == lows
            expected = 0
        else:
            assert result["winner"] == lows[0]
            expected = sum(pips) - low
    assert result["points"] == (expected if options.get("target") else 0)


def play_and_check(state: DominoesState, rng: random.Random, deep: bool) -> int:
    """Play a random game to its end checking every property; return the number of moves."""
    options = state.options
    results_seen = 0
    restored = from_dict(json.loads(json.dumps(state.to_dict()))) if deep else None
    steps = 0
    while not state.is_over():
        check_tiles_and_ends(state)
        legal = [str(m) for m in state.legal_moves()]
        assert len(legal) == len(set(legal)), "no duplicate choices"
        assert set(legal) == expected_moves(state)
        seat = state.current_player()
        if "pass" in legal:  # nobody passes while they could play or draw
            assert legal == ["pass"]
        view = state.view(seat)
        assert view["legal_moves"] == legal
        assert view["hand"] == [list(TILES[t]) for t in mask_tiles(state.table.hands[seat])]
        if deep:
            data = state.to_dict()
            assert restored.to_dict() == data
            restored = from_dict(json.loads(json.dumps(data)))
        if rng.random() < 0.05:  # an illegal or garbled move changes nothing
            bad = rng.choice(["pass", "draw", "6-6:L", "0-0", "7-3", "", "5-2:R", "1-1:X"])
            if bad not in legal:
                before = state.to_dict()
                try:
                    state.play(bad)
                except IllegalMoveError:
                    pass
                else:
                    assert bad[:3] in {m[:3] for m in legal}  # only the same-number alias is accepted
                    return steps
                assert state.to_dict() == before
        move = legal[rng.randrange(len(legal))]
        state.play(move)
        if deep:
            restored.play(move)
        steps += 1
        while results_seen < len(state.hand_results):
            check_hand_result(state.hand_results[results_seen], options)
            results_seen += 1
    assert results_seen == len(state.hand_results) >= 1
    if deep:
        assert restored.to_dict() == state.to_dict()
    outcome = state.outcome()
    last = state.hand_results[-1]
    if options.get("target"):
        assert max(state.scores) >= options["target"] and outcome.winner == state.scores.index(
            max(state.scores)
        )
        assert sum(r["points"] for r in state.hand_results) == sum(state.scores)
    elif last["winner"] is None:
        assert outcome.is_draw and list(outcome.winners) == last["tied"]
    else:
        assert outcome.winner == last["winner"] and outcome.termination == last["ended"]
    return steps


def test_thousands_of_random_games_keep_every_invariant():
    games = 0
    for index, options in enumerate(OPTION_MIX):
        count = 40 if options.get("target") else 250
        for state, rng in random_games(count, seed=1000 + index, options=options):
            play_and_check(state, rng, deep=False)
            games += 1
    assert games >= 2000


def test_save_restore_at_every_step():
    for index, options in enumerate(OPTION_MIX):
        count = 10 if options.get("target") else 60
        for state, rng in random_games(count, seed=2000 + index, options=options):
            play_and_check(state, rng, deep=True)


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**63 - 1), options=st.sampled_from(OPTION_MIX), mover=st.integers(0, 2**32))
def test_any_seed_plays_to_a_consistent_end(seed, options, mover):
    play_and_check(new_state(seed=seed, **options), random.Random(mover), deep=True)


def test_same_seed_same_game_and_clone_is_independent():
    a = new_state(seed=77, players=3, target=50)
    b = new_state(seed=77, players=3, target=50)
    assert a.to_dict() == b.to_dict()
    c = a.clone()
    a.play(a.legal_moves()[0])
    assert c.to_dict() == b.to_dict() != a.to_dict()
