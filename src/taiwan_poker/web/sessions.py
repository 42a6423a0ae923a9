"""Server-side session stores: lab hands (the shoe never leaves the server) and practice scores.

In-process and bounded (:class:`~taiwan_poker.lru.LruMap`): the least recently
used entries go past ``capacity``, and entries idle longer than ``ttl``
seconds expire.  Enough for one instance of the play-money app.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from ..lru import LruMap

T = TypeVar("T")


class SessionStore(Generic[T]):
    def __init__(self, capacity: int = 5000, ttl: float = 6 * 3600, clock: Callable[[], float] = time.monotonic):
        self._items: LruMap[str, T] = LruMap(capacity, idle_seconds=ttl, clock=clock)
        self._mutate = threading.Lock()

    def add(self, value: T) -> str:
        key = secrets.token_urlsafe(16)
        self.put(key, value)
        return key

    def put(self, key: str, value: T) -> None:
        self._items.put(key, value)

    def get(self, key: str) -> T | None:
        return self._items.get(key)

    def lock(self) -> threading.Lock:
        """A lock for changing a stored value in place."""
        return self._mutate

    def __len__(self) -> int:
        return len(self._items)
