"""A tiny HTML builder: screens are rendered as text in one go, then set with one DOM call.

Markup is safe by construction:

- Text is escaped unless it is ``Markup`` (HTML built by ``h()``); ``h()`` is the one place that writes
  tags, and it refuses tag and attribute names that are not plain names.
- ``Markup + Markup`` stays ``Markup``; ``Markup + str`` (either way round) escapes the ``str`` first, so
  text joined to markup can never turn into markup.
- Player names are isolated, so a right-to-left name, or one with U+202E in it, never reorders the
  sentence around it. ``name_attr()`` puts a name between U+2068 FIRST STRONG ISOLATE and U+2069 POP
  DIRECTIONAL ISOLATE: that plain string works in attributes (aria-label, title, which cannot hold an
  element), in sentences built with f-strings, and in what is read out. When such a string becomes text
  content, ``text()`` turns each isolated name into ``<bdi class="name">`` (which CSS can also wrap or
  ellipsize); ``name_text()`` is the same for a name on its own.

This module is pure Python, so every screen's markup is tested under CPython without a browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from typing import Any

__all__ = ["FSI", "PDI", "Markup", "attrs", "escape", "h", "join", "name_attr", "name_text", "text"]

VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FSI = "\u2068"  # FIRST STRONG ISOLATE: opens an isolated run whose direction is that of its first letter
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE: closes it (and any embedding or override left open inside)

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_:.-]*\Z")
_ISOLATES = re.compile("[\u2066-\u2069]")  # LRI, RLI, FSI, PDI: a name's own are dropped, ours stay paired
_ISOLATED = re.compile("\u2068([^\u2066-\u2069]*)\u2069")
_checked: set[str] = set()


class Markup(str):
    """HTML that is already safe to insert; joining plain text to it escapes the text."""

    __slots__ = ()

    def __add__(self, other: object) -> Markup:
        if not isinstance(other, str):
            return NotImplemented
        return Markup(str.__add__(self, text(other)))

    def __radd__(self, other: object) -> Markup:
        if not isinstance(other, str):
            return NotImplemented
        return Markup(str.__add__(text(other), self))


def text(value: Any) -> Markup:
    """Return ``value`` as escaped HTML (Markup passes through)."""
    if isinstance(value, Markup):
        return value
    out = escape("" if value is None else str(value), quote=False)
    if FSI in out:
        out = _ISOLATED.sub(r'<bdi class="name">\1</bdi>', out)
    return Markup(out)


def _checked_name(name: str) -> str:
    """Return a tag or attribute name after checking that it is a plain name (no markup can hide in it)."""
    if name not in _checked:
        if not _NAME.match(name):
            raise ValueError(f"not a tag or attribute name: {name!r}")
        _checked.add(name)
    return name


def attrs(values: dict[str, Any]) -> str:
    """Return HTML attributes; ``_`` in names becomes ``-``; False/None drop the attribute, True keeps it bare."""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        name = _checked_name(name.rstrip("_").replace("_", "-"))
        if value is True:
            out.append(" " + name)
        else:
            out.append(" " + name + '="' + escape(str(value), quote=True) + '"')
    return "".join(out)


def join(parts: Iterable[Any]) -> Markup:
    """Return the parts (escaped where they are not Markup) as one piece of Markup."""
    return Markup("".join(text(p) for p in parts if p is not None and p is not False))


def h(tag: str, props: dict[str, Any] | None = None, *children: Any) -> Markup:
    """Return an element: ``h("button", {"class_": "btn", "data_action": "go"}, "Go")``."""
    tag = _checked_name(tag)
    opening = "<" + tag + attrs(props or {}) + ">"
    if tag in VOID:
        return Markup(opening)
    return Markup("".join((opening, join(_flatten(children)), "</", tag, ">")))  # str.join: no escaping here


def name_attr(name: Any) -> str:
    """Return a player's name isolated by FSI/PDI, for attributes (aria-label, title) and plain strings."""
    return FSI + _ISOLATES.sub("", str(name)) + PDI


def name_text(name: Any) -> Markup:
    """Return a player's name as isolated text (``<bdi class="name">``) to put inside a sentence."""
    return text(name_attr(name))


def _flatten(children: Iterable[Any]) -> Iterable[Any]:
    for child in children:
        if isinstance(child, (list, tuple)) or (hasattr(child, "__next__") and not isinstance(child, str)):
            yield from _flatten(child)
        else:
            yield child
