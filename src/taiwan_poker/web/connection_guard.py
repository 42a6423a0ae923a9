"""Connection guard: deadlines for request heads and bodies, caps per address and network, and room below the
descriptor limit.

uvicorn (h11) has no timeout for a request head or body: a client that sends ``GET / HTTP/1.1\\r\\nHost: x\\r\\n``
and never the blank line (audit, issue 19), or a whole head with ``Content-Length: 60000`` and then a body byte
every 20 seconds (audit, issue 51), holds its socket for ever, and twenty thousand such sockets use up the
process's file descriptors.  :func:`guarded_protocol` makes a subclass of uvicorn's ``H11Protocol`` (its
extension point: ``uvicorn.run(app, http=...)``) bound to one shared :class:`ConnectionGuard`, which

* closes a connection whose whole request head has not arrived within ``head_timeout`` seconds of the
  connection opening or of the previous response ending (a deadline, not a pause between bytes);
* answers 408 and closes a connection whose request body has not arrived within ``body_timeout`` seconds of
  its head, or that sends it slower than ``body_min_rate`` bytes a second on average once ``body_grace``
  seconds have passed (bodies are at most 64 KiB: a person's requests carry a few hundred bytes);
* refuses (aborts at once) a connection from an address that already holds ``per_address`` connections, or
  from a network (an IPv4 /24, an IPv6 /64) that already holds ``per_network``;
* keeps the open connections below the descriptor limit minus a reserve (for the database and files): when
  full, one connection makes way for the new one: the oldest that has not yet sent a whole request (waiting
  for its first head, or sending a body), else the oldest idle keep-alive connection waiting for its next
  head, so players' keep-alive connections are the last to go; a connection whose request is being served,
  or a WebSocket, is never evicted, and a new one is refused only when none of the others is left;
* logs a storm once: a warning at its first refusal, eviction or time-out, then at most one summary line
  a minute with counts (:class:`StormLog`); asyncio's per-accept "socket.accept() out of system resource"
  goes into the same summary (:class:`AcceptErrorFilter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
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

from .raw_errors import error_body, error_headers

HEAD_TIMEOUT = 5.0  # seconds for a whole request head
BODY_TIMEOUT = 10.0  # seconds for a whole request body after its head (64 KiB at most: 6.5 KiB/s)
BODY_MIN_RATE = 1024.0  # bytes a second on average since the head, checked from BODY_GRACE on
BODY_GRACE = 2.0  # seconds before the minimum rate applies
BODY_CHECK = 0.5  # seconds between checks of a body in flight
MAX_PER_ADDRESS = 300  # a classroom of 30-odd behind one NAT: ~6 connections and a WebSocket each, with room
MAX_PER_NETWORK = 1200  # an IPv4 /24 or IPv6 /64: four such classrooms (a carrier's NAT pool, a campus)
RESERVE_SHARE = 0.1  # of the descriptor limit, kept for the database, log and data files
MIN_RESERVE = 64
MAX_BACKLOG = 2048  # uvicorn's default
SUMMARY_SECONDS = 60.0
ACCEPT_ERROR = "socket.accept() out of system resource"

logger = logging.getLogger("taiwan_poker.connections")

KINDS = {
    "refused_address": "connections refused (per-address cap)",
    "refused_network": "connections refused (per-network cap)",
    "refused_full": "connections refused (descriptor limit, none left to evict)",
    "evicted": "connections evicted before a whole request (descriptor limit)",
    "evicted_idle": "idle keep-alive connections evicted (descriptor limit)",
    "head_timeout": "request heads timed out",
    "body_timeout": "request bodies timed out (deadline or minimum rate)",
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


def network_of(address: str) -> str:
    """The network an address belongs to for the per-network cap: its IPv4 /24 or IPv6 /64 (an IPv4-mapped
    IPv6 address counts as IPv4); anything that is not an IP address is its own network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network((ip, prefix), strict=False))


