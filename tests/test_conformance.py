"""One conformance suite over every turn-based game in the registry (after OpenSpiel's ``api_test.py``).

A game is tested here by being registered in ``boneyard.games.GAMES``: nothing in this module names a
game except the few extra option sets below. Each check plays seeded random games to the end under
several option sets derived from the game's ``GameInfo.options`` and holds the state to the engine API
and the view contract of ``boneyard.core``: legal moves until the end and none after, save round trips,
move text round trips, refusals that change nothing, clones, views (each against the game's declared
view: exact keys, types, nested shapes, public keys alike for every seat), undo, sampling, loading
garbage, and the one leak test of every game (no seat sees another's secrets; re-deals change nothing seen).

The default run plays a few games per option set (the whole module runs in well under a minute);
``-m slow`` runs the heavier version: many more seeds and hypothesis examples.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.core import VIEW_KEYS, GameInfo, IllegalMoveError, Outcome, Seen, Termination, ViewSpec
from boneyard.games import GAMES

TURN_BASED: list[GameInfo] = [info for info in GAMES.values() if not info.realtime]

# Option sets beyond those derived from ``info.options``, for options with no list of choices.
EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "dominoes": [
        {"target": 50},
        {"target": 100, "draw": False, "players": 3},
        {"players": 4, "hand_size": 6},
        # All Fives and partnerships (the option sets above flip each one alone): combined, and with
        # the block game, three players and a short match.
        {"scoring": "fives", "teams": True, "players": 4},
        {"scoring": "fives", "draw": False, "players": 3, "target": 100},
        {"teams": True, "players": 4, "target": 100, "draw": False},
    ],
    "heptalion": [{"players": 3, "hidden": True}],
}
# Games that hide nothing from any seat although they have no ``hidden`` option (none today).
PERFECT_INFORMATION: set[str] = set()
# Option sets whose hidden hands hide nothing in fact (a seat's own hand tells it every other tile).
NOTHING_LEFT_TO_GUESS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "heptalion": lambda options: options.get("players", 2) == 2,  # all 28 tiles dealt between the two
}

MOVE_CAP = 5000  # a random game longer than this is taken to loop
FAST = {
    "games": 2,
    "moves": 200,
}  # per option set: this many games, or fewer once this many moves were played
SLOW = {"games": 40, "moves": 10**9}
FAST_EXAMPLES = 60  # hypothesis examples per game
SLOW_EXAMPLES = 1500

GARBAGE_TEXTS = ["", "   ", "garbage", "@@", "6-6-6-6-6", "pass pass", "\x00", "9-9:Q", "-", "1-2-3@x,yr9"]
NOT_MOVES: list[Any] = [None, 42, 3.5, True, object(), ["draw"], {"move": "draw"}, b"draw"]


@dataclass(frozen=True)
class ForeignMove:
    """A move object of no game: its text may be a legal move's, but its type is nobody's."""

    text: str

    def __str__(self) -> str:
        return self.text


# ----------------------------------------------------------------------------------------------
# The option sets of each game.


class Case:
    """One game under one option set."""

    def __init__(self, info: GameInfo, options: dict[str, Any]) -> None:
        self.info = info
        self.options = options
        self.id = info.id + "".join(f"-{k}={v}" for k, v in sorted(options.items())) if options else info.id

    def new(self, seed: int) -> Any:
        """Deal the seeded game."""
        return self.info.new_state(seed=seed, **self.options)

    def players(self) -> int:
        """Return the number of seats of this option set."""
        return int(self.new(0).players)

    def hides(self) -> bool:
        """Tell whether a seat cannot see everything (then sampling must vary the state)."""
        if self.players() == 1 or self.info.id in PERFECT_INFORMATION:
            return False
        guessless = NOTHING_LEFT_TO_GUESS.get(self.info.id)
        if guessless is not None and guessless(self.options):
            return False
        named = {option.name: option for option in self.info.options}
        if "hidden" in named:
            return bool(self.options.get("hidden", named["hidden"].default))
        return True

    def __repr__(self) -> str:
        return self.id


def player_counts(info: GameInfo) -> list[int]:
    """Return every number of seats the game offers: the players option's choices, else min to max."""
    for option in info.options:
        if option.name == "players" and option.choices:
            return sorted(int(c) for c in option.choices)
    return list(range(info.min_players, info.max_players + 1))


def option_sets(info: GameInfo) -> list[dict[str, Any]]:
    """Derive the option sets of a game: defaults, every player count, every other choice, every flag flipped."""
    named = {option.name: option for option in info.options}
    counts = player_counts(info)
    default_players = named["players"].default if "players" in named else counts[0]
    sets: list[dict[str, Any]] = [{}]
    sets += [{"players": n} for n in counts if n != default_players]
    for option in info.options:
        if option.name == "players":
            continue
        if isinstance(option.default, bool):
            sets.append({option.name: not option.default})
            if counts[-1] != default_players:
                sets.append({option.name: not option.default, "players": counts[-1]})
        else:
            sets += [{option.name: choice} for choice in option.choices if choice != option.default]
    sets += EXTRA_OPTIONS.get(info.id, [])
    found: dict[str, dict[str, Any]] = {}
    for options in sets:
        try:
            info.new_state(seed=0, **options)
        except ValueError:
            continue  # a combination the game refuses (a starting seat beyond the table)
        found.setdefault(json.dumps(options, sort_keys=True), options)
    return list(found.values())


