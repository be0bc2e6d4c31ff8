"""Expert's Heptalion search (``DeepSearcher``): exact where it claims to be, deterministic, fair."""

from __future__ import annotations

import itertools
import random
from functools import reduce
from operator import or_

from boneyard.ai.heptalion import EXPERT_LEAF, ExpertSearcher
from boneyard.games.heptalion.board import ORIGINAL
from boneyard.games.heptalion.bots import (
    SPACE_BITS,
    TILE_SHIFT,
    WIN,
    DeepSearcher,
    Position,
    packed_placements,
    sample_positions,
)
from boneyard.games.heptalion.rules import HeptalionState, new_state

MASKS = ORIGINAL.placement_masks


def _brute_pack(placements: list[tuple[int, int]]) -> int:
    """Return the most placements of distinct tiles on disjoint spaces, by trying every subset."""
    best = 0
    for size in range(1, len(placements) + 1):
        found = False
        for combo in itertools.combinations(placements, size):
            used = 0
            tiles = {t for t, _ in combo}
            ok = len(tiles) == size
            for _, m in combo:
                ok = ok and not m & used
                used |= m
            if ok:
                found = True
                break
        if not found:
            break
        best = size
    return best


def _random_occupancy(rng: random.Random, tries: int) -> int:
    """Return the spaces covered by up to ``tries`` random placements that do not overlap."""
    occ = 0
    for _ in range(tries):
        t = rng.randrange(28)
        m = rng.choice(MASKS[t])
        if not m & occ:
            occ |= m
    return occ


def test_pack_is_the_largest_disjoint_set():
    """``_pack`` (the exact count of an isolated side's remaining placements) matches brute force."""
    rng = random.Random(1)
    for _ in range(150):
        tiles = rng.sample(range(28), rng.randrange(1, 8))
        occ = _random_occupancy(rng, rng.randrange(0, 12))
        placements = [(t, m) for t in tiles for m in MASKS[t] if not m & occ]
        searcher = DeepSearcher(Position(MASKS, occ, [tuple(tiles), ()], [True, True]), 0, 10**9)
        assert searcher._pack(packed_placements(MASKS, occ, tiles)) == _brute_pack(placements)


def test_expert_leaf_weighs_packed_safe_tiles_fitting_tiles_room_and_last_placements():
    """Expert's two-player leaf, counted by hand here: packed safe placements (brute force), the tiles
    that fit, the empty spaces only one side reaches, the tiles down to one placement, the tempo."""
    rng = random.Random(2)
    checked = 0
    for _ in range(300):
        tiles = rng.sample(range(28), rng.randrange(2, 14))
        mine_t, theirs_t = tiles[: len(tiles) // 2], tiles[len(tiles) // 2 :]
        occ = _random_occupancy(rng, rng.randrange(0, 16))
        mine, theirs = packed_placements(MASKS, occ, mine_t), packed_placements(MASKS, occ, theirs_t)
        if not mine or not theirs:
            continue
        um, uo = reduce(or_, mine), reduce(or_, theirs)
        searcher = ExpertSearcher(
            Position(MASKS, occ, [tuple(mine_t), tuple(theirs_t)], [True, True]), 0, 10**9
        )

        def packed(places: list[int], threat: int) -> int:
            kept = [p for p in places if not p & threat]  # (tile, spaces) of each safe placement
            return _brute_pack([((p >> TILE_SHIFT).bit_length() - 1, p & SPACE_BITS) for p in kept])

        def spaces(tiles: list[int], occ: int = occ) -> set[int]:
            return {s for t in tiles for m in MASKS[t] if not m & occ for s in range(56) if m >> s & 1}

        def fitting_and_single(tiles: list[int], occ: int = occ) -> tuple[int, int]:
            counts = [sum(1 for m in MASKS[t] if not m & occ) for t in tiles]
            return sum(1 for c in counts if c), sum(1 for c in counts if c == 1)

        safe = packed(mine, uo) - packed(theirs, um)
        room = len(spaces(mine_t) - spaces(theirs_t)) - len(spaces(theirs_t) - spaces(mine_t))
        (fit_m, single_m), (fit_o, single_o) = fitting_and_single(mine_t), fitting_and_single(theirs_t)
        w = EXPERT_LEAF
        expected = (
            w.pack * safe
            + w.fit * (fit_m - fit_o)
            + w.room * room
            - w.single * (single_m - single_o)
            - w.tempo
        )
        assert searcher._leaf2(mine, theirs, um, uo) == expected
        checked += 1
    assert checked > 100


def _exact(state: HeptalionState, me: int) -> int:
    """Return 1 if ``me`` wins with best play from here, else 0 (plain minimax)."""
    if state.is_over():
        return 1 if me in state.outcome().winners else 0
    results = []
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        results.append(_exact(child, me))
        if state.current_player() == me and results[-1] == 1:
            return 1
        if state.current_player() != me and results[-1] == 0:
            return 0
    return max(results) if state.current_player() == me else min(results)


def test_proven_values_are_exact_in_small_endgames():
    """Whenever the search reports a proven win or loss at the root, plain minimax agrees."""
    checked = 0
    for seed in range(30):
        state = new_state(seed=seed)
        rng = random.Random(seed)
        while (
            not state.is_over()
            and len(state.legal_moves()) + len(state.moves_for(1 - state.current_player())) > 8
        ):
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
        if state.is_over() or len(state.legal_moves()) < 2:
            continue
        me = state.current_player()
        (pos,) = sample_positions(state.view(me), random.Random(0), 1)
        searcher = DeepSearcher(pos, me, 20_000)
        move = searcher.best_move()
        assert move is not None
        score = searcher.scores[move]
        if abs(score) >= WIN - 100:
            checked += 1
            assert _exact(state, me) == (1 if score > 0 else 0), seed
    assert checked >= 10


def test_budget_is_deterministic_and_respected():
    """The same position gives the same move and node count; the count stays within the budget."""
    state = new_state(seed=4)
    view = state.view(state.current_player())
    runs = []
    for _ in range(2):
        (pos,) = sample_positions(view, random.Random(0), 1)
        searcher = DeepSearcher(pos, view["seat"], 3000)
        runs.append((searcher.best_move(), searcher.nodes))
    assert runs[0] == runs[1]
    assert runs[0][1] <= 3001


def test_three_players_search_plays_a_placement():
    """At three and four seats (paranoid search over dealt hands) the move is one of the seat's own."""
    for players in (3, 4):
        state = new_state(seed=players, players=players, hidden=True)
        view = state.view(state.current_player())
        (pos,) = sample_positions(view, random.Random(0), 1)
        move = DeepSearcher(pos, view["seat"], 2000).best_move()
        assert move is not None and move[0] in pos.hands[view["seat"]]


def test_search_with_one_seat_left_plays_its_own_placement():
    """A position where only the searching seat still plays (no view with a choice has one) takes the
    many-seat path of the one node loop: a placement of its own, within the budget."""
    for players in (2, 3):
        state = new_state(seed=players, players=players)
        view = state.view(state.current_player())
        me = view["seat"]
        (pos,) = sample_positions(view, random.Random(0), 1)
        alone = Position(pos.masks, pos.occ, pos.hands, [s == me for s in range(players)])
        searcher = DeepSearcher(alone, me, 2000)
        move = searcher.best_move()
        assert move is not None and move[0] in pos.hands[me]
        assert searcher.nodes <= 2001
