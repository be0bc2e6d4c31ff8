"""Expert, the hints and the review: one search for every turn-based game (``search``).

The search (``search.search``) is determinized Monte Carlo over the common state API: deals from
``GameInfo.sample(view, rng)``, weighted by a model of the rivals' play; every legal move scored on
every deal by a Hard-like rollout (``legal_moves``/``play``/``undo``) or an exact solve of a small
two-player endgame; values in the game's own terms (a win share; in a Dominoes match the chance of
winning the match from the scores). Each game's features are a module here (``dominoes``,
``triangles``, ``heptalion``; Heptalion, which has no chance once dealt, searches its deals deep with
alpha-beta). Everything reads only the view given and the generator given, and thinks in slices:
every ``*_thinking`` function returns a generator that yields now and then (the page's
``think_in_slices`` drives it; ``core.run_thinking`` runs it in one go) and whose value is the answer.

The API (for the tables' Hint and Review):

- ``expert_bot(game_id)``: the Expert level, a bot like the others; ``bot.think(view, rng)`` slices.
  Importing this package registers it as each searched game's ``expert`` level (``LazyBots.provide``):
  the games sit below the AI and never import it.
- ``hint(game_id, view, rng, names=None, *, budget=None, nodes=None) -> Hint`` (``hint_thinking``
  in slices; ``budget``/``nodes`` ask for a quicker search, ``nodes`` for Heptalion): the move Expert
  would play for the seat of ``view`` (its own turn), ``Hint.reason`` a sentence in a player's words
  taken from what the search saw (``names``: the players' names by seat, for the sentence),
  ``Hint.chance`` its estimate of the seat's chances with that move (0..1), ``Hint.alternatives``
  the other moves with theirs, best first. Only the seat's own view goes in, so a hint can never
  tell more than that seat may know.
- ``review(game_id, steps, rng, names=None) -> Review`` (``review_thinking`` in slices, with
  ``Review.progress`` going from 0 to 1 for a progress bar): ``steps`` are one seat's decisions,
  each (the view it had before moving, the move text it played), as ``steps_from_moves`` rebuilds
  them from a game's start state and its moves. Every entry (``ReviewEntry``) gives the move, the
  estimated chance before it (with the best move) and after it (with the move played), the move
  the search preferred with its reason, and ``cost`` = before - after; ``Review.costly()`` lists the
  moves that cost the most. Forced moves (a single legal move) are listed at no cost, unsearched,
  with the last estimate.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import LazyBots, run_thinking
from ..games import get_game
from .search import Budget, Features, SearchResult, search

__all__ = [
    "BUDGETS",
    "MATCH_BUDGETS",
    "Budget",
    "Hint",
    "Review",
    "ReviewEntry",
    "SearchResult",
    "budget_of",
    "expert_bot",
    "features_of",
    "hint",
    "hint_thinking",
    "review",
    "review_thinking",
    "steps_from_moves",
    "think",
]

# One decision's budget a game (median well under 150 ms a move in the page for Dominoes and Triangles).
BUDGETS: dict[str, Budget] = {
    "dominoes": Budget(deals=60, sims=360, exact_nodes=2500, min_deals=16),
    "triangles": Budget(deals=24, sims=120, exact_nodes=0, min_deals=8),
    "heptalion": Budget(deals=8, sims=40, exact_nodes=4000, min_deals=4),
}
# A two-player match's decision, where the budget is spent instead (more deals: a match move's points
# weigh more than a round's win, and the round budget's 49 ms median left the page twice its headroom).
MATCH_BUDGETS: dict[str, Budget] = {
    "dominoes": Budget(deals=100, sims=600, exact_nodes=2500, min_deals=24),
}

_FEATURES: dict[str, Features] = {}


def features_of(game_id: str) -> Features:
    """Return the search's features of a game (imported on first use)."""
    if game_id not in _FEATURES:
        module = importlib.import_module(f"{__name__}.{game_id}")
        _FEATURES[game_id] = module.FEATURES
    return _FEATURES[game_id]


