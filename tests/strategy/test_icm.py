"""Malmuth–Harville ICM (taiwan_poker.strategy.icm): textbook values, the pool conserved, each equity between the
smallest and the largest payout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taiwan_poker.strategy.icm import icm_equities, icm_equity


def test_textbook_three_players_50_30_20() -> None:
    # 5000/3000/2000 for 50/30/20: A is 1st 0.5, 2nd 0.3*5/7 + 0.2*5/8 = 0.3393, 3rd 0.1607 -> 38.393
    got = icm_equities((5000, 3000, 2000), (50, 30, 20))
    assert got == pytest.approx((38.392857, 32.75, 28.857143), abs=1e-6)


def test_winner_takes_all_is_the_chip_share() -> None:
    assert icm_equities((7000, 2000, 1000), (100,)) == pytest.approx((70.0, 20.0, 10.0))


def test_equal_stacks_share_the_pool_evenly() -> None:
    assert icm_equities((1500,) * 4, (65, 35)) == pytest.approx((25.0,) * 4)


def test_a_player_without_chips_takes_the_places_below_and_ties_share_them() -> None:
    assert icm_equities((5000, 0, 2000, 0), (50, 30, 20)) == pytest.approx((44.285714, 10.0, 35.714286, 10.0))
    assert icm_equity((3000, 0), (70, 30), 1) == 30.0


def test_a_negative_stack_is_refused() -> None:
    with pytest.raises(ValueError):
        icm_equities((100, -1), (1,))


@given(st.lists(st.integers(0, 20_000), min_size=2, max_size=6).filter(lambda s: sum(s) > 0),
       st.lists(st.integers(1, 1000), min_size=1, max_size=6))
def test_equities_sum_to_the_pool_and_lie_between_the_smallest_and_largest_payout(
        stacks: list[int], payouts: list[int]) -> None:
    pays = sorted(payouts, reverse=True)[: len(stacks)]
    padded = pays + [0] * (len(stacks) - len(pays))
    got = icm_equities(stacks, pays)
    assert sum(got) == pytest.approx(sum(pays))
    for x in got:
        assert min(padded) - 1e-9 <= x <= max(padded) + 1e-9
    # more chips never means less prize equity
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert got[i] >= got[j] - 1e-9
