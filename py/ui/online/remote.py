"""A guest's game in an online room: a stand-in for the session's state built from views alone.

The host's page holds the real game and sends each guest ``view {view}`` (exactly ``state.view(seat)``
for the guest's seat) after every move. ``RemoteState`` keeps the latest of those views and answers
what the three table screens ask of a state (``view`` for its own seat, ``is_over``,
``current_player``, ``legal_moves``, ``outcome``, ``turn_number``, ``players``); anything that needs
what this seat may not see raises ``HiddenInformation`` instead of guessing. ``RemoteSession`` is the
``Session`` the guest's table is drawn from: its ``play`` does not touch the game but keeps the move's
text for the room to send (``take_pending``), the host plays every computer, and there is no take-back.

When the game is over the host reveals the deal (``deal {commits, nonces, seed}``). Every hand is
public then: ``RemoteSession.reveal(seed, moves)`` replays the game from that seed, checks that it is
the game this seat saw, and from then on the end of the game shows every hand and offers Review, as
the host's own table does. Pure Python (no browser): the tests render a guest's tables under CPython.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.core import GameState, IllegalMoveError, Outcome
from boneyard.games import get_game

from ..seating import computer_name
from ..session import Seat, Session

__all__ = [
    "HiddenInformation",
    "RemoteSession",
    "RemoteState",
    "move_log",
    "public_hands",
    "result_note",
    "seats_from_lobby",
]


class HiddenInformation(LookupError):
    """A guest's table asked for something its seat may not see (another hand, the stock, the seed)."""


def _json_copy(view: Mapping[str, Any]) -> dict[str, Any]:
    """Return a deep copy of a JSON-ready view (what the wire would have carried)."""
    data = json.loads(json.dumps(view))
    if not isinstance(data, dict):
        raise ValueError("a view is a JSON object")
    return data


def move_log(view: Mapping[str, Any]) -> tuple[int, list[str]]:
    """Return (index of the first move, move texts) of the moves a view's history shows.

    Triangles and Heptalion show the whole game; Dominoes the hand in progress. Events without a
    move (Heptalion's "is out", "wins") are not moves.
    """
    moves = [str(e["move"]) for e in view.get("history") or [] if isinstance(e, Mapping) and e.get("move")]
    return int(view.get("turn_number", 0)) - len(moves), moves


class RemoteState:
    """What one seat knows of a game: the views it received (the latest, and the one before).

    The previous view lets a table look one move back (``clone`` + ``undo``, as the Dominoes table does
    to show the hand that just ended); ``full`` is the game replayed from the revealed deal, once over.
    """

    def __init__(self, game_id: str, seat: int, view: Mapping[str, Any]) -> None:
        self.game_id = game_id
        self.seat = seat
        self.latest: dict[str, Any] = {}
        self.previous: dict[str, Any] | None = None
        self.full: GameState | None = None
        self.receive(view)

    # -- what arrives ---------------------------------------------------------------------------
    def receive(self, view: Mapping[str, Any]) -> bool:
        """Take a new view of this seat; return False when it is the one already held (sent again after a
        reconnect: nothing changes). Raise ValueError for a view of another seat or game."""
        data = _json_copy(view)
        if data == self.latest:
            return False
        if data.get("seat") != self.seat:
            raise ValueError(f"a view of seat {data.get('seat')!r} reached seat {self.seat}")
        if data.get("game") not in (None, self.game_id):
            raise ValueError(f"a view of {data.get('game')!r} reached a {self.game_id} table")
        if not isinstance(data.get("turn_number"), int) or not isinstance(data.get("legal_moves"), list):
            raise ValueError("a view without its turn number or legal moves")
        if self.latest and data["turn_number"] == self.latest["turn_number"] + 1:
            self.previous = self.latest
        elif self.latest and data["turn_number"] != self.latest["turn_number"]:
            self.previous = None  # moves were missed (a reconnect): no look back
        self.latest = data
        self.full = None
        return True

    # -- what a table asks ----------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Return this seat's view (a copy); another seat's only once the game is over and revealed."""
        if seat == self.seat:
            return copy.deepcopy(self.latest)
        if self.full is not None and seat is not None:
            return self.full.view(seat)
        raise HiddenInformation(f"seat {self.seat} may not see seat {seat}'s view")

    def is_over(self) -> bool:
        """Tell whether the game is over."""
        return bool(self.latest.get("over"))

    def current_player(self) -> int | None:
        """Return the seat to move, or None once the game is over."""
        turn = self.latest.get("turn")
        return None if self.is_over() or turn is None else int(turn)

    def legal_moves(self) -> list[str]:
        """Return the texts of this seat's legal moves (empty unless it is this seat's turn)."""
        return [str(m) for m in self.latest["legal_moves"]] if self.current_player() == self.seat else []

    def outcome(self) -> Outcome | None:
        """Return how the game ended, from the view (None while it goes on)."""
        data = self.latest.get("outcome")
        return Outcome.from_dict(data) if self.is_over() and isinstance(data, Mapping) else None

    @property
    def turn_number(self) -> int:
        """Return the number of moves played so far."""
        return int(self.latest["turn_number"])

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return int(self.latest.get("players") or len(self.latest.get("hand_counts") or ()))

    def clone(self) -> RemoteState:
        """Return an independent copy (its views are copied; the revealed game is shared, read only)."""
        twin = copy.copy(self)
        twin.latest = copy.deepcopy(self.latest)
        twin.previous = copy.deepcopy(self.previous)
        return twin

    def can_undo(self) -> bool:
        """Tell whether the view one move back is known."""
        return self.previous is not None

    def undo(self) -> None:
        """Go back to the view one move back (on a clone: a guest's game is the host's to change)."""
        if self.previous is None:
            raise IndexError("the view before this move is not known")
        self.latest, self.previous = self.previous, None
        self.full = None

    def play(self, move: Any) -> None:
        """Refuse: a guest's move goes to the host, which plays it (``RemoteSession.play`` keeps it)."""
        raise IllegalMoveError("The host plays every move of an online game.")

    def to_dict(self) -> dict[str, Any]:
        """Refuse: the host holds and saves the game; a guest keeps only its room token."""
        raise HiddenInformation("a guest's game is saved by the host, not by the guest")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"a guest's table knows only its views: no {name!r} (the host holds the game)")


