"""Classic scripts the page adds only when asked (js/online.js for a room, js/identity.js for a key), so
no screen that does not need them loads them or contacts anyone."""

from __future__ import annotations

import asyncio
from typing import Any

from pyodide.ffi import create_once_callable, jsnull
from pyscript import document, window

__all__ = ["global_of", "load_script"]


def global_of(name: str) -> Any:
    """Return ``window[name]``, or None while the script that defines it has not run."""
    found = getattr(window, name, None)
    return None if found is None or found is jsnull else found


async def load_script(src: str, script_id: str, name: str) -> Any:
    """Add the script ``src`` once and return the ``window[name]`` it defines (None when it cannot load).

    A second caller while the first waits finds the element and waits for the global, rather than
    adding the script twice."""
    found = global_of(name)
    if found is not None:
        return found
    if document.getElementById(script_id) in (None, jsnull):
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        script = document.createElement("script")
        script.id = script_id
        script.src = src

        def settle(ok: bool) -> None:
            if not done.done():
                done.set_result(ok)

        script.addEventListener("load", create_once_callable(lambda _e: settle(True)))
        script.addEventListener("error", create_once_callable(lambda _e: settle(False)))
        document.head.appendChild(script)
        if not await done:
            return None
    for _ in range(200):  # another call added the script: wait for it to run
        if global_of(name) is not None:
            break
        await asyncio.sleep(0.05)
    return global_of(name)
