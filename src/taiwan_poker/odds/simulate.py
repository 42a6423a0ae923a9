"""The spec's seven-card Monte Carlo, exactly reproducible.

NumPy ``Generator(PCG64(20260919))``; for each deck count in order (the spec:
1, 2, 3, 4, 6) one million hands of seven distinct random physical cards
(:func:`~taiwan_poker.odds.sampling.draw_distinct`), judged by the batch
evaluator; one generator runs through all deck counts.  Each category gets an
estimate, its standard error ``sqrt(p(1-p)/N)`` and the 95 % interval
``p ± 1.96 SE``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import sqrt

import numpy as np

from ..cards import check_decks
from ..evaluate import CATEGORIES, Category, categories_of, rank_batch
from .sampling import draw_distinct

SPEC_SEED = 20260919
SPEC_DECKS: tuple[int, ...] = (1, 2, 3, 4, 6)
SPEC_HANDS = 1_000_000
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Estimate:
    """A Monte Carlo proportion: ``hits`` of ``trials``, estimate, standard error, 95 % interval."""

    hits: int
    trials: int

    @property
    def p(self) -> float:
        return self.hits / self.trials

    @property
    def se(self) -> float:
        p = self.p
        return sqrt(p * (1.0 - p) / self.trials)

    @property
    def low(self) -> float:
        return max(0.0, self.p - Z95 * self.se)

    @property
    def high(self) -> float:
        return min(1.0, self.p + Z95 * self.se)

    def to_json(self) -> dict[str, float | int]:
        return {
            "hits": self.hits,
            "trials": self.trials,
            "p": self.p,
            "se": self.se,
            "low95": self.low,
            "high95": self.high,
        }


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """One deck count's Monte Carlo: an :class:`Estimate` per category (strongest first)."""

    decks: int
    hands: int
    estimates: dict[Category, Estimate]


def simulate_seven(
    decks: Sequence[int] = SPEC_DECKS,
    hands: int = SPEC_HANDS,
    seed: int = SPEC_SEED,
    *,
    progress: Callable[[int], None] | None = None,
) -> list[SimulationResult]:
    """Run the spec's Monte Carlo: one generator, the deck counts in the given order.

    ``progress`` (optional) is called with the deck count after each one finishes.
    """
    if hands < 1:
        raise ValueError("hands must be positive")
    rng = np.random.Generator(np.random.PCG64(seed))
    results: list[SimulationResult] = []
    for d in decks:
        check_decks(d)
        cards = draw_distinct(rng, 52 * d, 7, hands)
        codes = categories_of(rank_batch(cards))
        counts = np.bincount(codes, minlength=len(CATEGORIES))
        estimates = {cat: Estimate(int(counts[cat.code]), hands) for cat in CATEGORIES}
        results.append(SimulationResult(d, hands, estimates))
        if progress is not None:
            progress(d)
    return results


# The spec's printed Monte Carlo table (percent, three decimals), decks 1..4.
SPEC_SEVEN_CARD_TABLE: dict[Category, tuple[str, str, str, str]] = {
    Category.FIVE_OF_A_KIND: ("0.000", "0.018", "0.028", "0.035"),
    Category.STRAIGHT_FLUSH: ("0.033", "0.026", "0.028", "0.028"),
    Category.FOUR_OF_A_KIND: ("0.167", "0.619", "0.800", "0.910"),
    Category.FULL_HOUSE: ("2.587", "4.277", "4.918", "5.264"),
    Category.FLUSH: ("3.019", "3.915", "4.235", "4.357"),
    Category.STRAIGHT: ("4.600", "4.051", "3.805", "3.774"),
    Category.THREE_OF_A_KIND: ("4.799", "6.728", "7.186", "7.437"),
    Category.TWO_PAIR: ("23.478", "25.594", "26.172", "26.346"),
    Category.ONE_PAIR: ("43.892", "40.748", "39.719", "39.214"),
    Category.HIGH_CARD: ("17.425", "14.024", "13.109", "12.635"),
}
