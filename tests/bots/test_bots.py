"""Bots: they see only their seat's view, always act legally, follow their stated rules, and estimate equity right."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taiwan_poker.bots.levels import BASELINES, DEFAULT_LEVEL, LEVELS, policy_of
from taiwan_poker.bots.policies import always_call
from taiwan_poker.cards import Card, deal, full_shoe, parse_cards
from taiwan_poker.odds.equity import equity as exact_equity
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.ruleset import cards_needed
from taiwan_poker.strategy.estimate import RangeWeights, equity
from taiwan_poker.strategy.seat import seat_view
from taiwan_poker_lab.arena import play_to_end

ALL = [*LEVELS, *BASELINES]


def test_three_levels_are_named_in_zh_tw_and_english_and_one_is_the_default() -> None:
    assert list(LEVELS) == ["beginner", "solid", "strong"] and DEFAULT_LEVEL in LEVELS
    for level in LEVELS.values():
        assert level.zh and level.en and level.zh != level.en


def poisoned_pair(seats: int, decks: int, seed: int, hero: int) -> tuple[Hand, Hand]:
    """Two hands identical in everything ``hero`` may see, with every hidden card different.

    The second hand's other players hold other hole cards and private burns, taken from cards
    the first hand never dealt: a bot that peeked at them would decide differently.
    """
    rules = RuleSet(decks=decks, seats=seats)
    rng = random.Random(seed)
    need = cards_needed(seats, rules.burns)
    shoe = full_shoe(decks)
    rng.shuffle(shoe)
    first, spare = shoe[:need], shoe[need:]
    second = list(first)
    k = seats  # every seat has chips: dealing order is burns (k), first hole cards (k), second hole cards (k)
    stacks = [2000] * seats
    button = seed % seats
    for pos, seat in enumerate(_clockwise(button, seats)):  # cards are dealt clockwise from the button's left
        if seat == hero:
            continue
        for slot in (pos, k + pos, 2 * k + pos):
            second[slot] = spare.pop()
    return Hand.start(rules, stacks, button, cards=first), Hand.start(rules, stacks, button, cards=second)


def _clockwise(button: int, n: int) -> list[int]:
    return [(button + 1 + i) % n for i in range(n)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), decks=st.integers(2, 6), seed=st.integers(0, 2**31), level=st.sampled_from(ALL))
def test_a_bot_decides_the_same_whatever_the_hidden_cards_so_it_cannot_cheat(seats: int, decks: int, seed: int,
                                                                            level: str) -> None:
    hero = seed % seats
    one, two = poisoned_pair(seats, decks, seed, hero)
    assert one.hole_cards(hero) == two.hole_cards(hero) and one.private_burns(hero) == two.private_burns(hero)
    assert any(one.hole_cards(s) != two.hole_cards(s) for s in one.players if s != hero), "the poison is there"
    policy = policy_of(level)
    decisions = 0
    while not one.complete and not two.complete:
        seat = one.to_act
        assert seat == two.to_act
        if seat == hero:
            v1, v2 = seat_view(one, hero), seat_view(two, hero)
            assert v1 == v2, "the bot's input is the same: nothing hidden reaches it"
            a1, a2 = policy(v1, random.Random(seed + decisions)), policy(v2, random.Random(seed + decisions))
            assert a1 == a2
            decisions += 1
            action = a1
        else:
            action = always_call(seat_view(one, seat), random.Random(0))  # the others: public information only
        one.act(action)
        two.act(action)
        assert one.board == two.board, "the board comes from cards both hands share"


@pytest.mark.parametrize(("seats", "decks", "seed"), [(3, 2, 7), (2, 6, 1), (6, 6, 3), (4, 3, 12), (5, 2, 8)])
def test_a_bots_view_holds_its_own_cards_and_burn_and_no_other_seats(seats: int, decks: int, seed: int) -> None:
    """At every decision of a hand played out: the seat's own hole cards, burn and the board are in its view, and
    no other seat's hole card or burn is, as a physical card (at 2+ decks another copy of the face may well be)."""
    rules = RuleSet(decks=decks, seats=seats)
    hand = Hand.start(rules, [2000] * seats, seed % seats, rng=random.Random(seed))
    decisions = 0
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        v = seat_view(hand, seat)
        seen = set(_all_cards(v, decks))
        assert v.hole == hand.hole_cards(seat) and v.burns == tuple(hand.private_burns(seat))
        assert {*v.hole, *v.burns, *hand.board} <= seen
        others = {c for s in hand.players if s != seat for c in (*hand.hole_cards(s), *hand.private_burns(s))}
        assert len(others) == 3 * (len(hand.players) - 1), "every other seat's three cards, each a physical card"
        leaked = sorted(c.label for c in others & seen)
        assert not leaked, f"seat {seat}'s view holds other seats' cards: {leaked}"
        hand.act(always_call(v, random.Random(0)))
        decisions += 1
    assert decisions >= len(hand.players)


