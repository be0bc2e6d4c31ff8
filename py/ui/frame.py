"""The table frame: the kit's pieces joined with the Expert's (``ui.hints``) for a game's part.

The kit (``ui.kit``) draws a table's pieces and never asks the Expert; the hints (``ui.hints``) ask the
game's part (its screen) for words and marks and never draw a table. This module puts the two together:
the message line with the Hint button, card and marks, the results panel with the analysis, and the kit's
actions with the hint's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import hints, kit
from .html import Markup
from .intents import Intents, Render


def message_line(ctx: Any, part: hints.ExpertPart, text: Any, *, tone: str = "") -> Markup:
    """Return the kit's message line with the Expert's hint (or, in a review, its comment on the move)."""
    step = kit.reviewing(ctx)
    comment = hints.review_comment(ctx, step) if step is not None else ""
    button = hints.hint_button(ctx, part) if step is None else Markup("")
    shown = [button, hints.hint_card(ctx, part), hints.hint_marks(ctx, part)] if button else []
    return kit.message_line(ctx, text, tone=tone, hint=shown, comment=comment)


def results_panel(
    ctx: Any,
    part: hints.ExpertPart,
    title: str,
    body: Any,
    actions: Sequence[Any],
    *,
    note: str = "",
    **more: Any,
) -> Markup:
    """Return the kit's results panel with the Expert's analysis, saying when hints were used."""
    return kit.results_panel(
        ctx,
        title,
        body,
        actions,
        note=hints.used_note(ctx.session, note),
        analysis=hints.analysis_section(ctx, part),
        **more,
    )


def handle(ctx: Any, part: hints.ExpertPart, action: str, value: str, *, first: int = 0) -> Intents | None:
    """Carry out the kit's and the Expert's actions; return what follows, or None when it is neither's."""
    if action not in ("kit-hint", "kit-hint-close"):
        hints.fold_card(ctx)  # the player acts on the table: the card would cover the board (the marks stay)
    if action == "kit-hint":
        return hints.start_hint(ctx, part)
    if action == "kit-hint-close":
        found = hints.shown_hint(ctx)
        if found is not None:
            found["hidden"] = True
        return [Render()]
    if action == "kit-analyse":
        return hints.start_analysis(ctx, part)
    return kit.handle(ctx, action, value, first=first)
