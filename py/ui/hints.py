"""The Expert at the table: the Hint button and the review of a finished game's chances (pure markup).

- **Hint** (Settings' Hints switch): the move the Expert (``boneyard.ai.hint_thinking``) would play
  for the person to move, found from that seat's view only, thought in slices so the page never
  freezes, shown as a card at the top of the screen (off the board) with the reason in words; the tile and its
  end, spot or spaces glow (a ``<style>`` in the message line, matched by the tables' own ids; the card
  folds away as soon as the player acts on the table, the glow stays). A hint
  belongs to one position (the session's revision): the next move clears it. A used hint is counted
  in ``session.extra["hints"]``; such a game is not counted in the stats (``ui.results``), like a
  take-back, and its result says so.
- **Analysis** (the results panel): ``boneyard.ai.review_thinking`` over the viewer's decisions, in
  slices with a progress bar; then a chart of the estimated chance after each of your moves, ending at
  the result (a win 100%, a loss 0%), and the moves that cost the most, each a button that opens the table's review at that move, where the
  message line says what the Expert preferred.

Everything game-specific (a move in words, what glows, the search's size) is asked of the game's part
(``ui.frame.TablePart``: the table screen); the frame (``ui.frame``) places these pieces in the kit's
message line and results panel. The thinking runs as an asyncio task in the page and in one go under
CPython (tests), so everything here is testable without a browser. Its results reach the app as intents
(``ctx.emit``).
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import time
from collections.abc import Callable, Coroutine, Generator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from . import kit, ports
from .html import Markup, h
from .intents import Announce, Intents, Render, Save
from .session import Session

__all__ = [
    "SLICE_S",
    "ExpertPart",
    "analysis",
    "analysis_section",
    "available",
    "hint_button",
    "hint_card",
    "hints_used",
    "review_comment",
    "shown_hint",
    "start_analysis",
    "start_hint",
    "used_note",
]

SLICE_S = 0.012  # the longest the Expert thinks before the page gets a turn (as the computer's turns)
COSTLY = 0.05  # a move that gave away this much of the chance is listed
_TASKS: set[Any] = set()  # running tasks (asyncio keeps only weak references)


# -- words ------------------------------------------------------------------------------------------


class ExpertPart(Protocol):
    """What the hints ask of a game's table (its screen): the Expert's moves in its words and marks."""

    @property
    def expert(self) -> bool:
        """Tell whether the game has an Expert to ask."""
        ...

    @property
    def hint_nodes(self) -> int | None:
        """Return the search's size for a hint (None: the game's own)."""
        ...

    @property
    def review_nodes(self) -> int | None:
        """Return the search's size for each decision of the analysis."""
        ...

    @property
    def move_pattern(self) -> re.Pattern[str] | None:
        """Return the pattern of a move's text inside the engine's reasons."""
        ...

    def move_words(self, move: str) -> str:
        """Return a move's text in a player's words."""
        ...

    def other_words(self, move: str, than: str) -> str:
        """Return ``move`` in words that tell it from ``than``."""
        ...

    def hint_title(self, move: str) -> str:
        """Return the hinted move for the card's title."""
        ...

    def hint_help(self, move: str) -> str:
        """Return a line the card adds under the odds ("" for none)."""
        ...

    def hint_targets(self, move: str) -> list[str]:
        """Return the CSS selectors of what the hinted move touches (tile, end, spot, spaces)."""
        ...

    def paused(self, ctx: Any) -> bool:
        """Tell whether play waits for the player (no hint then)."""
        ...


def _words_in(part: ExpertPart, text: str) -> str:
    """Return ``text`` with every move text in it turned into words."""
    pattern = part.move_pattern
    return pattern.sub(lambda m: part.move_words(m.group(0)), text) if pattern else text


