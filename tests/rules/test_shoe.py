"""Dealing a hand's cards: lazy unbiased Fisher–Yates over the physical cards of a fresh shoe."""

from __future__ import annotations

import random
from collections import Counter

from taiwan_poker.cards import Shoe, live_rng, physical_cards
from taiwan_poker.cards import deal as deal_cards


def test_deal_gives_distinct_physical_cards_in_any_deck_count() -> None:
    """000 §01: each physical card has its own identity; one hand never gets the same physical card twice."""
    rng = random.Random(1)
    for decks in range(1, 9):
        cards = deal_cards(decks, 35, rng)
        assert len(set(cards)) == 35 and all(c in physical_cards(decks) for c in cards)


def test_deal_is_uniform_over_positions_chi_square() -> None:
    """Unbiased shuffle: every physical card is equally likely in a dealt position (chi-square, 2 decks)."""
    rng = random.Random(7)
    counts: Counter[object] = Counter()
    trials = 104 * 300
    for _ in range(trials):
        counts[deal_cards(2, 3, rng)[2]] += 1
    expected = trials / 104
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in physical_cards(2))
    assert len(counts) == 104 and chi2 < 170  # 103 degrees of freedom: p ≈ 1e-4 at 170


def test_deal_matches_the_reference_shoe_algorithm() -> None:
    """Same lazy Fisher–Yates as cards.Shoe: the same seeded generator deals the same cards."""
    assert deal_cards(2, 14, random.Random(42)) == Shoe(2, random.Random(42)).draw(14)


def test_live_deal_uses_the_os_csprng() -> None:
    """000 §私人牌的保護邊界: live dealing uses cryptographic randomness (secrets.SystemRandom)."""
    cards = deal_cards(2, 14, live_rng())
    assert len(set(cards)) == 14