CARD_LABEL = re.compile(r"[2-9TJQKA][shdc]:[1-8]")


def _all_cards(obj: Any, decks: int) -> list[Card]:
    """Every physical card anywhere in a view: in its fields, nested records and collections, or named by label."""
    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, str):
        return parse_cards([obj], decks) if CARD_LABEL.fullmatch(obj) else []
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [c for f in dataclasses.fields(obj) for c in _all_cards(getattr(obj, f.name), decks)]
    if isinstance(obj, dict):
        return [c for kv in obj.items() for x in kv for c in _all_cards(x, decks)]
    if isinstance(obj, tuple | list | set | frozenset):
        return [c for x in obj for c in _all_cards(x, decks)]
    return []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), decks=st.integers(2, 6), seed=st.integers(0, 2**31),
       levels=st.lists(st.sampled_from(ALL), min_size=6, max_size=6))
def test_every_level_always_returns_a_legal_action_and_chips_are_conserved(seats: int, decks: int, seed: int,
                                                                         levels: list[str]) -> None:
    rules = RuleSet(decks=decks, seats=seats)
    rng = random.Random(seed)
    stacks = [rng.choice((60, 400, 2000, 5000)) for _ in range(seats)]
    hand = play_to_end(Hand.start(rules, stacks, seed % seats, rng=rng), [policy_of(x) for x in levels], [rng] * 6)
    assert sum(hand.stacks) == sum(stacks)  # and no action was illegal: play_to_end would have raised


def test_a_bot_decides_the_same_with_the_same_seed() -> None:
    rules = RuleSet(decks=3, seats=2)
    hand = Hand.start(rules, [2000, 2000], 0, rng=random.Random(3))
    hand.act(Action(ActionKind.CALL))
    hand.act(Action(ActionKind.CHECK))  # to the flop: the strong level reads ranges and samples
    seat = hand.to_act
    assert seat is not None
    v = seat_view(hand, seat)
    for level in LEVELS:
        assert len({policy_of(level)(v, random.Random(11)) for _ in range(5)}) == 1


def seat_hand(hole: str, opponent_action: str, decks: int = 2) -> Hand:
    """A heads-up hand where seat 1 (the big blind) holds ``hole`` and faces the button's ``opponent_action``."""
    rules = RuleSet(decks=decks, seats=2)
    cards: list[Card | None] = [None] * cards_needed(2, rules.burns)
    a, b = parse_cards([hole[:2], hole[2:]], decks)
    # dealing order clockwise from the seat after the button (seat 1 first): burns, first and second hole cards
    cards[2], cards[4] = a, b
    hand = Hand.start(rules, [2000, 2000], 0, cards=cards)
    kind, _, to = opponent_action.partition(" ")
    hand.act(Action(ActionKind(kind), int(to) if to else None))
    return hand


@pytest.mark.parametrize("level", ["solid", "strong"])
def test_the_tight_levels_raise_aces_and_fold_seven_deuce_to_a_big_raise(level: str) -> None:
    policy = policy_of(level)
    aces = seat_hand("AsAh", "raise 200")
    assert policy(seat_view(aces, 1), random.Random(1)).kind in (ActionKind.RAISE, ActionKind.ALLIN)
    junk = seat_hand("7s2h", "raise 200")
    assert policy(seat_view(junk, 1), random.Random(1)).kind is ActionKind.FOLD


