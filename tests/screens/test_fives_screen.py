"""The All Fives and partnership tables under CPython: the setup's modes and stats keys, the spinner's
cross never overlapping itself nor moving a laid tile, the count on the page equal to the engine's, the
arm choice, the partner's seat and the sides' scoreboard, every position of seeded games rendering.

The rule decisions (docs/rules/dominoes-fives-partners.txt), All Fives: "Tiles are laid against its two
sides first; once both sides have a tile, its two ends take tiles too: up to four arms."
Partnerships: "partners sit opposite, seats 0 and 2 against 1 and 3".
"""

from __future__ import annotations

import re

import pytest

from boneyard.games import GAMES
from tests.screens.tables import act, against_computers, play_on, random_states, recording_context
from ui.games.dominoes import SCREEN, DominoesState, layout_count
from ui.games.dominoes_layout import arm_chains, layout_fives, overlaps
from ui.session import Seat, Session

INFO = GAMES["dominoes"]


def context(session: Session, ui: DominoesState | None = None, width: int = 800, height: int = 420):
    return recording_context(session, ui, width, height)


def tuples(tiles):
    return [(t["tile"][0], t["tile"][1], t["double"]) for t in tiles]


def fives_states(seed: int, one_hand: bool = False, **options):
    until = (lambda state: state.view(0)["hand_number"] > 1) if one_hand else None
    return random_states(INFO, seed, until, scoring="fives", **options)


# -- setup ------------------------------------------------------------------------------------------


def test_all_fives_is_a_mode_for_two_three_or_four_to_100_150_or_250_draw_or_block():
    assert "fives" in [m.key for m in SCREEN.modes()]
    mode, players = SCREEN.mode_from_form({"mode": "fives"})
    assert players == 2 and mode.key == "fives-2"
    assert mode.options == {"scoring": "fives", "draw": True, "target": 150}
    for n in (2, 3, 4):
        for target in (100, 150, 250):
            for draw in ("draw", "block"):
                form = {"mode": "fives", "players": str(n), "fives_target": str(target), "draw": draw}
                mode, players = SCREEN.mode_from_form(form)
                assert players == n and mode.options["target"] == target
                assert mode.options["draw"] is (draw == "draw")
                INFO.new_state(seed=1, players=n, **mode.options)  # the engine takes it
    fields = SCREEN.custom_fields({"mode": "fives"})
    assert "setup-fives-target" in fields and "250 points" in fields and "setup-teams" not in fields


def test_partners_are_offered_for_four_players_in_every_mode_with_their_own_stats_keys():
    keys = set()
    for form in (
        {"mode": "fives", "players": "4"},
        {"mode": "classic", "players": "4"},
        {"mode": "match-4-100"},
        {"mode": "custom", "players": "4"},
    ):
        assert "Partners (2 against 2)" in SCREEN.player_fields(form)
        alone, _ = SCREEN.mode_from_form(form)
        teams, players = SCREEN.mode_from_form({**form, "teams": "yes"})
        assert players == 4 and teams.options["teams"] is True and "teams" not in alone.options
        assert teams.key != alone.key and "teams" in teams.key and "2 against 2" in teams.label
        keys |= {alone.key, teams.key}
        INFO.new_state(seed=2, players=4, **teams.options)
    assert len(keys) == 8
    assert SCREEN.mode_from_form({"mode": "fives", "players": "4", "teams": "yes"})[0].key == "fives-teams-4"
    # Two or three players: no partners, whatever the form says.
    assert "setup-teams" not in SCREEN.player_fields({"mode": "fives", "players": "3", "teams": "yes"})
    assert "teams" not in SCREEN.mode_from_form({"mode": "fives", "players": "3", "teams": "yes"})[0].options
    note = SCREEN.player_fields({"mode": "match-4-100", "teams": "yes"})
    assert "your partner is Computer 2" in note


