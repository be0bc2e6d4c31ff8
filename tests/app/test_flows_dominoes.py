"""Dominoes flows on a real App over the fake page, moved here from tests/browser/test_dominoes.py: a
round to its result and the stats it leaves, a match with hand summaries, three players resumed after a
reload, Same-device's gate at every turn, a block game's buttons, take back and review to the end, Play
again after a reload. (Fit, the refusal's fade, keyboard focus and Expert stay in Chromium.)"""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.app.conftest import Open
from tests.app.fakes import FakePort
from tests.app.test_play import play
from ui.app import App


def deal(open_app: Open, seed: int, opponents: str = "computer", **form: str) -> tuple[App, FakePort]:
    """Open the app with a seeded deal and start Dominoes from its setup form."""
    app, port = open_app(search=f"?seed={seed}")
    port.follow("#/setup/dominoes")
    port.change(f'[data-field="opponents"][value="{opponents}"]', opponents, checked=True)
    for field, value in form.items():
        port.change(f'[data-field="{field}"]', value)
    port.press_action("start-game", "dominoes")
    assert port.hash == "#/play/dominoes" and port.exists(".dom-table")
    return app, port


def legal(app: App) -> list[str]:
    """Return the moves the engine allows the seat whose tiles are shown."""
    session = app.sessions["dominoes"]
    return list(session.state.view(session.viewer())["legal_moves"])


def hand(port: FakePort) -> list[str]:
    return [t.attrs["data-value"] for t in port.find_all(".dom-hand-tile")]


def check_buttons(app: App, port: FakePort) -> None:
    """Draw and Pass are enabled exactly when the rules allow them."""
    moves = legal(app)
    if port.exists("#draw"):
        assert port.disabled("#draw") == ("draw" not in moves)
    assert port.disabled("#pass") == ("pass" not in moves)


def play_through(app: App, port: FakePort, limit: int = 600) -> int:
    """Click through the game to its result (Next hand at a summary, Show at a gate); return the hands."""
    hands = 0
    for _ in range(limit):
        if port.exists("#over-title"):
            return hands
        if port.exists("#next-hand"):
            port.press("#next-hand")
            hands += 1
        elif port.exists("#reveal"):
            port.press("#reveal")
        else:
            check_buttons(app, port)
            play(port, legal(app)[0])
    raise AssertionError("the game did not end")


def test_a_seeded_round_to_its_result_is_counted_in_the_stats(open_app: Open) -> None:
    app, port = deal(open_app, 11, level_1="hard")
    assert "Classic, 2 players" in port.text("#screen-title")
    assert len(port.find_all(".kit-seat")) == 1 and len(hand(port)) in (6, 7)
    play_through(app, port)
    title = port.text("#over-title")
    assert title in ("You win!", "Computer 1 (Hard) wins.") or title.startswith("A draw")
    summary = port.text("#kit-results")
    assert "Pips left" in summary and "Counted in your stats." in summary
    assert "boneyard:save:dominoes" not in port.storage.items
    port.follow("#/")
    assert port.find('.game-card[data-game="dominoes"] a[href="#/play/dominoes"]') is None  # no Resume
    port.go("#/stats")
    assert "Classic, 2 players" in port.text(".stats-game")
    assert port.text("#overall-played dd") == "1"
    played = port.text("#overall-time dd")
    assert played == "under a minute" or played.endswith("min"), played
    recent = port.find_all('.recent-item[data-game="dominoes"]')
    assert len(recent) == 1 and "Classic, 2 players" in recent[0].text
    assert port.text('.recent-item[data-game="dominoes"] .result') in ("Won", "Lost", "Drawn")
    assert port.logged == [] and all(kind != "error" for kind, _ in port.toasts)


def test_a_match_to_50_has_hand_summaries_and_ends_at_50(open_app: Open) -> None:
    app, port = deal(open_app, 5, mode="match-50")
    hands = play_through(app, port)
    assert hands >= 1, "a match to 50 takes more than one hand"
    scores = app.sessions["dominoes"].state.view(0)["scores"]
    assert len(scores) == 2 and max(scores) >= 50
    assert port.exists("#kit-results .dom-summary")


def test_three_players_then_a_reload_in_the_middle_of_a_hand_resumes_exactly(open_app: Open) -> None:
    app, port = deal(open_app, 3, players="3")
    assert len(port.find_all(".kit-seat")) == 2
    for _ in range(3):
        if port.exists("#kit-results"):
            break
        play(port, legal(app)[0])
    line, stage = port.attr(".dom-line", "aria-label"), port.text(".dom-stage")
    _again, page = open_app(port.storage, "#/play/dominoes")
    assert page.attr(".dom-line", "aria-label") == line
    assert hand(page) == hand(port) and page.text(".dom-stage") == stage


def test_same_device_hides_each_hand_until_its_player_asks(open_app: Open) -> None:
    app, port = deal(open_app, 9, opponents="device")
    names = []
    for _ in range(4):
        names.append(port.text("#privacy-title"))
        assert port.find_all(".dom-hand-tile") == [], "a hand showed behind the privacy screen"
        assert "tiles are hidden" in port.text(".kit-tray")
        port.press("#reveal")
        assert port.find_all(".dom-hand-tile")
        play(port, legal(app)[0])
        if port.exists("#over-title"):
            break
    assert {"Player 1's turn", "Player 2's turn"} <= set(names)


