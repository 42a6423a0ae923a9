"""The spec's five-card counts (000 「五張牌機率：精確組合計數」, 「公式附錄」) and its seven-card simulation table.

Every five-card hand of a d-deck shoe is judged by enumerating the
C(56, 5) = 3,819,816 multisets of faces, each weighted by the number of
physical hands it stands for (the product of C(d, copies) over its faces),
and judging the multiset with the batch evaluator on face indices.  The
category totals must equal the spec's closed formulas exactly, and the
rounded percentages of its table.
"""

from __future__ import annotations

from functools import cache
from itertools import chain, combinations_with_replacement
from math import comb

import numpy as np
import pytest

from taiwan_poker.evaluate import CATEGORIES, Category, evaluate_batch

from .kernels import KERNELS, using

# 000 table, percent of all five-card hands, 1..4 decks (rounded to 6 decimals)
SPEC_PERCENT = {
    Category.FIVE_OF_A_KIND: (0.000000, 0.000792, 0.001427, 0.001837),
    Category.STRAIGHT_FLUSH: (0.001539, 0.001392, 0.001347, 0.001325),
    Category.FOUR_OF_A_KIND: (0.024010, 0.094995, 0.128405, 0.146964),
    Category.FULL_HOUSE: (0.144058, 0.265987, 0.313878, 0.339149),
    Category.FLUSH: (0.196540, 0.284725, 0.317524, 0.334432),
    Category.STRAIGHT: (0.392465, 0.354927, 0.343460, 0.337906),
    Category.THREE_OF_A_KIND: (2.112845, 3.343832, 3.762252, 3.972239),
    Category.TWO_PAIR: (4.753902, 5.844242, 6.201937, 6.379388),
    Category.ONE_PAIR: (42.256903, 44.484905, 45.069980, 45.336110),
    Category.HIGH_CARD: (50.117739, 45.324204, 43.859790, 43.150650),
}


def spec_formula(category: Category, d: int) -> int:
    """公式附錄: combinations per category, n = 4d."""
    n = 4 * d
    c = comb
    return {
        Category.FIVE_OF_A_KIND: 13 * c(n, 5),
        Category.FOUR_OF_A_KIND: 13 * c(n, 4) * 12 * n,
        Category.FULL_HOUSE: 13 * c(n, 3) * 12 * c(n, 2),
        Category.STRAIGHT_FLUSH: 40 * d**5,
        Category.FLUSH: 4 * c(13 * d, 5) - 52 * c(d, 5) - 624 * d * c(d, 4) - 624 * c(d, 3) * c(d, 2) - 40 * d**5,
        Category.STRAIGHT: 10 * (n**5 - 4 * d**5),
        Category.THREE_OF_A_KIND: 13 * c(n, 3) * c(12, 2) * n**2 - 52 * c(d, 3) * c(12, 2) * d**2,
        Category.TWO_PAIR: c(13, 2) * c(n, 2) ** 2 * 11 * n - 4 * c(13, 2) * c(d, 2) ** 2 * 11 * d,
        Category.ONE_PAIR: 13 * c(n, 2) * c(12, 3) * n**3 - 52 * c(d, 2) * c(12, 3) * d**3,
        Category.HIGH_CARD: (c(13, 5) - 10) * (n**5 - 4 * d**5),
    }[category]


@cache
def face_rows() -> np.ndarray:
    """All sorted 5-multisets of faces 0..51."""
    flat = np.fromiter(chain.from_iterable(combinations_with_replacement(range(52), 5)), dtype=np.int8)
    return flat.reshape(-1, 5)


