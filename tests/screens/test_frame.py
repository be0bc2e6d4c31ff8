"""The table frame (``ui.frame``): facts found once a drawing, drawing that writes nothing, every tile
game's part complete, and the hints asking the part instead of the game's id."""

from __future__ import annotations

import copy
import inspect
import json
import random
import re
from typing import Any

import pytest

from boneyard.games import GAMES
from boneyard.settings import Settings
from tests.screens.tables import act, against_computers, table_context
from ui import frame, hints, kit
from ui.games import screen_for
from ui.html import Markup
from ui.session import Seat, Session

TILE_GAMES = ("dominoes", "triangles", "heptalion")
MODES = {
    "dominoes": {"players": 2, "draw": True, "target": 100},  # a match: a finished hand waits for Next hand
    "triangles": {"players": 2},
    "heptalion": {"players": 4},  # eliminations: news said once
}


def dealt(game: str, plies: int, seats: list[Seat] | None = None, seed: int = 4) -> Session:
    """Return a seeded session ``plies`` random moves in (fewer when it ends)."""
    options = MODES[game]
    seats = seats or against_computers(int(options["players"]), "easy")
    session = Session.start(GAMES[game], seats, game, game, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if session.state.is_over():
            break
        session.play(rng.choice(list(session.state.legal_moves())))
    return session


def positions(game: str) -> list[tuple[str, Session, list[tuple[str, str]]]]:
    """Return tables worth drawing: the start, the middle, the end, the review, Same device's gate."""
    people = [Seat("human", "Ada"), Seat("human", "Ben")] + [
        Seat("computer", f"C{i}", "easy") for i in range(2, int(MODES[game]["players"]))
    ]
    return [
        ("start", dealt(game, 0), []),
        ("middle", dealt(game, 9), []),
        ("end", dealt(game, 10_000), []),
        ("review", dealt(game, 10_000), [("kit-review", "open"), ("kit-review", "back")]),
        ("gate", dealt(game, 0, people), []),
        ("shown", dealt(game, 0, people), [("reveal", "")]),
    ]


def frozen(ctx: Any) -> tuple[Any, str]:
    """Return what a drawing must not change: the UI state, and the session as it is saved."""
    return copy.deepcopy(ctx.ui), json.dumps(ctx.session.to_json(), sort_keys=True)


@pytest.mark.parametrize("game", TILE_GAMES)
def test_a_drawing_finds_the_tables_facts_once(game, monkeypatch):
    found: list[int] = []
    real = kit.table_facts

    def counted(ctx: Any, part: Any) -> kit.TableFacts:
        found.append(1)
        return real(ctx, part)

    monkeypatch.setattr(kit, "table_facts", counted)
    for label, session, clicks in positions(game):
        ctx = table_context(session, settings=Settings(hints=True))
        for action, value in clicks:
            act(screen_for(game), ctx, action, value)
        found.clear()
        screen_for(game).render(ctx)
        assert len(found) == 1, f"{game} {label}: the facts were found {len(found)} times in one drawing"


@pytest.mark.parametrize("game", TILE_GAMES)
def test_drawing_writes_nothing_and_draws_the_same_twice(game):
    screen = screen_for(game)
    for label, session, clicks in positions(game) + [("hand over", finished_hand(game), [])]:
        ctx = table_context(session, settings=Settings(hints=True))
        for action, value in clicks:
            act(screen, ctx, action, value)
        before = frozen(ctx)
        first = str(screen.render(ctx))
        assert frozen(ctx) == before, f"{game} {label}: the drawing changed the state"
        assert str(screen.render(ctx)) == first, f"{game} {label}: a second drawing differs"


def finished_hand(game: str) -> Session:
    """Return a Dominoes match whose first hand just ended (shown until Next hand); another game's middle."""
    if game != "dominoes":
        return dealt(game, 5)
    session = dealt(game, 0)
    rng = random.Random(1)
    while not session.state.view(0)["hand_results"]:
        session.play(rng.choice(list(session.state.legal_moves())))
    return session


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_tile_games_part_is_complete(game):
    screen = screen_for(game)
    if screen is None or game == "bonefall":  # Bonefall's well is a canvas, not a tile table
        return
    assert isinstance(screen, frame.TablePart), f"{game}'s screen misses part of the frame's protocol"
    assert screen.expert and screen.move_pattern is not None
    for label, session, _clicks in positions(game)[:3]:
        ctx = table_context(session)
        facts = kit.table_facts(ctx, screen)
        parts = screen.table_parts(ctx, facts)
        assert isinstance(parts, frame.TableParts) and parts.board and parts.tray and parts.status, label
        move = next(iter(session.state.legal_moves()), "pass") if not session.state.is_over() else "pass"
        assert screen.move_words(str(move)) and screen.hint_targets(str(move)), f"{game} {label} {move}"


class Part:
    """A game's part that no table has: the hints must take its words and marks, whatever its id."""

    game_id = "made-up"
    expert = True
    hint_nodes = None
    review_nodes = None
    move_pattern = re.compile(r"\bM\d\b")

    def move_words(self, move: str) -> str:
        return {"M1": "the first move"}.get(move, move)

    def other_words(self, move: str, than: str) -> str:
        return self.move_words(move)

    def hint_title(self, move: str) -> str:
        return "title of " + self.move_words(move)

    def hint_help(self, move: str) -> str:
        return "look here"

    def hint_targets(self, move: str) -> list[str]:
        return ["#made-up-" + move]

    def paused(self, ctx: Any) -> bool:
        return False


def test_the_hints_ask_the_games_part_not_its_id():
    source = inspect.getsource(hints)
    assert not re.search(r"game_id ==|game_id in|info\.id (==|in)", source), "hints branch on a game's id"
    assert "ui.games" not in source and "from .games" not in source and "from . import kit" in source
    part = Part()
    assert hints._reason(part, "M1 keeps 2 of your tiles. The search gives you about 49%.") == (
        "the first move keeps 2 of your tiles."
    )
    session = dealt("dominoes", 0, [Seat("human", "You"), Seat("computer", "Ben", "easy")])
    ctx = table_context(session, settings=Settings(hints=True))
    ctx.ui.kit.hint = kit.Hint([session.uid, session.revision], 0, "shown", move="M1", reason="r", chance=0.5)
    marks = str(hints.hint_marks(ctx, part))
    assert "#made-up-M1" in marks and isinstance(hints.hint_marks(ctx, part), Markup)
    card = str(hints.hint_card(ctx, part))
    assert "title of the first move" in card and "look here" in card


@pytest.mark.parametrize("game", ["dominoes", "triangles"])
def test_keys_play_nothing_while_the_review_is_open(game):
    """D (draw) and P (pass) act on the live game: never while the review shows another position."""
    screen = screen_for(game)
    rng = random.Random(3)
    for seed in range(60):
        session = dealt(game, 0, seed=seed)

        def draw_is_yours(session: Session = session) -> bool:
            return session.to_move() == 0 and "draw" in session.state.view(0)["legal_moves"]

        while not session.state.is_over() and session.move_count() < 60 and not draw_is_yours():
            session.play(rng.choice(list(session.state.legal_moves())))
        if not draw_is_yours() or not session.move_count():
            continue
        ctx = table_context(session)
        act(screen, ctx, "kit-review", "open")
        moves = session.move_count()
        screen.on_key(ctx, "d")
        assert session.move_count() == moves, f"{game} seed {seed}: D drew a tile under the review"
        return
    pytest.skip("no position with a draw to offer")
