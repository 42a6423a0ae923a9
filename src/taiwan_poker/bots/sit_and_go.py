"""A whole sit-and-go played headless on a fake clock: every seat a bot's policy (the creator's seat too), every
automatic command the one :func:`~taiwan_poker.tables.timing.due` names, each event folded one at a time.

For tests and the benchmark: ``on_event`` sees the state after every single event (to check invariants there).
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from ..rules.ruleset import RuleSet
from ..strategy.seat import seat_view
from ..tables import Act, Open, TableState, decide, fold
from ..tables.commands import Command, stamped
from ..tables.events import TableEvent
from ..tables.schedules import SitAndGo
from ..tables.timing import BotMove, due
from .levels import policy_of
from .policies import Policy, in_tournament

START = dt.datetime(2026, 1, 5, 20, 0, tzinfo=dt.UTC)
CREATOR = 1


class Played(NamedTuple):
    """A finished sit-and-go: its last state, its whole log, the fake clock's last reading, and the moves made with
    the CPU seconds the machine spent on them (decide and fold, not the bots' thinking), also split by whether the
    move ended the hand (a showdown, a pot paid, perhaps a place) or not: ``by_kind[kind] = (moves, seconds, events)``
    (an all-in's run-out brings several events with one move)."""

    state: TableState
    events: list[TableEvent]
    end: dt.datetime
    moves: int = 0
    move_seconds: float = 0.0
    by_kind: Mapping[str, tuple[int, float, int]] = MappingProxyType({})


def play_sit_and_go(settings: SitAndGo | None, players: int, *, seed: int = 0, stack: int = 1500, decks: int = 2,
                    levels: Sequence[str] = ("beginner",), bot_pause: tuple[float, float] = (0.5, 1.5),
                    on_event: Callable[[TableState, TableEvent], None] | None = None, lag: float = 0.0,
                    max_commands: int = 200_000, max_hands: int | None = None,
                    push_fold: bool | None = None) -> Played:
    """Play a sit-and-go of ``players`` to its end: the creator's seat plays the first of ``levels`` at once when
    its turn comes, the bots (levels in turn) after their pause; hands, levels and breaks on the table's clock.
    ``lag``: seconds the server's timer comes late after each deadline. ``settings`` None plays a cash match at the
    same table (for comparison), until one player holds every chip or ``max_hands`` were dealt. ``push_fold``: whether
    the bots push or fold short (None: in a sit-and-go only, as at the member tables; True at a cash match plays it
    the same way, to compare the tables' own costs)."""
    rng = random.Random(seed)

    short = settings is not None if push_fold is None else push_fold

    def policy(key: str) -> Policy:  # a sit-and-go's bots push or fold short (docs/tournaments.md); cash as ever
        return in_tournament(policy_of(key)) if short else policy_of(key)

    rules = RuleSet(decks=decks, seats=players, starting_stack=stack, time_bank=0)
    bots = tuple(levels[(i + 1) % len(levels)] for i in range(players - 1))
    now = START
    state: TableState | None = None
    log: list[TableEvent] = []
    moves, move_seconds = 0, 0.0
    by_kind: dict[str, tuple[int, float, int]] = {"continues": (0, 0.0, 0), "ends hand": (0, 0.0, 0)}

    def apply(command: Command) -> None:
        nonlocal state, moves, move_seconds
        began = time.process_time()
        events = decide(state, stamped(command, now), rng)
        for event in events:
            state = fold([event], state)
            log.append(event)
            if on_event is not None:
                on_event(state, event)
        if isinstance(command, Act):
            spent = time.process_time() - began
            moves += 1
            move_seconds += spent
            kind = "ends hand" if state is not None and state.hand is not None and state.hand.complete else "continues"
            n, seconds, folded = by_kind[kind]
            by_kind[kind] = (n + 1, seconds + spent, folded + len(events))

    apply(Open(rules, CREATOR, "P1", bots=bots, bot_pause=bot_pause, tournament=settings))
    for _ in range(max_commands):
        assert state is not None
        if state.over or (max_hands is not None and len(state.hands) > max_hands):
            return Played(state, log, now, moves, move_seconds, by_kind)
        hand = state.hand
        turn = hand.to_act if hand is not None and not hand.complete else None
        occupant = state.seats[turn] if turn is not None else None
        if hand is not None and turn is not None and occupant is not None and occupant.bot is None \
                and not occupant.away:
            apply(Act(occupant.member, policy(levels[0])(seat_view(hand, turn), rng)))
            continue
        upcoming = due(state, now)
        if upcoming.command is None:
            assert upcoming.next is not None, "a sit-and-go that waits for nothing"
            now = max(now, upcoming.next + dt.timedelta(seconds=lag))
            continue
        command = upcoming.command
        if isinstance(command, BotMove):
            assert hand is not None and occupant is not None and occupant.bot is not None and turn is not None
            apply(Act(occupant.member, policy(occupant.bot)(seat_view(hand, turn), rng)))
        else:
            apply(command)
    raise AssertionError("the sit-and-go did not end")


__all__ = ["CREATOR", "START", "Played", "play_sit_and_go"]
