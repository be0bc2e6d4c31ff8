"""The chat panel and reactions of an online table (ui.online.chat): markup and logic under CPython."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from boneyard.rooms.protocol import MAX_CHAT, REACTIONS, STICKERS
from ui import kit
from ui.online.chat import (
    LINES_KEPT,
    POP_S,
    REACTION_WORDS,
    ChatLog,
    chat_panel,
    chat_toggle,
    reaction_icon,
    reaction_pops,
    reactions_bar,
)

NAMES = ["Ada", "Ben", "Cyd", "Computer 3"]
ATTACK = "<img src=x onerror=alert(1)>"


class Tags(HTMLParser):
    """Collect the start tags of a piece of markup (and check every non-void one is closed)."""

    VOID = {"input", "img", "br", "meta", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (tag, self.open)
        self.open.pop()


def tags(markup: object) -> list[tuple[str, dict[str, str | None]]]:
    parser = Tags()
    parser.feed(str(markup))
    parser.close()
    assert not parser.open, parser.open
    return parser.tags


def test_messages_are_shown_as_text_never_as_html():
    log = ChatLog(me=0, open=True)
    log.add(1, "Ben", ATTACK)
    log.add(2, "<b>Cyd</b>", "hi & <script>alert(2)</script>")
    page = str(chat_panel(log, ["Ada", "Ben", "<b>Cyd</b>", "Computer 3"], people=[1, 2]))
    assert "<img" not in page and "<script" not in page and "<b>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "&lt;script&gt;" in page and "&amp;" in page
    assert [t for t, _ in tags(page)].count("img") == 0
    assert not any(k.startswith("on") for _, a in tags(page) for k in a)


def test_the_input_keeps_to_200_characters_and_sending_cleans_the_text():
    log = ChatLog(me=0)
    page = str(chat_panel(log, NAMES))
    assert f'maxlength="{MAX_CHAT}"' in page and f"{MAX_CHAT} left" in page
    assert log.on_action("chat-send", "", "  hello\n there  ") == ("chat", "hello there")
    assert log.on_action("chat-send", "", "   ") is None
    assert log.on_action("chat-send", "", "x" * (MAX_CHAT + 1)) is None and len(log.draft) == MAX_CHAT
    assert log.on_action("chat-send", "", "y" * MAX_CHAT) == ("chat", "y" * MAX_CHAT) and log.draft == ""
    log.on_action("chat-draft", "", "z" * 190)
    page = str(chat_panel(log, NAMES))
    assert "10 left" in page and "chat-left is-low" in page


def test_unread_badge_counts_the_others_messages_while_the_panel_is_closed():
    log = ChatLog(me=0)
    assert "chat-badge" not in str(chat_toggle(log))
    log.add(1, "Ben", "one")
    log.add(0, "Ada", "mine")  # your own message is read
    log.add(2, "Cyd", "two")
    toggle = str(chat_toggle(log))
    assert (
        'aria-label="Chat, 2 unread"' in toggle
        and '<span class="chat-badge" aria-hidden="true">2</span>' in toggle
    )
    assert 'aria-expanded="false"' in toggle and "hidden" in str(chat_panel(log, NAMES)).split(">")[0]
    log.on_action("chat-toggle", "")
    assert log.open and log.unread == 0 and "chat-badge" not in str(chat_toggle(log))
    assert 'aria-expanded="true"' in str(chat_toggle(log))
    assert "hidden" not in str(chat_panel(log, NAMES)).split(">")[0]
    log.add(1, "Ben", "while open")
    assert log.unread == 0
    log.on_action("chat-close", "")
    for n in range(120):
        log.add(1, "Ben", f"m{n}")
    assert "99+" in str(chat_toggle(log)) and len(log.lines) == LINES_KEPT and log.lines[-1].text == "m119"


def test_the_panel_shows_the_last_messages_with_their_senders():
    log = ChatLog(me=1, open=True)
    assert "No messages yet" in str(chat_panel(log, NAMES))
    log.add(0, "Ada", "good luck")
    log.add(1, "Ben", "thanks")
    page = str(chat_panel(log, NAMES, people=[0, 2]))
    text = re.sub(r"<[^>]+>", " ", page)
    assert "Ada" in text and "good luck" in text and "You" in text and "thanks" in text
    assert 'class="chat-line is-mine"' in page
    assert page.index("good luck") < page.index("thanks")
    assert 'id="chat-mute-0"' in page and 'id="chat-mute-2"' in page and 'id="chat-mute-1"' not in page
    assert 'id="chat-mute-3"' not in page  # a computer gets no mute


def test_a_muted_player_is_out_of_sight_until_unmuted():
    log = ChatLog(me=0, open=True)
    log.add(1, "Ben", "first")
    log.react(1, "laugh", now=0.0)
    log.on_action("chat-mute", "1")
    assert 1 in log.muted and log.lines == [] and log.live_pops(0.1) == []
    assert log.add(1, "Ben", "hidden") is None and log.react(1, "fire", 0.2) is None
    assert log.add(2, "Cyd", "shown") is not None
    page = str(chat_panel(log, NAMES, people=[1, 2]))
    assert 'aria-pressed="true"' in page and "Unmute" in page and "hidden" not in re.sub(r"<[^>]+>", "", page)
    log.on_action("chat-mute", "0")  # never yourself
    assert 0 not in log.muted
    log.on_action("chat-mute", "1")
    assert 1 not in log.muted and log.add(1, "Ben", "back") is not None
    assert log.on_action("chat-mute", "nobody") is None


def test_reactions_and_stickers_bar_offers_the_rooms_set_in_words():
    bar = str(reactions_bar())
    for key in (*REACTIONS, *STICKERS):
        assert f'data-value="{key}"' in bar and key in REACTION_WORDS
    assert 'aria-label="Send thumbs up"' in bar and "Send “Domino!”" in bar
    assert "disabled" not in bar and "disabled" in str(reactions_bar(enabled=False))
    log = ChatLog(me=0)
    assert log.on_action("chat-react", "clap") == ("react", "clap")
    assert log.on_action("chat-react", "<svg onload=x>") is None
    for key in REACTIONS:  # drawn, not an emoji font's glyph (a box where the font lacks it)
        icon = str(reaction_icon(key))
        assert icon.startswith("<svg") and ("<path" in icon or "<circle" in icon)
    assert "Double!" in str(reaction_icon("double"))


def test_a_reaction_pops_near_its_senders_seat_for_a_while():
    log = ChatLog(me=0)
    positions = dict(kit.seat_positions(4, 0))
    assert log.react(9, "nope", 0.0) is None
    log.react(2, "thumbs", now=10.0)
    log.react(0, "double", now=10.5)
    pops = str(reaction_pops(log, NAMES, positions, now=11.0))
    found = re.findall(r'class="chat-pop[^"]*" data-pos="(\w+)" data-seat="(\d)"', pops)
    assert found == [(positions[2], "2"), ("me", "0")] and positions[2] == "across"
    assert "animation-delay: -1.00s" in pops and "animation-delay: -0.50s" in pops
    assert "Cyd</bdi>: thumbs up" in pops and "You</bdi>: Double!" in pops
    assert "chat-pop-" in pops and 'aria-live="polite"' in pops
    later = str(reaction_pops(log, NAMES, positions, now=10.0 + POP_S + 0.01))
    assert 'data-seat="2"' not in later and 'data-seat="0"' in later
    for n in range(20):
        log.react(1, "fire", now=20.0 + n * 0.01)
    assert len(log.live_pops(20.3)) <= 6
    tags(reaction_pops(log, NAMES, positions, now=20.3))
