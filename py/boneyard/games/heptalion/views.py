"""Declare what a Heptalion view holds (visible or hidden hands, solo); ``HeptalionState.view`` builds it."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ...core import Event, Own, Secret, View, ViewSpec


class HeptalionEvent(Event):
    """Declare a history event: a placement, an elimination, the winner or the solo's end."""

    number: NotRequired[int]  # a placement: its number
    order: NotRequired[int]  # an elimination: how many seats are out with this one
    after: NotRequired[int]  # an elimination: the placements made before it
    placed: NotRequired[int]  # the solo's end: the tiles placed


class BoardView(TypedDict):
    """Declare the board: its rows of symbols, its kind and the seed of a random board."""

    rows: list[str]
    kind: str
    seed: int | None


class Space(TypedDict):
    """Declare a space of the board."""

    id: int
    row: int
    col: int
    symbol: str
    covered: bool


class Covered(TypedDict):
    """Declare a placement on the board."""

    number: int
    seat: int
    tile: str
    spaces: list[int]
    move: str
    latest: bool


class SeatView(TypedDict):
    """Declare one seat as a view shows it (its hand None when hidden from this view's seat)."""

    seat: int
    status: str
    tile_count: int
    hand: list[str] | None
    placed: int
    start: bool


class HeptalionView(View[HeptalionEvent]):
    """Declare a seat's view of a game of Heptalion."""

    name: str
    board: BoardView
    spaces: list[Space]
    covered: list[Covered]
    solo: bool
    hidden: bool
    start: int
    hand: Secret[list[str]]
    seats: Own[list[SeatView]]  # with hidden hands only this seat's own hand shows
    discard: str | None
    eliminated: list[int]
    seed: int | None  # None with hidden hands: it tells the deal


VIEW = ViewSpec(HeptalionView, secret_if="hidden")  # with visible hands every seat sees every hand
