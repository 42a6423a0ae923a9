"""The one-bet game Strong solves heads-up when it faces a bet after the flop (issue 22, item 3: defend the size
faced; "you may solve small post-flop subgames at decision time"), checked on games whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest

from taiwan_poker.strategy.defence import bettor_adds, solve


def clairvoyance(nuts: float, n: int = 100) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The river's classic: the bettor holds the nuts (a ``nuts`` share of its range) or air; every defender
    hand catches bluffs only.  The defender's equity is 0 against the nuts, 1 against air."""
    bettor_nuts = np.arange(n) < round(nuts * n)
    eq = np.where(bettor_nuts[None, :], 0.0, 1.0) * np.ones((n, 1))
    return eq, np.ones((n, n), dtype=bool), np.ones(n), bettor_nuts


@pytest.mark.parametrize("size", [0.5, 1.0, 2.0])
def test_against_nuts_or_air_the_defence_calls_so_a_bluff_breaks_even(size: float) -> None:
    """Bet ``s`` pots: the defender calls 1 / (1 + s) of its range (a bluff then breaks even), and the bettor's
    range at the size holds bluffs at s / (1 + 2s) of it (the defender's call then breaks even)."""
    pot = 1000
    eq, valid, d, bettor_nuts = clairvoyance(0.3)
    res = solve(eq, valid, d, np.ones(len(d)), pot, 0, [round(size * pot)], iterations=2000)
    assert res.fold_share == pytest.approx(size / (1 + size), abs=0.03)
    node = res.bettor / res.bettor.sum()
    bluffs = float(node[~bettor_nuts].sum())
    assert bluffs == pytest.approx(size / (1 + 2 * size), abs=0.03)
    assert res.exploitability < 0.01 * pot


def test_a_bettor_who_never_has_the_goods_is_called_by_every_hand_that_beats_it() -> None:
    """All air: betting cannot be worth anything, and the defender never folds to it."""
    eq, valid, d, _ = clairvoyance(0.0)
    res = solve(eq, valid, d, np.ones(len(d)), 100, 0, [100, 300])
    assert res.fold_share < 0.05


def test_the_average_strategy_approaches_an_equilibrium() -> None:
    """A river of strengths drawn at random: exploitability falls as the iterations grow, to a small share of
    the pot."""
    rng = np.random.default_rng(3)
    sd, sr = rng.random(96), rng.random(80)
    eq = (sd[:, None] > sr[None, :]).astype(np.float64)
    valid = np.ones(eq.shape, dtype=bool)
    adds = bettor_adds(200, 0, 200, 4000, 4000)
    gaps = [solve(eq, valid, np.ones(96), np.ones(80), 200, 0, adds, iterations=t).exploitability
            for t in (10, 80, 640)]
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[2] < 0.02 * 200


def test_a_raise_over_a_bet_is_solved_with_the_fold_the_raiser_had() -> None:
    """The bettor faced a bet of 100 and raised: folding was its passive choice.  Against a defender whose bet
    was all nuts, a raise can only lose (it is called), so the raiser folds or calls and the raise node reads
    as nearly nothing."""
    n = 60
    eq = np.ones((n, n))  # the defender wins every pair
    res = solve(eq, np.ones((n, n), dtype=bool), np.ones(n), np.ones(n), 300, 100, [300])
    assert float(res.bettor.sum()) < 0.05 * n
    assert res.fold_share < 0.05  # and it would call the raise with every hand


def test_a_raise_over_the_defenders_bet_is_answered_at_the_raises_own_price() -> None:
    """The defender bet 100 (the pot is now 300) and the bettor, nuts or air, raises so the defender must add
    300 more.  Air then breaks even against folding when the defender folds (100 + 300) / (300 + 100 + 300) of
    its range, and the defender's call breaks even when bluffs are 300 / (300 + 100 + 600) of the raises."""
    eq, valid, d, bettor_nuts = clairvoyance(0.3)
    res = solve(eq, valid, d, np.ones(len(d)), 300, 100, [300], iterations=2000)
    assert res.fold_share == pytest.approx(400 / 700, abs=0.03)
    node = res.bettor / res.bettor.sum()
    assert float(node[~bettor_nuts].sum()) == pytest.approx(0.3, abs=0.03)


def test_pairs_that_share_a_physical_card_do_not_count() -> None:
    """Holdings that share a card never meet: a defender that can only meet the bettor's nuts folds to a bet,
    whatever the equity table says of the impossible pairs with air."""
    n = 40
    eq, valid, d, bettor_nuts = clairvoyance(0.3, n)
    valid[:, ~bettor_nuts] = False  # every air holding is card-blocked ...
    eq[:, ~bettor_nuts] = 1.0  # ... so these "wins" are impossible
    res = solve(eq, valid, d, np.ones(n), 100, 0, [100], iterations=400)
    assert res.fold_share > 0.95


def test_the_sizes_offered_are_the_bet_made_then_half_the_pot_the_pot_and_all_in() -> None:
    assert bettor_adds(100, 0, 100, 2000, 2000) == [100, 50, 2000]  # the pot merges with the bet made
    assert bettor_adds(100, 0, 30, 2000, 2000) == [30, 50, 100, 2000]
    assert bettor_adds(300, 100, 300, 1000, 500) == [300, 200, 400, 500]  # capped by what the defender can call
    assert bettor_adds(100, 0, 40, 40, 2000) == [40]  # the bettor was all in