# -- the layout ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("reach", [(3, 3), (4.5, 9), (8, 4), (12, 7)])
def test_the_cross_never_overlaps_each_join_matches_and_no_lay_moves_a_tile(reach):
    seen = 0
    for seed in range(80):
        previous: dict[tuple[str, int], tuple[float, float, int, int]] = {}
        for state in fives_states(seed, True, players=4, hand_size=7, draw=False, target=10_000):
            view = state.view(0)
            layout = view["layout"]
            if layout["spinner"] is None or not view["line"]:
                previous = {}
                continue
            line, north, south = tuples(view["line"]), tuples(layout["north"]), tuples(layout["south"])
            placed = layout_fives(line, layout["spinner"], north, south, *reach)
            tiles = list(placed.values())
            assert len(tiles) == len(line) + len(north) + len(south)
            for i, a in enumerate(tiles):
                for b in tiles[i + 1 :]:
                    assert not overlaps(a, b), (seed, a, b)
            for arm, chain in arm_chains(placed, layout["spinner"], len(line)).items():
                for inner, outer in zip(chain, chain[1:]):
                    values_in = {v for _x, _y, v in inner.halves}
                    values_out = {v for _x, _y, v in outer.halves}
                    assert values_in & values_out, (seed, arm, inner, outer)
                    gap = min(
                        abs(ax - bx) + abs(ay - by)
                        for ax, ay, _ in ((inner.x, inner.y, 0),) + inner.halves
                        for bx, by, _ in ((outer.x, outer.y, 0),) + outer.halves
                    )
                    assert gap <= 1.0 + 1e-9, "the joined tiles touch"
            # Keyed by the spinner's own number of tiles left of it, a tile stays where it was laid.
            spinner_key = layout["spinner"]
            here = {}
            for (kind, index), t in placed.items():
                key = (kind, index - spinner_key) if kind == "line" else (kind, index)
                here[key] = (t.x, t.y, t.halves[0][2], t.halves[1][2])
            for key, where in previous.items():
                assert here[key] == where, (seed, key)
            previous = here
            seen += 1
    assert seen > 500


def test_the_count_the_table_computes_is_the_engines_at_every_step():
    for seed in range(30):
        for state in fives_states(seed, players=seed % 3 + 2, target=200):
            view = state.view(0)
            layout = view["layout"]
            assert (
                layout_count(view["line"], layout["spinner"], layout["north"], layout["south"])
                == view["count"]
            )


# -- the table ----------------------------------------------------------------------------------------


def plain(html: str) -> str:
    """Return the page's text: no tags, no isolation marks around names."""
    return re.sub(r"<[^>]+>", "", html).replace("\u2068", "").replace("\u2069", "").replace("&amp;", "&")


def count_on_page(html: str) -> int:
    match = re.search(r'class="dom-count-value">(\d+)<', html)
    assert match, "the count is on the table"
    return int(match.group(1))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "target": 150},
        {"players": 3, "target": 100, "draw": False},
        {"players": 4, "target": 150, "teams": True},
        {"players": 4, "target": 100, "teams": True, "draw": False},
    ],
)
def test_every_position_renders_with_the_engines_count(options):
    for seed in range(2):
        seats = against_computers(options["players"], "medium")
        session = Session.start(INFO, seats, "m", "Mode", {"scoring": "fives", **options}, seed=seed)
        steps = 0
        while True:
            for width, height in ((340, 420), (1000, 560)):
                ctx, _ = context(session, width=width, height=height)
                html = SCREEN.render(ctx)
                assert "dom-table" in html
                view = session.state.view(0)
                if not SCREEN.paused(ctx) and not view["over"]:
                    assert count_on_page(html) == view["count"]
                if options.get("teams"):
                    assert "Partner · Medium" in html and "You & partner" in plain(html)
            if session.state.is_over():
                assert "over-title" in html
                assert "win" in html
                break
            play_on(SCREEN, ctx)
            steps += 1
        assert steps > 5