def public_hands(state: Any, players: int) -> list[Any]:
    """Return every seat's hand when all are public (the game is over); a seat this table cannot know
    yet (a guest's table before the host revealed the deal) is None."""
    hands: list[Any] = []
    for seat in range(players):
        try:
            hands.append(state.view(seat)["hand"])
        except HiddenInformation:
            hands.append(None)
    return hands


def result_note(session: Session) -> str | None:
    """Return the results' stats note of an online game (None: not online, the table words its own)."""
    if not isinstance(session, RemoteSession) and not any(seat.kind == "guest" for seat in session.seats):
        return None
    return "Online games count in your stats apart from games against the computer."


def seats_from_lobby(lobby: Sequence[Mapping[str, Any]], me: int) -> list[Seat]:
    """Return the seats of a guest's table from a ``lobby`` message's seats.

    This device's person is ``human``; the host and the other guests are ``guest`` (people elsewhere);
    bots are ``computer`` at their level; a seat nobody holds is a ``guest`` "Open seat".
    """
    seats = []
    for entry in sorted(lobby, key=lambda e: int(e["seat"])):
        kind = str(entry.get("kind", "open"))
        unnamed = {"open": "Open seat", "bot": "Computer"}.get(kind, f"Player {int(entry['seat']) + 1}")
        name = str(entry.get("name") or "") or unnamed
        if int(entry["seat"]) == me:
            seats.append(Seat("human", name))
        elif kind == "bot":  # named as the host's own table names it ("Computer 3 (Medium)")
            level = str(entry.get("level") or "medium")
            seats.append(Seat("computer", computer_name(int(entry["seat"]), level), level))
        else:
            seats.append(Seat("guest", name))
    return seats


