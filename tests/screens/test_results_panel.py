"""The end of a hand and of a game, and Review, under CPython: every table's result title ends like a
sentence, each result offers Home, the review's arrow keys step through the game, a tile's name is kept on
one line, and Heptalion's board choice reads as one name."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from boneyard.games import GAMES
from tests.screens.tables import against_computers, table_context
from ui import kit
from ui.games import screen_for
from ui.session import Session
from ui.table_screen import TableState

ENDS = {
    "dominoes-round": ("dominoes", {"players": 4, "draw": True, "target": None}),
    "dominoes-match": ("dominoes", {"players": 2, "draw": True, "target": 50}),
    "triangles": ("triangles", {"players": 3}),
    "heptalion": ("heptalion", {"players": 3}),
    "heptalion-puzzle": ("heptalion", {"players": 1}),
}


def played(key: str, seed: int, hand_only: bool = False) -> Session:
    """Return a session against computers played with random moves to its end (or its first scored hand)."""
    game, options = ENDS[key]
    seats = against_computers(options["players"], "easy")
    session = Session.start(GAMES[game], seats, key, key, options, seed=seed)
    rng = random.Random(seed)
    while not session.state.is_over():
        if hand_only and session.state.view(0).get("hand_results"):
            break
        session.play(rng.choice(list(session.state.legal_moves())))
    return session


def rendered(session: Session, ui: TableState | None = None) -> tuple[str, Any]:
    ctx = table_context(session, play=lambda move: True, ui=ui, save=lambda: None)
    return str(screen_for(session.info.id).render(ctx)), ctx


def title(html: str) -> str:
    found = re.search(r'<section class="kit-results[^"]*"[^>]*>.*?<h2 id="[^"]+">(.*?)</h2>', html)
    assert found, "no results panel"
    return re.sub(r"<[^>]+>|[\u2068\u2069]", "", found.group(1))


@pytest.mark.parametrize("key", list(ENDS))
def test_every_result_title_ends_like_a_sentence_and_the_result_offers_home(key):
    for seed in range(3):
        html, _ = rendered(played(key, seed))
        head = title(html)
        assert head.endswith((".", "!")), f"{key}: {head!r}"
        assert re.search(r'<a [^>]*href="#/"[^>]*>Home</a>|data-action="home"', html), f"{key}: no Home"
        foot = html.split('class="kit-results-foot"')[1]
        assert "New game" not in foot and "Home" not in foot, "the foot holds what comes next, as every table"


def test_a_hand_summary_title_ends_like_a_sentence():
    html, _ = rendered(played("dominoes-match", 1, hand_only=True))
    assert title(html) == "Hand 1 is over."


@pytest.mark.parametrize("key", ["dominoes-round", "triangles", "heptalion"])
def test_the_arrow_keys_step_the_review_and_leave_the_table_alone_otherwise(key):
    session = played(key, 2)
    total = session.move_count()
    _html, ctx = rendered(session)
    screen = screen_for(session.info.id)
    assert not kit.review_key(ctx, "ArrowLeft"), "no review open: the arrows are the table's"
    kit.handle(ctx, "kit-review", "open")
    assert kit.reviewing(ctx) == total
    assert screen.on_key(ctx, "ArrowLeft") and kit.reviewing(ctx) == total - 1
    assert screen.on_key(ctx, "ArrowLeft") and kit.reviewing(ctx) == total - 2
    assert screen.on_key(ctx, "ArrowRight") and kit.reviewing(ctx) == total - 1
    assert screen.on_key(ctx, "Home") and kit.reviewing(ctx) == 0
    assert screen.on_key(ctx, "ArrowLeft") and kit.reviewing(ctx) == 0, "the first move stays the first"
    assert screen.on_key(ctx, "End") and kit.reviewing(ctx) == total
    html = str(screen.render(ctx))  # every table's review says alike what the move shown did
    message = re.sub(
        r"<[^>]+>|[\u2068\u2069]", "", html.split('id="kit-turn"')[1].split("</p>")[0].split(">", 1)[1]
    )
    where = re.sub(
        r"<[^>]+>|[\u2068\u2069]", "", html.split('id="review-where"')[1].split("<button")[0].split(">", 1)[1]
    )
    assert message.startswith("Review · ") and message.endswith("."), message
    assert where == f"Move {total} of {total} · {message.removeprefix('Review · ').removesuffix('.')}", where


def test_a_tile_name_is_kept_on_one_line_in_the_review():
    assert str(kit.keep_whole("Ben laid 6-4 & more")) == (
        'Ben laid <span class="kit-tile-name">6-4</span> &amp; more'
    )
    bar = str(kit.review_bar(3, 9, "Ann laid 2-4-5"))
    assert '<span class="kit-tile-name">2-4-5</span>' in bar and "Move 3 of 9" in bar
    assert '<span class="kit-tile-name">dot–plus</span>' in str(kit.keep_whole("Ann placed dot–plus"))
    session = played("heptalion", 4)
    ui = screen_for("heptalion").new_state()
    _html, ctx = rendered(session, ui)
    kit.handle(ctx, "kit-review", "open")
    html, _ = rendered(session, ui)
    message = html.split('id="kit-turn"')[1].split("</p>")[0]
    where = html.split('id="review-where"')[1].split("<button")[0]
    for part in (message, where):
        names = re.findall(r"[a-z]+–[a-z]+", re.sub(r"<[^>]+>", "", part))
        assert len(re.findall(r'class="kit-tile-name">[a-z]+–[a-z]+<', part)) == len(names), part


def test_heptalions_board_choice_reads_as_one_name():
    screen = screen_for("heptalion")
    html = str(screen.custom_fields({"mode": "game"}))
    assert "Heptalion (Random)" not in html and ">Random<" in html
