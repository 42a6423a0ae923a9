"""The table's clock as pure rules: when its next deadline falls and what is due when it passes.

The shell reads the time and stores the deadline; these functions say what the
deadline is after a change (the action clock, a bot's pause, the showdown pause
before the next hand) and which command the server applies once it has passed.
A player who has not acted when the action clock runs out draws on their time
bank, which starts by itself; once both are used up, the server checks or folds
for them (and from then on any seated member may press time-out, as the spec says).
"""

from __future__ import annotations

import datetime as dt

from .commands import Deal, EndMatch, TimeOut
from .limits import CHOICE_SECONDS, NEXT_HAND_SECONDS, REBUY_WAIT_SECONDS
from .state import Phase, TableState

NEXT_HAND_DELAY = dt.timedelta(seconds=NEXT_HAND_SECONDS)
CHOICE_WINDOW = dt.timedelta(seconds=CHOICE_SECONDS)
REBUY_WAIT = dt.timedelta(seconds=REBUY_WAIT_SECONDS)
SERVER_GRACE = dt.timedelta(seconds=1)  # the seated members' time-out button comes first, by this much


def schedule(state: TableState, now: dt.datetime, bot_pause: float,
             before: tuple[str | None, dt.datetime | None] = (None, None)) -> tuple[str, dt.datetime | None]:
    """The table's status and its next deadline, from ``now``: a bot acts after ``bot_pause`` seconds (never on
    the clock), a player within the action clock, the choices to run it twice or to show or muck within a short
    window (then the default applies: once, muck), and the next hand follows the showdown pause. A table that
    waits for a busted player's rebuy waits :data:`REBUY_WAIT` from when it began to (``before``: the status and
    deadline stored until now), then the match ends."""
    phase = state.phase
    if phase is Phase.REBUYS:
        status, deadline = before
        return phase.value, deadline if status == Phase.REBUYS.value and deadline is not None else now + REBUY_WAIT
    if phase is not Phase.PLAYING:
        return phase.value, None
    hand = state.hand
    if hand is not None and not hand.complete and hand.pending is not None:
        return phase.value, now + CHOICE_WINDOW
    if state.bot_to_act() is not None:
        return phase.value, now + dt.timedelta(seconds=bot_pause)
    if state.hand_running:
        return phase.value, now + dt.timedelta(seconds=state.rules.action_clock)
    return phase.value, now + NEXT_HAND_DELAY


def bank_left(state: TableState) -> int:
    """The time bank (seconds) of the player to act in the running hand, 0 when none."""
    hand = state.hand
    seat = hand.to_act if hand is not None and not hand.complete else None
    occupant = state.seats[seat] if seat is not None else None
    return occupant.bank if occupant is not None else 0


def over_clock(deadline: dt.datetime | None, now: dt.datetime) -> float:
    """Seconds since the action clock ran out (0 before it has)."""
    return max(0.0, (now - deadline).total_seconds()) if deadline is not None else 0.0


def bank_deadline(state: TableState, deadline: dt.datetime | None) -> dt.datetime | None:
    """When the player to act has used up the action clock and their time bank."""
    return deadline + dt.timedelta(seconds=bank_left(state)) if deadline is not None else None


def clock_ran_out(state: TableState, deadline: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether the player to act has used up the action clock and their time bank (then the server, or any
    seated member, applies the time-out)."""
    end = bank_deadline(state, deadline)
    return state.hand_running and end is not None and now >= end


def time_out(state: TableState, deadline: dt.datetime | None, now: dt.datetime, member: int | None) -> TimeOut:
    """The time-out ``member`` (None: the server) asks for at ``now``; the machine refuses it while time is left."""
    return TimeOut(member, over_clock(deadline, now) if deadline is not None and now >= deadline else None)


def due(state: TableState, deadline: dt.datetime | None, now: dt.datetime) -> TimeOut | Deal | EndMatch | None:
    """What the server itself applies at ``now``: the time-out of a player whose clock and time bank have run
    out, the next hand after the showdown pause (a bot's turn is its own client's to play), or the end of a
    match that waited its time for a rebuy."""
    if deadline is None or deadline > now:
        return None
    if state.phase is Phase.REBUYS:
        return EndMatch(None)
    if state.phase is not Phase.PLAYING or state.bot_to_act() is not None:
        return None
    if state.hand_running:
        end = bank_deadline(state, deadline)
        return time_out(state, deadline, now, None) if end is not None and now >= end + SERVER_GRACE else None
    return Deal(None)
