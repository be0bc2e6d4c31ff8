"""A fake page for the app: the ``ui.ports.Port`` the CPython tests give a real ``App``.

It keeps the page as a small element tree parsed from the markup the app shows (``html.parser``), an
in-memory localStorage with a quota, a manual clock with a timer queue, and its own asyncio loop, which
``settle`` runs until nothing is left to do: the computer's turns, the merged renders, the toasts'
timers all run to completion, deterministically, without waiting for real time. A test clicks, types,
presses keys and changes the address through it, as a player would.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from ui.ports import ChosenFile, Event

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class QuotaExceededError(Exception):
    """Stands in for the browser's DOMException of a full localStorage."""

    name = "QuotaExceededError"


class FakeStorage:
    """localStorage in memory, shared by the tabs (pages) opened over it; ``quota`` (characters of keys
    and values) makes it fill up. A tab's write reaches the other tabs as a storage event."""

    def __init__(self, items: dict[str, str] | None = None, quota: int | None = None) -> None:
        self.items: dict[str, str] = dict(items or {})
        self.quota = quota
        self.tabs: list[FakePort] = []

    def written(self, key: str | None, by: FakePort | None) -> None:
        """Tell every other tab that ``key`` changed (None: everything was cleared)."""
        for tab in self.tabs:
            if tab is not by:
                tab.later(0, lambda tab=tab: tab.fire(Event("storage", storage_key=key)))

    def clear(self) -> None:
        """Clear everything, as the player clearing the site's data in some tab."""
        self.items.clear()
        self.written(None, None)


class TabStorage:
    """One tab's localStorage: the shared items, and its writes told to the other tabs."""

    def __init__(self, shared: FakeStorage, tab: FakePort) -> None:
        self.shared = shared
        self.tab = tab

    @property
    def length(self) -> int:
        return len(self.shared.items)

    def key(self, index: int) -> str | None:
        keys = list(self.shared.items)
        return keys[index] if 0 <= index < len(keys) else None

    def getItem(self, key: str) -> str | None:
        return self.shared.items.get(key)

    def setItem(self, key: str, value: str) -> None:
        items, quota = self.shared.items, self.shared.quota
        if quota is not None:
            others = sum(len(k) + len(v) for k, v in items.items() if k != key)
            if others + len(key) + len(value) > quota:
                raise QuotaExceededError("The quota has been exceeded.")
        if items.get(key) != value:
            items[key] = str(value)
            self.shared.written(key, self.tab)

    def removeItem(self, key: str) -> None:
        if self.shared.items.pop(key, None) is not None:
            self.shared.written(key, self.tab)


@dataclass(eq=False)
class Element:
    """An element of the fake page (or a text node: ``tag`` "#text" with ``data``)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element] = field(default_factory=list)
    parent: Element | None = None
    data: str = ""

    def walk(self) -> Iterator[Element]:
        """Yield this element's descendant elements, in document order."""
        for child in self.children:
            if child.tag != "#text":
                yield child
                yield from child.walk()

    @property
    def text(self) -> str:
        """Return the text inside, as textContent does."""
        return "".join(c.data if c.tag == "#text" else c.text for c in self.children)

    @property
    def id(self) -> str:
        return self.attrs.get("id", "")

    def has_class(self, name: str) -> bool:
        return name in self.attrs.get("class", "").split()

    def closest(self, selector: str) -> Element | None:
        """Return this element or its nearest ancestor that matches, as Element.closest does."""
        node: Element | None = self
        while node is not None and node.tag != "#root":
            if matches(node, selector):
                return node
            node = node.parent
        return None

    def append(self, child: Element) -> None:
        child.parent = self
        self.children.append(child)


