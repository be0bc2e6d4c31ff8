"""Stats and Settings under CPython: results over time, streaks, best scores per mode, the leaderboard
only with more than one name, nothing counted twice, and the Settings fields and Your data panel."""

from __future__ import annotations

import json
import re

from boneyard.games import GAMES
from boneyard.settings import Settings
from boneyard.stats import MAX_DAYS, MAX_RUNS, Stats, stats_from_json
from ui import settings_view, stats_view
from ui.results import count_result
from ui.session import Seat, Session


def played(stats: Stats, *results: tuple[str, str], name: str = "Ana") -> None:
    for day, result in results:
        stats.record("dominoes", "classic-2", "Classic, 2 players", name, result, day)


def test_a_tally_keeps_its_results_per_day_for_the_chart():
    stats = Stats()
    played(
        stats, ("2026-11-29", "win"), ("2026-11-29", "loss"), ("2026-11-30", "win"), ("2026-11-30", "draw")
    )
    tally = stats.tallies[0]
    assert tally.days == [["2026-11-29", 1, 1, 0], ["2026-11-30", 1, 0, 1]]
    assert (tally.played, tally.streak, tally.best_streak) == (4, 0, 1)


def test_days_are_capped_and_survive_the_json_round_trip():
    stats = Stats()
    for i in range(MAX_DAYS + 5):
        played(stats, (f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}", "win"))
    again = stats_from_json(json.loads(json.dumps(stats.to_json())))
    assert len(again.tallies[0].days) == MAX_DAYS and again.to_json() == stats.to_json()


def test_stats_written_before_the_charts_still_load():
    old = {
        "tallies": [{"game": "dominoes", "mode": "classic-2", "name": "Ana", "wins": 2, "losses": 1}],
        "bests": {"bonefall:sprint-norm": {"power": {"value": 12, "date": "2026-11-01"}}},
    }
    stats = stats_from_json(old)
    assert stats.tallies[0].days == [] and stats.runs == {}
    html = stats_view.stats_screen(stats, GAMES.values(), "Ana")
    assert "67%" in html and "The chart of results starts with your next game." in html


def test_a_run_is_kept_once_a_deal_however_often_it_is_reported():
    stats = Stats()
    scores = {"max": 4, "power": 19, "speed": 3.5}
    assert stats.record_run("bonefall", "sprint-norm", scores, "2026-11-30", "deal-1")
    assert not stats.record_run(
        "bonefall", "sprint-norm", scores, "2026-11-30", "deal-1"
    )  # game over + finish
    assert stats.record_run(
        "bonefall", "sprint-norm", scores, "2026-11-30", "deal-2"
    )  # the same scores again
    assert len(stats.runs["bonefall:sprint-norm"]) == 2
    for i in range(MAX_RUNS + 3):
        stats.record_run("bonefall", "sprint-norm", scores, "2026-11-30", f"more-{i}")
    again = stats_from_json(json.loads(json.dumps(stats.to_json())))
    assert len(again.runs["bonefall:sprint-norm"]) == MAX_RUNS and again.to_json() == stats.to_json()


def test_a_finished_game_counts_once_and_a_reload_changes_nothing():
    info = GAMES["dominoes"]
    session = Session.start(
        info, [Seat("human", "Ana"), Seat("computer", "Computer", "easy")], "classic-2", "C", {}
    )
    while not session.state.is_over():
        session.play(session.state.legal_moves()[0])
    stats = Stats()
    assert count_result(stats, session, "Ana", "2026-11-30")
    assert not count_result(stats, session, "Ana", "2026-11-30")
    text = json.dumps(stats.to_json())
    first = str(stats_view.stats_screen(stats, GAMES.values(), "Ana"))
    again = str(stats_view.stats_screen(stats_from_json(json.loads(text)), GAMES.values(), "Ana"))
    assert first == again and stats.tallies[0].played == 1


def test_the_leaderboard_shows_only_when_more_than_one_name_has_played():
    stats = Stats()
    played(stats, ("2026-11-30", "win"), ("2026-11-30", "loss"))
    assert "Leaderboard" not in stats_view.stats_screen(stats, GAMES.values(), "Ana")
    played(stats, ("2026-11-30", "win"), name="Bo")
    html = str(stats_view.stats_screen(stats, GAMES.values(), "Ana"))
    assert html.count("Leaderboard") == 1 and html.count('<bdi class="name">Bo</bdi>') == 1


def test_a_mode_card_has_win_rate_streaks_and_a_chart_of_its_days():
    stats = Stats()
    played(stats, ("2026-11-29", "win"), ("2026-11-29", "win"), ("2026-11-30", "loss"), ("2026-11-30", "win"))
    html = str(stats_view.stats_screen(stats, GAMES.values(), "Ana"))
    card = html[html.index('data-mode="classic-2"') :]
    assert "75%" in card and "4 played · 3 won · 1 lost" in card and "Best streak <strong>2</strong>" in card
    chart = re.search(r'<svg class="stats-chart"[^>]*aria-label="([^"]*)"', card)
    assert chart and chart.group(1) == "Results by day. 29 Nov: 2 won, 0 lost; 30 Nov: 1 won, 1 lost."
    assert card.count('class="bar-won"') == 2 and card.count('class="bar-lost"') == 1


def test_bonefall_shows_best_max_power_and_speed_per_mode_and_set_with_a_chart():
    stats = Stats()
    stats.record_scores("bonefall", "sprint-norm", {"max": 4, "power": 19, "speed": 3.5}, "2026-11-29")
    stats.record_scores("bonefall", "sprint-norm", {"max": 3, "power": 25, "speed": 2.5}, "2026-11-30")
    stats.record_scores("bonefall", "marathon-max", {"max": 7, "power": 120, "speed": 9.8}, "2026-11-30")
    stats.record_run("bonefall", "sprint-norm", {"max": 4, "power": 19, "speed": 3.5}, "2026-11-29", "a")
    stats.record_run("bonefall", "sprint-norm", {"max": 3, "power": 25, "speed": 2.5}, "2026-11-30", "b")
    html = str(stats_view.stats_screen(stats, GAMES.values(), "Ana"))
    section = html[html.index("<h2>Bonefall</h2>") :]
    assert "Sprint · Norm" in section and "Marathon · Max" in section
    sprint = section[section.index('data-mode="sprint-norm"') :]
    assert re.search(r'stat-big">25<', sprint) and "best power" in sprint
    assert ">4<small>29 Nov</small>" in sprint and ">3.5<small>29 Nov</small>" in sprint
    assert "Power of the last 2 games, oldest first: 19, 25." in sprint
    assert sprint.count('class="bar-best"') == 1


def test_settings_show_sound_speed_hints_and_your_data():
    html = str(settings_view.settings_screen(Settings(sound=False, speed="fast"), False, []))
    assert (
        'id="set-sound"' in html
        and 'id="set-place-at-once" type="checkbox" data-setting="place_at_once"' in html
    )
    assert 'id="set-hints" type="checkbox" data-setting="hints" checked' in html  # the tables' Hint button
    assert re.search(r'<option value="fast" selected>Fast</option>', html)
    assert 'data-action="export-data"' in html and 'id="import-file"' in html and 'type="file"' in html
    assert "Records kept aside" in html and "Nothing is kept aside." in html
    assert "Checking whether your browser keeps" in html


def test_the_storage_lines_speak_plainly():
    assert settings_view.file_size(0) == "0 bytes" and settings_view.file_size(14_321) == "14 KB"
    assert settings_view.file_size(2_500_000) == "2.5 MB"
    assert "Not persistent" in settings_view.persist_text(False)
    assert settings_view.persist_text(True).startswith("Persistent")
    assert "does not say" in settings_view.persist_text(None, checked=True)
    assert "of the 1.2 GB" in settings_view.usage_text(100, 20_000_000, 1_200_000_000)


def test_a_refused_import_says_why_and_that_nothing_changed():
    data = settings_view.DataInfo(file_name="<b>x</b>.json", refusal="This file is not a Boneyard backup.")
    html = str(settings_view.settings_screen(Settings(), False, [], data))
    assert 'id="import-refused" role="alert"' in html and "&lt;b&gt;x&lt;/b&gt;.json" in html
    assert "Nothing you have stored was changed." in html


def test_settings_carry_no_inline_styles_and_name_the_broker_in_one_place():
    html = str(settings_view.settings_screen(Settings(online_host="peers.example.test"), False, []))
    assert " style=" not in html, "styles belong in css/app.css"
    assert 'class="code-nowrap"' in html and 'class="code-wrap"' in html
    line = re.search(r'<p class="hint" id="online-broker">(.*?)</p>', html)
    assert line and "<strong>" in line.group(1) and "peers.example.test" in line.group(1)


def test_settings_fold_the_online_servers_under_advanced_and_name_records_aside_in_words():
    key = "boneyard:broken:2026-12-04T20:15:00.000000Z:settings"
    html = str(settings_view.settings_screen(Settings(), False, [key]))
    online = html[html.index('id="online-title"') : html.index('id="your-data-title"')]
    fold = online.index('<details class="advanced" id="online-advanced">')  # closed: the usual servers
    assert "<summary>Advanced: connection servers</summary>" in online
    for fid in ("online-broker", "set-online-host", "set-online-ice"):
        assert online.index(f'id="{fid}"') > fold, f"{fid} belongs under Advanced"
    assert key not in html.replace(f'data-value="{key}"', "")  # the key only as the button's value
    assert "Your settings from 4\u00a0Dec\u00a02026, 20:15 (UTC), kept aside" in html
    assert 'aria-label="Delete your settings from 4' in html
    own = str(settings_view.settings_screen(Settings(online_host="127.0.0.1"), False, []))
    assert '<details class="advanced" id="online-advanced" open>' in own  # your own broker: shown
    assert settings_view.aside_text("boneyard:broken:x:y") == "A record, kept aside"


def test_the_overview_sums_every_game_with_time_played_and_the_latest_results():
    stats = Stats()
    played(stats, ("2026-11-29", "win"), ("2026-11-30", "loss"), ("2026-11-30", "win"))
    stats.record("triangles", "players-2", "2 players", "Ana", "draw", "2026-12-01")
    stats.record("triangles", "players-2", "2 players", "Bo", "win", "2026-12-01")  # another name
    stats.record_run("bonefall", "sprint-norm", {"max": 4, "power": 25, "speed": 3.5}, "2026-12-02", "d1")
    stats.record_recent("dominoes", "Classic, 2 players", "2026-11-30", "win", {}, 600)
    stats.record_recent("triangles", "2 players", "2026-12-01", "draw", {}, 1500)
    stats.record_recent("bonefall", "Sprint · Norm", "2026-12-02", "", {"max": 4, "power": 25}, 95)
    stats.record_scores("bonefall", "sprint-norm", {"power": 25}, "2026-12-02")
    html = str(stats_view.stats_screen(stats, GAMES.values(), "Ana"))
    overview = html[html.index('id="stats-overview"') : html.index("</section>")]
    facts = dict(
        re.findall(r'<div class="overall-fact" id="([^"]+)"><dt>[^<]*</dt><dd>([^<]*)</dd>', overview)
    )
    assert facts == {
        "overall-played": "6",  # 3 dominoes + 2 triangles (Bo's too: everyone on this device) + 1 solo game
        "overall-won": "3",
        "overall-rate": "60%",
        "overall-time": "37 min",
    }
    glance = overview[overview.index('id="stats-glance"') :]
    row = re.search(r"<th scope=\"row\">Dominoes</th>(.*?)</tr>", glance)
    assert row and re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1)) == [
        "3",
        "2",
        "67%",
        "10 min",
        "–",
        "30 Nov",
    ]
    bonefall = re.search(r"<th scope=\"row\">Bonefall</th>(.*?)</tr>", glance)
    assert (
        bonefall and "Power 25" in bonefall.group(1) and '"Win rate">–</td>' in bonefall.group(1)
    )  # no win rate
    recent = re.findall(r'<li class="recent-item" data-game="(\w+)">', overview)
    assert recent == ["bonefall", "triangles", "dominoes"]  # latest first
    assert ">Power 25<" in overview and ">Drawn<" in overview and ">Won<" in overview
    again = stats_from_json(json.loads(json.dumps(stats.to_json())))
    assert again.to_json() == stats.to_json()


