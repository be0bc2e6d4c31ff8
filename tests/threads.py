"""Run test code away from the main thread's event loop.

After the browser tests, Playwright's loop may still be set as running in the main thread: there
``asyncio.run`` refuses to start, and code that looks for a running loop (``ui.hints`` schedules its
thinking on one) finds a loop that never turns. These helpers run the code in a thread of its own, with
no loop (``on_own_thread``) or a fresh one (``on_own_loop``); an error inside is raised in the caller.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def on_own_thread(fn: Callable[[], T]) -> T:
    """Call ``fn`` in a thread of its own (no event loop there); return its result or raise its error."""
    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(fn())
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=target)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]
    return results[0]


def on_own_loop(main: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    """Run the coroutine function ``main`` to its end on a new loop in a thread of its own."""
    on_own_thread(lambda: asyncio.run(main()))


def own_thread(test: Callable[..., None]) -> Callable[..., None]:
    """Decorate a test so that its body runs in a thread of its own (pytest still sees its arguments)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        on_own_thread(lambda: test(*args, **kwargs))

    return wrapper
