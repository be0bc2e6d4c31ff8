"""The one search behind Expert, the hints and the review: determinized Monte Carlo over the common API.

For a seat's view it deals full states consistent with it (``GameInfo.sample(view, rng)``), weights
each deal by how likely the rivals' actual plays were under a model of their play
(``Features.weight``), and scores every legal move on every deal: it plays the move, then either
solves the deal exactly (two players, a small endgame: alpha-beta over ``legal_moves``/``play``/
``undo``) or plays it out with the game's fast Hard-like policy (``Features.policy``) up to the
game's horizon (the end of the game, or the end of the hand in a points match), and reads the
game's value of the result for the seat (``Features.value``: a win share, or in a match the chance
of winning the match from the scores). Every move is tried on the same deal with the same rollout
seed, so the moves are compared on equal terms. The search is a generator: it yields after every
deal (and every few hundred exact nodes), so the page thinks in slices; ``run_thinking`` drives it
in one go. It reads nothing but the view and its own generator: hidden tiles cannot change its move.

What a seat learned is kept between its moves of a hand where it stays valid: the exact solver's
positions (a table of values and bounds by ``Features.key``, a game's own key of what decides a
position's value in the hand; without one, nothing is kept), shared by the root moves and the deals
of one search and carried to the seat's next move of the same hand (``MEMORY``, by game and seat:
the view's history must carry on the one the memory saw, else the search starts afresh: the same
view again, another hand, another game). A position's solved value is a fact of that position, so
keeping it never changes a value, only saves the nodes (more deals within the budget, or less time).
Sampled deals are not carried over: the model's weights are nearly flat (the deals' effective number
is 0.84 of their number), so particles kept and reweighed measured no gain over fresh deals.
A game may also build what its values need once, in slices, before the first deal (``warm``).
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["Budget", "Features", "MoveStats", "SearchResult", "search"]


class Features(Protocol):
    """What the search needs to know of one game beyond the common state API."""

    def prepare(self, view: Mapping[str, Any]) -> Any:
        """Return what ``weight`` and ``value`` need from the view, read once a search."""

    def weight(self, context: Any, state: Any) -> float:
        """Return how likely the rivals' public plays were, had they held this deal's tiles."""

    def policy(self, state: Any, rng: random.Random) -> Any:
        """Return the rollout move of the seat to move (fast, Hard-like, may read the deal)."""

    def stop(self, state: Any, context: Any) -> bool:
        """Tell whether a rollout ends here (the game is over, or the horizon is reached)."""

    def value(self, state: Any, seat: int, context: Any) -> float:
        """Return the worth of a stopped state to ``seat``, from 0 (lost) to 1 (won)."""

    def exact(self, state: Any) -> bool:
        """Tell whether this deal is small enough to solve exactly."""

    # Optional: ``key(state)`` (a hashable of what decides an endgame position's value within the
    # hand, or None: not kept), ``warm(context)`` (a generator building what ``value`` needs, once),
    # ``direct(view, rng)`` (a game searched deep instead), ``explain(view, result, names)``.


@dataclass(frozen=True)
class Budget:
    """How much one decision may search: deals, played-out moves, and nodes of an exact solve."""

    deals: int = 64  # at most this many deals
    sims: int = 400  # at most this much work: a rollout is one, an exact solve its nodes / NODES_PER_SIM
    exact_nodes: int = 3000  # an exact solve of a deal that needs more nodes falls back to rollouts
    min_deals: int = 12  # keep dealing at least this many, whatever the sims


@dataclass
class MoveStats:
    """What the search learned of one root move."""

    move: str
    weight: float = 0.0
    total: float = 0.0
    samples: int = 0

    @property
    def mean(self) -> float:
        """Return the weighted mean value of the move (0.5 before any sample)."""
        return self.total / self.weight if self.weight > 0 else 0.5


@dataclass
class SearchResult:
    """The search's verdict: the best move's text and every move's statistics."""

    move: str
    stats: dict[str, MoveStats] = field(default_factory=dict)
    deals: int = 0
    exact: int = 0  # deals solved exactly
    context: Any = None
    effective: float = 0.0  # the deals' effective number: (sum of weights)^2 / sum of squared weights
    known: int = 0  # endgame positions solved by the seat's earlier searches of the hand

    def ranked(self) -> list[MoveStats]:
        """Return the moves best first."""
        return sorted(self.stats.values(), key=lambda s: -s.mean)

    @property
    def value(self) -> float:
        """Return the estimated worth of the position to the seat (its best move's mean)."""
        return self.stats[self.move].mean if self.stats else 0.5


