"""A Dominoes game against the computer, played by clicks on a real App over the fake page.

The CPython half of tests/browser/test_dominoes.py and test_turns.py: your tile, the computer's reply,
one render per move, take back, hint, a refused tile's reason, play again, a reload that resumes.
"""

from __future__ import annotations

from tests.app.conftest import Open
from tests.app.fakes import FakePort
from ui.app import App

SEED = "?seed=7"


def new_dominoes(open_app: Open, **form: str) -> tuple[App, FakePort]:
    """Open the app and deal a Classic Dominoes game against one computer (seeded)."""
    app, port = open_app(search=SEED)
    port.follow("#/setup/dominoes")
    for field, value in form.items():
        port.change(f'[data-field="{field}"]', value)
    port.press_action("start-game", "dominoes")
    assert port.hash == "#/play/dominoes"
    return app, port


def legal(app: App) -> list[str]:
    """Return the moves the engine allows the person now (the tests ask the state, as screens do)."""
    session = app.sessions["dominoes"]
    return list(session.state.view(session.viewer())["legal_moves"])


def my_turn(app: App) -> bool:
    session = app.sessions["dominoes"]
    seat = session.to_move()
    return seat is not None and not session.seats[seat].is_computer


def play(port: FakePort, move: str) -> None:
    """Play a move by clicks: Draw, Pass, or a tile (and its end when it fits both)."""
    if move in ("draw", "pass"):
        port.press_action(move)
        return
    tile, _, end = move.partition(":")
    port.press_action("tile", tile)
    if port.actions("end"):
        port.press_action("end", end)


def test_a_tile_click_is_one_render_and_the_computer_answers(open_app):
    app, port = new_dominoes(open_app)
    assert my_turn(app) and "Your turn" in port.text("#kit-message")
    session = app.sessions["dominoes"]
    moves, renders = session.move_count(), app.renders
    tile = legal(app)[0]
    port.fire(port._event("click", port.get(f'[data-action="tile"][data-value="{tile.split(":")[0]}"]')))
    assert app.renders == renders, "the render waits for the end of the tick"
    port.tick()
    assert app.renders == renders + 1 and session.move_count() == moves + 1  # one render for the move
    assert not my_turn(app) and port.shows == app.renders
    port.settle()  # the computer's pause and its move
    assert my_turn(app)
    beats = session.move_count() - moves - 1
    assert beats >= 1 and app.renders == renders + 1 + beats  # and one per computer beat
    assert "Your turn" in port.text("#kit-message")
    assert port.toasts == [] and port.logged == []


def test_renders_asked_within_one_tick_are_one(open_app):
    app, port = open_app()
    renders = app.renders
    for _ in range(5):
        app.request_render()
    port.tick()
    assert app.renders == renders + 1
    app.request_render()
    app.render()  # a direct render meanwhile draws it: the merged one is not drawn again
    port.tick()
    assert app.renders == renders + 2


def test_a_refused_tile_says_why_in_the_message_line(open_app):
    app, port = new_dominoes(open_app)
    fits = {m.split(":")[0] for m in legal(app)}
    wrong = [t.attrs["data-value"] for t in port.actions("tile") if t.attrs["data-value"] not in fits]
    assert wrong, "the seed deals a hand with a tile that does not fit"
    moves = app.sessions["dominoes"].move_count()
    port.press_action("tile", wrong[0])
    assert app.sessions["dominoes"].move_count() == moves
    line = port.text("#kit-message")
    assert f"{wrong[0]} does not fit" in line or f"{wrong[0]} cannot open" in line
    assert port.toasts == []


def test_take_back_and_its_key_return_to_your_turn(open_app):
    app, port = new_dominoes(open_app)
    session = app.sessions["dominoes"]
    assert port.disabled("#take-back")
    start = session.move_count()
    play(port, legal(app)[0])
    assert my_turn(app) and session.move_count() >= start + 2
    port.press("#take-back")
    assert session.move_count() == start and my_turn(app)
    assert "Taken back: your turn again." in port.announced
    play(port, legal(app)[0])
    moved = session.move_count()
    assert port.key("u") is True  # the key's default is prevented: it was the table's
    assert session.move_count() < moved and my_turn(app)
    assert port.key("u", ctrl=True) is False  # the browser's own shortcuts are left alone


def test_the_hint_key_shows_the_experts_move_and_close_hides_it(open_app):
    app, port = new_dominoes(open_app)
    assert port.exists("#kit-hint")
    assert port.key("h") is True  # H clicks the Hint button, as the button does
    line = port.text("#kit-message")
    assert "Hint:" in line and "Your chances with it" in line
    hinted = line.split("Hint:")[1].split()[0]
    assert any(m.startswith(hinted) for m in legal(app))
    port.press("#kit-hint-close")
    assert "Hint:" not in port.text("#kit-message")
    assert port.toasts == [] and port.logged == []


