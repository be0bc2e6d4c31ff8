"""Shared values and protocols of every Boneyard game.

Every game package under ``boneyard.games`` builds on these: its state raises ``IllegalMoveError``,
ends with an ``Outcome``, draws every random number from a ``random.Random`` made here, and is
described to the shell, the arena and the saves by one ``GameInfo``.
"""

from __future__ import annotations

import importlib
import os
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence

__all__ = [
    "IllegalMoveError",
    "Outcome",
    "Option",
    "GameInfo",
    "GameState",
    "Bot",
    "make_rng",
    "fresh_seed",
    "derive_seed",
    "rng_to_json",
    "rng_from_json",
    "random_bot",
    "as_move",
    "Lazy",
    "LazyBots",
    "think",
    "run_thinking",
    "lazy_engine",
]


class IllegalMoveError(ValueError):
    """Raised by ``play`` for a move the rules refuse; the message tells the player why."""


def as_move(move: Any, parse_move: Callable[[str], Any], kinds: type | tuple[type, ...], game: str = "") -> Any:
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


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winners`` lists the winning seats; it is empty for a draw (a tie for the win counts as a draw).
    ``termination`` names the way it ended in the game's own words (``"out"``, ``"blocked"``,
    ``"eliminated"``, ``"target"``...). ``placings`` gives each seat's place (1 = first) where the game
    ranks everybody, ``scores`` each seat's final score where the game keeps one, and ``detail`` is a
    sentence for the player.
    """

    winners: tuple[int, ...]
    termination: str
    placings: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    detail: str = ""

    @property
    def is_draw(self) -> bool:
        """Tell whether nobody won outright."""
        return len(self.winners) != 1

    @property
    def winner(self) -> int | None:
        """Return the one winning seat, or None for a draw."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready form."""
        return {
            "winners": list(self.winners),
            "termination": self.termination,
            "placings": list(self.placings),
            "scores": list(self.scores),
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """Rebuild an outcome from ``to_dict``'s form."""
        return cls(
            winners=tuple(int(w) for w in data["winners"]),
            termination=str(data["termination"]),
            placings=tuple(int(p) for p in data.get("placings", ())),
            scores=tuple(int(s) for s in data.get("scores", ())),
            detail=str(data.get("detail", "")),
        )


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
        rng = random.Random()
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad random generator state: {exc}") from None
    return rng


# ----------------------------------------------------------------------------------------------
# The protocols every turn-based game follows (see DESIGN.md, "Engine API").


class GameState(Protocol):
    """What a turn-based game's state answers; the UI, bots, arena and saves use only this."""

    def current_player(self) -> int | None: ...  # None once the game is over

    def legal_moves(self) -> list[Any]: ...

    def play(self, move: Any) -> None: ...  # raises IllegalMoveError

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def clone(self) -> GameState: ...

    def view(self, player: int) -> dict[str, Any]: ...  # JSON-ready; "legal_moves" as text

    def to_dict(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """A computer player: picks a move from what its seat may see.

    ``view`` is ``state.view(seat)`` for the seat to move; its ``"legal_moves"`` lists the legal
    moves as text. A bot never receives the state itself.
    """

    def __call__(self, view: dict[str, Any], rng: random.Random) -> Any: ...


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


def lazy_engine(module: str) -> dict[str, Lazy]:
    """Return ``new_state``, ``from_dict`` and ``parse_move`` of a game's rules module, imported on first use.

    A game registers with ``GameInfo(..., **lazy_engine(f"{__name__}.rules"))``.
    """
    return {name: Lazy(module, name) for name in ("new_state", "from_dict", "parse_move")}


class LazyBots(Mapping[str, "Bot"]):
    """A game's computer levels by name, known at once; the bots' module is imported on first use."""

    def __init__(self, module: str, name: str, levels: Sequence[str]) -> None:
        self._source = Lazy(module, name)
        self._levels = tuple(levels)

    def __getitem__(self, level: str) -> Bot:
        if level not in self._levels:
            raise KeyError(level)
        return self._source.resolve()[level]  # type: ignore[index]

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


def think(bot: Bot, view: dict[str, Any], rng: random.Random) -> Iterator[None]:
    """Return a generator that chooses ``bot``'s move, yielding now and then; its value is the move.

    A bot that searches long offers ``bot.think(view, rng)``, a generator that yields every so often,
    so the page can think in slices and stay responsive; any other bot answers in one go. Driving the
    generator to its end (``run_thinking``) gives exactly the move ``bot(view, rng)`` gives.
    """
    slices = getattr(bot, "think", None)
    if slices is not None:
        return slices(view, rng)
    return _at_once(bot, view, rng)


def _at_once(bot: Bot, view: dict[str, Any], rng: random.Random) -> Iterator[None]:
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

    def choose(view: dict[str, Any], rng: random.Random) -> Any:
        moves = view["legal_moves"]
        text = moves[rng.randrange(len(moves))]
        return parse_move(text) if parse_move else text

    return choose
