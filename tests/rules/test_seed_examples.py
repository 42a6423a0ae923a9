"""Every worked example of the seeds, by name (001–004), plus heads-up order and the odd chip (000)."""

from __future__ import annotations

import pytest

from taiwan_poker.rules import ActionKind, IllegalActionError, Street, parse_action

from .helpers import make_hand, play, pots_of

F, CK, C, B, R, A = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
                     ActionKind.ALLIN)


def test_seed001_six_handed_1_2_hand_pots_13_29_29_59_and_kicker_decides() -> None:
    """001 §03: blinds 1/2, three folds, button raises to 6, SB folds, BB calls; pots 13, 29, 29, 59;
    both hold a pair of kings and the button's ace kicker beats the big blind's queen."""
    holes = [["Kh", "Ac"], ["2d", "3d"], ["Kd", "Qh"], ["4c", "5c"], ["6d", "6c"], ["8d", "8c"]]
    hand = make_hand([200] * 6, 0, holes, ["Ks", "9d", "7c", "4h", "2s"], blinds=(1, 2))
    play(hand, ["fold", "fold", "fold", "raise 6", "fold", "call"])
    assert hand.street is Street.FLOP and hand.pot == 13
    assert hand.to_act == 2  # the big blind acts first after the flop
    play(hand, ["check", "bet 8", "call"])
    assert hand.street is Street.TURN and hand.pot == 29
    play(hand, ["check", "check"])
    assert hand.street is Street.RIVER and hand.pot == 29
    play(hand, ["bet 15", "call"])
    assert hand.complete
    assert pots_of(hand) == [(59, [0, 2], [0])]
    shown = {e.seat: e for e in hand.shown}
    assert [c.face_str for c in shown[0].best] == ["Kh", "Ks", "Ac", "9d", "7c"]
    assert [c.face_str for c in shown[2].best] == ["Kd", "Ks", "Qh", "9d", "7c"]
    assert hand.stacks == (230, 199, 171, 200, 200, 200)


def test_seed002_min_raise_preflop_20_to_60_next_at_least_100() -> None:
    """002: blinds 10/20, a raise to 60 adds 40, so the next full raise is to at least 100 (not 120)."""
    hand = play(make_hand([2000] * 3, 0), ["raise 60"])
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (100, 2000)
    with pytest.raises(IllegalActionError, match="below the minimum raise to 100"):
        hand.act(parse_action("raise 99"))
    hand.act(parse_action("raise 100"))


def test_seed002_flop_bet_30_min_raise_60_then_raise_to_80_next_at_least_130() -> None:
    """002: flop bet 30 → minimum raise to 60; bet 30, raise to 80 (increment 50) → next at least 130."""
    hand = play(make_hand([2000] * 3, 0), ["call", "call", "check"])
    assert hand.street is Street.FLOP
    assert hand.legal().min_to == 20  # minimum bet: one big blind
    play(hand, ["bet 30"])
    assert hand.legal().min_to == 60
    play(hand, ["raise 80"])
    assert hand.legal().min_to == 130


def _four_player_flop(c_stack: int = 170, d_stack: int = 2000) -> object:
    # A=0 (SB), B=1 (BB), C=2, D=3 (button); everyone calls 20 preflop.
    hand = make_hand([2000, 2000, c_stack, d_stack], 3)
    play(hand, ["call", "call", "call", "check"])
    assert hand.street is Street.FLOP and hand.to_act == 0
    return hand


def test_seed002_incomplete_allin_150_after_bet_100_does_not_reopen_when_d_only_calls() -> None:
    """002 path 1: A bets 100, B calls, C all-in 150 (+50 < 100): D may still raise (not yet acted);
    if D only calls, A and B may fold or call the 50 but not raise."""
    hand = _four_player_flop()
    play(hand, ["bet 100", "call", "allin"])
    legal_d = hand.legal()
    assert legal_d.seat == 3 and R in legal_d.actions and legal_d.min_to == 250
    play(hand, ["call"])
    for seat in (0, 1):
        legal = hand.legal()
        assert legal.seat == seat
        assert legal.actions == (F, C) and legal.call_amount == 50
        with pytest.raises(IllegalActionError):
            hand.act(parse_action("raise 300"))
        with pytest.raises(IllegalActionError):
            hand.act(parse_action("allin"))
        hand.act(parse_action("call"))
    assert hand.street is Street.TURN


