"""A rated game at an online table, page to page under CPython: chains go round, each page shows the
others' verified ratings, the start and the result are signed by everyone, and each page keeps the signed
record and shows the change; a player who stays away past the grace loses by forfeit; a hostile peer's
forged signature, tampered chain, replayed record, oversized chain or malformed message is refused with
nothing stored.
"""

from __future__ import annotations

import asyncio
import copy
import json
import time
from typing import Any

import pytest

from boneyard import rating
from boneyard.rooms import protocol
from boneyard.rooms import rated as rated_room
from tests.identity import FakeIdentity
from tests.screens.online_pages import Network, Page, guest_page, host_page, room_at_table, seat_of
from tests.test_rating import ANN, BEN, game, verify
from tests.threads import on_own_loop
from ui import rated as book
from ui.online import host as online_host
from ui.online import join as online_join
from ui.online.rated_table import rated_note


def chain_of(page: Page, game_id: str = "triangles") -> list[Any]:
    text = page.storage.get(book.CHAIN_KEY + game_id)
    return json.loads(text) if text else []


async def play_out(network: Network, host: Page, guests: list[Page], stop_after: int = 10_000) -> None:
    """Play the game to its end (or ``stop_after`` moves), every person choosing their first legal move."""
    session = host.online.session
    for _ in range(stop_after):
        if session.state.is_over():
            return
        seat = session.to_move()
        mover = next((p for p in guests if seat_of(p) == seat), host)
        mine = mover.online.session
        assert mover.online.human_move(mine, mine.state.legal_moves()[0])
        await network.settle()


async def rated_at_table(guests: tuple[str, ...] = ("Bob",)) -> tuple[Network, Page, list[Page]]:
    network, host, pages = await room_at_table("triangles", guests, rated=True)
    await network.settle()
    return network, host, pages


def test_a_rated_game_is_signed_by_both_and_each_page_keeps_it_and_shows_the_change() -> None:
    async def run() -> None:
        network, host, (guest,) = await rated_at_table()
        for page in (host, guest):
            table = page.online.rated_table
            assert table is not None and table.start_sigs is not None
            assert table.start_sigs.missing() == [], "the start is signed by both"
            assert all(check.verified for check in table.checks.values())
            page.request_render()
            assert 'data-rated="on"' in page.markup and "25.0" in page.markup and "± 16.7" in page.markup
            fingerprint = rating.fingerprint(page.identity().player.key)
            assert fingerprint in host.markup and fingerprint in guest.markup
        # What the host's page saw of Bob's chain is sealed with the host's key (Stats checks it).
        bob = guest.identity().player.key
        proved = book.seen(host.storage)[bob]["games"]["triangles"]
        text = book.seal_text(bob, "triangles", "Bob", proved).encode()
        assert proved["verified"] and verify(
            rating.Signature(host.identity().player.key, text, proved["seal"])
        )
        await play_out(network, host, [guest])
        chains = [chain_of(host), chain_of(guest)]
        assert len(chains[0]) == 1 and chains[0] == chains[1], "both keep the same record, signed by both"
        signed = chains[0][0]
        for page in (host, guest):
            check = rating.check_chain(page.identity().player.key, "triangles", [signed], verify)
            assert check.verified
            note = rated_note(page.online.session)
            assert note is not None and note.startswith("Rated: your Triangles rating 25.0 ± 16.7 → ")
            page.request_render()
            assert "Result signed by all and kept." in page.markup
        assert signed["record"]["forfeit"] is None and signed["record"]["moves"] == rated_room.moves_digest(
            host.online.session.moves
        )
        # The next game at the same table starts from the ratings those records support.
        host.online.action("room-again", "")
        await network.settle()
        await network.settle()
        ann = rating.check_chain(host.identity().player.key, "triangles", chains[0], verify).rating
        start = host.online.rated_table.start
        assert start is not None and rating.Rating(*start["before"][0]).close_to(ann)

    on_own_loop(run)


async def hostile_room(
    change: Any = None, *, guests: tuple[str, ...] = ("Bob",), setup: Any = None
) -> tuple[Network, Page, list[Page]]:
    """Return a rated table dealt, its first guest's rated messages passed through ``change`` (kind,
    fields) -> (kind, fields) on their way out, and ``setup(host, guests)`` done before the deal."""
    network = Network()
    host = host_page(network, "triangles", players=1 + len(guests), rated=True)
    await network.settle()
    pages = []
    for name in guests:
        pages.append(guest_page(network, host.online.code, name))
        await network.settle()
    if setup is not None:
        setup(host, pages)
    if change is not None:
        honest = pages[0].online.send_rated

        def send(kind: str, fields: dict[str, Any], skip: int | None) -> None:
            honest(*change(kind, copy.deepcopy(fields)), skip)

        pages[0].online.send_rated = send
    host.online.action("room-start", "")
    await network.settle()
    await network.settle()
    return network, host, pages


