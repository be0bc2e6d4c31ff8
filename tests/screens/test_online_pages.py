"""Online rooms page to page under CPython: the real host's and guests' pages over an in-memory network.

A guest's move is one message in, one state change, each guest's view encoded and sent once, one render
per page; chat and reactions reach every page and fade without a redraw loop; a guest leaves and comes
back, the host reloads and the room reopens; hostile messages break nothing and reveal no hidden tile.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from boneyard.rooms import protocol
from tests.rooms.test_no_leak import tiles_in, truth_of
from tests.screens.online_pages import (
    MemoryTransport,
    Network,
    Page,
    counting_encodes,
    guest_page,
    room_at_table,
    seat_of,
)
from tests.threads import on_own_loop
from ui.online import chat
from ui.online import host as online_host
from ui.online import join as online_join
from ui.online.net import TROUBLE


def sent_by(network: Network, page: Page) -> list[tuple[str, str, str]]:
    """Return the texts a page's transport sent."""
    return [item for item in network.sent if item[0] == page.online.net.id]


async def play_until_guest(network: Network, host: Page, guests: list[Page]) -> Page | None:
    """Play the host's turns until a guest is to move; return that guest's page (None: the game ended)."""
    session = host.online.session
    while not session.state.is_over():
        seat = session.to_move()
        for page in guests:
            if seat_of(page) == seat:
                return page
        assert host.human_move(session, session.state.legal_moves()[0])
        await network.settle()
    return None


GUEST_MOVES = 8  # guests' moves counted in each game (every page draws on each: a whole game is slow)


@pytest.mark.parametrize(
    ("game", "names"), [("triangles", ("Bob", "Cy")), ("dominoes", ("Bob",)), ("heptalion", ("Bob",))]
)
def test_a_guests_move_is_one_message_one_change_one_encode_and_one_render_per_page(
    game: str, names: tuple[str, ...]
) -> None:
    async def run() -> None:
        network, host, guests = await room_at_table(game, names)
        session = host.online.session
        moves = 0
        while moves < GUEST_MOVES:
            mover = await play_until_guest(network, host, guests)
            if mover is None:
                break
            mine = mover.online.session
            turn = session.state.turn_number
            for page in (host, *guests):
                page.renders = 0
            network.sent.clear()
            with counting_encodes() as encodes:
                assert mover.human_move(mine, mine.state.legal_moves()[0])
                assert mover.renders == 0, "the click draws nothing: the host's view answers it"
                assert not mover.human_move(mine, mine.state.legal_moves()[-1]), "a second click waits"
                await network.settle()
            assert session.state.turn_number == turn + 1, "the host applied the move once"
            assert len(sent_by(network, mover)) == 1, "one message from the guest"
            if session.state.is_over():
                break  # the last move also sends the deal's proof and the lobby: counted apart
            assert encodes["view"] == len(guests), "each guest's view encoded once"
            to_guests = [json.loads(text)["t"] for _f, _to, text in sent_by(network, host)]
            assert to_guests == ["view"] * len(guests), "one view to each guest, nothing else"
            assert [p.renders for p in (host, *guests)] == [1] * (1 + len(guests)), "one render per page"
            for page in guests:
                assert page.online.session.state.latest == session.state.view(seat_of(page))
                assert page.turn[0] == turn + 1, "every page shows the new turn"
            assert host.turn[0] == turn + 1
            moves += 1
        assert moves >= 3
        if session.state.is_over():
            for page in guests:
                assert page.online.session.state.is_over() and page.online.room.proof is not None

    on_own_loop(run)


def test_a_refused_move_draws_the_guests_page_once_and_changes_nothing() -> None:
    async def run() -> None:
        network, host, (guest,) = await room_at_table()
        mover = await play_until_guest(network, host, [guest])
        assert mover is guest
        mine = guest.online.session
        before = json.dumps(host.online.session.state.to_dict(), sort_keys=True)
        guest.renders = host.renders = 0
        move = str(mine.state.legal_moves()[0])
        text = json.dumps({"t": "move", "move": move, "turn_number": mine.state.turn_number + 9})
        guest.online.unanswered = mine.state.turn_number  # as if the page had sent it
        guest.online.net.send(guest.online.host_peer, text)  # a stale turn: the host refuses it
        await network.settle()
        assert json.dumps(host.online.session.state.to_dict(), sort_keys=True) == before
        assert guest.refusals and "turn" in guest.refusals[-1] and guest.renders == 1 and host.renders == 0
        assert guest.online.unanswered is None, "after a refusal the move may be played again"
        assert guest.human_move(mine, mine.state.legal_moves()[0])
        await network.settle()
        assert host.online.session.state.turn_number == mine.state.turn_number

    on_own_loop(run)


