"""Stats on a real App over the fake page: a card per mode with its numbers and chart, the leaderboard
only once two names have played, Bonefall's bests, and the same page after a reload (the CPython half of
tests/browser/test_stats.py; the chart's size and the audit stay in Chromium)."""

from __future__ import annotations

import json

from tests.app.conftest import Open
from tests.app.fakes import FakePort, FakeStorage

DAYS = [["2026-11-28", 2, 1, 0], ["2026-11-29", 1, 0, 0], ["2026-11-30", 0, 1, 0]]


def tally(name: str, wins: int, losses: int, days: list[list]) -> dict:
    return {
        "game": "dominoes",
        "mode": "classic-2",
        "label": "Classic, 2 players",
        "name": name,
        "wins": wins,
        "losses": losses,
        "draws": 0,
        "streak": 1,
        "best_streak": 2,
        "last": days[-1][0] if days else "",
        "days": days,
    }


def stats_record(*tallies: dict) -> str:
    return json.dumps(
        {
            "schema": 1,
            "stats": {
                "tallies": list(tallies),
                "bests": {
                    "bonefall:marathon-max": {
                        "max": {"value": 7, "date": "2026-11-29"},
                        "power": {"value": 121, "date": "2026-11-29"},
                        "speed": {"value": 9.8, "date": "2026-11-29"},
                    }
                },
                "counted": [],
                "runs": {
                    "bonefall:marathon-max": [
                        {"date": "2026-11-28", "scores": {"max": 5, "power": 60, "speed": 7.5}},
                        {"date": "2026-11-29", "scores": {"max": 7, "power": 121, "speed": 9.8}},
                    ]
                },
            },
        }
    )


def stats_screen(open_app: Open) -> FakePort:
    _app, port = open_app(
        FakeStorage({"boneyard:stats": stats_record(tally("Player", 3, 2, DAYS))}), "#/stats"
    )
    return port


def test_a_mode_card_shows_win_rate_streaks_and_a_chart(open_app: Open) -> None:
    port = stats_screen(open_app)
    text = port.text(".stat-card[data-mode='classic-2']")
    assert "60%" in text and "5 played · 3 won · 2 lost" in text and "Best streak 2" in text
    chart = port.get(".stat-card[data-mode='classic-2'] svg.stats-chart")
    assert chart.attrs["aria-label"].startswith("Results by day. 28 Nov: 2 won, 1 lost")
    assert len([e for e in chart.walk() if e.tag == "rect"]) == 4


def test_no_leaderboard_for_one_name_then_one_for_two(open_app: Open) -> None:
    port = stats_screen(open_app)
    assert port.find(".leaderboard") is None
    stored = json.loads(port.storage.items["boneyard:stats"])
    stored["stats"]["tallies"].append(tally("Bo", 1, 0, [["2026-11-30", 1, 0, 0]]))
    port.storage.items["boneyard:stats"] = json.dumps(stored)
    _app, page = open_app(port.storage, "#/stats")
    rows = page.find_all(".leaderboard tbody tr")
    assert len(rows) == 2 and "Player" in rows[0].text and "Bo" in rows[1].text


def test_another_tabs_stats_show_at_once(open_app: Open) -> None:
    port = stats_screen(open_app)
    _other, tab = open_app(port.storage, "#/")
    stored = json.loads(port.storage.items["boneyard:stats"])
    stored["stats"]["tallies"].append(tally("Bo", 1, 0, [["2026-11-30", 1, 0, 0]]))
    tab.local_storage().setItem("boneyard:stats", json.dumps(stored))  # the other tab writes them
    port.settle()
    assert len(port.find_all(".leaderboard tbody tr")) == 2


def test_bonefall_shows_its_bests_per_mode_and_set(open_app: Open) -> None:
    port = stats_screen(open_app)
    text = port.text(".stat-card[data-mode='marathon-max']")
    assert "Marathon · Max" in text and "121" in text and "best power" in text
    assert "7" in text and "9.8" in text
    assert len(port.find_all(".stat-card[data-mode='marathon-max'] rect.bar-best")) == 1


def test_a_reload_changes_nothing(open_app: Open) -> None:
    port = stats_screen(open_app)
    before = (port.storage.items["boneyard:stats"], port.text("#main"))
    _app, page = open_app(port.storage, "#/stats")
    assert (page.storage.items["boneyard:stats"], page.text("#main")) == before
