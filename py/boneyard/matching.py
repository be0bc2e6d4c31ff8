"""Bipartite matching: which positions take which items, when each position allows only some items.

The samplers deal unseen tiles to places that history restricts, and the Heptalion solver bounds a
layout by how many tiles can still find a placement: both are a maximum matching.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

__all__ = ["max_matching"]

T = TypeVar("T", bound=Hashable)


def max_matching(
    allowed: Sequence[Sequence[T]], shuffle: Callable[[list[T]], Any] | None = None
) -> dict[T, int]:
    """Return a maximum matching as item -> position (Kuhn's augmenting paths).

    ``allowed[k]`` lists the items position ``k`` may take. With ``shuffle`` (``rng.shuffle``), each
    attempt tries a position's items in a freshly shuffled order, so a seeded generator gives a random
    matching; without it the items are tried in the order given. Every position is matched exactly when
    the result has ``len(allowed)`` entries.
    """
    owner: dict[T, int] = {}

    def augment(k: int, seen: set[T]) -> bool:
        options: Sequence[T] = allowed[k]
        if shuffle is not None:
            options = list(options)
            shuffle(options)
        for item in options:
            if item in seen:
                continue
            seen.add(item)
            if item not in owner or augment(owner[item], seen):
                owner[item] = k
                return True
        return False

    for k in range(len(allowed)):
        augment(k, set())
    return owner
