"""Challenges and replays by link, the daily deal's seed, the deal's commitment and daily streaks."""

from __future__ import annotations

import base64
import json
import random
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from boneyard import deals, links
from boneyard.games import get_game
from boneyard.links import Challenge, LinkError, Replay, Table


def play_out(table: Table, seed: int, level: str = "easy") -> list[str]:
    """Play a seeded game to its end with ``level`` in every seat; return its moves as text."""
    info = get_game(table.game)
    state = table.new_state(seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not state.is_over():
        move = str(info.bot(level)(state.view(state.current_player()), rng))
        state.play(move)
        moves.append(move)
    return moves


MATCH4 = Table("dominoes", "match100-4", {"players": 4, "target": 100}, ("human", "hard", "hard", "hard"))
ROUND2 = Table("dominoes", "classic-2", {"players": 2}, ("human", "medium"))


def test_a_replay_round_trips_every_move() -> None:
    moves = play_out(ROUND2, 7)
    text = links.encode_replay(Replay(ROUND2, 7, tuple(moves), "Ann"))
    opened = links.decode(text)
    assert opened == Replay(ROUND2, 7, tuple(moves), "Ann")


@pytest.mark.parametrize(
    "table",
    [
        Table("triangles", "classic-3", {"players": 3}, ("human", "easy", "hard")),
        Table("heptalion", "original-2", {"players": 2}, ("human", "expert")),
        Table("heptalion", "puzzle", {"players": 1, "board": "random", "board_seed": 5}, ("human",)),
    ],
)
def test_replays_of_every_turn_based_game_round_trip(table: Table) -> None:
    moves = play_out(table, 3, level="random")
    assert links.decode(links.encode_replay(Replay(table, 3, tuple(moves)))) == Replay(table, 3, tuple(moves))


def test_a_full_four_player_match_fits_in_a_chat_message() -> None:
    moves = play_out(MATCH4, 7)  # 188 moves over 7 hands
    text = links.encode_replay(Replay(MATCH4, 7, tuple(moves), "Ann"))
    assert len(moves) == 188
    assert len(text) < 300, len(text)


def test_a_challenge_carries_the_deal_and_the_score_but_no_move() -> None:
    text = links.encode_challenge(Challenge(MATCH4, 2**63 + 5, 112, "Ann"))
    opened = links.decode(text)
    assert opened == Challenge(MATCH4, 2**63 + 5, 112, "Ann")
    assert len(text) < 160
    assert text.startswith("1c")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("hello", "not a Boneyard link"),
        ("2rAAAA", "newer version"),
        ("1x" + "A" * 20, "not a challenge or a replay"),
        ("1c!!!!", "damaged"),
        ("1r" + "A" * 5000 + "B" * 5000, "too long"),
    ],
)
def test_bad_links_are_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(LinkError, match=why):
        links.decode(text)


