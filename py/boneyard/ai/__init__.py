"""Expert, the hints and the review: one search for every turn-based game (``search``).

    from boneyard.ai import expert_bot, hint, review
    move = expert_bot("dominoes")(view, rng)            # a bot like the others (``bot.think`` slices)
    h = hint("dominoes", view, rng)                     # Hint(move, reason, value, alternatives)
    for progress in review_steps(...): ...              # see ``review``

The search is determinized Monte Carlo over the common state API (see ``search``), with each game's
features (``dominoes``, ``triangles``, ``heptalion``): a fast Hard-like rollout policy, a model of the
rivals' play that weights the deals, the game's values (points in a match), an exact solve of small
two-player endgames.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Generator, Mapping
from typing import Any

from ..core import run_thinking
from ..games import get_game
from .search import Budget, Features, SearchResult, search

__all__ = ["BUDGETS", "Budget", "SearchResult", "expert_bot", "features_of", "think"]

# One decision's budget a game (median well under 150 ms a move in the page for Dominoes and Triangles).
BUDGETS: dict[str, Budget] = {
    "dominoes": Budget(deals=60, sims=360, exact_nodes=2500, min_deals=16),
    "triangles": Budget(deals=24, sims=120, exact_nodes=0, min_deals=8),
    "heptalion": Budget(deals=8, sims=40, exact_nodes=4000, min_deals=4),
}

_FEATURES: dict[str, Features] = {}


def features_of(game_id: str) -> Features:
    """Return the search's features of a game (imported on first use)."""
    if game_id not in _FEATURES:
        module = importlib.import_module(f"{__name__}.{game_id}")
        _FEATURES[game_id] = module.FEATURES
    return _FEATURES[game_id]


def think(
    game_id: str, view: Mapping[str, Any], rng: random.Random, budget: Budget | None = None
) -> Generator[None, None, SearchResult]:
    """Search a seat's position, yielding now and then; the generator's value is the ``SearchResult``."""
    info = get_game(game_id)
    return search(info, view, rng, features_of(game_id), budget or BUDGETS[game_id])


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
