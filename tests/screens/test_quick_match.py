"""Quick match page to page under CPython: ``ui.online.quick.QuickMatch`` over the in-memory network.

Seekers that press Quick match for the same mode meet at one table (its host runs an ``OnlineHost``,
the others ``OnlineGuest``s on the channels the lobby opened); a 4-player mode with three people gets one
labelled computer; a lone seeker gets computers after the wait; Cancel leaves nothing at the broker; a
peer that vanishes while matching strands nobody; junk from a peer is refused. The table is rated only
with people in every seat. The no-leak check runs on a quick-match table too.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from boneyard.rooms import lobby
from tests.rooms.test_no_leak import tiles_in, truth_of
from tests.screens.online_pages import MemoryTransport, Network, Page
from tests.threads import on_own_loop
from ui.online import host as online_host
from ui.online import join as online_join
from ui.online import quick
from ui.routes import Route


class Clock:
    """The pages' shared clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def seeker_page(
    network: Network, clock: Clock, name: str, mode: str = "dominoes:match100-2", wait: float = 10.0
) -> Page:
    """Return a page that has pressed Quick match for ``mode`` (its key and first claim follow)."""
    chosen = quick.find_mode(mode)
    assert chosen is not None
    page = Page(network, name, Route("quick", chosen.game))
    page.online = quick.QuickMatch(page, page, chosen, wait_s=wait, clock=clock, back="#/")
    page.online.start()
    return page


async def step(network: Network, clock: Clock, pages: list[Page], seconds: float = 0.5) -> None:
    """Let ``seconds`` pass: every page's timers run once, and the network settles."""
    await network.settle()
    clock.now += seconds
    for page in pages:
        page.run_timers()
    await network.settle()


async def until(network: Network, clock: Clock, pages: list[Page], done: Any, limit: float = 60.0) -> float:
    """Step until ``done()``; return the seconds it took (fail after ``limit``)."""
    start = clock.now
    while not done():
        assert clock.now - start < limit, "it never happened"
        await step(network, clock, pages)
    return clock.now - start


def dealt(pages: list[Page]) -> bool:
    return all(getattr(p.online, "session", None) is not None for p in pages)


def lobby_ids(network: Network) -> list[str]:
    return [room for room in network.rooms if room.startswith("qm")]


def test_two_seekers_meet_at_one_rated_table_without_a_bot() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann = seeker_page(network, clock, "Ann")
        await network.settle()
        bob = seeker_page(network, clock, "Bob")
        took = await until(network, clock, [ann, bob], lambda: dealt([ann, bob]))
        assert took < 3.0, "two seekers are paired at once, not after the wait"
        host, guest = ann.online, bob.online
        assert isinstance(host, online_host.OnlineHost) and isinstance(guest, online_join.OnlineGuest)
        assert host.rated and guest.rated
        assert host.session.extra["rated"] is True and guest.session.extra["rated"] is True
        assert [s.kind for s in host.session.seats] == ["human", "guest"]
        assert guest.room.seat == 1 and guest.code == host.code
        assert not lobby_ids(network), "the lobby id was released at the start"
        assert "Rated" in ann.markup and 'id="rated-tag"' in bob.markup and "Quick match" in bob.markup
        # The guest's move reaches the host's game: an ordinary online table.
        while not guest.session.local_to_move():
            move = host.session.state.legal_moves()[0]
            assert host.human_move(host.session, move)
            await network.settle()
        before = host.session.state.turn_number
        assert guest.human_move(guest.session, guest.session.state.legal_moves()[0])
        await network.settle()
        assert host.session.state.turn_number > before

    on_own_loop(run)


def test_three_seekers_for_four_seats_get_one_labelled_bot_and_no_rating() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        mode = "dominoes:match100-4"
        pages = [seeker_page(network, clock, "Ann", mode)]
        await network.settle()
        pages += [seeker_page(network, clock, name, mode) for name in ("Bob", "Cat")]
        took = await until(network, clock, pages, lambda: dealt(pages))
        assert 9.5 <= took <= 12.0, f"the fourth seat waited the 10 s ({took})"
        host = pages[0].online
        kinds = [s.kind for s in host.session.seats]
        assert kinds.count("computer") == 1 and kinds.count("guest") == 2
        bot = next(s for s in host.session.seats if s.kind == "computer")
        assert bot.name.startswith("Computer")
        assert not host.rated and all(not p.online.rated for p in pages)
        for page in pages[1:]:
            assert page.online.session.extra["rated"] is False
            assert "Not rated: a computer plays" in page.markup
            assert "Computer" in page.markup  # the bot's seat says so
        seats = sorted(p.online.room.seat for p in pages[1:])
        assert seats == sorted(i for i, s in enumerate(host.session.seats) if s.kind == "guest")

    on_own_loop(run)