def test_seed002_incomplete_allin_then_full_raise_to_250_reopens() -> None:
    """002 path 2: after C's all-in to 150, D raises to 250 (150 + 100): betting reopens for A and B."""
    hand = _four_player_flop()
    play(hand, ["bet 100", "call", "allin", "raise 250"])
    legal = hand.legal()
    assert legal.seat == 0 and R in legal.actions and legal.min_to == 350


def test_seed002_cumulative_short_allins_150_then_200_reopen_for_the_bettor() -> None:
    """002: A bets 100, C all-in to 150 (+50), D all-in to 200 (+50): A now faces +100, a full raise — reopened."""
    hand = _four_player_flop(c_stack=170, d_stack=220)
    play(hand, ["bet 100", "call", "allin", "allin"])
    legal = hand.legal()
    assert legal.seat == 0 and R in legal.actions and legal.call_amount == 100 and legal.min_to == 300


def test_seed002_faq12_short_allins_140_then_200_add_up_to_a_full_raise() -> None:
    """002 FAQ 12: A bets 100, C all-in 140, D all-in 200 (+60 each time short of 100): A faces +100 → reopened."""
    hand = _four_player_flop(c_stack=160, d_stack=220)
    play(hand, ["bet 100", "call", "allin", "allin"])
    assert R in hand.legal().actions


def test_seed002_single_short_allin_faq11_b_cannot_raise_either() -> None:
    """002 FAQ 11: A bets 100, B calls, C all-in to 150: once D calls, neither A nor B may raise."""
    hand = _four_player_flop()
    play(hand, ["bet 100", "call", "allin", "call", "call"])
    assert hand.legal().seat == 1 and R not in hand.legal().actions


def test_seed002_side_pots_100_300_500_500_make_400_600_400() -> None:
    """002 FAQ 13: all-ins of 100, 300, 500, 500 → main 400 (all), side 600 (B C D), side 400 (C D)."""
    holes = [["As", "Ad"], ["Ks", "Kd"], ["Qs", "Qd"], ["Js", "Jd"]]
    hand = make_hand([100, 300, 500, 500], 3, holes, ["2c", "7h", "9s", "3d", "4c"])
    play(hand, ["allin", "call", "call", "call"])
    assert hand.complete
    assert pots_of(hand) == [(400, [0, 1, 2, 3], [0]), (600, [1, 2, 3], [1]), (400, [2, 3], [2])]
    assert hand.stacks == (400, 600, 400, 0)


def test_seed001_three_players_40_100_160_main_120_side_120_and_60_returned() -> None:
    """001 §06: A 40, B 100, C 160 → main 120 (three), side 120 (B, C); C's unmatched 60 comes back.
    (With the effective-stack rule a raise to 160 is refused — nobody can match it — but an all-in moves it all.)"""
    holes = [["As", "Ad"], ["Ks", "Kd"], ["Qs", "Qd"]]
    hand = make_hand([40, 100, 160], 2, holes, ["2c", "7h", "9s", "3d", "4c"])
    assert hand.legal().max_to == 100
    play(hand, ["allin", "call", "call"])
    assert [(e.seat, e.amount) for e in hand.returned] == [(2, 60)]
    assert pots_of(hand) == [(120, [0, 1, 2], [0]), (120, [1, 2], [1])]
    assert hand.stacks == (120, 120, 60)


def test_seed003_side_pots_50_100_200_200_make_200_150_200() -> None:
    """003 §6: player 1 all-in 50, player 2 all-in 100, players 3 and 4 200 each → 200 / 150 / 200."""
    holes = [["As", "Ad"], ["Ks", "Kd"], ["Qs", "Qd"], ["Js", "Jd"]]
    hand = make_hand([50, 100, 200, 200], 3, holes, ["2c", "7h", "9s", "3d", "4c"])
    play(hand, ["allin", "call", "call", "call"])
    assert pots_of(hand) == [(200, [0, 1, 2, 3], [0]), (150, [1, 2, 3], [1]), (200, [2, 3], [2])]