SOLVED_MAX = 200_000  # solved positions kept at most (more: start again)
MEMORY: dict[tuple[str, int], _Kept] = {}  # by (game, seat): what the seat's last search learned


@dataclass
class _Kept:
    """What a seat's last search solved, kept for its next move of the same hand."""

    history: list[Any]  # the view's history then
    hand_number: Any
    solved: dict[Any, tuple[float, int]]  # the exact solver's positions (a position's value holds all hand)


def _recall(features: Features, view: Mapping[str, Any]) -> dict[Any, tuple[float, int]]:
    """Return the endgame positions the seat's searches solved so far this hand (empty when the memory
    does not carry on to this view: the same view again, another hand or another game)."""
    old = MEMORY.get((getattr(features, "game", ""), view["seat"]))
    history = view.get("history") or []
    if (
        old is None
        or old.hand_number != view.get("hand_number")
        or len(history) <= len(old.history)
        or history[: len(old.history)] != old.history
        or len(old.solved) > SOLVED_MAX
    ):
        return {}
    return old.solved


NODES_PER_SIM = 30  # exact nodes that cost about as much time as one rollout
ORDER = True  # the exact solver tries the policy's move first (more cut-offs); False lists them as given, for A/B runs
LEAF_NODES = 4  # a leaf (the end of a game or of a hand) costs as much as this many inner nodes
ROLLOUTS_A_SLICE = 4  # yield after this many rollouts of one deal (a wide Triangles table has many moves)


def lay_likelihood(fit: int, tile: int, taste: Sequence[float], mix: float) -> float:
    """Return how likely a rival who could lay the tiles of bit mask ``fit`` was to lay ``tile``.

    The model of a rival's play the games share: with weight ``mix`` a uniform choice among what fitted,
    otherwise a choice in proportion to each tile's ``taste`` (its index's entry). One fitting tile: 1.
    """
    count = fit.bit_count()
    if count <= 1:
        return 1.0
    total = 0.0
    while fit:
        low = fit & -fit
        total += taste[low.bit_length() - 1]
        fit ^= low
    return mix / count + (1.0 - mix) * taste[tile] / total


class _TooBig(Exception):
    pass


def _rollout(state: Any, features: Features, context: Any, seat: int, rng: random.Random) -> float:
    """Play the policy from ``state`` to the horizon, read the value, and take every move back."""
    played = 0
    try:
        while not features.stop(state, context):
            state.play(features.policy(state, rng))
            played += 1
        return features.value(state, seat, context)
    finally:
        for _ in range(played):
            state.undo()


class _Solver:
    """Alpha-beta for two players over the common API (values 0..1 for ``seat``), under a node cap."""

    def __init__(
        self, features: Features, context: Any, seat: int, cap: int, table: dict[Any, tuple[float, int]]
    ) -> None:
        self.features = features
        self.context = context
        self.seat = seat
        self.cap = cap
        self.nodes = 0
        self.rng = random.Random(0)
        self.table = table  # position key -> (value, 0 exact / 1 at least / -1 at most): the solved positions
        self.key = getattr(features, "key", None)

    def solve(self, state: Any, alpha: float, beta: float) -> Iterator[float | None]:
        """Yield None now and then, and the value last."""
        self.nodes += 1
        if self.nodes > self.cap:
            raise _TooBig
        if self.nodes % 400 == 0:
            yield None
        features = self.features
        if features.stop(state, self.context):
            self.nodes += LEAF_NODES
            yield features.value(state, self.seat, self.context)
            return
        key = self.key(state) if self.key is not None else None
        if key is not None:
            hit = self.table.get(key)
            if hit is not None:
                known, bound = hit
                if bound == 0 or (bound > 0 and known >= beta) or (bound < 0 and known <= alpha):
                    yield known
                    return
        low, high = alpha, beta
        maximising = state.current_player() == self.seat
        best = -1.0 if maximising else 2.0
        moves = state.legal_moves()
        if ORDER and len(moves) > 1:
            first = features.policy(state, self.rng)  # the likely best reply first: more cut-offs
            moves = [first, *(m for m in moves if m is not first)]
        for move in moves:
            state.play(move)
            try:
                value = 0.0
                for value in self.solve(state, alpha, beta):  # type: ignore[assignment]
                    if value is None:
                        yield None
            finally:
                state.undo()
            if maximising:
                if value > best:
                    best = value
                alpha = max(alpha, best)
            else:
                if value < best:
                    best = value
                beta = min(beta, best)
            if alpha >= beta:
                break
        if key is not None:
            self.table[key] = (best, 1 if best >= high else -1 if best <= low else 0)
        yield best


