"""How Boneyard's tests and benchmarks launch Chromium: Debian's build, headless, and quiet on the network.

The flags keep Chromium from reaching out on its own (updates, sync, background services), so every
request a page makes is one the page asked for. Where ``/usr/bin/chromium`` is missing, Playwright's own
browser is used instead (``make test`` installs one or the other).
"""

from __future__ import annotations

import os
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_options(**extra: Any) -> dict[str, Any]:
    """Return keyword arguments for Playwright's ``chromium.launch``."""
    options: dict[str, Any] = {"args": list(CHROMIUM_ARGS), "headless": True, **extra}
    if os.path.exists(CHROMIUM):
        options["executable_path"] = CHROMIUM
    return options
