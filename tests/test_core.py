"""The engine core: outcomes, seeded randomness, options, tile sets, the registry and the arena."""

from __future__ import annotations

import ast
import json
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard import arena, tiles
from boneyard.core import (
    VIEW_KEYS,
    Event,
    GameInfo,
    IllegalMoveError,
    Option,
    Outcome,
    Secret,
    Termination,
    TurnState,
    View,
    ViewSpec,
    derive_seed,
    make_rng,
    random_bot,
    rng_from_json,
    rng_to_json,
)
from boneyard.games import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent


def test_outcome_round_trips_and_knows_draws():
    won = Outcome(winners=(1,), termination="out", placings=(2, 1), scores=(3, 0), detail="Bo went out.")
    assert Outcome.from_dict(json.loads(json.dumps(won.to_dict()))) == won
    assert won.winner == 1 and not won.is_draw
    tie = Outcome(winners=(0, 1), termination="blocked")
    assert tie.is_draw and tie.winner is None
    assert Outcome(winners=(), termination="blocked").is_draw


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=0, max_value=50))
@settings(max_examples=50, deadline=None)
def test_rng_state_round_trips_through_json(seed, draws):
    rng = make_rng(seed)
    for _ in range(draws):
        rng.random()
    copy = rng_from_json(json.loads(json.dumps(rng_to_json(rng))))
    assert [copy.random() for _ in range(5)] == [rng.random() for _ in range(5)]


@pytest.mark.parametrize("bad", [None, [], [3], "xyz", [3, [1, 2], None], [3, "abc", None]])
def test_bad_rng_state_is_a_value_error(bad):
    with pytest.raises(ValueError):
        rng_from_json(bad)


def test_seeds_are_reproducible_and_fresh_ones_differ():
    assert derive_seed(make_rng(7)) == derive_seed(make_rng(7))
    assert make_rng().random() != make_rng().random()


def test_option_parses_command_line_values():
    assert Option("draw", "Draw", True).parse("false") is False
    assert Option("target", "Target", None, (None, 50, 100)).parse("100") == 100
    assert Option("target", "Target", None, (None, 50, 100)).parse("none") is None
    with pytest.raises(ValueError):
        Option("target", "Target", None, (None, 50, 100)).parse("70")
    with pytest.raises(ValueError):
        Option("draw", "Draw", True).parse("maybe")


def test_random_bot_picks_among_legal_moves():
    bot = random_bot(None)
    rng = random.Random(1)
    picks = {bot({"legal_moves": ["a", "b", "c"]}, rng) for _ in range(60)}
    assert picks == {"a", "b", "c"}


# -- tiles ---------------------------------------------------------------------------------------


def test_double_six_set_has_28_unique_tiles_and_168_pips():
    assert len(tiles.DOUBLE_SIX) == len(set(tiles.DOUBLE_SIX)) == 28
    assert tiles.hand_pips(tiles.DOUBLE_SIX) == 168
    assert all(a >= b for a, b in tiles.DOUBLE_SIX)
    assert sum(tiles.is_double(t) for t in tiles.DOUBLE_SIX) == 7
    for value in range(7):  # "Each number appears seven times" (on seven tiles)
        assert sum(value in t for t in tiles.DOUBLE_SIX) == 7


def test_double_nine_set_has_55_unique_tiles_and_495_pips():
    assert len(tiles.DOUBLE_NINE) == len(set(tiles.DOUBLE_NINE)) == 55
    assert tiles.hand_pips(tiles.DOUBLE_NINE) == 495


def test_triangle_set_has_every_multiset_of_three_values_once():
    assert len(tiles.TRIANGLES) == len(set(tiles.TRIANGLES)) == 56
    assert all(list(t) == sorted(t) and all(0 <= v <= 5 for v in t) for t in tiles.TRIANGLES)
    assert tiles.hand_pips(tiles.TRIANGLES) == 420  # each value appears 28 times: 28 * (0+...+5)
    assert sum(1 for t in tiles.TRIANGLES if len(set(t)) == 1) == 6


