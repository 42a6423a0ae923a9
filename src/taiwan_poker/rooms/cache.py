"""Per-room locks of the room service, kept only while in use.

A room's lock lives only while some thread holds or waits for it, so the lock
table is bounded by the number of threads, whatever the number of rooms.  (The
rooms' replayed states live in a bounded :class:`~taiwan_poker.lru.LruMap`.)
"""

from __future__ import annotations

import threading
import weakref


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

    def take(self, wait: bool = True) -> bool:
        """Take the lock (``wait`` False: only if it is free; False when it is not); :meth:`release` it after."""
        return self._lock.acquire(blocking=wait)

    def release(self) -> None:
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
