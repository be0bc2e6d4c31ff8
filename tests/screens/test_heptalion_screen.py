"""Heptalion's table screen under CPython: setup, the click flow, privacy, puzzles, markup."""

from __future__ import annotations

import re
from typing import Any

import pytest

from boneyard.games import GAMES
from boneyard.games.heptalion.board import LAB_BOARDS, ORIGINAL
from boneyard.games.heptalion.rules import selection_targets
from boneyard.settings import Settings
from boneyard.tiles import SYMBOLS
from tests.screens.tables import TableHarness, act
from ui.games import heptalion_view as hv
from ui.games.heptalion import HeptalionScreen, ending_text, lab_proof
from ui.session import Session
from ui.table_screen import TableContext

INFO = GAMES["heptalion"]


class Table(TableHarness):
    """A session with the screen, as the app drives it (computer moves played at once)."""

    def __init__(
        self, form: dict[str, Any], seed: int = 7, settings_name: str = "Ann", quick: bool = False
    ) -> None:
        self.screen = HeptalionScreen()
        self.screen.custom_fields(form)
        mode, players = self.screen.mode_from_form(form)
        self.settings = Settings().replace(name=settings_name, place_at_once=quick)
        seats = self.screen.seats_from_form(form, self.settings)  # as the app's start_game does
        assert len(seats) == players
        self.session = Session.start(INFO, seats, mode.key, mode.label, mode.options, seed=seed)
        self.ui = self.screen.new_state()
        self.saves = 0
        self.heard: list[str] = []
        self.html = ""
        self.render()

    def ctx(self) -> TableContext:
        return self.context(save=self.save)

    def rerender(self) -> None:
        self.render()

    def save(self) -> None:
        self.saves += 1

    def play(self, move: Any) -> bool:
        self.session.play(move)
        self.save()
        while self.session.computer_to_move():
            self.session.computer_move()
        self.render()
        return True

    def render(self) -> str:
        self.html = str(self.screen.render(self.ctx()))
        self.screen.after_render(self.ctx())
        return self.html

    def act(self, action: str, value: str = "") -> str:
        act(self.screen, self.ctx(), action, value)
        return self.html

    def view(self) -> dict[str, Any]:
        return self.session.state.view(self.session.viewer())

    def clickable(self, kind: str) -> list[str]:
        """Return the values of the buttons of ``kind`` (a tap elsewhere on the board is explained, not taken)."""
        return re.findall(rf'<button[^>]*data-action="{kind}" data-value="([^"]+)"', self.html)


def first_legal(table: Table, choices: bool = False) -> tuple[str, int, int]:
    """Return the first legal placement (with ``choices``: one whose first space has two second spaces)."""
    targets = selection_targets(table.view()["legal_moves"])
    options = [(t, a, b) for t in sorted(targets) for a in sorted(targets[t]) for b in targets[t][a]]
    if choices:
        options = [o for o in options if len(targets[o[0]][o[1]]) > 1] or options
    return options[0]


def place(table: Table) -> None:
    """Place the first legal placement by clicks: tile, space, (second space), (Confirm)."""
    tile, first, second = first_legal(table)
    before = len(table.session.state.covered)
    table.act("tile", tile)
    table.act("space", str(first))
    if table.screen._choice(table.ctx())[2] is None and len(table.session.state.covered) == before:
        table.act("space", str(second))
    if not table.settings.place_at_once:
        table.act("confirm")


def test_modes_and_default_setup():
    screen = HeptalionScreen()  # not the page's SCREEN: a finished game elsewhere leaves its Play again there
    keys = [m.key for m in screen.modes()]
    assert keys == ["game", "fit", "lab"]
    form: dict[str, Any] = {}
    markup = screen.custom_fields(form) + screen.player_fields(form)  # the players count is the shell's
    assert (
        'data-field="who_1"' in markup and 'data-field="start"' in markup and 'data-field="board"' in markup
    )
    mode, players = screen.mode_from_form(form)
    assert players == 2 and mode.options == {
        "players": 2,
        "hidden": False,
        "board": "original",
        "start": None,
    }