class ConnectionGuard:
    """Counts one server's open connections (by address and network, and which may be evicted) and decides
    which to admit, refuse or evict.  Members are protocol objects with an ``evict()`` method.

    Evictable connections are kept in two queues, oldest first: ``_unproven`` (waiting for a first head, or
    sending a request body) and ``_idle`` (keep-alive connections that were answered and wait for their next
    head).  A connection whose request is being served, or a WebSocket, is in neither."""

    def __init__(self, head_timeout: float = HEAD_TIMEOUT, per_address: int | None = MAX_PER_ADDRESS,
                 capacity: int | None = None, storm: StormLog | None = None, *,
                 per_network: int | None = MAX_PER_NETWORK, body_timeout: float = BODY_TIMEOUT,
                 body_min_rate: float = BODY_MIN_RATE, body_grace: float = BODY_GRACE) -> None:
        self.head_timeout = head_timeout
        self.body_timeout = body_timeout
        self.body_min_rate = body_min_rate
        self.body_grace = body_grace
        self.per_address = per_address or None
        self.per_network = per_network or None
        self.capacity = capacity
        self.storm = storm or StormLog()
        self.storm.status = self.status
        self.peak = 0
        self._members: dict[Member, tuple[str, str] | None] = {}
        self._by_address: Counter[str] = Counter()
        self._by_network: Counter[str] = Counter()
        self._unproven: dict[Member, None] = {}  # insertion-ordered: the oldest first
        self._idle: dict[Member, None] = {}

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, descriptor_limit: int | None = None
                 ) -> ConnectionGuard:
        """``TP_HEAD_TIMEOUT`` and ``TP_BODY_TIMEOUT`` (seconds, default 5 and 10),
        ``TP_MAX_CONNECTIONS_PER_ADDRESS`` and ``TP_MAX_CONNECTIONS_PER_NETWORK`` (default 300 and 1,200, 0 = off;
        multiplied by ``TP_RATE_LIMIT_SCALE``, off at 0), capacity from ``descriptor_limit``."""
        env = os.environ if environ is None else environ
        scale = _number(env.get("TP_RATE_LIMIT_SCALE"), 1.0)

        def cap(name: str, default: int) -> int | None:
            value = _number(env.get(name), default)
            return math.ceil(value * scale) if value and scale else None

        return cls(_number(env.get("TP_HEAD_TIMEOUT"), HEAD_TIMEOUT) or HEAD_TIMEOUT,
                   cap("TP_MAX_CONNECTIONS_PER_ADDRESS", MAX_PER_ADDRESS), capacity_for(descriptor_limit),
                   per_network=cap("TP_MAX_CONNECTIONS_PER_NETWORK", MAX_PER_NETWORK),
                   body_timeout=_number(env.get("TP_BODY_TIMEOUT"), BODY_TIMEOUT) or BODY_TIMEOUT)

    @property
    def open(self) -> int:
        return len(self._members)

    @property
    def waiting(self) -> int:
        """Connections that may be evicted: waiting for a head or sending a body."""
        return len(self._unproven) + len(self._idle)

    def status(self) -> str:
        return (f"; {self.open} open, {len(self._unproven)} before a whole request, {len(self._idle)} idle "
                f"(peak {self.peak}, capacity {self.capacity})")

    def admit(self, member: Member, address: str | None) -> bool:
        """Register a new connection, evicting one if full (see the class); False: refuse it."""
        network = network_of(address) if address is not None else None
        if address is not None and self.per_address is not None and self._by_address[address] >= self.per_address:
            self.storm.note("refused_address", address)
            return False
        if network is not None and self.per_network is not None and self._by_network[network] >= self.per_network:
            self.storm.note("refused_network", network)
            return False
        if self.capacity is not None and self.open >= self.capacity:
            queue, kind = (self._unproven, "evicted") if self._unproven else (self._idle, "evicted_idle")
            if not queue:
                self.storm.note("refused_full", address or "")
                return False
            victim = next(iter(queue))
            where = self._members.get(victim)
            self.storm.note(kind, where[0] if where else "")
            self.release(victim)
            victim.evict()
        self._members[member] = (address, network) if address is not None and network is not None else None
        if address is not None and network is not None:
            self._by_address[address] += 1
            self._by_network[network] += 1
        self._unproven[member] = None
        self.peak = max(self.peak, self.open)
        return True

    def wait_for_head(self, member: Member) -> None:
        """The connection was answered and waits for its next head: the last to be evicted, newest last."""
        if member in self._members:
            self._unproven.pop(member, None)
            self._idle.pop(member, None)
            self._idle[member] = None

    def reading_body(self, member: Member) -> None:
        """A request head arrived and its body is on its way: evictable with the unproven, newest last."""
        if member in self._members:
            self._idle.pop(member, None)
            self._unproven.pop(member, None)
            self._unproven[member] = None

    def busy(self, member: Member) -> None:
        """A whole request arrived (or a WebSocket opened): never evict this one."""
        self._unproven.pop(member, None)
        self._idle.pop(member, None)

    def timed_out(self, member: Member, kind: str = "head_timeout") -> None:
        where = self._members.get(member)
        self.storm.note(kind, where[0] if where else "")
        self.busy(member)

    def release(self, member: Member) -> None:
        """The connection is gone (or going); safe to call twice."""
        self.busy(member)
        if member not in self._members:
            return
        where = self._members.pop(member)
        if where is not None:
            for counter, key in ((self._by_address, where[0]), (self._by_network, where[1])):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]


