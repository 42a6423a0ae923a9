"""Bounded in-memory structures of the room service: an LRU map with idle expiry, and per-room locks.

The room cache is only a cache: a room evicted from it is rebuilt from its
event log on the next read.  So memory is bounded by ``capacity`` rooms (and
rooms idle for ``idle_seconds`` leave it earlier), whatever the number of
rooms in the database.  A room's lock lives only while some thread holds or
waits for it, so the lock table is bounded by the number of threads.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruMap(Generic[K, V]):
    """A thread-safe map of at most ``capacity`` entries; the least recently used go first."""

    def __init__(self, capacity: int, idle_seconds: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._guard = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._guard:
            item = self._items.get(key)
            if item is None:
                return None
            self._items[key] = (self._clock(), item[1])
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: K, value: V) -> None:
        with self._guard:
            self._items[key] = (self._clock(), value)
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def discard(self, key: K, value: V | None = None) -> None:
        """Forget ``key`` (only if it still maps to ``value``, when given)."""
        with self._guard:
            item = self._items.get(key)
            if item is not None and (value is None or item[1] is value):
                del self._items[key]

    def evict_idle(self) -> int:
        """Drop the entries untouched for ``idle_seconds``; returns how many went."""
        if self.idle_seconds is None:
            return 0
        cutoff = self._clock() - self.idle_seconds
        gone = 0
        with self._guard:
            while self._items:
                key, (touched, _) = next(iter(self._items.items()))
                if touched > cutoff:
                    break
                del self._items[key]
                gone += 1
        return gone

    def __len__(self) -> int:
        return len(self._items)


class RoomLock:
    """A room's mutual exclusion in this process (a plain lock that can be weakly referenced)."""

    __slots__ = ("__weakref__", "_lock")

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> RoomLock:
        self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


class RoomLocks:
    """One :class:`RoomLock` per room id, kept only while referenced (a ``with`` block holds it)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, RoomLock] = weakref.WeakValueDictionary()
        self._guard = threading.Lock()

    def __call__(self, room_id: int) -> RoomLock:
        with self._guard:
            lock = self._locks.get(room_id)
            if lock is None:
                lock = self._locks[room_id] = RoomLock()
            return lock

    def __len__(self) -> int:
        return len(self._locks)