def _reason(part: ExpertPart, reason: str) -> str:
    """Return the engine's reason without its odds sentence (the card shows the odds itself), in words."""
    cut = reason.split(" The search gives you")[0].strip()
    if " gives you the best chances the search found" in cut:  # the engine's fallback: no reason in words
        return "Of every move, the Expert's search rates this one best."
    if cut.startswith("draw is your only move") or cut.startswith("pass is your only move"):
        return "It is your only move."
    return _words_in(part, cut)


def _own_reason(part: ExpertPart, reason: str, move: str) -> str:
    """Return the hint's reason in words, saying "It" for the move the card's title names already."""
    text = _reason(part, reason)
    words = part.move_words(move)
    if text.startswith(words + " ") and not text.startswith(words + " is your only"):
        return "It " + text[len(words) + 1 :]
    return text


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"


# -- the hint ---------------------------------------------------------------------------------------


def _key(session: Session) -> list[Any]:
    return [session.uid, session.revision]


def available(ctx: Any, part: ExpertPart, view: Mapping[str, Any] | None = None) -> bool:
    """Tell whether the Hint button is offered at all: the Hints setting, a game of several players
    (``view``: the viewer's view of the position on the table, when the caller has it)."""
    session: Session = ctx.session
    if not getattr(ctx.settings, "hints", False) or not part.expert:
        return False
    if not session.human_seats:
        return False
    view = view if view is not None else session.state.view(session.viewer())
    return int(view.get("players", 2)) > 1


def askable(ctx: Any, part: ExpertPart, view: Mapping[str, Any] | None = None) -> int | None:
    """Return the seat a hint would be for now (a local person to move, tiles shown), or None."""
    session: Session = ctx.session
    if kit.reviewing(ctx) is not None or session.state.is_over():
        return None
    seat = session.viewer()  # only ever the seat the table is drawn for: its view, nobody else's
    if session.to_move() != seat or session.seats[seat].kind != "human" or seat in session.remote_seats:
        return None
    view = dict(view) if view is not None else session.state.view(seat)
    if kit.gate_needed(ctx, session, view) or kit.hands_private(session, view, ctx):
        return None
    if not view.get("legal_moves"):
        return None
    if part.paused(ctx):
        return None  # a finished hand is on show until Next hand
    return seat


def shown_hint(ctx: Any) -> kit.Hint | None:
    """Return the hint of the position on the table ({status, move, ...}), or None (a stale one is ignored)."""
    found: kit.Hint | None = ctx.ui.kit.hint
    if found is None or found.key != _key(ctx.session):
        return None
    return found


def hints_used(session: Session) -> int:
    """Return how many hints the person asked for in this game."""
    try:
        return int(session.extra.get("hints", 0) or 0)
    except (TypeError, ValueError):
        return 0


def start_hint(ctx: Any, part: ExpertPart) -> Intents:
    """Ask the Expert for the person's move: mark it thinking, think in slices, then show it."""
    session: Session = ctx.session
    seat = askable(ctx, part)
    if seat is None:
        return [Render()]
    current = shown_hint(ctx)
    if current is not None:  # asked again: show it again (a hidden card) or keep thinking
        current.hidden = False
        return [Render()]
    from boneyard.ai import hint_thinking

    game_id = session.info.id
    view = session.state.view(seat)
    names = kit.display_names(session)
    record = kit.Hint(_key(session), seat)
    ctx.ui.kit.hint = record
    asked: Intents = []
    if len(view["legal_moves"]) > 1:  # a forced move's hint helps nobody: not counted
        session.extra["hints"] = hints_used(session) + 1
        asked.append(Save())
    rng = random.Random(f"{session.uid}:{session.revision}")
    thinking = hint_thinking(game_id, view, rng, names, nodes=part.hint_nodes)
    started = time.perf_counter()

    def wanted() -> bool:
        return ctx.ui.kit.hint is record and record.key == _key(session) and _on_table(game_id)

    def done(found: Any) -> None:
        if not wanted():
            return
        if found is None:
            record.status = "failed"
        else:
            alternatives = list(found.alternatives)
            record.status, record.move, record.chance, record.forced = (
                "shown",
                found.move,
                found.chance,
                found.forced,
            )
            record.words = part.move_words(found.move)
            record.reason = _own_reason(part, found.reason, found.move)
            if alternatives and round(100 * alternatives[0][1]) != round(100 * found.chance):
                record.next = (part.other_words(alternatives[0][0], found.move), float(alternatives[0][1]))
            record.ms = round(1000 * (time.perf_counter() - started))
            ctx.emit(Announce(f"Hint: {record.words}. {record.reason}"))
        ctx.emit(Render())

    _spawn(_drive(thinking, wanted, done))
    return asked + [Render()]