def test_seed004_six_players_with_a_folded_player_chips_stay_in_the_pots() -> None:
    """004 §5: A 50, B 250, C 350, D 800, E 800 all-in, F folds after putting in 500; hands F>A>B>D>E>C.
    A wins the main pot 300, B the first side pot 1000, D the rest 400+450+600 = 1450 (F cannot win).
    We report pots by the levels of players still in, so 004's 450 and 600 (both D/E only) are one pot of 1050."""
    holes = [["Ks", "Kd"], ["Qs", "Qd"], ["3s", "4d"], ["Js", "Jd"], ["Ts", "Td"], ["As", "Ad"]]
    hand = make_hand([50, 250, 350, 800, 800, 1000], 5, holes, ["2c", "7h", "9c", "3h", "Kc"])
    play(hand, ["call", "call", "call", "raise 500", "allin", "allin", "allin"])
    legal_d = hand.legal()
    assert legal_d.seat == 3 and R not in legal_d.actions and A in legal_d.actions  # 800 < min raise 980
    play(hand, ["allin", "call"])
    legal_f = hand.legal()
    assert legal_f.seat == 5 and legal_f.actions == (F, C)  # +300 since F raised: not a full 480 raise
    play(hand, ["fold"])
    assert hand.complete
    assert sum(p.amount for p in hand.pots) == 2750
    assert pots_of(hand) == [
        (300, [0, 1, 2, 3, 4], [0]), (1000, [1, 2, 3, 4], [1]), (400, [2, 3, 4], [3]), (1050, [3, 4], [3]),
    ]
    assert hand.stacks == (300, 1000, 0, 1450, 0, 500)


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after_flop() -> None:
    """000 §03 / 001 §02: heads-up the button is the small blind, first preflop, last on later streets."""
    hand = make_hand([2000, 2000], 1)
    assert (hand.sb_seat, hand.bb_seat) == (1, 0)
    assert hand.to_act == 1
    play(hand, ["call"])
    legal = hand.legal()
    assert legal.seat == 0 and legal.actions == (CK, R, A)  # the big blind keeps its option after a limp
    play(hand, ["check"])
    assert hand.street is Street.FLOP and hand.to_act == 0
    play(hand, ["check"])
    assert hand.to_act == 1


def test_heads_up_big_blind_option_raise_after_limp() -> None:
    """000 §03: after the small blind calls, the big blind may still raise."""
    hand = play(make_hand([2000, 2000], 0), ["call", "raise 60"])
    assert hand.to_act == 0 and hand.legal().min_to == 100


def test_three_handed_standard_order() -> None:
    """001 §02 / 003: three or more seats: SB and BB after the button, preflop starts after the BB,
    later streets start with the first live seat after the button."""
    hand = make_hand([2000] * 4, 2)
    assert (hand.sb_seat, hand.bb_seat, hand.to_act) == (3, 0, 1)
    play(hand, ["call", "call", "call", "check"])
    assert hand.street is Street.FLOP and hand.to_act == 3


def test_odd_chip_goes_to_first_winner_clockwise_from_the_button() -> None:
    """000: an indivisible chip goes to the player left of the button (first winner clockwise)."""
    holes = [["2d", "3c"], ["4d", "5c"], ["2h", "3s"]]
    # blinds 5/10; button calls, SB folds (5 dead), BB checks: 25 split by seats 0 and 2 (board plays).
    hand = make_hand([1000] * 3, 0, holes, ["As", "Ks", "Qs", "Js", "Ts"], blinds=(5, 10))
    play(hand, ["call", "fold", "check", "check", "check", "check", "check", "check", "check"])
    assert hand.complete
    pot = hand.pots[0]
    assert pot.amount == 25 and pot.winners == (0, 2) and pot.shares == (12, 13)


def test_spec_effective_stack_cap_heads_up_no_side_pot() -> None:
    """000 §下注: heads-up, at most what both can match goes in; the excess stays with its owner."""
    hand = make_hand([3000, 500], 0, [["As", "Ad"], ["Ks", "Kd"]], ["2c", "7h", "9s", "3d", "4c"])
    legal = hand.legal()
    assert legal.max_to == 500
    with pytest.raises(IllegalActionError, match="above the maximum raise to 500"):
        hand.act(parse_action("raise 501"))
    play(hand, ["allin", "call"])
    assert [(e.seat, e.amount) for e in hand.returned] == [(0, 2500)]
    assert pots_of(hand) == [(1000, [0, 1], [0])]
    assert hand.stacks == (3500, 0)
