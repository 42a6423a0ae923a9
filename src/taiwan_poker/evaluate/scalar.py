"""Scalar evaluator for the engine: physical cards in, a :class:`HandValue` out.

:func:`hand_value` runs in the compiled kernel when the C kernel is the one in
use (see :mod:`taiwan_poker.evaluate.batch`, which switches it here), else in
pure Python on the same tables: the same values either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from ..cards import Card
from ..errors import CardCountError
from .categories import DEFAULT_RANKING, Category, Ranking, unpack_ranks
from .tables import Tables, load_tables

_BITS = tuple(1 << (4 * r) for r in range(13))

CompiledValue = Callable[[Sequence[Card], Any], int]
"""The kernel's ``hand_value(cards, lookup)``: the value of 5–7 cards, ``-1`` for another count."""

_compiled: CompiledValue | None = None
_compiled_lookups: dict[Ranking, Any] = {}
_make_lookup: Callable[[Ranking], Any] | None = None


def use_compiled(value: CompiledValue | None, make_lookup: Callable[[Ranking], Any] | None) -> None:
    """Judge with the compiled ``value`` (and its per-ranking tables from ``make_lookup``), or in Python (None)."""
    global _compiled, _make_lookup
    _compiled_lookups.clear()
    _compiled, _make_lookup = (value, make_lookup) if value is not None and make_lookup is not None else (None, None)


@cache
def tables() -> Tables:
    """The process-wide tables (loaded once)."""
    return load_tables()


@cache
def _lookups(ranking: Ranking) -> tuple[dict[int, int], dict[int, int]]:
    """Key → value dicts (non-flush, flush) for one ranking, from the shared tables."""
    t = tables()
    used = t.keys.nonzero()[0]
    keys = t.keys[used].tolist()
    return dict(zip(keys, t.nonflush[ranking][used].tolist(), strict=True)), dict(
        zip(keys, t.flush[ranking][used].tolist(), strict=True)
    )


def hand_value(cards: Sequence[Card], ranking: Ranking = DEFAULT_RANKING) -> int:
    """Packed value of the best five of 5–7 cards (higher wins, equal ties)."""
    compiled = _compiled
    if compiled is not None:
        table = _compiled_lookups.get(ranking)
        if table is None and _make_lookup is not None:
            table = _compiled_lookups[ranking] = _make_lookup(ranking)
        value = compiled(cards, table)
        if value >= 0:
            return value
    return python_hand_value(cards, ranking)


def python_hand_value(cards: Sequence[Card], ranking: Ranking = DEFAULT_RANKING) -> int:
    """:func:`hand_value` in pure Python (the fallback of the compiled one)."""
    if not 5 <= len(cards) <= 7:
        raise CardCountError(f"a hand has 5 to 7 cards, not {len(cards)}", count=len(cards))
    nonflush, flush = _lookups(ranking)
    key = 0
    suit_keys = [0, 0, 0, 0]
    suit_counts = [0, 0, 0, 0]
    bits = _BITS
    for card in cards:
        b = bits[card.rank]
        key += b
        suit = card.suit
        suit_keys[suit] += b
        suit_counts[suit] += 1
    value = nonflush[key]
    if max(suit_counts) >= 5:
        f = flush[suit_keys[suit_counts.index(max(suit_counts))]]
        if f > value:
            value = f
    return value


class HandValue:
    """The judged hand: ``rank`` (packed value), ``category`` and the ``best`` five cards.

    Compares by ``rank``; ``best`` is worked out only when asked for.
    """

    __slots__ = ("_best", "_cards", "rank", "ranking")

    def __init__(self, rank: int, cards: Sequence[Card], ranking: Ranking = DEFAULT_RANKING) -> None:
        self.rank = rank
        self.ranking = ranking
        self._cards = tuple(cards)
        self._best: tuple[Card, ...] | None = None

    @property
    def category(self) -> Category:
        return self.ranking.category_of(self.rank)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks of the best hand in comparison order."""
        return unpack_ranks(self.rank, 5)

    @property
    def best(self) -> tuple[Card, ...]:
        """The five cards of the best hand, strongest-first in comparison order."""
        if self._best is None:
            self._best = pick_best(self._cards, self.category, self.ranks)
        return self._best

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.rank == other.rank and self.ranking == other.ranking

    def __lt__(self, other: HandValue) -> bool:
        return self.rank < other.rank

    def __le__(self, other: HandValue) -> bool:
        return self.rank <= other.rank

    def __hash__(self) -> int:
        return hash((self.rank, self.ranking))

    def __repr__(self) -> str:
        return f"HandValue({self.category.value}, {' '.join(c.face_str for c in self.best)}, rank={self.rank})"


def pick_best(cards: Sequence[Card], category: Category, ranks: Sequence[int]) -> tuple[Card, ...]:
    """Choose the physical cards that make a hand of ``category`` with these comparison ranks."""
    pool = list(cards)
    if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        counts = [0, 0, 0, 0]
        for c in pool:
            counts[c.suit] += 1
        suit = counts.index(max(counts))
        pool = [c for c in pool if c.suit == suit]
    best: list[Card] = []
    for r in ranks:
        i = next(i for i, c in enumerate(pool) if c.rank == r)
        best.append(pool.pop(i))
    return tuple(best)


def evaluate(cards: Sequence[Card], ranking: Ranking = DEFAULT_RANKING) -> HandValue:
    """Judge 5–7 physical cards: the best five, its category and its rank."""
    return HandValue(hand_value(cards, ranking), cards, ranking)


def evaluate_brute_force(cards: Sequence[Card], ranking: Ranking = DEFAULT_RANKING) -> int:
    """Reference: the best packed value over every five-card subset (used by tests and docs)."""
    return max(hand_value(five, ranking) for five in combinations(cards, 5))
