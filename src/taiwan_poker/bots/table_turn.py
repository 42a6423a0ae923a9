"""A bot at a table: when a bot is to act, its move, decided from its seat's view like any client's."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from ..strategy.seat import seat_view
from ..strategy.table_habits import with_habits
from ..tables import Act, TableState
from .levels import policy_of
from .policies import in_tournament

log = logging.getLogger("taiwan_poker.bots")


def bot_move(state: TableState, rng: random.Random, on_failure: Callable[[], None] | None = None) -> Act | None:
    """The move of the bot to act in the running hand (None when no bot is to act).

    A policy that fails must not stop the table: the bot then does what a player who does not act does
    (check, else fold), the failure is logged and ``on_failure`` told.
    """
    turn = state.bot_to_act()
    hand = state.hand
    if turn is None or hand is None:
        return None
    seat, occupant = turn
    assert occupant.bot is not None
    try:
        policy = policy_of(occupant.bot)
        if state.tournament is not None:  # a sit-and-go: short stacks push or fold from the solved tables
            policy = in_tournament(policy)
        action = policy(with_habits(state, seat_view(hand, seat)), rng)
    except Exception:
        log.exception("a bot failed to decide; it checks or folds", extra={"level": occupant.bot})
        if on_failure is not None:
            on_failure()
        action = hand.timeout_action()
    return Act(occupant.member, action)