def test_heptalion_set_has_all_28_pairs_of_seven_symbols():
    assert len(tiles.SYMBOLS) == len(set(tiles.SYMBOLS)) == 7
    assert set(tiles.SYMBOL_NAMES) == set(tiles.SYMBOLS)
    assert len(tiles.HEPTALION_TILES) == len(set(tiles.HEPTALION_TILES)) == 28
    assert sum(a == b for a, b in tiles.HEPTALION_TILES) == 7


@given(st.integers(0, 6), st.integers(0, 6))
def test_domino_text_round_trips(a, b):
    tile = tiles.domino(a, b)
    assert tiles.parse_domino(tiles.domino_text(tile)) == tile
    assert tiles.parse_domino(f"{b}-{a}") == tile


@pytest.mark.parametrize("bad", ["", "6", "6-", "a-b", "6-4-2", "-1-2"])
def test_bad_domino_text_is_refused(bad):
    with pytest.raises(ValueError):
        tiles.parse_domino(bad)


# -- the engine stays pure ----------------------------------------------------------------------

BROWSER_MODULES = {"js", "pyscript", "pyodide"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module",
            "__import__",
        ):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    roots.add(arg.value.split(".")[0])
    return roots


def test_nothing_under_py_boneyard_imports_the_browser():
    offenders = {
        str(p.relative_to(ROOT)): sorted(imported_roots(p) & BROWSER_MODULES)
        for p in (ROOT / "py" / "boneyard").rglob("*.py")
        if imported_roots(p) & BROWSER_MODULES
    }
    assert offenders == {}


def test_the_purity_check_catches_a_browser_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("import os\nfrom pyscript import document\nimport js.console\n")
    assert imported_roots(sample) & BROWSER_MODULES == {"pyscript", "js"}


PURE_UI = ["html.py", "shell.py", "session.py", "storage.py", "table_screen.py", "games/__init__.py"]


@pytest.mark.parametrize("name", PURE_UI)
def test_the_shared_ui_modules_stay_pure_so_cpython_tests_them(name):
    assert not imported_roots(ROOT / "py" / "ui" / name) & BROWSER_MODULES


# -- registry and arena --------------------------------------------------------------------------


def test_registry_finds_every_game_package():
    packages = {p.parent.name for p in (ROOT / "py" / "boneyard" / "games").glob("*/__init__.py")}
    assert set(GAMES) == {GAMES[g].id for g in GAMES}
    assert {info.id for info in GAMES.values()} <= packages | {
        "dominoes",
        "triangles",
        "heptalion",
        "bonefall",
    }
    assert len(GAMES) == len(packages)
    for info in GAMES.values():
        assert isinstance(info, GameInfo)
        assert info.name and info.tagline and info.how_to_play.strip()
        assert 1 <= info.min_players <= info.max_players <= 4


def test_unknown_game_is_refused_with_the_known_ids():
    with pytest.raises(ValueError, match="known"):
        get_game("chess")


def test_wilson_interval_brackets_the_rate():
    lo, hi = arena.wilson_interval(60, 100)
    assert 0.5 < lo < 0.6 < hi < 0.7
    assert arena.wilson_interval(0, 0) == (0.0, 1.0)


TURN_BASED = [gid for gid, info in GAMES.items() if not info.realtime]


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_arena_plays_random_against_random_reproducibly(game_id, capsys):
    args = ["--game", game_id, "--seats", "random,random", "--games", "6", "--seed", "3", "--json"]
    assert arena.main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert arena.main(args) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["games"] == 6 and first["game"] == game_id
    for stats in (first, second):
        for tally in stats["levels"].values():
            tally.pop("ms_per_move")  # a timing; everything else is fixed by the seed
    assert first["levels"] == second["levels"]
    tally = first["levels"]["random"]
    assert tally["games"] == 12 and 0 <= tally["win_rate"] <= 1
    assert set(first) >= {"game", "games", "seconds", "games_per_s", "levels"}


