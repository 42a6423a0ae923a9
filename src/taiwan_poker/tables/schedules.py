"""Sit-and-go blind schedules and payout tables: the presets (turbo, regular, deep), their checks and their JSON.

Pure data (docs/tournaments.md gives the reason for each number). A schedule
is a list of levels (small and big blind, and an ante from a chosen level on),
the minutes each level lasts, and optional breaks after every few levels. The
last level lasts until the tournament ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import TableError

FIELD = range(2, 7)  # a sit-and-go seats 2 to 6 players
LEVEL_MINUTES = range(1, 61)
BREAK_MINUTES = range(0, 31)
MAX_LEVELS = 40
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
        out: list[Stage] = []
        last = len(self.levels) - 1
        for i in range(len(self.levels)):
            out.append(Stage(i, None if i == last else self.minutes))
            if i < last and self.break_every and self.break_minutes and (i + 1) % self.break_every == 0:
                out.append(Stage(None, self.break_minutes))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {"levels": [list(level) for level in self.levels], "minutes": self.minutes,
                "break_every": self.break_every, "break_minutes": self.break_minutes}


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
    """``value`` when it is a whole number in ``allowed`` (not a JSON ``true``), else ``code`` naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise TableError(f"{field} must be a whole number from {allowed.start} to {allowed.stop - 1}, not {value!r}",
                         code=code, field=field)
    return value


def preset_name(name: object) -> str:
    if not isinstance(name, str) or name not in PRESETS:
        raise TableError(f"the presets are {', '.join(PRESETS)}", code="bad_schedule", field="preset")
    return name


def schedule_from(levels: object, minutes: object, break_every: object = 0, break_minutes: object = 0) -> Schedule:
    """A checked schedule: 1 to :data:`MAX_LEVELS` levels, each a [small, big, ante] with 0 < small <= big,
    0 <= ante <= big, the big blind rising; minutes per level and breaks within bounds (``bad_schedule``)."""
    if not isinstance(levels, list | tuple) or not 1 <= len(levels) <= MAX_LEVELS:
        raise TableError(f"a schedule has 1 to {MAX_LEVELS} levels", code="bad_schedule", field="levels")
    out: list[Level] = []
    for raw in levels:
        if not isinstance(raw, list | tuple) or len(raw) not in (2, 3) \
                or any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
            raise TableError("a level is [small, big, ante]", code="bad_schedule", field="levels")
        small, big, ante = (*raw, 0) if len(raw) == 2 else raw
        if not 0 < small <= big or not 0 <= ante <= big or (out and big <= out[-1].big):
            raise TableError("each level's blinds are 0 < small <= big, rising, with an ante of at most the big "
                             "blind", code="bad_schedule", field="levels")
        out.append(Level(small, big, ante))
    every = whole_in(break_every, range(0, MAX_LEVELS + 1), "bad_schedule", "break_every")
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
                         code="bad_payouts", field=0)
    out: list[tuple[int, ...]] = []
    for field, table in zip(FIELD, raw, strict=True):
        if not isinstance(table, list | tuple) or not 1 <= len(table) <= field \
                or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in table) \
                or sum(table) != 100 or list(table) != sorted(table, reverse=True) \
                or (field == 2 and list(table) != [100]):
            raise TableError(f"the payouts for {field} players are whole percentages, largest first, adding up to "
                             f"100, for at most {field} places (heads-up: the winner takes all)",
                             code="bad_payouts", field=field)
        out.append(tuple(table))
    return tuple(out)


def default_payouts() -> tuple[tuple[int, ...], ...]:
    return tuple(DEFAULT_PAYOUTS[n] for n in FIELD)


def preset(name: str = DEFAULT_PRESET) -> SitAndGo:
    """The sit-and-go of preset ``name`` with the default payouts."""
    return SitAndGo(PRESET[preset_name(name)].schedule, default_payouts(), preset=name)


__all__ = ["BASE_LEVELS", "DEFAULT_PAYOUTS", "FIELD", "PRESET", "PRESETS", "Level", "Preset", "Schedule", "SitAndGo",
           "Stage", "default_payouts", "payouts_from", "preset", "preset_name", "schedule_from", "whole_in",
           "with_antes"]
