"""Results kept across games: wins, losses, draws, streaks, a local leaderboard, and best scores.

Only games against the computer count (the rules say so); the shell records a result when such a game
ends. Games in online rooms count apart (``online``), one tally per game, mode and opponent's name. Everything is plain data with a JSON form, so the Stats screen and the tests read the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .saves import RENAMED

RESULTS = ("win", "loss", "draw")
MAX_ENTRIES = 500  # tallies kept (game, mode, name); the oldest beyond it are dropped
MAX_COUNTED = 200  # deals remembered as counted, so that no game counts twice
MAX_DAYS = 60  # days of play each tally keeps for its chart
MAX_RUNS = 40  # finished games each real-time mode keeps for its chart
MAX_RECENT = 20  # latest finished games kept for the overview's Recent results
IDLE_S = 90.0  # a longer pause between two moves counts as this much play (the player left the table)


@dataclass
class Tally:
    """One player's record in one mode of one game."""

    game: str
    mode: str
    label: str
    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    best_streak: int = 0
    last: str = ""  # date of the last game
    days: list[list[Any]] = field(
        default_factory=list
    )  # [date, wins, losses, draws] per day played, oldest first

    @property
    def played(self) -> int:
        """Return the number of games played."""
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float:
        """Return the share of games won (0 when none were played)."""
        return self.wins / self.played if self.played else 0.0

    def add(self, result: str, date: str) -> None:
        """Count one game's result."""
        if result == "win":
            self.wins += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        elif result == "loss":
            self.losses += 1
            self.streak = 0
        else:
            self.draws += 1
            self.streak = 0
        self.last = date
        if not self.days or self.days[-1][0] != date:
            self.days.append([date, 0, 0, 0])
            del self.days[:-MAX_DAYS]
        self.days[-1][1 + RESULTS.index(result)] += 1


@dataclass
class Best:
    """A best score of a real-time game mode, with when it was reached."""

    value: float
    date: str


@dataclass
class Run:
    """One finished game of a real-time mode: its date and scores (the chart of the Stats screen)."""

    date: str
    scores: dict[str, float]


@dataclass
class Recent:
    """One finished game in the overview's Recent results: a result against the computer, or solo scores."""

    game: str
    label: str
    date: str
    result: str = ""  # "win", "loss" or "draw"; "" for a solo game, whose scores say how it went
    scores: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass
