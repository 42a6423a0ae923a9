"""The hand review: marks, the exact chip cost of a call facing an all-in, and the all-in EV."""

from __future__ import annotations

import random

import pytest

from taiwan_poker.cards import Card, parse_cards
from taiwan_poker.coach.advice import advise, advise_with_plan
from taiwan_poker.history.review import Verdict, Why, mark, review
from taiwan_poker.odds.equity import equity
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.actions import ALLIN, CALL, CHECK, FOLD
from taiwan_poker.rules.ruleset import cards_needed
from taiwan_poker.strategy.policy import Strategy, strategy
from taiwan_poker.strategy.seat import seat_view
from tests.strategy_caches import forget_strategy_caches


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


def test_calling_an_all_in_behind_gives_its_exact_chip_cost_but_following_the_strategy_is_no_mistake() -> None:
    hand = heads_up("AsAh", "KsKd", "2h7d9cJs4d")
    hand.act(Action(ActionKind.ALLIN))  # the button shoves
    hand.act(Action(ActionKind.CALL))  # kings call: what the strategy does with them
    assert hand.complete
    decisions, ev = review(hand, 1)
    assert [d.action for d in decisions] == ["call"]
    call = decisions[0]
    exact = equity("KsKd", ["AsAh"], decks=2, burn="3c", method="exact").players[0].equity
    assert call.exact_equity == pytest.approx(exact)
    assert call.cost == round(-(exact * 4000 - 1980))
    assert call.suggestion == "call" and call.mark == "good", "the coach's likeliest action is never a mistake"
    assert ev is not None and ev.street == "preflop"
    assert ev.equity == pytest.approx(exact) and ev.expected == round(exact * 4000) and ev.won == 0


def test_calling_an_all_in_with_junk_against_the_strategy_is_a_mistake_with_its_exact_chip_cost() -> None:
    hand = heads_up("AsAh", "7d2c", "2h7s9cJs4d")
    hand.act(Action(ActionKind.ALLIN))
    hand.act(Action(ActionKind.CALL))
    call = review(hand, 1)[0][0]
    exact = equity("7d2c", ["AsAh"], decks=2, burn="3c", method="exact").players[0].equity
    assert call.suggestion == "fold" and call.mark == "mistake"
    assert call.cost == round(-(exact * 4000 - 1980)) and call.cost > 0


def test_folding_aces_to_a_shove_is_a_mistake_by_the_read_range_but_has_no_exact_cost() -> None:
    hand = heads_up("7s2d", "AsAh", "KhQd9c4s3h")
    hand.act(Action(ActionKind.ALLIN))
    hand.act(Action(ActionKind.FOLD))
    decisions, ev = review(hand, 1)
    fold = decisions[0]
    assert fold.action == "fold" and fold.mark == "mistake" and fold.equity > fold.price + 0.1
    assert fold.cost is None, "the shover's cards were never shown: no exact cost"
    assert ev is None


def test_preflop_marks_follow_the_strategys_probabilities() -> None:
    hand = heads_up("AsAh", "KsKd", "2h7d9cJs4d")
    hand.act(Action(ActionKind.RAISE, 60))
    v = seat_view(hand, 1)
    plan = Strategy(((FOLD, 0.85), (CALL, 0.12), (Action(ActionKind.RAISE, 180), 0.03)), "tables", v.price(), None,
                    None, v.call_amount / v.pot)
    assert mark(v, plan, FOLD) == Verdict("good", Why.FIRST_CHOICE, 0.0, pytest.approx(0.85))  # the likeliest
    assert mark(v, plan, CALL) == Verdict("good", Why.IN_MIX, None, pytest.approx(0.12))  # 12 %: at least 10 %
    assert mark(v, plan, Action(ActionKind.RAISE, 180)) == Verdict("questionable", Why.RARELY, None,
                                                                   pytest.approx(0.03))
    assert mark(v, plan, ALLIN) == Verdict("mistake", Why.RARELY, None, 0.0)  # never taken; no loss in chips