def test_arena_refuses_bad_arguments(capsys):
    assert arena.main(["--game", "nope", "--seats", "random,random"]) == 2
    assert arena.main(["--game", TURN_BASED[0], "--seats", "random,random", "--players", "3"]) == 2
    assert arena.main(["--game", TURN_BASED[0], "--seats", "random,random", "--option", "bogus=1"]) == 2
    assert "arena:" in capsys.readouterr().err


def test_listing_the_games_imports_no_rules_engine():
    """The page lists the games at start; each game's rules, bots and tables load when it is played."""
    import subprocess
    import sys

    code = (
        "import sys; import boneyard.games as g; "
        "heavy = sorted(m for m in sys.modules if m.startswith('boneyard.games.') and m.count('.') > 2); "
        "print(heavy); assert heavy == [], heavy; print([i.levels for i in g.GAMES.values()])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": str(ROOT / "py")}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("game_id", [gid for gid, info in GAMES.items() if info.bots])
def test_lazily_registered_levels_are_the_bots_modules_levels_then_the_ais(game_id):
    import boneyard.ai  # noqa: F401  (it provides Expert, the level a game lists but may not import)

    info = GAMES[game_id]
    real = info.bots._source.resolve()  # the bots module's own table
    assert tuple(info.bots) == (*real, "expert")
    for level in real:
        assert info.bots[level] is real[level]
    assert info.bots["expert"].__name__ == f"expert_{game_id}"
    with pytest.raises(KeyError):
        info.bots["grandmaster"]


# -- core.TurnState, through a toy game -----------------------------------------------------------


@dataclass(frozen=True)
class Take:
    """A toy Nim move: take ``count`` stones from pile ``pile`` (text ``pile:count``)."""

    pile: int
    count: int

    def __str__(self) -> str:
        return f"{self.pile}:{self.count}"


def parse_take(text: str) -> Take:
    """Parse ``pile:count``; raise ValueError otherwise."""
    pile, sep, count = text.strip().partition(":")
    if not sep or not pile.isdigit() or not count.isdigit():
        raise ValueError(f"not a Nim move: {text!r} (write pile:count, as in 0:2)")
    return Take(int(pile), int(count))


class Nim(TurnState):
    """A toy Nim on the shared frame: take 1 to 3 stones from a pile; who takes the last stone wins."""

    GAME = "nim"
    NAME = "Nim"
    MOVE_TYPES = (Take,)
    parse_move = staticmethod(parse_take)

    def __init__(self, piles: list[int], players: int = 2, rng: random.Random | None = None) -> None:
        self._start(players, rng)
        self.piles = list(piles)
        self.turn = 0
        self.moves: list[tuple[int, str]] = []

    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def legal_moves(self) -> list[Take]:
        if self._outcome is not None:
            return []
        return [Take(p, c) for p, n in enumerate(self.piles) for c in range(1, min(n, 3) + 1)]

    def _refusal(self, move: Take, legal: list[Take]) -> str:
        if not 0 <= move.pile < len(self.piles):
            return f"there is no pile {move.pile}"
        if not 1 <= move.count <= 3:
            return "take 1 to 3 stones"
        return f"pile {move.pile} holds only {self.piles[move.pile]}"

    def _apply(self, move: Take) -> tuple[int, Take]:
        seat = self.turn
        self.piles[move.pile] -= move.count
        self.moves.append((seat, str(move)))
        if not any(self.piles):
            self._outcome = Outcome(winners=(seat,), termination=Termination.OUT)
        else:
            self.turn = self.next_seat(seat)
        return seat, move

    def _revert(self, record: tuple[int, Take]) -> None:
        seat, move = record
        self.piles[move.pile] += move.count
        self.moves.pop()
        self.turn = seat
        self._outcome = None

    def _copy_into(self, other: Any) -> None:
        other.piles = list(self.piles)
        other.moves = list(self.moves)

    def _hand_counts(self) -> list[int]:
        return [0] * self.players

    def _public_history(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "move": text} for seat, text in self.moves]

    def _view(self, seat: int) -> dict[str, Any]:
        return {"piles": list(self.piles)}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "nim",
            "players": self.players,
            "piles": list(self.piles),
            "turn": self.turn,
            "turn_number": self.turn_number,
            "moves": [[seat, text] for seat, text in self.moves],
            "rng": rng_to_json(self.rng) if self.rng is not None else None,
            "outcome": self._outcome.to_dict() if self._outcome is not None else None,
        }

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> Nim:
        state = cls.__new__(cls)
        state._start(int(data["players"]), rng_from_json(data["rng"]) if data["rng"] is not None else None)
        state.piles = [int(n) for n in data["piles"]]
        if any(n < 0 for n in state.piles):
            raise ValueError("a pile holds fewer than no stones")
        state.turn = state.check_seat(data["turn"])
        state.turn_number = int(data["turn_number"])
        state.moves = [(int(seat), str(text)) for seat, text in data["moves"]]
        state._outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] is not None else None
        return state


