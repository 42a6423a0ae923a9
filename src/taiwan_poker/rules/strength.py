"""The words for a player's own hand: "two pair, kings and eights" (in both languages), from their cards and the board.

Computed from the seat's own hole cards and the public board only (never a burn or another seat's cards), so
it may stand in that seat's view whether or not the coach is on.  Before the flop two cards are a pair or
high cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..cards import RANK_NAMES_EN, Card
from ..evaluate import Category, Ranking, hand_value
from ..evaluate.categories import unpack_ranks

_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
           "kings", "aces")
_SINGULAR = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
# which of the five comparison ranks (the best five in comparison order) name the hand; the rest are kickers
_NAMED = {Category.FULL_HOUSE: (0, 3), Category.TWO_PAIR: (0, 2)}
NAMED_REMEMBERED = 16_384  # hands named lately: every view of a seat on one street names the same hand


def _words(category: Category, ranks: Sequence[int]) -> tuple[str, str]:
    """(English, Traditional Chinese) words for a category and its naming ranks."""
    a = ranks[0]
    zh_a = RANK_NAMES_EN[a]
    en = {
        Category.FIVE_OF_A_KIND: lambda: f"five of a kind, {_PLURAL[a]}",
        Category.STRAIGHT_FLUSH: lambda: f"straight flush, {_SINGULAR[a]} high",
        Category.FOUR_OF_A_KIND: lambda: f"four of a kind, {_PLURAL[a]}",
        Category.FULL_HOUSE: lambda: f"full house, {_PLURAL[a]} full of {_PLURAL[ranks[1]]}",
        Category.FLUSH: lambda: f"flush, {_SINGULAR[a]} high",
        Category.STRAIGHT: lambda: f"straight, {_SINGULAR[a]} high",
        Category.THREE_OF_A_KIND: lambda: f"three of a kind, {_PLURAL[a]}",
        Category.TWO_PAIR: lambda: f"two pair, {_PLURAL[a]} and {_PLURAL[ranks[1]]}",
        Category.ONE_PAIR: lambda: f"a pair of {_PLURAL[a]}",
        Category.HIGH_CARD: lambda: f"{_SINGULAR[a]} high",
    }[category]()
    zh = {
        Category.FIVE_OF_A_KIND: lambda: f"五條 {zh_a}",
        Category.STRAIGHT_FLUSH: lambda: f"同花順，{zh_a} 最大",
        Category.FOUR_OF_A_KIND: lambda: f"四條 {zh_a}",
        Category.FULL_HOUSE: lambda: f"葫蘆，{zh_a} 帶 {RANK_NAMES_EN[ranks[1]]}",
        Category.FLUSH: lambda: f"同花，{zh_a} 最大",
        Category.STRAIGHT: lambda: f"順子，{zh_a} 最大",
        Category.THREE_OF_A_KIND: lambda: f"三條 {zh_a}",
        Category.TWO_PAIR: lambda: f"兩對，{zh_a} 和 {RANK_NAMES_EN[ranks[1]]}",
        Category.ONE_PAIR: lambda: f"一對 {zh_a}",
        Category.HIGH_CARD: lambda: f"高牌 {zh_a}",
    }[category]()
    return en, zh


def strength(hole: Sequence[Card | None], board: Sequence[Card], ranking: Ranking) -> dict[str, Any] | None:
    """``{"category", "ranks", "en", "zh"}`` for these hole cards on this board (None without two hole cards).

    ``ranks`` are the ranks that name the hand (e.g. ``["K", "8"]`` for two pair, kings and eights)."""
    cards = tuple(c for c in hole if c is not None)
    if len(cards) != 2:
        return None
    category, ranks, en, zh = _named(cards, tuple(board), ranking)
    return {"category": category, "ranks": list(ranks), "en": en, "zh": zh}


@lru_cache(maxsize=NAMED_REMEMBERED)
def _named(cards: tuple[Card, ...], board: tuple[Card, ...], ranking: Ranking) -> tuple[str, tuple[str, ...], str, str]:
    """The category, naming ranks and words of two hole cards on a board (remembered: a seat's view names the same
    hand at every version of a street, so each push would evaluate it again)."""
    if board:
        value = hand_value((*cards, *board), ranking)
        category = ranking.category_of(value)
        five = unpack_ranks(value, 5)
        ranks = tuple(five[i] for i in _NAMED.get(category, (0,)))
    elif cards[0].rank == cards[1].rank:
        category, ranks = Category.ONE_PAIR, (cards[0].rank,)
    else:
        category, ranks = Category.HIGH_CARD, (max(cards[0].rank, cards[1].rank),)
    en, zh = _words(category, ranks)
    return category.value, tuple(RANK_NAMES_EN[r] for r in ranks), en, zh
