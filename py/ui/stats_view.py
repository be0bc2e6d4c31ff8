"""The Stats screen: per game and mode, the player's record with a chart of results over time, the
streaks and win rate, best scores (Bonefall's Max, Power and Speed per mode and set), and a leaderboard
once more than one name has played.

Pure Python over ``boneyard.stats.Stats``: a reload redraws the same numbers from the same record.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard import rating
from boneyard.core import GameInfo
from boneyard.stats import Best, Recent, Run, Stats, Tally

from . import rated
from .html import Markup, h, join, name_text
from .shell import frame

__all__ = [
    "SCORE_LABELS",
    "GameSummary",
    "best_scores_table",
    "days_chart",
    "duration",
    "mode_label",
    "overview",
    "percent",
    "rated_section",
    "runs_chart",
    "stats_screen",
    "summaries",
]

CHART_DAYS = 14  # days of play a mode's chart shows
CHART_RUNS = 20  # games a real-time mode's chart shows
CHART_W, CHART_H = 220, 64  # the chart's drawing units (it scales to the card's width)
RECENT_SHOWN = 8  # latest games the overview lists
RESULT_WORDS = {"win": "Won", "loss": "Lost", "draw": "Drawn"}


def percent(value: float) -> str:
    """Return a share as a whole percentage."""
    return f"{round(100 * value)}%"


SCORE_LABELS = {"max": "Max", "power": "Power", "speed": "Speed", "tiles": "Tiles fitted"}
HEADLINE = ("power", "tiles")  # the score a mode's card leads with, when it has one of these
MODE_WORDS = {"norm": "Norm", "max": "Max"}


# Heptalion's puzzle, kept by board: "fit-original" is "Puzzle, original board".
PUZZLE_BOARDS = {"fit-original": "original board", "fit-random": "random board", "fit-lab": "other board"}


def mode_label(mode: str, sep: str = " · ") -> str:
    """Return a mode key in words: ``sprint-norm`` -> ``Sprint · Norm``, ``fit-original`` -> ``Puzzle, original board``."""
    if mode in PUZZLE_BOARDS:
        return f"Puzzle, {PUZZLE_BOARDS[mode]}"
    return sep.join(MODE_WORDS.get(part, part.title()) for part in mode.split("-") if part)


def short_date(date: str) -> str:
    """Return ``2026-11-30`` as ``30 Nov``."""
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    try:
        return f"{int(date[8:10])} {months[int(date[5:7]) - 1]}"
    except (ValueError, IndexError):
        return date


def score_text(value: float) -> str:
    """Return a score as shown: whole numbers without a point, others to one decimal."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.1f}"


def days_chart(days: Sequence[Sequence[Any]]) -> Markup:
    """Return an SVG bar chart of results per day played (won at the bottom, drawn, lost on top)."""
    shown = list(days)[-CHART_DAYS:]
    if not shown:
        return Markup("")
    top = max(sum(day[1:4]) for day in shown) or 1
    slot = CHART_W / max(len(shown), 7)
    bar = max(4.0, slot * 0.7)
    plot = CHART_H - 14
    bars = []
    words = []
    for i, (date, won, lost, drawn) in enumerate(shown):
        x = i * slot + (slot - bar) / 2
        y = float(plot)
        for count, cls in ((won, "bar-won"), (drawn, "bar-drawn"), (lost, "bar-lost")):
            if count:
                height = plot * count / top
                y -= height
                bars.append(
                    h(
                        "rect",
                        {
                            "class_": cls,
                            "x": f"{x:.1f}",
                            "y": f"{y:.1f}",
                            "width": f"{bar:.1f}",
                            "height": f"{height:.1f}",
                            "rx": "2",
                        },
                    )
                )
        words.append(f"{short_date(date)}: {won} won, {lost} lost" + (f", {drawn} drawn" if drawn else ""))
    labels = [
        h("text", {"x": "0", "y": str(CHART_H - 2), "class_": "chart-label"}, short_date(shown[0][0])),
    ]
    if len(shown) > 1:
        labels.append(
            h(
                "text",
                {
                    "x": f"{(len(shown) - 1) * slot + slot / 2:.1f}",
                    "y": str(CHART_H - 2),
                    "class_": "chart-label",
                    "text_anchor": "middle",
                },
                short_date(shown[-1][0]),
            )
        )
    summary = "Results by day. " + "; ".join(words) + "."
    legend = h(
        "p",
        {"class_": "chart-legend", "aria_hidden": "true"},
        [
            h("span", {"class_": f"key key-{cls}"}, word)
            for cls, word in (("won", "won"), ("drawn", "drawn"), ("lost", "lost"))
        ],
    )
    return join([chart_svg(summary, bars, labels, plot), legend])