class PlainNim(Nim):
    """Nim without its own refusal reasons: the frame's default sentence."""

    _refusal = TurnState._refusal


def nim(piles: tuple[int, ...] = (3, 2), players: int = 2, seed: int | None = 1) -> Nim:
    return Nim(list(piles), players, make_rng(seed) if seed is not None else None)


def test_turn_state_plays_text_and_moves_in_turn_to_the_end():
    state = nim()
    assert state.current_player() == 0 and state.turn_number == 0 and not state.is_over()
    state.play("0:2")
    assert state.current_player() == 1 and state.turn_number == 1 and state.piles == [1, 2]
    state.play(Take(1, 2))
    state.play(" 0:1 ")
    assert (state.turn_number, state.piles) == (3, [0, 0])
    assert state.is_over() and state.current_player() is None and state.legal_moves() == []
    assert state.outcome() == Outcome(winners=(0,), termination=Termination.OUT)
    assert state.moves == [(0, "0:2"), (1, "1:2"), (0, "0:1")]


def test_three_seats_take_turns_round_the_table():
    state = nim((9,), players=3)
    seats = []
    while not state.is_over():
        seats.append(state.current_player())
        state.play(Take(0, 1))
    assert seats == [0, 1, 2] * 3 and state.outcome().winner == 2


REFUSALS = [
    ("x", "not a Nim move: 'x'"),
    ("0:", "not a Nim move"),
    (42, "not a Nim move: 42"),
    (None, "not a Nim move: None"),
    (("0", "1"), "not a Nim move"),
    (Take(5, 1), "there is no pile 5"),
    ("0:4", "take 1 to 3 stones"),
    (Take(1, 3), "pile 1 holds only 2"),
]


@pytest.mark.parametrize(("move", "reason"), REFUSALS, ids=[repr(m) for m, _ in REFUSALS])
def test_a_refused_move_says_why_and_changes_nothing(move, reason):
    state = nim()
    state.play("0:1")
    before, undo = state.to_dict(), list(state._undo)
    with pytest.raises(IllegalMoveError, match=reason):
        state.play(move)
    assert state.to_dict() == before and state._undo == undo and state.turn_number == 1


def test_the_frame_says_a_move_is_not_allowed_when_the_game_gives_no_reason():
    state = PlainNim([3, 2])
    with pytest.raises(IllegalMoveError, match="that move is not allowed now"):
        state.play("0:4")


@pytest.mark.parametrize("move", ["0:1", Take(0, 1), "garbage", 42])
def test_any_move_after_the_end_is_refused_because_the_game_is_over(move):
    state = nim((1,))
    state.play("0:1")
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play(move)
    assert state.to_dict() == before


