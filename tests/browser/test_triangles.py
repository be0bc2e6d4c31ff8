"""Triangles in the page: marked spots against the engine, a seeded game played by clicks to the end
with a reload in the middle, the keyboard path, the shared-device cover, pan and zoom, and no sideways
scrolling at 360 px. Positions are planted as saves built here with the engine, then loaded through
the app's own "another tab saved" path (a storage event), which costs far less than a reload; going
back to an earlier position reloads (a shorter history never replaces a longer one).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))

from boneyard import saves
from boneyard.games import GAMES
from ui.session import Seat, Session

from .conftest import local_storage, reload_ready

KEY = "boneyard:save:triangles"
INFO = GAMES["triangles"]


def deal(seed: int, players: int = 2, device: bool = False) -> Session:
    if device:
        seats = [Seat("human", f"P{i + 1}") for i in range(players)]
    else:
        seats = [Seat("human", "Player")] + [
            Seat("computer", f"Computer {i} (Easy)", "easy") for i in range(1, players)
        ]
    return Session.start(
        INFO, seats, f"players-{players}", f"{players} players", {"players": players}, seed=seed
    )


def computers(session: Session) -> None:
    while not session.state.is_over() and session.computer_to_move():
        session.computer_move()


def policy(session: Session) -> str:
    """The clicks the tests make: draw, else pass, else the first fitting hand tile on its first spot."""
    legal = [str(m) for m in session.state.legal_moves()]
    if legal in (["draw"], ["pass"]):
        return legal[0]
    for tile in session.state.view(session.to_move())["hand"]:
        mine = sorted(m for m in session.state.legal_moves() if str(m).startswith(tile + "@"))
        if mine:
            first = mine[0]
            return str(min((m for m in mine if m.cell == first.cell), key=lambda m: m.rotation))
    raise AssertionError("no move")


def after(seed: int, moves: int) -> Session:
    """Deal, then play ``moves`` of the person's moves by the policy (computers answering)."""
    session = deal(seed)
    computers(session)
    for _ in range(moves):
        if session.state.is_over():
            break
        session.play(policy(session))
        computers(session)
    return session


def plant(page, session: Session) -> None:
    """Load ``session`` into the page as if another tab had saved it, and show its table."""
    page.wait_for_function("!document.querySelector('.tri-table[data-turn=\"wait\"]')")
    text = saves.dump_save("triangles", session.to_json())
    moves = len(session.state.history)
    shown = page.get_attribute(".tri-table", "data-moves") if page.query_selector(".tri-table") else None
    if shown is not None and int(shown) > moves:
        # Going back to an earlier position: the app never lets another tab's shorter history replace a
        # longer one of the same game, so this takes a reload.
        page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY, text])
        reload_ready(page)
        page.evaluate("location.hash = '#/play/triangles'")
    else:
        page.evaluate(
            "([key, text]) => { localStorage.setItem(key, text);"
            " window.dispatchEvent(new StorageEvent('storage', {key})); location.hash = '#/play/triangles'; }",
            [KEY, text],
        )
    page.wait_for_selector(f".tri-table[data-moves='{moves}']")
    page.evaluate("document.querySelectorAll('.toast').forEach(t => t.remove())")


def saved(page) -> Session | None:
    text = local_storage(page).get(KEY)
    if text is None:
        return None
    loaded = saves.load_save(text, expected_game="triangles")
    return Session.from_json("triangles", loaded.state)


def marked(page) -> list[tuple[int, int]]:
    values = page.eval_on_selector_all(".tri-spot", "els => els.map(e => e.dataset.value)")
    return [tuple(int(x) for x in v.split(",")) for v in values]


def cells_for(session: Session, tile: str) -> dict[tuple[int, int], list[int]]:
    found: dict = {}
    for move in session.state.legal_moves():
        if str(move).startswith(tile + "@"):
            found.setdefault(move.cell, []).append(move.rotation)
    return found


def wait_for_person(page) -> str:
    page.wait_for_selector(".tri-table:not([data-turn='wait'])")
    return page.get_attribute(".tri-table", "data-turn")


@pytest.fixture(scope="module")
def page(app_page):
    return app_page


def a_rich_position() -> tuple[Session, str]:
    """A position where the person holds a tile with several spots and some open cells refuse it."""
    for seed in range(1, 80):
        for moves in (3, 4, 5, 6):
            session = after(seed, moves)
            if session.state.is_over() or session.computer_to_move():
                continue
            for tile in session.state.view(0)["hand"]:
                if len(cells_for(session, tile)) >= 3:
                    return session, tile
    raise AssertionError("no rich position")


