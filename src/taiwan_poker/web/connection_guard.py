"""Connection guard: a deadline for request heads, a cap per address, and room below the descriptor limit.

uvicorn (h11) has no timeout for a request head: a client that sends ``GET / HTTP/1.1\\r\\nHost: x\\r\\n`` and
never the blank line holds its socket for ever, and twenty thousand such sockets use up the process's file
descriptors (audit, issue 19).  :func:`guarded_protocol` makes a subclass of uvicorn's ``H11Protocol`` (its
extension point: ``uvicorn.run(app, http=...)``) bound to one shared :class:`ConnectionGuard`, which

* closes a connection whose whole request head has not arrived within ``head_timeout`` seconds of the
  connection opening or of the previous response ending (a deadline, not a pause between bytes);
* refuses (aborts at once) a connection from an address that already holds ``per_address`` connections;
* keeps the open connections below the descriptor limit minus a reserve (for the database and files): when
  full, the oldest connection still waiting for its head makes way for the new one; a connection serving a
  request or a WebSocket is never evicted, and a new one is refused only when none waits;
* logs a storm once: a warning at its first refusal, eviction or time-out, then at most one summary line
  a minute with counts (:class:`StormLog`); asyncio's per-accept "socket.accept() out of system resource"
  goes into the same summary (:class:`AcceptErrorFilter`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT = 5.0  # seconds for a whole request head
MAX_PER_ADDRESS = 300  # a classroom of 30-odd behind one NAT: ~6 connections and a WebSocket each, with room
RESERVE_SHARE = 0.1  # of the descriptor limit, kept for the database, log and data files
MIN_RESERVE = 64
MAX_BACKLOG = 2048  # uvicorn's default
SUMMARY_SECONDS = 60.0
ACCEPT_ERROR = "socket.accept() out of system resource"

logger = logging.getLogger("taiwan_poker.connections")

KINDS = {
    "refused_address": "connections refused (per-address cap)",
    "refused_full": "connections refused (descriptor limit, none waiting to evict)",
    "evicted": "connections evicted while waiting for their head (descriptor limit)",
    "head_timeout": "request heads timed out",
    "accept_failed": "failed accepts (socket.accept() out of system resource)",
}


def raise_descriptor_limit() -> int | None:
    """Raise the soft ``RLIMIT_NOFILE`` to the hard limit; the soft limit now in force (None: no such limit)."""
    if sys.platform == "win32":
        return None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft == resource.RLIM_INFINITY or target <= soft:
        return None if soft == resource.RLIM_INFINITY else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):  # macOS caps it below the hard limit (OPEN_MAX)
        return soft
    return target


def _reserve(limit: int) -> int:
    return max(MIN_RESERVE, math.ceil(limit * RESERVE_SHARE))


def capacity_for(limit: int | None) -> int | None:
    """How many connections fit under a descriptor ``limit``: all but a reserve of 10 %, at least 64."""
    return None if limit is None else max(1, limit - _reserve(limit))


def backlog_for(limit: int | None) -> int:
    """The listen backlog, which is also how many connections asyncio accepts in one turn of its loop.

    A connection holds its descriptor for about three turns before the guard has seen it and, if it must,
    closed it (accept, make the transport, ``connection_made``, close), so a storm has up to four backlogs
    of descriptors in flight beyond the open connections.  They must fit in the reserve with the database's
    and the files': at the limit asyncio stops accepting for a whole second, and everyone (``/healthz``
    too) waits.  An eighth of the reserve: 250 at 20,000 descriptors, uvicorn's 2,048 from 164,000 up.
    """
    return MAX_BACKLOG if limit is None else max(8, min(MAX_BACKLOG, _reserve(limit) // 8))


class StormLog:
    """Log refusals, evictions and time-outs once per burst, then at most one summary line per ``period``.

    The first event of a burst is logged at once (a warning); later ones are counted and summed up when
    ``period`` has passed since the last line (by a timer on the running loop, or at the next event).  A
    period without events ends the burst.  ``totals`` keeps the counts since start (for metrics).
    """

    def __init__(self, period: float = SUMMARY_SECONDS, clock: Callable[[], float] = time.monotonic,
                 log: logging.Logger = logger, status: Callable[[], str] = lambda: "") -> None:
        self.period = period
        self.clock = clock
        self.log = log
        self.status = status
        self.totals: Counter[str] = Counter()
        self._pending: Counter[str] = Counter()  # since the last line
        self._in_burst = False
        self._last_line = -math.inf
        self._timer: asyncio.TimerHandle | None = None

    def note(self, kind: str, detail: str = "") -> None:
        self.totals[kind] += 1
        now = self.clock()
        if not self._in_burst:
            self._in_burst = True
            self._last_line = now
            self.log.warning("connection storm? first of %s%s; more are summed up at most once every %g s%s",
                             KINDS.get(kind, kind), f" ({detail})" if detail else "", self.period, self.status())
            self._schedule(now)
            return
        self._pending[kind] += 1
        if now - self._last_line >= self.period:
            self.flush()
        elif self._timer is None:
            self._schedule(now)

    def _schedule(self, now: float) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (unit tests): the next event past the period writes the summary
        self._timer = loop.call_later(max(0.0, self._last_line + self.period - now), self.flush)

    def flush(self) -> None:
        """Write the summary of what was counted since the last line; with nothing counted the burst is over."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._pending:
            self._in_burst = False
            return
        now = self.clock()
        counts = ", ".join(f"{n} {KINDS.get(kind, kind)}" for kind, n in sorted(self._pending.items()))
        self.log.warning("connection storm: %s in the last %.0f s%s", counts, now - self._last_line, self.status())
        self._pending.clear()
        self._last_line = now
        self._schedule(now)


