"""The Settings screen: the player's name and preferences, Online (the rooms' broker), and Your data
(backup, storage, records kept aside).

Pure Python: the app passes what it knows of the browser's storage (``DataInfo``) and an import being
previewed or refused; the texts the app updates in place (``persist_text``, ``usage_text``) come from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boneyard import saves
from boneyard.games import GAMES
from boneyard.settings import (
    ANIMATION_LABELS,
    ANIMATIONS,
    MAX_NAME,
    ONLINE_ICE,
    ONLINE_ICE_LABELS,
    QUICK_WAITS,
    SPEED_LABELS,
    SPEEDS,
    THEME_LABELS,
    THEMES,
    Settings,
)

from .html import Markup, h, name_text
from .shell import button, field, frame, select

__all__ = [
    "DataInfo",
    "aside_text",
    "describe_import",
    "file_size",
    "online_fields",
    "persist_text",
    "persisted_attr",
    "settings_screen",
    "usage_text",
]


@dataclass
class DataInfo:
    """What Settings › Your data shows: storage use and persistence, and an import in progress."""

    used_chars: int = 0  # the Boneyard records in localStorage (keys and texts)
    persisted: bool | None = None  # None: not known yet, or the browser does not say
    checked: bool = False  # the browser has been asked (persisted stays None where it cannot say)
    usage: int | None = None  # bytes the whole site uses (navigator.storage.estimate), when known
    quota: int | None = None
    preview: Any = None  # a ui.storage.ImportPreview waiting for the player's yes
    file_name: str = ""
    refusal: str = ""  # why the last file was not imported
    imported: str = ""  # what the last import did
    identity: str = ""  # the player's name and key fingerprint for rated games, once the page gave the key


def file_size(n: float) -> str:
    """Return a byte count in a player's units (bytes, KB, MB, GB; 1000s, one decimal past 10)."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            value = n / size
            return f"{value:.1f} {unit}" if value < 10 else f"{round(value)} {unit}"
    return f"{int(n)} bytes"


def persisted_attr(data: DataInfo) -> str:
    """Return the ``data-persisted`` value of the storage line: true, false or unknown."""
    return "unknown" if data.persisted is None else str(data.persisted).lower()


def persist_text(persisted: bool | None, checked: bool = True) -> str:
    """Return the sentence saying whether the browser keeps this site's data."""
    if persisted is True:
        return "Persistent: your browser keeps your games until you delete them."
    if persisted is False:
        return (
            "Not persistent: your browser may clear your games if space runs short or after weeks "
            "without a visit (Safari: seven days). Export a backup to keep them safe."
        )
    if checked:
        return "This browser does not say whether it keeps this site's data. Export a backup to keep it safe."
    return "Checking whether your browser keeps this site's data…"


def usage_text(used_chars: int, usage: int | None, quota: int | None) -> str:
    """Return the sentence saying how much room Boneyard's records and the whole site take."""
    mine = (
        f"Your games, settings and stats take {file_size(2 * used_chars)}."
        if used_chars
        else "Nothing of yours is stored yet."
    )
    if usage is None:
        return mine
    whole = f" With the game's files kept for offline play, this site uses {file_size(usage)}"
    return mine + whole + (f" of the {file_size(quota)} your browser allows." if quota else ".")


def _when(stamp: str) -> str:
    """Return an ISO time stamp as a short date and time, ``1 Dec 2026, 14:22`` (UTC)."""
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    try:
        return f"{int(stamp[8:10])}\u00a0{months[int(stamp[5:7]) - 1]}\u00a0{stamp[:4]}, {stamp[11:16]}"
    except (ValueError, IndexError):
        return stamp or "an unknown time"


def describe_import(preview: Any) -> list[str]:
    """Return the lines that say what a checked backup holds."""
    lines = []
    for game_id, session in sorted(preview.games, key=lambda g: g[0]):
        info = getattr(session, "info", None)
        name = getattr(info, "name", game_id)
        label = getattr(session, "mode_label", "")
        mode = f" ({label})" if label and not getattr(info, "realtime", False) else ""
        lines.append(f"A saved game of {name}{mode}, saved {_when(preview.saved_at.get(game_id, ''))}.")
    if preview.settings is not None:
        lines.append(f"Settings for the player “{preview.settings.name}”.")
    if preview.stats is not None:
        played = sum(t.played for t in preview.stats.tallies)
        bests = len(preview.stats.bests)
        parts = [f"{played} game{'s' * (played != 1)} counted"] if played else []
        parts += [f"best scores in {bests} mode{'s' * (bests != 1)}"] if bests else []
        lines.append("Stats: " + (" and ".join(parts) if parts else "none yet") + ".")
    if preview.aside:
        n = len(preview.aside)
        lines.append(f"{n} record{'s' * (n != 1)} kept aside.")
    if preview.other:
        n = len(preview.other)
        lines.append(f"{n} other Boneyard record{'s' * (n != 1)}.")
    return lines or ["Nothing: this backup is empty."]