def test_the_beginner_calls_a_small_raise_with_a_middling_hand_and_rarely_raises() -> None:
    hand = seat_hand("Ts8d", "raise 60")
    actions = [policy_of("beginner")(seat_view(hand, 1), random.Random(i)).kind for i in range(50)]
    assert actions.count(ActionKind.CALL) == 50


def test_the_estimate_matches_the_exact_equity_and_removes_the_bots_own_burn() -> None:
    hole, board = parse_cards(["Ah", "Kh"], 2), parse_cards(["2h", "7h", "Qc", "9d"], 2)
    burn = parse_cards(["Th"], 2)
    exact = exact_equity("AhKh", ["random"], board="2h7hQc9d", decks=2, burn="Th", method="exact")
    est = equity(hole, board, burn, 2, [None], 40_000, np.random.default_rng(5))
    assert est == pytest.approx(exact.players[0].equity, abs=0.01)
    without_burn = exact_equity("AhKh", ["random"], board="2h7hQc9d", decks=2, method="exact")
    assert exact.players[0].equity != without_burn.players[0].equity, "the burn changes the outs (spec's rule)"


def test_a_narrow_range_lowers_the_equity_of_a_weak_hand() -> None:
    hole = parse_cards(["9s", "8d"], 2)
    rng = np.random.default_rng(1)
    wide = equity(hole, [], [], 2, [None], 20_000, rng)
    strong_only = np.zeros((52, 52))
    for a in range(48, 52):  # aces only
        strong_only[a, 48:52] = strong_only[48:52, a] = 1.0
    narrow = equity(hole, [], [], 2, [RangeWeights(strong_only)], 20_000, rng)
    assert narrow < wide - 0.1


def test_the_live_deal_of_a_bot_table_uses_the_same_shoe_code() -> None:
    cards = deal(2, 10, random.Random(1))
    assert len(set(cards)) == 10


def test_the_solid_level_keeps_one_value_line_with_one_answer_at_no_opponent() -> None:
    from taiwan_poker.bots import policies
    from taiwan_poker.strategy import thresholds

    assert policies.value_threshold is thresholds.value_threshold
    assert [thresholds.value_threshold(n) for n in range(5)] == [0.6, 0.6, 0.5, 0.42, 0.42]


def test_the_coach_shows_the_strong_bots_own_distribution() -> None:
    """One strategy for both (issue 22): the coach's mix is the strong level's distribution at the same view."""
    from taiwan_poker.bots.policies import strong
    from taiwan_poker.coach.advice import advise, street_total

    for hole, line in (("AsAh", "raise 60"), ("9s8s", "raise 60"), ("7c2d", "raise 200")):
        v = seat_view(seat_hand(hole, line), 1)
        advice = advise(v, samples=500)
        mine = sorted(((a.kind.value, street_total(v, a), round(p, 4)) for a, p in strong.distribution(v,
                       random.Random(0)) if p >= 0.005), key=lambda m: -m[2])
        assert [(k, to, round(p, 4)) for k, to, p in advice.mix] == mine
        assert advice.action == mine[0][0]
        assert sum(p for _, _, p in advice.mix) == pytest.approx(1, abs=0.02)


def test_an_all_in_over_a_short_big_blind_is_a_raise_in_the_seat_view() -> None:
    """Blinds 10/20, the big blind all in for 15: a shove to 20 raised the bet to call (the rules' 20 is no level)."""
    rules = RuleSet(decks=2, seats=3, small_blind=10, big_blind=20)
    hand = Hand.start(rules, [20, 500, 15], 0, rng=random.Random(4))
    hand.act(Action(ActionKind.ALLIN))
    v = seat_view(hand, 1)
    assert v.current_bet == 20 and v.raises_on(0) == 1 and v.aggressor(0) == 0
