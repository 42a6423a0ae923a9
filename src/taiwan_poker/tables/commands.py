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


class TableOptions(NamedTuple):
    """How the table is run: rebuys and top-ups, approval of who sits, spectators' chat."""

    rebuys: bool = False
    approval: bool = False
    spectator_chat: bool = False


class Open(NamedTuple):
    """Open a table with ``rules``: the creator takes seat 0 and bots of ``bots`` levels the next seats.

    A ``guest`` (a visitor without an account) opens solo tables only: bots in every other seat.
    """

    rules: RuleSet
    member: int
    name: str
    bots: tuple[str, ...] = ()
    guest: bool = False
    options: TableOptions | None = None


class Configure(NamedTuple):
    """The creator changes the rules before the first hand."""

    member: int
    rules: RuleSet


class Join(NamedTuple):
    """Take ``seat`` (None: the first free seat); a ``guest`` joins nobody's table. Where the host approves
    who sits, this asks to sit instead."""

    member: int
    name: str
    guest: bool = False
    seat: int | None = None


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


class EndMatch(NamedTuple):
    """End the match between hands: the host (or a co-host) at any time once it has started; the server
    (``member`` None) when a table waiting for busted players to rebuy has waited its time."""

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


class Straddle(NamedTuple):
    """A player's straddle: ``next`` (the next hand they are under the gun in), ``always``, or ``off``; where the
    table's option allows straddles."""

    member: int
    choice: str


class SetCoach(NamedTuple):
    """The creator turns the coach on or off for everyone (between hands)."""

    member: int
    on: bool


class Rematch(NamedTuple):
    """Point this table's players at its rematch: a new table the shell opened, whose ``code`` everyone sees."""

    member: int
    code: str


# --- the host's controls (issue 23): the host, or a co-host they named, unless said otherwise ---------------


class Pause(NamedTuple):
    """Pause the table: no hand is dealt until it resumes (a hand being played is played out)."""

    member: int


class Resume(NamedTuple):
    member: int


class RemovePlayer(NamedTuple):
    """Take the player in ``seat`` off the table between hands; their stack leaves with them."""

    member: int
    seat: int


class AdjustStack(NamedTuple):
    """Set the stack of the player in ``seat`` to ``stack`` between hands (shown to all, with who did it);
    ``confirm``: the host confirms a stack over :data:`~.limits.STACK_CONFIRM_TIMES` starting stacks."""

    member: int
    seat: int
    stack: int
    confirm: bool = False


class ChangeRules(NamedTuple):
    """New blinds, clock, time bank and hand options (straddle, run it twice, show or muck) between hands;
    the decks, seats and starting stack stay."""

    member: int
    rules: RuleSet


class SetOptions(NamedTuple):
    member: int
    options: TableOptions


class AnswerSeat(NamedTuple):
    """Approve or deny the request to sit whose id is ``request``."""

    member: int
    request: int
    approve: bool


class HandHost(NamedTuple):
    """The host hands the host role to the member in ``seat`` (the host only)."""

    member: int
    seat: int


class NameCohost(NamedTuple):
    """The host names (``on``) or unnames a co-host: the member in ``seat`` (the host only)."""

    member: int
    seat: int
    on: bool


class Silence(NamedTuple):
    """Silence (``on``) the member in ``seat`` at the table's chat, or let them talk again; a spectator (``seat``
    None) is named by ``author``, the writer of chat line ``line``, and ``name`` (the shell looked them up)."""

    member: int
    seat: int | None
    on: bool
    author: int | None = None
    line: int | None = None
    name: str = ""


class DeleteChat(NamedTuple):
    """Delete the chat message ``message`` written by member ``author`` (the shell looked it up)."""

    member: int
    message: int
    author: int


# --- a player's own choices ----------------------------------------------------------------------------------


class BuyChips(NamedTuple):
    """A rebuy (busted) or a top-up, up to the starting stack (``amount`` None: all the way), where the host
    allows them, while the player is in no hand."""

    member: int
    amount: int | None = None


class AnswerRuns(NamedTuple):
    """Agree (or not) to run the rest of the board twice."""

    member: int
    agree: bool


class ShowOrMuck(NamedTuple):
    """At a showdown where the hand cannot win: show it, or muck it."""

    member: int
    show: bool


class ShowCards(NamedTuple):
    """The winner of an uncontested pot shows hole cards ``cards`` (0 and/or 1) after the hand."""

    member: int
    cards: tuple[int, ...]


Command = (
    Open | Configure | Join | Leave | Act | TimeOut | Deal | EndMatch | Away | Back | Rematch | AddBot | RemoveBot
    | SetCoach
    | Pause | Resume | RemovePlayer | AdjustStack | ChangeRules | SetOptions | AnswerSeat | HandHost | NameCohost
    | Silence | DeleteChat | BuyChips | AnswerRuns | ShowOrMuck | ShowCards | Straddle
)