def test_chat_and_reactions_reach_every_page_and_fade_with_one_render_no_loop() -> None:
    async def run() -> None:
        network, host, (bob, cy) = await room_at_table("triangles", ("Bob", "Cy"))
        bob.fields["chat-input"] = "hello <b>all</b>"
        bob.online.action("chat-send", "")
        await network.settle()
        for page in (host, bob, cy):
            assert [line.text for line in page.online.log.lines] == ["hello <b>all</b>"]
        for page in (host, cy):  # a chat line waits a moment, so a burst is drawn once
            page.renders = 0
            assert page.run_timers() == 1 and page.renders == 1
            assert "hello &lt;b&gt;all&lt;/b&gt;" in page.markup
        bob.run_timers()  # its own line came back from the host too
        for page in (host, bob, cy):
            assert page.timers == []
            page.renders = 0
        cy.online.action("chat-react", "thumbs")
        await network.settle()
        for page in (host, bob, cy):
            page.run_timers()  # the chat's short wait, then its one render
            assert [p.key for p in page.online.log.pops] == ["thumbs"] and 'id="chat-pop-' in page.markup
            waiting = [t for t in page.timers if not t.cancelled]
            assert len(waiting) == 1, "one timer takes the faded reaction off, no redraw loop"
            assert 0 < waiting[0].due <= chat.POP_S + 0.1, "due when the reaction has faded"
            # the reaction's time is over: its timer draws the page once, and nothing waits any more
            page.online.log.pops = [
                chat.Pop(p.seat, p.key, p.at - chat.POP_S, p.number) for p in page.online.log.pops
            ]
            renders = page.renders
            assert page.run_timers() == 1 and page.renders == renders + 1
            assert 'id="chat-pop-' not in page.markup and page.timers == []

    on_own_loop(run)


def test_a_guest_leaves_and_comes_back_to_its_seat() -> None:
    async def run() -> None:
        network, host, (guest,) = await room_at_table()
        seat = seat_of(guest)
        guest.online.close()  # the guest's page reloads: its channel closes
        await network.settle()
        assert [s["status"] for s in host.online.seats if s["seat"] == seat] == ["reconnecting"]
        back = guest_page(network, host.online.code, "Bob")
        back.storage = guest.storage  # the same browser: its token
        back.online = online_join.OnlineGuest(back, host.online.code, "Bob", back)
        back.online.connect()
        await network.settle()
        assert seat_of(back) == seat and back.online.state == "playing"
        assert back.online.session.state.latest == host.online.session.state.view(seat)
        assert [s["status"] for s in host.online.seats if s["seat"] == seat] == ["connected"]
        mover = await play_until_guest(network, host, [back])
        assert mover is back
        turn = host.online.session.state.turn_number
        assert back.human_move(back.online.session, back.online.session.state.legal_moves()[0])
        await network.settle()
        assert host.online.session.state.turn_number == turn + 1

    on_own_loop(run)


def test_the_host_reloads_and_the_room_reopens_with_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(online_join, "RETRY_S", (0.0,))

    async def run() -> None:
        network, host, (guest,) = await room_at_table()
        mover = await play_until_guest(network, host, [guest])
        assert mover is guest
        code, state = host.online.code, host.online.session.state.to_dict()
        host.online.save(now=True)  # what the page does as it goes away
        host.online.close()
        await network.settle()
        assert guest.online.state in ("reconnecting", "host_left")
        mine = guest.online.session
        assert guest.human_move(mine, mine.state.legal_moves()[0]) is False
        assert guest.refusals[-1] == online_join.RECONNECTING_MOVE
        again = Page(network, "Ann")
        again.storage, again.route = host.storage, host.route
        again.online = online_host.reopen(again, "triangles", again)
        assert again.online is not None and again.online.code == code
        assert again.online.session.state.to_dict() == state
        for _ in range(20):  # the guest keeps trying to join again; the room is back
            await network.settle()
            await asyncio.sleep(0.01)
            if guest.online.state == "playing":
                break
        assert guest.online.state == "playing" and guest.online.host_peer is not None
        turn = again.online.session.state.turn_number
        assert guest.human_move(guest.online.session, guest.online.session.state.legal_moves()[0])
        await network.settle()
        assert again.online.session.state.turn_number == turn + 1, "the move reached the reopened room"
        if again.online.ticker is not None:
            again.online.ticker.cancel()

    on_own_loop(run)


EXAMPLE = "expected like 2-3-5@4,-1r1"  # Triangles' words for a text that is not a move
HOSTILE = [
    "{",
    "null",
    "[1, 2]",
    json.dumps({"t": "move"}),
    json.dumps({"t": "move", "move": "zz", "turn_number": 0}),
    json.dumps({"t": "move", "move": "pass", "turn_number": -1}),
    json.dumps({"t": "view", "view": {"seat": 0, "hand": []}}),  # a forged view: only the host sends views
    json.dumps({"t": "welcome", "seat": 0, "token": "x", "code": "ABCDEFGH", "game": "triangles"}),
    json.dumps({"t": "hello", "name": "Ann", "v": protocol.VERSION, "token": "forged"}),
    json.dumps({"t": "chat", "text": "x" * 5000}),
    json.dumps({"t": "react", "key": "<script>"}),
    json.dumps({"t": "commit", "hash": "0" * 64}),
    "x" * 70_000,
]


