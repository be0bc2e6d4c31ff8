"""What a player sees on a phone (360x740), measured: Bonefall fits one screen at start, middle and end (and at
800x1280 and 1280x800), its swipes-and-scores sheet opens without scrolling the page, its pads are 44 px or
more; four-player tables name every seat whole (Dominoes draw, block and partners, Triangles, Heptalion) and show
the commitment to their deal whole;
the results of a finished game read whole in their panel with every button in view; no tile lies under the
folded results, the Expert's hint card or a toast (Dominoes, Triangles, Heptalion); the host's room page
keeps Start in view; Settings' broker line follows the typing.

One phone context is shared by the module (a page costs seconds to start); sessions are dealt here under
CPython and planted in the page's save. ``BONEYARD_SHOTS=/some/dir`` also writes a screenshot of each
measured screen there.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boneyard import saves
from boneyard.games import GAMES
from boneyard.games.bonefall import new_state
from boneyard.games.bonefall.autoplay import AutoPlayer
from ui.session import Seat, Session

from . import fit
from .conftest import Watch, new_context, open_app, reload_ready
from .peer import online_settings_script, peer_broker  # noqa: F401
from .tables import choose_mode

PHONE = (360, 740)
SHOTS = os.environ.get("BONEYARD_SHOTS", "")

SEAT_NAMES = """() => [...document.querySelectorAll('.kit-seat')].map((seat) => {
  const name = [...seat.querySelectorAll('.kit-seat-name')].find((e) => e.offsetParent !== null);
  return {text: name ? name.textContent.trim() : '', sw: name ? name.scrollWidth : 0, cw: name ? name.clientWidth : 0,
          right: name ? name.getBoundingClientRect().right : 0, seatRight: seat.getBoundingClientRect().right,
          full: seat.getAttribute('aria-label') || ''};
})"""
# Everything in a seat card stays inside it (no "Last tile!" cut at the card's edge).
SEAT_OVERFLOW = """() => [...document.querySelectorAll('.kit-seat')].flatMap((seat) => {
  const box = seat.getBoundingClientRect();
  return [...seat.querySelectorAll('.kit-call, .kit-seat-score, .kit-seat-name, .kit-seat-count')]
    .filter((e) => e.offsetParent !== null)
    .filter((e) => { const b = e.getBoundingClientRect(); return b.right > box.right + 0.5 || b.left < box.left - 0.5
      || e.scrollWidth > e.clientWidth + 0.5; })
    .map((e) => e.className + ': ' + e.textContent);
})"""
DEAL_TAG = """() => {
  const tag = document.querySelector('#kit-deal'), title = document.querySelector('.screen-title');
  const b = tag.getBoundingClientRect();
  return {text: tag.textContent.trim(), sw: tag.scrollWidth, cw: tag.clientWidth, left: b.left,
          titleRight: title ? title.getBoundingClientRect().right : 0,
          inside: b.width > 0 && b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight};
}"""
INSIDE = """([inner, outer]) => {
  const a = document.querySelector(inner).getBoundingClientRect();
  const b = outer === 'viewport' ? {left: 0, top: 0, right: innerWidth, bottom: innerHeight}
    : document.querySelector(outer).getBoundingClientRect();
  return a.width > 0 && a.left >= b.left - 0.5 && a.top >= b.top - 0.5 && a.right <= b.right + 0.5
    && a.bottom <= b.bottom + 0.5;
}"""
ALL_INSIDE = """([inner, outer]) => [...document.querySelectorAll(inner)].every((e) => {
  const a = e.getBoundingClientRect(), b = document.querySelector(outer).getBoundingClientRect();
  return a.width > 0 && a.left >= b.left - 0.5 && a.top >= b.top - 0.5 && a.right <= b.right + 0.5
    && a.bottom <= b.bottom + 0.5 && a.bottom <= innerHeight + 0.5;
})"""


def shot(page: Any, name: str) -> None:
    """Write a screenshot when BONEYARD_SHOTS names a folder."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{size['width']}x{size['height']}.png"))


@pytest.fixture(scope="module")
def phone(browser: Any, base_url: str, watch: Watch, peer_broker: dict[str, Any]) -> Iterator[Any]:  # noqa: F811
    """Return one ready page at 360x740 (pointed at the test broker for the room), shared by the module."""
    context = new_context(browser, watch, viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True)
    context.add_init_script(online_settings_script(peer_broker))
    page = open_app(context, base_url, watch)
    yield page
    watch.assert_clean(page)
    context.close()


