"""In-process real-time fan-out: who is watching which room, and telling them when it changes.

A change is announced by the room's new version only; each subscriber then
asks for *its own* view (lichess-style), so a push can never carry another
seat's cards.  Queues keep only the newest version: a slow client skips
straight to the current state instead of replaying stale ones.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Subscription:
    """One watcher of one room: ``await next_version()`` returns the newest version announced."""

    def __init__(self, room_id: int) -> None:
        self.room_id = room_id
        self._queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)

    def _offer(self, version: int) -> None:
        if self._queue.full():
            self._queue.get_nowait()
        self._queue.put_nowait(version)

    async def next_version(self) -> int:
        return await self._queue.get()


class RoomHub:
    """Subscribers per room; ``publish`` may be called from the event loop or from a worker thread."""

    def __init__(self) -> None:
        self._subs: dict[int, set[Subscription]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the event loop so worker threads can publish into it."""
        self._loop = loop

    @asynccontextmanager
    async def subscribe(self, room_id: int) -> AsyncIterator[Subscription]:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        sub = Subscription(room_id)
        self._subs[room_id].add(sub)
        try:
            yield sub
        finally:
            self._subs[room_id].discard(sub)
            if not self._subs[room_id]:
                del self._subs[room_id]

    def watchers(self, room_id: int) -> int:
        return len(self._subs.get(room_id, ()))

    def _deliver(self, room_id: int, version: int) -> None:
        for sub in list(self._subs.get(room_id, ())):
            sub._offer(version)

    def publish(self, room_id: int, version: int) -> None:
        """Announce a room's new version to everyone watching it."""
        loop = self._loop
        if loop is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(room_id, version)
        else:
            loop.call_soon_threadsafe(self._deliver, room_id, version)
