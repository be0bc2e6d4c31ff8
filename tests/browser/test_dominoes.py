"""Dominoes in the page: whole games by clicking, a match to 50, same-device privacy, resuming after a
reload, the Draw and Pass buttons, and a full storage that does not stop play."""

from __future__ import annotations

import re

import pytest

from . import fit
from .conftest import READY, READY_TIMEOUT_MS, local_storage, reload_ready
from .tables import choose_mode, module_page, open_setup, play_fitting, play_through, viewport

MAX_TURNS = 400


def start(page, base_url, mode, *, seed=7, opponents="computer", players=None, levels=None):
    """Open the setup screen with a seeded deal, choose the mode, and start."""
    open_setup(page, base_url, "dominoes", seed=seed, opponents=opponents, ready="#setup-mode")
    choose_mode(page, mode, players)
    for seat, level in (levels or {}).items():
        page.select_option(f"#setup-level-{seat}", level)
    page.click("#start-game")
    page.wait_for_selector(".dom-table")


FINAL_SCORES = """() => {
  const total = document.querySelector('#kit-results .dom-summary .kit-score-total');
  if (total) return [...total.querySelectorAll('td')].map((td) => +td.innerText);
  return [...document.querySelectorAll('#kit-results .dom-summary tbody tr')]
    .map((tr) => +tr.querySelectorAll('td')[2].innerText);
}"""


def final_scores(page) -> list[int]:
    """Return a finished match's scores from its results' table (the Total column, or the total row)."""
    return page.evaluate(FINAL_SCORES)


def wait_for_human_or_end(page):
    """Wait until it is a person's turn, a dialog is up, or the game is over."""
    page.wait_for_function(
        "document.querySelector('#kit-results, .overlay, .dom-table.is-my-turn') !== null",
        timeout=60_000,
    )


def your_turns(page, count):
    """Yield at each of a person's next ``count`` turns; stop once a dialog or the result is up."""
    for _ in range(count):
        wait_for_human_or_end(page)
        if page.locator("#kit-results, .overlay").count():
            return
        yield


def check_buttons(page):
    """Draw and Pass are enabled exactly when the rules allow them (suggestions mark playable tiles)."""
    playable = page.locator(".dom-hand-tile.is-playable").count()
    stock_text = page.locator("#dom-stock").inner_text().split()[0]
    draw = page.locator("#draw")
    passing = page.locator("#pass")
    if playable:
        assert draw.count() == 0 or draw.is_disabled()
        assert passing.is_disabled()
    else:
        stock = int(stock_text) if stock_text.isdigit() else 0
        if draw.count():
            assert draw.is_enabled() == (stock > 0)
        assert passing.is_enabled() == (draw.count() == 0 or stock == 0)


def take_turn(page):
    """Play the first playable tile (choosing the left end when asked), or draw, or pass."""
    check_buttons(page)
    tiles = page.locator(".dom-hand-tile.is-playable")
    if tiles.count():
        before = page.locator(".dom-hand-tile").count()
        tiles.first.click()
        if page.locator("button.dom-end.is-target").count():
            page.click("#end-L")
        return before
    if page.locator("#draw:not([disabled])").count():
        page.click("#draw")
    else:
        page.click("#pass")
    return None


def play_to_the_end(page, *, hands=1):
    """Click through a whole game; return the number of hand summaries dismissed."""
    dismissed, _turns = play_through(
        page, wait=wait_for_human_or_end, take_turn=take_turn, over="#over-title", max_turns=MAX_TURNS
    )
    return dismissed


page = module_page()


def test_a_seeded_single_round_against_the_computer_by_clicking(page, base_url, watch):
    start(page, base_url, "classic", seed=11, levels={1: "hard"})
    assert "Classic, 2 players" in page.locator("#screen-title").inner_text()
    assert page.locator(".kit-seat").count() == 1
    assert page.locator(".dom-hand-tile").count() in (7, 6)  # the opener may already have laid
    play_to_the_end(page)
    title = page.locator("#over-title").inner_text()
    assert title in ("You win!", "Computer 1 (Hard) wins.") or title.startswith("A draw")
    summary = page.locator("#kit-results").inner_text()
    assert "Pips left" in summary and "Counted in your stats." in summary
    assert "boneyard:save:dominoes" not in local_storage(page)
    page.click("a:has-text('Home')")
    page.wait_for_selector(".game-card")
    assert page.locator(".game-card[data-game=dominoes] a", has_text="Resume").count() == 0
    page.evaluate("location.hash = '#/stats'")
    page.wait_for_selector(".stats-game")
    stats = page.locator(".stats-game").first.inner_text()
    assert "Classic, 2 players" in stats
    # The overview across games: the game counted, its time played (the gaps between moves), listed last.
    assert page.locator("#overall-played dd").inner_text() == "1"
    played = page.locator("#overall-time dd").inner_text()
    assert played == "under a minute" or played.endswith("min"), played
    recent = page.locator(".recent-item[data-game=dominoes]")
    assert recent.count() == 1 and "Classic, 2 players" in recent.inner_text()
    assert recent.locator(".result").inner_text() in ("Won", "Lost", "Drawn")
    watch.assert_clean(page)