def size(page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(150)  # a frame for the layout (and Bonefall's canvas) to follow


# -- the tables ---------------------------------------------------------------------------------------

TABLES = {
    "dominoes-4": ("dominoes", {"players": 4, "hand_size": None, "draw": True, "target": 100}),
    "dominoes-block-4": ("dominoes", {"players": 4, "hand_size": None, "draw": False, "target": None}),
    "dominoes-partners-4": ("dominoes", {"players": 4, "draw": True, "target": 100, "teams": True}),
    "triangles-4": ("triangles", {"players": 4}),
    "heptalion-4": ("heptalion", {"players": 4}),
}


def dealt(key: str, plies: int | None, seed: int = 7) -> Session:
    """Return a four-player session against three computers, ``plies`` moves in (None: to the end)."""
    game, options = TABLES[key]
    seats = [Seat("human", "Ann")] + [Seat("computer", f"Computer {i} (Medium)", "medium") for i in (1, 2, 3)]
    session = Session.start(GAMES[game], seats, key, key, options, seed=seed)
    rng = random.Random(seed)
    played = 0
    while not session.state.is_over() and (plies is None or played < plies):
        session.play(rng.choice(list(session.state.legal_moves())))
        played += 1
    return session


def plant(page: Any, key: str, session: Session) -> None:
    """Put the session into the page's save and open its table."""
    game = TABLES[key][0]
    page.evaluate("location.hash = '#/'")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [saves.save_key(game), saves.dump_save(game, session.to_json())],
    )
    reload_ready(page)
    page.evaluate(f"location.hash = '#/play/{game}'")
    page.wait_for_selector(".kit-table")
    page.wait_for_timeout(300)


@pytest.mark.parametrize("key", list(TABLES))
def test_four_player_tables_name_every_seat_whole_on_a_phone(phone: Any, key: str) -> None:
    page = phone
    size(page, *PHONE)
    plant(page, key, dealt(key, 6))
    page.wait_for_selector(".kit-tray.is-turn, #kit-results", timeout=60_000)
    seats = page.evaluate(SEAT_NAMES)
    shot(page, f"seats-{key}")
    assert len(seats) == 3, seats
    for seat in seats:
        assert seat["text"], f"a seat without a name: {seat}"
        assert seat["sw"] <= seat["cw"], (
            f"{key}: the name {seat['text']!r} is cut ({seat['sw']} > {seat['cw']} px)"
        )
        assert seat["right"] <= seat["seatRight"], seat
        assert "Computer" in seat["full"], "the seat's label keeps the full name"
    assert len({s["text"] for s in seats}) == 3, f"{key}: two seats look alike: {seats}"
    assert not page.evaluate(SEAT_OVERFLOW), page.evaluate(SEAT_OVERFLOW)
    fit.assert_fits(page, key)
    # The commitment to the deal against the computer: whole, in view, clear of the title beside it.
    deal = page.evaluate(DEAL_TAG)
    assert deal["text"].startswith("Deal ") and len(deal["text"].replace(" ", "")) == 16, deal
    assert deal["inside"] and deal["sw"] <= deal["cw"] and deal["left"] >= deal["titleRight"], deal
    size(page, 1280, 800)  # the side seats of a wide table: the level under the name, the name whole
    seats = page.evaluate(SEAT_NAMES)
    assert all(s["sw"] <= s["cw"] for s in seats), seats
    assert all("Computer" in s["text"] for s in seats), seats
    size(page, *PHONE)