def test_undo_takes_back_each_move_and_replay_gives_the_same_state():
    state = nim()
    assert not state.can_undo()
    with pytest.raises(IndexError, match="no move to take back"):
        state.undo()
    saves = [state.to_dict()]
    for text in ("0:2", "1:1", "0:1", "1:1"):
        state.play(text)
        saves.append(state.to_dict())
    assert state.is_over() and state.can_undo()
    state.undo()  # across the end
    assert not state.is_over() and state.outcome() is None and state.current_player() == 1
    assert state.to_dict() == saves[3]
    for save in reversed(saves[:3]):
        state.undo()
        assert state.to_dict() == save
    assert not state.can_undo() and state.turn_number == 0
    for text, save in zip(("0:2", "1:1", "0:1", "1:1"), saves[1:]):
        state.play(text)
        assert state.to_dict() == save


def test_a_state_loaded_from_a_save_cannot_take_back_earlier_moves():
    state = nim()
    state.play("0:2")
    loaded = Nim.from_dict(json.loads(json.dumps(state.to_dict())))
    assert loaded.to_dict() == state.to_dict() and not loaded.can_undo()
    loaded.play("1:1")
    loaded.undo()
    assert loaded.to_dict() == state.to_dict() and not loaded.can_undo()


def test_a_clone_is_independent_with_its_own_generator_and_undo():
    state = nim()
    state.play("0:1")
    other = state.clone()
    assert type(other) is Nim and other is not state and other.to_dict() == state.to_dict()
    assert other.rng is not state.rng and other.rng.getstate() == state.rng.getstate()
    assert other.can_undo()
    before = state.to_dict()
    other.rng.random()
    other.play("1:2")
    other.undo()
    other.undo()  # the clone takes back the move made before it was cloned; the original keeps it
    assert other.piles == [3, 2] and not other.can_undo()
    assert state.to_dict() == before and state.can_undo() and state.rng.getstate() != other.rng.getstate()
    state.play("0:2")
    assert other.piles == [3, 2] and other.turn_number == 0
    assert nim(seed=None).clone().rng is None


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_next_seat_passes_to_seat_plus_one_round_the_table(players):
    state = nim(players=players)
    assert [state.next_seat(seat) for seat in range(players)] == [*range(1, players), 0]


def test_the_view_has_the_contract_keys_then_the_games_own():
    state = nim()
    state.play("0:1")
    for seat in (0, 1):
        view = state.view(seat)
        assert list(view)[: len(VIEW_KEYS)] == list(VIEW_KEYS)
        for key, types in VIEW_KEYS.items():
            assert isinstance(view[key], types), key
        assert view["game"] == "nim" and view["players"] == 2 and view["seat"] == seat
        assert view["turn"] == 1 and view["turn_number"] == 1 and view["over"] is False
        assert view["history"] == [{"seat": 0, "move": "0:1"}] and view["outcome"] is None
        assert view["piles"] == [2, 2] and view["hand_counts"] == [0, 0]
        assert json.loads(json.dumps(view)) == view
    assert state.view(0)["legal_moves"] == []
    assert state.view(1)["legal_moves"] == ["0:1", "0:2", "1:1", "1:2"]
    state.view(1)["history"].append("junk")
    assert len(state.view(1)["history"]) == 1
    state.play("0:2")
    state.play("1:2")
    view = state.view(0)
    assert view["over"] is True and view["turn"] is None and view["legal_moves"] == []
    assert view["outcome"] == state.outcome().to_dict()


class NimView(View[Event]):
    """Nim's declared view: the common keys, then the piles (and a note, to test an optional secret)."""

    piles: list[int]
    note: NotRequired[Secret[str]]


