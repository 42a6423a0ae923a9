"""The teaching core: lab hands, the three practice scenarios, the drills and the next-card counts."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.evaluate import Category, evaluate
from taiwan_poker.trainer.drills import generate_drill, parse_fraction
from taiwan_poker.trainer.lab import LabHand, Street
from taiwan_poker.trainer.next_card import Target, TargetKind, break_even_equity, draw_odds
from taiwan_poker.trainer.scenarios import grade, scenarios

HEARTS = Target(TargetKind.SUIT, 1)


@pytest.mark.parametrize(("burn", "expected"), [(None, Fraction(22, 98)), ("7h", Fraction(21, 97)),
                                                ("7c", Fraction(22, 97))])
def test_spec_heart_draw_table(burn: str | None, expected: Fraction) -> None:
    known = parse_cards(["Ah", "Qh", "Jh", "8h", "4s", "2d", *([burn] if burn else [])], 2)
    assert draw_odds(2, known, HEARTS).next_card == expected


def test_two_card_formula() -> None:
    odds = draw_odds(2, parse_cards(["Ah", "Qh", "Jh", "8h", "4s"], 2), HEARTS)
    n, o = 99, 22
    assert odds.two_cards == 1 - Fraction((n - o) * (n - o - 1), n * (n - 1))


def test_pot_odds() -> None:
    assert break_even_equity(60, 20) == Fraction(1, 5)
    with pytest.raises(TaiwanPokerError):
        break_even_equity(60, 0)


def test_lab_hand_follows_the_spec_order_and_hides_dealer_burns() -> None:
    hand = LabHand.deal(2, random.Random(7))
    assert hand.view()["best"] is None and hand.used == 3 and hand.remaining == 101
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        assert hand.advance() is street
    v = hand.view()
    assert v["used"] == 11 and v["remaining"] == 93 and v["dealer_burns"] == 3
    assert "_dealer_burns" not in v and not any(isinstance(x, list) and len(x) == 3 and x != v["board"][:3]
                                                for x in v.values())
    assert v["best"]["rank"] == evaluate([*hand.hole, *hand.board]).rank
    with pytest.raises(TaiwanPokerError):
        hand.advance()
    with pytest.raises(TaiwanPokerError):
        LabHand.deal(7)


def test_scenarios() -> None:
    pot, draw, nuts = scenarios()
    assert pot.correct == "20" and grade("pot_odds", "20").correct
    assert draw.correct == "fold" and draw.explanation["hit"] == "22.68%" and draw.explanation["need"] == "25.00%"
    assert nuts.correct == "raise" and nuts.explanation["beat"] == 0
    assert nuts.explanation["category"] is Category.FIVE_OF_A_KIND and nuts.explanation["min_raise_to"] == 100
    with pytest.raises(TaiwanPokerError):
        grade("pot_odds", "nope")


def test_drills_are_reproducible_and_exact() -> None:
    for seed in range(200):
        d = generate_drill(seed)
        assert d == generate_drill(seed)
        assert d.answer in d.choices and len(set(d.choices)) == 4
        assert len(set(d.known)) == len(d.known)
    assert parse_fraction("22/97") == Fraction(22, 97)
    for bad in ("x", "1/0", ""):
        with pytest.raises(TaiwanPokerError):
            parse_fraction(bad)