@pytest.mark.parametrize("key", ["dominoes-4", "triangles-4", "heptalion-4"])
def test_the_results_of_a_four_player_game_read_whole_on_a_phone(phone: Any, key: str) -> None:
    page = phone
    size(page, *PHONE)
    plant(page, key, dealt(key, None))
    page.wait_for_selector("#kit-results")
    shot(page, f"results-{key}")
    fit.assert_fits(page, f"{key} results")
    assert page.evaluate(INSIDE, ["#kit-results", "viewport"]), "the results panel is cut by the screen"
    assert page.evaluate(INSIDE, ["#kit-results h2", "#kit-results"])
    assert page.evaluate(ALL_INSIDE, ["#kit-results .kit-results-foot .btn", "#kit-results"]), (
        "a button is cut"
    )
    body = page.locator("#kit-results-body")
    height = body.evaluate("e => e.clientHeight")
    assert height >= 200, f"the results body has only {height} px on a phone"
    table = page.locator("#kit-results-body table")
    if table.count():
        wide = table.first.evaluate("t => [t.getBoundingClientRect().width, t.parentElement.clientWidth]")
        assert wide[0] <= wide[1] + 1, f"the scores table is cut sideways: {wide}"
    analyse = page.locator("#kit-analyse")
    if analyse.count():  # reachable by scrolling the panel, never the page
        analyse.scroll_into_view_if_needed()
        assert page.evaluate(INSIDE, ["#kit-analyse", "#kit-results-body"])
        assert fit.measure(page)["scrollY"] == 0
    page.click("#kit-fold")  # Hide brings the seats back
    page.wait_for_selector(".kit-seat", state="visible")
    fit.assert_fits(page, f"{key} results folded")


# -- the Daily ---------------------------------------------------------------------------------------


def finished_daily(game: str) -> Session:
    """Return the Daily of 5 December 2026 played to its end by first legal moves (the computer its own)."""
    from datetime import date

    from boneyard.settings import Settings
    from ui.games import screen_for
    from ui.seating import daily_session

    session = daily_session(GAMES[game], screen_for(game), date(2026, 12, 5), Settings(name="Ann"), False)  # type: ignore[arg-type]
    while not session.state.is_over():
        if session.computer_to_move():
            session.computer_move()
        else:
            session.play(session.state.legal_moves()[0])
    return session


@pytest.mark.parametrize("game", ["heptalion", "dominoes"])
def test_the_daily_card_reads_whole_in_the_results_on_a_phone(phone: Any, game: str) -> None:
    """The Daily's card (score, best possible, Share and the text to copy) fits the results panel at 360x740."""
    page = phone
    size(page, *PHONE)
    TABLES.setdefault(f"daily-{game}", (game, {}))
    session = finished_daily(game)
    started = time.monotonic()
    plant(page, f"daily-{game}", session)
    page.wait_for_selector("#kit-results #daily-card")
    assert page.inner_text("#screen-title") == f"Daily · {GAMES[game].name}"
    fit.assert_fits(page, f"{game} Daily results")
    for part in ("#daily-card-title", "#daily-score", "#daily-share", "#daily-text"):
        page.eval_on_selector(part, "e => e.scrollIntoView({block: 'center'})")  # the results body scrolls
        assert page.evaluate(INSIDE, [part, "#kit-results-body"]), f"{part} is cut"
        assert page.evaluate(INSIDE, [part, "viewport"]), f"{part} is off the screen"
    assert fit.measure(page)["scrollY"] == 0, "the card scrolls in its panel, never the page"
    text = page.input_value("#daily-text")
    assert text.startswith(f"Boneyard Daily · {GAMES[game].name} · 2026-12-05") and "#/daily/" in text
    if game == "dominoes":  # the Expert's game of the deal, worked out between frames: the page stays live
        page.wait_for_function(
            "!document.querySelector('#daily-expert').textContent.startsWith('Working')", timeout=120_000
        )
        print(
            f"the Expert's Daily match worked out {time.monotonic() - started:.1f} s after the reload began"
        )
        assert "The Expert in your seat on this deal" in page.inner_text("#daily-expert")
    shot(page, f"daily-end-{game}")
    page.click("#daily-share")  # copied, or (clipboard refused) the field is offered: never an error
    page.wait_for_selector(".toast")


# -- Bonefall -----------------------------------------------------------------------------------------

SEED = 2024
OPTIONS = {"set": "norm", "mode": "sprint", "cascade_steps": 3}


def bonefall_log() -> list[Any]:
    """Return the input log of the seeded autoplayed sprint the test replays."""
    state = new_state(SEED, **OPTIONS)
    player = AutoPlayer(delay=6)
    while not state.is_over():
        player.act(state)
        state.step()
    return list(state.log)