def chart_svg(
    summary: str,
    bars: list[Markup],
    labels: list[Markup],
    plot: float,
    left: float = 0,
    height: int = CHART_H,
) -> Markup:
    """Return a chart's SVG: its bars over an axis line (from ``left``), with labels under it."""
    return h(
        "svg",
        {
            "class_": "stats-chart",
            "viewBox": f"0 0 {CHART_W} {height}",
            "role": "img",
            "aria_label": summary,
        },
        h(
            "line",
            {"x1": f"{left:g}", "y1": str(plot), "x2": str(CHART_W), "y2": str(plot), "class_": "chart-axis"},
        ),
        bars,
        labels,
    )


def runs_chart(runs: Sequence[Run], score: str) -> Markup:
    """Return an SVG bar chart of one score over a mode's latest games (the best one marked)."""
    shown = [r for r in runs if score in r.scores][-CHART_RUNS:]
    if not shown:
        return Markup("")
    values = [r.scores[score] for r in shown]
    top = max(values) or 1
    best = values.index(max(values))
    slot = CHART_W / max(len(shown), 10)
    bar = max(4.0, slot * 0.7)
    plot = CHART_H - 14
    bars = [
        h(
            "rect",
            {
                "class_": "bar-best" if i == best and values[i] else "bar-score",
                "x": f"{i * slot + (slot - bar) / 2:.1f}",
                "y": f"{plot - max(1.0, plot * v / top):.1f}",
                "width": f"{bar:.1f}",
                "height": f"{max(1.0, plot * v / top):.1f}",
                "rx": "2",
            },
        )
        for i, v in enumerate(values)
    ]
    label = SCORE_LABELS.get(score, score.title())
    summary = f"{label} of the last {len(shown)} game{'s' * (len(shown) != 1)}, oldest first: " + ", ".join(
        score_text(v) for v in values
    )
    return h(
        "svg",
        {
            "class_": "stats-chart",
            "viewBox": f"0 0 {CHART_W} {CHART_H}",
            "role": "img",
            "aria_label": summary + ".",
        },
        h(
            "line",
            {"x1": "0", "y1": str(plot), "x2": str(CHART_W), "y2": str(plot), "class_": "chart-axis"},
        ),
        bars,
        h(
            "text",
            {"x": "0", "y": str(CHART_H - 2), "class_": "chart-label"},
            f"{label}, last {len(shown)} game{'s' * (len(shown) != 1)}",
        ),
    )


def game_modes(stats: Stats, game: str) -> list[str]:
    """Return the modes of a game that have best scores or kept games."""
    keys = {k.partition(":")[2] for k in (*stats.bests, *stats.runs) if k.partition(":")[0] == game}
    return sorted(keys)


def best_line(name: str, best: Best) -> Markup:
    return h(
        "div",
        {"class_": f"stat-best stat-best-{name}"},
        h("dt", {}, SCORE_LABELS.get(name, name.title())),
        h("dd", {}, score_text(best.value), h("small", {}, short_date(best.date))),
    )


def headline_line(big: Any, label: Any) -> Markup:
    """Return a card's headline: a big number and what it is."""
    return h(
        "p",
        {"class_": "stat-headline"},
        h("span", {"class_": "stat-big"}, big),
        h("span", {"class_": "stat-big-label"}, label),
    )