class Stats:
    """Every tally and every best score."""

    tallies: list[Tally] = field(default_factory=list)
    bests: dict[str, dict[str, Best]] = field(default_factory=dict)  # "game:mode" -> score name -> best
    counted: list[str] = field(default_factory=list)  # ids of the latest deals counted, oldest first
    runs: dict[str, list[Run]] = field(default_factory=dict)  # "game:mode" -> its latest games, oldest first
    online: list[Tally] = field(default_factory=list)  # online games: ``name`` is the opponent's name
    solo: dict[str, int] = field(default_factory=dict)  # game -> solo games finished (each run kept)
    seconds: dict[str, float] = field(default_factory=dict)  # game -> time played in the games counted
    recent: list[Recent] = field(default_factory=list)  # the latest games counted, oldest first

    def record_recent(
        self, game: str, label: str, date: str, result: str, scores: Mapping[str, float], seconds: float
    ) -> None:
        """Add a counted game to Recent results and its time to the game's time played."""
        entry = Recent(
            game, label, date, result if result in RESULTS else "", dict(scores), max(0.0, seconds)
        )
        self.recent.append(entry)
        del self.recent[:-MAX_RECENT]
        self.seconds[game] = self.seconds.get(game, 0.0) + entry.seconds

    def has_counted(self, deal: str) -> bool:
        """Tell whether the game of this deal id was counted already."""
        return bool(deal) and deal in self.counted

    def mark_counted(self, deal: str) -> None:
        """Remember that the game of this deal id is counted."""
        if deal and deal not in self.counted:
            self.counted.append(deal)
            del self.counted[:-MAX_COUNTED]

    def tally(self, game: str, mode: str, label: str, name: str) -> Tally:
        """Return the tally of ``name`` in a mode, creating it when new."""
        for t in self.tallies:
            if t.game == game and t.mode == mode and t.name == name:
                t.label = label or t.label
                return t
        t = Tally(game=game, mode=mode, label=label, name=name)
        self.tallies.append(t)
        del self.tallies[:-MAX_ENTRIES]
        return t

    def record(self, game: str, mode: str, label: str, name: str, result: str, date: str) -> Tally:
        """Count a finished game against the computer; return the updated tally."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        t = self.tally(game, mode, label, name)
        t.add(result, date)
        return t

    def record_scores(self, game: str, mode: str, scores: Mapping[str, float], date: str) -> list[str]:
        """Keep each score that beats the best of its mode; return the names of the new bests."""
        bests = self.bests.setdefault(f"{game}:{mode}", {})
        improved = []
        for name, value in scores.items():
            if name not in bests or value > bests[name].value:
                bests[name] = Best(float(value), date)
                improved.append(name)
        return improved

    def record_run(self, game: str, mode: str, scores: Mapping[str, float], date: str, deal: str) -> bool:
        """Keep a finished real-time game's scores for its chart, once per deal; return True when kept."""
        mark = f"run:{deal}"
        if not scores or not deal or self.has_counted(mark):
            return False
        runs = self.runs.setdefault(f"{game}:{mode}", [])
        runs.append(Run(date, {name: float(value) for name, value in scores.items()}))
        del runs[:-MAX_RUNS]
        self.solo[game] = self.solo.get(game, 0) + 1
        self.mark_counted(mark)
        return True

    def record_online(self, game: str, mode: str, label: str, opponent: str, result: str, date: str) -> Tally:
        """Count a finished online game against ``opponent`` (a person); return the updated tally."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        for t in self.online:
            if t.game == game and t.mode == mode and t.name == opponent:
                t.label = label or t.label
                break
        else:
            t = Tally(game=game, mode=mode, label=label, name=opponent)
            self.online.append(t)
            del self.online[:-MAX_ENTRIES]
        t.add(result, date)
        return t

    def online_for(self, game: str) -> list[Tally]:
        """Return a game's online tallies, most played first."""
        rows = [t for t in self.online if t.game == game and t.played]
        return sorted(rows, key=lambda t: (-t.played, t.name.casefold(), t.mode))

    def players(self, game: str) -> list[str]:
        """Return the names that have played ``game`` against the computer, sorted."""
        return sorted({t.name for t in self.tallies if t.game == game and t.played})

    def for_player(self, name: str, game: str | None = None) -> list[Tally]:
        """Return one player's tallies (of one game, or all), most played first."""
        rows = [t for t in self.tallies if t.name == name and (game is None or t.game == game)]
        return sorted(rows, key=lambda t: (-t.played, t.game, t.mode))

    def leaderboard(self, game: str, mode: str | None = None, limit: int = 10) -> list[Tally]:
        """Return the best records of a game (or one mode): most wins, then best rate, then best streak."""
        rows = [t for t in self.tallies if t.game == game and (mode is None or t.mode == mode) and t.played]
        rows.sort(key=lambda t: (-t.wins, -t.win_rate, -t.best_streak, t.name))
        return rows[:limit]

    def to_json(self) -> dict[str, Any]:
        """Return the JSON-ready form."""
        return {
            "tallies": [asdict(t) for t in self.tallies],
            "bests": {key: {n: asdict(b) for n, b in scores.items()} for key, scores in self.bests.items()},
            "counted": list(self.counted),
            "runs": {key: [asdict(r) for r in runs] for key, runs in self.runs.items()},
            "online": [asdict(t) for t in self.online],
            "solo": dict(self.solo),
            "seconds": dict(self.seconds),
            "recent": [asdict(r) for r in self.recent],
        }


class PlayClock:
    """Measure the time played in each deal from its moves: the gaps between them, each at most IDLE_S."""

    def __init__(self) -> None:
        self.deals: dict[str, tuple[float, float]] = {}  # deal id -> (seconds so far, time of its last move)

    def tick(self, deal: str, now: float) -> None:
        """Note a move of ``deal`` at ``now`` (seconds on any steady clock)."""
        spent, last = self.deals.get(deal, (0.0, now))
        self.deals[deal] = (spent + min(max(0.0, now - last), IDLE_S), now)

    def take(self, deal: str) -> float:
        """Return the time played in ``deal`` and forget it."""
        return self.deals.pop(deal, (0.0, 0.0))[0]


def _tally(row: Any) -> Tally:
    if not isinstance(row, Mapping):
        raise ValueError("a tally is not a record")
    return Tally(
        game=str(row["game"]),
        mode=str(row["mode"]),
        label=str(row.get("label", row["mode"])),
        name=str(row["name"]),
        wins=_int(row.get("wins", 0)),
        losses=_int(row.get("losses", 0)),
        draws=_int(row.get("draws", 0)),
        streak=_int(row.get("streak", 0)),
        best_streak=_int(row.get("best_streak", 0)),
        last=str(row.get("last", "")),
        days=_days(row.get("days", [])),  # absent from stats written before the charts
    )


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("a count is not a whole number")
    return value


