"""Deals anyone can check: the daily deal's seed, the commitment to a deal, and daily streaks.

Everything here is computed from a seed, a date and the engine, so it works offline and on any static
host, and every player who asks gets the same answer:

- ``daily_seed(game, day)``: the seed of a game's daily deal on a day (UTC), the same on every device.
- ``deal_commitment(seed)``: a hash of the seed shown when a game starts; at the end the seed is revealed
  and ``check_commitment`` shows that the deal played is the one committed to (the computer could not
  have changed it after seeing how the game went). ``redeal`` deals the seed again, which is what the page
  and the command line show.
- ``streaks(days, today)``: the current and the best run of consecutive days.

Check a deal from the command line (the same code the page runs)::

    PYTHONPATH=py python3 -m boneyard.deals --game dominoes --seed 42 --commitment 3f1a...
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

from .games import get_game

__all__ = [
    "SEED_LIMIT",
    "check_commitment",
    "daily_seed",
    "deal_commitment",
    "redeal",
    "short_commitment",
    "streaks",
    "utc_day",
]

SEED_LIMIT = 2**64  # seeds are whole numbers from 0 to 2**64 - 1 (the address maps negatives up there)
SHORT_DIGITS = 12  # hex digits of the commitment the table shows


def utc_day(timestamp: float) -> date:
    """Return the day (UTC) of a POSIX timestamp: the daily deal does not depend on the time zone."""
    return datetime.fromtimestamp(timestamp, tz=UTC).date()


def daily_seed(game: str, day: date) -> int:
    """Return the 63-bit seed of ``game``'s daily deal on ``day``."""
    digest = hashlib.sha256(f"boneyard daily {game} {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _seed_bytes(seed: int) -> bytes:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError("a seed is a whole number from 0 to 2**64 - 1")
    return seed.to_bytes(8, "big")


def deal_commitment(seed: int) -> str:
    """Return the commitment to a deal's seed: 64 hex digits of a SHA-256 that hides the seed."""
    return hashlib.sha256(b"boneyard deal " + _seed_bytes(seed)).hexdigest()


def short_commitment(commitment: str) -> str:
    """Return the commitment as a table shows it: its first 12 hex digits in groups of four."""
    head = commitment[:SHORT_DIGITS]
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def check_commitment(seed: int, commitment: str) -> bool:
    """Tell whether ``seed`` is the one ``commitment`` (whole, or the short form a table shows) was made to."""
    try:
        full = deal_commitment(seed)
    except ValueError:
        return False
    given = commitment.replace(" ", "").lower()
    return len(given) >= SHORT_DIGITS and full.startswith(given)


def redeal(game: str, seed: int, options: Mapping[str, Any] | None = None) -> list[list[str]]:
    """Deal ``seed`` again and return each seat's opening hand as tile texts (what the check shows)."""
    state = get_game(game).new_state(seed=seed, **dict(options or {}))
    hands: list[list[str]] = []
    for seat in range(getattr(state, "players", 1)):
        hand = state.view(seat).get("hand", [])
        # A tile is its name ("6-4-2", "cross–plus") or its pips ([6, 4]).
        hands.append(
            [tile if isinstance(tile, str) else "-".join(str(part) for part in tile) for tile in hand]
        )
    return hands


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """Return (current, best) runs of consecutive days among ``days``.

    The current run ends today, or yesterday when today's attempt is still to come.
    """
    played = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in played:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return current, best


def main(argv: list[str] | None = None) -> int:
    """Check a deal's commitment and print the deal, as the page's "Check the deal" does."""
    parser = argparse.ArgumentParser(description="Check that a Boneyard deal follows from its seed.")
    parser.add_argument("--game", required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--commitment", default="", help="the commitment the table showed at the start")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE (JSON value), as the arena")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for text in args.option:
        name, _, value = text.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    print(f"commitment {deal_commitment(args.seed)}")
    ok = True
    if args.commitment:
        ok = check_commitment(args.seed, args.commitment)
        print("the seed matches the commitment" if ok else "the seed does NOT match the commitment")
    for seat, hand in enumerate(redeal(args.game, args.seed, options)):
        print(f"seat {seat + 1}: {' '.join(hand)}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
