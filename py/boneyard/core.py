"""Shared values and protocols of every Boneyard game.

Every game package under ``boneyard.games`` builds on these: its state raises ``IllegalMoveError``,
ends with an ``Outcome``, draws every random number from a ``random.Random`` made here, and is
described to the shell, the arena and the saves by one ``GameInfo``. Turn-based states derive from
``TurnState``, which owns the frame they share: the seat rotation, the ``play()`` sequence, ``undo()``,
``clone()``, the ``from_dict`` wrapper and the common keys of ``view()``.

The view contract
-----------------
``state.view(seat)`` is the one thing that leaves the engine for a seat: bots, the search, a remote
player's table and the network receive views, never the state. A view is JSON (dicts, lists, str, int,
float, bool, None) and hides what that seat may not see. Every turn-based game's view has these keys
(declared by ``View``; ``VIEW_KEYS`` lists them with their types), then the game's own:

- ``game``: the game id (``"dominoes"``).
- ``players``: the number of seats.
- ``seat``: whose view this is.
- ``turn``: the seat to move, None once the game is over.
- ``turn_number``: how many moves have been applied since the deal (draws and passes included).
- ``over``: whether the game has ended.
- ``hand_counts``: how many tiles each seat holds, one number a seat.
- ``legal_moves``: the legal moves as text, for the seat to move only (empty for everyone else).
- ``history``: the public events in order, the same in every seat's view (for a match, those of the hand in progress), each a dict
  with ``seat`` and ``move`` (the move's text; None for an event that is not a move, which then says
  what it is under ``kind``). A draw says ``"draw"``, never which tile.
- ``outcome``: ``Outcome.to_dict()`` once over, else None.

``sample(view, rng)`` (a game's ``GameInfo.sample``, where the game hides anything) deals a full state
whose ``view(seat)`` equals the given view: the tiles that seat cannot see are dealt at random to the
places it cannot see, with the right counts, never against what the public history proves.

Each game declares its view once: a TypedDict extending ``View`` (its ``views`` module), with every key's
type and who may see it (unmarked: public, the same for every seat; ``Own``: the seat's own; ``Secret``:
hidden from the other seats; ``Revealed``: public, showing finished hands' secrets). ``ViewSpec`` wraps
it for the state class (``VIEW``); the conformance suite checks every view against it, mypy the code.
"""

from __future__ import annotations

import enum
import importlib
import os
import random
import types
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    NotRequired,
    Protocol,
    Required,
    TypeAlias,
    TypedDict,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

__all__ = [
    "VIEW_KEYS",
    "Bot",
    "Event",
    "GameInfo",
    "GameState",
    "IllegalMoveError",
    "Lazy",
    "LazyBots",
    "Option",
    "Outcome",
    "OutcomeView",
    "Own",
    "Revealed",
    "Secret",
    "Seen",
    "Termination",
    "TurnState",
    "View",
    "ViewSpec",
    "as_move",
    "derive_seed",
    "fresh_seed",
    "lazy_attributes",
    "lazy_engine",
    "make_rng",
    "random_bot",
    "rng_from_json",
    "rng_to_json",
    "run_thinking",
    "shape_problem",
    "think",
]


class IllegalMoveError(ValueError):
    """Raised by ``play`` for a move the rules refuse; the message tells the player why."""


def as_move(
    move: Any, parse_move: Callable[[str], Any], kinds: type | tuple[type, ...], game: str = ""
) -> Any:
    """Return ``move`` as a move object of ``kinds``: text is parsed; anything else is refused.

    Every game's ``play`` starts here, so a malformed move is always an IllegalMoveError that says why.
    """
    if isinstance(move, str):
        try:
            move = parse_move(move)
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
    if not isinstance(move, kinds):
        raise IllegalMoveError(f"not a {game + ' ' if game else ''}move: {move!r}")
    return move


