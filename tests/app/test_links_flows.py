"""Challenges and replays by link (issue #37), by clicks on the real App over the fake page.

One page finishes a seeded game and makes the links; another (its own storage: a friend's browser)
opens them: a challenge deals the same game from the same seat, a replay opens the review of that game.
Every bad link gets a message and the home screen.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import zlib

import pytest

from boneyard import links, saves
from boneyard.games import GAMES
from tests.app.conftest import Open
from tests.app.fakes import FakePort
from tests.app.test_play import legal, play, play_to_the_end
from ui import share
from ui.app import App
from ui.session import Seat, Session

SEED = 424242


def finished(open_app: Open) -> tuple[App, FakePort]:
    """Play a seeded Classic Dominoes game against the computer to its end."""
    app, port = open_app(search=f"?seed={SEED}")
    port.follow("#/setup/dominoes")
    port.press_action("start-game", "dominoes")
    play_to_the_end(app, port)
    return app, port


def make_link(port: FakePort, kind: str) -> str:
    """Press Challenge a friend (``c``) or Share replay (``r``); return the address shown."""
    port.press_action("share-link", kind)
    address = port.value("#share-address") or ""
    assert port.focused_id() == "share-address"
    return address


def hash_of(address: str) -> str:
    return address[address.index("#") :]


def linked(app: App):  # type: ignore[no-untyped-def]
    session = app.links.linked_session()
    assert session is not None
    return session


def play_linked_to_the_end(app: App, port: FakePort) -> None:
    """Play the first legal move at each of the person's turns on the link's table until it ends."""
    for _ in range(200):
        session = linked(app)
        if session.state.is_over():
            return
        seat = session.to_move()
        assert seat is not None and not session.seats[seat].is_computer, port.text()
        play(port, str(session.state.view(seat)["legal_moves"][0]))
    raise AssertionError("the game did not end")


def test_challenge_a_friend_makes_a_link_with_copy(open_app):
    app, port = finished(open_app)
    assert app.settings.name == "Player"  # the default
    assert port.exists("#share-challenge") and port.exists("#share-replay")
    address = make_link(port, "c")
    assert address.startswith("https://boneyard.example/#/link/1c")
    opened = links.decode(address.split("#/link/")[1])
    sender = app.sessions["dominoes"]
    assert isinstance(opened, links.Challenge)
    assert opened.seed == SEED and opened.score == share.player_score(sender)
    assert opened.table.seats == ("human", "medium") and opened.name == ""  # the default name is left out
    port.press("#share-copy")
    assert port.clipboard == [address] and port.toasts[-1] == ("info", "Link copied: paste it to a friend.")
    port.clipboard_refused = True
    port.press("#share-copy")
    assert port.toasts[-1][0] == "warning" and "select the link" in port.toasts[-1][1]
    assert port.focused_id() == "share-address"


def test_the_friend_plays_the_same_deal_and_sees_both_scores(open_app):
    app, port = finished(open_app)
    app.settings = app.storage.update_settings(name="Ann")
    sender = app.sessions["dominoes"]
    address = make_link(port, "c")
    # The friend has a game of their own in progress: the challenge never replaces it.
    friend, page = open_app()
    page.follow("#/setup/dominoes")
    page.press_action("start-game", "dominoes")
    play(page, legal(friend)[0])
    own = page.storage.items["boneyard:save:dominoes"]
    page.go(hash_of(address))
    assert page.text("#screen-title") == "A challenge"
    assert page.text("#challenge-who") == "Ann challenges you to Dominoes."
    score = int(share.player_score(sender) or 0)
    assert score == 1 and share.measure(share.link_table(sender)) == ("place", True)  # a single round
    assert page.text("#challenge-score") == share.score_words(
        links.decode(address.split("#/link/")[1]).table, score
    )
    page.press("#challenge-play")
    assert page.focused is not None and page.focused.closest("[data-focus-home]") is not None  # the table's
    session = linked(friend)
    assert session.seed == SEED and [s.level for s in session.seats] == [None, "medium"]
    assert session.state.view(0)["hand"] == sender.replay(0).view(0)["hand"]  # the same deal, same seat
    assert not session.can_offer_take_back()
    assert page.storage.items["boneyard:save:dominoes"] == own
    assert share.CHALLENGE_KEY in page.storage.items
    play_linked_to_the_end(friend, page)
    assert page.exists("#versus")
    assert share.score_words(share.link_table(session), score) in page.text("#versus") and "You" in page.text(
        "#versus"
    )
    assert share.CHALLENGE_KEY not in page.storage.items  # a finished challenge is forgotten
    assert page.storage.items["boneyard:save:dominoes"] == own  # the friend's own game is as it was
    assert not friend.sessions["dominoes"].state.is_over()
    page.press_action("play-again", "dominoes")
    assert page.hash == "#/setup/dominoes"  # their own next game, set up: the one in progress stays
    assert page.storage.items["boneyard:save:dominoes"] == own


def test_a_challenge_in_progress_resumes_after_a_reload(open_app):
    _app, port = finished(open_app)
    address = make_link(port, "c")
    friend, page = open_app(hash_=hash_of(address))
    page.press("#challenge-play")
    assert my_turn_linked(friend)
    play(page, str(linked(friend).state.view(0)["legal_moves"][0]))
    moves = list(linked(friend).moves or [])
    again, reloaded = open_app(page.storage, hash_of(address))
    assert reloaded.text("#challenge-play") == "Resume the challenge"
    reloaded.press("#challenge-play")
    assert linked(again).moves == moves


def my_turn_linked(app: App) -> bool:
    session = linked(app)
    seat = session.to_move()
    return seat is not None and not session.seats[seat].is_computer


def test_a_replay_opens_the_review_of_that_game_every_hand_face_up(open_app):
    app, port = finished(open_app)
    sender = app.sessions["dominoes"]
    address = make_link(port, "r")
    assert address.startswith("https://boneyard.example/#/link/1r")
    friend, page = open_app(hash_=hash_of(address))
    session = linked(friend)
    assert session.moves == sender.moves and session.state.is_over()
    assert page.text("#review-where").startswith(f"Move 0 of {len(sender.moves or [])}")
    opening = sender.replay(0)
    tray = [e.attrs.get("data-value") for e in page.find_all("#kit-tray .dom-hand-tile")]
    assert tray == [f"{a}-{b}" for a, b in opening.view(0)["hand"]]  # the sender's hand at the deal
    assert page.text(".kit-tray-title") == "Your friend's tiles"
    across = page.find_all(".kit-seat .dom-face-up g.tile")  # the computer's hand, face up too
    assert len(across) == len(opening.view(1)["hand"])
    page.press("#review-forward")
    assert page.text("#review-where").startswith("Move 1 of")
    analysis = friend.context(session).ui.kit.analysis  # the Expert's review runs, as locally
    assert analysis is not None
    page.settle()
    assert analysis.status == "done" and analysis.entries
    first = analysis.entries[0]["index"] + 1  # the step after the sender's first decision
    for _ in range(first - 1):
        page.press("#review-forward")
    assert page.text("#review-where").startswith(f"Move {first} of")
    assert page.exists(".kit-review-comment")  # the Expert's word on that move, as in a local review
    assert not page.exists("#share-challenge")  # someone else's game is not re-shared from here
    assert friend.stats.recent == []  # nor counted in the friend's stats
    assert "boneyard:save:dominoes" not in page.storage.items


def test_review_has_the_share_row(open_app):
    _app, port = finished(open_app)
    port.press("#review")
    assert port.exists(".kit-review-panel #share-replay")
    address = make_link(port, "r")
    assert address.startswith("https://boneyard.example/#/link/1r")


def _pack(kind: str, header: list[object], tail: bytes = b"") -> str:
    packed = zlib.compress(json.dumps(header).encode() + b"\n" + tail)
    check = hashlib.sha256(packed).digest()[:4]
    return f"1{kind}" + base64.urlsafe_b64encode(check + packed).decode().rstrip("=")


GOOD = links.encode_challenge(
    links.Challenge(links.Table("dominoes", "classic-2", {"players": 2}, ("human", "medium")), 5, 40, "Ann")
)
ILLEGAL = _pack(
    "r", ["dominoes", "classic-2", {"players": 2}, ["human", "medium"], 5, "Ann"], bytes([0, 0, 90])
)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (GOOD[:-9], "damaged"),  # truncated
        (GOOD[:20] + ("A" if GOOD[20] != "A" else "B") + GOOD[21:], "damaged"),  # a character changed
        ("3" + GOOD[1:], "newer version"),
        ("1c" + "A" * 9000, "too long"),
        ("hello", "not a Boneyard link"),
        ("", "not a Boneyard link"),
        (ILLEGAL, "move 3 (seat 2's) is not legal"),
        (_pack("c", ["chess", "x", {}, ["human"], 5, 1, ""]), "game this version does not have"),
        (_pack("c", ["dominoes", "classic-2", {"players": 9}, ["human", "medium"], 5, 1, ""]), "cannot deal"),
    ],
)
def test_a_bad_link_says_why_and_shows_home(open_app, text, words):
    app, page = open_app(hash_=f"#/link/{text}")
    assert page.hash == "#/" and page.exists("#screen-title") is not None
    assert app.route.screen == "home" and app.links.linked is None
    if text:
        assert page.toasts and page.toasts[-1][0] == "warning", page.toasts
        assert words in page.toasts[-1][1], page.toasts
    assert not page.logged or all(level != "error" for level, _ in page.logged)


def test_check_the_deal_keeps_the_focus_on_what_it_revealed(open_app):
    _app, port = finished(open_app)
    port.focus("#check-deal")
    port.press("#check-deal")
    assert port.focused_id() == "deal-result"


def finished_session(game: str, seed: int = 11) -> Session:
    """Return a game against the computer (Heptalion: the puzzle) played with random moves to its end."""
    if game == "heptalion":
        seats = [Seat("human", "Ann")]
        mode, label, options = (
            "fit-original",
            "Puzzle: How many can you fit?",
            {"players": 1, "board": "original"},
        )
    else:
        seats = [Seat("human", "Ann"), Seat("computer", "Computer 1 (Hard)", "hard")]
        mode, label, options = "players-2", "2 players", {"players": 2}
    session = Session.start(GAMES[game], seats, mode, label, options, seed=seed)
    rng = random.Random(seed)
    while not session.state.is_over():
        session.play(rng.choice(list(session.state.legal_moves())))
    return session


@pytest.mark.parametrize(("game", "words"), [("triangles", "pip"), ("heptalion", "tile")])
def test_triangles_and_heptalion_results_share_a_challenge_and_a_replay(open_app, game, words):
    sender = finished_session(game)
    _, port = open_app()
    port.storage.items[saves.save_key(game)] = saves.dump_save(game, sender.to_json())
    _, port = open_app(port.storage, f"#/play/{game}")
    assert port.exists("#share-challenge") and port.exists("#share-replay")
    challenge = make_link(port, "c")
    replay = make_link(port, "r")
    friend, page = open_app(hash_=hash_of(challenge))
    assert words in page.text("#challenge-score")
    page.press("#challenge-play")
    dealt = linked(friend)
    assert dealt.replay(0).to_dict() == sender.replay(0).to_dict()  # the same deal
    assert [s.level for s in dealt.seats] == [s.level for s in sender.seats]
    _, other = open_app(hash_=hash_of(replay))
    assert other.text("#review-where").startswith(f"Move 0 of {sender.move_count()}")


def test_a_bonefall_challenge_is_played_apart_from_the_players_own_game(open_app):
    table = links.Table("bonefall", "sprint-norm", {"set": "norm", "mode": "sprint"}, ("human",))
    text = links.encode_challenge(links.Challenge(table, 99, 1234, "Ann"))
    with pytest.raises(links.LinkError, match="timed key presses"):
        links.encode_replay(links.Replay(table, 99, ()))
    app, page = open_app(hash_=f"#/link/{text}")
    assert page.text("#challenge-score") == "1234 power"
    page.press("#challenge-play")
    session = linked(app)
    assert session.seed == 99 and page.exists(".fall-table, #fall-well, canvas")
    assert share.CHALLENGE_KEY in page.storage.items and "boneyard:save:bonefall" not in page.storage.items


def test_bonefalls_summary_offers_a_challenge_and_shows_both_scores():
    from boneyard.games.bonefall.autoplay import AutoPlayer
    from tests.screens.test_bonefall_screen import SCREEN, Table

    table = Table(seed=9)
    table.driver.autoplayer = AutoPlayer(delay=0)
    while not table.driver.advance(250).over:
        pass
    SCREEN.game_over(table.ctx())
    table.render()
    assert 'id="share-challenge"' in table.html and 'id="share-replay"' not in table.html  # no replay
    table.session.extra["challenge"] = {"link": "1c", "score": 10**6, "name": "Ann"}
    table.render()
    power = table.session.state.power
    assert (
        'id="versus"' in table.html and f"{power} power" in table.html and "Ann keeps the lead." in table.html
    )


def test_a_replays_expert_names_the_sender_of_a_forced_move(open_app):
    app, port = finished(open_app)
    app.settings = app.storage.update_settings(name="Ann")
    friend, page = open_app(hash_=hash_of(make_link(port, "r")))
    session = linked(friend)
    page.press("#review-forward")
    page.settle()
    analysis = friend.context(session).ui.kit.analysis
    assert analysis is not None and analysis.status == "done"
    entry = analysis.entries[0]
    entry["forced"] = True  # the sender's first decision, as if it had been their only move
    for _ in range(entry["index"]):
        page.press("#review-forward")
    assert page.text(".kit-review-comment") == "Ann's only move."
    page.press("#review-close")
    assert "Someone else's game: not counted in your stats." in page.text()  # it was "Counted in your stats."
    review = page.text_of("#kit-analysis") or ""  # the results' review of the game: Ann's moves, not yours
    assert (
        review.startswith("Ann's chances, by the Expert")
        and f"of Ann's {len(analysis.entries)} moves" in review
    )
    assert "your" not in review.lower() and "you " not in review.lower()
    label = (page.attr("#kit-chart", "aria-label") or "").replace("\u2068", "").replace("\u2069", "")
    assert label.startswith("Ann's estimated chance after each of Ann's moves")
    # On one's own table it is still one's own move.
    port.press("#kit-analyse")
    port.settle()
    port.press("#review")
    own = app.context(app.sessions["dominoes"]).ui.kit.analysis
    assert own is not None and own.status == "done"
    own.entries[0]["forced"] = True
    for _ in range(own.entries[0]["index"] + 1):
        port.press("#review-forward")
    assert port.text(".kit-review-comment") == "Your only move."
    port.press("#review-close")
    assert (port.text_of("#kit-analysis") or "").startswith("Your chances, by the Expert")


def test_a_heptalion_replays_board_is_a_named_region_the_keyboard_can_scroll(open_app):
    """On a phone the replay's board overflows its stage and holds no control: the stage itself takes the
    focus, named, so a keyboard can scroll it (axe: scrollable-region-focusable, serious, at 360x740)."""
    sender = finished_session("heptalion")
    _, port = open_app()
    port.storage.items[saves.save_key("heptalion")] = saves.dump_save("heptalion", sender.to_json())
    _, port = open_app(port.storage, "#/play/heptalion")
    for where in (port, open_app(hash_=hash_of(make_link(port, "r")))[1]):  # the results, the replay
        assert where.attr("#hx-stage", "tabindex") == "0", where.hash
        assert where.attr("#hx-stage", "role") == "region" and where.attr("#hx-stage", "aria-label")
