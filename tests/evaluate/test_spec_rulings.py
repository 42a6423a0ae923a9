"""The product spec's hand rules (seed 000 「十種牌型，明確比較」 and 「重複牌，會改變哪些裁定？」) and docs/rules.md.

Every test names the rule it checks.  Hands are written in contract notation;
a deck number (``As:2``) is given where the physical identity matters.
"""

from __future__ import annotations

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.errors import TooManyCopiesError
from taiwan_poker.evaluate import Category, HandValue, evaluate, evaluate_brute_force, hand_value

from .reference import best_of


def ev(text: str, decks: int | None = None) -> HandValue:
    return evaluate(parse_cards(text.split(), decks))


def best_faces(hand: HandValue) -> list[str]:
    return [c.face_str for c in hand.best]


def rank_chars(hand: HandValue) -> str:
    return "".join("23456789TJQKA"[c.rank] for c in hand.best)


# --- the ten categories: definitions (000 table 「由大到小 / 定義」) -------------------------

CATEGORY_EXAMPLES = [
    (Category.FIVE_OF_A_KIND, "As Ah Ad Ac As:2"),  # 5 張同點數
    (Category.STRAIGHT_FLUSH, "9h 8h 7h 6h 5h"),  # 同一花色、5 個連續且不同點數
    (Category.FOUR_OF_A_KIND, "Qs Qh Qd Qc As"),  # 4 張同點數
    (Category.FULL_HOUSE, "Ts Th Td 7c 7d"),  # 3 張同點數 + 2 張另一點數
    (Category.FLUSH, "Ad Jd 9d 6d 3d"),  # 5 張同花色
    (Category.STRAIGHT, "8c 7d 6s 5h 4c"),  # 5 個連續且不同點數
    (Category.THREE_OF_A_KIND, "9s 9h 9d Ac 6c"),  # 3 張同點數
    (Category.TWO_PAIR, "Ks Kd 4h 4c Ad"),
    (Category.ONE_PAIR, "Js Jd Ah 8c 4s"),
    (Category.HIGH_CARD, "Ac Jd 9s 6h 3c"),
]


@pytest.mark.parametrize(("category", "text"), CATEGORY_EXAMPLES, ids=[c.value for c, _ in CATEGORY_EXAMPLES])
def test_ten_categories_definition_each_example_is_its_category(category: Category, text: str) -> None:
    hand = ev(text)
    assert hand.category is category
    assert sorted(best_faces(hand)) == sorted(text.replace(":2", "").split())


def test_category_order_five_of_a_kind_above_straight_flush_down_to_high_card() -> None:
    """牌型排序：五條 > 同花順 > 四條 > 葫蘆 > 同花 > 順子 > 三條 > 兩對 > 一對 > 高牌 (default ranking)."""
    values = [ev(text).rank for _, text in CATEGORY_EXAMPLES]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_category_beats_any_hand_of_a_lower_category_weakest_vs_strongest() -> None:
    """牌型先比類別：the weakest hand of each category beats the strongest hand of the next one down."""
    weakest = {
        Category.FIVE_OF_A_KIND: "2s 2h 2d 2c 2s:2",
        Category.STRAIGHT_FLUSH: "As 2s 3s 4s 5s",
        Category.FOUR_OF_A_KIND: "2s 2h 2d 2c 3s",
        Category.FULL_HOUSE: "2s 2h 2d 3c 3s",
        Category.FLUSH: "2s 3s 4s 5s 7s",
        Category.STRAIGHT: "As 2h 3s 4s 5s",
        Category.THREE_OF_A_KIND: "2s 2h 2d 3c 4s",
        Category.TWO_PAIR: "2s 2h 3d 3c 4s",
        Category.ONE_PAIR: "2s 2h 3d 4c 5s",
    }
    strongest_below = {
        Category.FIVE_OF_A_KIND: "As Ks Qs Js Ts",
        Category.STRAIGHT_FLUSH: "As Ah Ad Ac Ks",
        Category.FOUR_OF_A_KIND: "As Ah Ad Kc Ks",
        Category.FULL_HOUSE: "As As:2 Ks Ks:2 Qs",  # the strongest flush repeats ranks
        Category.FLUSH: "As Kh Qs Js Ts",
        Category.STRAIGHT: "As Ah Ad Kc Qs",
        Category.THREE_OF_A_KIND: "As Ah Kd Kc Qs",
        Category.TWO_PAIR: "As Ah Kd Qc Js",
        Category.ONE_PAIR: "As Kh Qd Jc 9s",
    }
    for category, text in weakest.items():
        low = ev(strongest_below[category])
        high = ev(text)
        assert high.category is category
        assert high.rank > low.rank, (text, strongest_below[category])


