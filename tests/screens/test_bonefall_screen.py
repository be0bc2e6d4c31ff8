"""Bonefall's table screen under CPython: modes, the real-time driver (steps, held keys), pause and
resume, the end of a game (scores recorded once, summary), the demo, and the markup."""

from __future__ import annotations

import json
from typing import Any

import pytest

from boneyard.games import GAMES
from boneyard.games.bonefall import new_state, replay
from boneyard.games.bonefall.autoplay import AutoPlayer
from boneyard.settings import Settings
from tests.screens.tables import act, carry_out
from ui.games import bonefall_play as fp
from ui.games.bonefall import MODES, SCREEN, BonefallScreen, BonefallTableState, cascade_steps_for, hud_values
from ui.session import Seat, Session
from ui.table_screen import TableContext

INFO = GAMES["bonefall"]


class Table:
    """A session with the screen, as the app drives it."""

    def __init__(self, mode_key: str = "sprint-norm", seed: int = 5, animations: bool = False) -> None:
        self.screen = BonefallScreen()
        mode, _players = self.screen.mode_from_form({"mode": mode_key})
        self.session = Session.start(
            INFO, [Seat("human", "Ann")], mode.key, mode.label, mode.options, seed=seed
        )
        self.ui = self.screen.new_state()
        self.saves = 0
        self.finished = 0
        self.recorded: list[dict[str, float]] = []
        self.bests: dict[str, float] = {}
        self.animations = animations
        self.html = ""
        self.render()

    def ctx(self) -> TableContext:
        ctx = TableContext(session=self.session, settings=Settings(), ui=self.ui, animations=self.animations)
        ctx.emit = lambda intent: carry_out(
            ctx,
            self.screen,
            intent,
            play=lambda move: False,
            announce=lambda text: None,
            rerender=self.render,
            save=self.save,
            finish=self.finish_game,
        )
        return ctx

    def finish_game(self, scores: dict[str, float]) -> list[str]:
        """Keep the scores and count the game, as the app's dispatcher does for an ``intents.Finish``."""
        new = self.record(scores) if scores else []
        self.finish()
        return new

    def save(self) -> None:
        self.saves += 1
        json.dumps(self.session.to_json())  # what the app stores must be JSON

    def finish(self) -> None:
        self.finished += 1
        self.session.recorded = True

    def record(self, scores: dict[str, float]) -> list[str]:
        self.recorded.append(dict(scores))
        new = [k for k, v in scores.items() if k not in self.bests or v > self.bests[k]]
        self.bests.update({k: scores[k] for k in new})
        return new

    def render(self) -> None:
        ctx = self.ctx()
        ctx.emit_all(self.screen.before_render(ctx))
        self.html = str(self.screen.render(self.ctx()))

    @property
    def driver(self) -> fp.Driver:
        return self.screen.driver(self.ctx())


# -- setup -------------------------------------------------------------------------------------


def test_four_modes_with_stats_keys():
    keys = [m.key for m in SCREEN.modes()]
    assert keys == ["sprint-norm", "sprint-max", "marathon-norm", "marathon-max"]
    assert all(m.players == 1 for m in MODES)
    assert SCREEN.mode_from_form({})[0].key == "sprint-norm"
    mode, players = SCREEN.mode_from_form({"mode": "marathon-max"})
    assert (mode.options, players) == ({"set": "max", "mode": "marathon"}, 1)
    assert SCREEN.mode_from_form({"mode": "nonsense"})[0].key == "sprint-norm"


def test_setup_card_shows_the_keys_and_the_touch_controls():
    html = str(SCREEN.custom_fields({}))
    for key in ("Space", "P or Esc", "Z", "← →"):
        assert key in html
    assert "Play with the pad under the well, or swipe on the well: sideways to move" in html  # a phone's


# -- the driver ----------------------------------------------------------------------------------


def test_elapsed_time_becomes_whole_steps_with_the_remainder_carried():
    driver = fp.Driver(new_state(1))
    assert driver.advance(10).steps == 0
    assert driver.advance(10).steps == 1  # 20 ms: one step of 16.7, 3.3 carried
    assert driver.state.steps == 1
    total = sum(driver.advance(1000 / 60).steps for _ in range(60))
    assert total == 60
    # a stalled tab never bursts: at most MAX_FRAME_MS of play per frame
    assert driver.advance(10_000).steps <= fp.MAX_FRAME_MS / fp.STEP_MS + 1


