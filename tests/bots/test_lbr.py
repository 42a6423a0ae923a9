"""Local Best Response: it beats simple policies clearly, its range is Bayes' rule, its estimates are sound."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from taiwan_poker.bots.policies import random_legal
from taiwan_poker.cards import Card, parse_cards
from taiwan_poker.evaluate import hand_value
from taiwan_poker.rules import ALLIN, CALL, CHECK, FOLD, Action, ActionKind, RuleSet
from taiwan_poker.strategy.seat import SeatView
from taiwan_poker_lab.arena import lbr_heads_up
from taiwan_poker_lab.exploiters import folder, station
from taiwan_poker_lab.lbr import (
    DistributionPolicy,
    LbrSettings,
    LocalBestResponse,
    OpponentRange,
    SampledDistribution,
    action_key,
    as_distribution,
    posterior,
    strip,
    unseen,
    win_probability,
)

from .spots import dealt, play, to_act

SMALL = LbrSettings(particles=24, preflop_particles=120, rollouts=400)


def test_lbr_takes_the_blinds_of_a_player_who_always_folds() -> None:
    """The paper's reference: folding every hand loses 750 mbb/g (0.75 big blinds a hand)."""
    tally = lbr_heads_up(RuleSet(decks=2, seats=2), folder, 10, seed=3, settings=SMALL)
    assert tally.bb_per_100 == pytest.approx(75.0)


def test_lbr_beats_a_calling_station_by_a_wide_margin() -> None:
    tally = lbr_heads_up(RuleSet(decks=3, seats=2), station, 16, seed=5, settings=SMALL)
    assert tally.bb_per_100 - tally.ci95 > 200, f"{tally.bb_per_100:+.0f} ± {tally.ci95:.0f} bb/100"


class Raiser:
    """A known distribution: raises aces always, kings half the time, anything else one time in ten."""

    def distribution(self, view: SeatView, rng: random.Random) -> list[tuple[Action, float]]:
        rank = max(c.rank for c in view.hole)
        p = 1.0 if rank == 12 else 0.5 if rank == 11 else 0.1
        raise_to = Action(ActionKind.RAISE, 3 * view.current_bet)
        return [(raise_to, p), (CALL, 1 - p)] if p < 1 else [(raise_to, 1.0)]


def _particles(*texts: str, decks: int = 2) -> OpponentRange:
    rows = [[c.index for c in parse_cards([t[0:2], t[2:4], t[4:6]], decks)] for t in texts]
    return OpponentRange(np.array(rows, dtype=np.int64), np.ones(len(rows)))


def test_the_range_update_is_bayes_rule_on_a_constructed_case() -> None:
    """Prior 1 : 2 : 1 on an ace, a king and a seven-high hand; a raise (probabilities 1, 0.5, 0.1) gives
    1 : 1 : 0.1; a call next (0, 0.5, 0.9) gives 0 : 0.5 : 0.09."""
    view = strip(to_act(dealt(2, 0, 2, {0: "2c3d"})))
    opp = _particles("AsQd4c", "KsJd4h", "7s5d3c")
    opp.weights = np.array([1.0, 2.0, 1.0])
    model = Raiser()
    opp.update(model, view, Action(ActionKind.RAISE, 60), random.Random(0))
    assert opp.normalised() == pytest.approx(np.array([1.0, 1.0, 0.1]) / 2.1)
    opp.update(model, view, CALL, random.Random(0))
    assert opp.normalised() == pytest.approx(np.array([0.0, 0.5, 0.09]) / 0.59)
    opp.exclude(parse_cards(["3c"], 2))
    assert opp.normalised() == pytest.approx([0.0, 1.0, 0.0]), "a card seen on the board: no holding burned it"
    again = opp.resample(8, np.random.default_rng(0))
    assert (again.cards == opp.cards[1]).all() and again.normalised() == pytest.approx([1 / 8] * 8)