def test_a_tile_that_fits_several_arms_offers_each_of_them():
    seats = [Seat("human", "Ana"), Seat("human", "Bo")]
    for seed in range(300):
        session = Session.start(INFO, seats, "m", "Mode", {"players": 2, "scoring": "fives"}, seed=seed)
        while not session.state.is_over():
            view = session.state.view(session.to_move())
            by_tile: dict[str, list[str]] = {}
            for m in view["legal_moves"]:
                if ":" in m:
                    by_tile.setdefault(m.split(":")[0], []).append(m)
            many = [(t, ms) for t, ms in by_tile.items() if len(ms) >= 3 or any(m.endswith(":N") for m in ms)]
            many = [(t, ms) for t, ms in many if len(ms) >= 2]
            if many:
                tile, moves = many[0]
                ui = DominoesState()
                ctx, played = context(session, ui)
                act(SCREEN, ctx, "reveal", "")
                act(SCREEN, ctx, "tile", tile)
                assert ui.selected == tile and not played
                html = SCREEN.render(ctx)
                for move in moves:
                    assert f'data-action="end" data-value="{move[-1]}"' in html
                assert f"{tile} fits" in html
                act(SCREEN, ctx, "end", moves[-1][-1])
                assert played == [moves[-1]] and ui.selected is None
                return
            session.play(view["legal_moves"][0])
    pytest.fail("no seeded game offered a tile that fits a spinner's end and another arm")


def test_a_scoring_lay_shows_its_points_on_the_board_and_by_the_count():
    seats = [Seat("human", "Ana"), Seat("computer", "Computer 1", "medium")]
    for seed in range(40):
        session = Session.start(INFO, seats, "m", "Mode", {"players": 2, "scoring": "fives"}, seed=seed)
        while not session.state.is_over():
            ctx, _ = context(session)
            if SCREEN.paused(ctx):
                act(SCREEN, ctx, "next-hand", "")
                continue
            view = session.state.view(0)
            lays = [e for e in view["history"] if e["move"] not in ("draw", "pass")]
            if lays and lays[-1]["points"]:
                html = SCREEN.render(ctx)
                points = lays[-1]["points"]
                assert 'id="dom-points"' in html and f">+{points}<" in html
                assert f"+{points}</span>" in html.split('id="dom-count"')[1]
                return
            if session.computer_to_move():
                session.computer_move()
            else:
                session.play(view["legal_moves"][0])
    pytest.fail("nobody scored")


def test_the_scoreboard_shows_sides_and_each_hands_gain():
    seats = against_computers(4, "easy")
    session = Session.start(
        INFO, seats, "m", "Mode", {"players": 4, "scoring": "fives", "teams": True, "target": 100}, seed=7
    )
    while not session.state.is_over():
        play_on(SCREEN, context(session)[0])
    view = session.state.view(0)
    ctx, _ = context(session)
    labels, totals, rows = SCREEN.score_rows(ctx, view, SCREEN.names(ctx))
    assert labels == ["You & partner", "Opponents"]
    assert [plain(n) for n in SCREEN.side_names(ctx, SCREEN.names(ctx))] == [
        "You & Computer 2",
        "Computer 1 & Computer 3",
    ]
    assert totals == [view["scores"][0], view["scores"][1]] and max(totals) >= 100
    assert [sum(col) for col in zip(*rows)] == totals
    assert all(p % 5 == 0 for row in rows for p in row)
    html = SCREEN.render(ctx)
    assert "win the match" in html or "wins the match" in html
    summary = html.split('class="stats-table dom-summary"')[1]  # the scores are its Total, not a sentence
    assert "Final score" not in plain(html) and all(f"<td>{total}</td>" in summary for total in totals)


# -- How to play -------------------------------------------------------------------------------------


def test_how_to_play_explains_all_fives_and_partners_with_the_engines_counts():
    from ui import howto, shell

    figs = {f.key: f for f in howto.figures("dominoes")}
    assert {"fives-spinner", "fives-score", "partners"} <= set(figs)
    page = plain(shell.rules(INFO, True))
    assert "All Fives" in page and "Partners (2 against 2)" in page
    assert "alone, 5-5 counts 10" in page and "rounded to the nearest five" in page
    for key in ("fives-spinner", "fives-score", "partners"):
        fig = figs[key]
        for claim in fig.claims:  # the position each shows is the engine's, the count its count
            state = INFO.new_state(seed=claim.seed, **dict(claim.options))
            for move in claim.before:
                state.play(move)
            state.play(claim.move)
            view = state.view(0)
            parts = howto.count_parts(view)
            assert sum(v for _w, v in parts) == view["count"]
            assert f"{view['count']}" in plain(fig.caption)
    spinner = figs["fives-spinner"]
    assert "top end" in plain(spinner.caption) and "bottom end" in plain(spinner.caption)
    assert "+" in plain(figs["fives-score"].picture)
