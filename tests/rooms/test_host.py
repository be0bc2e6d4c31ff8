"""HostRoom and GuestRoom end to end in memory: lobby, seats, tokens, deal, moves, chat, drops, saves."""

from __future__ import annotations

import json
import random

import pytest

from boneyard.rooms import protocol
from boneyard.rooms.guest import GuestRoom
from boneyard.rooms.host import ChatLimit, HostRoom, RoomError

from .harness import Table


def kinds(outs, peer):
    return [json.loads(o.text)["t"] for o in outs if o.peer == peer and o.text]


def notes(outs):
    return [o.note for o in outs if o.peer is None]


def test_lobby_join_and_start():
    room = HostRoom(
        "dominoes",
        "2 players, to 50",
        {"players": 3, "target": 50},
        "Ana",
        ["host", "open", "bot:hard"],
        random.Random(1),
    )
    assert len(room.code) == 8 and not room.start_ok()
    guest = GuestRoom(room.code, "Bo")
    room.on_open("p1")
    outs = room.on_message("p1", guest.hello(), 0.0)
    assert kinds(outs, "p1") == ["welcome", "lobby"]
    for out in outs:
        if out.peer == "p1":
            guest.on_message(out.text)
    assert guest.seat == 1 and guest.token and guest.game == "dominoes" and guest.mode == "2 players, to 50"
    assert guest.seats[2] == {"seat": 2, "name": None, "kind": "bot", "level": "hard", "status": "connected"}
    assert guest.start_ok and room.start_ok()
    assert "lobby" in notes(outs)
    # A third page finds the room full.
    outs = room.on_message("p2", GuestRoom(room.code, "Cy").hello(), 0.0)
    assert kinds(outs, "p2") == ["error"] and outs[0].drop


def test_start_needs_every_seat():
    room = HostRoom("triangles", None, {"players": 2}, "Ana", 2)
    with pytest.raises(RoomError):
        room.start(0.0)
    with pytest.raises(RoomError):
        HostRoom("triangles", None, {"players": 3}, "Ana", 2)
    with pytest.raises(RoomError):
        HostRoom("triangles", None, {"players": 2}, "Ana", ["open", "open"])
    with pytest.raises(RoomError):
        HostRoom("bonefall", None, {}, "Ana", 2)


@pytest.mark.parametrize(
    ("game", "options", "guests"),
    [
        ("dominoes", {"players": 2, "target": 50}, [1]),
        ("dominoes", {"players": 4, "teams": True, "scoring": "fives"}, [1, 3]),
        ("triangles", {"players": 3}, [1, 2]),
        ("heptalion", {"players": 2, "hidden": True}, [1]),
    ],
)
def test_a_whole_game_and_an_honest_deal(game, options, guests):
    table = Table(game, options, guests, seed=4)
    table.join()
    table.start()
    for guest in table.guests.values():
        assert guest.first_view == table.state.view(guest.seat)
    table.play_out()
    assert table.state.is_over()
    for guest in table.guests.values():
        assert guest.view == table.state.view(guest.seat)
        ok, reason = guest.check_deal()
        assert ok, reason
    assert all(n.note != "deal_stalled" for n in table.notes)


def test_a_host_that_changes_the_seed_is_caught():
    table = Table("dominoes", {"players": 2}, [1], seed=2)
    table.join()
    table.deliver(table.room.start(table.now))
    # The host ignores the fair seed and deals its own.
    honest_seed = table.room.seed
    table.state = None
    from boneyard.games import get_game

    table.state = get_game("dominoes").new_state(seed=honest_seed + 1, players=2)
    guest = table.guests[1]
    guest.first_view = None
    guest.view_digests = {}
    table.deliver(table.room.views(table.state))
    table.play_out()
    ok, reason = guest.check_deal()
    assert not ok and "dealt" in reason
    # ... and a host that then lies about the seed fails on the seed.
    guest.proof = dict(guest.proof, seed=honest_seed + 1)
    ok, reason = guest.check_deal()
    assert not ok and "seed" in reason