def test_setup_options_reach_the_engine():
    form = {
        "players": "3",
        "hands": "hidden",
        "board": "random",
        "start": "2",
        "who_1": "hard",
        "who_2": "human",
        "name_2": "Bea",
    }
    table = Table(form)
    state = table.session.state
    assert state.players == 3 and state.hidden and state.board.kind == "random" and state.start == 2
    kinds = [(s.kind, s.level) for s in table.session.seats]
    assert kinds == [("human", None), ("computer", "hard"), ("human", None)]
    assert table.session.seats[2].name == "Bea" and table.session.mode.endswith("-device")
    assert "2 people on this device" in table.session.mode_label
    assert table.session.state.name == "Heptalion (Random)"


def test_same_device_preset_makes_every_seat_a_person():
    form = {"opponents": "device", "players": "4"}
    HeptalionScreen().custom_fields(form)  # a fresh screen: no Play again left by another test
    table = Table(form)
    assert all(not s.is_computer for s in table.session.seats)


def test_board_shows_every_space_and_symbol_sprite():
    table = Table({}, seed=3)
    html = table.html
    assert html.count('class="hx-cell') == 56
    for sym in SYMBOLS:
        assert f'id="hx-s-{sym}"' in html
    assert 'id="table-board"' in html
    assert "★" in html


def test_a_space_is_named_by_its_symbol_row_and_column_never_its_number():
    """A screen reader hears where a space is as a player sees the diamond, never an internal number."""
    table = Table({"start": "0", "board": "original"}, seed=11)
    labels = re.findall(r'data-space="(\d+)"[^>]*aria-label="([^"]*)"', table.html)
    assert len(labels) == 56
    assert all("space" not in label for _, label in labels)
    by_space = dict(labels)
    assert by_space["0"] == "Cross, row 1, column 6"  # the diamond's top point
    assert by_space["55"] == "Diamond, row 11, column 6"  # its bottom point
    tile, first, _ = first_legal(table, choices=True)
    table.act("tile", tile)
    spot = next(sp for sp in table.view()["spaces"] if sp["id"] == first)
    name = hv.symbol_name(spot["symbol"]).capitalize()
    expected = f"{name}, row {spot['row'] + 1}, column {spot['col'] + 1}: place here"
    assert f'id="hx-sp-{first}"' in table.html and f'aria-label="{expected}"' in table.html


def test_only_playable_tiles_and_matching_spaces_are_clickable():
    table = Table({"start": "0"}, seed=11)
    targets = selection_targets(table.view()["legal_moves"])
    assert sorted(table.clickable("tile")) == sorted(targets)
    assert table.clickable("space") == []  # nothing on the board before a tile is chosen
    tile, first, _ = first_legal(table, choices=True)
    table.act("tile", tile)
    assert sorted(int(s) for s in table.clickable("space")) == sorted(targets[tile])
    table.act("space", str(first))
    assert sorted(int(s) for s in table.clickable("space")) == sorted(targets[tile][first] + [first])


def test_select_undo_redo_confirm_flow():
    table = Table({"start": "0"}, seed=11)
    tile, first, second = first_legal(table, choices=True)
    table.act("tile", tile)
    table.act("space", str(first))
    table.act("space", str(first))  # tapping the first space again resets it
    assert 'class="hx-cell hx-c-' in table.html and "is-first" not in table.html
    table.act("space", str(first))
    table.act("space", str(second))
    assert "is-pending" in table.html and 'id="hx-confirm"' in table.html
    assert re.search(r'id="hx-confirm"[^>]*disabled', table.html) is None
    table.act("undo")
    assert "hx-domino is-h is-pending" not in table.html and "hx-domino is-v is-pending" not in table.html
    assert re.search(r'id="hx-confirm"[^>]*disabled', table.html)
    table.act("undo")
    table.act("redo")
    table.act("redo")
    assert "is-pending" in table.html
    table.act("confirm")
    state = table.session.state
    assert len(state.covered) >= 1 and state.covered[0][0] == 0
    placed = state.covered[0][1]
    assert sorted(placed.spaces) == sorted((first, second))
    assert table.ui.at == 0


def test_selecting_another_tile_changes_the_choice():
    table = Table({"start": "0"}, seed=11)
    targets = selection_targets(table.view()["legal_moves"])
    a, b = sorted(targets)[:2]
    table.act("tile", a)
    table.act("space", str(sorted(targets[a])[0]))
    table.act("tile", b)
    assert table.screen._choice(table.ctx()) == (b, None, None)
    assert f'id="hx-t-{b}"' in table.html
    assert re.search(rf'data-value="{b}" data-tile="{b}" id="hx-t-{b}" aria-pressed="true"', table.html)


