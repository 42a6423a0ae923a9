"""The table's clock as pure rules: what the table waits for, until when, and what is due once it has waited.

The state owns every deadline. Each event carries the time it happened
(``at``, the time of the command that caused it), and after each event
:func:`tick` looks at what the table now waits for: a player's move (the
action clock, then their time bank), a bot's pause before its move, the
players' choices (run it twice, show or muck), the showdown pause before the
next hand, or busted players' rebuys. While that stays the same wait (the
same turn, choice or hand) its timer runs on, whatever else happens at the
table; when it changes, a new timer starts at the event's time.

:func:`due` says what the server itself does at a given time and when it next
has to look: the time-out of a player whose clock and time bank have run out
(a second after the seated members may press the button), the close of a
choice's window, the next hand, the end of a match that waited its time for a
rebuy, or a bot's move (which its client, the shell's, decides). The machine
refuses those commands before their time, so the shell's timer holds no rule:
it asks :func:`due` and applies what it returns.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from ..frozen import replace
from .commands import Deal, EndMatch, RaiseLevel, TimeOut
from .limits import CHOICE_SECONDS, NEXT_HAND_SECONDS, REBUY_WAIT_SECONDS, SERVER_GRACE_SECONDS
from .state import Clock, Phase, TableState, Timer, Wait
from .tournament import next_deadline

SERVER_GRACE = dt.timedelta(seconds=SERVER_GRACE_SECONDS)


class BotMove(NamedTuple):
    """The bot in ``seat`` has paused its time: its client (the shell's) decides its move now."""

    seat: int


class Due(NamedTuple):
    """What the server does at a table at some time: ``command`` (None: nothing yet), and ``next``, when the
    table's running wait falls due (passed already when ``command`` is there; None: nothing falls due by
    itself), with what it waits for (``wait``)."""

    command: TimeOut | Deal | EndMatch | BotMove | RaiseLevel | None
    next: dt.datetime | None
    wait: Wait | None


def waiting(state: TableState) -> tuple[Wait, tuple[object, ...], float] | None:
    """What the table waits for now, which one (its key: the timer runs on while it stays the same) and how long
    that wait lasts (seconds); None when no clock runs (before the first hand, paused, over)."""
    phase = state.phase
    if phase is Phase.REBUYS:
        return Wait.REBUYS, (), REBUY_WAIT_SECONDS
    hand = state.hand
    if phase is not Phase.PLAYING or hand is None:
        return None
    if hand.complete:
        return Wait.DEAL, (hand.hand_no,), 0 if _bots_alone(state) else NEXT_HAND_SECONDS
    pending = hand.pending
    if pending is not None:
        return Wait.CHOICE, (hand.hand_no, pending.kind), CHOICE_SECONDS
    seat = hand.to_act
    if seat is None:
        return None
    key = (hand.hand_no, seat, hand.street.value)
    occupant = state.seats[seat]
    if occupant is not None and occupant.bot is not None:
        return Wait.BOT, key, bot_pause(state)
    return Wait.ACT, key, state.rules.action_clock


def _bots_alone(state: TableState) -> bool:
    """A sit-and-go whose members have all busted: its bots play it out without pauses."""
    return state.tournament is not None and not state.members_hold_chips()


def bot_pause(state: TableState) -> float:
    """The pause of a bot whose turn begins now: within the table's ``bot_pause`` bounds, varied from turn to turn
    by the table's version (a fixed scramble, so that folding the log again gives the same deadline); none once
    bots alone play a sit-and-go out."""
    if _bots_alone(state):
        return 0.0
    low, high = state.bot_pause
    spread = (state.version * 2654435761) % 2**32 / 2**32  # Knuth's multiplicative hash: even over [0, 1)
    return low + (high - low) * spread


def tick(state: TableState, at: dt.datetime | None) -> Clock:
    """The table's clock after an event that happened at ``at`` (None: a time not known, so a timer that starts
    now has no deadline): the running timer goes on while the table waits for the same thing, else a new one
    starts."""
    now = waiting(state)
    timer = state.clock.turn
    if now is None:
        return state.clock if timer is None else replace(state.clock, turn=None)
    wait, key, seconds = now
    if timer is not None and timer.wait is wait and timer.key == key:
        return state.clock
    deadline = at + dt.timedelta(seconds=seconds) if at is not None else None
    return replace(state.clock, turn=Timer(wait, key, at, deadline))


def time_out_from(state: TableState, *, server: bool) -> dt.datetime | None:
    """From when the player to act (or the players still to choose) may be timed out: by a seated member once
    the action clock and the player's time bank (or the choice's window) have run out, by the server
    :data:`SERVER_GRACE` later; None when nobody can be (no running turn, a bot's, a time not known)."""
    timer = state.clock.turn
    if timer is None or timer.deadline is None or timer.wait not in (Wait.ACT, Wait.CHOICE):
        return None
    end = timer.deadline + dt.timedelta(seconds=bank_left(state)) if timer.wait is Wait.ACT else timer.deadline
    return end + SERVER_GRACE if server else end


def bank_left(state: TableState) -> int:
    """The time bank (seconds) of the player to act in the running hand, 0 when none."""
    hand = state.hand
    seat = hand.to_act if hand is not None and not hand.complete else None
    occupant = state.seats[seat] if seat is not None else None
    return occupant.bank if occupant is not None else 0


def over_clock(state: TableState, at: dt.datetime | None) -> float:
    """Seconds past the action clock of the player to act at ``at`` (0 before it has run out, or with no time)."""
    timer = state.clock.turn
    if at is None or timer is None or timer.wait is not Wait.ACT or timer.deadline is None:
        return 0.0
    return max(0.0, (at - timer.deadline).total_seconds())


def ran_out(state: TableState, wait: Wait, at: dt.datetime | None) -> bool:
    """Whether the table's timer waits for ``wait`` and has run out at ``at`` (the showdown pause, a rebuy
    wait; for a turn or a choice, the server's time-out)."""
    timer = state.clock.turn
    if at is None or timer is None or timer.wait is not wait:
        return False
    end = time_out_from(state, server=True) if wait in (Wait.ACT, Wait.CHOICE) else timer.deadline
    return end is not None and at >= end


def level_deadline(state: TableState) -> dt.datetime | None:
    """When a sit-and-go's level clock next moves on (None: no sit-and-go, the last level, paused, over)."""
    t = state.tournament
    return None if t is None or state.over else next_deadline(t)


def due(state: TableState, at: dt.datetime) -> Due:
    """What the server applies at ``at`` and when the table next needs it (see :class:`Due`): a sit-and-go's
    level clock first, then the turn's timer."""
    level = level_deadline(state)
    if level is not None and at >= level:
        return Due(RaiseLevel(None, at), level, Wait.LEVEL)
    turn = _turn_due(state, at)
    if level is not None and turn.command is None and (turn.next is None or level < turn.next):
        return Due(None, level, Wait.LEVEL)
    return turn


def _turn_due(state: TableState, at: dt.datetime) -> Due:
    timer = state.clock.turn
    if timer is None or timer.deadline is None:
        return Due(None, None, None)
    when = time_out_from(state, server=True) if timer.wait in (Wait.ACT, Wait.CHOICE) else timer.deadline
    assert when is not None
    if at < when:
        return Due(None, when, timer.wait)
    return Due(_server_command(state, timer, at), when, timer.wait)


def _server_command(state: TableState, timer: Timer, at: dt.datetime) -> TimeOut | Deal | EndMatch | BotMove:
    if timer.wait is Wait.BOT:
        seat = timer.key[1]
        assert isinstance(seat, int)
        return BotMove(seat)
    if timer.wait is Wait.DEAL:
        return Deal(None, at)
    if timer.wait is Wait.REBUYS:
        return EndMatch(None, at)
    return TimeOut(None, at)


class ClockFace(NamedTuple):
    """What a view's clock shows that depends on the state alone, worked out once a version (:func:`clock_face`);
    :func:`clock_at` adds the moment and the viewer."""

    level: dt.datetime | None  # a sit-and-go's next level
    deadline: dt.datetime | None  # the running wait's, None: no running timer
    deadline_text: str | None
    total: float | None  # the wait's length in seconds
    running: bool  # a hand is running: the bank's deadline and the time-out button are shown
    member_end: dt.datetime | None  # from when a seated member may press time-out
    bank_text: str | None  # when the time bank of the player to act runs out (or the clock, without a bank)


def clock_face(state: TableState) -> ClockFace:
    """The part of :func:`clock_view` that depends on ``state`` only."""
    timer = state.clock.turn
    level = level_deadline(state)
    if timer is None or timer.deadline is None or timer.since is None:
        return ClockFace(level, None, None, None, False, None, None)
    deadline = timer.deadline
    running = state.hand_running
    member_end = time_out_from(state, server=False) if running else None
    return ClockFace(level, deadline, deadline.isoformat(), (deadline - timer.since).total_seconds(), running,
                     member_end, (member_end or deadline).isoformat() if running else None)


def clock_at(face: ClockFace, seat: int | None, now: dt.datetime) -> dict[str, Any]:
    """:func:`clock_view` from the state's :class:`ClockFace` (a shell may keep it for the version)."""
    levels = {"level_seconds_left": max(0.0, (face.level - now).total_seconds())} if face.level is not None else {}
    if face.deadline is None:
        return {"deadline": None, "seconds_left": None, "clock_total": None, **levels}
    out: dict[str, Any] = {**levels,
        "deadline": face.deadline_text,
        "seconds_left": max(0.0, (face.deadline - now).total_seconds()),
        "clock_total": face.total,
    }
    if face.running:
        out["bank_deadline"] = face.bank_text  # the clock, then the time bank, ran out
        out["timeout_allowed"] = seat is not None and face.member_end is not None and now >= face.member_end
    return out


def clock_view(state: TableState, seat: int | None, now: dt.datetime) -> dict[str, Any]:
    """The clock as a view shows it at ``now`` to the viewer in ``seat`` (None: a spectator): the running wait's
    deadline, its length and the seconds left; in a running hand, when the time bank of the player to act runs
    out too, and whether the viewer may press time-out."""
    return clock_at(clock_face(state), seat, now)