def test_refusals_out_of_turn_stale_and_illegal():
    table = Table("dominoes", {"players": 2}, [1], seed=3)
    table.join()
    table.start()
    guest, peer = table.guests[1], table.peers[1]
    while table.state.current_player() == 1:
        table.step()
    before = json.dumps(table.state.to_dict())
    # Out of turn.
    outs = table.room.on_message(peer, guest.move("6-6"), table.now)
    assert kinds(outs, peer) == ["refused"] and "not your turn" in json.loads(outs[0].text)["reason"]
    assert json.dumps(table.state.to_dict()) == before
    while table.state.current_player() != 1:
        table.step()  # the host moves (and draws); now it is the guest's turn
    before = json.dumps(table.state.to_dict())
    stale = protocol.encode("move", move=guest.legal_moves()[0], turn_number=0)
    outs = table.room.on_message(peer, stale, table.now)
    assert "turn" in json.loads(outs[0].text)["reason"]
    outs = table.room.on_message(peer, guest.move("0-0:Q"), table.now)
    assert kinds(outs, peer) == ["refused"]
    assert json.dumps(table.state.to_dict()) == before


def test_reconnect_by_token_gets_the_seat_back():
    table = Table("heptalion", {"players": 3, "hidden": True}, [1, 2], seed=5)
    table.join()
    table.start()
    for _ in range(4):
        table.step()
    token = table.guests[1].token
    outs = table.room.on_close("peer-1", table.now)
    assert notes(outs).count("seat") == 1
    assert kinds(outs, "peer-2") == ["seat", "lobby"]
    assert table.room.lobby()[1]["status"] == "reconnecting"
    # Held: no decision yet; then the host is asked once.
    assert table.room.tick(table.now + 10) == []
    decide = table.room.tick(table.now + 61)
    assert notes(decide) == ["decide"] and table.room.tick(table.now + 62) == []
    # The guest reloads: a new page, the kept token, the same seat and the current view.
    reloaded = GuestRoom(table.room.code, "Guest 1 again", token)
    table.guests[1] = reloaded
    table.peers[1] = "peer-1b"
    table.room.on_open("peer-1b")
    outs = table.room.on_message("peer-1b", reloaded.hello(), table.now)
    assert kinds(outs, "peer-1b")[:2] == ["welcome", "lobby"]
    assert "view" in kinds(outs, "peer-1b")
    table.deliver(outs)
    assert reloaded.seat == 1 and reloaded.view == table.state.view(1)
    assert table.room.lobby()[1] == {
        "seat": 1,
        "name": "Guest 1 again",
        "kind": "guest",
        "status": "connected",
    }
    table.play_out()
    assert table.state.is_over()


def test_a_bot_takes_a_dropped_seat_and_gives_it_back():
    table = Table("triangles", {"players": 2}, [1], seed=6)
    table.join()
    table.start()
    token = table.guests[1].token
    table.room.on_close("peer-1", table.now)
    with pytest.raises(RoomError):
        table.room.set_seat(1, "open")
    table.room.set_seat(1, "bot", "easy")
    assert table.room.bot_seats() == {1: "easy"}
    back = GuestRoom(table.room.code, "Back", token)
    outs = table.room.on_message("peer-x", back.hello(), table.now)
    assert "returned" in notes(outs) and table.room.bot_seats() == {}


def test_remove_bans_the_token():
    room = HostRoom("triangles", None, {"players": 2}, "Ana", 2, random.Random(2))
    guest = GuestRoom(room.code, "Bo")
    for out in room.on_message("p1", guest.hello(), 0.0):
        guest.on_message(out.text)
    outs = room.remove(1, now=1.0)
    assert kinds(outs, "p1") == ["removed"] and outs[0].drop
    assert room.lobby()[1]["kind"] == "open"
    outs = room.on_message("p2", guest.hello(), 2.0)
    assert kinds(outs, "p2") == ["removed"]
    assert room.lobby()[1]["kind"] == "open"


