"""Fit the weights of Expert's two-player leaf (``ai.heptalion.EXPERT_LEAF``) to exactly solved positions.

    PYTHONPATH=py python3 tools/heptalion_leaf_fit.py [--games 100] [--seed 90000] [--nodes 3000000]

Each seeded two-player game is played by Hard against Hard, with a random placement instead of Hard's at
three in ten of the first ten plies (so the positions are not only the ones Hard likes). At four of its
plies from 3 to 12 the position is solved: Expert's alpha-beta with ``--nodes`` nodes, kept only when it
proves the win or the loss. Each solved position gives the leaf's terms for the seat to move (each mine
minus theirs: packed safe tiles, fitting tiles, spaces only this side reaches, tiles with one placement
left) and whether that seat wins. A logistic regression (Newton's method) fits a weight to each term and
a constant; the command prints them, the same scaled so that ``fit`` is 5 (as ``EXPERT_LEAF`` rounds
them), and the log-loss of the fitted weights and of ``EXPERT_LEAF``'s, by five-fold cross-validation.

``EXPERT_LEAF`` was rounded from such a fit over 362 positions (an earlier script of the same
procedure), and then chosen in the arena against Hard: the fit says which terms predict the winner, only
the arena says which play better. The weights move with the sample: two runs of 60 games (``--seed 90000``
and ``91000``, 194 and 195 positions) gave pack 2.2 and 3.5, room 1.5 and 2.6, single 0.3 and 1.1 with fit
scaled to 5, and ``EXPERT_LEAF`` predicted each run's outcomes about as well as its own fit did. About 12
solved positions a minute on one core of these machines.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Iterator, Sequence
from functools import reduce
from operator import or_

from boneyard.ai.heptalion import EXPERT_LEAF, ExpertSearcher
from boneyard.core import derive_seed, make_rng, run_thinking
from boneyard.games.heptalion.bots import (
    SPACE_BITS,
    TILE_SHIFT,
    WIN,
    hard_bot,
    packed_placements,
    sample_positions,
)
from boneyard.games.heptalion.rules import new_state

__all__ = ["TERMS", "fit_logistic", "leaf_terms", "main", "solved_positions"]

TERMS = ("pack", "fit", "room", "single")  # EXPERT_LEAF's terms, in its order (tempo is the constant)


def leaf_terms(searcher: ExpertSearcher, mine: list[int], theirs: list[int]) -> list[float]:
    """Return the leaf's terms for the seat to move (``TERMS``' order), each mine minus theirs.

    ``searcher`` is an ``ExpertSearcher`` (its exact ``_pack``); ``mine`` and ``theirs`` are each side's
    free placements (``packed_placements``).
    """
    um, uo = reduce(or_, mine, 0), reduce(or_, theirs, 0)
    pack = searcher._pack([p for p in mine if not p & uo]) - searcher._pack([p for p in theirs if not p & um])
    room = (um & ~uo & SPACE_BITS).bit_count() - (uo & ~um & SPACE_BITS).bit_count()
    terms = [float(pack), 0.0, float(room), 0.0]
    for side, places in ((1, mine), (-1, theirs)):
        counts: dict[int, int] = {}
        for p in places:
            counts[p >> TILE_SHIFT] = counts.get(p >> TILE_SHIFT, 0) + 1
        terms[1] += side * len(counts)
        terms[3] += side * sum(1 for c in counts.values() if c == 1)
    return terms


def solved_positions(games: int, seed: int, nodes: int) -> Iterator[tuple[list[float], int]]:
    """Yield (the leaf's terms, 1 if the seat to move wins else 0) for every position the search proved."""
    master = make_rng(seed)
    for _ in range(games):
        state = new_state(seed=derive_seed(master), players=2)
        rng = random.Random(derive_seed(master))
        picks = set(rng.sample(range(3, 13), 4))
        ply = 0
        while not state.is_over():
            seat = state.current_player()
            assert seat is not None
            view = state.view(seat)
            if ply in picks:
                pos = sample_positions(view, rng, 1)[0]  # two players: the position itself
                searcher = ExpertSearcher(pos, seat, nodes)
                run_thinking(searcher.think())
                best = max(searcher.scores.values(), default=0)
                mine = packed_placements(pos.masks, pos.occ, pos.hands[seat])
                theirs = packed_placements(pos.masks, pos.occ, pos.hands[1 - seat])
                if abs(best) >= WIN - 200 and mine and theirs:
                    yield leaf_terms(ExpertSearcher(pos, seat, 10**12), mine, theirs), int(best > 0)
            moves = list(view["legal_moves"])
            if ply < 10 and rng.random() < 0.3:
                state.play(rng.choice(moves))
            else:
                state.play(hard_bot(view, rng))
            ply += 1


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Return x with matrix @ x = vector (Gaussian elimination with partial pivoting; small systems)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] if rows[i][i] else 0.0 for i in range(n)]


