"""Saves: the envelope, migration, every kind of bad save, and the localStorage adapter."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard import saves
from boneyard.saves import SCHEMA, SaveError, dump_record, dump_save, load_record, load_save
from boneyard.settings import Settings, settings_from_json
from boneyard.stats import Stats, stats_from_json
from ui.storage import SETTINGS_KEY, STATS_KEY, Storage

WHEN = datetime(2026, 11, 30, 8, 0, 0, tzinfo=UTC)


def test_envelope_has_the_contract_fields_and_round_trips():
    text = dump_save("dominoes", {"a": [1, 2]}, WHEN)
    data = json.loads(text)
    assert data == {
        "schema": SCHEMA,
        "game": "dominoes",
        "saved_at": "2026-11-30T08:00:00Z",
        "state": {"a": [1, 2]},
    }
    loaded = load_save(text, expected_game="dominoes")
    assert loaded.state == {"a": [1, 2]} and loaded.game == "dominoes" and loaded.schema == SCHEMA
    assert json.loads(json.dumps(loaded.to_json())) == data


def test_schema_1_save_is_migrated():
    old = json.dumps({"schema": 1, "game": "dominoes", "saved_at": 1_764_489_600, "state": {"x": 1}})
    loaded = load_save(old)
    assert loaded.schema == SCHEMA
    assert loaded.saved_at == "2025-11-30T08:00:00Z"
    assert loaded.state == {"x": 1}


def test_every_schema_below_the_current_one_has_a_migration():
    assert set(saves.MIGRATIONS) == set(range(1, SCHEMA))


@pytest.mark.parametrize(
    "text, kind",
    [
        ("", "truncated"),
        ('{"schema": 2, "game": "dominoes", "sta', "truncated"),
        ("{not json at all}", "corrupt"),
        ("\x00\x01garbage", "corrupt"),
        ("[1, 2, 3]", "foreign"),
        ('"just a string"', "foreign"),
        ('{"hello": "world"}', "foreign"),
        ('{"schema": "two", "game": "dominoes", "state": {}}', "foreign"),
        ('{"schema": 0, "game": "dominoes", "state": {}}', "foreign"),
        ('{"schema": 99, "game": "dominoes", "state": {}}', "newer"),
        ('{"schema": 2, "game": "", "state": {}}', "foreign"),
        ('{"schema": 2, "game": "dominoes", "state": [1]}', "invalid"),
        ('{"schema": 2, "game": "dominoes", "state": {}, "saved_at": 5}', "invalid"),
        ('{"schema": 1, "game": "dominoes", "state": {}, "saved_at": 1e300}', "invalid"),
    ],
)
def test_bad_saves_raise_a_clear_save_error(text, kind):
    with pytest.raises(SaveError) as info:
        load_save(text)
    assert info.value.kind == kind
    assert info.value.message and info.value.message[0].isupper()


def test_a_save_of_another_game_is_foreign():
    with pytest.raises(SaveError) as info:
        load_save(dump_save("triangles", {}), expected_game="dominoes")
    assert info.value.kind == "foreign"


def test_a_state_the_game_cannot_rebuild_is_invalid():
    def validate(game, state):
        raise KeyError("hands")

    with pytest.raises(SaveError) as info:
        load_save(dump_save("dominoes", {"x": 1}), validate=validate)
    assert info.value.kind == "invalid" and "hands" in info.value.message


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_arbitrary_text_loads_or_raises_save_error(text):
    try:
        load_save(text)
    except SaveError:
        pass


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(st.dictionaries(st.sampled_from(["schema", "game", "state", "saved_at", "x"]), JSON, max_size=5))
@settings(max_examples=300, deadline=None)
def test_arbitrary_json_envelopes_load_or_raise_save_error(envelope):
    try:
        load_save(json.dumps(envelope))
    except SaveError:
        pass


@given(st.text(max_size=200).filter(lambda t: len(t) > 2))
@settings(max_examples=100, deadline=None)
def test_any_cut_of_a_real_save_is_refused_not_crashed(tail):
    text = dump_save("dominoes", {"hands": [[1, 2]], "note": tail})
    for cut in range(1, len(text), max(1, len(text) // 15)):
        with pytest.raises(SaveError):
            load_save(text[:cut])


def test_records_round_trip_and_refuse_foreign_or_newer():
    assert load_record(dump_record("settings", {"a": 1}), "settings") == {"a": 1}
    with pytest.raises(SaveError):
        load_record('{"schema": 1, "stats": {}}', "settings")
    with pytest.raises(SaveError) as info:
        load_record('{"schema": 5, "settings": {}}', "settings")
    assert info.value.kind == "newer"


def test_broken_key_keeps_the_time_and_the_original_key():
    key = saves.broken_key(WHEN, "boneyard:save:dominoes")
    assert key.startswith("boneyard:broken:2026-11-30T08:00:00") and key.endswith(":save:dominoes")


# -- settings and stats -------------------------------------------------------------------------


def test_settings_keep_good_values_and_default_bad_ones():
    s = settings_from_json(
        {"name": "  Ana   Lu ", "suggestions": "yes", "theme": "neon", "animations": False, "x": 1}
    )
    assert s == Settings(name="Ana Lu", suggestions=True, theme="felt", animations="off")
    assert settings_from_json(None) == Settings()
    assert settings_from_json({"name": ""}).name == "Player"
    assert len(settings_from_json({"name": "x" * 100}).name) == 24
    assert Settings(animations="system").animations_on(reduced_motion=True) is False
    assert Settings(animations="on").animations_on(reduced_motion=True) is True


def test_settings_sound_speed_and_hints_default_when_missing_or_bad():
    old = settings_from_json({"name": "Ana", "suggestions": False, "theme": "dark", "animations": "on"})
    assert (old.sound, old.speed, old.hints) == (True, "normal", True)  # a record from before these keys
    s = settings_from_json({"sound": "loud", "speed": "warp", "hints": 0})
    assert (s.sound, s.speed, s.hints) == (True, "normal", True)
    s = settings_from_json({"sound": False, "speed": "fast", "hints": False})
    assert (s.sound, s.speed, s.hints) == (False, "fast", False)


def test_settings_place_at_once_defaults_on_and_keeps_a_bool():
    assert settings_from_json({"name": "Ana"}).place_at_once is True  # a record from before the key
    assert settings_from_json({"place_at_once": "no"}).place_at_once is True
    assert settings_from_json({"place_at_once": False}).place_at_once is False
    assert Settings().replace(place_at_once=False).to_json()["place_at_once"] is False


def test_stats_count_results_streaks_and_the_leaderboard():
    stats = Stats()
    for result in ["win", "win", "loss", "win", "draw", "win", "win", "win"]:
        stats.record("dominoes", "classic-2", "Classic, 2 players", "Ana", result, "2026-11-30")
    stats.record("dominoes", "classic-2", "Classic, 2 players", "Bo", "win", "2026-11-30")
    ana = stats.for_player("Ana", "dominoes")[0]
    assert (ana.wins, ana.losses, ana.draws, ana.played) == (6, 1, 1, 8)
    assert ana.streak == 3 and ana.best_streak == 3 and ana.win_rate == 0.75
    assert [t.name for t in stats.leaderboard("dominoes")] == ["Ana", "Bo"]
    again = stats_from_json(json.loads(json.dumps(stats.to_json())))
    assert again.to_json() == stats.to_json()
    with pytest.raises(ValueError):
        stats.record("dominoes", "classic-2", "", "Ana", "victory", "")


def test_best_scores_keep_only_improvements():
    stats = Stats()
    assert stats.record_scores("bonefall", "sprint-norm", {"max": 4, "power": 10}, "2026-11-01") == [
        "max",
        "power",
    ]
    assert stats.record_scores("bonefall", "sprint-norm", {"max": 3, "power": 12}, "2026-11-02") == ["power"]
    assert stats.bests["bonefall:sprint-norm"]["max"].value == 4
    assert stats.bests["bonefall:sprint-norm"]["power"].date == "2026-11-02"


def test_a_save_and_stats_written_as_falling_read_as_bonefall():
    """Bonefall's id was "falling": its saves, stats and backups from then read as bonefall's."""
    from ui.session import Session

    old = json.loads((Path(__file__).parent / "data" / "page-saves" / "bonefall-as-falling.json").read_text())
    for kind in ("in_progress", "finished"):
        save = load_save(old[kind], expected_game="bonefall", validate=Session.from_json)
        assert save.game == "bonefall" and Session.from_json(save.game, save.state).info.id == "bonefall"
        assert load_save(old[kind], expected_game="falling").game == "bonefall"  # a backup's old key
    stats = stats_from_json(load_record(old["stats"], "stats"))
    assert (
        stats.bests["bonefall:sprint-norm"]["power"].value == 19
        and len(stats.runs["bonefall:sprint-norm"]) == 1
    )
    assert stats.solo == {"bonefall": 1} and [r.game for r in stats.recent] == ["bonefall"]
    assert not [key for key in (*stats.bests, *stats.runs, *stats.seconds) if "falling" in key]
    backup = saves.load_backup(old["backup"])
    assert set(backup.items) == {"boneyard:save:bonefall", "boneyard:stats"}


def test_stats_an_old_tab_counted_as_falling_merge_into_bonefall():
    stats = Stats()
    stats.record_scores("bonefall", "sprint-norm", {"max": 4, "power": 19}, "2026-12-01")
    stats.record_run("bonefall", "sprint-norm", {"max": 4, "power": 19}, "2026-12-01", "a")
    stats.record_recent("bonefall", "Sprint · Norm", "2026-12-01", "", {"power": 19}, 60)
    stats.record_scores("falling", "sprint-norm", {"max": 5, "power": 12}, "2026-12-02")  # the old tab's game
    stats.record_run("falling", "sprint-norm", {"max": 5, "power": 12}, "2026-12-02", "b")
    stats.record_recent("falling", "Sprint · Norm", "2026-12-02", "", {"power": 12}, 30)
    merged = stats_from_json(json.loads(json.dumps(stats.to_json())))
    bests = merged.bests["bonefall:sprint-norm"]
    assert (bests["max"].value, bests["power"].value) == (5, 19) and set(merged.bests) == {
        "bonefall:sprint-norm"
    }
    assert [run.date for run in merged.runs["bonefall:sprint-norm"]] == ["2026-12-01", "2026-12-02"]
    assert merged.solo == {"bonefall": 2} and merged.seconds == {"bonefall": 90.0}
    assert [r.game for r in merged.recent] == ["bonefall", "bonefall"]


def test_the_later_of_two_saves_is_kept():
    early, late = dump_save("bonefall", {}, WHEN), dump_save("bonefall", {"x": 1}, WHEN.replace(hour=9))
    assert saves.later_save(early, late) == late and saves.later_save(late, early) == late
    assert saves.later_save(early, "{broken") == early and saves.later_save(early, early) == early


@pytest.mark.parametrize(
    "bad",
    [
        {"tallies": [{"game": "d"}]},
        {"tallies": [1]},
        {"bests": {"a": {"max": {"value": "x"}}}},
        {"tallies": [{"game": "d", "mode": "m", "name": "n", "wins": -1}]},
    ],
)
def test_damaged_stats_are_refused(bad):
    with pytest.raises((ValueError, KeyError, TypeError)):
        stats_from_json(bad)


# -- the storage adapter ------------------------------------------------------------------------


class QuotaExceededError(Exception):
    """Stands in for the browser's DOMException named QuotaExceededError."""

    name = "QuotaExceededError"