def test_deal_timeout_and_drop():
    room = HostRoom(
        "dominoes", None, {"players": 3}, "Ana", ["host", "open", "open"], random.Random(2), deal_timeout_s=20
    )
    for peer in ("p1", "p2"):
        room.on_message(peer, GuestRoom(room.code, peer).hello(), 0.0)
    room.start(0.0)
    commit = protocol.encode("commit", hash="ab" * 32)
    room.on_message("p1", commit, 1.0)
    assert room.waiting_for() == [2]
    assert room.tick(10.0) == []
    stalled = room.tick(21.0)
    assert notes(stalled) == ["deal_stalled"] and stalled[0].data["seats"] == [2]
    outs = room.remove(2, now=22.0)
    assert kinds(outs, "p1").count("commit_ask") == 1  # the round starts again without them
    assert room.bot_seats() == {2: "medium"}
    room.on_message("p1", protocol.encode("commit", hash="cd" * 32), 23.0)
    assert room.waiting_for() == [1]  # now the reveals
    outs = room.on_message("p1", protocol.encode("reveal", nonce="00" * 32), 24.0)
    assert "does not match" in json.loads(outs[0].text)["reason"]


def test_chat_rate_limit_and_cleaning():
    table = Table("triangles", {"players": 2}, [1], seed=1)
    table.join()
    peer = table.peers[1]
    sent = []
    for i in range(7):
        outs = table.room.on_message(peer, table.guests[1].chat(f"  hi <b>{i}</b>\n"), 100.0 + i * 0.1)
        sent.append(kinds(outs, peer))
    assert sent[:5] == [["chat"]] * 5 and sent[5:] == [["refused"], []]  # told once, then only counted
    table.deliver(table.room.on_message(peer, table.guests[1].chat("later"), 111.0))
    log = table.guests[1].chat_log
    assert log[-1] == {"seat": 1, "name": "Guest 1", "text": "later"}
    host_line = table.room.say("  from the host ")
    assert json.loads(host_line[0].text)["text"] == "from the host"
    outs = table.room.on_message(peer, table.guests[1].react("domino"), 112.0)
    assert json.loads(outs[0].text) == {"t": "react", "seat": 1, "key": "domino"}
    room = HostRoom("triangles", None, {"players": 2}, "Ana", 2, chat_limit=ChatLimit(1, 5.0))
    assert room.chat_limit.count == 1


def test_open_seat_goes_to_a_bot_after_a_while():
    room = HostRoom("dominoes", None, {"players": 2}, "Ana", 2, open_bot_after_s=30, open_bot_level="easy")
    assert room.tick(0.0) == []
    outs = room.tick(31.0)
    assert "open_to_bot" in notes(outs) and room.bot_seats() == {1: "easy"} and room.start_ok()


def test_lobby_drop_opens_the_seat_after_the_hold():
    room = HostRoom("dominoes", None, {"players": 2}, "Ana", 2, hold_s=5)
    room.on_message("p1", GuestRoom(room.code, "Bo").hello(), 0.0)
    room.on_close("p1", 1.0)
    assert room.lobby()[1]["status"] == "reconnecting"
    room.tick(7.0)
    assert room.lobby()[1]["kind"] == "open"


def test_leave_during_the_game_asks_the_host_at_once():
    table = Table("dominoes", {"players": 2}, [1], seed=8)
    table.join()
    table.start()
    outs = table.room.on_message(table.peers[1], table.guests[1].leave(), table.now)
    assert "decide" in notes(outs)


def test_host_leaves_and_reopens_with_the_same_code():
    table = Table("dominoes", {"players": 3, "target": 50}, [1, 2], seed=9)
    table.join()
    table.start()
    for _ in range(5):
        table.step()
    saved = json.loads(json.dumps(table.room.to_dict()))
    state_saved = table.state.to_dict()
    outs = table.room.close()
    assert sorted(o.peer for o in outs) == ["peer-1", "peer-2"] and all(o.drop for o in outs)
    table.deliver(outs)
    assert table.guests[1].host_left
    from boneyard.games import get_game

    reopened = HostRoom.from_dict(saved, play=table.play)
    assert reopened.code == table.room.code and reopened.phase == "playing"
    assert [s["status"] for s in reopened.lobby()] == ["connected", "reconnecting", "reconnecting"]
    table.room = reopened
    table.state = get_game("dominoes").from_dict(state_saved)
    reopened.views(table.state)
    for seat in (1, 2):
        table.peers[seat] = f"peer-{seat}-again"
        table.deliver(reopened.on_message(table.peers[seat], table.guests[seat].hello(), table.now))
        assert table.guests[seat].view == table.state.view(seat)
    table.play_out()
    for seat in (1, 2):
        ok, reason = table.guests[seat].check_deal()
        assert ok, reason
    with pytest.raises(ValueError):
        HostRoom.from_dict({"seats": 5})


