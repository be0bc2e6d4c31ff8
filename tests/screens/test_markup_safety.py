"""Hostile player names inject nothing: every table in every phase and the shell's screens, rendered with
names such as ``<img src=x onerror=alert(1)>``, have exactly the elements and attributes of the same
screens rendered with plain names, and a name with U+202E stays isolated (inside ``<bdi>`` in text,
between FSI and PDI in attributes and in what is read out)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from typing import Any

import pytest

from boneyard.games import GAMES
from boneyard.settings import Settings
from boneyard.stats import Stats
from tests.screens.tables import TableHarness, act
from ui import settings_view, shell, stats_view
from ui.games import screen_for
from ui.html import FSI, PDI
from ui.session import Seat, Session
from ui.table_screen import TableContext

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
IMG = "<img src=x onerror=alert(1)>"
HOSTILE = [IMG, '"q\' onmouseover=alert(1) x="', "Tom & Jerry &amp; &lt;b&gt;", f"{RLO}evil{RLO} <i>"]
# Two words each, as every hostile name has: a seat shows both alike in short (kit.short_name, its title whole).
PLAIN = ["Ana Lopez", "Bo Kim", "Cy Young", "Di Ross"]
ALLOWED_ON = {("form", "onsubmit", "return false")}  # the only event handlers our markup has, constant


class Parsed(HTMLParser):
    """The structure of a page (tags and attribute names, in order), and what it says."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.shape: list[tuple[str, ...]] = []
        self.texts: list[str] = []
        self.problems: list[str] = []
        self.open: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shape.append(("<", tag, *sorted(name for name, _ in attrs)))
        for name, value in attrs:
            if name.startswith("on") and (tag, name, value) not in ALLOWED_ON:
                self.problems.append(f"event handler <{tag} {name}={value!r}>")
            if value and RLO in value and not (tag in ("input", "option") and name == "value"):
                if not isolated(value):
                    self.problems.append(f"U+202E not isolated in <{tag} {name}={value!r}>")
        if tag not in (
            "input",
            "br",
            "img",
            "meta",
            "link",
            "hr",
            "wbr",
            "col",
            "area",
            "source",
            "track",
            "embed",
        ):
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        self.shape.append((">", tag))
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
        if RLO in data and "bdi" not in self.open:
            self.problems.append(f"U+202E outside <bdi> in {data!r} (inside {self.open[-3:]})")

    def handle_comment(self, data: str) -> None:
        self.shape.append(("!--",))


def isolated(value: str) -> bool:
    """Tell whether every U+202E in a plain string lies between an FSI and its PDI."""
    depth = 0
    for char in value:
        if char == FSI:
            depth += 1
        elif char == PDI:
            depth = max(0, depth - 1)
        elif char == RLO and depth == 0:
            return False
    return True


Frames = list[tuple[str, str]]  # (phase, markup) in the order rendered


def compare(hostile: Frames, plain: Frames, heard: Sequence[str] = (), *, names_shown: bool = True) -> str:
    """Assert that the hostile run has the plain run's structure, frame by frame, and injects nothing.

    Return the run's text; ``names_shown``: assert that a hostile name is in it.
    """
    assert [p for p, _ in hostile] == [p for p, _ in plain], "both runs pass through the same phases"
    seen_texts: list[str] = []
    for (phase, bad), (_, good) in zip(hostile, plain):
        parsed_bad, parsed_good = Parsed(bad), Parsed(good)
        assert not parsed_bad.problems, (phase, parsed_bad.problems[:3])
        assert parsed_bad.shape == parsed_good.shape, (
            f"{phase}: the names changed the markup's elements or attributes"
        )
        seen_texts += parsed_bad.texts
    if names_shown:
        assert any(name in "".join(seen_texts) for name in HOSTILE), "the names were shown as text somewhere"
    for message in heard:
        assert isolated(message), f"read out without isolating a name: {message!r}"
    return "".join(seen_texts)


# -- the tables -----------------------------------------------------------------------------------------


def fresh_screen(game: str) -> Any:
    """Return a new table screen of a game (the app's own one remembers the last setup, e.g. for Play again)."""
    return type(screen_for(game))()


