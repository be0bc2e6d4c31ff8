"""How to play's diagrams under CPython: each renders, and every move it shows is checked by a fresh engine."""

from __future__ import annotations

import pytest

from boneyard.games import GAMES
from boneyard.games.bonefall.sim import Board
from ui import howto, shell

TURN_BASED = [g for g in GAMES if not GAMES[g].realtime]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_diagrams_placed_in_its_rules(game_id):
    figs = howto.figures(game_id)
    assert figs
    html = shell.rules(GAMES[game_id], True)
    for fig in figs:
        assert f'id="fig-{fig.key}"' in html and fig.picture in html
    # each diagram follows the paragraph it shows (found in the text, not appended at the end)
    text = " ".join((GAMES[game_id].how_to_play + " " + howto.EXTRA_TEXT.get(game_id, "")).split())
    assert all(fig.after in text for fig in figs), [f.after for f in figs if f.after not in text]


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_every_move_a_diagram_shows_is_what_the_engine_says(game_id):
    claims = [c for fig in howto.figures(game_id) for c in fig.claims]
    assert any(c.legal for c in claims) and any(not c.legal for c in claims)
    for claim in claims:
        state = GAMES[claim.game].new_state(seed=claim.seed, **dict(claim.options))
        for move in claim.before:
            state.play(move)  # the position is reached by legal play
        legal = {str(m) for m in state.legal_moves()}
        shown_legal = claim.move in legal or howto.is_legal(state, claim.move)[0]
        assert shown_legal == claim.legal, claim


def test_dominoes_diagrams_cover_the_opening_a_refusal_an_end_match_a_draw_and_a_block():
    keys = {f.key for f in howto.figures("dominoes")}
    assert keys >= {"dominoes-opening", "dominoes-legal", "dominoes-end", "dominoes-draw", "dominoes-block"}
    block = next(f for f in howto.figures("dominoes") if f.key == "dominoes-block")
    pips, winner = block.facts["pips"], block.facts["winner"]
    assert pips[winner] == min(pips) and pips.count(min(pips)) == 1
    opening = next(f for f in howto.figures("dominoes") if f.key == "dominoes-opening")
    assert [c.move for c in opening.claims if c.legal] == ["5-5"]


def test_the_triangles_match_touches_along_a_side_and_at_a_point():
    fig = next(f for f in howto.figures("triangles") if f.key == "triangles-match")
    assert fig.facts["side"] >= 1 and fig.facts["point"] >= 1
    assert [c.legal for c in fig.claims] == [True, False]


@pytest.mark.parametrize(
    ("name", "events", "score"),
    [
        ("fall", [], 0),
        ("tip", ["fall"], 0),
        ("annihilate", ["annihilate", "fall"], 2),
        ("cascade", ["annihilate", "fall", "annihilate"], 4),
    ],
)
def test_bonefall_scenes_play_out_as_their_captions_say(name, events, score):
    run = howto.bonefall_run(name)
    assert [e["kind"] for e in run["events"]] == events and run["score"] == score
    assert run["power"] == ((score - 1) ** 2 if score else 0)
    board = Board(*run["before"])
    assert board.is_at_rest() and not board.find_matches()  # the scene starts at rest, nothing matching
    if name == "tip":
        assert any(m["tipped"] for m in run["events"][0]["moves"])
    assert Board(*run["after"]).is_at_rest()


def test_the_cascade_loop_runs_only_with_animations_on():
    fig = next(f for f in howto.figures("bonefall") if f.key == "bonefall-cascade")
    assert 'class="howto-film"' in fig.picture and 'aria-hidden="true"' in fig.picture


def test_bonefall_rules_list_its_controls():
    html = shell.rules(GAMES["bonefall"], True)
    assert "<kbd>Space</kbd>" in html and "Controls" in html


def test_how_to_play_says_how_to_check_a_deal_against_the_computer():
    for game in ("dominoes", "triangles", "heptalion"):
        body = howto.howto_body(GAMES[game])
        assert "<h2>Check the deal</h2>" in body and "python3 -m boneyard.deals --game GAME" in body
    assert "Check the deal" not in howto.howto_body(GAMES["bonefall"])  # no one deals against you there