def check(fid: str, setting: str, value: bool, label: str, hint: str) -> Markup:
    """Return a checkbox setting with its hint."""
    return h(
        "div",
        {"class_": "field field-check"},
        h(
            "label",
            {"class_": "check"},
            h(
                "input",
                {
                    "id": fid,
                    "type": "checkbox",
                    "data_setting": setting,
                    "checked": value,
                    "aria_describedby": f"{fid}-hint",
                },
            ),
            h("span", {}, label),
        ),
        h("p", {"class_": "hint", "id": f"{fid}-hint"}, hint),
    )


def text_input(fid: str, setting: str, value: str, **props: Any) -> Markup:
    """Return a text input bound to ``setting`` (kept as typed; the app stores it on every keystroke)."""
    attrs = {"id": fid, "type": "text", "data_setting": setting, "value": value, "spellcheck": "false"}
    attrs |= {"autocomplete": "off", "autocapitalize": "off", "aria_describedby": f"{fid}-hint"}
    return h("input", {**attrs, **props})


def online_fields(settings: Settings) -> list[Markup]:
    """Return Settings > Online: the PeerJS broker that rooms connect through, and the STUN/TURN servers."""
    own = bool(settings.online_host)
    details = h(
        "details",
        {"class_": "online-details", "open": own},
        h("summary", {}, "Port, path, key and security of your broker"),
        field(
            "Port",
            text_input(
                "set-online-port",
                "online_port",
                str(settings.online_port),
                inputmode="numeric",
                pattern="[0-9]{1,5}",
                maxlength=5,
            ),
            "1 to 65535: 443 for a secure broker behind a web server, or the port given to peer --port.",
            "set-online-port",
        ),
        field(
            "Path",
            text_input("set-online-path", "online_path", settings.online_path, maxlength=200),
            "Where the broker answers on that host: / unless it was started with --path.",
            "set-online-path",
        ),
        field(
            "Key",
            text_input(
                "set-online-key", "online_key", settings.online_key, maxlength=64, pattern="[A-Za-z0-9_.\\-]+"
            ),
            "The broker's key: peerjs unless it was started with --key.",
            "set-online-key",
        ),
        check(
            "set-online-secure",
            "online_secure",
            settings.online_secure,
            "Secure connection",
            "wss:// and https://, as a page served over https needs. Off for a broker on your own machine.",
        ),
    )
    advanced = [
        h(
            "p",
            {"class_": "hint", "id": "online-broker"},
            "Rooms connect through ",
            h("strong", {}, settings.online_broker()),
            ".",
        ),
        h(
            "div",
            {"class_": "field"},
            h("label", {"for": "set-online-host"}, "Broker"),
            text_input(
                "set-online-host",
                "online_host",
                settings.online_host,
                placeholder="Empty: PeerJS's public broker",
                maxlength=253,
                inputmode="url",
            ),
            h(
                "p",
                {"class_": "hint", "id": "set-online-host-hint"},
                "The PeerJS server that introduces the players of a room. To run your own: ",
                h("code", {"class_": "code-nowrap"}, "npx peer --port 9000"),
                ", then enter its host name, or a whole address such as ",
                h("code", {"class_": "code-wrap"}, "https://broker.example.org:9000/"),
                ".",
            ),
        ),
        h("div", {"class_": "field"}, details),
        field(
            "Relay servers (STUN/TURN)",
            select(
                "set-online-ice",
                "",
                [(v, ONLINE_ICE_LABELS[v]) for v in ONLINE_ICE],
                settings.online_ice,
                data_setting="online_ice",
            ),
            "They help browsers behind routers find each other. Without them only players on one network "
            "can connect.",
            "set-online-ice",
        ),
    ]
    # What a player needs is the first line; the connection's details are for those who run their own.
    changed = own or settings.online_ice != Settings().online_ice
    return [
        h(
            "p",
            {"class_": "hint", "id": "online-lead"},
            "Play with friends on their own devices: open a room from a game's New game and send them its "
            "code. Nothing is sent until you open or join a room.",
        ),
        field(
            "Quick match: computers fill empty seats after",
            select(
                "set-quick-wait",
                "",
                [(str(v), f"{v} seconds") for v in QUICK_WAITS],
                str(settings.quick_wait),
                data_setting="quick_wait",
            ),
            "How long Quick match looks for other players before computers take the seats nobody took.",
            "set-quick-wait",
        ),
        h(
            "details",
            {"class_": "advanced", "id": "online-advanced", "open": changed},
            h("summary", {}, "Advanced: connection servers"),
            advanced,
        ),
    ]