def test_guest_room_saves_what_the_deal_check_needs():
    table = Table("heptalion", {"players": 2, "hidden": True}, [1], seed=10)
    table.join()
    table.start()
    table.step()
    guest = table.guests[1]
    again = GuestRoom.from_dict(json.loads(json.dumps(guest.to_dict())))
    table.guests[1] = again
    table.peers[1] = "peer-1-reload"
    table.deliver(table.room.on_message("peer-1-reload", again.hello(), table.now))
    table.play_out()
    ok, reason = again.check_deal()
    assert ok, reason
    with pytest.raises(ValueError):
        GuestRoom.from_dict({})


def test_guest_ignores_bad_host_texts():
    guest = GuestRoom("ABCDEFGH", "Bo")
    assert [e.kind for e in guest.on_message("{")] == ["bad"]
    assert [e.kind for e in guest.on_message(protocol.encode("reveal_ask", commits=["ab" * 32]))] == ["bad"]
    events = guest.on_message(protocol.encode("commit_ask"))
    assert [e.kind for e in events] == ["dealing", "send"]
    assert [e.kind for e in guest.on_message(protocol.encode("reveal_ask", commits=["ab" * 32]))] == ["cheat"]
    assert guest.check_deal() == (False, "the host has not sent the deal yet")


def test_a_second_game_in_the_same_room():
    table = Table("triangles", {"players": 3}, [1, 2], seed=13)
    table.join()
    table.start()
    table.play_out()
    assert table.room.phase == "over" and table.room.start_ok()
    first_seed = table.room.seed
    # Guest 2 leaves between games; a newcomer takes the seat; the next game deals afresh.
    outs = table.room.on_message(table.peers[2], table.guests[2].leave(), table.now)
    assert table.room.lobby()[2]["kind"] == "open" and not table.room.start_ok()
    table.deliver(outs)
    newcomer = GuestRoom(table.room.code, "Newcomer", nonce_rng=random.Random(77))
    table.guests[2], table.peers[2] = newcomer, "peer-new"
    table.deliver(table.room.on_message("peer-new", newcomer.hello(), table.now))
    assert newcomer.seat == 2 and newcomer.view is None  # nothing of the last game
    table.moves = []
    table.deliver(table.room.start(table.now))
    assert table.room.seed != first_seed and table.guests[1].first_view == table.state.view(1)
    table.play_out()
    for seat in (1, 2):
        ok, reason = table.guests[seat].check_deal()
        assert ok, reason


def test_a_bot_for_a_guest_who_never_commits_restarts_the_deal():
    room = HostRoom("dominoes", None, {"players": 3}, "Ana", 3, random.Random(4))
    for peer in ("p1", "p2"):
        room.on_message(peer, GuestRoom(room.code, peer).hello(), 0.0)
    room.start(0.0)
    room.on_message("p1", protocol.encode("commit", hash="ab" * 32), 1.0)
    room.on_close("p2", 2.0)
    outs = room.set_seat(2, "bot", "easy", now=30.0)
    assert kinds(outs, "p1").count("commit_ask") == 1 and room.waiting_for() == [1]


def test_a_guest_counts_deals_begun_again_after_its_reveal():
    room = HostRoom("dominoes", None, {"players": 3}, "Ana", 3, random.Random(5))
    guests = {p: GuestRoom(room.code, p) for p in ("p1", "p2")}

    def send(outs):
        for out in outs:
            if out.peer and out.text:
                for event in guests[out.peer].on_message(out.text):
                    if event.kind == "send":
                        send(room.on_message(out.peer, event.data["text"], 1.0))

    for peer, guest in guests.items():
        send(room.on_message(peer, guest.hello(), 0.0))
    room.start(0.0)
    send(room._broadcast("commit_ask"))  # what start sent, delivered now
    assert room.phase == "playing" and guests["p1"].redeals == 0
    room.phase = "dealing"  # a host that throws the seed away and deals again
    send(room._begin_deal(2.0))
    assert guests["p1"].redeals == 1


