"""The Daily: each game's deal of the day (UTC), its one counted attempt, its record, card and share text.

Pure Python (no browser): the app deals a Daily with ``seating.daily_session``, keeps the records with
``load_records``/``save_records`` (their own stored record, apart from the stats), and the results panel
shows ``daily_card``. A Daily is an ordinary session with ``extra["daily"] = {"day": ..., "practice": ...}``:
it saves, resumes and reviews like any game; the ordinary game it set aside is kept under its own key.

- Dominoes: a match to 100 against the computer at Medium, 2 players, scored by your points; Triangles: a
  round against the computer at Medium, 2 players, scored by the pips left in hand (the computer's less
  yours). Medium is the level a new player gets by default: a Daily that most
  players can win some days and lose others. The day's seed deals and also seeds the computer's choices
  (``Session.start``), so the same moves give the same game on every device.
- Heptalion: the day's random board as the solo puzzle "How many can you fit?", the true maximum
  (the engine's exact solver, a few milliseconds) revealed after the attempt.
- Bonefall: the day's piece sequence, Sprint with the Norm set, scored by power.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from datetime import date
from functools import lru_cache
from typing import Any, cast

from boneyard import saves
from boneyard.core import GameInfo
from boneyard.deals import daily_seed, streaks, utc_day

from .html import Markup, h
from .routes import screen_address
from .session import Seat, Session

__all__ = [
    "DAILY_KEY",
    "LEVEL",
    "PARKED_PREFIX",
    "best_possible",
    "card_text",
    "daily_card",
    "daily_form",
    "daily_of",
    "day_of",
    "expert_line",
    "expert_run",
    "home_daily",
    "load_records",
    "mark",
    "note_attempt",
    "page_card",
    "read_records",
    "result_of",
    "save_records",
    "share_button",
    "share_text",
    "summary",
]

DAILY_KEY = saves.PREFIX + "daily"  # the Daily records: {game: {day: entry}}
PARKED_PREFIX = saves.PREFIX + "parked:"  # an ordinary game set aside while a Daily of its game is played
LEVEL = "medium"
FORMS: dict[str, dict[str, str]] = {
    "dominoes": {"mode": "match-100", "players": "2", "opponents": "computer", "level_1": LEVEL},
    "triangles": {"players": "2", "opponents": "computer", "level_1": LEVEL},
    "heptalion": {"mode": "fit", "fit_board": "random:{seed}"},
    "bonefall": {"mode": "sprint-norm"},
}
BAR = 10  # cells of the share text's picture
FULL, EMPTY = "■", "□"  # in every font (emoji squares are not, on every system)
POWER_SCALE = 1000.0  # Bonefall's bar is full at this power


def day_of(timestamp: float) -> date:
    """Return the Daily's day (UTC) at a wall-clock time: the same on every device in every time zone."""
    return utc_day(timestamp)


def daily_of(session: Session | None) -> dict[str, Any] | None:
    """Return a session's Daily marks (``day``, ``practice``), or None for an ordinary game."""
    if session is None:
        return None
    marks = session.extra.get("daily")
    return marks if isinstance(marks, dict) and isinstance(marks.get("day"), str) else None


def started(session: Session) -> bool:
    """Tell whether a game has had a move (a turn-based one's log, a real-time one's steps)."""
    return session.moves is None or bool(session.moves) or getattr(session.state, "steps", 0) > 0


def daily_form(game_id: str, day: date) -> tuple[int, dict[str, str]]:
    """Return the seed of ``game_id``'s Daily on ``day`` and the setup form that seats it."""
    seed = daily_seed(game_id, day)
    return seed, {k: v.format(seed=seed) for k, v in FORMS.get(game_id, {}).items()}


def mark(session: Session, day: date, practice: bool) -> Session:
    """Mark a session dealt from ``daily_form`` as the Daily of ``day`` (practice after the counted one)."""
    session.extra["daily"] = {"day": day.isoformat(), "practice": practice}
    return session


# -- the result -------------------------------------------------------------------------------------------