class FakeStorage:
    """A dict with the Web Storage API, and a byte budget like a real browser's."""

    def __init__(self, budget: int = 10_000_000) -> None:
        self.data: dict[str, str] = {}
        self.budget = budget

    @property
    def length(self) -> int:
        return len(self.data)

    def key(self, index: int) -> str | None:
        keys = list(self.data)
        return keys[index] if index < len(keys) else None

    def getItem(self, key):
        return self.data.get(key)

    def setItem(self, key, value):
        used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
        if used + len(key) + len(value) > self.budget:
            raise QuotaExceededError("The quota has been exceeded.")
        self.data[key] = value

    def removeItem(self, key):
        self.data.pop(key, None)


def make_storage(budget: int = 10_000_000):
    reports: list[tuple[str, str]] = []
    backend = FakeStorage(budget)
    return (
        Storage(backend, lambda kind, msg: reports.append((kind, msg)), clock=lambda: WHEN),
        backend,
        reports,
    )


def test_a_broken_save_is_reported_and_moved_aside_not_deleted():
    storage, backend, reports = make_storage()
    backend.data["boneyard:save:dominoes"] = '{"schema": 2, "game": "dominoes", "sta'
    assert storage.load_game("dominoes", lambda game, state: state) is None
    assert "boneyard:save:dominoes" not in backend.data
    (aside,) = storage.broken()
    assert backend.data[aside] == '{"schema": 2, "game": "dominoes", "sta'
    assert reports and reports[0][0] == "warning" and "cut off" in reports[0][1]
    assert "kept aside (Settings › Your data)" in reports[0][1] and "boneyard:" not in reports[0][1]