def hint_button(ctx: Any, part: ExpertPart, view: Mapping[str, Any] | None = None) -> Markup:
    """Return the Hint button (nothing when hints are off); disabled while no hint can be asked."""
    if not available(ctx, part, view) or ctx.session.state.is_over():
        return Markup("")
    found = shown_hint(ctx)
    thinking = found is not None and found.status == "thinking"
    enabled = askable(ctx, part, view) is not None and not thinking
    return h(
        "button",
        {
            "type": "button",
            "class_": "btn kit-hint-btn" + (" is-thinking" if thinking else ""),
            "data_action": "kit-hint",
            "id": "kit-hint",
            "disabled": not enabled,
            "aria_busy": "true" if thinking else None,
            "title": "The move the Expert would play (H); a game with hints is not counted in your stats",
            "aria_keyshortcuts": "H",
        },
        _bulb(),
        h("span", {"class_": "kit-hint-label"}, "Thinking…" if thinking else "Hint"),
    )


def _bulb() -> Markup:
    return h(
        "svg",
        {"viewBox": "0 0 24 24", "width": "18", "height": "18", "aria_hidden": "true", "focusable": "false"},
        h(
            "path",
            {
                "d": "M9 18h6M10 21h4M12 3a6 6 0 0 0-3.6 10.8c.7.6 1.1 1.3 1.1 2.2h5c0-.9.4-1.6 1.1-2.2A6 6 0 0 0 12 3z",
                "fill": "none",
                "stroke": "currentColor",
                "stroke_width": "2",
                "stroke_linecap": "round",
                "stroke_linejoin": "round",
            },
        ),
    )


def _safe_selector(selector: str) -> bool:
    return bool(re.fullmatch(r'[\w#.\-\[\]="\s,]+', selector))


def hint_style(targets: list[str]) -> Markup:
    """Return the ``<style>`` that makes the hinted tile and its place glow (``targets``: the tables' selectors)."""
    selectors = [s for s in targets if _safe_selector(s)]
    if not selectors:
        return Markup("")
    html = [s for s in selectors if not s.startswith("#spot-")]  # SVG spots take a stroke, not an outline
    svg = [s for s in selectors if s.startswith("#spot-")]
    rules = ""
    if html:
        scoped = ", ".join(f".kit-table {s}" for s in html)
        moving = ", ".join(f"[data-motion='on'] .kit-table {s}" for s in html)
        rules += f"{scoped} {{ outline: 3px solid var(--hint, #f5c542); outline-offset: 2px; z-index: 3; }}"
        rules += f"\n{moving} {{ animation: kit-hint-glow 1.2s ease-in-out 3; }}"
    if svg:
        faces = ", ".join(f".kit-table {s} .tri-spot-face" for s in svg)
        rules += f"\n{faces} {{ stroke: var(--hint, #f5c542); stroke-width: 4px; vector-effect: non-scaling-stroke; fill: rgba(245, 197, 66, .35); }}"
    # CSS is raw text inside <style> (entities are not decoded there): the rules pass as Markup, built
    # only from selectors that passed _safe_selector and from constants.
    return h("style", {"id": "kit-hint-style"}, Markup(rules))