def test_royal_flush_is_the_ace_high_straight_flush_not_its_own_category() -> None:
    """皇家同花順屬於 A 高同花順，不另立類別."""
    royal = ev("As Ks Qs Js Ts")
    assert royal.category is Category.STRAIGHT_FLUSH
    assert royal.rank > ev("Ks Qs Js Ts 9s").rank
    assert royal.rank == ev("Ah Kh Qh Jh Th").rank


def test_ace_plays_low_only_in_the_wheel_A2345_is_lowest_straight() -> None:
    """A 通常最大，也能在 A-2-3-4-5 順子中當作 1."""
    wheel = ev("As 2h 3d 4c 5s")
    assert wheel.category is Category.STRAIGHT
    assert rank_chars(wheel) == "5432A"
    assert wheel.rank < ev("2s 3h 4d 5c 6s").rank
    assert ev("As 2s 3s 4s 5s").rank < ev("2h 3h 4h 5h 6h").rank


def test_no_wrap_around_QKA23_and_KA234_are_not_straights() -> None:
    assert ev("Qs Kh Ac 2d 3s").category is Category.HIGH_CARD
    assert ev("Ks Ah 2c 3d 4s").category is Category.HIGH_CARD
    assert ev("Qs Ks As 2s 3s").category is Category.FLUSH


# --- 「同類比較」 column of the table ------------------------------------------------------


def test_five_of_a_kind_compares_its_rank() -> None:
    """五條：比較該點數."""
    assert ev("As Ah Ad Ac As:2").rank > ev("Ks Kh Kd Kc Ks:2").rank
    assert ev("2s 2s:2 2s:3 2s:4 2s:5").category is Category.FIVE_OF_A_KIND  # five copies of one face, 5 decks


def test_straight_flush_compares_top_card() -> None:
    """同花順：比較最高點."""
    assert ev("9h 8h 7h 6h 5h").rank > ev("8s 7s 6s 5s 4s").rank
    assert ev("9h 8h 7h 6h 5h").rank == ev("9c 8c 7c 6c 5c").rank


def test_four_of_a_kind_compares_quads_then_fifth_card() -> None:
    """四條：先比較四條，再比第 5 張."""
    assert ev("Ks Kh Kd Kc 2s").rank > ev("Qs Qh Qd Qc As").rank
    assert ev("Qs Qh Qd Qc As").rank > ev("Qs Qh Qd Qc Ks").rank
    assert ev("Qs Qh Qd Qc As").rank == ev("Qs Qs:2 Qh Qh:2 Ad").rank


def test_full_house_compares_trips_then_pair() -> None:
    """葫蘆：先比三條，再比對子."""
    assert ev("As Ah Ad 2c 2s").rank > ev("Ks Kh Kd Ac As").rank
    assert ev("Ks Kh Kd Qc Qs").rank > ev("Ks Kh Kd Jc Js").rank


def test_flush_compares_card_by_card_high_to_low() -> None:
    """同花：由大到小逐張比較."""
    assert ev("Ad Jd 9d 6d 3d").rank > ev("Ah Jh 9h 6h 2h").rank
    assert ev("Ad Jd 9d 6d 3d").rank < ev("Ah Qh 3h 4h 2h").rank
    assert ev("Ad Jd 9d 6d 3d").rank == ev("As Js 9s 6s 3s").rank


