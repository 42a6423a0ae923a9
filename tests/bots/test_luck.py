"""The luck-adjusted score of LBR's hands (issue 22: LBR's intervals): each term has mean zero, so the score is
unbiased; it follows the result closely enough to leave less variance."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from taiwan_poker.cards import Card, parse_cards
from taiwan_poker.rules import CALL, CHECK, FOLD, Action, RuleSet
from taiwan_poker.strategy.legal import pot_fraction, raise_to
from taiwan_poker.strategy.seat import SeatView
from taiwan_poker_lab.arena import lbr_heads_up, mean_ci
from taiwan_poker_lab.lbr import LbrSettings, unseen
from taiwan_poker_lab.luck import LuckAdjuster, share_against, showdown_share

from .spots import dealt, play, to_act

SMALL = LbrSettings(particles=16, preflop_particles=80, rollouts=300)


class Mixer:
    """A known mixed distribution whatever the cards: facing a bet folds 30 %, calls 50 %, raises to the pot
    20 %; else checks 60 %, bets the pot 40 %."""

    def distribution(self, view: SeatView, rng: random.Random) -> list[tuple[Action, float]]:
        if view.call_amount > 0:
            big = raise_to(view, view.current_bet + view.pot + view.call_amount)
            return [(FOLD, 0.3), (CALL, 0.5), (big, 0.2)]
        return [(CHECK, 0.6), (pot_fraction(view, 1.0), 0.4)]


def test_a_known_players_decision_moves_the_score_by_nothing_on_average() -> None:
    """At a decision of the player whose probabilities are known, the score's term averages to zero over its
    distribution."""
    hand = dealt(2, 0, 2, {0: "AsKd", 1: "QhQc"}, "2c7d9hJs3d")
    play(hand, "call", "check", "check", "check", "check", "check", "check")  # to the river, checked to seat 0
    luck = LuckAdjuster(hand, 0, np.random.default_rng(1))
    play(hand, "bet 40")
    view = to_act(hand)
    assert view.seat == 1 and view.street == 3
    dist = Mixer().distribution(view, random.Random(0))
    moved = []
    for action, _ in dist:
        fork, branch = hand.fork(), copy.deepcopy(luck)
        branch.decision(fork, view, dist)
        fork.act(action)
        branch.acted(fork, action)
        moved.append(branch.correction - luck.correction)
    assert sum(p * m for (_, p), m in zip(dist, moved, strict=True)) == pytest.approx(0.0, abs=1e-9)
    assert max(moved) - min(moved) > 10  # the terms themselves are not all zero


@pytest.mark.parametrize("decks", [2, 6])
def test_the_share_after_a_card_averages_to_the_share_before_it(decks: int) -> None:
    """The street term's mean is zero: over every card the shoe may deal next (each physical card alike, two
    A♠ counted twice), the share after it averages to the share before it, from the flop and from the turn."""
    rng = np.random.default_rng(0)
    mine, theirs = parse_cards(["Ah", "Kh"], decks), parse_cards(["Qs", "Qd"], decks)
    board = parse_cards(["Qh", "7h", "2c"], decks)
    for shown in (board, [*board, parse_cards(["Jh"], decks)[0]]):
        dealt = [*mine, *theirs, *shown]
        before = share_against(mine, theirs, dealt, shown, decks, rng)
        nexts = [Card.from_index(int(i)) for i in unseen(dealt, decks)]
        after = [share_against(mine, theirs, [*dealt, c], [*shown, c], decks, rng) for c in nexts]
        assert 0.05 < before < 0.95
        assert float(np.mean(after)) == pytest.approx(before, abs=1e-12)


def test_a_street_dealt_moves_the_score_by_the_shares_move_times_the_matched_pot() -> None:
    """The street term: ``(share after − share before) · 2m``, ``m`` the chips both have matched."""
    hand = dealt(2, 0, 2, {0: "AsKd", 1: "QhQc"}, "2c7d9hKsJs")
    play(hand, "raise 60", "call", "check")  # on the flop, the big blind checked
    luck = LuckAdjuster(hand, 0, np.random.default_rng(1))
    before, base = luck.share(hand), luck.correction
    play(hand, "check")  # checked through: the turn comes
    luck.acted(hand, CHECK)
    after = luck.share(hand)
    assert len(hand.board) == 4 and after > before + 0.2  # the K pairs the ace-king
    assert luck.correction - base == pytest.approx((after - before) * 2 * 60)


def test_the_showdown_share_counts_every_run_out_from_the_flop() -> None:
    """The share is exact once the flop is out: the made hand on the river is 1, 0 or ½ (ties split)."""
    hand = dealt(2, 0, 2, {0: "AsAd", 1: "KhKc"}, "Ac7d9h2s3d")
    play(hand, "call", "check", "check", "check", "check", "check", "check", "check")
    assert hand.complete
    assert showdown_share(hand, 0, np.random.default_rng(0)) == 1.0
    assert showdown_share(hand, 1, np.random.default_rng(0)) == 0.0


def test_the_luck_score_agrees_with_the_result_and_has_less_variance() -> None:
    """Over LBR's hands against a mixed player, the adjusted mean lies within the noise of the result's (the
    terms have mean zero) and its variance is clearly lower."""
    tally = lbr_heads_up(RuleSet(decks=2, seats=2), Mixer(), 60, seed=11, settings=SMALL, luck=True)
    raw, adjusted = np.array(tally.units), np.array(tally.adjusted)
    assert len(raw) == len(adjusted) == 60
    diff = raw - adjusted
    assert abs(diff.mean()) < 2.5 * diff.std(ddof=1) / np.sqrt(len(diff)) + 1e-9
    assert adjusted.var(ddof=1) < 0.7 * raw.var(ddof=1), (raw.var(ddof=1), adjusted.var(ddof=1))
    assert mean_ci(tally.adjusted)[1] < tally.ci95
