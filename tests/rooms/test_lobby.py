"""Quick match's meeting protocol (rooms.lobby) over a simulated broker: many seekers, random timing.

The broker here behaves as PeerJS's does for what the lobby needs: an id registers once (a second claim
is refused as ``unavailable-id``), a connection reaches the id's holder, a page that vanishes leaves its
id registered (stale) until the broker notices, and channels keep working after their host released its
id. Every delivery takes a random latency, so hypothesis tries many interleavings.
"""

from __future__ import annotations

import heapq
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.rating import Rating, default_rating, fingerprint
from boneyard.rooms import lobby
from boneyard.rooms.lobby import Act, Config, Entrant, Seeker
from boneyard.rooms.protocol import encode

from ..test_rating import ANN, BEN, CAT, Player

KEYS = [Player.make(f"P{i}").key for i in range(10)]
STALE = "stale"
HOSTILE = "hostile"


@dataclass
class Channel:
    a: tuple[int, int]  # (player, session) at each end
    b: tuple[int, int]
    a_id: str
    b_id: str
    open: bool = True
    last: float = 0.0  # channels are ordered: nothing arrives before what was sent earlier

    def after(self, sim: Sim) -> float:
        self.last = max(self.last + 0.001, sim.now + sim.rng.uniform(0.01, 0.3))
        return self.last


@dataclass
class Node:
    """A simulated page: its seeker and its transport session."""

    index: int
    seeker: Seeker
    session: int = 0  # bumped by every claim/connect/close: late answers to an old session are lost
    holds: str = ""  # the lobby id this session registered
    peer_id: str = ""
    channels: list[Channel] = field(default_factory=list)
    vanished: bool = False


