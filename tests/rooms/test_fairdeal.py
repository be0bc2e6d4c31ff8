"""Fair deals: commit/reveal, the seed, and the after-game check passing for an honest host only."""

from __future__ import annotations

import pytest

from boneyard.games import get_game
from boneyard.rooms import fairdeal
from boneyard.rooms.fairdeal import check_deal, commitment, new_nonce, seed_from, view_digest

from .helpers import TABLES, random_game


def honest(game: str, options: dict, participants: int = 2, rng_seed: int = 1):
    """Return everything an honest host's deal gives a guest in seat 1."""
    nonces = [new_nonce() for _ in range(participants)]
    commits = [commitment(n) for n in nonces]
    seed = seed_from(nonces)
    first = get_game(game).new_state(seed=seed, **options).view(1)
    _state, moves = random_game(game, options, seed, rng_seed)
    return {
        "game": game,
        "options": options,
        "commits": commits,
        "nonces": nonces,
        "seed": seed,
        "moves": moves,
        "my_seat": 1,
        "my_first_view": first,
        "my_nonce": nonces[1],
        "asked_commits": list(commits),
    }


def test_seed_and_commitment():
    nonce = "00" * 32
    assert commitment(nonce) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    seed = seed_from([nonce, "ff" * 32])
    assert 0 <= seed < 2**63
    assert seed != seed_from(["ff" * 32, nonce])  # the order counts
    assert len(new_nonce()) == 64 and new_nonce() != new_nonce()
    with pytest.raises(ValueError):
        commitment("xyz")
    with pytest.raises(ValueError):
        seed_from([])


@pytest.mark.parametrize(("game", "options"), TABLES, ids=[f"{g}-{o}" for g, o in TABLES])
def test_honest_deal_passes(game, options):
    deal = honest(game, options, participants=min(options["players"], 3))
    ok, reason = check_deal(**deal)
    assert ok, reason
    assert "replay" in reason


def test_a_changed_seed_fails():
    deal = honest("dominoes", {"players": 2})
    deal["seed"] ^= 1
    ok, reason = check_deal(**deal)
    assert not ok and "seed" in reason


def test_a_host_that_deals_from_its_own_seed_fails():
    deal = honest("dominoes", {"players": 2, "target": 50})
    # The host plays a seed of its choice but claims the committed ones: the first view gives it away.
    other = get_game("dominoes").new_state(seed=12345, players=2, target=50).view(1)
    deal["my_first_view"] = other
    ok, reason = check_deal(**deal)
    assert not ok and "dealt" in reason


def test_a_wrong_nonce_fails():
    deal = honest("triangles", {"players": 2})
    deal["nonces"][0] = new_nonce()
    ok, reason = check_deal(**deal)
    assert not ok and "reveal 1 does not match" in reason


def test_a_swapped_order_fails():
    deal = honest("heptalion", {"players": 2, "hidden": True})
    deal["nonces"].reverse()
    ok, reason = check_deal(**deal)
    assert not ok and "does not match" in reason
    # Swapping commitments too and recomputing the seed: the guest saw the order before the reveal.
    deal["commits"].reverse()
    deal["seed"] = seed_from(deal["nonces"])
    ok, reason = check_deal(**deal)
    assert not ok and "shown before the reveal" in reason
    deal["asked_commits"] = None
    ok, reason = check_deal(**deal)
    assert not ok and "dealt" in reason


def test_my_nonce_must_be_there():
    deal = honest("dominoes", {"players": 2})
    deal["my_nonce"] = new_nonce()
    ok, reason = check_deal(**deal)
    assert not ok and "your own" in reason


def test_moves_that_do_not_replay_fail():
    deal = honest("dominoes", {"players": 3, "target": 100})
    deal["moves"] = deal["moves"][:3] + ["9-9@L"] + deal["moves"][4:]
    ok, reason = check_deal(**deal)
    assert not ok and "move 4" in reason


def test_views_are_checked_against_the_replay():
    deal = honest("heptalion", {"players": 3, "hidden": True})
    state = get_game("heptalion").new_state(seed=deal["seed"], **deal["options"])
    digests = {0: view_digest(state.view(1))}
    for text in deal["moves"][:5]:
        state.play(text)
        digests[state.turn_number] = view_digest(state.view(1))
    ok, reason = check_deal(**deal, view_digests=digests)
    assert ok, reason
    digests[3] = "0" * 64
    ok, reason = check_deal(**deal, view_digests=digests)
    assert not ok and "after move 3" in reason


def test_unfinished_game_says_so():
    deal = honest("triangles", {"players": 2})
    deal["moves"] = deal["moves"][:4]
    ok, reason = check_deal(**deal)
    assert ok and "did not finish" in reason


def test_bad_options_are_a_reason_not_a_crash():
    deal = honest("dominoes", {"players": 2})
    deal["options"] = {"players": 9}
    ok, reason = check_deal(**deal)
    assert not ok and "could not be dealt" in reason
    assert fairdeal.check_reveals(["a"], []) == "1 commitments but 0 reveals"


def test_moves_cut_short_fail_against_the_views_seen():
    deal = honest("dominoes", {"players": 2})
    state = get_game("dominoes").new_state(seed=deal["seed"], **deal["options"])
    digests = {0: view_digest(state.view(1))}
    for text in deal["moves"]:
        state.play(text)
        digests[state.turn_number] = view_digest(state.view(1))
    deal["moves"] = deal["moves"][:2]
    ok, reason = check_deal(**deal, view_digests=digests)
    assert not ok and "stop at move 2" in reason
