"""A guest's table renders from views alone: the markup drawn for a seat from the real game equals the
markup drawn from ``ui.online.remote``'s stand-in fed nothing but that seat's views.

For seeded games of Dominoes (single rounds, block, a match), Triangles and Heptalion (visible and
hidden hands), at every turn and for every seat, the host's table for that seat (a Session on the real
state, the other seats people elsewhere or computers) and the guest's (a RemoteSession that received
``state.view(seat)`` after each move) must give the same markup, through the hand-over panels of a
match, the end of the game and View board (once the host has revealed the deal).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from boneyard.core import IllegalMoveError
from boneyard.games import GAMES
from boneyard.settings import Settings
from tests.screens.tables import TableHarness, act, table_context
from ui.games import screen_for
from ui.games.heptalion import LEVEL_LABEL, LEVELS, WHO_LABEL, HeptalionScreen
from ui.online.remote import HiddenInformation, RemoteSession, RemoteState, seats_from_lobby
from ui.session import Seat, Session, computer_bot
from ui.table_screen import TableContext

NAMES = ["Ada", "Ben", "Cyd", "Dee"]


class HostSide(Session):
    """The real game seen from one seat: that seat is this device's person, the others play elsewhere."""

    @property
    def human_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.kind == "human"]

    def can_offer_take_back(self) -> bool:
        return False  # nobody takes back in an online game


def seats_for(me: int, players: int) -> list[Seat]:
    """Return the seats as seat ``me`` sees them: me, people elsewhere (the host at seat 0 and the odd
    seats), computers (the other even seats)."""
    out = []
    for i in range(players):
        if i == me:
            out.append(Seat("human", NAMES[i]))
        elif i % 2 or i == 0:
            out.append(Seat("guest", NAMES[i]))
        else:
            out.append(Seat("computer", f"Computer {i}", "medium"))
    return out


class Table(TableHarness):
    """One table screen drawn for one session, with its own UI state (as the app keeps it)."""

    def __init__(self, game_id: str, session: Session) -> None:
        self.screen = screen_for(game_id)
        if game_id == "heptalion":
            self.screen = HeptalionScreen()  # its own instance: it keeps a little setup state
        self.session = session
        self.ui = self.screen.new_state()
        self.heard: list[str] = []
        self.settings = Settings()

    def ctx(self) -> TableContext:
        return self.context()

    def render(self) -> str:
        ctx = self.ctx()
        page = str(self.screen.render(ctx))
        self.screen.after_render(ctx)
        return page

    def act(self, action: str, value: str = "") -> None:
        act(self.screen, self.ctx(), action, value)


# A hand of a match that another seat ends by going out: its last tile was never in a view of this seat
# (the next view already shows the new hand), so the finished hand's line reads the hand result's
# "last" move, which the engine's hand results carry.
CASES = [
    pytest.param("dominoes", {"players": 2, "draw": True, "target": None}, 1, id="classic-2"),
    pytest.param("dominoes", {"players": 3, "draw": False, "target": None}, 2, id="block-3"),
    pytest.param("dominoes", {"players": 4, "draw": True, "target": None}, 3, id="classic-4"),
    pytest.param(
        "dominoes", {"players": 4, "draw": True, "target": None, "teams": True}, 10, id="partners-4"
    ),
    pytest.param("dominoes", {"players": 2, "draw": True, "target": 50}, 4, id="match-50"),
    pytest.param(
        "dominoes",
        {"players": 2, "draw": True, "target": 100, "scoring": "fives"},
        9,
        id="fives-2",
    ),
    pytest.param("triangles", {"players": 2}, 5, id="triangles-2"),
    pytest.param("triangles", {"players": 3}, 6, id="triangles-3"),
    pytest.param(
        "heptalion", {"players": 2, "hidden": False, "board": "original", "start": None}, 7, id="hx-2"
    ),
    pytest.param(
        "heptalion", {"players": 3, "hidden": True, "board": "original", "start": None}, 8, id="hx-3-hidden"
    ),
]


def same(host: Table, guest: Table, where: str) -> None:
    """Assert both tables draw the same markup."""
    a, b = host.render(), guest.render()
    if a != b:  # show where they part, not two whole pages
        at = next(i for i, (x, y) in enumerate(zip(a + "\0", b + "\0")) if x != y)
        raise AssertionError(
            f"{where}: host {a[max(0, at - 160) : at + 160]!r}\nguest {b[max(0, at - 160) : at + 160]!r}"
        )