class Termination(enum.StrEnum):
    """How a game ended, in the game's own words (string-valued: saves store the text)."""

    OUT = "out"  # a seat laid its last tile
    BLOCKED = "blocked"  # every seat in turn passed
    TARGET = "target"  # a match reached its target score
    ELIMINATED = "eliminated"  # the last seat that could still place (Heptalion)
    FIT = "fit"  # the solo puzzle: no tile fits any more
    SET_PLAYED = "set played"  # Bonefall Sprint: every domino of the set was played
    SET_CAP = "set cap"  # Bonefall Marathon: the last allowed set was played
    TOPPED_OUT = "topped out"  # Bonefall: no room at the top for the next domino


@dataclass(frozen=True)
class Outcome:
    """How a game ended: facts only; the browser layer words them for the player.

    ``winners`` lists the winning seats; it is empty for a draw (a tie for the win counts as a draw),
    unless ``side`` is set: then the winners are one side of partners (a partnership game) and won together.
    ``termination`` says how it ended. ``placings`` gives each seat's place (1 = first) where the game
    ranks everybody, ``scores`` each seat's final score where the game keeps one. ``detail`` is kept
    only so that older saves load: the engine no longer writes sentences (the UI owns them).
    """

    winners: tuple[int, ...]
    termination: Termination
    placings: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    detail: str = ""
    side: bool = False  # the winners are partners who won as one side, not seats tied for the win

    def __post_init__(self) -> None:
        if not isinstance(self.termination, Termination):
            try:
                object.__setattr__(self, "termination", Termination(self.termination))
            except ValueError:
                raise ValueError(f"unknown termination {self.termination!r}") from None

    @property
    def is_draw(self) -> bool:
        """Tell whether nobody won outright (one seat, or one side of partners)."""
        return not self.winners or (len(self.winners) != 1 and not self.side)

    def result_for(self, seat: int) -> str:
        """Return "win", "loss" or "draw" for ``seat`` (a seat among tied winners draws)."""
        if not self.winners:
            return "draw"
        if self.is_draw:
            return "draw" if seat in self.winners else "loss"
        return "win" if seat in self.winners else "loss"

    @property
    def winner(self) -> int | None:
        """Return the one winning seat, or None for a draw."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> OutcomeView:
        """Return the JSON-ready form."""
        out = OutcomeView(
            winners=list(self.winners),
            termination=self.termination.value,
            placings=list(self.placings),
            scores=list(self.scores),
            detail=self.detail,
        )
        if self.side:
            out["side"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """Rebuild an outcome from ``to_dict``'s form; raise ValueError when it is malformed."""
        try:
            return cls(
                winners=tuple(int(w) for w in data["winners"]),
                termination=Termination(str(data["termination"])),
                placings=tuple(int(p) for p in data.get("placings", ())),
                scores=tuple(int(s) for s in data.get("scores", ())),
                detail=str(data.get("detail", "")),
                side=data.get("side", False) is True,
            )
        except (KeyError, TypeError, AttributeError, OverflowError) as exc:
            raise ValueError(f"bad outcome: {type(exc).__name__}: {exc}") from None
        except ValueError as exc:
            raise ValueError(f"bad outcome: {exc}") from None


# ----------------------------------------------------------------------------------------------
# Randomness: every random number in a game or a bot comes from a seeded random.Random.


def make_rng(seed: int | None = None) -> random.Random:
    """Return a generator seeded with ``seed`` (a fresh unpredictable seed when None)."""
    return random.Random(fresh_seed() if seed is None else seed)


def fresh_seed() -> int:
    """Return an unpredictable 63-bit seed from the operating system (crypto in the browser)."""
    return int.from_bytes(os.urandom(8), "big") >> 1


def derive_seed(rng: random.Random) -> int:
    """Draw a 63-bit seed for a child generator from ``rng``."""
    return rng.getrandbits(63)


def rng_to_json(rng: random.Random) -> list[Any]:
    """Return the generator's exact state in a JSON-ready form."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    """Rebuild a generator from ``rng_to_json``'s form; raise ValueError when it is malformed."""
    try:
        version, internal, gauss = data
        if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, (int, float))):
            raise ValueError(f"gauss must be None or a number, not {gauss!r}")
        rng = random.Random()
        rng.setstate((int(version), tuple(int(x) for x in internal), None if gauss is None else float(gauss)))
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"bad random generator state: {exc}") from None
    return rng


