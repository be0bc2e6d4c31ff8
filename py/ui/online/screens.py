"""The online rooms' screens as HTML: the host's room (code, link, QR code, lobby), the join screen, the
bar over an online table, the drop decision, and "Check the deal".

Pure Python: every function takes plain data (a lobby seat is the wire's ``{seat, name, kind, level?,
status}``) and returns Markup, so the tests render every state under CPython. Names and anything a peer
sent are text, never markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..html import Markup, h, join, name_text
from ..shell import LEVEL_LABELS, button, frame, link_button

__all__ = [
    "BOT_AFTER_CHOICES",
    "Link",
    "bot_after_label",
    "deal_check",
    "decide_dialog",
    "join_screen",
    "lobby_list",
    "online_bar",
    "rated_tag",
    "room_screen",
    "seat_badge",
]

# How long an open seat waits for a friend before a bot takes it (seconds; 0 = it waits for ever).
BOT_AFTER_CHOICES = (0, 60, 120, 300)


def bot_after_label(seconds: int) -> str:
    """Return a wait in words: ``Never``, ``1 minute``, ``5 minutes``."""
    if seconds <= 0:
        return "Never"
    minutes = max(1, seconds // 60)
    return f"{minutes} minute{'s' * (minutes != 1)}"


@dataclass
class Link:
    """What a room shares: its code (as shown, ``ABCD EFGH``), the join link and its QR code's SVG."""

    code: str
    url: str
    qr_svg: str = ""


@dataclass
class RoomInfo:
    """What the host's room screen shows besides its lobby."""

    game_name: str
    mode_label: str
    status: str  # "connecting", "open", "offline", "taken", "failed"
    message: str = ""
    bot_after: int = 0
    waiting_for: str = ""  # open seats in words, while Start is not possible
    levels: list[str] = field(default_factory=list)


def seat_badge(seat: Mapping[str, Any]) -> Markup:
    """Return the badge that says who plays a seat: You, Friend, Bot (its level), or Open."""
    kind = seat.get("kind")
    if kind == "bot":
        level = LEVEL_LABELS.get(str(seat.get("level") or ""), str(seat.get("level") or "").title())
        return h("span", {"class_": "seat-badge badge-bot"}, f"Bot · {level}" if level else "Bot")
    if kind == "host":
        return h("span", {"class_": "seat-badge badge-host"}, "Host")
    if kind == "guest":
        return h("span", {"class_": "seat-badge badge-friend"}, "Friend")
    return h("span", {"class_": "seat-badge badge-open"}, "Open")


def _status_text(seat: Mapping[str, Any]) -> str:
    if seat.get("kind") == "open":
        return "Waiting for a friend…"
    if seat.get("status") == "reconnecting":
        return "Reconnecting…"
    if seat.get("kind") == "bot":
        return "Played by the computer"
    return "Connected"


def lobby_list(
    seats: Sequence[Mapping[str, Any]],
    me: int | None,
    *,
    host_controls: bool = False,
    levels: Sequence[str] = (),
    playing: bool = False,
) -> Markup:
    """Return the lobby's seats: name, badge, status and, for the host, what each seat may become."""
    rows = []
    for seat in seats:
        index = int(seat.get("seat", 0))
        kind = str(seat.get("kind", "open"))
        fallback = {"open": "Open seat", "bot": f"Computer {index}"}.get(kind, f"Seat {index + 1}")
        name = seat.get("name") or fallback
        you = h("span", {"class_": "seat-you"}, " (you)") if me == index else ""
        controls: list[Markup] = []
        if host_controls and kind != "host" and not playing:
            choices = [("open", "Open for a friend")] + [
                (f"bot:{lv}", f"Bot · {LEVEL_LABELS.get(lv, lv.title())}") for lv in levels
            ]
            current = f"bot:{seat.get('level')}" if kind == "bot" else "open"
            if kind == "guest":
                choices.insert(0, ("guest", f"Friend: {seat.get('name') or 'joined'}"))
                current = "guest"
            controls.append(
                h(
                    "select",
                    {
                        "class_": "seat-kind",
                        "id": f"room-seat-{index}",
                        "data_room_seat": index,
                        "aria_label": f"Seat {index + 1}",
                    },
                    [h("option", {"value": v, "selected": v == current}, label) for v, label in choices],
                )
            )
            if kind == "guest":
                controls.append(
                    button(
                        "Remove",
                        "room-remove",
                        str(index),
                        class_="btn-small",
                        id=f"room-remove-{index}",
                        aria_label=f"Remove {seat.get('name') or 'this player'}",
                    )
                )
        status = str(seat.get("status", "open"))
        rows.append(
            h(
                "li",
                {
                    "class_": f"lobby-seat lobby-{kind} lobby-{status}",
                    "data_seat": index,
                    "data_kind": kind,
                    "data_status": status,
                },
                h(
                    "div",
                    {"class_": "lobby-who"},
                    h("span", {"class_": "lobby-name"}, name_text(name), you),
                    seat_badge(seat),
                ),
                h("span", {"class_": "lobby-status", "aria_live": "polite"}, _status_text(seat)),
                h("div", {"class_": "lobby-controls"}, controls) if controls else "",
            )
        )
    return h("ol", {"class_": "lobby", "id": "lobby", "aria_label": "Seats"}, rows)


