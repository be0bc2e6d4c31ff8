"""The table frame: one drawing of a tile game's table, from its facts and the game's parts.

``render`` finds the table's facts once (``kit.table_facts``: the position shown, whose turn, mine or
not, privacy, the review, a paused hand), asks the game's part (its screen, a ``TablePart``) for its
pieces (``TableParts``: board, tray, status line, results, seats, gate), and composes them with the
kit (``kit.table``), the message line carrying the Expert's hint. Drawing writes nothing: a part reads
the facts and the UI state, and notes what it showed in ``after_render``.

The kit (``ui.kit``) draws a table's pieces and never asks the Expert; the hints (``ui.hints``) ask the
game's part for words and marks and never draw a table. This module puts the two together: the message
line with the Hint button, card and marks, the results panel with the analysis, and the kit's actions
with the hint's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from . import hints, kit
from .html import Markup, join
from .intents import Intents, Render


@dataclass(frozen=True)
class TableParts:
    """A game's pieces of one drawing of its table, which ``render`` composes with the kit."""

    board: Any  # the board's markup (inside ``#table-board``)
    tray: Any  # the hand tray (``kit.tray``)
    status: Any  # the message line's words
    seats: Any = ""  # the other seats around the board (``kit.seats``)
    results: Any = ""  # the results panel (or the review's bar) over the board
    gate: Any = ""  # the privacy gate
    board_extra: Any = ""  # the band over the board
    tools: Any = ""  # the game's own header tools, before mute and "?"
    cls: str = ""  # the table's classes
    data: Mapping[str, Any] = field(default_factory=dict)  # its ``data-`` attributes
    before: Any = ""  # markup before the table (a sprite of symbols)


@runtime_checkable
class TablePart(hints.ExpertPart, kit.FactsPart, Protocol):
    """What a tile game's table screen gives the frame: its pieces, and the Expert's words and marks."""

    game_id: str

    def table_parts(self, ctx: Any, facts: kit.TableFacts) -> TableParts:
        """Return the table's pieces for these facts (a pure function of them and the UI state)."""
        ...


def render(ctx: Any, part: TablePart) -> Markup:
    """Return the whole table: its facts found once, the part's pieces composed by the kit."""
    facts = kit.table_facts(ctx, part)
    parts = part.table_parts(ctx, facts)
    table = kit.table(
        game_id=part.game_id,
        board=parts.board,
        message=message_line(ctx, part, parts.status, tone="turn" if facts.mine else "", facts=facts),
        tray_=parts.tray,
        seats_=parts.seats,
        tools_=kit.tools(
            part.game_id, ctx.settings.sound, extra=join([kit.deal_tag(ctx.session), parts.tools])
        ),
        panel=parts.results,
        gate=parts.gate,
        board_extra=parts.board_extra,
        cls=parts.cls,
        data=dict(parts.data),
    )
    return join([parts.before, table]) if parts.before else table


def message_line(
    ctx: Any, part: hints.ExpertPart, text: Any, *, tone: str = "", facts: kit.TableFacts | None = None
) -> Markup:
    """Return the kit's message line with the Expert's hint (or, in a review, its comment on the move);
    ``facts`` are the drawing's, when the caller found them."""
    step = kit.reviewing(ctx)
    comment = hints.review_comment(ctx, step) if step is not None else ""
    view = facts.view if facts is not None and not facts.review else None
    button = hints.hint_button(ctx, part, view) if step is None else Markup("")
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
            found.hidden = True
        return [Render()]
    if action == "kit-analyse":
        return hints.start_analysis(ctx, part)
    return kit.handle(ctx, action, value, first=first)