def test_a_held_direction_repeats_after_a_delay():
    driver = fp.Driver(new_state(1))
    start = driver.state.col
    assert driver.press("left")
    assert driver.state.col == start - 1
    assert not driver.press("left")  # the system's key repeat is ignored
    for _ in range(fp.REPEAT_DELAY - 1):
        driver.advance(fp.STEP_MS)
    assert driver.state.col == start - 1  # still waiting
    driver.advance(fp.STEP_MS)
    assert driver.state.col == start - 2
    for _ in range(fp.REPEAT_EVERY):
        driver.advance(fp.STEP_MS)
    assert driver.state.col == start - 3
    driver.release("left")
    for _ in range(30):
        driver.advance(fp.STEP_MS)
    assert driver.state.col == start - 3


def test_the_latest_direction_wins():
    driver = fp.Driver(new_state(1))
    start = driver.state.col
    driver.press("left")
    driver.press("right")
    assert driver.state.col == start
    for _ in range(fp.REPEAT_DELAY):
        driver.advance(fp.STEP_MS)
    assert driver.state.col == start + 1


def test_a_scripted_log_replays_to_the_same_scores():
    options = {"set": "norm", "mode": "sprint", "cascade_steps": 3}
    state = new_state(21, **options)
    player = AutoPlayer(delay=6)
    while not state.is_over():
        player.act(state)
        state.step()
    driver = fp.Driver(new_state(21, **options))
    driver.load_script(state.log, speed=20)
    frames = 0
    while not driver.state.is_over() and frames < 10_000:
        driver.advance(fp.STEP_MS)
        frames += 1
    assert driver.state.is_over()
    expected = replay(21, options, state.log, until=state.steps)
    got = driver.state
    assert (got.max_score, got.power, got.steps) == (expected.max_score, expected.power, expected.steps)
    assert (got.max_score, got.power) == (state.max_score, state.power)


def test_the_autoplayer_plays_through_the_driver():
    driver = fp.Driver(new_state(3, cascade_steps=2), AutoPlayer(delay=2))
    for _ in range(3000):
        if driver.advance(fp.STEP_MS).over:
            break
    assert driver.state.is_over() and driver.state.turns == 28


# -- the screen ----------------------------------------------------------------------------------


def test_a_new_game_takes_the_cascade_timing_of_the_motion_setting():
    assert Table(animations=False).session.state.cascade_steps == cascade_steps_for(False)
    table = Table(animations=True)
    assert table.session.state.cascade_steps == cascade_steps_for(True) == 12


def test_the_table_markup():
    table = Table()
    html = table.html
    for needle in (
        'id="fall-canvas"',
        'id="fall-next"',
        'id="fall-turn"',
        'id="fall-max"',
        'id="fall-power"',
        'id="fall-speed"',
        'id="fall-left"',
        'data-fall="hard_drop"',
        'data-fall="left"',
        'data-action="pause"',
        "Space",
    ):
        assert needle in html, needle
    assert 'data-paused="false"' in html
    assert ">28<" in html  # dominoes left in the set (the falling one included)
    marathon = Table("marathon-max")
    assert '<dt>Sets</dt><dd id="fall-left">1</dd>' in marathon.html and "set 1" not in marathon.html
    assert 'aria-label="Marathon, Max set"' in marathon.html
    assert (
        '<span class="fall-mode-part">Marathon</span><span class="fall-mode-part">Max</span>' in marathon.html
    )
    # Power leads; the three scores are explained in plain words; "?" opens the rules
    assert html.index('id="fall-power"') < html.index('id="fall-max"') < html.index('id="fall-speed"')
    assert "What the scores mean" in html and "(halves cleared − 1)²" in html
    assert 'data-action="rules" data-value="bonefall"' in html
    # A phone's one line under the pad opens the swipes and the scores as one sheet (css/bonefall.css).
    below = html[html.index('class="fall-explain fall-explain-below"') :]
    assert '<span class="fall-explain-phone">Swipes and scores</span>' in below
    assert below.index('class="fall-explain-swipes"') < below.index("(halves cleared − 1)²")
    assert html.count("Swipe on the well") == 2  # the tablet's hint line, and the phone's sheet


def test_the_setup_card_explains_the_scores_and_offers_the_demo():
    html = str(SCREEN.custom_fields({}))
    assert 'data-action="watch-demo" data-value="bonefall"' in html and "What the scores mean" in html


