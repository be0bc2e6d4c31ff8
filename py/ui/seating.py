"""Seating a new game from its setup form: who plays each seat, the mode's stats key and label, and
the options the engine deals with (pure, no browser)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from boneyard.core import GameInfo
from boneyard.settings import Settings

from .daily import daily_form, mark
from .session import Seat, Session
from .shell import LEVEL_LABELS
from .table_screen import Mode, Screen

__all__ = ["Seating", "daily_session", "default_level", "mode_options", "seat_players"]


@dataclass(frozen=True)
class Seating:
    """What the shell needs to deal a new game."""

    seats: list[Seat]
    mode: str  # stats key, e.g. "classic-2" or "classic-2-device"
    mode_label: str
    options: dict[str, Any]

    @property
    def vs_computer(self) -> bool:
        """Tell whether a computer plays any seat."""
        return any(seat.is_computer for seat in self.seats)


def default_level(info: GameInfo) -> str:
    """Return the level a computer seat gets when the form names none (Medium, else the strongest)."""
    levels = info.named_levels
    return "medium" if "medium" in levels else levels[-1]


def computer_name(index: int, level: str) -> str:
    """Return a computer seat's name: "Computer 1 (Medium)"."""
    label = LEVEL_LABELS.get(level, "")
    return f"Computer {index} ({label})" if label else f"Computer {index}"


def seat_players(info: GameInfo, screen: Screen, form: dict[str, Any], settings: Settings) -> Seating:
    """Return the seats, mode and options that the setup form asks for.

    A screen that seats its players its own way (``seats_from_form``) also names its modes itself;
    otherwise the shell seats the player against computers at the chosen levels, or several people on
    this device (whose mode is counted apart, as "<mode>-device").
    """
    mode, players = screen.mode_from_form(form)
    key, label = mode.key, mode.label
    seats = screen.seats_from_form(form, settings)
    if seats is None:
        vs_computer = (
            form.get("opponents", "computer") == "computer" and info.max_players > 1 and bool(info.bots)
        )
        if info.max_players == 1:
            seats = [Seat("human", settings.name)]
        elif vs_computer:
            default = default_level(info)
            seats = [Seat("human", settings.name)] + [
                Seat(
                    "computer",
                    computer_name(i, str(form.get(f"level_{i}", default))),
                    str(form.get(f"level_{i}", default)),
                )
                for i in range(1, players)
            ]
        else:
            seats = [
                Seat("human", str(form.get(f"name_{i}", "")).strip() or f"Player {i + 1}")
                for i in range(players)
            ]
            key, label = mode.key + "-device", f"{mode.label}, same device"
    return Seating(list(seats), key, label, mode_options(info, mode, players))


def mode_options(info: GameInfo, mode: Mode, players: int) -> dict[str, Any]:
    """Return the engine's options of a mode chosen for ``players`` (the count is one where the game has it)."""
    options = dict(mode.options)
    if any(option.name == "players" for option in info.options):
        options["players"] = players
    return options


def daily_session(info: GameInfo, screen: Screen, day: date, settings: Settings, practice: bool) -> Session:
    """Deal ``info``'s Daily of ``day``: its fixed mode and level, dealt (and the computer seeded) by the day."""
    seed, form = daily_form(info.id, day)
    seating = seat_players(info, screen, form, settings)
    session = Session.start(info, seating.seats, seating.mode, seating.mode_label, seating.options, seed=seed)
    return mark(session, day, practice)
