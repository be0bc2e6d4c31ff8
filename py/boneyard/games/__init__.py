"""The registry of games: every subpackage that defines ``GAME`` is a game.

``GAMES`` maps a game id to its ``GameInfo``, in home-screen order. Adding a game is adding a package
under this folder with ``GAME = GameInfo(...)`` in its ``__init__``; nothing else needs editing.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..core import GameInfo

__all__ = ["GAMES", "get_game"]


def _discover() -> dict[str, GameInfo]:
    found: list[GameInfo] = []
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg or module.name.startswith("_"):
            continue
        package = importlib.import_module(f"{__name__}.{module.name}")
        info = getattr(package, "GAME", None)
        if isinstance(info, GameInfo):
            found.append(info)
    found.sort(key=lambda info: (info.order, info.id))
    return {info.id: info for info in found}


GAMES: dict[str, GameInfo] = _discover()


def get_game(game_id: str) -> GameInfo:
    """Return the game registered as ``game_id``; raise ValueError naming the known ids otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES) or "none"
        raise ValueError(f"unknown game {game_id!r} (known: {known})") from None