CASES = [Case(info, options) for info in TURN_BASED for options in option_sets(info)]
GAME_IDS = [info.id for info in TURN_BASED]


def seeds(case: Case, profile: dict[str, int]) -> Iterator[int]:
    """Yield seeds for ``case`` until the profile's number of games or of moves is reached."""
    moves = 0
    for seed in range(profile["games"]):
        if seed and moves >= profile["moves"]:
            return
        yield seed
        state = case.new(seed)
        rng = chooser(seed)
        for _ in steps(state, rng):
            moves += 1


def chooser(seed: int) -> random.Random:
    """Return the generator that picks the random moves of game ``seed``."""
    return random.Random(seed * 7919 + 17)


def steps(state: Any, rng: random.Random) -> Iterator[tuple[int, Any]]:
    """Yield (move number, move) before each move of a random game, then play that move; stop at the end."""
    k = 0
    while not state.is_over():
        assert k < MOVE_CAP, f"no end after {MOVE_CAP} random moves"
        legal = state.legal_moves()
        assert legal, f"no legal move at move {k} though the game is not over"
        move = legal[rng.randrange(len(legal))]
        yield k, move
        state.play(move)
        k += 1


def texts(moves: list[Any]) -> list[str]:
    """Return the text of each move."""
    return [str(m) for m in moves]


def json_problem(value: Any, path: str = "$") -> str | None:
    """Return where ``value`` is not plain JSON (dict with str keys, list, str, int, float, bool, None)."""
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if value == value and value not in (float("inf"), float("-inf")) else f"{path}: {value}"
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = json_problem(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path}: key {key!r}"
            problem = json_problem(item, f"{path}.{key}")
            if problem:
                return problem
        return None
    return f"{path}: {type(value).__name__} {value!r}"


def through_json(value: Any) -> Any:
    """Return ``value`` after a trip through JSON text (as a save or a network message makes it)."""
    return json.loads(json.dumps(value, allow_nan=False))


def each_seed(case: Case, profile: dict[str, int], check: Callable[[Case, int], None]) -> None:
    """Run ``check`` on every seed of the profile, naming the option set and seed of a failure."""
    for seed in seeds(case, profile):
        try:
            check(case, seed)
        except Exception as exc:
            raise AssertionError(f"{case.id}, seed {seed}: {type(exc).__name__}: {exc}") from exc


# ----------------------------------------------------------------------------------------------
# The checks (one seeded game each); the fast tests run each on a few seeds, the slow test on many.


def check_random_game(case: Case, seed: int) -> None:
    """Play to the end: legal moves until then and none after, turn_number counts moves, outcome iff over."""
    state = case.new(seed)
    players = state.players
    assert players == case.players()
    played = 0
    for k, _ in steps(state, chooser(seed)):
        assert state.turn_number == k == played, f"turn_number {state.turn_number} after {k} moves"
        seat = state.current_player()
        assert isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players, f"seat {seat!r}"
        assert state.outcome() is None, f"an outcome before the end, at move {k}"
        legal = texts(state.legal_moves())
        assert len(set(legal)) == len(legal), f"the same move listed twice at move {k}: {legal}"
        assert texts(state.legal_moves()) == legal, "legal_moves() changed between two calls"
        played += 1
    assert state.is_over()
    assert state.turn_number == played
    assert state.current_player() is None
    assert state.legal_moves() == []
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert isinstance(outcome.termination, Termination)
    assert len(set(outcome.winners)) == len(outcome.winners)
    assert all(0 <= w < players for w in outcome.winners), outcome.winners
    assert outcome.placings == () or (
        len(outcome.placings) == players and all(1 <= p <= players for p in outcome.placings)
    )
    assert outcome.scores == () or len(outcome.scores) == players
    if outcome.placings and len(outcome.winners) == 1:
        assert outcome.placings[outcome.winners[0]] == 1
    assert Outcome.from_dict(through_json(outcome.to_dict())) == outcome


def assert_round_trip(case: Case, state: Any, where: str) -> dict[str, Any]:
    """Check that the state's save is plain JSON and loads into an equal state; return the save."""
    saved = state.to_dict()
    problem = json_problem(saved)
    assert problem is None, f"to_dict is not plain JSON at {where}: {problem}"
    loaded = case.info.from_dict(through_json(saved))
    assert type(loaded) is type(state)
    assert loaded.to_dict() == saved, f"from_dict(to_dict()) gives another to_dict at {where}"
    assert loaded.is_over() == state.is_over() and loaded.outcome() == state.outcome()
    assert loaded.current_player() == state.current_player()
    assert texts(loaded.legal_moves()) == texts(state.legal_moves()), (
        f"the loaded legal moves differ at {where}"
    )
    for seat in range(state.players):
        assert loaded.view(seat) == state.view(seat), f"the loaded view({seat}) differs at {where}"
    return saved


