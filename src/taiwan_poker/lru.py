"""A thread-safe map bounded in size and, optionally, in idle time: the least recently used entries go first.

Used for everything the shell keeps in memory per visitor or per room (lab
hands, practice scores, background jobs, replayed tables), so that memory has
a stated bound whatever the traffic.
"""

from __future__ import annotations

import threading
import time
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
        """The value (and it counts as used now), or None if absent or idle past ``idle_seconds``."""
        now = self._clock()
        with self._guard:
            item = self._items.get(key)
            if item is None:
                return None
            if self.idle_seconds is not None and now - item[0] > self.idle_seconds:
                del self._items[key]
                return None
            self._items[key] = (now, item[1])
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
