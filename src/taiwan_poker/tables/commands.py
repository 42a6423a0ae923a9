"""What a client may ask of a table: typed, immutable commands for :func:`~.machine.decide`.

``member`` is who asks (a member's number; None is the server itself, for the
clock). The shell checks nothing about the table: it only says who asks and,
for a time-out, that the time is up.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..rules.actions import Action
from ..rules.ruleset import RuleSet


class Open(NamedTuple):
    """Open a table with ``rules``: the creator takes seat 0 and bots of ``bots`` levels the next seats.

    A ``guest`` (a visitor without an account) opens solo tables only: bots in every other seat.
    """

    rules: RuleSet
    member: int
    name: str
    bots: tuple[str, ...] = ()
    guest: bool = False


class Configure(NamedTuple):
    """The creator changes the rules before the first hand."""

    member: int
    rules: RuleSet


class Join(NamedTuple):
    """Take the first free seat (a ``guest`` joins nobody's table)."""

    member: int
    name: str
    guest: bool = False


class Leave(NamedTuple):
    member: int


class Act(NamedTuple):
    """A move; ``over`` is how many seconds past the action clock it came (what it draws on the time bank)."""

    member: int
    action: Action
    over: float = 0.0


class TimeOut(NamedTuple):
    """The seat to act did not act: ``over`` seconds have passed since its action clock ran out (None: it has
    not run out; by default, time ran out long ago), which must use up its time bank; ``member`` None is the
    server."""

    member: int | None
    over: float | None = math.inf


class Deal(NamedTuple):
    """Deal the next hand (the first one too, by the creator); ``member`` None is the server."""

    member: int | None


class Away(NamedTuple):
    member: int


class Back(NamedTuple):
    member: int


class AddBot(NamedTuple):
    """The creator seats a bot of ``level`` in the first free seat (before the first hand or between hands)."""

    member: int
    level: str


class RemoveBot(NamedTuple):
    """The creator takes the bot in ``seat`` off the table (between hands); its chips leave with it."""

    member: int
    seat: int


class SetCoach(NamedTuple):
    """The creator turns the coach on or off for everyone (between hands)."""

    member: int
    on: bool


class Rematch(NamedTuple):
    """Point this table's players at its rematch: a new table the shell opened, whose ``code`` everyone sees."""

    member: int
    code: str


Command = (
    Open | Configure | Join | Leave | Act | TimeOut | Deal | Away | Back | Rematch | AddBot | RemoveBot | SetCoach
)
