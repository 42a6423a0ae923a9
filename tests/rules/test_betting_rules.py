"""Betting structures, illegal actions, time-outs, rule sets and burn schedules."""

from __future__ import annotations

import random

import pytest

from taiwan_poker.errors import RuleSetError
from taiwan_poker.rules import (
    Action,
    ActionKind,
    BurnSchedule,
    Hand,
    IllegalActionError,
    RuleSet,
    Street,
    Structure,
    cards_needed,
    parse_action,
)
from taiwan_poker.rules.events import DealerBurn, PrivateBurn

from .helpers import make_hand, play

R, B = ActionKind.RAISE, ActionKind.BET
PL, FL = Structure.POT_LIMIT, Structure.LIMIT


def test_pot_limit_heads_up_small_blind_may_raise_to_60() -> None:
    """003: pot-limit maximum = the pot after calling: blinds 10/20, SB calls 10 → pot 40 → raise to 20+40 = 60."""
    hand = make_hand([2000, 2000], 0, structure=PL)
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (40, 60)
    with pytest.raises(IllegalActionError, match="above the maximum raise to 60"):
        hand.act(parse_action("raise 61"))


def test_pot_limit_first_to_act_three_handed_raise_to_70_then_bet_the_pot() -> None:
    """003: UTG faces 20 with 30 in the pot: max raise to 20 + (30 + 20) = 70; postflop the max bet is the pot."""
    hand = make_hand([2000] * 3, 0, structure=PL)
    assert hand.legal().max_to == 70
    play(hand, ["call", "call", "check"])
    legal = hand.legal()
    assert legal.actions[1] is B and (legal.min_to, legal.max_to) == (20, 60)
    play(hand, ["bet 60"])
    assert hand.legal().max_to == 60 + (120 + 60)  # pot 120 after the bet, plus the 60 to call


def test_pot_limit_allin_only_within_the_pot_limit() -> None:
    """003: pot-limit: an all-in larger than the pot is not allowed (raise to the pot instead)."""
    hand = make_hand([2000, 2000], 0, structure=PL)
    assert ActionKind.ALLIN not in hand.legal().actions
    short = make_hand([50, 2000], 0, structure=PL)
    assert ActionKind.ALLIN in short.legal().actions  # 50 <= pot-limit 60


def test_limit_small_bet_preflop_and_flop_big_bet_turn_and_river() -> None:
    """003: limit: bets and raises of one big blind preflop and on the flop, two big blinds on turn and river."""
    hand = make_hand([2000, 2000], 0, structure=FL)
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (40, 40)
    play(hand, ["call", "check"])
    assert (hand.legal().min_to, hand.legal().max_to) == (20, 20)
    play(hand, ["check", "check"])
    assert hand.street is Street.TURN and (hand.legal().min_to, hand.legal().max_to) == (40, 40)
    play(hand, ["bet 40", "raise 80"])
    assert hand.legal().min_to == 120


def test_limit_a_bet_and_three_raises_cap_the_street() -> None:
    """003: limit: at most four bets a street (bet, raise, re-raise, cap); preflop the big blind is the bet."""
    hand = make_hand([2000, 2000], 0, structure=FL)
    play(hand, ["raise 40", "raise 60", "raise 80"])
    legal = hand.legal()
    assert R not in legal.actions and legal.actions == (ActionKind.FOLD, ActionKind.CALL)
    play(hand, ["call", "check", "bet 20", "raise 40", "raise 60", "raise 80"])
    assert R not in hand.legal().actions


def test_illegal_actions_change_nothing() -> None:
    """verify/can/do: every refused action leaves the hand exactly as it was."""
    hand = make_hand([2000, 2000, 2000], 0)
    before = hand.snapshot()
    for text in ["check", "raise 39", "raise 2001", "bet 100", "raise", "call 5"]:
        with pytest.raises(Exception):  # noqa: B017 - IllegalActionError or BadActionError
            hand.act(parse_action(text))
    with pytest.raises(IllegalActionError, match="turn"):
        hand.act(parse_action("call"), seat=1)
    assert hand.snapshot() == before


def test_call_and_fold_refused_when_checking_is_possible() -> None:
    """Rules decision: with nothing to call, ``call`` and ``fold`` are refused (check instead)."""
    hand = play(make_hand([2000, 2000], 0), ["call"])
    for text in ("call", "fold"):
        with pytest.raises(IllegalActionError):
            hand.act(parse_action(text))


def test_short_allin_call_and_raise_n_equal_to_allin() -> None:
    """001/002: a call with too few chips is an all-in call; ``raise N`` naming the whole stack is an all-in."""
    hand = make_hand([2000, 15], 1)
    legal = hand.legal()
    assert legal.seat == 1 and legal.call_amount == 5 and legal.actions == (ActionKind.FOLD, ActionKind.CALL,
                                                                            ActionKind.ALLIN)
    hand2 = play(make_hand([2000, 2000, 30], 0), ["call", "call"])
    assert hand2.to_act == 2
    hand2.act(parse_action("raise 30"))  # below the minimum raise to 40 but the whole stack: an all-in
    assert hand2.betting.stacks[2] == 0


