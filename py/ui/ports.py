"""What the app needs from the page: the ``Port`` it is given, and the plain events the page hands it.

The app (``ui.app``) never touches ``js``, ``pyscript`` or ``pyodide``: the page's port
(``ui.browser.dom.BrowserPort``) does, and CPython tests give the app a fake one (``tests/app/fakes.py``).
Elements are named by CSS selectors (``"#id"`` mostly), never held: the markup is replaced at every render.
Pure Python.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["ChosenFile", "Event", "Port", "StorageBackend", "install", "installed", "page_module"]


@dataclass(frozen=True)
class Event:
    """A page event as plain values (what the app reads of it; never a JS object).

    For a click, the element is the nearest one with ``data-action`` (``action`` is "" when there is
    none); for the other kinds it is the event's target. ``attrs`` holds its ``data-*`` attributes.
    """

    kind: str  # click, change, input, keydown, submit, hashchange, resize, storage, update-ready, pagehide
    action: str = ""  # data-action
    value: str = ""  # data-value
    id: str = ""  # the element's id (for a click: the clicked element's own id)
    tag: str = ""  # its tag name, lower case
    type: str = ""  # an input's type
    checked: bool = False
    text: str = ""  # an input's, select's or textarea's value
    disabled: bool = False
    attrs: Mapping[str, str] = field(default_factory=dict)
    key: str = ""  # the key pressed (keydown)
    ctrl: bool = False
    meta: bool = False
    alt: bool = False
    storage_key: str | None = None  # the key another tab wrote (storage); None: it cleared everything

    def attr(self, name: str) -> str | None:
        """Return one of the element's ``data-*`` attributes (``"data-setting"``), or None."""
        return self.attrs.get(name)


@dataclass(frozen=True)
class ChosenFile:
    """A file the player chose in a file input: its name, its size in bytes, and how to read its text."""

    name: str
    size: int
    read: Callable[[], Awaitable[str]]


class StorageBackend(Protocol):
    """What ``ui.storage.Storage`` uses of localStorage (absent keys read as None)."""

    @property
    def length(self) -> int: ...

    def key(self, index: int) -> str | None: ...

    def getItem(self, key: str) -> str | None: ...

    def setItem(self, key: str, value: str) -> None: ...

    def removeItem(self, key: str) -> None: ...