def check_save_round_trip(case: Case, seed: int) -> None:
    """At every step to_dict is JSON, from_dict of that JSON gives an equal to_dict, and both play on alike."""
    state = case.new(seed)
    pending = None  # a copy loaded before the last move, which played that move too
    moves: list[str] = []
    middle: tuple[dict[str, Any], int] | None = None
    for k, move in steps(state, chooser(seed)):
        saved = assert_round_trip(case, state, f"move {k}")
        if pending is not None:
            assert pending.to_dict() == saved, f"a loaded copy played move {k - 1} differently"
        if k == 4:
            middle = (through_json(saved), k)
        pending = case.info.from_dict(through_json(saved))
        pending.play(str(move))
        moves.append(str(move))
    final = assert_round_trip(case, state, "the end")
    if pending is not None:
        assert pending.to_dict() == final, "a loaded copy played the last move differently"
    if middle is not None:  # a copy loaded mid-game plays the rest of the game to the same end
        loaded = case.info.from_dict(middle[0])
        for text in moves[middle[1] :]:
            loaded.play(text)
        assert loaded.to_dict() == final, "a copy loaded at move 4 did not reach the same end"


def check_move_texts(case: Case, seed: int) -> None:
    """Every legal move's text parses back to that move, and playing the text is playing the move."""
    state = case.new(seed)
    parse = case.info.parse_move
    assert parse is not None, "the game registers no parse_move"
    for k, move in steps(state, chooser(seed)):
        for legal in state.legal_moves():
            text = str(legal)
            assert text and text == text.strip(), f"move text {text!r}"
            parsed = parse(text)
            assert parsed == legal, f"parse_move({text!r}) gives {parsed!r}, not {legal!r} (move {k})"
            assert str(parsed) == text
        by_text, by_object = state.clone(), state.clone()
        by_text.play(str(move))
        by_object.play(move)
        assert by_text.to_dict() == by_object.to_dict(), f"playing {move} as text differs (move {k})"


@cache
def foreign_moves(game_id: str) -> tuple[Any, ...]:
    """Return move objects of the other registered games (a few legal moves of each one's deal)."""
    found: list[Any] = []
    for info in TURN_BASED:
        if info.id != game_id:
            found += info.new_state(seed=0).legal_moves()[:2]
    return tuple(found)


def assert_refused(state: Any, attempts: list[Any], where: str) -> None:
    """Check that each attempt raises IllegalMoveError with a message and changes nothing."""
    before = state.to_dict()
    for attempt in attempts:
        try:
            state.play(attempt)
        except IllegalMoveError as exc:
            assert str(exc).strip(), f"play({attempt!r}) {where}: IllegalMoveError without a message"
        except Exception as exc:
            raise AssertionError(f"play({attempt!r}) {where} raised {type(exc).__name__}: {exc}") from exc
        else:
            raise AssertionError(f"play({attempt!r}) {where} was accepted")
        assert state.to_dict() == before, f"the refused play({attempt!r}) {where} changed the state"


def check_refusals(case: Case, seed: int) -> None:
    """Garbage text, non-moves, other games' moves, other seats' moves and moves after the end are refused."""
    parse = case.info.parse_move
    assert parse is not None
    record: list[tuple[int, list[str]]] = []  # (seat, legal move texts) at each step of this game
    probe = case.new(seed)
    for _ in steps(probe, chooser(seed)):
        record.append((probe.current_player(), texts(probe.legal_moves())))
    state = case.new(seed)
    for k, _ in steps(state, chooser(seed)):
        seat = state.current_player()
        legal = texts(state.legal_moves())
        attempts: list[Any] = [t for t in GARBAGE_TEXTS if t not in legal] + NOT_MOVES
        attempts += [ForeignMove(legal[0]), *foreign_moves(case.info.id)]
        others: list[str] = []
        for j in sorted(range(len(record)), key=lambda j: abs(j - k)):
            if record[j][0] != seat:
                others += [t for t in record[j][1] if t not in legal and t not in others][:1]
            if len(others) >= 3:
                break
        attempts += others + [parse(t) for t in others]
        assert_refused(state, attempts, f"at move {k} (seat {seat})")
    seen = sorted({t for _, legal in record for t in legal})[:12]
    after = seen + [parse(t) for t in seen] + ["draw", "pass"] + GARBAGE_TEXTS[:3] + NOT_MOVES[:2]
    assert_refused(state, after, "after the end")


def wander(state: Any, rng: random.Random, moves: int) -> None:
    """Change a state: a few random moves, a draw from its generator, one move taken back when it can."""
    for _ in range(moves):
        legal = state.legal_moves()
        if not legal:
            break
        state.play(legal[rng.randrange(len(legal))])
    if getattr(state, "rng", None) is not None:
        state.rng.random()
    if getattr(state, "can_undo", None) is not None and state.can_undo():
        state.undo()


def check_clones(case: Case, seed: int) -> None:
    """A clone starts equal, plays on identically, and neither it nor the original moves the other."""
    state = case.new(seed)
    twin = None  # a clone taken before the last move, with the save of that moment and the move
    for k, move in steps(state, chooser(seed)):
        before = state.to_dict()
        legal = texts(state.legal_moves())
        if twin is not None:
            other, saved, last = twin
            assert other.to_dict() == saved, f"a clone changed when the original played move {k - 1}"
            other.play(last)
            assert other.to_dict() == before, f"a clone played move {k - 1} differently"
        other = state.clone()
        assert other is not state and type(other) is type(state)
        assert other.to_dict() == before, f"a clone differs from its original at move {k}"
        if getattr(state, "rng", None) is not None:
            assert other.rng is not state.rng, "a clone shares the original's generator"
        wander(other, random.Random(k), 8)
        assert state.to_dict() == before, f"playing on a clone changed the original at move {k}"
        assert texts(state.legal_moves()) == legal
        twin = (state.clone(), before, move)


