"""A tiny HTML builder: screens are rendered as text in one go, then set with one DOM call.

Text is escaped unless it is ``Markup`` (already-built HTML). This module is pure Python, so every
screen's markup is tested under CPython without a browser.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable

__all__ = ["Markup", "h", "text", "join", "attrs", "escape"]

VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Markup(str):
    """HTML that is already safe to insert."""

    __slots__ = ()


def text(value: Any) -> Markup:
    """Return ``value`` as escaped HTML (Markup passes through)."""
    if isinstance(value, Markup):
        return value
    return Markup(escape("" if value is None else str(value), quote=False))


def attrs(values: dict[str, Any]) -> str:
    """Return HTML attributes; ``_`` in names becomes ``-``; False/None drop the attribute, True keeps it bare."""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        if value is True:
            out.append(f" {name}")
        else:
            out.append(f' {name}="{escape(str(value), quote=True)}"')
    return "".join(out)


def join(parts: Iterable[Any]) -> Markup:
    """Return the parts (escaped where they are not Markup) as one piece of Markup."""
    return Markup("".join(text(p) for p in parts if p is not None and p is not False))


def h(tag: str, props: dict[str, Any] | None = None, *children: Any) -> Markup:
    """Return an element: ``h("button", {"class_": "btn", "data_action": "go"}, "Go")``."""
    opening = f"<{tag}{attrs(props or {})}>"
    if tag in VOID:
        return Markup(opening)
    inner = join(_flatten(children))
    return Markup(f"{opening}{inner}</{tag}>")


def _flatten(children: Iterable[Any]) -> Iterable[Any]:
    for child in children:
        if isinstance(child, (list, tuple)) or (hasattr(child, "__next__") and not isinstance(child, str)):
            yield from _flatten(child)
        else:
            yield child
