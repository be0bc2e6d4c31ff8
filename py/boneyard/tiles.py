"""Tile sets of every Boneyard game, built once at import.

- ``DOUBLE_SIX`` (28) and ``DOUBLE_NINE`` (55): dominoes as ``(high, low)`` pairs, written ``"6-4"``.
- ``TRIANGLES`` (56): one triangular tile per multiset of three values 0-5, values ascending as printed
  clockwise.
- ``SYMBOLS`` and ``HEPTALION_TILES`` (28): the seven Heptalion symbols and every pair of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

Domino = tuple[int, int]  # (high, low), high >= low
Triangle = tuple[int, int, int]  # values ascending clockwise
SymbolPair = tuple[str, str]  # two symbol letters in SYMBOLS order


def domino_set(top: int) -> tuple[Domino, ...]:
    """Return the double-``top`` set, heaviest first: (top, top), (top, top-1), ... (0, 0)."""
    return tuple((high, low) for high in range(top, -1, -1) for low in range(high, -1, -1))


DOUBLE_SIX: tuple[Domino, ...] = domino_set(6)
DOUBLE_NINE: tuple[Domino, ...] = domino_set(9)

TRIANGLES: tuple[Triangle, ...] = tuple(combinations_with_replacement(range(6), 3))

# The seven Heptalion symbols, one letter each, with their names (docs/architecture.md, "Heptalion").
SYMBOLS = "XCDSTPL"
SYMBOL_NAMES = {
    "X": "cross",
    "C": "circle",
    "D": "diamond",
    "S": "square",
    "T": "dot",
    "P": "plus",
    "L": "clover",
}
HEPTALION_TILES: tuple[SymbolPair, ...] = tuple(combinations_with_replacement(SYMBOLS, 2))

assert len(DOUBLE_SIX) == 28 and len(DOUBLE_NINE) == 55
assert len(TRIANGLES) == 56 and len(HEPTALION_TILES) == 28


def domino(a: int, b: int) -> Domino:
    """Return the domino with ends ``a`` and ``b`` in canonical (high, low) form."""
    return (a, b) if a >= b else (b, a)


def is_double(tile: Domino) -> bool:
    """Tell whether both ends of a domino show the same number."""
    return tile[0] == tile[1]


def pips(tile: Iterable[int]) -> int:
    """Return the pip count of a domino or a triangle (the sum of its numbers)."""
    return sum(tile)


def hand_pips(tiles: Iterable[Iterable[int]]) -> int:
    """Return the pip total of a hand."""
    return sum(sum(tile) for tile in tiles)


def domino_text(tile: Domino) -> str:
    """Return the text form ``"6-4"``."""
    return f"{tile[0]}-{tile[1]}"


def parse_domino(text: str) -> Domino:
    """Parse ``"6-4"`` (or ``"4-6"``) into a canonical domino; raise ValueError otherwise."""
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a domino: {text!r}")
    return domino(int(parts[0]), int(parts[1]))
