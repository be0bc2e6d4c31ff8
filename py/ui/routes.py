"""The address: which screen the hash names, and which deal ``?seed=`` asks for (pure, no browser)."""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import parse_qs

from boneyard.saves import current_game

__all__ = ["HOME", "SEED_LIMIT", "Route", "new_address", "parse_route", "screen_address", "seed_from_query"]

SEED_LIMIT = 2**63  # seeds typed in the address run from -2**63 to 2**63 - 1


class Route(NamedTuple):
    """A screen and its argument: ("home", ""), ("play", "dominoes"), ("rules", "triangles")..."""

    screen: str
    arg: str = ""

    @property
    def table(self) -> str | None:
        """Return the game whose table this route shows, or None."""
        return self.arg if self.screen == "play" and self.arg else None


HOME = Route("home", "")


def parse_route(hash_: str) -> Route:
    """Return the route of an address's hash (``#/play/dominoes``); an empty hash is home.

    An old address of a renamed game (``#/play/falling``) names the game by its id now."""
    parts = [p for p in hash_.lstrip("#").split("/") if p]
    if not parts:
        return HOME
    return Route(parts[0], current_game(parts[1]) if len(parts) > 1 else "")


def screen_address(page: str, route: str) -> str:
    """Return the address of one of this site's screens (``route``: ``daily/dominoes``) for another
    browser: the page's own address, without its hash, then the route's."""
    return f"{page.split('#')[0]}#/{route}"


def new_address(hash_: str) -> str | None:
    """Return the address an old address of a renamed game stands for (``#/play/bonefall``), or None."""
    parts = hash_.lstrip("#").split("/")
    if len(parts) < 3 or current_game(parts[2]) == parts[2]:
        return None
    return "#" + "/".join([*parts[:2], current_game(parts[2]), *parts[3:]])


def seed_from_query(search: str) -> int | None:
    """Return the deal's seed named by ``?seed=N`` in the address's query, or None for a fresh deal.

    Python's generators seed from the absolute value of an integer, so -5 and 5 would deal the same
    game; a negative seed is therefore taken as its unsigned 64-bit form (-5 becomes 2**64 - 5), which no
    seed from 0 to 2**63 - 1 can be. Anything that is not a whole number in range gives a fresh deal.
    """
    values = parse_qs(search.lstrip("?")).get("seed")
    if not values:
        return None
    try:
        seed = int(values[0].strip())
    except ValueError:
        return None
    if not -SEED_LIMIT <= seed < SEED_LIMIT:
        return None
    return seed if seed >= 0 else 2**64 + seed