def result_of(session: Session) -> tuple[float, str, str] | None:
    """Return a finished Daily's (score, words, picture); None before the end.

    The picture is a bar of characters (the score against the game's scale), so a shared result reveals
    nothing of the deal.
    """
    state = session.state
    if not state.is_over():
        return None
    game = session.info.id
    if game == "bonefall":
        power = float(getattr(state, "power", 0))
        return power, f"Power {power:g}", _bar(power / max(power, POWER_SCALE))
    outcome = state.outcome()
    scores = list(outcome.scores) if outcome is not None else []
    mine = float(scores[0]) if scores else 0.0
    if game == "heptalion":
        best = best_possible(session)
        short = int(best[0] - mine) if best is not None else 0
        return mine, f"{mine:g} tiles fitted", FULL * int(mine) + EMPTY * max(0, short)
    result = session.result_for(0) or "draw"
    verdict = {"win": "Won", "loss": "Lost", "draw": "Drew"}[result]
    if game == "triangles":  # the pips left in hand: fewer is better; the score is the margin
        theirs = float(min(scores[1:], default=0))
        scale = max(mine, theirs, 1.0)
        words = f"{verdict}, pips left {mine:g}–{theirs:g}"
        return theirs - mine, words, f"{_bar(mine / scale)} you\n{_bar(theirs / scale)} computer"
    theirs = float(max(scores[1:], default=0))
    words = f"{verdict} {mine:g}–{theirs:g}"
    target = float(session.options.get("target", 0) or 0) or max(mine, theirs, 1.0)
    picture = f"{_bar(mine / target)} you\n{_bar(theirs / target)} computer"
    # The match hand by hand: who won each (· a blocked hand nobody won); the outcome only, no tile.
    hands = "".join(
        FULL if result.get("winner") == 0 else EMPTY if result.get("winner") is not None else "·"
        for result in state.view(0).get("hand_results", [])
    )
    return mine, words, f"{picture}\n{hands} hands won" if hands else picture


def said(session: Session, words: str) -> str:
    """Return a result's words, saying when the person took moves back or asked the Expert for hints."""
    hints = session.extra.get("hints")  # as ui.hints counts them (that module draws on the kit: not imported)
    return f"{words} (with help)" if session.take_backs or (isinstance(hints, int) and hints) else words


def _bar(share: float) -> str:
    filled = max(0, min(BAR, round(share * BAR)))
    return FULL * filled + EMPTY * (BAR - filled)


def best_possible(session: Session) -> tuple[float, str] | None:
    """Return the best score the engine knows for this Daily (Heptalion's proved maximum), or None."""
    if session.info.id != "heptalion" or not session.state.is_over():
        return None
    board = getattr(session.state, "board", None)
    if board is None:
        return None
    most, proven = _most(board)
    return float(most), f"The most that fit: {most}" + ("." if proven else " found (not proved the most).")


@lru_cache(maxsize=4)
def _most(board: Any) -> tuple[int, bool]:
    """Solve a board once (the card is drawn at every render, and drawing writes nothing)."""
    from boneyard.games.heptalion.solve import solve

    solution = solve(board, node_limit=200_000)  # a few milliseconds on a random board (the limit: a guard)
    return solution.max_tiles, solution.proven


EXPERT_GAMES = ("dominoes", "triangles", "bonefall")
BONEFALL_SLICE = 200  # steps of the autoplayer between two looks at the clock


def expert_run(session: Session) -> Generator[None, None, tuple[float, str]]:
    """Play this Daily's deal again with the Expert in the person's seat; return its (score, words).

    A generator that yields now and then (the page drives it between frames, as the computer's thinking):
    Dominoes and Triangles against the same computer, dealt by the same seed (the computers share one
    generator, so the Expert's own draws from it may change the computer's later random choices);
    Bonefall's autoplayer on the same piece sequence.
    """
    if session.info.id == "bonefall":
        from boneyard.games.bonefall import new_state
        from boneyard.games.bonefall.autoplay import AutoPlayer

        options = {k: v for k, v in session.options.items() if k in ("set", "mode")}
        state = new_state(session.seed, **options)
        player = AutoPlayer()
        while not state.is_over():
            for _ in range(BONEFALL_SLICE):
                if state.is_over():
                    break
                player.act(state)
                state.step()
            yield
        power = float(state.power)
        return power, f"The autoplayer on this sequence: Power {power:g}."
    seats = [Seat("computer", "Expert", "expert"), *session.seats[1:]]
    copy = Session.start(
        session.info, seats, session.mode, session.mode_label, session.options, seed=session.seed
    )
    while not copy.state.is_over():
        move = yield from cast(Generator[None, None, Any], copy.computer_thinking())
        copy.play_computer(move)
        yield
    result = result_of(copy)
    if result is None:  # not reached: the loop ends with the game
        return 0.0, ""
    return result[0], f"The Expert in your seat on this deal: {result[1]}."


