"""Challenges and replays by link in the page: the share row, the challenge's screen, both scores side by side.

The link's text is ``boneyard.links``'; the page puts it in its own address's hash (``#/link/<text>``), so
a link works offline and on any static host. Opening a challenge shows who sends it, the game and the
score to beat before Play: the score tells nothing of the deal, and a player wants to know the target (as
in duplicate bridge, where the other tables' scores are the point). A challenge played is kept under its
own key (``CHALLENGE_KEY``), never over the player's own game of that game.
"""

from __future__ import annotations

from typing import Any

from boneyard import links, saves
from boneyard.games import GAMES
from boneyard.links import HUMAN, Challenge, LinkError, Replay, Table
from boneyard.settings import Settings

from .html import Markup, h
from .routes import screen_address
from .session import Session

__all__ = [
    "CHALLENGE_KEY",
    "LINK_ROUTE",
    "can_challenge",
    "can_replay",
    "challenge_screen",
    "link_address",
    "make_link",
    "player_score",
    "share_row",
    "versus",
]

LINK_ROUTE = "link"  # the address of a link: #/link/<text>
CHALLENGE_KEY = saves.PREFIX + "challenge"  # the challenge being played (one at a time)
PLACE = "place"  # the result of a game that keeps no score of its own: the place (1 = first)


# -- what a finished game can share ------------------------------------------------------------------------


def can_challenge(session: Session) -> bool:
    """Tell whether a finished game can be sent as a challenge: one person here, not an online room's."""
    return (
        session.state.is_over()
        and not session.online
        and len(session.human_seats) == 1
        and player_score(session) is not None
    )


def can_replay(session: Session) -> bool:
    """Tell whether a finished game can be shared as a replay: turn-based, its whole move log kept."""
    return (
        session.state.is_over()
        and not session.online
        and not session.info.realtime
        and bool(session.human_seats)
        and session.move_count() > 0
    )


def link_table(session: Session) -> Table:
    """Return the table a link carries: the game, mode, options and who sits where."""
    seats = tuple(HUMAN if not seat.is_computer else str(seat.level) for seat in session.seats)
    return Table(session.info.id, session.mode, dict(session.options), seats)


def measure(table: Table) -> tuple[str, bool]:
    """Return what a challenge of this table compares, and whether less is better: a match's points,
    Triangles' pips left in hand, a Heptalion puzzle's tiles fitted, Bonefall's power, else the place."""
    if table.game == "dominoes" and table.options.get("target"):
        return "point", False
    if table.game == "triangles":
        return "pip left", True
    if table.game == "heptalion" and len(table.seats) == 1:
        return "tile", False
    if table.game == "bonefall":
        return "power", False
    return PLACE, True  # a single round, a Heptalion game: who came first (its scores are tiles in hand)


def player_score(session: Session) -> float | None:
    """Return the person's final result as ``measure`` says: a score, or the place."""
    outcome = session.state.outcome() if session.state.is_over() else None
    if outcome is None or not session.human_seats:
        return None
    seat = session.human_seats[0]
    found = outcome.placings if measure(link_table(session))[0] == PLACE else outcome.scores
    return float(found[seat]) if seat < len(found) else None


def make_link(session: Session, kind: str, name: str) -> str:
    """Return the link text of a finished game: a challenge (``"c"``) or a replay (``"r"``).

    The settings' default name is left out: "A friend challenges you", not "Player challenges you".
    """
    table = link_table(session)
    name = "" if name == Settings().name else name
    if kind == "c":
        score = player_score(session)
        return links.encode_challenge(Challenge(table, session.seed, score or 0, name))
    return links.encode_replay(Replay(table, session.seed, tuple(session.moves or ()), name))


def link_address(page: str, text: str) -> str:
    """Return the address a friend opens: the site's own, with the link in the hash."""
    return screen_address(page, f"{LINK_ROUTE}/{text}")


def decode(text: str) -> Challenge | Replay:
    """Return what a link holds; raise LinkError (links' words) for anything it cannot be."""
    return links.decode(text)


# -- markup ---------------------------------------------------------------------------------------------------


def score_words(table: Table, score: float) -> str:
    """Return a result in words: "112 points", "1 pip left", "1st place", "5 power"."""
    unit, _ = measure(table)
    shown = int(score) if float(score).is_integer() else score
    if unit == PLACE:
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(int(score), f"{shown}th")
        return f"{ordinal} place"
    if unit == "power" or shown == 1:
        return f"{shown} {unit}"
    return f"{shown} {unit.replace('pip', 'pips') if unit.startswith('pip') else unit + 's'}"


