"""The Dominoes table's markup and layout, under CPython: every position of seeded games renders, the
line never overlaps itself and never moves a tile already laid, clicks turn into the right moves."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard.games import GAMES
from tests.screens.tables import act, against_computers, random_states, recording_context
from ui.games.dominoes import SCREEN, DominoesState, tile_text
from ui.games.dominoes_layout import bounds, layout_line, overlaps, reach_for_width
from ui.session import Seat, Session
from ui.table_screen import TableContext

INFO = GAMES["dominoes"]


def line_of(view):
    line = [(t["tile"][0], t["tile"][1], t["double"]) for t in view["line"]]
    opening = sum(1 for e in view["history"] if e["move"] not in ("draw", "pass") and e.get("end") == "L")
    return line, opening


def random_game(seed: int, **options):
    return random_states(INFO, seed, **options)


@pytest.mark.parametrize("reach", [3, 4.5, 7, 12, 16])
def test_the_line_never_overlaps_and_each_join_matches(reach):
    for seed in range(60):
        final = random_game(seed, players=4, hand_size=7, draw=False)[-1]
        line, opening = line_of(final.view(0))
        placed = layout_line(line, opening, reach)
        for i, a in enumerate(placed):
            for b in placed[i + 1 :]:
                assert not overlaps(a, b), (seed, a, b)
        for a, b in zip(placed, placed[1:]):
            (ax, ay, av), (bx, by, bv) = a.halves[1], b.halves[0]
            assert av == bv
            if a.double:  # a double lies across the line: it joins at its middle
                ax, ay = a.x, a.y
            if b.double:
                bx, by = b.x, b.y
            assert abs(ax - bx) + abs(ay - by) <= 1.0 + 1e-9, "the joined halves touch"
        _left, _top, width, _height = bounds(placed, margin=0)
        assert width <= 2 * reach + 5 + 1e-9, "a row never runs past its reach (plus an overhang and a turn)"


def test_laying_a_tile_never_moves_the_tiles_already_laid():
    for seed in range(30):
        states = random_game(seed, players=2)
        previous: dict[tuple[int, int], tuple[float, float]] = {}
        for state in states:
            line, opening = line_of(state.view(0))
            placed = layout_line(line, opening, 6)
            here = {tuple(sorted((t.halves[0][2], t.halves[1][2]))): (t.x, t.y) for t in placed}
            for tile, where in previous.items():
                assert here[tile] == where
            previous = here


def test_reach_grows_with_the_width_and_stays_in_bounds():
    assert reach_for_width(360, 24) == pytest.approx(4.5)
    assert bounds(layout_line([(6, 6, True)] + [(6, 5, False)] * 0, 0, 4.5))[2] <= 360 / 24
    assert reach_for_width(100, 24) == 3.0
    assert reach_for_width(5000, 30) == 16.0


# -- markup -----------------------------------------------------------------------------------------


def context(
    session: Session, ui: DominoesState | None = None, width: int = 800
) -> tuple[TableContext, list[Any]]:
    return recording_context(session, ui, width)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "target": 50},
        {"players": 4, "draw": False, "hand_size": 7},
        {"players": 2, "draw": False, "target": 100},
    ],
)
def test_every_position_of_seeded_games_renders(options):
    for seed in range(6):
        seats = against_computers(options["players"], "hard")
        session = Session.start(INFO, seats, "m", "Mode", options, seed=seed)
        steps = 0
        while True:
            for width in (340, 1000):
                ctx, _ = context(session, width=width)
                html = SCREEN.render(ctx)
                assert "dom-table" in html
            if session.state.is_over():
                assert "over-title" in html
                break
            if session.computer_to_move():
                session.computer_move()
            else:
                session.play(session.state.view(0)["legal_moves"][0])
            steps += 1
        assert steps > 3


def test_clicking_a_tile_that_fits_one_way_plays_it_and_one_that_fits_both_asks_for_the_end():
    seats = [Seat("human", "Ana"), Seat("human", "Bo")]
    for seed in range(200):
        session = Session.start(INFO, seats, "m", "Mode", {"players": 2}, seed=seed)
        while not session.state.is_over():
            view = session.state.view(session.to_move())
            lays = [m for m in view["legal_moves"] if ":" in m]
            by_tile: dict[str, list[str]] = {}
            for m in lays:
                by_tile.setdefault(m.split(":")[0], []).append(m)
            both = [t for t, ms in by_tile.items() if len(ms) == 2]
            if both:
                ui = DominoesState()
                ctx, played = context(session, ui)
                act(SCREEN, ctx, "reveal", "")
                act(SCREEN, ctx, "tile", both[0])
                assert ui.selected == both[0] and not played
                html = SCREEN.render(ctx)
                assert 'data-action="end" data-value="L"' in html and "fits both ends" in html
                act(SCREEN, ctx, "end", "R")
                assert played == [f"{both[0]}:R"] and ui.selected is None
                return
            session.play(view["legal_moves"][0])
    pytest.fail("no seeded game offered a tile that fits both ends")


def test_a_tile_that_does_not_fit_is_refused():
    seats = [Seat("human", "Ana"), Seat("computer", "C", "easy")]
    session = Session.start(INFO, seats, "m", "Mode", {"players": 2}, seed=1)
    while session.computer_to_move():
        session.computer_move()
    view = session.state.view(0)
    playable = {m.split(":")[0] for m in view["legal_moves"]}
    stuck = [tile_text(t) for t in view["hand"] if tile_text(t) not in playable]
    if not stuck:
        pytest.skip("every tile fits in this deal")
    ctx, played = context(session)
    act(SCREEN, ctx, "tile", stuck[0])
    assert played == []


def test_same_device_hides_the_hand_until_revealed():
    seats = [Seat("human", "Ana"), Seat("human", "Bo")]
    session = Session.start(INFO, seats, "m", "Mode", {"players": 2}, seed=3)
    ctx, _ = context(session)
    html = SCREEN.render(ctx)
    assert "Show my tiles" in html and "dom-hand-tile" not in html
    act(SCREEN, ctx, "reveal", "")
    html = SCREEN.render(ctx)
    assert "Show my tiles" not in html and "dom-hand-tile" in html


def test_setup_modes_name_no_players_and_keep_the_stats_keys_of_the_rules_modes():
    labels = [m.label for m in SCREEN.modes()]
    assert labels == [
        "Classic (single round)",
        "Match to 100",
        "Match to 50",
        "Block game, to 100 (no drawing)",
        "All Fives (Muggins)",
        "Custom",
    ]
    assert all(m.players is None for m in SCREEN.modes())  # the players are chosen apart, 2 to 4
    for legacy, key, label in (
        ("match-2-100", "match-2-100", "2 players, to 100"),
        ("match-2-50", "match-2-50", "2 players, to 50"),
        ("block-2", "block-2", "2 players, block (no drawing)"),
        ("match-3-100", "match-3-100", "3 players, to 100"),
        ("match-4-100", "match-4-100", "4 players, to 100"),
    ):
        form = {"mode": legacy}  # an older form or address: the same game, counted in the same stats
        mode, players = SCREEN.mode_from_form(form)
        assert (mode.key, mode.label, players) == (
            key,
            label,
            int(legacy.split("-")[-2 if "match" in legacy else -1]),
        )
        assert form["mode"] in {"match-100", "match-50", "block"} and form["players"] == str(players)
    mode, players = SCREEN.mode_from_form({"mode": "match-50", "players": "4", "teams": "yes"})
    assert (mode.key, players, mode.options["target"], mode.options["teams"]) == (
        "match-4-50-teams",
        4,
        50,
        True,
    )
    mode, players = SCREEN.mode_from_form({"mode": "block", "players": "3"})
    assert (mode.key, mode.options["draw"], mode.options["target"]) == ("block-3", False, 100)
    mode, players = SCREEN.mode_from_form(
        {"mode": "custom", "players": "4", "draw": "block", "target": "none", "hand_size": "7"}
    )
    assert players == 4 and mode.options == {"draw": False, "target": None, "hand_size": 7}
    assert "block game" in mode.label and mode.key == "custom-4-block-round-7"
    mode, players = SCREEN.mode_from_form({"mode": "classic", "players": "3"})
    assert (mode.key, mode.label, players) == ("classic-3", "Classic, 3 players", 3)


def ended(
    hands: list[list[str]],
    line: list[tuple[int, int]],
    moves: list[str],
    target: int | None = None,
    scores: list[int] | None = None,
    draw: bool = True,
):
    """Return a same-device session of Ana and Bo whose hand is as given, after ``moves``."""
    from boneyard.games.dominoes.rules import TILE_ID, Table, tiles_mask
    from boneyard.tiles import parse_domino

    def ids(texts):
        return [TILE_ID[parse_domino(t)] for t in texts]

    options = {"players": 2, "draw": draw, "target": target}
    session = Session.start(INFO, [Seat("human", "Ana"), Seat("human", "Bo")], "m", "Mode", options, seed=1)
    state = session.state
    used = set(ids([t for h in hands for t in h])) | {TILE_ID[(max(p), min(p))] for p in line}
    table = Table(
        2,
        draw,
        [tiles_mask(ids(h)) for h in hands],
        [t for t in range(28) if t not in used] if draw else [],
        0,
        -1,
    )
    table.line = list(line)
    table.left, table.right = line[0][0], line[-1][1]
    state.table = table
    state.history = []
    if scores is not None:
        state.scores = list(scores)
    for move in moves:
        state.play(move)
    return session


def words(session) -> str:
    """Return the rendered table's text, tags and name isolates removed."""
    import re

    ctx, _ = context(session)
    return (
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", SCREEN.render(ctx)))
        .replace("\u2068", "")
        .replace("\u2069", "")
    )


