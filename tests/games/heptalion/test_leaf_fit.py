"""The fit behind Expert's two-player leaf: its terms are the leaf's, and the regression finds known weights."""

from __future__ import annotations

import math
import random
from functools import reduce
from operator import or_

from boneyard.ai.heptalion import EXPERT_LEAF, ExpertSearcher
from boneyard.games.heptalion.board import ORIGINAL
from boneyard.games.heptalion.bots import Position, packed_placements
from tools.heptalion_leaf_fit import fit_logistic, leaf_terms, solved_positions

MASKS = ORIGINAL.placement_masks


def test_the_fitted_terms_are_the_terms_expert_leaf_weighs():
    """EXPERT_LEAF's weights over leaf_terms give the leaf's score, position for position."""
    rng = random.Random(5)
    checked = 0
    for _ in range(200):
        tiles = rng.sample(range(28), rng.randrange(2, 20))
        mine_t, theirs_t = tiles[: len(tiles) // 2], tiles[len(tiles) // 2 :]
        occ = 0
        for _ in range(rng.randrange(0, 14)):
            m = rng.choice(MASKS[rng.randrange(28)])
            if not m & occ:
                occ |= m
        mine, theirs = packed_placements(MASKS, occ, mine_t), packed_placements(MASKS, occ, theirs_t)
        if not mine or not theirs:
            continue
        searcher = ExpertSearcher(
            Position(MASKS, occ, [tuple(mine_t), tuple(theirs_t)], [True, True]), 0, 10**9
        )
        pack, fit, room, single = leaf_terms(searcher, mine, theirs)
        w = EXPERT_LEAF
        expected = w.pack * pack + w.fit * fit + w.room * room - w.single * single - w.tempo
        assert searcher._leaf2(mine, theirs, reduce(or_, mine), reduce(or_, theirs)) == expected
        checked += 1
    assert checked > 100


def test_the_regression_recovers_known_weights():
    """Outcomes drawn from a known logistic model: the fit comes back near its weights."""
    rng = random.Random(7)
    truth = [1.5, -0.8, 0.3]
    xs, ys = [], []
    for _ in range(3000):
        x = [rng.uniform(-2, 2), rng.uniform(-2, 2)]
        p = 1 / (1 + math.exp(-(truth[0] * x[0] + truth[1] * x[1] + truth[2])))
        xs.append(x)
        ys.append(int(rng.random() < p))
    fitted = fit_logistic(xs, ys)
    assert all(abs(a - b) < 0.2 for a, b in zip(fitted, truth))


def test_a_solved_position_is_labelled_by_a_proof():
    """The labels come from proofs: a small run yields positions, each with the four terms and 0 or 1."""
    rows = list(solved_positions(games=1, seed=3, nodes=200_000))
    assert rows
    assert all(len(x) == 4 and y in (0, 1) for x, y in rows)