def challenge_screen(challenge: Challenge, resumable: bool, mode: str, levels: list[str]) -> Markup:
    """Return the screen a challenge opens on: who sends it, the game (``mode`` in words, the computers'
    ``levels``), the score to beat, and Play."""
    table = challenge.table
    info = GAMES[table.game]
    who = challenge.name or "A friend"
    lower = measure(table)[1] and measure(table)[0] != PLACE
    against = f"against the computer ({', '.join(levels)})" if levels else "alone, on the same board"
    return h(
        "section",
        {"class_": "link-screen panel", "id": "challenge"},
        h("p", {"class_": "link-lead", "id": "challenge-who"}, f"{who} challenges you to {info.name}."),
        h(
            "dl",
            {"class_": "link-facts"},
            h("dt", {}, "Game"),
            h("dd", {"id": "challenge-game"}, f"{info.name} · {mode}"),
            h(
                "dt", {}, "Their result" if measure(table)[0] == PLACE else "To beat"
            ),  # 1st place is matched, not beaten
            h(
                "dd",
                {"id": "challenge-score"},
                score_words(table, challenge.score),
                h("span", {"class_": "hint"}, " (fewer is better)") if lower else "",
            ),
        ),
        h(
            "p",
            {"class_": "hint"},
            f"You play the same deal from {who if challenge.name else 'their'}{'’s' if challenge.name else ''} seat, "
            f"{against}. The link holds no move of theirs.",
        ),
        h(
            "div",
            {"class_": "actions"},
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn btn-primary",
                    "data_action": "link-play",
                    "id": "challenge-play",
                },
                "Resume the challenge" if resumable else "Play",
            ),
            h("a", {"class_": "btn btn-ghost", "href": "#/", "id": "challenge-not-now"}, "Not now"),
        ),
    )


def versus(session: Session) -> Markup:
    """Return both scores side by side at the end of a challenge ("" for any other game)."""
    sent = session.extra.get("challenge")
    mine = player_score(session)
    if not isinstance(sent, dict) or mine is None or not session.state.is_over():
        return Markup("")
    theirs = float(sent.get("score", 0) or 0)
    who = str(sent.get("name") or "Your friend")
    table = link_table(session)
    better = mine < theirs if measure(table)[1] else mine > theirs
    verdict = (
        "You beat the challenge!" if better else "A tie." if mine == theirs else f"{who} keeps the lead."
    )

    def cell(name: str, score: float, cls: str) -> Markup:
        return h(
            "div",
            {"class_": f"versus-cell {cls}"},
            h("span", {"class_": "versus-name"}, name),
            h("span", {"class_": "versus-score"}, score_words(table, score)),
        )

    return h(
        "div",
        {"class_": "versus", "id": "versus", "role": "group", "aria_label": "The challenge"},
        h("p", {"class_": "versus-verdict", "id": "versus-verdict"}, verdict),
        h("div", {"class_": "versus-row"}, cell("You", mine, "is-you"), cell(who, theirs, "is-them")),
    )


def share_row(ctx: Any) -> Markup:
    """Return Challenge a friend and Share replay for a finished game, and the link made, with Copy."""
    session: Session = ctx.session
    if session.extra.get("replay"):
        return Markup("")  # someone else's game: its link is the one that opened it
    buttons = []
    if can_challenge(session):
        buttons.append(
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn",
                    "data_action": "share-link",
                    "data_value": "c",
                    "id": "share-challenge",
                },
                "Challenge a friend",
            )
        )
    if can_replay(session):
        buttons.append(
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn",
                    "data_action": "share-link",
                    "data_value": "r",
                    "id": "share-replay",
                },
                "Share replay",
            )
        )
    if not buttons:
        return Markup("")
    shared = ctx.ui.kit.shared
    made: Any = ""
    if shared is not None:
        kind, address = shared
        label = "Challenge link" if kind == "c" else "Replay link"
        made = h(
            "div",
            {"class_": "share-made"},
            h("label", {"for": "share-address", "class_": "share-label"}, label),
            h(
                "div",
                {"class_": "share-field"},
                h(
                    "input",
                    {
                        "type": "text",
                        "id": "share-address",
                        "aria_label": label,  # its label is hidden in the review's compact row
                        "class_": "share-address",
                        "value": address,
                        "readonly": True,
                        "data_action": "share-select",
                        "spellcheck": "false",
                    },
                ),
                h(
                    "button",
                    {"type": "button", "class_": "btn", "data_action": "share-copy", "id": "share-copy"},
                    "Copy",
                ),
            ),
        )
    return h(
        "div",
        {"class_": "share-row", "id": "share-row"},
        h("div", {"class_": "actions share-buttons"}, buttons),
        made,
    )


def refused_words(exc: LinkError) -> str:
    """Return a refused link's message for the player."""
    why = str(exc)
    return f"This link cannot be opened: {why[:1].lower()}{why[1:]}."