def test_the_screen_words_each_ending_from_the_facts_with_the_players_names():
    out = words(ended([["5-1"], ["2-2", "3-2"]], [(6, 5)], ["5-1:R"]))
    assert "Ana wins." in out and "Ana laid their last tile." in out and "Player 1" not in out
    blocked = words(ended([["1-1"], ["2-0", "4-4"]], [(6, 5)], ["pass", "pass"], draw=False))
    assert (
        "Ana wins." in blocked
        and "The line is blocked: nobody can play; Ana has the lowest pip total." in blocked
    )
    tie = words(ended([["1-1"], ["2-0"]], [(6, 5)], ["pass", "pass"], draw=False))
    assert "A draw between Ana and Bo." in tie and "a tie for the lowest pip total" in tie
    match = words(ended([["5-1"], ["2-2", "3-2"]], [(6, 5)], ["5-1:R"], target=30, scores=[10, 0]))
    assert "Ana laid their last tile, scoring 9 points." in match
    assert "Ana reaches" not in match  # 19 of 30: the match goes on
    final = words(ended([["5-1"], ["2-2", "3-2"]], [(6, 5)], ["5-1:R"], target=15, scores=[10, 0]))
    assert "Ana wins the match with 19 points (first to 15)." in final
    assert "Final score" not in final, "the scores are the table's Total column, not a sentence before it"


