"""A member table's settings and moves as a client sends them (JSON values), checked against :mod:`.limits`.

Pure: each reader returns a typed value or raises :class:`~.machine.TableError`
with a code and the bounds it broke, so any shell (HTTP, socket, CLI) refuses
bad input the same way and in the reader's language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import TaiwanPokerError
from ..rules import Action, ActionKind, RuleSet
from .commands import TableOptions
from .errors import TableError
from .limits import (
    ACTION_CLOCK,
    ACTION_CLOCK_SECONDS,
    BIG_BLIND,
    BOT_LEVELS,
    DECKS,
    DEFAULT_BLINDS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_DECKS,
    DEFAULT_SEATS,
    DEFAULT_STACK,
    DEFAULT_TIME_BANK,
    MAX_CHIPS,
    MIN_STACK_IN_BIG_BLINDS,
    SEATS,
    STACK,
    TIME_BANK,
)
from .schedules import (
    ANTE_FROM,
    BUY_IN,
    MAX_LEVELS,
    PRESET,
    SitAndGo,
    payouts_from,
    preset,
    preset_name,
    schedule_from,
    whole_in,
    with_antes,
)


def whole(value: object, name: str, allowed: range, code: str) -> int:
    """``value`` when it is a whole number in ``allowed`` (a JSON ``true`` is not 1), else ``code``."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise TableError(f"{name} must be a whole number from {allowed.start} to {allowed.stop - 1}, not {value!r}",
                         code=code, low=allowed.start, high=allowed.stop - 1)
    return value


def flag(value: object, name: str) -> bool:
    """A JSON true or false (nothing else), else ``bad_option``."""
    if not isinstance(value, bool):
        raise TableError(f"{name} must be true or false, not {value!r}", code="bad_option", option=name)
    return value


def table_blinds(blinds: object) -> tuple[int, int]:
    """``[small, big]`` checked against :mod:`.limits` (a sit-and-go checks what it is sent, then uses its
    schedule's)."""
    if not isinstance(blinds, list | tuple) or len(blinds) != 2:
        raise TableError("blinds are [small, big], e.g. [10, 20]", code="bad_blinds", low=BIG_BLIND.start,
                         high=BIG_BLIND.stop - 1)
    big = whole(blinds[1], "the big blind", BIG_BLIND, "bad_blinds")
    return whole(blinds[0], "the small blind", range(1, big + 1), "bad_blinds"), big


def table_rules(decks: object = DEFAULT_DECKS, seats: object = DEFAULT_SEATS, stack: object = DEFAULT_STACK,
                blinds: object = DEFAULT_BLINDS, action_clock: int = ACTION_CLOCK_SECONDS,
                time_bank: object = DEFAULT_TIME_BANK, straddle: object = False, run_twice: object = False,
                show_or_muck: object = False) -> RuleSet:
    """A member table's rules from its settings, each checked against :mod:`.limits`."""
    hand_options = {name: flag(value, name) for name, value in (("straddle", straddle), ("run_twice", run_twice),
                                                                 ("show_or_muck", show_or_muck))}
    d = whole(decks, "decks", DECKS, "bad_decks")
    bank = whole(time_bank, "the time bank", TIME_BANK, "bad_time_bank")
    n = whole(seats, "seats", SEATS, "bad_seats")
    s = whole(stack, "stack", STACK, "bad_stack")
    small, big = table_blinds(blinds)
    if s < MIN_STACK_IN_BIG_BLINDS * big:
        raise TableError(f"the starting stack must be at least {MIN_STACK_IN_BIG_BLINDS} big blinds",
                         code="bad_stack", low=MIN_STACK_IN_BIG_BLINDS * big, high=STACK.stop - 1)
    try:
        return RuleSet(decks=d, seats=n, starting_stack=s, small_blind=small, big_blind=big, action_clock=action_clock,
                       time_bank=bank, straddle=hand_options["straddle"], run_twice=hand_options["run_twice"],
                       show_or_muck=hand_options["show_or_muck"])
    except TaiwanPokerError as exc:  # e.g. the shoe is too small for the seats
        raise TableError(exc.message, code="bad_rules") from None


NO_OPTIONS = TableOptions()
HAND_OPTIONS = ("straddle", "run_twice", "show_or_muck")
STAKES = ("blinds", "action_clock", "time_bank", *HAND_OPTIONS)  # what a host may change between hands


def changed_rules(rules: RuleSet, changes: dict[str, Any]) -> RuleSet:
    """The table's rules with a host's changes between hands (any of :data:`STAKES`; the rest stay)."""
    unknown = set(changes) - set(STAKES)
    if unknown:
        raise TableError(f"only {', '.join(STAKES)} change between hands", code="bad_option",
                         option=", ".join(sorted(unknown)))
    clock = changes.get("action_clock", rules.action_clock)
    if clock != rules.action_clock:
        whole(clock, "the action clock", ACTION_CLOCK, "bad_clock")
    new = table_rules(rules.decks, rules.seats, rules.starting_stack,
                      changes.get("blinds", [rules.small_blind, rules.big_blind]), clock,
                      changes.get("time_bank", rules.time_bank),
                      **{name: changes.get(name, getattr(rules, name)) for name in HAND_OPTIONS})
    return replace(new, structure=rules.structure, burns=rules.burns, ranking=rules.ranking)