def test_every_marked_spot_takes_the_tile_and_no_unmarked_cell_does(page, watch):
    position, tile = a_rich_position()
    expected = cells_for(position, tile)
    moves = len(position.state.history)
    plant(page, position)
    page.click(f"#hand-{tile}")
    page.wait_for_selector(".tri-spot")
    assert sorted(marked(page)) == sorted(expected)
    assert page.get_attribute(f"#hand-{tile}", "aria-pressed") == "true"
    # Unmarked open cells: a tap explains and plays nothing.
    open_cells = page.eval_on_selector_all(".tri-open", "els => els.map(e => e.dataset.value)")
    assert open_cells
    for value in open_cells[:4]:
        page.click(f".tri-open[data-value='{value}']")
        page.wait_for_selector(".kit-refusal:has-text('does not fit')")
        assert "row" not in page.inner_text(".kit-refusal"), "the spot named by the tiles beside it"
        assert page.get_attribute(".tri-table", "data-moves") == str(moves)
        assert tuple(int(x) for x in value.split(",")) not in expected
    assert saved(page).state.history == position.state.history
    # Every marked spot (up to five) accepts the tile: reset the position before each.
    for cell in sorted(expected)[:5]:
        plant(page, position)
        # Planting the same position again may keep the table's selection (the app takes in another tab's
        # save only when it differs from its own): pick the tile only when it is not picked already.
        if page.get_attribute(f"#hand-{tile}", "aria-pressed") != "true":
            page.click(f"#hand-{tile}")
        page.click(f"#spot-{cell[0]}_{cell[1]}")
        if len(expected[cell]) > 1:
            page.click("#tri-confirm")
        page.wait_for_function(f"+document.querySelector('.tri-table').dataset.moves > {moves}")
        wait_for_person(page)
        after_move = saved(page)
        state = after_move.state if after_move is not None else None
        assert state is not None and state.history[moves] == (
            0,
            f"{tile}@{cell[0]},{cell[1]}r{expected[cell][0]}",
        )
    watch.assert_clean(page)


def short_seed() -> int:
    """A seed where the person opens with a plain tile (so the rotation step is clicked) and the game is short."""
    best = None
    for seed in range(1, 150):
        session = deal(seed)
        computers(session)
        view = session.state.view(0)
        if session.to_move() != 0 or view["table"] or len(set(view["opening"].split("-"))) == 1:
            continue
        turns = 0
        while not session.state.is_over():
            session.play(policy(session))
            computers(session)
            turns += 1
        if best is None or turns < best[1]:
            best = (seed, turns)
    assert best is not None
    return best[0]


def click_turn(page) -> None:
    """Make the person's move the way the policy does, by clicking."""
    if page.is_enabled("#tri-draw"):
        page.click("#tri-draw")
        return
    if page.is_enabled("#tri-pass"):
        page.click("#tri-pass")
        return
    if not page.locator(".tri-hand-tile.is-selected.is-playable").count():  # a drawn tile that fits is chosen
        page.click(".tri-hand-tile.is-playable >> nth=0")
    page.wait_for_selector(".tri-spot")
    page.click(".tri-spot >> nth=0")
    if page.locator("#tri-confirm").count():
        page.click("#tri-confirm")


def test_a_seeded_game_against_the_computer_to_the_end_by_clicking_with_a_reload(page, watch):
    seed = short_seed()
    game = deal(seed)
    reference = deal(seed)  # played alongside by the same policy: the page must end the same way
    computers(reference)
    plant(page, game)
    assert "you open with" in page.inner_text("#kit-turn")
    reloaded = False
    for turn in range(200):
        state = wait_for_person(page)
        if state == "over":
            break
        moves = int(page.get_attribute(".tri-table", "data-moves"))
        assert moves == len(reference.state.history)
        expected = policy(reference)
        click_turn(page)
        page.wait_for_function(f"+document.querySelector('.tri-table').dataset.moves > {moves}")
        reference.play(expected)
        computers(reference)
        if turn == 3 and not reloaded:
            wait_for_person(page)
            tiles = page.get_attribute(".tri-table", "data-tiles")
            hand = page.eval_on_selector_all(".tri-hand-tile", "els => els.map(e => e.dataset.value)")
            reload_ready(page)
            page.wait_for_selector(".tri-table")
            assert page.get_attribute(".tri-table", "data-tiles") == tiles
            assert page.eval_on_selector_all(".tri-hand-tile", "els => els.map(e => e.dataset.value)") == hand
            reloaded = True
    else:
        raise AssertionError("the game did not end")
    assert reloaded and reference.state.is_over()
    outcome = reference.state.outcome()
    summary = page.inner_text("#kit-results")
    rows = page.eval_on_selector_all(
        "#kit-results tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.innerText))"
    )
    assert [int(r[2]) for r in rows] == list(outcome.scores)
    assert ("You win!" in summary) == (outcome.winners == (0,))
    assert KEY not in local_storage(page)  # a finished game leaves no save
    stats = json.loads(local_storage(page)["boneyard:stats"])
    assert "triangles" in json.dumps(stats)
    page.click("#tri-new-game")
    page.wait_for_selector("#start-game")
    watch.assert_clean(page)