@dataclass
class Sim:
    rng: random.Random
    config: Config
    ids: dict[str, Any] = field(default_factory=dict)  # lobby id -> (player, session) | STALE | HOSTILE
    nodes: list[Node] = field(default_factory=list)
    queue: list[tuple[float, int, Callable[[], None]]] = field(default_factory=list)
    now: float = 0.0
    seq: Any = field(default_factory=itertools.count)
    stale_s: float = 30.0
    junk: list[str] = field(default_factory=list)  # what the hostile lobby host answered

    def at(self, when: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self.queue, (when, next(self.seq), fn))

    def later(self, fn: Callable[[], None]) -> None:
        self.at(self.now + self.rng.uniform(0.01, 0.3), fn)

    def run(self, until: float) -> None:
        while self.queue and self.queue[0][0] <= until:
            self.now, _, fn = heapq.heappop(self.queue)
            fn()

    # -- pages --------------------------------------------------------------------------------------------

    def add(self, seeker: Seeker, at: float) -> Node:
        node = Node(len(self.nodes), seeker)
        self.nodes.append(node)
        self.at(at, lambda: self.do(node, seeker.start(self.now)))
        self.at(at + 0.5, lambda: self.tick(node))
        return node

    def tick(self, node: Node) -> None:
        if node.vanished or node.seeker.phase in lobby.ENDED:
            return
        self.do(node, node.seeker.tick(self.now))
        self.at(self.now + 0.5, lambda: self.tick(node))

    def current(self, node: Node, session: int) -> bool:
        return not node.vanished and node.session == session

    def do(self, node: Node, acts: list[Act]) -> None:
        for act in acts:
            getattr(self, "act_" + act.kind)(node, act)

    def end_session(self, node: Node, release: bool = True) -> None:
        if release and node.holds and self.ids.get(node.holds) == (node.index, node.session):
            del self.ids[node.holds]
        node.holds = ""
        for channel in node.channels:
            self.close_channel(channel)
        node.channels = []
        node.session += 1

    def close_channel(self, channel: Channel) -> None:
        if not channel.open:
            return
        channel.open = False
        for (index, session), other_id in ((channel.a, channel.b_id), (channel.b, channel.a_id)):
            if index < 0:
                continue
            node = self.nodes[index]

            def tell(node: Node = node, session: int = session, other_id: str = other_id) -> None:
                if self.current(node, session):
                    self.do(node, node.seeker.closed(other_id, self.now))

            self.at(channel.after(self), tell)

    # -- the transport's acts ---------------------------------------------------------------------------

    def act_claim(self, node: Node, act: Act) -> None:
        self.end_session(node)
        session = node.session

        def at_broker() -> None:
            if not self.current(node, session):
                return
            if act.lobby in self.ids:
                self.later(lambda: self.current(node, session) and self.do(node, node.seeker.taken(self.now)))
            else:
                self.ids[act.lobby] = (node.index, session)
                node.holds, node.peer_id = act.lobby, act.lobby
                self.later(
                    lambda: self.current(node, session) and self.do(node, node.seeker.claimed(self.now))
                )

        self.later(at_broker)

    def act_connect(self, node: Node, act: Act) -> None:
        self.end_session(node)
        session = node.session
        node.peer_id = f"p{node.index}-{session}"

        def at_broker() -> None:
            holder = self.ids.get(act.lobby)
            if not self.current(node, session) or holder == STALE:
                return  # nobody answers: the seeker's own deadline moves it on
            if holder is None:  # the broker knows no such id: peer-unavailable
                self.later(
                    lambda: self.current(node, session) and self.do(node, node.seeker.unreachable(self.now))
                )
                return
            channel = Channel((node.index, session), (-1, 0), node.peer_id, act.lobby)
            node.channels.append(channel)
            if holder == HOSTILE:
                self.later(
                    lambda: (
                        self.current(node, session)
                        and self.do(node, node.seeker.connected(act.lobby, self.now))
                    )
                )
                return
            host = self.nodes[holder[0]]
            channel.b = holder
            host.channels.append(channel)
            self.at(
                channel.after(self),
                lambda: (
                    self.current(host, holder[1])
                    and self.do(host, host.seeker.opened(node.peer_id, self.now))
                ),
            )
            self.at(
                channel.after(self),
                lambda: (
                    channel.open
                    and self.current(node, session)
                    and self.do(node, node.seeker.connected(act.lobby, self.now))
                ),
            )

        self.later(at_broker)

    def act_send(self, node: Node, act: Act) -> None:
        for channel in node.channels:
            if not channel.open:
                continue
            if channel.a[0] == node.index and channel.b_id == act.peer:
                target, sender_id = channel.b, channel.a_id
            elif channel.b[0] == node.index and channel.a_id == act.peer:
                target, sender_id = channel.a, channel.b_id
            else:
                continue
            if target[0] < 0:  # the hostile lobby host answers anything with junk
                self.junk.append(act.text)
                reply = self.rng.choice(['{"t":"seated"}', "not json", '{"t":"start","seat":1,"places":[]}'])
                self.at(
                    channel.after(self),
                    lambda channel=channel, reply=reply: (
                        channel.open and self.do(node, node.seeker.message(act.peer, reply, self.now))
                    ),
                )
                return
            other = self.nodes[target[0]]

            def deliver(
                other: Node = other,
                session: int = target[1],
                sender_id: str = sender_id,
                channel: Channel = channel,
            ) -> None:
                if channel.open and self.current(other, session):
                    self.do(other, other.seeker.message(sender_id, act.text, self.now))

            self.at(channel.after(self), deliver)
            return

    def act_drop(self, node: Node, act: Act) -> None:
        for channel in node.channels:
            if act.peer in (channel.a_id, channel.b_id) and channel.open:
                self.close_channel(channel)

    def act_release(self, node: Node, act: Act) -> None:
        if node.holds and self.ids.get(node.holds) == (node.index, node.session):
            del self.ids[node.holds]
        node.holds = ""

    def act_close(self, node: Node, act: Act) -> None:
        self.end_session(node)

    # -- faults -------------------------------------------------------------------------------------------

    def vanish(self, node: Node, at: float) -> None:
        """The page is gone without a word: its id stays registered (stale) until the broker notices."""

        def gone() -> None:
            if node.seeker.phase in lobby.ENDED:
                return
            held = node.holds if self.ids.get(node.holds) == (node.index, node.session) else ""
            node.vanished = True
            for channel in node.channels:
                self.close_channel(channel)
            if held:
                self.ids[held] = STALE
                self.at(self.now + self.stale_s, lambda: self.ids.get(held) == STALE and self.ids.pop(held))

        self.at(at, gone)