@pytest.mark.parametrize("where", fit.VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bonefall_fits_one_screen_from_the_first_domino_to_game_over(
    phone: Any, where: tuple[int, int]
) -> None:
    page = phone
    size(page, *where)
    page.evaluate("location.hash = '#/setup/bonefall'")
    page.wait_for_selector("#start-game")
    page.select_option("#setup-mode", "sprint-norm")
    page.click("#start-game")
    page.wait_for_selector("#fall-canvas")
    page.wait_for_function("JSON.parse(boneyardBonefall.view()).piece !== null")
    heights = {"start": fit.assert_fits(page, "start")["scrollHeight"]}
    shot(page, "bonefall-start")
    touch = page.locator(".fall-touch").is_visible()
    if touch:
        boxes = [b.bounding_box() for b in page.locator(".fall-pad").all()]
        assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes), boxes
        assert page.evaluate(ALL_INSIDE, [".fall-pad", "body"])
    spec = {"seed": SEED, "options": OPTIONS, "log": bonefall_log(), "speed": 4}
    page.evaluate("spec => boneyardBonefall.script(spec)", json.dumps(spec))
    page.wait_for_function("JSON.parse(boneyardBonefall.view()).step > 400", timeout=30_000)
    heights["middle"] = fit.assert_fits(page, "middle")["scrollHeight"]
    shot(page, "bonefall-middle")
    page.evaluate("boneyardBonefall.speed(40)")
    page.wait_for_selector("#fall-summary", timeout=60_000)
    heights["end"] = fit.assert_fits(page, "game over")["scrollHeight"]
    assert page.evaluate(INSIDE, ["#fall-again", "viewport"]), "Play again is out of view"
    shot(page, "bonefall-end")
    if where == PHONE:  # the swipes and the scores: a sheet over the pad, the page still does not scroll
        assert page.locator(".fall-touch-hint").is_hidden() and page.locator(".fall-explain-side").is_hidden()
        page.click(".fall-explain-below summary")
        sheet = page.locator(".fall-explain-below .fall-explain-body")
        sheet.wait_for(state="visible")
        assert "Swipe" in sheet.inner_text() and "Power" in sheet.inner_text()
        assert page.evaluate(INSIDE, [".fall-explain-below .fall-explain-body", "viewport"])
        fit.assert_fits(page, "sheet open")
        shot(page, "bonefall-sheet")
        page.click(".fall-explain-below summary")
        sheet.wait_for(state="hidden")
    print(f"Bonefall {where}: page heights {heights}")
    page.evaluate("location.hash = '#/'")
    size(page, *PHONE)


# -- the host's room ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["match-4-100", "classic"])
def test_the_hosts_room_keeps_start_in_view_on_a_phone(phone: Any, base_url: str, mode: str) -> None:
    page = phone
    size(page, *PHONE)
    page.evaluate("location.hash = '#/setup/dominoes'")
    page.wait_for_selector("input[name=opponents][value=online]")
    page.check("input[name=opponents][value=online]")
    players = choose_mode(page, mode)
    if page.locator("#setup-players").is_visible():
        page.select_option("#setup-players", str(players or 2))
    page.click("#create-room")
    page.wait_for_selector("#room[data-room-status=open]", timeout=20_000)
    page.wait_for_selector(".room-qr svg")
    height = fit.page_height(page)
    shot(page, f"room-{mode}")
    print(f"room page ({mode}) at 360x740: {height} px")
    assert page.evaluate(INSIDE, ["#room-code", "viewport"]), "the code is in view at the open"
    assert page.evaluate(INSIDE, ["#room-start", "viewport"]), "Start is in view at the open"
    fit.assert_opens_at_top(page, "room")  # the title too, though the room re-renders as it opens
    if mode == "classic":  # two players: code, QR code, seats and Start on one screen
        fit.assert_fits(page, "a two-player room")
    assert page.evaluate(INSIDE, [".room-qr", "viewport"]), "the QR code is in view at the open"
    assert page.evaluate(
        "[...document.querySelectorAll('.lobby-seat')].every((e) => e.scrollWidth <= e.clientWidth)"
    ), "a seat of the lobby is cut sideways"
    if height > PHONE[1] + 1:  # a scroll that is deliberate: Start stays in view to the foot of the page
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(100)
        assert page.evaluate(INSIDE, ["#room-start", "viewport"]), "Start scrolled away"
        shot(page, f"room-{mode}-foot")
    for wide in fit.VIEWPORTS[:2]:
        size(page, *wide)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(INSIDE, ["#room-start", "viewport"]), f"Start out of view at {wide}"
        print(f"room page ({mode}) at {wide}: {fit.page_height(page)} px")
        shot(page, f"room-{mode}")
    size(page, *PHONE)
    page.click("#room-close")
    page.wait_for_function("!location.hash.startsWith('#/room')", timeout=10_000)


