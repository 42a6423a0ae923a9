"""Exact best-five-of-k category distribution (k = 5..7 cards) for 1–8 decks.

Method (no card-by-card enumeration): walk every rank multiset of ``k`` cards
(50,388 for k = 7).  A multiset with rank counts ``c`` has
``prod C(4d, c_r)`` physical copies.  Its flush structure: with at most nine
cards at most one suit can hold five or more, so the events "suit s holds
exactly the sub-multiset m of c, |m| >= 5" are disjoint over (s, m); each has
``prod C(d, m_r) * C(3d, c_r - m_r)`` copies, and its category is the better of
the rank-only hand of ``c`` and the flush hand of ``m`` (categories are judged
from rank counts here, vectorised, independently of the evaluator's tables;
the tests compare with the evaluator through the Monte Carlo and the classic
single-deck tables).  Everything else is
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
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from ..cards import check_decks
from ..errors import CardCountError
from ..evaluate import CATEGORIES, Category
from .five import CategoryCounts

_I64 = np.int64


def _multisets(size: int) -> npt.NDArray[np.int64]:
    """Rank-count rows of every multiset of ``size`` ranks (``combinations_with_replacement`` order)."""
    combos = list(combinations_with_replacement(range(13), size))
    counts = np.zeros((len(combos), 13), dtype=_I64)
    if size:
        idx = np.array(combos, dtype=np.intp)
        rows = np.arange(len(combos))
        for j in range(size):
            counts[rows, idx[:, j]] += 1
    return counts


_KEY_WEIGHTS = 8 ** np.arange(13, dtype=_I64)  # counts are at most 7: three bits a rank


def _has_straight(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Five distinct consecutive ranks present (A-2-3-4-5 included)."""
    present = counts > 0
    out = present[:, 12] & present[:, 0] & present[:, 1] & present[:, 2] & present[:, 3]
    for top in range(4, 13):
        out |= present[:, top - 4 : top + 1].all(axis=1)
    return out


def rank_only_codes(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Category code of the best non-flush five from rank counts (vectorised; five of a kind on top)."""
    top2 = -np.sort(-counts, axis=1)[:, :2]
    a, b = top2[:, 0], top2[:, 1]
    conditions = [a >= 5, a >= 4, (a >= 3) & (b >= 2), _has_straight(counts), a >= 3, (a >= 2) & (b >= 2), a >= 2]
    codes = [c.code for c in (
        Category.FIVE_OF_A_KIND, Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.STRAIGHT,
        Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.ONE_PAIR,
    )]  # fmt: skip
    return np.select(conditions, codes, Category.HIGH_CARD.code).astype(np.intp)


def flush_codes(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Category code of five or more cards of one suit: straight flush or flush (ranks may repeat)."""
    return np.where(_has_straight(counts), Category.STRAIGHT_FLUSH.code, Category.FLUSH.code).astype(np.intp)


class _Structure:
    """Deck-independent pattern table for hands of ``k`` cards.

    ``counts``: every rank multiset ``c`` of ``k`` cards, with ``nonflush_code``
    its rank-only category.  Pairs ``(c, m)``: ``m`` the ranks of the one suit
    holding five or more cards (``m ⊆ c``), built as ``c = m + e`` over all
    multisets ``m`` of 5..k ranks and ``e`` of the other ``k - |m|``; ``pair_code``
    is the better of the flush hand of ``m`` and the rank-only hand of ``c``
    (lower code = stronger; the order is the same under both rankings here).
    Pairs are sorted by ``pair_c``.
    """

    def __init__(self, k: int) -> None:
        self.counts = _multisets(k)
        keys = self.counts @ _KEY_WEIGHTS
        order = np.argsort(keys)
        sorted_keys = keys[order]
        self.nonflush_code = rank_only_codes(self.counts)
        pair_c: list[npt.NDArray[np.intp]] = []
        pair_m: list[npt.NDArray[np.int64]] = []
        flush_code: list[npt.NDArray[np.intp]] = []
        for size in range(5, k + 1):
            m = _multisets(size)
            fcode = flush_codes(m)
            e = _multisets(k - size)
            c = (m[:, None, :] + e[None, :, :]).reshape(-1, 13)
            pair_c.append(order[np.searchsorted(sorted_keys, c @ _KEY_WEIGHTS)])
            pair_m.append(np.repeat(m, len(e), axis=0))
            flush_code.append(np.repeat(fcode, len(e)))
        pc = np.concatenate(pair_c)
        sort = np.argsort(pc, kind="stable")
        self.pair_c = pc[sort]
        self.pair_m = np.concatenate(pair_m)[sort]
        self.pair_code = np.minimum(self.nonflush_code[self.pair_c], np.concatenate(flush_code)[sort])


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
    # pair_c is sorted: sum the flush copies of each multiset.
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