def test_a_declared_view_is_checked_key_by_key_and_nested():
    spec = ViewSpec(NimView)
    state = nim()
    state.play("0:1")
    view = state.view(1)
    assert spec.problem(view) is None and spec.problem({**view, "note": "psst"}) is None
    assert list(spec.seen())[: len(VIEW_KEYS)] == list(VIEW_KEYS)
    assert spec.public() == (
        "game", "players", "turn", "turn_number", "over", "hand_counts", "history", "outcome", "piles"
    )  # fmt: skip
    assert spec.secrets(view) == ("legal_moves", "note")
    assert ViewSpec(NimView, secret_if="over").secrets(view) == ()  # nothing kept secret until it is true
    assert VIEW_KEYS["turn"] == (int, type(None)) and VIEW_KEYS["outcome"] == (dict, type(None))
    broken = [
        ({**view, "extra": 1}, "$: NimView lacks [], has undeclared ['extra']"),
        ({k: v for k, v in view.items() if k != "piles"}, "$: NimView lacks ['piles'], has undeclared []"),
        ({**view, "piles": [1, "2"]}, "$.piles[1]: '2' is not int"),
        ({**view, "turn": True}, "$.turn: True is not int and True is not None"),
        ({**view, "history": [{"seat": 0, "move": "0:1", "x": 1}]}, "$.history[0]: Event lacks [], has undeclared ['x']"),
        ({**view, "history": [{"seat": 0}]}, "$.history[0]: Event lacks ['move'], has undeclared []"),
        ({**view, "note": 3}, "$.note: 3 is not str"),
        ([view], "$: list, not a NimView"),
    ]  # fmt: skip
    for bad, problem in broken:
        assert spec.problem(bad) == problem


@pytest.mark.parametrize("seat", [-1, 2, True, "0", None, 0.0])
def test_a_view_for_no_seat_of_the_table_is_refused(seat):
    with pytest.raises(ValueError, match="no seat"):
        nim().view(seat)


def test_from_dict_round_trips_and_refuses_malformed_saves():
    state = nim()
    state.play("0:2")
    assert Nim.from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() == state.to_dict()
    good = state.to_dict()
    for broken in (
        None,
        {},
        [],
        "x",
        {**good, "piles": "x"},
        {**good, "piles": [-1, 2]},
        {**good, "turn": 5},
        {**good, "moves": [[0]]},
        {**good, "rng": [1]},
        {k: v for k, v in good.items() if k != "turn"},
    ):
        with pytest.raises(ValueError, match="bad Nim save"):
            Nim.from_dict(broken)