def share_card(link: Link) -> Markup:
    """Return the room's code, join link with a Copy button, and its QR code."""
    qr = (
        h(
            "div",
            {"class_": "room-qr", "role": "img", "aria_label": "QR code of the join link"},
            Markup(link.qr_svg),
        )
        if link.qr_svg.lstrip().startswith("<svg")
        else ""
    )
    return h(
        "section",
        {"class_": "room-share", "aria_labelledby": "room-code-label"},
        h(
            "div",
            {"class_": "room-share-text"},
            h("p", {"class_": "room-code-label", "id": "room-code-label"}, "Room code"),
            h("p", {"class_": "room-code", "id": "room-code"}, link.code),
            h(
                "div",
                {"class_": "room-link-row"},
                h("label", {"class_": "sr-only", "for": "room-link"}, "Join link"),
                h(
                    "input",
                    {
                        "id": "room-link",
                        "class_": "room-link",
                        "type": "text",
                        "readonly": True,
                        "value": link.url,
                    },
                ),
                button("Copy link", "room-copy", link.url, id="room-copy"),
            ),
            h(
                "p",
                {"class_": "hint"},
                "Send the link or the code to your friends; they open it in their browser.",
            ),
        ),
        qr,
    )


def room_screen(
    room: RoomInfo, link: Link | None, seats: Sequence[Mapping[str, Any]], start_ok: bool
) -> Markup:
    """Return the host's room before the game: what it shares, the lobby, the wait for bots, Start."""
    status_words = {
        "connecting": "Opening the room…",
        "open": "The room is open: friends can join now.",
        "offline": "The room lost its connection to the broker; it keeps trying.",
        "taken": "That room code is in use; choose New code.",
        "failed": "The room could not open.",
    }
    status = h(
        "p",
        {"class_": f"room-status room-{room.status}", "id": "room-status", "role": "status"},
        status_words.get(room.status, room.status),
        (" " + room.message) if room.message else "",
    )
    retry = (
        h("p", {"class_": "actions"}, button("Try again", "room-retry", kind="primary", id="room-retry"))
        if room.status in ("taken", "failed")
        else ""
    )
    wait = h(
        "div",
        {"class_": "field room-wait"},
        h("label", {"for": "room-bot-after"}, "An open seat goes to a bot after"),
        h(
            "select",
            {"id": "room-bot-after", "data_room": "bot_after"},
            [
                h("option", {"value": str(s), "selected": s == room.bot_after}, bot_after_label(s))
                for s in BOT_AFTER_CHOICES
            ],
        ),
    )
    start = h(
        "div",
        {"class_": "actions room-actions"},
        button("Start", "room-start", kind="primary", disabled=not start_ok, id="room-start"),
        button("Close room", "room-close", id="room-close"),
        h("p", {"class_": "hint", "id": "room-waiting"}, room.waiting_for) if room.waiting_for else "",
    )
    body = h(
        "div",
        {"class_": "room", "id": "room", "data_room_status": room.status},
        h("p", {"class_": "lead room-mode"}, room.mode_label),
        status,
        retry,
        share_card(link) if link is not None else "",
        h(
            "section",
            {"class_": "room-lobby", "aria_labelledby": "lobby-title"},
            h("h2", {"id": "lobby-title"}, "Players"),
            lobby_list(seats, 0, host_controls=True, levels=room.levels),
            wait,
        ),
        start,
    )
    return frame(f"Online room: {room.game_name}", body, back="#/")


