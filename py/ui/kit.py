"""The table kit: what every tile game's table is built from (pure, no browser).

Seats around the board, the hand tray docked at the bottom, one message line, one privacy gate for
Same device, the results panel over the board, the match scoreboard, the table's header tools
("?" and mute), take-back and review; the Expert's Hint in the message line and its analysis of a
finished game in the results panel (``ui.hints``). A table screen describes its seats and hands with the kit's
values and passes its own board markup in; the kit lays them out (``table``) so that every table fits
the viewport and the tray and its buttons never move between turns (``css/table.css``).

The kit's screen tests (``tests/screens/test_kit.py``) show its API in use.
"""

from __future__ import annotations

import json
import re
import shlex
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from boneyard import deals

from . import share
from .html import FSI, PDI, Markup, h, join, name_attr
from .intents import Intents, Render
from .session import Session

__all__ = [
    "REFUSAL_S",
    "Analysis",
    "Beat",
    "Hint",
    "KitState",
    "Refusal",
    "SeatView",
    "TableFacts",
    "button",
    "deal_check",
    "deal_committed",
    "deal_tag",
    "deal_verdict",
    "describe_list",
    "display_names",
    "gate_needed",
    "handle",
    "hands_private",
    "keep_whole",
    "last_beats",
    "merge_beats",
    "message_line",
    "plain_names",
    "plural",
    "privacy_gate",
    "rack",
    "refusal",
    "refuse",
    "results_panel",
    "review_bar",
    "review_caption",
    "review_key",
    "review_panel",
    "review_state",
    "reviewing",
    "scoreboard",
    "seat_card",
    "seat_positions",
    "seats",
    "shake",
    "short_name",
    "since_last_turn",
    "table",
    "table_facts",
    "take_back_button",
    "tools",
    "tray",
    "turn_token",
]

REFUSAL_S = 3.0  # how long a refused move's reason stays in the message line (it fades out)
POSITIONS: dict[int, tuple[str, ...]] = {
    1: (),
    2: ("across",),
    3: ("left", "right"),
    4: ("left", "across", "right"),
}


@dataclass(frozen=True)
class Refusal:
    """A refused move's reason on show in the message line (it fades out), and the tile that shakes."""

    text: str
    at: float  # time.monotonic() when it was refused
    tile: str | None = None


@dataclass
class Hint:
    """The Expert's hint of one position (``ui.hints``): thinking, then shown (or failed)."""

    key: list[Any]  # the session's uid and revision: the position it belongs to
    seat: int
    status: str = "thinking"  # "thinking", "shown", "failed"
    hidden: bool = False  # its card folded away (the marks stay)
    move: str = ""
    words: str = ""  # the move in words
    reason: str = ""
    chance: float = 0.0
    forced: bool = False
    next: tuple[str, float] | None = None  # the next best move in words, and its chance
    ms: int | None = None  # how long the Expert thought


@dataclass
class Analysis:
    """The Expert's review of a finished game's decisions (``ui.hints``): running, then done (or failed)."""

    uid: str  # the game's
    moves: int  # its moves when reviewed
    seat: int
    total: int  # the decisions to review
    status: str = "running"  # "running", "done", "failed"
    progress: float = 0.0
    entries: list[dict[str, Any]] = field(default_factory=list)  # a decision each: move, chances, best
    ms: int | None = None


@dataclass
class KitState:
    """The kit's own part of a table's UI state: privacy, the results panel, the review, the Expert."""

    face_up: bool = False  # View board: every hand face up (and the results folded)
    folded: bool = False  # the results panel folded away
    review: int | None = None  # the move number the open review shows (None: no review)
    review_first: int = 0  # the first move the review may show
    revealed: str | None = None  # the turn (``turn_token``) whose person pressed Show my tiles
    refusal: Refusal | None = None
    hint: Hint | None = None  # the Expert's hint of a position
    analysis: Analysis | None = None  # the Expert's review of the finished game
    deal_checked: bool = False  # Check the deal pressed: the finished game's seed and its check on show
    shared: tuple[str, str] | None = None  # the link made by the share row: its kind ("c", "r") and address