def test_a_demo_asked_for_on_the_setup_screen_runs_over_the_players_paused_game():
    table = Table()
    table.ui.start_demo = True
    table.render()
    html = table.html
    assert 'data-demo="true"' in html and table.ui.start_demo is None
    assert table.ui.paused and table.ui.pause_reason == "demo"
    assert table.session.state.steps == 0  # the player's own game waits, untouched
    act(SCREEN, table.ctx(), "demo", "")  # stop it
    table.ui.start_demo = {"set": "max", "mode": "marathon"}  # asked for with another mode chosen
    table.render()
    demo = table.ui.demo.state
    assert (demo.set_name, demo.mode) == ("max", "marathon") and table.session.state.mode == "sprint"


def test_play_again_is_a_new_deal_that_counts_on_its_own():
    table = Table()
    uid = table.session.uid
    act(SCREEN, table.ctx(), "again", "")
    assert table.session.uid != uid


def test_keys_move_and_pause_and_resume():
    table = Table()
    ctx = table.ctx()
    col = table.session.state.col
    assert SCREEN.on_key(ctx, "ArrowLeft")
    assert table.session.state.col == col - 1
    SCREEN.on_key_up(ctx, "ArrowLeft")
    assert not SCREEN.on_key(ctx, "q")
    assert SCREEN.on_key(ctx, "p")
    assert table.ui.paused and table.saves == 1
    assert 'id="fall-paused"' in table.html
    assert not SCREEN.on_key(ctx, " ")  # Space presses the panel's buttons while paused
    assert SCREEN.on_key(ctx, "Escape")
    assert not table.ui.paused and 'id="fall-paused"' not in table.html
    assert SCREEN.on_key(ctx, " ")  # hard drop
    assert table.session.state.turns == 1


def test_a_reloaded_game_starts_paused_where_it_was():
    table = Table()
    table.driver.advance(500)
    table.driver.press("hard_drop")
    saved = json.loads(json.dumps(table.session.to_json()))
    again = Session.from_json("bonefall", saved)
    ui = BonefallTableState()
    ctx = TableContext(
        session=again,
        settings=Settings(),
        ui=ui,
        animations=False,
    )
    assert SCREEN.before_render(ctx) == []
    html = str(SCREEN.render(ctx))
    assert ui.paused and "where you left it" in html
    assert again.state.to_dict() == table.session.state.to_dict()


def test_the_end_records_scores_once_and_shows_the_summary():
    table = Table(seed=9)
    driver = table.driver
    driver.autoplayer = AutoPlayer(delay=0)
    while not driver.advance(250).over:
        pass
    ctx = table.ctx()
    SCREEN.game_over(ctx)
    state = table.session.state
    assert table.recorded == [{"max": state.max_score, "power": state.power, "speed": round(state.speed, 1)}]
    assert table.ui.summary is not None and set(table.ui.summary["new"]) == {"max", "power", "speed"}
    assert table.finished == 1
    SCREEN.game_over(ctx)
    assert len(table.recorded) == 1  # once
    table.render()
    assert 'id="fall-summary"' in table.html and "New best!" in table.html
    assert f'id="fall-final-power">{state.power}' in table.html
    # Play again: a new game of the same mode, in place
    act(SCREEN, ctx, "again", "")
    assert not table.session.state.is_over() and table.session.state.steps == 0
    assert not table.session.recorded and 'id="fall-summary"' not in table.html


def test_the_demo_never_touches_the_players_game():
    table = Table()
    ctx = table.ctx()
    before = table.session.state.to_dict()
    act(SCREEN, ctx, "demo", "")
    demo = table.ui.demo
    assert demo.autoplayer is not None and demo.state is not table.session.state
    for _ in range(200):
        demo.advance(fp.STEP_MS)
    assert demo.state.steps > 0 and 'data-demo="true"' in table.html
    assert table.session.state.to_dict() == before and table.ui.paused
    act(SCREEN, ctx, "demo", "")
    assert table.ui.demo is None


@pytest.mark.parametrize("event_index, expected", [(None, 5), (0, 0), (1, 2), (3, 5)])
def test_the_turn_score_counts_up_during_a_cascade(event_index, expected):
    view = new_state(1).view()
    view.update(
        turn_score=5,
        event_index=event_index,
        events=[
            {"kind": "fall"},
            {"kind": "annihilate", "score": 2},
            {"kind": "fall"},
            {"kind": "annihilate", "score": 5},
        ],
    )
    assert hud_values(view)["turn"] == str(expected)


