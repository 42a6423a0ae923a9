"""Sit-and-go blind schedules and payout tables: the presets (turbo, regular, deep), their checks and their JSON.

Pure data (docs/tournaments.md gives the reason for each number). A schedule
is a list of levels (small and big blind, and an ante from a chosen level on),
the minutes each level lasts, and optional breaks after every few levels. The
last level lasts until the tournament ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from .errors import TableError

FIELD = range(2, 7)  # a sit-and-go seats 2 to 6 players
LEVEL_MINUTES = range(1, 61)
BREAK_MINUTES = range(0, 31)
MAX_LEVELS = 40
BREAK_EVERY = range(0, MAX_LEVELS + 1)  # levels between breaks (0: none)
ANTE_FROM = range(0, MAX_LEVELS + 1)  # the level antes start from, counted from 1 (0: none)
ANTE_SHARE = 10  # the ante is a tenth of the big blind (docs/tournaments.md)
DEFAULT_BUY_IN = 100  # play points each entrant puts in the prize pool
BUY_IN = range(1, 1_000_001)
PRESETS = ("turbo", "regular", "deep")
DEFAULT_PRESET = "regular"


class Level(NamedTuple):
    """One blind level: the small blind, the big blind and every dealt-in player's ante (0: none)."""

    small: int
    big: int
    ante: int = 0


class Stage(NamedTuple):
    """A stretch of the tournament's clock: a blind level (its index in the schedule) or a break (``level``
    None: no hand is dealt), lasting ``minutes`` (None: the last level, until the end)."""

    level: int | None
    minutes: int | None


@dataclass(frozen=True, slots=True)
class Schedule:
    """The blind levels, the minutes per level, and a break of ``break_minutes`` after every ``break_every``
    levels (0: no breaks)."""

    levels: tuple[Level, ...]
    minutes: int
    break_every: int = 0
    break_minutes: int = 0

    def stages(self) -> tuple[Stage, ...]:
        """The clock's timeline: the levels in order with the breaks between them; the last level is open."""
        return _stages(self)

    def to_json(self) -> dict[str, Any]:
        return {"levels": [list(level) for level in self.levels], "minutes": self.minutes,
                "break_every": self.break_every, "break_minutes": self.break_minutes}


@lru_cache(maxsize=64)
def _stages(schedule: Schedule) -> tuple[Stage, ...]:
    """:meth:`Schedule.stages`, worked out once per schedule (the table's clock asks after every event)."""
    out: list[Stage] = []
    last = len(schedule.levels) - 1
    for i in range(len(schedule.levels)):
        out.append(Stage(i, None if i == last else schedule.minutes))
        if i < last and schedule.break_every and schedule.break_minutes and (i + 1) % schedule.break_every == 0:
            out.append(Stage(None, schedule.break_minutes))
    return tuple(out)


BASE_LEVELS: tuple[tuple[int, int], ...] = (
    (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400), (300, 600),
    (400, 800), (500, 1000), (600, 1200), (800, 1600), (1000, 2000), (1500, 3000), (2000, 4000), (3000, 6000),
    (4000, 8000), (5000, 10000), (7500, 15000), (10000, 20000),
)