def plural(count: int, word: str, words: str = "") -> str:
    """Return ``1 tile`` / ``3 tiles`` (``words`` for an irregular plural)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


# -- who sits where ---------------------------------------------------------------------------------


def display_names(session: Session) -> list[str]:
    """Return each seat's name as tables show it: "You" for the one person against computers, else the
    typed name, isolated (``name_attr``) so it can go into sentences and attributes alike."""
    humans = session.human_seats  # this device's people only (an online room's others are "guest")
    solo = len(humans) == 1 and "replay" not in session.extra  # a replay's person is the friend who sent it
    return [
        "You" if solo and i == humans[0] else name_attr(seat.name) for i, seat in enumerate(session.seats)
    ]


LEVEL_SUFFIX = re.compile(r" \((Easy|Medium|Hard|Expert)\)$")


def plain_names(session: Session) -> list[str]:
    """Return ``display_names`` without a computer's level ("Computer 1", not "Computer 1 (Medium)"), for
    a results table that says who, not how strong."""
    humans = session.human_seats
    solo = len(humans) == 1 and "replay" not in session.extra
    return [
        "You"
        if solo and i == humans[0]
        else name_attr(LEVEL_SUFFIX.sub("", seat.name) if seat.is_computer else seat.name)
        for i, seat in enumerate(session.seats)
    ]


def seat_positions(players: int, me: int) -> list[tuple[int, str]]:
    """Return (seat, position) of the other seats in play order after ``me``: across for two players;
    left and right for three; left, across and right for four."""
    names = POSITIONS.get(players, ())
    return [
        ((me + offset) % players, names[offset - 1]) for offset in range(1, players) if offset <= len(names)
    ]


@dataclass(frozen=True)
class SeatView:
    """One seat as the table shows it (everything already in words; ``name`` isolated)."""

    seat: int
    name: str
    level: str = ""  # a computer's level ("Medium"); shown unless the name says it already
    count: int = 0  # tiles in hand
    score: float | None = None  # match score, or None outside a match
    last: str = ""  # what they did last: "laid 6-4", "drew 2", "passed"
    to_move: bool = False
    thinking: bool = False  # a computer choosing its move
    local: bool = False  # the seat the table is drawn for (a flag, never a name comparison)
    backs: Markup | None = None  # the game's own face-down tiles; the kit draws plain backs otherwise
    face_up: Markup | None = None  # the hand face up (View board, results, review)
    tile_word: str = "tile"
    last_call: str = "Last tile!"  # called out when the seat is down to one tile ("" for none)
    playing: bool = True  # the hand is in play: the call is for a tile still to come, not a summary's
    arrived: str = ""  # a selector the seat's tiles just came from (a draw): they slide in from there


def _backs(count: int) -> Markup:
    shown = min(count, 8)
    return h(
        "span",
        {"class_": "kit-backs", "aria_hidden": "true"},
        [h("i", {"class_": "kit-back"}) for _ in range(shown)],
    )


_COMPUTER = re.compile(r"Computer(?: (\d+))?(?: \(.*\))?")
STAR = " ★"  # Heptalion marks the seat that started


def short_name(name: str) -> str:
    """Return a seat's name short enough for a phone's row of three seats: "Bot 2", a first name.

    The star that marks Heptalion's starter stays; the result is isolated as the name was.
    """
    plain = str(name).replace(FSI, "").replace(PDI, "").strip()
    star = STAR if plain.endswith(STAR) else ""
    plain = plain.removesuffix(STAR).strip()
    computer = _COMPUTER.fullmatch(plain)
    if computer:
        short = f"Bot {computer.group(1)}" if computer.group(1) else "Bot"
    else:
        short = plain.split()[0] if plain.split() else plain
    return name_attr(short) + star


def seat_card(view: SeatView, position: str) -> Markup:
    """Return one seat around the table: name, level, tiles (backs or face up), score, last action."""
    cls = ["kit-seat"]
    if view.to_move:
        cls.append("is-turn")
    if view.thinking:
        cls.append("is-thinking")
    tiles = plural(view.count, view.tile_word)
    score = f", {plural(int(view.score), 'point')}" if view.score is not None else ""
    label = f"{view.name}{' (' + view.level + ')' if view.level and view.level not in view.name else ''}: {tiles}{score}"
    if view.last:
        label += f", {view.last}"
    if view.to_move:
        label += ", thinking" if view.thinking else ", to move"
    call = view.last_call if view.count == 1 and view.playing else ""
    short = short_name(view.name)
    attrs = {"class_": " ".join(cls), "data_seat": view.seat, "data_pos": position, "aria_label": label}
    attrs["data_key"] = view.seat
    return h(
        "li",
        {**attrs, "title": name_attr(view.name) if short != view.name else None},  # isolated, as the label
        h(
            "div",
            {"class_": "kit-seat-head"},
            h("span", {"class_": "kit-seat-name"}, view.name),
            # A phone's row of three seats shows the short form (css/table.css); the title has it whole.
            h("span", {"class_": "kit-seat-name kit-seat-short", "aria_hidden": "true"}, short)
            if short != view.name
            else "",
            h("span", {"class_": "kit-seat-level"}, view.level)
            if view.level and view.level not in view.name
            else "",
            h("span", {"class_": "kit-seat-score"}, _n(view.score)) if view.score is not None else "",
        ),
        h(
            "div",
            {"class_": "kit-seat-tiles", "data_kit_from": view.arrived or None},
            view.face_up
            if view.face_up is not None
            else (view.backs if view.backs is not None else _backs(view.count)),
            h("span", {"class_": "kit-seat-count"}, view.count),
            h("span", {"class_": "kit-call"}, call) if call else "",  # one tile leaves room beside it
        ),
        h(
            "div",
            {"class_": "kit-seat-last"},
            h("span", {}, "thinking…" if view.thinking else view.last),
        ),
    )


def _n(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def seats(views: Sequence[SeatView], me: int, label: str = "Other players") -> Markup:
    """Return the other seats placed around the board (``views`` holds every seat, ``me`` included)."""
    by_seat = {v.seat: v for v in views}
    cards = [seat_card(by_seat[s], pos) for s, pos in seat_positions(len(views), me) if s in by_seat]
    return h("ul", {"class_": f"kit-seats kit-seats-{len(cards)}", "aria_label": label}, cards)


# -- what happened ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Beat:
    """One public action in words: ``Beat(1, "laid 6-4")``; ``kind="draw"`` beats of a seat in a row merge."""

    seat: int
    text: str
    kind: str = ""
    count: int = 1


def merge_beats(beats: Iterable[Beat], draw_word: str = "drew") -> list[Beat]:
    """Merge each run of one seat's draws into one beat: "drew 4"."""
    out: list[Beat] = []
    for beat in beats:
        if beat.kind == "draw" and out and out[-1].kind == "draw" and out[-1].seat == beat.seat:
            count = out[-1].count + beat.count
            out[-1] = Beat(beat.seat, f"{draw_word} {count}", "draw", count)
        elif beat.kind == "draw":
            out.append(Beat(beat.seat, f"{draw_word} {beat.count}", "draw", beat.count))
        else:
            out.append(beat)
    return out


