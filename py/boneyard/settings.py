"""The player's settings: defaults, validation and their stored form.

Unknown keys are dropped and bad values fall back to their defaults one by one, so a settings record
from an older or newer version keeps every value that still makes sense.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any
from urllib.parse import urlsplit

THEMES = ("felt", "light", "dark", "auto")
THEME_LABELS = {"felt": "Felt (green table)", "light": "Light", "dark": "Dark", "auto": "Follow the system"}
ANIMATIONS = ("system", "on", "off")
ANIMATION_LABELS = {"system": "Follow the system", "on": "On", "off": "Off"}
SPEEDS = ("relaxed", "normal", "fast")
SPEED_LABELS = {"relaxed": "Relaxed", "normal": "Normal", "fast": "Fast"}
MAX_NAME = 24
# Settings > Online: the PeerJS broker that introduces the players of a room (an empty host: PeerJS's
# public broker), and the STUN/TURN servers their browsers use to find a way to each other.
ONLINE_ICE = ("default", "none")
ONLINE_ICE_LABELS = {
    "default": "PeerJS's public STUN/TURN servers",
    "none": "None (players on one network only)",
}
QUICK_WAITS = (5, 10, 20, 30)  # quick match: seconds before computers take the empty seats
DEFAULT_PORT = 443
DEFAULT_PATH = "/"
DEFAULT_KEY = "peerjs"
_HOST = re.compile(
    r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"
)
_IPV6 = re.compile(r"\[[0-9a-f:.]{2,45}\]$")
_PATH = re.compile(r"/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,199}$")
_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}$")


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
    online_host: str = ""  # the PeerJS broker's host name or address; "" = PeerJS's public broker
    online_port: int = DEFAULT_PORT
    online_path: str = DEFAULT_PATH
    online_secure: bool = True  # wss:// and https:// to the broker
    online_key: str = DEFAULT_KEY  # the broker's API key (``peer --key``)
    online_ice: str = "default"  # STUN/TURN servers: ONLINE_ICE
    quick_wait: int = 10  # quick match: seconds before computers take the empty seats (QUICK_WAITS)

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

    def online_config(self) -> dict[str, Any]:
        """Return the broker config that js/online.js takes (``BoneyardNet.host/join``), JSON-ready.

        ``{}`` is PeerJS's public broker with its public STUN/TURN servers; ``iceServers: []`` leaves the
        browsers their host candidates only (one network, or the tests' loopback)."""
        config: dict[str, Any] = {}
        if self.online_host:
            config = {
                "host": self.online_host,
                "port": self.online_port,
                "path": self.online_path,
                "secure": self.online_secure,
                "key": self.online_key,
            }
        if self.online_ice == "none":
            config["iceServers"] = []
        return config

    def online_broker(self) -> str:
        """Return the broker in words: ``PeerJS's public broker`` or its address (``wss://host:port/path``)."""
        if not self.online_host:
            return "PeerJS's public broker"
        scheme = "wss" if self.online_secure else "ws"
        default = 443 if self.online_secure else 80
        port = "" if self.online_port == default else f":{self.online_port}"
        return f"{scheme}://{self.online_host}{port}{self.online_path}"


def clean_name(value: Any) -> str:
    """Return a player name: trimmed, single-spaced, at most MAX_NAME characters, never empty."""
    if not isinstance(value, str):
        return Settings.name
    name = " ".join(value.split())[:MAX_NAME].strip()
    return name or Settings.name


def clean_host(value: Any) -> str:
    """Return a broker host name or address, lowercased, or "" (PeerJS's public broker) if it is not one."""
    if not isinstance(value, str):
        return ""
    host = value.strip().lower().rstrip(".")
    return host if _HOST.match(host) or _IPV6.match(host) else ""


def clean_port(value: Any, default: int = DEFAULT_PORT) -> int:
    """Return a TCP port (1-65535) from an int or a string of digits, else ``default``."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535:
        return value
    return default


def clean_path(value: Any) -> str:
    """Return the broker's path, starting with "/" (added if missing), else "/"."""
    if not isinstance(value, str) or not value.strip():
        return DEFAULT_PATH
    path = value.strip()
    path = path if path.startswith("/") else "/" + path
    return path if _PATH.match(path) else DEFAULT_PATH


def clean_key(value: Any) -> str:
    """Return the broker's API key (letters, digits, ``_.-``; at most 64), else ``peerjs``."""
    if isinstance(value, str) and _KEY.match(value.strip()):
        return value.strip()
    return DEFAULT_KEY


def split_broker_url(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return ``data`` with a broker URL typed as the host (``https://x:9000/peer``) split into its parts."""
    host = data.get("online_host")
    if not isinstance(host, str) or "://" not in host:
        return data
    try:
        url = urlsplit(host.strip())
        port = url.port
    except ValueError:
        return {**data, "online_host": ""}
    secure = url.scheme.lower() in ("https", "wss")
    return {
        **data,
        "online_host": url.hostname or "",
        "online_secure": secure,
        "online_port": port or (443 if secure else 80),
        "online_path": url.path or DEFAULT_PATH,
    }


def settings_from_json(data: Mapping[str, Any] | None) -> Settings:
    """Build Settings from stored data, keeping each valid value and defaulting the rest."""
    data = split_broker_url(data) if isinstance(data, Mapping) else {}
    defaults = Settings()
    values: dict[str, Any] = {}
    for f in fields(Settings):
        value = data.get(f.name, getattr(defaults, f.name))
        if f.name == "name":
            value = clean_name(value)
        elif f.name in ("suggestions", "sound", "hints", "place_at_once", "online_secure"):
            value = value if isinstance(value, bool) else getattr(defaults, f.name)
        elif f.name == "speed":
            value = value if value in SPEEDS else defaults.speed
        elif f.name == "theme":
            value = value if value in THEMES else defaults.theme
        elif f.name == "animations":
            if value is True or value is False:  # an early form stored a bool
                value = "on" if value else "off"
            value = value if value in ANIMATIONS else defaults.animations
        elif f.name == "online_host":
            value = clean_host(value)
        elif f.name == "online_port":
            value = clean_port(value)
        elif f.name == "online_path":
            value = clean_path(value)
        elif f.name == "online_key":
            value = clean_key(value)
        elif f.name == "online_ice":
            value = value if value in ONLINE_ICE else defaults.online_ice
        elif f.name == "quick_wait":
            value = clean_port(value, defaults.quick_wait)  # a whole number, as typed or stored
            value = value if value in QUICK_WAITS else defaults.quick_wait
        values[f.name] = value
    return Settings(**values)