def test_a_lone_seeker_gets_bots_after_the_wait_setting() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann = seeker_page(network, clock, "Ann", "triangles:game-3", wait=5.0)
        await network.settle()
        assert ann.online.kind == "quick"
        ann.request_render()
        assert "Looking for players" in ann.markup and "Triangles · 3 players" in ann.markup
        took = await until(network, clock, [ann], lambda: dealt([ann]))
        assert 4.5 <= took <= 6.0, took
        host = ann.online
        assert [s.kind for s in host.session.seats] == ["human", "computer", "computer"]
        assert not host.rated and "Not rated" in ann.markup
        assert not lobby_ids(network)

    on_own_loop(run)


def test_the_looking_screen_counts_the_time_and_shows_who_joined() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        mode = "heptalion:hidden-3"
        ann = seeker_page(network, clock, "Ann", mode)
        await network.settle()
        await step(network, clock, [ann], 2.0)
        ann.request_render()
        assert ">0:02<" in ann.markup
        bob = seeker_page(network, clock, "Bob", mode)
        await step(network, clock, [ann, bob])
        ann.request_render()
        bob.request_render()
        assert "Bob" in ann.markup and ann.markup.count("Waiting for a player") == 1
        assert bob.markup.count("A player") >= 1 and "Heptalion · 3 players, hidden hands" in bob.markup

    on_own_loop(run)


def test_cancel_leaves_nothing_at_the_broker() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann = seeker_page(network, clock, "Ann")
        await network.settle()
        bob = seeker_page(network, clock, "Bob", "dominoes:match100-3")
        cat = seeker_page(network, clock, "Cat", "dominoes:match100-3")
        await step(network, clock, [ann, bob, cat])
        assert len(lobby_ids(network)) == 2
        seated = bob.online.seeker.phase == lobby.HOSTING
        for page in (ann, bob, cat):
            page.online.action("quick-cancel", "")
            assert page.online is None
        await network.settle()
        assert not lobby_ids(network)
        assert not network.rooms
        assert seated or cat.online is None
        # Nothing keeps running: no timer or task of a cancelled match does anything.
        await step(network, clock, [ann, bob, cat], 30.0)
        assert not network.rooms

    on_own_loop(run)


def test_a_seeker_that_vanishes_while_matching_strands_nobody() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        mode = "dominoes:match100-3"
        ann = seeker_page(network, clock, "Ann", mode)
        await network.settle()
        bob = seeker_page(network, clock, "Bob", mode)
        await until(network, clock, [ann, bob], lambda: getattr(ann.online.seeker, "filled", 0) == 2)
        bob.online.net.close()  # Bob's page is gone (its timers with it)
        took = await until(network, clock, [ann], lambda: dealt([ann]))
        assert took <= 12.0
        assert [s.kind for s in ann.online.session.seats] == ["human", "computer", "computer"]
        # The host vanishes instead: the seated joiner starts over and ends at a table of its own.
        network2, clock2 = Network(), Clock()
        cat = seeker_page(network2, clock2, "Cat", mode)
        await network2.settle()
        dan = seeker_page(network2, clock2, "Dan", mode)
        await until(
            network2, clock2, [cat, dan], lambda: getattr(dan.online.seeker, "phase", "") == lobby.SEATED
        )
        cat.online.net.close()
        await until(network2, clock2, [dan], lambda: dealt([dan]), limit=45.0)
        assert isinstance(dan.online, online_host.OnlineHost)

    on_own_loop(run)


