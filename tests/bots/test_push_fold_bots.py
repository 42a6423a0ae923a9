"""Bots in a sit-and-go push or fold from the solved tables when short (docs/tournaments.md, "Bots and coach"):
headless tournaments, the member tables' bot turn, and cash tables left as they were."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from taiwan_poker.bots import policies
from taiwan_poker.bots.sit_and_go import play_sit_and_go
from taiwan_poker.bots.table_turn import bot_move
from taiwan_poker.rules.actions import ActionKind
from taiwan_poker.rules.events import ActionTaken
from taiwan_poker.strategy.push_fold import MAX_PUSH_FOLD_BB, PushFoldSpot, push_fold_spot
from taiwan_poker.strategy.seat import SeatView, seat_view
from taiwan_poker.tables import TableState
from taiwan_poker.tables.events import HandEvent
from taiwan_poker.tables.schedules import PRESET, SitAndGo, default_payouts, preset


def quick(name: str = "turbo") -> SitAndGo:
    base = preset(name)
    schedule = PRESET[name].schedule
    return SitAndGo(type(schedule)(schedule.levels, 1, schedule.break_every, min(schedule.break_minutes, 1)),
                    default_payouts(), base.buy_in, name)


class Watch:
    """Every decision a push-or-fold spot covered, with what the seat did there; and bot-to-act states kept."""

    def __init__(self) -> None:
        self.taken: Counter[tuple[bool, ActionKind]] = Counter()
        self.pending: tuple[int, PushFoldSpot | None] | None = None
        self.bot_states: list[TableState] = []
        self.views: list[SeatView] = []  # up to 8 of each number of players dealt in
        self.kept: Counter[int] = Counter()

    def __call__(self, state: TableState, event: Any) -> None:
        if isinstance(event, HandEvent) and isinstance(event.event, ActionTaken) and self.pending is not None:
            seat, spot = self.pending
            if spot is not None and event.event.seat == seat:
                self.taken[(spot.facing > 0, event.event.kind)] += 1
        self.pending = None
        hand = state.hand
        if hand is not None and not hand.complete and hand.to_act is not None:
            v = seat_view(hand, hand.to_act)
            spot = push_fold_spot(v)
            self.pending = (hand.to_act, spot)
            if spot is not None and state.bot_to_act() is not None and self.kept[len(v.dealt)] < 8:
                self.kept[len(v.dealt)] += 1
                self.bot_states.append(state)
                self.views.append(v)


@cache
def watched(tournament: bool, seed: int = 3) -> Watch:
    """A six-player game of beginners (who limp and call, never shove, at a cash table) from 20 big blinds."""
    watch = Watch()
    play_sit_and_go(quick() if tournament else None, 6, seed=seed, stack=400, levels=("beginner",),
                    on_event=watch, max_hands=150)
    return watch


def test_bots_in_a_sit_and_go_shove_or_fold_first_in_when_short() -> None:
    taken = watched(True).taken
    first_in = {kind: n for (facing, kind), n in taken.items() if not facing}
    assert set(first_in) <= {ActionKind.FOLD, ActionKind.ALLIN}, first_in
    assert first_in.get(ActionKind.ALLIN, 0) >= 10


def test_bots_in_a_sit_and_go_call_or_fold_facing_all_ins() -> None:
    facing = {kind: n for (f, kind), n in watched(True).taken.items() if f}
    assert set(facing) <= {ActionKind.FOLD, ActionKind.CALL, ActionKind.ALLIN}, facing
    assert facing.get(ActionKind.FOLD, 0) > 0 and facing.get(ActionKind.CALL, 0) + facing.get(ActionKind.ALLIN, 0) > 0


def test_bots_at_a_cash_table_play_as_before_in_the_same_spots() -> None:
    taken = watched(False).taken
    assert taken[(False, ActionKind.CALL)] > 0, taken  # beginners limp short at a cash table: no push-or-fold there


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[SeatView]:
    calls: list[SeatView] = []
    real: Callable[..., Any] = policies.push_fold_choices

    def spy(v: SeatView, max_bb: float = MAX_PUSH_FOLD_BB) -> Any:
        calls.append(v)
        return real(v, max_bb)

    monkeypatch.setattr(policies, "push_fold_choices", spy)
    return calls


def test_the_member_tables_bot_turn_pushes_or_folds_in_a_sit_and_go(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _spy(monkeypatch)
    states = watched(True).bot_states
    assert states
    for state in states:
        move = bot_move(state, random.Random(1))
        assert move is not None and move.action.kind in (ActionKind.FOLD, ActionKind.ALLIN, ActionKind.CALL,
                                                         ActionKind.CHECK)
    assert len(calls) == len(states)


def test_the_member_tables_bot_turn_at_a_cash_table_does_not_read_them(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _spy(monkeypatch)
    states = watched(True).bot_states
    for state in states:
        assert bot_move(replace(state, tournament=None), random.Random(1)) is not None
    assert calls == []


def test_a_spot_deeper_than_the_threshold_or_after_a_limp_is_not_push_or_fold() -> None:
    views = watched(True).views
    v = views[0]
    spot = push_fold_spot(v)
    assert spot is not None and spot.stack_bb <= MAX_PUSH_FOLD_BB
    assert push_fold_spot(v, max_bb=spot.stack_bb - 0.01) is None
    after_folds = next(v for v in views if v.history and all(a.kind is ActionKind.FOLD for a in v.history))
    first = after_folds.history[0]
    limp = first._replace(kind=ActionKind.CALL, amount=after_folds.big_blind, to=after_folds.big_blind)
    assert push_fold_spot(replace(after_folds, history=(limp, *after_folds.history[1:]))) is None
