"""All Fives and partnerships on a real App over the fake page, moved here from
tests/browser/test_dominoes_fives.py: a seeded match against the computer by clicks with the count and the
scores checked against the engine at every turn, the spinner's arms laid and shown, and a partnership
match on one device behind the privacy gate. (The four long arms' fit and the screenshots stay in
Chromium.)"""

from __future__ import annotations

import re
from typing import Any

from tests.app.conftest import Open
from tests.app.fakes import Element, FakePort
from ui.app import App


def start_fives(
    open_app: Open, *, seed: int, players: int, teams: bool = False, target: int | None = None, **more: str
) -> tuple[App, FakePort]:
    """Open the setup with a seeded deal, choose All Fives (and partners), and start."""
    app, port = open_app(search=f"?seed={seed}")
    port.go("#/setup/dominoes")
    opponents = more.pop("opponents", "computer")
    port.change(f'[data-field="opponents"][value="{opponents}"]', opponents, checked=True)
    port.change("#setup-mode", "fives")
    port.change("#setup-players", str(players))
    if target is not None:
        port.change("#setup-fives-target", str(target))
    if teams:
        port.change("#setup-teams", "yes")
        assert port.exists("#setup-teams-hint")
    for field, value in more.items():
        port.change(f"#setup-{field}", value)
    port.press("#start-game")
    assert port.exists(".dom-table")
    return app, port


def engine(app: App) -> dict[str, Any]:
    return dict(app.sessions["dominoes"].state.view(0))


def words(element: Element) -> str:
    """Return an element's text with its pieces apart, as innerText has them on separate lines."""
    return " ".join(c.data if c.tag == "#text" else words(c) for c in element.children)


def check_against_engine(app: App, port: FakePort) -> None:
    """The count and every score on the page are the engine's."""
    view = engine(app)
    assert int(port.text(".dom-count-value")) == view["count"]
    if view["scores"] is not None:
        me = view["turn"] if view["turn"] is not None else 0  # the tray is the seat to move's
        assert f"{view['scores'][me]} point" in port.text(".kit-tray"), view["scores"]
        for seat in port.find_all(".kit-seat"):
            text = words(seat)
            assert re.search(rf"\b{view['scores'][int(seat.attrs['data-seat'])]}\b", text), (
                text,
                view["scores"],
            )


def take_turn(port: FakePort) -> None:
    """Play the first playable tile (a top or bottom arm when it fits several), or draw, or pass."""
    if port.exists(".dom-hand-tile.is-playable"):
        port.press(".dom-hand-tile.is-playable")
        offered = [e.attrs["data-value"] for e in port.find_all("button.dom-end.is-target")]
        if offered:
            pick = next((a for a in ("N", "S") if a in offered), offered[0])
            port.press(f"#end-{pick}")
    elif port.exists("#draw") and not port.disabled("#draw"):
        port.press("#draw")
    else:
        port.press("#pass")


def play_through(app: App, port: FakePort, limit: int = 600) -> tuple[int, set[str]]:
    """Click through the match, checking it against the engine at each turn; return the turns and gates."""
    turns, gates = 0, set()
    for _ in range(limit):
        if port.exists("#over-title"):
            return turns, gates
        if port.exists("#next-hand"):
            port.press("#next-hand")
        elif port.exists("#reveal"):
            gates.add(port.text("#privacy-title"))
            assert port.find_all(".dom-hand-tile") == [], "a hand showed behind the privacy screen"
            port.press("#reveal")
        else:
            check_against_engine(app, port)
            take_turn(port)
            turns += 1
    raise AssertionError("the match did not end")


def test_a_seeded_all_fives_match_against_the_computer_by_clicks(open_app: Open) -> None:
    app, port = start_fives(open_app, seed=4, players=2, target=100, **{"level-1": "medium"})
    assert "All Fives, 2 players, to 100" in port.text("#screen-title")
    turns, _ = play_through(app, port)
    assert turns > 10
    view = engine(app)
    assert view["over"] and max(view["scores"]) >= 100 and all(p % 5 == 0 for p in view["scores"])
    assert "Counted in your stats." in port.text("#kit-results")
    port.go("#/stats")
    assert "All Fives, 2 players, to 100" in port.text(".stats-game")


def test_the_spinners_arms_are_laid_and_shown(open_app: Open) -> None:
    """A seeded hand opens the spinner's ends: the top and bottom arms get tiles and markers."""
    for seed in (2, 3, 5, 6, 8):
        app, port = start_fives(open_app, seed=seed, players=2)
        for _ in range(80):
            if port.exists("#kit-results"):
                break
            view = engine(app)
            layout = view["layout"]
            if layout["north"] or layout["south"]:
                label = port.attr(".dom-cross", "aria-label") or ""
                assert len(port.find_all(".dom-cross")) == 1
                assert "top arm" in label and "bottom arm" in label
                laid = len([e for e in view["history"] if e["move"] not in ("draw", "pass")])
                assert len(port.find_all(".dom-cross .tile")) == laid
                for arm in ("N", "S"):
                    if layout["ends"][arm] is not None:
                        assert port.text(f"#end-{arm}") == str(layout["ends"][arm])
                assert int(port.text(".dom-count-value")) == view["count"]
                return
            take_turn(port)
    raise AssertionError("no seeded hand laid a tile on the spinner's ends")


def test_a_partnership_match_on_one_device_behind_the_privacy_gate(open_app: Open) -> None:
    app, port = start_fives(open_app, seed=6, players=4, teams=True, target=100, opponents="device")
    assert "partners" in port.text("#screen-title").lower()
    seats = [s.text for s in port.find_all(".kit-seat")]
    assert sum("Partner" in s for s in seats) == 1, seats
    _turns, gates = play_through(app, port)
    assert len(gates) == 4, gates
    assert port.text("#over-title") in ("Player 1 & Player 3 win.", "Player 2 & Player 4 win.")
    assert "Same-device games are not counted" in port.text("#kit-results")
