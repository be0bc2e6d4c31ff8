"""Settings › Your data under CPython: a backup holds every stored record exactly, and an import either
stores it whole (keeping what it replaces aside) or changes nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from boneyard import saves
from boneyard.games import GAMES
from boneyard.settings import Settings
from boneyard.stats import Stats
from ui.session import Seat, Session
from ui.storage import Storage

from .test_saves import FakeStorage

WHEN = datetime(2026, 12, 1, 14, 0, 0, tzinfo=UTC)


def make_storage(budget: int = 10_000_000) -> tuple[Storage, FakeStorage, list[tuple[str, str]]]:
    reports: list[tuple[str, str]] = []
    backend = FakeStorage(budget)
    return (
        Storage(backend, lambda kind, msg: reports.append((kind, msg)), clock=lambda: WHEN),
        backend,
        reports,
    )


def a_session(game_id: str = "dominoes") -> Session:
    info = GAMES[game_id]
    seats = [Seat("human", "Ana"), Seat("computer", "Computer", "easy")]
    return Session.start(info, seats, "classic-2", "Classic, 2 players", {}, seed=7)


def filled() -> tuple[Storage, FakeStorage]:
    storage, backend, _ = make_storage()
    storage.save_game("dominoes", a_session().to_json())
    storage.save_settings(Settings(name="Ana", theme="dark", sound=False, speed="fast"))
    stats = Stats()
    stats.record("dominoes", "classic-2", "Classic, 2 players", "Ana", "win", "2026-11-30")
    stats.record_scores("bonefall", "sprint-norm", {"max": 4, "power": 19, "speed": 3.5}, "2026-11-30")
    storage.save_stats(stats)
    backend.data["boneyard:broken:2026-11-29T10:00:00.000000Z:save:triangles"] = '{"schema": 2, "ga'
    return storage, backend


def rebuild(game_id: str, state: dict) -> Session:
    return Session.from_json(game_id, state)


def test_export_then_import_on_a_fresh_profile_restores_everything_exactly():
    storage, backend = filled()
    text = storage.export_text()
    fresh, fresh_backend, _ = make_storage()
    preview = fresh.read_backup(text, rebuild)
    assert [g for g, _ in preview.games] == ["dominoes"]
    assert preview.settings is not None and preview.settings.name == "Ana"
    assert preview.stats is not None and preview.stats.tallies[0].wins == 1
    assert len(preview.aside) == 1 and not preview.replaces
    assert fresh.import_backup(preview) == []
    assert fresh_backend.data == backend.data
    assert fresh.load_settings() == storage.load_settings()
    assert fresh.load_stats().to_json() == storage.load_stats().to_json()


def test_the_backup_is_readable_json_that_names_itself():
    storage, _ = filled()
    data = json.loads(storage.export_text())
    assert data["boneyard"] == "backup" and data["schema"] == saves.BACKUP_SCHEMA
    assert data["exported_at"] == "2026-12-01T14:00:00Z"
    assert set(data["items"]) >= {"boneyard:settings", "boneyard:stats", "boneyard:save:dominoes"}


def test_an_import_keeps_what_it_replaces_aside():
    storage, _ = filled()
    text = storage.export_text()
    other, backend, _ = make_storage()
    other.save_settings(Settings(name="Bo"))
    other.save_game("dominoes", a_session().to_json())  # another deal under the same key
    mine = dict(backend.data)
    preview = other.read_backup(text, rebuild)
    assert sorted(preview.replaces) == ["boneyard:save:dominoes", "boneyard:settings"]
    aside = other.import_backup(preview)
    assert aside is not None and len(aside) == 2
    assert {backend.data[key] for key in aside} == set(mine.values())
    assert all(key.startswith("boneyard:broken:") for key in aside)
    assert other.load_settings().name == "Ana"


def test_importing_the_same_file_twice_changes_nothing_the_second_time():
    storage, _ = filled()
    text = storage.export_text()
    fresh, backend, _ = make_storage()
    fresh.import_backup(fresh.read_backup(text, rebuild))
    before = dict(backend.data)
    again = fresh.read_backup(text, rebuild)
    assert not again.replaces and again.unchanged == len(before)
    assert fresh.import_backup(again) == []
    assert backend.data == before


def damaged(text: str) -> str:
    data = json.loads(text)
    key = "boneyard:settings"
    data["items"][key] = data["items"][key].replace("Ana", "Eve")
    return json.dumps(data)


def newer_backup(text: str) -> str:
    data = json.loads(text)
    data["schema"] = saves.BACKUP_SCHEMA + 1
    return json.dumps(data)


def newer_save(storage: Storage) -> str:
    items = storage.export_items()
    envelope = json.loads(items["boneyard:save:dominoes"])
    envelope["schema"] = saves.SCHEMA + 1
    items["boneyard:save:dominoes"] = json.dumps(envelope)
    return saves.dump_backup(items, WHEN)


def unrebuildable(storage: Storage) -> str:
    items = storage.export_items()
    envelope = json.loads(items["boneyard:save:dominoes"])
    envelope["state"]["game_state"] = {"nonsense": True}
    items["boneyard:save:dominoes"] = json.dumps(envelope)
    return saves.dump_backup(items, WHEN)


@pytest.mark.parametrize(
    ("make", "kind", "words"),
    [
        (lambda s, t: "", "truncated", "empty"),
        (lambda s, t: t[: len(t) // 2], "truncated", "cut off"),
        (lambda s, t: "hello, world", "foreign", "not a Boneyard backup"),
        (lambda s, t: json.dumps({"name": "my photos"}), "foreign", "not a Boneyard backup"),
        (lambda s, t: '{"schema": 2, "game": "dominoes", "state": {}}', "foreign", "not a Boneyard backup"),
        (lambda s, t: damaged(t), "corrupt", "damaged"),
        (lambda s, t: t.replace('"items"', '"itemz"'), "corrupt", "damaged"),
        (lambda s, t: newer_backup(t), "newer", "newer version"),
        (lambda s, t: newer_save(s), "newer", "newer version"),
        (lambda s, t: unrebuildable(s), "corrupt", "cannot be resumed"),
    ],
)
def test_a_damaged_foreign_or_newer_file_is_refused_with_nothing_lost(make, kind, words):
    storage, _ = filled()
    text = make(storage, storage.export_text())
    mine, backend, _ = make_storage()
    mine.save_settings(Settings(name="Bo"))
    mine.save_game("dominoes", a_session().to_json())
    before = dict(backend.data)
    with pytest.raises(saves.SaveError) as refused:
        mine.read_backup(text, rebuild)
    assert refused.value.kind == kind
    assert words in refused.value.message
    assert backend.data == before


def test_a_full_storage_puts_everything_back():
    storage, _ = filled()
    text = storage.export_text()
    mine, backend, _ = make_storage(budget=2_500)
    mine.save_settings(Settings(name="Bo"))
    before = dict(backend.data)
    preview = mine.read_backup(text, rebuild)
    assert mine.import_backup(preview) is None
    assert backend.data == before


def test_the_full_storage_message_names_the_section_that_exists():
    mine, _, reports = make_storage(budget=50)
    mine.save_settings(Settings(name="Bo"))
    assert reports and "Records kept aside" in reports[0][1]


def test_used_chars_counts_only_boneyard_records():
    storage, backend = filled()
    backend.data["someone-else"] = "x" * 1000
    assert storage.used_chars() == sum(
        len(k) + len(v) for k, v in backend.data.items() if k != "someone-else"
    )