def table_options(changes: dict[str, Any], current: TableOptions = NO_OPTIONS) -> TableOptions:
    """The table's options with ``changes`` (``rebuys``, ``approval``, ``spectator_chat``; the rest stay)."""
    unknown = set(changes) - set(TableOptions._fields)
    if unknown:
        raise TableError(f"the options are {', '.join(TableOptions._fields)}", code="bad_option",
                         option=", ".join(sorted(unknown)))
    return current._replace(**{name: flag(value, name) for name, value in changes.items()})


def hand_options(options: dict[str, Any] | None, current: RuleSet | None = None) -> dict[str, Any]:
    """The hand options (straddle, run it twice, show or muck) among a table's settings; one left out (or None)
    keeps its ``current`` value (off for a new table)."""
    given = {name: value for name, value in (options or {}).items() if name in HAND_OPTIONS and value is not None}
    return {name: given.get(name, getattr(current, name) if current is not None else False) for name in HAND_OPTIONS}


def new_table_options(options: dict[str, Any] | None) -> TableOptions:
    """The table options (rebuys, approval, spectators' chat) among a new table's settings."""
    return table_options({name: value for name, value in (options or {}).items() if name not in HAND_OPTIONS})


SIT_AND_GO_KEYS = ("preset", "minutes", "ante_from", "break_every", "break_minutes", "levels", "payouts", "buy_in")


def sit_and_go(obj: object) -> SitAndGo | None:
    """A new sit-and-go's settings as a client sends them: a preset (turbo, regular, deep) and any of its parts
    changed: ``minutes`` a level, antes from level ``ante_from`` (0: none), breaks, ``levels`` ([small, big] or
    [small, big, ante]), ``payouts`` ({"6": [50, 30, 20], ...}) and ``buy_in``. None: a cash match."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise TableError("a sit-and-go's settings are an object", code="bad_schedule", field="settings")
    unknown = set(obj) - set(SIT_AND_GO_KEYS)
    if unknown:
        raise TableError(f"a sit-and-go's settings are {', '.join(SIT_AND_GO_KEYS)}", code="bad_schedule",
                         reason="unknown", field=", ".join(sorted(unknown)))
    name = preset_name(obj.get("preset", "regular"))
    base = PRESET[name].schedule
    levels: object = obj.get("levels", [list(level) for level in base.levels])
    ante_from = obj.get("ante_from")
    if ante_from is not None:
        start = whole_in(ante_from, ANTE_FROM, "bad_schedule", "ante_from")
        if not isinstance(levels, list | tuple) or not levels:
            raise TableError(f"a schedule has 1 to {MAX_LEVELS} levels", code="bad_schedule", reason="level_count",
                             field="levels", high=MAX_LEVELS)
        bad = next((n for n, x in enumerate(levels, start=1) if not isinstance(x, list | tuple) or len(x) < 2), None)
        if bad is not None:
            raise TableError(f"level {bad} is not [small, big, ante]", code="bad_schedule", reason="level_shape",
                             field="levels", level=bad)
        levels = [list(x) for x in with_antes([(x[0], x[1]) for x in levels], start or None)]
    schedule = schedule_from(levels, obj.get("minutes", base.minutes), obj.get("break_every", base.break_every),
                             obj.get("break_minutes", base.break_minutes))
    default = preset(name)
    buy_in = obj.get("buy_in", default.buy_in)
    return SitAndGo(schedule, payouts_from(obj.get("payouts")),
                    whole_in(buy_in, BUY_IN, "bad_schedule", "buy_in"), name)


def sit_and_go_stack(obj: object) -> int:
    """The starting stack a sit-and-go's preset is made for."""
    name = obj.get("preset", "regular") if isinstance(obj, dict) else "regular"
    return PRESET[preset_name(name)].stack


def parse_action(obj: object) -> Action:
    """``{"kind": "raise", "to": 120}`` → :class:`Action`; anything malformed is ``bad_action``/``bad_amount``."""
    if not isinstance(obj, dict):
        raise TableError("an action must be an object like {\"kind\": \"call\"}", code="bad_action")
    try:
        kind = ActionKind(str(obj.get("kind")))
    except ValueError:
        raise TableError(f"unknown action kind {obj.get('kind')!r}", code="bad_action") from None
    to = obj.get("to")
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if isinstance(to, bool) or not isinstance(to, int) or not 0 < to <= MAX_CHIPS:
            raise TableError(f"{kind.value} needs a whole, positive amount 'to', not {to!r}", code="bad_amount")
        return Action(kind, to)
    if to is not None:
        raise TableError(f"{kind.value} takes no amount", code="bad_amount")
    return Action(kind)


def bot_level(level: object) -> str:
    """A requested bot level: None is the default; anything but a level's name is ``bad_level``."""
    if level is None:
        return DEFAULT_BOT_LEVEL
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise TableError(f"unknown bot level {level!r}: {', '.join(BOT_LEVELS)}", code="bad_level",
                         levels=", ".join(BOT_LEVELS))
    return level


def bot_seats(bots: object, rules: RuleSet, level: object = None) -> tuple[str, ...]:
    """The levels of the ``bots`` bots to seat beside the creator at a new table (0 to every other seat)."""
    count = whole(bots, "bots", range(0, rules.seats), "bad_bots")
    return (bot_level(level),) * count if count else ()


__all__ = ["bot_level", "bot_seats", "changed_rules", "flag", "hand_options", "new_table_options", "parse_action",
           "sit_and_go", "sit_and_go_stack", "table_blinds", "table_options", "table_rules", "whole"]