def expert_line(session: Session, score: float) -> str:
    """Return the card's line on the Expert's game of this deal: worked out, or being worked out."""
    known = session.extra.get("daily_expert")
    if session.info.id not in EXPERT_GAMES:
        return ""
    if not isinstance(known, dict):
        return "Working out how the Expert plays this deal…"
    theirs = float(known.get("score", 0))
    verdict = "You beat it." if score > theirs else "You matched it." if score == theirs else "It did better."
    return f"{known.get('words', '')} {verdict}"


def share_text(game: str, day: str, words: str, picture: str, link: str, practice: bool = False) -> str:
    """Return the text Share copies: game, date, score, the picture and the day's link (no tile of the deal)."""
    head = f"Boneyard Daily · {game} · {day}" + (" (practice)" if practice else "")
    return "\n".join([head, words, picture, link])


def daily_link(base: str, game_id: str) -> str:
    """Return the address of a game's Daily on this site."""
    return screen_address(base, f"daily/{game_id}")


def card_text(session: Session, base: str) -> str | None:
    """Return the text Share copies for a finished Daily, or None."""
    marks = daily_of(session)
    result = result_of(session) if marks is not None else None
    if marks is None or result is None:
        return None
    link = daily_link(base, session.info.id)
    return share_text(
        session.info.name,
        marks["day"],
        said(session, result[1]),
        result[2],
        link,
        bool(marks.get("practice")),
    )


def daily_card(session: Session, base: str, compact: bool = False) -> Markup:
    """Return the Daily's card in the results: the score, the best possible, Share and the text to copy.

    ``compact`` (Bonefall's panel over the well, which shows the score already and puts ``share_button``
    beside its own): the day, opening on the text to copy.
    """
    marks = daily_of(session)
    if marks is None:
        return Markup("")  # an ordinary game: nothing solved, nothing drawn
    result, text = result_of(session), card_text(session, base)
    if result is None or text is None:
        return Markup("")
    score, words = result[0], said(session, result[1])
    practice = bool(marks.get("practice"))
    best = best_possible(session)
    compare = ""
    if best is not None:
        gap = best[0] - score
        compare = best[1] + (" You found the best." if gap <= 0 else f" You were {gap:g} short.")
    label = "Daily practice" if practice else "Daily"
    expert = expert_line(session, score)
    field = h(
        "textarea",
        {
            "class_": "daily-text",
            "id": "daily-text",
            "readonly": True,
            "rows": str(text.count("\n") + 2),  # every line, and room for the link to wrap
            "aria_label": "Your result to copy",
        },
        text,
    )
    share = share_button()
    if compact:
        return h(
            "section",
            {"class_": "daily-card is-compact", "id": "daily-card", "aria_labelledby": "daily-card-title"},
            h(
                "details",
                {"class_": "daily-more"},
                h("summary", {"id": "daily-card-title", "title": "The text to share"}, label),
                h("p", {"class_": "daily-expert", "id": "daily-expert", "aria_live": "polite"}, expert)
                if expert
                else "",
                field,
            ),
        )
    return h(
        "section",
        {"class_": "daily-card", "id": "daily-card", "aria_labelledby": "daily-card-title"},
        h("h3", {"id": "daily-card-title"}, f"{label} · {marks['day']}"),
        h("p", {"class_": "daily-score", "id": "daily-score"}, words),
        h("p", {"class_": "daily-best", "id": "daily-best"}, compare) if compare else "",
        h("p", {"class_": "daily-expert", "id": "daily-expert", "aria_live": "polite"}, expert)
        if expert
        else "",
        h(
            "p",
            {"class_": "hint"},
            "Practice: your first Daily of the day is the one that counts."
            if practice
            else "This is today's counted Daily. Play it again for practice.",
        ),
        h("div", {"class_": "actions daily-share"}, share),
        field,
    )


def share_button() -> Markup:
    """Return the Daily's Share button."""
    return h(
        "button",
        {"type": "button", "class_": "btn", "data_action": "daily-share", "id": "daily-share"},
        "Share",
    )