def test_illegal_clicks_are_ignored():
    table = Table({"start": "0"}, seed=11)
    before = table.ui.at
    table.act("space", "0")
    table.act("tile", "Q-Q")
    table.act("confirm")
    assert table.session.state.covered == [] and table.ui.at == before


def test_computer_turn_says_the_computer_is_thinking():
    table = Table({"start": "1", "who_1": "easy"}, seed=5)
    assert table.session.computer_to_move()
    assert "Computer</bdi> is thinking…" in table.html and "Automa" not in table.html
    assert [s.name for s in table.session.seats] == ["Ann", "Computer"]
    four = Table({"players": "4", "start": "0"}, seed=5)
    assert [s.name for s in four.session.seats] == ["Ann", "Computer 1", "Computer 2", "Computer 3"]


def test_full_game_against_automa_ends_with_placings_and_play_again():
    table = Table({"start": "0", "who_1": "easy"}, seed=21)
    while not table.session.state.is_over():
        place(table)
    html = table.html
    assert 'id="kit-results"' in html and "1st" in html and "<td>2nd</td>" in html
    assert "(shared)" not in html  # with two players the loser is simply 2nd
    assert 'data-action="start-game"' in html
    assert any("win" in a for a in table.heard)
    loser = table.view()["eliminated"][0]
    names = [seat.name for seat in table.session.seats]
    status = re.search(r'<p class="kit-turn"[^>]*>(?:<span>)?(.*?)(?:</span>)?</p>', html).group(1)
    if loser == 0:
        assert status == f'None of your tiles fits: <bdi class="name">{names[1]}</bdi> wins.'
        assert "Computer wins</h2>" in html
    else:
        assert status == f'<bdi class="name">{names[1]}</bdi> cannot place a tile: you win!'
        assert "You win!</h2>" in html
    # Play again: the loser of the game starts.
    loser = table.view()["eliminated"][0]
    form: dict[str, Any] = table.form  # the app's form, where the finished table kept its setup
    mode, _ = table.screen.mode_from_form(form)
    assert mode.options["start"] == loser and form["start"] == "loser"
    assert "Loser of the previous game" in table.screen.player_fields(form)


def test_an_online_games_results_leave_the_local_setup_alone():
    """The room's seats (guests, its computers) never become this device's setup for the next game."""
    table = Table({"start": "0", "who_1": "easy", "players": "2"}, seed=21)
    table.session.extra["online"] = "ABCDEFGH"  # as the host keeps its room's code
    while not table.session.state.is_over():
        place(table)
    assert 'id="kit-results"' in table.html
    form: dict[str, Any] = {"opponents": "online", "_opp": "online", "players": "3", "who_1": "hard"}
    table.screen.custom_fields(form)
    assert form == {"opponents": "online", "_opp": "online", "players": "3", "who_1": "hard"}


def test_three_players_with_an_elimination_is_heard():
    table = Table({"players": "3", "who_1": "easy", "who_2": "easy", "start": "0"}, seed=2)
    assert "Set aside face up" in table.html
    while not table.session.state.is_over():
        place(table)
    view = table.view()
    assert len(view["eliminated"]) == 2
    assert "is eliminated" in " ".join(table.heard)
    assert table.html.count("2nd (shared)") == 2


def test_hidden_hands_on_one_device_use_a_privacy_screen():
    table = Table(
        {"opponents": "device", "_opp": "device", "hands": "hidden", "start": "0", "name_1": "Bob"}, seed=4
    )
    assert "kit-gate" in table.html and 'Pass the device to <bdi class="name">Ann</bdi>' in table.html
    assert table.clickable("tile") == []
    assert "Ann</bdi>'s tiles are hidden." in table.html
    assert "Your first turn of the game." in table.html and "of this hand" not in table.html
    table.act("kit-reveal")
    assert "kit-gate" not in table.html and table.clickable("tile")
    # Bob's hand is hidden from Ann: his seat shows backs, no faces.
    bob = re.search(r'<li class="kit-seat[^"]*" data-seat="1".*?</li>', table.html).group(0)
    assert "kit-back" in bob and "hx-tile" not in bob and "14 tiles" in bob
    place(table)
    assert 'Pass the device to <bdi class="name">Bob</bdi>' in table.html
    assert table.clickable("tile") == []