IDENTITY_UNKNOWN = "Looking for this browser's key…"


def identity_line(label: str) -> Markup:
    """Return the player's rated identity: the name with this browser's key fingerprint."""
    return h(
        "p",
        {"class_": "hint identity-line"},
        "Rated games know you as ",
        h("strong", {"id": "set-identity"}, name_text(label or IDENTITY_UNKNOWN)),
        ": a key kept in this browser signs your results (clearing its storage loses it).",
    )


def settings_screen(
    settings: Settings, reduced_motion: bool, broken: list[str], data: DataInfo | None = None
) -> Markup:
    """Return the Settings screen: the player, the table, the look, online rooms, and Your data."""
    data = data or DataInfo()
    motion_hint = "Your system asks for reduced motion." if reduced_motion else "Your system allows motion."
    player = [
        field(
            "Player name",
            h(
                "input",
                {
                    "id": "set-name",
                    "type": "text",
                    "data_setting": "name",
                    "value": settings.name,
                    "maxlength": MAX_NAME,
                    "autocomplete": "nickname",
                },
            ),
            "Shown at the table and on the leaderboard.",
            "set-name",
        ),
        identity_line(data.identity),
    ]
    table = [
        check(
            "set-suggestions",
            "suggestions",
            settings.suggestions,
            "Move suggestions",
            "Mark the tiles you can play.",
        ),
        check("set-hints", "hints", settings.hints, "Hints", "Offer the Hint button at the tables."),
        check(
            "set-place-at-once",
            "place_at_once",
            settings.place_at_once,
            "Heptalion: place at once",
            "A domino is placed on its second space, without Confirm.",
        ),
        check(
            "set-sound",
            "sound",
            settings.sound,
            "Sound",
            "Tiles laid and drawn, wins and cascades. Nothing plays while this is off.",
        ),
        field(
            "Computer speed",
            select(
                "set-speed", "", [(s, SPEED_LABELS[s]) for s in SPEEDS], settings.speed, data_setting="speed"
            ),
            "How long the computer's moves stay on screen.",
            "set-speed",
        ),
    ]
    look = [
        field(
            "Theme",
            select(
                "set-theme", "", [(t, THEME_LABELS[t]) for t in THEMES], settings.theme, data_setting="theme"
            ),
            fid="set-theme",
        ),
        field(
            "Animations",
            select(
                "set-animations",
                "",
                [(a, ANIMATION_LABELS[a]) for a in ANIMATIONS],
                settings.animations,
                data_setting="animations",
            ),
            motion_hint,
            "set-animations",
        ),
    ]
    body = h(
        "div",
        {"class_": "settings"},
        h(
            "form",
            {"class_": "settings-form", "aria_labelledby": "screen-title", "onsubmit": "return false"},
            h("h2", {"class_": "settings-head"}, "Player"),
            player,
            h("h2", {"class_": "settings-head"}, "At the table"),
            table,
            h("h2", {"class_": "settings-head"}, "Look"),
            look,
            h("h2", {"class_": "settings-head", "id": "online-title"}, "Online"),
            online_fields(settings),
        ),
        your_data(data, broken),
    )
    return frame("Settings", body, current="settings")


