"""Every hand-comparison example of seed 002 (standard single-deck Hold'em rules page).

Section names are the seed's: 「最佳五張牌判定引擎」, 「十種標準牌型」 (人工核對牌例),
「九種牌型的正式比較向量」, 「人工核對例子：兩名玩家同樣取得一對 Q」, 「A 的高低位置」,
「判例一／二／三」, 「十六題規則測試」 01–10 and the FAQ 03–18.  Cards are
written ``10`` as ``T``.
"""

from __future__ import annotations

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.evaluate import Category, HandValue, evaluate


def ev(text: str) -> HandValue:
    return evaluate(parse_cards(text.split()))


def play(hole: str, board: str) -> HandValue:
    return ev(f"{hole} {board}")


def best(hand: HandValue) -> list[str]:
    return [c.face_str for c in hand.best]


def ranks(hand: HandValue) -> str:
    return "".join("23456789TJQKA"[c.rank] for c in hand.best)


# --- 最佳五張牌判定引擎 / 問 09 / 判例二: playing the board ---------------------------------


def test_best_five_engine_board_broadway_hole_2c3d_unused() -> None:
    """2♣ 3♦ + A♠ K♥ Q♣ J♦ 10♠: best five is the board's A-high straight, both hole cards unused."""
    hand = play("2c 3d", "As Kh Qc Jd Ts")
    assert hand.category is Category.STRAIGHT
    assert best(hand) == ["As", "Kh", "Qc", "Jd", "Ts"]


def test_ruling2_and_quiz09_playing_the_board_pair_of_twos_and_98_split() -> None:
    """判例二 / 題 09: board A♠ K♥ Q♣ J♦ 10♠; 2♣2♦ and 9♣8♣ both play the board → split."""
    board = "As Kh Qc Jd Ts"
    a = play("2c 2d", board)
    b = play("9c 8c", board)
    assert best(a) == best(b) == ["As", "Kh", "Qc", "Jd", "Ts"]
    assert a.category is Category.STRAIGHT
    assert a.rank == b.rank


def test_quiz10_hole_card_improves_board_straight_to_ten_high() -> None:
    """題 10: board 5♣ 6♦ 7♠ 8♥ 9♣, player 10♠ 2♦ → 6-7-8-9-10 beats the board's 9-high straight."""
    board = "5c 6d 7s 8h 9c"
    a = play("Ts 2d", board)
    assert a.category is Category.STRAIGHT
    assert best(a) == ["Ts", "9c", "8h", "7s", "6d"]
    assert a.rank > play("2h 3h", board).rank
    assert a.rank > ev(board).rank


def test_faq04_one_hole_card_Ac2d_on_AdKsKhQcJd_is_AAKKQ_two_pair() -> None:
    """問 04: A♣ 2♦ with board A♦ K♠ K♥ Q♣ J♦ → A-A-K-K-Q two pair, only A♣ used."""
    hand = play("Ac 2d", "Ad Ks Kh Qc Jd")
    assert hand.category is Category.TWO_PAIR
    assert ranks(hand) == "AAKKQ"
    assert "2d" not in best(hand)
    assert "Ac" in best(hand)


# --- 十種標準牌型: 人工核對牌例 -----------------------------------------------------------

SEED002_EXAMPLES = [
    ("As Ks Qs Js Ts", Category.STRAIGHT_FLUSH, "AKQJT"),  # 皇家同花順 = A-high straight flush
    ("9h 8h 7h 6h 5h", Category.STRAIGHT_FLUSH, "98765"),
    ("Qs Qh Qd Qc As", Category.FOUR_OF_A_KIND, "QQQQA"),  # A 為 Kicker
    ("Ts Th Td 7c 7d", Category.FULL_HOUSE, "TTT77"),  # Tens Full of Sevens
    ("Ad Jd 9d 6d 3d", Category.FLUSH, "AJ963"),
    ("8c 7d 6s 5h 4c", Category.STRAIGHT, "87654"),
    ("9s 9h 9d Ac 6c", Category.THREE_OF_A_KIND, "999A6"),
    ("Ks Kd 4h 4c Ad", Category.TWO_PAIR, "KK44A"),
    ("Js Jd Ah 8c 4s", Category.ONE_PAIR, "JJA84"),
    ("Ac Jd 9s 6h 3c", Category.HIGH_CARD, "AJ963"),
]


