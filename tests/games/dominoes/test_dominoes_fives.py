"""All Fives (``scoring="fives"``) and partnerships (``teams=True``): every sentence of the rule decisions.

The two sections are quoted in ``docs/rules/dominoes-fives-partners.txt``; each sentence maps to a check
below, and a test fails when a sentence has none. Then the count on hand-built layouts, and properties
over seeded games of every combination: tiles conserved, the count equal to the decisions' sum (worked out
here from the view alone) after every lay, scores only in fives, undo exact, samples that show the seat
its own view.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from dominoes_helpers import ids, moves_text, random_games

from boneyard.core import IllegalMoveError, Termination
from boneyard.games.dominoes import GAME
from boneyard.games.dominoes.rules import (
    OPENING_ORDER,
    TILE_ID,
    TILES,
    FivesState,
    FivesTable,
    from_dict,
    mask_pips,
    mask_tiles,
    new_state,
    parse_move,
    resolve_options,
    round_five,
    tiles_mask,
)
from boneyard.games.dominoes.sample import sample
from boneyard.tiles import parse_domino

RULES_FILE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "dominoes-fives-partners.txt"
FIVES = {"scoring": "fives"}
TEAMS = {"players": 4, "teams": True}


# -- building positions ----------------------------------------------------------------------------


def piece(text: str) -> tuple[int, int]:
    """Return an oriented piece written "5-3" (5 toward the spinner or the line's left)."""
    a, b = text.split("-")
    return (int(a), int(b))


def fives_position(
    hands: list[list[str]],
    line: list[str] = (),  # type: ignore[assignment]
    spinner: int | None = None,
    north: list[str] = (),  # type: ignore[assignment]
    south: list[str] = (),  # type: ignore[assignment]
    turn: int = 0,
    draw: bool = True,
    teams: bool = False,
    target: int = 150,
    scores: list[int] | None = None,
) -> FivesState:
    """Return an All Fives state with exactly this layout (``spinner``: its index in ``line``) and hands."""
    players = len(hands)
    state = new_state(seed=0, players=players, draw=draw, scoring="fives", teams=teams, target=target)
    assert isinstance(state, FivesState)
    pieces = [piece(p) for p in line]
    arms = [[piece(p) for p in north], [piece(p) for p in south]]
    used = set(ids([t for h in hands for t in h]))
    used |= {TILE_ID[(max(p), min(p))] for p in pieces + arms[0] + arms[1]}
    stock = [t for t in range(28) if t not in used] if draw else []
    table = FivesTable(players, draw, [tiles_mask(ids(h)) for h in hands], stock, turn, -1)
    table.line = pieces
    if pieces:
        table.left, table.right = pieces[0][0], pieces[-1][1]
    if spinner is not None:
        table.spinner = pieces[spinner][0]
        table.left_arm = spinner
        table.right_arm = len(pieces) - 1 - spinner
        table.north, table.south = arms
    state.table = table
    state.history = []
    if scores is not None:
        state.scores = list(scores)
    return state


def design_count(view: dict[str, Any]) -> int:
    """Return the decisions' count worked out from a view alone (the sum over the open arms' ends)."""
    line = [tuple(p["tile"]) for p in view["line"]]
    if not line:
        return 0
    layout = view["layout"]
    at = layout["spinner"]

    def end(tile: tuple[int, int], outer: int) -> int:
        return tile[0] + tile[1] if tile[0] == tile[1] else tile[outer]  # a crosswise double: both halves

    if at is None:
        return line[0][0] + line[-1][1]  # no double yet (a lone opening tile counts both halves)
    sides = [at > 0, at < len(line) - 1]
    total = (end(line[0], 0) if sides[0] else 0) + (end(line[-1], 1) if sides[1] else 0)
    if not all(sides):
        return total + 2 * line[at][0]  # the spinner counts both halves while a side is free
    for arm in (layout["north"], layout["south"]):
        if arm:
            total += end(tuple(arm[-1]["tile"]), 1)
    return total


def play_texts(state: Any, *texts: str) -> None:
    for text in texts:
        state.play(text)


# -- the checks of the decisions' sentences ----------------------------------------------------------------


def fives_is_an_option():
    assert {o.name: o.default for o in GAME.options}["scoring"] == "pips"
    assert next(o for o in GAME.options if o.name == "scoring").choices == ("pips", "fives")
    state = new_state(seed=1, scoring="fives")
    assert isinstance(state, FivesState) and state.view(0)["options"]["scoring"] == "fives"


def dealt_as_the_other_modes():
    for players, size in ((2, 7), (3, 5), (4, 5)):
        state = new_state(seed=players, players=players, scoring="fives")
        assert [h.bit_count() for h in state.table.hands] == [size] * players
        assert len(state.table.stock) == 28 - size * players
    assert resolve_options(scoring="fives")["draw"] is True
    state = new_state(seed=3, scoring="fives", draw=False)
    assert not state.table.draw_game
    with pytest.raises(ValueError):
        new_state(seed=1, players=5, scoring="fives")


def opening_as_the_other_modes():
    for state, rng in random_games(40, seed=11, options={**FIVES, "players": 3, "target": 250}):
        hand = 1
        previous = None
        while not state.is_over():
            if state.hand_number != hand:
                hand = state.hand_number
                previous = state.hand_results[-1]
                if previous["winner"] is not None:
                    assert state.current_player() == previous["winner"]
                    assert len(state.legal_moves()) == state.table.hands[previous["winner"]].bit_count()
            if not state.table.line and (previous is None or previous["winner"] is None):
                dealt = {t for h in state.table.hands for t in mask_tiles(h)}
                highest = next(t for t in OPENING_ORDER if t in dealt)  # the highest double, else heaviest
                assert [TILE_ID[m.tile] for m in state.legal_moves()] == [highest]
            state.play(rng.choice(state.legal_moves()))


def first_double_is_the_spinner():
    state = fives_position([["5-5", "6-1"], ["5-2", "4-4"]], line=["3-5"])
    play_texts(state, "5-5:R")
    view = state.view(0)
    assert view["layout"]["spinner"] == 1 and state.table.spinner == 5
    opening = fives_position([["5-5", "6-1"], ["5-2", "1-1"]])
    play_texts(opening, "5-5")
    assert opening.view(1)["layout"]["spinner"] == 0


def sides_first_then_ends():
    state = fives_position([["5-1", "5-2", "0-0"], ["5-3", "5-4", "6-6"]], line=["5-5"], spinner=0)
    assert set(moves_text(state)) == {"5-1:L", "5-2:L"}  # the spinner alone: its two sides are alike
    play_texts(state, "5-1:L")
    assert set(moves_text(state)) == {"5-3:R", "5-4:R"}  # one side taken: the other side, no ends yet
    assert state.view(0)["layout"]["ends"] == {"L": 1, "R": 5, "N": None, "S": None}
    assert not state.view(0)["layout"]["open"]
    play_texts(state, "5-4:R")
    assert state.view(0)["layout"]["open"]  # both sides taken: the spinner's ends take tiles
    assert state.view(0)["layout"]["ends"] == {"L": 1, "R": 4, "N": 5, "S": 5}
    state2 = fives_position([["5-2", "0-0"], ["5-3", "6-6"]], line=["1-5", "5-5", "5-4"], spinner=1)
    assert moves_text(state2) == ["5-2:N"]  # both sides taken: the ends open (both bare: alike)
    play_texts(state2, "5-2:S")  # the twin end is accepted and lays the same layout
    assert state2.view(0)["layout"]["north"] == [{"tile": [5, 2], "double": False}]
    assert moves_text(state2) == ["5-3:S"]
    play_texts(state2, "5-3:S")
    layout = state2.view(0)["layout"]
    assert layout["ends"] == {"L": 1, "R": 4, "N": 2, "S": 3} and layout["open"]


def other_doubles_are_crosswise():
    state = fives_position([["4-4", "0-1"], ["3-3", "0-2"]], line=["1-5", "5-5", "5-4"], spinner=1)
    play_texts(state, "4-4:R")
    view = state.view(0)
    assert view["layout"]["spinner"] == 1 and view["line"][-1] == {"tile": [4, 4], "double": True}
    assert state.table.spinner == 5 and view["count"] == 1 + 8  # crosswise at its arm's end: both halves
    assert view["layout"]["ends"]["R"] == 4


def the_count():
    cases = [
        ({"line": ["5-5"], "spinner": 0}, 10),  # the spinner alone
        ({"line": ["5-5", "5-3"], "spinner": 0}, 13),  # one side played: 10 plus that arm's end
        ({"line": ["2-5", "5-5", "5-3"], "spinner": 1}, 5),  # both sides: the spinner no longer counts
        ({"line": ["2-5", "5-5", "5-3"], "spinner": 1, "north": ["5-1"]}, 6),  # an end arm with a tile
        ({"line": ["2-5", "5-5", "5-3", "3-3"], "spinner": 1}, 8),  # a double at an arm's end
        ({"line": ["2-5", "5-5", "5-3"], "spinner": 1, "north": ["5-4", "4-4"], "south": ["5-0"]}, 13),
        ({"line": ["6-4"]}, 10),  # a lone opening tile, no double yet
        ({"line": ["1-6", "6-4"]}, 5),
    ]
    for layout, count in cases:
        state = fives_position([["0-0"], ["1-1"]], **layout)
        view = state.view(0)
        assert state.table.count() == count == design_count(view), (layout, count)


def multiples_of_five_score_at_once():
    state = fives_position([["5-5", "6-1"], ["5-2", "4-3"]])
    play_texts(state, "5-5")
    assert state.scores == [10, 0]
    assert state.view(1)["history"][-1] == {
        "seat": 0,
        "move": "5-5",
        "tile": [5, 5],
        "end": None,
        "count": 10,
        "points": 10,
    }
    play_texts(state, "5-2:L")  # 10 + 2 = 12: no score
    assert state.scores == [10, 0] and state.view(0)["count"] == 12
    later = fives_position([["6-3", "1-1"], ["6-2", "0-0"]], line=["4-6"])
    play_texts(later, "6-3:R")  # 4 + 3 = 7
    assert later.scores == [0, 0]
    zero = fives_position([["6-6"], ["5-5"]], line=["0-0"], spinner=0)
    assert zero.table.count() == 0  # a count of nought scores nothing
    for state, rng in random_games(60, seed=3, options=FIVES):
        while not state.is_over():
            before = list(state.scores)
            seat = state.current_player()
            move = rng.choice(state.legal_moves())
            hand = state.hand_number
            state.play(move)
            if move.kind.value == "lay" and state.hand_number == hand:
                count = state.view(0)["count"]
                gained = state.scores[seat] - before[seat]
                ended = state.table.ended is not None
                if not ended:
                    assert gained == (count if count % 5 == 0 else 0)


def a_hand_ends_as_in_draw_or_block():
    for options in ({**FIVES}, {**FIVES, "draw": False, "players": 3}):
        for state, rng in random_games(40, seed=5, options=options):
            while not state.is_over():
                legal = moves_text(state)
                if "draw" in legal:
                    assert legal == ["draw"] and options.get("draw", True)
                if "pass" in legal:
                    assert legal == ["pass"] and (not options.get("draw", True) or not state.table.stock)
                state.play(rng.choice(state.legal_moves()))
            assert state.outcome().termination in (Termination.TARGET,)


def hand_points_rounded():
    assert [round_five(n) for n in (0, 2, 3, 7, 8, 12, 13, 27)] == [0, 0, 5, 5, 10, 10, 15, 25]
    state = fives_position([["6-4"], ["6-2", "3-1"]], line=["4-4"], spinner=0)  # 6-4:L counts 6+8=14
    play_texts(state, "6-4:L")
    assert state.hand_results[-1]["points"] == 10 == round_five(8 + 4) and state.scores == [10, 0]
    blocked = fives_position(
        [["6-6", "0-1"], ["6-5", "2-1"]], line=["3-3"], spinner=0, draw=False, scores=[0, 0]
    )
    play_texts(blocked, "pass", "pass")
    result = blocked.hand_results[-1]
    assert result["ended"] == "blocked" and result["winner"] == 0 and result["points"] == round_five(14) == 15
    tie = fives_position([["6-0"], ["5-1"]], line=["3-3"], spinner=0, draw=False)
    play_texts(tie, "pass", "pass")
    assert tie.hand_results[-1]["winner"] is None and tie.scores == [0, 0]
    assert tie.table.opening_tile >= 0  # the next hand: back to the highest double


def match_ends_mid_hand():
    assert resolve_options(scoring="fives")["target"] == 150
    assert resolve_options(scoring="fives", target=250)["target"] == 250
    state = fives_position([["5-5", "6-1", "2-2"], ["5-2", "4-3"]], target=100, scores=[95, 40])
    play_texts(state, "5-5")
    assert state.is_over() and state.table.ended is None  # mid-hand
    outcome = state.outcome()
    assert (
        outcome.termination is Termination.TARGET and outcome.winners == (0,) and outcome.scores == (105, 40)
    )
    assert state.legal_moves() == [] and state.view(0)["legal_moves"] == []
    with pytest.raises(IllegalMoveError):
        state.play("6-1:L")
    again = from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict() and again.is_over()
    state.undo()
    assert not state.is_over() and state.scores == [95, 40]
    for state, rng in random_games(40, seed=8, options={**FIVES, "target": 100}):
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
            assert max(state.scores) < 100 or state.is_over()
        scores = state.outcome().scores
        assert max(scores) >= 100 and sorted(scores).count(max(scores)) == 1
        assert state.outcome().winners == (scores.index(max(scores)),)


def partnerships_sit_opposite():
    assert {o.name: o.default for o in GAME.options}["teams"] is False
    with pytest.raises(ValueError):
        new_state(seed=1, players=3, teams=True)
    for options in (TEAMS, {**TEAMS, **FIVES}):
        state = new_state(seed=2, **options)
        assert [state.view(s)["partner"] for s in range(4)] == [2, 3, 0, 1]
        assert state.view(1)["sides"] == [[0, 2], [1, 3]]
        seats = []
        rng = random.Random(2)
        while not state.is_over() and len(seats) < 12:
            seats.append(state.current_player())
            state.play(rng.choice(state.legal_moves()))
        assert all(b in (a, (a + 1) % 4) for a, b in zip(seats, seats[1:]))  # play passes as usual
        view = state.view(0)  # the partner's hand stays hidden: only its count is shown
        assert view["hand"] == [list(TILES[t]) for t in mask_tiles(state.table.hands[0])]
        assert "hands" not in view and view["hand_counts"][2] == state.table.hands[2].bit_count()


def hand_won_by_side():
    out = fives_position([["6-4"], ["6-2"], ["1-0"], ["3-1"]], line=["4-3"], teams=True)
    play_texts(out, "6-4:L")
    result = out.hand_results[-1]
    assert result["winner"] == 0 and out.scores[0] == out.scores[2] and out.scores[1] == out.scores[3] == 0
    # blocked: the single lowest total's side; a tie for lowest between the sides: nobody
    blocked = fives_position(
        [["6-6"], ["5-5", "0-1"], ["2-0"], ["6-5"]], line=["3-3"], spinner=0, draw=False, teams=True
    )
    play_texts(blocked, "pass", "pass", "pass", "pass")
    result = blocked.hand_results[-1]
    assert result["winner"] == 2 and result["points"] == round_five(11 + 11)
    tie = fives_position(
        [["2-0"], ["1-1"], ["6-6"], ["5-5"]], line=["3-3"], spinner=0, draw=False, teams=True
    )
    play_texts(tie, "pass", "pass", "pass", "pass")
    assert tie.hand_results[-1]["winner"] is None and tie.scores == [0, 0, 0, 0]
    partners_tie = fives_position(
        [["2-0"], ["6-5"], ["1-1"], ["5-5"]], line=["3-3"], spinner=0, draw=False, teams=True
    )
    play_texts(partners_tie, "pass", "pass", "pass", "pass")
    assert partners_tie.hand_results[-1]["winner"] == 0  # both lowest are partners: their side wins


def side_scores_opposing_hands():
    for options in ({**TEAMS, "target": 100}, {**TEAMS, **FIVES}):
        for state, rng in random_games(25, seed=4, options=options):
            while not state.is_over():
                hand = state.hand_number
                table = state.table
                state.play(rng.choice(state.legal_moves()))
                assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
                ended = state.hand_number != hand or (state.is_over() and table.ended is not None)
                if ended and state.hand_results and state.hand_results[-1]["hand"] == hand:
                    result = state.hand_results[-1]
                    if result["winner"] is None:
                        continue
                    w = result["winner"]
                    pips = [mask_pips(h) for h in table.hands]
                    points = pips[(w + 1) % 4] + pips[(w + 3) % 4]
                    if options.get("scoring") == "fives":
                        points = round_five(points)
                    assert result["points"] == points
            outcome = state.outcome()
            assert len(outcome.winners) == 2 and outcome.winners[1] == outcome.winners[0] + 2
    single = new_state(seed=6, **TEAMS)
    rng = random.Random(6)
    while not single.is_over():
        single.play(rng.choice(single.legal_moves()))
    outcome = single.outcome()
    assert outcome.winners in ((0, 2), (1, 3), ()) and outcome.scores == ()  # the side simply wins


def fives_counts_for_the_side():
    state = fives_position([["5-5", "6-1"], ["5-2", "4-3"], ["1-0"], ["2-1"]], teams=True)
    play_texts(state, "5-5")
    assert state.scores == [10, 0, 10, 0]


def later_hands_led_by_who_went_out():
    for state, rng in random_games(30, seed=9, options={**TEAMS, **FIVES}):
        hand = 1
        while not state.is_over():
            if state.hand_number != hand:
                hand = state.hand_number
                last = state.hand_results[-1]
                if last["ended"] == "out":
                    assert state.current_player() == last["winner"]
            state.play(rng.choice(state.legal_moves()))


RULES = {
    '**All Fives** (Dominoes option `scoring="fives"`; also sold as Muggins or Five Up).': fives_is_an_option,
    "Double-six, 2-4 players, dealt as the other modes (7 each for two, 5 for three or four), draw game by default (`draw` False gives a block game).": dealt_as_the_other_modes,
    "Opening: in the first hand the holder of the highest double lays it (no double dealt: the heaviest tile); in later hands the winner of the last hand leads with any tile; after a hand won by nobody, back to the highest double.": opening_as_the_other_modes,
    "The spinner: the first double laid, whether it opens or comes later.": first_double_is_the_spinner,
    "Tiles are laid against its two sides first; once both sides have a tile, its two ends take tiles too: up to four arms.": sides_first_then_ends,
    "Every other double is laid crosswise at the end of its arm and is not a spinner.": other_doubles_are_crosswise,
    "The count after every lay: the sum, over the open arms, of the number showing at each arm's end; a double lying crosswise at an arm's end counts both halves; the spinner counts both halves while fewer than two of its sides have a tile (alone, 5-5 counts 10; with one side played, 10 plus that arm's end); once both sides have a tile the spinner itself no longer counts, and its two ends count only when a tile has been laid on them.": the_count,
    "When the count is a positive multiple of five, the player who laid the tile scores the count at once.": multiples_of_five_score_at_once,
    "A hand ends as in the draw or block game.": a_hand_ends_as_in_draw_or_block,
    "The player who goes out scores the pips left in all the opponents' hands, rounded to the nearest five; a blocked hand: the player with the lowest pip total scores the opponents' pips, rounded to the nearest five; a tie for lowest scores nothing.": hand_points_rounded,
    "The match: to 150 by default (100 and 250 offered); it ends the moment a player or side reaches the target, even in the middle of a hand; the highest score wins (a tie at the target is impossible: one lay scores at a time).": match_ends_mid_hand,
    "**Partnerships** (Dominoes option `teams=True`, four players, every scoring mode): partners sit opposite, seats 0 and 2 against 1 and 3; play passes as usual.": partnerships_sit_opposite,
    "A hand is won by the side of the player who goes out, or, when blocked, by the side of the single player with the lowest pip total (a tie for lowest between the sides: nobody wins the hand).": hand_won_by_side,
    "The winning side scores the pips in the two opposing hands (rounded to the nearest five in All Fives; in a single round the side simply wins); All Fives counts score for the side of the player who laid.": side_scores_opposing_hands,
    "Later hands are led by the player who went out.": later_hands_led_by_who_went_out,
}
ALSO = {"fives_counts_for_the_side": fives_counts_for_the_side}


def _sentences() -> list[str]:
    """Return the sentences of the quoted decisions (after the file's two lines of introduction)."""
    paragraphs: list[str] = []
    for line in RULES_FILE.read_text(encoding="utf-8").splitlines()[3:]:
        if line.startswith(("- ", "**")) or not paragraphs:
            paragraphs.append(line)
        else:
            paragraphs[-1] += " " + line.strip()
    return [s for p in paragraphs for s in re.split(r"(?<=[.!?])\s+", p.lstrip("- ").strip()) if s]


def test_every_sentence_of_the_decisions_is_quoted():
    sentences = _sentences()
    assert len(sentences) == 15
    assert [s for s in sentences if s not in RULES] == []


@pytest.mark.parametrize("sentence", list(RULES))
def test_decision_sentence(sentence):
    """Check the engine against the quoted sentence."""
    RULES[sentence]()


def test_fives_counts_score_for_the_layers_side():
    fives_counts_for_the_side()


# -- properties over seeded games ------------------------------------------------------------------

COMBINATIONS = [
    {**FIVES},
    {**FIVES, "players": 3, "draw": False},
    {**FIVES, "players": 4, "target": 100},
    {**FIVES, **TEAMS},
    {**FIVES, **TEAMS, "draw": False, "target": 250},
    {**TEAMS},
    {**TEAMS, "target": 100, "draw": False},
]


@pytest.mark.parametrize("options", COMBINATIONS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_tiles_conserved_count_and_scores_in_fives(options):
    fives = options.get("scoring") == "fives"
    games = 300
    for state, rng in random_games(games, seed=21, options=options):
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
            table = state.table
            places = [t for h in table.hands for t in mask_tiles(h)] + table.stock
            layout = table.line + (table.north + table.south if fives else [])
            places += [TILE_ID[(max(p), min(p))] for p in layout]
            assert sorted(places) == list(range(28))
            view = state.view(0)
            if fives:
                assert view["count"] == design_count(view) == table.count()
                assert all(s % 5 == 0 for s in state.scores)
                for event in view["history"]:
                    if "count" in event:
                        assert event["points"] == (event["count"] if event["count"] % 5 == 0 else 0)
            else:
                assert view["count"] is None and view["layout"] is None
        if fives:
            assert all(s % 5 == 0 for s in state.outcome().scores)


@pytest.mark.parametrize("options", COMBINATIONS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_undo_is_exact_and_samples_show_the_seat_its_view(options):
    for state, rng in random_games(40, seed=31, options=options):
        while not state.is_over():
            before = state.to_dict()
            move = rng.choice(state.legal_moves())
            state.play(move)
            saved = state.to_dict()
            assert from_dict(json.loads(json.dumps(saved))).to_dict() == saved
            state.undo()
            assert state.to_dict() == before
            state.play(move)
            seat = rng.randrange(state.players)
            view = state.view(seat)
            assert sample(view, rng).view(seat) == view


def test_move_texts_name_the_arm_and_old_texts_still_work():
    assert str(parse_move("5-3:N")) == "5-3:N" and str(parse_move("5-3:s")) == "5-3:S"
    assert parse_move("5-3:N").end == "N" and parse_move("6-4:L").end == "L"
    with pytest.raises(ValueError):
        parse_move("5-3:E")
    pips = new_state(seed=1)
    with pytest.raises(IllegalMoveError):
        pips.play("6-6:N")
    state = fives_position([["5-2", "0-0"], ["5-3", "6-6"]], line=["1-5"])
    with pytest.raises(IllegalMoveError, match="no spinner"):
        state.play("5-2:N")
    assert parse_domino("5-2") in [m.tile for m in state.legal_moves()]