def since_last_turn(beats: Sequence[Beat], seat: int, names: Sequence[str]) -> str:
    """Return what the others did since ``seat`` last acted: "Ben laid 6-4, Ada drew 2" ("" for nothing)."""
    last = max((i for i, b in enumerate(beats) if b.seat == seat), default=-1)
    after = [b for b in beats[last + 1 :] if b.seat != seat]
    return ", ".join(f"{names[b.seat]} {b.text}" for b in after)


def last_beats(beats: Sequence[Beat]) -> dict[int, str]:
    """Return each seat's latest beat in words."""
    return {b.seat: b.text for b in beats}


# -- the message line ---------------------------------------------------------------------------------


def refuse(ctx: Any, message: str, tile: str | None = None) -> None:
    """Show a refused move's reason in the message line (it fades out) and shake ``tile``."""
    ctx.ui.kit.refusal = Refusal(message[:1].upper() + message[1:], time.monotonic(), tile)


def refusal(ctx: Any) -> Refusal | None:
    """Return the refusal still on show, or None once it has faded (nothing is written: a render reads)."""
    found: Refusal | None = ctx.ui.kit.refusal
    if found is None or time.monotonic() - found.at > REFUSAL_S:
        return None
    return found


def shake(ctx: Any, value: str) -> bool:
    """Tell whether the tile ``value`` was just refused (add the class ``kit-shake`` to it)."""
    found = refusal(ctx)
    return bool(found and found.tile == value and time.monotonic() - found.at < 0.6)


def message_line(
    ctx: Any, text: Any, *, tone: str = "", hint: Sequence[Any] = (), comment: str = ""
) -> Markup:
    """Return the one message line: the turn text, with a refused move's reason over it while it fades.

    ``hint`` is the Expert's button, card and marks (``ui.hints``, placed by ``ui.frame``); ``comment``
    what the Expert said of the reviewed move, which replaces the table's words.
    """
    found = refusal(ctx)
    over: Any = ""
    if found:
        age = time.monotonic() - found.at
        over = h(
            "span",
            {
                "class_": "kit-refusal",
                "role": "alert",
                "style": f"animation-delay: -{age:.2f}s",
                "data_key": f"{age:.2f}",  # a new node each render, its fade set on by its age (the delay)
            },
            h("span", {}, found.text),
        )
    step = reviewing(ctx)
    if comment:  # it replaces the table's words, which the review bar's caption says already
        text = h("b", {"class_": "kit-review-comment"}, keep_whole(comment))
    elif step is not None and isinstance(text, str) and not isinstance(text, Markup):
        text = keep_whole(text)
    shown = [part for part in hint if part]
    return h(
        "div",
        {
            "class_": "kit-message" + (f" is-{tone}" if tone else "") + (" has-hint" if shown else ""),
            "id": "kit-message",
        },
        h(
            "p",
            {"class_": "kit-turn", "id": "kit-turn", "role": "status", "aria_live": "polite"},
            h("span", {}, text),
        ),
        over,
        shown,
    )


# -- the tray -----------------------------------------------------------------------------------------


def button(
    action: str,
    label: str,
    *,
    enabled: bool = True,
    primary: bool = False,
    bid: str = "",
    value: str = "",
    key: str = "",
    title: str = "",
) -> Markup:
    """Return a tray button (kept in place while disabled, so nothing moves between turns)."""
    return h(
        "button",
        {
            "type": "button",
            "class_": "btn kit-btn" + (" btn-primary" if primary and enabled else ""),
            "data_action": action,
            "data_value": value or None,
            "id": bid or action,
            "disabled": not enabled,
            "aria_keyshortcuts": key or None,
            "title": title or None,
        },
        label,
    )


def take_back_button(session: Session, enabled: bool = True) -> Markup:
    """Return the Take back button (only against the computer; enabled when there is a turn to go back to)."""
    if not session.can_offer_take_back():
        return Markup("")
    return button(
        "take-back",
        "Take back",
        enabled=enabled and session.can_take_back(),
        bid="take-back",
        key="U",
        title="Back to your previous turn. A game with take-backs is not counted in your stats.",
    )


RACK_ROWS = 6  # a hand may take up to this many rows of the tray


def rack(tiles: Any, count: int, cls: str = "", data: dict[str, Any] | None = None) -> Markup:
    """Return a hand's tiles sized to the tray (css/table.css): each as large as the tray lets it be, in
    whichever number of rows (one to six) shows it largest, so no tile ever hides or needs a scroll.

    ``data`` are more ``data-`` attributes of the rack (``{"dealt": 14}``).
    """
    n = max(1, count)
    style = "; ".join(f"--n{rows}: {-(-n // rows)}" for rows in range(1, RACK_ROWS + 1))
    props: dict[str, Any] = {"class_": f"kit-rack {cls}".strip(), "style": style}
    props.update({f"data_{key}": str(value) for key, value in (data or {}).items()})
    return h("div", props, tiles)