# ----------------------------------------------------------------------------------------------
# The protocols every turn-based game follows (docs/architecture.md, "The state API").


class GameState(Protocol):
    """What a turn-based game's state answers; the UI, bots, arena, search and saves use only this."""

    players: int
    turn_number: int  # moves applied since the deal

    def current_player(self) -> int | None: ...  # None once the game is over

    def legal_moves(self) -> list[Any]: ...

    def play(self, move: Any) -> None: ...  # raises IllegalMoveError

    def undo(self) -> None: ...  # takes back the last move exactly; raises IndexError with none

    def can_undo(self) -> bool: ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def clone(self) -> GameState: ...

    def view(self, seat: int) -> dict[str, Any]: ...  # JSON-ready; see the view contract above

    def to_dict(self) -> dict[str, Any]: ...


# ----------------------------------------------------------------------------------------------
# The declared views: each game declares its view once, as a TypedDict that extends ``View``.


class Seen(enum.Enum):
    """Mark who may see a view key's value (``Own``, ``Secret``, ``Revealed``); an unmarked key is public."""

    OWN = "own"  # the seat's own: it differs from seat to seat but tells nothing another seat may not know
    SECRET = "secret"  # the seat's own and hidden from every other seat (its hand, its legal moves)
    REVEALED = "revealed"  # public, and shows what were secrets once a hand is over (the rules show them)


_T = TypeVar("_T")
Own: TypeAlias = Annotated[_T, Seen.OWN]
Secret: TypeAlias = Annotated[_T, Seen.SECRET]
Revealed: TypeAlias = Annotated[_T, Seen.REVEALED]


class OutcomeView(TypedDict):
    """Declare ``Outcome.to_dict()``'s form, as a view shows it."""

    winners: list[int]
    termination: str
    placings: list[int]
    scores: list[int]
    detail: str
    side: NotRequired[bool]


class Event(TypedDict):
    """Declare a public event of ``history``: a move by a seat, or (move None) an event named by ``kind``."""

    seat: int | None
    move: str | None
    kind: NotRequired[str]


_E = TypeVar("_E", bound=Event)


class View(TypedDict, Generic[_E]):
    """Declare the common keys of every turn-based view (see the module notes); a game's view extends it."""

    game: str
    players: int
    seat: Own[int]
    turn: int | None
    turn_number: int
    over: bool
    hand_counts: list[int]
    legal_moves: Secret[list[str]]
    history: list[_E]
    outcome: OutcomeView | None


@dataclass(frozen=True)
class ViewSpec:
    """Declare a game's view: its TypedDict (each key's type and mark) and when secrets are kept.

    The public keys (unmarked, or ``Revealed``) are the same in every seat's view of one moment; ``Secret``
    keys are hidden from the other seats while ``secret_if`` (a public bool key, None for always) is true,
    but for what a ``Revealed`` key shows of hands that are over. ``Own`` keys are the seat's own.
    """

    shape: type
    secret_if: str | None = None

    def seen(self) -> dict[str, Seen | None]:
        """Return each key with its mark (None for a public key), in declaration order."""
        return {key: _mark(hint) for key, hint in _hints(self.shape).items()}

    def public(self) -> tuple[str, ...]:
        """Return the keys every seat sees alike."""
        return tuple(key for key, mark in self.seen().items() if mark in (None, Seen.REVEALED))

    def secrets(self, view: Mapping[str, Any]) -> tuple[str, ...]:
        """Return the keys of ``view`` that no other seat may see (none while ``secret_if`` is false)."""
        if self.secret_if is not None and not view.get(self.secret_if):
            return ()
        return tuple(key for key, mark in self.seen().items() if mark is Seen.SECRET)

    def problem(self, view: Any) -> str | None:
        """Return where ``view`` breaks the declaration (a key missing or extra, a value of another type), or None."""
        return shape_problem(view, self.shape)


