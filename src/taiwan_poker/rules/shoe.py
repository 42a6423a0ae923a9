"""Dealing a hand's cards from a fresh multi-deck shoe: lazy unbiased Fisher–Yates over cached cards.

Same algorithm as :class:`taiwan_poker.cards.Shoe`, but the physical cards of
each deck count are built once, so a hand only pays for the cards it uses.
"""

from __future__ import annotations

from functools import cache

from ..cards import CARDS_PER_DECK, MAX_DECKS, Card, RandomSource, full_shoe


@cache
def physical_cards(decks: int) -> tuple[Card, ...]:
    """Every physical card of ``decks`` decks in index order (built once; cards are immutable)."""
    return tuple(full_shoe(decks))


def deal_cards(decks: int, count: int, rng: RandomSource) -> list[Card]:
    """``count`` distinct physical cards uniformly at random from a full ``decks``-deck shoe, in dealing order."""
    cards = list(physical_cards(decks))
    n = len(cards)
    getrandbits = getattr(rng, "getrandbits", None)
    if getrandbits is None:
        randrange = rng.randrange
        for i in range(count):
            j = randrange(i, n)
            cards[i], cards[j] = cards[j], cards[i]
        return cards[:count]
    bits = _BITS
    for i in range(count):
        # unbiased j in [i, n): rejection sampling on the fewest random bits (as random.Random does)
        span = n - i
        k = bits[span]
        r = getrandbits(k)
        while r >= span:
            r = getrandbits(k)
        j = i + r
        cards[i], cards[j] = cards[j], cards[i]
    return cards[:count]


_BITS = tuple(n.bit_length() for n in range(CARDS_PER_DECK * MAX_DECKS + 1))