def tray(
    tiles: Any,
    buttons: Sequence[Any],
    *,
    label: str,
    info: Any = "",
    my_turn: bool = False,
    hidden: str = "",
) -> Markup:
    """Return the hand tray docked at the bottom: a heading line, the tiles (or why they are hidden), buttons.

    The tray keeps its height and its buttons their places whatever the hand holds.
    """
    body = h("p", {"class_": "kit-hidden-hand"}, hidden) if hidden else tiles
    return h(
        "section",
        {
            "class_": "kit-tray" + (" is-turn" if my_turn else ""),
            "aria_label": label,
            "id": "kit-tray",
            "tabindex": "-1",
            "data_focus_home": True,
        },
        h(
            "div",
            {"class_": "kit-tray-head"},
            h("h2", {"class_": "kit-tray-title"}, label),
            h("span", {"class_": "kit-tray-info"}, info),
        ),
        h("div", {"class_": "kit-tray-tiles", "role": "group", "aria_label": label}, body),
        h("div", {"class_": "kit-tray-buttons"}, list(buttons)),
    )


# -- the header tools and the scoreboard ------------------------------------------------------------------


def tools(game_id: str, sound_on: bool, extra: Any = "") -> Markup:
    """Return the table's header tools: anything ``extra`` (the scoreboard), the mute button and "?"."""
    return h(
        "div",
        {"class_": "kit-tools"},
        extra,
        h(
            "button",
            {
                "type": "button",
                "class_": "btn kit-tool",
                "data_action": "toggle-sound",
                "id": "kit-mute",
                "aria_pressed": "false" if sound_on else "true",
                "aria_label": "Mute sounds" if sound_on else "Sounds are off: turn them on",
                "title": "Sound on" if sound_on else "Sound off",
            },
            _speaker(sound_on),
        ),
        h(
            "button",
            {
                "type": "button",
                "class_": "btn kit-tool",
                "data_action": "rules",
                "data_value": game_id,
                "id": "kit-rules",
                "aria_label": "How to play",
                "title": "How to play",
            },
            "?",
        ),
    )


def deal_committed(session: Session) -> bool:
    """Tell whether the table shows a commitment to its deal: a game against the computer on this device.

    An online room's deal is committed and checked its own way; Bonefall has no one to deal against.
    """
    return session.vs_computer and not session.online and not session.info.realtime


def shown_commitment(session: Session) -> str:
    """Return the commitment the table showed at the start (kept when dealt; an older save's from its seed)."""
    kept = session.extra.get("deal")
    if isinstance(kept, str) and kept:
        return kept
    try:
        return deals.deal_commitment(session.seed)
    except ValueError:
        return ""


def deal_tag(session: Session) -> Markup:
    """Return the commitment to the deal for the header tools ("Deal a1b2 c3d4 e5f6"): never the seed."""
    commitment = shown_commitment(session)
    if not deal_committed(session) or not commitment:
        return Markup("")
    short = deals.short_commitment(commitment)
    why = (
        f"Deal {short}: a fingerprint of this game's deal, fixed before the first move. "
        "At the end, Check the deal shows the deal came from it."
    )
    return h(
        "span",
        {"class_": "kit-deal", "id": "kit-deal", "title": why, "aria_label": why},
        # "Deal" and three groups of four digits in two rows: small enough beside a phone's title.
        h("span", {"class_": "kit-deal-word"}, "Deal"),
        [join([" ", h("span", {}, part)]) for part in short.split()],
    )


def rated_line(session: Session) -> Markup:
    """Return a rated table's line for its results: what the rated game came to (the rating's change, or
    why it is not rated) once known, else a quick match's "Rated game" or "Not rated: a computer plays"."""
    note = session.extra.get("rated_note")
    rated = session.extra.get("rated")
    if isinstance(note, str) and note:
        words = note
    elif rated is None:
        return Markup("")
    else:
        words = "Rated game" if rated else "Not rated: a computer plays"
    return h("p", {"class_": "hint kit-rated", "id": "kit-rated"}, words)


@dataclass(frozen=True)
class DealVerdict:
    """What Check the deal found: the seed, its commitment, whether the game played follows from it."""

    ok: bool
    seed: int
    commitment: str
    matches: bool  # the seed is the one the table's commitment was made to
    replays: bool | None  # every move replays on the seed's deal to the game played (None: no whole log)
    hands: list[list[str]]  # each seat's opening hand as the seed deals it
    command: str


