"""Exact five- and seven-card tables, the spec's printed tables, and the seeded Monte Carlo."""

from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt

import pytest

from taiwan_poker.evaluate import CATEGORIES, Category, batch
from taiwan_poker.odds.five import (
    SPEC_FIVE_CARD_TABLE,
    five_card_counts,
    five_card_counts_enumerated,
    five_card_counts_formula,
    five_card_probabilities,
    percent_text,
    spec_five_card_differences,
)
from taiwan_poker.odds.seven import (
    CLASSIC_SEVEN_CARD_ONE_DECK,
    exact_distribution,
    seven_card_counts,
    seven_card_probabilities,
)
from taiwan_poker.odds.simulate import SPEC_SEVEN_CARD_TABLE, simulate_seven

from ..evaluate.kernels import using

CLASSIC_FIVE_CARD_ONE_DECK = {
    Category.FIVE_OF_A_KIND: 0,
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


@pytest.mark.parametrize("decks", range(1, 9))
def test_five_formula_equals_enumeration(decks: int) -> None:
    formula = five_card_counts_formula(decks)
    assert formula == five_card_counts_enumerated(decks)
    assert sum(formula.values()) == comb(52 * decks, 5)
    assert all(n >= 0 for n in formula.values())


def test_five_one_deck_is_the_classic_table() -> None:
    assert five_card_counts(1) == CLASSIC_FIVE_CARD_ONE_DECK


def test_spec_five_card_table_reproduced_to_six_decimals() -> None:
    for d in range(1, 5):
        probs = five_card_probabilities(d)
        for cat, row in SPEC_FIVE_CARD_TABLE.items():
            assert percent_text(probs[cat]) == row[d - 1], (cat, d)
    assert spec_five_card_differences() == []


def test_spec_five_card_remarks() -> None:
    p3 = five_card_probabilities(3)
    assert percent_text(p3[Category.FIVE_OF_A_KIND]) == "0.001427"
    assert percent_text(p3[Category.STRAIGHT_FLUSH]) == "0.001347"
    c1, c2 = five_card_counts(1), five_card_counts(2)
    p1, p2 = five_card_probabilities(1), five_card_probabilities(2)
    assert round(float(p2[Category.FOUR_OF_A_KIND] / p1[Category.FOUR_OF_A_KIND]), 2) == 3.96
    assert round(float(p2[Category.FULL_HOUSE] / p1[Category.FULL_HOUSE]), 2) == 1.85
    # "2 副牌的五條約每 12.6 萬組隨機五張牌出現一次"
    assert round(comb(104, 5) / c2[Category.FIVE_OF_A_KIND] / 10_000, 1) == 12.6
    assert c2[Category.FIVE_OF_A_KIND] == 13 * comb(8, 5)
    assert c1[Category.FIVE_OF_A_KIND] == 0


def test_seven_one_deck_is_the_classic_table() -> None:
    counts = seven_card_counts(1)
    assert counts == CLASSIC_SEVEN_CARD_ONE_DECK
    assert sum(counts.values()) == 133_784_560


@pytest.mark.parametrize("decks", range(1, 9))
def test_seven_sums_and_five_card_special_case(decks: int) -> None:
    counts = seven_card_counts(decks)
    assert sum(counts.values()) == comb(52 * decks, 7)
    assert all(n >= 0 for n in counts.values())
    # The same pattern machinery on five cards must give the independent five-card counts.
    assert exact_distribution(decks, 5) == five_card_counts_formula(decks)


def test_six_card_one_deck_classic() -> None:
    # Classic best-five-of-six single-deck counts (20,358,520 hands).
    counts = exact_distribution(1, 6)
    assert sum(counts.values()) == 20_358_520
    assert counts[Category.STRAIGHT_FLUSH] == 1_844
    assert counts[Category.FOUR_OF_A_KIND] == 14_664
    assert counts[Category.FULL_HOUSE] == 165_984
    assert counts[Category.FLUSH] == 205_792
    assert counts[Category.STRAIGHT] == 361_620
    assert counts[Category.THREE_OF_A_KIND] == 732_160
    assert counts[Category.TWO_PAIR] == 2_532_816
    assert counts[Category.ONE_PAIR] == 9_730_740
    assert counts[Category.HIGH_CARD] == 6_612_900


def test_seven_multi_deck_spot_values() -> None:
    # Five of a kind needs five copies of a rank among the seven cards.
    two = seven_card_counts(2)
    n = 8
    expected = 13 * (comb(n, 5) * comb(96, 2) + comb(n, 6) * 96 + comb(n, 7))
    # Minus seven-card hands holding five of one rank and... nothing higher exists, so it is exact:
    assert two[Category.FIVE_OF_A_KIND] == expected


def test_seeded_monte_carlo_within_four_standard_errors() -> None:
    results = simulate_seven()
    assert [r.decks for r in results] == [1, 2, 3, 4, 6]
    cells = 0
    for r in results:
        exact = seven_card_probabilities(r.decks)
        assert sum(e.hits for e in r.estimates.values()) == 1_000_000
        for cat in CATEGORIES:
            est = r.estimates[cat]
            p = float(exact[cat])
            if p == 0:
                assert est.hits == 0
            else:
                se = sqrt(p * (1 - p) / est.trials)
                assert abs(est.p - p) <= 4 * se, (r.decks, cat, est.p, p)
            cells += 1
    assert cells == 50


def test_seeded_monte_carlo_is_reproducible() -> None:
    a = simulate_seven((1, 2), 20_000)
    b = simulate_seven((1, 2), 20_000)
    assert [x.estimates for x in a] == [x.estimates for x in b]
    c = simulate_seven((1, 2), 20_000, seed=1)
    assert [x.estimates for x in a] != [x.estimates for x in c]


def test_seeded_monte_carlo_is_the_same_on_both_kernels() -> None:
    """The batch kernel does not change a seeded simulation: C and NumPy give the very same counts."""
    runs = []
    for kernel in ("c", "numpy"):
        if kernel == "c" and not batch.c_kernel_available():
            continue
        with using(kernel):
            runs.append([x.estimates for x in simulate_seven((1, 2, 6), 30_000, seed=3)])
    assert all(run == runs[0] for run in runs)
    assert sum(e.hits for e in runs[0][0].values()) == 30_000


def test_spec_printed_monte_carlo_is_consistent_with_exact() -> None:
    # The spec's seven-card table is an estimate (1,000,000 hands per deck count): every printed cell lies
    # within 4 standard errors of the exact value (the largest deviation is 2 decks full house, -2.7 SE).
    worst = 0.0
    for cat, row in SPEC_SEVEN_CARD_TABLE.items():
        for d in range(1, 5):
            p = float(seven_card_probabilities(d)[cat])
            printed = float(row[d - 1]) / 100
            if p == 0:
                assert printed == 0
                continue
            z = (printed - p) / sqrt(p * (1 - p) / 1_000_000)
            worst = max(worst, abs(z))
    assert worst < 4


def test_spec_two_deck_five_of_a_kind_interval() -> None:
    # "2 副牌五條觀察到 180 次, 估計 0.018%，約 95% 區間 0.0154% 至 0.0206%"
    p = 180 / 1_000_000
    se = sqrt(p * (1 - p) / 1_000_000)
    assert round((p - 1.96 * se) * 100, 4) == 0.0154
    assert round((p + 1.96 * se) * 100, 4) == 0.0206


def test_percent_text_rounds_half_up() -> None:
    assert percent_text(Fraction(1, 8), 1) == "12.5"
    assert percent_text(Fraction(1, 3), 4) == "33.3333"
    assert percent_text(Fraction(2, 3), 4) == "66.6667"


@pytest.mark.parametrize("size", [5, 6, 7])
def test_vectorised_codes_agree_with_the_evaluator_tables(size: int) -> None:
    from taiwan_poker.evaluate.tables import judge_flush, judge_ranks
    from taiwan_poker.odds.seven import _multisets, flush_codes, rank_only_codes

    counts = _multisets(size)
    rows = counts.tolist()
    assert rank_only_codes(counts).tolist() == [judge_ranks(r)[0].code for r in rows]
    assert flush_codes(counts).tolist() == [judge_flush(r)[0].code for r in rows]
