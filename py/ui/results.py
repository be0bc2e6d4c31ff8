"""The end of a game: what goes into the stats and the best scores (pure, no browser).

The shell applies these to the stats as they are stored *now* (``Storage.update_stats``), never to a
tab's own copy, so two tabs' results add up and a tab never writes back stats that were cleared.
"""

from __future__ import annotations

from boneyard.stats import Stats

from .hints import hints_used
from .session import Session

__all__ = ["count_result", "keep_bests", "stats_note"]

SAME_DEVICE = "Same-device games are not counted in the stats."


def stats_note(session: Session, same_device: str = SAME_DEVICE) -> str:
    """Return the results panel's line on the stats: online, same device, take-backs, or counted."""
    from .online.remote import result_note

    online = result_note(session)
    if online is not None:
        return online
    if "replay" in session.extra:  # a replay opened from a link (ui.linked): never counted here
        return "Someone else's game: not counted in your stats."
    if not session.vs_computer:
        return same_device
    if session.take_backs:
        moves = f"{session.take_backs} move{'' if session.take_backs == 1 else 's'}"
        return f"Not counted in your stats: you took back {moves}."
    return "Counted in your stats."


def count_result(stats: Stats, session: Session, player: str, today: str) -> bool:
    """Count a finished game against the computer for its first person; return True when stats changed.

    A game counts once, however many tabs saw it end (the stats remember the deals they counted). A game
    in which the person took moves back, or asked the Expert for hints, is not counted (the table says
    so): a win with take-backs or with the Expert's moves is not a win against that level.
    """
    if not session.vs_computer or not session.human_seats or stats.has_counted(session.uid):
        return False
    if session.take_backs or hints_used(session):
        return False
    result = session.result_for(session.human_seats[0])
    if result is None:
        return False
    stats.record(session.info.id, session.mode, session.mode_label, player, result, today)
    stats.mark_counted(session.uid)
    return True


def keep_bests(stats: Stats, session: Session, scores: dict[str, float] | None, today: str) -> list[str]:
    """Keep the scores that beat their mode's bests; return the names of the new bests."""
    if not scores:
        return []
    return stats.record_scores(session.info.id, session.mode, scores, today)