def deal_verdict(session: Session) -> DealVerdict:
    """Deal the session's seed again and check it against the commitment shown and the game played.

    The game played follows from the seed when its every move, replayed on the seed's fresh deal, leads to
    the very position on the table: a different first deal would refuse a move or end elsewhere.
    """
    seed = session.seed
    shown = shown_commitment(session)
    matches = deals.check_commitment(seed, shown)
    commitment = shown  # the one the player saw, which the command line checks too
    replays: bool | None = None
    if session.moves is not None:
        try:
            replays = session.replay(len(session.moves)).to_dict() == session.state.to_dict()
        except Exception:  # a move the seed's deal refuses: not the game played
            replays = False
    try:
        hands = deals.redeal(session.info.id, seed, session.options)
    except Exception:  # a damaged save's seed or options: the verdict says the deal does not check out
        hands, replays = [], False
    options = "".join(
        " --option " + shlex.quote(f"{name}={json.dumps(value, separators=(',', ':'))}")
        for name, value in sorted(session.options.items())
    )
    command = (
        f"PYTHONPATH=py python3 -m boneyard.deals --game {session.info.id} --seed {seed}"
        f" --commitment {commitment}{options}"
    )
    return DealVerdict(matches and replays is not False, seed, commitment, matches, replays, hands, command)


def deal_check(ctx: Any) -> Markup:
    """Return Check the deal for a finished game's results, and once pressed what it found."""
    session: Session = ctx.session
    if not deal_committed(session) or not session.state.is_over() or not shown_commitment(session):
        return Markup("")
    if not ctx.ui.kit.deal_checked:
        return h(
            "div",
            {"class_": "kit-deal-check", "id": "kit-deal-check"},
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn",
                    "data_action": "kit-check-deal",
                    "id": "check-deal",
                    "title": "Reveal the seed and deal it again, to see the computer did not choose the deal",
                },
                "Check the deal",
            ),
        )
    found = deal_verdict(session)
    if found.ok and found.replays:
        words = "✓ Fair deal: the seed matches the commitment shown at the start, and it deals this game."
    elif found.ok:
        words = "✓ The seed matches the commitment shown at the start (this game's moves were not all kept)."
    elif not found.matches:
        words = "✗ The deal does not check out: the seed does not match the commitment."
    else:
        words = "✗ The deal does not check out: the game played is not the one this seed deals."
    names = plain_names(session)
    return h(
        "div",
        {"class_": "kit-deal-check", "id": "kit-deal-check"},
        h(
            "p",
            {
                "class_": f"deal-result {'deal-ok' if found.ok else 'deal-bad'}",
                "id": "deal-result",
                "role": "status",
                # The pressed button is gone: the app puts the focus here, on what it revealed, and
                # not on the tray below the results.
                "tabindex": "-1",
                "data_focus_home": True,
            },
            words,
        ),
        h(
            "dl",
            {"class_": "kit-deal-facts"},
            h("dt", {}, "Seed"),
            h("dd", {"id": "deal-seed"}, str(found.seed)),
            h("dt", {}, "Commitment"),
            h("dd", {"class_": "kit-deal-hex", "id": "deal-commitment"}, found.commitment),
        ),
        h("p", {"class_": "hint"}, "The first deal this seed gives:") if found.hands else "",
        h(
            "dl",
            {"class_": "kit-deal-facts kit-deal-hands", "id": "deal-hands"},
            [
                join(
                    [
                        h("dt", {}, names[seat] if seat < len(names) else f"Seat {seat + 1}"),
                        h("dd", {}, keep_whole(" ".join(hand))),
                    ]
                )
                for seat, hand in enumerate(found.hands)
                if hand
            ],
        )
        if found.hands
        else "",
        h("p", {"class_": "hint"}, "Check it yourself with Boneyard's engine:"),
        h("code", {"class_": "kit-deal-command", "id": "deal-command"}, found.command),
    )


def _speaker(on: bool) -> Markup:
    waves = (
        h(
            "path",
            {
                "d": "M15 9a4 4 0 0 1 0 6M18 6a8 8 0 0 1 0 12",
                "fill": "none",
                "stroke": "currentColor",
                "stroke_width": "2",
                "stroke_linecap": "round",
            },
        )
        if on
        else h(
            "path",
            {
                "d": "M16 9l5 6M21 9l-5 6",
                "fill": "none",
                "stroke": "currentColor",
                "stroke_width": "2",
                "stroke_linecap": "round",
            },
        )
    )
    return h(
        "svg",
        {"viewBox": "0 0 24 24", "width": "22", "height": "22", "aria_hidden": "true", "focusable": "false"},
        h("path", {"d": "M3 9h4l5-4v14l-5-4H3z", "fill": "currentColor"}),
        waves,
    )


def scoreboard(
    names: Sequence[str],
    totals: Sequence[float],
    target: float | None,
    history: Sequence[Sequence[float]] = (),
    *,
    open_: bool = False,
) -> Markup:
    """Return a match's running scoreboard: totals and target, with the hand-by-hand history to open.

    ``history`` holds one row a finished hand: the points each seat scored in it.
    """
    lead = max(totals) if totals else 0
    summary = h(
        "summary",
        {
            "class_": "kit-score-sum",
            "aria_label": "Match score: "
            + ", ".join(f"{n} {_n(t)}" for n, t in zip(names, totals))
            + (f"; first to {_n(target)}" if target else ""),
        },
        [
            h(
                "span",
                {"class_": "kit-score-item" + (" is-lead" if t == lead and t > 0 else "")},
                h("span", {"class_": "kit-score-name"}, n),
                " ",
                h("b", {}, _n(t)),
            )
            for n, t in zip(names, totals)
        ],
        h("span", {"class_": "kit-score-short", "aria_hidden": "true"}, "Score"),
        h("span", {"class_": "kit-score-target"}, f"to {_n(target)}") if target else "",
    )
    head = h("tr", {}, h("th", {"scope": "col"}, "Hand"), [h("th", {"scope": "col"}, n) for n in names])
    rows = [
        h("tr", {}, h("th", {"scope": "row"}, i + 1), [h("td", {}, _n(p) if p else "–") for p in row])
        for i, row in enumerate(history)
    ]
    rows.append(
        h(
            "tr",
            {"class_": "kit-score-total"},
            h("th", {"scope": "row"}, "Total"),
            [h("td", {}, _n(t)) for t in totals],
        )
    )
    table_ = h("table", {"class_": "stats-table kit-score-table"}, h("thead", {}, head), h("tbody", {}, rows))
    return h(
        "details",
        {"class_": "kit-score", "id": "kit-score", "open": open_},
        summary,
        h("div", {"class_": "kit-score-pop"}, table_ if history else h("p", {}, "No hand finished yet.")),
    )