def test_a_record_moved_aside_is_reported_in_words_never_by_its_key():
    """A player hears what was kept aside and where to find it, not the storage key it went under."""
    storage, backend, reports = make_storage()
    backend.data[SETTINGS_KEY] = "{" * 60
    backend.data[STATS_KEY] = '{"schema": 1, "stats": {"tallies": [{"game": 1}]}}'
    storage.load_settings()
    storage.load_stats()
    assert len(storage.broken()) == 2 and [kind for kind, _ in reports] == ["warning", "warning"]
    settings, stats = (message for _, message in reports)
    assert settings.startswith("Your settings could not be read") and stats.startswith("Your stats")
    for message in (settings, stats):
        assert message.endswith("A copy was kept aside (Settings › Your data) and a fresh start was made.")
        assert "boneyard" not in message and ":settings" not in message and ":stats" not in message


def test_a_save_the_game_cannot_rebuild_is_moved_aside():
    storage, _backend, reports = make_storage()
    storage.save_game("dominoes", {"bad": True})

    def rebuild(game, state):
        raise ValueError("no hands in the save")

    assert storage.load_game("dominoes", rebuild) is None
    assert len(storage.broken()) == 1 and "no hands" in reports[0][1]


def test_any_error_while_rebuilding_a_save_is_a_save_error():
    def rebuild(game, state):
        assert state["hands"], "no hands"

    with pytest.raises(SaveError) as info:
        load_save(dump_save("dominoes", {"hands": []}), validate=rebuild)
    assert info.value.kind == "invalid"


