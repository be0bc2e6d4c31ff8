"""The engine core: outcomes, seeded randomness, options, tile sets, the registry and the arena."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from boneyard import arena, tiles
from boneyard.core import GameInfo, Option, Outcome, derive_seed, make_rng, random_bot, rng_from_json, rng_to_json
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
            "import_module", "__import__"
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


PURE_UI = ["html.py", "screens.py", "session.py", "storage.py", "screen.py", "games/__init__.py"]


@pytest.mark.parametrize("name", PURE_UI)
def test_the_shared_ui_modules_stay_pure_so_cpython_tests_them(name):
    assert not imported_roots(ROOT / "py" / "ui" / name) & BROWSER_MODULES


# -- registry and arena --------------------------------------------------------------------------


def test_registry_finds_every_game_package():
    packages = {p.parent.name for p in (ROOT / "py" / "boneyard" / "games").glob("*/__init__.py")}
    assert set(GAMES) == {GAMES[g].id for g in GAMES}
    assert {info.id for info in GAMES.values()} <= packages | {"dominoes", "triangles", "heptalion", "falling"}
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
    done = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(ROOT / "py")}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("game_id", [gid for gid, info in GAMES.items() if info.bots])
def test_lazily_registered_levels_are_the_bots_modules_levels(game_id):
    info = GAMES[game_id]
    real = info.bots._source.resolve()  # the bots module's own table
    assert tuple(info.bots) == tuple(real)
    for level in info.bots:
        assert info.bots[level] is real[level]
    with pytest.raises(KeyError):
        info.bots["grandmaster"]