# -- privacy -------------------------------------------------------------------------------------------


def turn_token(view: dict[str, Any]) -> str:
    """Return the key of the turn in progress: its seat and the move number it began at.

    A seat that acts several times in a row (draws, then lays) stays in one turn; the next seat's turn
    is a new one, even when it is the same person's again after the computers played.
    """
    turn = view.get("turn")
    history = view.get("history") or []
    run = 0
    for event in reversed(history):
        if event.get("seat") != turn:
            break
        run += 1
    return f"{turn}:{int(view.get('turn_number', 0)) - run}"


def gate_needed(ctx: Any, session: Session, view: dict[str, Any]) -> bool:
    """Tell whether the privacy gate is up: Same device, a person to move who has not shown their tiles."""
    if len(session.human_seats) < 2 or view.get("over"):
        return False
    turn = view.get("turn")
    if turn is None or session.seats[turn].is_computer:
        return False
    return bool(ctx.ui.kit.revealed != turn_token(view))


def hands_private(session: Session, view: dict[str, Any], ctx: Any) -> bool:
    """Tell whether the tray must hide its tiles: Same device and no revealed person is to move."""
    if len(session.human_seats) < 2 or view.get("over"):
        return False
    turn = view.get("turn")
    if turn is None or session.seats[turn].is_computer:
        return True
    return bool(ctx.ui.kit.revealed != turn_token(view))


def privacy_gate(
    name: str, since: str, *, title: str = "", first: str = "Your first turn of this hand."
) -> Markup:
    """Return the privacy gate: whose turn it is, what happened since their last turn, Show, Home."""
    return h(
        "div",
        {
            "class_": "overlay privacy kit-gate",
            "role": "dialog",
            "aria_modal": "true",
            "aria_labelledby": "privacy-title",
        },
        h(
            "div",
            {"class_": "dialog"},
            h("h2", {"id": "privacy-title"}, title or f"{name}'s turn"),
            h(
                "p",
                {"class_": "kit-since"},
                f"Since your last turn: {since}." if since else first,
            ),
            h("p", {}, f"Pass the device to {name}. The others look away."),
            h(
                "div",
                {"class_": "actions"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "btn btn-primary",
                        "data_action": "reveal",
                        "id": "reveal",
                        "autofocus": True,
                    },
                    "Show my tiles",
                ),
                h("a", {"class_": "btn btn-ghost", "href": "#/"}, "Home"),
            ),
        ),
    )


# -- results ----------------------------------------------------------------------------------------------


class FoldedResults(Markup):
    """Mark the folded results, which ``table`` docks in the message line's place, off the board."""

    __slots__ = ()


def results_panel(
    ctx: Any,
    title: str,
    body: Any,
    actions: Sequence[Any],
    *,
    note: str = "",
    review: bool = True,
    title_id: str = "over-title",
    more: Sequence[Any] = (),
    analysis: Any = "",
) -> Markup:
    """Return the results, opaque over the board: collapsible, with View board and Review.

    ``actions`` are the buttons of what comes next (Next hand, Play again ...), always in view at the
    panel's foot; ``more`` are secondary links (New game, Home) after the result (beside it on a wide
    table, with the Expert's ``analysis``). View board shows every hand face up (``KitState.face_up``)
    and folds the panel; the screen draws the hands face up.
    """
    folded = ctx.ui.kit.folded
    face_up = ctx.ui.kit.face_up
    tools_ = [
        h(
            "button",
            {
                "type": "button",
                "class_": "btn btn-ghost kit-fold",
                "data_action": "kit-fold",
                "id": "kit-fold",
                "aria_expanded": "false" if folded else "true",
                "aria_controls": "kit-results-body",
            },
            "Show results" if folded else "Hide",
        )
    ]
    view_board = h(
        "button",
        {
            "type": "button",
            "class_": "btn",
            "data_action": "kit-view-board",
            "id": "view-board",
            "aria_pressed": "true" if face_up else "false",
        },
        "Hide hands" if face_up else "View board",
    )
    review_btn = (
        h(
            "button",
            {
                "type": "button",
                "class_": "btn",
                "data_action": "kit-review",
                "data_value": "open",
                "id": "review",
            },
            "Review",
        )
        if review
        else ""
    )
    more_ = h("div", {"class_": "actions kit-results-more"}, list(more)) if more else ""
    check = deal_check(ctx)
    versus, shared = share.versus(ctx.session), share.share_row(ctx)
    daily = daily_card(ctx)  # first beside the result: a Daily's score, its comparison and Share
    panel = h(
        "section",
        {
            "class_": "kit-results" + (" is-folded" if folded else ""),
            "aria_labelledby": title_id,
            "id": "kit-results",
        },
        h("div", {"class_": "kit-results-head"}, h("h2", {"id": title_id}, title), tools_),
        h(
            "div",
            {"class_": "kit-results-body", "id": "kit-results-body", "hidden": folded, "tabindex": "0"},
            # The result itself, then what else there is: side by side on a wide table (css/table.css).
            h(
                "div",
                {"class_": "kit-results-main"},
                versus,
                body,
                h("p", {"class_": "hint"}, note) if note else "",
                rated_line(ctx.session),
                shared,
            ),
            h("div", {"class_": "kit-results-side"}, daily, analysis, more_, check)
            if daily or analysis or more or check
            else "",
        ),
        h("div", {"class_": "kit-results-foot", "hidden": folded}, list(actions), view_board, review_btn),
    )
    return FoldedResults(panel) if folded else panel


