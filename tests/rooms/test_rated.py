"""A rated table's messages: chains going round through the host, the start and the result signed, and
every hostile input (forged signature, tampered chain, replayed record, oversized chain, malformed
message) refused with nothing kept. Keys and signatures as WebCrypto makes them (tests/test_rating.py).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from boneyard import rating
from boneyard.rating import Rating
from boneyard.rooms import protocol, rated
from boneyard.rooms.guest import GuestRoom
from boneyard.rooms.host import HostRoom
from boneyard.rooms.protocol import ProtocolError, encode, parse

from ..test_rating import ANN, BEN, CAT, game, season, verify

AT = "2026-12-05T10:00:00Z"


def relay(text: str, seat: int) -> str:
    """Return what the host sends the others for a guest's ``chain``/``link``/``sign`` (its seat added)."""
    message = parse(text, sender="guest")
    return encode(message.kind, sender="host", seat=seat, **message.fields)


def receive(texts: list[str], game_name: str = "dominoes") -> rated.ChainInbox:
    inbox = rated.ChainInbox(game_name)
    for text in texts:
        message = parse(text, sender="host")
        inbox.take(message.kind, {k: v for k, v in message.fields.items() if k != "seat"})
    return inbox


def long_season(games: int) -> list[dict[str, Any]]:
    """Return Ann's chain after ``games`` games against Ben, won and lost in turn."""
    ann, ben = rating.default_rating(), rating.default_rating()
    chain = []
    for number in range(games):
        placings = [1, 2] if number % 2 else [2, 1]
        chain.append(game([ANN, BEN], [ann, ben], placings, f"2026-11-01T10:00:{number:02d}Z"))
        ann, ben = rating.rate([ann, ben], placings, None)
    return chain


LONG = long_season(70)


def test_a_chain_goes_round_and_each_page_recomputes_the_same_rating():
    chain, _ = season()
    texts = rated.chain_texts("dominoes", chain)
    assert len(texts) == 2  # the count, then the three records in one link
    inbox = receive([relay(t, 0) for t in texts])
    assert inbox.complete
    check = inbox.check(ANN.key, verify)
    direct = rating.check_chain(ANN.key, "dominoes", chain, verify)
    assert check.verified and check.counted == 3 and check.rating == direct.rating
    texts = rated.chain_texts("dominoes", LONG)
    assert len(texts) == 4 and max(len(t) for t in texts) <= protocol.MAX_LINK
    check = receive([relay(t, 0) for t in texts]).check(ANN.key, verify)
    assert check.verified and check.counted == 70


def test_a_whole_chain_passes_the_hosts_flood_limit():
    room = HostRoom("dominoes", None, {"players": 2}, "Ann", ["host", "open"], random.Random(1))
    room.on_open("p1")
    room.on_message("p1", GuestRoom(room.code, "Ben").hello(), 0.0)
    texts = rated.chain_texts("dominoes", (LONG * 8)[: rating.MAX_CHAIN])  # 500 records, as big as may be
    assert len(texts) <= room.FLOOD_LIMIT // 2
    for text in texts:
        (out,) = room.on_message("p1", text, 0.5)
        assert out.note == "rated"


def test_a_tampered_forged_or_replayed_chain_counts_only_its_good_part():
    chain, _ = season()
    tampered = copy.deepcopy(chain)
    tampered[1]["record"]["before"][0] = [40.0, 2.0]
    forged = copy.deepcopy(chain)
    forged[0]["sigs"][1] = CAT.sign(rating.canonical(forged[0]["record"]))
    replayed = [chain[0], copy.deepcopy(chain[0])]
    for bad, words, counted in (
        (tampered, "signature does not verify", 1),
        (forged, "signature does not verify", 0),
        (replayed, "repeats an earlier record", 1),
    ):
        check = receive([relay(t, 0) for t in rated.chain_texts("dominoes", bad)]).check(ANN.key, verify)
        assert not check.verified and words in check.problem and check.counted == counted


def test_an_oversized_or_disordered_chain_is_refused_whole():
    with pytest.raises(ProtocolError, match="count"):
        parse(json.dumps({"t": "chain", "game": "dominoes", "count": rating.MAX_CHAIN + 1}), sender="guest")
    texts = [relay(t, 0) for t in rated.chain_texts("dominoes", LONG)]
    for order in (
        [texts[0], texts[2], texts[1], texts[3]],
        [*texts, texts[3]],
        texts[1:],
        [texts[0], *texts],
    ):
        inbox = receive(order)
        assert not inbox.complete and inbox.links == []
        assert not inbox.check(ANN.key, verify).verified
    assert not receive(texts[:-1]).complete  # one record short
    assert receive(texts, "triangles").problem == "an unexpected chain"
    newest = rated.chain_texts("dominoes", LONG * 8)  # 560 records: the newest 500 go
    assert json.loads(newest[0])["count"] == rating.MAX_CHAIN
    assert json.loads(newest[-1])["records"][-1] == LONG[-1]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda m: m.update(n=-1), "n must be"),
        (lambda m: m.update(records=[]), "records must be a list"),
        (lambda m: m["records"][0].pop("sigs"), "record is malformed"),
        (lambda m: m["records"][1]["record"].update(v=9), "another version"),
        (lambda m: m["records"][2]["record"].update(moves="x" * 5000), "too large"),
        (lambda m: m["records"][0]["sigs"].__setitem__(0, "not a signature"), "signature is malformed"),
        (lambda m: m.update(extra=1), "unknown field"),
    ],
)
def test_a_malformed_link_is_refused_before_anything_is_kept(edit, words):
    chain, _ = season()
    message = json.loads(rated.chain_texts("dominoes", chain)[1])
    edit(message)
    text = json.dumps(message, separators=(",", ":"))
    with pytest.raises(ProtocolError, match=words):
        parse(text, sender="guest")