@pytest.mark.parametrize(("game_id", "options", "seed"), CASES)
def test_every_seat_draws_the_same_table_from_its_views_alone(
    game_id: str, options: dict[str, Any], seed: int
):
    info = GAMES[game_id]
    state = info.new_state(seed=seed, **options)
    players = len(state.view(0)["hand_counts"])
    hosts, guests = [], []
    for me in range(players):
        seats = seats_for(me, players)
        host = HostSide(
            info=info, state=state, seats=seats, mode="m", mode_label="M", options=options, seed=seed
        )
        guest = RemoteSession.join(game_id, me, seats, "m", "M", options, state.view(me), uid=host.uid)
        hosts.append(Table(game_id, host))
        guests.append(Table(game_id, guest))
    rng = random.Random(seed)
    turn = 0
    while True:
        if state.is_over():  # the end is compared once the host has revealed the deal
            break
        for me in range(players):
            same(hosts[me], guests[me], f"seat {me}, move {turn}")
            if game_id == "dominoes" and hosts[me].screen.paused(hosts[me].ctx()):
                hosts[me].act("next-hand")
                guests[me].act("next-hand")
                same(hosts[me], guests[me], f"seat {me}, next hand after move {turn}")
        legal = state.legal_moves()
        move = legal[rng.randrange(len(legal))]
        state.play(move)
        turn += 1
        for me in range(players):
            hosts[me].session.moves.append(str(move))  # type: ignore[union-attr]
            hosts[me].session.revision += 1
            guests[me].session.receive(state.view(me))  # type: ignore[attr-defined]
    for me in range(players):
        guest_session = guests[me].session
        assert isinstance(guest_session, RemoteSession)
        before = guests[me].render()
        for other in range(players):  # before the deal is revealed: no hidden hand on the guest's table
            if (
                other != me
                and game_id != "dominoes"
                and not (game_id == "heptalion" and not options["hidden"])
            ):
                with pytest.raises(HiddenInformation):
                    guest_session.state.view(other)
        assert "kit-results" in before
        guest_session.reveal(seed, list(hosts[me].session.moves))  # the deal message carries them
        same(hosts[me], guests[me], f"seat {me}, the end")
        hosts[me].act("kit-view-board")
        guests[me].act("kit-view-board")
        same(hosts[me], guests[me], f"seat {me}, View board")
        for step in ("open", "first", "forward", "forward"):  # the review replays the revealed deal
            hosts[me].act("kit-review", step)
            guests[me].act("kit-review", step)
            same(hosts[me], guests[me], f"seat {me}, review {step}")


def test_the_stand_in_answers_only_what_the_seat_may_see():
    state = GAMES["triangles"].new_state(seed=3, players=3)
    remote = RemoteState("triangles", 1, state.view(1))
    assert remote.view(1) == state.view(1)
    with pytest.raises(HiddenInformation):
        remote.view(0)
    with pytest.raises(HiddenInformation):
        remote.to_dict()
    with pytest.raises(AttributeError, match="only its views"):
        remote.stock_order  # noqa: B018
    with pytest.raises(IllegalMoveError):
        remote.play(state.legal_moves()[0] if state.legal_moves() else "pass")
    assert remote.current_player() == state.current_player()
    assert remote.legal_moves() == (
        [str(m) for m in state.legal_moves()] if state.current_player() == 1 else []
    )
    with pytest.raises(ValueError, match="seat"):
        remote.receive(state.view(2))  # another seat's view never reaches this table
    view = state.view(1)
    view["game"] = "dominoes"
    with pytest.raises(ValueError, match="dominoes"):
        remote.receive(view)


def test_a_guest_move_is_kept_for_the_host_not_played():
    state = GAMES["triangles"].new_state(seed=4, players=2)
    me = state.current_player()
    assert me is not None
    seats = seats_for(me, 2)
    session = RemoteSession.join(
        "triangles", me, seats, "players-2", "2 players", {"players": 2}, state.view(me)
    )
    before = session.state.view(me)
    move = str(state.legal_moves()[0])
    with pytest.raises(IllegalMoveError):
        session.play("0-0-0@9,9r0")  # not among the view's legal moves
    session.play(move)
    assert session.pending == move and session.state.view(me) == before
    with pytest.raises(IllegalMoveError, match="on its way"):
        session.play(move)
    assert session.take_pending() == move and session.take_pending() is None
    assert not session.computer_to_move() and not session.can_offer_take_back() and session.move_count() == 0
    with pytest.raises(HiddenInformation):
        session.to_json()
    state.play(move)
    session.receive(state.view(me))
    with pytest.raises(IllegalMoveError, match="not your turn"):
        session.play(str(move))