class Table(TableHarness):
    """A table screen driven as the app drives it: render, reveal, next hand, moves from a seeded generator."""

    def __init__(
        self,
        game: str,
        seats: list[Seat],
        mode: tuple[str, str, dict[str, Any]],
        seed: int,
        settings: Settings,
        screen: Any = None,
    ) -> None:
        self.screen = screen or fresh_screen(game)
        self.session = Session.start(GAMES[game], seats, *mode, seed=seed)
        self.settings = settings
        self.ui = self.screen.new_state()
        self.heard: list[str] = []
        self.frames: Frames = []

    def ctx(self, width: int = 800) -> TableContext:
        return self.context(board_width=width)

    def play(self, move: Any) -> bool:
        try:
            self.session.play(move)
        except ValueError:
            return False
        return True

    def render(self, phase: str, width: int = 800) -> str:
        ctx = self.ctx(width)
        ctx.emit_all(self.screen.before_render(ctx))
        html = str(self.screen.render(ctx))
        after = getattr(self.screen, "after_render", None)
        if (
            after is not None and self.session.info.id != "bonefall"
        ):  # Bonefall's binds the canvas (browser only)
            after(self.ctx(width))
        self.frames.append((phase, html))
        return html

    def act(self, action: str, value: str = "") -> None:
        act(self.screen, self.ctx(), action, value)

    def run(self, seed: int, max_steps: int = 400) -> Frames:
        rng = random.Random(seed)
        state = self.session.state
        for step in range(max_steps):
            phase = "opening" if step == 0 else "over" if state.is_over() else "middle"
            ended_hand = len(state.view(0).get("hand_results") or ()) > int(
                self.session.extra.get("seen_hands", 0)
            )
            if step > 8 and step % 3 and not state.is_over() and not ended_hand:
                html = (
                    ""  # every move of the opening, then every third (and every end), to keep the run short
                )
            else:
                html = self.render(phase, width=340 if step % 2 else 800)
            if 'data-action="reveal"' in html:
                self.frames[-1] = ("privacy", html)
                self.act("reveal")
                html = self.render(phase)
            if 'data-action="next-hand"' in html:
                self.frames[-1] = ("end of hand", html)
                self.act("next-hand")
                continue
            if state.is_over():
                break
            if self.session.computer_to_move():
                self.session.computer_move()
            else:
                legal = state.legal_moves()
                self.session.play(legal[rng.randrange(len(legal))])
        return self.frames


def table_runs(game: str, names: list[str]) -> Iterator[tuple[str, Table, int]]:
    """Yield (label, table, seed) for a game: on one device with every seat named, and against the computer."""
    settings = Settings().replace(name=names[0])
    if game == "dominoes":
        for players, options, seed in (
            (2, {"players": 2, "target": 50}, 3),
            (4, {"players": 4, "draw": False}, 5),
            (3, {"players": 3}, 8),
        ):
            seats = [Seat("human", names[i]) for i in range(players)]
            yield f"device-{players}", Table(game, seats, ("m", "Mode", options), seed, settings), seed
        seats = [Seat("human", names[0]), Seat("computer", "Computer 1", "easy")]
        yield "computer", Table(game, seats, ("classic-2", "Classic", {"players": 2}), 1, settings), 1
    elif game == "triangles":
        for players, seed in ((2, 4), (3, 6)):
            seats = [Seat("human", names[i]) for i in range(players)]
            yield (
                f"device-{players}",
                Table(game, seats, (f"players-{players}", "Mode", {"players": players}), seed, settings),
                seed,
            )
        seats = [Seat("human", names[0]), Seat("computer", "Computer 1", "easy")]
        yield "computer", Table(game, seats, ("players-2", "2 players", {"players": 2}), 2, settings), 2
    elif game == "heptalion":
        forms = [
            {
                "opponents": "device",
                "_opp": "device",
                "players": "3",
                "hands": "hidden",
                "start": "0",
                **{f"who_{s}": "human" for s in range(3)},
                **{f"name_{s}": names[s] for s in range(3)},
            },
            {"players": "2", "who_1": "easy", "start": "1", "name_0": names[0]},
        ]
        for i, form in enumerate(forms):
            screen = fresh_screen(game)
            screen.custom_fields(form)
            mode, _ = screen.mode_from_form(form)
            seats = screen.seats_from_form(form, settings)
            assert [seat.name for seat in seats if not seat.is_computer] == names[: len(seats)][: 3 - 2 * i]
            yield (
                ("device" if i == 0 else "computer"),
                Table(game, seats, (mode.key, mode.label, mode.options), 4 + i, settings, screen),
                4 + i,
            )
    else:
        raise AssertionError(game)


@pytest.mark.parametrize("game", ["dominoes", "triangles", "heptalion"])
def test_hostile_names_inject_nothing_into_any_phase_of_a_table(game):
    plain = {label: (table.run(seed), table.heard) for label, table, seed in table_runs(game, PLAIN)}
    phases: set[str] = set()
    for label, table, seed in table_runs(game, HOSTILE):
        frames = table.run(seed)
        shown = compare(frames, plain[label][0], table.heard, names_shown=label != "computer")
        phases |= {p for p, _ in frames}
        if label != "computer":
            assert all(name in shown for name in HOSTILE[:2]), f"{label}: the seats' names are shown"
    expected = {"opening", "middle", "privacy", "over"} | ({"end of hand"} if game == "dominoes" else set())
    assert expected <= phases, f"the runs reached every phase: missing {expected - phases}"