def seeker(index: int, seats: int = 2, config: Config | None = None, mode: str = "match100") -> Seeker:
    me = Entrant(f"P{index}", KEYS[index], default_rating())
    return Seeker("dominoes", mode, seats, me, config or Config())


def tables(sim: Sim) -> list[lobby.Table]:
    return [n.seeker.table for n in sim.nodes if n.seeker.table is not None and n.seeker.table.host]


def check_safety(sim: Sim) -> None:
    """No table over-fills, no seat is given twice, every joiner's table is its host's, everyone ends."""
    hosts = {t.places[0].key: t for t in tables(sim)}
    seated: dict[str, tuple[str, int]] = {}
    for node in sim.nodes:
        s = node.seeker
        if node.vanished:
            continue
        assert s.phase in (lobby.DONE, lobby.GAVE_UP), (node.index, s.phase)
        if s.phase == lobby.GAVE_UP:
            assert s.reason
            continue
        table = s.table
        assert table is not None and len(table.places) == s.seats
        keys = [p.key for p in table.places if p.kind == "human"]
        assert len(keys) == len(set(keys))
        assert table.places[table.seat].key == s.me.key
        assert s.me.key not in seated  # one table each
        seated[s.me.key] = (table.places[0].key or "", table.seat)
        if not table.host:
            host_table = hosts.get(table.places[0].key)
            assert host_table is not None, "a joiner's host never formed the table"
            assert host_table.places[table.seat].key == s.me.key
            assert host_table.places == tuple(
                lobby.Place(p.kind, p.name, p.key, p.rating, host_table.places[i].peer)
                for i, p in enumerate(table.places)
            )


def simulate(arrivals: list[float], seats: int, seed: int, **faults: Any) -> Sim:
    sim = Sim(random.Random(seed), Config())
    if faults.get("stale"):
        sim.ids[lobby.lobby_id("dominoes", "match100", seats, 0)] = STALE
        sim.at(faults["stale"], lambda: sim.ids.pop(lobby.lobby_id("dominoes", "match100", seats, 0), None))
    if faults.get("squatter"):
        sim.ids[lobby.lobby_id("dominoes", "match100", seats, 0)] = HOSTILE
    nodes = [sim.add(seeker(i, seats), at) for i, at in enumerate(arrivals)]
    for index, when in faults.get("vanish", []):
        if index < len(nodes):
            sim.vanish(nodes[index], when)
    sim.run(max(arrivals) + 120)
    return sim