def test_a_revealed_deal_must_give_the_game_the_seat_saw():
    state = GAMES["triangles"].new_state(seed=9, players=2)
    session = RemoteSession.join("triangles", 0, seats_for(0, 2), "m", "M", {"players": 2}, state.view(0))
    rng = random.Random(9)
    while not state.is_over():
        legal = state.legal_moves()
        state.play(legal[rng.randrange(len(legal))])
        session.receive(state.view(0))
    with pytest.raises(ValueError, match="does not give"):
        session.reveal(10)
    assert not session.revealed and session.move_count() == 0
    session.reveal(9)
    assert session.revealed and session.move_count() == state.turn_number
    revision = session.revision
    session.receive(state.view(0))  # the last view sent again (a reconnect): the deal stays revealed
    assert session.revealed and session.revision == revision
    assert session.state.view(1)["hand"] == state.view(1)["hand"]
    fresh = GAMES["triangles"].new_state(seed=9, players=2)
    for text in session.moves[:3]:  # type: ignore[index]
        fresh.play(text)
    assert session.replay(3).view(0) == fresh.view(0)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("dominoes", {"players": 3, "draw": True, "target": None}),
        ("triangles", {"players": 3}),
        ("heptalion", {"players": 3, "hidden": True, "board": "original", "start": 1}),
    ],
)
def test_a_guest_table_names_the_others_and_says_whose_turn(game_id: str, options: dict[str, Any]):
    state = GAMES[game_id].new_state(seed=2, **options)
    turn = state.current_player()
    assert turn is not None
    me = (turn + 2) % 3  # the seat to move is a person elsewhere (odd) or a computer (even)
    seats = seats_for(me, 3)
    table = Table(game_id, RemoteSession.join(game_id, me, seats, "m", "M", options, state.view(me)))
    page = table.render()
    text = re.sub(r"<[^>]+>", "", page).replace("\u2068", "").replace("\u2069", "")
    others = [s for s in range(3) if s != me]
    for seat in others:
        assert f'data-seat="{seat}"' in page and seats[seat].name in text
    assert re.findall(r'aria-label="[^"]*You: ', page) == []  # no seat around the table is "You"
    if seats[turn].kind == "guest":
        assert f"{seats[turn].name}&#x27;s turn." in page or f"{seats[turn].name}'s turn." in text
    else:
        assert "is thinking" in text
    assert "Your turn" not in text


def test_seats_from_a_lobby():
    lobby = [
        {"seat": 1, "name": "Ben", "kind": "guest", "status": "connected"},
        {"seat": 0, "name": "Ada", "kind": "host", "status": "connected"},
        {"seat": 2, "name": "Bot", "kind": "bot", "level": "hard", "status": "connected"},
        {"seat": 3, "name": None, "kind": "open", "status": "open"},
    ]
    seats = seats_from_lobby(lobby, 1)
    assert [(s.kind, s.name, s.level) for s in seats] == [
        ("guest", "Ada", None),
        ("human", "Ben", None),
        ("computer", "Computer 2 (Hard)", "hard"),  # named as the host's own table names it
        ("guest", "Open seat", None),
    ]
    assert seats_from_lobby([{"seat": 0, "name": None, "kind": "bot"}], 1)[0].name == "Computer 0 (Medium)"


# -- Heptalion's levels (the table lists Expert, as Dominoes and Triangles do) ---------------------------


def test_heptalion_offers_every_level_of_its_bots_expert_included():
    info = GAMES["heptalion"]
    assert [lv for lv in info.levels if lv != "random"] == list(LEVELS)
    assert LEVEL_LABEL["expert"] == "Expert" and WHO_LABEL["expert"] == "Computer, expert"
    screen = HeptalionScreen()
    form: dict[str, Any] = {"players": "2", "who_1": "expert"}
    markup = str(screen.player_fields(form))
    assert re.search(r'<option value="expert" selected>Computer, expert</option>', markup)
    seats = screen.seats_from_form(form, Settings())
    assert (seats[1].kind, seats[1].level) == ("computer", "expert")
    mode, _ = screen.mode_from_form(form)
    session = Session.start(info, seats, mode.key, mode.label, mode.options, seed=5)
    table = Table("heptalion", session)
    page = table.render()
    assert "Expert" in page and "(Expert)" not in re.sub(r"<[^>]+>", "", page).split("Computer")[0]
    assert computer_bot(info, "expert")  # the level the seat names exists (the AI registers it)