def event_problem(event: Any, players: int) -> str | None:
    """Return what is wrong with a history event of the view contract, or None."""
    if not isinstance(event, dict):
        return "not a dict"
    if "seat" not in event or "move" not in event:
        return "no seat or no move key"
    move, seat = event["move"], event["seat"]
    if move is None:
        if not isinstance(event.get("kind"), str):
            return "an event that is no move says no kind"
        if seat is None:
            return None
    elif not isinstance(move, str) or not move:
        return "move is not its text"
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        return f"seat {seat!r}"
    return None


def declared(state: Any) -> ViewSpec:
    """Return the game's declared view, checking that it extends the common keys of ``core.View``."""
    spec: ViewSpec = type(state).VIEW
    seen = spec.seen()
    assert list(seen)[: len(VIEW_KEYS)] == list(VIEW_KEYS), f"{spec.shape.__name__} does not extend View"
    assert spec.secret_if is None or (spec.secret_if in seen and seen[spec.secret_if] is None)
    return spec


def assert_views(case: Case, state: Any, where: str) -> list[dict[str, Any]]:
    """Check every seat's view against its declaration and the state, at one moment; return the views.

    The declaration gives the exact keys, each value's type and nested shape; its public keys are the
    same in every seat's view.
    """
    before = state.to_dict()
    players = state.players
    over = state.is_over()
    turn = state.current_player()
    legal = texts(state.legal_moves())
    outcome = state.outcome()
    spec = declared(state)
    views = []
    for seat in range(players):
        view = state.view(seat)
        label = f"view({seat}) at {where}"
        problem = json_problem(view)
        assert problem is None, f"{label} is not plain JSON: {problem}"
        problem = spec.problem(view)
        assert problem is None, f"{label} breaks its declaration {spec.shape.__name__}: {problem}"
        assert view["game"] == case.info.id, label
        assert view["players"] == players, label
        assert view["seat"] == seat, label
        assert view["turn"] == turn and view["over"] is over, (
            f"{label}: turn {view['turn']}, over {view['over']}"
        )
        assert view["turn_number"] == state.turn_number, label
        counts = view["hand_counts"]
        assert len(counts) == players, f"{label}: hand_counts {counts}"
        assert all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts), counts
        expected = legal if seat == turn else []
        assert view["legal_moves"] == expected, f"{label}: legal_moves {view['legal_moves']} not {expected}"
        assert view["outcome"] == (outcome.to_dict() if outcome is not None else None), label
        for i, event in enumerate(view["history"]):
            problem = event_problem(event, players)
            assert problem is None, f"{label}: history[{i}] {event!r}: {problem}"
        views.append(view)
    for key in spec.public():
        assert all(v[key] == views[0][key] for v in views), f"seats see different public {key!r} at {where}"
    assert state.to_dict() == before, f"view() changed the state at {where}"
    scratch = state.view(0)  # a view is the caller's to keep: changing it changes nothing
    scratch["history"].append({"seat": 0, "move": "junk"})
    scratch["hand_counts"].append(99)
    scratch["legal_moves"].append("junk")
    assert state.view(0) == views[0], f"changing a view changed the state at {where}"
    return views


def assert_history_grew(before: list[Any], seat: int, text: str, after: list[Any], where: str) -> None:
    """Check that a move appended one public event with its seat and its text (or began a new hand)."""
    if after[: len(before)] != before:
        return  # the history of a new hand (a match) begins
    new = [event for event in after[len(before) :] if event["move"] is not None]
    assert len(new) == 1, f"move {text} by seat {seat} at {where} added the events {after[len(before) :]}"
    assert (new[0]["seat"], new[0]["move"]) == (seat, text), f"{text} by seat {seat} recorded as {new[0]}"


def check_views(case: Case, seed: int) -> None:
    """At every step every seat's view keeps the view contract; each move adds its public event."""
    state = case.new(seed)
    for bad in (-1, state.players, True, "0", None, 1.0):
        with pytest.raises(ValueError):
            state.view(bad)
    last: tuple[list[Any], int, str] | None = None
    for k, move in steps(state, chooser(seed)):
        views = assert_views(case, state, f"move {k}")
        if last is not None:
            assert_history_grew(*last, views[0]["history"], f"move {k - 1}")
        last = (views[0]["history"], state.current_player(), str(move))
    views = assert_views(case, state, "the end")
    if last is not None:
        assert_history_grew(*last, views[0]["history"], "the last move")


