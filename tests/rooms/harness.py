"""An in-memory online table for the room tests: a HostRoom, GuestRooms and a fake transport (lists).

``Table`` seats the host at 0, guests where asked and random-move computers elsewhere, joins the guests,
runs the fair deal and plays the game to the end; guests choose from their views alone. Every text a
guest receives is recorded with the true state at that moment (``inbox``), for the leak test.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from boneyard.core import IllegalMoveError
from boneyard.games import get_game
from boneyard.rooms.guest import GuestRoom
from boneyard.rooms.host import HostRoom, Out


@dataclass
class Received:
    """One text a guest received, with what was true when the host sent it."""

    seat: int
    text: str
    over: bool
    truth: dict[str, Any] | None  # hidden tiles etc. (None before the deal)


@dataclass
class Table:
    game: str
    options: dict[str, Any]
    guest_seats: list[int]
    seed: int = 0
    now: float = 1000.0
    room: HostRoom = field(init=False)
    guests: dict[int, GuestRoom] = field(default_factory=dict)
    peers: dict[int, str] = field(default_factory=dict)
    state: Any = None
    moves: list[str] = field(default_factory=list)
    notes: list[Out] = field(default_factory=list)
    inbox: list[Received] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    truth_of: Any = None  # callable(state, seat) -> truth dict, set by the leak test

    def __post_init__(self) -> None:
        players = self.options["players"]
        spec = [
            "host" if s == 0 else ("open" if s in self.guest_seats else "bot:random") for s in range(players)
        ]
        self.rng = random.Random(self.seed)
        self.room = HostRoom(
            self.game, None, self.options, "Host", spec, random.Random(self.seed), play=self.play
        )

    # -- the host's UI ------------------------------------------------------------------------------

    def play(self, seat: int, text: str) -> str | None:
        """Play a guest's move as the host UI would (the same play() as a local player)."""
        try:
            self.state.play(text)
        except IllegalMoveError as exc:
            return str(exc)
        self.moves.append(text)
        return None

    def deliver(self, outs: list[Out]) -> None:
        """Carry out what the host room returned, and the guests' automatic replies, until all is quiet."""
        queue: deque[Out] = deque(outs)
        while queue:
            out = queue.popleft()
            if out.peer is None:
                self.notes.append(out)
                if out.note == "deal":
                    self.state = get_game(self.game).new_state(seed=out.data["seed"], **self.options)
                    queue.extend(self.room.views(self.state))
                continue
            seat = next((s for s, p in self.peers.items() if p == out.peer), None)
            if out.text and seat is not None:
                truth = None
                if self.state is not None and self.truth_of is not None and not self.state.is_over():
                    truth = self.truth_of(self.state, seat)
                over = self.state is not None and self.state.is_over()
                self.inbox.append(Received(seat, out.text, over, truth))
                for event in self.guests[seat].on_message(out.text):
                    if event.kind == "send":
                        queue.extend(self.room.on_message(out.peer, event.data["text"], self.now))
            if out.drop:
                self.dropped.append(out.peer)

    # -- steps ----------------------------------------------------------------------------------------

    def join(self) -> None:
        """Open a channel for every guest and say hello."""
        for seat in self.guest_seats:
            peer = f"peer-{seat}"
            self.peers[seat] = peer
            self.guests[seat] = GuestRoom(
                self.room.code, f"Guest {seat}", nonce_rng=random.Random(self.seed * 10 + seat)
            )
            self.room.on_open(peer)
            self.deliver(self.room.on_message(peer, self.guests[seat].hello(), self.now))

    def start(self) -> None:
        """Start the game: the fair deal runs and everyone gets a first view."""
        self.deliver(self.room.start(self.now))
        assert self.state is not None, "the deal did not finish"

    def step(self) -> None:
        """Play one move: a guest from its view, anyone else from the state."""
        turn = self.state.current_player()
        self.now += 1.0
        if turn in self.guests:
            guest = self.guests[turn]
            move = self.rng.choice(guest.legal_moves())
            self.deliver(self.room.on_message(self.peers[turn], guest.move(move), self.now))
        else:
            move = str(self.rng.choice(self.state.legal_moves()))
            self.state.play(move)
            self.moves.append(move)
            self.deliver(self.room.views(self.state))

    def play_out(self, limit: int = 5000) -> None:
        """Play to the end, then send the deal proof."""
        for _ in range(limit):
            if self.state.is_over():
                break
            before = self.state.turn_number
            self.step()
            assert self.state.turn_number == before + 1, "a move did not go through"
        self.deliver(self.room.finish(self.moves))
