"""The Expert at the tables under CPython: the Hint button and its card (words, marks, cleared by the next
move), hints keep a game out of the stats, and the analysis of a finished game (chart, costly moves, the
review's comment). The thinking runs in one go here (no event loop), as ``ui.hints`` does outside a page."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from boneyard.games import GAMES
from boneyard.settings import Settings
from boneyard.stats import Stats
from tests.screens.tables import TableHarness
from tests.threads import own_thread
from ui import hints, kit
from ui.games import screen_for
from ui.results import count_result
from ui.session import Seat, Session
from ui.table_screen import TableContext


class Table(TableHarness):
    """One game at its table screen, with a context that records redraws."""

    def __init__(
        self, game: str, seed: int = 5, hints_on: bool = True, seats: list[Seat] | None = None
    ) -> None:
        self.screen = screen_for(game)
        mode, _ = self.screen.mode_from_form({"players": 2})
        if game == "dominoes":
            mode = self.screen.modes()[0]
        seats = seats or [Seat("human", "You"), Seat("computer", "Ben", "easy")]
        self.session = Session.start(
            GAMES[game], seats, mode.key, mode.label, {**mode.options, "players": 2}, seed=seed
        )
        self.ui = self.screen.new_state()
        self.settings = Settings(hints=hints_on)
        self.renders = 0
        self.heard: list[str] = []

    @property
    def ctx(self) -> TableContext:
        return self.context()

    def play(self, move: Any) -> bool:
        return True

    def rerender(self) -> None:
        self.renders += 1

    def html(self) -> str:
        return str(self.screen.render(self.ctx))

    def computers(self) -> None:
        while self.session.computer_to_move():
            self.session.computer_move()

    def to_a_choice(self) -> None:
        """Play on (the person with Easy's moves) until the person has a choice of moves."""
        rng = random.Random(1)
        while True:
            self.computers()
            view = self.session.state.view(0)
            if len(view["legal_moves"]) > 1:
                return
            self.session.play(self.session.info.bot("easy")(view, rng))

    def to_the_end(self) -> None:
        rng = random.Random(2)
        while not self.session.state.is_over():
            self.computers()
            if self.session.state.is_over():
                break
            self.session.play(self.session.info.bot("medium")(self.session.state.view(0), rng))


@pytest.mark.parametrize("game", ["dominoes", "triangles", "heptalion"])
@own_thread  # ui.hints thinks on a running loop if it finds one: none in this thread
def test_hint_marks_a_legal_move_says_why_and_the_next_move_clears_it(game):
    table = Table(game)
    table.to_a_choice()
    html = table.html()
    assert 'id="kit-hint"' in html and 'id="kit-hint-card"' not in html
    assert table.act("kit-hint", "")
    found = hints.shown_hint(table.ctx)
    assert found is not None and found.status == "shown"
    view = table.session.state.view(0)
    assert found.move in view["legal_moves"]
    assert found.reason and "gives you the best chances" not in found.reason
    assert table.heard and table.heard[-1].startswith("Hint: ")
    html = table.html()
    assert 'id="kit-hint-card"' in html and f'data-move="{found.move}"' in html
    assert 'id="kit-hint-style"' in html  # the tile and its place glow
    tile = found.move.split("@")[0].split(":")[0]
    assert tile in html.split('id="kit-hint-style"')[1].split("</style>")[0]
    assert hints.hints_used(table.session) == 1
    table.act("kit-hint-close", "")
    assert 'id="kit-hint-card"' not in table.html()
    table.act("kit-hint", "")  # asked again: the same hint, not counted twice
    assert 'id="kit-hint-card"' in table.html() and hints.hints_used(table.session) == 1
    table.session.play(found.move)
    assert hints.shown_hint(table.ctx) is None and 'id="kit-hint-card"' not in table.html()


@own_thread  # ui.hints thinks on a running loop if it finds one: none in this thread
def test_no_hint_button_with_hints_off_and_a_disabled_one_on_the_computers_turn():
    table = Table("dominoes", hints_on=False)
    table.computers()
    assert 'id="kit-hint"' not in table.html()
    table = Table("dominoes", seats=[Seat("computer", "Ben", "easy"), Seat("human", "You")], seed=3)
    if table.session.computer_to_move():
        html = table.html()
        button = (
            html.split('id="kit-hint"')[0].rsplit("<button", 1)[1]
            + html.split('id="kit-hint"')[1].split(">")[0]
        )
        assert "disabled" in button
        table.act("kit-hint", "")
        assert hints.shown_hint(table.ctx) is None  # never for a seat that is not yours


@own_thread  # ui.hints thinks on a running loop if it finds one: none in this thread
def test_the_same_device_gate_keeps_the_hint_button_disabled_until_the_tiles_are_shown():
    table = Table("dominoes", seats=[Seat("human", "Ada"), Seat("human", "Ben")], seed=4)
    html = table.html()
    assert 'id="kit-hint"' in html and hints.askable(table.ctx, table.screen) is None
    table.act("reveal", "")
    assert hints.askable(table.ctx, table.screen) == table.session.to_move()


@own_thread  # ui.hints thinks on a running loop if it finds one: none in this thread
def test_a_game_with_hints_is_not_counted_and_its_result_says_so():
    table = Table("dominoes")
    table.to_a_choice()
    table.act("kit-hint", "")
    table.to_the_end()
    stats = Stats()
    assert not count_result(stats, table.session, "You", "2026-12-01")
    assert "Not counted in your stats: you asked for 1 hint." in table.html()
    table.session.take_backs = 2
    assert hints.used_note(table.session, "Counted in your stats.") == (
        "Not counted in your stats: you took back 2 moves and asked for 1 hint."
    )


@own_thread  # ui.hints thinks on a running loop if it finds one: none in this thread
def test_move_words_speak_a_players_language():
    dominoes, triangles, heptalion = (screen_for(g) for g in ("dominoes", "triangles", "heptalion"))
    assert dominoes.move_words("6-4:L") == "6-4 on the left end"
    assert dominoes.move_words("6-6") == "6-6 to open"
    assert dominoes.move_words("draw") == "Draw"
    assert triangles.move_words("1-5-5@0,1r1") == "1-5-5"
    assert "–" in heptalion.move_words("X-S@37,36")
    assert triangles.other_words("2-3-3@1,0r1", "2-3-3@1,0r0") == "2-3-3 turned another way"
    assert triangles.other_words("2-3-3@2,0r1", "2-3-3@1,0r0") == "2-3-3 on another spot"
    assert heptalion.other_words("X-S@1,2", "X-S@3,4").endswith(" elsewhere")
    assert dominoes.other_words("6-4:R", "6-4:L") == "6-4 on the right end"
    assert hints._reason(dominoes, "5-1:R keeps 2 of your tiles. The search gives you about 49%.") == (
        "5-1 on the right end keeps 2 of your tiles."
    )


@pytest.mark.parametrize("game", ["dominoes", "triangles"])
@own_thread  # ui.hints thinks on a running loop if it finds one: none in this thread
def test_the_analysis_charts_your_chances_and_its_costly_moves_open_the_review(game):
    table = Table(game, seed=9)
    table.to_the_end()
    html = table.html()
    assert 'id="kit-analyse"' in html and "Analyse my game" in html
    table.act("kit-analyse", "")
    found = hints.analysis(table.ctx)
    assert found is not None and found.status == "done" and found.entries
    assert all(e["move"] in table.session.moves for e in found.entries)
    html = table.html()
    assert 'id="kit-chart"' in html and "The Expert agrees with" in html
    assert html.count('class="kit-chart-dot') == len(found.entries) + 1  # a dot a move, one for the result
    costly = hints._costly(found.entries)
    for e in costly:
        assert f'data-value="at:{e["index"] + 1}"' in html
    entry = costly[0] if costly else found.entries[0]
    table.act("kit-review", f"at:{entry['index'] + 1}")
    assert kit.reviewing(table.ctx) == entry["index"] + 1
    comment = hints.review_comment(table.ctx, entry["index"] + 1)
    assert comment and comment in re.sub(r"<[^>]+>", "", table.html())  # its tile names kept whole
    if costly:
        assert comment.startswith("Expert: ")


def test_the_analysis_of_a_decided_game_ends_at_its_result_not_at_the_last_estimate():
    seen: dict[str, str] = {}
    for seed in range(40):
        table = Table("dominoes", seed=seed)
        table.to_the_end()
        result = table.session.result_for(0)
        if result not in ("win", "loss") or result in seen:
            continue
        moves = [i for i, _ in enumerate(table.session.moves)][:3]
        table.ui.kit.analysis = (
            kit.Analysis(  # the Expert's estimates as the analysis records them: 50% down to 17%
                uid=table.session.uid,
                moves=table.session.move_count(),
                seat=0,
                total=3,
                status="done",
                entries=[
                    {
                        "index": i,
                        "move": "x",
                        "words": "x",
                        "before": b,
                        "after": a,
                        "best": "x",
                        "best_words": "",
                        "reason": "",
                        "forced": True,
                    }
                    for i, (b, a) in zip(moves, [(0.5, 0.4), (0.4, 0.3), (0.3, 0.17)])
                ],
            )
        )
        html = str(hints.analysis_section(table.ctx, table.screen))
        end = "100% at the end: you won." if result == "win" else "0% at the end: you lost."
        seen[result] = html
        assert f"From about 50% at your first move to {end}" in html
        assert "17% at your last" not in html
        line = html.split('class="kit-chart-line"')[0].rsplit('points="', 1)[1].split('"')[0]
        last_y = float(line.split()[-1].split(",")[1])
        assert last_y == (8.0 if result == "win" else 88.0), "the chart's line ends at the result"
        assert 'class="kit-chart-dot is-result"' in html
        if len(seen) == 2:
            return
    pytest.fail(f"no won and lost game among the seeds: {sorted(seen)}")
