"""Declare what Bonefall's view holds; ``BonefallState.view`` builds exactly this.

Bonefall has one player: every key is that player's own (declared anyway, as every game's view is).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ...core import OutcomeView, Own, ViewSpec


class Cell(TypedDict):
    """Declare an occupied cell: its place, its number, its domino and the side its other half is on."""

    col: int
    row: int
    value: int
    piece: int
    link: str | None


class Piece(TypedDict):
    """Declare the falling domino: its halves, where it is and where it would land."""

    id: int
    values: list[int]
    orientation: int
    cells: list[list[int]]
    ghost: list[list[int]]
    fall_progress: float
    landed: bool


class Gone(TypedDict):
    """Declare a half taken off by a match."""

    col: int
    row: int
    value: int
    piece: int


class CascadeEvent(TypedDict):
    """Declare a step of a cascade: dominoes falling, or matched halves taken off."""

    kind: str
    moves: NotRequired[list[dict[str, Any]]]  # "fall"
    cells: NotRequired[list[Gone]]  # "annihilate"
    count: NotRequired[int]
    score: NotRequired[int]


class BonefallView(TypedDict):
    """Declare the player's view of a game of Bonefall."""

    game: Own[str]
    set: Own[str]
    mode: Own[str]
    width: Own[int]
    height: Own[int]
    step: Own[int]
    phase: Own[str]
    cells: Own[list[Cell]]
    piece: Own[Piece | None]
    next: Own[list[int] | None]
    left_in_set: Own[int]
    sets_dealt: Own[int]
    dominoes_played: Own[int]
    level: Own[int]
    gravity_steps: Own[int]
    turn_score: Own[int]
    max_score: Own[int]
    power: Own[int]
    speed: Own[float]
    events: Own[list[CascadeEvent]]
    event_index: Own[int | None]
    event_progress: Own[int | None]
    cascade_steps: Own[int]
    over: Own[bool]
    termination: Own[str | None]
    outcome: Own[OutcomeView | None]
    legal_moves: Own[list[str]]


VIEW = ViewSpec(BonefallView)
