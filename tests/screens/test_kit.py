"""The table kit under CPython: seats around the table, beats and the privacy gate's words, the message
line's refusals, take-back and review through the session, the results panel, and the sound recipes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boneyard.games import GAMES
from boneyard.settings import Settings
from ui import kit, sound
from ui.session import Seat, Session
from ui.table_screen import TableContext, TableState

INFO = GAMES["dominoes"]


def context(session: Session, ui: TableState | None = None) -> TableContext:
    return TableContext(session=session, settings=Settings(), ui=ui or TableState(), animations=False)


def vs_computer(seed: int = 3, players: int = 2) -> Session:
    seats = [Seat("human", "You")] + [Seat("computer", f"C{i}", "easy") for i in range(1, players)]
    return Session.start(INFO, seats, "m", "Mode", {"players": players}, seed=seed)


def test_seats_sit_across_for_two_left_and_right_for_three_left_across_right_for_four():
    assert kit.seat_positions(2, 0) == [(1, "across")]
    assert kit.seat_positions(3, 1) == [(2, "left"), (0, "right")]
    assert kit.seat_positions(4, 0) == [(1, "left"), (2, "across"), (3, "right")]


def test_the_local_player_is_a_seat_flag_never_a_name():
    seats = [Seat("human", "Ada"), Seat("computer", "You", "easy")]
    session = Session.start(INFO, seats, "m", "Mode", {"players": 2}, seed=1)
    names = kit.display_names(session)
    assert names[0] == "You" and names[1] != "You" and "You" in names[1]  # the computer's own name, isolated
    views = [kit.SeatView(seat=s, name=names[s], count=1, local=s == 0) for s in range(2)]
    html = kit.seats(views, 0)
    assert 'data-seat="1"' in html and 'data-seat="0"' not in html and "Last tile!" in html


def test_draws_merge_into_one_beat_and_the_gate_says_what_happened_since_your_turn():
    beats = kit.merge_beats(
        [
            kit.Beat(0, "laid 6-6", "lay"),
            kit.Beat(1, "drew 1", "draw"),
            kit.Beat(1, "drew 1", "draw"),
            kit.Beat(1, "laid 6-4", "lay"),
            kit.Beat(2, "passed", "pass"),
        ]
    )
    assert [b.text for b in beats] == ["laid 6-6", "drew 2", "laid 6-4", "passed"]
    names = ["Ada", "Ben", "Cy"]
    assert kit.since_last_turn(beats, 0, names) == "Ben drew 2, Ben laid 6-4, Cy passed"
    assert kit.since_last_turn(beats, 2, names) == ""
    assert kit.last_beats(beats) == {0: "laid 6-6", 1: "laid 6-4", 2: "passed"}
    gate = kit.privacy_gate("Ada", "Ben laid 6-4")
    assert "Since your last turn: Ben laid 6-4." in gate and 'href="#/"' in gate and 'id="reveal"' in gate


def test_the_privacy_gate_is_keyed_on_the_turn_not_on_the_seat():
    view = {"turn": 0, "turn_number": 7, "history": [{"seat": 1}, {"seat": 0}, {"seat": 0}]}
    assert kit.turn_token(view) == "0:5"  # the seat's draws and its lay are one turn
    later = {"turn": 0, "turn_number": 9, "history": [{"seat": 0}, {"seat": 1}]}
    assert kit.turn_token(later) != kit.turn_token(view)  # the same person's next turn needs a new reveal


def test_a_refusal_shows_once_then_fades_out_of_the_message_line(monkeypatch):
    session = vs_computer()
    ctx = context(session)
    clock = [100.0]
    monkeypatch.setattr(kit.time, "monotonic", lambda: clock[0])
    kit.refuse(ctx, "that tile does not fit", "6-4")
    line = kit.message_line(ctx, "Your turn")
    assert line.count("kit-refusal") == 1 and "That tile does not fit" in line and "Your turn" in line
    assert kit.shake(ctx, "6-4") and not kit.shake(ctx, "5-5")
    clock[0] += kit.REFUSAL_S + 0.1
    assert "kit-refusal" not in kit.message_line(ctx, "Your turn") and kit.refusal(ctx) is None


def test_take_back_goes_back_to_your_previous_turn_and_review_replays_every_move():
    rng = random.Random(5)
    for seed in range(8):
        session = vs_computer(seed, players=3)
        turns: list[dict[str, Any]] = []
        while not session.state.is_over() and len(turns) < 4:
            if session.computer_to_move():
                session.computer_move()
                continue
            turns.append(session.state.to_dict())
            session.play(rng.choice(session.state.legal_moves()))
        if session.state.is_over() or len(turns) < 2:
            continue
        while session.computer_to_move():
            session.computer_move()
        if session.state.is_over():
            continue
        assert session.can_take_back()
        revision = session.revision
        assert session.take_back() > 0
        assert session.state.to_dict() == turns[-1], "back to the position of your last turn"
        assert session.revision > revision and session.take_backs == 1
        assert session.replay(session.move_count()).to_dict() == session.state.to_dict()
        assert session.replay(0).to_dict() == INFO.new_state(seed=session.seed, players=3).to_dict()
        again = Session.from_json("dominoes", session.to_json())
        assert again.moves == session.moves and again.take_backs == 1
        return
    pytest.fail("no seeded game reached a take-back")


def test_take_back_is_offered_only_to_one_person_against_the_computer():
    same = Session.start(INFO, [Seat("human", "A"), Seat("human", "B")], "m", "M", {"players": 2}, seed=2)
    assert not same.can_offer_take_back() and kit.take_back_button(same) == ""
    alone = vs_computer()
    assert alone.can_offer_take_back() and 'id="take-back"' in kit.take_back_button(alone)


def test_an_older_save_without_a_move_log_loads_and_offers_no_review():
    session = vs_computer()
    while session.computer_to_move():
        session.computer_move()
    data = session.to_json()
    del data["moves"], data["take_backs"]
    old = Session.from_json("dominoes", data)
    assert old.moves is None and old.move_count() == 0 and old.take_backs == 0


def test_the_results_panel_folds_shows_every_hand_and_opens_the_review():
    session = vs_computer()
    ui = TableState()
    ctx = context(session, ui)
    panel = kit.results_panel(ctx, "You win!", "body", [kit.button("start-game", "Play again")])
    assert 'id="view-board"' in panel and 'id="review"' in panel and 'id="kit-fold"' in panel
    assert kit.handle(ctx, "kit-view-board", "") and ui.kit.face_up and ui.kit.folded
    folded = kit.results_panel(ctx, "You win!", "body", [])
    assert "is-folded" in folded
    # Folded, the table docks them in the message line's place, off the board (no tile under them).
    table = kit.table(
        game_id="dominoes", board="B", message=kit.message_line(ctx, "You win!"), tray_="T", panel=folded
    )
    wrap = table.split('class="kit-board-wrap"')[1].split('id="kit-message"')[0]
    assert 'id="kit-results"' not in wrap and table.index('id="kit-message"') < table.index(
        'id="kit-results"'
    )
    ui.kit.folded = False
    table = kit.table(
        game_id="dominoes", board="B", message="", tray_="T", panel=kit.results_panel(ctx, "Won", "b", [])
    )
    assert 'id="kit-results"' in table.split('class="kit-board-wrap"')[1]
    ui.kit.folded = True
    while session.computer_to_move():
        session.computer_move()
    session.play(session.state.legal_moves()[0])
    total = session.move_count()
    kit.handle(ctx, "kit-review", "open")
    assert kit.reviewing(ctx) == total
    kit.handle(ctx, "kit-review", "forward")
    assert kit.reviewing(ctx) == total
    kit.handle(ctx, "kit-review", "first")
    assert kit.reviewing(ctx) == 0
    kit.handle(ctx, "kit-review", "back")
    assert kit.reviewing(ctx) == 0
    assert "Move 0 of" in kit.review_bar(0, total)
    kit.handle(ctx, "kit-review", "close")
    assert kit.reviewing(ctx) is None


def test_the_scoreboard_shows_totals_target_and_each_hand():
    board = kit.scoreboard(["You", "Ben"], [12, 31], 50, [[12, 0], [0, 31]])
    assert "to 50" in board and board.count("<tr") == 4 and "Total" in board


def test_every_sound_is_a_short_quiet_recipe_and_nothing_plays_while_sound_is_off():
    for name in ("lay", "draw", "pass", "turn", "win", "lose", "draw_game"):
        notes = sound.recipe(name)
        assert notes and all(0 < n.gain <= 0.5 and 0 < n.length <= 1 for n in notes), name
        assert max(n.start + n.length for n in notes) < 1.2
    assert len(sound.recipe("cascade", 5)) > len(sound.recipe("cascade", 1))
    assert not sound.play(Settings(sound=False), "lay")  # off: nothing is created (no js needed)
    assert not sound.play(Settings(sound=True), "lay")  # no user gesture yet: nothing either


def test_only_this_devices_person_is_you_in_an_online_room():
    seats = [Seat("human", "Ada"), Seat("guest", "Ben")]
    session = Session.start(INFO, seats, "m", "Mode", {"players": 2}, seed=1)
    names = kit.display_names(session)
    assert names[0] == "You" and names[1] != "You" and "Ben" in names[1]


def test_a_phone_row_of_three_seats_has_short_names_and_the_full_one_in_the_title():
    from ui.html import name_attr

    assert kit.short_name(name_attr("Computer 2 (Medium)")) == name_attr("Bot 2")
    assert kit.short_name(name_attr("Computer 3") + " ★") == name_attr("Bot 3") + " ★"
    assert kit.short_name(name_attr("Computer")) == name_attr("Bot")
    assert kit.short_name(name_attr("Mary Ann Evans")) == name_attr("Mary")
    assert kit.short_name(name_attr("You")) == name_attr("You")
    card = str(
        kit.seat_card(kit.SeatView(seat=1, name=name_attr("Computer 1"), count=1, last="laid 6-4"), "left")
    )
    assert (
        '<span class="kit-seat-name">' in card
        and "kit-seat-short" in card
        and f'title="{name_attr("Computer 1")}"' in card
    )
    assert card.index("kit-call") < card.index("kit-seat-last"), "Last tile! sits beside the one back"
    over = kit.seat_card(kit.SeatView(seat=1, name="Bo", count=1, playing=False), "left")
    assert "Last tile!" not in over, "a summary or an end calls out no last tile"
    plain = str(kit.seat_card(kit.SeatView(seat=1, name=name_attr("Ann"), count=3), "left"))
    assert "kit-seat-short" not in plain and "title=" not in plain


def test_the_stats_note_says_why_a_game_is_or_is_not_counted():
    from ui.results import stats_note

    session = vs_computer()
    assert stats_note(session) == "Counted in your stats."
    session.take_backs = 2
    assert stats_note(session) == "Not counted in your stats: you took back 2 moves."
    session.take_backs = 1
    assert stats_note(session).endswith("took back 1 move.")
    shared = Session.start(INFO, [Seat("human", "A"), Seat("human", "B")], "m", "M", {"players": 2}, seed=1)
    assert stats_note(shared) == "Same-device games are not counted in the stats."
    assert stats_note(shared, "Games on one device are not counted in the stats.").startswith("Games on one")


def test_the_deal_tag_and_its_check_show_the_commitment_then_the_seed_only_at_the_end():
    from boneyard import deals

    session = vs_computer(seed=918273645501)
    ctx = context(session)
    short = deals.short_commitment(deals.deal_commitment(session.seed))
    tag = kit.deal_tag(session)
    assert (
        "Deal</span>" in tag
        and all(f"<span>{part}</span>" in tag for part in short.split())
        and "918273645501" not in tag
        and "Check the deal" in tag
    )
    assert kit.deal_check(ctx) == ""  # no check before the end
    kit.handle(ctx, "kit-check-deal", "")
    assert not ctx.ui.kit.deal_checked
    while not session.state.is_over():
        session.computer_move() if session.computer_to_move() else session.play(
            session.state.legal_moves()[0]
        )
    button = kit.deal_check(ctx)
    assert 'data-action="kit-check-deal"' in button and "918273645501" not in button
    kit.handle(ctx, "kit-check-deal", "")
    found = kit.deal_check(ctx)
    assert "✓ Fair deal" in found and "918273645501" in found and deals.deal_commitment(session.seed) in found
    assert "python3 -m boneyard.deals --game dominoes --seed 918273645501" in found
    assert "--option players=2" in found
    assert kit.results_panel(ctx, "Over", "", []).count('id="kit-deal-check"') == 1  # the panel carries it
    # Same device, online rooms and Bonefall show none: no computer deals, or a deal committed its own way.
    same_device = Session.start(
        INFO, [Seat("human", "A"), Seat("human", "B")], "m", "Mode", {"players": 2}, seed=5
    )
    assert kit.deal_tag(same_device) == ""
    session.extra["online"] = "ROOM"
    assert kit.deal_tag(session) == "" and kit.deal_check(ctx) == ""


def test_redeal_names_each_games_tiles_as_its_table_does():
    from boneyard import deals

    assert all("---" not in tile for hand in deals.redeal("triangles", 5) for tile in hand)
    assert deals.redeal("triangles", 5)[0][0].count("-") == 2
