"""The shell on a real App over the fake page, moved here from tests/browser/test_shell.py: the home
screen lists every registered game with its How to play link, and every screen (home, settings, stats,
each game's rules and setup) renders its title with nothing reported. (Boot, the modules importing in
the page, fit, focus and the audits stay in Chromium.)"""

from __future__ import annotations

import pytest

from boneyard.games import GAMES
from tests.app.conftest import Open

SCREENS = (
    ["#/", "#/settings", "#/stats"]
    + [f"#/rules/{gid}" for gid in GAMES]
    + [f"#/setup/{gid}" for gid in GAMES]
)


def test_home_lists_every_registered_game(open_app: Open) -> None:
    _app, port = open_app()
    assert len(port.find_all(".game-card")) == len(GAMES)
    for info in GAMES.values():
        card = f'.game-card[data-game="{info.id}"]'
        assert info.name in port.text(card)
        links = [a for a in port.find_all(f"{card} a") if "How to play" in a.text]
        assert len(links) == 1 and links[0].attrs["href"] == f"#/rules/{info.id}"


def test_every_screen_renders_its_title_with_nothing_reported(open_app: Open) -> None:
    _app, port = open_app()
    for hash_ in SCREENS:
        port.go(hash_)
        assert port.text("#screen-title"), hash_
        assert port.logged == [] and port.toasts == [], (hash_, port.logged, port.toasts)


@pytest.mark.parametrize("hash_", ["#/nowhere", "#/play/chess", "#/setup/", "#/rules/%00"])
def test_an_unknown_address_shows_a_screen_and_reports_no_error(open_app: Open, hash_: str) -> None:
    _app, port = open_app(hash_=hash_)
    assert port.text("#screen-title")
    assert port.logged == [] and all(kind != "error" for kind, _ in port.toasts)
