"""The real-time hub: announcements reach every watcher of a room, only the newest version is kept."""

from __future__ import annotations

import asyncio
import threading

from taiwan_poker.rooms.hub import RoomHub


def test_publish_reaches_every_watcher_of_that_room_only() -> None:
    async def scenario() -> tuple[int, int, bool]:
        hub = RoomHub()
        async with hub.subscribe(1) as a, hub.subscribe(1) as b, hub.subscribe(2) as other:
            hub.publish(1, 7)
            got_a = await asyncio.wait_for(a.next_version(), 1)
            got_b = await asyncio.wait_for(b.next_version(), 1)
            try:
                await asyncio.wait_for(other.next_version(), 0.05)
                leaked = True
            except TimeoutError:
                leaked = False
        assert hub.watchers(1) == 0
        return got_a, got_b, leaked

    assert asyncio.run(scenario()) == (7, 7, False)


def test_a_slow_watcher_skips_to_the_newest_version() -> None:
    async def scenario() -> int:
        hub = RoomHub()
        async with hub.subscribe(1) as sub:
            for v in (3, 4, 5):
                hub.publish(1, v)
            return await asyncio.wait_for(sub.next_version(), 1)

    assert asyncio.run(scenario()) == 5


def test_announcements_out_of_order_keep_the_newest_version() -> None:
    """Two writers' threads may announce 11 before 10: the watcher must still be sent 11 (it was left at 10)."""
    async def scenario() -> tuple[int, int]:
        hub = RoomHub()
        async with hub.subscribe(1) as sub:
            hub.publish(1, 11)
            hub.publish(1, 10)
            hub.publish_chat(1, 6)
            hub.publish_chat(1, 5)
            return await asyncio.wait_for(sub.next_version(), 1), await asyncio.wait_for(sub.next_chat(), 1)

    assert asyncio.run(scenario()) == (11, 6)


def test_publish_from_a_worker_thread_is_delivered_on_the_loop() -> None:
    async def scenario() -> int:
        hub = RoomHub()
        async with hub.subscribe(9) as sub:
            threading.Thread(target=hub.publish, args=(9, 42)).start()
            return await asyncio.wait_for(sub.next_version(), 1)

    assert asyncio.run(scenario()) == 42