def join_screen(
    code: str,
    name: str,
    state: str,
    *,
    message: str = "",
    game_name: str = "",
    mode_label: str = "",
    seats: Sequence[Mapping[str, Any]] = (),
    me: int | None = None,
) -> Markup:
    """Return a guest's screen before the game: the code and name form, connecting, the lobby, or why not.

    ``state``: "form" (nothing sent yet), "connecting", "lobby" (seated, waiting for the host's Start),
    "dealing" (the fair deal runs), "host_left", "removed", "failed".
    """
    from boneyard.settings import MAX_NAME

    parts: list[Markup] = []
    if state in ("form", "failed"):
        if message:
            parts.append(
                h("p", {"class_": "room-status room-failed", "id": "join-status", "role": "alert"}, message)
            )
        parts.append(
            h(
                "form",
                {"class_": "setup join-form", "id": "join-form", "onsubmit": "return false"},
                h(
                    "div",
                    {"class_": "field"},
                    h("label", {"for": "join-code"}, "Room code"),
                    h(
                        "input",
                        {
                            "id": "join-code",
                            "type": "text",
                            "value": code,
                            "data_join": "code",
                            "autocomplete": "off",
                            "autocapitalize": "characters",
                            "spellcheck": "false",
                            "maxlength": 12,
                            "placeholder": "ABCD EFGH",
                        },
                    ),
                ),
                h(
                    "div",
                    {"class_": "field"},
                    h("label", {"for": "join-name"}, "Your name"),
                    h(
                        "input",
                        {
                            "id": "join-name",
                            "type": "text",
                            "value": name,
                            "data_join": "name",
                            "autocomplete": "nickname",
                            "maxlength": MAX_NAME,
                        },
                    ),
                ),
                h("div", {"class_": "actions"}, button("Join", "join-room", kind="primary", id="join-room")),
            )
        )
    else:
        words = {
            "connecting": "Connecting to the room…",
            "lobby": "You are in. Waiting for the host to start the game.",
            "dealing": "Shuffling together: every player adds to the deal…",
            "host_left": "The host left the room. The game is saved on their device; when they reopen the room, "
            "this page joins again by itself.",
            "removed": "The host removed you from the room.",
            "reconnecting": "Reconnecting to the room…",
        }
        parts.append(
            h(
                "p",
                {"class_": f"room-status room-{state}", "id": "join-status", "role": "status"},
                words.get(state, state),
                (" " + message) if message else "",
            )
        )
        if mode_label:
            parts.append(
                h(
                    "p",
                    {"class_": "lead room-mode"},
                    f"{game_name} · {mode_label}" if game_name else mode_label,
                )
            )
        if seats:
            parts.append(
                h(
                    "section",
                    {"class_": "room-lobby", "aria_labelledby": "lobby-title"},
                    h("h2", {"id": "lobby-title"}, "Players"),
                    lobby_list(seats, me),
                )
            )
        actions = [button("Leave", "join-leave", id="join-leave")]
        if state == "host_left":  # a removed guest stays out: nothing here asks to come back
            actions.insert(0, button("Try again", "join-retry", kind="primary", id="join-retry"))
        parts.append(h("div", {"class_": "actions"}, actions))
    title = f"Join a room: {game_name}" if game_name else "Join a room"
    return frame(
        title, h("div", {"class_": "room join", "id": "join", "data_join_state": state}, parts), back="#/"
    )


