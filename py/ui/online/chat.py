"""The chat and reactions of an online table: what the players say, pure markup and logic (no browser).

``ChatLog`` keeps what the panel shows: the last messages, how many arrived while the panel was
closed (the toggle's badge), the reactions popping over the table, and the players this person muted
(their messages and reactions are kept out of sight, never sent anywhere). The markup functions draw
the toggle button (``chat_toggle``), the panel (``chat_panel``: messages, the 200-character input, the
reactions and stickers bar, a mute per player) and the pop-overs (``reaction_pops``: each near the
seat that sent it; a gentle fade instead of the pop when motion is off). Every message is shown as
text: ``h()`` escapes it, and names are isolated. ``ChatLog.on_action`` turns the panel's clicks into
what the room sends (``("chat", text)`` or ``("react", key)``); R3a's room code places the markup over
the table and sends. The reaction keys are the room protocol's (``REACTIONS``, ``STICKERS``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.rooms.protocol import MAX_CHAT, REACTIONS, STICKERS, ProtocolError, clean_text

from ..html import Markup, h, name_attr

__all__ = [
    "LINES_KEPT",
    "POP_S",
    "REACTION_WORDS",
    "ChatLine",
    "ChatLog",
    "Pop",
    "chat_panel",
    "chat_toggle",
    "reaction_icon",
    "reaction_pops",
    "reactions_bar",
]

LINES_KEPT = 60  # messages the panel keeps (the newest at the bottom)
POP_S = 2.6  # how long a reaction stays over the table (css: .chat-pop's animation)
POPS_KEPT = 6  # at most this many reactions on the table at once
REACTION_WORDS: dict[str, str] = {
    "thumbs": "thumbs up",
    "laugh": "laughing",
    "wow": "wow",
    "clap": "applause",
    "think": "thinking",
    "fire": "on fire",
    "sad": "sad",
    "heart": "love",
    **STICKERS,
}


@dataclass(frozen=True)
class ChatLine:
    """One message: who sent it (seat and name at the time) and its text, already cleaned."""

    seat: int
    name: str
    text: str
    number: int  # the how-manieth message of the room (a stable id)


@dataclass(frozen=True)
class Pop:
    """One reaction popping over the table near its sender's seat."""

    seat: int
    key: str
    at: float  # when it arrived (seconds, the caller's clock)
    number: int


