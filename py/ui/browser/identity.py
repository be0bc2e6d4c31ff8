"""The player's key pair in the browser: ``window.BoneyardIdentity`` (js/identity.js) as a ``ui.ports.Identity``.

js/identity.js is a classic script the page adds only when something asks for the key (a rated table,
Settings' profile), as ``peer.py`` adds js/online.js. A call that the browser refuses (no IndexedDB in
some private windows) answers None, and the page plays unrated.
"""

from __future__ import annotations

import traceback
from typing import Any

from pyscript import window

from .scripts import load_script

__all__ = ["BrowserIdentity"]

SCRIPT = "js/identity.js"
SCRIPT_ID = "boneyard-identity-js"


async def _load() -> Any:
    """Load js/identity.js once; return window.BoneyardIdentity (None when it cannot load)."""
    return await load_script(SCRIPT, SCRIPT_ID, "BoneyardIdentity")


class BrowserIdentity:
    """The page's key pair through js/identity.js (see the module)."""

    async def _call(self, name: str, *args: str) -> Any:
        api = await _load()
        if api is None:
            return None
        try:
            return await getattr(api, name)(*args)
        except Exception:
            window.console.warn("Boneyard identity: " + traceback.format_exc())
            return None

    async def public_key(self) -> str | None:
        """Return our public key (the raw point, base64url)."""
        found = await self._call("publicKey")
        return str(found) if found is not None else None

    async def public_jwk(self) -> str | None:
        """Return our public key as a JWK's JSON text."""
        found = await self._call("publicJwk")
        return str(found) if found is not None else None

    async def sign(self, text: str) -> str | None:
        """Return our signature of ``text``."""
        found = await self._call("sign", text)
        return str(found) if found is not None else None

    async def verify(self, key: str, text: str, sig: str) -> bool:
        """Tell whether ``sig`` is ``key``'s signature of ``text``."""
        return bool(await self._call("verify", key, text, sig))


IDENTITY = BrowserIdentity()  # one per page: js/identity.js keeps one key for every tab