def check_undo(case: Case, seed: int) -> None:
    """After every move undo() restores the save of before; replay restores the save of after; all the way back."""
    state = case.new(seed)
    assert not state.can_undo(), "a fresh deal can take back a move"
    with pytest.raises(IndexError):
        state.undo()
    start = state.to_dict()
    assert not case.info.from_dict(through_json(start)).can_undo(), "a loaded state can take back a move"
    played: list[str] = []
    expected: dict[str, Any] | None = None
    for k, move in steps(state, chooser(seed)):
        before = state.to_dict()
        if expected is not None:
            assert before == expected, f"replaying move {k - 1} after its undo gave another state"
        legal = texts(state.legal_moves())
        seat = state.current_player()
        view = state.view(seat)
        state.play(move)
        expected = state.to_dict()
        assert state.can_undo(), f"cannot take back move {k}"
        state.undo()
        assert state.to_dict() == before, f"undo of move {k} ({move}) did not restore the state"
        assert state.turn_number == k and state.current_player() == seat and not state.is_over()
        assert texts(state.legal_moves()) == legal, f"after the undo of move {k} the legal moves differ"
        assert state.view(seat) == view, f"after the undo of move {k} the view differs"
        played.append(str(move))
    final = state.to_dict()
    assert final == expected, "replaying the last move after its undo gave another state"
    taken = 0
    while state.can_undo():
        state.undo()
        taken += 1
    assert taken == len(played), f"took back {taken} of {len(played)} moves"
    assert state.to_dict() == start, "taking back every move does not give the deal"
    for text in played:
        state.play(text)
    assert state.to_dict() == final, "replaying every move does not give the same end"
    loaded = case.info.from_dict(through_json(final))
    assert not loaded.can_undo()


def sample_of(case: Case, view: dict[str, Any], seed: int) -> Any:
    """Return ``info.sample(view, rng)`` with a generator seeded by ``seed``."""
    assert case.info.sample is not None, "the game registers no GameInfo.sample"
    return case.info.sample(view, random.Random(seed))


def assert_samples(case: Case, state: Any, seat: int, seed: int, where: str) -> None:
    """Check that samples from seat's view show that seat the same view, reproducibly and independently."""
    view = state.view(seat)
    kept = copy.deepcopy(view)
    before = state.to_dict()
    for r in range(2):
        sampled = sample_of(case, view, seed + r)
        assert view == kept, f"sample() changed the view it was given at {where}"
        assert state.to_dict() == before
        assert sampled is not state and type(sampled) is type(state)
        seen = sampled.view(seat)
        differ = sorted(key for key in set(seen) | set(view) if seen.get(key) != view.get(key))
        assert not differ, f"a sample from view({seat}) at {where} shows that seat other {differ}"
        saved = sampled.to_dict()
        assert json_problem(saved) is None
        assert case.info.from_dict(through_json(saved)).to_dict() == saved, f"a sample's save at {where}"
        again = sample_of(case, copy.deepcopy(kept), seed + r)
        assert again.to_dict() == saved, f"two samples with one seed differ at {where}"
        wander(sampled, random.Random(r), 6)
        assert state.to_dict() == before, f"playing on a sample changed the original at {where}"


def check_samples(case: Case, seed: int) -> None:
    """At several points a sample from each seat's view shows that seat exactly that view."""
    state = case.new(seed)
    for k, _ in steps(state, chooser(seed)):
        if k in (0, 1) or k % 7 == 3:
            for seat in range(state.players):
                assert_samples(case, state, seat, seed * 10007 + k * 31 + seat * 3, f"move {k}")
    for seat in range(state.players):
        assert_samples(case, state, seat, seed * 10007 + 7, "the end")


def variant(state: Any, seat: int) -> str:
    """Return what a sample may change: the other seats' views and the save (its generator left out)."""
    saved = {key: value for key, value in state.to_dict().items() if key != "rng"}
    others = [state.view(other) for other in range(state.players) if other != seat]
    return json.dumps([others, saved], sort_keys=True)


def check_samples_vary(case: Case, seed: int) -> None:
    """Samples from a view vary what that seat cannot see (with hidden information), else change nothing."""
    state = case.new(seed)
    points = [0, 5]
    for k, _ in steps(state, chooser(seed)):
        if k not in points:
            continue
        for seat in range(state.players):
            view = state.view(seat)
            samples = [sample_of(case, view, seed * 1000 + k * 50 + r) for r in range(16)]
            if case.hides():
                variants = {variant(sampled, seat) for sampled in samples}
                assert len(variants) > 1, f"16 samples from view({seat}) at move {k} are all the same"
            else:  # nothing to guess: every seat sees the sample as it sees the game
                views = [state.view(other) for other in range(state.players)]
                for sampled in samples:
                    seen = [sampled.view(other) for other in range(state.players)]
                    assert seen == views, (
                        f"a sample from view({seat}) at move {k} differs though nothing is hidden"
                    )


# ----------------------------------------------------------------------------------------------
# The leak test, one for every game: what the declarations mark secret stays with its seat.

REDEALS = 8  # samples from each seat's view at the deal


def contains(value: Any, part: Any) -> bool:
    """Tell whether ``part`` is ``value`` or any value nested in it."""
    if value == part:
        return True
    if isinstance(value, dict):
        return any(contains(item, part) for item in value.values())
    if isinstance(value, list):
        return any(contains(item, part) for item in value)
    return False