def test_junk_from_a_peer_at_the_lobby_is_refused_and_the_match_goes_on() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann = seeker_page(network, clock, "Ann")
        await network.settle()
        lobby_id = lobby_ids(network)[0]
        evil = MemoryTransport(network, lambda event: None, lambda words: None)
        host_peer = await evil.join(lobby_id, {})
        for junk in ("junk", "{}", json.dumps({"t": "seek"}), "x" * 5000):
            evil.send(host_peer, junk)
        await network.settle()
        told = [json.loads(t) for f, to, t in network.sent if to == evil.id]
        assert told and told[0]["t"] == "no"
        assert host_peer not in evil.peers or evil.id not in network.rooms[lobby_id].peers
        assert ann.online.seeker.filled == 1
        bob = seeker_page(network, clock, "Bob")
        await until(network, clock, [ann, bob], lambda: dealt([ann, bob]))
        assert ann.online.rated

    on_own_loop(run)


@pytest.mark.parametrize("mode", ["dominoes:match100-2", "heptalion:hidden-2", "triangles:game-2"])
def test_no_hidden_tile_reaches_a_quick_match_guest(mode: str) -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann = seeker_page(network, clock, "Ann", mode)
        await network.settle()
        pages = [ann, seeker_page(network, clock, "Bob", mode)]
        received: list[tuple[str, dict[str, Any] | None]] = []

        def watch(_from: str, to: str, text: str) -> None:
            online = ann.online
            session = getattr(online, "session", None)
            if (
                isinstance(online, online_host.OnlineHost)
                and session is not None
                and not session.state.is_over()
            ):
                seat = online.room.seat_of(to)
                received.append((text, truth_of(session.state, seat) if seat is not None else None))

        network.watch = watch
        await until(network, clock, pages, lambda: dealt(pages))
        host = ann.online
        for _ in range(30):
            session = host.session
            if session.state.is_over():
                break
            if session.local_to_move():
                host.human_move(session, session.state.legal_moves()[0])
            elif pages[1].online.session.local_to_move():
                guest = pages[1].online
                guest.human_move(guest.session, guest.session.state.legal_moves()[0])
            await step(network, clock, pages)
        checked = 0
        for text, truth in received:
            if truth is None:
                continue
            message = json.loads(text)
            assert not tiles_in(truth["game"], message, set()) & truth["hidden"], f"a leak in {message['t']}"
            checked += 1
        assert checked >= 5

    on_own_loop(run)


def test_the_results_say_whether_a_quick_match_was_rated() -> None:
    from types import SimpleNamespace

    from ui import kit

    assert str(kit.rated_line(SimpleNamespace(extra={}))) == ""  # not a quick match: nothing
    assert "Rated game" in str(kit.rated_line(SimpleNamespace(extra={"rated": True})))
    assert "Not rated: a computer plays" in str(kit.rated_line(SimpleNamespace(extra={"rated": False})))


def test_an_unreachable_broker_is_said_in_words_with_try_again() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()

        class Down(MemoryTransport):
            async def host(self, room_id: str, config: dict[str, Any]) -> None:
                raise ConnectionError("network")

        ann = Page(network, "Ann", Route("quick", "dominoes"))
        ann.transport = lambda handler, report: Down(network, handler, report)  # type: ignore[method-assign]
        mode = quick.find_mode("dominoes:match100-2")
        assert mode is not None
        ann.online = quick.QuickMatch(ann, ann, mode, clock=clock)
        ann.online.start()
        await step(network, clock, [ann])
        ann.request_render()
        assert 'data-quick-state="failed"' in ann.markup and "the broker cannot be reached" in ann.markup
        assert 'id="quick-retry"' in ann.markup
        del ann.transport  # the network is back
        ann.online.action("quick-retry", "")
        await step(network, clock, [ann])
        assert ann.online.seeker.phase == lobby.HOSTING and lobby_ids(network)

    on_own_loop(run)


async def quick_table(network: Network, clock: Clock) -> tuple[Page, Page]:
    """Return Ann's page hosting and Bob's joining a dealt two-player Dominoes quick table."""
    ann = seeker_page(network, clock, "Ann")
    await network.settle()
    bob = seeker_page(network, clock, "Bob")
    await until(network, clock, [ann, bob], lambda: dealt([ann, bob]))
    return ann, bob