def test_a_link_cut_off_or_changed_anywhere_is_refused() -> None:
    text = links.encode_replay(Replay(ROUND2, 7, tuple(play_out(ROUND2, 7))))
    for cut in (len(text) - 1, len(text) // 2, 5):
        with pytest.raises(LinkError):
            links.decode(text[:cut])
    for place in range(2, len(text), 7):
        changed = text[:place] + ("A" if text[place] != "A" else "B") + text[place + 1 :]
        with pytest.raises(LinkError):
            links.decode(changed)


def forge(kind: str, header: list[object], tail: bytes = b"") -> str:
    """Pack a link the way the encoder does, with any contents (a hand-edited link that checks out)."""
    return links._pack(kind, header, tail)


def test_a_hand_made_replay_is_refused_at_its_first_illegal_move_with_that_move_named() -> None:
    moves = play_out(ROUND2, 7)
    indexes = links.move_indexes(ROUND2, 7, moves)
    indexes[4] = 60  # never that many choices
    text = forge(
        "r", ["dominoes", "classic-2", {"players": 2}, ["human", "medium"], 7, ""], links._leb128(indexes)
    )
    with pytest.raises(LinkError, match=r"move 5 .*not legal"):
        links.decode(text)
    indexes = links.move_indexes(ROUND2, 7, moves) + [0]
    text = forge(
        "r", ["dominoes", "classic-2", {"players": 2}, ["human", "medium"], 7, ""], links._leb128(indexes)
    )
    with pytest.raises(LinkError, match=f"move {len(moves) + 1} comes after the end"):
        links.decode(text)


@pytest.mark.parametrize(
    ("header", "why"),
    [
        (["chess", "x", {}, ["human"], 1, 0, ""], "game this version does not have"),
        (["dominoes", "x", {}, ["human", "grandmaster"], 1, 0, ""], "computer level"),
        (["dominoes", "x", {}, ["hard", "hard"], 1, 0, ""], "no seat for a person"),
        (["dominoes", "x", {}, ["human", "hard"], -1, 0, ""], "deal is damaged"),
        (["dominoes", "x", {}, ["human", "hard"], True, 0, ""], "deal is damaged"),
        (["dominoes", "x", {}, ["human", "hard"], 1, "lots", ""], "score is damaged"),
        (["dominoes", "x", {}, ["human", "hard"], 1, 5, "N" * 31], "name is damaged"),
        (["dominoes", "x", {}, ["human"] * 5, 1, 5, ""], "seats are damaged"),
        (["dominoes", "", {}, ["human", "hard"], 1, 5, ""], "mode is damaged"),
        (["dominoes", "x", {"players": [1]}, ["human", "hard"], 1, 5, ""], "options are damaged"),
        (["dominoes", "x", {}, ["human", "hard"], 1], "contents are damaged"),
        ({"game": "dominoes"}, "contents are damaged"),
    ],
)
def test_hand_edited_challenges_are_refused(header: list[object], why: str) -> None:
    with pytest.raises(LinkError, match=why):
        links.decode(forge("c", header))


def test_options_this_version_cannot_deal_are_refused_when_the_replay_opens() -> None:
    text = forge("r", ["dominoes", "x", {"players": 9}, ["human", "hard"], 1, ""], b"\x00")
    with pytest.raises(LinkError, match="cannot deal"):
        links.decode(text)


def test_a_bonefall_game_has_challenges_but_no_replays() -> None:
    table = Table("bonefall", "sprint-norm", {"set": "norm", "mode": "sprint"}, ("human",))
    assert links.decode(links.encode_challenge(Challenge(table, 9, 40.5))) == Challenge(table, 9, 40.5)
    with pytest.raises(LinkError, match="not replayed"):
        links.encode_replay(Replay(table, 9, ()))
    with pytest.raises(LinkError, match="not replayed"):
        links.decode(forge("r", ["bonefall", "sprint-norm", {}, ["human"], 9, ""]))


def test_a_challenge_made_when_bonefall_was_falling_still_opens() -> None:
    text = json.loads(
        (Path(__file__).parent / "data" / "page-saves" / "bonefall-as-falling.json").read_text()
    )
    challenge = links.decode(text["challenge"])  # made by the version before the rename
    table = Table("bonefall", "sprint-norm", {"set": "norm", "mode": "sprint"}, ("human",))
    assert challenge == Challenge(table, 7, 19, "Ann")
    assert challenge.table.new_state(7).to_dict()["game"] == "bonefall"
    with pytest.raises(LinkError, match="not replayed"):
        links.decode(forge("r", ["falling", "sprint-norm", {}, ["human"], 9, ""]))


def test_a_zip_bomb_is_refused() -> None:
    import hashlib
    import zlib

    packed = zlib.compress(b'["dominoes"]\n' + b"\x00" * 200_000, 9)
    check = hashlib.sha256(packed).digest()[:4]
    text = "1r" + base64.urlsafe_b64encode(check + packed).decode().rstrip("=")
    with pytest.raises(LinkError):
        links.decode(text)


# -- the daily deal, the commitment, streaks ---------------------------------------------------------


def test_the_daily_seed_is_fixed_by_the_day_and_the_game() -> None:
    day = date(2026, 12, 4)
    assert deals.daily_seed("dominoes", day) == deals.daily_seed("dominoes", day)
    assert deals.daily_seed("dominoes", day) != deals.daily_seed("triangles", day)
    assert deals.daily_seed("dominoes", day) != deals.daily_seed("dominoes", day + timedelta(days=1))
    assert 0 <= deals.daily_seed("dominoes", day) < 2**63


def test_the_day_is_utc_whatever_the_device_s_time_zone_and_turns_at_midnight_utc() -> None:
    midnight = datetime(2026, 12, 5, tzinfo=UTC).timestamp()
    assert deals.utc_day(midnight - 1) == date(2026, 12, 4)
    assert deals.utc_day(midnight) == date(2026, 12, 5)
    tokyo = datetime(2026, 12, 5, 8, 30, tzinfo=timezone(timedelta(hours=9))).timestamp()
    assert deals.utc_day(tokyo) == date(2026, 12, 4)


def test_a_commitment_matches_its_seed_only() -> None:
    commitment = deals.deal_commitment(42)
    assert len(commitment) == 64
    assert deals.check_commitment(42, commitment)
    assert deals.check_commitment(42, deals.short_commitment(commitment))
    assert not deals.check_commitment(43, commitment)
    assert not deals.check_commitment(42, commitment[:8])  # too short to bind anything
    assert not deals.check_commitment(-1, commitment)
    assert deals.short_commitment(commitment).count(" ") == 2


def test_redeal_shows_the_hands_the_seed_deals() -> None:
    hands = deals.redeal("dominoes", 42, {"players": 2})
    state = get_game("dominoes").new_state(seed=42, players=2)
    assert len(hands) == 2
    assert hands[0] == ["-".join(map(str, tile)) for tile in state.view(0)["hand"]]


def test_the_command_line_checks_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    commitment = deals.deal_commitment(42)
    assert deals.main(["--game", "dominoes", "--seed", "42", "--commitment", commitment]) == 0
    assert "matches the commitment" in capsys.readouterr().out
    assert deals.main(["--game", "dominoes", "--seed", "43", "--commitment", commitment]) == 1


def test_streaks_count_consecutive_days() -> None:
    today = date(2026, 12, 4)
    days = [today - timedelta(days=n) for n in (0, 1, 2, 5, 6, 7, 8)]
    assert deals.streaks(days, today) == (3, 4)
    assert deals.streaks(days[1:], today) == (2, 4)  # today's attempt is still to come
    assert deals.streaks(days[2:], today) == (0, 4)
    assert deals.streaks([], today) == (0, 0)