@settings(max_examples=80, deadline=None)
@given(
    arrivals=st.lists(st.floats(0, 4), min_size=1, max_size=9),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_seekers_arriving_together_fill_tables_and_only_the_last_gets_computers(arrivals, seats, seed):
    sim = simulate(arrivals, seats, seed)
    check_safety(sim)
    assert all(n.seeker.phase == lobby.DONE for n in sim.nodes)
    with_bots = [t for t in tables(sim) if not t.rated]
    assert len(with_bots) <= 1, [[p.kind for p in t.places] for t in tables(sim)]
    assert sum(len(t.places) - sum(p.kind == "bot" for p in t.places) for t in tables(sim)) == len(arrivals)


@settings(max_examples=80, deadline=None)
@given(
    arrivals=st.lists(st.floats(0, 30), min_size=1, max_size=9),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    stale=st.sampled_from([0.0, 5.0, 200.0]),
    squatter=st.booleans(),
    vanish=st.lists(st.tuples(st.integers(0, 8), st.floats(0, 40)), max_size=3),
)
def test_every_seeker_ends_at_one_table_or_gives_up_whatever_goes_wrong(
    arrivals, seats, seed, stale, squatter, vanish
):
    sim = simulate(arrivals, seats, seed, stale=stale, squatter=squatter, vanish=vanish)
    check_safety(sim)


def test_two_seekers_meet_and_the_first_hosts():
    sim = simulate([0.0, 1.0], 2, 1)
    check_safety(sim)
    host, joiner = (n.seeker for n in sim.nodes)
    assert host.table and host.table.host and host.table.rated
    assert joiner.table and joiner.table.seat == 1 and joiner.table.places[0].key == KEYS[0]
    assert sim.now < 5  # full at once: nobody waits for the wait
    assert not sim.ids  # the lobby id was released for the next table


def test_a_lone_seeker_gets_labelled_computers_after_the_wait():
    sim = Sim(random.Random(2), Config())
    node = sim.add(seeker(0, 4), 0.0)
    sim.run(9.9)
    assert node.seeker.phase == lobby.HOSTING and node.seeker.waited(sim.now) == pytest.approx(9.9, abs=0.5)
    sim.run(20)
    table = node.seeker.table
    assert table is not None and not table.rated
    assert [p.kind for p in table.places] == ["human", "bot", "bot", "bot"]
    assert {p.name for p in table.places[1:]} == {lobby.BOT_NAME}
    assert not sim.ids


def test_three_seekers_for_four_seats_get_one_computer():
    sim = simulate([0.0, 0.5, 1.0], 4, 3)
    check_safety(sim)
    (table,) = tables(sim)
    assert [p.kind for p in table.places] == ["human", "human", "human", "bot"]


def test_a_stale_lobby_id_sends_seekers_to_the_next_slot():
    sim = simulate([0.0, 2.0], 2, 4, stale=200.0)
    check_safety(sim)
    (table,) = tables(sim)
    assert table.rated and table.lobby.endswith("-1")
    assert [n.seeker.attempts for n in sim.nodes] == [2, 2]  # silence costs one wait, not two


def test_a_hostile_lobby_host_is_left_for_the_next_slot():
    sim = simulate([0.0, 1.0], 2, 5, squatter=True)
    check_safety(sim)
    assert sim.junk  # it was asked, answered junk, and was left
    (table,) = tables(sim)
    assert table.rated and table.lobby.endswith("-1")


def test_a_host_vanishing_does_not_strand_its_joiner():
    sim = simulate([0.0, 1.0, 6.0], 3, 6, vanish=[(0, 2.0)])
    check_safety(sim)
    assert sim.nodes[1].seeker.phase == lobby.DONE
    assert sim.nodes[1].seeker.table.places[0].key in (KEYS[1], KEYS[2])


def test_a_seeker_with_no_broker_gives_up_saying_why():
    s = seeker(0)
    assert s.start(0.0) == [Act("claim", lobby="qm1-dominoes-match100-2p-0")]
    assert s.claim_failed("network", 0.2) == [Act("close")]
    assert s.phase == lobby.GAVE_UP and "broker cannot be reached (network)" in s.reason


def test_a_seeker_nobody_answers_gives_up_in_the_end():
    s = seeker(0)
    s.start(0.0)
    now = 0.0
    while s.phase not in lobby.ENDED:
        now += 0.5
        acts = s.tick(now)
        if acts and acts[-1].kind == "claim":
            s.taken(now)  # every slot held by a page that never answers
    assert s.phase == lobby.GAVE_UP and s.reason == "nobody could be reached to play with"
    assert now == pytest.approx(Config().give_up_s)


def test_cancel_leaves_the_broker_and_tells_the_table():
    s = hosting(3)
    s.opened("j", 0.2)
    s.message("j", seek_text(1, seats=3), 0.3)
    assert s.filled == 2
    acts = s.cancel(1.0)
    assert acts[-1] == Act("close") and s.phase == lobby.CANCELLED
    assert any(a.kind == "send" and '"no"' in a.text for a in acts)
    joiner = seeker(1)
    joiner.start(0.0)
    joiner.taken(0.1)
    joiner.connected("h", 0.2)
    assert joiner.cancel(0.3) == [Act("send", peer="h", text='{"t":"bye"}'), Act("close")]


def seek_text(index: int, **changes: Any) -> str:
    fields = {
        "v": 1,
        "game": "dominoes",
        "mode": "match100",
        "seats": 2,
        "name": f"P{index}",
        "key": KEYS[index],
        "rating": [25.0, 8.3333],
        **changes,
    }
    return json.dumps({"t": "seek", **fields}, separators=(",", ":"))  # as a hostile page may write it


def hosting(seats: int = 2) -> Seeker:
    s = seeker(0, seats)
    s.start(0.0)
    s.claimed(0.1)
    return s


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("not json", "not JSON"),
        ('{"t":"seek"}', "has no"),
        ("x" * 5000, "too long"),
        (seek_text(1, v=2), "another version"),
        (seek_text(1, mode="block"), "another game or mode"),
        (seek_text(1, seats=3), "another game or mode"),
        (seek_text(0), "already at this table"),  # my own key, replayed
        (seek_text(1, key="A" * 87), "a key that is not a key"),
        (seek_text(1, rating=[25, 0]), "rating"),
        (seek_text(1, rating=[1e308, 1]), "rating"),
    ],
    # The seek texts hold keys made at import: numbered, every worker (xdist) collects the same ids.
    ids=[f"junk{n}" for n in range(10)],
)
def test_a_hostile_joiner_is_turned_away_with_nothing_kept(text, answer):
    s = hosting()
    s.opened("bad", 0.2)
    acts = s.message("bad", text, 0.3)
    assert [a.kind for a in acts] == ["send", "drop"] and answer in acts[0].text
    assert s.guests == {} and s.phase == lobby.HOSTING and s.filled == 1