def test_a_good_save_loads_through_rebuild():
    storage, _backend, reports = make_storage()
    storage.save_game("dominoes", {"n": 3})
    assert storage.load_game("dominoes", lambda game, state: ("built", game, state["n"])) == (
        "built",
        "dominoes",
        3,
    )
    assert reports == []


def test_full_storage_is_reported_once_and_play_goes_on():
    storage, backend, reports = make_storage(budget=400)
    assert storage.save_game("dominoes", {"n": 1}) is True
    big = {"pad": "x" * 1000}
    assert storage.save_game("dominoes", big) is False
    assert storage.save_game("dominoes", big) is False
    assert [k for k, _ in reports] == ["error"] and "full" in reports[0][1]
    assert json.loads(backend.data["boneyard:save:dominoes"])["state"] == {"n": 1}  # the old save is intact
    assert storage.save_game("dominoes", {"n": 2}) is True and storage.full is False


def test_a_broken_record_that_cannot_be_moved_aside_is_left_in_place():
    storage, backend, reports = make_storage(budget=120)
    backend.data[SETTINGS_KEY] = "{" * 60
    assert storage.load_settings() == Settings()
    assert backend.data[SETTINGS_KEY] == "{" * 60
    assert any("left where it was" in msg for _, msg in reports)


def test_settings_and_stats_persist_and_damaged_ones_are_kept_aside():
    storage, backend, reports = make_storage()
    storage.save_settings(Settings(name="Ana", theme="dark"))
    assert storage.load_settings() == Settings(name="Ana", theme="dark")
    stats = Stats()
    stats.record("dominoes", "m", "M", "Ana", "win", "2026-11-30")
    storage.save_stats(stats)
    assert storage.load_stats().to_json() == stats.to_json()
    backend.data[STATS_KEY] = '{"schema": 1, "stats": {"tallies": [{"game": 1}]}}'
    assert storage.load_stats().to_json() == Stats().to_json()
    assert len(storage.broken()) == 1 and reports


def test_each_save_is_one_write_of_a_whole_text():
    """Two tabs never tear a save: every save is a single setItem of a complete JSON text."""
    storage, backend, _reports = make_storage()
    writes = []
    original = backend.setItem
    backend.setItem = lambda k, v: (writes.append((k, v)), original(k, v))
    storage.save_game("dominoes", {"n": 1, "hands": [[6, 6]]})
    assert len(writes) == 1
    assert load_save(writes[0][1]).state == {"n": 1, "hands": [[6, 6]]}
