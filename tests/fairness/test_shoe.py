"""The provably fair shoe (issue 47): HMAC_DRBG against NIST's vectors, an unbiased reproducible shuffle, salted
commitments in a Merkle tree, and openings that fail when anything is changed."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.cards import Card, full_shoe
from taiwan_poker.fairness import (
    CommittedShoe,
    HmacDrbg,
    Opening,
    audit_path,
    merkle_root,
    player_mix,
    root_from_path,
    seed_commitment,
    shuffled_shoe,
    verify_opening,
)

# NIST CAVP HMAC_DRBG.rsp, [SHA-256] no reseed, no prediction resistance, COUNT = 0 (returned bits: the second
# generate call of 1,024 bits)
NIST = ("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488", "659ba96c601dc69fc902940805ec0ca8",
        "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89d54fbb978a15b5c443c9ec21036d2460b6f73eba"
        "d0dc2aba6e624abf07745bc107694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668961df86803482cb3"
        "7ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8")
SEED = bytes(range(32))
SEEDS = {0: b"alice's seed", 1: b"\x00\x01bob", 3: os.urandom(16)}


def test_hmac_drbg_gives_nists_returned_bits() -> None:
    entropy, nonce, expected = (bytes.fromhex(x) for x in NIST)
    drbg = HmacDrbg(entropy, nonce)
    drbg.generate(128)
    assert drbg.generate(128) == expected


def test_the_shoe_is_a_permutation_and_the_same_seeds_give_the_same_shoe() -> None:
    for decks in (2, 6):
        shoe = shuffled_shoe(decks, SEED, "ABCDEF/1", player_mix(SEEDS))
        assert sorted(shoe) == sorted(full_shoe(decks)) and len(set(shoe)) == 52 * decks
        assert shoe == shuffled_shoe(decks, SEED, "ABCDEF/1", player_mix(SEEDS))
        assert shoe != shuffled_shoe(decks, SEED, "ABCDEF/2", player_mix(SEEDS)), "another hand, another shoe"
        other = dict(SEEDS)
        other[0] = b"alice's seed!"
        assert shoe != shuffled_shoe(decks, SEED, "ABCDEF/1", player_mix(other)), "a player's seed steers it"


def test_the_first_card_is_uniform_over_many_shoes() -> None:
    """A quick check of no gross bias (benchmarks/bench_shuffle.py runs the chi-square tests at 10^6)."""
    counts = Counter(shuffled_shoe(2, i.to_bytes(32, "big"), "X/1", player_mix({})) [0].face for i in range(5200))
    assert len(counts) == 52 and max(counts.values()) < 160 and min(counts.values()) > 45


@settings(max_examples=60, deadline=None)
@given(size=st.integers(1, 320), index=st.integers(0, 319))
def test_an_audit_path_leads_every_leaf_to_the_root_and_nowhere_else(size: int, index: int) -> None:
    leaves = [i.to_bytes(32, "big") for i in range(size)]
    index %= size
    root = merkle_root(leaves)
    path = audit_path(leaves, index)
    assert root_from_path(leaves[index], index, size, path) == root
    assert root_from_path(b"\xff" * 32, index, size, path) != root
    if size > 1:
        assert root_from_path(leaves[index], (index + 1) % size, size, path) != root
        assert root_from_path(leaves[index], index, size, path[:-1]) != root


def test_every_opening_verifies_and_each_change_makes_it_fail() -> None:
    shoe = CommittedShoe.derive(6, SEED, "ABCDEF/7", SEEDS)
    size = len(shoe.cards)
    for position in (0, 1, 7, 155, size - 1):
        opening = shoe.open(position)
        assert verify_opening(opening, size, shoe.root)
        other_card = Card(opening.card.rank, opening.card.suit, opening.card.deck % 6 + 1)
        assert not verify_opening(Opening(position, other_card, opening.salt, opening.path), size, shoe.root)
        salt = bytes([opening.salt[0] ^ 1]) + opening.salt[1:]
        assert not verify_opening(Opening(position, opening.card, salt, opening.path), size, shoe.root)
    # another seed (the server's or one player's) or two cards swapped: another root
    assert CommittedShoe.derive(6, bytes(31) + b"\x01", "ABCDEF/7", SEEDS).root != shoe.root
    assert CommittedShoe.derive(6, SEED, "ABCDEF/7", {**SEEDS, 1: b"\x00\x01bot"}).root != shoe.root
    from taiwan_poker.fairness.shoe import leaf
    swapped = list(shoe.cards)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    assert merkle_root([leaf(shoe.salts[p], p, c) for p, c in enumerate(swapped)]) != shoe.root


def test_the_seed_commitment_binds_the_seed() -> None:
    assert seed_commitment(SEED) == seed_commitment(bytes(range(32)))
    assert seed_commitment(SEED) != seed_commitment(bytes(range(1, 33)))
    with pytest.raises(ValueError):
        player_mix({0: b""})