@dataclass
class ChatLog:
    """What the chat panel shows, for the person ``me`` at this table."""

    me: int
    lines: list[ChatLine] = field(default_factory=list)
    pops: list[Pop] = field(default_factory=list)
    muted: set[int] = field(default_factory=set)
    unread: int = 0
    open: bool = False
    draft: str = ""
    received: int = 0  # messages and reactions so far (numbers them)

    # -- what arrives ---------------------------------------------------------------------------
    def add(self, seat: int, name: str, text: str) -> ChatLine | None:
        """Keep a message (from the room, or this person's own as sent); return None when it is not shown
        (a muted player, or nothing left once cleaned)."""
        try:
            cleaned = clean_text(str(text), MAX_CHAT, "chat")
        except ProtocolError:
            return None
        if not cleaned or (seat in self.muted and seat != self.me):
            return None
        self.received += 1
        line = ChatLine(int(seat), str(name), cleaned, self.received)
        self.lines.append(line)
        del self.lines[:-LINES_KEPT]
        if not self.open and seat != self.me:
            self.unread += 1
        return line

    def react(self, seat: int, key: str, now: float) -> Pop | None:
        """Pop a reaction over the table; return None for an unknown key or a muted player."""
        if key not in REACTION_WORDS or (seat in self.muted and seat != self.me):
            return None
        self.received += 1
        pop = Pop(int(seat), key, float(now), self.received)
        self.pops = [p for p in self.pops if now - p.at < POP_S][-(POPS_KEPT - 1) :] + [pop]
        return pop

    def live_pops(self, now: float) -> list[Pop]:
        """Return the reactions still on show (and forget the rest)."""
        self.pops = [p for p in self.pops if 0 <= now - p.at < POP_S]
        return list(self.pops)

    # -- what the person does -------------------------------------------------------------------
    def toggle(self, opened: bool | None = None) -> None:
        """Open or close the panel; opening it marks every message read."""
        self.open = (not self.open) if opened is None else opened
        if self.open:
            self.unread = 0

    def mute(self, seat: int, muted: bool | None = None) -> None:
        """Mute or unmute a player (never oneself); their shown messages and pops go away while muted."""
        if seat == self.me:
            return
        now_muted = (seat not in self.muted) if muted is None else muted
        if now_muted:
            self.muted.add(seat)
            self.lines = [line for line in self.lines if line.seat != seat]
            self.pops = [p for p in self.pops if p.seat != seat]
        else:
            self.muted.discard(seat)

    def on_action(self, action: str, value: str, text: str = "") -> tuple[str, str] | None:
        """Carry out a click of the chat's markup; return what to send: ("chat", text), ("react", key).

        ``chat-send`` takes the input's ``text``; ``chat-toggle``, ``chat-mute`` (value: the seat) and
        ``chat-react`` (value: the key) come from the buttons' ``data-action``/``data-value``.
        """
        if action == "chat-toggle":
            self.toggle()
        elif action == "chat-close":
            self.toggle(False)
        elif action == "chat-mute":
            try:
                self.mute(int(value))
            except ValueError:
                return None
        elif action == "chat-react":
            return ("react", value) if value in REACTION_WORDS else None
        elif action == "chat-send":
            try:
                cleaned = clean_text(str(text), MAX_CHAT, "chat")
            except ProtocolError:
                self.draft = str(text)[:MAX_CHAT]
                return None
            self.draft = ""
            return ("chat", cleaned) if cleaned else None
        elif action == "chat-draft":
            self.draft = str(text)[:MAX_CHAT]
        return None


# -- the drawings of the reactions ------------------------------------------------------------------

_FACE = {"fill": "#ffcc4d", "stroke": "#c7901a", "stroke_width": "1.5"}
_INK = {"fill": "none", "stroke": "#5b3a12", "stroke_width": "2.2", "stroke_linecap": "round"}


def _eyes(y: float = 13.5) -> list[Markup]:
    return [
        h("circle", {"cx": "11.5", "cy": str(y), "r": "1.9", "fill": "#5b3a12"}),
        h("circle", {"cx": "20.5", "cy": str(y), "r": "1.9", "fill": "#5b3a12"}),
    ]


def _face(*parts: Any) -> list[Any]:
    return [h("circle", {"cx": "16", "cy": "16", "r": "13.5", **_FACE}), *parts]