@cache
def face_multisets(kernel: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All sorted 5-multisets of faces 0..51, and each row's category code (judged once per kernel)."""
    rows = face_rows()
    if kernel is None:
        _, codes = evaluate_batch(rows)
    else:
        with using(kernel):
            _, codes = evaluate_batch(rows)
    return rows, codes


@cache
def counts_for(d: int, kernel: str | None = None) -> dict[Category, int]:
    rows, codes = face_multisets(kernel)
    # weight of a sorted row = Π over runs of equal faces of C(d, run length)
    #                        = Π_j (d - r_j) / (r_j + 1), r_j = equal faces just before position j in its run
    rep = np.zeros(rows.shape, dtype=np.int64)
    for j in range(1, 5):
        rep[:, j] = np.where(rows[:, j] == rows[:, j - 1], rep[:, j - 1] + 1, 0)
    num = np.prod(np.maximum(d - rep, 0), axis=1)
    den = np.prod(rep + 1, axis=1)
    assert np.all(num % den == 0)
    weight = num // den
    totals = np.zeros(len(CATEGORIES), dtype=np.int64)
    np.add.at(totals, codes.astype(np.int64), weight)
    return {c: int(totals[c.code]) for c in CATEGORIES}


def test_formulas_single_deck_are_the_standard_counts() -> None:
    """單副牌標準組合數核對 (the formulas themselves, d = 1)."""
    standard = {Category.STRAIGHT_FLUSH: 40, Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3744,
                Category.FLUSH: 5108, Category.STRAIGHT: 10200, Category.THREE_OF_A_KIND: 54912,
                Category.TWO_PAIR: 123552, Category.ONE_PAIR: 1098240, Category.HIGH_CARD: 1302540,
                Category.FIVE_OF_A_KIND: 0}
    assert {c: spec_formula(c, 1) for c in CATEGORIES} == standard


@pytest.mark.parametrize("d", [1, 2, 3, 4, 6, 8])
def test_exact_five_card_counts_equal_the_spec_formulas(d: int) -> None:
    """已檢查各牌型數量加總等於 C(52d,5): the evaluator's categories reproduce every formula exactly."""
    got = counts_for(d)
    assert sum(got.values()) == comb(52 * d, 5)
    assert got == {c: spec_formula(c, d) for c in CATEGORIES}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("d", [1, 3])
def test_exact_five_card_counts_on_each_kernel(d: int, kernel: str) -> None:
    """The same exact counts explicitly on the C kernel and on the NumPy fallback (3,819,816 rows each)."""
    got = counts_for(d, kernel)
    assert got == {c: spec_formula(c, d) for c in CATEGORIES}


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_exact_five_card_percentages_match_the_spec_table(d: int) -> None:
    got = counts_for(d)
    total = comb(52 * d, 5)
    for category, column in SPEC_PERCENT.items():
        assert round(100 * got[category] / total, 6) == pytest.approx(column[d - 1], abs=1.5e-6), category


# 000 「七選五：更接近德州的成牌分布」: 1,000,000 simulated 7-card hands per deck count, percent (3 decimals)
SPEC_SEVEN_PERCENT = {
    Category.FIVE_OF_A_KIND: (0.000, 0.018, 0.028, 0.035),
    Category.STRAIGHT_FLUSH: (0.033, 0.026, 0.028, 0.028),
    Category.FOUR_OF_A_KIND: (0.167, 0.619, 0.800, 0.910),
    Category.FULL_HOUSE: (2.587, 4.277, 4.918, 5.264),
    Category.FLUSH: (3.019, 3.915, 4.235, 4.357),
    Category.STRAIGHT: (4.600, 4.051, 3.805, 3.774),
    Category.THREE_OF_A_KIND: (4.799, 6.728, 7.186, 7.437),
    Category.TWO_PAIR: (23.478, 25.594, 26.172, 26.346),
    Category.ONE_PAIR: (43.892, 40.748, 39.719, 39.214),
    Category.HIGH_CARD: (17.425, 14.024, 13.109, 12.635),
}


def random_seven(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """``n`` rows of 7 distinct physical card indices of a ``d``-deck shoe."""
    out = rng.integers(0, 52 * d, size=(n, 7), dtype=np.int16)
    while True:
        s = np.sort(out, axis=1)
        bad = np.nonzero((s[:, 1:] == s[:, :-1]).any(axis=1))[0]
        if bad.size == 0:
            return out
        out[bad] = rng.integers(0, 52 * d, size=(bad.size, 7), dtype=np.int16)


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_seven_card_category_frequencies_agree_with_the_spec_simulation(d: int) -> None:
    """Our own 400,000 random 7-card hands per deck count vs the spec's 1,000,000: every category within 5 SE."""
    n_ours, n_spec = 400_000, 1_000_000
    _, codes = evaluate_batch(random_seven(np.random.default_rng(20260919 + d), n_ours, d))
    counts = np.bincount(codes, minlength=len(CATEGORIES))
    if d == 1:
        assert counts[Category.FIVE_OF_A_KIND.code] == 0  # 單副五條依規則不可能
    for category, column in SPEC_SEVEN_PERCENT.items():
        p_spec = column[d - 1] / 100
        p_ours = counts[category.code] / n_ours
        p = max((p_spec + p_ours) / 2, 1e-6)
        se = (p * (1 - p) * (1 / n_ours + 1 / n_spec)) ** 0.5 + 0.000005  # + the table's rounding
        assert abs(p_ours - p_spec) < 5 * se, (category, d, p_ours, p_spec)
