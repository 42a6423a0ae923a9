"""The straddle (issue 23; docs/rules.md, straddle): an optional table rule, under the gun, two big blinds, live."""

from __future__ import annotations

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rules import ActionKind, RuleSet, Structure, adjudicate, events_for
from taiwan_poker.rules.events import StraddlePosted
from taiwan_poker.rules.replay import StraddlePost, replay
from tests.rules.helpers import make_hand, play


def test_the_straddle_is_posted_under_the_gun_after_the_blinds_and_action_starts_left_of_it() -> None:
    hand = make_hand([2000] * 4, straddle=True)  # button 0, blinds 1 and 2, under the gun 3
    assert hand.straddle_seat == 3 and StraddlePosted(3, 40) in hand.events
    assert hand.betting.current_bet == 40 and hand.pot == 70
    assert hand.to_act == 0, "the first to act is the player left of the straddler"
    legal = hand.legal()
    assert legal.call_amount == 40


def test_the_next_full_raise_over_a_straddle_is_to_four_big_blinds() -> None:
    hand = make_hand([2000] * 4, straddle=True)
    assert hand.legal().min_to == 80, "the straddle is the bet: a full raise adds two big blinds"
    play(hand, ["raise 100"])
    assert hand.legal().min_to == 160, "after a raise of 60 the next raise adds 60"


def test_the_straddler_acts_last_preflop_and_has_the_option() -> None:
    hand = make_hand([2000] * 4, straddle=True)
    play(hand, ["call", "call", "call"])
    assert hand.to_act == 3
    legal = hand.legal()
    assert legal.actions == (ActionKind.CHECK, ActionKind.RAISE, ActionKind.ALLIN) and legal.min_to == 80
    play(hand, ["check"])
    assert hand.street.value == "flop" and hand.to_act == 1, "after the flop the small blind acts first as usual"


def test_a_raise_before_the_straddler_reopens_the_straddlers_action() -> None:
    hand = make_hand([2000] * 4, straddle=True)
    play(hand, ["raise 120", "fold", "fold"])
    assert hand.to_act == 3 and hand.legal().call_amount == 80


def test_heads_up_there_is_no_straddle() -> None:
    hand = make_hand([2000] * 2, straddle=True)
    assert hand.straddle_seat is None and not any(isinstance(e, StraddlePosted) for e in hand.events)
    assert hand.betting.current_bet == 20


def test_three_handed_the_button_straddles() -> None:
    hand = make_hand([2000] * 3, straddle=True)
    assert hand.straddle_seat == 0 and hand.to_act == 1, "under the gun three-handed is the button"
    play(hand, ["call", "call"])
    assert hand.to_act == 0 and hand.legal().allows(ActionKind.CHECK)


def test_a_player_under_the_gun_with_less_than_two_big_blinds_does_not_straddle() -> None:
    hand = make_hand([2000, 2000, 2000, 39], straddle=True)
    assert hand.straddle_seat is None and hand.to_act == 3 and hand.legal().call_amount == 20
    exact = make_hand([2000, 2000, 2000, 40], straddle=True)
    assert exact.straddle_seat == 3 and exact.betting.stacks[3] == 0, "exactly two big blinds: straddles all in"


def test_a_straddle_is_no_limit_and_pot_limit_only() -> None:
    with pytest.raises(TaiwanPokerError) as info:
        RuleSet(seats=4, structure=Structure.LIMIT, straddle=True)
    assert info.value.code == "bad_rules"
    hand = make_hand([2000] * 4, straddle=True, structure=Structure.POT_LIMIT)
    assert hand.legal().max_to == 40 + 70 + 40, "pot-limit: the straddle is in the pot"


def test_a_seats_replay_counts_the_straddle_as_the_preflop_bet() -> None:
    hand = play(make_hand([2000] * 4, straddle=True), ["call"])
    seen = replay(events_for(hand, 1))
    assert StraddlePost(3, 40) in seen.steps and seen.level == 40
    assert seen.stacks[3] == 1960 and seen.pot == 110


def test_adjudicate_takes_an_optional_straddle_and_without_it_answers_as_before() -> None:
    base = {"decks": 2, "blinds": [10, 20], "stacks": [2000, 2000, 2000, 2000], "button": 0,
            "hole_cards": [["As", "Kd"], ["Qh", "Qc"], ["2c", "3d"], ["7h", "8h"]], "board": [],
            "actions": ["call", "call"]}
    plain = adjudicate(base)
    assert plain == adjudicate({**base, "straddle": False})
    assert plain["to_act"] == 1 and plain["pot"] == 70
    straddled = adjudicate({**base, "straddle": True})
    assert straddled["to_act"] == 2 and straddled["legal"]["call_amount"] == 20 and straddled["pot"] == 140
    assert straddled["legal"]["min_raise_to"] == 80
    with pytest.raises(TaiwanPokerError) as info:
        adjudicate({**base, "straddle": "yes"})
    assert info.value.code == "bad_json"
