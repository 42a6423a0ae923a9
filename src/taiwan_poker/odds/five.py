"""Exact five-card category counts for 1–8 decks, computed two independent ways.

``five_card_counts_formula`` is the spec's closed formulas (formula appendix);
``five_card_counts_enumerated`` walks every rank multiset of five cards, counts
its physical copies and how many of them are one suit, and classifies each
pattern with its own small classifier (not the evaluator's tables).  Both give
integers summing to ``C(52d, 5)``; the tests check that they agree.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from ..cards import check_decks
from ..evaluate import CATEGORIES, Category

CategoryCounts = dict[Category, int]


def total_hands(decks: int, cards: int = 5) -> int:
    """Number of sets of ``cards`` physical cards from ``decks`` decks: ``C(52d, cards)``."""
    return comb(52 * check_decks(decks), cards)


def five_card_counts_formula(decks: int) -> CategoryCounts:
    """The spec's appendix formulas (n = 4d), strongest category first."""
    d = check_decks(decks)
    n = 4 * d
    c = comb
    straights = n**5 - 4 * d**5
    return {
        Category.FIVE_OF_A_KIND: 13 * c(n, 5),
        Category.STRAIGHT_FLUSH: 40 * d**5,
        Category.FOUR_OF_A_KIND: 13 * c(n, 4) * 12 * n,
        Category.FULL_HOUSE: 13 * c(n, 3) * 12 * c(n, 2),
        Category.FLUSH: 4 * c(13 * d, 5) - 52 * c(d, 5) - 624 * d * c(d, 4) - 624 * c(d, 3) * c(d, 2) - 40 * d**5,
        Category.STRAIGHT: 10 * straights,
        Category.THREE_OF_A_KIND: 13 * c(n, 3) * c(12, 2) * n**2 - 52 * c(d, 3) * c(12, 2) * d**2,
        Category.TWO_PAIR: c(13, 2) * c(n, 2) ** 2 * 11 * n - 4 * c(13, 2) * c(d, 2) ** 2 * 11 * d,
        Category.ONE_PAIR: 13 * c(n, 2) * c(12, 3) * n**3 - 52 * c(d, 2) * c(12, 3) * d**3,
        Category.HIGH_CARD: (c(13, 5) - 10) * straights,
    }


def _is_straight(ranks: tuple[int, ...]) -> bool:
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return False
    return distinct[4] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12]


def _classify_five(ranks: tuple[int, ...], one_suit: bool) -> Category:
    """Category of five cards from their ranks and whether they share one suit (default ranking)."""
    shape = sorted(Counter(ranks).values(), reverse=True)
    straight = _is_straight(ranks)
    if shape[0] == 5:
        return Category.FIVE_OF_A_KIND
    if one_suit and straight:
        return Category.STRAIGHT_FLUSH
    if shape[0] == 4:
        return Category.FOUR_OF_A_KIND
    if shape[:2] == [3, 2]:
        return Category.FULL_HOUSE
    if one_suit:
        return Category.FLUSH
    if straight:
        return Category.STRAIGHT
    if shape[0] == 3:
        return Category.THREE_OF_A_KIND
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR
    if shape[0] == 2:
        return Category.ONE_PAIR
    return Category.HIGH_CARD


@cache
def five_card_counts_enumerated(decks: int) -> CategoryCounts:
    """Enumerate the 6,188 rank multisets of five cards; physical copies split into one-suit and mixed."""
    d = check_decks(decks)
    out = dict.fromkeys(CATEGORIES, 0)
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks).values()
        total = 1
        one_suit = 4
        for k in counts:
            total *= comb(4 * d, k)
            one_suit *= comb(d, k)
        out[_classify_five(ranks, True)] += one_suit
        out[_classify_five(ranks, False)] += total - one_suit
    return out


def five_card_counts(decks: int) -> CategoryCounts:
    """Exact five-card counts (the enumeration; equal to the formulas), strongest category first."""
    return dict(five_card_counts_enumerated(decks))


def five_card_probabilities(decks: int) -> dict[Category, Fraction]:
    """Exact probabilities of each category for five random physical cards."""
    total = total_hands(decks, 5)
    return {cat: Fraction(n, total) for cat, n in five_card_counts(decks).items()}


# The spec's printed five-card table (percent, six decimals), decks 1..4, for comparison.
SPEC_FIVE_CARD_TABLE: dict[Category, tuple[str, str, str, str]] = {
    Category.FIVE_OF_A_KIND: ("0.000000", "0.000792", "0.001427", "0.001837"),
    Category.STRAIGHT_FLUSH: ("0.001539", "0.001392", "0.001347", "0.001325"),
    Category.FOUR_OF_A_KIND: ("0.024010", "0.094995", "0.128405", "0.146964"),
    Category.FULL_HOUSE: ("0.144058", "0.265987", "0.313878", "0.339149"),
    Category.FLUSH: ("0.196540", "0.284725", "0.317524", "0.334432"),
    Category.STRAIGHT: ("0.392465", "0.354927", "0.343460", "0.337906"),
    Category.THREE_OF_A_KIND: ("2.112845", "3.343832", "3.762252", "3.972239"),
    Category.TWO_PAIR: ("4.753902", "5.844242", "6.201937", "6.379388"),
    Category.ONE_PAIR: ("42.256903", "44.484905", "45.069980", "45.336110"),
    Category.HIGH_CARD: ("50.117739", "45.324204", "43.859790", "43.150650"),
}


def percent_text(p: Fraction, places: int = 6) -> str:
    """A probability as a percentage rounded half-up to ``places`` decimals (exact, from the fraction)."""
    scaled = p * 100 * 10**places
    q = int(scaled)
    if scaled - q >= Fraction(1, 2):
        q += 1
    whole, frac = divmod(q, 10**places)
    return f"{whole}.{frac:0{places}d}" if places else str(whole)


def spec_five_card_differences() -> list[tuple[Category, int, str, str]]:
    """Cells where the spec's printed table differs from the exact value: (category, decks, printed, exact)."""
    out: list[tuple[Category, int, str, str]] = []
    for d in range(1, 5):
        probs = five_card_probabilities(d)
        for cat, row in SPEC_FIVE_CARD_TABLE.items():
            exact = percent_text(probs[cat])
            if exact != row[d - 1]:
                out.append((cat, d, row[d - 1], exact))
    return out