def test_flush_may_repeat_ranks_and_compares_repeats_in_descending_order() -> None:
    """同花，點數可重複；由大到小逐張比較 (rules.md: A A K K Q flush beats A K Q J 9 flush)."""
    aakkq = ev("As As:2 Ks Ks:2 Qs")
    assert aakkq.category is Category.FLUSH
    assert rank_chars(aakkq) == "AAKKQ"
    assert aakkq.rank > ev("As Ks Qs Js 9s").rank
    assert aakkq.rank > ev("As As:2 Ks Ks:2 Js").rank
    assert aakkq.rank < ev("As As:2 As:3 Ks Qs").rank  # A A A K Q flush: third card A > K
    assert ev("As As:2 As:3 Ks Qs").category is Category.FLUSH  # trips shape in one suit is a flush


def test_straight_compares_top_card_only() -> None:
    """順子：比較最高點."""
    assert ev("Tc 9d 8s 7h 6c").rank > ev("9c 8d 7s 6h 5c").rank
    assert ev("Tc 9d 8s 7h 6c").rank == ev("Ts 9s 8h 7h 6d").rank


def test_three_of_a_kind_compares_trips_then_the_other_two() -> None:
    """三條：再比較其餘 2 張."""
    assert ev("9s 9h 9d Ac 6c").rank > ev("9s 9h 9d Ac 5c").rank
    assert ev("9s 9h 9d Ac 6c").rank > ev("9s 9h 9d Kc Qc").rank
    assert ev("Ts Th Td 2c 3c").rank > ev("9s 9h 9d Ac Kc").rank


def test_two_pair_compares_big_pair_small_pair_then_kicker() -> None:
    """兩對：先比大對子、小對子，再比單張."""
    assert ev("As Ah 2d 2c 3s").rank > ev("Ks Kh Qd Qc Js").rank
    assert ev("Ks Kd 5h 5c 2d").rank > ev("Ks Kd 4h 4c Ad").rank
    assert ev("Ks Kd 4h 4c Ad").rank > ev("Ks Kd 4h 4c Qd").rank


def test_one_pair_compares_pair_then_three_kickers_high_to_low() -> None:
    """一對：先比對子，再由大到小比其餘 3 張."""
    assert ev("Js Jd Ah 8c 4s").rank > ev("Js Jd Ah 8c 3s").rank
    assert ev("Js Jd Ah 8c 4s").rank > ev("Js Jd Kh Qc Ts").rank
    assert ev("Qs Qd 2h 3c 4s").rank > ev("Js Jd Ah Kc Qs").rank


def test_high_card_compares_all_five_high_to_low() -> None:
    """高牌：將 5 張由大到小逐張比較."""
    assert ev("Ac Jd 9s 6h 3c").rank > ev("Ac Jd 9s 6h 2c").rank
    assert ev("Ac Jd 9s 6h 3c").rank > ev("Kc Qd Js 9h 8c").rank
    assert ev("Ac Jd 9s 6h 3c").rank == ev("Ad Jc 9h 6s 3d").rank


# --- the duplicate-card table (重複牌，會改變哪些裁定？) --------------------------------------


def test_quads_need_not_be_four_suits_AsAsAhAhKc_is_four_aces() -> None:
    """黑桃 A、黑桃 A、紅心 A、紅心 A、梅花 K → 四條 A。不要求四條來自四種花色。"""
    hand = ev("As As Ah Ah Kc", decks=2)
    assert hand.category is Category.FOUR_OF_A_KIND
    assert rank_chars(hand) == "AAAAK"
    assert hand.rank == ev("As Ah Ad Ac Kc").rank


def test_flush_may_repeat_ranks_AsAsKsKsQs_is_flush_not_two_pair() -> None:
    """黑桃 A、黑桃 A、黑桃 K、黑桃 K、黑桃 Q → 同花。雖有兩對，仍取較大的同花。"""
    hand = ev("As As Ks Ks Qs", decks=2)
    assert hand.category is Category.FLUSH
    assert rank_chars(hand) == "AAKKQ"
    assert hand.rank > ev("As Ah Ks Kh Qs").rank  # the two-pair reading of the same ranks


