"""Leaving and reloading while the computer pauses, on a real App over the fake page and its clock (moved
here from tests/browser/test_long_session.py; the heap's growth over thirty rounds stays in Chromium): no
move is lost, none is played twice, and no computer plays on a table nobody is looking at."""

from __future__ import annotations

import json

from tests.app.conftest import Open
from tests.app.fakes import FakeStorage
from tests.app.test_play import legal

KEY = "boneyard:save:dominoes"


def history(storage: FakeStorage) -> list[dict]:
    text = storage.items.get(KEY)
    return [] if text is None else json.loads(text)["state"]["game_state"]["history"]


def test_leaving_and_reloading_while_the_computer_pauses_never_loses_or_doubles_a_move(
    open_app: Open,
) -> None:
    app, port = open_app(search="?seed=12")
    port.follow("#/setup/dominoes")
    port.press_action("start-game", "dominoes")
    storage, seen, mine = port.storage, history(port.storage), 0
    for step in range(8):
        port.settle()
        if app.sessions["dominoes"].state.is_over() or KEY not in storage.items:
            break
        now = history(storage)
        assert now[: len(seen)] == seen, f"moves were lost: {seen} then {now}"
        seen = now
        move = legal(app)[0]
        tile, _, end = move.partition(":")
        target = (
            f'[data-action="{move}"]'
            if move in ("draw", "pass")
            else f'[data-action="tile"][data-value="{tile}"]'
        )
        port.fire(port._event("click", port.get(target)))
        port.tick()
        if port.actions("end"):
            port.fire(port._event("click", port.get(f'[data-action="end"][data-value="{end}"]')))
            port.tick()
        mine += 1
        port.settle(0.2)  # the computer is pausing before its answer
        assert app.turns.busy or app.sessions["dominoes"].state.is_over()
        if step % 2 == 0:  # leave the table
            port.go("#/")
            away = history(storage)
            port.settle(2.0)  # longer than the pause: a computer that kept playing would have moved
            assert history(storage) == away, "the computer played on a table nobody was looking at"
            port.go("#/play/dominoes")
        else:  # reload: this page is gone, a new one opens on the same storage
            storage.tabs.remove(port)
            app, port = open_app(storage, "#/play/dominoes", search="?seed=12")
    port.settle()
    final = history(storage)
    assert mine >= 4, "the seed leaves too few turns to leave and reload"
    if not final:  # the round ended: a finished game's save is dropped by design
        assert app.sessions["dominoes"].state.is_over()
        return
    assert final[: len(seen)] == seen, "moves were lost"
    assert len([e for e in final if e.get("seat") == 0]) == mine, "a move was lost or played twice"