def play_to_the_end(app: App, port: FakePort, limit: int = 200) -> None:
    """Play the first legal move at each of the person's turns until the game ends."""
    for _ in range(limit):
        if app.sessions["dominoes"].state.is_over():
            return
        assert my_turn(app), port.text()
        play(port, legal(app)[0])
    raise AssertionError("the game did not end")


def test_a_game_to_its_end_is_counted_then_play_again_deals_the_same_seats(open_app):
    app, port = new_dominoes(open_app)
    first = app.sessions["dominoes"]
    play_to_the_end(app, port)
    assert first.state.is_over() and first.recorded
    assert "boneyard:save:dominoes" not in port.storage.items  # a finished game's save is forgotten
    stats = app.storage.load_stats()
    assert len(stats.recent) == 1 and stats.recent[0].game == "dominoes" and app.stats == stats
    assert port.exists('[data-action="play-again"]')
    port.press_action("play-again", "dominoes")
    again = app.sessions["dominoes"]
    assert again is not first and again.seats == first.seats and again.mode == first.mode
    assert not again.state.is_over() and "boneyard:save:dominoes" in port.storage.items


def test_a_reload_resumes_the_game_where_it_was(open_app):
    app, port = new_dominoes(open_app)
    play(port, legal(app)[0])
    before = app.sessions["dominoes"]
    again, page = open_app(port.storage, "#/play/dominoes")
    resumed = again.sessions["dominoes"]
    assert resumed.uid == before.uid and resumed.moves == before.moves
    assert page.text("#kit-message") == port.text("#kit-message")
    assert [t.attrs["data-value"] for t in page.actions("tile")] == [
        t.attrs["data-value"] for t in port.actions("tile")
    ]
    page.go("#/")
    assert page.find('.game-card[data-game="dominoes"] a[href="#/play/dominoes"]') is not None  # Resume


def test_review_steps_through_the_finished_game_by_buttons_and_keys(open_app):
    app, port = new_dominoes(open_app)
    play_to_the_end(app, port)
    moves = app.sessions["dominoes"].move_count()
    port.press("#review")
    assert port.text("#review-where").startswith(f"Move {moves} of {moves}")  # it opens at the end
    assert port.disabled("#review-forward") and port.disabled("#review-last")
    port.press("#review-first")
    assert port.text("#review-where").startswith(f"Move 0 of {moves}")
    assert port.disabled("#review-first") and port.disabled("#review-back")
    port.press("#review-forward")
    assert port.text("#review-where").startswith(f"Move 1 of {moves}")
    assert port.key("ArrowLeft") is True  # the review's arrows step through the game
    assert port.text("#review-where").startswith(f"Move 0 of {moves}")
    port.press("#review-close")
    assert port.find("#review-where") is None and app.sessions["dominoes"].move_count() == moves
    assert port.toasts == [] and port.logged == []


def test_an_error_in_a_handler_is_reported_and_the_page_goes_on(open_app, monkeypatch):
    app, port = new_dominoes(open_app)
    screen = app.screen("dominoes")

    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(screen, "on_action", broken)
    moves = app.sessions["dominoes"].move_count()
    assert port.press(".dom-hand-tile") is False
    assert port.toasts[-1] == ("error", "Something went wrong: a bug. Your game is safe; try again.")
    assert app.sessions["dominoes"].move_count() == moves
    assert port.logged and "RuntimeError: a bug" in port.logged[-1][1]
    monkeypatch.undo()
    play(port, legal(app)[0])  # play goes on
    assert my_turn(app) and app.sessions["dominoes"].move_count() >= 2


def test_the_rules_open_over_the_table_and_closing_them_refocuses_the_question_mark(open_app):
    app, port = new_dominoes(open_app)
    renders = app.renders
    assert port.key("?") is True
    assert port.find("#rules-dialog") is not None and app.rules_for == "dominoes"
    assert app.renders == renders  # the table underneath is not redrawn
    assert port.key("u") is False  # the dialog's keys are its own
    port.press('[data-action="close-rules"]')
    assert port.find("#rules-dialog") is None and app.rules_for == ""
    assert port.focused is port.find('[data-action="rules"][data-value="dominoes"]')
    port.press_action("rules", "dominoes")  # the table's "?" button
    assert port.find("#rules-dialog") is not None
    port.go("#/")  # leaving the table closes them without a refocus
    assert port.find("#rules-dialog") is None and app.rules_for == ""
