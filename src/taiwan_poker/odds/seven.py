"""Exact best-five-of-k category distribution (k = 5..7 cards) for 1–8 decks.

Method (no card-by-card enumeration): walk every rank multiset of ``k`` cards
(50,388 for k = 7).  A multiset with rank counts ``c`` has
``prod C(4d, c_r)`` physical copies.  Its flush structure: with at most nine
cards at most one suit can hold five or more, so the events "suit s holds
exactly the sub-multiset m of c, |m| >= 5" are disjoint over (s, m); each has
``prod C(d, m_r) * C(3d, c_r - m_r)`` copies, and its category is the better of
the rank-only hand of ``c`` and the flush hand of ``m``.  Everything else is
the rank-only hand.  The structure (which (c, m) pairs exist and their
categories) does not depend on ``d``, so it is built once; the counts for a
deck count are then a few vectorised integer products (exact: every product
and sum stays below ``C(416, 7) < 2**63``).

The category counts do not depend on the ranking option: five of a kind and a
straight flush can never both be made from seven cards.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import comb

import numpy as np
import numpy.typing as npt

from ..cards import check_decks
from ..errors import CardCountError
from ..evaluate import CATEGORIES, Category
from ..evaluate.tables import judge_flush, judge_ranks
from .five import CategoryCounts

_I64 = np.int64


class _Structure:
    """Deck-independent pattern table for hands of ``k`` cards."""

    def __init__(self, k: int) -> None:
        multisets: list[list[int]] = []
        nonflush_code: list[int] = []
        pair_c: list[int] = []
        pair_m: list[list[int]] = []
        pair_code: list[int] = []
        flush_cache: dict[tuple[int, ...], int] = {}
        for ranks in combinations_with_replacement(range(13), k):
            counts = [0] * 13
            for r in ranks:
                counts[r] += 1
            ci = len(multisets)
            multisets.append(counts)
            base = judge_ranks(counts)[0].code
            nonflush_code.append(base)
            present = [r for r in range(13) if counts[r]]
            for choice in product(*(range(counts[r] + 1) for r in present)):
                if sum(choice) < 5:
                    continue
                m = [0] * 13
                for r, x in zip(present, choice, strict=True):
                    m[r] = x
                key = tuple(m)
                code = flush_cache.get(key)
                if code is None:
                    code = judge_flush(m)[0].code
                    flush_cache[key] = code
                pair_c.append(ci)
                pair_m.append(m)
                # Lower code = stronger category (the order is the same under both rankings here).
                pair_code.append(min(base, code))
        self.counts = np.array(multisets, dtype=_I64)
        self.nonflush_code = np.array(nonflush_code, dtype=np.intp)
        self.pair_c = np.array(pair_c, dtype=np.intp)
        self.pair_m = np.array(pair_m, dtype=_I64)
        self.pair_code = np.array(pair_code, dtype=np.intp)


@cache
def _structure(k: int) -> _Structure:
    return _Structure(k)


def _binom_table(n: int, kmax: int) -> npt.NDArray[np.int64]:
    return np.array([comb(n, j) for j in range(kmax + 1)], dtype=_I64)


def _prod_binom(table: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    out = np.ones(counts.shape[0], dtype=_I64)
    for r in range(13):
        out *= table[counts[:, r]]
    return out


@cache
def _exact_counts(decks: int, k: int) -> tuple[int, ...]:
    s = _structure(k)
    d = decks
    total = _prod_binom(_binom_table(4 * d, k), s.counts)
    flush_w = (
        4
        * _prod_binom(_binom_table(d, k), s.pair_m)
        * _prod_binom(_binom_table(3 * d, k), s.counts[s.pair_c] - s.pair_m)
    )
    # pair_c is non-decreasing (built multiset by multiset): sum the flush copies of each multiset.
    flush_sum = np.zeros(len(total), dtype=_I64)
    starts = np.flatnonzero(np.r_[True, s.pair_c[1:] != s.pair_c[:-1]])
    flush_sum[s.pair_c[starts]] = np.add.reduceat(flush_w, starts)
    nonflush = total - flush_sum
    out = [0] * len(CATEGORIES)
    for code in range(len(CATEGORIES)):
        out[code] = int(nonflush[s.nonflush_code == code].sum()) + int(flush_w[s.pair_code == code].sum())
    return tuple(out)


def exact_distribution(decks: int, cards: int = 7) -> CategoryCounts:
    """Exact number of ``cards``-card sets (5..7 physical cards) whose best five is each category.

    Integers summing to ``C(52d, cards)``; strongest category first.
    """
    d = check_decks(decks)
    if not 5 <= cards <= 7:
        raise CardCountError(f"the exact distribution is for 5 to 7 cards, not {cards}", count=cards)
    return dict(zip(CATEGORIES, _exact_counts(d, cards), strict=True))


def seven_card_counts(decks: int) -> CategoryCounts:
    """Exact best-five-of-seven category counts for ``decks`` decks (sum ``C(52d, 7)``)."""
    return exact_distribution(decks, 7)


def seven_card_probabilities(decks: int) -> dict[Category, Fraction]:
    """Exact best-five-of-seven category probabilities."""
    total = comb(52 * check_decks(decks), 7)
    return {cat: Fraction(n, total) for cat, n in seven_card_counts(decks).items()}


# The classic single-deck table of 133,784,560 seven-card hands (royal flushes inside straight flush).
CLASSIC_SEVEN_CARD_ONE_DECK: CategoryCounts = {
    Category.FIVE_OF_A_KIND: 0,
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}