def test_names_that_would_not_fit_are_cut():
    room = HostRoom("dominoes", None, {"players": 2}, "A very long host name indeed, far too long", 2)
    assert room.host_name == "A very long host name in"
    guest = GuestRoom(room.code, "   ")
    outs = room.on_message("p1", guest.hello(), 0.0)
    assert kinds(outs, "p1")[0] == "welcome" and room.lobby()[1]["name"] == "Guest"


def test_a_flooding_guest_is_removed_for_good_and_its_late_messages_are_not_read(monkeypatch):
    table = Table("triangles", {"players": 3}, [1, 2], seed=8)
    table.join()
    table.start()
    peer, guest = table.peers[1], table.guests[1]
    token = guest.token
    parsed = []
    real_parse = HostRoom.__init__.__globals__["parse"]

    def counting_parse(text, **kwargs):
        parsed.append(text)
        return real_parse(text, **kwargs)

    monkeypatch.setitem(HostRoom.__init__.__globals__, "parse", counting_parse)
    removed_at = None
    for i in range(1000):  # 1,000 chat lines within 13 ms
        outs = table.room.on_message(peer, guest.chat(f"spam {i}"), table.now + i * 0.000013)
        for out in outs:
            if out.peer == peer:
                guest.on_message(out.text)
        if removed_at is None and any(o.note == "removed" for o in outs):
            removed_at = i
            assert notes(outs).count("removed") == 1 and "lobby" in notes(outs)
            assert any(o.peer == peer and o.drop for o in outs)
    assert removed_at is not None and removed_at <= HostRoom.STRIKE_LIMIT + 5
    assert len(parsed) == removed_at + 1, "nothing the removed guest sent later was even parsed"
    told = [text for text in guest.refusals if text.startswith("slow down")]
    assert len(told) == 1, "told to slow down once; the other refusals were only counted"
    assert guest.removed and guest.token is None, "the guest's page forgets its seat: nothing to write back"
    # The seat went to a computer; the token is banned, so a reload with it finds no seat.
    assert table.room.bot_seats() == {1: "medium"} and token in table.room.banned
    outs = table.room.on_message("peer-1-reloaded", GuestRoom(table.room.code, "Bo", token).hello(), 2000.0)
    assert kinds(outs, "peer-1-reloaded") == ["removed"] and table.room.bot_seats() == {1: "medium"}
    # The other guest plays on.
    assert table.room.seats[2].peer == table.peers[2]


def test_the_flood_limit_comes_before_parsing(monkeypatch):
    room = HostRoom("triangles", None, {"players": 2}, "Ana", 2, random.Random(3))
    guest = GuestRoom(room.code, "Bo")
    room.on_message("p1", guest.hello(), 0.0)
    parsed = []
    real_parse = HostRoom.__init__.__globals__["parse"]
    monkeypatch.setitem(
        HostRoom.__init__.__globals__, "parse", lambda text, **kw: parsed.append(1) or real_parse(text, **kw)
    )
    room.STRIKE_LIMIT = 10**6  # the flood limit alone: junk sent slowly enough for the refusals' limit
    sent = 0
    for i in range(HostRoom.FLOOD_LIMIT * 2):
        outs = room.on_message("p1", "junk", 1.0 + i * 0.001)
        sent += 1
        if "removed" in notes(outs):
            break
    assert sent == HostRoom.FLOOD_LIMIT  # the hello was the first of the window
    assert len(parsed) == HostRoom.FLOOD_LIMIT - 1, "the message past the limit was not parsed"
    assert room.lobby()[1]["kind"] == "open" and room.banned


