"""Saves, settings and stats across reloads and tabs, on a real App over fake pages sharing one storage.

The CPython half of tests/browser/test_persistence.py, test_two_tabs.py and test_tabs.py: a corrupt
save kept aside with a message, a full storage, settings that survive a reload, another tab's save
adopted (never overwritten by an older position), results of two tabs that add up, a cleared storage.
"""

from __future__ import annotations

import json

from boneyard import saves
from tests.app.conftest import Open
from tests.app.fakes import FakePort, FakeStorage
from tests.app.test_play import legal, my_turn, new_dominoes, play, play_to_the_end
from ui.app import App
from ui.session import Session

BAD = '{"schema": 2, "game": "dominoes", "saved_at": "2026-11-30T08:00:00Z", "state": {"game_st'


def test_a_corrupt_save_is_reported_and_kept_aside(open_app: Open) -> None:
    storage = FakeStorage(
        {
            "boneyard:save:dominoes": BAD,
            "boneyard:save:chess": "{}",
            "boneyard:settings": '{"schema": 99, "settings": {}}',
        }
    )
    _app, port = open_app(storage)
    text = " ".join(words for _, words in port.toasts)
    assert "saved game could not be resumed" in text and "cut off" in text
    assert "unknown game" in text
    assert "settings could not be read" in text and "newer version" in text
    assert "kept aside (Settings › Your data)" in text and "boneyard:" not in text  # never a storage key
    assert {kind for kind, _ in port.toasts} <= {"warning", "error"}
    assert "boneyard:save:dominoes" not in storage.items and "boneyard:save:chess" not in storage.items
    aside = {k: v for k, v in storage.items.items() if k.startswith("boneyard:broken:")}
    assert BAD in aside.values() and "{}" in aside.values()
    assert any(k.endswith(":save:dominoes") for k in aside)
    assert port.find('.game-card[data-game="dominoes"] a[href="#/play/dominoes"]') is None  # no Resume
    port.go("#/settings")
    assert len(port.find_all(".broken-list li")) == 3
    while port.find(".toast-close") is not None:  # the player dismisses every report
        port.press(".toast-close")
    assert port.find(".toast") is None
    key = port.get('[data-action="delete-broken"]').attrs["data-value"]
    port.press_action("delete-broken", key)
    assert key not in storage.items and len(port.find_all(".broken-list li")) == 2


def test_a_full_storage_is_reported_once_and_play_goes_on(open_app: Open) -> None:
    storage = FakeStorage(quota=2_000)
    app, port = open_app(storage, search="?seed=7")
    port.follow("#/setup/dominoes")
    port.press_action("start-game", "dominoes")
    play(port, legal(app)[0])
    play(port, legal(app)[0])
    errors = [words for kind, words in port.toasts if kind == "error"]
    assert len(errors) == 1 and "storage for this site is full" in errors[0]
    assert "boneyard:save:dominoes" not in storage.items and my_turn(app)
    assert app.sessions["dominoes"].move_count() >= 4  # play went on


def test_settings_survive_a_reload(open_app: Open) -> None:
    app, port = open_app(hash_="#/settings")
    port.type("#set-name", "Ana")
    shown = app.renders
    port.change("#set-name", "Ana")
    assert app.renders == shown  # a typed name never redraws (the caret and a Tab stay)
    port.change("#set-theme", "light")
    port.change("#set-suggestions", checked=False)
    port.change("#set-animations", "off")
    assert port.root_attrs["data-theme"] == "light" and port.root_attrs["data-motion"] == "off"
    _again, page = open_app(port.storage, "#/settings")
    assert page.value("#set-name") == "Ana"
    assert page.get('#set-theme option[value="light"]').attrs.get("selected") is not None
    assert page.get('#set-animations option[value="off"]').attrs.get("selected") is not None
    assert "checked" not in page.get("#set-suggestions").attrs
    assert page.root_attrs == {"data-theme": "light", "data-motion": "off", "data-ready": "true"}
    page.go("#/")
    assert "Welcome, Ana." in page.text()
    assert page.booted == ["done"] and page.title == "Games — Boneyard"


def test_another_tabs_move_is_adopted_and_never_overwritten(open_app: Open) -> None:
    app, first = new_dominoes(open_app)
    other, second = open_app(first.storage, "#/play/dominoes")
    assert other.sessions["dominoes"].uid == app.sessions["dominoes"].uid
    play(first, legal(app)[0])  # the first tab plays on; the second hears of it
    played = app.sessions["dominoes"].moves
    second.settle()
    assert other.sessions["dominoes"].moves == played
    assert second.text("#kit-message") == first.text("#kit-message")
    assert any("played on in another tab" in words for _, words in second.toasts)
    # The second tab plays next; the first, behind now, adopts before it could play an old position.
    play(second, legal(other)[0])
    assert my_turn(other)
    stored = first.storage.items["boneyard:save:dominoes"]
    loaded = saves.load_save(stored, expected_game="dominoes", validate=Session.from_json)
    assert loaded.game == "dominoes"
    first.settle()
    assert app.sessions["dominoes"].moves == other.sessions["dominoes"].moves
    history = json.loads(stored)["state"]["game_state"]["history"]
    assert len(history) == len(other.sessions["dominoes"].moves)


def test_a_slow_tab_adopts_instead_of_playing_on_an_old_position(open_app: Open) -> None:
    app, first = new_dominoes(open_app)
    other, second = open_app(first.storage, "#/play/dominoes")
    play(first, legal(app)[0])
    newer = first.storage.items["boneyard:save:dominoes"]
    # The second tab has not heard of the move yet (its storage event waits) and the player clicks there.
    stale_move = legal(other)[0]
    second.fire(second._event("click", second.get(f'[data-value="{stale_move.split(":")[0]}"]')))
    second.tick()
    assert other.sessions["dominoes"].moves == app.sessions["dominoes"].moves  # adopted, not played
    assert first.storage.items["boneyard:save:dominoes"] == newer  # the longer history stays
    assert any("played on in another tab" in words for _, words in second.toasts)
    second.settle()  # its storage event comes late: nothing changes
    assert other.sessions["dominoes"].moves == app.sessions["dominoes"].moves


def finish_a_game(app: App, port: FakePort) -> None:
    port.go("#/setup/dominoes")
    port.press_action("start-game", "dominoes")
    play_to_the_end(app, port)
    port.go("#/stats")


def played(storage: FakeStorage) -> int:
    text = storage.items.get("boneyard:stats")
    if text is None:
        return 0
    return sum(t["wins"] + t["losses"] + t["draws"] for t in json.loads(text)["stats"]["tallies"])


def test_results_from_two_tabs_add_up_and_a_cleared_storage_stays_cleared(open_app: Open) -> None:
    one, first = open_app(hash_="#/stats", search="?seed=1")
    two, second = open_app(first.storage, "#/stats", search="?seed=2")
    finish_a_game(one, first)
    second.settle()
    finish_a_game(two, second)
    first.settle()
    finish_a_game(one, first)
    assert played(first.storage) == 3, "a tab's results erased the other's"
    second.settle()
    assert "Classic, 2 players" in second.text() and second.find(".stat-card") is not None
    first.storage.clear()  # the player clears the site's data in the first tab
    first.settle()
    second.settle()
    finish_a_game(two, second)
    assert played(second.storage) == 1, "the second tab wrote back the stats that were cleared"
