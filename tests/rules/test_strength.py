"""Your own hand in words in your seat's view (issue 23), from your cards and the board only, coach or not."""

from __future__ import annotations

import json

import pytest

from taiwan_poker.cards import Card, parse_card
from taiwan_poker.evaluate import DEFAULT_RANKING
from taiwan_poker.rules import view
from taiwan_poker.rules.strength import strength
from tests.rules.helpers import make_hand, play


def cards(*names: str) -> list[Card]:
    return [Card(parse_card(n).rank, parse_card(n).suit, 1) for n in names]


def test_the_seat_view_names_your_hand_from_your_cards_and_the_board() -> None:
    hand = make_hand([2000, 2000], 0, [["Kd", "8c"], ["2h", "3h"]], ["Kh", "8s", "4d", "Jc", "5s"])
    assert view(hand, 0)["you"]["strength"]["en"] == "king high"
    play(hand, ["call", "check"])
    words = view(hand, 0)["you"]["strength"]
    assert words == {"category": "two_pair", "ranks": ["K", "8"], "en": "two pair, kings and eights",
                     "zh": "兩對，K 和 8"}
    assert view(hand, 1)["you"]["strength"]["category"] == "high_card"
    assert "strength" not in json.dumps(view(hand, None)), "a spectator is told nobody's hand"


@pytest.mark.parametrize(("hole", "board", "en"), [
    (("As", "Ad"), (), "a pair of aces"),
    (("7s", "Kd"), (), "king high"),
    (("As", "Ad"), ("Ah", "Ac", "2d"), "four of a kind, aces"),
    (("Qs", "Qd"), ("Qh", "4c", "4d"), "full house, queens full of fours"),
    (("9s", "8s"), ("7s", "6s", "5s"), "straight flush, nine high"),
    (("As", "2d"), ("3s", "4h", "5c"), "straight, five high"),
    (("As", "Ks"), ("2s", "7s", "9s"), "flush, ace high"),
    (("7s", "7d"), ("7h", "Kc", "2d"), "three of a kind, sevens"),
    (("Js", "Td"), ("Jh", "3c", "2d"), "a pair of jacks"),
])
def test_each_category_in_words(hole: tuple[str, ...], board: tuple[str, ...], en: str) -> None:
    assert strength(cards(*hole), cards(*board), DEFAULT_RANKING)["en"] == en  # type: ignore[index]


def test_five_of_a_kind_from_several_decks() -> None:
    hole = [Card(12, 0, 1), Card(12, 0, 2)]
    board = [Card(12, 1, 1), Card(12, 2, 1), Card(12, 3, 1)]
    words = strength(hole, board, DEFAULT_RANKING)
    assert words is not None and words["en"] == "five of a kind, aces" and words["zh"] == "五條 A"


def test_the_words_come_from_your_hole_cards_and_the_board_never_your_burn() -> None:
    hand = make_hand([2000, 2000], 0, [["Kd", "8c"], ["2h", "3h"]], ["Kh", "8s", "4d", "Jc", "5s"])
    own = view(hand, 0)["you"]
    assert own["burns"] and own["strength"] == strength(hand.hole_cards(0), hand.board, DEFAULT_RANKING)


def test_a_remembered_hand_is_named_afresh_for_each_view() -> None:
    """The words are remembered by cards and board (every push of a street names the same hand): a view that
    changes what it was given must not change the next view's words."""
    hole, board = cards("Kd", "8c"), cards("Kh", "8s", "4d")
    first = strength(hole, board, DEFAULT_RANKING)
    assert first is not None
    first["ranks"].append("2")
    first["en"] = "changed"
    again = strength(hole, board, DEFAULT_RANKING)
    assert again == {"category": "two_pair", "ranks": ["K", "8"], "en": "two pair, kings and eights",
                     "zh": "兩對，K 和 8"}
    assert strength(hole, [*board, *cards("Ks")], DEFAULT_RANKING)["category"] == "full_house"  # type: ignore[index]