def hint_card(ctx: Any, part: ExpertPart) -> Markup:
    """Return the hint's card, at the top of the screen (until the player acts on the table), or nothing."""
    found = shown_hint(ctx)
    if found is None or found.status == "thinking" or found.hidden:
        return Markup("")
    if found.status == "failed":
        body: Any = h("p", {"class_": "kit-hint-why"}, "The Expert could not find a hint here.")
        title = "No hint"
    else:
        title = f"Hint: {part.hint_title(found.move)}"
        odds = f"Your chances with it: about {_percent(found.chance)}"
        if found.next:
            odds += f"; {found.next[0]}: {_percent(found.next[1])}"
        body = [
            h("p", {"class_": "kit-hint-why"}, found.reason),
            "" if found.forced else h("p", {"class_": "kit-hint-odds"}, odds + "."),
        ]
        help_ = part.hint_help(found.move)
        if help_:
            body.append(h("p", {"class_": "kit-hint-odds"}, help_))
    return h(
        "aside",
        {
            "class_": "kit-hint-card",
            "id": "kit-hint-card",
            "aria_label": "Hint",
            "data_move": found.move or None,
            "data_ms": found.ms,
        },
        h(
            "div",
            {"class_": "kit-hint-head"},
            h("strong", {"class_": "kit-hint-title"}, title),
            h(
                "button",
                {
                    "type": "button",
                    "class_": "btn btn-ghost kit-hint-close",
                    "data_action": "kit-hint-close",
                    "id": "kit-hint-close",
                    "aria_label": "Hide the hint",
                    "title": "Hide the hint",
                },
                "×",
            ),
        ),
        body,
    )


def hint_marks(ctx: Any, part: ExpertPart) -> Markup:
    """Return the style that makes the shown hint's tile and place glow (kept while its card is folded)."""
    found = shown_hint(ctx)
    if found is None or found.status != "shown":
        return Markup("")
    return hint_style(part.hint_targets(found.move))


def fold_card(ctx: Any) -> None:
    """Fold the hint's card away (the player acts on the table: it would cover the board), keeping the glow."""
    found = ctx.ui.kit.hint
    if found is not None and found.status == "shown":
        found.hidden = True


def used_note(session: Session, note: str) -> str:
    """Return the results note, saying the game is not counted when hints (and take-backs) were used."""
    used = hints_used(session)
    if not used or not session.vs_computer:
        return note
    hints = f"asked for {used} hint{'s' if used != 1 else ''}"
    if session.take_backs:
        moves = f"{session.take_backs} move{'s' if session.take_backs != 1 else ''}"
        return f"Not counted in your stats: you took back {moves} and {hints}."
    return f"Not counted in your stats: you {hints}."


# -- the analysis after a game ------------------------------------------------------------------------


def analysis(ctx: Any) -> kit.Analysis | None:
    """Return the analysis of the finished game on the table (running or done), or None."""
    found: kit.Analysis | None = ctx.ui.kit.analysis
    if found is not None and found.uid == ctx.session.uid and found.moves == ctx.session.move_count():
        return found
    return None


def analysable(ctx: Any, part: ExpertPart) -> bool:
    """Tell whether the finished game can be analysed: over, with its moves, a person among its players."""
    session: Session = ctx.session
    return (
        session.state.is_over()
        and session.move_count() > 0
        and bool(session.human_seats)
        and part.expert
        and int(session.state.view(session.viewer()).get("players", 2)) > 1
    )


def _decisions(session: Session, seat: int) -> list[tuple[int, dict[str, Any], str]]:
    """Return the seat's decisions: (move index, the view it had, the move it played)."""
    state = session.replay(0)
    found = []
    for index, text in enumerate(session.moves or []):
        if state.current_player() == seat:
            found.append((index, state.view(seat), text))
        state.play(text)
    return found