def test_puzzle_shows_the_true_maximum_and_a_layout_and_takes_back():
    table = Table({"mode": "fit", "fit_board": "original"}, seed=1)
    assert table.session.state.players == 1
    assert 'id="hx-show-max"' in table.html
    table.act("show-max")
    assert table.session.extra["hx_max"]["max"] == 24
    assert "the most is 24" in table.html
    assert table.html.count("hx-domino is-") >= 24  # the optimal layout, face up
    place(table)
    assert len(table.session.state.covered) == 1
    table.act("takeback")
    assert table.session.state.covered == []
    # a puzzle resumed from its save takes back too (no undo records then: it replays the others)
    for _ in range(2):
        place(table)
    placed = [m for _, m in table.session.state.covered]
    table.session.state = table.session.info.from_dict(table.session.state.to_dict())
    assert not table.session.state.can_undo()
    table.act("takeback")
    assert [m for _, m in table.session.state.covered] == placed[:1]


def test_puzzle_on_a_lab_board_and_lab_mode_show_the_checks():
    table = Table({"mode": "fit", "fit_board": "lab:3"}, seed=1)
    assert (
        table.session.state.board == LAB_BOARDS[3]
        or table.session.state.board.symbols == LAB_BOARDS[3].symbols
    )
    game = Table({"mode": "lab", "lab": "5"}, seed=1)
    assert game.session.state.board.symbols == LAB_BOARDS[5].symbols
    assert "This board, checked" in game.html and "✗" not in game.html
    proof = str(lab_proof(ORIGINAL))
    assert "✗ not the original" in proof


def test_resume_from_save_keeps_the_board():
    table = Table({"board": "random", "start": "0"}, seed=9)
    data = table.session.to_json()
    again = Session.from_json("heptalion", data)
    assert again.state.board.symbols == table.session.state.board.symbols
    assert [(s.kind, s.name, s.level) for s in again.seats] == [
        (s.kind, s.name, s.level) for s in table.session.seats
    ]


@pytest.mark.parametrize("sym", list(SYMBOLS))
def test_each_symbol_has_its_own_shape(sym):
    shapes = {s: hv._symbol_shape(s).replace(hv.SYMBOL_COLOURS[s], "") for s in SYMBOLS}
    assert list(shapes.values()).count(shapes[sym]) == 1


def test_the_others_sit_around_you_and_your_tiles_are_in_the_tray():
    table = Table({"players": "3", "who_1": "easy", "who_2": "easy", "start": "2"}, seed=8)
    seats = re.findall(r'class="kit-seat[^"]*" data-seat="(\d)" data-pos="(\w+)"', table.html)
    assert seats == [("1", "left"), ("2", "right")]
    assert 'id="kit-tray"' in table.html and "Your tiles" in table.html


def test_keys_undo_and_clear_but_leave_letters_to_the_browser():
    table = Table({"start": "0"}, seed=11)
    tile, first, _ = first_legal(table, choices=True)
    table.act("tile", tile)
    table.act("space", str(first))
    assert table.screen.on_key(table.ctx(), "r") is False
    assert table.screen.on_key(table.ctx(), "Backspace") is True
    assert table.screen._choice(table.ctx()) == (tile, None, None)
    assert table.screen.on_key(table.ctx(), "Escape") is True
    assert table.screen._choice(table.ctx()) == (None, None, None)


def ending_view(players: int, winner: int, eliminated: list[int]) -> dict[str, Any]:
    return {
        "solo": players == 1,
        "players": players,
        "eliminated": eliminated,
        "outcome": {
            "winners": [winner],
            "termination": "eliminated",
            "placings": [],
            "scores": [3] * players,
        },
    }


