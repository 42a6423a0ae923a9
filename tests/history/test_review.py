"""The hand review: marks, the exact chip cost of a call facing an all-in, and the all-in EV."""

from __future__ import annotations

import pytest

from taiwan_poker.cards import Card, parse_cards
from taiwan_poker.history.review import mark, review
from taiwan_poker.odds.equity import equity
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.ruleset import cards_needed


def heads_up(button_hole: str, other_hole: str, board: str, burns: tuple[str, str] = ("2c", "3c")) -> Hand:
    """Seat 0 is the button; cards dealt clockwise from seat 1: burns, first and second hole cards, then the board."""
    rules = RuleSet(decks=2, seats=2, starting_stack=2000)
    b0, b1 = parse_cards([burns[0]], 2)[0], parse_cards([burns[1]], 2)[0]
    h0, h1 = parse_cards([button_hole[:2], button_hole[2:]], 2), parse_cards([other_hole[:2], other_hole[2:]], 2)
    rest = parse_cards([board[i:i + 2] for i in range(0, len(board), 2)], 2)
    deck: list[Card | None] = [b1, b0, h1[0], h0[0], h1[1], h0[1]]
    burns_and_board = [None, *rest[:3], None, rest[3], None, rest[4]]
    deck += burns_and_board
    assert len(deck) == cards_needed(2, rules.burns)
    return Hand.start(rules, [2000, 2000], 0, cards=deck)


def test_calling_an_all_in_behind_is_a_mistake_with_its_exact_chip_cost() -> None:
    hand = heads_up("AsAh", "KsKd", "2h7d9cJs4d")
    hand.act(Action(ActionKind.ALLIN))  # the button shoves
    hand.act(Action(ActionKind.CALL))  # kings call
    assert hand.complete
    decisions, ev = review(hand, 1)
    assert [d.action for d in decisions] == ["call"]
    call = decisions[0]
    exact = equity("KsKd", ["AsAh"], decks=2, burn="3c", method="exact").players[0].equity
    assert call.exact_equity == pytest.approx(exact)
    assert call.mark == "mistake" and call.cost == round(-(exact * 4000 - 1980))
    assert ev is not None and ev.street == "preflop"
    assert ev.equity == pytest.approx(exact) and ev.expected == round(exact * 4000) and ev.won == 0


def test_folding_aces_to_a_shove_is_a_mistake_by_the_read_range_but_has_no_exact_cost() -> None:
    hand = heads_up("7s2d", "AsAh", "KhQd9c4s3h")
    hand.act(Action(ActionKind.ALLIN))
    hand.act(Action(ActionKind.FOLD))
    decisions, ev = review(hand, 1)
    fold = decisions[0]
    assert fold.action == "fold" and fold.mark == "mistake" and fold.equity > fold.price + 0.1
    assert fold.cost is None, "the shover's cards were never shown: no exact cost"
    assert ev is None


def test_marks_follow_the_stated_margins() -> None:
    assert mark(ActionKind.FOLD, 0.5, 0.2, 20, 1) == "mistake"
    assert mark(ActionKind.FOLD, 0.25, 0.2, 20, 1) == "questionable"
    assert mark(ActionKind.FOLD, 0.1, 0.2, 20, 1) == "good"
    assert mark(ActionKind.CALL, 0.05, 0.2, 20, 1) == "mistake"
    assert mark(ActionKind.CALL, 0.19, 0.2, 20, 1) == "good"
    assert mark(ActionKind.RAISE, 0.02, 0.3, 20, 1) == "questionable"
    assert mark(ActionKind.CHECK, 0.95, 0.0, 0, 1) == "questionable"
    assert mark(ActionKind.BET, 0.1, 0.0, 0, 1) == "questionable"
    assert mark(ActionKind.BET, 0.7, 0.0, 0, 1) == "good"
