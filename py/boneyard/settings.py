"""The player's settings: defaults, validation and their stored form.

Unknown keys are dropped and bad values fall back to their defaults one by one, so a settings record
from an older or newer version keeps every value that still makes sense.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

THEMES = ("felt", "light", "dark", "auto")
THEME_LABELS = {"felt": "Felt (green table)", "light": "Light", "dark": "Dark", "auto": "Follow the system"}
ANIMATIONS = ("system", "on", "off")
ANIMATION_LABELS = {"system": "Follow the system", "on": "On", "off": "Off"}
SPEEDS = ("relaxed", "normal", "fast")
SPEED_LABELS = {"relaxed": "Relaxed", "normal": "Normal", "fast": "Fast"}
MAX_NAME = 24


@dataclass(frozen=True)
class Settings:
    """What the Settings screen sets."""

    name: str = "Player"
    suggestions: bool = True  # mark the playable tiles
    theme: str = "felt"
    animations: str = "system"  # "system" honours prefers-reduced-motion
    sound: bool = True  # table sounds; nothing is created or played while off
    speed: str = "normal"  # how long the computer's moves stay on screen: SPEEDS
    hints: bool = True  # offer the Hint button at the tables
    place_at_once: bool = True  # Heptalion: a placement is made on its second space, without Confirm

    def to_json(self) -> dict[str, Any]:
        """Return the JSON-ready form."""
        return asdict(self)

    def animations_on(self, reduced_motion: bool) -> bool:
        """Tell whether to animate, given the system's reduced-motion preference."""
        if self.animations == "system":
            return not reduced_motion
        return self.animations == "on"

    def replace(self, **changes: Any) -> Settings:
        """Return a copy with ``changes`` applied and validated."""
        return settings_from_json({**self.to_json(), **changes})


def clean_name(value: Any) -> str:
    """Return a player name: trimmed, single-spaced, at most MAX_NAME characters, never empty."""
    if not isinstance(value, str):
        return Settings.name
    name = " ".join(value.split())[:MAX_NAME].strip()
    return name or Settings.name


def settings_from_json(data: Mapping[str, Any] | None) -> Settings:
    """Build Settings from stored data, keeping each valid value and defaulting the rest."""
    data = data if isinstance(data, Mapping) else {}
    defaults = Settings()
    values: dict[str, Any] = {}
    for f in fields(Settings):
        value = data.get(f.name, getattr(defaults, f.name))
        if f.name == "name":
            value = clean_name(value)
        elif f.name in ("suggestions", "sound", "hints", "place_at_once"):
            value = value if isinstance(value, bool) else getattr(defaults, f.name)
        elif f.name == "speed":
            value = value if value in SPEEDS else defaults.speed
        elif f.name == "theme":
            value = value if value in THEMES else defaults.theme
        elif f.name == "animations":
            if value is True or value is False:  # an early form stored a bool
                value = "on" if value else "off"
            value = value if value in ANIMATIONS else defaults.animations
        values[f.name] = value
    return Settings(**values)
