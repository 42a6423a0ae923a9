"""An independent pure-Python reference judge, written straight from the spec (000 「十種牌型，明確比較」).

It shares nothing with ``taiwan_poker.evaluate`` (no tables, no packed values):
it classifies exactly five cards, and the best of 5–7 cards is the maximum
over every five-card subset (000: 「從 7 張可用牌中，任選最強 5 張」).

A judged hand is a key ``(strength, vector)``: ``strength`` is the category's
place in the ranking (higher is stronger) and ``vector`` the five ranks in the
spec's comparison order (quads before the kicker, trips before the pair,
kickers high to low, the wheel as 5 4 3 2 A).  Keys compare as tuples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

# Card-like: anything with .rank (0..12 for 2..A) and .suit (0..3).

DEFAULT_ORDER = (
    "five_of_a_kind",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "high_card",
)
SF_HIGH_ORDER = ("straight_flush", "five_of_a_kind", *DEFAULT_ORDER[2:])

ACE = 12


def _straight_top(ranks: Sequence[int]) -> int | None:
    """Top rank of five distinct consecutive ranks (the wheel tops at 5, i.e. rank 3), else None."""
    s = set(ranks)
    if len(s) != 5 or len(ranks) != 5:
        return None
    if max(s) - min(s) == 4:
        return max(s)
    if s == {ACE, 0, 1, 2, 3}:  # A-2-3-4-5: the ace counts as 1
        return 3
    return None


def classify5(cards: Sequence[object]) -> tuple[str, tuple[int, ...]]:
    """Category name and comparison vector of exactly five cards."""
    assert len(cards) == 5
    ranks = [c.rank for c in cards]  # type: ignore[attr-defined]
    suits = {c.suit for c in cards}  # type: ignore[attr-defined]
    counts = Counter(ranks)
    # groups: (count, rank) strongest first: bigger group first, then higher rank
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    vector = tuple(r for n, r in groups for _ in range(n))
    is_flush = len(suits) == 1
    top = _straight_top(ranks)
    shape = [n for n, _ in groups]
    if shape == [5]:
        return "five_of_a_kind", vector
    if is_flush and top is not None:
        return "straight_flush", _straight_vector(top)
    if shape == [4, 1]:
        return "four_of_a_kind", vector
    if shape == [3, 2]:
        return "full_house", vector
    if is_flush:
        # 同花：點數可重複；由大到小逐張比較 — repeats included
        return "flush", tuple(sorted(ranks, reverse=True))
    if top is not None:
        return "straight", _straight_vector(top)
    if shape == [3, 1, 1]:
        return "three_of_a_kind", vector
    if shape == [2, 2, 1]:
        return "two_pair", vector
    if shape == [2, 1, 1, 1]:
        return "one_pair", vector
    assert shape == [1, 1, 1, 1, 1]
    return "high_card", vector


def _straight_vector(top: int) -> tuple[int, ...]:
    if top == 3:
        return (3, 2, 1, 0, ACE)
    return tuple(range(top, top - 5, -1))


def key5(cards: Sequence[object], order: Sequence[str] = DEFAULT_ORDER) -> tuple[int, tuple[int, ...]]:
    category, vector = classify5(cards)
    return len(order) - 1 - order.index(category), vector


def best_of(cards: Iterable[object], order: Sequence[str] = DEFAULT_ORDER) -> tuple[tuple[int, tuple[int, ...]], str]:
    """Brute force: the best key over every five-card subset, and its category name."""
    best_key: tuple[int, tuple[int, ...]] | None = None
    for five in combinations(list(cards), 5):
        k = key5(five, order)
        if best_key is None or k > best_key:
            best_key = k
    assert best_key is not None
    return best_key, order[len(order) - 1 - best_key[0]]
