"""In-process real-time fan-out: who is watching which room, and telling them when it changes.

A change is announced by the room's new version only; each subscriber then
asks for *its own* view (lichess-style), so a push can never carry another
seat's cards.  A new line of the table's chat is announced the same way, by its
id only: each subscriber reads the lines its member may read.  Queues keep only the newest version: a slow client skips
straight to the current state instead of replaying stale ones.  ``publish``
may be called from any thread; each subscriber is woken on its own event loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from ..lru import LruMap


class Subscription:
    """One watcher of one room: ``await next_version()`` returns the newest version announced."""

    def __init__(self, room_id: int, loop: asyncio.AbstractEventLoop) -> None:
        self.room_id = room_id
        self.loop = loop
        self._queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._chat: asyncio.Queue[int] = asyncio.Queue(maxsize=1)

    @staticmethod
    def _put(queue: asyncio.Queue[int], value: int) -> None:
        """Keep the newest value: announcements from several threads may arrive out of order."""
        if queue.full():
            value = max(value, queue.get_nowait())
        queue.put_nowait(value)

    def _deliver(self, queue: asyncio.Queue[int], value: int) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._put(queue, value)
        elif not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._put, queue, value)

    def offer(self, version: int) -> None:
        """Deliver a version from any thread."""
        self._deliver(self._queue, version)

    def offer_chat(self, line: int) -> None:
        """Deliver the id of a new chat line from any thread."""
        self._deliver(self._chat, line)

    async def next_version(self) -> int:
        return await self._queue.get()

    async def next_chat(self) -> int:
        return await self._chat.get()


class RoomHub:
    """Subscribers per room."""

    def __init__(self) -> None:
        self._subs: dict[int, set[Subscription]] = defaultdict(set)
        self._latest: dict[int, int] = {}  # the newest version announced per watched room
        self._chat_latest: dict[int, int] = {}  # the newest chat line announced per watched room
        self._chat_heard: LruMap[int, int] = LruMap(4096)  # ... and per room lately announced, watched or not
        self._guard = threading.Lock()

    @asynccontextmanager
    async def subscribe(self, room_id: int) -> AsyncIterator[Subscription]:
        sub = Subscription(room_id, asyncio.get_running_loop())
        with self._guard:
            self._subs[room_id].add(sub)
        try:
            yield sub
        finally:
            with self._guard:
                self._subs[room_id].discard(sub)
                if not self._subs[room_id]:
                    del self._subs[room_id]
                    self._latest.pop(room_id, None)
                    self._chat_latest.pop(room_id, None)

    def watchers(self, room_id: int) -> int:
        with self._guard:
            return len(self._subs.get(room_id, ()))

    def watched(self) -> dict[int, int]:
        """The rooms someone watches here, each with the newest version announced (0: none yet)."""
        with self._guard:
            return {room_id: self._latest.get(room_id, 0) for room_id in self._subs}

    def watched_chat(self) -> dict[int, int]:
        """The rooms someone watches here, each with the newest chat line announced (0: none yet)."""
        with self._guard:
            return {room_id: self._chat_latest.get(room_id, 0) for room_id in self._subs}

    def chat_latest(self, room_id: int) -> int:
        """The newest chat line announced here for a room, watched or not (0: none lately)."""
        return self._chat_heard.get(room_id) or 0

    def publish_chat(self, room_id: int, line: int) -> None:
        """Announce a room's new chat line to everyone watching it (and remember it: :meth:`chat_latest`)."""
        if line > (self._chat_heard.get(room_id) or 0):
            self._chat_heard.put(room_id, line)
        with self._guard:
            subs = list(self._subs.get(room_id, ()))
            if subs and line > self._chat_latest.get(room_id, 0):
                self._chat_latest[room_id] = line
        for sub in subs:
            sub.offer_chat(line)

    def publish(self, room_id: int, version: int) -> None:
        """Announce a room's new version to everyone watching it (one wake-up of each event loop, however many of
        its sockets watch the room)."""
        with self._guard:
            subs = list(self._subs.get(room_id, ()))
            if subs and version > self._latest.get(room_id, 0):
                self._latest[room_id] = version
        if len(subs) == 1:
            subs[0].offer(version)
            return
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in subs:
            by_loop.setdefault(sub.loop, []).append(sub)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        for loop, group in by_loop.items():
            if loop is running:
                _offer_all(group, version)
            elif not loop.is_closed():
                loop.call_soon_threadsafe(_offer_all, group, version)


def _offer_all(subs: list[Subscription], version: int) -> None:
    """On the subscribers' own loop: each keeps the newest version."""
    for sub in subs:
        sub._put(sub._queue, version)