def assert_no_secret_shown(spec: ViewSpec, views: list[dict[str, Any]], where: str) -> None:
    """Check that no seat's view holds another seat's secret (a hand, legal moves: any list or dict marked so).

    Keys marked ``Revealed`` are left out: they show the hands of finished hands, as the rules do.
    """
    revealed = [key for key, mark in spec.seen().items() if mark is Seen.REVEALED]
    views = [{key: value for key, value in view.items() if key not in revealed} for view in views]
    for other, theirs in enumerate(views):
        for key in spec.secrets(theirs):
            secret = theirs[key]
            if not isinstance(secret, (list, dict)) or not secret:
                continue  # a number or an empty list tells too little to look for (the re-deals cover it)
            for seat, view in enumerate(views):
                assert seat == other or not contains(view, secret), (
                    f"view({seat}) at {where} shows seat {other}'s secret {key!r}: {secret}"
                )


def secrets_of_others(spec: ViewSpec, state: Any, seat: int) -> str:
    """Return the other seats' secrets in ``state`` (as text, to compare re-deals)."""
    others = [state.view(other) for other in range(state.players) if other != seat]
    return json.dumps([[view[key] for key in spec.secrets(view)] for view in others])


def assert_redeals_change_nothing_seen(case: Case, state: Any, seed: int, where: str, vary: bool) -> None:
    """Re-deal what each seat cannot see (``sample``): its view is unchanged; with ``vary``, the others' secrets vary."""
    spec = declared(state)
    for seat in range(state.players):
        view = state.view(seat)
        dealt = {secrets_of_others(spec, state, seat)}
        for r in range(REDEALS):
            redealt = sample_of(case, view, seed * 7 + seat * 101 + r)
            seen = redealt.view(seat)
            differ = sorted(key for key in set(seen) | set(view) if seen.get(key) != view.get(key))
            assert not differ, f"a re-deal at {where} changes {differ} in view({seat})"
            dealt.add(secrets_of_others(spec, redealt, seat))
        assert len(dealt) > 1 or not (vary and case.hides()), (
            f"{REDEALS} re-deals for seat {seat} at {where} were all alike"
        )


def check_no_leaks(case: Case, seed: int) -> None:
    """No seat's view shows another's secret at any step; re-dealing what a seat cannot see changes nothing it sees."""
    state = case.new(seed)
    spec = declared(state)
    for k, _ in steps(state, chooser(seed)):
        assert_no_secret_shown(spec, [state.view(seat) for seat in range(state.players)], f"move {k}")
        if k == 0:
            assert_redeals_change_nothing_seen(case, state, seed, "the deal", vary=True)
    assert_no_secret_shown(spec, [state.view(seat) for seat in range(state.players)], "the end")
    assert_redeals_change_nothing_seen(case, state, seed, "the end", vary=False)  # the rules show the hands


CHECKS = [
    check_random_game,
    check_save_round_trip,
    check_move_texts,
    check_refusals,
    check_clones,
    check_views,
    check_undo,
    check_samples,
    check_samples_vary,
    check_no_leaks,
]


# ----------------------------------------------------------------------------------------------
# The fast tests: each check over a few games of every option set of every game.


@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_games_end_with_legal_moves_until_then_and_none_after(case: Case) -> None:
    each_seed(case, FAST, check_random_game)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_save_round_trips_through_json_at_every_step(case: Case) -> None:
    each_seed(case, FAST, check_save_round_trip)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_legal_move_text_parses_back(case: Case) -> None:
    each_seed(case, FAST, check_move_texts)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_illegal_and_malformed_moves_raise_and_change_nothing(case: Case) -> None:
    each_seed(case, FAST, check_refusals)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_clones_are_independent(case: Case) -> None:
    each_seed(case, FAST, check_clones)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_views_keep_the_view_contract(case: Case) -> None:
    each_seed(case, FAST, check_views)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_undo_takes_back_every_move_exactly(case: Case) -> None:
    each_seed(case, FAST, check_undo)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_sample_shows_the_seat_its_own_view(case: Case) -> None:
    each_seed(case, FAST, check_samples)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_samples_vary_only_what_the_seat_cannot_see(case: Case) -> None:
    each_seed(case, {"games": 2, "moves": 0}, check_samples_vary)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_no_seat_sees_what_another_holds(case: Case) -> None:
    each_seed(case, FAST, check_no_leaks)


def spy_on_next_seat(whole: bool) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    """Return a leak: a view shows the next seat's hand (``whole``), or only its first tile under a new key."""

    def leak(view: dict[str, Any], theirs: dict[str, Any]) -> None:
        if whole:
            view["history"].append(
                {"seat": theirs["seat"], "move": None, "kind": "spy", "hand": theirs["hand"]}
            )
        else:
            view["spy"] = theirs["hand"][:1]

    return leak


