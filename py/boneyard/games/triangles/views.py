"""Declare what a Triangles view holds; ``TrianglesState.view`` builds exactly this."""

from __future__ import annotations

from typing import TypedDict

from ...core import Event, Secret, View, ViewSpec


class OnTable(TypedDict):
    """Declare a tile on the table: its cell, its corners as laid and who laid it when."""

    cell: list[int]
    tile: str
    rotation: int
    corners: list[int]
    up: bool
    seat: int
    turn: int


class TrianglesView(View[Event]):
    """Declare a seat's view of a game of Triangles."""

    hand: Secret[list[str]]
    pips: Secret[int]
    stock: int
    draws_left: int
    passes: int
    opening: str  # the tile the rules make the first move, named from the deal on
    table: list[OnTable]


VIEW = ViewSpec(TrianglesView)