@cache
def _hints(shape: Any) -> dict[str, Any]:
    """Return a TypedDict's keys and declared types (marks kept), generic parameters bound."""
    hints = get_type_hints(shape, include_extras=True)
    bound: dict[Any, Any] = {}
    bases = list(getattr(shape, "__orig_bases__", ()))
    while bases:  # walk up the declarations: View[DominoesEvent] binds View's event type
        base = bases.pop()
        origin = get_origin(base) or base
        bound.update(zip(getattr(origin, "__parameters__", ()), get_args(base), strict=False))
        bases += getattr(origin, "__orig_bases__", ())
    return {key: _bind(hint, bound) for key, hint in hints.items()}


def _bind(hint: Any, bound: Mapping[Any, Any]) -> Any:
    """Return ``hint`` with its type variables replaced by what ``bound`` gives them (else their bound)."""
    if isinstance(hint, TypeVar):
        return bound.get(hint, hint.__bound__ if hint.__bound__ is not None else Any)
    args = get_args(hint)
    if not args or get_origin(hint) is Literal:
        return hint
    if get_origin(hint) is Annotated:
        return Annotated[(_bind(args[0], bound), *hint.__metadata__)]
    if get_origin(hint) in (Union, types.UnionType):
        return Union[tuple(_bind(a, bound) for a in args)]  # noqa: UP007 (a tuple of alternatives)
    new = tuple(_bind(a, bound) for a in args)
    return get_origin(hint)[new if len(new) > 1 else new[0]]


def _mark(hint: Any) -> Seen | None:
    if get_origin(hint) in (NotRequired, Required):
        return _mark(get_args(hint)[0])
    if get_origin(hint) is Annotated:
        return next((m for m in hint.__metadata__ if isinstance(m, Seen)), None)
    return None


def shape_problem(value: Any, shape: Any) -> str | None:
    """Return where ``value`` does not have the declared ``shape`` (``$.history[2].tile: ...``), or None.

    A shape is a type hint: a TypedDict (exactly its keys: all it requires, nothing it does not
    declare), ``list[X]``, ``dict[str, X]``, ``X | None``, ``Literal[...]``, ``int``, ``float``
    (an int will do), ``str``, ``bool``, ``None`` or ``Any``.
    """
    problem = _checker(shape)(value)
    return None if problem is None else "$" + problem


# A checker returns None, or the problem after the path to it from the value it was given (": ..." there).
_Check: TypeAlias = Callable[[Any], "str | None"]


@cache
def _checker(shape: Any) -> _Check:
    """Return a function that checks a value against ``shape`` (built once a shape: views are checked often)."""
    origin, args = get_origin(shape), get_args(shape)
    if origin in (Annotated, NotRequired, Required):
        return _checker(args[0])
    if shape is Any:
        return lambda value: None
    if shape is None or shape is type(None):
        return lambda value: None if value is None else f": {value!r} is not None"
    if origin in (Union, types.UnionType):
        alternatives = [_checker(a) for a in args]

        def either(value: Any) -> str | None:
            problems = [check(value) for check in alternatives]
            if None in problems:
                return None
            here = [p[2:] for p in problems if p and p.startswith(": ")]  # none of the types at this level
            return ": " + " and ".join(here) if len(here) == len(problems) else problems[0]

        return either
    if origin is Literal:
        return lambda value: (
            None if any(value == a and type(value) is type(a) for a in args) else f": {value!r} not in {args}"
        )
    if is_typeddict(shape):
        return _typeddict_checker(shape)
    if origin is list:
        item = _checker(args[0])

        def each(value: Any) -> str | None:
            if not isinstance(value, list):
                return f": {type(value).__name__}, not a list"
            for i, entry in enumerate(value):
                problem = item(entry)
                if problem:
                    return f"[{i}]{problem}"
            return None

        return each
    if origin is dict:
        key_check, value_check = _checker(args[0]), _checker(args[1])

        def mapping(value: Any) -> str | None:
            if not isinstance(value, dict):
                return f": {type(value).__name__}, not a dict"
            for key, entry in value.items():
                problem = key_check(key)
                if problem:
                    return f" key{problem}"
                problem = value_check(entry)
                if problem:
                    return f".{key}{problem}"
            return None

        return mapping
    wanted = (int, float) if shape is float else (shape,)
    name = shape.__name__

    def plain(value: Any) -> str | None:
        if not isinstance(value, wanted) or (value.__class__ is bool and shape is not bool):
            return f": {value!r} is not {name}"
        return None

    return plain