@pytest.mark.parametrize("whole", [True, False], ids=["a-whole-hand", "one-tile"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_leak_test_finds_a_planted_leak(
    monkeypatch: pytest.MonkeyPatch, game_id: str, whole: bool
) -> None:
    """A view that shows another seat's hand, or a tile of it, fails: by the secret's search, or by a re-deal."""
    case = next(case for case in CASES if case.info.id == game_id and case.hides())
    kind = type(case.new(0))
    real = kind.view
    leak = spy_on_next_seat(whole)

    def view(self: Any, seat: int) -> Any:
        mine = real(self, seat)
        leak(mine, real(self, (seat + 1) % self.players))
        return mine

    monkeypatch.setattr(kind, "view", view)
    found = "secret 'hand'" if whole else "a re-deal at the deal changes \\['spy'\\]"
    with pytest.raises(AssertionError, match=found):
        check_no_leaks(case, 0)


REALTIME: list[GameInfo] = [info for info in GAMES.values() if info.realtime]


@pytest.mark.parametrize("info", REALTIME, ids=lambda info: info.id)
def test_realtime_views_keep_their_declaration(info: GameInfo) -> None:
    """A realtime game has one player: every key of its declared view is its own, and each view fits it."""
    state = info.new_state(seed=5)
    spec: ViewSpec = type(state).VIEW
    assert set(spec.seen().values()) == {Seen.OWN}, "a one-player view declares keys that are not its own"
    rng = random.Random(5)
    for step in range(3000):
        problem = spec.problem(state.view(0))
        assert problem is None, f"the view at step {step} breaks {spec.shape.__name__}: {problem}"
        legal = state.legal_moves()
        if not legal:
            break
        state.play(legal[rng.randrange(len(legal))])
    assert state.is_over(), "a random game of 3000 steps did not end"


def test_every_turn_based_game_has_option_sets() -> None:
    for info in TURN_BASED:
        sets = [case.options for case in CASES if case.info is info]
        assert {} in sets
        for players in player_counts(info):
            assert any(Case(info, options).players() == players for options in sets), (info.id, players)


# ----------------------------------------------------------------------------------------------
# Loading garbage: from_dict raises ValueError and nothing else; what it accepts is a working state.


@cache
def snapshots(game_id: str) -> tuple[str, ...]:
    """Return saves (JSON text) of a few option sets of the game: at the deal, mid-game and at the end."""
    found: list[str] = []
    for case in [case for case in CASES if case.info.id == game_id][:5]:
        state = case.new(0)
        saves = [state.to_dict()]
        for _ in steps(state, chooser(0)):
            saves.append(state.to_dict())
        found += [json.dumps(saves[0]), json.dumps(saves[len(saves) // 2]), json.dumps(saves[-1])]
    return tuple(found)


GARBAGE_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    2**70,
    -(2**70),
    1.5,
    -0.5,
    1e300,
    "",
    "x",
    "6-6",
    "draw",
    [],
    [None],
    [0, 0],
    {},
    {"x": 1},
]


def pick_path(data: Any, doc: Any) -> list[Any]:
    """Draw a path into ``doc``: at each level stop (one chance in three) or step into a random child."""
    path: list[Any] = []
    node = doc
    while isinstance(node, (dict, list)) and node and data.draw(st.integers(0, 2), label="descend"):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = keys[data.draw(st.integers(0, len(keys) - 1), label="child")]
        path.append(key)
        node = node[key]
    return path


def get_at(doc: Any, path: list[Any]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def set_at(doc: Any, path: list[Any], value: Any) -> Any:
    """Set the value at ``path`` (the root when empty); return the document."""
    if not path:
        return value
    get_at(doc, path[:-1])[path[-1]] = value
    return doc


def retyped(data: Any, value: Any) -> Any:
    """Return a value of about the same content in another type or shape."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return data.draw(
            st.sampled_from([str(value), value + 0.5, value + 1, -value - 1, [value]]), label="int"
        )
    if isinstance(value, float):
        return data.draw(st.sampled_from([str(value), int(value), None]), label="float")
    if isinstance(value, str):
        return data.draw(st.sampled_from([value + "x", value[:-1], [value], value.upper(), 0]), label="str")
    if isinstance(value, list):
        shapes = [
            value[:-1],
            value + value[-1:],
            list(reversed(value)),
            {str(i): v for i, v in enumerate(value)},
        ]
        return copy.deepcopy(data.draw(st.sampled_from(shapes), label="list"))
    if isinstance(value, dict):
        return list(value.values())
    return "x"


def mutated_save(game_id: str, data: Any) -> Any:
    """Draw one of the game's saves and break it: drop keys, change types, swap values (one to three times)."""
    doc = json.loads(data.draw(st.sampled_from(snapshots(game_id)), label="save"))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = pick_path(data, doc)
        op = data.draw(st.sampled_from(["drop", "replace", "retype", "swap"]), label="op")
        if op == "drop" and path:
            del get_at(doc, path[:-1])[path[-1]]
        elif op == "swap":
            other = pick_path(data, doc)
            if path[: len(other)] == other or other[: len(path)] == path:
                continue
            a, b = copy.deepcopy(get_at(doc, path)), copy.deepcopy(get_at(doc, other))
            doc = set_at(set_at(doc, path, b), other, a)
        elif op == "retype":
            doc = set_at(doc, path, retyped(data, get_at(doc, path)))
        else:
            doc = set_at(doc, path, copy.deepcopy(data.draw(st.sampled_from(GARBAGE_VALUES), label="value")))
    return through_json(doc)


def all_paths(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Yield the path of every value in ``doc`` (of a long list, such as a generator's state, the first few)."""
    yield path
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from all_paths(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:4] if len(doc) > 64 else doc):
            yield from all_paths(value, (*path, i))


def assert_refused_or_working(info: GameInfo, doc: Any, label: str) -> None:
    """Check that from_dict refuses ``doc`` with a ValueError, or loads a state that works."""
    try:
        state = info.from_dict(doc)
    except ValueError as exc:
        assert str(exc).strip(), f"{label}: ValueError without a message"
        return
    except Exception as exc:
        raise AssertionError(
            f"{label}: from_dict raised {type(exc).__name__}: {exc} (not ValueError)"
        ) from exc
    try:
        saved = state.to_dict()
        assert json_problem(saved) is None
        assert info.from_dict(through_json(saved)).to_dict() == saved, "the loaded save does not round-trip"
        for seat in range(state.players):
            assert json_problem(state.view(seat)) is None
        legal = state.legal_moves()
        assert bool(legal) != state.is_over(), "no legal move though not over, or moves though over"
        if legal:
            state.play(legal[0])
    except Exception as exc:
        raise AssertionError(f"{label}: the save loads but then {type(exc).__name__}: {exc}") from exc


SINGLE_CHANGES: list[tuple[str, Any]] = [
    ("None", None),
    ("'x'", "x"),
    ("2**70", 2**70),
    ("-1", -1),
    ("[]", []),
]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_from_dict_survives_every_single_change_of_a_save(game_id: str) -> None:
    """Drop each key, and set each value to None, 'x', 2**70, -1 and []: a ValueError, or a working state."""
    info = GAMES[game_id]
    problems: list[str] = []
    for text in snapshots(game_id)[1:2]:  # mid-game of the default options
        save = json.loads(text)
        for path in all_paths(save):
            changes: list[tuple[str, Any]] = [("drop", None)] if path else []
            for label, value in changes + SINGLE_CHANGES:
                doc = copy.deepcopy(save)
                if label == "drop":
                    del get_at(doc, list(path[:-1]))[path[-1]]
                else:
                    doc = set_at(doc, list(path), copy.deepcopy(value))
                try:
                    assert_refused_or_working(
                        info, doc, f"{label} at {'.'.join(map(str, path)) or 'the root'}"
                    )
                except AssertionError as exc:
                    problems.append(str(exc).splitlines()[0][:200])
    assert not problems, f"{len(problems)} broken saves mishandled, e.g.:\n" + "\n".join(
        sorted(set(problems))[:12]
    )


def check_mutated_save_raises_value_error(game_id: str, data: Any) -> None:
    doc = mutated_save(game_id, data)
    try:
        GAMES[game_id].from_dict(doc)
    except ValueError as exc:
        assert str(exc).strip()
    except Exception as exc:
        raise AssertionError(f"from_dict raised {type(exc).__name__}: {exc} (not ValueError)") from exc


def check_accepted_save_works(game_id: str, data: Any) -> None:
    assert_refused_or_working(GAMES[game_id], mutated_save(game_id, data), "a broken save")


EXAMPLES = settings(
    max_examples=FAST_EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
SLOW_SETTINGS = settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("game_id", GAME_IDS)
@EXAMPLES
@given(data=st.data())
def test_from_dict_refuses_a_broken_save_with_value_error_only(game_id: str, data: Any) -> None:
    check_mutated_save_raises_value_error(game_id, data)


@pytest.mark.parametrize("game_id", GAME_IDS)
@EXAMPLES
@given(data=st.data())
def test_a_broken_save_that_loads_is_a_working_state(game_id: str, data: Any) -> None:
    check_accepted_save_works(game_id, data)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_from_dict_refuses_garbage_and_other_games_saves(game_id: str) -> None:
    info = GAMES[game_id]
    garbage: list[Any] = [
        None,
        0,
        "",
        "x",
        [],
        {},
        [1, 2],
        {"game": game_id},
        {"game": game_id, "version": 1},
    ]
    garbage += [json.loads(text) for other in GAME_IDS if other != game_id for text in snapshots(other)[:1]]
    for doc in garbage:
        with pytest.raises(ValueError):
            info.from_dict(doc)


@pytest.mark.parametrize("game_id", GAME_IDS)
@EXAMPLES
@given(text=st.text(alphabet="0123456789-:@,rLRXCDSTPdrawps ", max_size=14) | st.text(max_size=8))
def test_parse_move_takes_any_text(game_id: str, text: str) -> None:
    parse = GAMES[game_id].parse_move
    assert parse is not None
    try:
        move = parse(text)
    except ValueError:
        return
    except Exception as exc:
        raise AssertionError(f"parse_move({text!r}) raised {type(exc).__name__}: {exc}") from exc
    assert parse(str(move)) == move and str(parse(str(move))) == str(move)


# ----------------------------------------------------------------------------------------------
# The heavy version: many more seeds and examples (``-m slow``).


@pytest.fixture
def heavy(request: pytest.FixtureRequest) -> None:
    """Skip unless the run selects slow tests (``-m slow``): the plain suite runs the fast version above."""
    if "slow" not in (request.config.getoption("-m") or "") or "not slow" in request.config.getoption("-m"):
        pytest.skip("the heavy conformance run: select it with -m slow")


@pytest.mark.slow
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_many_seeded_games_pass_every_check(
    heavy: None, case: Case, check: Callable[[Case, int], None]
) -> None:
    each_seed(case, SLOW, check)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
@SLOW_SETTINGS
@given(data=st.data())
def test_many_broken_saves_raise_value_error_or_load_working(heavy: None, game_id: str, data: Any) -> None:
    check_mutated_save_raises_value_error(game_id, data)
    check_accepted_save_works(game_id, data)