def stats_from_json(data: Mapping[str, Any]) -> Stats:
    """Rebuild Stats from ``to_json``'s form; raise ValueError when it is damaged."""
    if not isinstance(data, Mapping):
        raise ValueError("stats are not a record")
    stats = Stats()
    stats.tallies = [_tally(row) for row in data.get("tallies", [])]
    online = data.get("online", [])  # absent from stats written before online rooms
    if not isinstance(online, list):
        raise ValueError("the online games are not a list")
    stats.online = [_tally(row) for row in online][-MAX_ENTRIES:]
    bests = data.get("bests", {})
    if not isinstance(bests, Mapping):
        raise ValueError("best scores are not a record")
    for key, scores in bests.items():
        if not isinstance(scores, Mapping):
            raise ValueError("best scores are not a record")
        stats.bests[str(key)] = {}
        for name, best in scores.items():
            value = best["value"]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError("a best score is not a number")
            stats.bests[str(key)][str(name)] = Best(float(value), str(best.get("date", "")))
    counted = data.get("counted", [])  # absent from stats written before deals had ids
    if not isinstance(counted, list) or not all(isinstance(deal, str) for deal in counted):
        raise ValueError("the counted games are not a list of ids")
    stats.counted = counted[-MAX_COUNTED:]
    runs = data.get("runs", {})  # absent from stats written before the charts
    if not isinstance(runs, Mapping):
        raise ValueError("the games kept for the charts are not a record")
    for key, rows in runs.items():
        if not isinstance(rows, list):
            raise ValueError("the games kept for a chart are not a list")
        stats.runs[str(key)] = [_run(row) for row in rows][-MAX_RUNS:]
    # Absent from stats written before the overview: the solo games counted are then the runs kept.
    solo = data.get("solo")
    if solo is None:
        for key, rows in stats.runs.items():
            game = key.partition(":")[0]
            stats.solo[game] = stats.solo.get(game, 0) + len(rows)
    elif isinstance(solo, Mapping):
        stats.solo = {str(game): _int(n) for game, n in solo.items()}
    else:
        raise ValueError("the solo games are not a record")
    seconds = data.get("seconds", {})
    if not isinstance(seconds, Mapping):
        raise ValueError("the time played is not a record")
    stats.seconds = {str(game): max(0.0, _number(s)) for game, s in seconds.items()}
    recent = data.get("recent", [])
    if not isinstance(recent, list):
        raise ValueError("the recent games are not a list")
    stats.recent = [_recent(row) for row in recent][-MAX_RECENT:]
    for old, new in RENAMED.items():
        _rename_game(stats, old, new)
    return stats


def _rename_game(stats: Stats, old: str, new: str) -> None:
    """File what was counted under a game's old id under its new one, merged with what is there.

    Both ids hold entries when a tab of the old version counted a game after this one migrated the
    record, so nothing is dropped: the better best, both charts' runs, the sums of counts and time.
    """
    for t in (*stats.tallies, *stats.online):
        t.game = new if t.game == old else t.game
    for r in stats.recent:
        r.game = new if r.game == old else r.game
    for key in [k for k in stats.bests if k.partition(":")[0] == old]:
        merged = stats.bests.setdefault(f"{new}{key[len(old) :]}", {})
        for name, best in stats.bests.pop(key).items():
            if name not in merged or best.value > merged[name].value:
                merged[name] = best
    for key in [k for k in stats.runs if k.partition(":")[0] == old]:
        runs = stats.runs.setdefault(f"{new}{key[len(old) :]}", [])
        runs.extend(stats.runs.pop(key))
        runs.sort(key=lambda run: run.date)  # stable: each chart's own order within a day
        del runs[:-MAX_RUNS]
    if old in stats.solo:
        stats.solo[new] = stats.solo.get(new, 0) + stats.solo.pop(old)
    if old in stats.seconds:
        stats.seconds[new] = stats.seconds.get(new, 0.0) + stats.seconds.pop(old)


def _recent(row: Any) -> Recent:
    if not isinstance(row, Mapping) or not isinstance(row.get("scores", {}), Mapping):
        raise ValueError("a recent game is not a record")
    result = str(row.get("result", ""))
    return Recent(
        game=str(row.get("game", "")),
        label=str(row.get("label", "")),
        date=str(row.get("date", "")),
        result=result if result in RESULTS else "",
        scores={str(n): _number(v) for n, v in row.get("scores", {}).items()},
        seconds=max(0.0, _number(row.get("seconds", 0))),
    )


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError("a score is not a number")
    return float(value)


def _run(row: Any) -> Run:
    if not isinstance(row, Mapping) or not isinstance(row.get("scores"), Mapping):
        raise ValueError("a game kept for a chart is not a record")
    return Run(str(row.get("date", "")), {str(n): _number(v) for n, v in row["scores"].items()})


def _days(rows: Any) -> list[list[Any]]:
    if not isinstance(rows, list):
        raise ValueError("the days of a tally are not a list")
    days = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 4 or not isinstance(row[0], str):
            raise ValueError("a day of a tally is damaged")
        days.append([row[0], _int(row[1]), _int(row[2]), _int(row[3])])
    return days[-MAX_DAYS:]