def online_bar(
    code: str,
    seats: Sequence[Mapping[str, Any]],
    me: int | None,
    note: str = "",
    tools: Markup | str = "",
    extra: Markup | str = "",
) -> Markup:
    """Return the strip over an online table: the room's code, its host (on a guest's page), who is
    reconnecting, Leave."""
    away = [s for s in seats if s.get("status") == "reconnecting"]
    words: list[Any] = [
        h(
            "span",
            {"class_": "online-code"},
            h("span", {"class_": "online-code-word"}, "Room "),
            h("strong", {}, code),
        )
        if code
        else h("span", {"class_": "online-code is-quick"}, h("strong", {}, "Quick match"))
    ]
    host = next((s for s in seats if s.get("kind") == "host"), None)
    if host is not None and host.get("seat") != me:  # which "Ann" holds the game: the host, by seat
        words.append(
            h(
                "span",
                {"class_": "online-host", "id": "online-host"},
                "Host: ",
                name_text(host.get("name") or "Host"),
            )
        )
    for seat in away:
        words.append(
            h(
                "span",
                {"class_": "online-away"},
                name_text(seat.get("name") or "A player"),
                " is reconnecting…",
            )
        )
    if note:
        words.append(h("span", {"class_": "online-note", "id": "online-note"}, note))
    if extra:
        words.append(extra)
    return h(
        "div",
        {
            "class_": "online-bar",
            "id": "online-bar",
            "role": "status",
            "data_me": me if me is not None else "",
        },
        words,
        h(
            "span",
            {"class_": "online-tools"},
            tools,
            button("Leave", "room-leave", class_="btn-small", id="room-leave", aria_label="Leave the room"),
        ),
    )


def rated_tag(rated: bool) -> Markup:
    """Return a quick match table's tag: "Rated", or "Not rated: a computer plays"."""
    words = "Rated" if rated else "Not rated: a computer plays"
    return h(
        "span", {"class_": f"rated-tag {'is-rated' if rated else 'not-rated'}", "id": "rated-tag"}, words
    )


def decide_dialog(seat: int, name: str) -> Markup:
    """Return the host's question when a dropped guest's hold ran out: wait longer, or a bot plays on."""
    return h(
        "div",
        {
            "class_": "online-decide",
            "id": "online-decide",
            "role": "alertdialog",
            "aria_labelledby": "decide-title",
        },
        h("p", {"id": "decide-title"}, name_text(name), " has not come back."),
        h(
            "div",
            {"class_": "actions"},
            button("Wait", "room-wait", str(seat), id="decide-wait"),
            button("A bot plays on", "room-bot", str(seat), kind="primary", id="decide-bot", autofocus=True),
        ),
    )


def deal_check(result: tuple[bool, str] | None, available: bool) -> Markup:
    """Return "Check the deal" and, once run, what it found."""
    if not available:
        return Markup("")
    found: Markup | str = ""
    if result is not None:
        ok, reason = result
        found = h(
            "p",
            {
                "class_": f"deal-result {'deal-ok' if ok else 'deal-bad'}",
                "id": "deal-result",
                "role": "status",
            },
            "✓ The deal was fair: it came from everyone's committed numbers, and every move replays."
            if ok
            else join(["✗ The deal does not check out: ", reason]),
        )
    return h(
        "div",
        {"class_": "deal-check", "id": "deal-check"},
        button("Check the deal", "deal-check", id="deal-check-btn"),
        found,
    )


def deal_button(available: bool) -> Markup:
    """Return the bar's small "Check the deal" button (once the host sent the deal's proof)."""
    if not available:
        return Markup("")
    words = join(["Check ", h("span", {"class_": "online-wide"}, "the "), "deal"])
    return button(words, "deal-check", class_="btn-small", id="deal-check-btn", aria_label="Check the deal")


def deal_words(result: tuple[bool, str] | None) -> Markup:
    """Return what the deal check found, as one short line for the bar (empty before it ran)."""
    if result is None:
        return Markup("")
    ok, reason = result
    return h(
        "span",
        {"class_": f"deal-result {'deal-ok' if ok else 'deal-bad'}", "id": "deal-result", "role": "status"},
        "✓ Fair deal: it came from everyone's numbers, every move replays."
        if ok
        else join(["✗ The deal does not check out: ", reason]),
    )


def home_join_link() -> Markup:
    """Return the home screen's way into a friend's room."""
    return link_button("Join a room", "#/join", id="home-join")