def test_last_tile_is_called_only_while_the_hand_is_in_play():
    """Bo's one tile is "Last tile!" while Ana may still play; at the hand's summary or the end it is not."""
    playing = ended([["5-1", "4-4"], ["2-2"]], [(6, 5)], ["5-1:R"])
    ctx, _ = context(playing)
    assert not playing.state.is_over() and "Last tile!" in SCREEN.render(ctx)
    for target, over in ((30, False), (None, True)):  # a match's hand summary, then a single game's end
        session = ended([["5-1"], ["2-2"]], [(6, 5)], ["5-1:R"], target=target)
        assert session.state.is_over() is over
        ctx, _ = context(session)
        html = str(SCREEN.render(ctx))
        assert 'data-seat="1"' in html and "Last tile!" not in html and "kit-call" not in html


def test_a_hand_summary_keeps_the_scored_hands_in_the_seats_until_next_hand():
    import random
    import re

    seats = against_computers(4, "medium")
    options = {"players": 4, "hand_size": 5, "draw": True, "target": 100}
    session = Session.start(INFO, seats, "m", "Match", options, seed=3)
    rng = random.Random(3)
    while not session.state.view(0)["hand_results"]:
        session.play(rng.choice(list(session.state.legal_moves())))
    assert not session.state.is_over()
    scored = [len(hand) for hand in session.state.view(0)["hand_results"][-1]["hands"]]
    dealt = session.state.view(0)["hand_counts"]
    assert scored[1:] != dealt[1:], "the seed must deal the next hand differently from the one scored"
    ctx, _ = context(session)
    shown = {
        int(seat): int(count)
        for seat, count in re.findall(
            r'data-seat="(\d)"[^>]*aria-label="[^"]*?: (\d+) tiles?', SCREEN.render(ctx)
        )
    }
    assert shown == {s: scored[s] for s in (1, 2, 3)}, "the seats show the hand just scored"
    act(SCREEN, ctx, "next-hand", "")
    shown = {
        int(seat): int(count)
        for seat, count in re.findall(
            r'data-seat="(\d)"[^>]*aria-label="[^"]*?: (\d+) tiles?', SCREEN.render(ctx)
        )
    }
    assert shown == {s: dealt[s] for s in (1, 2, 3)}, "Next hand shows the new deal"