class Port(Protocol):
    """Everything the app asks of the page."""

    # -- the app's markup and what it measures -------------------------------------------------------
    def show(self, html: str, hold: Sequence[str] = ()) -> None:
        """Turn ``#app`` into the screen's markup, keeping the nodes that stay (js/morph.js); the elements
        whose ids ``hold`` names keep their old content until ``release``."""

    def held_class(self, element_id: str) -> str | None:
        """Return the class of the held element's waiting content, or None when nothing is held there."""

    def release(self, element_id: str) -> None:
        """Show a held element's newest content (nothing when it is not held)."""

    def reveal(self) -> None:
        """Show ``#app`` (hidden while the page boots)."""

    def board_size(self) -> tuple[int, int] | None:
        """Return the size of ``#table-board`` in pixels, or None when there is none."""

    # -- elements, by selector ------------------------------------------------------------------------
    def exists(self, selector: str) -> bool:
        """Tell whether an element matches."""

    def attr(self, selector: str, name: str) -> str | None:
        """Return an attribute of the first element that matches (None: no element or no attribute)."""

    def value(self, selector: str) -> str | None:
        """Return an input's value."""

    def disabled(self, selector: str) -> bool:
        """Tell whether the element is a disabled control (False when there is none)."""

    def text_of(self, selector: str) -> str | None:
        """Return the element's text, or None when there is none."""

    def set_text(self, selector: str, text: str) -> None:
        """Replace the element's text."""

    def set_attr(self, selector: str, name: str, value: str) -> None:
        """Set one attribute of the element."""

    def set_progress(self, selector: str, percent: int) -> None:
        """Move a ``<progress>`` bar (and its text)."""

    def remove(self, selector: str) -> None:
        """Remove the element from the page."""

    def click(self, selector: str) -> None:
        """Click the element, as the player would."""

    def focus(self, selector: str, *, keep_scroll: bool = False) -> bool:
        """Focus the element (without scrolling when ``keep_scroll``); False when there is none."""

    def focus_within(self, selector: str) -> bool:
        """Tell whether the focused element lies inside one that matches."""

    def scroll_top(self) -> None:
        """Scroll the page to its top."""

    # -- the document ---------------------------------------------------------------------------------
    def set_title(self, title: str) -> None:
        """Set document.title."""

    def set_root_attr(self, name: str, value: str) -> None:
        """Set an attribute of <html> (the theme, the motion setting, data-ready)."""

    def media(self, query: str) -> bool:
        """Tell whether a media query matches."""

    def announce(self, message: str) -> None:
        """Read a message out to screen readers (the live region)."""

    def add_toast(self, toast_id: str, kind: str, role: str, html: str) -> None:
        """Append a toast (``<div class="toast toast-KIND" id=...>``) to the toast area."""

    def open_dialog(self, html: str, on_close: Callable[[], None]) -> None:
        """Add a <dialog> to the body and show it modally; call ``on_close`` when it closes."""

    def close_dialog(self, selector: str) -> None:
        """Close a modal dialog (its ``on_close`` runs)."""

    def animate(self, enabled: bool) -> int:
        """Slide the tiles just played from where they came; return how many move."""

    async def settled(self) -> None:
        """Return once the slides ``animate`` started have ended."""

    # -- the address ------------------------------------------------------------------------------------
    def location_hash(self) -> str:
        """Return location.hash."""

    def location_search(self) -> str:
        """Return location.search."""

    def site_address(self) -> str:
        """Return the page's address without its query and hash (a link to a screen of this site starts so)."""

    def copy_text(self, text: str) -> bool:
        """Put a text on the clipboard; return False when the browser refused."""

    def set_hash(self, hash_: str) -> None:
        """Go to an address (a new history entry; the page answers with a hashchange event)."""

    def replace_hash(self, hash_: str) -> None:
        """Replace the address without a history entry or an event."""

    def reload(self) -> None:
        """Reload the page."""

    # -- storage, files, time ---------------------------------------------------------------------------
    def local_storage(self) -> StorageBackend:
        """Return localStorage."""

    async def persisted(self) -> bool | None:
        """Tell whether the site's storage is persistent (None: the browser cannot say)."""

    async def persist(self) -> bool | None:
        """Ask the browser to keep the site's storage (None: it cannot)."""

    async def estimate(self) -> tuple[int, int | None] | None:
        """Return the storage used and the quota in bytes (None: the browser cannot say)."""

    def download(self, name: str, text: str, mime: str) -> None:
        """Save a text file to the player's downloads."""

    def chosen_file(self, selector: str) -> ChosenFile | None:
        """Return the file chosen in a file input, and clear the input (so choosing it again reads it)."""

    def now(self) -> float:
        """Return a monotonic clock in seconds."""

    async def sleep(self, seconds: float) -> None:
        """Wait (other tasks and the page run meanwhile)."""

    def later(self, seconds: float, fn: Callable[[], None]) -> None:
        """Run ``fn`` once after ``seconds``."""

    def soon(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` at the end of this tick (before the page paints)."""

    def spawn(self, coro: Awaitable[None]) -> asyncio.Future[Any]:
        """Run a coroutine as a task; return it (an asyncio future)."""

    # -- the boot screen and the console ----------------------------------------------------------------
    def boot(self, step: str) -> None:
        """Call ``boneyardBoot``'s ``done``, ``update`` or ``install``."""

    def log(self, level: str, message: str) -> None:
        """Write to the console (``warn`` or ``error``)."""

    def online(self) -> Any:
        """Return the page as an online room sees it (a ``ui.online.net.OnlinePort``)."""

    def page_module(self, name: str) -> Any:
        """Return the page's half of a table screen (``ui.browser.NAME``); ImportError outside the page."""


_INSTALLED: list[Port] = []


def install(port: Port | None) -> None:
    """Make ``port`` the page's (modules outside the app reach it through ``installed``); None: no page."""
    _INSTALLED[:] = [] if port is None else [port]


def installed() -> Port | None:
    """Return the page's port, or None outside an app (a screen's test)."""
    return _INSTALLED[0] if _INSTALLED else None


def page_module(name: str) -> Any:
    """Return the browser half of a table screen (``ui.browser.NAME``: it binds the board, the canvas).

    The screens ask for it here instead of importing ``ui.browser`` (only the page's port does), so
    under CPython it raises ImportError, as the import did; one already imported (a test that loads it
    against a fake page) is returned as it is.
    """
    loaded = sys.modules.get(f"ui.browser.{name}")
    if loaded is not None:
        return loaded
    port = installed()
    if port is None:
        raise ImportError(f"ui.browser.{name} exists only in the page")
    return port.page_module(name)
