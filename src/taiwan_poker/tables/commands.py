"""What a client may ask of a table: typed, immutable commands for :func:`~.machine.decide`.

``member`` is who asks (a member's number; None is the server itself, for the
clock). ``at`` is when the command happens (timezone-aware; the shell reads
its clock once per command and stamps it with :func:`stamped`): every event the
command causes carries that time, and the machine compares it with the
deadlines its state owns (a move past the action clock draws on the time
bank, a time-out before the clock and the bank have run out is refused). A
command without a time (None) runs no clock out. The shell checks nothing
about the table: it only says who asks and when.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple, TypeVar, cast

from ..rules.actions import Action
from ..rules.ruleset import RuleSet
from .limits import BOT_PAUSE_SECONDS
from .schedules import SitAndGo


class TableOptions(NamedTuple):
    """How the table is run: rebuys and top-ups, approval of who sits, spectators' chat, and whether the server's
    seeds are revealed when the match ends (``reveal``; settled before the first hand: docs/fairness.md)."""

    rebuys: bool = False
    approval: bool = False
    spectator_chat: bool = False
    reveal: bool = True


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
    bot_pause: tuple[float, float] = BOT_PAUSE_SECONDS  # the shell's pace for this table's bots (0, 0 in tests)
    at: dt.datetime | None = None
    tournament: SitAndGo | None = None  # a sit-and-go (docs/tournaments.md); None: a cash match


class Configure(NamedTuple):
    """The creator changes the rules before the first hand."""

    member: int
    rules: RuleSet
    at: dt.datetime | None = None


class Join(NamedTuple):
    """Take ``seat`` (None: the first free seat); a ``guest`` joins nobody's table. Where the host approves
    who sits, this asks to sit instead."""

    member: int
    name: str
    guest: bool = False
    seat: int | None = None
    at: dt.datetime | None = None


class Leave(NamedTuple):
    member: int
    at: dt.datetime | None = None


class Act(NamedTuple):
    """A move (made past the action clock, it draws the seconds over it on the time bank)."""

    member: int
    action: Action
    at: dt.datetime | None = None


class TimeOut(NamedTuple):
    """The seat to act did not act (or the choosers did not choose): refused before its action clock and time
    bank (or the choice's window) have run out, and, for the server (``member`` None), before its second of
    grace after that has passed too."""

    member: int | None
    at: dt.datetime | None = None


class Deal(NamedTuple):
    """Deal the next hand (the first one too, by the creator); ``member`` None is the server."""

    member: int | None
    at: dt.datetime | None = None


class EndMatch(NamedTuple):
    """End the match between hands: the host (or a co-host) at any time once it has started; the server
    (``member`` None) when a table waiting for busted players to rebuy has waited its time."""

    member: int | None
    at: dt.datetime | None = None


class Away(NamedTuple):
    member: int
    at: dt.datetime | None = None


class Back(NamedTuple):
    member: int
    at: dt.datetime | None = None


class AddBot(NamedTuple):
    """The creator seats a bot of ``level`` in the first free seat (before the first hand or between hands)."""

    member: int
    level: str
    at: dt.datetime | None = None


class RemoveBot(NamedTuple):
    """The creator takes the bot in ``seat`` off the table (between hands); its chips leave with it."""

    member: int
    seat: int
    at: dt.datetime | None = None


class ContributeSeed(NamedTuple):
    """A seated player's seed (hex) for the next hand's shoe (docs/fairness.md)."""

    member: int
    seed: str
    at: dt.datetime | None = None


class Straddle(NamedTuple):
    """A player's straddle: ``next`` (the next hand they are under the gun in), ``always``, or ``off``; where the
    table's option allows straddles."""

    member: int
    choice: str
    at: dt.datetime | None = None


class SetCoach(NamedTuple):
    """The creator turns the coach on or off for everyone (between hands)."""

    member: int
    on: bool
    at: dt.datetime | None = None


class Rematch(NamedTuple):
    """Point this table's players at its rematch: a new table the shell opened, whose ``code`` everyone sees."""

    member: int
    code: str
    at: dt.datetime | None = None


# --- the host's controls (issue 23): the host, or a co-host they named, unless said otherwise ---------------


class Pause(NamedTuple):
    """Pause the table: no hand is dealt until it resumes (a hand being played is played out)."""

    member: int
    at: dt.datetime | None = None


class Resume(NamedTuple):
    member: int
    at: dt.datetime | None = None


class RemovePlayer(NamedTuple):
    """Take the player in ``seat`` off the table between hands; their stack leaves with them."""

    member: int
    seat: int
    at: dt.datetime | None = None


class AdjustStack(NamedTuple):
    """Set the stack of the player in ``seat`` to ``stack`` between hands (shown to all, with who did it);
    ``confirm``: the host confirms a stack over :data:`~.limits.STACK_CONFIRM_TIMES` starting stacks."""

    member: int
    seat: int
    stack: int
    confirm: bool = False
    at: dt.datetime | None = None


class ChangeRules(NamedTuple):
    """New blinds, clock, time bank and hand options (straddle, run it twice, show or muck) between hands;
    the decks, seats and starting stack stay."""

    member: int
    rules: RuleSet
    at: dt.datetime | None = None


class SetOptions(NamedTuple):
    member: int
    options: TableOptions
    at: dt.datetime | None = None


class AnswerSeat(NamedTuple):
    """Approve or deny the request to sit whose id is ``request``."""

    member: int
    request: int
    approve: bool
    at: dt.datetime | None = None


class HandHost(NamedTuple):
    """The host hands the host role to the member in ``seat`` (the host only)."""

    member: int
    seat: int
    at: dt.datetime | None = None


class NameCohost(NamedTuple):
    """The host names (``on``) or unnames a co-host: the member in ``seat`` (the host only)."""

    member: int
    seat: int
    on: bool
    at: dt.datetime | None = None


class Silence(NamedTuple):
    """Silence (``on``) the member in ``seat`` at the table's chat, or let them talk again; a spectator (``seat``
    None) is named by ``author``, the writer of chat line ``line``, and ``name`` (the shell looked them up)."""

    member: int
    seat: int | None
    on: bool
    author: int | None = None
    line: int | None = None
    name: str = ""
    at: dt.datetime | None = None


class DeleteChat(NamedTuple):
    """Delete the chat message ``message`` written by member ``author`` (the shell looked it up)."""

    member: int
    message: int
    author: int
    at: dt.datetime | None = None


# --- a sit-and-go (docs/tournaments.md) ----------------------------------------------------------------------


class SetTournament(NamedTuple):
    """The host changes the sit-and-go's schedule, payouts or buy-in before the first hand."""

    member: int
    settings: SitAndGo
    at: dt.datetime | None = None


class RaiseLevel(NamedTuple):
    """The server (``member`` None) moves the level clock on once its deadline has passed (the next blind
    level, or a break's start or end); refused before."""

    member: int | None
    at: dt.datetime | None = None


# --- a player's own choices ----------------------------------------------------------------------------------


class BuyChips(NamedTuple):
    """A rebuy (busted) or a top-up, up to the starting stack (``amount`` None: all the way), where the host
    allows them, while the player is in no hand."""

    member: int
    amount: int | None = None
    at: dt.datetime | None = None


class AnswerRuns(NamedTuple):
    """Agree (or not) to run the rest of the board twice."""

    member: int
    agree: bool
    at: dt.datetime | None = None


class ShowOrMuck(NamedTuple):
    """At a showdown where the hand cannot win: show it, or muck it."""

    member: int
    show: bool
    at: dt.datetime | None = None


class ShowCards(NamedTuple):
    """The winner of an uncontested pot shows hole cards ``cards`` (0 and/or 1) after the hand."""

    member: int
    cards: tuple[int, ...]
    at: dt.datetime | None = None


Command = (
    Open | Configure | Join | Leave | Act | TimeOut | Deal | EndMatch | Away | Back | Rematch | AddBot | RemoveBot
    | SetCoach
    | Pause | Resume | RemovePlayer | AdjustStack | ChangeRules | SetOptions | AnswerSeat | HandHost | NameCohost
    | Silence | DeleteChat | BuyChips | AnswerRuns | ShowOrMuck | ShowCards | Straddle
    | ContributeSeed | SetTournament | RaiseLevel
)

C = TypeVar("C", bound=Command)


def stamped(command: C, at: dt.datetime) -> C:
    """``command`` as it happens at ``at`` (a time it already carries stays)."""
    return command if command.at is not None else cast(C, command._replace(at=at))
