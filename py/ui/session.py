"""A game being played in the page: the state, who sits in each seat, and the computer players.

Pure Python (no browser): the app drives it, the saves store ``to_json()``, and the tests play whole
games through it under CPython. Every rule question goes to the engine's state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from boneyard.core import (
    Bot,
    GameInfo,
    GameState,
    IllegalMoveError,
    fresh_seed,
    make_rng,
    rng_from_json,
    rng_to_json,
    run_thinking,
    think,
)
from boneyard.deals import deal_commitment
from boneyard.games import get_game

__all__ = ["SEAT_KINDS", "Seat", "Session", "SessionError", "computer_bot", "game_identity"]

SEAT_KINDS = ("human", "guest", "computer")


class SessionError(ValueError):
    """A stored session that cannot be rebuilt."""


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person on this device, a person in an online room, or the computer at a level."""

    kind: str  # "human" (on this device), "guest" (a person in an online room) or "computer"
    name: str
    level: str | None = None

    @property
    def is_computer(self) -> bool:
        """Tell whether the computer plays this seat."""
        return self.kind == "computer"

    @property
    def is_remote(self) -> bool:
        """Tell whether a person elsewhere plays this seat (a guest of an online room)."""
        return self.kind == "guest"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON-ready form."""
        return {"kind": self.kind, "name": self.name, "level": self.level}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        """Rebuild a seat; raise SessionError when it is damaged."""
        kind = data.get("kind")
        if kind not in SEAT_KINDS or not isinstance(data.get("name"), str):
            raise SessionError("a seat is damaged")
        level = data.get("level")
        if kind == "computer" and not isinstance(level, str):
            raise SessionError("a computer seat has no level")
        return cls(kind=kind, name=data["name"], level=level)


@dataclass
class Session:
    """One game in the page: the engine state plus its seats, mode and the computers' generator."""

    info: GameInfo
    state: GameState
    seats: list[Seat]
    mode: str  # stats key of the mode, e.g. "classic-2"
    mode_label: str  # what players read, e.g. "Classic, 2 players"
    options: dict[str, Any]
    seed: int
    bot_rng: Any = None
    recorded: bool = False  # the result has gone into the stats
    extra: dict[str, Any] = field(default_factory=dict)  # screen-specific data kept with the save
    uid: str = ""  # this deal's identity, shared by every tab that plays it
    revision: int = 0  # moves applied (and taken back) in this page and before it: a tab with fewer is behind
    moves: list[str] | None = field(default_factory=list)  # every move since the deal (None: an older save)
    take_backs: int = 0  # how many times a person took moves back (such a game is not counted in the stats)

    def __post_init__(self) -> None:
        if not self.uid:
            self.uid = f"{fresh_seed():016x}"

    @classmethod
    def start(
        cls,
        info: GameInfo,
        seats: list[Seat],
        mode: str,
        mode_label: str,
        options: Mapping[str, Any],
        seed: int | None = None,
    ) -> Session:
        """Deal a new game."""
        seed = fresh_seed() if seed is None else seed
        state = info.new_state(seed=seed, **dict(options))
        try:  # the commitment the table shows, kept as shown: Check the deal compares the seed with it
            committed = {"deal": deal_commitment(seed)}
        except ValueError:  # a seed out of the commitment's range has none
            committed = {}
        return cls(
            info=info,
            state=state,
            seats=list(seats),
            mode=mode,
            mode_label=mode_label,
            options=dict(options),
            seed=seed,
            bot_rng=make_rng(seed ^ 0x5EED),
            extra=committed,
        )

    # -- who is where --------------------------------------------------------------------------
    @property
    def vs_computer(self) -> bool:
        """Tell whether any seat is the computer's (only such games count in the stats)."""
        return any(seat.is_computer for seat in self.seats)

    @property
    def human_seats(self) -> list[int]:
        """Return the seats people on this device play (not an online room's guests)."""
        return [i for i, seat in enumerate(self.seats) if seat.kind == "human"]

    @property
    def remote_seats(self) -> list[int]:
        """Return the seats people in an online room play from their own devices."""
        return [i for i, seat in enumerate(self.seats) if seat.is_remote]

    @property
    def online(self) -> bool:
        """Tell whether this game is played in an online room (its room's code is kept, or a seat is a guest's)."""
        return bool(self.extra.get("online")) or bool(self.remote_seats)

    def local_to_move(self) -> bool:
        """Tell whether a person on this device plays the next move."""
        seat = self.to_move()
        return seat is not None and self.seats[seat].kind == "human"

    def to_move(self) -> int | None:
        """Return the seat to move, or None when the game is over."""
        return None if self.state.is_over() else self.state.current_player()

    def computer_to_move(self) -> bool:
        """Tell whether the computer plays the next move."""
        seat = self.to_move()
        return seat is not None and self.seats[seat].is_computer

    def viewer(self) -> int:
        """Return the seat whose eyes the table is drawn for.

        Against the computer: the (first) person. On one device: the person to move (or, between
        turns and at the end, the last person who moved).
        """
        humans = self.human_seats
        if not humans:
            return 0
        if len(humans) == 1:
            return humans[0]
        seat = self.to_move()
        if seat is not None and self.seats[seat].kind == "human":
            return seat
        return int(self.extra.get("last_human", humans[0]))

    # -- moves ----------------------------------------------------------------------------------
    def play(self, move: Any) -> None:
        """Play a person's move for the seat to move; raise IllegalMoveError when the rules refuse it."""
        seat = self.to_move()
        if seat is None:
            raise IllegalMoveError("The game is over.")
        before = getattr(self.state, "turn_number", -1)
        self.state.play(move)
        self.revision += 1
        self._log(move, before)
        if self.seats[seat].kind == "human":
            self.extra["last_human"] = seat

    def _log(self, move: Any, before: int) -> None:
        """Add a move just played to the move log (kept in step with the state's move count)."""
        if self.moves is not None:
            if before >= 0 and len(self.moves) == before:
                self.moves.append(str(move))
            else:
                self.moves = None  # the log lost step with the game: no review for it

    def computer_thinking(self) -> Iterator[None]:
        """Return a generator that chooses the computer's next move, yielding now and then.

        The page drives it a slice at a time so it stays responsive while a long search runs; the
        generator's value is the move, to pass to ``play_computer``.
        """
        seat = self.to_move()
        if seat is None or not self.seats[seat].is_computer:
            raise IllegalMoveError("It is not the computer's turn.")
        bot = computer_bot(self.info, self.seats[seat].level or "easy")
        return think(bot, self.state.view(seat), self.bot_rng)

    def play_computer(self, move: Any) -> None:
        """Play the move the computer chose."""
        before = getattr(self.state, "turn_number", -1)
        self.state.play(move)
        self.revision += 1
        self._log(move, before)

    def play_computer_beat(self, move: Any) -> int:
        """Play the computer's move and, after a draw, every draw (or pass) it is forced to; return the count.

        The page shows them as one beat: a computer that draws ten tiles does not take ten pauses.
        """
        self.play_computer(move)
        played = 1
        while self.drawing_on():
            self.computer_move()  # forced: no search worth the name
            played += 1
        return played

    def just_drew(self) -> bool:
        """Tell whether the last move was a draw and the computer moves next (the lay after its draws)."""
        return bool(self.moves and self.moves[-1].startswith("draw")) and self.computer_to_move()

    def drawing_on(self) -> bool:
        """Tell whether the computer just drew and can only draw again or pass: one beat with that draw."""
        return self.just_drew() and all(
            str(m) == "pass" or str(m).startswith("draw") for m in self.state.legal_moves()
        )

    # -- take-back and review -------------------------------------------------------------------
    def can_offer_take_back(self) -> bool:
        """Tell whether this game offers Take back at all: one person against the computer, turn-based."""
        # Not in a challenge: its score is set beside a friend's, who could not take moves back.
        return (
            self.vs_computer
            and len(self.human_seats) == 1
            and not self.online
            and not self.info.realtime
            and "challenge" not in self.extra
        )

    def _take_back_steps(self) -> int:
        """Return how many moves a take-back undoes (0: none possible), found on a copy of the state.

        Take back returns to the person's previous turn: it undoes their last move and every computer
        reply since, stopping when it is that person's turn again.
        """
        if not self.can_offer_take_back() or self.state.is_over():
            return 0
        human = self.human_seats[0]
        self._restore_undo()
        trial = self.state.clone()
        steps = 0
        while trial.can_undo():
            trial.undo()
            steps += 1
            if trial.current_player() == human:
                return steps
        return 0

    def _restore_undo(self) -> None:
        """Give a state loaded from a save its undo records back, by replaying the move log on its deal.

        Undo records are not saved; the log and the seed are. The replayed game replaces the loaded one
        only when it is exactly the same, so a log that does not lead there changes nothing. Tried once, for
        a session loaded from a save (the computer may have moved since: its records alone are not enough).
        """
        if self.__dict__.get("_undo_restored", True) or not self.moves or self.info.realtime:
            return
        self.__dict__["_undo_restored"] = True
        try:
            replayed = self.replay(len(self.moves))
            if replayed.to_dict() == self.state.to_dict():
                self.state = replayed
        except Exception:  # a log the rules refuse: take-back stays off, as before
            return

    def can_take_back(self) -> bool:
        """Tell whether Take back can go back to a previous turn of the person now."""
        cached = self.__dict__.get("_take_back_cache")
        if cached is not None and cached[0] == (self.revision, self.state.turn_number):
            return bool(cached[1])
        steps = self._take_back_steps()
        self.__dict__["_take_back_cache"] = ((self.revision, self.state.turn_number), steps)
        return steps > 0

    def take_back(self) -> int:
        """Go back to the person's previous turn; return the number of moves undone (0: nothing to do)."""
        steps = self._take_back_steps()
        for _ in range(steps):
            self.state.undo()
            if self.moves:
                self.moves.pop()
        if steps:
            self.revision += 1
            self.take_backs += 1
        return steps

    def move_count(self) -> int:
        """Return the number of moves the review can step through (0 without a complete log)."""
        return len(self.moves) if self.moves is not None else 0

    def replay(self, step: int) -> GameState:
        """Return the game as it was after its first ``step`` moves, replayed on a fresh deal of its seed."""
        state: GameState = self.info.new_state(seed=self.seed, **dict(self.options))
        for text in (self.moves or [])[: max(0, step)]:
            state.play(text)
        return state

    def computer_move(self) -> Any:
        """Let the computer choose and play the next move in one go; return the move."""
        move = run_thinking(self.computer_thinking())
        self.play_computer(move)
        return move

    # -- the end ----------------------------------------------------------------------------------
    def result_for(self, seat: int) -> str | None:
        """Return "win", "loss" or "draw" for a seat once the game is over."""
        outcome = self.state.outcome() if self.state.is_over() else None
        if outcome is None:
            return None
        return outcome.result_for(seat)

    # -- saving -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Return the JSON-ready form stored in the save's ``state``."""
        return {
            "game_state": self.state.to_dict(),
            "seats": [seat.to_json() for seat in self.seats],
            "mode": self.mode,
            "mode_label": self.mode_label,
            "options": self.options,
            "seed": self.seed,
            "bot_rng": rng_to_json(self.bot_rng),
            "recorded": self.recorded,
            "extra": self.extra,
            "uid": self.uid,
            "revision": self.revision,
            "moves": self.moves,
            "take_backs": self.take_backs,
        }

    @classmethod
    def from_json(cls, game_id: str, data: Mapping[str, Any]) -> Session:
        """Rebuild a session from ``to_json``'s form; raise ValueError (or SessionError) when damaged."""
        info = get_game(game_id)
        if not isinstance(data, Mapping):
            raise SessionError("the saved game is not a record")
        try:
            seats = [Seat.from_json(s) for s in data["seats"]]
            state = info.from_dict(data["game_state"])
            session = cls(
                info=info,
                state=state,
                seats=seats,
                mode=str(data["mode"]),
                mode_label=str(data.get("mode_label", data["mode"])),
                options=dict(data.get("options", {})),
                seed=int(data.get("seed", 0)),
                bot_rng=rng_from_json(data["bot_rng"]),
                recorded=bool(data.get("recorded", False)),
                extra=dict(data.get("extra", {})),
                uid=game_identity(data)[0],
                revision=game_identity(data)[1],
                moves=_moves(data.get("moves"), state.turn_number if not info.realtime else None),
                take_backs=int(data.get("take_backs", 0) or 0),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise SessionError(f"the saved game is missing {exc}") from None
        if not info.realtime and not state.is_over() and not 0 <= state.current_player() < len(seats):
            raise SessionError("the saved seats do not match the saved game")
        session.__dict__["_undo_restored"] = (
            False  # its undo records before the save are still to be replayed
        )
        for seat in seats:
            if seat.is_computer:
                computer_bot(info, seat.level or "")
        return session


def computer_bot(info: GameInfo, level: str) -> Bot:
    """Return the bot of a computer seat's level (Expert included: importing the AI registers it)."""
    import boneyard.ai  # noqa: F401  (the games sit below the AI and cannot load it themselves)

    return info.bot(level)


def _moves(data: Any, turn_number: int | None) -> list[str] | None:
    """Return a stored move log when it is whole (one text a move of the game), else None."""
    if turn_number is None or not isinstance(data, list) or len(data) != turn_number:
        return None
    if not all(isinstance(m, str) for m in data):
        return None
    return list(data)


def game_identity(data: Mapping[str, Any]) -> tuple[str, int]:
    """Return (uid, revision) of a session's stored form without rebuilding its game.

    Saves written before games had an identity get one from their seed and mode, which every tab
    derives alike, and revision 0; raise ValueError for a form that has neither.
    """
    uid = data.get("uid")
    if not isinstance(uid, str) or not uid:
        seed, mode = data.get("seed", 0), data.get("mode", "")
        if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(mode, str):
            raise ValueError("the saved game has no identity")
        uid = f"seed-{seed}-{mode}"
    revision = data.get("revision", 0)
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
        raise ValueError("the saved game's revision is damaged")
    return uid, revision