def test_a_host_turns_away_a_flood_and_a_silent_channel():
    s = hosting(3)
    s.opened("quiet", 0.2)
    s.opened("loud", 0.2)
    s.message("loud", seek_text(1, seats=3), 0.3)
    acts: list[Act] = []
    for _ in range(lobby.MAX_MESSAGES):
        acts = s.message("loud", seek_text(1, seats=3), 0.4)
    assert "too many messages" in acts[0].text and "loud" not in s.guests
    acts = s.tick(0.3 + Config().answer_s)
    assert Act("drop", peer="quiet") in acts and not s.guests


def test_a_joiner_leaving_frees_its_seat_for_the_next():
    s = hosting(3)
    for peer in ("a", "b"):
        s.opened(peer, 0.2)
    s.message("a", seek_text(1, seats=3), 0.3)
    s.closed("a", 0.4)
    acts = s.message("b", seek_text(2, seats=3), 0.5)
    assert s.filled == 2 and s.guests["b"].seat == 1
    assert [a.peer for a in acts] == ["b"]


def test_a_joiner_refuses_a_start_that_is_not_its_table():
    joiner = seeker(1)
    joiner.start(0.0)
    joiner.taken(0.1)
    joiner.connected("h", 0.2)
    joiner.message("h", encode("seated", sender="lobby", seat=1, filled=2, seats=2), 0.3)
    forged = [
        {"kind": "human", "name": "H", "key": KEYS[0], "rating": [25, 8]},
        {"kind": "human", "name": "Someone else", "key": KEYS[2], "rating": [25, 8]},
    ]
    acts = joiner.message("h", encode("start", sender="lobby", seat=1, places=forged), 0.4)
    assert acts == [Act("close")] and joiner.phase == "paused" and joiner.table is None


def test_lobby_ids_carry_the_version_game_mode_and_seats():
    assert lobby.lobby_id("dominoes", "match100", 4, 2) == "qm1-dominoes-match100-4p-2"
    assert lobby.lobby_id("heptalion", "hidden", 3, 0) == "qm1-heptalion-hidden-3p-0"
    with pytest.raises(ValueError):
        lobby.lobby_id("dominoes", "Match 100", 2, 0)
    assert fingerprint(KEYS[0])  # the test keys are real keys
    assert Rating(25, 8).to_json() == [25, 8]
    assert {ANN.key, BEN.key, CAT.key}.isdisjoint(KEYS)