def think(
    game_id: str,
    view: Mapping[str, Any],
    rng: random.Random,
    budget: Budget | None = None,
    nodes: int | None = None,
) -> Generator[None, None, SearchResult]:
    """Search a seat's position, yielding now and then; the generator's value is the ``SearchResult``.

    ``budget`` replaces the game's ``BUDGETS`` entry (or its ``MATCH_BUDGETS`` one in a two-player match:
    ``budget_of``); ``nodes``, for a game searched deep (Heptalion), the nodes of its alpha-beta (fewer:
    a quicker, shallower answer).
    """
    info = get_game(game_id)
    features = features_of(game_id)
    direct = getattr(features, "direct", None)
    if direct is not None and nodes is not None:
        return direct(view, rng, nodes=max(1, nodes))  # type: ignore[no-any-return]
    return search(info, view, rng, features, budget or budget_of(game_id, view))


def budget_of(game_id: str, view: Mapping[str, Any]) -> Budget:
    """Return the game's budget for the view's decision: a two-player match's when it has one."""
    if view.get("target") is not None and view.get("players") == 2 and game_id in MATCH_BUDGETS:
        return MATCH_BUDGETS[game_id]
    return BUDGETS[game_id]


def expert_bot(game_id: str, budget: Budget | None = None) -> Any:
    """Return the Expert bot of a game: ``bot(view, rng)`` gives the move, ``bot.think`` thinks in slices."""

    def slices(view: dict[str, Any], rng: random.Random) -> Generator[None, None, Any]:
        result = yield from think(game_id, view, rng, budget)
        info = get_game(game_id)
        return info.parse_move(result.move) if info.parse_move else result.move

    def expert(view: dict[str, Any], rng: random.Random) -> Any:
        return run_thinking(slices(view, rng))

    expert.think = slices  # type: ignore[attr-defined]
    expert.__name__ = f"expert_{game_id}"
    return expert


def _provide_experts() -> None:
    """Register Expert as the ``expert`` level of every game the search plays."""
    for game_id in BUDGETS:
        bots = get_game(game_id).bots
        if isinstance(bots, LazyBots):
            bots.provide("expert", expert_bot(game_id))


_provide_experts()


@dataclass(frozen=True)
class Hint:
    """The move Expert would play, why, and how it rates the choices."""

    move: str
    reason: str
    chance: float  # the seat's estimated chance (0..1: of the win, or in a match of the match) with it
    alternatives: tuple[tuple[str, float], ...] = ()  # the other moves and their chances, best first
    forced: bool = False  # the only legal move


def _reason(game_id: str, view: Mapping[str, Any], result: SearchResult, names: Sequence[str] | None) -> str:
    features = features_of(game_id)
    explain = getattr(features, "explain", None)
    if explain is not None:
        text = explain(view, result, names)
        if text:
            return str(text)
    best = result.stats[result.move] if result.move in result.stats else result.ranked()[0]
    others = [s for s in result.ranked() if s.move != best.move]
    if not others:
        return f"{best.move} is your only move."
    second = others[0]
    return (
        f"{best.move} gives you the best chances the search found: about {round(100 * best.mean)}%, "
        f"against {round(100 * second.mean)}% with {second.move}, the next best."
    )


def hint_thinking(
    game_id: str,
    view: Mapping[str, Any],
    rng: random.Random,
    names: Sequence[str] | None = None,
    *,
    budget: Budget | None = None,
    nodes: int | None = None,
) -> Generator[None, None, Hint]:
    """Find the hint for the seat of ``view`` in slices; the generator's value is the ``Hint``.

    ``budget`` and ``nodes`` as for ``think`` (a table may ask for less when time matters).
    """
    moves = view["legal_moves"]
    if not moves:
        raise ValueError("no hint: it is not this seat's turn")
    result = yield from think(game_id, view, rng, budget, nodes)
    if len(moves) == 1:
        return Hint(moves[0], f"{moves[0]} is your only move.", result.value, (), True)
    others = tuple((s.move, round(s.mean, 4)) for s in result.ranked() if s.move != result.move)
    return Hint(result.move, _reason(game_id, view, result, names), round(result.value, 4), others)