def test_the_screen_words_every_ending_from_the_facts_and_the_names():
    """The engine writes no sentences: the screen names the players (never a seat counted from 0)."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    assert ending_text(ending_view(2, 1, [0]), names, you=0) == "None of your tiles fits: Bob wins."
    assert ending_text(ending_view(2, 0, [1]), names, you=0) == "Bob cannot place a tile: you win!"
    assert ending_text(ending_view(2, 1, [0]), names) == "Ann cannot place a tile: Bob wins!"
    assert ending_text(ending_view(4, 2, [1, 0, 3]), names, you=2).startswith(
        "You are the last player standing: you win!"
    )
    three = ending_text(ending_view(3, 0, [2, 1]), names, you=1)
    assert three == "Ann is the last player standing and wins! Everyone else shares second place."
    solo = {"solo": True, "players": 1, "eliminated": [], "outcome": {"winners": [0], "scores": [1]}}
    assert ending_text(solo, ["Ann"], you=0) == "No more tiles fit. You placed 1 tile."
    solo["outcome"]["scores"] = [19]
    assert ending_text(solo, ["Ann"], you=0) == "No more tiles fit. You placed 19 tiles."
    for players in (2, 3, 4):
        for winner in range(players):
            text = ending_text(
                ending_view(players, winner, [s for s in range(players) if s != winner]), names[:players]
            )
            assert names[winner] in text and "Seat" not in text and "seat" not in text


def test_a_finished_game_on_one_device_names_the_winner():
    table = Table({"opponents": "device", "_opp": "device", "start": "0", "name_1": "Bob"}, seed=5)
    while not table.session.state.is_over():
        place(table)
    view = table.view()
    winner, loser = view["outcome"]["winners"][0], view["eliminated"][0]
    names = ["Ann", "Bob"]
    assert (
        f'<bdi class="name">{names[loser]}</bdi> cannot place a tile: <bdi class="name">{names[winner]}</bdi> wins!'
        in table.html
    )


def test_place_at_once_places_on_the_second_space_without_confirm():
    table = Table({"start": "0", "who_1": "easy"}, seed=11, quick=True)
    assert 'id="hx-confirm"' not in table.html and 'data-setting="place_at_once"' in table.html
    tile, first, second = first_legal(table, choices=True)
    table.act("tile", tile)
    assert table.ui.focus is False  # after_render moved the focus (and forgot the request)
    table.act("space", str(first))
    assert table.session.state.covered == []
    table.act("space", str(second))
    covered = table.session.state.covered
    assert covered and covered[0][0] == 0 and sorted(covered[0][1].spaces) == sorted((first, second))
    assert any("You placed" in a for a in table.heard)


def test_a_first_space_with_one_way_on_completes_the_choice():
    table = Table({"start": "0"}, seed=11)
    targets = selection_targets(table.view()["legal_moves"])
    tile, first = next((t, a) for t in sorted(targets) for a in sorted(targets[t]) if len(targets[t][a]) == 1)
    table.act("tile", tile)
    table.act("space", str(first))
    assert table.screen._choice(table.ctx()) == (tile, first, targets[tile][first][0])
    assert (
        "is-pending" in table.html
        and '<button data-focus="true" type="button" class="btn kit-btn btn-primary" data-action="confirm"'
        in table.html
    )


def test_who_placed_each_domino_shows_and_faces_turn_up():
    table = Table({"start": "0", "who_1": "easy"}, seed=11, quick=True)
    for _ in range(3):
        place(table)
    owners = [seat for seat, _ in table.session.state.covered]
    html = table.html
    for seat in set(owners):
        assert f"hx-domino is-h hx-own-{seat}" in html or f"hx-domino is-v hx-own-{seat}" in html
    assert "placed by You" in html and "placed by <bdi" not in html
    assert html.count(" is-recent") == 1  # the computer's reply since your last placement
    assert 'data-kit-from=".kit-seat[data-seat=&#x27;1&#x27;]"' in html  # it slides in from its seat
    assert "is-face" not in html
    table.act("faces")
    assert html.count("hx-domino") <= table.html.count("is-face") + 1
    assert table.form == {"_faces": True}  # kept in the setup form for the next game
    assert table.screen.new_state(table.form).faces is True


def test_the_copy_says_you_plain_words_and_plurals():
    form: dict[str, Any] = {}
    screen = HeptalionScreen()
    setup = str(screen.custom_fields(form) + screen.player_fields(form))
    assert "Automa" not in setup and "Computer, medium" in setup
    assert "Lab" not in str(screen.modes()) and "Other boards" in str(screen.modes())
    table = Table({"board": "random", "start": "0"}, seed=9)
    assert "Random board · 0 placed" in table.html
    assert not re.search(r"\d{6,}", re.sub(r"<[^>]*>", " ", table.html))  # no long board numbers
    assert hv.tiles_word(1) == "1 tile" and hv.tiles_word(2) == "2 tiles"
    assert hv.event_text({"kind": "eliminated", "seat": 0, "order": 1}, ["Ann"], you=0).startswith(
        "You are out"
    )
    solo = Table({"mode": "fit", "fit_board": "original"}, seed=1)
    while not solo.session.state.is_over():
        place(solo)
    assert "Winner" not in solo.html and "is-winner" not in solo.html
    assert re.search(r"You fitted \d+ tiles\.", solo.html)


def test_zoom_steps_within_bounds_and_the_menu_opens_and_closes():
    table = Table({"start": "0"}, seed=3)
    assert "hx-stage hx-zoom-0" in table.html
    for _ in range(5):
        table.act("zoom", "1")
    assert "hx-zoom-2" in table.html and re.search(r'id="hx-zoom-in"[^>]*disabled', table.html)
    for _ in range(5):
        table.act("zoom", "-1")
    assert "hx-zoom--1" in table.html and re.search(r'id="hx-zoom-out"[^>]*disabled', table.html)
    assert re.search(r'id="hx-menu-pop" hidden', table.html)
    table.act("menu")
    assert 'aria-expanded="true"' in table.html and not re.search(r'id="hx-menu-pop" hidden', table.html)
    assert table.screen.on_key(table.ctx(), "Escape") is True
    assert re.search(r'id="hx-menu-pop" hidden', table.html)


def test_take_back_is_offered_against_the_computer_and_review_replays_the_board():
    table = Table({"start": "0", "who_1": "easy"}, seed=21, quick=True)
    assert 'data-action="take-back"' in table.html and re.search(r'id="take-back"[^>]*disabled', table.html)
    place(table)
    assert not re.search(r'id="take-back"[^>]*disabled', table.html)
    assert table.session.take_back() == 2 and table.session.state.covered == []
    table.render()
    while not table.session.state.is_over():
        place(table)
    assert 'id="review"' in table.html and "Not counted in your stats: you took back 1 move." in table.html
    table.act("kit-review", "open")
    total = table.session.move_count()
    assert f"Move {total} of {total}" in table.html
    table.act("kit-review", "first")
    assert "Move 0 of" in table.html and "hx-domino" not in table.html
    table.act("kit-review", "forward")
    assert table.html.count("hx-domino") == 1 and "is-face" in table.html
    table.act("kit-review", "close")
    assert 'id="kit-results"' in table.html


def test_a_tap_on_a_space_that_is_no_target_says_why():
    table = Table({"start": "0"}, seed=11)
    view = table.view()
    symbol = {sp["id"]: sp["symbol"] for sp in view["spaces"]}
    targets = selection_targets(view["legal_moves"])
    table.act("space", "0")
    assert "Pick a tile first" in table.html and table.heard[-1].startswith("Pick a tile")
    tile, first, second = first_legal(table, choices=True)
    table.act("tile", tile)
    wrong = next(s for s in symbol if symbol[s] not in tile.split("-"))
    assert f'data-action="space" data-value="{wrong}"' in table.html, "a space that is no target takes a tap"
    table.act("space", str(wrong))
    name = hv.symbol_name(symbol[wrong])
    assert f"{hv.tile_name(tile).capitalize()} has no {name} end." in table.html
    table.act("space", str(first))
    far = next(s for s in symbol if s not in targets[tile][first] and s != first and s not in targets[tile])
    table.act("space", str(far))
    assert "kit-refusal" in table.html and table.heard[-1].endswith("tap a marked space.")
    assert table.screen._choice(table.ctx()) == (tile, first, None), "the choice stays as it was"
    assert table.session.state.covered == []
    table.act("space", str(second))
    table.act("confirm")
    covered = table.session.state.covered[0][1].spaces[0]
    table.act("tile", first_legal(table)[0])
    table.act("space", str(covered))
    assert "That space is taken" in table.html


def test_every_refused_space_is_worded_from_the_view():
    table = Table({"start": "0"}, seed=11)
    view = table.view()
    targets = selection_targets(view["legal_moves"])
    for tile in targets:
        for sp in view["spaces"]:
            if sp["id"] not in targets[tile]:
                words = hv.space_refusal(view, tile, None, sp["id"])
                assert words.endswith(" end.") or words.endswith("tap a marked space.")
                assert len(words) <= 60, "two lines of the message line on a phone"
        first = sorted(targets[tile])[0]
        for sp in view["spaces"]:
            if sp["id"] not in targets[tile][first] and sp["id"] != first:
                words = hv.space_refusal(view, tile, first, sp["id"])
                assert words.startswith(("The other end ", "That space is taken")) and len(words) <= 60