# -- the canvas runner under CPython: a fake page, many frames, nothing grows ------------------------


class FakeJs:
    """A stand-in for any JS object: attributes spring into being, calls return another stand-in."""

    def __init__(self, **attrs: Any) -> None:
        self.__dict__.update(attrs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        child = FakeJs()
        object.__setattr__(self, name, child)
        return child

    def __call__(self, *args: Any, **kwargs: Any) -> FakeJs:
        return FakeJs()

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return ""


class FakePage:
    """The window and document the runner sees: a clock, animation frames and timeouts the test fires."""

    def __init__(self) -> None:
        self.now = 0.0
        self.frames: dict[int, Any] = {}
        self.timeouts: list[tuple[float, Any]] = []
        self.ids = 0
        self.errors: list[str] = []
        self.elements: dict[str, FakeJs] = {}
        self.window = FakeJs(
            performance=FakeJs(now=lambda: self.now),
            devicePixelRatio=1,
            requestAnimationFrame=self.request,
            cancelAnimationFrame=lambda i: self.frames.pop(i, None),
            setTimeout=self.set_timeout,
            console=FakeJs(error=lambda text: self.errors.append(str(text))),
        )
        self.document = FakeJs(getElementById=self.element, hidden=False)

    def element(self, name: str) -> Any:
        if name not in self.elements:
            parent = FakeJs(clientWidth=240, clientHeight=480)
            self.elements[name] = FakeJs(parentElement=parent, clientWidth=96)
        return self.elements[name]

    def request(self, callback: Any) -> int:
        self.ids += 1
        self.frames[self.ids] = callback
        return self.ids

    def set_timeout(self, callback: Any, ms: float) -> int:
        self.timeouts.append((self.now + float(ms), callback))
        return 0

    def run(self, frames: int, frame_ms: float = 1000 / 60) -> None:
        """Advance the clock a frame at a time, calling the frame callbacks and the timeouts that are due."""
        for _ in range(frames):
            self.now += frame_ms
            due, self.frames = self.frames, {}
            for callback in due.values():
                callback(self.now)
            for item in [t for t in self.timeouts if t[0] <= self.now]:
                self.timeouts.remove(item)
                item[1]()


class FakeProxy:
    """``create_proxy``'s stand-in: callable until destroyed."""

    live = 0

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        FakeProxy.live += 1

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)

    def destroy(self) -> None:
        FakeProxy.live -= 1
        self.fn = None


@pytest.fixture
def canvas(monkeypatch):
    """Import ``bonefall_canvas`` (browser-only) against a fake page; return (module, page)."""
    import sys
    import types

    page = FakePage()
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = FakeProxy  # type: ignore[attr-defined]
    ffi.create_once_callable = lambda fn: fn  # type: ignore[attr-defined]
    ffi.to_js = lambda value, **kwargs: value  # type: ignore[attr-defined]
    ffi.jsnull = object()  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    pyscript = types.ModuleType("pyscript")
    pyscript.document, pyscript.window = page.document, page.window  # type: ignore[attr-defined]
    js = types.ModuleType("js")
    js.Object = FakeJs(fromEntries=lambda x: x)  # type: ignore[attr-defined]
    for name, module in (("pyodide", pyodide), ("pyodide.ffi", ffi), ("pyscript", pyscript), ("js", js)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "ui.browser.bonefall_canvas", raising=False)
    import ui.browser.bonefall_canvas as module

    yield module, page
    import gc

    gc.unfreeze()
    sys.modules.pop("ui.browser.bonefall_canvas", None)


class BrowserTable(Table):
    """A table whose re-render binds the canvas again, as the app's ``render`` does."""

    bound = False

    def render(self) -> None:
        super().render()
        if self.bound:
            self.screen.after_render(self.ctx())


SNAPSHOTS = {"view", "event", "links"}  # the board of the moment, replaced whole (bounded by the well)


def sizes(*objects: Any) -> dict[str, int]:
    """Return the length of every container held by ``objects`` (and by the dicts among them)."""
    out: dict[str, int] = {}
    for obj in objects:
        for name, value in vars(obj).items():
            if name in SNAPSHOTS or isinstance(value, str) or not hasattr(value, "__len__"):
                continue
            out[f"{type(obj).__name__}.{name}"] = len(value)
            if isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(item, (list, dict, set)):
                        out[f"{type(obj).__name__}.{name}[{key!r}]"] = len(item)
        samples = getattr(obj, "samples", None)
        if samples is not None:
            out.update({f"samples.{k}": len(v) for k, v in samples.columns.items()})
    return out


