"""Stats' rated section and Settings' identity on a real App over the fake page: with no rated game a
sentence on how to get a rating; with results, per game family the rating with its uncertainty, a chart
of it over time, the rated record and the players met by their verified ratings (unverified ones marked
and not ranked); a damaged chain is reported and kept aside, never a crash."""

from __future__ import annotations

import json
from typing import Any

from boneyard import rating
from tests.app.conftest import Open
from tests.app.fakes import FakePort, FakeStorage
from tests.identity import FakeIdentity
from tests.test_rating import ANN, BEN, CAT, DAN, Player, game, verify
from ui import rated as book

GAME = "triangles"
EVE = Player.make("Eve")
RESULTS = [  # (opponent, Ann's place, the other's place, forfeit seat)
    (BEN, 1, 2, None),
    (CAT, 2, 1, None),
    (BEN, 1, 2, None),
    (DAN, 1, 2, 1),
    (CAT, 1, 2, None),
    (BEN, 2, 1, None),
    (DAN, 1, 2, None),
    (CAT, 1, 2, None),
    (BEN, 1, 2, None),
    (CAT, 2, 1, None),
]


def rated_items(results: list[Any] = RESULTS) -> dict[str, str]:
    """Return localStorage holding Ann's chain of rated Triangles games and the players she met."""
    ratings = {p.key: rating.default_rating() for p in (ANN, BEN, CAT, DAN)}
    chain = []
    for number, (other, mine, theirs, forfeit) in enumerate(results):
        players = [ANN, other]
        at = f"2026-{1 + number // 28:02d}-{1 + number % 28:02d}T10:00:00Z"  # up to 336 in order
        before = [ratings[p.key] for p in players]
        chain.append(game(players, before, [mine, theirs], at, forfeit=forfeit, game_id=GAME))
        for player, after in zip(players, rating.rate(before, [mine, theirs], None)):
            ratings[player.key] = after
    seen = {}
    for player in (BEN, CAT, DAN):
        proved: dict[str, Any] = {
            "rating": ratings[player.key].to_json(),
            "counted": 4,
            "verified": player is not DAN,
        }
        text = book.seal_text(player.key, GAME, player.name, proved)
        proved["seal"] = ANN.sign(text.encode()) if player is not DAN else None  # as Ann's table sealed it
        seen[player.key] = {"name": player.name, "at": "2026-11-20T10:00:00Z", "games": {GAME: proved}}
    seen[EVE.key] = {  # a fourth player, met once, whose chain did not check out
        "name": "Eve",
        "at": "2026-11-21T10:00:00Z",
        "games": {GAME: {"rating": [45.0, 1.0], "counted": 0, "verified": False}},
    }
    return {
        book.ME_KEY: json.dumps({"key": ANN.key, "name": "Ann"}),
        book.CHAIN_KEY + GAME: json.dumps(chain),
        book.SEEN_KEY: json.dumps(seen),
    }


def open_stats(open_app: Open, items: dict[str, str]) -> tuple[Any, FakePort]:
    """Open Stats over ``items`` in Ann's browser (her key in the page's identity)."""
    app, port = open_app(FakeStorage(items))
    port.ident = FakeIdentity("Ann")
    port.ident.player = ANN
    port.follow("#/stats")
    port.settle()
    return app, port


def test_with_no_rated_game_stats_say_how_to_get_a_rating(open_app: Open) -> None:
    _app, port = open_app(hash_="#/stats")
    section = port.text_of("#stats-rated")
    assert section is not None and "No rated games yet" in section and "Quick match" in section


def test_the_rated_section_shows_the_rating_chart_record_and_players_met(open_app: Open) -> None:
    _app, port = open_stats(open_app, rated_items())
    chain = json.loads(rated_items()[book.CHAIN_KEY + GAME])
    mine = rating.check_chain(ANN.key, GAME, chain, verify)
    assert mine.verified and mine.counted == 10
    card = port.text_of('[data-rated="triangles"]')
    assert card is not None
    assert f"{mine.rating.mu:.1f}" in card and f"± {2 * mine.rating.sigma:.1f}" in card
    assert "10 played · 7 won · 3 lost" in card
    assert port.exists('[data-rated="triangles"] svg polyline.rating-line')
    label = port.attr('[data-rated="triangles"] svg', "aria-label")
    assert label is not None and "over 10 rated games" in label
    board = port.text_of('[data-board="triangles"]')
    assert board is not None
    assert "Ann (you)" in board and rating.fingerprint(ANN.key) in board
    # Verified players ranked by their conservative rating; Dan and Eve unverified, not ranked.
    assert board.count("unverified") == 2
    assert board.index("Ben") < board.index("Dan") < board.index("Eve")


