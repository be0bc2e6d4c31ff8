"""The player's key pair in the browser: ``window.BoneyardIdentity`` (js/identity.js) as a ``ui.ports.Identity``.

js/identity.js is a classic script the page adds only when something asks for the key (a rated table,
Settings' profile), as ``peer.py`` adds js/online.js. A call that the browser refuses (no IndexedDB in
some private windows) answers None, and the page plays unrated.
"""

from __future__ import annotations

import asyncio
import traceback
from typing import Any

from pyodide.ffi import create_once_callable, jsnull
from pyscript import document, window

__all__ = ["BrowserIdentity"]

SCRIPT = "js/identity.js"
SCRIPT_ID = "boneyard-identity-js"


def _api() -> Any:
    """Return window.BoneyardIdentity, or None before js/identity.js has loaded."""
    api = getattr(window, "BoneyardIdentity", None)
    return None if api is None or api is jsnull else api


async def _load() -> Any:
    """Load js/identity.js once; return window.BoneyardIdentity (None when it cannot load)."""
    api = _api()
    if api is not None:
        return api
    if document.getElementById(SCRIPT_ID) in (None, jsnull):
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        script = document.createElement("script")
        script.id = SCRIPT_ID
        script.src = SCRIPT

        def settle(ok: bool) -> None:
            if not done.done():
                done.set_result(ok)

        script.addEventListener("load", create_once_callable(lambda _e: settle(True)))
        script.addEventListener("error", create_once_callable(lambda _e: settle(False)))
        document.head.appendChild(script)
        await done
    for _ in range(200):  # another call added the script: wait for it to run
        if _api() is not None:
            break
        await asyncio.sleep(0.05)
    return _api()


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
