"""The coach's equity against ranges with two or more opponents: one showdown against them all, not a product.

A product of heads-up equities told a learner that K♥Q♥ facing a raise six-handed had 7 % against the ranges
and 27 % against random hands, and 9♥2♦ 0.7 % against 9 %: a run-out that makes a hand beats most ranges at
once, so the product understates it many times over.  The coach (and the review, which reports the coach's
numbers) now shows the hand's share at one showdown against every range, as it does against random hands.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from taiwan_poker.coach.advice import advise
from taiwan_poker.strategy.estimate import equity
from taiwan_poker.strategy.multiway import share_per_runout
from taiwan_poker.strategy.particles import values
from taiwan_poker.strategy.policy import strategy
from taiwan_poker.strategy.postflop import table_equity
from taiwan_poker.strategy.reading import preflop_widths, read_range
from taiwan_poker.strategy.strength import preflop_rank
from tests.bots.spots import dealt, play, to_act


def test_one_showdown_against_several_opponents_pays_nothing_to_a_beaten_hand_and_splits_ties() -> None:
    rng = np.random.default_rng(5)
    raw = rng.dirichlet(np.ones(3), size=(3, 4))  # 3 opponents, 4 run-outs: win, tie, lose
    win, tie = raw[..., 0], raw[..., 1]
    got = share_per_runout(win, tie)
    for r in range(4):  # every outcome against each opponent: its chance, and the hand's share of the pot
        expected = 0.0
        for outcome in itertools.product(range(3), repeat=3):
            chance = float(np.prod([raw[j, r, o] for j, o in enumerate(outcome)]))
            expected += chance * (0.0 if 2 in outcome else 1.0 / (1 + outcome.count(1)))
        assert got[r] == pytest.approx(expected)
    assert not np.allclose(got, np.prod(win + tie / 2, axis=0)), "not the product of heads-up shares"


@pytest.mark.parametrize("hole", ["KhQh", "9h2d"])
def test_six_handed_before_the_flop_the_coach_shows_one_showdown_against_every_range(hole: str) -> None:
    hand = dealt(6, 2, 2, {0: hole})
    play(hand, "raise 50")  # the first to act raises; the seat faces it with four players behind
    v = to_act(hand)
    assert v.seat == 0 and len(v.opponents) == 5
    top, widths = preflop_rank(v.decks), preflop_widths(v)
    ranges = [read_range(v, s, widths.get(s), top) for s in v.opponents]
    truth = equity(v.hole, v.board, v.burns, v.decks, ranges, 60_000, np.random.default_rng(1))
    shown = advise(v).equity_range
    assert shown == pytest.approx(truth, abs=0.04), (shown, truth)  # 3,000 weighted deals against 60,000


@pytest.mark.parametrize(("hole", "board"), [("9h9d", "Ks7c2s"), ("AhJh", "Th7h2s"), ("6c5c", "Ks7c2s")])
def test_three_way_after_the_flop_the_coach_shows_one_showdown_against_the_read_ranges(hole: str, board: str
                                                                                         ) -> None:
    hand = dealt(6, 2, 2, {0: hole}, board)
    play(hand, "raise 50", "call", "call", "fold", "fold", "fold", "bet 100")  # the raiser bets the flop
    v = to_act(hand)
    assert v.seat == 0 and len(v.opponents) == 2
    st = strategy(v).situation
    assert st is not None
    # an independent estimate: deals drawn from the read itself, a run-out and a holding of each range at a time
    sr, rng = st.read.street, np.random.default_rng(2)
    known = {c.index for c in (*v.hole, *v.burns)}
    hv = values(np.array([[c.index for c in v.hole]], dtype=np.int64), sr.runouts)[0]
    shares = []
    while len(shares) < 20_000:
        r = int(rng.integers(sr.runouts.count))
        if known & set(sr.runouts.cards[r].tolist()):
            continue
        best, tied = -1, 0
        for s in v.opponents:
            rng_cards = sr.ranges[s].cards
            w = st.read.weights[s] * sr.ok[s][:, r] * ~np.isin(rng_cards, list(known)).any(axis=1)
            h = int(rng.choice(len(w), p=w / w.sum()))
            val = int(sr.vals[s][h, r])
            best, tied = (val, 1) if val > best else (best, tied + (val == best))
        mine = int(hv[r])
        shares.append(1.0 if mine > best else 1.0 / (tied + 1) if mine == best else 0.0)
    truth = float(np.mean(shares))
    shown = advise(v).equity_range
    assert shown == pytest.approx(table_equity(v, st))
    assert shown == pytest.approx(truth, abs=0.02), (shown, truth, st.equity)