def test_a_match_to_50_with_hand_summaries(page, base_url, watch):
    start(page, base_url, "match-2-50", seed=5)
    dismissed = play_to_the_end(page)
    scores = final_scores(page)
    assert len(scores) == 2 and max(scores) >= 50
    assert dismissed >= 1, "a match to 50 takes more than one hand"
    watch.assert_clean(page)


def test_three_players_then_a_reload_in_the_middle_of_a_hand_resumes_exactly(page, base_url, watch):
    start(page, base_url, "classic", seed=3, players=3)
    assert page.locator(".kit-seat").count() == 2
    for _ in your_turns(page, 3):
        take_turn(page)
    wait_for_human_or_end(page)
    line = page.locator(".dom-line").get_attribute("aria-label")
    hand = page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)")
    ends = page.locator(".dom-stage").inner_text()
    reload_ready(page)
    page.wait_for_selector(".dom-table")
    wait_for_human_or_end(page)
    assert page.locator(".dom-line").get_attribute("aria-label") == line
    assert page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)") == hand
    assert page.locator(".dom-stage").inner_text() == ends
    watch.assert_clean(page)


def test_same_device_hides_each_hand_until_its_player_asks(page, base_url, watch):
    start(page, base_url, "classic", seed=9, opponents="device")
    names = []
    for _ in range(4):
        page.wait_for_selector("#reveal")
        who = page.locator("#privacy-title").inner_text()
        names.append(who)
        assert page.locator(".dom-hand-tile").count() == 0, "a hand showed behind the privacy screen"
        assert "tiles are hidden" in page.locator(".kit-tray").inner_text()
        page.click("#reveal")
        page.wait_for_selector(".dom-hand-tile")
        take_turn(page)
        if page.locator("#over-title").count():
            break
    assert {"Player 1's turn", "Player 2's turn"} <= set(names)
    watch.assert_clean(page)


def test_block_game_has_no_draw_button_and_passes_when_stuck(page, base_url, watch):
    start(page, base_url, "block-2", seed=21)
    assert page.locator("#draw").count() == 0
    assert "block game" in page.locator(".dom-stock").inner_text().lower()
    for _ in your_turns(page, 40):
        check_buttons(page)
        take_turn(page)
    watch.assert_clean(page)


def test_keyboard_play_keeps_the_focus_at_the_hand(page, base_url, watch):
    """A tile played with the keyboard leaves the focus on the hand, not at the top of the page."""
    start(page, base_url, "classic", seed=12)
    for _ in your_turns(page, 3):
        playable = page.locator(".dom-hand-tile.is-playable")
        if not playable.count():
            take_turn(page)
            continue
        playable.first.focus()
        page.keyboard.press("Enter")
        if page.locator("button.dom-end.is-target").count():
            page.keyboard.press("l")
        page.wait_for_timeout(200)
        inside = page.evaluate("document.activeElement.closest('.kit-tray') !== null")
        assert inside, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    watch.assert_clean(page)


@pytest.mark.expect_error("storage for this site is full")
def test_a_full_storage_is_reported_and_play_goes_on(page, base_url, watch):
    start(page, base_url, "classic", seed=4)
    wait_for_human_or_end(page)
    page.evaluate(
        "() => { window.__realSetItem = Storage.prototype.setItem;"
        " Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); }; return true; }"
    )
    try:
        take_turn(page)
        page.wait_for_selector(".toast-error")
        assert "storage" in page.locator(".toast-error").inner_text().lower()
        wait_for_human_or_end(page)
        assert page.locator(".dom-table").count() == 1
        if not page.locator("#kit-results, .overlay").count():
            take_turn(page)
    finally:
        page.evaluate("() => { Storage.prototype.setItem = window.__realSetItem; return true; }")
    watch.assert_clean(page)


def test_the_table_fits_a_phone_without_sideways_scrolling(page, base_url, watch):
    with viewport(page, 360, 740):
        start(page, base_url, "match-4-100", seed=2)
        for _ in your_turns(page, 6):
            take_turn(page)
            over = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert over <= 0, f"the table scrolls sideways by {over}px"
        assert page.locator(".kit-seat").count() == 3
    watch.assert_clean(page)