_DRAWINGS: dict[str, Any] = {
    "thumbs": [
        h("path", {"d": "M6 14h5v13H6z", "fill": "#4f8fd6", "stroke": "#245a94", "stroke_width": "1.4"}),
        h(
            "path",
            {
                "d": "M11 15l5-9c1.8-.6 3.2.6 2.9 2.6L18 13h7.2c1.8 0 3 1.6 2.6 3.3l-2 8.4c-.4 1.4-1.6 2.3-3 2.3H11z",
                "fill": "#ffcc4d",
                "stroke": "#c7901a",
                "stroke_width": "1.5",
                "stroke_linejoin": "round",
            },
        ),
    ],
    "laugh": _face(
        h("path", {"d": "M9 12.5l4 1.6M23 12.5l-4 1.6", **_INK}),
        h("path", {"d": "M8.5 18h15c-.6 4.6-3.8 7-7.5 7s-6.9-2.4-7.5-7z", "fill": "#5b3a12"}),
        h("path", {"d": "M5.5 17c-1.2 2-1.4 3.6-.4 4.4s2.4-.2 2.8-2.6", "fill": "#7cc4ff"}),
        h("path", {"d": "M26.5 17c1.2 2 1.4 3.6.4 4.4s-2.4-.2-2.8-2.6", "fill": "#7cc4ff"}),
    ),
    "wow": _face(
        *_eyes(12.5), h("ellipse", {"cx": "16", "cy": "21.5", "rx": "3.4", "ry": "4.2", "fill": "#5b3a12"})
    ),
    "clap": [
        h(
            "path",
            {
                "d": "M9 27c-3-3-3.5-7-2-10l4-7c.8-1.3 2.6-.9 2.6.7L13 14l5-7c.9-1.2 2.7-.5 2.4 1L17 15l4.5-4.6c1.1-1 2.6.2 1.9 1.5L19 18l3.6-2.8c1.2-.8 2.4.6 1.6 1.7L19 23c-2.6 3.4-7 6.4-10 4z",
                "fill": "#ffcc4d",
                "stroke": "#c7901a",
                "stroke_width": "1.4",
                "stroke_linejoin": "round",
            },
        ),
        h("path", {"d": "M22 3.5l-1 3M27 6l-2.6 2M29 11.5l-3 .6", **{**_INK, "stroke": "#f2a33a"}}),
    ],
    "think": _face(
        *_eyes(12.5),
        h("path", {"d": "M11 21.5c3-1.4 6.5-1.6 10-.6", **_INK}),
        h("path", {"d": "M9.5 9l4-1.5", **_INK}),
        h(
            "path",
            {
                "d": "M14 30c-1.7-1.1-1.4-3.5.5-3.7L20 26c1.5-.2 1.3-2.2-.2-2.2h-6c-1.5 0-1.4-2 0-2.1l5.6-.2",
                "fill": "#ffcc4d",
                "stroke": "#c7901a",
                "stroke_width": "1.4",
            },
        ),
    ),
    "fire": [
        h(
            "path",
            {
                "d": "M16 2c1 5 7 8 7 15.5A7.2 7.2 0 0 1 16 30a7.2 7.2 0 0 1-7-7.4C9 17 13 15 12.5 9c2.6 1.6 3.6 4 3.8 6.2C18.6 12 17.6 6 16 2z",
                "fill": "#f2663a",
            },
        ),
        h(
            "path",
            {
                "d": "M16 16c.6 3 3.6 4.4 3.6 8.2A3.6 3.6 0 0 1 16 28a3.6 3.6 0 0 1-3.6-3.8c0-2.6 2.4-3.4 3.6-8.2z",
                "fill": "#ffcc4d",
            },
        ),
    ],
    "sad": _face(
        *_eyes(13),
        h("path", {"d": "M10.5 23.5c3.4-3.2 7.6-3.2 11 0", **_INK}),
        h("path", {"d": "M21 16c-1.3 2.3-1.6 4-.6 4.8s2.5-.3 2.6-2.8z", "fill": "#7cc4ff"}),
    ),
    "heart": [
        h(
            "path",
            {
                "d": "M16 28C6 21 3 16.5 3 11.5A6.5 6.5 0 0 1 16 8.6 6.5 6.5 0 0 1 29 11.5C29 16.5 26 21 16 28z",
                "fill": "#e8455a",
                "stroke": "#a8243a",
                "stroke_width": "1.4",
            },
        ),
    ],
}


def reaction_icon(key: str, size: int = 28) -> Markup:
    """Return a reaction's drawing (the same on every device, whatever its emoji font), or a sticker's
    words; decorative: the caller labels it."""
    if key in STICKERS:
        return h("span", {"class_": "chat-sticker", "aria_hidden": "true"}, STICKERS[key])
    return h(
        "svg",
        {
            "class_": "chat-icon",
            "viewBox": "0 0 32 32",
            "width": str(size),
            "height": str(size),
            "aria_hidden": "true",
            "focusable": "false",
        },
        _DRAWINGS.get(key, ""),
    )


