"""Headless bot sit-and-gos on a fake clock (issue 46): chips conserved at every event, a place for every player,
places that follow the stacks at the start of the hand they busted in, payouts that add up to the prize pool, and
the log that folds to the same results. (The 1,000-tournament run is benchmarks/bench_tournaments.py.)"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taiwan_poker.bots.sit_and_go import Played, play_sit_and_go
from taiwan_poker.tables import TableState, chips_conserved, fold
from taiwan_poker.tables.events import LevelRaised, PlayersPlaced, TournamentFinished
from taiwan_poker.tables.schedules import PRESET, SitAndGo, default_payouts, preset
from taiwan_poker.tables.tournament import Place


def quick(name: str, minutes: int = 1) -> SitAndGo:
    """A preset's levels on a short clock, so a bot tournament ends in few hands."""
    base = preset(name)
    schedule = PRESET[name].schedule
    return SitAndGo(type(schedule)(schedule.levels, minutes, schedule.break_every, min(schedule.break_minutes, 1)),
                    default_payouts(), base.buy_in, name)


class Checks:
    """The invariants after every single event."""

    def __init__(self) -> None:
        self.events = 0
        self.levels: list[int] = []

    def __call__(self, state: TableState, event: Any) -> None:
        self.events += 1
        assert chips_conserved(state), f"chips conserved after {event}"
        if isinstance(event, LevelRaised):
            self.levels.append(event.level)
        if isinstance(event, PlayersPlaced):
            hand = state.hands[event.hand_no - 1]
            start = {seat: hand.initial_stacks[seat] for seat in event.seats}
            for a, pa in zip(event.seats, event.places, strict=True):
                for b, pb in zip(event.seats, event.places, strict=True):
                    if start[a] > start[b]:
                        assert pa < pb, "a bigger stack at the hand's start places better"
                    if start[a] == start[b]:
                        assert pa == pb, "equal stacks tie"


def check_results(played: Played, players: int, refold: bool = True) -> None:
    state = played.state
    t = state.tournament
    assert t is not None and t.finished and state.over
    assert sorted(p.member for p in t.places) == sorted(t.field) and len(t.field) == players, "a place for everyone"
    places = Counter(p.place for p in t.places)
    for place in places:  # competition ranking: a place is the number of players ahead of it, plus one
        assert sum(n for q, n in places.items() if q < place) == place - 1
    assert sum(p.payout for p in t.places) == t.prize_pool, "the payouts add up to the prize pool"
    finished = [e for e in played.events if isinstance(e, TournamentFinished)]
    assert len(finished) == 1 and finished[0].places[0] == 1
    winner = next(p for p in t.places if p.place == 1)
    assert state.stacks()[winner.seat] == sum(state.stacks()), "the winner holds every chip"
    if not refold:
        return
    again = fold(played.events)
    assert again.tournament == t and again.version == state.version, "the log folds to the same results"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), name=st.sampled_from(sorted(PRESET)),
       lag=st.floats(0, 20), level=st.sampled_from(["beginner", "solid"]))
def test_bot_sit_and_gos_conserve_chips_and_place_and_pay_everyone(players: int, seed: int, name: str, lag: float,
                                                                   level: str) -> None:
    checks = Checks()
    played = play_sit_and_go(quick(name), players, seed=seed, levels=(level, "beginner"), on_event=checks, lag=lag)
    check_results(played, players)
    assert checks.levels == sorted(checks.levels), "levels only rise"


def test_a_run_of_tournaments_of_two_to_six_players() -> None:
    """A smaller run of the benchmark's 1,000 (every field size, every preset)."""
    for i in range(5):
        players = 2 + i % 5
        played = play_sit_and_go(quick(sorted(PRESET)[i % 3]), players, seed=1000 + i, on_event=Checks())
        check_results(played, players, refold=False)


def test_places_are_plain_records() -> None:
    assert Place(1, 0, 1, 100)._asdict() == {"member": 1, "seat": 0, "place": 1, "payout": 100}


def test_heads_up_at_the_end_keeps_the_button_and_blind_rules_of_docs_rules_md() -> None:
    """The big blind moves on one player with chips each hand, also when players bust and at the switch to
    heads-up; heads-up the button posts the small blind."""
    from taiwan_poker.rules.pots import clockwise_after

    heads_up = 0
    for seed, players in ((5, 4), (6, 6), (7, 3)):
        state = play_sit_and_go(quick("turbo"), players, seed=seed).state
        hands = state.hands
        heads_up += sum(1 for h in hands if sum(1 for c in h.initial_stacks if c > 0) == 2)
        for last, hand in pairwise(hands):
            stacks = hand.initial_stacks
            expected = next(s for s in clockwise_after(last.bb_seat, len(stacks)) if stacks[s] > 0)
            assert hand.bb_seat == expected, (last.hand_no, hand.hand_no)
            if sum(1 for c in stacks if c > 0) == 2:
                assert hand.button == hand.sb_seat, "heads-up the button posts the small blind"
    assert heads_up > 0, "some went heads-up"
