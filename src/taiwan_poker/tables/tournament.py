"""A sit-and-go on the table machine: its running state, its clock of blind levels, places and payouts (pure).

The state keeps when level 1 began (``started``) and the stage the clock is at;
every deadline follows from the schedule (``started`` plus the minutes of the
stages so far), so a level that rises late (a server was down) does not make
the next one late too. A host's pause stops the level clock and moves
``started`` on by the pause's length when the table resumes.

Places (the TDA): players who bust in the same hand are placed by their stacks
at the start of that hand, the bigger stack better; equal stacks tie and share
the payouts of the places they take, evenly, the odd points going one each to
the tied players in seat order from the button of that hand.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..rules.pots import clockwise_after
from .schedules import Level, SitAndGo, Stage


class Place(NamedTuple):
    """A player's finish: their member number, the seat they played, their place (tied players share the best
    place of their group), and what it paid (play points)."""

    member: int
    seat: int
    place: int
    payout: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """A sit-and-go's settings and how it stands: when level 1 began (None: not yet, or no time known), the
    stage of the clock, when a host's pause began, the entrants (members, in seat order) and the places so far
    (busted players; every player once it is over)."""

    settings: SitAndGo
    started: dt.datetime | None = None
    stage: int = 0
    paused_at: dt.datetime | None = None
    field: tuple[int, ...] = ()
    places: tuple[Place, ...] = ()
    finished: bool = False
    begun: bool = False  # the first hand was dealt (whether or not its time was known)

    @property
    def stages(self) -> tuple[Stage, ...]:
        return self.settings.schedule.stages()

    @property
    def on_break(self) -> bool:
        return self.stages[self.stage].level is None

    @property
    def level(self) -> int:
        """The blind level in force (counted from 0): during a break, the level before it."""
        stages = self.stages
        return next(s.level for s in reversed(stages[: self.stage + 1]) if s.level is not None)

    def blinds(self) -> Level:
        return self.settings.schedule.levels[self.level]

    def next_level(self) -> Level | None:
        levels = self.settings.schedule.levels
        return levels[self.level + 1] if self.level + 1 < len(levels) else None

    @property
    def prize_pool(self) -> int:
        return self.settings.buy_in * len(self.field)

    def placed(self, member: int) -> Place | None:
        return next((p for p in self.places if p.member == member), None)


def stage_end(t: Tournament, stage: int) -> dt.datetime | None:
    """When stage ``stage`` ends (None: the last level, no time known, or the clock is paused)."""
    if t.started is None or t.paused_at is not None or t.finished:
        return None
    stages = t.stages
    if stages[stage].minutes is None:
        return None
    return t.started + dt.timedelta(minutes=sum(s.minutes or 0 for s in stages[: stage + 1]))


def next_deadline(t: Tournament) -> dt.datetime | None:
    """When the clock next moves on (the end of the running level or break)."""
    return stage_end(t, t.stage)


def stage_at(t: Tournament, at: dt.datetime) -> int:
    """The stage the clock is at, at ``at`` (levels that ran out meanwhile are passed over)."""
    stage = t.stage
    while (end := stage_end(t, stage)) is not None and at >= end:
        stage += 1
    return stage


def payout_amounts(settings: SitAndGo, field: int) -> tuple[int, ...]:
    """What each place from 1 to ``field`` pays: its share of the pool, rounded down, the odd points to first."""
    pool = settings.buy_in * field
    shares = [pool * pct // 100 for pct in settings.payout_table(field)]
    shares += [0] * (field - len(shares))
    shares[0] += pool - sum(shares)
    return tuple(shares)


def place_busted(t: Tournament, busted: Sequence[tuple[int, int, int]], remaining: int, button: int, seats: int
                 ) -> tuple[Place, ...]:
    """Places of the players who busted in one hand, given as (seat, member, stack at the hand's start), while
    ``remaining`` players still hold chips: a bigger starting stack places better, equal stacks tie."""
    amounts = payout_amounts(t.settings, len(t.field))
    order = {seat: i for i, seat in enumerate(clockwise_after(button, seats))}
    ranked = sorted(busted, key=lambda b: -b[2])
    out: list[Place] = []
    place = remaining + 1
    i = 0
    while i < len(ranked):
        group = [b for b in ranked if b[2] == ranked[i][2]]
        group.sort(key=lambda b: order.get(b[0], b[0]))  # the odd points from the button on
        pot = sum(amounts[place - 1 + k] for k in range(len(group)))
        share, odd = divmod(pot, len(group))
        out += [Place(member, seat, place, share + (1 if k < odd else 0)) for k, (seat, member, _) in enumerate(group)]
        place += len(group)
        i += len(group)
    return tuple(out)


def winner_place(t: Tournament, seat: int, member: int) -> Place:
    return Place(member, seat, 1, payout_amounts(t.settings, len(t.field))[0])


__all__ = ["Place", "Tournament", "next_deadline", "payout_amounts", "place_busted", "stage_at", "stage_end",
           "winner_place"]
