"""Headless bot matches through the engine (no HTTP), in the duplicate format for measuring strength.

Every hand starts with fresh stacks of ``rules.starting_stack``.  In the
duplicate format each deal (one seeded shoe and button) is played once for
each seating of the bots, so luck of the cards cancels: heads-up the two bots
swap seats; six-handed the bot under test sits in each of the six seats in
turn against the same five baselines.  Bots decide from their seat's view only
(:func:`~taiwan_poker.strategy.seat.seat_view`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules.hand import Hand
from ..rules.ruleset import RuleSet
from ..strategy.seat import seat_view
from .policies import Policy


def play_to_end(hand: Hand, policies: Sequence[Policy], rngs: Sequence[random.Random],
                timings: list[float] | None = None, timed_seats: frozenset[int] = frozenset()) -> Hand:
    """Let each seat's policy act, from its seat's view, until the hand is over (an illegal action raises)."""
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        t0 = time.perf_counter()
        action = policies[seat](seat_view(hand, seat), rngs[seat])
        if timings is not None and seat in timed_seats:
            timings.append(time.perf_counter() - t0)
        hand.act(action, seat=seat)
    return hand


def play_hand(rules: RuleSet, policies: Sequence[Policy], button: int, deal_seed: int,
              decide_seeds: Sequence[int], timings: list[float] | None = None,
              timed_seats: frozenset[int] = frozenset()) -> list[int]:
    """One hand from fresh stacks; each seat's chips won (negative: lost)."""
    stacks = [rules.starting_stack] * rules.seats
    hand = Hand.start(rules, stacks, button, rng=random.Random(deal_seed))
    play_to_end(hand, policies, [random.Random(s) for s in decide_seeds], timings, timed_seats)
    return [after - before for after, before in zip(hand.stacks, stacks, strict=True)]


@dataclass
class Tally:
    """Per-deal results of the bot under test, in big blinds per hand, and how long the hands took."""

    units: list[float] = field(default_factory=list)
    hands: int = 0
    seconds: float = 0.0
    timings: list[float] = field(default_factory=list)

    @property
    def bb_per_100(self) -> float:
        return 100 * sum(self.units) / len(self.units) if self.units else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95 % confidence interval of :attr:`bb_per_100` (deals are independent)."""
        n = len(self.units)
        if n < 2:
            return math.inf
        mean = sum(self.units) / n
        var = sum((u - mean) ** 2 for u in self.units) / (n - 1)
        return 100 * 1.96 * math.sqrt(var / n)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def duplicate_heads_up(rules: RuleSet, hero: Policy, villain: Policy, deals: int, seed: int = 0,
                       tally: Tally | None = None) -> Tally:
    """``deals`` deals, each played twice with the seats swapped; units are the hero's big blinds per hand."""
    tally = tally or Tally()
    bb = rules.big_blind
    t0 = time.perf_counter()
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        button = d % 2
        net = 0
        for hero_seat in (0, 1):
            seats = [hero, villain] if hero_seat == 0 else [villain, hero]
            decide = [deal_seed * 4 + hero_seat * 2 + s for s in (0, 1)]
            net += play_hand(rules, seats, button, deal_seed, decide, tally.timings, frozenset({hero_seat}))[hero_seat]
        tally.units.append(net / 2 / bb)
        tally.hands += 2
    tally.seconds += time.perf_counter() - t0
    return tally


def duplicate_ring(rules: RuleSet, hero: Policy, field_: Policy, deals: int, seed: int = 0,
                   tally: Tally | None = None) -> Tally:
    """``deals`` deals at a full table, each played once with the hero in every seat against copies of ``field_``."""
    tally = tally or Tally()
    n = rules.seats
    bb = rules.big_blind
    t0 = time.perf_counter()
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        button = d % n
        net = 0
        for hero_seat in range(n):
            seats = [hero if s == hero_seat else field_ for s in range(n)]
            decide = [deal_seed * 16 + hero_seat * n + s for s in range(n)]
            net += play_hand(rules, seats, button, deal_seed, decide, tally.timings, frozenset({hero_seat}))[hero_seat]
        tally.units.append(net / n / bb)
        tally.hands += n
    tally.seconds += time.perf_counter() - t0
    return tally