def test_many_frames_of_demo_grow_no_list_and_leaving_releases_the_runner(canvas):
    """Thousands of frames through the real frame loop (demo games dealt one after another): the runner's
    and the driver's containers keep their sizes, the heap stays flat, and leaving lets everything go."""
    import gc
    import tracemalloc
    import weakref

    module, page = canvas
    table = BrowserTable("sprint-norm", animations=True)
    table.bound = True
    ctx = table.ctx()
    act(SCREEN, ctx, "demo", "")  # re-renders, which binds and starts the loop
    runner = module.RUNNER
    assert runner.active and runner.raf_id is not None and not runner.failed
    page.run(600)  # warm up: sprites drawn, the first turns played
    demo = table.ui.demo
    before = sizes(runner, demo)
    games = set()
    tracemalloc.start()
    try:
        heap = []
        for _ in range(12):
            page.run(1000)
            games.add(id(table.ui.demo.state))
            gc.collect()
            heap.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert not runner.failed, page.errors
    assert len(games) >= 2  # a demo game ended and a new one was dealt: the loop went on through it
    assert runner.samples.total > 10_000  # frames drawn (none in the pause between two demo games)
    after = sizes(runner, table.ui.demo)
    grown = {k: (before.get(k), v) for k, v in after.items() if v > before.get(k, 0) and "sprites" not in k}
    assert not grown, grown
    assert len(runner.sprites) <= 10 * 5  # one face a value and link side, drawn once
    assert len(runner.links) <= 8 * 16 and len(runner.view["cells"]) <= 8 * 16
    # the heap: what 12,000 frames leave behind is a demo game's own record (its input log), not frames
    assert max(heap[4:]) - min(heap[4:]) < 40_000, heap
    # leaving the table stops the loop and lets go of the table and the demo
    ref = weakref.ref(table.ui.demo)
    state_ref = weakref.ref(table.ui.demo.state)
    live = FakeProxy.live
    SCREEN.leave(table.ctx())
    table.bound = False
    gc.collect()
    assert ref() is None and state_ref() is None
    assert (runner.ctx, runner.screen, runner.view, runner.layer, runner.samples) == (None,) * 5
    assert runner.sprites == {} and runner.listeners == [] and runner.frame_proxy is None
    assert runner.raf_id is None and not page.frames
    assert FakeProxy.live < live  # the frame callback and the listeners were destroyed
    page.run(300)  # nothing runs any more
    assert not page.frames


def test_frame_samples_are_a_fixed_ring():
    samples = fp.FrameSamples(capacity=5)
    sizes_before = {k: len(v) for k, v in samples.columns.items()}
    for i in range(12):
        samples.add(float(i), 0.5, 100.0 + i, 0.1, 0.0, 0.2, i % 2 == 0)
    assert {k: len(v) for k, v in samples.columns.items()} == sizes_before
    assert samples.count == 5 and samples.total == 12
    assert samples.column("frame_ms") == [7.0, 8.0, 9.0, 10.0, 11.0]  # oldest first
    assert samples.column("layer") == [0.0, 1.0, 0.0, 1.0, 0.0]
    samples.clear()
    assert samples.count == samples.total == 0 and samples.column("ts") == []
    samples.add(1.0, 0.0, 2.0, 0.0, 0.0, 0.0, False)
    assert samples.column("ts") == [2.0]


# -- the end of a Sprint reached by a drop pressed between two frames ---------------------------------

END_SEED = 5  # its Sprint, autoplayed to the 25th domino and then dropped at the top: the last drop clears
# nothing, so the game ends inside the key's command (not inside a step of the frame loop)


def sprint_near_its_end(seed: int = END_SEED, piece: int = 25, animations: bool = True) -> Any:
    """Return a Sprint autoplayed until domino ``piece`` falls."""
    state = new_state(seed, set="norm", mode="sprint", cascade_steps=cascade_steps_for(animations))
    player = AutoPlayer(delay=6)
    while state.piece < piece and not state.is_over():
        player.act(state)
        state.step()
    return state