def start_analysis(ctx: Any, part: ExpertPart) -> Intents:
    """Analyse the viewer's moves of the finished game in slices (a progress bar meanwhile)."""
    if not analysable(ctx, part) or analysis(ctx) is not None:
        return []
    from boneyard.ai import Review, review_thinking

    session: Session = ctx.session
    game_id = session.info.id
    seat = session.viewer()
    decisions = _decisions(session, seat)
    record = kit.Analysis(session.uid, session.move_count(), seat, len(decisions))
    ctx.ui.kit.analysis = record
    review = Review(seat, len(decisions))
    thinking = review_thinking(
        game_id,
        [(v, m) for _, v, m in decisions],
        random.Random(f"{session.uid}:review"),
        kit.display_names(session),
        review,
        nodes=part.review_nodes,
    )
    started = time.perf_counter()

    def wanted() -> bool:
        return ctx.ui.kit.analysis is record and _on_table(game_id)

    def progress() -> None:
        record.progress = review.progress
        _set_progress(review.progress)

    def done(found: Any) -> None:
        if not wanted():
            return
        if found is None:
            record.status = "failed"
        else:
            record.status = "done"
            record.ms = round(1000 * (time.perf_counter() - started))
            record.entries = [
                {
                    "index": index,
                    "move": entry.move,
                    "words": part.move_words(entry.move),
                    "before": entry.before,
                    "after": entry.after,
                    "best": entry.best,
                    "best_words": part.other_words(entry.best, entry.move),
                    "reason": _reason(part, entry.reason) if entry.reason else "",
                    "forced": entry.forced,
                }
                for (index, _, _), entry in zip(decisions, found.entries)
            ]
            record.progress = 1.0
        ctx.emit(Render())

    _spawn(_drive(thinking, wanted, done, progress))
    return [Render()]


def _costly(entries: list[dict[str, Any]], count: int = 3) -> list[dict[str, Any]]:
    worst = sorted(
        (e for e in entries if e["before"] - e["after"] >= COSTLY), key=lambda e: e["after"] - e["before"]
    )
    return sorted(worst[:count], key=lambda e: e["index"])


RESULT_CHANCE = {"win": 1.0, "loss": 0.0, "draw": 0.5}
RESULT_WORDS = {"win": "{who} won", "loss": "{who} lost", "draw": "a draw"}


@dataclass(frozen=True)
class Whose:
    """Whose moves the Expert reviewed, in words: the person's ("your"), or a replay's sender ("Ann's")."""

    mine: str = "your"
    who: str = "you"

    @property
    def lead(self) -> str:
        """Return the possessive at the start of a sentence ("Your", "Ann's")."""
        return self.mine[:1].upper() + self.mine[1:]


def whose(ctx: Any, seat: int) -> Whose:
    """Return how the review names ``seat``: "your" for the person, the name for a replay's sender."""
    name = kit.display_names(ctx.session)[seat]
    return Whose() if name == "You" else Whose(f"{name}'s", name)