def test_flush_and_full_house_AsAsAsKsKs_is_full_house() -> None:
    """黑桃 A×3、黑桃 K×2（3 副以上可能出現）→ 同時有同花與葫蘆，取較大的葫蘆。"""
    hand = ev("As As As Ks Ks", decks=3)
    assert hand.category is Category.FULL_HOUSE
    assert rank_chars(hand) == "AAAKK"
    assert hand.rank == ev("As Ah Ad Kc Kd").rank


def test_AsAsAsKsKs_needs_three_decks() -> None:
    """3 副以上可能出現：with two decks three A♠ cannot be named."""
    with pytest.raises(TooManyCopiesError) as info:
        parse_cards(["As", "As", "As", "Ks", "Ks"], decks=2)
    assert info.value.code == "too_many_copies"


def test_duplicate_never_fills_a_gap_AsKsQsJsJs_is_not_a_straight() -> None:
    """黑桃 A、K、Q、J、J → 不是順子：重複 J 不能代替 10。"""
    hand = ev("As Ks Qs Js Js", decks=2)
    assert hand.category is Category.FLUSH  # all spades: a flush, not a straight flush
    assert rank_chars(hand) == "AKQJJ"
    offsuit = ev("As Kh Qd Jc Js")
    assert offsuit.category is Category.ONE_PAIR
    seven = ev("As Kh Qd Jc Js Jh:2 9c", decks=2)
    assert seven.category is Category.THREE_OF_A_KIND


def test_identical_AAKKQ_flushes_tie_suits_and_deck_numbers_never_break_ties() -> None:
    """兩位玩家都組出 A、A、K、K、Q 同花 → 牌面點數完全相同則平手；花色與牌副編號不決勝。"""
    p1 = ev("As:1 As:2 Ks:1 Ks:2 Qs:1", decks=4)
    p2 = ev("Ah:3 Ah:4 Kh:3 Kh:4 Qh:4", decks=4)
    assert p1.category is p2.category is Category.FLUSH
    assert p1.rank == p2.rank
    assert p1 == p2


def test_two_physical_As_are_distinct_cards_and_both_play() -> None:
    """兩副牌允許同時拿到兩張黑桃 A；它們是獨立實體牌，正常參與組牌。"""
    cards = parse_cards(["As", "As", "Kd", "Kc", "2h"], decks=2)
    assert {c.deck for c in cards if c.face_str == "As"} == {1, 2}
    hand = evaluate(cards)
    assert hand.category is Category.TWO_PAIR
    assert sorted(c.deck for c in hand.best if c.face_str == "As") == [1, 2]


def test_same_physical_card_cannot_be_counted_twice() -> None:
    """不能把同一張實體牌在組牌時算兩次：naming As:1 twice is too_many_copies."""
    with pytest.raises(TooManyCopiesError) as info:
        parse_cards(["As:1", "As:1", "Kd", "Kc", "2h"], decks=2)
    assert info.value.code == "too_many_copies"


def test_deck_numbers_do_not_affect_strength() -> None:
    """牌副編號僅供辨識，不參與大小比較."""
    a = ev("As:1 Kd:1 Qc:1 Jh:1 9s:1 2c:1 3d:1", decks=3)
    b = ev("As:3 Kd:2 Qc:3 Jh:2 9s:2 2c:3 3d:2", decks=3)
    assert a.rank == b.rank


# --- 最高原則：只取最強的 5 張 -------------------------------------------------------------


def test_only_best_five_six_aces_is_still_five_of_a_kind() -> None:
    """即使 7 張內有 6 張或 7 張同點數，也只算五條."""
    six = ev("As Ah Ad Ac As:2 Ah:2 Kc", decks=2)
    seven = ev("As Ah Ad Ac As:2 Ah:2 Ad:2", decks=2)
    assert six.category is seven.category is Category.FIVE_OF_A_KIND
    assert rank_chars(six) == rank_chars(seven) == "AAAAA"