def test_the_keyboard_chooses_a_tile_and_places_it(page, watch):
    position, tile = a_rich_position()
    moves = len(position.state.history)
    plant(page, position)
    page.focus(f"#hand-{tile}")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.classList.contains('tri-spot')")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Place ") and "row" not in label, "a spot is named by the tiles beside it"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('tri-spot')")
    page.keyboard.press("Enter")
    page.wait_for_function(f"+document.querySelector('.tri-table').dataset.moves > {moves}")
    watch.assert_clean(page)


def test_pan_and_zoom_never_place_a_tile_and_fit_comes_back(page, watch):
    position, tile = a_rich_position()
    moves = len(position.state.history)
    plant(page, position)
    page.click(f"#hand-{tile}")
    page.wait_for_selector(".tri-spot")
    fit = page.get_attribute("#tri-svg", "viewBox")
    box = page.locator(".tri-spot").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 30, steps=6)
    page.mouse.up()
    panned = page.get_attribute("#tri-svg", "viewBox")
    assert panned != fit
    assert page.get_attribute(".tri-table", "data-moves") == str(moves)  # the drag started on a spot
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"document.querySelector('#tri-svg').getAttribute('viewBox') !== '{panned}'")
    zoomed = [float(v) for v in page.get_attribute("#tri-svg", "viewBox").split()]
    assert zoomed[2] < float(panned.split()[2])
    page.click("#tri-zoom-in")
    assert float(page.get_attribute("#tri-svg", "viewBox").split()[2]) < zoomed[2]
    page.click("#tri-zoom-fit")
    assert page.get_attribute("#tri-svg", "viewBox") == fit
    assert page.get_attribute(".tri-table", "data-moves") == str(moves)
    watch.assert_clean(page)


def test_a_shared_device_covers_the_tiles_between_turns(page, watch):
    session = deal(5, players=3, device=True)
    plant(page, session)
    seat = session.to_move()
    assert page.locator(".kit-gate").is_visible()
    assert f"Pass the device to P{seat + 1}" in page.inner_text(".kit-gate")
    assert page.locator(".tri-hand-tile").count() == 0
    page.click("#reveal")
    page.wait_for_selector(".tri-hand-tile")
    assert page.locator(".kit-gate").count() == 0
    hand = page.eval_on_selector_all(".tri-hand-tile", "els => els.map(e => e.dataset.value)")
    assert hand == session.state.view(seat)["hand"]
    watch.assert_clean(page)


def test_no_sideways_scrolling_on_a_phone(page, watch):
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        position, tile = a_rich_position()
        plant(page, position)
        page.click(f"#hand-{tile}")
        page.wait_for_selector(".tri-spot")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        late = after(7, 12)
        if not late.state.is_over():
            plant(page, late)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
        size = page.locator(".tri-hand-tile").first.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44  # big enough to tap
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)


# The lines a results row's name takes: distinct tops of its letters' boxes.
NAME_LINES = """rows => rows.map(row => {
  const tops = new Set(), walk = document.createTreeWalker(row, NodeFilter.SHOW_TEXT), range = document.createRange();
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      range.setStart(node, i); range.setEnd(node, i + 1);
      for (const box of range.getClientRects()) if (box.width) tops.add(Math.round(box.top));
    }
  }
  return [row.innerText, tops.size];
})"""


def finished(seats: list[Seat], seed: int) -> Session:
    """Return a four-player game played to its end (the first legal move for each person)."""
    game = Session.start(INFO, seats, "players-4", "4 players", {"players": 4}, seed=seed)
    while not game.state.is_over():
        if game.computer_to_move():
            game.computer_move()
        else:
            game.play(str(game.state.legal_moves()[0]))
    return game


def test_a_phones_results_keep_each_name_on_one_line(page, watch):
    """At 360 px a four-player result reads "Computer 1" whole, never "Computer" over "1"; a long name
    wraps between its words and the table still fits."""
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        plant(page, finished(deal(3, players=4).seats, 3))
        page.wait_for_selector("#kit-results")
        names = page.eval_on_selector_all("#kit-results tbody th", NAME_LINES)
        assert [name for name, _ in names] == ["You", "Computer 1", "Computer 2", "Computer 3"]
        assert all(lines == 1 for _, lines in names), names
        long = ["Ann", "Alexandria Montgomery", "Bartholomew Fitzgerald", "Wolfgang Amadeus"]
        plant(page, finished([Seat("human", name) for name in long], 3))
        page.wait_for_selector("#kit-results")
        assert page.eval_on_selector_all("#kit-results tbody th", NAME_LINES)[0] == ["Ann", 1]
        fits = "t => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 0.5"
        assert page.eval_on_selector("#kit-results table", fits), "the tiles left are cut off"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        page.set_viewport_size({"width": 1100, "height": 850})
    watch.assert_clean(page)
