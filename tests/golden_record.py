"""Record (or check) what seeded games play, so a refactor can prove it changed no game.

``python tests/golden_record.py --write`` rewrites ``tests/data/golden_games.json``; the test
``tests/test_golden.py`` replays the same seeds and compares. Each entry is a hash of every move's text
and of the outcome's winners, placings and scores, game by game, for several tables and levels, plus
the arena's tallies for a few pairings.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from boneyard.arena import run_arena
from boneyard.core import derive_seed, make_rng
from boneyard.games import GAMES

DATA = Path(__file__).parent / "data" / "golden_games.json"

# (game, seats, options, games): seeded games played move by move.
TABLES: list[tuple[str, tuple[str, ...], dict[str, Any], int]] = [
    ("dominoes", ("hard", "medium"), {}, 60),
    ("dominoes", ("easy", "hard", "medium"), {"target": 100}, 12),
    ("dominoes", ("random", "easy", "medium", "hard"), {"draw": False}, 40),
    ("dominoes", ("hard", "hard"), {"target": 50, "draw": False}, 12),
    ("dominoes", ("hard", "medium"), {"scoring": "fives", "target": 100}, 12),
    ("dominoes", ("hard", "easy", "easy", "medium"), {"scoring": "fives", "target": 100}, 12),
    ("dominoes", ("hard", "medium", "hard", "easy"), {"scoring": "fives", "teams": True}, 12),
    ("triangles", ("hard", "medium"), {}, 20),
    ("triangles", ("easy", "random", "hard", "medium"), {}, 10),
    ("heptalion", ("medium", "easy"), {}, 20),
    ("heptalion", ("hard", "medium"), {"hidden": True}, 3),
    ("heptalion", ("easy", "medium", "random"), {"board": "random"}, 10),
    ("heptalion", ("random",), {"players": 1}, 5),
]

# (game, seats, options, games): arena tallies.
ARENAS: list[tuple[str, tuple[str, ...], dict[str, Any], int]] = [
    ("dominoes", ("hard", "medium"), {}, 400),
    ("dominoes", ("hard", "medium", "easy"), {}, 200),
    ("dominoes", ("hard", "medium", "easy", "easy"), {"target": 100}, 20),
    ("triangles", ("hard", "medium"), {}, 40),
    ("heptalion", ("medium", "easy"), {}, 40),
]


def play_table(game: str, seats: tuple[str, ...], options: dict[str, Any], games: int) -> list[str]:
    """Play ``games`` seeded games and return one hash a game."""
    info = GAMES[game]
    bots = [info.bot(level) for level in seats]
    master = make_rng(12345)
    hashes = []
    for _ in range(games):
        opts = dict(options)
        opts.setdefault("players", len(seats))
        state = info.new_state(seed=derive_seed(master), **opts)
        rng = make_rng(derive_seed(master))
        digest = hashlib.sha256()
        while not state.is_over():
            seat = state.current_player()
            move = bots[seat](state.view(seat), rng)
            state.play(move)
            digest.update(str(move).encode() + b";")
        outcome = state.outcome()
        digest.update(repr((list(outcome.winners), list(outcome.placings), list(outcome.scores))).encode())
        hashes.append(digest.hexdigest()[:16])
    return hashes


def record() -> dict[str, Any]:
    """Return the golden data of the current code."""
    tables = {}
    for game, seats, options, games in TABLES:
        tables[key(game, seats, options)] = play_table(game, seats, options, games)
    arenas = {}
    for game, seats, options, games in ARENAS:
        result = run_arena(game, seats, games, seed=7, options=options).to_json()
        arenas[key(game, seats, options)] = {
            level: [tally["wins"], tally["draws"]] for level, tally in sorted(result["levels"].items())
        }
    return {"tables": tables, "arenas": arenas}


def key(game: str, seats: tuple[str, ...], options: dict[str, Any]) -> str:
    return f"{game}:{','.join(seats)}:{json.dumps(options, sort_keys=True)}"


if __name__ == "__main__":
    data = record()
    if "--write" in sys.argv:
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"wrote {DATA}")
    else:
        golden = json.loads(DATA.read_text())
        print("same" if golden == data else "DIFFERENT")