@pytest.mark.parametrize("size", fit.VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_fits_the_viewport_and_the_tray_stays_still_through_a_whole_game(
    page, base_url, watch, size
):
    """At every viewport, from the deal to the result: no page scroll, the title in view at the start, the
    tray and its buttons in the same place at every one of your turns, tiles at least 40 px wide."""

    def wide_tiles(page):
        # Seven upright tiles share a phone's row (every one whole, none scrolled away): a tile's button is
        # 40 px wide there and twice as tall, 64 px wide where there is room.
        box = page.locator(".dom-hand-tile").first.bounding_box()
        least = 40 if size[0] < 760 else 60
        assert box["width"] >= least and box["height"] >= 44, f"hand tiles are {box}"

    with viewport(page, *size):
        start(page, base_url, "classic", seed=17)
        turns = play_fitting(
            page,
            wait=wait_for_human_or_end,
            take_turn=take_turn,
            over="#over-title",
            max_turns=MAX_TURNS,
            check=wide_tiles,
        )
        assert turns > 2
        assert page.locator(".dom-line").count(), "the finished board stays visible under the result"
    watch.assert_clean(page)


def test_a_refused_tile_says_why_in_the_message_line_and_the_reason_fades(page, base_url, watch):
    start(page, base_url, "classic", seed=23)
    for _ in range(30):
        wait_for_human_or_end(page)
        if page.locator("#kit-results").count():
            pytest.skip("no turn offered a tile that does not fit")
        dim = page.locator(".dom-hand-tile.is-dim")
        if dim.count() and page.locator(".dom-hand-tile.is-playable").count():
            dim.first.click()
            refusal = page.locator(".kit-refusal")
            refusal.wait_for()
            assert "does not fit" in refusal.inner_text() or "cannot" in refusal.inner_text()
            assert page.locator(".kit-message .kit-refusal").count() == 1, "one message at a time"
            assert page.locator(".toast").count() == 0, "no toast over the hand"
            page.wait_for_function(
                "getComputedStyle(document.querySelector('.kit-refusal')).opacity === '0'", timeout=6000
            )
            break
        take_turn(page)
    watch.assert_clean(page)


def test_take_back_returns_to_your_previous_turn_and_the_game_is_not_counted(page, base_url, watch):
    start(page, base_url, "classic", seed=31)
    wait_for_human_or_end(page)
    assert page.locator("#take-back").is_disabled(), "nothing to take back before your first move"
    hand = page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)")
    line = page.locator(".dom-table").get_attribute("data-turn")
    take_turn(page)
    wait_for_human_or_end(page)
    if page.locator("#kit-results").count():
        pytest.skip("the hand ended at once")
    page.locator("#main").focus()
    page.keyboard.press("u")  # the button's shortcut (aria-keyshortcuts="U")
    page.wait_for_function("document.querySelector('.dom-table.is-my-turn') !== null")
    assert page.locator(".dom-hand-tile").evaluate_all("els => els.map(e => e.dataset.value)") == hand
    assert page.locator(".dom-table").get_attribute("data-turn") == line
    play_to_the_end(page)
    assert "Not counted in your stats: you took back 1 move." in page.locator("#kit-results").inner_text()
    watch.assert_clean(page)


def test_review_steps_through_the_finished_game_with_every_hand_face_up(page, base_url, watch):
    start(page, base_url, "classic", seed=41)
    play_to_the_end(page)
    page.click("#review")
    where = page.locator("#review-where")
    where.wait_for()
    total = int(re.search(r"of (\d+)", where.inner_text()).group(1))
    assert f"Move {total} of {total}" in where.inner_text()
    page.click("#review-first")
    page.wait_for_function("document.querySelector('#review-where').textContent.startsWith('Move 0 ')")
    assert page.locator(".kit-seat .dom-face-up svg").count() >= 5, "the others' hands are face up"
    page.click("#review-forward")
    page.wait_for_function("document.querySelector('#review-where').textContent.startsWith('Move 1 ')")
    assert page.locator(".dom-line").count() == 1
    page.click("#review-last")
    page.wait_for_function(f"document.querySelector('#review-where').textContent.startsWith('Move {total} ')")
    page.click("#review-close")
    page.wait_for_selector("#over-title")
    watch.assert_clean(page)


def test_play_again_after_a_reload_deals_the_finished_games_own_table(page, base_url, watch):
    """Play again re-deals from the finished game's seats, not from the (empty) setup form of a new page."""
    start(page, base_url, "classic", seed=12, players=3)
    assert page.locator(".kit-seat").count() == 2
    page.reload()  # the game resumes; the new page's setup form is empty
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector(".dom-table")
    play_to_the_end(page)
    page.click("#play-again")
    page.wait_for_function("document.querySelector('#over-title') === null")
    page.wait_for_selector(".dom-table")
    assert page.locator(".kit-seat").count() == 2, "two opponents, as the finished game had"
    watch.assert_clean(page)


def test_a_round_against_expert_plays_to_the_end(page, base_url, watch):
    """Expert (boneyard.ai's search, thinking in slices) is offered in setup and plays a whole round."""
    start(page, base_url, "classic", seed=5, levels={1: "expert"})
    assert "Expert" in page.locator(".kit-seat").first.inner_text()
    play_to_the_end(page)
    assert page.locator("#over-title").count() == 1
    watch.assert_clean(page)