@dataclass
class RemoteSession(Session):
    """A guest's game: the table screens draw it like a local one; its moves go to the host."""

    seat: int = 0  # this guest's seat
    pending: str | None = None  # the move text waiting to be sent to the host
    gathered: dict[int, str] = field(default_factory=dict)  # move number -> text, from the views' histories

    @classmethod
    def join(
        cls,
        game_id: str,
        seat: int,
        seats: Sequence[Seat],
        mode: str,
        mode_label: str,
        options: Mapping[str, Any],
        view: Mapping[str, Any],
        uid: str = "",
    ) -> RemoteSession:
        """Return the guest's session for its first view (``uid``: the room's code, say)."""
        session = cls(
            info=get_game(game_id),
            state=RemoteState(game_id, seat, view),  # type: ignore[arg-type]
            seats=list(seats),
            mode=mode,
            mode_label=mode_label,
            options=dict(options),
            seed=0,
            moves=None,
            uid=uid,
            seat=seat,
        )
        session._gather()
        return session

    @property
    def remote(self) -> RemoteState:
        """Return the state stand-in."""
        state = self.state
        assert isinstance(state, RemoteState)
        return state

    # -- what arrives ---------------------------------------------------------------------------
    def receive(self, view: Mapping[str, Any]) -> None:
        """Take the host's latest view of this seat (the table draws it on the next render)."""
        before = self.remote.turn_number
        if not self.remote.receive(view):
            return  # the same view again: the table stays as it is (a revealed deal too)
        if self.remote.turn_number != before:
            self.pending = None
        self.revision += 1
        self.moves = None
        self.seed = 0
        self._gather()

    def _gather(self) -> None:
        start, texts = move_log(self.remote.latest)
        for offset, text in enumerate(texts):
            self.gathered[start + offset] = text

    def known_moves(self) -> list[str] | None:
        """Return every move's text since the deal when the views showed them all, else None."""
        total = self.remote.turn_number
        if any(i not in self.gathered for i in range(total)):
            return None
        return [self.gathered[i] for i in range(total)]

    def reveal(self, seed: int, moves: Iterable[str] | None = None) -> None:
        """Replay the finished game from the revealed deal: every hand shows, Review opens.

        ``moves`` are the public move texts (None: the ones the views showed). Raise ValueError when the
        game is not over, the moves are not known, or the replay is not the game this seat saw.
        """
        if not self.remote.is_over():
            raise ValueError("the deal is revealed only once the game is over")
        texts = list(moves) if moves is not None else self.known_moves()
        if texts is None:
            raise ValueError("the game's moves are not all known")
        full = self.info.new_state(seed=seed, **dict(self.options))
        try:
            for text in texts:
                full.play(text)
        except IllegalMoveError as exc:
            raise ValueError(f"the revealed deal does not give the game this seat saw: {exc}") from None
        if _json_copy(full.view(self.seat)) != self.remote.latest:
            raise ValueError("the revealed deal does not give the game this seat saw")
        self.remote.full = full
        self.seed = seed
        self.moves = texts

    @property
    def revealed(self) -> bool:
        """Tell whether the host revealed the deal of the finished game (every hand is public)."""
        return self.remote.full is not None

    # -- who is where ---------------------------------------------------------------------------
    @property
    def human_seats(self) -> list[int]:
        """Return the seat of this device's person (the others play from their own devices)."""
        return [i for i, seat in enumerate(self.seats) if seat.kind == "human"]

    def viewer(self) -> int:
        """Return this guest's seat: the table is always drawn for it."""
        return self.seat

    def computer_to_move(self) -> bool:
        """Return False: the host plays the computers of an online game."""
        return False

    # -- moves ----------------------------------------------------------------------------------
    def play(self, move: Any) -> None:
        """Keep this seat's move for the host (checked against the view's legal moves first)."""
        if self.remote.is_over():
            raise IllegalMoveError("The game is over.")
        if self.remote.current_player() != self.seat:
            raise IllegalMoveError("It is not your turn.")
        if self.pending is not None:
            raise IllegalMoveError("Your move is on its way to the host.")
        text = str(move)
        if text not in self.remote.legal_moves():
            raise IllegalMoveError(f"{text} is not a legal move now.")
        self.pending = text

    def take_pending(self) -> str | None:
        """Return the move waiting to be sent (once; the host's next view confirms or refuses it)."""
        text, self.pending = self.pending, None
        return text

    def computer_thinking(self) -> Any:
        """Refuse: the host plays the computers."""
        raise IllegalMoveError("The host plays the computers of an online game.")

    def play_computer(self, move: Any) -> None:
        """Refuse: the host plays the computers."""
        raise IllegalMoveError("The host plays the computers of an online game.")

    # -- take-back and review -------------------------------------------------------------------
    def can_offer_take_back(self) -> bool:
        """Return False: nobody takes back in an online game."""
        return False

    def can_take_back(self) -> bool:
        """Return False: nobody takes back in an online game."""
        return False

    def take_back(self) -> int:
        """Do nothing: nobody takes back in an online game."""
        return 0

    def move_count(self) -> int:
        """Return the moves the review steps through: all of them once the deal is revealed, else 0."""
        return len(self.moves or []) if self.revealed else 0

    def replay(self, step: int) -> GameState:
        """Return the game after ``step`` moves, replayed from the revealed deal."""
        if not self.revealed:
            raise HiddenInformation("the deal is not revealed yet")
        return super().replay(step)

    # -- saving ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Refuse: the host saves the game; a guest keeps only its room token."""
        raise HiddenInformation("a guest's game is saved by the host, not by the guest")