def reloaded(page: Page) -> Page:
    """Return the page ``page`` becomes after a reload at ``#/quick/<game>``: its pagehide save written,
    its channels gone, the same storage, and the app's quick screen taking the table back (``resume``)."""
    page.online.save(now=True)
    page.online.net.close()  # the page is gone: no goodbye, the other side sees the channel close
    again = Page(page.network, page.name, Route("quick", page.route.arg), storage=page.storage)
    again.online = quick.resume(again, page.route.arg, again)
    return again


async def play_round(host: Page, guest: Page, network: Network) -> None:
    """Play until the guest has moved once, and check the host's game took the guest's move."""
    while not guest.online.session.local_to_move():
        assert host.online.human_move(host.online.session, host.online.session.state.legal_moves()[0])
        await network.settle()
    before = host.online.session.state.turn_number
    assert guest.online.human_move(guest.online.session, guest.online.session.state.legal_moves()[0])
    await network.settle()
    assert host.online.session.state.turn_number > before


def test_a_quick_table_registers_its_room_code_once_the_lobby_id_is_released() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, bob = await quick_table(network, clock)
        assert list(network.rooms) == [ann.online.code] and bob.online.code == ann.online.code
        assert bob.online.host_peer == ann.online.net.id  # the lobby's channel carries the game

    on_own_loop(run)


