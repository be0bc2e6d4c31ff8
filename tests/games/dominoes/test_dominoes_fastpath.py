"""The state's inlined lay (``DominoesState.play``/``undo``) does exactly what ``Table.apply``/``revert`` do.

The public hot path copies the table's first branch (a lay at an end) into the state to save a call a
move; this holds the copy to the one rules path at every move of many seeded games of every mode (All
Fives included: it plays through the same ``play``/``undo``, which hand its moves to its table).
"""

from __future__ import annotations

import random

import pytest

from boneyard.games.dominoes.rules import PASS, TILES, DominoesState, FivesState, FivesTable, Table, new_state

FIELDS = ("hands", "stock", "line", "left", "right", "turn", "passes", "ended", "winner", "codes")
FIVES_FIELDS = ("spinner", "left_arm", "right_arm", "north", "south")


def snapshot(table: Table) -> tuple[object, ...]:
    """Return the table's fields (lists copied; an All Fives table's arms too, before ``codes``)."""
    names = FIELDS[:-1] + FIVES_FIELDS + FIELDS[-1:] if isinstance(table, FivesTable) else FIELDS
    return tuple(list(v) if isinstance(v, list) else v for v in (getattr(table, f) for f in names))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4, "hand_size": 7, "draw": False},
        {"players": 2},
        {"players": 3, "target": 100},
        {"players": 4, "teams": True, "target": 50},
        {"players": 2, "scoring": "fives", "target": 100},
        {"players": 4, "teams": True, "scoring": "fives", "target": 100, "draw": False},
    ],
    ids=str,
)
def test_inlined_lay_matches_the_table(options):
    rng = random.Random(11)
    for _ in range(60):
        state = new_state(rng=rng, **options)
        while not state.is_over():
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            hand_number = state.hand_number
            reference = state.table.copy()
            reference.moves()
            before = snapshot(state.table)
            record = reference.apply(move._code)
            state.play(move)
            if state.hand_number == hand_number:  # (a finished hand of a match deals the next one)
                assert state._events[-1] == record
                assert snapshot(state.table) == snapshot(reference)
            state.undo()
            assert snapshot(state.table) == before
            reference.revert(record)
            assert snapshot(reference)[:-1] == before[:-1]
            state.play(move)


def test_every_mode_plays_through_one_frame():
    # All Fives differs only by its hooks: the hot path (play, undo) is written once (issue 35).
    for name in ("play", "undo"):
        assert name in vars(DominoesState)
        assert name not in vars(FivesState)
    assert "_score" in vars(FivesState)


def test_legal_codes_list_by_tile_then_end():
    # Every hand against every pair of ends lists the lays as the rules read: by tile, left end first.
    rng = random.Random(5)
    for left in range(7):
        for right in range(7):
            for _ in range(300):
                mask = rng.getrandbits(28) & rng.getrandbits(28)
                table = Table(2, False, [mask, 0], [], 0, -1)
                table.line = [(left, right)]
                table.left, table.right = left, right
                expected = []
                for t in range(28):
                    if mask >> t & 1:
                        if left in TILES[t]:
                            expected.append(2 * t)
                        if right != left and right in TILES[t]:
                            expected.append(2 * t + 1)
                assert list(table.moves()) == (expected or [PASS])