class AcceptErrorFilter(logging.Filter):
    """On the ``asyncio`` logger: asyncio logs every failed ``accept()`` at the descriptor limit (up to the
    listen backlog, 2,048, per turn of the loop); count them into the storm log instead."""

    def __init__(self, storm: StormLog) -> None:
        super().__init__()
        self.storm = storm

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(ACCEPT_ERROR):
            return True
        exc = record.exc_info[1] if record.exc_info else None
        self.storm.note("accept_failed", str(exc) if exc else "")
        return False


class Member(Protocol):
    def evict(self) -> None: ...


class ConnectionGuard:
    """Counts one server's open connections (by address, and which wait for a request head) and decides
    which to admit, refuse or evict.  Members are protocol objects with an ``evict()`` method."""

    def __init__(self, head_timeout: float = HEAD_TIMEOUT, per_address: int | None = MAX_PER_ADDRESS,
                 capacity: int | None = None, storm: StormLog | None = None) -> None:
        self.head_timeout = head_timeout
        self.per_address = per_address or None
        self.capacity = capacity
        self.storm = storm or StormLog()
        self.storm.status = self.status
        self.peak = 0
        self._members: dict[Member, str | None] = {}
        self._by_address: Counter[str] = Counter()
        self._waiting: dict[Member, None] = {}  # insertion-ordered: the oldest waiting connection first

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, descriptor_limit: int | None = None
                 ) -> ConnectionGuard:
        """``TP_HEAD_TIMEOUT`` (seconds, default 5), ``TP_MAX_CONNECTIONS_PER_ADDRESS`` (default 300, 0 = off;
        multiplied by ``TP_RATE_LIMIT_SCALE``, off at 0), capacity from ``descriptor_limit``."""
        env = os.environ if environ is None else environ
        timeout = _number(env.get("TP_HEAD_TIMEOUT"), HEAD_TIMEOUT)
        per_address = _number(env.get("TP_MAX_CONNECTIONS_PER_ADDRESS"), MAX_PER_ADDRESS)
        scale = _number(env.get("TP_RATE_LIMIT_SCALE"), 1.0)
        cap = math.ceil(per_address * scale) if per_address and scale else None
        return cls(timeout or HEAD_TIMEOUT, cap, capacity_for(descriptor_limit))

    @property
    def open(self) -> int:
        return len(self._members)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def status(self) -> str:
        return f"; {self.open} open, {self.waiting} waiting for a head (peak {self.peak}, capacity {self.capacity})"

    def admit(self, member: Member, address: str | None) -> bool:
        """Register a new connection, evicting the oldest waiting one if full; False: refuse it."""
        if self.per_address is not None and address is not None and self._by_address[address] >= self.per_address:
            self.storm.note("refused_address", address)
            return False
        if self.capacity is not None and self.open >= self.capacity:
            if not self._waiting:
                self.storm.note("refused_full", address or "")
                return False
            victim = next(iter(self._waiting))
            self.storm.note("evicted", self._members.get(victim) or "")
            self.release(victim)
            victim.evict()
        self._members[member] = address
        if address is not None:
            self._by_address[address] += 1
        self._waiting[member] = None
        self.peak = max(self.peak, self.open)
        return True

    def wait_for_head(self, member: Member) -> None:
        """The connection waits for a request head again (after a response): it may be evicted, newest last."""
        if member in self._members:
            self._waiting.pop(member, None)
            self._waiting[member] = None

    def busy(self, member: Member) -> None:
        """A request head arrived (or a WebSocket opened): never evict this one."""
        self._waiting.pop(member, None)

    def timed_out(self, member: Member) -> None:
        self.storm.note("head_timeout", self._members.get(member) or "")
        self.busy(member)

    def release(self, member: Member) -> None:
        """The connection is gone (or going); safe to call twice."""
        self._waiting.pop(member, None)
        if member not in self._members:
            return
        address = self._members.pop(member)
        if address is not None:
            self._by_address[address] -= 1
            if self._by_address[address] <= 0:
                del self._by_address[address]