@pytest.mark.parametrize(
    "error",
    [
        KeyError("piles"),
        TypeError("nope"),
        IndexError("out"),
        AttributeError("gone"),
        ValueError("bad"),
        OverflowError("too large"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_from_dict_turns_any_error_of_a_malformed_save_into_one_value_error(error):
    class Broken(Nim):
        @classmethod
        def _from_dict(cls, data):
            raise error

    with pytest.raises(ValueError, match=r"^bad Nim save: ") as caught:
        Broken.from_dict({})
    assert type(caught.value) is ValueError and str(error.args[0]) in str(caught.value)


# -- Termination and Outcome ----------------------------------------------------------------------

SAVED_TERMINATIONS = ["out", "blocked", "target", "eliminated", "fit", "set played", "set cap", "topped out"]


@pytest.mark.parametrize("termination", list(Termination), ids=str)
def test_every_termination_round_trips_through_an_outcome_and_json(termination):
    outcome = Outcome(winners=(0, 2), termination=termination, placings=(1, 3, 1), scores=(5, 0, 5))
    loaded = Outcome.from_dict(json.loads(json.dumps(outcome.to_dict())))
    assert loaded == outcome and loaded.termination is termination
    assert outcome.to_dict()["termination"] == termination.value == str(termination)


def test_terminations_keep_the_texts_saves_store():
    assert {t.value for t in Termination} >= set(SAVED_TERMINATIONS)
    assert Termination("blocked") is Termination.BLOCKED and Termination.OUT == "out"
    assert Outcome(winners=(1,), termination="target").termination is Termination.TARGET
    with pytest.raises(ValueError, match="unknown termination"):
        Outcome(winners=(1,), termination="resigned")


def test_an_older_outcome_without_placings_scores_or_detail_loads():
    old = Outcome.from_dict({"winners": [1], "termination": "out"})
    assert old == Outcome(winners=(1,), termination=Termination.OUT) and old.detail == ""
    assert (
        Outcome.from_dict({"winners": [0], "termination": "fit", "detail": "Old sentence."}).detail
        == "Old sentence."
    )


@pytest.mark.parametrize(
    "data",
    [
        None,
        "x",
        [],
        {},
        {"winners": [0]},
        {"termination": "out"},
        {"winners": 5, "termination": "out"},
        {"winners": ["a"], "termination": "out"},
        {"winners": [0], "termination": "resigned"},
        {"winners": [0], "termination": None},
        {"winners": [0], "termination": "out", "placings": 3},
        {"winners": [float("inf")], "termination": "out"},
    ],
)
def test_a_malformed_outcome_is_a_value_error(data):
    with pytest.raises(ValueError, match="outcome"):
        Outcome.from_dict(data)


# -- lazy_attributes and lazy_engine --------------------------------------------------------------


def test_lazy_attributes_import_the_module_on_first_use(tmp_path, monkeypatch):
    package = tmp_path / "h8lazypkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from boneyard.core import lazy_attributes, lazy_engine\n"
        "__getattr__ = lazy_attributes(__name__, '.engine', ('VALUE', 'double'))\n"
        "ENGINE = lazy_engine(__name__ + '.engine', sample=__name__ + '.engine')\n"
    )
    (package / "engine.py").write_text(
        "VALUE = 42\nHIDDEN = 1\n"
        "def double(x):\n    return 2 * x\n"
        "def new_state(seed=None):\n    return ('state', seed)\n"
        "def from_dict(data):\n    return ('loaded', data)\n"
        "def parse_move(text):\n    return text.upper()\n"
        "def sample(view, rng):\n    return ('sample', view)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        import h8lazypkg  # type: ignore[import-not-found]

        assert "h8lazypkg.engine" not in sys.modules
        assert sorted(h8lazypkg.ENGINE) == ["from_dict", "new_state", "parse_move", "sample"]
        assert "h8lazypkg.engine" not in sys.modules  # registering imports nothing
        assert h8lazypkg.VALUE == 42 and "h8lazypkg.engine" in sys.modules
        assert h8lazypkg.double(4) == 8
        from h8lazypkg import double

        assert double(1) == 2
        with pytest.raises(AttributeError, match="has no attribute 'HIDDEN'"):
            _ = h8lazypkg.HIDDEN  # in the module, but not among the names given
        assert not hasattr(h8lazypkg, "nothing")
        engine = h8lazypkg.ENGINE
        assert engine["new_state"](seed=3) == ("state", 3) and engine["parse_move"]("pass") == "PASS"
        assert engine["sample"]({"seat": 0}, None) == ("sample", {"seat": 0})
        assert engine["from_dict"].resolve() is sys.modules["h8lazypkg.engine"].from_dict
    finally:
        for name in [name for name in sys.modules if name.startswith("h8lazypkg")]:
            del sys.modules[name]


def test_random_bot_parses_the_move_it_picks():
    bot = random_bot(parse_take)
    picks = {bot({"legal_moves": ["0:1", "1:2"]}, random.Random(seed)) for seed in range(20)}
    assert picks == {Take(0, 1), Take(1, 2)}


def test_an_outcome_won_by_a_side_of_partners_is_a_win_for_both_and_a_loss_for_the_others():
    from boneyard.core import Outcome, Termination

    side = Outcome((0, 2), Termination.OUT, (1, 2, 1, 2), side=True)
    assert not side.is_draw and side.winner is None
    assert [side.result_for(s) for s in range(4)] == ["win", "loss", "win", "loss"]
    assert Outcome.from_dict(side.to_dict()) == side
    tie = Outcome((0, 2), Termination.BLOCKED, (1, 2, 1, 2))  # seats tied for the win: a draw for them
    assert tie.is_draw and [tie.result_for(s) for s in range(4)] == ["draw", "loss", "draw", "loss"]
    assert "side" not in tie.to_dict()  # saves of games without partners are written as before
    nobody = Outcome((), Termination.BLOCKED)
    assert nobody.is_draw and nobody.result_for(1) == "draw"
