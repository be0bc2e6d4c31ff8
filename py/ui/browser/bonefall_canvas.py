"""Bonefall in the browser: the canvas, the requestAnimationFrame loop, keys, touch and visibility.

Browser-only (imports ``pyodide`` and ``pyscript``); the markup and the game logic live in the pure
modules ``bonefall`` and ``bonefall_play``.

Drawing is built for a cheap frame: every half-domino face (value x link side) is drawn once into a
small sprite canvas, the dominoes at rest are drawn into an offscreen layer only when the board changes
(a lock, the next cascade event), and a frame is then one ``drawImage`` of that layer plus a handful of
sprites (the ghost, the falling domino, the halves animating). Sizes follow ``devicePixelRatio`` with a
whole number of device pixels per cell, so the well stays crisp.

One ``Runner`` serves the page. It keeps a single proxy of its frame callback and its listeners, made
on the first ``bind`` and released by ``unbind`` (when the player leaves the table), which also lets go
of the table, its canvases and sprites, the demo and the frame samples. A frame allocates nothing that
outlives it: the frame benchmark's numbers go into the fixed arrays of ``FrameSamples`` (read through
``window.boneyardBonefall.stats()``), so the heap does not grow however long the page plays.
"""

from __future__ import annotations

import gc
import json
import traceback
from typing import Any

from pyodide.ffi import create_proxy, jsnull, to_js
from pyscript import document, window

from boneyard.games.bonefall.autoplay import AutoPlayer
from boneyard.games.bonefall.sim import gravity_steps, piece_cells

from ..games.bonefall_play import Driver, FrameSamples, hud_values
from ..intents import Render, Save

WIDTH, HEIGHT = 8, 16
SAVE_EVERY_MS = 4000.0

# Pip colours by value (readable on every theme's --tile): blank, then one colour per number.
PIP_COLOURS = (
    "#000",
    "#c0392b",
    "#1f63b2",
    "#2e8540",
    "#8e3fb0",
    "#d35400",
    "#1b1b1b",
    "#a87400",
    "#0e7c86",
    "#c2185b",
)
# Pip positions on a 3x3 grid (column, row), per value 0-9.
PIPS = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
    7: ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}
# Which side of a half its partner is on, from the cell offset to the partner.
LINKS = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}


def _js(value: Any) -> Any:
    return None if value is None or value is jsnull else value


def _now() -> float:
    return float(window.performance.now())


def _ease(p: float) -> float:
    return p * p * (3 - 2 * p)