def your_data(data: DataInfo, broken: list[str]) -> Markup:
    """Return Settings › Your data: storage, backup (export and import) and the records kept aside."""
    storage = h(
        "div",
        {"class_": "data-storage"},
        h(
            "p",
            {
                "id": "storage-persist",
                "class_": "data-line",
                "data_persisted": persisted_attr(data),
            },
            persist_text(data.persisted, data.checked),
        ),
        h(
            "p",
            {"id": "storage-used", "class_": "data-line"},
            usage_text(data.used_chars, data.usage, data.quota),
        ),
    )
    backup = h(
        "div",
        {"class_": "data-backup"},
        h(
            "p",
            {"class_": "hint"},
            "A backup is one file with your saved games, settings, stats and records kept aside. Import it "
            "here or in another browser to carry on; whatever it replaces is kept aside.",
        ),
        h(
            "div",
            {"class_": "data-actions"},
            button("Export a backup", "export-data", "", kind="primary", id="export-data"),
            h(
                "label",
                {"class_": "btn file-btn", "for": "import-file"},
                "Import a backup…",
                h(
                    "input",
                    {
                        "id": "import-file",
                        "class_": "file-input",
                        "type": "file",
                        "accept": ".json,application/json",
                        "data_import": "file",
                    },
                ),
            ),
        ),
        import_panel(data),
    )
    if broken:
        aside = [
            h(
                "p",
                {"class_": "hint"},
                "Records that could not be read, and those an import replaced, are kept here so nothing is "
                "lost. A backup includes them. Delete them when you no longer need them.",
            ),
            h(
                "ul",
                {"class_": "broken-list"},
                [
                    h(
                        "li",
                        {"class_": "aside-item"},
                        h("span", {}, aside_text(key)),
                        " ",
                        button(
                            "Delete",
                            "delete-broken",
                            key,
                            kind="ghost",
                            aria_label=f"Delete {aside_text(key)[0].lower()}{aside_text(key)[1:]}",
                        ),
                    )
                    for key in broken
                ],
            ),
        ]
    else:
        aside = [h("p", {"class_": "hint", "id": "aside-empty"}, "Nothing is kept aside.")]
    return h(
        "section",
        {"class_": "your-data", "aria_labelledby": "your-data-title"},
        h("h2", {"id": "your-data-title", "class_": "settings-head"}, "Your data"),
        storage,
        backup,
        h("h3", {"id": "records-aside"}, "Records kept aside"),
        aside,
    )


def import_panel(data: DataInfo) -> Markup:
    """Return the preview of a file about to be imported, the refusal of one, or the last import's result."""
    name = h("strong", {}, name_text(data.file_name)) if data.file_name else "The file"
    if data.refusal:
        return h(
            "div",
            {"class_": "data-panel data-refused", "id": "import-refused", "role": "alert"},
            h("h3", {}, "Not imported"),
            h("p", {}, name, " was not imported. ", data.refusal),
            h("p", {}, "Nothing you have stored was changed."),
            button("OK", "import-cancel", "", kind="ghost"),
        )
    preview = data.preview
    if preview is not None:
        replaces = sorted(preview.replaces)
        names = {gid: getattr(getattr(session, "info", None), "name", gid) for gid, session in preview.games}
        what = [_key_name(k, names) for k in replaces]
        return h(
            "div",
            {
                "class_": "data-panel data-preview",
                "id": "import-preview",
                "role": "region",
                "aria_label": "Import",
            },
            h("h3", {}, "Import this backup?"),
            h("p", {}, name, f", made {_when(preview.backup.exported_at)} (UTC), holds:"),
            h("ul", {}, [h("li", {}, line) for line in describe_import(preview)]),
            h(
                "p",
                {"class_": "data-replaces"},
                "It replaces " + ", ".join(what) + ". What it replaces is kept under Records kept aside."
                if what
                else "It replaces nothing you have stored.",
            ),
            h(
                "div",
                {"class_": "data-actions"},
                button("Import", "import-confirm", "", kind="primary", id="import-confirm"),
                button("Cancel", "import-cancel", "", kind="ghost"),
            ),
        )
    if data.imported:
        return h(
            "div",
            {"class_": "data-panel data-done", "id": "import-done", "role": "status"},
            h("p", {}, data.imported),
            button("OK", "import-cancel", "", kind="ghost"),
        )
    return Markup("")


def aside_text(key: str) -> str:
    """Return a record kept aside in words: "Your settings from 4 Dec 2026, 20:15 (UTC), kept aside".

    The key is ``boneyard:broken:<time>[:<original key>]`` (``saves.broken_key``); the player never sees it.
    """
    rest = key.removeprefix(saves.PREFIX + "broken:")
    stamp, _, original = rest.partition("Z:")
    names = {info.id: info.name for info in GAMES.values()}
    what = _key_name(saves.PREFIX + original, names) if original else "a record"
    when = f" from {_when(stamp)} (UTC)" if stamp[:4].isdigit() and stamp[5:7].isdigit() else ""
    return f"{what[0].upper()}{what[1:]}{when}, kept aside"


def _key_name(key: str, names: dict[str, str]) -> str:
    """Return what a stored key holds, in words."""
    if key.endswith(":settings"):
        return "your settings"
    if key.endswith(":stats"):
        return "your stats"
    if ":save:" in key or ":parked:" in key:  # parked: set aside while a Daily of its game is played
        game_id = key.rpartition(":")[2]
        return f"your saved game of {names.get(game_id, game_id.title())}"
    if key.endswith(":daily"):
        return "your Daily record"
    return "a record kept aside" if ":broken:" in key else "another Boneyard record"  # never the raw key
