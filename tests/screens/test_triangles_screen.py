"""The Triangles table screen's markup and click flow, under CPython (no browser)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from boneyard.core import IllegalMoveError
from boneyard.games import GAMES
from boneyard.settings import Settings
from tests.screens.tables import TableHarness, act
from ui.games import screen_for
from ui.games import triangles_layout as lay
from ui.intents import Render
from ui.session import Seat, Session
from ui.table_screen import TableContext

SCREEN = screen_for("triangles")
INFO = GAMES["triangles"]


def start(seed: int = 7, players: int = 2, device: bool = False, moves: int = 0) -> Session:
    """Deal a game and play ``moves`` random moves, then the computers, until a person is to move."""
    if device:
        seats = [Seat("human", f"P{i + 1}") for i in range(players)]
    else:
        seats = [Seat("human", "Ana")] + [
            Seat("computer", f"Computer {i}", "easy") for i in range(1, players)
        ]
    session = Session.start(
        INFO, seats, f"players-{players}", f"{players} players", {"players": players}, seed=seed
    )
    rng = random.Random(seed)
    for _ in range(moves):
        if session.state.is_over():
            break
        if session.computer_to_move():
            session.computer_move()
        else:
            legal = session.state.legal_moves()
            session.play(legal[rng.randrange(len(legal))])
    while not session.state.is_over() and session.computer_to_move():
        session.computer_move()
    return session


class Harness(TableHarness):
    """A TableContext whose play() goes through the session (and lets the computers answer)."""

    screen = SCREEN

    def __init__(self, session: Session, settings: Settings | None = None) -> None:
        self.session = session
        self.ui = self.screen.new_state()
        self.played: list[str] = []
        self.refused: list[str] = []
        self.heard: list[str] = []
        self.renders = 0
        self.settings = settings or Settings()

    @property
    def ctx(self) -> TableContext:
        return self.context()

    def rerender(self) -> None:
        self.renders += 1
        SCREEN.render(self.ctx)

    def play(self, move: str) -> bool:
        try:
            self.session.play(move)
        except IllegalMoveError as exc:
            self.refused.append(str(exc))
            return False
        self.played.append(str(move))
        while not self.session.state.is_over() and self.session.computer_to_move():
            self.session.computer_move()
        return True

    def render(self) -> str:
        """Return the table's markup with the names' isolation (FSI/PDI, ``<bdi class="name">``) left out."""
        page = str(SCREEN.render(self.ctx))
        for mark in ("\u2068", "\u2069", '<bdi class="name">', "</bdi>"):
            page = page.replace(mark, "")
        return page

    def act(self, action: str, value: str = "") -> str:
        act(SCREEN, self.ctx, action, value)
        return self.render()


def enabled(markup: str, button_id: str) -> bool:
    """Tell whether the button with this id is in the markup and enabled (it must be there)."""
    found = re.search(rf'<button[^>]* id="{button_id}"[^>]*>', markup)
    assert found, button_id
    return " disabled" not in found.group(0)


def spots_in(markup: str) -> set[tuple[int, int]]:
    return {
        (int(r), int(c)) for r, c in re.findall(r'class="tri-spot[^"]*" id="spot-(-?\d+)_(-?\d+)"', markup)
    }


def placeable(seed: int = 11, moves: int = 14) -> Session:
    """Return a position after about ``moves`` moves where the person to move can lay a tile."""
    for extra in range(0, 40, 2):
        session = start(seed=seed, moves=moves + extra)
        if not session.state.is_over() and any("@" in str(m) for m in session.state.legal_moves()):
            return session
    raise AssertionError("no placeable position")


def legal_cells(session: Session, tile: str) -> dict[tuple[int, int], list[int]]:
    found: dict = {}
    for move in session.state.legal_moves():
        text = str(move)
        if text.startswith(tile + "@"):
            found.setdefault(move.cell, []).append(move.rotation)
    return found


# -- setup -------------------------------------------------------------------------------------------


def test_setup_offers_players_2_to_4():
    assert SCREEN.modes() == []
    for value, expected in (("2", 2), ("3", 3), ("4", 4), ("9", 2), ("x", 2), (None, 2)):
        mode, players = SCREEN.mode_from_form({"players": value} if value is not None else {})
        assert players == expected and mode.options == {"players": expected} and mode.players is None
        assert mode.key == f"players-{expected}"


def test_the_pure_modules_import_nothing_from_the_browser():
    folder = Path(__file__).resolve().parents[2] / "py" / "ui" / "games"
    for name in ("triangles.py", "triangles_layout.py"):
        text = (folder / name).read_text()
        assert not re.search(r"^\s*(from|import)\s+(js|pyscript|pyodide)\b", text, re.M), name


# -- the opening ---------------------------------------------------------------------------------------


def find_human_opener(players: int = 2) -> Session:
    for seed in range(200):
        session = start(seed=seed, players=players)
        if session.to_move() == 0 and not session.state.view(0)["table"]:
            opening = session.state.view(0)["opening"]
            a, b, c = opening.split("-")
            if not a == b == c:
                return session
    raise AssertionError("no seed where the person opens with a plain tile")


def test_the_opening_tile_takes_its_rotation_before_it_is_placed():
    session = find_human_opener()
    opening = session.state.view(0)["opening"]
    harness = Harness(session)
    page = harness.render()
    assert f"you open with {opening} (no triple was dealt)" in page
    assert f'aria-label="Tile {opening}, playable"' in page
    page = harness.act("select", opening)
    assert spots_in(page) == {(0, 0)}
    assert "3 ways to turn it" in page
    page = harness.act("cell", "0,0")
    assert harness.played == [] and harness.ui.pending == (0, 0, 0)
    assert f"tap the spot again to turn {opening}, then press Place." in page
    assert 'id="tri-confirm"' in page and 'id="tri-rotate"' in page
    page = harness.act("cell", "0,0")  # tapping again turns it
    assert harness.ui.pending == (0, 0, 1)
    page = harness.act("rotate")
    assert harness.ui.pending == (0, 0, 2)
    page = harness.act("rotate")
    assert harness.ui.pending == (0, 0, 0)
    harness.act("rotate")
    harness.act("confirm")
    assert harness.played == [f"{opening}@0,0r1"]
    assert harness.ui.sel is None and harness.ui.pending is None


# -- spots -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_marked_spots_are_exactly_the_legal_cells_of_every_tile(seed):
    session = placeable(seed)
    harness = Harness(session)
    view = session.state.view(0)
    assert view["turn"] == 0
    for tile in view["hand"]:
        harness.ui = SCREEN.new_state()
        page = harness.act("select", tile)
        assert spots_in(page) == set(legal_cells(session, tile)), tile
        playable = f'aria-label="Tile {tile}, playable"' in page
        assert playable == bool(legal_cells(session, tile))


def test_a_marked_spot_places_the_tile_and_an_unmarked_cell_does_not():
    session = placeable()
    view = session.state.view(0)
    harness = Harness(session)
    tile = next(t for t in view["hand"] if legal_cells(session, t))
    cells = legal_cells(session, tile)
    placed = {tuple(t["cell"]) for t in view["table"]}
    open_cells = [c for c in lay.frontier(placed) if c not in cells]
    assert open_cells
    page = harness.act("select", tile)
    for cell in open_cells[:5]:
        page = harness.act("cell", f"{cell[0]},{cell[1]}")
        where = lay.where(cell, lay.laid_tiles(view["table"]), brief=True)
        assert harness.played == [] and f"{tile} does not fit {where}; try a marked spot." in page
        assert "row" not in where and any(t["tile"] in where for t in view["table"]), "by the tiles laid"
    cell = sorted(cells)[0]
    harness.act("cell", f"{cell[0]},{cell[1]}")
    assert harness.played == [lay.move_text(tile, cell, cells[cell][0])]
    assert any(t["cell"] == list(cell) and t["tile"] == tile for t in session.state.view(0)["table"])


def test_no_spots_without_a_tile_and_none_on_the_computers_turn():
    session = placeable()
    harness = Harness(session)
    page = harness.act("cell", "0,1")
    assert harness.played == [] and "Choose a tile from your hand first." in page
    assert spots_in(page) == set()
    # the computer to move: the hand is disabled and a tap does nothing
    comp = start(seed=11, moves=0)
    while comp.to_move() == 0:
        comp.play(comp.state.legal_moves()[0])
    waiting = Harness(comp)
    page = waiting.render()
    if not comp.state.is_over():
        assert 'data-turn="wait"' in page and "is thinking" in page
        tile = comp.state.view(0)["hand"][0]
        page = waiting.act("select", tile)
        assert waiting.ui.sel is None and spots_in(page) == set()


def test_suggestions_off_marks_no_tile():
    session = placeable()
    harness = Harness(session, Settings(suggestions=False))
    page = harness.render()
    assert "is-playable" not in page and ", playable" not in page


# -- draw and pass -----------------------------------------------------------------------------------------


def find(predicate, moves_range=range(6, 60, 2), seeds=range(60)):
    for seed in seeds:
        for moves in moves_range:
            session = start(seed=seed, moves=moves)
            if not session.state.is_over() and predicate(session):
                return session
    raise AssertionError("no position found")


def test_draw_is_offered_only_when_nothing_fits_and_shows_the_draws_left():
    session = find(lambda s: [str(m) for m in s.state.legal_moves()] == ["draw"])
    harness = Harness(session)
    page = harness.render()
    left = session.state.view(0)["draws_left"]
    assert enabled(page, "tri-draw")
    assert f"{left} draw{'s' if left != 1 else ''} left this turn" in page and "nothing fits" in page
    assert not enabled(page, "tri-pass")
    hand = len(session.state.view(0)["hand"])
    page = harness.act("draw")
    assert harness.played == ["draw"]
    assert "You drew" in harness.ui.msg or session.to_move() != 0
    if session.to_move() == 0:
        assert len(session.state.view(0)["hand"]) == hand + 1
        drawn = session.state.view(0)["hand"][-1]
        if legal_cells(session, drawn):
            assert harness.ui.sel == drawn and spots_in(page)


def test_draw_and_pass_are_disabled_while_a_tile_fits():
    session = placeable()
    assert any("@" in str(m) for m in session.state.legal_moves())
    page = Harness(session).render()
    assert not enabled(page, "tri-draw") and not enabled(page, "tri-pass")
    harness = Harness(session)
    harness.act("draw")
    harness.act("pass")
    assert harness.played == []


def test_pass_when_the_engine_says_so():
    session = find(lambda s: [str(m) for m in s.state.legal_moves()] == ["pass"], range(20, 80, 3))
    harness = Harness(session)
    page = harness.render()
    assert enabled(page, "tri-pass")
    harness.act("pass")
    assert harness.played == ["pass"]


# -- shared device ---------------------------------------------------------------------------------------


def test_the_privacy_cover_hides_the_next_persons_tiles_until_they_ask():
    session = start(seed=5, players=3, device=True)
    harness = Harness(session)
    seat = session.to_move()
    page = harness.render()
    assert f"Pass the device to P{seat + 1}" in page and 'id="reveal"' in page
    assert "tri-hand-tile" not in page and 'data-turn="privacy"' in page
    page = harness.act("reveal")
    assert "Pass the device" not in page and 'data-turn="you"' in page
    hand = session.state.view(seat)["hand"]
    assert all(f'id="hand-{t}"' in page for t in hand)
    move = str(session.state.legal_moves()[0])
    harness.act("select", move.split("@")[0])
    harness.act("cell", move.split("@")[1].split("r")[0])
    if harness.ui.pending:
        harness.act("confirm")
    assert len(harness.played) == 1
    nxt = session.to_move()
    page = harness.render()
    assert nxt != seat and f"Pass the device to P{nxt + 1}" in page
    assert not any(f'id="hand-{t}"' in page for t in session.state.view(nxt)["hand"])


# -- the end ------------------------------------------------------------------------------------------------


def play_out(session: Session) -> None:
    rng = random.Random(1)
    while not session.state.is_over():
        if session.computer_to_move():
            session.computer_move()
        else:
            legal = session.state.legal_moves()
            session.play(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_summary_shows_each_seats_pips_and_new_game_and_home(seed):
    session = start(seed=seed, players=3)
    play_out(session)
    outcome = session.state.outcome()
    page = Harness(session).render()
    assert 'data-turn="over"' in page and 'id="kit-results"' in page
    assert 'data-action="new-game" data-value="triangles"' in page and 'data-action="home"' in page
    assert not enabled(page, "tri-draw") and not enabled(page, "tri-pass")  # kept in place, disabled
    assert 'id="tri-again" autofocus' in page and "Play again" in page
    names = ["You", "Computer 1", "Computer 2"]
    rows = re.findall(
        r'<tr[^>]*><th scope="row">([^<]+)</th><td data-place="(\d+)">[^<]*</td><td>(\d+)</td>', page
    )
    assert [(n, int(pl), int(p)) for n, pl, p in rows] == [
        (names[s], outcome.placings[s], outcome.scores[s]) for s in range(3)
    ]
    if len(outcome.winners) == 1:
        w = outcome.winners[0]
        assert ("You win!" if w == 0 else f"{names[w]} wins") in page
    else:
        assert "A draw" in page
    low = min(outcome.scores)
    if outcome.termination == "out":
        assert (
            "You laid" if outcome.winners[0] == 0 else f"{names[outcome.winners[0]]} laid"
        ) + " the last tile." in page
    elif len(outcome.winners) == 1:
        who = "you have" if outcome.winners[0] == 0 else f"{names[outcome.winners[0]]} has"
        assert f"The game is blocked: {who} the lowest pip total, {low}." in page
    else:
        assert f"tie for the lowest pip total, {low}." in page
    assert "Player 0" not in page and "seat 0" not in page.lower()


# -- zoom and keys ----------------------------------------------------------------------------------------


def test_zoom_buttons_and_keys_change_the_view_box_and_fit_restores_it():
    session = placeable(11, 20)
    harness = Harness(session)
    page = harness.render()
    auto = re.search(r'viewBox="([^"]+)"', page).group(1)
    harness.act("zoom", "in")
    box = harness.ui.view
    assert box[2] < float(auto.split()[2])
    page = harness.render()
    assert f'viewBox="{lay.box_attr(tuple(box))}"' in page and "is-manual" in page
    assert SCREEN.on_key(harness.ctx, "-") and harness.ui.view[2] > box[2]
    assert SCREEN.on_key(harness.ctx, "0") and harness.ui.view is None
    assert re.search(r'viewBox="([^"]+)"', harness.render()).group(1) == auto
    assert not SCREEN.on_key(harness.ctx, "Enter")
    harness.ui.view = ["bad", 1, 2, 3]  # a damaged box falls back to the fit
    assert re.search(r'viewBox="([^"]+)"', harness.render()).group(1) == auto


def test_the_fit_grows_with_the_layout_and_keeps_a_minimum():
    small = lay.fit_box([(0, 0)])
    assert small[2] >= lay.MIN_W and small[3] >= lay.MIN_H
    session = start(seed=11, moves=40)
    cells = [tuple(t["cell"]) for t in session.state.view(0)["table"]]
    x, y, w, h = lay.fit_box(cells)
    from boneyard.games.triangles import grid

    x0, y0, x1, y1 = grid.bounding_box(cells)
    assert x <= x0 and y <= y0 and x + w >= x1 and y + h >= y1
    assert lay.zoom_box((0, 0, 10, 5), 1 / 100)[2] == lay.ZOOM_MIN_W
    assert lay.zoom_box((0, 0, 10, 5), 100)[2] == lay.ZOOM_MAX_W


def test_escape_puts_the_tile_back():
    session = placeable()
    harness = Harness(session)
    tile = session.state.view(0)["hand"][0]
    harness.act("select", tile)
    assert SCREEN.on_key(harness.ctx, "Escape") and harness.ui.sel is None
    assert not SCREEN.on_key(harness.ctx, "Escape")


# -- words ---------------------------------------------------------------------------------------------------


def test_the_log_groups_draws_with_the_move_that_ends_the_turn():
    history = [
        {"seat": 0, "move": "5-5-5@0,0r0"},
        {"seat": 1, "move": "draw"},
        {"seat": 1, "move": "draw"},
        {"seat": 1, "move": "3-5-5@0,1r2"},
        {"seat": 0, "move": "draw"},
        {"seat": 0, "move": "draw"},
        {"seat": 0, "move": "draw"},
        {"seat": 0, "move": "pass"},
        {"seat": 1, "move": "draw"},
    ]
    names = {0: "You", 1: "Computer 1"}
    assert lay.log_lines(history, names.get) == [
        "You laid 5-5-5",
        "Computer 1 drew 2 tiles and laid 3-5-5",
        "You drew 3 tiles and passed",
        "Computer 1 drew a tile",
    ]
    assert lay.log_lines(history, names.get, limit=1) == ["Computer 1 drew a tile"]


def test_aria_labels_name_tiles_and_spots():
    session = placeable()
    harness = Harness(session)
    tile = next(t for t in session.state.view(0)["hand"] if legal_cells(session, t))
    page = harness.act("select", tile)
    cell = sorted(legal_cells(session, tile))[0]
    laid = lay.laid_tiles(session.state.view(0)["table"])
    assert f'aria-label="Place {lay.where(cell, laid)}' in page and "row" not in lay.where(cell, laid)
    assert "at row" not in page and "column" not in page, "no grid coordinates in what a player hears"
    assert f'aria-label="Tile {tile}, playable"' in page and 'aria-pressed="true"' in page
    assert 'tabindex="0" role="button"' in page
    assert harness.heard and tile in harness.heard[-1]


def test_news_reads_out_each_move_once():
    session = placeable()
    harness = Harness(session)
    assert SCREEN.news(harness.ctx) == []  # the first drawing after a load reads nothing old
    move = str(session.state.legal_moves()[0])
    harness.play(move)
    news = SCREEN.news(harness.ctx)
    assert news and news[0].startswith("You laid")
    assert SCREEN.news(harness.ctx) == []


@pytest.mark.parametrize(
    "hands,words",
    [
        ([["0-0-1"], ["1-1-1"]], "The game is blocked: P1 has the lowest pip total, 1."),
        ([["1-1-1"], ["0-0-1"]], "The game is blocked: P2 has the lowest pip total, 1."),
        ([["0-0-2"], ["0-1-1"]], "The game is blocked: P1 and P2 tie for the lowest pip total, 2."),
    ],
)
def test_a_blocked_ending_says_who_has_the_lowest_pip_total(hands, words):
    from tests.games.triangles.triangles_helpers import empty_stock_position

    session = start(seed=1, players=2, device=True)
    session.state = empty_stock_position(hands, [("5-5-5", (0, 0), 0)])
    session.state.play("pass")
    session.state.play("pass")
    assert session.state.outcome().termination == "blocked"
    assert words in Harness(session).render()


# -- the kit: review, take-back, seats, the readable fit ------------------------------------------------


def test_the_review_draws_the_board_as_it_was_with_every_hand_face_up():
    session = start(seed=3, players=2)
    play_out(session)
    harness = Harness(session)
    total = session.move_count()
    assert total == len(session.state.history)
    assert act(SCREEN, harness.ctx, "kit-review", "open") == [Render()] and harness.ui.kit.review == total
    page = harness.render()
    assert 'data-turn="review"' in page and f"Move {total} of {total}" in page
    assert page.count('class="tri-tile') == len(session.state.view(0)["table"])
    harness.act("kit-review", "first")
    page = harness.render()
    assert "Move 0 of" in page and 'class="tri-tile' not in page
    first_hand = session.replay(0).view(1)["hand"]
    assert all(f'aria-label="{t}"' in page for t in first_hand), "the other seat's hand is face up"
    assert "disabled" in re.search(r'<button[^>]*class="tri-hand-tile[^>]*>', page).group(0)
    harness.act("kit-review", "forward")
    assert harness.render().count('class="tri-tile') == 1
    harness.act("kit-review", "close")
    assert 'id="kit-results"' in harness.render()


def test_take_back_is_offered_against_the_computer_only():
    session = placeable()
    page = Harness(session).render()
    assert 'id="take-back"' in page
    shared = Harness(start(seed=5, players=3, device=True)).render()
    assert 'id="take-back"' not in shared


def test_seats_carry_full_names_and_counts_in_words():
    session = start(seed=11, players=4)
    page = Harness(session).render()
    for n in (1, 2, 3):
        assert f'<span class="kit-seat-name">Computer {n}</span>' in page
    assert re.search(r'aria-label="Computer 1 \(Easy\): \d+ tiles?', page)
    assert "You" not in re.findall(r'class="kit-seat-name">([^<]+)<', page)  # your seat is the tray


def test_the_fit_keeps_the_numbers_readable_and_follows_the_play():
    full = (-10.0, -6.0, 20.0, 12.0)
    assert lay.readable_box(full, 2000, 1200) == full  # 100 px a side: all of it
    box = lay.readable_box(full, 334, 281, [(0, 0)])
    assert box[2] == pytest.approx(334 / lay.MIN_PX) and box[3] == pytest.approx(281 / lay.MIN_PX)
    assert full[0] <= box[0] and box[0] + box[2] <= full[0] + full[2]
    assert full[1] <= box[1] and box[1] + box[3] <= full[1] + full[3]
    from boneyard.games.triangles import grid

    cx, cy = grid.cell_centre((0, 0))
    assert box[0] < cx < box[0] + box[2] and box[1] < cy < box[1] + box[3]
    corner = lay.readable_box(full, 334, 281, [(-20, -30)])  # far outside: kept inside the layout
    assert corner[0] == pytest.approx(full[0]) and corner[1] == pytest.approx(full[1])


def test_the_tile_just_laid_slides_in_from_whoever_laid_it():
    session = placeable()
    harness = Harness(session)
    tile = next(t for t in session.state.view(0)["hand"] if legal_cells(session, t))
    cell = sorted(legal_cells(session, tile))[0]
    harness.session.play(lay.move_text(tile, cell, legal_cells(session, tile)[cell][0]))
    page = harness.render()
    assert page.count("data-kit-from") == 1 and 'data-kit-from="#kit-tray"' in page
    session.computer_move()
    page = harness.render()
    last = session.state.history[-1]
    if "@" in str(last[1]):
        assert 'data-kit-from=".kit-seat[data-seat=&quot;1&quot;]"' in page
    else:
        assert "data-kit-from" not in page or 'data-kit-from="#tri-stock"' not in page


def test_the_fit_keeps_the_layout_clear_of_the_band_over_the_board():
    box = (0.0, 0.0, 6.0, 4.0)
    width, height = 600.0, 452.0
    x, y, w, h = lay.under_band(box, width, height)
    assert w / h == pytest.approx(width / height)
    scale = width / w
    assert (box[1] - y) * scale >= lay.BAND_PX - 1e-6  # the layout's top is below the band
    assert (y + h - box[1] - box[3]) * scale >= -1e-6  # and its bottom on the board
    assert x <= box[0] and x + w >= box[0] + box[2]


def test_the_others_tiles_since_your_last_turn_are_highlighted():
    session = placeable(seed=11, moves=14)
    harness = Harness(session)
    view = session.state.view(0)
    lays_since = 0
    for seat, move in reversed(session.state.history):
        if seat == 0:
            break
        lays_since += "@" in str(move)
    page = harness.render()
    assert page.count(" tri-since") == lays_since
    assert page.count(" tri-last") == (1 if view["table"] else 0)


def test_a_spot_is_named_by_the_tiles_beside_it():
    laid = {(0, 0): "5-5-5", (0, 1): "1-5-5"}  # the opening (up) and a down tile on its right
    assert lay.where((0, -1), laid) == "left of 5-5-5"
    assert lay.where((1, 0), laid) == "below 5-5-5"  # a down cell under the up opening
    assert lay.where((0, 2), laid) == "right of 1-5-5"
    assert lay.where((-1, 1), laid) == "above 1-5-5"
    assert lay.where((1, 1), laid) == "touching 5-5-5 at a corner"
    assert lay.where((0, 0), {}) == "in the middle of the table"
    assert lay.where((0, 1), {(0, 0): "5-5-5", (0, 2): "2-2-2"}) == "left of 2-2-2 and right of 5-5-5"
    assert lay.where((0, 1), {(0, 0): "5-5-5", (0, 2): "2-2-2"}, brief=True) == "left of 2-2-2"
    assert lay.place_label((0, -1), laid) == "Place left of 5-5-5"
