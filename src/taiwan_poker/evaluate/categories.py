"""Hand categories, the two rankings the spec allows, and the packed hand value.

A hand value is one integer: ``strength << 20 | tiebreak`` where ``strength``
(0..9) is the category's place in the ranking and ``tiebreak`` packs up to
five ranks (0..12) four bits each, most significant first.  Higher wins, equal
ties, so values compare across all hands of one ranking.
"""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    """The ten categories, named as in the JSON contract."""

    FIVE_OF_A_KIND = "five_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def code(self) -> int:
        """A fixed small integer (0 = five of a kind .. 9 = high card), independent of the ranking."""
        return _CODES[self]

    @property
    def zh(self) -> str:
        """The Traditional Chinese name used in the spec."""
        return CATEGORY_ZH[self]

    @property
    def en(self) -> str:
        """The English name."""
        return CATEGORY_EN[self]


CATEGORIES: tuple[Category, ...] = tuple(Category)
_CODES = {c: i for i, c in enumerate(CATEGORIES)}

CATEGORY_ZH = {
    Category.FIVE_OF_A_KIND: "五條",
    Category.STRAIGHT_FLUSH: "同花順",
    Category.FOUR_OF_A_KIND: "四條",
    Category.FULL_HOUSE: "葫蘆",
    Category.FLUSH: "同花",
    Category.STRAIGHT: "順子",
    Category.THREE_OF_A_KIND: "三條",
    Category.TWO_PAIR: "兩對",
    Category.ONE_PAIR: "一對",
    Category.HIGH_CARD: "高牌",
}
CATEGORY_EN = {
    Category.FIVE_OF_A_KIND: "Five of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.FULL_HOUSE: "Full house",
    Category.FLUSH: "Flush",
    Category.STRAIGHT: "Straight",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.TWO_PAIR: "Two pair",
    Category.ONE_PAIR: "One pair",
    Category.HIGH_CARD: "High card",
}


class Ranking(StrEnum):
    """Which category is on top: the spec's default or its listed alternative."""

    FIVE_OF_A_KIND_HIGH = "five-of-a-kind-high"
    STRAIGHT_FLUSH_HIGH = "straight-flush-high"

    @property
    def order(self) -> tuple[Category, ...]:
        """Categories strongest first under this ranking."""
        if self is Ranking.FIVE_OF_A_KIND_HIGH:
            return CATEGORIES
        return (Category.STRAIGHT_FLUSH, Category.FIVE_OF_A_KIND, *CATEGORIES[2:])

    def strength(self, category: Category) -> int:
        """0 for the weakest category .. 9 for the strongest."""
        return len(CATEGORIES) - 1 - self.order.index(category)

    def category_of(self, value: int) -> Category:
        """The category of a packed hand value."""
        return self.order[len(CATEGORIES) - 1 - (value >> TIEBREAK_BITS)]


DEFAULT_RANKING = Ranking.FIVE_OF_A_KIND_HIGH
TIEBREAK_BITS = 20


def pack(ranking: Ranking, category: Category, ranks: tuple[int, ...]) -> int:
    """Pack a category and its comparison ranks (at most five) into a hand value."""
    tiebreak = 0
    for i, r in enumerate(ranks):
        tiebreak |= r << (4 * (4 - i))
    return ranking.strength(category) << TIEBREAK_BITS | tiebreak


def unpack_ranks(value: int, count: int) -> tuple[int, ...]:
    """The first ``count`` comparison ranks packed in a hand value."""
    return tuple((value >> (4 * (4 - i))) & 15 for i in range(count))