def _number(raw: str | None, default: float) -> float:
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default


HEAD, BODY, SERVING = "head", "body", "serving"  # where a connection's current request stands


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with deadlines for request heads and bodies and the guard's admission (see the
    module)."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._armed_scope: object = None
        self._phase = HEAD
        self._body_started = 0.0
        self._body_bytes = 0

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
        self._phase = HEAD
        self._deadline = self.loop.call_later(self.guard.head_timeout, self._head_timed_out)

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

    def _body_done(self) -> bool:
        return self.cycle is None or not self.cycle.more_body or self.conn.their_state is not h11.SEND_BODY

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._phase == HEAD and self.scope is not self._armed_scope:  # a new request head arrived
            self._cancel_deadline()
            if self._body_done():
                self._serving()
                return
            self._phase = BODY
            self._body_started = self.loop.time()
            self._body_bytes = 0
            self.guard.reading_body(self)
            self._deadline = self.loop.call_later(BODY_CHECK, self._check_body)
        elif self._phase == BODY:
            self._body_bytes += len(data)
            if self._body_done():
                self._serving()

    def _serving(self) -> None:
        self._cancel_deadline()
        self._phase = SERVING
        self.guard.busy(self)

    def _check_body(self) -> None:
        """A body in flight: past its deadline, or slower than the minimum rate after the grace, it is refused."""
        self._deadline = None
        if self._phase != BODY or self.transport.is_closing():
            return
        elapsed = self.loop.time() - self._body_started
        guard = self.guard
        too_slow = elapsed >= guard.body_grace and self._body_bytes < guard.body_min_rate * elapsed
        if elapsed >= guard.body_timeout or too_slow:
            self._body_timed_out()
            return
        self._deadline = self.loop.call_later(min(BODY_CHECK, guard.body_timeout - elapsed), self._check_body)

    def _body_timed_out(self) -> None:
        """Answer 408 ``request_timeout`` (unless an answer has begun) and close; the app is told the client left."""
        self._phase = SERVING
        self.guard.timed_out(self, "body_timeout")
        cycle = self.cycle
        answer = cycle is not None and not cycle.response_started and self.conn.our_state is h11.SEND_RESPONSE
        if cycle is not None:
            cycle.disconnected = True  # the app's receive() gets http.disconnect; what it sends is dropped
            cycle.message_event.set()
        if answer:
            body = error_body(dict(self.scope), "request_timeout", seconds=round(self.guard.body_timeout))
            with contextlib.suppress(h11.LocalProtocolError):
                self.transport.write(self.conn.send(h11.Response(
                    status_code=408, reason=b"Request Timeout",
                    headers=error_headers(body, (b"connection", b"close")))))
                self.transport.write(self.conn.send(h11.Data(data=body)))
                self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()

    def on_response_complete(self) -> None:
        before = self.scope
        super().on_response_complete()
        # a pipelined request already in hand (a new scope) keeps the connection busy
        if not self.transport.is_closing() and self.scope is before and self.conn.our_state is not h11.ERROR:
            self._arm()
            self.guard.wait_for_head(self)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._serving()
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