@pytest.mark.parametrize(("text", "category", "order"), SEED002_EXAMPLES, ids=[t for t, _, _ in SEED002_EXAMPLES])
def test_ten_hand_examples_category_and_comparison_order(text: str, category: Category, order: str) -> None:
    """人工核對牌例: each example's category and its best five in comparison-vector order."""
    hand = ev(text)
    assert hand.category is category
    assert ranks(hand) == order


def test_ten_hand_examples_rank_in_the_listed_order() -> None:
    """由最大至最小的牌型次序 (標準單副牌: no five of a kind)."""
    values = [ev(text).rank for text, _, _ in SEED002_EXAMPLES]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_royal_flush_on_several_players_is_a_tie() -> None:
    """皇家同花順: 花色不分高低，因此多名玩家可形成相同皇家同花順時為平手."""
    assert ev("As Ks Qs Js Ts").rank == ev("Ah Kh Qh Jh Th").rank


def test_any_full_house_beats_any_flush() -> None:
    """比較順序：任何有效葫蘆都勝過任何有效同花."""
    assert ev("2s 2h 2d 3c 3s").rank > ev("As Ks Qs Js 9s").rank


# --- 九種牌型的正式比較向量 ----------------------------------------------------------------


def test_vector_straight_flush_nine_high_beats_eight_high_wheel_is_five_high() -> None:
    assert ev("9h 8h 7h 6h 5h").rank > ev("8c 7c 6c 5c 4c").rank
    wheel_sf = ev("As 2s 3s 4s 5s")
    assert wheel_sf.category is Category.STRAIGHT_FLUSH
    assert ranks(wheel_sf) == "5432A"
    assert wheel_sf.rank < ev("6d 5d 4d 3d 2d").rank


def test_vector_four_of_a_kind_higher_quads_win_immediately() -> None:
    """四條點數較高便立即勝出."""
    assert ev("Ks Kh Kd Kc 2c").rank > ev("Qs Qh Qd Qc Ac").rank


def test_vector_full_house_AAA22_beats_KKKAA() -> None:
    assert ev("As Ah Ad 2c 2d").rank > ev("Ks Kh Kd Ac Ad").rank


def test_vector_flush_first_different_card_decides() -> None:
    """最高牌 → 第二高 → … → 第五高；第一張不同的牌決定勝負."""
    assert ev("Ad Jd 9d 6d 3d").rank > ev("Ac Jc 9c 6c 2c").rank
    assert ev("Ad Jd 9d 6d 3d").rank < ev("Ac Qc 4c 3c 2c").rank


def test_vector_straight_broadway_is_ace_high_and_no_kicker() -> None:
    """10-J-Q-K-A 是 A 高；A-2-3-4-5 則只算 5 高；順子沒有額外 Kicker."""
    broadway = ev("Tc Jd Qs Kh Ac")
    assert broadway.category is Category.STRAIGHT
    assert ranks(broadway) == "AKQJT"
    assert broadway.rank > ev("9c Td Js Qh Kc").rank
    board = "5c 6d 7s 8h 9c"
    assert play("Ah Kd", board).rank == play("2h 3d", board).rank


def test_vector_three_of_a_kind_only_two_kickers_of_the_best_five() -> None:
    """只使用最佳五張內的兩張 Kicker."""
    assert ev("9s 9h 9d Ac 6c").rank > ev("9s 9h 9d Ac 5c").rank
    assert ev("9s 9h 9d Ac 6c 5d 4h").rank == ev("9s 9h 9d Ac 6c 3d 2h").rank


def test_vector_two_pair_AA22_beats_KKQQ() -> None:
    """A-A-2-2 勝過 K-K-Q-Q，不比較小對前先看大對 (問 13: 兩個對子的牌點不能相加計算)."""
    assert ev("As Ah 2d 2c 3s").rank > ev("Ks Kh Qd Qc Js").rank


