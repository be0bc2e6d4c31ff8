"""Fair deals for online rooms: every participant's randomness goes into the seed, and anyone can check it.

Each participant (the host and every guest; bots take no part) draws a 32-byte nonce and sends its
commitment ``sha256(nonce)``. Once every commitment is in, the host sends them all, and everyone reveals
their nonce. The game's seed is ``int.from_bytes(sha256(nonce_0 + nonce_1 + ...)[:8], "big") >> 1`` with
the nonces in seat order, so no one (the host included) can pick the shuffle: a nonce chosen after
seeing the others' would not match its commitment.

After the game the host sends the commitments, the nonces, the seed and every move (``deal``), and
``check_deal`` replays the game on this machine: the commitments match the nonces (one of them this
player's own), the seed comes from the nonces, the engine's deal from that seed gives the first view
this player was shown, the moves replay legally, and every view the player kept (by digest) is what the
replay shows at that point. Nonces travel as 64 lowercase hex characters.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from ..games import get_game

__all__ = [
    "NONCE_BYTES",
    "check_deal",
    "check_reveals",
    "commitment",
    "new_nonce",
    "seed_from",
    "view_digest",
]

NONCE_BYTES = 32


def new_nonce(rng: random.Random | None = None) -> str:
    """Return a fresh nonce as 64 hex characters: the system's randomness (``rng`` only for tests)."""
    if rng is None:
        return secrets.token_hex(NONCE_BYTES)
    return rng.getrandbits(NONCE_BYTES * 8).to_bytes(NONCE_BYTES, "big").hex()


def _bytes(nonce: str) -> bytes:
    if not isinstance(nonce, str) or len(nonce) != NONCE_BYTES * 2:
        raise ValueError("a nonce is 64 hex characters")
    try:
        return bytes.fromhex(nonce)
    except ValueError:
        raise ValueError("a nonce is 64 hex characters") from None


def commitment(nonce: str) -> str:
    """Return the commitment to a nonce: the hex sha256 of its 32 bytes."""
    return hashlib.sha256(_bytes(nonce)).hexdigest()


def seed_from(nonces: Sequence[str]) -> int:
    """Return the game's seed from the participants' nonces in seat order (a 63-bit number)."""
    if not nonces:
        raise ValueError("a seed needs at least one nonce")
    digest = hashlib.sha256(b"".join(_bytes(n) for n in nonces)).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_reveals(commits: Sequence[str], nonces: Sequence[str]) -> str | None:
    """Return why ``nonces`` do not answer ``commits`` (same order), or None when every one matches."""
    if len(commits) != len(nonces):
        return f"{len(commits)} commitments but {len(nonces)} reveals"
    for place, (commit, nonce) in enumerate(zip(commits, nonces), 1):
        try:
            if commitment(nonce) != commit:
                return f"reveal {place} does not match its commitment"
        except ValueError as exc:
            return f"reveal {place}: {exc}"
    return None


def view_digest(view: Mapping[str, Any]) -> str:
    """Return a digest of a view's content (key order and JSON spacing do not matter)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_deal(
    game: str,
    options: Mapping[str, Any],
    commits: Sequence[str],
    nonces: Sequence[str],
    seed: int,
    moves: Sequence[str],
    my_seat: int,
    my_first_view: Mapping[str, Any],
    *,
    my_nonce: str | None = None,
    asked_commits: Sequence[str] | None = None,
    view_digests: Mapping[int, str] | None = None,
) -> tuple[bool, str]:
    """Check a finished online game's deal; return ``(ok, reason)`` with the reason in a player's words.

    ``commits``/``nonces``/``seed``/``moves`` are what the host sent after the game; ``my_first_view``
    the view this seat was shown at the deal; ``my_nonce`` this player's own nonce (it must be among the
    reveals); ``asked_commits`` the commitments the host showed before anyone revealed (they must be the
    same); ``view_digests`` maps a turn number to the digest of the view shown then (each must match).
    """
    if asked_commits is not None and list(asked_commits) != list(commits):
        return False, "the commitments after the game are not the ones shown before the reveal"
    problem = check_reveals(commits, nonces)
    if problem is not None:
        return False, problem
    if my_nonce is not None and my_nonce not in nonces:
        return False, "your own random number is not among the reveals"
    if seed_from(nonces) != seed:
        return False, "the seed is not the one the revealed numbers make"
    try:
        info = get_game(game)
        state = info.new_state(seed=seed, **dict(options))
        first = state.view(my_seat)
    except (ValueError, TypeError, KeyError) as exc:
        return False, f"the game could not be dealt from the seed: {exc}"
    if view_digest(first) != view_digest(my_first_view):
        return False, "the deal from the seed is not the one you were dealt"
    digests = dict(view_digests or {})
    checked = 0

    def agrees() -> bool:
        nonlocal checked
        want = digests.get(state.turn_number)
        if want is None:
            return True
        checked += 1
        return view_digest(state.view(my_seat)) == want

    if not agrees():
        return False, "the game at the deal is not what you were shown"
    for number, text in enumerate(moves, 1):
        try:
            state.play(text)
        except ValueError as exc:
            return False, f"move {number} ({text}) does not replay: {exc}"
        if not agrees():
            return False, f"the game after move {number} is not what you were shown"
    beyond = [number for number in digests if number > state.turn_number]
    if beyond:
        return (
            False,
            f"the host's moves stop at move {state.turn_number}, but you were shown move {max(beyond)}",
        )
    so_far = "" if state.is_over() else " so far (the game did not finish)"
    return (
        True,
        f"the deal came from everyone's numbers ({len(nonces)} taking part) and all {len(moves)} moves replay{so_far}",
    )
