"""The rating chain: signed results, recomputed ratings, and every kind of tampering refused.

Keys and signatures are made as the page's WebCrypto makes them (ECDSA P-256 with SHA-256, public keys
raw and uncompressed, signatures as r and s), here with the ``cryptography`` package.
"""

from __future__ import annotations

import base64
import copy
from dataclasses import dataclass
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from boneyard import rating
from boneyard.rating import Rating, Signature


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Player:
    name: str
    private: ec.EllipticCurvePrivateKey

    @classmethod
    def make(cls, name: str) -> Player:
        return cls(name, ec.generate_private_key(ec.SECP256R1()))

    @property
    def key(self) -> str:
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64(raw)

    def sign(self, message: bytes) -> str:
        r, s = decode_dss_signature(self.private.sign(message, ec.ECDSA(hashes.SHA256())))
        return b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def verify(signature: Signature) -> bool:
    """Check a signature as the page's WebCrypto does."""
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(signature.key))
    raw = unb64(signature.signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, signature.message, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False
    return True


ANN, BEN, CAT, DAN = (Player.make(n) for n in ("Ann", "Ben", "Cat", "Dan"))


def game(
    players: list[Player],
    before: list[Rating],
    placings: list[int],
    at: str,
    *,
    teams: list[list[int]] | None = None,
    forfeit: int | None = None,
    moves: str = "ab" * 32,
    game_id: str = "dominoes",
) -> dict[str, Any]:
    """Return a rated game's record signed as the table signs it."""
    record = {
        "v": 1,
        "game": game_id,
        "mode": "match100-2",
        "deal": ["c" * 64 for _ in players],
        "players": [{"key": p.key, "name": p.name} for p in players],
        "teams": teams,
        "before": [r.to_json() for r in before],
        "at": at,
        "placings": placings,
        "moves": moves,
        "forfeit": forfeit,
    }
    start = rating.canonical(rating.start_of(record))
    whole = rating.canonical(record)
    return {
        "record": record,
        "start_sigs": [p.sign(start) for p in players],
        "sigs": [None if seat == forfeit else p.sign(whole) for seat, p in enumerate(players)],
    }


def season() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return Ann's and Ben's chains after three games between them (Ann wins two)."""
    ann, ben = rating.default_rating(), rating.default_rating()
    chain_a: list[dict[str, Any]] = []
    chain_b: list[dict[str, Any]] = []
    for day, placings in enumerate(([1, 2], [1, 2], [2, 1]), 1):
        signed = game([ANN, BEN], [ann, ben], placings, f"2026-12-0{day}T10:00:00Z")
        chain_a.append(signed)
        chain_b.append(signed)
        ann, ben = rating.rate([ann, ben], placings, None)
    return chain_a, chain_b


def test_a_new_player_starts_at_the_library_default() -> None:
    check = rating.check_chain(ANN.key, "dominoes", [], verify)
    assert check.verified and check.counted == 0
    assert check.rating == Rating(25.0, 25.0 / 3)


def test_each_page_recomputes_the_same_rating_from_the_signed_chain() -> None:
    chain_a, chain_b = season()
    a = rating.check_chain(ANN.key, "dominoes", chain_a, verify)
    b = rating.check_chain(BEN.key, "dominoes", chain_b, verify)
    assert a.verified and b.verified and a.counted == b.counted == 3
    assert a.rating.mu > 25 > b.rating.mu
    assert a.rating.sigma < 25 / 3
    assert [when for when, _ in a.history] == [f"2026-12-0{d}T10:00:00Z" for d in (1, 2, 3)]


def test_partners_and_four_players_are_rated_by_side() -> None:
    start = rating.default_rating()
    signed = game(
        [ANN, BEN, CAT, DAN], [start] * 4, [1, 2, 1, 2], "2026-12-01T10:00:00Z", teams=[[0, 2], [1, 3]]
    )
    for player in (ANN, CAT):
        assert rating.check_chain(player.key, "dominoes", [signed], verify).rating.mu > 25
    assert rating.check_chain(BEN.key, "dominoes", [signed], verify).rating.mu < 25


def test_a_player_who_left_loses_and_the_record_holds_without_their_end_signature() -> None:
    start = rating.default_rating()
    signed = game([ANN, BEN], [start, start], [1, 2], "2026-12-01T10:00:00Z", forfeit=1)
    assert rating.check_chain(ANN.key, "dominoes", [signed], verify).rating.mu > 25
    assert rating.check_chain(BEN.key, "dominoes", [signed], verify).rating.mu < 25


def test_a_guest_left_by_its_host_keeps_the_forfeit_signed_alone_and_it_counts_for_them_only() -> None:
    start = rating.default_rating()
    signed = game([ANN, BEN, CAT], [start] * 3, [3, 1, 1], "2026-12-01T10:00:00Z", forfeit=0)
    signed["sigs"][2] = None  # Ben kept it signed by himself: with the host gone, Cat could not sign it
    assert rating.check_chain(BEN.key, "dominoes", [signed], verify).rating.mu > 25
    assert rating.check_chain(ANN.key, "dominoes", [signed], verify).rating.mu < 25
    refused([signed], "its owner did not sign the result", owner=CAT)
    signed["sigs"][1] = None
    refused([signed], "nobody signed the result", owner=BEN)


def refused(chain: list[dict[str, Any]], words: str, owner: Player = ANN, counted: int = 0) -> None:
    check = rating.check_chain(owner.key, "dominoes", chain, verify)
    assert not check.verified
    assert words in check.problem
    assert check.counted == counted


def test_a_rating_edited_in_storage_is_refused() -> None:
    chain, _ = season()
    chain[1]["record"]["before"][0] = [40.0, 2.0]  # a better rating typed in
    refused(chain, "record 2: a signature does not verify", counted=1)


def test_an_edited_record_signed_again_by_its_owner_alone_is_refused() -> None:
    chain, _ = season()
    record = chain[2]["record"]
    record["placings"] = [1, 2]  # the lost game turned into a win
    chain[2]["sigs"][0] = ANN.sign(rating.canonical(record))
    refused(chain, "record 3: a signature does not verify", counted=2)


def test_a_result_the_opponent_did_not_sign_is_refused() -> None:
    chain, _ = season()
    chain[0]["sigs"][1] = None
    refused(chain, "Ben did not sign the result")


def test_a_forged_signature_is_refused() -> None:
    chain, _ = season()
    chain[0]["sigs"][1] = CAT.sign(rating.canonical(chain[0]["record"]))
    refused(chain, "record 1: a signature does not verify")


def test_a_replayed_record_is_refused() -> None:
    chain, _ = season()
    refused([chain[0], copy.deepcopy(chain[0])], "record 2: it repeats an earlier record", counted=1)


def test_a_record_left_out_breaks_the_chain_from_there() -> None:
    chain, _ = season()
    refused([chain[0], chain[2]], "record 2: the rating before it does not follow", counted=1)


def test_records_of_another_player_or_game_or_out_of_order_are_refused() -> None:
    chain, _ = season()
    refused(chain, "not this player's", owner=CAT)
    other = copy.deepcopy(chain)
    other[0]["record"]["game"] = "triangles"
    refused(other, "another game")
    refused([chain[1], chain[0]], "record 1: the rating before it does not follow")


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda s: s.pop("sigs"), "record is malformed"),
        (lambda s: s["record"].update(extra=1), "record is malformed"),
        (lambda s: s["record"].update(v=2), "another version"),
        (lambda s: s["record"].update(players=[]), "players are malformed"),
        (lambda s: s["record"]["players"][0].update(key="abc"), "key is malformed"),
        (lambda s: s["record"].update(placings=[0, 9]), "placings are malformed"),
        (lambda s: s["record"].update(before=[[25, 0], [25, 8]]), "ratings are malformed"),
        (lambda s: s["record"].update(before=[[float("nan"), 8], [25, 8]]), "ratings are malformed"),
        (lambda s: s["record"].update(teams=[[0, 0]]), "teams are malformed"),
        (lambda s: s["record"].update(forfeit=True), "forfeit is malformed"),
        (lambda s: s["record"].update(mode="m" * 65), "mode is malformed"),
        (lambda s: s["record"].update(deal=["x"]), "deal is malformed"),
        (lambda s: s["record"].update(moves="x" * 5000), "too large"),
        (lambda s: s.update(start_sigs=["AAAA", "AAAA"]), "signature is malformed"),
        (lambda s: s["record"].update(players=[s["record"]["players"][0]] * 2), "one key twice"),
    ],
)
def test_malformed_records_are_refused_before_any_signature_is_checked(edit: Any, words: str) -> None:
    chain, _ = season()
    edit(chain[0])
    refused(chain, words)
    assert rating.signatures(chain[0]) == []


def test_an_oversized_or_malformed_chain_is_refused_whole() -> None:
    chain, _ = season()
    refused(chain * 200, "more than 500 records")
    refused({"not": "a list"}, "the chain is malformed")  # type: ignore[arg-type]
    refused([None], "record 1: a record is malformed")


def test_fingerprints_are_short_and_stable() -> None:
    assert rating.fingerprint(ANN.key) == rating.fingerprint(ANN.key)
    assert rating.fingerprint(ANN.key) != rating.fingerprint(BEN.key)
    assert len(rating.fingerprint(ANN.key)) == 9
    with pytest.raises(rating.RecordError):
        rating.fingerprint("not a key")