def hint(
    game_id: str,
    view: Mapping[str, Any],
    rng: random.Random,
    names: Sequence[str] | None = None,
    *,
    budget: Budget | None = None,
    nodes: int | None = None,
) -> Hint:
    """Return the hint for the seat of ``view`` (in one go; ``hint_thinking`` slices)."""
    found: Hint = run_thinking(hint_thinking(game_id, view, rng, names, budget=budget, nodes=nodes))
    return found


@dataclass(frozen=True)
class ReviewEntry:
    """One decision of the reviewed seat."""

    turn_number: int
    move: str
    before: float  # the estimated chance with the best move
    after: float  # the estimated chance with the move played
    best: str  # the move the search preferred
    reason: str  # why, in a player's words (empty when the move played was the best)
    forced: bool = False

    @property
    def cost(self) -> float:
        """Return how much of the seat's chance the move gave away (0 for the best move)."""
        return max(0.0, self.before - self.after)


@dataclass
class Review:
    """A seat's game reviewed by the search, filled in slices (``progress`` from 0 to 1)."""

    seat: int
    total: int
    entries: list[ReviewEntry] = field(default_factory=list)

    @property
    def progress(self) -> float:
        """Return the share of the decisions reviewed so far."""
        return len(self.entries) / self.total if self.total else 1.0

    def costly(self, count: int = 3, threshold: float = 0.05) -> list[ReviewEntry]:
        """Return the moves that cost the most (at least ``threshold`` of the chance), worst first."""
        worst = sorted((e for e in self.entries if e.cost >= threshold), key=lambda e: -e.cost)
        return worst[:count]


def steps_from_moves(start: Any, moves: Sequence[str], seat: int) -> list[tuple[dict[str, Any], str]]:
    """Replay ``moves`` from a start state (left unchanged) and return ``seat``'s decisions (view, move)."""
    state = start.clone()
    steps = []
    for text in moves:
        if state.current_player() == seat:
            steps.append((state.view(seat), text))
        state.play(text)
    return steps


def review_thinking(
    game_id: str,
    steps: Sequence[tuple[Mapping[str, Any], str]],
    rng: random.Random,
    names: Sequence[str] | None = None,
    review: Review | None = None,
    *,
    budget: Budget | None = None,
    nodes: int | None = None,
) -> Generator[None, None, Review]:
    """Review a seat's decisions in slices; the generator's value is the ``Review``.

    Pass ``review`` (an empty ``Review``) to read its ``progress`` while the generator runs;
    ``budget`` and ``nodes`` as for ``think``.
    """
    seat = steps[0][0]["seat"] if steps else 0
    if review is None:
        review = Review(seat, len(steps))
    review.total = len(steps)
    last = 0.5  # a forced move keeps the last estimate
    for view, played in steps:
        legal = view["legal_moves"]
        if len(legal) == 1:
            review.entries.append(ReviewEntry(view["turn_number"], played, last, last, played, "", True))
            yield
            continue
        result = yield from think(game_id, view, rng, budget, nodes)
        best = result.stats[result.move]
        after = result.stats[played].mean if played in result.stats else best.mean
        last = after
        reason = "" if played == result.move else _reason(game_id, view, result, names)
        review.entries.append(
            ReviewEntry(
                view["turn_number"], played, round(best.mean, 4), round(after, 4), result.move, reason
            )
        )
    return review


def review(
    game_id: str,
    steps: Sequence[tuple[Mapping[str, Any], str]],
    rng: random.Random,
    names: Sequence[str] | None = None,
    *,
    budget: Budget | None = None,
    nodes: int | None = None,
) -> Review:
    """Review a seat's decisions in one go (``review_thinking`` slices)."""
    found: Review = run_thinking(review_thinking(game_id, steps, rng, names, budget=budget, nodes=nodes))
    return found