def _chart(
    entries: list[dict[str, Any]],
    costly: list[dict[str, Any]],
    result: str | None = None,
    of: Whose = Whose(),
) -> Markup:
    """Return a small line chart of the estimated chance after each of the person's moves, ending at the
    game's ``result`` (a win is 100%, a loss 0%, whatever the last estimate said)."""
    width, height, pad = 300, 96, 8
    marked = {e["index"] for e in costly}
    final = RESULT_CHANCE.get(result or "")
    count = len(entries) + (final is not None)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / (count - 1) if count > 1 else 0.5)

    def y(value: float) -> float:
        return pad + (height - 2 * pad) * (1 - value)

    points = [(x(i), y(float(e["after"]))) for i, e in enumerate(entries)]
    end = [(x(count - 1), y(final))] if final is not None else []
    line = " ".join(f"{px:.1f},{py:.1f}" for px, py in points + end)
    area = f"{x(0):.1f},{y(0):.1f} {line} {x(count - 1):.1f},{y(0):.1f}" if points else ""
    dots = [
        h(
            "circle",
            {
                "cx": f"{px:.1f}",
                "cy": f"{py:.1f}",
                "r": "4.5" if e["index"] in marked else "2.5",
                "class_": "kit-chart-dot" + (" is-costly" if e["index"] in marked else ""),
            },
        )
        for (px, py), e in zip(points, entries)
    ]
    dots += [
        h("circle", {"cx": f"{px:.1f}", "cy": f"{py:.1f}", "r": "4.5", "class_": "kit-chart-dot is-result"})
        for px, py in end
    ]
    words = ", ".join(f"move {e['index'] + 1}: {_percent(float(e['after']))}" for e in entries)
    if final is not None:
        words += f"; the end: {_percent(final)} ({RESULT_WORDS[str(result)].format(who=of.who)})"
    return h(
        "svg",
        {
            "class_": "kit-chart",
            "id": "kit-chart",
            "viewBox": f"0 0 {width} {height}",
            "preserveAspectRatio": "none",
            "role": "img",
            "aria_label": f"{of.lead} estimated chance after each of {of.mine} moves: {words}",
        },
        h("line", {"x1": pad, "x2": width - pad, "y1": y(0.5), "y2": y(0.5), "class_": "kit-chart-half"}),
        h("polygon", {"points": area, "class_": "kit-chart-area"}) if area else "",
        h("polyline", {"points": line, "class_": "kit-chart-line"}),
        dots,
    )


def analysis_section(ctx: Any, part: ExpertPart) -> Markup:
    """Return the results panel's analysis: a button to start it, its progress, then the chart and the costly moves."""
    if not analysable(ctx, part):
        return Markup("")
    found = analysis(ctx)
    of = whose(ctx, found.seat if found is not None else ctx.session.viewer())
    head = h("h3", {"class_": "kit-analysis-title"}, f"{of.lead} chances, by the Expert")
    if found is None:
        return h(
            "section",
            {"class_": "kit-analysis", "id": "kit-analysis", "aria_label": "The Expert's review"},
            head,
            h(
                "p",
                {"class_": "kit-analysis-intro"},
                f"The Expert looks at each of {of.mine} moves: {of.mine} chances along the game and where it would have played otherwise.",
            ),
            h(
                "button",
                {"type": "button", "class_": "btn", "data_action": "kit-analyse", "id": "kit-analyse"},
                "Analyse my game",
            ),
        )
    if found.status == "running":
        done = round(100 * found.progress)
        return h(
            "section",
            {
                "class_": "kit-analysis",
                "id": "kit-analysis",
                "aria_label": "The Expert's review",
                "aria_busy": "true",
            },
            head,
            h(
                "p",
                {"class_": "kit-analysis-intro", "id": "kit-analysis-label"},
                f"Looking at {of.mine} {found.total} moves…",
            ),
            h(
                "progress",
                {
                    "id": "kit-analysis-progress",
                    "max": "100",
                    "value": str(done),
                    "aria_labelledby": "kit-analysis-label",
                },
                f"{done}%",
            ),
        )
    if found.status == "failed":
        return h(
            "section",
            {"class_": "kit-analysis", "id": "kit-analysis"},
            head,
            h("p", {}, "The review could not finish."),
        )
    entries = found.entries
    if not entries:
        return h(
            "section",
            {"class_": "kit-analysis", "id": "kit-analysis"},
            head,
            h("p", {}, f"{of.who[:1].upper()}{of.who[1:]} made no moves to review."),
        )
    costly = _costly(entries)
    items = []
    for e in costly:
        gain = round(100 * (float(e["before"]) - float(e["after"])))
        items.append(
            h(
                "li",
                {},
                h(
                    "button",
                    {
                        "type": "button",
                        "class_": "kit-costly",
                        "data_action": "kit-review",
                        "data_value": f"at:{e['index'] + 1}",
                        "id": f"kit-costly-{e['index'] + 1}",
                    },
                    h("b", {}, f"Move {e['index'] + 1}"),
                    f": {of.who} played {e['words']}; {e['best_words']} was better: +{gain}%",
                ),
            )
        )
    start, end = float(entries[0]["before"]), float(entries[-1]["after"])
    result = ctx.session.result_for(found.seat)
    if result in RESULT_CHANCE:  # the game is decided: the chance ends at the result, not the last estimate
        said = RESULT_WORDS[result].format(who=of.who)
        summary = f"From about {_percent(start)} at {of.mine} first move to {_percent(RESULT_CHANCE[result])} at the end: {said}."
    else:
        summary = (
            f"From about {_percent(start)} at {of.mine} first move to {_percent(end)} at {of.mine} last."
        )
    best = sum(1 for e in entries if e["move"] == e["best"] or e["forced"])
    summary += f" The Expert agrees with {best} of {of.mine} {len(entries)} moves."
    return h(
        "section",
        {
            "class_": "kit-analysis",
            "id": "kit-analysis",
            "aria_label": "The Expert's review",
            "data_ms": found.ms,
        },
        head,
        _chart(entries, costly, result, of),
        h("p", {"class_": "kit-analysis-intro"}, summary),
        h("ul", {"class_": "kit-costly-list", "id": "kit-costly-list"}, items)
        if items
        else h(
            "p",
            {"class_": "kit-analysis-good"},
            f"No move of {'yours' if of.who == 'you' else of.mine} cost much: well played.",
        ),
    )


