"""Two tabs taking turns on one Dominoes game, on real Apps over fake pages sharing one storage (moved
here from tests/browser/test_two_tabs.py): every save stays whole and both tabs show the last one."""

from __future__ import annotations

from boneyard import saves
from tests.app.conftest import Open
from tests.app.test_play import legal, my_turn, play
from ui.session import Session


def test_two_tabs_taking_turns_never_tear_a_save(open_app: Open) -> None:
    app, first = open_app(search="?seed=8")
    first.follow("#/setup/dominoes")
    first.press_action("start-game", "dominoes")
    other, second = open_app(first.storage, "#/play/dominoes")
    tabs = [(app, first), (other, second)]
    for turn in range(6):
        tab, port = tabs[turn % 2]
        port.settle()  # the other tab's storage event
        if tab.sessions["dominoes"].state.is_over():
            break
        assert my_turn(tab), port.text()
        play(port, legal(tab)[0])
        text = port.storage.items.get("boneyard:save:dominoes")
        if text is not None:  # a finished game's save is gone; any save there is whole and loadable
            assert (
                saves.load_save(text, expected_game="dominoes", validate=Session.from_json).game == "dominoes"
            )
    first.settle()
    second.settle()
    assert app.sessions["dominoes"].moves == other.sessions["dominoes"].moves
    if "boneyard:save:dominoes" in first.storage.items:  # both tabs show the position saved last
        assert first.attr(".dom-line", "aria-label") == second.attr(".dom-line", "aria-label")
    assert not any(kind == "error" for kind, _ in first.toasts + second.toasts)
