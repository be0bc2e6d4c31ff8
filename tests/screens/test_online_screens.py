"""The online rooms' screens and Stats' online record, rendered under CPython."""

from __future__ import annotations

from boneyard.games import GAMES
from boneyard.stats import Stats, stats_from_json
from ui.online import screens as online
from ui.stats_view import stats_screen

SEATS = [
    {"seat": 0, "name": "Ann", "kind": "host", "status": "connected"},
    {"seat": 1, "name": "<img src=x onerror=alert(1)>", "kind": "guest", "status": "reconnecting"},
    {"seat": 2, "name": "Bot", "kind": "bot", "level": "hard", "status": "connected"},
    {"seat": 3, "name": None, "kind": "open", "status": "open"},
]


def test_the_room_shows_code_link_qr_lobby_and_start():
    room = online.RoomInfo("Dominoes", "Classic, 4 players", "open", levels=["easy", "medium", "hard"])
    link = online.Link("ABCD EFGH", "https://example.test/#/join/ABCDEFGH", "<svg viewBox='0 0 1 1'></svg>")
    page = online.room_screen(room, link, SEATS, start_ok=False)
    assert "ABCD EFGH" in page and "#/join/ABCDEFGH" in page and "<svg" in page
    assert 'id="room-start"' in page and "disabled" in page.split('id="room-start"')[0][-200:] + page
    assert "Bot · Hard" in page, "a bot is always labelled as one"
    assert "<img" not in page, "a guest's name is text"
    assert 'id="room-remove-1"' in page, "the host can remove a guest"
    assert 'data-room-seat="3"' in page and "Open for a friend" in page
    assert "Reconnecting…" in page


def test_a_qr_code_that_is_not_svg_is_left_out():
    link = online.Link("ABCD EFGH", "u", "<script>x</script>")
    page = online.room_screen(online.RoomInfo("Dominoes", "m", "open"), link, SEATS[:1], start_ok=True)
    assert "<script>" not in page


def test_the_join_screen_states():
    form = online.join_screen("ABCDEFGH", "Bob", "form")
    assert 'id="join-code"' in form and 'value="ABCDEFGH"' in form and 'id="join-room"' in form
    lobby = online.join_screen(
        "ABCDEFGH", "Bob", "lobby", game_name="Dominoes", mode_label="Classic", seats=SEATS, me=1
    )
    assert "Waiting for the host" in lobby and "(you)" in lobby and 'id="room-remove-1"' not in lobby
    left = online.join_screen("ABCDEFGH", "Bob", "host_left")
    assert "host left" in left and 'id="join-retry"' in left


def test_the_bar_decision_and_deal_check():
    bar = online.online_bar("ABCD EFGH", SEATS, 0)
    assert "is reconnecting" in bar and "ABCD EFGH" in bar
    assert 'id="decide-bot"' in online.decide_dialog(1, "Bob")
    assert online.deal_check(None, False) == ""
    assert "deal-ok" in online.deal_check((True, ""), True)
    bad = online.deal_check((False, "the seed does not come from the nonces <b>"), True)
    assert "deal-bad" in bad and "<b>" not in bad


def test_online_results_count_apart_by_opponent_and_round_trip():
    stats = Stats()
    stats.record_online("dominoes", "classic-2", "Classic, 2 players", "Bob", "win", "2026-12-01")
    stats.record_online("dominoes", "classic-2", "Classic, 2 players", "Bob", "loss", "2026-12-01")
    assert stats.tallies == [], "online games are not games against the computer"
    again = stats_from_json(stats.to_json())
    assert again.online_for("dominoes")[0].played == 2
    assert stats_from_json({"tallies": []}).online == [], "stats from before online rooms load"
    page = stats_screen(again, GAMES.values(), "Ann")
    assert "Online, by opponent" in page and "Bob" in page


def test_home_offers_the_way_into_a_room_and_back_to_ones_own():
    from boneyard.settings import Settings
    from ui.shell import home, setup

    plain = home(GAMES.values(), set(), set(GAMES), Settings())
    assert 'href="#/join"' in plain
    back = home(
        GAMES.values(), set(), set(GAMES), Settings(), ("#/room/dominoes", "You host a room of Dominoes.")
    )
    assert 'id="home-room"' in back and "#/room/dominoes" in back
    form = {"opponents": "online"}
    page = setup(
        GAMES["dominoes"], form, online_markup(""), 2, False, [("classic", "Classic")], ["easy"], online=True
    )
    assert 'id="create-room"' in page and 'id="start-game"' not in page
    assert 'value="online"' in page
    offline = setup(GAMES["dominoes"], form, online_markup(""), 2, False, [("classic", "Classic")], ["easy"])
    assert 'id="create-room"' not in offline, "no online choice where the game cannot be played online"


def online_markup(text: str):
    from ui.html import Markup

    return Markup(text)


def test_the_bar_offers_the_deal_check_in_one_line():
    assert online.deal_button(False) == ""
    assert 'id="deal-check-btn"' in online.deal_button(True)
    assert online.deal_words(None) == ""
    assert "deal-ok" in online.deal_words((True, ""))
    bad = online.deal_words((False, "<script>"))
    assert "deal-bad" in bad and "<script>" not in bad
    bar = online.online_bar(
        "ABCD-EFGH", SEATS, 0, tools=online.deal_button(True), extra=online.deal_words((True, ""))
    )
    assert 'id="deal-check-btn"' in bar and 'id="deal-result"' in bar


def test_the_host_is_marked_on_a_guests_bar_and_in_the_chat():
    from ui.online import chat

    seats = [{**SEATS[0]}, {"seat": 1, "name": "Ann (2)", "kind": "guest", "status": "connected"}]
    bar = online.online_bar("ABCD EFGH", seats, 1)
    assert 'id="online-host"' in bar and "Host: " in bar.split('id="online-host"')[1][:80]
    assert 'id="online-host"' not in online.online_bar("ABCD EFGH", seats, 0), "the host knows"
    log = chat.ChatLog(me=2)
    log.add(0, "Ann", "from the host")
    log.add(1, "Ann (2)", "from a guest")
    panel = str(chat.chat_panel(log, ["Ann", "Ann (2)", "Cy"], host=0))
    host_line, guest_line = panel.split('id="chat-line-')[1:3]
    assert "chat-host" in host_line and "chat-host" not in guest_line