def test_raise_n_naming_the_whole_stack_past_the_effective_maximum_says_to_go_all_in() -> None:
    """Audit issue 45: ``raise N`` for the whole stack was refused above the effective-stack maximum with the
    plain "above the maximum", while ``allin`` with the same chips was accepted. The contract keeps ``raise N``
    above the maximum illegal (shared/spec/contract.md), so the refusal now says to go all in."""
    hand = make_hand([1000, 3000], 0)  # seat 0 the button (small blind) with 1,000; seat 1 has 3,000
    hand.act(parse_action("call"))
    legal = hand.legal()
    assert legal.seat == 1 and legal.max_to == 1000 and legal.allin_to == 3000
    with pytest.raises(IllegalActionError) as info:
        hand.act(parse_action("raise 3000"))
    assert info.value.params["reason"] == "raise_whole_stack" and "all in" in str(info.value)
    with pytest.raises(IllegalActionError) as other:
        hand.act(parse_action("raise 2500"))  # neither a legal size nor the whole stack
    assert other.value.params["reason"] == "raise_above_max"
    hand.act(parse_action("allin"))
    hand.act(parse_action("call"))
    assert hand.complete and sum(hand.stacks) == 4000 and hand.stacks[1] >= 2000


def test_timeout_checks_if_possible_else_folds() -> None:
    """000 §逾時: a time-out checks when checking is possible, otherwise folds."""
    hand = make_hand([2000, 2000], 0)
    ev = hand.timeout()[0]
    assert ev.kind is ActionKind.FOLD and ev.timeout  # type: ignore[attr-defined]
    hand = play(make_hand([2000, 2000], 0), ["call"])
    ev = hand.timeout()[0]
    assert ev.kind is ActionKind.CHECK  # type: ignore[attr-defined]


def test_ruleset_defaults_match_the_spec() -> None:
    """000 v0.1 table: two decks, 2,000 chips, blinds 10/20, no-limit, one burn a hand, 45 s clock."""
    r = RuleSet()
    assert (r.decks, r.seats, r.starting_stack, r.small_blind, r.big_blind) == (2, 2, 2000, 10, 20)
    assert r.structure is Structure.NO_LIMIT and r.burns is BurnSchedule.ONCE_PER_HAND and r.action_clock == 45
    assert RuleSet.from_json(r.to_json()) == r


def test_ruleset_cards_needed_3n_plus_8_and_refuses_what_the_shoe_cannot_deal() -> None:
    """000 §牌堆用量: n players to the river use 3n+8 cards (14 heads-up, 26 six-handed); every-street needs more."""
    assert cards_needed(2) == 14 and cards_needed(6) == 26
    assert cards_needed(9, BurnSchedule.EVERY_STREET) == 62
    RuleSet(decks=1, seats=9)
    with pytest.raises(RuleSetError) as err:
        RuleSet(decks=1, seats=9, burns=BurnSchedule.EVERY_STREET)
    assert err.value.code == "bad_rules" and "62" in err.value.message
    RuleSet(decks=2, seats=9, burns=BurnSchedule.EVERY_STREET)
    for bad in ({"decks": 0}, {"decks": 9}, {"seats": 1}, {"seats": 10}, {"small_blind": 30}, {"big_blind": 0},
                {"structure": "spread"}):
        with pytest.raises(RuleSetError):
            RuleSet(**bad)  # type: ignore[arg-type]


def test_every_street_burns_one_private_card_per_player_before_each_street() -> None:
    """000 待定稿: the every-street schedule gives each player still in a private burn before flop, turn, river."""
    rules = RuleSet(decks=2, seats=3, burns=BurnSchedule.EVERY_STREET)
    hand = Hand.start(rules, [2000] * 3, 0, rng=random.Random(5))
    while not hand.complete:
        hand.act(Action(ActionKind.CHECK) if ActionKind.CHECK in hand.legal().actions else Action(ActionKind.CALL))
    for seat in range(3):
        assert len(hand.private_burns(seat)) == 4
    assert sum(isinstance(e, PrivateBurn) for e in hand.events) == 9
    assert sum(isinstance(e, DealerBurn) for e in hand.events) == 3
    assert hand.cards_used == cards_needed(3, BurnSchedule.EVERY_STREET)


def test_automatic_runout_when_all_players_are_allin() -> None:
    """000 §平手、全下: once all are all-in the board is dealt out and the hand goes to showdown."""
    hand = play(make_hand([500, 500], 0), ["allin", "call"])
    assert hand.complete and len(hand.board) == 5 and len(hand.shown) == 2


def test_fold_win_shows_no_cards() -> None:
    """000 §05: the last player left wins without showing."""
    hand = play(make_hand([500, 500, 500], 0), ["raise 100", "fold", "fold"])
    assert hand.complete and hand.shown == () and hand.stacks == (530, 490, 480)


def test_no_limit_minimum_bet_is_one_big_blind_on_every_street() -> None:
    """002/004: no-limit minimum bet is one big blind on turn and river too (the big bet is for limit only)."""
    hand = play(make_hand([2000, 2000], 0), ["call", "check", "check", "check"])
    assert hand.street is Street.TURN and hand.legal().min_to == 20
    play(hand, ["check", "check"])
    assert hand.street is Street.RIVER and hand.legal().min_to == 20


def test_short_big_blind_posts_what_it_has_and_the_bet_to_call_is_the_largest_blind() -> None:
    """Rules decision (seeds silent): a short blind is all-in; the bet to call is the largest blind posted,
    and the first full raise still adds one big blind."""
    hand = make_hand([2000, 2000, 5], 0)
    assert hand.betting.bets == [0, 10, 5] and hand.to_act == 0
    legal = hand.legal()
    assert legal.call_amount == 10 and legal.min_to == 30
    play(hand, ["call", "check"])
    assert hand.street is Street.FLOP
