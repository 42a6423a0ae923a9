"""Background calculations with progress (the equity calculator's longer Monte Carlo runs).

One worker thread (the machine is shared), at most :data:`MAX_WAITING` jobs
queued or running (one more is refused with ``calc_busy``, 503 and
``Retry-After``, so a flood cannot build a queue of minutes), and a bounded
store of finished jobs. A job's error is kept as the core exception so it can
be told in the reader's language when asked for.
"""

from __future__ import annotations

import contextvars
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..errors import TaiwanPokerError
from .sessions import SessionStore

log = logging.getLogger("taiwan_poker.web.jobs")
MAX_WAITING = 8
BUSY_RETRY_SECONDS = 5


class CalculatorBusy(TaiwanPokerError):
    """Too many calculations queued: try again in a few seconds."""

    code = "calc_busy"


@dataclass
class Job:
    progress: float = 0.0
    status: str = "queued"  # queued, running, done, error
    result: Any = None
    error: TaiwanPokerError | None = None
    done: threading.Event = field(default_factory=threading.Event)


class JobRunner:
    def __init__(self, workers: int = 1, capacity: int = 500, max_waiting: int = MAX_WAITING) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="taiwan-poker-job")
        self.jobs: SessionStore[Job] = SessionStore(capacity=capacity, ttl=3600)
        self.max_waiting = max_waiting
        self.refused = 0
        self._waiting = 0
        self._guard = threading.Lock()

    def submit(self, fn: Callable[[Callable[[float], None]], Any]) -> tuple[str, Job, Future[None]]:
        """Queue ``fn(progress)``; its id, its record and a future done when it ends (``calc_busy`` when full)."""
        with self._guard:
            if self._waiting >= self.max_waiting:
                self.refused += 1
                raise CalculatorBusy("the calculator is busy; try again in a few seconds",
                                     retry_after=BUSY_RETRY_SECONDS)
            self._waiting += 1
        job = Job()
        key = self.jobs.add(job)

        def progress(p: float) -> None:
            job.progress = max(job.progress, min(1.0, float(p)))

        def run() -> None:
            job.status = "running"
            try:
                job.result = fn(progress)
                job.progress = 1.0
                job.status = "done"
            except TaiwanPokerError as exc:
                job.error = exc
                job.status = "error"
            except Exception as exc:
                log.exception("background calculation failed")
                job.error = TaiwanPokerError(str(exc), code="internal_error")
                job.status = "error"
            finally:
                with self._guard:
                    self._waiting -= 1
                job.done.set()

        future = self._pool.submit(contextvars.copy_context().run, run)  # its log records keep the request id
        return key, job, future

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
