"""The computer players in All Fives and partnerships: the count read from the view, legal, view-only,
and each level with the taste the issue gives it (Medium scores first, Hard also denies the next
player's reply, reads voids over every arm and plays with its partner)."""

from __future__ import annotations

import random

import pytest
from dominoes_helpers import hidden_twin, random_games

from boneyard.arena import run_arena
from boneyard.games.dominoes import GAME
from boneyard.games.dominoes.bots import (
    ARMS,
    Layout,
    _expected_best,
    hard_bot,
    medium_bot,
    partner_signals,
    rival_voids,
)
from boneyard.games.dominoes.rules import TILE_ID, FivesState, FivesTable, new_state, tiles_mask
from boneyard.tiles import parse_domino

FIVES = {"scoring": "fives"}
TABLES = [
    {"players": 2, **FIVES},
    {"players": 3, "draw": False, **FIVES},
    {"players": 4, "teams": True, **FIVES},
    {"players": 4, "teams": True, "target": 100},
]


def fives_position(hands: list[list[str]], line: list[str], spinner: int | None = None, teams: bool = False):
    """Return an All Fives state with this line (pieces "5-3", ``spinner`` its index) and these hands."""
    players = len(hands)
    state = new_state(seed=0, players=players, scoring="fives", teams=teams)
    assert isinstance(state, FivesState)
    pieces = [tuple(int(n) for n in p.split("-")) for p in line]
    ids = [TILE_ID[parse_domino(t)] for h in hands for t in h]
    used = set(ids) | {TILE_ID[(max(p), min(p))] for p in pieces}
    stock = [t for t in range(28) if t not in used]
    masks = [tiles_mask([TILE_ID[parse_domino(t)] for t in h]) for h in hands]
    table = FivesTable(players, True, masks, stock, 0, -1)
    table.line = pieces
    table.left, table.right = pieces[0][0], pieces[-1][1]
    if spinner is not None:
        table.spinner = pieces[spinner][0]
        table.left_arm = spinner
        table.right_arm = len(pieces) - 1 - spinner
    state.table = table
    state.history = []
    return state


def test_the_bots_read_the_count_and_every_lay_from_the_view():
    """Layout.of_view gives the engine's count, and Layout.lay the count the engine shows after a lay."""
    checked = 0
    for options in TABLES[:3]:
        for state, rng in random_games(40, seed=3, options=options):
            while not state.is_over():
                seat = state.current_player()
                view = state.view(seat)
                layout = Layout.of_view(view)
                assert layout.count() == view["count"]
                move = GAME.bot("easy")(view, rng)
                hand = state.hand_number
                state.play(move)
                if move.tile is not None and state.hand_number == hand and not state.is_over():
                    assert layout.lay(move.tile, ARMS[move.end]).count() == state.view(seat)["count"]
                    checked += 1
    assert checked > 1500


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_every_level_plays_all_fives_and_partnerships_to_the_end(level):
    bot = GAME.bot(level)
    games = 2 if level == "expert" else 12
    for options in TABLES:
        for state, rng in random_games(games, seed=7, options=options):
            if level == "expert":  # a hand is enough to see every kind of lay
                state = new_state(seed=rng.getrandbits(32), **{**options, "target": 20})
            while not state.is_over():
                view = state.view(state.current_player())
                move = bot(view, rng)
                assert str(move) in view["legal_moves"]
                state.play(move)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_fives_bots_decide_from_the_view_alone(level):
    bot = GAME.bot(level)
    shuffler = random.Random(4)
    checked = differing = 0
    for options in (TABLES[0], TABLES[2]):
        for state, rng in random_games(15, seed=12, options=options):
            while not state.is_over():
                seat = state.current_player()
                twin = hidden_twin(state, seat, shuffler)
                differing += twin.table.hands != state.table.hands
                seed = rng.getrandbits(32)
                first = bot(state.view(seat), random.Random(seed))
                assert first == bot(twin.view(seat), random.Random(seed))
                checked += 1
                state.play(first)
    assert checked > 500 and differing > checked // 2


