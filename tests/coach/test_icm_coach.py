"""The coach in a sit-and-go (docs/tournaments.md, "Bots and coach"): push-or-fold advice when short, the ICM value
of each option near the money and not far from it, the same numbers when recomputed."""

from __future__ import annotations

import pytest

from taiwan_poker.coach.advice import advise
from taiwan_poker.coach.tournament import (
    TournamentSeat,
    icm_advice,
    near_money,
    settle,
    tournament_seat,
)
from taiwan_poker.strategy.icm import icm_equities
from taiwan_poker.strategy.push_fold import push_fold_spot
from taiwan_poker.strategy.seat import SeatView
from taiwan_poker.tables.schedules import default_payouts, preset
from taiwan_poker.tables.tournament import Place, Tournament
from tests.bots.test_push_fold_bots import watched

SIX = TournamentSeat((390, 210, 0, 0, 0, 0), 2)  # a six-player sit-and-go of 100 points paying 65/35


def seat_for(v: SeatView, full: TournamentSeat = SIX) -> TournamentSeat:
    return TournamentSeat(full.payouts[: len(v.dealt)], full.places_paid)


def views(left: int) -> list[SeatView]:
    return [v for v in watched(True).views if len(v.dealt) == left]


def test_near_the_money_is_players_left_at_most_places_paid_plus_two() -> None:
    assert near_money(4, 2) and near_money(2, 2) and near_money(3, 1)
    assert not near_money(5, 2) and not near_money(6, 2)


def test_the_coach_reads_the_payouts_of_the_places_still_to_be_decided() -> None:
    t = Tournament(preset("turbo"), field=(1, 2, 3, 4, 5, 6), places=(Place(6, 5, 6, 0), Place(5, 4, 5, 0)))
    assert tournament_seat(t) == TournamentSeat((390, 210, 0, 0), 2)
    assert default_payouts()  # the default table pays 65/35 at six


def facing(v: SeatView) -> int:
    spot = push_fold_spot(v)
    assert spot is not None
    return spot.facing


def test_the_coach_shows_icm_near_the_money() -> None:
    near = [v for n in (2, 3, 4) for v in views(n) if facing(v) <= 1]
    assert near
    for v in near:
        advice = advise(v, tournament=seat_for(v))
        assert advice.push_fold and advice.icm is not None, v
        got = advice.icm.to_json()
        assert {o["action"] for o in got["options"]} in ({"allin", "fold"}, {"call", "fold"})
        pays = list(advice.icm.payouts)
        for o in advice.icm.options:
            assert min(pays) - 1e-6 <= o.icm <= max(pays) + 1e-6
            assert 0 <= o.chips <= sum(v.start_stacks)


def test_facing_two_all_ins_the_coach_shows_no_icm_a_three_way_showdown_it_does_not_model() -> None:
    v = next(v for v in watched(True).views if facing(v) >= 2)
    assert icm_advice(v, TournamentSeat((1,) * len(v.dealt), len(v.dealt))) is None


def test_the_coach_shows_no_icm_far_from_the_money_but_still_pushes_or_folds() -> None:
    far = views(6) + views(5)
    assert far
    for v in far:
        advice = advise(v, tournament=seat_for(v))
        assert advice.icm is None and advice.push_fold
        assert {m[0] for m in advice.mix} <= {"fold", "allin", "call", "check"}
        assert advice.to_json()["icm"] is None


def test_at_a_cash_table_the_coach_neither_pushes_or_folds_nor_shows_icm() -> None:
    v = next(v for v in views(4) if facing(v) <= 1)
    advice = advise(v)
    assert advice.icm is None and not advice.push_fold


def test_the_same_decision_gets_the_same_advice_when_recomputed() -> None:
    v = next(v for v in views(4) if facing(v) <= 1)
    assert advise(v, tournament=seat_for(v)).to_json() == advise(v, tournament=seat_for(v)).to_json()


def test_winner_takes_all_icm_is_the_chip_share_of_the_pool() -> None:
    # with one place paid the prize equity is linear in chips: each option's ICM is its chips over the total
    for v in [v for v in views(2) + views(3) if facing(v) <= 1]:
        t = TournamentSeat((600,) + (0,) * (len(v.dealt) - 1), 1)
        icm = icm_advice(v, t)
        assert icm is not None
        total = sum(v.start_stacks)
        for o in icm.options:
            assert o.icm == pytest.approx(600 * o.chips / total, rel=1e-9)


def test_folding_is_worth_the_icm_of_the_stacks_it_leaves() -> None:
    v = next(v for v in views(4) if facing(v) <= 1)
    icm = icm_advice(v, seat_for(v))
    assert icm is not None
    fold = next(o for o in icm.options if o.action == "fold")
    assert fold.chips == v.stacks[v.seat]
    live = [s for s in range(len(v.stacks)) if s in v.dealt]
    assert icm.icm_now == pytest.approx(icm_equities([v.start_stacks[s] for s in live], icm.payouts)[
        live.index(v.seat)])


def test_a_showdown_settles_side_pots_and_conserves_chips() -> None:
    start = [1000, 400, 300]
    put = [400.0, 400.0, 20.0]  # seat 0 covers seat 1's all-in; seat 2's blind is dead
    won = settle(start, put, 1, 0)
    assert won == [600.0, 820.0, 280.0]
    lost = settle(start, put, 0, 1)
    assert lost == [1420.0, 0.0, 280.0]
    short = settle([1000, 150, 300], [150.0, 150.0, 20.0], 1, 0)  # the short stack wins the main pot only
    assert short == [850.0, 320.0, 280.0] and sum(short) == 1450
    # a bigger stack's chips nobody matched go back to it, whoever wins the main pot
    uncalled = settle([1000, 150, 300], [400.0, 150.0, 20.0], 1, 0)
    assert uncalled == [850.0, 320.0, 280.0]