def test_only_a_link_may_be_longer_than_a_guest_message():
    chain, _ = season()
    big = json.loads(rated.chain_texts("dominoes", chain)[1])
    big["records"] = big["records"][:1]
    text = json.dumps(big, separators=(",", ":"))
    assert len(text) < protocol.MAX_FROM_GUEST  # the real ones are short; pad one past the guest limit
    padded = text[:-1] + " " * (protocol.MAX_FROM_GUEST - len(text) + 10) + "}"
    assert parse(padded, sender="guest").kind == "link"
    sneaky = '{"t":"link","t":"chat","text":"' + "x" * protocol.MAX_FROM_GUEST + '"}'
    with pytest.raises(ProtocolError, match="too long"):
        parse(sneaky, sender="guest")
    with pytest.raises(ProtocolError, match="too long"):
        parse(padded + " " * protocol.MAX_LINK, sender="guest")


def sign_stage(record: dict[str, Any], stage: str, players: list[Any]) -> rated.Signing:
    signing = rated.Signing(record, stage)
    for seat, player in enumerate(players):
        sig = player.sign(signing.message)
        text = relay(encode("sign", sender="guest", stage=stage, sig=sig), seat)
        message = parse(text, sender="host")
        assert signing.take(message["seat"], message["sig"], verify)
    return signing


def test_a_rated_game_is_signed_at_start_and_end_and_both_chains_grow():
    start_rating = rating.default_rating()
    deal = ["c" * 64, "d" * 64]
    start = rated.start_record(
        "dominoes", "match100-2", deal, [(ANN.key, "Ann"), (BEN.key, "Ben")], [start_rating] * 2, None, AT
    )
    # The host asks; each page checks before it signs.
    text = encode("rated_start", start=start)
    received = parse(text, sender="host")["start"]
    mine = {"game": "dominoes", "mode": "match100-2", "before": [start_rating] * 2, "deal": deal}
    assert rated.check_start(received, seat=1, key=BEN.key, name="Ben", **mine) == ""
    assert "seat you" in rated.check_start(received, seat=0, key=BEN.key, name="Ben", **mine)
    assert "deal" in rated.check_start(
        received, seat=1, key=BEN.key, name="Ben", **{**mine, "deal": deal[::-1]}
    )
    inflated = {**mine, "before": [Rating(40, 2), start_rating]}
    assert "ratings" in rated.check_start(received, seat=1, key=BEN.key, name="Ben", **inflated)
    starts = sign_stage(start, "start", [ANN, BEN])
    record = rated.end_record(start, [1, 2], rated.moves_digest(["6-6", "6-4@L"]), None)
    assert parse(encode("rated_end", record=record), sender="host")["record"] == record
    signed = sign_stage(record, "end", [ANN, BEN]).signed(starts)
    ann = rating.check_chain(ANN.key, "dominoes", [signed], verify)
    ben = rating.check_chain(BEN.key, "dominoes", [signed], verify)
    assert ann.verified and ben.verified and ann.rating.mu > 25 > ben.rating.mu


def test_a_forged_or_repeated_signature_is_refused_and_a_short_record_cannot_be_made():
    start = rated.start_record(
        "dominoes",
        "block-2",
        ["c" * 64] * 2,
        [(ANN.key, "Ann"), (BEN.key, "Ben")],
        [Rating(25, 8)] * 2,
        None,
        AT,
    )
    signing = rated.Signing(start, "start")
    assert not signing.take(1, CAT.sign(signing.message), verify)  # someone else's key
    assert not signing.take(1, BEN.sign(b"other bytes"), verify)
    assert not signing.take(5, BEN.sign(signing.message), verify)
    assert signing.take(1, BEN.sign(signing.message), verify)
    assert not signing.take(1, BEN.sign(signing.message), verify)  # once per seat
    assert signing.missing() == [0]
    end = rated.Signing(rated.end_record(start, [2, 1], "ab" * 32, 0), "end")
    assert end.take(1, BEN.sign(end.message), verify)
    assert end.missing(forfeit=0) == []
    with pytest.raises(rating.RecordError):
        end.signed(signing)  # Ann never signed the start
    with pytest.raises(rating.RecordError):
        rated.start_record("dominoes", "m", [], [(ANN.key, "Ann")], [Rating(25, 8)], None, AT)
    with pytest.raises(ProtocolError, match="not a record to sign"):
        parse(json.dumps({"t": "rated_start", "start": {"v": 1}}), sender="host")


def test_the_rooms_hand_rated_messages_to_the_rated_table():
    room = HostRoom("dominoes", None, {"players": 2}, "Ann", ["host", "open"], random.Random(1))
    guest = GuestRoom(room.code, "Ben")
    room.on_open("p1")
    room.on_message("p1", guest.hello(), 0.0)
    chain, _ = season()
    for text in rated.chain_texts("dominoes", chain):
        (out,) = room.on_message("p1", text, 1.0)
        assert out.note == "rated" and out.data["seat"] == 1
    outs = room.on_message("p2", rated.chain_texts("dominoes", [])[0], 1.0)  # not seated: refused
    assert [o.note for o in outs] == [""] and '"error"' in outs[0].text
    (event,) = guest.on_message(relay(rated.chain_texts("dominoes", chain)[1], 0))
    assert event.kind == "rated" and event.data["kind"] == "link" and event.data["seat"] == 0
    whole = game([ANN, BEN], [Rating(25, 8)] * 2, [1, 2], AT)["record"]  # a whole record is no start
    (event,) = guest.on_message(json.dumps({"t": "rated_start", "start": whole}))
    assert event.kind == "bad" and "not a record to sign" in event.data["reason"]
