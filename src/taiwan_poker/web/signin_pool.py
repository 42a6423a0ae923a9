"""Sign-in work on a few threads of its own, so a slow certificate endpoint cannot starve room traffic.

Verifying a Google ID token may have to fetch Google's certificates.  That
work runs here, on :data:`WORKERS` threads with at most :data:`MAX_WAITING`
sign-ins queued; the pages, the room API and ``/healthz`` run elsewhere and
never wait for it.  A sign-in that finds the queue full is refused at once
(``signin_busy``) rather than queued behind a stalled fetch.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ..errors import TaiwanPokerError

T = TypeVar("T")
WORKERS = 4
MAX_WAITING = 64


class SignInPool:
    def __init__(self, workers: int = WORKERS, max_waiting: int = MAX_WAITING) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tp-signin")
        self._max = max_waiting
        self._pending = 0
        self._guard = threading.Lock()

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` on a sign-in thread, or ``signin_busy`` when too many sign-ins are already waiting."""
        with self._guard:
            if self._pending >= self._max:
                raise TaiwanPokerError("too many sign-ins at once; try again shortly", code="signin_busy")
            self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn)
        finally:
            with self._guard:
                self._pending -= 1

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
