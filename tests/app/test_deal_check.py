"""Check the deal against the computer (issue #37, "The computer cheats"), by clicks on the real App.

The table shows a commitment to the deal from the start and never its seed; at the end Check the deal
reveals the seed, deals it again and says whether the game played follows from it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from boneyard.deals import deal_commitment, short_commitment
from boneyard.games import get_game
from tests.app.conftest import Open
from tests.app.fakes import FakePort
from tests.app.test_play import play_to_the_end
from ui.app import App
from ui.ports import Event

SEED = 918273645501  # digits that no table shows by chance


def start(open_app: Open, game: str = "dominoes") -> tuple[App, FakePort]:
    """Deal a game against the computer from ``?seed=`` (the setup's first mode)."""
    app, port = open_app(search=f"?seed={SEED}")
    port.follow(f"#/setup/{game}")
    port.press_action("start-game", game)
    assert port.hash == f"#/play/{game}"
    return app, port


def page_says(port: FakePort, text: str) -> bool:
    """Tell whether ``text`` is anywhere in the page: its words, any attribute, the title."""
    if text in port.title:
        return True
    return any(
        text in element.text or any(text in str(v) for v in element.attrs.values())
        for element in port.root.walk()
    )


def finish(app: App, port: FakePort) -> None:
    """Play the person's first legal move until the game ends, checking that no drawing shows the seed."""
    shown: list[str] = []
    show, set_title = port.show, port.set_title

    def watch_show(html: str, hold: Sequence[str] = ()) -> None:
        shown.append(html)
        show(html, hold)

    def watch_title(title: str) -> None:
        shown.append(title)
        set_title(title)

    port.show, port.set_title = watch_show, watch_title  # type: ignore[method-assign]
    try:
        play_to_the_end(app, port)
    finally:
        port.show, port.set_title = show, set_title  # type: ignore[method-assign]
    assert shown and not any(str(SEED) in html for html in shown)


def test_the_table_shows_the_commitment_and_check_the_deal_reveals_the_seed(open_app):
    app, port = start(open_app)
    session = app.sessions["dominoes"]
    assert session.seed == SEED
    short = short_commitment(deal_commitment(SEED))
    assert port.text("#kit-deal") == f"Deal {short}"
    assert "Check the deal" in (port.attr("#kit-deal", "title") or "")
    assert not page_says(port, str(SEED)) and not port.exists("#check-deal")
    port.fire(Event("click", action="kit-check-deal"))  # a forged click before the end reveals nothing
    port.settle()
    assert not page_says(port, str(SEED))
    finish(app, port)
    assert port.text("#kit-deal") == f"Deal {short}"  # still the same commitment at the end
    assert not page_says(port, str(SEED))  # the results too, until asked
    port.press("#check-deal")
    verdict = port.text("#deal-result")
    assert verdict.startswith("✓ Fair deal") and "matches the commitment" in verdict
    assert port.text("#deal-seed") == str(SEED)
    assert port.text("#deal-commitment") == deal_commitment(SEED)
    command = port.text("#deal-command")
    assert command.startswith(f"PYTHONPATH=py python3 -m boneyard.deals --game dominoes --seed {SEED}")
    assert f"--commitment {deal_commitment(SEED)}" in command
    first = session.replay(0).view(0)["hand"]
    assert " ".join("-".join(map(str, t)) for t in first) in port.text("#deal-hands")
    assert port.toasts == [] and port.logged == []


def test_the_command_line_agrees_with_the_page(open_app, capsys):
    from boneyard import deals

    app, port = start(open_app)
    finish(app, port)
    port.press("#check-deal")
    argv = port.text("#deal-command").split()[4:]  # after "PYTHONPATH=py python3 -m boneyard.deals"
    assert deals.main([a.strip("'") for a in argv]) == 0
    printed = capsys.readouterr().out
    assert "the seed matches the commitment" in printed


@pytest.mark.parametrize("tamper", ["seed", "deal"])
def test_a_deal_that_is_not_the_seeds_does_not_check_out(open_app, tamper):
    app, port = start(open_app)
    session = app.sessions["dominoes"]
    if tamper == "seed":  # a seed other than the one committed to
        session.seed = SEED + 1
    else:  # the first deal made from another seed, the commitment and seed kept as shown
        session.state = get_game("dominoes").new_state(seed=SEED + 1, **session.options)
        session.moves = []  # its move log starts from that deal
    port.go("#/")
    port.go("#/play/dominoes")  # back at the table, the computer plays on if it is to move
    port.settle()
    finish(app, port)
    port.press("#check-deal")
    verdict = port.text("#deal-result")
    assert verdict.startswith("✗ The deal does not check out")
    expected = "does not match the commitment" if tamper == "seed" else "not the one this seed deals"
    assert expected in verdict
    assert port.exists("#deal-result.deal-bad")
    assert port.toasts == [] and port.logged == []


def test_triangles_shows_its_commitment_too(open_app):
    _app, port = start(open_app, "triangles")
    assert port.text("#kit-deal") == f"Deal {short_commitment(deal_commitment(SEED))}"
    assert not page_says(port, str(SEED))
