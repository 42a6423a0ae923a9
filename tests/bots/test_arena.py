"""The arena: duplicate matches are zero-sum between identical players, all-in scoring keeps the chips, probes."""

from __future__ import annotations

import random

import numpy as np
import pytest

from taiwan_poker.rules import ALLIN, CALL, ActionKind, Hand, RuleSet
from taiwan_poker.rules.events import ActionTaken
from taiwan_poker_lab.arena import (
    SIZES,
    allin_ev,
    duplicate_heads_up,
    duplicate_ring,
    fold_spots,
    fold_to_size,
    percentiles,
    play_to_end,
)
from taiwan_poker_lab.exploiters import EXPLOITERS, bully, folder, jammer, min_raiser, station

from .spots import dealt, play

DETERMINISTIC = ["jammer", "bully", "bully-caller", "station", "maniac", "shove-fold", "min-raiser", "prober"]


@pytest.mark.parametrize("name", DETERMINISTIC)
@pytest.mark.parametrize("ev", [False, True])
def test_the_duplicate_runners_are_zero_sum_for_identical_players(name: str, ev: bool) -> None:
    """Each deal is played in every seating: a player against itself wins exactly nothing, deal by deal."""
    policy = EXPLOITERS[name]
    heads_up = duplicate_heads_up(RuleSet(decks=2, seats=2), policy, policy, 12, seed=1, allin_ev=ev)
    ring = duplicate_ring(RuleSet(decks=3, seats=6), policy, policy, 3, seed=1, allin_ev=ev)
    assert heads_up.hands == 24 and ring.hands == 18
    assert heads_up.units == pytest.approx([0.0] * 12, abs=1e-9)
    assert ring.units == pytest.approx([0.0] * 3, abs=1e-9)


def test_duplicate_runners_swap_seats_so_a_player_beats_the_folder_by_the_blinds() -> None:
    tally = duplicate_heads_up(RuleSet(decks=2, seats=2), jammer, folder, 10, seed=2)
    assert tally.units == [0.75] * 10, "half a big blind as the button, one as the big blind"


def test_all_in_scoring_is_the_expected_share_of_the_pot_and_keeps_the_chips() -> None:
    hand = play(dealt(2, 0, 2, {0: "AsAd", 1: "7c2h"}, "KcQs8h4c3s"), "allin", "call")
    assert hand.complete
    ev = allin_ev(hand, np.random.default_rng(0))
    assert ev is not None and sum(ev) == pytest.approx(0.0)
    assert 0.8 < (ev[0] + 2000) / 4000 < 0.9, "aces against seven-deuce: about 87 % of the pot"
    turn = play(dealt(2, 0, 2, {0: "AsKd", 1: "QcQh"}, "2c7d9hJs3c"), "call", "check", "check", "check",
                "check", "allin", "call")
    ev = allin_ev(turn, np.random.default_rng(0))
    assert ev is not None and ev[0] + ev[1] == pytest.approx(0.0)
    assert ev[0] == pytest.approx(4000 * 14 / 96 - 2000), "7 aces and 7 kings left among 96 unseen cards"
    no_runout = play(dealt(2, 0, 2, {0: "AsAd", 1: "7c2h"}), "fold")
    assert allin_ev(no_runout, np.random.default_rng(0)) is None


def test_all_in_scoring_keeps_side_pots_in_a_six_handed_hand() -> None:
    rules = RuleSet(decks=4, seats=6)
    for seed in range(6):
        stacks = [300, 2000, 800, 2000, 150, 5000]
        hand = play_to_end(Hand.start(rules, stacks, seed % 6, rng=random.Random(seed)), [jammer] * 6,
                           [random.Random(seed)] * 6)
        ev = allin_ev(hand, np.random.default_rng(seed), samples=500)
        assert ev is not None and sum(ev) == pytest.approx(0.0, abs=1e-6)
        for seat, chips in enumerate(stacks):
            assert -chips - 1e-9 <= ev[seat], "nobody loses more than their stack"


def test_the_fold_probe_scripts_each_size_and_reads_the_answer() -> None:
    rules = RuleSet(decks=2, seats=2)
    spots = fold_to_size(rules, folder, 40, seed=1)
    assert spots and all(s.folded for s in spots) and all(s.equity is not None for s in spots)
    assert {s.size for s in spots} <= set(SIZES) and {s.street for s in spots} <= {0, 1, 2, 3}
    for s in spots:
        assert 0 < s.price < s.cap < 1
    assert not any(s.folded for s in fold_to_size(rules, station, 30, seed=1, evaluate=False))


def test_each_trial_bets_every_size_and_the_one_chip_bet_is_a_one_chip_all_in_of_the_same_deal() -> None:
    rules = RuleSet(decks=2, seats=2)
    for trial in range(200):
        spots = fold_spots(rules, min_raiser, trial, seed=3)  # pots of 120 and more: a third of it above 1 BB
        if spots and spots[0].view.street > 0 and spots[1].view.pot >= 140:
            assert [s.size for s in spots] == list(SIZES) and spots[0].answer == CALL
            one = spots[0]
            assert one.view.call_amount == 1 and one.view.board == spots[1].view.board
            last = one.hand.events[-1]
            assert isinstance(last, ActionTaken) and last.kind is ActionKind.ALLIN and last.amount == 1
            bets = [s.view.call_amount for s in spots[1:]]
            pot = spots[1].view.pot - bets[0]
            assert bets == [20, max(20, round(pot / 3)), pot, 2 * pot], "1 BB, a third, the pot, twice the pot"
            return
    pytest.fail("no post-flop spot in 200 trials")


def test_the_probe_sees_the_bully_fold_to_every_bet_after_the_flop() -> None:
    spots = fold_to_size(RuleSet(decks=2, seats=2), bully, 60, seed=2, evaluate=False)
    assert all(s.folded for s in spots if s.street > 0), "the bully folds after the flop to any bet"


def test_percentiles_by_nearest_rank() -> None:
    assert percentiles(list(range(1, 101)), (0.5, 0.95)) == [51, 96]
    assert percentiles([], (0.5,)) == [0.0]
    assert ALLIN.kind is ActionKind.ALLIN
