"""The Stats screen: the player's record per game and mode, the leaderboards and the best scores."""

from __future__ import annotations

from collections.abc import Iterable

from boneyard.core import GameInfo
from boneyard.stats import Stats

from .html import Markup, h, join, name_text
from .screens import frame


def percent(value: float) -> str:
    """Return a share as a whole percentage."""
    return f"{round(100 * value)}%"


SCORE_LABELS = {"max": "Max", "power": "Power", "speed": "Speed", "tiles": "Tiles fitted"}


def best_scores_table(stats: Stats, info: GameInfo) -> Markup:
    """Return a game's best scores per mode, with the date each was reached (empty when none)."""
    modes = sorted(
        (key.partition(":")[2], scores)
        for key, scores in stats.bests.items()
        if key.partition(":")[0] == info.id
    )
    if not modes:
        return Markup("")
    names = [n for n in SCORE_LABELS if any(n in scores for _, scores in modes)]
    names += sorted({n for _, scores in modes for n in scores} - set(names))
    rows = []
    for mode, scores in modes:
        cells = [
            h("td", {}, f"{scores[n].value:g}", h("br"), h("small", {}, scores[n].date[:10]))
            if n in scores
            else h("td", {}, "–")
            for n in names
        ]
        rows.append(h("tr", {}, h("th", {"scope": "row"}, mode.replace("-", " ").title()), cells))
    return h(
        "table",
        {"class_": "stats-table"},
        h("caption", {}, "Best scores"),
        h(
            "thead",
            {},
            h(
                "tr",
                {},
                [
                    h("th", {"scope": "col"}, c)
                    for c in ["Mode"] + [SCORE_LABELS.get(n, n.title()) for n in names]
                ],
            ),
        ),
        h("tbody", {}, rows),
    )


def stats_screen(stats: Stats, games: Iterable[GameInfo], name: str) -> Markup:
    """Return the Stats screen: the player's record per mode, the leaderboards, and best scores."""
    sections = []
    for info in games:
        bests = best_scores_table(stats, info)
        if info.realtime:
            sections.append(
                h(
                    "section",
                    {"class_": "stats-game"},
                    h("h2", {}, info.name),
                    bests or h("p", {"class_": "empty"}, "No scores yet."),
                )
            )
            continue
        mine = stats.for_player(name, info.id)
        if mine:
            table = h(
                "table",
                {"class_": "stats-table"},
                h("caption", {}, name_text(name), " against the computer"),
                h(
                    "thead",
                    {},
                    h(
                        "tr",
                        {},
                        [
                            h("th", {"scope": "col"}, c)
                            for c in (
                                "Mode",
                                "Played",
                                "Won",
                                "Lost",
                                "Drawn",
                                "Win rate",
                                "Streak",
                                "Best streak",
                            )
                        ],
                    ),
                ),
                h(
                    "tbody",
                    {},
                    [
                        h(
                            "tr",
                            {},
                            h("th", {"scope": "row"}, t.label),
                            h("td", {}, t.played),
                            h("td", {}, t.wins),
                            h("td", {}, t.losses),
                            h("td", {}, t.draws),
                            h("td", {}, percent(t.win_rate)),
                            h("td", {}, t.streak),
                            h("td", {}, t.best_streak),
                        )
                        for t in mine
                    ],
                ),
            )
        else:
            table = h("p", {"class_": "empty"}, "No games against the computer yet as ", name_text(name), ".")
        board = stats.leaderboard(info.id)
        leaders = (
            h(
                "table",
                {"class_": "stats-table leaderboard"},
                h("caption", {}, "Leaderboard (this device)"),
                h(
                    "thead",
                    {},
                    h(
                        "tr",
                        {},
                        [
                            h("th", {"scope": "col"}, c)
                            for c in ("#", "Player", "Mode", "Won", "Win rate", "Best streak")
                        ],
                    ),
                ),
                h(
                    "tbody",
                    {},
                    [
                        h(
                            "tr",
                            {},
                            h("td", {}, i + 1),
                            h("th", {"scope": "row"}, name_text(t.name)),
                            h("td", {}, t.label),
                            h("td", {}, t.wins),
                            h("td", {}, percent(t.win_rate)),
                            h("td", {}, t.best_streak),
                        )
                        for i, t in enumerate(board)
                    ],
                ),
            )
            if board
            else ""
        )
        sections.append(h("section", {"class_": "stats-game"}, h("h2", {}, info.name), table, leaders, bests))
    note = h("p", {"class_": "hint"}, "Only games against the computer count. Stats stay on this device.")
    return frame("Stats", join([note, *sections]), current="stats")
