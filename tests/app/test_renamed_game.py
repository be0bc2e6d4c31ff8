"""Bonefall was ``falling`` in saves, stats, backups, links and addresses until it took its name: what the
version before the rename stored (tests/data/page-saves/bonefall-as-falling.json) opens in this one, on a
real App over the fake page, and a tab of that version open beside this one loses nothing."""

from __future__ import annotations

import json
from pathlib import Path

from boneyard import saves
from tests.app.conftest import Open
from tests.app.fakes import FakeStorage

OLD = json.loads((Path(__file__).parents[1] / "data" / "page-saves" / "bonefall-as-falling.json").read_text())
OLD_KEY, NEW_KEY = "boneyard:save:falling", "boneyard:save:bonefall"


def stamped(text: str, when: str) -> str:
    """Return a save's text with its time stamp changed to ``when``."""
    return json.dumps(json.loads(text) | {"saved_at": when})


def test_a_game_in_progress_saved_as_falling_resumes_as_bonefall(open_app: Open) -> None:
    storage = FakeStorage({OLD_KEY: OLD["in_progress"]})
    app, port = open_app(storage)
    assert storage.items == {NEW_KEY: OLD["in_progress"]}  # moved as it was; the old key gone after
    assert (
        app.sessions["bonefall"].state.steps == json.loads(OLD["in_progress"])["state"]["game_state"]["steps"]
    )
    assert port.find('.game-card[data-game="bonefall"] a[href="#/play/bonefall"]') is not None  # Resume
    assert not port.toasts  # nothing kept aside, nothing to report
    _again, page = open_app(storage)  # the next start finds it where it is now
    assert storage.items == {NEW_KEY: OLD["in_progress"]} and not page.toasts


def test_a_finished_game_saved_as_falling_loads_as_bonefall(open_app: Open) -> None:
    storage = FakeStorage({OLD_KEY: OLD["finished"]})
    app, port = open_app(storage)
    assert set(storage.items) == {NEW_KEY} and app.sessions["bonefall"].state.is_over()
    assert not port.toasts


def test_when_both_keys_hold_a_game_the_later_one_is_kept(open_app: Open) -> None:
    older, newer = (
        stamped(OLD["finished"], "2026-12-01T08:00:00Z"),
        stamped(OLD["in_progress"], "2026-12-01T09:00:00Z"),
    )
    storage = FakeStorage({OLD_KEY: newer, NEW_KEY: older})  # a tab of the old version played last
    app, _port = open_app(storage)
    assert storage.items == {NEW_KEY: newer} and not app.sessions["bonefall"].state.is_over()
    storage = FakeStorage({OLD_KEY: older, NEW_KEY: newer})
    open_app(storage)
    assert storage.items == {NEW_KEY: newer}


def test_a_full_storage_leaves_the_old_save_where_it_was(open_app: Open) -> None:
    storage = FakeStorage({OLD_KEY: OLD["in_progress"]}, quota=len(OLD_KEY + OLD["in_progress"]) + 10)
    app, port = open_app(storage)
    assert storage.items == {
        OLD_KEY: OLD["in_progress"]
    }  # not lost, not moved aside: tried at the next start
    assert "bonefall" not in app.sessions and not [w for _, w in port.toasts if "unknown game" in w]


def test_a_tab_of_the_old_version_playing_beside_is_followed_without_losing_its_key(open_app: Open) -> None:
    storage = FakeStorage()
    app, port = open_app(storage)
    old_tab = storage.items  # what a tab of the old version writes lands in the shared storage
    old_tab[OLD_KEY] = OLD["in_progress"]
    storage.written(OLD_KEY, None)
    port.settle()
    assert storage.items == {OLD_KEY: OLD["in_progress"], NEW_KEY: OLD["in_progress"]}  # its key stays
    assert "bonefall" in app.sessions
    app.drop(app.sessions["bonefall"])  # finished here: gone under both ids, as the old tab then sees
    assert storage.items == {}
    old_tab[OLD_KEY] = OLD["in_progress"]  # the old tab plays a game and finishes it: its save goes
    storage.written(OLD_KEY, None)
    port.settle()
    assert NEW_KEY in storage.items and "bonefall" in app.sessions
    del old_tab[OLD_KEY]
    storage.written(OLD_KEY, None)
    port.settle()
    assert storage.items == {} and "bonefall" not in app.sessions  # not left here as a game to resume


def test_old_addresses_go_to_bonefall(open_app: Open) -> None:
    _app, port = open_app(hash_="#/setup/falling")
    assert port.hash == "#/setup/bonefall" and port.find('[data-action="start-game"][data-value="bonefall"]')
    port.go("#/rules/falling")
    assert port.hash == "#/rules/bonefall" and "Bonefall" in port.text("#screen-title")


def test_stats_counted_as_falling_show_as_bonefall(open_app: Open) -> None:
    _app, port = open_app(FakeStorage({"boneyard:stats": OLD["stats"]}), "#/stats")
    text = port.text("#app")
    assert "Sprint · Norm" in text and "19" in text and "best power" in text


def test_a_backup_from_the_version_before_imports(open_app: Open) -> None:
    app, page = open_app(hash_="#/settings")
    page.choose_file("boneyard-backup.json", OLD["backup"])
    assert "A saved game of Bonefall" in page.text("#import-preview")
    page.press("#import-confirm")
    assert page.find("#import-done") is not None
    assert set(page.storage.items) == {NEW_KEY, saves.PREFIX + "stats"}
    assert "bonefall" in app.sessions and app.stats.bests["bonefall:sprint-norm"]["power"].value == 19
