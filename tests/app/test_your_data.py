"""Settings › Your data and the Same-device gate on a real App over the fake page.

The CPython half of tests/browser/test_your_data.py: a backup exported in one profile restores every
save, setting and stat in a fresh one; a damaged, foreign or newer file is refused with nothing lost;
storage's persistence and use are shown. And a Same-device game hides each player's tiles until Show.
"""

from __future__ import annotations

import json

from tests.app.conftest import Open
from tests.app.fakes import FakePort
from ui.app import App

STATS = {
    "schema": 1,
    "stats": {
        "tallies": [
            {
                "game": "dominoes",
                "mode": "classic-2",
                "label": "Classic, 2 players",
                "name": "Ana",
                "wins": 3,
                "losses": 1,
                "draws": 0,
                "streak": 2,
                "best_streak": 2,
                "last": "2026-11-30",
            }
        ],
        "bests": {"bonefall:sprint-norm": {"power": {"value": 19.0, "date": "2026-11-30"}}},
        "counted": ["abc"],
    },
}
ASIDE_KEY = "boneyard:broken:2026-11-29T10:00:00.000000Z:save:triangles"


def refused_files(good: str) -> dict[str, tuple[str, str]]:
    """Return files an import refuses, made from a good backup: name -> (text, words of the refusal)."""
    data = json.loads(good)
    damaged = dict(
        data, items={**data["items"], "boneyard:settings": data["items"]["boneyard:settings"][:-9]}
    )
    newer = dict(data, schema=data["schema"] + 1)
    return {
        "damaged.json": (json.dumps(damaged), "damaged"),
        "cut.json": (good[: len(good) // 2], "cut off"),
        "photo.json": ('{"name": "holiday.jpg"}', "not a Boneyard backup"),
        "notes.txt": ("shopping: eggs, milk", "not a Boneyard backup"),
        "newer.json": (json.dumps(newer), "newer version"),
    }


def fill_profile(open_app: Open) -> tuple[App, FakePort]:
    """Start a Dominoes game, change settings, store stats and a record kept aside; reload."""
    _app, port = open_app()
    port.go("#/setup/dominoes")
    port.press_action("start-game", "dominoes")
    port.go("#/settings")
    port.type("#set-name", "Ana")
    port.change("#set-name", "Ana")
    port.change("#set-theme", "dark")
    port.change("#set-sound", checked=False)
    port.change("#set-speed", "fast")
    port.storage.items["boneyard:stats"] = json.dumps(STATS)
    port.storage.items[ASIDE_KEY] = '{"schema": 2, "ga'
    return open_app(port.storage, "#/settings")


def export(port: FakePort) -> str:
    port.press("#export-data")
    name, text, mime = port.downloads[-1]
    assert name.startswith("boneyard-backup-") and name.endswith(".json") and mime == "application/json"
    assert "Backup file saved." in port.announced
    return text


def test_export_then_import_on_a_fresh_profile_restores_everything(open_app: Open) -> None:
    _app, port = fill_profile(open_app)
    stored = dict(port.storage.items)
    assert {"boneyard:save:dominoes", "boneyard:settings", "boneyard:stats", ASIDE_KEY} <= set(stored)
    backup = export(port)

    _fresh, page = open_app(hash_="#/settings")
    page.choose_file("boneyard-backup.json", backup)
    words = page.text("#import-preview")
    assert "A saved game of Dominoes" in words and "“Ana”" in words and "4 games counted" in words
    assert "1 record kept aside" in words
    assert page.focused_id() == "import-confirm"
    page.press("#import-confirm")
    assert page.find("#import-done") is not None
    assert page.storage.items == stored
    assert page.root_attrs["data-theme"] == "dark"
    _again, reloaded = open_app(page.storage, "#/")
    assert reloaded.storage.items == stored
    assert reloaded.find('a[href="#/play/dominoes"]') is not None
    reloaded.go("#/settings")
    assert reloaded.value("#set-name") == "Ana"
    assert reloaded.get('#set-speed option[value="fast"]').attrs.get("selected") is not None
    assert "checked" not in reloaded.get("#set-sound").attrs
    aside = reloaded.get(".broken-list").text
    assert "Your saved game of Triangles from 29\u00a0Nov\u00a02026, 10:00 (UTC), kept aside" in aside
    assert ASIDE_KEY not in aside


def test_a_damaged_foreign_or_newer_file_is_refused_with_nothing_lost(open_app: Open) -> None:
    _app, port = fill_profile(open_app)
    good = export(port)
    before = dict(port.storage.items)
    files = refused_files(good)
    files["huge.json"] = ("x" * 20_000_001, "far too large")
    for name, (text, words) in files.items():
        port.choose_file(name, text)
        said = port.text("#import-refused")
        assert name in said and words in said and "Nothing you have stored was changed." in said, said
        assert port.storage.items == before
        port.press("#import-refused button")
        assert port.find("#import-refused") is None and port.focused_id() == "import-file"
    assert port.value("#set-name") == "Ana"


def test_storage_shows_whether_it_is_persistent_and_how_much_is_used(open_app: Open) -> None:
    _app, port = open_app(hash_="#/settings")
    assert port.attr("#storage-persist", "data-persisted") != "unknown"
    assert "persistent" in port.text("#storage-persist").lower()
    used = port.text("#storage-used")
    assert "Nothing of yours is stored yet." in used and "this site uses" in used
    assert "Records kept aside" in port.text(".your-data")


def test_the_first_save_asks_the_browser_to_keep_the_sites_data(open_app: Open) -> None:
    app, port = open_app()
    assert port.persistent is False
    port.go("#/setup/dominoes")
    port.press_action("start-game", "dominoes")
    assert port.persistent is True and app.data.persisted and app.data.checked


def test_same_device_hides_the_tiles_until_the_player_shows_them(open_app: Open) -> None:
    app, port = open_app(search="?seed=3")
    port.go("#/setup/dominoes")
    port.change('[data-field="opponents"][value="device"]', "device", checked=True)
    port.press_action("start-game", "dominoes")
    assert port.find(".privacy") is not None
    assert port.focused is not None and port.focused is port.find(
        ".privacy [autofocus]"
    )  # Show has the focus
    assert port.actions("tile") == [] or all("disabled" in t.attrs for t in port.actions("tile"))
    port.press_action("reveal")
    assert port.find(".privacy") is None and port.actions("tile")
    session = app.sessions["dominoes"]
    seat = session.to_move()
    view = session.state.view(seat)
    move = view["legal_moves"][0]
    tile, _, end = move.partition(":")
    if move in ("draw", "pass"):
        port.press_action(move)
    else:
        port.press_action("tile", tile)
        if port.actions("end"):
            port.press_action("end", end)
    assert session.to_move() != seat and port.find(".privacy") is not None  # the next player's gate