# -- the markup ----------------------------------------------------------------------------------------


def chat_toggle(log: ChatLog) -> Markup:
    """Return the table's Chat button with its unread badge (kept in place while the panel is open)."""
    unread = log.unread if not log.open else 0
    label = "Chat" if not unread else f"Chat, {unread} unread"
    return h(
        "button",
        {
            "type": "button",
            "class_": "btn kit-tool chat-toggle" + (" has-unread" if unread else ""),
            "id": "chat-toggle",
            "data_action": "chat-toggle",
            "aria_expanded": "true" if log.open else "false",
            "aria_controls": "chat-panel",
            "aria_label": label,
            "title": "Chat and reactions",
        },
        h(
            "svg",
            {
                "viewBox": "0 0 24 24",
                "width": "22",
                "height": "22",
                "aria_hidden": "true",
                "focusable": "false",
            },
            h(
                "path",
                {
                    "d": "M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-9l-5 4v-4H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z",
                    "fill": "none",
                    "stroke": "currentColor",
                    "stroke_width": "2",
                    "stroke_linejoin": "round",
                },
            ),
        ),
        h(
            "span",
            {"class_": "chat-badge", "aria_hidden": "true"},
            str(min(unread, 99)) + ("+" if unread > 99 else ""),
        )
        if unread
        else "",
    )


def reactions_bar(enabled: bool = True) -> Markup:
    """Return the reactions and stickers to send, one button each (labelled in words)."""
    buttons = [
        h(
            "button",
            {
                "type": "button",
                "class_": "chat-react" + (" is-sticker" if key in STICKERS else ""),
                "data_action": "chat-react",
                "data_value": key,
                "id": f"chat-react-{key}",
                "aria_label": f"Send {REACTION_WORDS[key]}"
                if key not in STICKERS
                else f"Send “{STICKERS[key]}”",
                "title": REACTION_WORDS[key],
                "disabled": not enabled,
            },
            reaction_icon(key, 26),
        )
        for key in (*REACTIONS, *STICKERS)
    ]
    return h(
        "div", {"class_": "chat-reactions", "role": "group", "aria_label": "Reactions and stickers"}, buttons
    )


def _said(line: ChatLine, names: Sequence[str], me: int, host: int | None = None) -> Markup:
    who = "You" if line.seat == me else (names[line.seat] if 0 <= line.seat < len(names) else line.name)
    # The host's lines say so: a guest's never pass for them, whatever name it chose.
    mark = h("span", {"class_": "chat-host"}, " · Host") if line.seat == host and line.seat != me else ""
    return h(
        "li",
        {
            "class_": "chat-line" + (" is-mine" if line.seat == me else ""),
            "data_seat": line.seat,
            "id": f"chat-line-{line.number}",
        },
        h("span", {"class_": "chat-who"}, name_attr(who), mark),
        h("span", {"class_": "chat-text"}, line.text),
    )