def review_comment(ctx: Any, step: int) -> str:
    """Return what the Expert said of the move that led to review ``step`` ("" when it was not the person's)."""
    found = analysis(ctx)
    if found is None or found.status != "done":
        return ""
    for e in found.entries:
        if e["index"] + 1 == step:
            if e["forced"]:  # a replay's moves are the sender's: their name, as the tray says
                return f"{whose(ctx, found.seat).lead} only move."
            loss = float(e["before"]) - float(e["after"])
            if e["move"] == e["best"] or loss < 0.02:
                return f"The Expert agrees: about {_percent(float(e['after']))}."
            return f"Expert: {e['best_words']} was better ({_percent(float(e['before']))} vs {_percent(float(e['after']))})."
    return ""


# -- driving the thinking ---------------------------------------------------------------------------------


async def _drive(
    thinking: Generator[None, None, Any],
    wanted: Callable[[], bool],
    done: Callable[[Any], None],
    tick: Callable[[], None] | None = None,
) -> None:
    """Step a ``*_thinking`` generator, handing the page back every ``SLICE_S``; stop when no longer wanted."""
    started = time.perf_counter()
    try:
        while True:
            try:
                next(thinking)
            except StopIteration as stop:
                done(stop.value)
                return
            if time.perf_counter() - started > SLICE_S:
                if tick is not None:
                    tick()
                await asyncio.sleep(0)
                if not wanted():
                    thinking.close()
                    return
                started = time.perf_counter()
    except asyncio.CancelledError:
        raise
    except Exception:  # the Expert failed: say so on the table instead of breaking it
        import traceback

        print("Boneyard hint: " + traceback.format_exc(), file=sys.stderr)
        done(None)


def _spawn(coro: Coroutine[Any, Any, None]) -> None:
    """Run ``coro`` as a task of the page's loop; in one go where no loop runs (CPython tests)."""
    if sys.platform == "emscripten":
        task = asyncio.ensure_future(coro)
        _TASKS.add(task)
        task.add_done_callback(_TASKS.discard)
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coro)
        return
    task = loop.create_task(coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def _on_table(game_id: str) -> bool:
    """Tell whether the page still shows this game's table (always, outside an app)."""
    port = ports.installed()
    # A link's game (a replay, a challenge) is on its own address, #/link/<text>.
    return port is None or port.location_hash().startswith((f"#/play/{game_id}", "#/link/"))


def _set_progress(share: float) -> None:
    """Move the analysis' progress bar in the page without redrawing the table."""
    port = ports.installed()
    if port is not None:
        port.set_progress("#kit-analysis-progress", round(100 * share))