def scores_card(stats: Stats, game: str, mode: str, sep: str = " · ") -> Markup:
    """Return one real-time or puzzle mode's card: the headline best, the other bests, a chart."""
    key = f"{game}:{mode}"
    bests = stats.bests.get(key, {})
    runs = stats.runs.get(key, [])
    names = [n for n in SCORE_LABELS if n in bests] + sorted(set(bests) - set(SCORE_LABELS))
    headline = next((n for n in HEADLINE if n in bests), names[0] if names else "")
    top = bests.get(headline)
    return h(
        "article",
        {"class_": "stat-card", "data_mode": mode},
        h("h3", {}, mode_label(mode, sep)),
        headline_line(
            score_text(top.value) if top else "–", f"best {SCORE_LABELS.get(headline, headline).lower()}"
        ),
        h("dl", {"class_": "stat-bests"}, [best_line(n, bests[n]) for n in names if n != headline]),
        runs_chart(runs, headline),
    )


def tally_card(t: Tally) -> Markup:
    """Return one mode's card of the player's record against the computer."""
    facts = f"{t.played} played · {t.wins} won · {t.losses} lost" + (f" · {t.draws} drawn" if t.draws else "")
    chart = days_chart(t.days)
    return h(
        "article",
        {"class_": "stat-card", "data_mode": t.mode},
        h("h3", {}, t.label),
        headline_line(percent(t.win_rate), "won"),
        h("p", {"class_": "stat-facts"}, facts),
        h(
            "p",
            {"class_": "stat-streaks"},
            h("span", {}, "Streak ", h("strong", {}, t.streak)),
            h("span", {}, "Best streak ", h("strong", {}, t.best_streak)),
            h("span", {}, "Last played ", h("strong", {}, short_date(t.last))) if t.last else "",
        ),
        chart or h("p", {"class_": "hint"}, "The chart of results starts with your next game."),
    )


def best_scores_table(stats: Stats, info: GameInfo) -> Markup:
    """Return a game's best scores as mode cards (empty when none)."""
    modes = game_modes(stats, info.id)
    if not modes:
        return Markup("")
    return h(
        "div",
        {"class_": "stat-cards", "aria_label": f"{info.name}: best scores"},
        [scores_card(stats, info.id, m, " · " if info.realtime else " ") for m in modes],
    )


