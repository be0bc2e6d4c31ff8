"""A link's game in the page: the challenge dealt for the friend, the replay played out for the review.

The markup of links (the share row, the challenge's screen, both scores) is ``ui.share``, which the kit
draws; this module seats a link's table with the setup's own names and modes, for the app.
"""

from __future__ import annotations

from dataclasses import dataclass

from boneyard.games import GAMES
from boneyard.links import HUMAN, Challenge, Replay, Table

from .games import screen_for
from .seating import computer_name
from .session import Seat, Session
from .shell import LEVEL_LABELS
from .table_screen import TableState

__all__ = ["Linked", "computer_levels", "mode_label", "replay_session", "start_challenge"]


@dataclass
class Linked:
    """The link open in the page: its text, what it holds, and its game once played (or replayed)."""

    text: str
    opened: Challenge | Replay
    session: Session | None = None  # a challenge's game (dealt, or resumed), or the replayed game
    playing: bool = False  # its table is on show (a challenge's Play pressed; a replay at once)
    ui: TableState | None = None  # its table's UI state, apart from the player's own table of that game


def computer_levels(table: Table) -> list[str]:
    """Return the computer seats' levels in words ("Hard")."""
    return [LEVEL_LABELS.get(seat, seat) for seat in table.seats if seat != HUMAN]


def _seats(table: Table, name: str) -> list[Seat]:
    """Return the seats of a link's table: ``name`` in the person's, the computers named as in setup."""
    seats: list[Seat] = []
    computers = 0
    for seat in table.seats:
        if seat == HUMAN:
            seats.append(Seat("human", name))
        else:
            computers += 1
            seats.append(Seat("computer", computer_name(computers, seat), seat))
    return seats


def mode_label(table: Table) -> str:
    """Return the mode in words, from the game's modes and the link's stats key ("Classic, 2 players")."""
    key, players = table.mode.removesuffix("-device"), len(table.seats)
    screen = screen_for(table.game)
    for mode in screen.modes() if screen is not None else []:
        if key == mode.key:
            return str(mode.label)
        if key.startswith(mode.key + "-"):
            return f"{mode.label}, {players} players" if players > 1 else mode.label
    return f"{players} players" if players > 1 else GAMES[table.game].name


def start_challenge(challenge: Challenge, text: str, name: str) -> Session:
    """Deal a challenge's game: the same deal, seats and computer levels (their generator follows the seed)."""
    table = challenge.table
    info = GAMES[table.game]
    session = Session.start(
        info, _seats(table, name), table.mode, mode_label(table), table.options, challenge.seed
    )
    session.extra["challenge"] = {"link": text, "score": challenge.score, "name": challenge.name}
    return session


def replay_session(replay: Replay, text: str) -> Session:
    """Return the finished game a replay holds, replayed on this page's engine (its moves are checked)."""
    table = replay.table
    info = GAMES[table.game]
    sender = replay.name or "Your friend"
    session = Session.start(
        info, _seats(table, sender), table.mode, mode_label(table), table.options, replay.seed
    )
    for move in replay.moves:
        if session.seats[session.to_move() or 0].is_computer:
            session.play_computer(move)
        else:
            session.play(move)
    session.recorded = True  # someone else's game: never counted in this player's stats
    session.extra["replay"] = {"link": text, "name": replay.name}
    return session