def _typeddict_checker(shape: Any) -> _Check:
    """Return the checker of a TypedDict: exactly its keys (all it requires), each value of its type."""
    hints = _hints(shape)
    checks = {key: _checker(hint) for key, hint in hints.items()}
    # Required keys from the hints: ``__required_keys__`` misses NotRequired under postponed annotations.
    optional = NotRequired if shape.__total__ else Required
    required = {key for key, hint in hints.items() if (get_origin(hint) is optional) != shape.__total__}
    name = shape.__name__

    def typed_dict(value: Any) -> str | None:
        if not isinstance(value, dict):
            return f": {type(value).__name__}, not a {name}"
        if not required <= value.keys() <= checks.keys():
            missing, extra = sorted(required - set(value)), sorted(set(value) - set(checks))
            return f": {name} lacks {missing}, has undeclared {extra}"
        for key, entry in value.items():
            problem = checks[key](entry)
            if problem:
                return f".{key}{problem}"
        return None

    return typed_dict


def _runtime_types(hint: Any) -> tuple[type, ...]:
    """Return the Python types a value of ``hint`` may have at its top level (for ``VIEW_KEYS``)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Annotated, NotRequired, Required):
        return _runtime_types(args[0])
    if origin in (Union, types.UnionType):
        return tuple(t for a in args for t in _runtime_types(a))
    if is_typeddict(hint):
        return (dict,)
    return (origin or hint,)


# The common keys of every turn-based view and the types their values take, from ``View``.
VIEW_KEYS: dict[str, tuple[type, ...]] = {key: _runtime_types(hint) for key, hint in _hints(View).items()}


_V = TypeVar("_V", bound="View[Any]")


class TurnState(Generic[_V]):
    """The frame every turn-based game's state shares; each game adds its own tables and rules.

    A game sets the class attributes ``GAME`` (its id), ``NAME`` (for messages), ``MOVE_TYPES`` and
    ``parse_move``, calls ``_start(players, rng)`` when it deals, and writes these hooks:

    - ``current_player()`` and ``legal_moves()``;
    - ``_accept(move)``: check a parsed move and return what ``_apply`` takes (by default the move itself,
      when it is among ``legal_moves()``; otherwise ``_refusal`` says why);
    - ``_apply(accepted)``: change the state and return an undo record; ``_revert(record)`` takes it back
      exactly (hands, stock order, ends, turn, scores and the generator where the move used it);
    - ``_copy_into(other)``: copy the mutable parts for ``clone()``;
    - ``_hand_counts()``, ``_public_history()`` and ``_view(seat)`` (the game's own view keys), declared
      by ``VIEW`` (a ``ViewSpec`` of the game's TypedDict, which is also the class's type parameter);
    - ``_from_dict(data)`` (a classmethod) for ``from_dict``.

    Undo records live in memory only: a state rebuilt from a save cannot take back moves made before it
    was saved (``can_undo()`` says so), and ``to_dict`` is unchanged by them.
    """

    GAME: ClassVar[str] = ""
    NAME: ClassVar[str] = ""
    VIEW: ClassVar[ViewSpec] = ViewSpec(View)  # the game's declared view (``_V`` for the type checker)
    MOVE_TYPES: ClassVar[tuple[type, ...]] = ()

    @staticmethod
    def parse_move(text: str) -> Any:
        """Return the move a text names (each game sets its own ``parse_move``)."""
        raise NotImplementedError

    players: int
    rng: random.Random | None
    turn_number: int
    _outcome: Outcome | None
    _undo: list[Any]

    def _start(self, players: int, rng: random.Random | None) -> None:
        """Set up the shared frame for a new deal (or a state being rebuilt from a save)."""
        self.players = players
        self.rng = rng
        self.turn_number = 0
        self._outcome = None
        self._undo = []

    # -- the game's hooks --------------------------------------------------------------------------

    def current_player(self) -> int | None:
        """Return the seat to move, or None once the game is over."""
        raise NotImplementedError

    def legal_moves(self) -> list[Any]:
        """Return the legal moves of the seat to move (empty once the game is over)."""
        raise NotImplementedError

    def _accept(self, move: Any) -> Any:
        """Return what ``_apply`` takes for a legal ``move``; raise IllegalMoveError saying why otherwise."""
        legal = self.legal_moves()
        if move in legal:
            return move
        raise IllegalMoveError(self._refusal(move, legal))

    def _refusal(self, move: Any, legal: list[Any]) -> str:
        """Return why the rules refuse ``move`` now."""
        return "that move is not allowed now"

    def _apply(self, accepted: Any) -> Any:
        """Apply an accepted move; return the record ``_revert`` needs to take it back."""
        raise NotImplementedError

    def _revert(self, record: Any) -> None:
        """Take back the move ``record`` came from."""
        raise NotImplementedError

    def _copy_into(self, other: Any) -> None:
        """Give ``other`` (a shallow copy of this state) its own copies of every mutable part."""

    def _hand_counts(self) -> list[int]:
        """Return how many tiles each seat holds."""
        raise NotImplementedError

    def _public_history(self) -> list[dict[str, Any]]:
        """Return the public events of the view contract (fresh dicts: the caller may keep them)."""
        raise NotImplementedError

    def _view(self, seat: int) -> dict[str, Any]:
        """Return the game's own view keys for ``seat``."""
        return {}

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild a state from ``to_dict``'s form, raising any error when it is malformed."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state, JSON-ready; ``from_dict`` rebuilds it exactly."""
        raise NotImplementedError

    # -- the shared frame --------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """Return the seat after ``seat``: play passes to seat + 1, round the table."""
        seat += 1
        return seat if seat < self.players else 0

    def is_over(self) -> bool:
        """Tell whether the game has ended."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it goes on."""
        return self._outcome

    def play(self, move: Any) -> None:
        """Play a move (a move object or its text) for the seat to move.

        Raise IllegalMoveError with the reason when the game is over, the move is malformed or the rules
        refuse it; nothing changes then.
        """
        if self._outcome is not None:
            raise IllegalMoveError("the game is over")
        move = as_move(move, type(self).parse_move, self.MOVE_TYPES, self.NAME)
        accepted = self._accept(move)
        self._undo.append(self._apply(accepted))
        self.turn_number += 1

    def can_undo(self) -> bool:
        """Tell whether a move can be taken back (moves made before a save was loaded cannot)."""
        return bool(self._undo)

    def undo(self) -> None:
        """Take back the last move exactly; raise IndexError when there is none to take back."""
        if not self._undo:
            raise IndexError("no move to take back")
        self._revert(self._undo.pop())
        self.turn_number -= 1

    def clone(self) -> Any:
        """Return an independent copy that plays on identically (its own generator, its own undo)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        if self.rng is not None:
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
        other._undo = list(self._undo)
        self._copy_into(other)
        return other

    def check_seat(self, seat: Any) -> int:
        """Return ``seat`` when it is a seat of this table; raise ValueError otherwise."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r} at a {self.players}-player table")
        return seat

    def view(self, seat: int) -> _V:
        """Return what ``seat`` may see, JSON-ready: the common keys of the view contract, then the game's."""
        self.check_seat(seat)
        outcome = self._outcome
        turn = None if outcome is not None else self.current_player()
        view: dict[str, Any] = {
            "game": self.GAME,
            "players": self.players,
            "seat": seat,
            "turn": turn,
            "turn_number": self.turn_number,
            "over": outcome is not None,
            "hand_counts": self._hand_counts(),
            "legal_moves": [str(m) for m in self.legal_moves()] if turn == seat else [],
            "history": self._public_history(),
            "outcome": outcome.to_dict() if outcome is not None else None,
        }
        view.update(self._view(seat))
        return cast("_V", view)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild a state from ``to_dict``'s form; raise one clear ValueError for any malformed save."""
        name = cls.NAME or cls.GAME
        try:
            return cls._from_dict(data)
        except ValueError as exc:
            raise ValueError(f"bad {name} save: {exc}") from None
        except (KeyError, TypeError, IndexError, AttributeError, ArithmeticError, RecursionError) as exc:
            raise ValueError(f"bad {name} save: {type(exc).__name__}: {exc}") from None