def daily_card(ctx: Any) -> Markup:
    """Return the Daily's card for a finished Daily (the score, the best possible, Share), else nothing."""
    from .daily import page_card  # the Daily's module seats players through the shell: imported late

    return page_card(ctx.session)


# -- review -----------------------------------------------------------------------------------------------


def reviewing(ctx: Any) -> int | None:
    """Return the move number the review shows, or None when no review is open."""
    step: int | None = ctx.ui.kit.review
    return step


def review_state(session: Session, step: int) -> Any:
    """Return the game as it was after ``step`` moves (replayed on a fresh deal from the session's moves)."""
    return session.replay(step)


def review_caption(beats: Sequence[Beat], names: Sequence[str]) -> str:
    """Return what the review's move did, in words: "Ben laid 6-4" ("the deal" before the first move)."""
    last = beats[-1] if beats else None
    return f"{names[last.seat]} {last.text}" if last else "the deal"


def review_bar(step: int, total: int, caption: str = "") -> Markup:
    """Return the review's controls: First, Back, Forward, Last and Close, with where we are."""

    def icon(path: str) -> Markup:  # drawn, not a font's media symbol (Debian's Chromium shows ⏮ as a box)
        return h(
            "svg",
            {
                "viewBox": "0 0 16 16",
                "width": "16",
                "height": "16",
                "aria_hidden": "true",
                "focusable": "false",
            },
            h("path", {"d": path, "fill": "currentColor"}),
        )

    def nav(value: str, label: str, symbol: Markup, enabled: bool) -> Markup:
        return h(
            "button",
            {
                "type": "button",
                "class_": "btn kit-review-btn",
                "data_action": "kit-review",
                "data_value": value,
                "id": f"review-{value}",
                "aria_label": label,
                "title": label,
                "disabled": not enabled,
            },
            symbol,
        )

    return h(
        "div",
        {"class_": "kit-review", "role": "group", "aria_label": "Review"},
        nav("first", "First move", icon("M3 2h2v12H3zM14 2v12L6 8z"), step > 0),
        nav("back", "Back one move", icon("M12 2v12L4 8z"), step > 0),
        h(
            "span",
            {"class_": "kit-review-where", "id": "review-where", "aria_live": "polite"},
            f"Move {step} of {total}",
            join([" · ", keep_whole(caption)]) if caption else "",
        ),
        nav("forward", "Forward one move", icon("M4 2v12l8-6z"), step < total),
        nav("last", "Last move", icon("M11 2h2v12h-2zM2 2v12l8-6z"), step < total),
        h(
            "button",
            {
                "type": "button",
                "class_": "btn btn-ghost kit-review-btn",
                "data_action": "kit-review",
                "data_value": "close",
                "id": "review-close",
            },
            "Close",
        ),
    )


def review_panel(ctx: Any, step: int, caption: str = "") -> Markup:
    """Return the review's panel over the board: its controls, and the share row of the game reviewed."""
    return h(
        "section",
        {"class_": "kit-review-panel", "aria_label": "Review"},
        review_bar(step, ctx.session.move_count(), caption),
        share.share_row(ctx),
    )


REVIEW_KEYS = {"ArrowLeft": "back", "ArrowRight": "forward", "Home": "first", "End": "last"}


def review_key(ctx: Any, key: str) -> Intents | None:
    """Step the open review by keyboard (left and right arrows: back and forward; Home, End); return what
    follows, or None when the key was not the review's."""
    if reviewing(ctx) is None or key not in REVIEW_KEYS:
        return None
    return handle(ctx, "kit-review", REVIEW_KEYS[key])


# A tile's name: "6-4", "2-4-5", "cross–plus" (its hyphen or dash must not end a line).
_TILE_NAME = re.compile(r"\b\d(?:-\d)+\b|\b[a-z]+–[a-z]+\b")


def keep_whole(text: str) -> Markup:
    """Return ``text`` with each tile name in it kept on one line."""
    out: list[Any] = []
    at = 0
    for found in _TILE_NAME.finditer(text):
        out += [text[at : found.start()], h("span", {"class_": "kit-tile-name"}, found.group())]
        at = found.end()
    out.append(text[at:])
    return join(out)


