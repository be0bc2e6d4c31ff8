"""Triangles flows on a real App over the fake page, moved here from tests/browser/test_triangles_table.py
and test_triangles.py: Take back against the computer (the game then not counted), the review with the
board as it was, every marked spot against the engine, a seeded game by clicks with a reload that ends as
the engine's, and the shared device's cover. (Fit, pan and zoom, keyboard focus, the refusal's fade and
the audit stay in Chromium.)"""

from __future__ import annotations

from boneyard import saves
from boneyard.games import GAMES
from tests.app.conftest import Open
from tests.app.fakes import FakePort, FakeStorage
from tests.app.test_flows_dominoes import walk_review
from ui.app import App
from ui.session import Seat, Session


def deal(open_app: Open, seed: int) -> tuple[App, FakePort]:
    """Open the app with a seeded deal and start Triangles against the computer."""
    app, port = open_app(search=f"?seed={seed}")
    port.follow("#/setup/triangles")
    port.press_action("start-game", "triangles")
    assert port.exists(".tri-table")
    return app, port


def moves(port: FakePort) -> int:
    return int(port.attr(".tri-table", "data-moves") or 0)


def take_turn(port: FakePort) -> None:
    """Draw, else pass, else lay the first playable tile on the first marked spot (confirming its turn)."""
    before = moves(port)
    if not port.disabled("#tri-draw"):
        port.press("#tri-draw")
    elif not port.disabled("#tri-pass"):
        port.press("#tri-pass")
    else:
        if not port.exists(".tri-hand-tile.is-selected.is-playable"):
            port.press(".tri-hand-tile.is-playable")
        port.press(".tri-spot")
        if port.exists("#tri-confirm"):
            port.press("#tri-confirm")
    assert moves(port) > before, "no move made: " + port.text("#kit-message")


def play_through(port: FakePort, limit: int = 200) -> None:
    for _ in range(limit):
        if port.exists("#kit-results"):
            return
        take_turn(port)
    raise AssertionError("the game did not end")


def hand(port: FakePort) -> list[str]:
    return [t.attrs["data-value"] for t in port.find_all(".tri-hand-tile")]


def test_take_back_returns_to_your_previous_turn_and_the_game_is_not_counted(open_app: Open) -> None:
    app, port = deal(open_app, 31)
    assert port.disabled("#take-back"), "nothing to take back before your first move"
    take_turn(port)
    before, laid, tiles = hand(port), moves(port), port.attr(".tri-table", "data-tiles")
    take_turn(port)
    assert not port.exists("#kit-results")
    port.press("#take-back")
    assert port.exists(".tri-table.is-my-turn") and moves(port) == laid
    assert hand(port) == before and port.attr(".tri-table", "data-tiles") == tiles
    play_through(port)
    assert "Not counted in your stats: you took back 1 move." in port.text("#kit-results")
    assert app.storage.load_stats().recent == []


def test_review_steps_through_the_game_with_the_board_as_it_was(open_app: Open) -> None:
    _app, port = deal(open_app, 41)
    play_through(port)
    laid = len(port.find_all("#tri-svg .tri-tile"))

    def at_end() -> None:
        assert len(port.find_all("#tri-svg .tri-tile")) == laid

    def at_deal() -> None:
        assert port.find_all("#tri-svg .tri-tile") == [], "the deal: nothing on the table"
        assert len(port.find_all(".kit-seat .tri-face-up svg")) >= 7, "the others' hands are face up"
        tiles = port.find_all(".tri-hand-tile")
        assert len(tiles) >= 7 and all("disabled" in t.attrs for t in tiles)

    def after_one() -> None:
        assert len(port.find_all("#tri-svg .tri-tile")) == 1

    walk_review(port, at_end, at_deal, after_one)


# Positions built with the engine and planted as saves (moved here from tests/browser/test_triangles.py,
# which takes them from here for its keyboard, pan-and-zoom and phone tests).
KEY = "boneyard:save:triangles"
INFO = GAMES["triangles"]


def deal_session(seed: int, players: int = 2, device: bool = False) -> Session:
    """Return a new game as the setup screen would have started it (against Easy computers, or on one device)."""
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
    """Return the move the tests click: draw, else pass, else the first fitting hand tile on its first spot."""
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
    session = deal_session(seed)
    computers(session)
    for _ in range(moves):
        if session.state.is_over():
            break
        session.play(policy(session))
        computers(session)
    return session


def cells_for(session: Session, tile: str) -> dict[tuple[int, int], list[int]]:
    found: dict[tuple[int, int], list[int]] = {}
    for move in session.state.legal_moves():
        if str(move).startswith(tile + "@"):
            found.setdefault(move.cell, []).append(move.rotation)
    return found