@pytest.mark.parametrize("names", [HOSTILE, PLAIN])
def test_the_setup_forms_keep_their_shape_with_any_names(names):
    for game in ("dominoes", "triangles", "heptalion", "bonefall"):
        info = GAMES[game]
        screen = fresh_screen(game)
        for form in (
            {"opponents": "device", "players": str(min(4, info.max_players))},
            {
                "opponents": "device",
                "_opp": "device",
                "players": "4",
                **{f"who_{s}": "human" for s in range(4)},
            },
        ):
            form.update({f"name_{s}": names[s] for s in range(4)})
            custom = screen.custom_fields(form)
            mode, players = screen.mode_from_form(form)
            html = str(
                shell.setup(
                    info,
                    form,
                    custom,
                    players,
                    mode.players is not None,
                    [(m.key, m.label) for m in screen.modes()],
                    ["easy", "medium"],
                )
            )
            parsed = Parsed(html)
            assert not parsed.problems, (game, parsed.problems[:3])
            if names is HOSTILE:
                plain = dict(form, **{f"name_{s}": PLAIN[s] for s in range(4)})
                custom = screen.custom_fields(plain)
                again = str(
                    shell.setup(
                        info,
                        plain,
                        custom,
                        players,
                        mode.players is not None,
                        [(m.key, m.label) for m in screen.modes()],
                        ["easy", "medium"],
                    )
                )
                assert parsed.shape == Parsed(again).shape, game


# -- Bonefall (solo: the name is the settings' and the seat's, never shown at the table) ------------------


def bonefall_frames(name: str) -> Frames:
    from boneyard.games.bonefall.autoplay import AutoPlayer

    table = Table(
        "bonefall",
        [Seat("human", name)],
        ("sprint-norm", "Sprint", {"set": "norm", "mode": "sprint"}),
        9,
        Settings().replace(name=name),
    )
    ctx = table.ctx()
    screen = table.screen
    table.render("opening")
    act(screen, ctx, "pause", "")
    table.render("paused")
    act(screen, ctx, "resume", "")
    driver = screen.driver(ctx)
    driver.autoplayer = AutoPlayer(delay=0)
    for _ in range(4):
        driver.advance(250)
    assert not driver.state.is_over()
    table.render("middle")
    for _ in range(100_000):
        if driver.state.is_over():
            break
        driver.advance(250)
    assert driver.state.is_over()
    screen.game_over(ctx)
    table.render("over")
    act(screen, ctx, "demo", "")
    table.render("demo")
    return table.frames


def test_bonefall_renders_the_same_markup_whatever_the_name():
    compare(bonefall_frames(HOSTILE[0]), bonefall_frames(PLAIN[0]), names_shown=False)


# -- the shell ------------------------------------------------------------------------------------------


def shell_frames(names: list[str]) -> Frames:
    settings = Settings().replace(name=names[0])
    stats = Stats()
    day = "2025-01-02"
    for i, name in enumerate(names):  # a leaderboard of every name, in every turn-based game
        for game in ("dominoes", "triangles", "heptalion"):
            for result in ("win", "loss", "draw")[: 1 + i % 3]:
                stats.record(game, "classic-2", "Classic, 2 players", name, result, day)
    stats.record_scores("bonefall", "sprint-norm", {"max": 5, "power": 20, "speed": 12.5}, day)
    frames: Frames = [
        ("home", str(shell.home(GAMES.values(), {"dominoes"}, set(GAMES), settings))),
        ("settings", str(settings_view.settings_screen(settings, False, [f"boneyard:broken:{names[1]}"]))),
        ("stats", str(stats_view.stats_screen(stats, GAMES.values(), names[0]))),
        ("stats, another name", str(stats_view.stats_screen(stats, GAMES.values(), names[3]))),
        ("not found", str(shell.not_found(f"#/play/{names[2]}"))),
    ]
    frames += [(f"how to play {info.id}", str(shell.rules(info, True))) for info in GAMES.values()]
    return frames


def test_the_shell_screens_inject_nothing_and_isolate_the_names():
    hostile, plain = shell_frames(HOSTILE), shell_frames(PLAIN)
    compare(hostile, plain)
    stats = dict(hostile)["stats"]
    assert stats.count('<bdi class="name">') >= 4 * 3, (
        "every leaderboard row and the caption isolate the name"
    )
    assert IMG not in "".join(html for _, html in hostile), "never unescaped"


def test_the_check_itself_sees_an_injection():
    good: Frames = [("x", '<p>Hi <bdi class="name">Ana</bdi></p>')]
    for bad in (
        '<p>Hi <bdi class="name"><img src=x onerror=alert(1)></bdi></p>',
        '<p title="" onclick="x">Hi <bdi class="name">Ana</bdi></p>',
        f"<p>Hi {RLO}Ana</p>",
    ):
        with pytest.raises(AssertionError):
            compare([("x", bad)], good, names_shown=False)
    with pytest.raises(AssertionError):
        compare(good, good, [f"{RLO}Ana placed a tile"], names_shown=False)
