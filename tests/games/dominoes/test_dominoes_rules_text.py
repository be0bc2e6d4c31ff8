"""Every sentence of the two dominoes rules texts, quoted, with the check that holds the engine to it.

``domino-classic-triangles.txt`` (its Classic parts; the Triangles variant is another game's) and
``dominoes-match.txt``. Sentences about the screens, the site or another product are listed in
``ELSEWHERE`` with the reason; a test fails if a sentence of either text is in neither table.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from dominoes_helpers import moves_text, position, random_games

from boneyard.games.dominoes import GAME, MODES
from boneyard.games.dominoes.bots import easy_bot, hard_bot, medium_bot, rival_voids
from boneyard.games.dominoes.rules import NUMBER_MASK, TILES, mask_tiles, new_state

RULES_DIR = Path(__file__).resolve().parents[3] / "docs" / "rules"  # the rules texts, in the repository

# -- checks ----------------------------------------------------------------------------------------


def double_six_set():
    state = new_state(seed=1, players=2)
    table = state.table
    tiles = [t for h in table.hands for t in mask_tiles(h)] + table.stock
    assert sorted(tiles) == list(range(28)) and len(set(TILES)) == 28
    assert all(0 <= a <= 6 and 0 <= b <= 6 for a, b in TILES)


def chain_matches_at_its_ends():
    for state, rng in random_games(30, seed=1, options={"players": 3}):
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
            line = state.table.line
            assert all(a[1] == b[0] for a, b in zip(line, line[1:]))
            if line:
                assert state.view(0)["open_ends"] == [line[0][0], line[-1][1]]


def two_to_four_players_and_levels():
    players = next(o for o in GAME.options if o.name == "players")
    assert players.choices == (2, 3, 4) and (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.levels == ("random", "easy", "medium", "hard", "expert")


def deal_sizes():
    for players, size in ((2, 7), (3, 5), (4, 5)):
        view = new_state(seed=players, players=players).view(0)
        assert view["hand_counts"] == [size] * players
        assert view["stock"] == 28 - size * players


def stock_face_down():
    state = new_state(seed=3, players=2)
    view = state.view(0)
    assert view["stock"] == 14 and "boneyard" not in view  # which tiles: hidden (the conformance leak test)


def highest_double_opens():
    for seed in range(50):
        state = new_state(seed=seed, players=2)
        dealt = [TILES[t] for h in state.table.hands for t in mask_tiles(h)]
        doubles = sorted(t for t in dealt if t[0] == t[1])
        if doubles:
            assert state.legal_moves()[0].tile == doubles[-1] and len(state.legal_moves()) == 1


def heaviest_opens_without_a_double():
    found = 0
    for seed in range(400):
        state = new_state(seed=seed, players=2, hand_size=2)
        dealt = [TILES[t] for h in state.table.hands for t in mask_tiles(h)]
        if any(a == b for a, b in dealt):
            continue
        assert state.legal_moves()[0].tile == max(dealt, key=lambda t: (sum(t), t[0]))
        found += 1
    assert found > 10


def later_hands_opened_by_winner():
    state = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)], target=100)
    state.play("5-1:R")
    assert state.current_player() == 0 and len(state.legal_moves()) == 7


def open_ends_in_view():
    state = position([["4-2"], ["0-0"]], line=[(3, 1), (1, 4)])
    assert state.view(1)["open_ends"] == [3, 4]


def choose_which_end():
    state = position([["6-3", "1-1"], ["0-0", "2-0"]], line=[(6, 5), (5, 3)])
    assert sorted(moves_text(state)) == ["6-3:L", "6-3:R"]


def four_two_against_four():
    state = position([["4-2", "1-1"], ["0-0"]], line=[(6, 4)])
    state.play("4-2:R")
    assert state.view(0)["open_ends"] == [6, 2]


def draw_until_one_fits():
    state = position([["1-1", "0-0"], ["2-2"]], line=[(6, 5)], stock=["6-1", "4-4", "4-0"])
    for _ in range(3):
        assert moves_text(state) == ["draw"] and state.current_player() == 0
        state.play("draw")
    assert moves_text(state) == ["6-1:L"]


def no_pass_while_stock_has_tiles():
    state = position([["1-1", "0-0"], ["2-2"]], line=[(6, 5)], stock=["4-4"])
    assert moves_text(state) == ["draw"]


def pass_when_stock_empty():
    state = position([["1-1", "0-0"], ["2-2"]], line=[(6, 5)], stock=[])
    assert moves_text(state) == ["pass"]


def block_game_passes():
    state = position([["1-1", "0-0"], ["2-2"]], line=[(6, 5)], stock=["4-4", "6-1"], draw=False)
    assert moves_text(state) == ["pass"]


def round_ends_out_or_blocked():
    ends = set()
    for options in ({"players": 2}, {"players": 4, "hand_size": 7, "draw": False}):
        for state, rng in random_games(100, seed=4, options=options):
            while not state.is_over():
                state.play(rng.choice(state.legal_moves()))
            ends.add(state.outcome().termination)
    assert ends == {"out", "blocked"}


def last_tile_wins():
    state = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)])
    state.play("5-1:R")
    assert state.outcome().winner == 0 and state.outcome().termination == "out"


def everyone_passes_blocked():
    state = position([["1-1"], ["2-2"], ["3-3"]], line=[(6, 5)], stock=[])
    state.play("pass")
    state.play("pass")
    assert not state.is_over()
    state.play("pass")
    assert state.outcome().termination == "blocked"


def lowest_total_wins():
    state = position([["4-4"], ["1-0"], ["3-3"]], line=[(6, 5)], stock=[])
    for _ in range(3):
        state.play("pass")
    assert state.outcome().winner == 1 and state.hand_results[-1]["pips"] == [8, 1, 6]


def tie_is_a_draw():
    state = position([["2-0"], ["1-1"], ["3-3"]], line=[(6, 5)], stock=[])
    for _ in range(3):
        state.play("pass")
    assert state.outcome().is_draw and state.outcome().winners == (0, 1)


def single_round_no_score():
    state = position([["5-1"], ["2-2", "3-2"]], line=[(6, 5)])
    state.play("5-1:R")
    assert state.is_over() and state.view(0)["scores"] is None


def easy_random():
    state = position([["6-1", "6-2", "6-3"], ["0-0"]], line=[(6, 6)])
    assert {str(easy_bot(state.view(0), random.Random(s))) for s in range(40)} == {"6-1:L", "6-2:L", "6-3:L"}


def medium_doubles_then_heaviest():
    state = position([["6-1", "5-2", "1-1", "6-5"], ["0-0"]], line=[(1, 6)])
    assert str(medium_bot(state.view(0), random.Random(0))) == "1-1:L"
    state = position([["6-1", "6-5", "4-1"], ["0-0"]], line=[(1, 6)])
    assert medium_bot(state.view(0), random.Random(0)).tile == (6, 5)


def hard_remembers():
    view = {
        "players": 3,
        "history": [{"seat": 1, "move": "draw", "ends": [3, 5]}, {"seat": 2, "move": "pass", "ends": [2, 2]}],
    }
    assert rival_voids(view) == [set(), {3, 5}, {2}]


def hard_leaves_numbers_next_player_lacks():
    state = position([["3-1", "5-1", "0-0", "2-0"], ["6-6", "6-5", "2-2", "4-4", "1-0"]], line=[(1, 4)])
    state.history = [{"seat": 1, "move": "draw", "ends": [3, 3]}]
    assert str(hard_bot(state.view(0), random.Random(0))) == "3-1:L"


def seven_of_each_number():
    assert all(mask.bit_count() == 7 for mask in NUMBER_MASK)


def saved_and_restored():
    state = new_state(seed=8, players=2, target=50)
    for _ in range(6):
        state.play(state.legal_moves()[0])
    assert GAME.from_dict(state.to_dict()).to_dict() == state.to_dict()


def everyone_for_themselves():
    state = position([["5-1"], ["2-2", "3-2"], ["1-0"], ["4-4"]], line=[(6, 5)], target=100)
    state.play("5-1:R")
    assert state.scores == [9 + 1 + 8, 0, 0, 0]


def turns_in_order():
    state = new_state(seed=12, players=4)
    seats = []
    while len(seats) < 8 and not state.is_over():
        seat = state.current_player()
        move = state.legal_moves()[0]
        state.play(move)
        if str(move) != "draw":
            seats.append(seat)
    assert all((b - a) % 4 == 1 for a, b in zip(seats, seats[1:]))


def out_scores_opponents_pips():
    state = position([["5-1"], ["2-2", "3-2"], ["6-6"]], line=[(6, 5)], target=100)
    state.play("5-1:R")
    assert state.scores == [21, 0, 0] and state.hand_results[-1]["points"] == 21


def blocked_lowest_scores_everyone_else():
    state = position([["4-4"], ["1-0"], ["3-3"]], line=[(6, 5)], stock=[], target=100)
    for _ in range(3):
        state.play("pass")
    assert state.scores == [0, 8 + 6, 0] and state.hand_results[-1]["winner"] == 1


def blocked_tie_scores_nothing():
    state = position([["2-0"], ["1-1"], ["3-3"]], line=[(6, 5)], stock=[], target=100)
    for _ in range(3):
        state.play("pass")
    assert state.scores == [0, 0, 0] and state.hand_results[-1]["points"] == 0


def first_to_target_at_end_of_hand():
    for target in (50, 100):
        state = position(
            [["5-1"], ["2-2", "3-2"]], line=[(6, 5)], target=target, scores=[target - 9, target - 1]
        )
        state.play("5-1:R")
        assert state.is_over() and state.outcome().winner == 0 and state.outcome().termination == "target"
        state = position(
            [["5-1"], ["2-2", "3-2"]], line=[(6, 5)], target=target, scores=[target - 10, target - 1]
        )
        state.play("5-1:R")
        assert not state.is_over()


def how_to_play_text():
    assert "boneyard" in GAME.how_to_play and "block game" in GAME.how_to_play


def match_modes():
    assert MODES["2 players, to 100"] == {"players": 2, "hand_size": None, "draw": True, "target": 100}
    assert MODES["2 players, to 50"]["target"] == 50
    assert MODES["2 players, block (no drawing)"]["draw"] is False
    assert MODES["3 players, to 100"]["players"] == 3 and MODES["4 players, to 100"]["players"] == 4


def bots_offline():
    # The text's three levels, and Expert above them (issue 14's search), all playing in the page.
    assert set(GAME.bots) == {"easy", "medium", "hard", "expert"}


# -- the sentences ---------------------------------------------------------------------------------

RULES = {
    # domino-classic-triangles.txt, Classic
    "Domino is a matching game played with the 28 tiles of a double-six set.": double_six_set,
    "Each tile shows two numbers as dots, called pips, and players take turns adding to one shared chain by matching the numbers at its ends.": chain_matches_at_its_ends,
    "Then choose how many players sit at the table (two, three or four), the variant (Classic or Triangles), and a level if computers are playing.": two_to_four_players_and_levels,
    "In Classic, a two-player game deals seven tiles apiece, and a table of three or four gets five each.": deal_sizes,
    "Whatever is left becomes the stock, kept face down.": stock_face_down,
    "The player holding the biggest double lays it to start the chain.": highest_double_opens,
    "If nobody was dealt a double, the tile with the most pips goes first.": heaviest_opens_without_a_double,
    "Two big boxes labeled Open ends show the number waiting at each end of the chain.": open_ends_in_view,
    "Pick a tile from your hand with a matching half, then choose which end to attach it to.": choose_which_end,
    "Put a 4-2 against a 4, for example, and that end now shows a 2.": four_two_against_four,
    "Can’t match anything?": draw_until_one_fits,
    "Press Draw from stock and keep pulling tiles until one fits.": draw_until_one_fits,
    "You can’t pass by choice while the stock still has tiles.": no_pass_while_stock_has_tiles,
    "Once it is empty and you still have no match, press Pass.": pass_when_stock_empty,
    "The round ends in one of two ways:": round_ends_out_or_blocked,
    "Someone plays their last tile.": last_tile_wins,
    "That player wins on the spot.": last_tile_wins,
    "The chain jams.": everyone_passes_blocked,
    "With the stock gone, every player passes in a row.": everyone_passes_blocked,
    "Everyone counts the pips left in hand, and the lowest total wins.": lowest_total_wins,
    "A tie for lowest is a draw.": tie_is_a_draw,
    "Each game is a single round, so no score carries over to the next one.": single_round_no_score,
    "Knowing the levels helps you pick a fair match:": two_to_four_players_and_levels,
    "Easy plays any legal tile at random.": easy_random,
    "Medium dumps its doubles first, then its heaviest tiles, so it holds fewer pips if the chain jams.": medium_doubles_then_heaviest,
    "Hard does the same, but also remembers which numbers each rival couldn’t match.": hard_remembers,
    "It tries to leave those numbers on the ends, above all against the player who goes next.": hard_leaves_numbers_next_player_lacks,
    "Watch who draws.": hard_remembers,
    "When a rival pulls tiles while a 3 is showing, they probably hold no 3s.": hard_remembers,
    "Keep that number open to slow them down.": hard_leaves_numbers_next_player_lacks,
    "Each number appears on exactly seven tiles.": seven_of_each_number,
    "A round in progress is saved in the browser and survives a page reload.": saved_and_restored,
    "With only seven tiles each, a two-player Classic round is over fast, which suits a short break.": deal_sizes,
    # dominoes-match.txt
    "A double-six set (28 tiles).": double_six_set,
    "Two players get 7 tiles each, three or four get 5; the rest lie face down in the boneyard.": deal_sizes,
    "Everyone plays for themselves.": everyone_for_themselves,
    "The first hand is opened by whoever holds the highest double, who must lay it (with no doubles out, the heaviest tile).": highest_double_opens,
    "Later hands are opened by the last hand's winner, with any tile.": later_hands_opened_by_winner,
    "Turns go round in order.": turns_in_order,
    "Lay a tile with a half that matches one of the two open ends.": chain_matches_at_its_ends,
    "Nothing fits?": draw_until_one_fits,
    "Draw from the boneyard one tile at a time until one does; with the boneyard empty you pass.": draw_until_one_fits,
    "In the block game there is no drawing: you pass.": block_game_passes,
    "Whoever empties their hand first (dominoes) scores the pips left in all the opponents' hands.": out_scores_opponents_pips,
    "If nobody can play, the game is blocked: the lowest pip count in hand wins and scores the pips of everyone else.": blocked_lowest_scores_everyone_else,
    "A tie for the lowest scores nothing.": blocked_tie_scores_nothing,
    "The match runs to 100 points (or 50); the first to reach it at the end of a hand wins.": first_to_target_at_end_of_hand,
    "These are the exact rules Hamdor plays by; the app shows them too, under each game's How to play tab.": how_to_play_text,
    "Double-six set: 28 tiles.": double_six_set,
    "Two players get 7 tiles each, three or four players get 5; the rest stay face down in the boneyard.": stock_face_down,
    "2, 3 or 4 players: everyone plays for themselves, no teams.": everyone_for_themselves,
    "Draw game: with no tile that fits, draw from the boneyard until one does; when it is empty, you pass.": pass_when_stock_empty,
    "Block game: in the two-player block game there is no drawing; no fitting tile means you pass.": block_game_passes,
    "To 100 or 50 points: the full match runs to 100, the quick two-player match to 50.": match_modes,
    "The first to reach it at the end of a hand wins.": first_to_target_at_end_of_hand,
    "Blocked hands: if nobody can play, the lowest pip count in hand wins the hand.": lowest_total_wins,
    "2 players, to 100": match_modes,
    "2 players, to 50": match_modes,
    "2 players, block (no drawing)": match_modes,
    "3 players, to 100": match_modes,
    "4 players, to 100": match_modes,
    "Remember their passes.": hard_remembers,
    "If an opponent drew or passed on a number, they don't have it.": hard_remembers,
    "Keep that number open to squeeze them.": hard_leaves_numbers_next_player_lacks,
    "Each number appears seven times.": seven_of_each_number,
    "Every pip value from zero to six is on seven tiles.": seven_of_each_number,
    "Get rid of doubles early.": medium_doubles_then_heaviest,
    "Play heavy tiles first.": medium_doubles_then_heaviest,
    "Shed heavy tiles early.": medium_doubles_then_heaviest,
    "Play doubles when you can.": medium_doubles_then_heaviest,
    "Bots: play offline against bots, to practise or when nobody is online.": bots_offline,
}

SCREENS = "the screens (another engineer's part, built on view())"
ADVICE = "advice to the player, not a rule (the hard bot follows it; see the bot tests)"
SITE = "the site or another product, not this engine"
ELSEWHERE = {
    "You can play Domino unblocked here against one to three computer players or pass a single device around with friends.": SITE,
    "It takes a minute to learn, yet there is more planning in it than you’d expect.": SITE,
    "Setting Up a Round": "a heading",
    "Open the Menu and pick vs Computer or Same device.": SCREENS,
    "Press New game and the tiles are dealt.": SCREENS,
    "How to Play Domino, Turn by Turn": "a heading",
    "How the Computer Plays": "a heading",
    "Domino Tips and Strategy": "a heading",
    "A double offers only one number to match, so it is easy to get stuck holding it.": ADVICE,
    "If the chain jams, a 6-5 left in your hand hurts much more than a 1-0.": ADVICE,
    "Keep a spread of numbers.": ADVICE,
    "A hand with many different numbers has more chances to fit either end.": ADVICE,
    "Count what’s been played.": ADVICE,
    "Once most of them are on the table, that end is close to dead.": ADVICE,
    "A common mistake is grabbing the first tile that fits.": ADVICE,
    "Look at both ends first, and ask which play leaves you with the most options next turn.": ADVICE,
    "Playing With Friends or on a Chromebook": "a heading",
    "Same device mode is handy at a lunch table.": SCREENS,
    "Pass the phone, tablet or Chromebook around, and only the player whose turn it is taps Show my tiles.": SCREENS,
    "Everything works with a click or a tap, so you don’t need a keyboard.": SCREENS,
    "Settings can turn on move suggestions that mark your playable tiles, which helps beginners.": SCREENS,
    "Wins and losses are only tracked in games against the computer.": SCREENS + "; stats",
    "Similar Games on the Site": "a heading",
    "For more, browse the board and card games or try:": SITE,
    "Mahjong Solitaire, where you match tiles alone to clear a stacked layout.": SITE,
    "Snakes and Ladders, a pure luck race that is easy for anyone to join.": SITE,
    "Backgammon, which uses dice numbers instead of tile numbers to plan each move.": SITE,
    "Play Dominoes online": "a heading",
    "How to play Dominoes": "a heading",
    "Dominoes in Hamdor": "a heading",
    "Dominoes modes in Hamdor": "a heading",
    "Tips to win at Dominoes": "a heading",
    "If someone else goes out or the game blocks, the pips in your hand count against you, so don't sit on the double-six.": ADVICE,
    "A double matches only one number and is the hardest tile to place, so lay it at the first chance.": ADVICE,
    "Keep a variety of numbers.": ADVICE,
    "A hand with many different numbers is less likely to draw or pass.": ADVICE,
    "Count how many of a number are out to know which end will close soon.": ADVICE,
    "In the block game, think about closing it.": ADVICE,
    "With no drawing, games block quickly; if your hand is light, a blocked game works in your favour.": ADVICE,
    "Online, ranked: play real opponents and earn a rating.": SITE,
    "If nobody turns up within a few seconds, a bot takes the seat and is labelled as a bot.": SITE,
    "Private rooms: create a room, send the code to your friends and chat with stickers and reactions while you play.": SITE,
    "Stats and streaks: your win rate, best winning streak and this game's leaderboard.": SCREENS + "; stats",
    "Your own look: change how the table and pieces look in the Hamdor shop.": SITE,
    "It is cosmetic only and never affects who wins.": SITE,
    "Dominoes FAQ": "a heading",
}


def _sentences(name: str) -> list[str]:
    """Return the sentences of a rules text, Classic parts only (the Triangles section is skipped)."""
    out = []
    skipping = False
    for line in (RULES_DIR / name).read_text(encoding="utf-8").splitlines():
        line = re.sub(r"^\d+\.\s*", "", line.strip().lstrip("-•").strip())
        if not line:
            continue
        if line == "The Triangles Variant":
            skipping = True
            continue
        if line == "How the Computer Plays":
            skipping = False
        if skipping:
            continue
        out += [s for s in re.split(r"(?<=[.!?])\s+", line) if s]
    return out


@pytest.mark.parametrize("name", ["domino-classic-triangles.txt", "dominoes-match.txt"])
def test_every_sentence_of_the_rules_texts_is_quoted(name):
    missing = [s for s in _sentences(name) if s not in RULES and s not in ELSEWHERE]
    assert missing == []


@pytest.mark.parametrize("sentence", list(RULES))
def test_rule_sentence(sentence):
    """Check the engine against the quoted sentence."""
    RULES[sentence]()