def test_a_quick_table_host_reloaded_takes_its_table_back(monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, bob = await quick_table(network, clock)
        await play_round(ann, bob, network)
        turn = ann.online.session.state.turn_number
        ann.online.save(now=True)
        ann.online.net.close()
        await network.settle()
        assert bob.online.state == "reconnecting" and "The host is reconnecting" in bob.markup
        if bob.online.session.local_to_move():  # a move while the host reconnects is refused
            assert not bob.online.human_move(bob.online.session, bob.online.session.state.legal_moves()[0])
            assert bob.refusals[-1] == online_join.RECONNECTING_MOVE
        again = Page(network, "Ann", Route("quick", "dominoes"), storage=ann.storage)
        again.online = quick.resume(again, "dominoes", again)
        host = again.online
        assert isinstance(host, online_host.OnlineHost) and host.quick is not None and host.rated
        await network.settle()
        assert host.status == "open" and list(network.rooms) == [host.code]
        for _ in range(20):  # Bob's page knocks again (retries shortened)
            await asyncio.sleep(0.01)
            await network.settle()
            if bob.online.state == "playing":
                break
        assert bob.online.state == "playing" and host.session.state.turn_number == turn
        again.request_render()
        assert "Rated" in again.markup and host.seats[1]["status"] == "connected"
        await play_round(again, bob, network)

    monkeypatch.setattr(online_join, "RETRY_S", (0.01,))
    on_own_loop(run)


def test_a_quick_table_guest_reloaded_takes_its_seat_back() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, bob = await quick_table(network, clock)
        await play_round(ann, bob, network)
        seat, turn = bob.online.room.seat, ann.online.session.state.turn_number
        again = reloaded(bob)
        guest = again.online
        assert isinstance(guest, quick.QuickGuest) and guest.rated and guest.code == ann.online.code
        await network.settle()
        assert guest.state == "playing" and guest.room.seat == seat
        assert guest.session.state.turn_number == turn and guest.session.extra["rated"] is True
        again.request_render()
        assert "Rated" in again.markup
        await play_round(ann, again, network)

    on_own_loop(run)


def test_an_old_or_finished_quick_table_is_not_taken_up_again() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, bob = await quick_table(network, clock)
        ann.online.save(now=True)
        bob.online.save(now=True)
        later = time.time() + quick.RESUME_S + 1
        for page in (ann, bob):
            stale = Page(network, page.name, Route("quick", "dominoes"), storage=page.storage)
            assert quick.resume(stale, "dominoes", stale, now=later) is None
        assert online_host.HOST_KEY + "dominoes" not in ann.storage.items  # abandoned: gone
        assert quick.QUICK_KEY + "dominoes" not in bob.storage.items

    on_own_loop(run)


def test_a_quick_tables_save_never_reopens_as_a_friends_room() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, _ = await quick_table(network, clock)
        ann.online.save(now=True)
        key = online_host.HOST_KEY + "dominoes"
        page = Page(network, "Ann", Route("room", "dominoes"), storage=ann.storage)
        assert online_host.saved_quick(page, "dominoes") is not None
        assert online_host.reopen(page, "dominoes", page) is None and key in page.storage.items
        # A save of the first quick match code said nothing of quick match: its game is marked rated.
        data = json.loads(page.storage.items[key])
        del data["quick"]
        page.storage.items[key] = json.dumps(data)
        assert online_host.saved_quick(page, "dominoes") == {}
        assert online_host.reopen(page, "dominoes", page) is None
        assert quick.resume(page, "dominoes", page) is None and key not in page.storage.items
        # A friends' room's save still reopens as one.
        friends = Page(network, "Ann", Route("room", "triangles"))
        screen = friends.screen("triangles")
        room = online_host.OnlineHost.create(
            friends, quick.GAMES["triangles"], screen, {"players": "2"}, friends
        )
        room.write()
        assert online_host.saved_quick(friends, "triangles") is None
        assert quick.resume(friends, "triangles", friends) is None
        assert online_host.reopen(friends, "triangles", friends) is not None

    on_own_loop(run)


def test_a_joiner_that_never_says_hello_gets_a_computer_and_the_table_is_not_rated() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        mode = "triangles:game-3"

        class Mute(MemoryTransport):
            def send(self, peer: str, text: str) -> bool:
                return False if '"hello"' in text else super().send(peer, text)

        pages = [seeker_page(network, clock, "Ann", mode)]
        await network.settle()
        pages += [seeker_page(network, clock, "Bob", mode)]
        await until(
            network, clock, pages, lambda: getattr(pages[1].online.seeker, "phase", "") == lobby.SEATED
        )
        cat = seeker_page(network, clock, "Cat", mode)
        cat.transport = lambda handler, report: Mute(network, handler, report)  # type: ignore[method-assign]
        took = await until(network, clock, [*pages, cat], lambda: dealt(pages))
        assert quick.HELLO_S <= took <= quick.HELLO_S + 2.0, took
        host, bob = pages[0].online, pages[1].online
        assert [s.kind for s in host.session.seats].count("computer") == 1
        assert not host.rated and not bob.rated and bob.session.extra["rated"] is False

    on_own_loop(run)


def test_a_seeker_that_finds_nobody_gives_up_after_45_s_in_words_and_leaves_nothing_at_the_broker() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        # Every lobby slot is held by a page that never answers (vanished, or hostile and silent).
        squatters = [MemoryTransport(network, lambda event: None, lambda words: None) for _ in range(3)]
        for slot, squatter in enumerate(squatters):
            await squatter.host(lobby.lobby_id("dominoes", "match100", 2, slot), {})
        ann = seeker_page(network, clock, "Ann")
        await network.settle()
        took = await until(network, clock, [ann], lambda: ann.online.seeker.phase == lobby.GAVE_UP)
        assert lobby.Config().give_up_s <= took <= lobby.Config().give_up_s + 1.0, took
        ann.request_render()
        assert (
            'data-quick-state="failed"' in ann.markup and "nobody could be reached to play with" in ann.markup
        )
        assert 'id="quick-retry"' in ann.markup and "Try again" in ann.markup
        assert ann.online.net is None and not ann.timers, "no channel, no claim, no timer left"
        assert sorted(network.rooms.values(), key=id) == sorted(squatters, key=id), "nothing of Ann's"
        assert not any(s.peers for s in squatters), "every channel Ann opened is closed"

    on_own_loop(run)


def test_a_quick_match_guest_whose_host_leaves_is_told_the_game_cannot_go_on() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, bob = await quick_table(network, clock)
        ann.online.leave()  # the host's Leave (a reload says nothing: the guest knocks until it is back)
        await step(network, clock, [bob])
        assert bob.online.state == "host_left" and "it cannot go on" in bob.markup
        await step(network, clock, [bob], 10.0)
        assert bob.online.joining is None, "the guest does not knock at a table nobody will reopen"

    on_own_loop(run)


def test_a_quick_table_left_on_purpose_is_not_taken_up_again() -> None:
    async def run() -> None:
        network, clock = Network(), Clock()
        ann, bob = await quick_table(network, clock)
        bob.online.leave()
        ann.online.leave()
        assert not any(
            key.startswith("boneyard:online:") for key in {**ann.storage.items, **bob.storage.items}
        )
        for page in (ann, bob):
            assert quick.resume(page, "dominoes", page) is None, "Quick match offers a new table"

    on_own_loop(run)
