"""The ranking rule option (000 「待定稿項目」: 五條高於同花順 is the proposed default; docs/rules.md).

``Ranking.FIVE_OF_A_KIND_HIGH`` (default) puts five of a kind on top; the
alternative ``Ranking.STRAIGHT_FLUSH_HIGH`` swaps only the top two categories.
"""

from __future__ import annotations

import numpy as np
import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.evaluate import DEFAULT_RANKING, Category, Ranking, categories_of, evaluate, hand_value, rank_batch

FIVE_ACES = "As Ah Ad Ac As:2"
FIVE_TWOS = "2s 2h 2d 2c 2s:2"
ROYAL = "As Ks Qs Js Ts"
WHEEL_SF = "As 2s 3s 4s 5s"


def value(text: str, ranking: Ranking) -> int:
    return hand_value(parse_cards(text.split()), ranking)


def test_default_ranking_is_five_of_a_kind_high() -> None:
    assert DEFAULT_RANKING is Ranking.FIVE_OF_A_KIND_HIGH
    assert Ranking.FIVE_OF_A_KIND_HIGH.order[0] is Category.FIVE_OF_A_KIND
    assert value(FIVE_TWOS, DEFAULT_RANKING) > value(ROYAL, DEFAULT_RANKING)
    assert evaluate(parse_cards(FIVE_TWOS.split())).rank > evaluate(parse_cards(ROYAL.split())).rank


def test_alternative_straight_flush_high_puts_any_straight_flush_above_any_five_of_a_kind() -> None:
    alt = Ranking.STRAIGHT_FLUSH_HIGH
    assert alt.order[:2] == (Category.STRAIGHT_FLUSH, Category.FIVE_OF_A_KIND)
    assert value(WHEEL_SF, alt) > value(FIVE_ACES, alt)  # the weakest straight flush beats the strongest five
    assert value(ROYAL, alt) > value(WHEEL_SF, alt)
    assert value(FIVE_ACES, alt) > value(FIVE_TWOS, alt)
    assert value(FIVE_TWOS, alt) > value("As Ah Ad Ac Ks", alt)  # five of a kind still beats four of a kind


def test_alternative_ranking_changes_nothing_below_the_top_two() -> None:
    """Only the top two swap: every other comparison is the same under both rankings."""
    hands = ["As Ah Ad Ac Ks", "As Ah Ad Kc Ks", "As As:2 Ks Ks:2 Qs", "As Kh Qs Js Ts", "9s 9h 9d Ac 6c",
             "Ks Kd 4h 4c Ad", "Js Jd Ah 8c 4s", "Ac Jd 9s 6h 3c", "2s 2h 3d 4c 5s", "Ac Jd 9s 6h 2c"]
    for a in hands:
        for b in hands:
            ca, cb = parse_cards(a.split(), 2), parse_cards(b.split(), 2)
            default = (hand_value(ca) > hand_value(cb), hand_value(ca) == hand_value(cb))
            alt_a, alt_b = hand_value(ca, Ranking.STRAIGHT_FLUSH_HIGH), hand_value(cb, Ranking.STRAIGHT_FLUSH_HIGH)
            assert default == (alt_a > alt_b, alt_a == alt_b)


@pytest.mark.parametrize("ranking", list(Ranking))
def test_category_is_the_same_under_both_rankings_and_in_batch(ranking: Ranking, batch_kernel: str) -> None:
    for text, category in [(FIVE_ACES, Category.FIVE_OF_A_KIND), (ROYAL, Category.STRAIGHT_FLUSH),
                           (WHEEL_SF, Category.STRAIGHT_FLUSH), ("As Ah Ad Ac Ks", Category.FOUR_OF_A_KIND)]:
        cards = parse_cards(text.split())
        assert evaluate(cards, ranking).category is category
        values = rank_batch(np.array([[c.index for c in cards]]), ranking)
        assert values[0] == hand_value(cards, ranking)
        assert categories_of(values, ranking)[0] == category.code


def test_seven_cards_straight_flush_with_trips_is_straight_flush_and_compares_by_ranking() -> None:
    """Five of a kind and a straight flush cannot share 7 cards; the straight flush still compares by the ranking."""
    cards = parse_cards(["9h", "8h", "7h", "6h", "5h", "5s", "5d"])
    for ranking in Ranking:
        assert evaluate(cards, ranking).category is Category.STRAIGHT_FLUSH
    alt = Ranking.STRAIGHT_FLUSH_HIGH
    assert hand_value(cards, alt) > value("Ks Kh Kd Kc Ks:2", alt)
    assert hand_value(cards) < value("Ks Kh Kd Kc Ks:2", DEFAULT_RANKING)