def test_stats_from_before_the_overview_load_with_their_solo_games_and_no_recent_list():
    old = {
        "tallies": [{"game": "dominoes", "mode": "classic-2", "name": "Ana", "wins": 2, "losses": 1}],
        "runs": {"bonefall:sprint-norm": [{"date": "2026-11-01", "scores": {"power": 3}}] * 2},
    }
    stats = stats_from_json(old)
    assert stats.solo == {"bonefall": 2} and stats.recent == [] and stats.seconds == {}
    html = str(stats_view.stats_screen(stats, GAMES.values(), "Ana"))
    assert 'id="overall-played"><dt>Games played</dt><dd>5</dd>' in html
    assert "Time played is kept for games finished from now on: older ones have none." in html
    assert "Your next finished games will be listed here." in html


def test_the_play_clock_counts_the_gaps_between_moves_and_caps_a_long_pause():
    from boneyard.stats import IDLE_S, PlayClock

    clock = PlayClock()
    for now in (100.0, 130.0, 145.0, 145.0 + 3600):  # an hour away from the table counts as IDLE_S
        clock.tick("deal", now)
    assert clock.take("deal") == 45 + IDLE_S and clock.take("deal") == 0.0
    assert stats_view.duration(0) == "–" and stats_view.duration(20) == "under a minute"
    assert stats_view.duration(14 * 60) == "14 min" and stats_view.duration(7500) == "2 h 05 min"
