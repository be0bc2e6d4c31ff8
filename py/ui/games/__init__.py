"""The table screens: one module a game, found by name (``ui.games.<game id>``).

A module here defines ``SCREEN``, an object with the ``GameScreen`` methods (see ``ui.table_screen``). A game
whose engine is registered but whose module is missing is listed on the home screen with its rules,
and its Play button says the table is not built yet.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

_cache: dict[str, Any] = {}


def has_screen(game_id: str) -> bool:
    """Tell whether a game has a table screen, without importing it (the home screen lists many)."""
    if game_id in _cache:
        return _cache[game_id] is not None
    return importlib.util.find_spec(f"{__name__}.{game_id}") is not None


def screen_for(game_id: str) -> Any | None:
    """Return the table screen of a game, or None when it has none yet."""
    if game_id not in _cache:
        try:
            module = importlib.import_module(f"{__name__}.{game_id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{game_id}":
                raise
            module = None
        _cache[game_id] = getattr(module, "SCREEN", None)
    return _cache[game_id]