def test_vector_one_pair_first_different_kicker_decides() -> None:
    assert ev("Js Jd Ah 8c 4s").rank > ev("Js Jh Ac 7d 6s").rank


def test_vector_high_card_five_equal_ranks_tie() -> None:
    """五張牌值完全相同才屬平手."""
    assert ev("Ac Jd 9s 6h 3c").rank == ev("Ah Jc 9d 6s 3h").rank
    assert ev("Ac Jd 9s 6h 3c").rank > ev("Ah Jc 9d 6s 2h").rank


def test_pair_of_queens_example_second_kicker_9_beats_8() -> None:
    """人工核對例子：Q♠ Q♦ A♣ 9♥ 6♣ (Q→A→9→6) beats Q♥ Q♣ A♦ 8♠ 7♦ (Q→A→8→7)."""
    a = ev("Qs Qd Ac 9h 6c")
    b = ev("Qh Qc Ad 8s 7d")
    assert a.category is b.category is Category.ONE_PAIR
    assert ranks(a) == "QQA96"
    assert ranks(b) == "QQA87"
    assert a.rank > b.rank


# --- A 的高低位置 / 題 07 / 題 08 / 問 10 / 問 11 --------------------------------------------


def test_wheel_A2345_is_a_five_high_straight_and_loses_to_23456() -> None:
    wheel = ev("As 2h 3c 4d 5s")
    assert wheel.category is Category.STRAIGHT
    assert best(wheel) == ["5s", "4d", "3c", "2h", "As"]
    assert wheel.rank < ev("2s 3h 4c 5d 6s").rank
    assert wheel.rank > ev("As Kh Qc Jd 9s").rank  # still a straight: beats any non-straight below


def test_QKA23_is_not_a_straight_only_ace_high() -> None:
    """題 08: A♣ K♥ Q♠ 3♣ 2♦ 正式牌型只是 A 高牌."""
    hand = ev("Qs Kh Ac 2d 3s")
    assert hand.category is Category.HIGH_CARD
    assert ranks(hand) == "AKQ32"
    assert ev("Ac Kh Qs 3c 2d").category is Category.HIGH_CARD


def test_KA234_is_not_a_straight() -> None:
    """K-A-2-3-4 亦不屬於有效順子."""
    assert ev("Ks Ah 2c 3d 4s").category is Category.HIGH_CARD


def test_faq09_straights_compare_top_card_678910_beats_56789() -> None:
    assert ev("6s 7h 8c 9d Ts").rank > ev("5s 6h 7c 8d 9s").rank


# --- 判例一 / 題 01: kicker -----------------------------------------------------------------


def test_ruling1_and_quiz01_pair_of_aces_king_kicker_beats_queen_kicker() -> None:
    """Board A♣ 9♦ 7♠ 4♥ 2♣: A♥K♠ (A♥ A♣ K♠ 9♦ 7♠) beats A♦Q♠ (A♦ A♣ Q♠ 9♦ 7♠)."""
    board = "Ac 9d 7s 4h 2c"
    a = play("Ah Ks", board)
    b = play("Ad Qs", board)
    assert best(a) == ["Ah", "Ac", "Ks", "9d", "7s"]
    assert best(b) == ["Ad", "Ac", "Qs", "9d", "7s"]
    assert a.rank > b.rank


# --- 判例三 / 問 16: suits never break ties ------------------------------------------------


def test_ruling3_spade_ace_does_not_beat_heart_ace_split() -> None:
    """Board K♣ K♦ 10♠ 8♥ 4♣: A♠3♦ and A♥2♠ both K-K-A-10-8 → tie."""
    board = "Kc Kd Ts 8h 4c"
    a = play("As 3d", board)
    b = play("Ah 2s", board)
    assert best(a) == ["Kc", "Kd", "As", "Ts", "8h"]
    assert best(b) == ["Kc", "Kd", "Ah", "Ts", "8h"]
    assert a.rank == b.rank


# --- 題 02–06 -------------------------------------------------------------------------------