def test_medium_takes_the_biggest_score_before_doubles_and_heavy_tiles():
    # The spinner 5-5 alone counts 10: 5-0 keeps it at 10 (scores 10), 5-6 makes 16, 6-6 does not fit.
    state = fives_position([["5-6", "5-0", "6-6"], ["1-1"]], line=["5-5"], spinner=0)
    assert str(medium_bot(state.view(0), random.Random(0))) == "5-0:L"
    # 3-5 . 5-5 . 5-2 counts 5; 2-0 at R makes 3, 5-2 at N makes 3 + 2 + 2 = 7, 3-2 at L makes 2 + 2 = 4:
    # no score, so the heaviest tile (5-2) goes.
    state = fives_position([["2-0", "5-2", "3-2"], ["1-1"]], line=["3-5", "5-5", "5-1"], spinner=1)
    view = state.view(0)
    assert Layout.of_view(view).count() == 3 + 1
    assert medium_bot(view, random.Random(0)).tile == (5, 2)


def test_hard_denies_the_next_player_an_easy_score():
    """Where Hard and Medium choose differently with the same score now, Hard mostly leaves less to score."""
    better = worse = 0
    for state, rng in random_games(150, seed=21, options=TABLES[0]):
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            if len(view["legal_moves"]) > 1 and view["layout"]["spinner"] is not None:
                hard = hard_bot(view, random.Random(1))
                medium = medium_bot(view, random.Random(1))
                layout = Layout.of_view(view)
                after_h = layout.lay(hard.tile, ARMS[hard.end])
                after_m = layout.lay(medium.tile, ARMS[medium.end])
                if hard != medium and after_h.count() % 5 and after_m.count() % 5:
                    seen = {tuple(t) for t in view["hand"]}
                    seen |= {(max(p["tile"]), min(p["tile"])) for p in view["line"]}
                    for arm in ("north", "south"):
                        seen |= {(max(p["tile"]), min(p["tile"])) for p in view["layout"][arm]}
                    pool = [(a, b) for a in range(7) for b in range(a + 1) if (a, b) not in seen]
                    nxt = 1 - seat
                    void = rival_voids(view)[nxt]
                    count = view["hand_counts"][nxt]
                    deny_h = _expected_best(after_h, pool, void, count)
                    deny_m = _expected_best(after_m, pool, void, count)
                    better += deny_h < deny_m - 1e-9
                    worse += deny_h > deny_m + 1e-9
            state.play(medium_bot(view, rng))
    assert better > 2 * worse and better > 30


def test_hard_reads_the_partners_signals_and_voids():
    state = new_state(seed=5, players=4, teams=True)  # the line game's events: the same reading
    state.history = [
        {"seat": 2, "move": "6-4", "tile": [6, 4], "end": None},
        {"seat": 3, "move": "4-1:R", "tile": [4, 1], "end": "R"},
        {"seat": 0, "move": "6-2:L", "tile": [6, 2], "end": "L"},
        {"seat": 1, "move": "draw", "ends": [2, 1]},
        {"seat": 1, "move": "pass", "ends": [2, 1]},
        {"seat": 2, "move": "2-2:L", "tile": [2, 2], "end": "L"},
    ]
    view = state.view(0)
    assert partner_signals(view, 2) == {6, 4, 2}
    assert rival_voids(view)[1] == {1, 2}


def test_hard_avoids_blocking_its_partner():
    """In partnership games Hard leaves its partner stuck (every open number one it lacks) less than Medium."""
    stuck = {"hard": 0, "medium": 0}
    decisions = 0
    for state, rng in random_games(80, seed=9, options=TABLES[2]):
        while not state.is_over():
            seat = state.current_player()
            view = state.view(seat)
            if len(view["legal_moves"]) > 1:
                partner = view["partner"]
                void = rival_voids(view)[partner]
                if void:
                    decisions += 1
                    layout = Layout.of_view(view)
                    for name, bot in (("hard", hard_bot), ("medium", medium_bot)):
                        move = bot(view, random.Random(2))
                        stuck[name] += layout.lay(move.tile, ARMS[move.end]).numbers() <= void
            state.play(hard_bot(view, rng))
    assert decisions > 200 and stuck["hard"] < stuck["medium"]


def test_reduced_strength_check_in_all_fives_and_partnerships():
    """A fixed seeded sample; the full measurement with intervals is in the arena (see the report)."""
    medium = run_arena("dominoes", ["medium", "easy"], games=150, seed=1, options=FIVES)
    assert medium.levels["medium"].win_rate > 0.8
    hard = run_arena("dominoes", ["hard", "medium"], games=400, seed=1, options=FIVES)
    assert hard.levels["hard"].win_rate > 0.58
    teams = {"teams": True, **FIVES}
    sides = run_arena(
        "dominoes", ["hard", "medium", "hard", "medium"], games=200, seed=1, options=teams
    ).sides
    assert sides["hard+hard"].win_rate > 0.53
    assert sides["hard+hard"].games == sides["medium+medium"].games == 200