class Runner:
    """Draws the well and runs the frame loop of the table on screen."""

    def __init__(self) -> None:
        self.screen: Any = None
        self.ctx: Any = None
        self.active = False
        self.canvas: Any = None
        self.g: Any = None
        self.next_canvas: Any = None
        self.cell = 0  # device pixels per cell
        self.cell_css = 1.0  # CSS pixels per cell
        self.look: tuple[Any, ...] = ()  # cell size, set, colours: the sprites' look
        self.colours: dict[str, str] = {}
        self.sprites: dict[tuple[int, str | None], Any] = {}
        self.background: Any = None
        self.layer: Any = None
        self.layer_g: Any = None
        self.layer_key: Any = None
        self.next_key: Any = None
        self.hud: dict[str, Any] = {}
        self.hud_text: dict[str, str] = {}
        self.view: dict[str, Any] | None = None
        self.links: dict[tuple[int, int], str | None] = {}
        self.event: dict[str, Any] | None = None
        self.sounded: tuple[int, int, int] | None = None  # the annihilation last heard
        self.hud_at = 0
        self.raf_id: Any = None
        self.last_ts: float | None = None
        self.last_save = 0.0
        self.frame_proxy: Any = None
        self.listeners: list[tuple[Any, str, Any]] = []
        self.observer: Any = None  # a ResizeObserver on the well's box, and its callback's proxy
        self.resized_proxy: Any = None
        self.pointers: dict[int, dict[str, Any]] = {}
        self.failed = False
        # the frame benchmark's samples (allocated while a table is bound)
        self.samples: FrameSamples | None = None
        self.steps_run = 0
        self.layer_drawn = False

    # -- binding ------------------------------------------------------------------------------
    def bind(self, screen: Any, ctx: Any) -> None:
        """Attach to the table just rendered: canvas, sizes, listeners; run or stop the loop."""
        self.screen, self.ctx = screen, ctx
        if not self.active:
            self._listen()
            self.active = True
            self.last_save = _now()
            if self.samples is None:
                self.samples = FrameSamples()
            # Long-lived objects (modules, the app) need no more scanning by the cycle collector: a full
            # collection in the middle of play would otherwise cost a frame.
            gc.collect()
            gc.freeze()
        self.canvas = _js(document.getElementById("fall-canvas"))
        self.next_canvas = _js(document.getElementById("fall-next"))
        if self.canvas is None:
            return
        self.g = self.canvas.getContext("2d")
        self.hud = {}
        for name in ("turn", "max", "power", "speed", "left", "level"):
            self.hud[name] = _js(document.getElementById(f"fall-{name}"))
        self.hud_text = {}
        self._measure()
        self._observe()
        driver = self.driver()
        state = ctx.session.state
        if ctx.ui.demo is None and state.is_over() and not ctx.session.recorded:
            self.screen.game_over(ctx)
            self.stop()
            ctx.emit(Render())
            return
        self.view = None
        self.draw(driver, 0.0)
        if self.running():
            self.start()
        else:
            self.stop()

    def unbind(self, screen: Any, ctx: Any) -> None:
        """The player left the table: stop, pause and save, release the listeners."""
        self.stop()
        if self.active:
            ui = ctx.ui
            if ui.demo is not None:
                ui.demo = None
            self.keep(screen, ctx)
        for target, kind, proxy in self.listeners:
            target.removeEventListener(kind, proxy)
            proxy.destroy()
        self.listeners = []
        self.pointers.clear()
        if self.observer is not None:
            self.observer.disconnect()
            self.observer = None
        if self.resized_proxy is not None:
            self.resized_proxy.destroy()
            self.resized_proxy = None
        if self.frame_proxy is not None:
            self.frame_proxy.destroy()
            self.frame_proxy = None
        was_active = self.active
        self.active = False
        self.release()
        if was_active:
            gc.unfreeze()  # what ``bind`` froze may be collected again

    def keep(self, screen: Any, ctx: Any, pause: bool = True) -> None:
        """Keep the player's game as it is now (the player leaves the table or the page): an end not yet
        shown is recorded, a game in play saved (and paused, unless ``pause`` is False)."""
        if ctx.ui.demo is not None:
            return
        if ctx.session.state.is_over():
            if not ctx.session.recorded:
                screen.game_over(ctx)
        elif pause and not ctx.ui.paused:
            ctx.emit_all(screen.pause(ctx, "player"))
        else:
            ctx.emit(Save())

    def release(self) -> None:
        """Let go of everything the table held: the context, its views, canvases, sprites and samples."""
        self.screen = self.ctx = None
        self.canvas = self.g = self.next_canvas = None
        self.layer = self.layer_g = self.background = None
        self.sprites = {}
        self.look = ()
        self.layer_key = self.next_key = None
        self.hud, self.hud_text = {}, {}
        self.view = self.event = None
        self.links = {}
        self.samples = None
        self.steps_run = 0

    def driver(self) -> Driver:
        demo: Driver | None = self.ctx.ui.demo
        if demo is not None:
            return demo
        driver: Driver = self.screen.driver(self.ctx)
        return driver

    def running(self) -> bool:
        """Tell whether the loop must run: play goes on, or an end not yet shown (and saved) is pending."""
        ui = self.ctx.ui
        if ui.demo is not None:
            return not ui.demo.state.is_over()
        state = self.ctx.session.state
        driver = ui.driver
        if driver is not None and driver.state is state and driver.ending():
            return True  # a drop pressed between two frames ended the game: the next frame shows the end
        return not ui.paused and not state.is_over()

    # -- the loop -----------------------------------------------------------------------------
    def start(self) -> None:
        if self.failed or self.raf_id is not None:
            return
        if self.frame_proxy is None:
            self.frame_proxy = create_proxy(self.frame)
        self.last_ts = None
        self.raf_id = window.requestAnimationFrame(self.frame_proxy)

    def stop(self) -> None:
        if self.raf_id is not None:
            window.cancelAnimationFrame(self.raf_id)
            self.raf_id = None
        self.last_ts = None

    def frame(self, ts: Any) -> None:
        """One animation frame: run the steps the elapsed time holds, save when due, draw."""
        t0 = _now()
        self.raf_id = None
        try:
            if not self.active or self.canvas is None or not self.running():
                return
            ts = float(ts)
            elapsed = 0.0 if self.last_ts is None else ts - self.last_ts
            self.last_ts = ts
            driver = self.driver()
            demo = self.ctx.ui.demo is not None
            result = driver.advance(elapsed)
            self.steps_run += result.steps
            t1 = _now()
            saved = 0.0
            if not demo and not result.over:
                if result.locked or (t0 - self.last_save > SAVE_EVERY_MS and result.steps):
                    self.ctx.emit(Save())
                    self.last_save = t0
                    saved = _now() - t1
            self.draw(driver, driver.sub_step())
            advance, draw, layer = t1 - t0, _now() - t1 - saved, self.layer_drawn
            self.layer_drawn = False
            if result.over:
                if demo:
                    window.setTimeout(create_once(self.restart_demo), 2500)
                else:
                    self.screen.game_over(self.ctx)
                    self.ctx.emit(Render())
            else:
                self.raf_id = window.requestAnimationFrame(self.frame_proxy)
            if self.samples is not None:
                self.samples.add(_now() - t0, driver.autoplay_ms, ts, advance, saved, draw, layer)
        except Exception as exc:
            self.fail(exc)

    def restart_demo(self) -> None:
        try:
            ui = self.ctx.ui if self.ctx is not None else None
            if self.active and ui is not None and ui.demo is not None and ui.demo.state.is_over():
                speed = ui.demo.speed
                self.ctx.emit_all(self.screen.toggle_demo(self.ctx))  # stop
                self.ctx.emit_all(self.screen.toggle_demo(self.ctx))  # and deal a new one
                ui.demo.speed = speed  # a fast-forwarded demo (a test's) stays fast
                self.ctx.emit(Render())
        except Exception as exc:
            self.fail(exc)

    def fail(self, exc: BaseException) -> None:
        """Report an error once and stop the loop, without crashing the page."""
        self.stop()
        self.failed = True
        window.console.error("Boneyard (Bonefall): " + traceback.format_exc())
        box = _js(document.getElementById("toasts"))
        if box is not None:
            item = document.createElement("div")
            item.className = "toast toast-error"
            item.setAttribute("role", "alert")
            item.textContent = f"Bonefall stopped: {exc}. Your game is saved; reload to continue."
            box.appendChild(item)
        try:
            self.ctx.emit(Save())
        except Exception:
            pass

    # -- sizes and look -----------------------------------------------------------------------
    def _measure(self) -> None:
        """Size the canvas to a whole number of device pixels per cell; rebuild sprites on change."""
        wrap = self.canvas.parentElement
        css_w = float(wrap.clientWidth) or 240.0
        css_h = float(wrap.clientHeight) or css_w * 2
        dpr = float(window.devicePixelRatio or 1)
        cell_css = max(8.0, min(css_w / WIDTH, css_h / HEIGHT))
        cell = max(8, int(cell_css * dpr))
        self.cell_css = cell / dpr
        self.canvas.width = cell * WIDTH
        self.canvas.height = cell * HEIGHT
        self.canvas.style.width = f"{cell * WIDTH / dpr}px"
        self.canvas.style.height = f"{cell * HEIGHT / dpr}px"
        style = window.getComputedStyle(document.documentElement)
        colours = {
            name: str(style.getPropertyValue(f"--{name}")).strip() or fallback
            for name, fallback in (
                ("tile", "#fbf8ef"),
                ("tile-edge", "#21160a"),
                ("pip", "#1b1b1b"),
                ("accent", "#f2c14e"),
                ("bg", "#17362a"),
                ("bg-2", "#1f4535"),
                ("surface", "#24503e"),
                ("line", "rgba(255,255,255,.18)"),
                ("text", "#f4f1e6"),
            )
        }
        state = self.ctx.session.state
        demo = self.ctx.ui.demo
        set_name = (demo.state if demo is not None else state).set_name
        look = (cell, set_name, *colours.values())
        if look != self.look:
            self.look = look
            self.colours = colours
            self.sprites = {}
            self.background = self._background()
            self.layer = document.createElement("canvas")
            self.layer.width, self.layer.height = cell * WIDTH, cell * HEIGHT
            self.layer_g = self.layer.getContext("2d")
        self.layer_key = self.next_key = None  # the new sizes cleared both canvases
        if self.next_canvas is not None:
            size = int(self.next_canvas.clientWidth or 96)
            self.next_canvas.width = max(16, int(size * dpr))
            self.next_canvas.height = max(8, int(size * dpr / 2))
        self.cell = cell

    def _observe(self) -> None:
        """Watch the well's box: its size can change with no render to follow (the deferred stylesheets
        arriving after a reload's first render, a paused table whose window turns)."""
        if not hasattr(window, "ResizeObserver"):
            return
        if self.observer is None:
            self.resized_proxy = create_proxy(lambda entries, *_: self.guard(self.on_resized, entries))
            self.observer = window.ResizeObserver.new(self.resized_proxy)
        self.observer.disconnect()
        self.observer.observe(self.canvas.parentElement)

    def on_resized(self, entries: Any) -> None:
        """Size the canvases to the well's new box and draw the frame again (a paused loop draws nothing)."""
        if self.canvas is None:
            return
        self._measure()
        driver = self.driver()
        self.view = None
        self.draw(driver, driver.sub_step())

    def _background(self) -> Any:
        c = self.look[0]
        bg = document.createElement("canvas")
        bg.width, bg.height = c * WIDTH, c * HEIGHT
        g = bg.getContext("2d")
        grad = g.createLinearGradient(0, 0, 0, c * HEIGHT)
        grad.addColorStop(0, self.colours["bg-2"])
        grad.addColorStop(1, self.colours["bg"])
        g.fillStyle = grad
        g.fillRect(0, 0, c * WIDTH, c * HEIGHT)
        g.strokeStyle = self.colours["line"]
        g.globalAlpha = 0.45
        g.lineWidth = 1
        g.beginPath()
        for col in range(1, WIDTH):
            g.moveTo(col * c + 0.5, 0)
            g.lineTo(col * c + 0.5, c * HEIGHT)
        for row in range(1, HEIGHT):
            g.moveTo(0, row * c + 0.5)
            g.lineTo(c * WIDTH, row * c + 0.5)
        g.stroke()
        g.globalAlpha = 1
        # the spawn zone: a faint band at the top
        g.fillStyle = self.colours["accent"]
        g.globalAlpha = 0.07
        g.fillRect(0, 0, c * WIDTH, c)
        g.globalAlpha = 1
        return bg

    def sprite(self, value: int, link: str | None) -> Any:
        """Return the face of a half-domino: ``value``, its partner on side ``link`` (or a single square)."""
        key = (value, link)
        found = self.sprites.get(key)
        if found is not None:
            return found
        c = self.look[0]
        set_name = self.look[1]
        sp = document.createElement("canvas")
        sp.width = sp.height = c
        g = sp.getContext("2d")
        inset = max(1.0, c * 0.04)
        x0 = 0 if link == "left" else inset
        y0 = 0 if link == "up" else inset
        x1 = c if link == "right" else c - inset
        y1 = c if link == "down" else c - inset
        r = c * 0.2
        radii = [
            0 if link in ("left", "up") else r,  # top-left
            0 if link in ("right", "up") else r,  # top-right
            0 if link in ("right", "down") else r,  # bottom-right
            0 if link in ("left", "down") else r,  # bottom-left
        ]
        g.beginPath()
        g.roundRect(x0, y0, x1 - x0, y1 - y0, to_js(radii))
        g.fillStyle = self.colours["tile"]
        g.fill()
        # a soft shade at the bottom for depth
        shade = g.createLinearGradient(0, y0, 0, y1)
        shade.addColorStop(0, "rgba(255,255,255,0.0)")
        shade.addColorStop(1, "rgba(0,0,0,0.10)")
        g.fillStyle = shade
        g.fill()
        g.lineWidth = max(1.0, c * 0.05)
        g.strokeStyle = self.colours["tile-edge"]
        g.stroke()
        colour = PIP_COLOURS[value] if value < len(PIP_COLOURS) else self.colours["pip"]
        if value == 6 or value == 0:
            colour = self.colours["pip"]
        if set_name == "max" and value > 0:
            g.fillStyle = colour
            g.font = f"700 {int(c * 0.62)}px system-ui, -apple-system, 'Segoe UI', sans-serif"
            g.textAlign = "center"
            g.textBaseline = "middle"
            g.fillText(str(value), c / 2, c / 2 + c * 0.04)
        else:
            g.fillStyle = colour
            pip = c * (0.085 if value <= 6 else 0.075)
            span = c * 0.27
            g.beginPath()
            for pc, pr in PIPS.get(value, ()):
                x = c / 2 + (pc - 1) * span
                y = c / 2 + (pr - 1) * span
                g.moveTo(x + pip, y)
                g.arc(x, y, pip, 0, 6.283185307179586)
            g.fill()
        self.sprites[key] = sp
        return sp

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, driver: Driver, sub: float) -> None:
        """Draw the frame: the board layer, the animation of the cascade, the ghost, the falling domino.

        The full ``view()`` (which lists every cell) is taken only when the board changes: a lock, the
        next cascade event, the end. Between those, a frame reads the falling domino's position and the
        animation clock straight from the state, so a frame allocates almost nothing.
        """
        state = driver.state
        phase = state.phase
        event_index = progress = 0
        if phase == "resolving":
            steps = max(1, state.cascade_steps)
            elapsed = steps * len(state.events) - state.resolve_left
            event_index, progress = divmod(elapsed, steps)
            event_index = min(event_index, len(state.events) - 1)
        key = (id(state), phase, state.turns, event_index, self.look)
        if key != self.layer_key or self.view is None:
            self.layer_key = key
            self.view = view = state.view()
            self.links = {(cell["col"], cell["row"]): cell["link"] for cell in view["cells"]}
            hidden: set[tuple[int, int]] = set()
            self.event = None
            if phase == "resolving":
                self.event = event = view["events"][view["event_index"]]
                if event["kind"] == "annihilate":
                    hidden = {(cell["col"], cell["row"]) for cell in event["cells"]}
                    self._cascade_sound(view, view["event_index"])
                else:
                    hidden = {
                        (half["from"][0], half["from"][1])
                        for move in event["moves"]
                        for half in move["halves"]
                    }
            self._draw_layer(view["cells"], hidden)
            self._draw_next(view)
            self._update_hud(view)
            self.hud_at = state.steps
        elif state.steps - self.hud_at >= 15:  # Speed changes as time passes: four times a second
            self.hud_at = state.steps
            self.view = view = state.view()
            self._update_hud(view)
        c = self.cell
        g = self.g
        g.drawImage(self.layer, 0, 0)
        event = self.event
        if phase == "resolving" and event is not None:
            p = min(1.0, (progress + sub) / max(1, state.cascade_steps))
            if event["kind"] == "annihilate":
                self._draw_annihilation(event, p)
            else:
                self._draw_fall(event, p)
        elif phase == "falling" and state.piece:
            col, row, o = state.col, state.row, state.orientation
            ca, ra, cb, rb = piece_cells(col, row, o)
            va, vb = state.values
            la = LINKS[(cb - ca, rb - ra)]
            lb = LINKS[(ca - cb, ra - rb)]
            sa, sb = self.sprite(va, la), self.sprite(vb, lb)
            ghost = state.ghost_row()
            if ghost != row:
                ga, gra, gb, grb = piece_cells(col, ghost, o)
                g.globalAlpha = 0.3
                g.drawImage(sa, ga * c, gra * c)
                g.drawImage(sb, gb * c, grb * c)
                g.globalAlpha = 1
                steps = gravity_steps(state.level)
                drop = min(1.0, (state.gravity_timer + sub) / steps)
            else:
                drop = 0.0
            dy = drop * c
            g.drawImage(sa, ca * c, ra * c + dy)
            g.drawImage(sb, cb * c, rb * c + dy)

    def _cascade_sound(self, view: dict[str, Any], index: int) -> None:
        """Play the cascade sound once an annihilation (rising with each step of the cascade), in the player's
        game only and only while Settings.sound is on (``ui.sound.play`` checks it)."""
        ctx = self.ctx
        if ctx is None or ctx.ui.demo is not None:
            return
        key = (id(ctx.session.state), int(ctx.session.state.turns), index)
        if key == self.sounded:
            return
        self.sounded = key
        strength = sum(1 for e in view["events"][: index + 1] if e["kind"] == "annihilate")
        from .. import sound

        sound.play(ctx.settings, "cascade", strength=strength)

    def _draw_layer(self, cells: list[dict[str, Any]], hidden: set[tuple[int, int]]) -> None:
        g = self.layer_g
        c = self.cell
        self.layer_drawn = True
        g.drawImage(self.background, 0, 0)
        for cell in cells:
            col, row = cell["col"], cell["row"]
            if (col, row) in hidden:
                continue
            g.drawImage(self.sprite(cell["value"], cell["link"]), col * c, row * c)

    def _draw_annihilation(self, event: dict[str, Any], p: float) -> None:
        g = self.g
        c = self.cell
        links = self.links
        grow = 1.0 - _ease(p)
        g.globalAlpha = max(0.0, 1.0 - p * p)
        for cell in event["cells"]:
            col, row = cell["col"], cell["row"]
            size = c * (0.35 + 0.65 * grow)
            off = (c - size) / 2
            g.drawImage(
                self.sprite(cell["value"], links.get((col, row))), col * c + off, row * c + off, size, size
            )
        # the flash: a glow over the matched halves
        g.globalAlpha = max(0.0, 0.55 * (1.0 - p))
        g.fillStyle = self.colours["accent"]
        for cell in event["cells"]:
            g.fillRect(cell["col"] * c, cell["row"] * c, c, c)
        g.globalAlpha = 1
        # the score so far rises from the matched halves
        cols = [cell["col"] for cell in event["cells"]]
        rows = [cell["row"] for cell in event["cells"]]
        x = (sum(cols) / len(cols) + 0.5) * c
        y = (sum(rows) / len(rows) + 0.5 - p) * c
        g.font = f"800 {int(c * 0.8)}px system-ui, -apple-system, 'Segoe UI', sans-serif"
        g.textAlign = "center"
        g.textBaseline = "middle"
        g.lineWidth = max(2, c * 0.12)
        g.strokeStyle = "rgba(0,0,0,0.6)"
        text = f"+{event['count']}"
        g.strokeText(text, x, y)
        g.fillStyle = self.colours["tile"]
        g.fillText(text, x, y)

    def _draw_fall(self, event: dict[str, Any], p: float) -> None:
        g = self.g
        c = self.cell
        links = self.links
        e = p * p  # falling: accelerate
        for move in event["moves"]:
            for half in move["halves"]:
                (fc, fr), (tc, tr) = half["from"], half["to"]
                x = (fc + (tc - fc) * e) * c
                y = (fr + (tr - fr) * e) * c
                g.drawImage(self.sprite(half["value"], links.get((fc, fr))), x, y)

    def _draw_next(self, view: dict[str, Any]) -> None:
        nxt = view["next"]
        last = not nxt and view["piece"] is not None  # the set's last domino is falling
        key = (tuple(nxt) if nxt else last, self.look)
        if key == self.next_key or self.next_canvas is None:
            return
        self.next_key = key
        nc = self.next_canvas
        g = nc.getContext("2d")
        w, hgt = int(nc.width), int(nc.height)
        g.clearRect(0, 0, w, hgt)
        if last:  # say so, rather than an empty box that looks like a fault
            g.font = f"800 {int(hgt * 0.34)}px system-ui, -apple-system, 'Segoe UI', sans-serif"
            g.textAlign = "center"
            g.textBaseline = "middle"
            g.fillStyle = self.colours["accent"]
            g.fillText("LAST ONE", w / 2, hgt / 2, w * 0.92)
        if not nxt:
            return
        size = min(w // 2, hgt)
        x = (w - 2 * size) / 2
        y = (hgt - size) / 2
        g.drawImage(self.sprite(nxt[0], "right"), x, y, size, size)
        g.drawImage(self.sprite(nxt[1], "left"), x + size, y, size, size)

    def _update_hud(self, view: dict[str, Any]) -> None:
        values = self.screen_hud(view)
        for name, text in values.items():
            if self.hud_text.get(name) != text:
                self.hud_text[name] = text
                element = self.hud.get(name)
                if element is not None:
                    element.textContent = text

    @staticmethod
    def screen_hud(view: dict[str, Any]) -> dict[str, str]:
        return hud_values(view)

    # -- input --------------------------------------------------------------------------------
    def _listen(self) -> None:
        handlers = (
            (document, "keyup", self.on_keyup),
            (document, "visibilitychange", self.on_visibility),
            (document, "pointerdown", self.on_pointerdown),
            (document, "pointermove", self.on_pointermove),
            (document, "pointerup", self.on_pointerup),
            (document, "pointercancel", self.on_pointerup),
            (document, "click", self.on_click),
            (document, "contextmenu", self.on_contextmenu),
            (window, "blur", self.on_blur),
            (window, "pagehide", self.on_pagehide),
        )
        for target, kind, handler in handlers:
            proxy = create_proxy(lambda event, handler=handler: self.guard(handler, event))
            target.addEventListener(kind, proxy)
            self.listeners.append((target, kind, proxy))

    def guard(self, handler: Any, event: Any) -> None:
        try:
            if self.active and self.ctx is not None:
                handler(event)
        except Exception as exc:
            self.fail(exc)

    def playing(self) -> bool:
        ui = self.ctx.ui
        return ui.demo is None and not ui.paused and not self.ctx.session.state.is_over()

    def on_keyup(self, event: Any) -> None:
        self.screen.on_key_up(self.ctx, str(event.key))

    def on_blur(self, event: Any) -> None:
        driver = self.ctx.ui.driver
        if driver is not None:
            driver.release_all()

    def on_visibility(self, event: Any) -> None:
        if not bool(document.hidden):
            return
        if self.playing():
            self.ctx.emit_all(self.screen.pause(self.ctx, "hidden"))
            self.stop()
            self.ctx.emit(Render())
        elif self.ctx.ui.demo is None and not self.ctx.session.state.is_over():
            self.ctx.emit(Save())

    def on_pagehide(self, event: Any) -> None:
        # A reload or a closed tab: not paused, for a page restored from the back-forward cache plays on.
        self.keep(self.screen, self.ctx, pause=False)

    def _pad(self, event: Any) -> str | None:
        target = _js(event.target)
        pad = (
            _js(target.closest("[data-fall]")) if target is not None and hasattr(target, "closest") else None
        )
        return None if pad is None else str(pad.getAttribute("data-fall"))

    def on_pointerdown(self, event: Any) -> None:
        if not self.playing():
            return
        cmd = self._pad(event)
        pid = int(event.pointerId)
        if cmd is not None:
            event.preventDefault()
            self.pointers[pid] = {"pad": cmd}
            self.screen.driver(self.ctx).press(cmd)
            return
        target = _js(event.target)
        if target is not None and target == self.canvas:
            event.preventDefault()
            try:
                self.canvas.setPointerCapture(event.pointerId)
            except Exception:
                pass
            self.pointers[pid] = {
                "x": float(event.clientX),
                "y": float(event.clientY),
                "t": _now(),
                "cols": 0,
                "rows": 0,
                "moved": False,
            }

    def on_pointermove(self, event: Any) -> None:
        info = self.pointers.get(int(event.pointerId))
        if info is None or "pad" in info or not self.playing():
            return
        state = self.screen.driver(self.ctx).state
        unit = max(12.0, self.cell_css)
        dx = float(event.clientX) - info["x"]
        dy = float(event.clientY) - info["y"]
        cols = int(dx / unit)
        while info["cols"] < cols:
            state.command("right")
            info["cols"] += 1
            info["moved"] = True
        while info["cols"] > cols:
            state.command("left")
            info["cols"] -= 1
            info["moved"] = True
        rows = int(dy / unit) if abs(dy) > abs(dx) else info["rows"]
        while info["rows"] < rows:
            state.command("soft_drop")
            info["rows"] += 1
            info["moved"] = True

    def on_pointerup(self, event: Any) -> None:
        info = self.pointers.pop(int(event.pointerId), None)
        if info is None:
            return
        driver = self.screen.driver(self.ctx)
        if "pad" in info:
            driver.release(info["pad"])
            return
        if not self.playing():
            return
        dx = float(event.clientX) - info["x"]
        dy = float(event.clientY) - info["y"]
        dt = max(1.0, _now() - info["t"])
        if str(event.type) == "pointercancel":
            return
        if not info["moved"] and abs(dx) < 10 and abs(dy) < 10 and dt < 350:
            driver.state.command("rotate_cw")
        elif dy > 2 * self.cell_css and dy / dt > 0.6 and abs(dy) > abs(dx):
            driver.state.command("hard_drop")

    def on_click(self, event: Any) -> None:
        # a pad pressed from the keyboard (Enter or Space on the focused button): one press
        cmd = self._pad(event)
        if cmd is not None and int(event.detail or 0) == 0 and self.playing():
            driver = self.screen.driver(self.ctx)
            driver.press(cmd)
            driver.release(cmd)

    def on_contextmenu(self, event: Any) -> None:
        if self._pad(event) is not None:
            event.preventDefault()

    # -- the test and benchmark hooks ---------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        """Return the frame numbers of the frames held: Python ms per frame (median, p95, max), frame rate."""
        samples = self.samples if self.samples is not None else FrameSamples(1)
        frame_ms, autoplay_ms, frame_ts = (samples.column(n) for n in ("frame_ms", "autoplay_ms", "ts"))
        advance_ms, save_ms, draw_ms, layer = (
            samples.column(n) for n in ("advance_ms", "save_ms", "draw_ms", "layer")
        )
        times = sorted(frame_ms)
        own = sorted(f - a for f, a in zip(frame_ms, autoplay_ms))
        span = (frame_ts[-1] - frame_ts[0]) if len(frame_ts) > 1 else 0.0

        def q(values: list[float], p: float) -> float:
            return round(values[min(len(values) - 1, int(p * len(values)))], 3) if values else 0.0

        gaps = sorted(b - a for a, b in zip(frame_ts, frame_ts[1:]))
        return {
            "frames": len(times),
            "frames_total": samples.total,
            "seconds": round(span / 1000, 2),
            "fps": round((len(frame_ts) - 1) * 1000 / span, 1) if span else 0.0,
            "frame_interval_median_ms": q(gaps, 0.5),
            "frame_interval_p95_ms": q(gaps, 0.95),
            "python_ms_median": q(times, 0.5),
            "python_ms_p95": q(times, 0.95),
            "python_ms_p99": q(times, 0.99),
            "python_ms_max": round(times[-1], 3) if times else 0.0,
            "sim_draw_ms_median": q(own, 0.5),
            "sim_draw_ms_p95": q(own, 0.95),
            "sim_draw_ms_max": round(own[-1], 3) if own else 0.0,
            "autoplay_ms_total": round(sum(autoplay_ms), 2),
            "steps": self.steps_run,
            "advance_ms_p95": q(sorted(advance_ms), 0.95),
            "save_ms_max": round(max(save_ms, default=0.0), 3),
            "saves": sum(1 for v in save_ms if v > 0),
            "draw_ms_median": q(sorted(draw_ms), 0.5),
            "draw_ms_p95": q(sorted(draw_ms), 0.95),
            "draw_layer_ms_median": q(sorted(d for d, lay in zip(draw_ms, layer) if lay), 0.5),
            "layer_redraws": sum(1 for v in layer if v),
            "dpr": float(window.devicePixelRatio or 1),
            "cell_px": self.cell,
        }

    def reset_stats(self) -> None:
        """Start the frame numbers afresh (the benchmark's warm-up is over)."""
        if self.samples is not None:
            self.samples.clear()
        self.steps_run = 0


RUNNER = Runner()
_HOOKS: list[Any] = []


def create_once(fn: Any) -> Any:
    from pyodide.ffi import create_once_callable

    return create_once_callable(fn)


def bind(screen: Any, ctx: Any) -> None:
    """Attach the runner to the table just rendered (called from ``SCREEN.after_render``)."""
    _install_hooks()
    try:
        RUNNER.bind(screen, ctx)
    except Exception as exc:
        RUNNER.fail(exc)


def unbind(screen: Any, ctx: Any) -> None:
    """Detach (called from ``SCREEN.leave``)."""
    try:
        RUNNER.unbind(screen, ctx)
    except Exception as exc:
        RUNNER.fail(exc)


def _hook_view() -> str:
    if RUNNER.ctx is None:
        return "null"
    view = RUNNER.ctx.session.state.view()
    view["paused"] = bool(RUNNER.ctx.ui.paused)
    return json.dumps(view)


def _hook_autoplay(on: Any = True) -> None:
    """Let the autoplayer play the player's own game (the benchmark's 30-second game)."""
    if RUNNER.ctx is None:
        return
    driver = RUNNER.screen.driver(RUNNER.ctx)
    if on:
        driver.autoplayer = AutoPlayer(delay=6)
        driver.clock = _now
    else:
        driver.autoplayer = None


def _hook_speed(speed: Any = 1) -> None:
    """Fast-forward the game on screen (the demo, or the player's): ``speed`` steps a step of real time."""
    if RUNNER.ctx is None:
        return
    demo = RUNNER.ctx.ui.demo
    driver = demo if demo is not None else RUNNER.screen.driver(RUNNER.ctx)
    driver.speed = max(1, int(speed))


def _samples_json() -> str:
    samples = RUNNER.samples if RUNNER.samples is not None else FrameSamples(1)
    return json.dumps({name: samples.column(name) for name in FrameSamples.FIELDS})


def _hook_script(data: Any) -> None:
    """Replace the game by a seeded one fed a recorded input log: {seed, options, log, speed}."""
    spec = json.loads(str(data))
    ctx = RUNNER.ctx
    ctx.emit_all(
        RUNNER.screen.new_game(ctx, int(spec["seed"]), dict(spec["options"]))
    )  # a new deal: it counts on its own
    driver = Driver(ctx.session.state)
    driver.load_script(spec["log"], int(spec.get("speed", 1)))
    ctx.ui.driver = driver
    RUNNER.stop()
    ctx.emit(Render())


def _install_hooks() -> None:
    if _HOOKS:
        return
    from pyodide.ffi import to_js as _to_js

    from js import Object  # type: ignore[attr-defined]

    funcs = {
        "stats": lambda: json.dumps(RUNNER.stats()),
        "samples": _samples_json,
        "resetStats": RUNNER.reset_stats,
        "view": _hook_view,
        "autoplay": _hook_autoplay,
        "speed": _hook_speed,
        "script": _hook_script,
    }
    proxies = {name: create_proxy(lambda *a, fn=fn: _safe(fn, *a)) for name, fn in funcs.items()}
    _HOOKS.extend(proxies.values())
    window.boneyardBonefall = _to_js(proxies, dict_converter=Object.fromEntries)


def _safe(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception as exc:
        window.console.error("Boneyard (Bonefall hook): " + traceback.format_exc())
        return f"error: {exc}"