def test_a_block_game_has_no_draw_button_and_passes_when_stuck(open_app: Open) -> None:
    app, port = deal(open_app, 21, mode="block")
    assert not port.exists("#draw") and "block game" in port.text(".dom-stock").lower()
    passed = False
    for _ in range(40):
        if port.exists("#kit-results"):
            break
        check_buttons(app, port)
        passed |= legal(app) == ["pass"]
        play(port, legal(app)[0])
    assert passed, "the seed never leaves the person stuck"


def test_a_game_with_a_move_taken_back_is_not_counted(open_app: Open) -> None:
    app, port = deal(open_app, 31)
    assert port.disabled("#take-back"), "nothing to take back before your first move"
    before, turn = hand(port), port.attr(".dom-table", "data-turn")
    play(port, legal(app)[0])
    assert port.key("u") is True  # the button's shortcut (aria-keyshortcuts="U")
    assert hand(port) == before and port.attr(".dom-table", "data-turn") == turn
    play_through(app, port)
    assert "Not counted in your stats: you took back 1 move." in port.text("#kit-results")
    assert app.storage.load_stats().recent == []


Check = Callable[[], object]


def walk_review(port: FakePort, at_end: Check, at_deal: Check, after_one: Check) -> int:
    """Open the review of a finished game (at its end), step to the deal, one move on, the end, and close;
    the checks look at the table at the end, at the deal and after one move. Return the moves."""
    port.press("#review")
    total = int(re.search(r"of (\d+)", port.text("#review-where")).group(1))  # type: ignore[union-attr]
    assert port.text("#review-where").startswith(f"Move {total} of {total}")
    at_end()
    port.press("#review-first")
    assert port.text("#review-where").startswith("Move 0 ")
    at_deal()
    port.press("#review-forward")
    assert port.text("#review-where").startswith("Move 1 ")
    after_one()
    port.press("#review-last")
    assert port.text("#review-where").startswith(f"Move {total} ")
    port.press("#review-close")
    assert port.exists("#kit-results") and not port.exists("#review-where")
    return total


def test_review_shows_every_hand_face_up_and_returns_to_the_result(open_app: Open) -> None:
    app, port = deal(open_app, 41)
    play_through(app, port)

    def at_deal() -> None:
        assert len(port.find_all(".kit-seat .dom-face-up svg")) >= 5, "the others' hands are face up"

    def after_one() -> None:
        assert len(port.find_all(".dom-line")) == 1

    walk_review(port, lambda: None, at_deal, after_one)
    assert port.exists("#over-title")


def test_play_again_after_a_reload_deals_the_finished_games_own_table(open_app: Open) -> None:
    """Play again re-deals from the finished game's seats, not from the (empty) setup form of a new page."""
    _app, port = deal(open_app, 12, players="3")
    again, page = open_app(port.storage, "#/play/dominoes", search="?seed=12")
    assert len(page.find_all(".kit-seat")) == 2
    play_through(again, page)
    page.press("#play-again")
    assert not page.exists("#over-title") and page.exists(".dom-table")
    assert len(page.find_all(".kit-seat")) == 2, "two opponents, as the finished game had"
    assert len(again.sessions["dominoes"].seats) == 3


def test_a_finished_hand_of_a_match_stays_on_the_table_until_next_hand(open_app: Open) -> None:
    """Moved from tests/browser/test_table_kit.py: the hand's line, the scoreboard and the hands face up
    stay until Next hand; folding the summary keeps them; nobody plays on meanwhile."""
    app, port = deal(open_app, 5, mode="match-50")
    assert port.exists("#kit-score"), "the scoreboard is always there in a match"
    for _ in range(200):
        if port.exists("#next-hand") or port.exists("#over-title"):
            break
        play(port, legal(app)[0])
    assert port.exists("#next-hand"), "the seed's match takes more than one hand"
    line, turn = port.attr(".dom-line", "aria-label"), port.attr(".dom-table", "data-turn")
    assert line and "," in line, "the finished hand's line is on the table"
    moves = app.sessions["dominoes"].move_count()
    port.settle(1.5)
    assert port.attr(".dom-line", "aria-label") == line and port.attr(".dom-table", "data-turn") == turn
    assert app.sessions["dominoes"].move_count() == moves, "nobody played on meanwhile"
    port.press("#kit-fold")
    assert port.exists("#kit-results.is-folded")
    port.press("#kit-fold")
    port.press("#view-board")
    assert port.exists(".kit-seat .dom-face-up")
    assert "Hand" in port.text(".kit-score-pop")
    port.press("#kit-fold")
    port.press("#next-hand")
    assert not port.exists("#next-hand")
    play_through(app, port)


def test_the_expert_reviews_a_finished_game_and_a_costly_move_opens_the_board_there(open_app: Open) -> None:
    """Moved from tests/browser/test_hints.py: Analyse draws the chance chart; a costly move opens the
    review at that move with the Expert's word; closing the review keeps the analysis with the results."""
    app, port = deal(open_app, 21)
    play_through(app, port)
    port.press("#kit-analyse")
    assert port.attr("#kit-analysis", "data-ms")
    label = port.attr("#kit-chart", "aria-label") or ""
    assert label.startswith("Your estimated chance after each of your moves: move ")
    costly = port.find_all(".kit-costly")
    if costly:
        step = costly[0].attrs["data-value"].removeprefix("at:")
        port.press(f'.kit-costly[data-value="{costly[0].attrs["data-value"]}"]')
        assert port.text("#review-where").startswith(f"Move {step} of ")
        assert "Expert: " in port.text("#kit-message")
    else:
        port.press("#review")
    port.press("#review-back")
    port.press("#review-close")
    assert port.exists("#kit-chart"), "the analysis stays with the results"
    assert port.logged == [] and all(kind != "error" for kind, _ in port.toasts)
