"""The shell's screens as markup, under CPython: home, how to play, setup, settings, stats."""

from __future__ import annotations

import random
import re

from boneyard.games import GAMES
from boneyard.settings import Settings
from boneyard.stats import Stats
from ui import shell, stats_view
from ui.games import has_screen, screen_for
from ui.html import h
from ui.session import Seat, Session


def test_home_lists_every_game_with_resume_only_for_saved_ones():
    html = shell.home(GAMES.values(), {"dominoes"}, set(GAMES), Settings(name="Ana <b>"))
    for info in GAMES.values():
        assert f'data-game="{info.id}"' in html and f"#/rules/{info.id}" in html
    assert html.count(">Resume<") == 1 and 'Welcome, <bdi class="name">Ana &lt;b&gt;</bdi>.' in html


def test_home_cards_show_their_art_the_logo_and_a_hidden_install_button():
    html = shell.home(GAMES.values(), {"dominoes"}, set(GAMES), Settings())
    for info in GAMES.values():
        assert f"card-art-{info.id}" in html
        assert f'aria-label="How to play {info.name}"' in html
    assert html.count('class="logo"') == 1
    assert (
        '<button type="button" class="btn install-btn" data-action="install" hidden>Install Boneyard</button>'
        in html
    )
    # one row of buttons a card, with or without Resume: How to play sits beside the name
    assert html.count('class="game-actions"') == len(GAMES) and html.count(">How to play<") == len(GAMES)


def test_every_game_has_a_table_screen_found_without_importing_it():
    for game_id in GAMES:
        assert has_screen(game_id)
        assert screen_for(game_id).game_id == game_id
    assert not has_screen("chess")


def test_how_to_play_renders_paragraphs_and_lists():
    for info in GAMES.values():
        html = shell.rules(info, True)
        assert "<p>" in html and f"#/setup/{info.id}" in html


def test_text_is_escaped_and_attributes_quoted():
    assert str(h("p", {"title": 'a"b'}, "<script>")) == '<p title="a&quot;b">&lt;script&gt;</p>'


def test_stats_show_tallies_leaderboards_and_best_scores_of_any_game():
    stats = Stats()
    stats.record("dominoes", "classic-2", "Classic, 2 players", "Ana", "win", "2026-11-30")
    stats.record_scores("bonefall", "sprint-norm", {"max": 4, "power": 50, "speed": 255.3}, "2026-11-30")
    stats.record_scores("heptalion", "fit-original", {"tiles": 21}, "2026-11-29")
    html = stats_view.stats_screen(stats, GAMES.values(), "Ana")
    assert "Classic, 2 players" in html and "Leaderboard" not in html  # one name: no leaderboard
    assert (
        "255.3" in html
        and "tiles fitted" in html.lower()
        and "Puzzle, original board" in html
        and ">21<" in html
    )


def test_a_finished_heptalion_puzzle_gives_its_tiles_as_a_score():
    info = GAMES["heptalion"]
    session = Session.start(info, [Seat("human", "Ana")], "fit-original", "Puzzle", {"players": 1}, seed=2)
    rng = random.Random(2)
    screen = screen_for("heptalion")
    assert screen.final_scores(session) is None
    while not session.state.is_over():
        session.play(rng.choice(session.state.view(0)["legal_moves"]))
    scores = screen.final_scores(session)
    assert scores == {"tiles": len(session.state.covered)} and 10 <= scores["tiles"] <= 24


def test_setup_with_a_game_in_progress_offers_resume_and_says_a_new_game_replaces_it():
    from boneyard.games import GAMES
    from ui import shell

    info = GAMES["dominoes"]
    fresh = str(shell.setup(info, {}, "", 2, False, [], ["easy"]))
    assert 'id="setup-in-progress"' not in fresh and ">New game</button>" in fresh
    saved = str(shell.setup(info, {}, "", 2, False, [], ["easy"], in_progress="Classic, 2 players"))
    assert "You have a game in progress (Classic, 2 players). A new game replaces it." in saved
    assert 'href="#/play/dominoes"' in saved and "Start a new game" in saved


def setup_html(game_id: str, **form: str) -> str:
    return str(shell.setup_screen(GAMES[game_id], screen_for(game_id), dict(form)))


SETUP_CASES = [
    ("dominoes", {}),
    ("dominoes", {"mode": "match-50", "players": "4", "teams": "yes"}),
    ("dominoes", {"mode": "fives", "players": "3", "opponents": "device"}),
    ("dominoes", {"mode": "custom", "players": "4", "opponents": "online"}),
    ("triangles", {"players": "3"}),
    ("heptalion", {}),
    ("heptalion", {"mode": "lab", "players": "3", "hands": "hidden", "opponents": "device"}),
    ("heptalion", {"mode": "fit"}),
    ("bonefall", {"mode": "marathon-max"}),
]


def test_every_setup_has_the_same_parts_in_the_same_order_and_each_control_once():
    for game_id, form in SETUP_CASES:
        html = setup_html(game_id, **form)
        where = f"{game_id} {form}"
        game, who = html.index('id="setup-game"'), html.index('id="setup-who"')
        assert game < who < html.index('class="actions'), where
        assert html.count('class="setup-part"') == 2, where
        fields = re.findall(r'<(?:select|input)[^>]*data-field="(\w+)"', html)
        once = [f for f in fields if f not in {"opponents", "hands"}]  # radios repeat their field
        assert len(once) == len(set(once)), f"{where}: a choice offered twice: {sorted(once)}"
        mode = re.search(r'<select id="setup-mode"[^>]*>(.*?)</select>', html)
        if mode:  # the mode never names the players: they are chosen in Players
            assert html.index('id="setup-mode"') < who, where
            assert not re.search(r">[^<]*\d players[^<]*</option>", mode.group(1)), where
        part = html[who:]
        if (GAMES[game_id].max_players == 1) or form.get("mode") == "fit":
            assert 'name="opponents"' not in html and "Solo: just you." in part, where
            continue
        order = [part.index('name="opponents"'), part.index('id="setup-players"')]
        if form.get("opponents") != "online":
            seats = part.find('class="seats"') if game_id != "heptalion" else part.find('class="hx-seats"')
            order.append(seats)
        assert order == sorted(order) and -1 not in order, where


def test_partners_are_offered_with_four_players_only_and_a_solo_mode_offers_no_opponents():
    assert 'id="setup-teams"' not in setup_html("dominoes", mode="classic", players="3")
    four = setup_html("dominoes", mode="classic", players="4")
    assert four.index('id="setup-players"') < four.index('id="setup-teams"')  # in Players, after the count
    puzzle = setup_html("heptalion", mode="fit", opponents="online")
    assert "Online with friends" not in puzzle and 'id="create-room"' not in puzzle
    assert 'id="start-game"' in puzzle


def test_an_older_dominoes_mode_named_with_its_players_still_opens_its_setup():
    form = {"mode": "match-4-100"}
    html = str(shell.setup_screen(GAMES["dominoes"], screen_for("dominoes"), form))
    assert re.search(r'<option value="match-100" selected>Match to 100</option>', html)
    assert re.search(r'<option value="4" selected>4 players</option>', html)