def test_the_posterior_matches_bayes_rule_over_many_particles() -> None:
    """Uniform prior over unseen cards, one raise: the share of ace-high holdings is P(A)·1 / (P(A)·1 + ...)."""
    view = strip(to_act(dealt(2, 0, 2, {0: "2c3d"})))
    rng = random.Random(4)
    opp = posterior(Raiser(), parse_cards(["2c", "3d", "4h"], 2), 2, [(view, Action(ActionKind.RAISE, 60))], rng,
                    preflop=20_000)
    top = np.max(opp.cards[:, :2] % 52 // 4, axis=1)
    prior = {12: 0.0, 11: 0.0, 0: 0.0}
    pool = unseen(parse_cards(["2c", "3d", "4h"], 2), 2)
    for a, b in combinations(pool.tolist(), 2):
        r = max(a % 52 // 4, b % 52 // 4)
        prior[12 if r == 12 else 11 if r == 11 else 0] += 1
    total = sum(prior.values())
    exact = prior[12] / (prior[12] + 0.5 * prior[11] + 0.1 * prior[0])
    assert opp.normalised()[top == 12].sum() == pytest.approx(exact, abs=0.02)
    assert exact > prior[12] / total + 0.2, "the raise moved the range a lot"


def test_the_estimated_distribution_sums_to_one_and_is_cached() -> None:
    view = to_act(play(dealt(2, 0, 3, {1: "9s8s"}, "7s6d2h"), "call", "check"))
    model = SampledDistribution(random_legal, samples=(8, 5, 5, 5))
    dist = model.distribution(view, random.Random(0))
    assert sum(p for _, p in dist) == pytest.approx(1.0) and len(dist) > 1
    assert all(p * 5 == round(p * 5) for _, p in dist), "flop: five seeded calls"
    calls = model.calls
    assert model.distribution(view, random.Random(1)) is dist and model.calls == calls, "cached per view"
    one = as_distribution(station).distribution(view, random.Random(0))
    assert one == [(CHECK, 1.0)]


def test_a_policy_that_tells_its_distribution_bypasses_the_estimate() -> None:
    model = Raiser()
    assert isinstance(model, DistributionPolicy) and as_distribution(model) is model
    assert isinstance(as_distribution(station), SampledDistribution)


def test_action_keys_read_an_all_in_as_the_call_or_raise_it_is() -> None:
    short = to_act(play(dealt(2, 0, 2, {0: "2c3d"}, stacks=[50, 2000]), "call", "allin"))
    assert action_key(short, ALLIN) == action_key(short, CALL) == 50, "all in for less: a call to 50"
    deep = to_act(dealt(2, 0, 2, {0: "2c3d"}))
    assert action_key(deep, ALLIN) == action_key(deep, Action(ActionKind.RAISE, 2000)) == 2000
    assert action_key(deep, FOLD) == -1


def test_win_probability_matches_an_exact_count_with_physical_cards() -> None:
    """Turn, 2 decks: a straight draw against pocket tens.  The hero's own burn (a five) and the opponent's three
    cards (two tens and a five) are outs that leave the river's deck: 12 outs of 94 cards, not 15 of 97."""
    hole, burn = parse_cards(["8c", "9c"], 2), parse_cards(["5c"], 2)
    board = parse_cards(["6d", "7s", "Kh", "2c"], 2)
    opp = _particles("TsTd5h")
    shares = []
    taken = {c.index for c in (*hole, *burn, *board)} | set(opp.cards[0].tolist())
    for river in range(104):
        if river in taken:
            continue
        cards = [*board, Card.from_index(river)]
        mine = hand_value([*hole, *cards])
        theirs = hand_value([Card.from_index(int(i)) for i in opp.cards[0, :2]] + cards)
        shares.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    exact = sum(shares) / len(shares)
    assert exact == pytest.approx(12 / 94)
    est = win_probability(hole, burn, board, 2, opp, 40_000, np.random.default_rng(0))
    assert est == pytest.approx(exact, abs=0.004)


def test_lbr_bets_into_a_range_that_always_folds_and_folds_a_loser_to_a_big_bet() -> None:
    class Folds:
        def distribution(self, view: SeatView, rng: random.Random) -> list[tuple[Action, float]]:
            return [(FOLD, 1.0)] if view.call_amount else [(CHECK, 1.0)]

    hand = play(dealt(2, 0, 2, {0: "QsJs", 1: "7c2d"}, "AsKhQd"), "call", "check")
    lbr = LocalBestResponse(Folds(), SMALL, random.Random(0))
    lbr.new_hand(parse_cards(["7c", "2d"], 2), [], 2)
    view = to_act(hand)
    action = lbr.decide(view, lambda a: strip(to_act(play(hand.fork(), str(a)))))
    assert action.kind in (ActionKind.BET, ActionKind.ALLIN) and lbr.last_utilities[action] == view.pot
    facing = play(dealt(2, 0, 2, {0: "7c2d"}, "AsKhQd"), "call", "check", "bet 400")
    lbr = LocalBestResponse(Folds(), SMALL, random.Random(0))
    lbr.new_hand(parse_cards(["7c", "2d"], 2), [], 2)
    lbr.range = _particles("AcAd5s", "KcKd5s")
    assert lbr.decide(to_act(facing), lambda a: None) == FOLD


def test_an_lbr_hand_tells_its_trace_every_decision_with_the_opponents_distribution() -> None:
    """The diagnostic hook of ``lbr_hand`` (benchmarks/lbr_jams.py reads LBR's all-ins through it): every decision
    of the hand, in order, before it is applied, with the opponent's distribution at its own decisions and none
    at LBR's; the hand's result does not change for being traced."""
    from taiwan_poker.bots.policies import solid
    from taiwan_poker.rules import Hand
    from taiwan_poker.rules.events import ActionTaken
    from taiwan_poker_lab.arena import Memory, lbr_hand
    from taiwan_poker_lab.lbr import ActionDistribution, as_distribution

    rules = RuleSet(decks=2, seats=2)
    model = as_distribution(solid, 2, 0)
    for deal in range(4):
        seen: list[tuple[int, Action, bool, int]] = []
        finals: list[int] = []

        def trace(hand: Hand, view: SeatView, action: Action, dist: ActionDistribution | None,
                  seen: list[tuple[int, Action, bool, int]] = seen, finals: list[int] = finals) -> None:
            seen.append((view.seat, action, dist is not None, len(hand.events)))
            if dist is not None:
                assert abs(sum(p for _, p in dist) - 1.0) < 1e-9
            finals.append(len([e for e in hand.events if isinstance(e, ActionTaken)]))

        traced = lbr_hand(rules, model, model, 0, deal % 2, 90 + deal, memory=Memory(), scores=[], trace=trace)
        plain = lbr_hand(rules, model, model, 0, deal % 2, 90 + deal, memory=Memory(), scores=[])
        assert traced == plain
        assert seen and all(told == (seat != 0) for seat, _, told, _ in seen)
        assert finals == list(range(len(seen)))  # told before each decision is applied, one at a time