def stored_nothing(*pages: Page) -> bool:
    return all(book.CHAIN_KEY + "triangles" not in page.storage.items for page in pages)


def test_a_forged_signature_is_refused_and_nothing_is_stored() -> None:
    async def run() -> None:
        def forger(host: Page, guests: list[Page]) -> None:
            guests[0].ident = FakeIdentity("Bob", forge=True)

        network, host, (guest,) = await hostile_room(setup=forger)
        table = host.online.rated_table
        assert table.start_sigs.missing() == [1] and any("does not verify" in r for r in table.refused)
        await play_out(network, host, [guest])
        assert stored_nothing(host, guest)
        assert rated_note(host.online.session) == "Not rated: not everyone signed the start."
        host.request_render()
        assert 'data-rated="off"' in host.markup

    on_own_loop(run)


def seed(page: Page, player: Any, chain: list[Any]) -> None:
    page.ident = FakeIdentity(player.name)
    page.ident.player = player
    page.storage.set(book.CHAIN_KEY + "triangles", json.dumps(chain))


def triangles_season() -> list[Any]:
    """Return Ann's chain of three Triangles games against Ben (she wins two)."""
    chain = []
    ann, ben = rating.default_rating(), rating.default_rating()
    for number, placings in enumerate(([1, 2], [2, 1], [1, 2])):
        at = f"2026-11-0{number + 1}T10:00:00Z"
        chain.append(game([ANN, BEN], [ann, ben], placings, at, game_id="triangles"))
        ann, ben = rating.rate([ann, ben], placings, None)
    return chain


def test_the_others_recompute_a_verified_chain_and_the_start_carries_that_rating() -> None:
    async def run() -> None:
        chain = triangles_season()
        network, host, (guest,) = await hostile_room(setup=lambda h, g: seed(g[0], ANN, chain))
        expected = rating.check_chain(ANN.key, "triangles", chain, verify).rating
        check = host.online.rated_table.checks[1]
        assert check.verified and check.counted == 3 and check.rating == expected
        host.request_render()
        assert f"{expected.mu:.1f}" in host.markup and f"± {2 * expected.sigma:.1f}" in host.markup
        seen = book.seen(host.storage)[ANN.key]["games"]["triangles"]
        assert seen["verified"] and seen["counted"] == 3
        await play_out(network, host, [guest])
        assert len(chain_of(guest)) == 4 and len(chain_of(host)) == 1

    on_own_loop(run)