def test_a_drop_that_ends_the_game_between_frames_is_reported_by_the_next_frame():
    state = sprint_near_its_end()
    driver = fp.Driver(state)
    locks = 0
    for _ in range(2000):  # a drop at every chance, a frame after each (the cascades play meanwhile)
        driver.press("hard_drop")
        ended = state.is_over()
        result = driver.advance(fp.STEP_MS)
        locks += result.locked
        if result.over:
            break
    assert ended and result.over, "the last drop ends the game inside its command"
    assert state.termination == "set played" and locks == 4  # dominoes 25-28, each lock reported
    assert not driver.advance(fp.STEP_MS).over  # the end is reported once


@pytest.mark.parametrize("animations", [True, False])
def test_a_sprint_ended_by_quick_drops_shows_its_result_saves_and_counts(canvas, animations):
    """Rapid Space presses through the end of a Sprint: the frame loop shows the end, the game is
    recorded once and finished (its save dropped, the run counted), whatever the timing. (The cascades'
    timing changes nothing: the last drop clears nothing either way.)"""
    module, page = canvas
    table = BrowserTable("sprint-norm", animations=animations)
    table.session.state = sprint_near_its_end(animations=animations)
    table.bound = True
    ctx = table.ctx()
    act(SCREEN, ctx, "resume", "")  # a game already under way starts paused
    assert module.RUNNER.raf_id is not None
    saves = table.saves
    for _ in range(100):  # Space every 200 ms, as a quick player does
        SCREEN.on_key(ctx, " ")
        page.run(12)
        if 'id="fall-summary"' in table.html:
            break
    assert table.session.state.is_over()
    assert 'id="fall-summary"' in table.html, "the result must show"
    assert "All 28 dominoes played." in table.html
    assert table.finished == 1 and len(table.recorded) == 1
    assert table.saves - saves >= 3  # each domino locked by a key was saved (the last one is finished)
    page.run(60)
    assert table.finished == 1 and not module.RUNNER.failed and not page.frames  # the loop stopped
    SCREEN.leave(table.ctx())


def test_leaving_the_table_right_after_the_last_drop_still_records_the_game(canvas):
    table = BrowserTable("sprint-norm", animations=True)
    state = table.session.state = sprint_near_its_end()
    while not (state.piece == 28 and state.phase == "falling"):  # dominoes 25-27 dropped at the top
        if state.phase == "falling":
            state.command("hard_drop")
        else:
            state.step()
    table.bound = True
    ctx = table.ctx()
    act(SCREEN, ctx, "resume", "")
    SCREEN.on_key(ctx, " ")  # the last drop, and the player leaves before the next frame
    assert table.session.state.is_over()
    SCREEN.leave(table.ctx())
    assert table.finished == 1 and len(table.recorded) == 1


def test_a_page_hidden_for_good_keeps_the_game_as_it_is(canvas):
    """pagehide (a reload, a closed tab): a game in play is saved where it is, without a pause panel for a
    page the back-forward cache brings back; an end not yet shown is recorded."""
    module, page = canvas
    table = BrowserTable("sprint-norm", animations=True)
    table.bound = True
    ctx = table.ctx()
    act(SCREEN, ctx, "resume", "")
    page.run(30)
    saves = table.saves
    module.RUNNER.on_pagehide(None)
    assert table.saves == saves + 1 and not table.ui.paused and module.RUNNER.raf_id is not None
    state = table.session.state = sprint_near_its_end()
    table.ui.driver = None
    act(SCREEN, ctx, "resume", "")
    while not state.is_over():  # drops pressed with no frame between them, then the page goes
        if state.phase == "falling":
            state.command("hard_drop")
        else:
            state.step()
    module.RUNNER.on_pagehide(None)
    assert table.finished == 1 and len(table.recorded) == 1
    SCREEN.leave(table.ctx())


def test_the_render_only_reads_what_before_render_made():
    """Drawing writes nothing: the driver and an asked-for demo are made by ``before_render``."""
    table = Table()
    table.ui.start_demo = True
    ctx = table.ctx()
    ctx.emit_all(table.screen.before_render(ctx))
    assert table.ui.demo is not None and table.ui.start_demo is None
    kept, state = dict(vars(table.ui)), table.session.state.to_dict()
    first, second = str(table.screen.render(ctx)), str(table.screen.render(ctx))
    assert first == second and vars(table.ui) == kept and table.session.state.to_dict() == state