class _Builder(HTMLParser):
    def __init__(self, root: Element) -> None:
        super().__init__(convert_charrefs=True)
        self.stack = [root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: "" if v is None else v for k, v in attrs})
        self.stack[-1].append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].append(Element(tag, {k: "" if v is None else v for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].append(Element("#text", data=data))


def parse_into(parent: Element, html: str) -> None:
    """Parse ``html`` and append its nodes to ``parent``."""
    builder = _Builder(parent)
    builder.feed(html)
    builder.close()


_COMPOUND = re.compile(
    r"([a-z0-9]+)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:=\"([^\"]*)\"|='([^']*)'|=([\w-]+))?\]"
)


def _compounds(selector: str) -> list[str]:
    """Split a selector on its descendant combinators (spaces outside brackets)."""
    parts, depth, current = [], 0, ""
    for char in selector.strip():
        depth += char == "["
        depth -= char == "]"
        if char == " " and depth == 0:
            if current:
                parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current] if current else parts


def _matches_one(element: Element, compound: str) -> bool:
    pos = 0
    for found in _COMPOUND.finditer(compound):
        if found.start() != pos:
            raise ValueError(f"the fake page does not read the selector {compound!r}")
        pos = found.end()
        tag, id_, cls, name, quoted, single, bare = found.groups()
        if tag and element.tag != tag:
            return False
        if id_ and element.id != id_:
            return False
        if cls and not element.has_class(cls):
            return False
        if name:
            value = next((v for v in (quoted, single, bare) if v is not None), None)
            if name not in element.attrs or (value is not None and element.attrs[name] != value):
                return False
    if pos != len(compound):
        raise ValueError(f"the fake page does not read the selector {compound!r}")
    return True


def matches(element: Element, selector: str) -> bool:
    """Tell whether an element matches a selector: compounds of tag, #id, .class and [attr="v"], with
    descendant combinators, and selector lists (commas)."""
    for one in selector.split(","):
        *ancestors, last = _compounds(one)
        if not _matches_one(element, last):
            continue
        node = element.parent
        for compound in reversed(ancestors):
            while node is not None and not (node.tag != "#root" and _matches_one(node, compound)):
                node = node.parent
            if node is None:
                break
            node = node.parent
        else:
            return True
    return False


class FakePort:
    """The app's port over a fake page (see the module's docstring)."""

    def __init__(self, storage: FakeStorage | None = None, hash_: str = "#/", search: str = "") -> None:
        self.storage = storage if storage is not None else FakeStorage()
        self.storage.tabs.append(self)
        self.hash = hash_
        self.search = search
        self.root = Element("#root")
        self.app_box = Element("div", {"id": "app", "hidden": ""})
        self.toast_box = Element("div", {"id": "toasts"})
        self.root.append(self.app_box)
        self.root.append(self.toast_box)
        self.focused: Element | None = None
        self.title = ""
        self.root_attrs: dict[str, str] = {}
        self.media_answers: dict[str, bool] = {}
        self.announced: list[str] = []
        self.toasts: list[tuple[str, str]] = []  # every toast shown: (kind, its text)
        self.downloads: list[tuple[str, str, str]] = []
        self.clipboard = ""  # the text copy_text put there
        self.clipboard_refused = False  # a browser that refuses the clipboard
        self.booted: list[str] = []
        self.logged: list[tuple[str, str]] = []
        self.room_port: Any = None  # what an online room gets (tests/screens/online_pages.py has one)
        self.ident: Any = None  # the browser's key pair (tests.identity.FakeIdentity), made when first asked
        self.reloads = 0
        self.clipboard: list[str] = []  # every text copied
        self.clipboard_refused = False  # the browser refuses to copy (a test sets it)
        self.shows = 0
        self.chosen: ChosenFile | None = None
        self.persistent: bool | None = False  # None: no Storage API
        self.storage_estimate: tuple[int, int | None] | None = (1000, 10_000_000)
        self.dialogs: dict[str, Callable[[], None]] = {}
        self.clock = 1000.0
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self.order = itertools.count()
        self.micro: deque[Callable[[], None]] = deque()
        self.loop = asyncio.new_event_loop()
        self.handle: Callable[[Event], bool] | None = None

    def close(self) -> None:
        """Cancel what still runs and close the loop (the tab is closed)."""
        if self in self.storage.tabs:
            self.storage.tabs.remove(self)
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        self._step()
        self.loop.close()

    # -- the port ------------------------------------------------------------------------------------
    def show(self, html: str, hold: Sequence[str] = ()) -> None:
        self.shows += 1
        focused = self.focused
        was_inside = focused is not None and self.attached(focused) and focused.closest("#app") is not None
        for child in self.app_box.children:
            child.parent = None  # gone from the page, as the nodes js/morph.js does not keep
        self.app_box.children = []
        parse_into(self.app_box, html)
        if was_inside and focused is not None:
            # The morph keeps a node whose id stays, and with it the focus; else the focus drops to the body.
            self.focused = self.find(f"#{focused.id}") if focused.id else None

    def held_class(self, element_id: str) -> str | None:
        return None  # the fake page replaces its markup whole: nothing is held

    def release(self, element_id: str) -> None:
        pass

    def reveal(self) -> None:
        self.app_box.attrs.pop("hidden", None)

    def board_size(self) -> tuple[int, int] | None:
        return (640, 420) if self.find("#table-board") is not None else None

    def exists(self, selector: str) -> bool:
        return self.find(selector) is not None

    def attr(self, selector: str, name: str) -> str | None:
        element = self.find(selector)
        return None if element is None else element.attrs.get(name)

    def value(self, selector: str) -> str | None:
        element = self.find(selector)
        return None if element is None else element.attrs.get("value", "")

    def disabled(self, selector: str) -> bool:
        element = self.find(selector)
        return element is not None and "disabled" in element.attrs

    def text_of(self, selector: str) -> str | None:
        element = self.find(selector)
        return None if element is None else element.text

    def set_text(self, selector: str, text: str) -> None:
        element = self.find(selector)
        if element is not None:
            element.children = []
            element.append(Element("#text", data=text))

    def set_attr(self, selector: str, name: str, value: str) -> None:
        element = self.find(selector)
        if element is not None:
            element.attrs[name] = value

    def set_progress(self, selector: str, percent: int) -> None:
        self.set_attr(selector, "value", str(percent))

    def remove(self, selector: str) -> None:
        element = self.find(selector)
        if element is not None and element.parent is not None:
            element.parent.children.remove(element)
            element.parent = None

    def click(self, selector: str) -> None:
        self._click(self.get(selector))

    def focus(self, selector: str, *, keep_scroll: bool = False) -> bool:
        element = self.find(selector)
        if element is not None:
            self.focused = element
        return element is not None

    def focused_id(self) -> str | None:
        """Return the id of the focused element (the tests ask; the app asks only ``focus_within``)."""
        element = self.focused
        return element.id or None if element is not None and self.attached(element) else None

    def focus_within(self, selector: str) -> bool:
        element = self.focused
        return element is not None and self.attached(element) and element.closest(selector) is not None

    def scroll_top(self) -> None:
        pass

    def set_title(self, title: str) -> None:
        self.title = title

    def set_root_attr(self, name: str, value: str) -> None:
        self.root_attrs[name] = value

    def media(self, query: str) -> bool:
        return self.media_answers.get(query, False)

    def announce(self, message: str) -> None:
        self.announced.append(message)

    def add_toast(self, toast_id: str, kind: str, role: str, html: str) -> None:
        box = Element("div", {"id": toast_id, "class": f"toast toast-{kind}", "role": role})
        self.toast_box.append(box)
        parse_into(box, html)
        paragraph = next((e for e in box.walk() if e.tag == "p"), box)
        self.toasts.append((kind, paragraph.text))

    def open_dialog(self, html: str, on_close: Callable[[], None]) -> None:
        before = len(self.root.children)
        parse_into(self.root, html)
        for dialog in self.root.children[before:]:
            self.dialogs[dialog.id] = on_close

    def close_dialog(self, selector: str) -> None:
        dialog = self.find(selector)
        if dialog is not None:
            self.dialogs.pop(dialog.id, lambda: None)()

    def animate(self, enabled: bool) -> int:
        return 0

    async def settled(self) -> None:
        return None

    def location_hash(self) -> str:
        return self.hash

    def location_search(self) -> str:
        return self.search

    def page_address(self) -> str:
        return "https://boneyard.example/"

    def copy_text(self, text: str) -> bool:
        if self.clipboard_refused:
            return False
        self.clipboard.append(text)
        return True

    def set_hash(self, hash_: str) -> None:
        if hash_ != self.hash:
            self.hash = hash_
            self.later(0, lambda: self.fire(Event("hashchange")))  # the page's event comes as a task

    def replace_hash(self, hash_: str) -> None:
        self.hash = hash_

    def reload(self) -> None:
        self.reloads += 1

    def local_storage(self) -> TabStorage:
        return TabStorage(self.storage, self)

    async def persisted(self) -> bool | None:
        return self.persistent

    async def persist(self) -> bool | None:
        if self.persistent is None:
            return None
        self.persistent = True
        return True

    async def estimate(self) -> tuple[int, int | None] | None:
        return self.storage_estimate

    def download(self, name: str, text: str, mime: str) -> None:
        self.downloads.append((name, text, mime))

    def chosen_file(self, selector: str) -> ChosenFile | None:
        chosen, self.chosen = self.chosen, None
        return chosen

    def now(self) -> float:
        return self.clock

    async def sleep(self, seconds: float) -> None:
        done: asyncio.Future[None] = self.loop.create_future()
        self.later(seconds, lambda: done.done() or done.set_result(None))
        await done

    def later(self, seconds: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self.timers, (self.clock + max(0.0, seconds), next(self.order), fn))

    def soon(self, fn: Callable[[], None]) -> None:
        self.micro.append(fn)

    def spawn(self, coro: Awaitable[None]) -> asyncio.Future[Any]:
        return asyncio.ensure_future(coro, loop=self.loop)

    def boot(self, step: str) -> None:
        self.booted.append(step)

    def log(self, level: str, message: str) -> None:
        self.logged.append((level, message))

    def online(self) -> Any:
        if self.room_port is None:
            raise RuntimeError("this fake page has no network: set its room_port")
        return self.room_port

    def identity(self) -> Any:
        if self.ident is None:
            from tests.identity import FakeIdentity

            self.ident = FakeIdentity("Player")
        return self.ident

    def page_module(self, name: str) -> Any:
        raise ImportError(f"ui.browser.{name} exists only in the page")

    # -- running ---------------------------------------------------------------------------------------
    def attach(self, handle: Callable[[Event], bool]) -> None:
        """Hand the page's events to ``handle`` (the app's), as the page's port does."""
        self.handle = handle

    def fire(self, event: Event) -> bool:
        """Hand one event to the app now; return its answer (True: the page's default is prevented)."""
        assert self.handle is not None, "attach the app first"
        return self.handle(event)

    def _step(self) -> None:
        """Run one turn of the loop: the callbacks ready now (the tasks woken)."""
        self.loop.call_soon(self.loop.stop)
        self.loop.run_forever()

    def settle(self, seconds: float = 600.0) -> None:
        """Run everything due (merged renders, tasks, timers), advancing the clock up to ``seconds``."""
        limit = self.clock + seconds
        for _ in range(200_000):
            if self.micro:
                self.micro.popleft()()
                continue
            if self.loop._ready:  # type: ignore[attr-defined]  # tasks to run now (asyncio's own queue)
                self._step()
                continue
            if self.timers and self.timers[0][0] <= self.clock:
                heapq.heappop(self.timers)[2]()
                self._step()
                continue
            if self.timers and self.timers[0][0] <= limit:
                self.clock = self.timers[0][0]
                continue
            return
        raise AssertionError("the page never settled")

    def tick(self) -> None:
        """Run only what is due at the end of this tick (merged renders), without the clock moving."""
        while self.micro:
            self.micro.popleft()()

    # -- finding -----------------------------------------------------------------------------------------
    def attached(self, element: Element) -> bool:
        node: Element | None = element
        while node is not None and node is not self.root:
            node = node.parent
        return node is self.root

    def find_all(self, selector: str) -> list[Element]:
        return [e for e in self.root.walk() if matches(e, selector)]

    def find(self, selector: str) -> Element | None:
        return next((e for e in self.root.walk() if matches(e, selector)), None)

    def get(self, selector: str) -> Element:
        element = self.find(selector)
        assert element is not None, f"no {selector} on the page: {self.text()[:400]!r}"
        return element

    def text(self, selector: str = "#app") -> str:
        """Return the text of the app (or of an element), spaces squeezed."""
        element = self.find(selector)
        return "" if element is None else " ".join(element.text.split())

    def actions(self, action: str) -> list[Element]:
        """Return the elements of one ``data-action``."""
        return self.find_all(f'[data-action="{action}"]')

    # -- the player -------------------------------------------------------------------------------------------
    @staticmethod
    def _event(kind: str, element: Element, own_id: str = "", **more: Any) -> Event:
        data = {k: v for k, v in element.attrs.items() if k.startswith("data-")}
        return Event(
            kind,
            action=data.get("data-action", ""),
            value=data.get("data-value", ""),
            id=own_id or element.id,
            tag=element.tag,
            type=element.attrs.get("type", ""),
            checked="checked" in element.attrs,
            text=element.attrs.get("value", ""),
            disabled="disabled" in element.attrs,
            attrs=data,
            **more,
        )

    def _click(self, element: Element) -> bool:
        target = element.closest("[data-action]")
        if target is None:
            return self.fire(Event("click", id=element.id))
        return self.fire(self._event("click", target, element.id))

    def press(self, selector: str) -> bool:
        """Click an element as the player would; run what follows; return the app's answer."""
        answer = self._click(self.get(selector))
        self.settle()
        return answer

    def press_action(self, action: str, value: str | None = None) -> bool:
        """Click the element of this ``data-action`` (and ``data-value``)."""
        selector = f'[data-action="{action}"]' + (f'[data-value="{value}"]' if value is not None else "")
        return self.press(selector)

    def follow(self, href: str) -> None:
        """Click the link to ``href`` (a link has no action: the address changes)."""
        self.get(f'a[href="{href}"]')
        self.go(href)

    def key(self, key: str, **mods: bool) -> bool:
        """Press a key with the focus where it is; run what follows."""
        focused = self.focused if self.focused is not None and self.attached(self.focused) else None
        tag = focused.tag if focused is not None else "body"
        answer = self.fire(Event("keydown", key=key, tag=tag, **mods))
        self.settle()
        return answer

    def change(self, selector: str, value: str | None = None, *, checked: bool | None = None) -> None:
        """Change a control (a select, a checkbox, a text field left) and run what follows."""
        element = self.get(selector)
        if value is not None:
            element.attrs["value"] = value
        if checked is not None:
            if checked:
                element.attrs["checked"] = ""
            else:
                element.attrs.pop("checked", None)
        self.fire(self._event("change", element))
        self.settle()

    def type(self, selector: str, text: str) -> None:
        """Type into a text field (input events, no change yet)."""
        element = self.get(selector)
        element.attrs["value"] = text
        self.fire(self._event("input", element))
        self.settle()

    def go(self, hash_: str) -> None:
        """Follow a link or type an address: the hash changes and the page says so."""
        self.hash = hash_
        self.fire(Event("hashchange"))
        self.settle()

    def choose_file(self, name: str, text: str) -> None:
        """Choose a file in the import input."""

        async def read() -> str:
            return text

        self.chosen = ChosenFile(name, len(text.encode()), read)
        self.fire(self._event("change", self.get('[data-import="file"]')))
        self.settle()