# -- Settings -----------------------------------------------------------------------------------------


def test_the_broker_line_follows_the_typing(phone: Any) -> None:
    page = phone
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-online-host")
    before = page.inner_text("#online-broker strong")
    host = page.locator("#set-online-host")
    kept = host.input_value()
    host.fill("")
    host.type("peers.example.test")
    page.wait_for_function(
        "document.querySelector('#online-broker strong').textContent.includes('peers.example.test')",
        timeout=5_000,
    )
    assert page.locator("#set-online-host").evaluate("e => e === document.activeElement"), "no redraw"
    host.fill(kept)
    host.dispatch_event("input")
    page.wait_for_function(
        "([t]) => document.querySelector('#online-broker strong').textContent === t",
        arg=[before],
        timeout=5_000,
    )


# -- every tile whole: the board's and the hand's, at every size, after a reload and after a resize ---------

# (game, players, options) of the tables measured tile by tile.
WHOLE = {
    "dominoes-classic": ("dominoes", 2, {"draw": True, "target": None}),
    "dominoes-4": ("dominoes", 4, {"hand_size": None, "draw": True, "target": 100}),
    "dominoes-fives": ("dominoes", 2, {"scoring": "fives", "draw": True, "target": 100}),
    "dominoes-partners": ("dominoes", 4, {"draw": True, "target": 100, "teams": True}),
    "heptalion-2": ("heptalion", 2, {}),
    "heptalion-4": ("heptalion", 4, {}),
    "triangles-2": ("triangles", 2, {}),
}
# What a board shows (each must lie whole inside the board) and what a hand holds (inside the tray's tiles).
BOARD_TILES = {
    "dominoes": ".dom-line .tile-body, .dom-end",
    "heptalion": ".hx-cell, .hx-domino",
    "triangles": ".tri-tile",
}
HAND_TILES = {"dominoes": ".dom-hand-tile", "heptalion": ".hx-hand .hx-tile", "triangles": ".tri-hand-tile"}
WHOLE_TILES = """([board, hand]) => {
  const rect = (e) => e.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 0.5 && a.top >= b.top - 0.5 && a.right <= b.right + 0.5
    && a.bottom <= b.bottom + 0.5 && a.bottom <= innerHeight + 0.5 && a.right <= innerWidth + 0.5;
  const area = document.querySelector('.kit-board-wrap'), tray = document.querySelector('.kit-tray-tiles');
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
  const b = area ? rect(area) : null, t = tray && tray.getClientRects().length ? rect(tray) : null;
  const boardTiles = shown(board), handTiles = t ? shown(hand) : [];
  const cut = (tiles, box) => tiles.filter((e) => !inside(rect(e), box)).map((e) => {
    const r = rect(e); return [e.getAttribute('class'), Math.round(r.left), Math.round(r.top), Math.round(r.right),
      Math.round(r.bottom)]; });
  const title = document.querySelector('#screen-title'), tools = shown('.kit-head button');
  const under = title && tools.length ? rect(title).right - Math.min(...tools.map((e) => rect(e).left)) : 0;
  const stage = document.querySelector('#hx-stage');  // Heptalion's, at its smallest zoom: no panning
  const pans = stage ? [stage.scrollWidth - stage.clientWidth, stage.scrollHeight - stage.clientHeight] : [0, 0];
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const chips = shown('.kit-board-bar > *, .hx-bar > *').map(rect);  // the stock, the count, the score, zoom
  const under_ = boardTiles.filter((e) => chips.some((c) => meets(rect(e), c))).map((e) => e.getAttribute('class'));
  // The folded results ("You win! / Show results"): no tile, marker or zoom button under them.
  const folded = shown('#kit-results.is-folded').map(rect);
  const underFolded = [...boardTiles, ...handTiles, ...shown('.kit-board-bar > *, .hx-bar > *')]
    .filter((e) => folded.some((f) => meets(rect(e), f))).map((e) => e.getAttribute('class'));
  return {underFolded, underChips: under_, pans, titleUnder: under, board: boardTiles.length, boardCut: b ? cut(boardTiles, b) : [], boardBox: b && [b.left, b.top, b.right, b.bottom],
          hand: handTiles.length, handCut: t ? cut(handTiles, t) : [], trayBox: t && [t.left, t.top, t.right, t.bottom],
          sizes: handTiles.map((e) => [Math.round(rect(e).width), Math.round(rect(e).height)]),
          trayScrolls: t ? tray.scrollWidth > tray.clientWidth + 1 || tray.scrollHeight > tray.clientHeight + 1 : false};
}"""


