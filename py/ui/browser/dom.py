"""The page's port: the app's ``ui.ports.Port`` over the real DOM, localStorage, timers and boot object.

The only place the app's shell touches ``pyscript`` and ``pyodide``. It attaches the page's listeners
once and hands the app each event as plain values (``ports.Event``); ``start`` builds the app over it.
"""

from __future__ import annotations

import asyncio
import importlib
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy, jsnull, to_js
from pyscript import document, window

from .. import motion, sound
from ..ports import ChosenFile, Event
from . import audio, clipboard, slides

__all__ = ["BrowserPort", "LocalStorage", "start"]


def _js(value: Any) -> Any:
    """Return None for JS null and undefined (Pyodide gives ``jsnull`` for null), else the value."""
    return None if value is None or value is jsnull else value


def _attr(element: Any, name: str) -> str | None:
    value = _js(element.getAttribute(name))
    return None if value is None else str(value)


def _options(**values: Any) -> Any:
    """Return a JS object of these values."""
    return to_js(values, dict_converter=window.Object.fromEntries)


class LocalStorage:
    """window.localStorage with JS null read as None (what ``ui.storage.Storage`` expects)."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend

    @property
    def length(self) -> int:
        return int(self.backend.length)

    def key(self, index: int) -> str | None:
        value = _js(self.backend.key(index))
        return None if value is None else str(value)

    def getItem(self, key: str) -> str | None:
        value = _js(self.backend.getItem(key))
        return None if value is None else str(value)

    def setItem(self, key: str, value: str) -> None:
        self.backend.setItem(key, value)

    def removeItem(self, key: str) -> None:
        self.backend.removeItem(key)


def event_of(kind: str, event: Any) -> Event | None:
    """Return a DOM event as plain values (for a click: its nearest ``data-action`` element's)."""
    target = _js(getattr(event, "target", None))
    if target is None or not hasattr(target, "getAttribute"):
        return None
    own_id = _attr(target, "id") or ""
    if kind == "click":
        target = _js(target.closest("[data-action]"))
        if target is None:
            return Event(kind, id=own_id)
        slides.remember(target)  # where a played tile slides from (the clicked tile's box)
    attrs = {}
    for name in target.getAttributeNames():
        if str(name).startswith("data-"):
            attrs[str(name)] = str(target.getAttribute(name))
    text = _js(getattr(target, "value", None))
    return Event(
        kind,
        action=attrs.get("data-action", ""),
        value=attrs.get("data-value", ""),
        id=own_id,
        tag=str(getattr(target, "tagName", "")).lower(),
        type=str(_js(getattr(target, "type", None)) or ""),
        checked=bool(_js(getattr(target, "checked", None))),
        text="" if text is None else str(text),
        disabled=bool(target.hasAttribute("disabled")),
        attrs=attrs,
        key=str(_js(getattr(event, "key", None)) or ""),
        ctrl=bool(_js(getattr(event, "ctrlKey", None))),
        meta=bool(_js(getattr(event, "metaKey", None))),
        alt=bool(_js(getattr(event, "altKey", None))),
    )


class BrowserPort:
    """The app's port in the page."""

    def __init__(self) -> None:
        self._proxies: list[Any] = []
        sound.set_player(audio.play_notes)

    def attach(self, handle: Callable[[Event], bool]) -> None:
        """Listen to the page's events and hand each to ``handle`` (its True: no default action)."""

        def listener(kind: str) -> Any:
            def on_event(event: Any) -> None:
                try:
                    if kind in ("hashchange", "resize", "update-ready", "pagehide"):
                        plain: Event | None = Event(kind)
                    elif kind == "storage":
                        key = _js(event.key)
                        plain = Event(kind, storage_key=None if key is None else str(key))
                    else:
                        plain = event_of(kind, event)
                    if plain is not None and handle(plain):
                        event.preventDefault()
                    elif kind == "submit":
                        event.preventDefault()  # no form is ever sent anywhere
                except Exception:
                    self.log("error", "Boneyard: " + traceback.format_exc())

            proxy = create_proxy(on_event)
            self._proxies.append(proxy)
            return proxy

        for kind in ("click", "change", "input", "keydown", "submit"):
            document.addEventListener(kind, listener(kind))
        for kind in ("hashchange", "resize", "storage", "pagehide"):
            window.addEventListener(kind, listener(kind))
        window.addEventListener("boneyard:update-ready", listener("update-ready"))

    @staticmethod
    def _one(selector: str) -> Any:
        return _js(document.querySelector(selector))

    # -- the app's markup ---------------------------------------------------------------------------
    def show(self, html: str, hold: Sequence[str] = ()) -> None:
        root = document.getElementById("app")
        morph = _js(getattr(window, "boneyardMorph", None))
        if morph is None:  # js/morph.js did not load: the page is replaced whole, and works the same
            root.innerHTML = html
            return
        morph(root, html, to_js({"hold": list(hold)}, dict_converter=window.Object.fromEntries))

    def held_class(self, element_id: str) -> str | None:
        morph = _js(getattr(window, "boneyardMorph", None))
        held = None if morph is None else _js(morph.held(element_id))
        return None if held is None else str(held.className)

    def release(self, element_id: str) -> None:
        morph = _js(getattr(window, "boneyardMorph", None))
        if morph is not None:
            morph.release(element_id)

    def reveal(self) -> None:
        document.getElementById("app").hidden = False

    def board_size(self) -> tuple[int, int] | None:
        board = _js(document.getElementById("table-board"))
        return None if board is None else (int(board.clientWidth), int(board.clientHeight))

    # -- elements -----------------------------------------------------------------------------------------
    def exists(self, selector: str) -> bool:
        return self._one(selector) is not None

    def attr(self, selector: str, name: str) -> str | None:
        element = self._one(selector)
        return None if element is None else _attr(element, name)

    def value(self, selector: str) -> str | None:
        element = self._one(selector)
        return None if element is None else str(element.value)

    def disabled(self, selector: str) -> bool:
        element = self._one(selector)
        return element is not None and bool(element.disabled)

    def text_of(self, selector: str) -> str | None:
        element = self._one(selector)
        return None if element is None else str(element.textContent)

    def set_text(self, selector: str, text: str) -> None:
        element = self._one(selector)
        if element is not None:
            element.textContent = text

    def set_attr(self, selector: str, name: str, value: str) -> None:
        element = self._one(selector)
        if element is not None:
            element.setAttribute(name, value)

    def set_progress(self, selector: str, percent: int) -> None:
        element = self._one(selector)
        if element is not None:
            element.value = percent
            element.textContent = f"{percent}%"

    def remove(self, selector: str) -> None:
        element = self._one(selector)
        if element is not None:
            element.remove()

    def click(self, selector: str) -> None:
        element = self._one(selector)
        if element is not None:
            element.click()

    def focus(self, selector: str, *, keep_scroll: bool = False) -> bool:
        element = self._one(selector)
        if element is None:
            return False
        if keep_scroll:
            element.focus(_options(preventScroll=True))
        else:
            element.focus()
        return True

    def focus_within(self, selector: str) -> bool:
        focused = _js(document.activeElement)
        return focused is not None and _js(focused.closest(selector)) is not None

    def scroll_top(self) -> None:
        window.scrollTo(0, 0)

    # -- the document -----------------------------------------------------------------------------------
    def set_title(self, title: str) -> None:
        document.title = title

    def set_root_attr(self, name: str, value: str) -> None:
        document.documentElement.setAttribute(name, value)

    def media(self, query: str) -> bool:
        return bool(window.matchMedia(query).matches)

    def announce(self, message: str) -> None:
        announcer = _js(document.getElementById("announcer"))
        if announcer is not None:
            announcer.textContent = ""
            announcer.textContent = message

    def add_toast(self, toast_id: str, kind: str, role: str, html: str) -> None:
        item = document.createElement("div")
        item.id = toast_id
        item.className = f"toast toast-{kind}"
        item.setAttribute("role", role)
        item.innerHTML = html
        document.getElementById("toasts").appendChild(item)

    def open_dialog(self, html: str, on_close: Callable[[], None]) -> None:
        holder = document.createElement("div")
        holder.innerHTML = html
        dialog = holder.firstElementChild
        document.body.appendChild(dialog)
        proxy = create_proxy(lambda event: on_close())
        self._proxies.append(proxy)
        dialog.addEventListener("close", proxy)
        dialog.showModal()

    def close_dialog(self, selector: str) -> None:
        dialog = self._one(selector)
        if dialog is not None:
            dialog.close()

    def animate(self, enabled: bool) -> int:
        armed = motion.take_armed()  # taken even when animations are off: a later redraw never slides
        return slides.animate(document, enabled and armed)

    async def settled(self) -> None:
        await slides.settled()

    # -- the address ----------------------------------------------------------------------------------------
    def location_hash(self) -> str:
        return str(window.location.hash)

    def location_search(self) -> str:
        return str(window.location.search)

    def page_address(self) -> str:
        return str(window.location.href).split("#")[0].split("?")[0]

    def copy_text(self, text: str) -> bool:
        return clipboard.copy_text(text)

    def set_hash(self, hash_: str) -> None:
        window.location.hash = hash_

    def replace_hash(self, hash_: str) -> None:
        window.location.replace(hash_)

    def reload(self) -> None:
        window.location.reload()

    # -- storage, files, time ------------------------------------------------------------------------------
    def local_storage(self) -> LocalStorage:
        return LocalStorage(window.localStorage)

    @staticmethod
    def _storage_api(method: str) -> Any:
        """Return navigator.storage when it has ``method``, else None (older browsers, insecure pages)."""
        api = _js(getattr(window.navigator, "storage", None))
        return api if api is not None and hasattr(api, method) else None

    async def persisted(self) -> bool | None:
        api = self._storage_api("persisted")
        return None if api is None else bool(await api.persisted())

    async def persist(self) -> bool | None:
        api = self._storage_api("persist")
        return None if api is None else bool(await api.persist())

    async def estimate(self) -> tuple[int, int | None] | None:
        api = self._storage_api("estimate")
        if api is None:
            return None
        estimate = await api.estimate()
        return int(estimate.usage or 0), int(estimate.quota or 0) or None

    def download(self, name: str, text: str, mime: str) -> None:
        blob = window.Blob.new(to_js([text]), _options(type=mime))
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = name
        document.body.appendChild(link)
        link.click()
        link.remove()
        self.later(60.0, lambda: window.URL.revokeObjectURL(url))

    def chosen_file(self, selector: str) -> ChosenFile | None:
        element = self._one(selector)
        if element is None:
            return None
        files = _js(element.files)
        chosen = _js(files.item(0)) if files is not None and int(files.length) else None
        element.value = ""  # choosing the same file again reads it again
        if chosen is None:
            return None

        async def read() -> str:
            return str(await chosen.text())

        return ChosenFile(str(chosen.name), int(chosen.size), read)

    def now(self) -> float:
        return time.perf_counter()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def later(self, seconds: float, fn: Callable[[], None]) -> None:
        window.setTimeout(create_once_callable(fn), int(seconds * 1000))

    def soon(self, fn: Callable[[], None]) -> None:
        window.queueMicrotask(create_once_callable(fn))

    def spawn(self, coro: Awaitable[None]) -> asyncio.Future[Any]:
        return asyncio.ensure_future(coro)

    # -- the boot screen and the console ----------------------------------------------------------------
    def boot(self, step: str) -> None:
        getattr(window.boneyardBoot, step)()

    def log(self, level: str, message: str) -> None:
        getattr(window.console, level)(message)

    def online(self) -> Any:
        from .peer import RoomPort

        return RoomPort()

    def identity(self) -> Any:
        from .identity import IDENTITY

        return IDENTITY

    def page_module(self, name: str) -> Any:
        load = PAGE_MODULES.get(name)
        if load is None:
            raise ImportError(f"no ui.browser.{name}")
        return load()


# The table screens' browser halves (``ports.page_module``), each imported on its table's first render.
PAGE_MODULES: dict[str, Callable[[], Any]] = {
    "board_watch": lambda: importlib.import_module("ui.browser.board_watch"),
    "bonefall_canvas": lambda: importlib.import_module("ui.browser.bonefall_canvas"),
    "heptalion_dom": lambda: importlib.import_module("ui.browser.heptalion_dom"),
    "triangles_board": lambda: importlib.import_module("ui.browser.triangles_board"),
}


def start() -> None:
    """Build the app over the page's port and show it (called by main.py)."""
    from ..app import App, check_modules

    try:
        window.boneyardBoot.stage("Setting the table…", 94)
        port = BrowserPort()
        app = App(port)
        window.boneyardCheckModules = create_proxy(check_modules)
        window.boneyardOnlineMove = create_proxy(app.online_move)
        port.attach(app.handle)
        app.mount()
    except Exception as exc:
        window.console.error("Boneyard: " + traceback.format_exc())
        window.boneyardBoot.fail(f"Boneyard could not start: {exc}")
        raise