def with_antes(blinds: Sequence[tuple[int, int]], ante_from: int | None) -> tuple[Level, ...]:
    """Levels from (small, big) pairs, with an ante of a tenth of the big blind from level ``ante_from`` (counted
    from 1; None: no antes)."""
    return tuple(Level(s, b, b // ANTE_SHARE if ante_from is not None and i + 1 >= ante_from else 0)
                 for i, (s, b) in enumerate(blinds))


class Preset(NamedTuple):
    """A ready schedule with the starting stack it is made for."""

    stack: int
    schedule: Schedule


PRESET: dict[str, Preset] = {
    "turbo": Preset(1500, Schedule(with_antes(BASE_LEVELS, 5), minutes=3)),
    "regular": Preset(1500, Schedule(with_antes(BASE_LEVELS, 5), minutes=6)),
    "deep": Preset(3000, Schedule(with_antes(BASE_LEVELS, 6), minutes=10, break_every=6, break_minutes=5)),
}

# percentages of the prize pool by place, for each field size (2 to 6 players): heads-up the winner takes all
DEFAULT_PAYOUTS: dict[int, tuple[int, ...]] = {2: (100,), 3: (100,), 4: (70, 30), 5: (70, 30), 6: (65, 35)}


@dataclass(frozen=True, slots=True)
class SitAndGo:
    """A sit-and-go's settings: its schedule (and the preset it came from), the payout table (percentages by
    place for each field size) and each entrant's buy-in in play points."""

    schedule: Schedule
    payouts: tuple[tuple[int, ...], ...]  # index: field size - 2
    buy_in: int = DEFAULT_BUY_IN
    preset: str = DEFAULT_PRESET

    def payout_table(self, field: int) -> tuple[int, ...]:
        return self.payouts[field - FIELD.start]

    def to_json(self) -> dict[str, Any]:
        return {"schedule": self.schedule.to_json(), "payouts": [list(p) for p in self.payouts],
                "buy_in": self.buy_in, "preset": self.preset}

    @classmethod
    def from_json(cls, obj: Any) -> SitAndGo:
        """Rebuild (and check) a sit-and-go from :meth:`to_json`, or from a client's settings."""
        if not isinstance(obj, dict):
            raise TableError("a sit-and-go's settings are an object", code="bad_schedule", field="settings")
        sched = obj.get("schedule")
        if not isinstance(sched, dict):
            raise TableError("a sit-and-go needs a schedule", code="bad_schedule", field="schedule")
        schedule = schedule_from(sched.get("levels"), sched.get("minutes"), sched.get("break_every", 0),
                                 sched.get("break_minutes", 0))
        buy_in = whole_in(obj.get("buy_in", DEFAULT_BUY_IN), BUY_IN, "bad_schedule", "buy_in")
        return cls(schedule, payouts_from(obj.get("payouts")), buy_in, preset_name(obj.get("preset", DEFAULT_PRESET)))


def whole_in(value: object, allowed: range, code: str, field: str) -> int:
    """``value`` when it is a whole number in ``allowed`` (not a JSON ``true``), else ``code`` naming ``field``
    (its message ``error.<code>.<field>`` gives the bounds ``low`` and ``high``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise TableError(f"{field} must be a whole number from {allowed.start} to {allowed.stop - 1}, not {value!r}",
                         code=code, reason=field, field=field, low=allowed.start, high=allowed.stop - 1)
    return value


def preset_name(name: object) -> str:
    if not isinstance(name, str) or name not in PRESETS:
        raise TableError(f"the presets are {', '.join(PRESETS)}", code="bad_schedule", reason="preset",
                         field="preset")
    return name


def schedule_from(levels: object, minutes: object, break_every: object = 0, break_minutes: object = 0) -> Schedule:
    """A checked schedule: 1 to :data:`MAX_LEVELS` levels, each a [small, big, ante] with 0 < small <= big,
    0 <= ante <= big, the big blind rising; minutes per level and breaks within bounds (``bad_schedule``)."""
    if not isinstance(levels, list | tuple) or not 1 <= len(levels) <= MAX_LEVELS:
        raise TableError(f"a schedule has 1 to {MAX_LEVELS} levels", code="bad_schedule", reason="level_count",
                         field="levels", high=MAX_LEVELS)
    out: list[Level] = []
    for n, raw in enumerate(levels, start=1):  # each error names its level, counted from 1
        if not isinstance(raw, list | tuple) or len(raw) not in (2, 3) \
                or any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
            raise TableError(f"level {n} is not [small, big, ante]", code="bad_schedule", reason="level_shape",
                             field="levels", level=n)
        small, big, ante = (*raw, 0) if len(raw) == 2 else raw
        if not 0 < small <= big:
            raise TableError(f"level {n}: the small blind is 1 up to the big blind", code="bad_schedule",
                             reason="small", field="levels", level=n)
        if not 0 <= ante <= big:
            raise TableError(f"level {n}: the ante is 0 up to the big blind", code="bad_schedule", reason="ante",
                             field="levels", level=n)
        if out and big <= out[-1].big:
            raise TableError(f"level {n}: the big blind rises from level to level", code="bad_schedule",
                             reason="rising", field="levels", level=n)
        out.append(Level(small, big, ante))
    every = whole_in(break_every, BREAK_EVERY, "bad_schedule", "break_every")
    return Schedule(tuple(out), whole_in(minutes, LEVEL_MINUTES, "bad_schedule", "minutes"), every,
                    whole_in(break_minutes, BREAK_MINUTES, "bad_schedule", "break_minutes"))


def payouts_from(raw: object) -> tuple[tuple[int, ...], ...]:
    """A checked payout table: for each field size 2 to 6, whole percentages, largest first, summing to 100, no
    more places than players; heads-up pays the winner alone (``bad_payouts``). None: the default table."""
    if raw is None:
        return default_payouts()
    if isinstance(raw, dict):  # {"2": [100], ...}: sizes left out keep the default
        given = {str(k): v for k, v in raw.items()}
        raw = [given.get(str(n), list(DEFAULT_PAYOUTS[n])) for n in FIELD]
    if not isinstance(raw, list | tuple) or len(raw) != len(FIELD):
        raise TableError("payouts give one list of percentages for each field of 2 to 6 players",
                         code="bad_payouts", reason="shape", field=0)
    out: list[tuple[int, ...]] = []
    for field, table in zip(FIELD, raw, strict=True):
        out.append(payout_table(field, table))
    return tuple(out)


def payout_table(field: int, table: object) -> tuple[int, ...]:
    """One field size's checked payouts: whole percentages above 0 (``whole``), 1 to ``field`` places
    (``places``), largest first (``order``), adding up to 100 (``sum``); heads-up 100 alone (``heads_up``)."""
    why = f"the payouts for {field} players are whole percentages, largest first, adding up to 100, for at most " \
          f"{field} places (heads-up: the winner takes all)"
    if not isinstance(table, list | tuple) or not 1 <= len(table) <= field:
        raise TableError(why, code="bad_payouts", reason="places", field=field)
    if any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in table):
        raise TableError(why, code="bad_payouts", reason="whole", field=field)
    if list(table) != sorted(table, reverse=True):
        raise TableError(why, code="bad_payouts", reason="order", field=field)
    if sum(table) != 100:
        raise TableError(why, code="bad_payouts", reason="sum", field=field, total=sum(table))
    if field == 2 and list(table) != [100]:
        raise TableError(why, code="bad_payouts", reason="heads_up", field=field)
    return tuple(table)


def default_payouts() -> tuple[tuple[int, ...], ...]:
    return tuple(DEFAULT_PAYOUTS[n] for n in FIELD)


def ante_start(levels: Sequence[Level]) -> int:
    """The first level (counted from 1) with an ante; 0: none."""
    return next((i + 1 for i, level in enumerate(levels) if level.ante), 0)


def structure_json() -> dict[str, Any]:
    """The presets (each with its starting stack and the level antes start from), the default payouts by field
    size and the bounds of each setting: what a page needs to offer a sit-and-go's structure for editing."""
    def span(r: range) -> list[int]:
        return [r.start, r.stop - 1]

    return {
        "presets": {name: {"stack": p.stack, **p.schedule.to_json(), "ante_from": ante_start(p.schedule.levels)}
                    for name, p in PRESET.items()},
        "default_preset": DEFAULT_PRESET,
        "payouts": {str(n): list(DEFAULT_PAYOUTS[n]) for n in FIELD},
        "bounds": {"minutes": span(LEVEL_MINUTES), "break_every": span(BREAK_EVERY),
                   "break_minutes": span(BREAK_MINUTES), "ante_from": span(ANTE_FROM), "levels": [1, MAX_LEVELS],
                   "field": span(FIELD)},
        "ante_share": ANTE_SHARE,
    }


def preset(name: str = DEFAULT_PRESET) -> SitAndGo:
    """The sit-and-go of preset ``name`` with the default payouts."""
    return SitAndGo(PRESET[preset_name(name)].schedule, default_payouts(), preset=name)


__all__ = ["ANTE_FROM", "BASE_LEVELS", "BREAK_EVERY", "BUY_IN", "DEFAULT_PAYOUTS", "FIELD", "PRESET", "PRESETS",
           "Level", "Preset", "Schedule", "SitAndGo", "Stage", "ante_start", "default_payouts", "payout_table",
           "payouts_from", "preset", "preset_name", "schedule_from", "structure_json", "whole_in", "with_antes"]