# A toast (the full storage's words, the longest error), put up for a moment: it must meet neither the board nor
# the hand, or a tile could not be played until it goes.
TOAST_OVER = """() => {
  const item = document.createElement('div');
  item.className = 'toast toast-warning';  // as an error's, unreported by the watch
  item.innerHTML = "<p>Your browser's storage for this site is full, so this game is not being saved. Play goes on; "
    + "free some space (Settings › Records kept aside) to save again.</p><button class='toast-close'>×</button>";
  document.querySelector('#toasts').appendChild(item);
  const t = item.getBoundingClientRect();
  const meets = (b) => t.left < b.right - 0.5 && b.left < t.right - 0.5 && t.top < b.bottom - 0.5 && b.top < t.bottom - 0.5;
  const over = [...document.querySelectorAll('.kit-board-wrap, .kit-tray')]
    .filter((e) => e.getClientRects().length && meets(e.getBoundingClientRect())).map((e) => e.className);
  item.remove();
  return {over, toast: [t.left, t.top, t.right, t.bottom]};
}"""


def deal(key: str, until: int | None, seed: int = 5) -> Session:
    """Return a session of ``key`` against computers: ``until`` tiles laid (None: to the end)."""
    game, players, options = WHOLE[key]
    seats = [Seat("human", "Ann")] + [
        Seat("computer", f"Computer {i} (Medium)", "medium") for i in range(1, players)
    ]
    session = Session.start(GAMES[game], seats, key, key, {"players": players, **options}, seed=seed)
    rng = random.Random(seed)
    laid = 0
    while not session.state.is_over() and (until is None or laid < until):
        move = rng.choice(list(session.state.legal_moves()))
        laid += str(move) not in ("draw", "pass")
        session.play(move)
    return session


def whole(page: Any, key: str, where: str) -> dict[str, Any]:
    """Measure the board's and the hand's tiles; fail when one of them is cut or hidden."""
    game = WHOLE[key][0]
    page.wait_for_timeout(200)
    m = dict(page.evaluate(WHOLE_TILES, [BOARD_TILES[game], HAND_TILES[game]]))
    assert not m["boardCut"], f"{key} {where}: {len(m['boardCut'])} of {m['board']} cut by the board {m}"
    assert not m["handCut"] and not m["trayScrolls"], (
        f"{key} {where}: {len(m['handCut'])} of {m['hand']} tiles of the hand out of view {m}"
    )
    assert not m["underChips"], f"{key} {where}: tiles under the board's band: {m['underChips']}"
    assert not m["underFolded"], f"{key} {where}: under the folded results: {m['underFolded']}"
    toast = page.evaluate(TOAST_OVER)
    assert not toast["over"], f"{key} {where}: an error toast lies over {toast}"
    assert max(m["pans"]) <= 0, f"{key} {where}: the board pans by {m['pans']} px at its smallest zoom"
    assert m["titleUnder"] <= 0.5, (
        f"{key} {where}: the title runs {m['titleUnder']} px under the header's tools"
    )
    fit.assert_fits(page, f"{key} {where}")
    return m


def open_reloaded(page: Any, game: str, session: Session) -> None:
    """Save the session and load the page at its table (the first render before the stylesheets settle)."""
    page.evaluate("location.hash = '#/'")
    page.evaluate(
        """([k, v, hash]) => { localStorage.setItem(k, v); history.replaceState(null, '', hash); }""",
        [saves.save_key(game), saves.dump_save(game, session.to_json()), f"#/play/{game}"],
    )
    reload_ready(page)
    page.wait_for_selector(".kit-table")


def settle(page: Any) -> None:
    """Wait for the player's turn or the result; fold the result and zoom Heptalion's board all the way out."""
    page.wait_for_selector(".kit-tray.is-turn, #kit-results", timeout=60_000)
    if page.locator("#kit-results:not(.is-folded)").count():
        page.click("#kit-fold")  # the board and the hand in view
    while page.locator("#hx-zoom-out:enabled").count():  # Heptalion's board fits at its smallest zoom
        page.dispatch_event("#hx-zoom-out", "click")  # (at the end, under the folded results)