def fit_logistic(xs: Sequence[Sequence[float]], ys: Sequence[int], ridge: float = 1e-3) -> list[float]:
    """Return the weights of a logistic regression of ``ys`` on ``xs``, the constant last (Newton's method)."""
    data = [[*x, 1.0] for x in xs]
    k = len(data[0]) if data else 1
    w = [0.0] * k
    for _ in range(50):
        grad = [ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(data, ys):
            p = _sigmoid(sum(a * b for a, b in zip(w, x)))
            for i in range(k):
                grad[i] += (p - y) * x[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def log_loss(w: Sequence[float], xs: Sequence[Sequence[float]], ys: Sequence[int]) -> float:
    """Return the mean log-loss of weights ``w`` (the constant last) on the data."""
    total = 0.0
    for x, y in zip(xs, ys):
        p = _sigmoid(sum(a * b for a, b in zip(w, [*x, 1.0])))
        total -= math.log(max(p if y else 1.0 - p, 1e-12))
    return total / max(1, len(ys))


def cross_validated(xs: Sequence[Sequence[float]], ys: Sequence[int], folds: int = 5) -> float:
    """Return the log-loss of the fit on each fold held out, averaged over ``folds`` folds."""
    losses = []
    for f in range(folds):
        train = [i for i in range(len(ys)) if i % folds != f]
        test = [i for i in range(len(ys)) if i % folds == f]
        w = fit_logistic([xs[i] for i in train], [ys[i] for i in train])
        losses.append(log_loss(w, [xs[i] for i in test], [ys[i] for i in test]))
    return sum(losses) / folds


def main(argv: Sequence[str] | None = None) -> int:
    """Solve the positions, fit the weights and print them."""
    parser = argparse.ArgumentParser(prog="tools/heptalion_leaf_fit.py")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=90000)
    parser.add_argument("--nodes", type=int, default=3_000_000)
    args = parser.parse_args(argv)
    xs: list[list[float]] = []
    ys: list[int] = []
    for x, y in solved_positions(args.games, args.seed, args.nodes):
        xs.append(x)
        ys.append(y)
    if len(ys) < 10 or len(set(ys)) < 2:
        print(f"only {len(ys)} solved positions: play more games", file=sys.stderr)
        return 1
    w = fit_logistic(xs, ys)
    scale = 5.0 / w[1] if w[1] else 1.0
    print(f"{len(ys)} solved positions, the seat to move wins {sum(ys) / len(ys):.3f} of them")
    for name, wi in zip((*TERMS, "constant"), w):
        print(f"  {name:8s} {wi:+.3f}   scaled {wi * scale:+.2f}")
    # EXPERT_LEAF's score turned into a chance as a logistic with the fitted scale (single is taken away)
    signs = (1.0, 1.0, 1.0, -1.0)
    ours = [[sum(wt * s * v for wt, s, v in zip(EXPERT_LEAF[:4], signs, x))] for x in xs]
    print(
        f"log-loss, five folds: fitted {cross_validated(xs, ys):.4f},"
        f" EXPERT_LEAF {EXPERT_LEAF} rescaled {cross_validated(ours, ys):.4f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