def tampered(kind: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if kind == "link":
        fields["records"][1]["record"]["before"][0] = [40.0, 2.0]
    return kind, fields


def replayed(kind: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if kind == "link":
        fields["records"][2] = copy.deepcopy(fields["records"][0])
    return kind, fields


def test_a_tampered_or_replayed_chain_shows_unverified_counts_its_good_part_and_stores_nothing() -> None:
    for change, words, counted in (
        (tampered, "signature does not verify", 1),
        (replayed, "repeats an earlier record", 2),
    ):

        async def run(change: Any = change, words: str = words, counted: int = counted) -> None:
            chain = triangles_season()
            network, host, (guest,) = await hostile_room(change, setup=lambda h, g: seed(g[0], ANN, chain))
            check = host.online.rated_table.checks[1]
            assert not check.verified and words in check.problem and check.counted == counted
            host.request_render()
            assert "unverified" in host.markup
            assert book.seen(host.storage)[ANN.key]["games"]["triangles"]["verified"] is False
            # The liar's own page sees another rating at the start than it sent: it signs nothing.
            assert guest.online.rated_table.problem.startswith("the start's ratings")
            await play_out(network, host, [guest])
            assert stored_nothing(host) and chain_of(guest) == chain

        on_own_loop(run)


def test_an_oversized_or_malformed_message_is_refused_by_the_room_and_changes_nothing() -> None:
    async def run() -> None:
        network, host, (guest,) = await hostile_room()
        table = host.online.rated_table
        before = (dict(table.checks), dict(table.start_sigs.sigs))
        texts = [
            json.dumps({"t": "chain", "game": "triangles", "count": rating.MAX_CHAIN + 1}),
            json.dumps({"t": "sign", "stage": "start", "sig": "!!"}),
            json.dumps({"t": "link", "n": 0, "records": [{"record": {}, "sigs": [], "start_sigs": []}]}),
            '{"t":"link","t":"chat","text":"' + "x" * protocol.MAX_FROM_GUEST + '"}',
        ]
        for text in texts:
            guest.online.net.send(guest.online.host_peer, text)
        await network.settle()
        refusals = [json.loads(t) for f, _to, t in network.sent if f == host.online.net.id]
        assert sum(1 for m in refusals if m["t"] == "refused") == len(texts)
        # Well formed but out of turn: a second chain, a signature of another text, a start from a guest.
        for kind, fields in (
            ("chain", {"game": "triangles", "count": 0, "key": BEN.key}),
            ("sign", {"stage": "start", "sig": BEN.sign(b"something else")}),
        ):
            guest.online.net.send(guest.online.host_peer, protocol.encode(kind, sender="guest", **fields))
        await network.settle()
        assert (dict(table.checks), dict(table.start_sigs.sigs)) == before
        assert any("nobody asked for" in r for r in table.refused)
        await play_out(network, host, [guest])
        assert len(chain_of(host)) == len(chain_of(guest)) == 1, "the game itself stays rated"

    on_own_loop(run)


def test_a_player_who_stays_away_past_the_grace_loses_by_forfeit() -> None:
    async def run() -> None:
        network, host, (bob, cy) = await rated_at_table(("Bob", "Cy"))
        bob.online.close()  # gone for good
        await network.settle()
        room = host.online.room
        host.online.handle(room.tick(time.monotonic() + room.hold_s + 1))
        await network.settle()
        await network.settle()
        (signed,) = chain_of(host)
        assert chain_of(cy) == [signed] and chain_of(bob) == []
        record = signed["record"]
        assert record["forfeit"] == 1 and record["placings"] == [1, 3, 1]
        assert signed["sigs"][1] is None and all(signed["start_sigs"])
        check = rating.check_chain(cy.identity().player.key, "triangles", [signed], verify)
        assert check.verified and check.rating.mu > 25
        assert "Rated: your Triangles rating" in (rated_note(cy.online.session) or "")

    on_own_loop(run)


async def host_gone(network: Network, host: Page, guests: list[Page], *, past_grace: bool = True) -> None:
    """Play a few moves, then close the host's page (its room saved) and let every guest's grace pass."""
    await play_out(network, host, guests, stop_after=3)
    host.online.save(now=True)
    host.online.close()
    await network.settle()
    for guest in guests:
        assert guest.online.rated_table.host_timer is not None, "the grace runs"
        if past_grace:
            guest.run_timers()
    await network.settle()


def reloaded(network: Network, page: Page) -> Page:
    """Return the page after a reload: the same browser's storage and key, nothing else."""
    again = Page(network, page.name, page.route)
    again.storage, again.ident = page.storage, page.ident
    return again


def test_a_host_who_stays_away_past_the_grace_loses_by_forfeit_signed_by_the_guest() -> None:
    async def run() -> None:
        network, host, (bob,) = await rated_at_table()
        await host_gone(network, host, [bob])
        (signed,) = chain_of(bob)
        assert chain_of(host) == []
        record = signed["record"]
        assert record["forfeit"] == 0 and record["placings"] == [2, 1]
        assert signed["sigs"][0] is None and all(signed["start_sigs"]) and signed["sigs"][1]
        check = rating.check_chain(bob.identity().player.key, "triangles", [signed], verify)
        assert check.verified and check.rating.mu > 25
        ann = rating.check_chain(host.identity().player.key, "triangles", [signed], verify)
        assert ann.verified and ann.rating.mu < 25, "the forfeiter's loss, should it ever carry it"
        assert "Rated: your Triangles rating" in (rated_note(bob.online.session) or "")
        bob.request_render()
        assert f"Ann left: their loss; your rating 25.0 → {check.rating.mu:.1f}." in bob.markup
        # The bar says the game is over, not "The host is reconnecting…" beside the recorded forfeit.
        assert bob.online.bar_note().startswith("The host left and lost the rated game: it is over.")
        bob.online.close()

    on_own_loop(run)


def test_a_host_gone_from_three_leaves_each_guest_a_forfeit_signed_by_itself() -> None:
    async def run() -> None:
        network, host, guests = await rated_at_table(("Bob", "Cy"))
        await host_gone(network, host, guests)
        bob, cy = (chain_of(page) for page in guests)
        assert len(bob) == len(cy) == 1 and bob[0]["record"] == cy[0]["record"]
        assert bob[0]["record"]["forfeit"] == 0 and bob[0]["record"]["placings"] == [3, 1, 1]
        assert [sig is not None for sig in bob[0]["sigs"]] == [False, True, False]
        assert [sig is not None for sig in cy[0]["sigs"]] == [False, False, True]
        for page, chain in zip(guests, (bob, cy)):
            check = rating.check_chain(page.identity().player.key, "triangles", chain, verify)
            assert check.verified and check.rating.mu > 25
        # Each counts for its signer only: Bob's record in Cy's chain does not hold.
        other = rating.check_chain(guests[1].identity().player.key, "triangles", bob, verify)
        assert "its owner did not sign the result" in other.problem
        for page in guests:
            page.online.close()

    on_own_loop(run)


def test_a_host_gone_after_the_last_move_is_no_forfeit_the_game_goes_unrated() -> None:
    async def run() -> None:
        network, host, (bob,) = await rated_at_table()
        host.online.rated_table.finish = lambda session: None  # the host leaves before sending the result
        await play_out(network, host, [bob])
        assert bob.online.session.state.is_over()
        host.online.close()
        await network.settle()
        bob.run_timers()
        await network.settle()
        assert chain_of(bob) == [] and bob.online.rated_table.end is None
        assert rated_note(bob.online.session) == "Not rated: the host left before the result was signed."
        bob.online.close()

    on_own_loop(run)


def test_a_guest_reloaded_while_its_host_is_gone_still_records_the_forfeit(monkeypatch: Any) -> None:
    monkeypatch.setattr(online_join, "RETRY_S", (60.0,))

    async def run() -> None:
        network, host, (bob,) = await rated_at_table()
        await host_gone(network, host, [bob], past_grace=False)
        bob.online.close()  # the guest's page reloads: the same browser, the host still gone
        back = reloaded(network, bob)
        back.online = online_join.OnlineGuest(back, host.online.code, "Bob", back)
        back.online.connect()
        await network.settle()
        assert back.online.rated_table is not None and back.online.rated_table.host_timer is not None
        back.run_timers()
        await network.settle()
        (signed,) = chain_of(back)
        assert signed["record"]["forfeit"] == 0
        back.online.close()

    on_own_loop(run)


def test_a_host_back_within_the_grace_keeps_the_game_going_and_rated(monkeypatch: Any) -> None:
    monkeypatch.setattr(online_join, "RETRY_S", (0.0,))

    async def run() -> None:
        network, host, (bob,) = await rated_at_table()
        await host_gone(network, host, [bob], past_grace=False)
        timer = bob.online.rated_table.host_timer
        again = reloaded(network, host)
        again.online = online_host.reopen(again, "triangles", again)
        for _ in range(20):
            await network.settle()
            await asyncio.sleep(0.01)
            if bob.online.state == "playing":
                break
        assert timer.cancelled and bob.online.rated_table.host_timer is None
        bob.run_timers()
        await network.settle()
        assert chain_of(bob) == [], "no forfeit: the host came back in time"
        await play_out(network, again, [bob])
        assert len(chain_of(bob)) == 1 and chain_of(bob) == chain_of(again)
        assert chain_of(bob)[0]["record"]["forfeit"] is None
        if again.online.ticker is not None:
            again.online.ticker.cancel()

    on_own_loop(run)


def test_a_game_with_a_computer_at_a_rated_table_is_not_rated_and_the_results_say_so() -> None:
    async def run() -> None:
        network = Network()
        host = host_page(network, "triangles", players=3, rated=True)
        await network.settle()
        guest = guest_page(network, host.online.code, "Bob")
        await network.settle()
        host.online.change("seat:2", "bot:easy")
        host.online.action("room-start", "")
        await network.settle()
        session = host.online.session
        assert session is not None and host.online.rated_table is None
        assert guest.online.rated_table is None
        assert rated_note(session) == "Not rated: a computer played."
        from ui.kit import rated_line

        assert "Not rated: a computer played." in rated_line(session)  # the results' rated line says it
        assert not any('"chain"' in text for _f, _t, text in network.sent)

    on_own_loop(run)


def test_a_reopened_room_stays_rated() -> None:
    async def run() -> None:
        network = Network()
        host = host_page(network, "triangles", players=2, rated=True)
        await network.settle()
        host.online.write()
        host.close_online()
        again = online_host.reopen(host, "triangles", host)
        assert again is not None and again.rated
        again.close()

    on_own_loop(run)


def test_a_guest_or_the_host_reloaded_during_a_rated_game_goes_on_and_both_keep_the_record(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(online_join, "RETRY_S", (0.0,))

    async def run() -> None:
        network, host, (guest,) = await rated_at_table()
        await play_out(network, host, [guest], stop_after=4)
        # The guest's page reloads: the same browser (storage, key) joins again and takes its seat back.
        guest.online.close()
        await network.settle()
        back = reloaded(network, guest)
        back.online = online_join.OnlineGuest(back, host.online.code, "Bob", back)
        back.online.connect()
        await network.settle()
        assert back.online.rated_table is not None and back.online.rated_table.start_sigs.missing() == []
        await play_out(network, host, [back], stop_after=4)
        # Then the host's page reloads and reopens the room with its rated game.
        host.online.save(now=True)
        host.online.close()
        await network.settle()
        again = reloaded(network, host)
        again.online = online_host.reopen(again, "triangles", again)
        assert again.online is not None and again.online.rated_table is not None
        for _ in range(20):
            await network.settle()
            await asyncio.sleep(0.01)
            if back.online.state == "playing":
                break
        await play_out(network, again, [back])
        assert len(chain_of(again)) == 1 and chain_of(again) == chain_of(back)
        assert rated_note(back.online.session) is not None
        if again.online.ticker is not None:
            again.online.ticker.cancel()

    on_own_loop(run)


def private(host: Page, guests: list[Page]) -> None:
    guests[0].ident = FakeIdentity("Bob", keyless=True)  # a browser without IndexedDB


def test_a_chain_without_a_key_leaves_the_game_unrated_and_says_who() -> None:
    async def run() -> None:
        def keyless(kind: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
            fields.pop("key", None)
            return kind, fields

        for change, setup in ((keyless, None), (None, private)):
            network, host, (guest,) = await hostile_room(change, setup=setup)
            table = host.online.rated_table
            assert table.start is None and table.problem == "Bob brought no key"
            await play_out(network, host, [guest])
            assert stored_nothing(host, guest)
            assert rated_note(host.online.session) == "Not rated: Bob brought no key."
        assert guest.online.rated_table.problem.startswith("this browser keeps no key")

    on_own_loop(run)


@pytest.mark.parametrize(
    ("game_id", "guests"),
    [("dominoes", ("Bob",)), ("dominoes", ("Bob", "Cy", "Di")), ("heptalion", ("Bob",))],
)
def test_every_game_with_turns_is_rated_for_every_person_at_the_table(
    game_id: str, guests: tuple[str, ...]
) -> None:
    async def run() -> None:
        network, host, pages = await room_at_table(game_id, guests, rated=True)
        await network.settle()
        await play_out(network, host, pages)
        chains = [chain_of(page, game_id) for page in (host, *pages)]
        assert all(len(chain) == 1 and chain == chains[0] for chain in chains)
        for page in (host, *pages):
            check = rating.check_chain(page.identity().player.key, game_id, chains[0], verify)
            assert check.verified and check.counted == 1

    on_own_loop(run)


def test_partners_are_rated_as_two_sides() -> None:
    async def run() -> None:
        from boneyard.games import GAMES
        from ui.games import screen_for
        from ui.routes import Route

        network = Network()
        host = Page(network, "Ann", Route("room", "dominoes"))
        screen = screen_for("dominoes")
        form = {"players": "4", "teams": "yes"}
        host.online = online_host.OnlineHost.create(host, GAMES["dominoes"], screen, form, host, rated=True)
        host.online.connect()
        await network.settle()
        pages = []
        for name in ("Bob", "Cy", "Di"):
            pages.append(guest_page(network, host.online.code, name))
            await network.settle()
        host.online.action("room-start", "")
        await network.settle()
        await network.settle()
        await play_out(network, host, pages)
        (signed,) = chain_of(host, "dominoes")
        record = signed["record"]
        assert record["teams"] == [[0, 2], [1, 3]] and "partners" in record["mode"]
        assert (
            record["placings"][0] == record["placings"][2] != record["placings"][1] == record["placings"][3]
        )
        after = [
            rating.check_chain(page.identity().player.key, "dominoes", [signed], verify).rating
            for page in (host, *pages)
        ]
        assert after[0] == after[2] and after[1] == after[3] and after[0] != after[1]

    on_own_loop(run)
