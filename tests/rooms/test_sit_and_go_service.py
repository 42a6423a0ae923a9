"""Sit-and-go tables through the room service (issue 46), on SQLite and PostgreSQL: opened from a preset, the
level raised by the sweeper exactly once (also with two service instances racing), the view's level and time
left, and the stack powers refused with a code."""

from __future__ import annotations

import datetime as dt
import random
import threading

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store.db import Database
from taiwan_poker.tables.events import LevelRaised
from tests.rooms.test_service import Clock, members, truth


def level_events(service: RoomService, code: str) -> list[LevelRaised]:
    return [item.event for item in truth(service, code).log if isinstance(item.event, LevelRaised)]


def test_a_sit_and_go_opens_from_a_preset_and_the_sweeper_raises_its_level_exactly_once(db: Database) -> None:
    clock = Clock()
    service = RoomService(db, clock=clock, bot_pause=(0.0, 0.0), rng_factory=lambda: random.Random(3))
    (alice,) = members(db, "Alice")
    code = service.create_room(alice, 2, 3, bots=2, tournament={"preset": "turbo"})
    view = service.state(code, alice)
    sng = view["tournament"]
    assert view["stack"] == 1500 and view["blinds"] == [10, 20], "the preset's stack, level 1's blinds"
    assert sng["level"] == 1 and sng["next"]["blinds"] == [15, 30] and sng["begun"] and sng["field"] == 3
    assert view["level_seconds_left"] == pytest.approx(180)
    clock.advance(179)
    service.sweep()
    assert level_events(service, code) == []
    clock.advance(1)
    service.sweep()
    service.sweep()
    assert [e.level for e in level_events(service, code)] == [2], "once, at its deadline"
    assert service.state(code, alice)["tournament"]["level"] == 2


def test_two_instances_sweeping_at_the_deadline_raise_the_level_once(db: Database) -> None:
    clock = Clock()
    first = RoomService(db, clock=clock, bot_pause=(0.0, 0.0))
    second = RoomService(db, clock=clock, bot_pause=(0.0, 0.0))
    (alice,) = members(db, "Alice")
    code = first.create_room(alice, 2, 3, bots=2, tournament={"preset": "turbo", "minutes": 1})
    second.state(code, alice)  # both instances hold the room in their caches
    clock.advance(60)
    barrier = threading.Barrier(2)

    def sweep(service: RoomService) -> None:
        barrier.wait()
        for _ in range(3):
            service.sweep()

    threads = [threading.Thread(target=sweep, args=(s,)) for s in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [e.level for e in level_events(first, code)] == [2]
    assert [e.level for e in level_events(second, code)] == [2]


def test_stack_powers_and_bad_settings_are_refused_with_a_code(db: Database) -> None:
    service = RoomService(db, bot_pause=(0.0, 0.0))
    alice, bob = members(db, "Alice", "Bob")
    with pytest.raises(TaiwanPokerError) as info:
        service.create_room(alice, 2, 3, tournament={"preset": "hyper"})
    assert info.value.code == "bad_schedule"
    with pytest.raises(TaiwanPokerError) as info:
        service.create_room(alice, 2, 3, tournament={"preset": "turbo", "payouts": {"2": [60, 40]}})
    assert info.value.code == "bad_payouts"
    code = service.create_room(alice, 2, 2, tournament={"preset": "regular"})
    service.join(code, bob)  # heads-up: full, dealt
    with pytest.raises(TaiwanPokerError) as info:
        service.request(code, alice, "stack", {"seat": 1, "stack": 9000})
    assert info.value.code == "tournament_stacks"
    with pytest.raises(TaiwanPokerError) as info:
        service.request(code, bob, "buy", {})
    assert info.value.code == "tournament_stacks"


def test_the_deadline_column_lists_a_sit_and_go_for_its_level_and_its_break(db: Database) -> None:
    clock = Clock()
    service = RoomService(db, clock=clock, bot_pause=(0.0, 0.0))
    (alice,) = members(db, "Alice")
    code = service.create_room(alice, 2, 2, bots=1, tournament={
        "preset": "turbo", "minutes": 1, "break_every": 1, "break_minutes": 1})
    start = clock.now
    clock.now = start + dt.timedelta(minutes=1)
    service.sweep()
    assert level_events(service, code)[-1].on_break
    for _ in range(50):  # the bots and the member's time-outs play the hand out; no hand follows in the break
        clock.advance(2)
        service.sweep()
        if not truth(service, code).hand_running:
            break
    clock.now = start + dt.timedelta(minutes=2)
    service.sweep()
    assert not level_events(service, code)[-1].on_break, "a paused (on-break) table is swept at the break's end"