def test_only_best_five_sixth_and_seventh_cards_never_break_a_five_of_a_kind_tie() -> None:
    """剩餘第 6、7 張不能用來打破五條平手."""
    six_aces_king = ev("As Ah Ad Ac As:2 Ah:2 Kc", decks=2)
    five_aces_low = ev("As Ah Ad Ac Ad:2 2c 3d", decks=2)
    seven_aces = ev("As Ah Ad Ac As:2 Ah:2 Ad:2", decks=2)
    assert six_aces_king.rank == five_aces_low.rank == seven_aces.rank


def test_only_best_five_unused_cards_never_break_ties_in_seven_card_hands() -> None:
    assert ev("As Ks Qh Jh 9d 8c 7c").rank == ev("As Ks Qh Jh 9d 3c 2c").rank


def test_seven_cards_choose_strongest_five_brute_force_agrees() -> None:
    """比牌：從 7 張可用牌中，任選最強 5 張 — the evaluator equals the best over the 21 subsets."""
    for text, decks in [
        ("As As Ks Ks Qs Qh Jh", 2),
        ("9s 8s 7s 6s 5s 5s 9h", 2),
        ("Ah Ah Ah Kh Kh Qh Jh", 3),
        ("As Ah Ad Ac Ks Kh Kd", 1),
        ("2c 3c 4c 5c Ac Ac 6d", 2),
    ]:
        cards = parse_cards(text.split(), decks)
        assert hand_value(cards) == evaluate_brute_force(cards)
        key, category = best_of(cards)
        hand = evaluate(cards)
        assert hand.category.value == category, text
        assert tuple(c.rank for c in hand.best) == key[1], text


# --- combinations of structures that only several decks allow (000 「同花可能同時具有…」) -------


def test_flush_with_a_pair_or_trips_shape_is_a_flush() -> None:
    """同花可能同時具有對子、三條結構：flush outranks pair and trips."""
    assert ev("As As Kd Qs Js 9s 2s", decks=2).category is Category.FLUSH
    assert ev("As As As Ks Qs", decks=3).category is Category.FLUSH


def test_flush_with_a_quads_shape_is_four_of_a_kind() -> None:
    """四條高於同花 (公式附錄：「四條與葫蘆高於同花」)."""
    hand = ev("As As As As Ks", decks=4)
    assert hand.category is Category.FOUR_OF_A_KIND
    assert rank_chars(hand) == "AAAAK"


def test_five_identical_faces_is_five_of_a_kind_not_a_flush() -> None:
    hand = ev("As As As As As", decks=5)
    assert hand.category is Category.FIVE_OF_A_KIND


def test_quads_beside_trips_is_four_of_a_kind_with_the_highest_kicker() -> None:
    """rules.md: A A A A K K K → four of a kind, kicker K; the trips do not upgrade it."""
    hand = ev("As Ah Ad Ac Ks Kh Kd")
    assert hand.category is Category.FOUR_OF_A_KIND
    assert rank_chars(hand) == "AAAAK"
    assert hand.rank == ev("As Ah Ad Ac Ks 2h 3d").rank


def test_two_trips_make_a_full_house_of_the_higher_trips() -> None:
    hand = ev("Ks Kh Kd Qs Qh Qd 2c")
    assert hand.category is Category.FULL_HOUSE
    assert rank_chars(hand) == "KKKQQ"


def test_straight_flush_with_repeated_ranks_in_seven_cards() -> None:
    """同花順：同一花色、5 個連續且不同點數 — a repeated rank beside it does not spoil it."""
    hand = ev("9s 8s 7s 6s 5s 5s 9h", decks=2)
    assert hand.category is Category.STRAIGHT_FLUSH
    assert best_faces(hand) == ["9s", "8s", "7s", "6s", "5s"]


def test_straight_flush_needs_five_distinct_ranks_of_the_suit() -> None:
    """Five spades 9 8 7 6 6 plus a 5 of hearts: a flush (and a straight), not a straight flush."""
    hand = ev("9s 8s 7s 6s 6s 5h 2c", decks=2)
    assert hand.category is Category.FLUSH
    assert rank_chars(hand) == "98766"
