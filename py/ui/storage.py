"""The browser's localStorage, seen through Boneyard's save rules.

Pure Python over any object with ``getItem``/``setItem``/``removeItem``/``key``/``length`` (the page
passes ``window.localStorage``; the tests pass a dict-backed fake), so it is tested under CPython.

- Every write is one ``setItem`` of one whole JSON text: another tab reads the old save or the new
  one, never half of each (last writer wins per key).
- A save that cannot be loaded is reported through ``report`` and moved aside under
  ``boneyard:broken:<time>:<key>``; the original is removed only once the copy is stored, so nothing is
  ever silently lost.
- A full storage (quota exceeded) is reported and play goes on; the failed write changes nothing.
- A backup file (``export_text``) holds every stored text; ``read_backup`` checks one and describes it,
  ``import_backup`` stores it, keeping each record it replaces aside. A refused or failed import
  changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from boneyard import saves
from boneyard.settings import Settings, settings_from_json
from boneyard.stats import Stats, stats_from_json

SETTINGS_KEY = saves.PREFIX + "settings"
STATS_KEY = saves.PREFIX + "stats"

SAVE_PREFIX = saves.PREFIX + "save:"
BROKEN_PREFIX = saves.PREFIX + "broken:"

# What a player hears when a record is moved aside: where to find it, in the Settings' own words.
KEPT_ASIDE = "A copy was kept aside (Settings › Your data) and a fresh start was made."

Report = Callable[[str, str], None]  # (kind: "info"|"warning"|"error", message)
T = TypeVar("T")


@dataclass
class ImportPreview:
    """A checked backup file: what it holds, and which stored records importing it would replace."""

    backup: saves.Backup
    games: list[tuple[str, Any]] = field(default_factory=list)  # (game id, rebuilt game) per saved game
    saved_at: dict[str, str] = field(default_factory=dict)  # game id -> when it was saved
    settings: Settings | None = None
    stats: Stats | None = None
    aside: list[str] = field(default_factory=list)  # records kept aside in the file
    other: list[str] = field(
        default_factory=list
    )  # other Boneyard records (a newer kind), stored as they are
    replaces: list[str] = field(default_factory=list)  # stored keys whose text the import changes
    unchanged: int = 0  # records the file holds that are stored already, exactly

    @property
    def empty(self) -> bool:
        """Tell whether the file holds nothing at all."""
        return not self.backup.items


def _is_quota_error(exc: BaseException) -> bool:
    name = str(getattr(exc, "name", "")) + " " + type(exc).__name__ + " " + str(exc)
    return "quota" in name.lower() or "QuotaExceeded" in name


class Storage:
    """Saves, settings and stats in localStorage, with every failure reported and nothing lost."""

    def __init__(self, backend: Any, report: Report, clock: Callable[[], datetime] | None = None) -> None:
        self.backend = backend
        self.report = report
        self.clock = clock or (lambda: datetime.now(UTC))
        self.full = False  # the last write failed for lack of room
        self.copied: dict[str, str] = {}  # a renamed game's old id -> the save last copied from its old key

    # -- raw access -----------------------------------------------------------------------------
    def get(self, key: str) -> str | None:
        """Return the text under ``key`` (None when absent or storage is unavailable)."""
        try:
            value = self.backend.getItem(key)
        except Exception:
            return None
        return None if value is None else str(value)

    def set(self, key: str, value: str) -> bool:
        """Store ``value`` under ``key`` in one write; report a full storage; return success."""
        try:
            self.backend.setItem(key, value)
        except Exception as exc:
            if _is_quota_error(exc):
                if not self.full:
                    self.report(
                        "error",
                        "Your browser's storage for this site is full, so this game is not being saved. "
                        "Play goes on; free some space (Settings › Records kept aside) to save again.",
                    )
                self.full = True
            else:
                self.report("error", f"The game could not be saved ({exc}). Play goes on.")
            return False
        self.full = False
        return True

    def remove(self, key: str) -> None:
        """Delete ``key`` (used only for finished games and by the player's own choice)."""
        try:
            self.backend.removeItem(key)
        except Exception:
            pass

    def keys(self, prefix: str = saves.PREFIX) -> list[str]:
        """Return the stored keys that start with ``prefix``, sorted."""
        found = []
        try:
            for index in range(int(self.backend.length)):
                key = self.backend.key(index)
                if key is not None and str(key).startswith(prefix):
                    found.append(str(key))
        except Exception:
            return []
        return sorted(found)

    def move_aside(self, key: str, text: str, why: str) -> str | None:
        """Keep a broken record under a ``boneyard:broken:`` key and report it; return the new key.

        The report says where a player finds the copy, never its key (Settings › Your data names it).
        """
        aside = saves.broken_key(self.clock(), key)
        if self.set(aside, text):
            self.remove(key)
            self.report("warning", f"{why} {KEPT_ASIDE}")
            return aside
        self.report(
            "warning", f"{why} It could not be kept aside (storage is full), so it was left where it was."
        )
        return None

    # -- games ------------------------------------------------------------------------------------
    def save_game(self, game_id: str, state: dict[str, Any]) -> bool:
        """Save a game in progress."""
        return self.write_game(game_id, state) is not None

    def write_game(self, game_id: str, state: dict[str, Any]) -> str | None:
        """Save a game in progress; return the exact text stored, or None when it could not be."""
        text = saves.dump_save(game_id, state, self.clock())
        return text if self.set(saves.save_key(game_id), text) else None

    def load_game(self, game_id: str, rebuild: Callable[[str, dict[str, Any]], Any]) -> Any | None:
        """Return ``rebuild(game, state)`` for the saved game, or None; a broken save is reported and moved aside."""
        key = saves.save_key(game_id)
        text = self.get(key)
        if text is None:
            return None
        built: list[Any] = []
        try:
            saves.load_save(text, expected_game=game_id, validate=lambda g, s: built.append(rebuild(g, s)))
        except saves.SaveError as exc:
            self.move_aside(key, text, f"The saved game could not be resumed. {exc.message}")
            return None
        return built[0]

    def has_game(self, game_id: str) -> bool:
        """Tell whether a saved game of ``game_id`` exists (it may still turn out broken)."""
        return self.get(saves.save_key(game_id)) is not None

    def drop_game(self, game_id: str) -> None:
        """Forget a finished (or abandoned) game, and the copy an old version's tab may keep under its old id."""
        self.remove(saves.save_key(game_id))
        for old, new in saves.RENAMED.items():
            if new == game_id:
                self.remove(saves.save_key(old))

    def move_renamed(self, keep_old: bool = False) -> list[str]:
        """Move each renamed game's save to its new key (the later save when both are there); return their ids.

        The old key goes only once the new one is written. ``keep_old`` copies it instead: a tab of the old
        version may be playing under it, and its game would vanish there if the key did (the next start
        removes it; the game goes on under the new key).
        """
        moved = []
        for old, new in saves.RENAMED.items():
            text, kept = self.get(saves.save_key(old)), self.get(saves.save_key(new))
            if text is None:
                if keep_old and kept is not None and self.copied.get(old) == kept:
                    self.remove(saves.save_key(new))  # the old tab finished the game it copied: gone here too
                    moved.append(new)
                continue
            later = text if kept is None else saves.later_save(kept, text)
            if later != kept and not self.set(saves.save_key(new), later):
                continue  # not written (storage full): the old key keeps the game
            if keep_old:
                self.copied[old] = later
            else:
                self.remove(saves.save_key(old))
            moved.append(new)
        return moved

    # -- settings and stats -----------------------------------------------------------------------
    def load_settings(self) -> Settings:
        """Return the stored settings (defaults when none; a damaged record is reported and moved aside)."""
        text = self.get(SETTINGS_KEY)
        if text is None:
            return Settings()
        try:
            return settings_from_json(saves.load_record(text, "settings"))
        except saves.SaveError as exc:
            self.move_aside(SETTINGS_KEY, text, f"Your settings could not be read. {exc.message}")
            return Settings()

    def save_settings(self, settings: Settings) -> bool:
        """Store the settings."""
        return self.set(SETTINGS_KEY, saves.dump_record("settings", settings.to_json()))

    def update_settings(self, **changes: Any) -> Settings:
        """Apply ``changes`` to the settings as stored now (another tab may have changed others); return them."""
        settings = self.load_settings().replace(**changes)
        self.save_settings(settings)
        return settings

    def load_stats(self) -> Stats:
        """Return the stored stats (empty when none; a damaged record is reported and moved aside)."""
        text = self.get(STATS_KEY)
        if text is None:
            return Stats()
        try:
            return stats_from_json(saves.load_record(text, "stats"))
        except saves.SaveError as exc:
            self.move_aside(STATS_KEY, text, f"Your stats could not be read. {exc.message}")
        except (ValueError, KeyError, TypeError) as exc:
            self.move_aside(STATS_KEY, text, f"Your stats are damaged ({exc}).")
        return Stats()

    def save_stats(self, stats: Stats) -> bool:
        """Store the stats."""
        return self.set(STATS_KEY, saves.dump_record("stats", stats.to_json()))

    def update_stats(self, change: Callable[[Stats], T]) -> tuple[Stats, T]:
        """Apply ``change`` to the stats as stored now and store them when it returns a true value.

        Each tab's results are added to what every tab has stored (merged, never overwritten with a
        tab's own older copy), and stats cleared elsewhere stay cleared. Returns (stats, change's value).
        """
        stats = self.load_stats()
        result = change(stats)
        if result:
            self.save_stats(stats)
        return stats, result

    def broken(self) -> list[str]:
        """Return the keys of the records kept aside."""
        return self.keys(saves.PREFIX + "broken:")

    # -- your data: export and import -------------------------------------------------------------
    def export_items(self) -> dict[str, str]:
        """Return every stored Boneyard record (key -> exact text)."""
        items = {}
        for key in self.keys():
            text = self.get(key)
            if text is not None:
                items[key] = text
        return items

    def export_text(self) -> str:
        """Return the text of a backup file holding everything stored."""
        return saves.dump_backup(self.export_items(), self.clock())

    def used_chars(self) -> int:
        """Return how many characters the stored Boneyard records take (keys and texts)."""
        return sum(len(key) + len(text) for key, text in self.export_items().items())

    def read_backup(self, text: Any, rebuild: Callable[[str, dict[str, Any]], Any]) -> ImportPreview:
        """Check a backup file and describe it; raise saves.SaveError saying why it cannot be imported.

        Every saved game in it must rebuild (``rebuild(game, state)``, as for resuming), its settings and
        stats must read, and nothing in it may come from a newer version; records kept aside are taken
        as they are (they were unreadable when they were put aside).
        """
        backup = saves.load_backup(text)
        preview = ImportPreview(backup)
        for key, item in backup.items.items():
            if key.startswith(SAVE_PREFIX):
                game_id = key.removeprefix(SAVE_PREFIX)
                built: list[Any] = []

                def keep(game: str, state: dict[str, Any], built: list[Any] = built) -> None:
                    built.append(rebuild(game, state))

                try:
                    save = saves.load_save(item, expected_game=game_id, validate=keep)
                except saves.SaveError as exc:
                    raise saves.SaveError(
                        "newer" if exc.kind == "newer" else "corrupt",
                        f"A saved game in this backup: {exc.message}",
                    ) from None
                preview.games.append((game_id, built[0]))
                preview.saved_at[game_id] = save.saved_at
            elif key == SETTINGS_KEY:
                preview.settings = settings_from_json(self._record(item, "settings"))
            elif key == STATS_KEY:
                try:
                    preview.stats = stats_from_json(self._record(item, "stats"))
                except (ValueError, KeyError, TypeError) as exc:
                    if isinstance(exc, saves.SaveError):
                        raise
                    raise saves.SaveError(
                        "corrupt", f"The stats in this backup are damaged ({exc})."
                    ) from None
            elif key.startswith(BROKEN_PREFIX):
                preview.aside.append(key)
            else:
                preview.other.append(key)
            stored = self.get(key)
            if stored is None:
                continue
            if stored == item:
                preview.unchanged += 1
            else:
                preview.replaces.append(key)
        return preview

    @staticmethod
    def _record(text: str, kind: str) -> dict[str, Any]:
        try:
            return saves.load_record(text, kind)
        except saves.SaveError as exc:
            raise saves.SaveError(
                "newer" if exc.kind == "newer" else "corrupt", f"This backup's {kind}: {exc.message}"
            ) from None

    def import_backup(self, preview: ImportPreview) -> list[str] | None:
        """Store a checked backup; keep each record it replaces aside; return their new keys.

        Returns None when storage could not take it all; then everything is put back as it was.
        """
        when = self.clock()
        written: list[tuple[str, str | None]] = []  # (key, its text before) in the order written
        aside: list[str] = []
        for key in preview.replaces:
            old = self.get(key)
            if old is None:
                continue
            copy = saves.broken_key(when, key)
            if not self._try_set(copy, old):
                self._undo(written)
                return None
            written.append((copy, None))
            aside.append(copy)
        for key, text in preview.backup.items.items():
            old = self.get(key)
            if old == text:
                continue
            if not self._try_set(key, text):
                self._undo(written)
                return None
            written.append((key, old))
        return aside

    def _try_set(self, key: str, text: str) -> bool:
        try:
            self.backend.setItem(key, text)
        except Exception:
            return False
        return True

    def _undo(self, written: list[tuple[str, str | None]]) -> None:
        for key, old in reversed(written):
            if old is None:
                self.remove(key)
            else:
                self._try_set(key, old)
