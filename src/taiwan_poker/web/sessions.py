"""Server-side session stores: lab hands (the shoe never leaves the server) and practice scores.

In-process and bounded: the oldest entries are dropped past ``capacity`` and
entries idle longer than ``ttl`` seconds expire.  Enough for one instance of
the play-money app; a shared store comes with the member tables.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class SessionStore(Generic[T]):
    def __init__(self, capacity: int = 5000, ttl: float = 6 * 3600, clock: Callable[[], float] = time.monotonic):
        self._items: OrderedDict[str, tuple[float, T]] = OrderedDict()
        self._lock = threading.Lock()
        self._mutate = threading.Lock()
        self.capacity = capacity
        self.ttl = ttl
        self._clock = clock

    def add(self, value: T) -> str:
        key = secrets.token_urlsafe(16)
        self.put(key, value)
        return key

    def put(self, key: str, value: T) -> None:
        with self._lock:
            self._items[key] = (self._clock(), value)
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def get(self, key: str) -> T | None:
        now = self._clock()
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if now - item[0] > self.ttl:
                del self._items[key]
                return None
            self._items[key] = (now, item[1])
            self._items.move_to_end(key)
            return item[1]

    def lock(self) -> threading.Lock:
        """A lock for changing a stored value in place."""
        return self._mutate

    def __len__(self) -> int:
        return len(self._items)
