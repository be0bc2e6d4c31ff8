"""The app's tests: a real ``App`` over the fake page (``tests/app/fakes.py``), under CPython."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.app.fakes import FakePort, FakeStorage
from ui import ports
from ui.app import App

Open = Callable[..., tuple[App, FakePort]]


@pytest.fixture
def open_app() -> Iterator[Open]:
    """Return ``open(storage=None, hash_="#/", search="")``: a page loaded with the app on it.

    Opening again over the same storage is a reload (or another tab). Every page is closed at the end.
    """
    opened: list[FakePort] = []

    def open_(
        storage: FakeStorage | None = None, hash_: str = "#/", search: str = ""
    ) -> tuple[App, FakePort]:
        port = FakePort(storage, hash_, search)
        app = App(port)
        port.attach(app.handle)
        app.mount(warm=False)
        port.settle()
        opened.append(port)
        return app, port

    yield open_
    for port in opened:
        port.close()
    ports.install(None)