class Bot(Protocol):
    """A computer player: picks a move from what its seat may see.

    ``view`` is ``state.view(seat)`` for the seat to move; its ``"legal_moves"`` lists the legal
    moves as text. A bot never receives the state itself.
    """

    def __call__(self, view: Mapping[str, Any], rng: random.Random) -> Any: ...


class Lazy:
    """A function of another module, imported the first time it is called.

    Game packages register with these so that listing the games (the home screen, the page's start)
    does not import every rules engine and its tables; a game's modules load when it is first played.
    """

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self._target: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        """Import the module (once) and return the function."""
        if self._target is None:
            self._target = getattr(importlib.import_module(self.module), self.name)
        return self._target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self.module!r}, {self.name!r})"


class EngineFunctions(TypedDict, total=False):
    """The engine functions ``lazy_engine`` gives ``GameInfo``, by name."""

    new_state: Callable[..., Any]
    from_dict: Callable[[Mapping[str, Any]], Any]
    parse_move: Callable[[str], Any]
    sample: Callable[..., Any]


def lazy_engine(module: str, sample: str | None = None) -> EngineFunctions:
    """Return ``new_state``, ``from_dict`` and ``parse_move`` of a game's rules module, imported on first use.

    A game registers with ``GameInfo(..., **lazy_engine(f"{__name__}.rules"))``; a game with hidden
    information names the module of its ``sample(view, rng)`` too (it may be the rules module).
    """
    functions = EngineFunctions(
        new_state=Lazy(module, "new_state"),
        from_dict=Lazy(module, "from_dict"),
        parse_move=Lazy(module, "parse_move"),
    )
    if sample is not None:
        functions["sample"] = Lazy(sample, "sample")
    return functions