def _number(raw: str | None, default: float) -> float:
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-head deadline and the guard's admission (see the module)."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._armed_scope: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(self, self.client[0] if self.client else None):
            transport.abort()
            return
        self._arm()

    def _arm(self) -> None:
        """Start the deadline for the next request head (a new head is seen by uvicorn setting a new scope)."""
        self._cancel_deadline()
        self._armed_scope = self.scope
        self._deadline = self.loop.call_later(self.guard.head_timeout, self._head_timed_out)
        self.guard.wait_for_head(self)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _head_timed_out(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.guard.timed_out(self)
            self.transport.close()

    def evict(self) -> None:
        self._cancel_deadline()
        self.transport.abort()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._deadline is not None and self.scope is not self._armed_scope:
            self._cancel_deadline()
            self.guard.busy(self)

    def on_response_complete(self) -> None:
        before = self.scope
        super().on_response_complete()
        # a pipelined request already in hand (a new scope) keeps the connection busy
        if not self.transport.is_closing() and self.scope is before and self.conn.our_state is not h11.ERROR:
            self._arm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._cancel_deadline()
        self.guard.busy(self)
        super().handle_websocket_upgrade(event)
        # the transport now speaks to the WebSocket protocol: release this connection when that one ends
        ws = self.transport.get_protocol()
        if ws is self:
            return
        ws_lost = ws.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            try:
                ws_lost(exc)
            finally:
                self.guard.release(self)

        ws.connection_lost = connection_lost  # type: ignore[method-assign]

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        self.guard.release(self)
        super().connection_lost(exc)


def guarded_protocol(guard: ConnectionGuard) -> type[GuardedH11Protocol]:
    """The protocol class to give ``uvicorn.run(app, http=...)``, bound to ``guard``."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"guard": guard})


def install(guard: ConnectionGuard) -> type[GuardedH11Protocol]:
    """Count asyncio's accept errors into ``guard``'s storm log; return the protocol class for uvicorn."""
    asyncio_logger = logging.getLogger("asyncio")
    for old in [f for f in asyncio_logger.filters if isinstance(f, AcceptErrorFilter)]:
        asyncio_logger.removeFilter(old)
    asyncio_logger.addFilter(AcceptErrorFilter(guard.storm))
    return guarded_protocol(guard)