def a_rich_position() -> tuple[Session, str]:
    """Return a position where the person holds a tile with several spots and some open cells refuse it."""
    for seed in range(1, 80):
        for moves in (3, 4, 5, 6):
            session = after(seed, moves)
            if session.state.is_over() or session.computer_to_move():
                continue
            for tile in session.state.view(0)["hand"]:
                if len(cells_for(session, tile)) >= 3:
                    return session, tile
    raise AssertionError("no rich position")


def short_seed() -> int:
    """Return a seed where the person opens with a plain tile (the rotation step is clicked) and the game is short."""
    best = None
    for seed in range(1, 150):
        session = deal_session(seed)
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


def plant(open_app: Open, session: Session, storage: FakeStorage | None = None) -> tuple[App, FakePort]:
    """Open the app on the table of ``session``, its save put in."""
    storage = storage if storage is not None else FakeStorage()
    storage.items[KEY] = saves.dump_save("triangles", session.to_json())
    return open_app(storage, "#/play/triangles")


def saved(port: FakePort) -> Session | None:
    text = port.storage.items.get(KEY)
    if text is None:
        return None
    return Session.from_json("triangles", saves.load_save(text, expected_game="triangles").state)


def spot_cells(port: FakePort) -> list[tuple[int, int]]:
    values = [e.attrs["data-value"].split(",") for e in port.find_all(".tri-spot")]
    return sorted((int(a), int(b)) for a, b in values)


def test_every_marked_spot_takes_the_tile_and_no_unmarked_cell_does(open_app: Open) -> None:
    position, tile = a_rich_position()
    expected = cells_for(position, tile)
    moves = len(position.state.history)
    _app, port = plant(open_app, position)
    port.press(f"#hand-{tile}")
    assert spot_cells(port) == sorted(expected)
    assert port.attr(f"#hand-{tile}", "aria-pressed") == "true"
    open_cells = port.find_all(".tri-open")
    assert open_cells
    for cell in open_cells[:4]:  # unmarked open cells: a tap explains and plays nothing
        value = cell.attrs["data-value"]  # "q,r": a comma, which a selector would split on
        port._click(cell)
        port.settle()
        refusal = port.text(".kit-refusal")
        assert "does not fit" in refusal and "row" not in refusal, "the spot named by the tiles beside it"
        assert port.attr(".tri-table", "data-moves") == str(moves)
        assert tuple(int(x) for x in value.split(",")) not in expected
    assert saved(port).state.history == position.state.history  # type: ignore[union-attr]
    for cell in sorted(expected)[:5]:  # every marked spot (up to five) takes the tile
        _app, page = plant(open_app, position)
        page.press(f"#hand-{tile}")
        page.press(f"#spot-{cell[0]}_{cell[1]}")
        if len(expected[cell]) > 1:
            page.press("#tri-confirm")
        state = saved(page)
        assert state is not None and state.state.history[moves] == (
            0,
            f"{tile}@{cell[0]},{cell[1]}r{expected[cell][0]}",
        )


def test_a_seeded_game_by_clicking_with_a_reload_ends_as_the_engine_does(open_app: Open) -> None:
    seed = short_seed()
    reference = deal_session(seed)  # played alongside by the same policy: the page must end the same way
    computers(reference)
    _app, port = plant(open_app, deal_session(seed))
    assert "you open with" in port.text("#kit-turn")
    reloaded = False
    for turn in range(200):
        if port.exists("#kit-results"):
            break
        assert moves(port) == len(reference.state.history)
        expected = policy(reference)
        take_turn(port)
        reference.play(expected)
        computers(reference)
        if turn == 3 and not reloaded:
            tiles, before = port.attr(".tri-table", "data-tiles"), hand(port)
            _app, port = open_app(port.storage, "#/play/triangles")
            assert port.attr(".tri-table", "data-tiles") == tiles and hand(port) == before
            reloaded = True
    else:
        raise AssertionError("the game did not end")
    assert reloaded and reference.state.is_over()
    outcome = reference.state.outcome()
    rows = [
        [c.text.strip() for c in r.children if c.tag in ("td", "th")]
        for r in port.find_all("#kit-results tbody tr")
    ]
    assert [int(r[2]) for r in rows] == list(outcome.scores)
    assert ("You win!" in port.text("#kit-results")) == (outcome.winners == (0,))
    assert KEY not in port.storage.items  # a finished game leaves no save
    assert "triangles" in port.storage.items["boneyard:stats"]
    port.press("#tri-new-game")
    assert port.exists("#start-game")


def test_a_shared_device_covers_the_tiles_between_turns(open_app: Open) -> None:
    session = deal_session(5, players=3, device=True)
    _app, port = plant(open_app, session)
    seat = session.to_move()
    assert seat is not None and port.exists(".kit-gate")
    assert f"Pass the device to P{seat + 1}" in port.text(".kit-gate")
    assert port.find_all(".tri-hand-tile") == []
    port.press("#reveal")
    assert not port.exists(".kit-gate") and hand(port) == session.state.view(seat)["hand"]