def test_postflop_marks_follow_the_expected_loss() -> None:
    hand = heads_up("AsAh", "KsKd", "2h7d9cJs4d")
    for a in ("raise 60", "call", "check"):
        kind, _, to = a.partition(" ")
        hand.act(Action(ActionKind(kind), int(to) if to else None))
    v = seat_view(hand, hand.to_act)
    plan = strategy(v)
    likeliest = plan.likeliest
    assert mark(v, plan, likeliest) == Verdict("good", Why.FIRST_CHOICE, 0.0, plan.probability(v, likeliest))
    for action in (CHECK, Action(ActionKind.BET, 40), Action(ActionKind.BET, 120), ALLIN):
        verdict = mark(v, plan, action)
        loss, p = verdict.loss, verdict.probability
        assert loss is not None and loss >= 0
        expected = ("good" if p >= 0.2 or loss <= max(20, 0.05 * v.pot)
                    else "questionable" if loss <= max(60, 0.15 * v.pot) else "mistake")
        assert verdict.mark == expected, (action, loss, p)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_following_the_coachs_likeliest_action_is_never_a_mistake(seed: int) -> None:
    """Seat 1 plays exactly the coach's suggestion at every decision (what the review will compute there);
    the other seat plays the beginner level. The review marks none of seat 1's decisions a mistake."""
    from taiwan_poker.bots.levels import policy_of

    rng = random.Random(seed)
    for n in range(3):
        hand = Hand.start(RuleSet(decks=2 + n, seats=2, starting_stack=2000), [2000, 2000], n % 2,
                          rng=random.Random(seed * 10 + n))
        while not hand.complete:
            seat = hand.to_act
            assert seat is not None
            v = seat_view(hand, seat)
            if seat == 1:
                _, plan = advise_with_plan(v)
                hand.act(plan.likeliest, seat=seat)
            else:
                hand.act(policy_of("beginner")(v, rng), seat=seat)
        decisions, _ = review(hand, 1)
        assert decisions, "seat 1 made no decision"
        assert all(d.mark != "mistake" for d in decisions), [(d.action, d.suggestion, d.mark) for d in decisions]


@pytest.mark.parametrize("seed", [5, 6])
def test_the_review_reports_the_equity_and_strategy_the_coach_gave_at_each_decision(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """At every decision of seat 1 the coach advises from the seat's view then (what the room sends live), among
    strong bots that read the same public points first; the review of the finished hand, on a server that has
    forgotten every read, replaying it to each decision, reports the very same equities, price, strategy and
    suggestion: the same method with the same draws, seeded by the spot and the public line."""
    from taiwan_poker.bots.levels import policy_of

    rng = random.Random(seed)
    postflop = 0
    for n in range(3):
        hand = Hand.start(RuleSet(decks=2 + n, seats=3, starting_stack=2000), [2000] * 3, n % 3,
                          rng=random.Random(seed * 10 + n))
        live = []
        while not hand.complete:
            seat = hand.to_act
            assert seat is not None
            v = seat_view(hand, seat)
            if seat == 1:
                a = advise(v)
                live.append((a.equity_range, a.equity_random, a.price, a.mix, a.action))
                postflop += v.street > 0
                hand.act(CHECK if v.can(ActionKind.CHECK) else CALL, seat=seat)  # sees the flop where it can
            else:
                hand.act(policy_of("strong")(v, rng), seat=seat)
        forget_strategy_caches(monkeypatch)
        decisions, _ = review(hand, 1)
        assert [(d.equity, d.equity_random, d.price, d.mix, d.suggestion) for d in decisions] == live
    assert postflop, "no decision after the flop: the read ranges were never compared"


def test_a_good_mark_beside_chips_given_up_always_says_why() -> None:
    """Issue 45, finding 9: "✓ Good" stood beside "gives up 44 chips". Seat 1 plays the beginner level (often off
    the strategy) against the strong one: every good decision that gives up chips against the strategy is good for
    a reason it states, inside the strategy's mix (taken often enough) or a loss within the tolerance; one with an
    exact cost is the strategy's first choice (the cards went against it, not the decision)."""
    from taiwan_poker.bots.levels import policy_of

    rng = random.Random(7)
    reasons: set[Why] = set()
    for n in range(12):
        hand = Hand.start(RuleSet(decks=2, seats=2, starting_stack=2000), [2000, 2000], n % 2,
                          rng=random.Random(700 + n))
        while not hand.complete:
            seat = hand.to_act
            assert seat is not None
            hand.act(policy_of("beginner" if seat == 1 else "strong")(seat_view(hand, seat), rng), seat=seat)
        for d in review(hand, 1)[0]:
            assert d.to_json()["why"] == d.why.value
            if d.mark == "good" and d.loss:
                assert d.why in (Why.IN_MIX, Why.SMALL_LOSS), d
                reasons.add(d.why)
                if d.why is Why.IN_MIX:
                    assert d.probability >= 0.2, d
                else:
                    assert d.loss <= max(d.big_blind, 0.05 * d.pot), d
            if d.mark == "good" and d.cost:
                assert d.why is Why.FIRST_CHOICE, d
            if d.mark != "good":
                assert d.why in (Why.RARELY, Why.BIG_LOSS, Why.EXACT_COST), d
    assert reasons, "no good decision gave up chips: nothing was checked"


def test_every_reason_for_a_mark_has_its_words_in_both_languages() -> None:
    from taiwan_poker.web.i18n import catalogue

    for lang in ("zh-TW", "en"):
        words = catalogue(lang)
        for key in [*(f"review.why.{w.value}" for w in Why), "review.why.first_choice_cost", "review.why_wrap"]:
            assert words.get(key), (lang, key)