def handle(ctx: Any, action: str, value: str, *, first: int = 0) -> Intents | None:
    """Carry out the kit's own actions (privacy, results panel, review); return what follows, or None
    when the action is not the kit's.

    ``first`` is the first move the review may show (a match's review starts at its last hand).
    """
    session: Session = ctx.session
    kit: KitState = ctx.ui.kit
    if action in ("reveal", "kit-reveal"):
        seat = session.to_move()
        view = session.state.view(seat if seat is not None else 0)
        kit.revealed = turn_token(view)
    elif action == "kit-check-deal":
        kit.deal_checked = session.state.is_over()  # the seed never shows before the end
    elif action == "kit-fold":
        kit.folded = not kit.folded
    elif action == "kit-view-board":
        kit.face_up = not kit.face_up
        kit.folded = kit.face_up
    elif action == "kit-review":
        total = session.move_count()
        step = kit.review
        if value == "open":
            kit.review, kit.review_first = total, first
        elif value.startswith("at:") and value[3:].isdigit():  # a move of the Expert's review
            at = max(0, min(total, int(value[3:])))
            kit.review, kit.review_first = at, min(first, at)
        elif value == "close" or step is None:
            kit.review = None
        else:
            low = kit.review_first
            moves = {"first": low, "back": step - 1, "forward": step + 1, "last": total}
            kit.review = max(low, min(total, moves.get(value, step)))
    else:
        return None
    return [Render()]


# -- the table ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableFacts:
    """What one drawing of a table knows, found once (``table_facts``) and read by every part of it."""

    state: Any  # the position shown: the session's, or in a review the one replayed to ``step``
    view: Mapping[str, Any]  # the viewer's view of it
    viewer: int  # the seat the table is drawn for
    names: tuple[str, ...]  # each seat's name as the table shows it
    step: int | None  # the review's move, or None when no review is open
    turn: int | None  # the seat to move (None once over)
    over: bool
    paused: bool  # a finished hand on show until Next hand (no one moves)
    gate: bool  # the privacy gate is up (Same device: pass the device)
    hidden: bool  # the tray hides its tiles
    mine: bool  # the viewer's person is to move, tiles shown: the table takes their moves

    @property
    def review(self) -> bool:
        """Tell whether the table shows the review."""
        return self.step is not None

    @property
    def legal(self) -> list[str]:
        """Return the moves the table takes now (none unless it is the viewer's turn)."""
        return list(self.view.get("legal_moves") or []) if self.mine else []


class FactsPart(Protocol):
    """What the facts ask of a game's part."""

    def names(self, ctx: Any) -> list[str]:
        """Return each seat's name as the table shows it."""
        ...

    def paused(self, ctx: Any) -> bool:
        """Tell whether play waits for the player (a finished hand on show)."""
        ...

    def private_hands(self, view: Mapping[str, Any]) -> bool:
        """Tell whether this position's hands are kept from the other people on the device."""
        ...


def table_facts(ctx: Any, part: FactsPart) -> TableFacts:
    """Return the facts of the table as it is to be drawn now: the review's position when one is open."""
    session: Session = ctx.session
    viewer = session.viewer()
    step = reviewing(ctx)
    if step is not None and session.move_count():
        step = min(step, session.move_count())
        state = session.replay(step)
    else:
        step, state = None, session.state
    view = state.view(viewer)
    turn = view.get("turn")
    over = bool(state.is_over())
    live = step is None
    paused = live and part.paused(ctx)
    private = live and not paused and part.private_hands(view)
    gate = private and gate_needed(ctx, session, dict(view))
    hidden = private and hands_private(session, dict(view), ctx)
    mine = (
        live
        and not over
        and not paused
        and not hidden
        and turn == viewer
        and not session.seats[viewer].is_computer
    )
    return TableFacts(
        state=state,
        view=view,
        viewer=viewer,
        names=tuple(part.names(ctx)),
        step=step,
        turn=turn,
        over=over,
        paused=paused,
        gate=gate,
        hidden=hidden,
        mine=mine,
    )


def table(
    *,
    game_id: str,
    board: Any,
    message: Any,
    tray_: Any,
    seats_: Any = "",
    tools_: Any = "",
    panel: Any = "",
    gate: Any = "",
    board_extra: Any = "",
    cls: str = "",
    data: dict[str, Any] | None = None,
) -> Markup:
    """Return the whole table: tools, seats around the board, the message line and the tray.

    ``board`` is the game's board markup (it goes inside ``#table-board``, whose size the app measures
    into ``ctx.board_width`` and ``ctx.board_height``); ``panel`` (results, review) lies over part of the
    board, except folded results, which take the message line's place (they say what it would say) so
    that they never hide a tile; ``gate`` (the privacy gate) over everything.
    """
    docked = panel if isinstance(panel, FoldedResults) else ""
    props: dict[str, Any] = {"class_": f"kit-table {cls}".strip(), "data_game": game_id}
    for key, value in (data or {}).items():
        props[f"data_{key}"] = value
    return h(
        "div",
        props,
        h("div", {"class_": "kit-head"}, tools_),
        seats_,
        h(
            "div",
            {"class_": "kit-board-wrap"},
            h("div", {"class_": "kit-board", "id": "table-board"}, board),
            board_extra,
            "" if docked else panel,
        ),
        message,
        docked,
        tray_,
        gate,
    )


def describe_list(items: Iterable[str]) -> str:
    """Return "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


Describe = Callable[[dict[str, Any]], Beat | None]
