"""Constructed hands for bot tests: chosen hole cards and board for one seat, the others' cards unknown."""

from __future__ import annotations

from taiwan_poker.cards import Card, parse_cards
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.ruleset import cards_needed
from taiwan_poker.strategy.seat import SeatView, seat_view


def dealt(seats: int, button: int, decks: int, hands: dict[int, str], board: str = "",
          stacks: list[int] | None = None) -> Hand:
    """A hand where each seat in ``hands`` holds the given hole cards (``"AsKd"``) and the board is ``board``
    (flop, turn, river in order: ``"2c7d9h"`` ...); every other card is unknown."""
    rules = RuleSet(decks=decks, seats=seats)
    cards: list[Card | None] = [None] * cards_needed(seats, rules.burns)
    order = [(button + 1 + i) % seats for i in range(seats)]  # dealing order: burns, first, second hole cards
    k = seats
    labels = [t for text in [*hands.values(), board] for t in (text[i:i + 2] for i in range(0, len(text), 2))]
    parsed = iter(parse_cards(labels, decks))
    for seat, _ in hands.items():
        pos = order.index(seat)
        cards[k + pos], cards[2 * k + pos] = next(parsed), next(parsed)
    board_slots = [3 * k + 1, 3 * k + 2, 3 * k + 3, 3 * k + 5, 3 * k + 7]  # a dealer burn before flop, turn, river
    for slot in board_slots[: len(board) // 2]:
        cards[slot] = next(parsed)
    return Hand.start(rules, stacks or [2000] * seats, button, cards=cards)


def play(hand: Hand, *actions: str) -> Hand:
    """Apply actions in contract notation (``"raise 60"``, ``"call"``), each by the seat to act."""
    for text in actions:
        kind, _, to = text.partition(" ")
        hand.act(Action(ActionKind(kind), int(to) if to else None))
    return hand


def to_act(hand: Hand) -> SeatView:
    seat = hand.to_act
    assert seat is not None
    return seat_view(hand, seat)