def chat_panel(
    log: ChatLog,
    names: Sequence[str],
    *,
    can_send: bool = True,
    people: Sequence[int] = (),
    host: int | None = None,
) -> Markup:
    """Return the chat panel: the last messages, the input (200 characters), reactions, mutes.

    ``names`` are the seats' names (as the table shows them); ``people`` the seats of the other people
    at the table (computers do not chat, so they get no mute); ``can_send`` False while the room is
    not connected (the input and buttons stay in place, disabled); ``host`` the host's seat, whose
    lines are marked.
    """
    lines = [_said(line, names, log.me, host) for line in log.lines]
    # The scroller lays out from its bottom (css: column-reverse), so the newest message is in view
    # without a script scrolling it there.
    body = h(
        "div",
        {"class_": "chat-scroll", "tabindex": "0", "aria_label": "Messages"},
        h(
            "ol",
            {"class_": "chat-lines", "id": "chat-lines", "aria_live": "polite", "aria_relevant": "additions"},
            lines,
        )
        if lines
        else h(
            "p",
            {"class_": "chat-empty", "id": "chat-lines"},
            "No messages yet. Say hello, or send a reaction.",
        ),
    )
    mutes = [
        h(
            "button",
            {
                "type": "button",
                "class_": "btn btn-ghost chat-mute" + (" is-muted" if seat in log.muted else ""),
                "data_action": "chat-mute",
                "data_value": seat,
                "id": f"chat-mute-{seat}",
                "aria_pressed": "true" if seat in log.muted else "false",
                "aria_label": (f"Unmute {names[seat]}" if seat in log.muted else f"Mute {names[seat]}"),
            },
            ("Unmute " if seat in log.muted else "Mute ") + names[seat],
        )
        for seat in people
        if seat != log.me and 0 <= seat < len(names)
    ]
    left = MAX_CHAT - len(log.draft)
    form = h(
        "form",
        {"class_": "chat-form", "id": "chat-form", "data_action": "chat-send", "autocomplete": "off"},
        h("label", {"class_": "sr-only", "for": "chat-input"}, "Message"),
        h(
            "input",
            {
                "type": "text",
                "id": "chat-input",
                "class_": "chat-input",
                "maxlength": MAX_CHAT,
                "value": log.draft,
                "placeholder": "Message",
                "enterkeyhint": "send",
                "aria_describedby": "chat-left",
                "disabled": not can_send,
                "data_action": "chat-draft",
            },
        ),
        h(
            "button",
            {
                "type": "submit",
                "class_": "btn btn-primary chat-send",
                "id": "chat-send",
                "data_action": "chat-send",
                "disabled": not can_send,
            },
            "Send",
        ),
        h(
            "span",
            {
                "class_": "chat-left" + (" is-low" if left <= 20 else ""),
                "id": "chat-left",
                "aria_live": "polite" if left <= 20 else "off",
            },
            f"{left} left",
        ),
    )
    return h(
        "section",
        {"class_": "chat-panel", "id": "chat-panel", "aria_label": "Chat", "hidden": not log.open},
        h(
            "div",
            {"class_": "chat-head"},
            h("h2", {"class_": "chat-title"}, "Chat"),
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn btn-ghost chat-close",
                    "data_action": "chat-close",
                    "id": "chat-close",
                    "aria_label": "Close the chat",
                },
                "✕",
            ),
        ),
        body,
        form,
        reactions_bar(can_send),
        h("div", {"class_": "chat-mutes", "role": "group", "aria_label": "Mute players"}, mutes)
        if mutes
        else "",
    )


def reaction_pops(log: ChatLog, names: Sequence[str], positions: Mapping[int, str], now: float) -> Markup:
    """Return the reactions on show, each near its sender: ``positions`` maps a seat to where its card is
    (the kit's ``across``/``left``/``right``; this person's own is ``me``, by the tray).

    Each pop starts its animation where it is in its life (so a redraw does not restart it); with motion
    off (``[data-motion="off"]``) it only fades.
    """
    pops = []
    for index, pop in enumerate(log.live_pops(now)):
        who = "You" if pop.seat == log.me else (names[pop.seat] if 0 <= pop.seat < len(names) else "Someone")
        age = max(0.0, now - pop.at)
        pops.append(
            h(
                "span",
                {
                    "class_": "chat-pop" + (" is-sticker" if pop.key in STICKERS else ""),
                    "data_pos": positions.get(pop.seat, "me" if pop.seat == log.me else "across"),
                    "data_seat": pop.seat,
                    "id": f"chat-pop-{pop.number}",
                    "style": f"animation-delay: -{age:.2f}s; --stack: {index % 3}",
                },
                reaction_icon(pop.key, 44),
                h("span", {"class_": "sr-only"}, f"{name_attr(who)}: {REACTION_WORDS[pop.key]}"),
            )
        )
    return h("div", {"class_": "chat-pops", "id": "chat-pops", "aria_live": "polite"}, pops)