def lazy_attributes(package: str, module: str, names: Iterable[str]) -> Callable[[str], Any]:
    """Return a package ``__getattr__`` that gives ``names`` from ``module`` (relative to ``package``) on first use.

    A game package stays light to import: ``__getattr__ = lazy_attributes(__name__, ".rules", (...))``.
    """
    known = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name in known:
            return getattr(importlib.import_module(module, package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


class LazyBots(Mapping[str, "Bot"]):
    """A game's computer levels by name, known at once; the bots' module is imported on first use.

    A level that a higher layer supplies (Expert: ``boneyard.ai``, which imports the games, so they may
    not import it) is named in ``levels`` but not in the module's mapping: its bot arrives through
    ``provide``, which ``boneyard.ai`` calls for every game when it is imported.
    """

    def __init__(self, module: str, name: str, levels: Sequence[str]) -> None:
        self._source = Lazy(module, name)
        self._levels = tuple(levels)
        self._provided: dict[str, Bot] = {}

    def provide(self, level: str, bot: Bot) -> None:
        """Register the bot of ``level`` from the layer that supplies it."""
        if level not in self._levels:
            raise KeyError(level)
        self._provided[level] = bot

    def __getitem__(self, level: str) -> Bot:
        if level not in self._levels:
            raise KeyError(level)
        if level in self._provided:
            return self._provided[level]
        bots = cast("Mapping[str, Bot]", self._source.resolve())
        if level not in bots:
            # Not a KeyError: the level exists, its layer is just not loaded (``Mapping.get`` must not hide it).
            raise LookupError(f"the {level!r} level is not loaded: import boneyard.ai, which provides it")
        return bots[level]

    def __contains__(self, level: object) -> bool:
        return level in self._levels

    def __iter__(self) -> Iterator[str]:
        return iter(self._levels)

    def __len__(self) -> int:
        return len(self._levels)


@dataclass(frozen=True)
class Option:
    """One setting of a game's setup screen and of ``new_state`` (and ``--option`` in the arena)."""

    name: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()  # allowed values; empty means any value of the default's type
    help: str = ""

    def parse(self, text: str) -> Any:
        """Turn a command-line or form value into this option's type; raise ValueError if it is not allowed."""
        value: Any
        lowered = text.strip().lower()
        if lowered in ("none", "null", ""):
            value = None
        elif isinstance(self.default, bool) or lowered in ("true", "false"):
            if lowered not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"{self.name} must be true or false, not {text!r}")
            value = lowered in ("true", "1", "yes")
        else:
            try:
                value = int(lowered)
            except ValueError:
                value = text.strip()
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{self.name} must be one of {allowed}, not {text!r}")
        return value


@dataclass(frozen=True)
class GameInfo:
    """Everything the shell, the arena and the saves need to know about one game.

    A game package registers itself by defining ``GAME = GameInfo(...)`` in its ``__init__``;
    ``boneyard.games`` finds it, so adding a game is adding a package.
    """

    id: str
    name: str
    tagline: str  # one line for the home screen
    how_to_play: str  # the rules in our own words; paragraphs separated by blank lines
    min_players: int
    max_players: int
    new_state: Callable[..., Any]  # new_state(seed=..., **options)
    from_dict: Callable[[Mapping[str, Any]], Any]
    parse_move: Callable[[str], Any] | None = None
    sample: Callable[..., Any] | None = None  # sample(view, rng): a full state consistent with a view
    bots: Mapping[str, Bot] = field(default_factory=dict)  # level name -> bot, weakest first
    options: tuple[Option, ...] = ()
    realtime: bool = False  # True for the falling puzzle: no turns, no arena
    order: int = 100  # position on the home screen

    @property
    def levels(self) -> tuple[str, ...]:
        """Return the computer levels, weakest first, ``random`` included."""
        return ("random", *[name for name in self.bots if name != "random"])

    @property
    def named_levels(self) -> tuple[str, ...]:
        """Return the levels a player chooses from in setup (``random`` only when there is no other)."""
        return tuple(level for level in self.levels if level != "random") or ("random",)

    def bot(self, level: str) -> Bot:
        """Return the bot of ``level``; ``random`` picks uniformly among the legal moves."""
        if level == "random" and "random" not in self.bots:
            return random_bot(self.parse_move)
        try:
            return self.bots[level]
        except KeyError:
            known = ", ".join(self.levels)
            raise ValueError(f"{self.name} has no computer level {level!r} (known: {known})") from None
        except LookupError as exc:
            raise ValueError(f"{self.name}: {exc}") from None


def think(bot: Bot, view: Mapping[str, Any], rng: random.Random) -> Generator[None, None, Any]:
    """Return a generator that chooses ``bot``'s move, yielding now and then; its value is the move.

    A bot that searches long offers ``bot.think(view, rng)``, a generator that yields every so often,
    so the page can think in slices and stay responsive; any other bot answers in one go. Driving the
    generator to its end (``run_thinking``) gives exactly the move ``bot(view, rng)`` gives.
    """
    slices = getattr(bot, "think", None)
    if slices is not None:
        return cast("Generator[None, None, Any]", slices(view, rng))
    return _at_once(bot, view, rng)


def _at_once(bot: Bot, view: Mapping[str, Any], rng: random.Random) -> Generator[None, None, Any]:
    return bot(view, rng)
    yield  # never reached: the yield makes this function a generator


def run_thinking(thinking: Iterator[None]) -> Any:
    """Drive a thinking generator to its end without pausing; return its value (the move)."""
    while True:
        try:
            next(thinking)
        except StopIteration as stop:
            return stop.value


def random_bot(parse_move: Callable[[str], Any] | None) -> Bot:
    """Return a bot that plays a uniformly random legal move."""

    def choose(view: Mapping[str, Any], rng: random.Random) -> Any:
        moves = view["legal_moves"]
        text = moves[rng.randrange(len(moves))]
        return parse_move(text) if parse_move else text

    return choose