def page_card(session: Session, compact: bool = False) -> Markup:
    """Return ``daily_card`` with the links to this page's site (a table's results call this)."""
    from .ports import installed

    port = installed()
    return daily_card(session, port.page_address() if port is not None else "", compact)


# -- the records ------------------------------------------------------------------------------------------


def load_records(text: str | None) -> dict[str, dict[str, dict[str, Any]]]:
    """Return the Daily records from their stored text (empty when none or unreadable)."""
    try:
        return read_records(text)
    except saves.SaveError:
        return {}


def read_records(text: str | None) -> dict[str, dict[str, dict[str, Any]]]:
    """Return the Daily records from their stored text (empty when none); raise ``saves.SaveError``, saying
    why, when the text cannot be read (the page keeps it aside rather than write over it)."""
    if text is None:
        return {}
    data = saves.load_record(text, "daily")
    records: dict[str, dict[str, dict[str, Any]]] = {}
    for game, days in data.items():
        if isinstance(days, dict):
            records[str(game)] = {
                str(d): dict(e) for d, e in days.items() if isinstance(e, dict) and _is_day(str(d))
            }
    return records


def _is_day(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def save_records(records: Mapping[str, Any]) -> str:
    """Return the stored text of the Daily records."""
    return saves.dump_record("daily", records)


def note_attempt(records: dict[str, dict[str, dict[str, Any]]], session: Session) -> bool:
    """Keep a Daily's attempt as the day's record (its first move made it one); return True when changed.

    The first Daily of a day played past its first move is the record, finished or not; a later one that
    day is practice and changes nothing. The record's score is filled in when that attempt ends.
    """
    marks = daily_of(session)
    if marks is None or marks.get("practice"):
        return False
    days = records.setdefault(session.info.id, {})
    entry = days.get(marks["day"])
    if entry is not None and entry.get("uid") != session.uid:
        marks["practice"] = True  # another tab made the day's attempt first
        return False
    result = result_of(session)
    new: dict[str, Any] = {"uid": session.uid, "score": None, "words": "Not finished", "picture": ""}
    if result is not None:
        new.update(score=result[0], words=said(session, result[1]), picture=result[2])
        best = best_possible(session)
        if best is not None:
            new["best"] = best[0]
    if entry == new:
        return False
    days[marks["day"]] = new
    return True


def summary(records: Mapping[str, Any], game_id: str, today: date) -> dict[str, Any]:
    """Return a game's Daily record: days played, best, average, current and best streak, today's entry."""
    days = records.get(game_id, {})
    played = [date.fromisoformat(d) for d in days if _is_day(d)]
    scores = [float(e["score"]) for e in days.values() if isinstance(e.get("score"), (int, float))]
    current, best_run = streaks(played, today)
    return {
        "days": len(played),
        "best": max(scores) if scores else None,
        "average": sum(scores) / len(scores) if scores else None,
        "streak": current,
        "best_streak": best_run,
        "today": days.get(today.isoformat()),
    }


def home_daily(
    records: Mapping[str, Any], games: Iterable[GameInfo], playable: set[str], today: date
) -> Markup:
    """Return the home screen's Daily row: each game's Daily today (not played / the score) and its streak."""
    items = []
    for info in games:
        if info.id not in playable or info.id not in FORMS:
            continue
        facts = summary(records, info.id, today)
        entry = facts["today"]
        status = "Not played yet" if entry is None else str(entry.get("words") or "Played")
        streak = f" · streak {facts['streak']}" if facts["streak"] else ""
        items.append(
            h(
                "li",
                {"class_": "daily-item", "data_game": info.id},
                h(
                    "a",
                    {"class_": "btn daily-go", "href": f"#/daily/{info.id}", "id": f"daily-{info.id}"},
                    info.name,
                ),
                h("span", {"class_": "daily-status"}, status + streak),
            )
        )
    if not items:
        return Markup("")
    return h(
        "section",
        {"class_": "home-daily", "aria_labelledby": "home-daily-title"},
        h("h2", {"id": "home-daily-title"}, f"Daily · {today.isoformat()}"),
        h("p", {"class_": "hint"}, "The same deal for everyone today (UTC). Your first try counts."),
        h("ul", {"class_": "daily-list"}, items),
    )