def click_a_move(table: Table, game_id: str, rng: random.Random) -> None:
    """Make one legal move on a guest's table by clicks, as a player would."""
    view = table.session.state.view(table.session.viewer())
    legal = view["legal_moves"]
    lays = [m for m in legal if "@" in m]
    if not lays:
        table.act(legal[0])  # draw or pass
        return
    text = lays[rng.randrange(len(lays))]
    if game_id == "triangles":
        tile, _, rest = text.partition("@")
        cell, _, rot = rest.partition("r")
        table.act("select", tile)
        table.act("cell", cell)
        for _ in range(3):  # a spot that takes several rotations: turn it to the one chosen, then place
            pending = table.ui.pending
            if not pending or table.session.pending is not None:  # type: ignore[attr-defined]
                break
            if int(pending[2]) == int(rot):
                table.act("confirm")
                break
            table.act("rotate")
    else:
        tile, _, rest = text.partition("@")
        first, second = rest.split(",")
        table.act("tile", tile)
        table.act("space", first)
        if table.session.pending is None:  # type: ignore[attr-defined]
            table.act("space", second)
        if table.session.pending is None:  # type: ignore[attr-defined]
            table.act("confirm")


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("triangles", {"players": 2}),
        ("heptalion", {"players": 2, "hidden": True, "board": "original", "start": 0}),
    ],
)
def test_a_guest_plays_a_whole_game_by_clicks_and_the_host_plays_what_it_sends(
    game_id: str, options: dict[str, Any]
):
    state = GAMES[game_id].new_state(seed=21, **options)
    guest = RemoteSession.join(game_id, 0, seats_for(0, 2), "m", "M", options, state.view(0))
    table = Table(game_id, guest)
    sent: list[str] = []

    def play(move: Any) -> bool:
        try:
            guest.play(move)
        except IllegalMoveError:
            return False
        return True

    table.ctx = lambda: table_context(  # type: ignore[method-assign]
        guest, settings=table.settings, ui=table.ui, play=play
    )
    rng = random.Random(21)
    while not state.is_over():
        if state.current_player() == 0:
            table.render()
            click_a_move(table, game_id, rng)
            text = guest.take_pending()
            assert text is not None, "the clicks made no move"
            sent.append(text)
            state.play(text)  # the host plays it through the engine: it must be legal
        else:
            legal = state.legal_moves()
            state.play(legal[rng.randrange(len(legal))])
        guest.receive(state.view(0))
    assert len(sent) >= 3 and guest.state.is_over()
    assert "kit-results" in table.render()


ACTIONS = {
    "dominoes": [
        ("tile", "6-6"),
        ("end", "L"),
        ("deselect", ""),
        ("draw", ""),
        ("pass", ""),
        ("next-hand", ""),
        ("kit-view-board", ""),
    ],
    "triangles": [
        ("select", "0-0-0"),
        ("cell", "0,0"),
        ("rotate", ""),
        ("confirm", ""),
        ("cancel", ""),
        ("draw", ""),
        ("pass", ""),
        ("zoom", "in"),
        ("zoom", "fit"),
    ],
    "heptalion": [
        ("tile", "X-X"),
        ("space", "3"),
        ("undo", ""),
        ("redo", ""),
        ("confirm", ""),
        ("faces", ""),
        ("menu", ""),
        ("zoom", "1"),
        ("takeback", ""),
    ],
}
KEYS = ["d", "p", "l", "ArrowLeft", "+", "-", "0", "Escape", "r", "Backspace", "Enter", "u"]


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("dominoes", {"players": 3, "draw": True, "target": None}),
        ("triangles", {"players": 3}),
        ("heptalion", {"players": 3, "hidden": True, "board": "original", "start": 1}),
    ],
)
def test_no_click_or_key_on_a_guest_table_needs_what_it_may_not_see(game_id: str, options: dict[str, Any]):
    state = GAMES[game_id].new_state(seed=12, **options)
    rng = random.Random(12)
    for me in range(3):
        guest = RemoteSession.join(game_id, me, seats_for(me, 3), "m", "M", options, state.view(me))
        table = Table(game_id, guest)
        table.ctx = lambda table=table: table_context(  # type: ignore[method-assign]
            table.session,
            settings=table.settings,
            ui=table.ui,
            play=lambda move: bool(table.session.play(move)) or True,
        )
        for _ in range(4):  # a few turns: the guest's own, a person's elsewhere, a computer's
            table.render()
            for action, value in ACTIONS[game_id]:
                try:
                    table.act(action, value)
                except IllegalMoveError:
                    pass  # refused as a local move would be: never HiddenInformation
            for key in KEYS:
                table.screen.on_key(table.ctx(), key)
            table.render()
            guest.take_pending()
            if state.is_over():
                break
            legal = state.legal_moves()
            state.play(legal[rng.randrange(len(legal))])
            guest.receive(state.view(me))
        state = GAMES[game_id].new_state(seed=12, **options)
