"""Strong's decisions after the flop, gathered from the matches a test plays (shared by the strategy tests)."""

from __future__ import annotations

import random
from collections.abc import Callable

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.rules.actions import Action
from taiwan_poker.strategy.seat import SeatView

Policy = Callable[[SeatView, random.Random], Action]


def strong_after_flop(play: Callable[[Policy], None]) -> list[SeatView]:
    """Every view Strong acts from after the flop while ``play`` plays its matches with the policy it is given
    (Strong itself, watched)."""
    strong = policy_of("strong")
    seen: list[SeatView] = []

    def watched(v: SeatView, rng: random.Random) -> Action:
        if v.street > 0:
            seen.append(v)
        return strong(v, rng)

    play(watched)
    return seen