def test_quiz02_two_pair_on_board_fifth_card_kicker_decides() -> None:
    """Board A♣ A♦ K♠ K♥ 4♣: Q♠J♠ (A A K K Q) beats 10♣9♣ (A A K K 10)."""
    board = "Ac Ad Ks Kh 4c"
    a = play("Qs Js", board)
    b = play("Tc 9c", board)
    assert best(a) == ["Ac", "Ad", "Ks", "Kh", "Qs"]
    assert ranks(b) == "AAKKT"
    assert a.rank > b.rank


def test_quiz03_royal_flush_board_everyone_ties() -> None:
    board = "As Ks Qs Js Ts"
    hands = [play(h, board) for h in ("2c 2d", "Ah Ad", "9s 8s", "Kh Qh")]
    assert {h.rank for h in hands} == {ev(board).rank}
    assert all(best(h) == ["As", "Ks", "Qs", "Js", "Ts"] for h in hands)


def test_quiz04_two_heart_flushes_compare_ranks_not_suits() -> None:
    """Board with four hearts: K♥ beats Q♥ (A♥ K♥ 9♥ 7♥ 4♥)."""
    board = "Ah 9h 7h 4h 2c"
    a = play("Kh 3s", board)
    b = play("Qh 3d", board)
    assert a.category is b.category is Category.FLUSH
    assert best(a) == ["Ah", "Kh", "9h", "7h", "4h"]
    assert a.rank > b.rank


def test_quiz05_full_house_KKK22_beats_222KK() -> None:
    a = ev("Ks Kh Kc 2d 2c")
    b = ev("2s 2h 2c Kd Kc")
    assert a.rank > b.rank
    assert ranks(a) == "KKK22"
    assert ranks(b) == "222KK"


def test_quiz06_quads_on_board_kicker_ace_beats_king() -> None:
    """Board 9♣ 9♦ 9♥ 9♠ 2♣: A♣K♣ (9 9 9 9 A) beats K♦Q♦ (9 9 9 9 K)."""
    board = "9c 9d 9h 9s 2c"
    a = play("Ac Kc", board)
    b = play("Kd Qd", board)
    assert a.category is Category.FOUR_OF_A_KIND
    assert best(a) == ["9c", "9d", "9h", "9s", "Ac"]
    assert ranks(b) == "9999K"
    assert a.rank > b.rank


def test_quads_on_board_equal_best_kicker_ties() -> None:
    """問 15: the fifth card is the kicker; the same best kicker (here the board's) splits."""
    board = "9c 9d 9h 9s Ac"
    assert play("Kd Qd", board).rank == play("3h 2h", board).rank


def test_full_house_same_trips_compares_the_pair() -> None:
    """三條相同時，才比較組成葫蘆的一對: board K♠ K♥ K♦ 5♣ 2♣, Q♠Q♥ beats J♠J♥."""
    board = "Ks Kh Kd 5c 2c"
    assert play("Qs Qh", board).rank > play("Js Jh", board).rank


# --- 四個常見判定錯誤 / 問 17–18 ---------------------------------------------------------------


def test_kicker_never_lets_one_pair_beat_two_pair() -> None:
    """Kicker 只在牌型及主要組合相同後才使用，不能令一對勝過兩對."""
    assert ev("2s 2h 3d 3c 4s").rank > ev("As Ah Kd Qc Js").rank


def test_sixth_and_seventh_cards_are_never_kickers() -> None:
    """第六及第七張牌不參與比較: same best five, different unused cards → tie."""
    board = "Ac 9d 7s 4h 2c"
    assert play("Ah Ks", board).rank == play("Ad Kc", board).rank
    assert ev("Qs Qd Ac 9h 6c 5s 3d").rank == ev("Qs Qd Ac 9h 6c 4s 2d").rank


def test_hole_cards_only_count_when_they_improve_the_five() -> None:
    """Board 邊界：底牌只要能改善五張牌便仍會使用."""
    board = "Ac 9d 7s 4h 2c"
    assert play("Ks 3d", board).rank > play("Qs 3d", board).rank
    assert best(play("Ks 3d", board)) == ["Ac", "Ks", "9d", "7s", "4h"]
