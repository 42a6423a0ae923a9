"""The table's clock as pure rules: when its next deadline falls and what is due when it passes.

The shell reads the time and stores the deadline; these functions say what the
deadline is after a change (the action clock, a bot's pause, the showdown pause
before the next hand) and which command the server applies once it has passed.
"""

from __future__ import annotations

import datetime as dt

from .commands import Deal, TimeOut
from .limits import NEXT_HAND_SECONDS, TIMEOUT_GRACE_SECONDS
from .state import Phase, TableState

NEXT_HAND_DELAY = dt.timedelta(seconds=NEXT_HAND_SECONDS)
TIMEOUT_GRACE = dt.timedelta(seconds=TIMEOUT_GRACE_SECONDS)


def schedule(state: TableState, now: dt.datetime, bot_pause: float) -> tuple[str, dt.datetime | None]:
    """The table's status and its next deadline, from ``now``: a bot acts after ``bot_pause`` seconds (never on
    the clock), a player within the action clock, and the next hand follows the showdown pause."""
    phase = state.phase
    if phase is not Phase.PLAYING:
        return phase.value, None
    if state.bot_to_act() is not None:
        return phase.value, now + dt.timedelta(seconds=bot_pause)
    if state.hand_running:
        return phase.value, now + dt.timedelta(seconds=state.rules.action_clock)
    return phase.value, now + NEXT_HAND_DELAY


def clock_ran_out(state: TableState, deadline: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether the player to act has used up the action clock (then any seated member may press time-out)."""
    return state.hand_running and deadline is not None and now >= deadline


def due(state: TableState, deadline: dt.datetime | None, now: dt.datetime) -> TimeOut | Deal | None:
    """What the server itself applies at ``now``: the time-out of a turn abandoned past the grace after the
    clock, or the next hand after the showdown pause (a bot's turn is its own client's to play)."""
    if deadline is None or deadline > now or state.phase is not Phase.PLAYING or state.bot_to_act() is not None:
        return None
    if state.hand_running:
        return TimeOut(None) if now >= deadline + TIMEOUT_GRACE else None
    return Deal(None)