# (table, tiles laid: None to the end): the long lines, the full hands, the ends of games.
CASES = [
    ("dominoes-classic", 1),
    ("dominoes-classic", 11),
    ("dominoes-classic", None),
    ("dominoes-4", 11),
    ("dominoes-fives", 11),
    ("dominoes-fives", None),
    ("dominoes-partners", None),
    ("heptalion-2", 1),
    ("heptalion-2", None),
    ("heptalion-4", 6),
    ("triangles-2", 1),
    ("triangles-2", 11),
]


@pytest.mark.parametrize(("key", "laid"), CASES, ids=[f"{k}-{n or 'end'}" for k, n in CASES])
def test_every_tile_shows_whole_after_a_reload_and_a_resize(phone: Any, key: str, laid: int | None) -> None:
    page = phone
    game = WHOLE[key][0]
    size(page, *PHONE)
    open_reloaded(page, game, deal(key, laid))
    settle(page)
    loaded = whole(page, key, "at 360x740 after a reload")
    stage = "end" if laid is None else f"{laid} laid"
    shot(page, f"whole-{key}-{stage}-reloaded")
    for where in fit.VIEWPORTS:  # the phone's size comes last: after two resizes
        size(page, *where)
        page.wait_for_timeout(300)
        settle(page)
        resized = whole(page, key, f"at {where} after a resize")
        shot(page, f"whole-{key}-{stage}")
        print(
            f"{key} {stage} {where}: board {resized['board']}, hand {resized['hand']} {resized['sizes'][:1]}"
        )
    assert loaded["sizes"] == resized["sizes"], (
        f"{key}: the hand's tiles at 360x740 after a reload {loaded['sizes']}, after a resize {resized['sizes']}"
    )


HINT_COVER = """() => {
  const card = document.querySelector('#kit-hint-card').getBoundingClientRect();
  const board = document.querySelector('.kit-board-wrap').getBoundingClientRect();
  const w = Math.max(0, Math.min(card.right, board.right) - Math.max(card.left, board.left));
  const h = Math.max(0, Math.min(card.bottom, board.bottom) - Math.max(card.top, board.top));
  return {covered: (w * h) / (board.width * board.height), card: [card.left, card.top, card.right, card.bottom],
          board: [board.left, board.top, board.right, board.bottom]};
}"""


HINT_OVER = """([board, hand]) => {
  const card = document.querySelector('#kit-hint-card').getBoundingClientRect();
  const meets = (b) => card.left < b.right - 0.5 && b.left < card.right - 0.5 && card.top < b.bottom - 0.5
    && b.top < card.bottom - 0.5;
  return [...document.querySelectorAll(board + ', ' + hand)]
    .filter((e) => e.getClientRects().length && meets(e.getBoundingClientRect())).map((e) => e.getAttribute('class'));
}"""


@pytest.mark.parametrize(("key", "laid"), [("triangles-2", 11), ("dominoes-classic", 11), ("heptalion-2", 6)])
def test_the_hint_leaves_the_board_and_the_hand_in_view(phone: Any, key: str, laid: int) -> None:
    page = phone
    game = WHOLE[key][0]
    size(page, *PHONE)
    open_reloaded(page, game, deal(key, laid))
    settle(page)
    page.click("#kit-hint")
    page.wait_for_selector("#kit-hint-card", timeout=30_000)
    page.wait_for_timeout(200)
    shot(page, f"hint-{key}")
    cover = page.evaluate(HINT_COVER)
    assert cover["covered"] <= 0.35, f"the hint card covers {cover['covered']:.0%} of the board: {cover}"
    over = page.evaluate(HINT_OVER, [BOARD_TILES[game], HAND_TILES[game]])
    assert not over, f"{key}: the hint card covers {len(over)} tiles of the board or the hand: {over} {cover}"
    fit.assert_fits(page, "hint")
    for where in fit.VIEWPORTS[:2]:  # a landscape screen and a tall one
        size(page, *where)
        page.wait_for_timeout(300)
        shot(page, f"hint-{key}")
        over = page.evaluate(HINT_OVER, [BOARD_TILES[game], HAND_TILES[game]])
        assert not over, f"{key} at {where}: the hint card covers {over}"
    size(page, *PHONE)