def test_names_at_a_table_are_unique_and_the_host_keeps_its_own():
    room = HostRoom("triangles", None, {"players": 4}, "Ann", 4, random.Random(4))
    names = []
    for peer, name in (("p1", "Ann"), ("p2", "ＡＮＮ"), ("p3", "ann (2)")):
        guest = GuestRoom(room.code, name)
        for out in room.on_message(peer, guest.hello(), 0.0):
            guest.on_message(out.text)
        names.append(guest.seats[guest.seat]["name"])
    assert names == ["Ann (2)", "ＡＮＮ (3)", "ann (2) (2)"]
    assert [row["name"] for row in room.lobby()] == ["Ann", *names]
    assert [row["kind"] for row in room.lobby()] == ["host", "guest", "guest", "guest"]
    # A chat line carries the seat's unique name, never the host's.
    outs = room.on_message("p1", GuestRoom(room.code, "x").chat("hello"), 1.0)
    assert {json.loads(o.text)["name"] for o in outs if o.text} == {"Ann (2)"}
    # A long name keeps its number within the limit; a returning guest keeps its own name.
    long_room = HostRoom("triangles", None, {"players": 2}, "A" * protocol.MAX_NAME, 2)
    long_guest = GuestRoom(long_room.code, "a" * protocol.MAX_NAME)
    long_room.on_message("p1", long_guest.hello(), 0.0)
    assert long_room.lobby()[1]["name"] == "a" * (protocol.MAX_NAME - 4) + " (2)"


def test_a_change_is_encoded_once_for_each_guest_and_a_guests_move_sends_its_views_first(monkeypatch):
    import boneyard.rooms.host as room_host

    encoded = []
    original = room_host.encode
    monkeypatch.setattr(
        room_host, "encode", lambda kind, **fields: encoded.append(kind) or original(kind, **fields)
    )
    table = Table("triangles", {"players": 3}, [1, 2], seed=8)
    table.join()
    table.start()
    while table.state.current_player() != 1:
        table.step()
    encoded.clear()
    guest = table.guests[1]
    outs = table.room.on_message("peer-1", guest.move(guest.legal_moves()[0]), table.now)
    assert [o.note or json.loads(o.text)["t"] for o in outs] == ["view", "view", "moved"]
    assert encoded == ["view", "view"], "one view encoded for each guest"
    assert table.room.views(table.state) == [] and encoded == ["view", "view"], "asked again: nothing"
    table.deliver(outs)
    # A guest that comes back gets the view of this change (encoded for it), the other none again.
    table.room.on_close("peer-2", table.now)
    table.room.on_open("peer-2b")
    table.peers[2] = "peer-2b"
    back = table.room.on_message(
        "peer-2b", GuestRoom(table.room.code, "Guest 2", table.guests[2].token).hello(), table.now
    )
    assert kinds(back, "peer-2b").count("view") == 1 and "view" not in kinds(back, "peer-1")


def test_a_room_of_the_host_and_computers_deals_at_start():
    # Nobody else takes part in the fair deal: the host's own commitment and nonce settle it at once
    # (a quick match nobody joined, or a friends' room given to bots), with no guest's message to wait for.
    room = HostRoom("triangles", "2 players", {"players": 3}, "Ann", ["host", "bot", "bot:easy"])
    outs = room.start(0.0)
    assert "deal" in notes(outs)
    assert room.phase == "playing" and room.seed is not None and len(room.nonces) == 1


def test_a_reserved_seat_waits_for_its_peer_and_nobody_else():
    room = HostRoom("triangles", "3 players", {"players": 3}, "Ann", ["host", "open", "open"])
    room.reserve(2, "peer-bob")
    hello = protocol.encode("hello", sender="guest", name="Eve", v=protocol.VERSION)
    room.on_open("peer-eve")
    assert kinds(room.on_message("peer-eve", hello, 0.0), "peer-eve")[0] == "welcome"
    assert room.seat_of("peer-eve") == 1  # the seat kept for nobody
    room.on_open("peer-cat")
    outs = room.on_message("peer-cat", hello.replace("Eve", "Cat"), 0.0)
    assert kinds(outs, "peer-cat") == ["error"]  # seat 2 is Bob's
    outs = room.on_message("peer-bob", hello.replace("Eve", "Bob"), 0.0)
    assert kinds(outs, "peer-bob")[0] == "welcome" and room.seat_of("peer-bob") == 2
    with pytest.raises(RoomError):
        room.reserve(0, "peer-x")