def record_table(
    attrs: dict[str, Any], caption: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> Markup:
    """Return a stats table: its caption, a head of ``columns``, and a row of cells per entry of ``rows``."""
    return h(
        "table",
        attrs,
        h("caption", {}, caption),
        h("thead", {}, h("tr", {}, [h("th", {"scope": "col"}, c) for c in columns])),
        h("tbody", {}, [h("tr", {}, *cells) for cells in rows]),
    )


def leaderboard(stats: Stats, info: GameInfo) -> Markup:
    """Return the game's leaderboard on this device, once more than one name has played it."""
    if len(stats.players(info.id)) < 2:
        return Markup("")
    return record_table(
        {"class_": "stats-table leaderboard"},
        "Leaderboard (this device)",
        ("#", "Player", "Mode", "Won", "Win rate", "Best streak"),
        (
            (
                h("td", {}, i + 1),
                h("th", {"scope": "row"}, name_text(t.name)),
                h("td", {}, t.label),
                h("td", {}, t.wins),
                h("td", {}, percent(t.win_rate)),
                h("td", {}, t.best_streak),
            )
            for i, t in enumerate(stats.leaderboard(info.id))
        ),
    )


def online_table(stats: Stats, info: GameInfo) -> Markup:
    """Return a game's online record, one row per opponent and mode (empty when none were played)."""
    rows = stats.online_for(info.id)
    if not rows:
        return Markup("")
    return record_table(
        {"class_": "stats-table online-record", "data_online": info.id},
        "Online, by opponent",
        ("Opponent", "Mode", "Played", "Won", "Lost", "Drawn"),
        (
            (
                h("th", {"scope": "row"}, name_text(t.name)),
                h("td", {}, t.label),
                h("td", {}, t.played),
                h("td", {}, t.wins),
                h("td", {}, t.losses),
                h("td", {}, t.draws),
            )
            for t in rows
        ),
    )


def duration(seconds: float) -> str:
    """Return a time played in a player's words: ``2 h 05 min``, ``14 min``, ``under a minute``, ``–``."""
    if seconds <= 0:
        return "–"
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


@dataclass(frozen=True)
class GameSummary:
    """One game's line of the overview: games played and won (against the computer and online), solo games,
    time played, the headline best and the last day played."""

    info: GameInfo
    won: int
    versus: int  # games with a winner or a draw (the win rate's base)
    solo: int
    seconds: float
    best: str  # "Power 25" for a game with best scores, else ""
    last: str

    @property
    def total(self) -> int:
        """Return every game counted: against an opponent and solo."""
        return self.versus + self.solo


def summaries(stats: Stats, games: Iterable[GameInfo]) -> list[GameSummary]:
    """Return each game's overview line: everything played on this device, whoever played it (as the time
    played and the recent results are kept)."""
    rows = []
    for info in games:
        tallies = [t for t in stats.tallies if t.game == info.id] + stats.online_for(info.id)
        won = sum(t.wins for t in tallies)
        versus = sum(t.played for t in tallies)
        best = ""
        bests = {k: v for k, v in stats.bests.items() if k.partition(":")[0] == info.id}
        for score in HEADLINE:
            values = [b[score] for b in bests.values() if score in b]
            if values:
                top = max(values, key=lambda b: b.value)
                best = f"{SCORE_LABELS[score]} {score_text(top.value)}"
                break
        days = [t.last for t in tallies if t.last]
        days += [
            run.date for key, runs in stats.runs.items() if key.startswith(f"{info.id}:") for run in runs
        ]
        rows.append(
            GameSummary(
                info=info,
                won=won,
                versus=versus,
                solo=stats.solo.get(info.id, 0),
                seconds=stats.seconds.get(info.id, 0.0),
                best=best,
                last=max(days, default=""),
            )
        )
    return rows


def recent_item(entry: Recent, names: dict[str, str]) -> Markup:
    """Return one line of Recent results: the day, the game and mode, and the result or the headline score."""
    if entry.result:
        outcome = h("span", {"class_": f"result result-{entry.result}"}, RESULT_WORDS[entry.result])
    else:
        score = next((n for n in HEADLINE if n in entry.scores), next(iter(entry.scores), ""))
        words = (
            f"{SCORE_LABELS.get(score, score.title())} {score_text(entry.scores[score])}" if score else "Done"
        )
        outcome = h("span", {"class_": "result result-score"}, words)
    return h(
        "li",
        {"class_": "recent-item", "data_game": entry.game},
        h("span", {"class_": "recent-date"}, short_date(entry.date)),
        h(
            "span",
            {"class_": "recent-what"},
            h("strong", {}, names.get(entry.game, entry.game)),
            h("span", {"class_": "recent-mode"}, entry.label),
        ),
        outcome,
    )


def overview(stats: Stats, games: Iterable[GameInfo]) -> Markup:
    """Return the overview across games on this device: totals, each game at a glance, the latest results."""
    rows = summaries(stats, games)
    versus = sum(r.versus for r in rows)
    won = sum(r.won for r in rows)
    total = sum(r.total for r in rows)
    seconds = sum(r.seconds for r in rows)
    if not total:
        return h(
            "section",
            {"class_": "stats-overview", "id": "stats-overview", "aria_labelledby": "overview-title"},
            h("h2", {"id": "overview-title"}, "All games"),
            h(
                "p",
                {"class_": "empty"},
                "No games counted yet. Finish a game against the computer or a solo game.",
            ),
        )
    tiles = [
        ("Games played", str(total), "overall-played"),
        ("Won", str(won), "overall-won"),
        ("Win rate", percent(won / versus) if versus else "–", "overall-rate"),
        ("Time played", duration(seconds), "overall-time"),
    ]
    totals = h(
        "dl",
        {"class_": "overall"},
        [
            h("div", {"class_": "overall-fact", "id": fid}, h("dt", {}, label), h("dd", {}, value))
            for label, value, fid in tiles
        ],
    )
    table = record_table(
        {"class_": "stats-table glance", "id": "stats-glance"},
        "Each game at a glance",
        ("Game", "Played", "Won", "Win rate", "Time", "Best", "Last played"),
        (
            (
                h("th", {"scope": "row"}, r.info.name),
                *(
                    h("td", {"data_label": label}, value)  # the label heads the cell on a phone (app.css)
                    for label, value in (
                        ("Played", r.total),
                        ("Won", r.won if r.versus else "–"),
                        ("Win rate", percent(r.won / r.versus) if r.versus else "–"),
                        ("Time", duration(r.seconds)),
                        ("Best", r.best or "–"),
                        ("Last played", short_date(r.last) if r.last else "–"),
                    )
                ),
            )
            for r in rows
        ),
    )
    names = {r.info.id: r.info.name for r in rows}
    latest = list(reversed(stats.recent))[:RECENT_SHOWN]
    recent = (
        h(
            "ol",
            {"class_": "recent", "aria_label": "Recent results, latest first"},
            [recent_item(e, names) for e in latest],
        )
        if latest
        else h("p", {"class_": "hint"}, "Your next finished games will be listed here.")
    )
    notes = []
    if seconds <= 0 or any(r.total and not r.seconds for r in rows):
        notes.append(
            h(
                "p",
                {"class_": "hint"},
                "Time played is kept for games finished from now on: older ones have none.",
            )
        )
    return h(
        "section",
        {"class_": "stats-overview", "id": "stats-overview", "aria_labelledby": "overview-title"},
        h("h2", {"id": "overview-title"}, "All games on this device"),
        totals,
        notes,
        h("div", {"class_": "glance-wrap"}, table),
        h("h3", {"class_": "recent-title"}, "Recent results"),
        recent,
    )


# -- the rated section (ui.rated: this browser's signed results and the players met) ------------------


RATING_POINTS = 60  # the most points a rating chart draws (a long history is thinned, first and last kept)
RATING_GUTTER = 22  # the chart's units left of the plot for the vertical axis's values
RATING_H = 80  # the rating chart's height: room for its values beside the line


def nice_ticks(bottom: float, top: float, most: int = 4) -> list[float]:
    """Return round values between ``bottom`` and ``top`` for an axis: at most ``most``, at least one."""
    span = max(top - bottom, 1e-9)
    power = 10 ** math.floor(math.log10(span / most))
    step = next(f * power for f in (1, 2, 2.5, 5, 10) if span / (f * power) <= most)
    first = math.ceil(bottom / step) * step
    ticks = [first + i * step for i in range(most + 1) if first + i * step <= top + 1e-9]
    return ticks or [round((bottom + top) / 2)]


def thinned(count: int, most: int = RATING_POINTS) -> list[int]:
    """Return the indexes of ``count`` points to draw: all, or ``most`` spread evenly with the last."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def rating_chart(family: rated.Family) -> Markup:
    """Return an SVG line of the rating over the rated games (mu, with its two-sigma band), with values
    on the vertical axis and the latest one labelled."""
    history = [("", rating.default_rating()), *family.history]
    if len(history) < 2:
        return Markup("")
    chosen = thinned(len(history))
    points = [history[i] for i in chosen]
    lows = [r.mu - 2 * r.sigma for _t, r in points]
    highs = [r.mu + 2 * r.sigma for _t, r in points]
    bottom, top = min(lows), max(highs)
    span = (top - bottom) or 1.0
    plot = RATING_H - 14
    left, width = RATING_GUTTER, CHART_W - RATING_GUTTER - 2
    last_index = chosen[-1] or 1

    def x(index: int) -> str:
        return f"{left + index / last_index * width:.1f}"

    def y(value: float) -> float:
        return plot - (value - bottom) / span * (plot - 4)

    band = " ".join(f"{x(i)},{y(v):.1f}" for i, v in zip(chosen, highs))
    band += " " + " ".join(f"{x(i)},{y(v):.1f}" for i, v in reversed(list(zip(chosen, lows))))
    line = " ".join(f"{x(i)},{y(r.mu):.1f}" for i, (_t, r) in zip(chosen, points))
    grid = []
    for value in nice_ticks(bottom, top):
        at = f"{y(value):.1f}"
        grid.append(
            h("line", {"x1": str(left), "y1": at, "x2": str(CHART_W), "y2": at, "class_": "chart-grid"})
        )
        grid.append(
            h(
                "text",
                {
                    "x": str(left - 3),
                    "y": f"{y(value) + 3.5:.1f}",
                    "class_": "chart-label",
                    "text_anchor": "end",
                },
                f"{value:g}",
            )
        )
    last = points[-1][1]
    end_x, end_y = float(x(chosen[-1])), y(last.mu)
    dots = [
        h("circle", {"class_": "rating-dot", "cx": x(i), "cy": f"{y(r.mu):.1f}", "r": "2"})
        for i, (_t, r) in zip(chosen, points)
        if len(points) <= 12
    ]
    drawn = [
        *grid,
        h("polygon", {"class_": "rating-band", "points": band}),
        h("polyline", {"class_": "rating-line", "points": line}),
        *dots,
        h(
            "circle",
            {"class_": "rating-dot rating-last", "cx": f"{end_x:.1f}", "cy": f"{end_y:.1f}", "r": "2.5"},
        ),
        h(
            "text",
            {
                "x": f"{end_x - 4:.1f}",
                "y": f"{end_y - 5 if end_y > 14 else end_y + 12:.1f}",  # above the point, or under it at the top
                "class_": "chart-label rating-now",
                "text_anchor": "end",
            },
            f"{last.mu:.1f}",
        ),
    ]
    labels = [
        h("text", {"x": str(left), "y": str(RATING_H - 2), "class_": "chart-label"}, "start"),
        h(
            "text",
            {"x": str(CHART_W), "y": str(RATING_H - 2), "class_": "chart-label", "text_anchor": "end"},
            short_date(points[-1][0][:10]),
        ),
    ]
    summary = (
        f"Rating over {len(history) - 1} rated games: from {rated.rating_text(history[0][1])} "
        f"to {rated.rating_text(history[-1][1])}."
    )
    return chart_svg(summary, drawn, labels, plot, left, RATING_H)


def rated_card(info: GameInfo, family: rated.Family) -> Markup:
    """Return a game family's rating card: the rating with its uncertainty, the record, the chart."""
    facts = f"{family.played} played · {family.won} won · {family.lost} lost"
    if family.forfeits:
        facts += f" · {family.forfeits} forfeited"
    return h(
        "article",
        {"class_": "stat-card rated-card", "data_rated": info.id},
        h("h3", {}, info.name),
        headline_line(f"{family.rating.mu:.1f}", f"± {2 * family.rating.sigma:.1f}"),
        h("p", {"class_": "stat-facts"}, facts),
        rating_chart(family)
        or h("p", {"class_": "hint"}, "The chart of your rating starts with your first rated game."),
    )


def rated_board(info: GameInfo, family: rated.Family) -> Markup:
    """Return the players met in a game family by the ratings their chains proved; unverified ones are
    marked and not ranked."""
    rank = 0
    rows = []
    for player in family.players:
        if player.verified:
            rank += 1
        who = [
            name_text(player.name),
            " (you)" if player.me else "",
            h("span", {"class_": "fingerprint"}, rated.fingerprint_of(player.key)),
        ]
        rows.append(
            (
                h("td", {}, rank if player.verified else "–"),
                h("th", {"scope": "row"}, who),
                h(
                    "td",
                    {"class_": "rating-cell"},
                    rated.rating_text(player.rating)
                    if player.verified
                    else "checking…"
                    if player.checking
                    else "unverified",
                ),
                h("td", {}, player.counted),
            )
        )
    return record_table(
        {"class_": "stats-table rated-board", "data_board": info.id},
        f"{info.name}: players met",
        ("#", "Player", "Rating", "Games"),
        rows,
    )


def rated_section(families: Sequence[tuple[GameInfo, rated.Family]], me: str) -> Markup:
    """Return Stats' rated section: per game family your rating, its chart, your record, the players met."""
    if not families:
        body: list[Any] = [
            h(
                "p",
                {"class_": "empty"},
                "No rated games yet. Play a Quick match against other people (no computer at the table) "
                "to get a rating.",
            )
        ]
    else:
        body = [h("p", {"class_": "stat-who"}, "You: ", name_text(me)) if me else ""]
        body.append(h("div", {"class_": "stat-cards"}, [rated_card(info, f) for info, f in families]))
        body += [h("div", {"class_": "glance-wrap"}, rated_board(info, f)) for info, f in families]
        body.append(
            h(
                "p",
                {"class_": "hint"},
                "Ratings are recomputed from results every player signed; ± is the uncertainty. Players "
                "whose results do not check out show as unverified and are not ranked.",
            )
        )
    return h("section", {"class_": "stats-rated", "id": "stats-rated"}, h("h2", {}, "Rated"), body)


def stats_screen(
    stats: Stats,
    games: Iterable[GameInfo],
    name: str,
    rated_families: Sequence[tuple[GameInfo, rated.Family]] | None = None,
    me: str = "",
    daily: Markup | str = "",
) -> Markup:
    """Return the Stats screen: per game, the player's modes as cards, best scores, the leaderboard; the
    Daily's section (``daily_section``); the rated section when ``rated_families`` is given."""
    games = list(games)
    sections = [overview(stats, games), daily]
    if rated_families is not None:
        sections.append(rated_section(rated_families, me))
    for info in games:
        bests = best_scores_table(stats, info)
        if info.realtime:
            body: list[Any] = [
                bests or h("p", {"class_": "empty"}, "No scores yet: finish a game to see them here.")
            ]
        else:
            mine = stats.for_player(name, info.id)
            cards = (
                h("div", {"class_": "stat-cards"}, [tally_card(t) for t in mine])
                if mine
                else h(
                    "p", {"class_": "empty"}, "No games against the computer yet as ", name_text(name), "."
                )
            )
            body = [
                h("p", {"class_": "stat-who"}, name_text(name), " against the computer") if mine else "",
                cards,
            ]
            body += [leaderboard(stats, info), online_table(stats, info), bests]
        sections.append(h("section", {"class_": "stats-game"}, h("h2", {}, info.name), body))
    note = h(
        "p",
        {"class_": "hint stats-note"},
        "Games against the computer count, and the scores of solo games; games between people on one device "
        "do not. Online games count apart, by opponent. Stats stay on this device (Settings › Your data exports them).",
    )
    return frame("Stats", join([note, *sections]), current="stats")


# -- the Daily --------------------------------------------------------------------------------------------


def daily_section(records: Mapping[str, Any], games: Iterable[GameInfo], today: dt.date) -> Markup:
    """Return the Daily's section: per game, days played, best, average, the current and best streak."""
    from .daily import summary  # the Daily's module seats players, which needs the shell: imported late

    rows = []
    for info in games:
        facts = summary(records, info.id, today)
        if not facts["days"]:
            continue
        best = "–" if facts["best"] is None else f"{facts['best']:g}"
        average = "–" if facts["average"] is None else f"{round(facts['average'], 1):g}"
        rows.append(
            h(
                "tr",
                {"data_game": info.id},
                h("th", {"scope": "row"}, info.name),
                [
                    h("td", {}, str(v))
                    for v in (facts["days"], best, average, facts["streak"], facts["best_streak"])
                ],
            )
        )
    body: Any = (
        h(
            "div",
            {"class_": "daily-scroll"},
            h(
                "table",
                {"class_": "stats-table daily-table", "id": "daily-table"},
                h(
                    "thead",
                    {},
                    h(
                        "tr",
                        {},
                        [
                            h("th", {"scope": "col"}, c)
                            for c in ("Game", "Days", "Best", "Avg.", "Streak", "Best run")
                        ],
                    ),
                ),
                h("tbody", {}, rows),
            ),
        )
        if rows
        else h("p", {"class_": "empty"}, "No Daily played yet: the home screen has today's.")
    )
    return h(
        "section",
        {"class_": "stats-daily", "id": "stats-daily"},
        h("h2", {}, "Daily"),
        h("p", {"class_": "hint"}, "Your first try of each day's Daily. The streak counts days in a row."),
        body,
    )