def test_a_host_that_keeps_a_joiner_seated_without_starting_is_left():
    joiner = seeker(1)
    joiner.start(0.0)
    joiner.taken(0.1)
    joiner.connected("h", 0.2)
    now, acts = 0.3, []
    while not acts:  # a host that says "seated" again and again and never starts
        joiner.message("h", encode("seated", sender="lobby", seat=1, filled=1, seats=2), now)
        now += 0.5
        acts = joiner.tick(now)
    config = Config()
    assert now == pytest.approx(0.3 + config.wait_s + config.min_host_s + config.answer_s, abs=0.5)
    assert [a.kind for a in acts] == ["send", "close"] and joiner.phase == "paused"


def test_a_full_table_prefers_the_seekers_nearest_the_hosts_rating():
    s = hosting(3)  # the host's claim: the default rating (mu 25)
    mus = {"far": 40.0, "near": 26.0, "mid": 30.0, "farther": 45.0}
    for peer in mus:  # four seekers at the door at about the same time, for two seats
        s.opened(peer, 0.2)
    acts: list[Act] = []
    for index, (peer, mu) in enumerate(mus.items(), start=1):
        assert s.phase == lobby.HOSTING, "a full table waits while seekers at its door may ask"
        acts = s.message(peer, seek_text(index, seats=3, rating=[mu, 5.0]), 0.3 + index / 10)
    # far and near took the seats; mid took far's seat (nearer); farther was refused (farthest of all)
    assert s.phase == lobby.DONE and s.table is not None and s.table.rated
    assert [p.rating.mu for p in s.table.places if p.rating] == [pytest.approx(25.0, abs=1e-3), 30.0, 26.0]
    assert [a.kind for a in acts].count("release") == 1 and "the table is full" in acts[0].text


def test_a_seeker_bumped_for_a_nearer_one_is_told_and_looks_again():
    s = hosting(2)
    s.opened("far", 0.2)
    s.opened("near", 0.2)
    s.message("far", seek_text(1, rating=[40.0, 5.0]), 0.3)
    assert s.phase == lobby.HOSTING and s.filled == 2  # full, and a seeker at the door
    acts = s.message("near", seek_text(2, rating=[24.0, 5.0]), 0.5)
    assert [(a.kind, a.peer) for a in acts][:3] == [("send", "far"), ("drop", "far"), ("send", "near")]
    assert "nearer in rating" in acts[0].text and s.phase == lobby.DONE and s.table is not None
    assert s.table.places[1].peer == "near"
    joiner = seeker(1)
    joiner.start(0.0)
    joiner.taken(0.1)
    joiner.connected("h", 0.2)
    joiner.message("h", encode("seated", sender="lobby", seat=1, filled=2, seats=2), 0.3)
    assert joiner.message("h", acts[0].text, 0.5) == [Act("close")] and joiner.phase == "paused"


def test_an_equal_claim_keeps_first_come_first_seated_and_a_silent_door_waits_a_second_at_most():
    s = hosting(2)
    s.opened("first", 0.2)
    s.opened("same", 0.2)
    s.message("first", seek_text(1, rating=[30.0, 5.0]), 0.3)
    acts = s.message("same", seek_text(2, rating=[30.0, 5.0]), 0.4)
    assert "the table is full" in acts[0].text and s.table is not None and s.table.places[1].peer == "first"
    s = hosting(2)
    s.opened("first", 0.2)
    s.opened("silent", 0.2)
    s.message("first", seek_text(1), 0.3)
    assert s.tick(0.3 + Config().choose_s - 0.1) == [] and s.phase == lobby.HOSTING
    assert Act("release") in s.tick(0.3 + Config().choose_s) and s.phase == lobby.DONE


def test_two_seekers_meet_at_once_when_nobody_else_is_at_the_door():
    s = hosting(2)
    s.opened("only", 0.2)
    acts = s.message("only", seek_text(1), 0.3)
    assert Act("release") in acts and s.phase == lobby.DONE