def _solve_value(solver: _Solver, state: Any) -> Generator[None, None, float]:
    result = 0.5
    for value in solver.solve(state, -1.0, 2.0):
        if value is None:
            yield
        else:
            result = value
    return result


def search(
    info: Any, view: Mapping[str, Any], rng: random.Random, features: Features, budget: Budget
) -> Generator[None, None, SearchResult]:
    """Search the seat's position; the generator's value is the ``SearchResult``."""
    direct = getattr(features, "direct", None)
    if direct is not None:  # a game without chance once dealt searches its deals deep instead
        found: SearchResult = yield from direct(view, rng)
        return found
    texts = list(view["legal_moves"])
    if not texts:
        raise ValueError("no legal move in this view: it is not this seat's turn")
    seat = view["seat"]
    context = features.prepare(view)
    result = SearchResult(texts[0], {t: MoveStats(t) for t in texts}, context=context)
    if len(texts) == 1:
        return result
    warm = getattr(features, "warm", None)
    if warm is not None:  # what the values need built once (Dominoes: the match table), in slices
        yield from warm(context)
    sims = 0
    tries = 0
    players = view["players"]
    solvable = budget.exact_nodes > 0
    keeps = getattr(features, "key", None) is not None
    solved = _recall(features, view) if keeps else {}
    result.known = len(solved)
    total_weight = squares = 0.0
    while result.deals < budget.deals and (sims < budget.sims or result.deals < budget.min_deals):
        tries += 1
        if tries > 4 * budget.deals:
            break
        state = info.sample(view, rng)
        weight = features.weight(context, state)
        if weight <= 0.0:
            continue
        result.deals += 1
        total_weight += weight
        squares += weight * weight
        seed = rng.getrandbits(32)
        moves = {str(m): m for m in state.legal_moves()}
        values: dict[str, float] = {}
        exact = players == 2 and solvable and features.exact(state)
        if exact:
            solver = _Solver(features, context, seat, budget.exact_nodes, solved)
            try:
                for text in texts:
                    state.play(moves[text])
                    try:
                        values[text] = yield from _solve_value(solver, state)
                    finally:
                        state.undo()
            except _TooBig:
                exact = solvable = False  # the other deals are as big: play them out
                values.clear()
            sims += solver.nodes // NODES_PER_SIM
        if not exact:
            for text in texts:
                state.play(moves[text])
                try:
                    values[text] = _rollout(state, features, context, seat, random.Random(seed))
                finally:
                    state.undo()
                if len(values) % ROLLOUTS_A_SLICE == 0:
                    yield
        for text, value in values.items():
            stats = result.stats[text]
            stats.weight += weight
            stats.total += weight * value
            stats.samples += 1
        if not exact:
            sims += len(values)
        result.exact += exact
        yield
    result.effective = total_weight * total_weight / squares if squares > 0.0 else 0.0
    if keeps and solved:
        MEMORY[(getattr(features, "game", ""), seat)] = _Kept(
            list(view["history"]), view.get("hand_number"), solved
        )
    best = max(result.stats.values(), key=lambda s: (s.mean, -texts.index(s.move)))
    result.move = best.move
    return result
