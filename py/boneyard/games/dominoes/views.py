"""Declare what a Dominoes view holds (every option: pips or All Fives, partners, a match).

``DominoesState.view`` builds exactly this; the conformance suite checks every view against it.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ...core import Event, Own, Revealed, Secret, View, ViewSpec


class DominoesEvent(Event):
    """Declare a history event: a lay names its tile and end; a draw or a pass the open ends."""

    tile: NotRequired[list[int]]
    end: NotRequired[str | None]  # None for the opening lay
    ends: NotRequired[list[int]]  # a draw or a pass: the line's ends (All Fives: every open number)
    count: NotRequired[int]  # All Fives: the count after the lay
    points: NotRequired[int]  # All Fives: what the lay scored


class Piece(TypedDict):
    """Declare a tile of the line or of an arm, as laid."""

    tile: list[int]
    double: bool


class LastMove(TypedDict):
    """Declare the move that ended a hand."""

    seat: int
    move: str


class HandResult(TypedDict):
    """Declare a finished hand's result (public: the rules show the hands left at its end)."""

    hand: int
    winner: int | None
    ended: str
    pips: list[int]
    points: int
    tied: list[int]
    hands: list[list[list[int]]]
    scores: list[int]
    last: NotRequired[LastMove]


class Layout(TypedDict):
    """Declare All Fives' layout: the spinner's place in the line, its arms and the number each arm takes."""

    spinner: int | None
    north: list[Piece]
    south: list[Piece]
    ends: dict[str, int | None]
    open: bool


class Options(TypedDict):
    """Declare the game's options, resolved."""

    players: int
    hand_size: int
    draw: bool
    target: int | None
    scoring: str
    teams: bool


class DominoesView(View[DominoesEvent]):
    """Declare a seat's view of a game of Dominoes."""

    options: Options
    target: int | None
    hand_number: int
    line: list[Piece]
    open_ends: list[int] | None  # None before the opening lay
    hand: Secret[list[list[int]]]
    pips: Secret[int]
    stock: int
    opening: bool
    scores: list[int] | None  # None for a single round
    hand_results: Revealed[list[HandResult]]  # each finished hand with the tiles left in every hand
    partner: Own[int | None]
    sides: list[list[int]] | None
    count: int | None  # All Fives only
    layout: Layout | None  # All Fives only


VIEW = ViewSpec(DominoesView)
