"""Shared helpers: build a hand from named cards and a list of contract actions."""

from __future__ import annotations

from collections.abc import Sequence

from taiwan_poker.cards import parse_card, resolve_cards
from taiwan_poker.rules import Hand, RuleSet, Structure, parse_action
from taiwan_poker.rules.adjudicate import deck_order, second_run


def make_hand(
    stacks: Sequence[int],
    button: int = 0,
    holes: Sequence[Sequence[str]] = (),
    board: Sequence[str] = (),
    *,
    blinds: tuple[int, int] = (10, 20),
    structure: Structure = Structure.NO_LIMIT,
    decks: int = 1,
    board2: Sequence[str] = (),
    split: int = 0,
    **options: bool,
) -> Hand:
    """A hand dealt with these hole cards and board (burns unknown); ``options`` the rule set's on/off rules
    (straddle, run_twice, show_or_muck); ``board2`` the second run's own cards, dealt after ``split`` board cards."""
    named = {c.lower() for h in holes for c in h} | {c.lower() for c in (*board, *board2)}
    spare = iter(f for f in (r + s for r in "AKQJT98765432" for s in "shdc") if f.lower() not in named)
    holes = [list(h) + [next(spare) for _ in range(2 - len(h))] for h in holes]
    holes += [[next(spare), next(spare)] for _ in range(len(stacks) - len(holes))]
    board = list(board) + [next(spare) for _ in range(5 - len(board))]
    specs = [parse_card(c) for h in holes for c in h] + [parse_card(c) for c in (*board, *board2)]
    cards = resolve_cards(specs, decks)
    out, i = [], 0
    for h in holes:
        out.append(cards[i:i + len(h)])
        i += len(h)
    rules = RuleSet(decks=decks, seats=len(stacks), small_blind=blinds[0], big_blind=blinds[1], structure=structure,
                    **options)
    deck = deck_order(button, len(stacks), out, cards[i:i + 5])
    if board2:
        deck += second_run(cards[i + 5:], split)
    return Hand.start(rules, list(stacks), button, cards=deck)


def play(hand: Hand, actions: Sequence[str]) -> Hand:
    for a in actions:
        hand.act(parse_action(a))
    return hand


def pots_of(hand: Hand) -> list[tuple[int, list[int], list[int]]]:
    return [(p.amount, list(p.eligible), list(p.winners)) for p in hand.pots]