def test_hostile_messages_break_nothing_and_reveal_no_hidden_tile() -> None:
    async def run() -> None:
        network, host, (bob, eve) = await room_at_table("triangles", ("Bob", "Eve"))
        session = host.online.session
        evil: MemoryTransport = eve.online.net
        to_host = eve.online.host_peer
        eve_seat = seat_of(eve)
        received: list[tuple[str, dict[str, Any]]] = []  # what reached Eve, with what was hidden from her

        def watch(_from: str, to: str, text: str) -> None:
            if to == evil.id and not session.state.is_over():
                received.append((text, truth_of(session.state, eve_seat)))

        network.watch = watch
        while (mover := await play_until_guest(network, host, [bob, eve])) is eve:
            assert eve.human_move(eve.online.session, eve.online.session.state.legal_moves()[0])
            await network.settle()
        assert mover is bob, "Bob is to move: whatever Eve sends is out of her turn"
        before = json.dumps(session.state.to_dict(), sort_keys=True)
        for text in HOSTILE:
            evil.send(to_host, text)
        stranger = MemoryTransport(network, lambda event: None, lambda words: None)  # never says hello
        move = json.dumps({"t": "move", "move": "pass", "turn_number": session.state.turn_number})
        stranger.send(await stranger.join(host.online.code, {}), move)
        # moves for another seat's turn, and for this turn with a stale number
        legal = [str(m) for m in session.state.legal_moves()]
        evil.send(
            to_host, json.dumps({"t": "move", "move": legal[0], "turn_number": session.state.turn_number})
        )
        evil.send(to_host, json.dumps({"t": "move", "move": legal[0], "turn_number": 0}))
        await network.settle()
        assert json.dumps(session.state.to_dict(), sort_keys=True) == before, "junk changed the game"
        assert TROUBLE not in host.reports and host.console_lines == [], "the host's page broke"
        # the honest guest still plays
        turn = session.state.turn_number
        assert bob.human_move(bob.online.session, bob.online.session.state.legal_moves()[0])
        await network.settle()
        assert session.state.turn_number == turn + 1
        # a flood: the sender is removed for good, the room goes on
        for i in range(150):
            evil.send(to_host, json.dumps({"t": "chat", "text": f"spam {i}"}))
        await network.settle()
        host.run_timers()
        assert any("removed" in words for words in host.reports)
        assert eve.online.state == "removed"
        assert TROUBLE not in host.reports and TROUBLE not in bob.reports
        # nothing sent to the hostile page held a tile hidden from its seat; its views were its own
        assert received
        for text, truth in received:
            message = json.loads(text)
            if message["t"] == "refused":  # the move syntax's fixed example is no tile of this game
                message["reason"] = message["reason"].replace(EXAMPLE, "")
            assert not tiles_in("triangles", message, set()) & truth["hidden"], f"a leak in {message['t']}"
            if message["t"] == "view":
                assert message["view"] == truth["view"]

    on_own_loop(run)


def test_a_forged_or_foreign_view_from_the_host_changes_nothing_on_a_guests_page() -> None:
    async def run() -> None:
        network, host, (guest,) = await room_at_table()
        mine = guest.online.session
        latest = json.dumps(mine.state.latest, sort_keys=True)
        seat = seat_of(guest)
        good = host.online.session.state.view(seat)
        forged = [
            {**good, "game": "dominoes"},  # another game's view
            {**good, "seat": 1 - seat},  # another seat's
            {**good, "turn_number": "3"},  # without a number for its turn
            {**good, "legal_moves": None},
        ]
        guest.renders = 0
        for view in forged:
            try:
                text = protocol.encode("view", sender="host", view=view)
            except protocol.ProtocolError:
                continue  # the schema itself refuses it
            host.online.net.send(guest.online.net.id, text)
        await network.settle()
        assert json.dumps(mine.state.latest, sort_keys=True) == latest
        assert guest.online.session is mine and guest.online.state == "playing"
        assert TROUBLE not in guest.reports and guest.renders == 0

    on_own_loop(run)


def test_the_online_modules_never_touch_the_browser() -> None:
    """Only the page's port (ui.browser) imports js, pyscript or pyodide: ui.online runs under CPython."""
    from tests.test_layers import graph

    written, _ = graph()
    browser = {"js", "pyscript", "pyodide", "ui.browser", "ui.app"}
    wrong = {
        name: sorted(
            m for m in found if m in browser or m.split(".")[0] in browser or m.startswith("ui.browser")
        )
        for name, found in written.items()
        if name.startswith("ui.online")
    }
    assert {name: found for name, found in wrong.items() if found} == {}
    assert {"pyscript", "pyodide.ffi"} <= written["ui.browser.peer"]
