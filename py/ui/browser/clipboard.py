"""The clipboard, for every Copy on the page (a room's join link, a challenge or replay link, the Daily's
result): one way, so each answers the same."""

from __future__ import annotations

from pyodide.ffi import jsnull, to_js
from pyscript import document, window

__all__ = ["copy_text"]


def copy_text(text: str) -> bool:
    """Put a text on the clipboard; return False when the browser refused.

    A selected field and execCommand answer at once, inside the click (the Clipboard API answers later,
    and not at all on a page opened from a file); the focus goes back where it was."""
    was = document.activeElement
    field = document.createElement("textarea")
    field.value = text
    field.setAttribute("readonly", "")
    field.style.position = "fixed"
    field.style.opacity = "0"
    document.body.appendChild(field)
    field.select()
    try:
        copied = bool(document.execCommand("copy"))
    except Exception:
        copied = False
    field.remove()
    if was is not None and was is not jsnull:
        was.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
    return copied