def test_a_damaged_chain_is_reported_kept_aside_and_its_good_part_shown(open_app: Open) -> None:
    items = rated_items()
    chain = json.loads(items[book.CHAIN_KEY + GAME])
    chain[4]["record"]["before"][0] = [40.0, 2.0]  # edited by hand: the rating before does not follow
    items[book.CHAIN_KEY + GAME] = json.dumps(chain)
    storage = FakeStorage(items)
    _app, port = open_app(storage, hash_="#/stats")
    card = port.text_of('[data-rated="triangles"]')
    assert card is not None and "4 played" in card
    assert any(key.startswith("boneyard:broken:") for key in storage.items)
    assert len(json.loads(storage.items[book.CHAIN_KEY + GAME])) == 4
    toasts = port.text_of("#toasts") or ""
    assert "rated results could not all be read" in toasts


def test_settings_show_the_name_with_this_browsers_key_fingerprint(open_app: Open) -> None:
    app, port = open_app(hash_="#/settings")
    port.settle()
    key = port.identity().player.key
    shown = port.text_of("#set-identity")
    assert shown == f"{app.settings.name} · {rating.fingerprint(key)}"


def test_how_to_play_says_what_the_rating_proves_and_what_it_cannot() -> None:
    from boneyard.games import GAMES
    from ui.howto import howto_body

    for game_id in ("dominoes", "triangles", "heptalion"):
        text = " ".join(str(howto_body(GAMES[game_id], sprite=False)).split())
        assert "Rated games and what the rating proves" in text
        assert "signed by every player at the table" in text and "unverified" in text
        assert "One person with two browsers or devices can still play themselves" in text
        assert "clearing the browser's storage" in text
    assert "Rated games" not in str(howto_body(GAMES["bonefall"], sprite=False))


def test_a_section_is_read_again_only_when_its_records_change() -> None:
    from tests.screens.online_pages import MemoryStorage

    storage = MemoryStorage()
    storage.items.update(rated_items())
    first = book.family(storage, GAME)
    assert first is not None and book.family(storage, GAME) is first
    chain = json.loads(storage.items[book.CHAIN_KEY + GAME])
    storage.set(book.CHAIN_KEY + GAME, json.dumps(chain[:5]))
    again = book.family(storage, GAME)
    assert again is not first and again is not None and again.played == 5


def test_players_met_edited_by_hand_show_as_unverified_and_are_not_ranked(open_app: Open) -> None:
    items = rated_items()
    seen = json.loads(items[book.SEEN_KEY])
    seen[EVE.key]["games"][GAME].update(verified=True, counted=40)  # typed in: Eve "verified" at 45
    seen[DAN.key]["games"][GAME].update(verified=True, seal=seen[BEN.key]["games"][GAME]["seal"])
    seen[CAT.key]["games"][GAME]["rating"] = [50.0, 1.0]  # Cat's sealed rating raised
    items[book.SEEN_KEY] = json.dumps(seen)
    _app, port = open_stats(open_app, items)
    board = port.text_of('[data-board="triangles"]')
    assert board is not None
    assert board.count("unverified") == 3 and "50.0" not in board and "45.0" not in board
    assert board.index("Ben") < board.index("Cat") < board.index("Dan") < board.index("Eve")  # Cat not ranked
    # Another browser (another key) sealed none of them: nobody met is ranked there.
    _app, other = open_app(FakeStorage(rated_items()))
    other.follow("#/stats")
    other.settle()
    board = other.text_of('[data-board="triangles"]') or ""
    assert board.count("unverified") == 4


def chart_of(count: int) -> str:
    """Return the rating chart of Ann's first ``count`` results (cycled from RESULTS)."""
    from ui.stats_view import rating_chart

    results = [RESULTS[i % len(RESULTS)] for i in range(count)]
    items = rated_items(results)
    chain = json.loads(items[book.CHAIN_KEY + GAME])
    check = rating.check_chain(ANN.key, GAME, chain, verify)
    family = book.Family(GAME, check.rating, list(check.history), played=count)
    return str(rating_chart(family))


def test_the_rating_chart_has_values_on_its_axis_and_the_last_one_labelled() -> None:
    import re

    from ui.stats_view import RATING_POINTS

    for count in (1, 10, 200):
        svg = chart_of(count)
        ticks = re.findall(r'text-anchor="end"[^>]*>(\d+)</text>', svg)
        assert 2 <= len(ticks) <= 5 and ticks == sorted(ticks, key=int), (count, ticks)
        now = re.search(r'class="chart-label rating-now"[^>]*>([\d.]+)</text>', svg)
        assert now is not None and "over %d rated games" % count in svg
        assert f"to {now.group(1)} ±" in svg  # the label is the last rating
        line = re.search(r'class="rating-line" points="([^"]+)"', svg)
        assert line is not None and len(line.group(1).split()) == min(count + 1, RATING_POINTS)


def test_a_browser_without_a_key_shows_the_players_met_unverified_not_checking(open_app: Open) -> None:
    _app, port = open_app(FakeStorage(rated_items()))
    port.ident = FakeIdentity("Ann", keyless=True)  # a private window
    port.follow("#/stats")
    port.settle()
    board = port.text_of('[data-board="triangles"]') or ""
    assert board.count("unverified") == 4 and "checking" not in board
