"""A few database connections of the driver's own, for the write every move makes.

A move's write is small and fixed: the version-guarded update of the room, its events, the idempotency key (and on
PostgreSQL the cross-instance notification). Measured, SQLAlchemy's connection checkout, execution context and
result took more CPU than the driver itself (issue 49: on PostgreSQL about twice the driver's round trip, on SQLite
three times the statements). :class:`DirectConnections` keeps a bounded pool of the driver's connections, set up as
the engine sets up its own (store/db.py), and runs such writes on them: on PostgreSQL one statement in autocommit
(:func:`~taiwan_poker.store.repo.append_events_direct`), on SQLite one transaction. Values are converted by the
engine's own column types, so what is stored is what SQLAlchemy would have stored. A driver error comes out as
SQLAlchemy's (``IntegrityError`` for a used idempotency key, ``DBAPIError`` for a database that does not answer),
so callers treat it as any other; a connection that failed is closed with the idle ones (as the engine's pool does
after a disconnection), and the next write opens a fresh one. A move written on the event loop uses, on PostgreSQL,
connections of that loop's own (:class:`LoopConnections`), its statement awaited there.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import queue
import sqlite3
import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import psycopg
from sqlalchemy import JSON, DateTime, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.util import await_only

T = TypeVar("T")

CONNECTIONS = 10  # at most this many (the worker threads' and the event loop's); a write waits for one beyond that
CONNECT_TIMEOUT = 5  # seconds to open a PostgreSQL connection (a database that does not answer is an error)
WAIT_SECONDS = 30.0  # longest wait for a free connection
SQLITE_BUSY_SECONDS = 30  # as the engine's connect_args
SQLITE_BUSY_NOW_MS = 20  # a write on the event loop waits at most this long for SQLite's write lock
LOOP_CONNECTIONS = 16  # PostgreSQL connections of the event loop's own (moves in flight beyond that wait for one)


class Busy(Exception):
    """A write asked to run at once could not (no free connection, SQLite's write lock held elsewhere): nothing
    was written, and the caller may make it again where waiting is allowed."""


class DirectConnections:
    """The driver's connections to the engine's database (PostgreSQL or SQLite); safe from several threads."""

    def __init__(self, engine: Engine, size: int = CONNECTIONS) -> None:
        self.dialect = engine.dialect.name
        url = engine.url
        if self.dialect == "postgresql":
            self._base_error: type[Exception] = psycopg.Error
            self._libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)
        elif self.dialect == "sqlite":
            self._base_error = sqlite3.Error
            self._path = url.database or ":memory:"
        else:  # pragma: no cover - the app runs on these two
            raise ValueError(f"no direct connections for {self.dialect}")
        # the engine's conversions of a timestamp and a JSON document to what the driver is given
        dialect = engine.dialect
        self.timestamp: Callable[[Any], Any] = DateTime(timezone=True).dialect_impl(dialect).bind_processor(
            dialect) or (lambda v: v)
        self.json: Callable[[Any], Any] = JSON().dialect_impl(dialect).bind_processor(dialect) or (lambda v: v)
        self._free: queue.LifoQueue[Any] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(size)
        self._open: set[Any] = set()
        self._guard = threading.Lock()
        # PostgreSQL: each event loop's own (:meth:`one_row_now`; the app has one, a test's clients one each)
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopConnections] = \
            weakref.WeakKeyDictionary()

    def run(self, work: Callable[[Any], T], statement: str, *, now: bool = False) -> T:
        """``work(connection)`` on a free connection (``statement`` names it in an error). ``now`` (a write on the
        event loop, SQLite): never wait for a connection, and for the database's write lock only
        :data:`SQLITE_BUSY_NOW_MS`; :class:`Busy` instead, with nothing written."""
        if not self._slots.acquire(timeout=0 if now else WAIT_SECONDS):
            if now:
                raise Busy("no free database connection")
            raise DBAPIError.instance(statement, None, self._operational("no free database connection"),
                                      self._base_error)
        conn: Any = None
        try:
            conn = self._take()
            if now and self.dialect == "sqlite":
                conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_NOW_MS}")
                try:
                    result = work(conn)
                except sqlite3.OperationalError as exc:
                    if not _locked(exc):
                        raise
                    raise Busy("the database is busy") from exc  # rolled back (the work's own), and fine
                finally:
                    conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_SECONDS * 1000}")
            else:
                result = work(conn)
            self._free.put(conn)
            conn = None
            return result
        except Busy:
            self._free.put(conn)
            conn = None
            raise
        except self._base_error as exc:
            broken = conn is not None and self._broken(conn, exc)
            if conn is not None and not broken:  # a refused write (a used key): the connection is fine
                self._free.put(conn)
                conn = None
            elif broken:  # as SQLAlchemy's pool does: the idle ones are likely dead too (a database restart)
                self._drain()
            raise DBAPIError.instance(statement, None, exc, self._base_error,
                                      connection_invalidated=broken) from exc
        finally:
            if conn is not None:
                self._discard(conn)
            self._slots.release()

    def one_row_now(self, sql: str, params: Mapping[str, Any]) -> Any:
        """PostgreSQL: ``sql``'s first column of its one row (None: no row), awaited on the event loop by the
        calling code's greenlet (SQLAlchemy's ``greenlet_spawn``, as its asyncio extension runs sync code), on
        the loop's own connections (:class:`LoopConnections`)."""
        loop = asyncio.get_running_loop()
        connections = self._loops.get(loop)
        if connections is None:
            connections = self._loops[loop] = LoopConnections(self._libpq)
        return await_only(connections.one_row(sql, params))

    async def close_now(self) -> None:
        """Close the event loop's connections (on that loop, as the app stops)."""
        connections = self._loops.pop(asyncio.get_running_loop(), None)
        if connections is not None:
            await connections.close()

    def _operational(self, message: str) -> Exception:
        return psycopg.OperationalError(message) if self.dialect == "postgresql" else sqlite3.OperationalError(message)

    def _broken(self, conn: Any, exc: BaseException) -> bool:
        if self.dialect == "postgresql":
            return bool(conn.closed or conn.broken or isinstance(exc, psycopg.OperationalError)
                        or not isinstance(exc, psycopg.DatabaseError))
        return not isinstance(exc, sqlite3.IntegrityError)  # and roll back whatever it left open
        # (a busy database or a full disk: the connection is closed rather than reused in an unknown state)

    def _take(self) -> Any:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            pass
        conn: Any
        if self.dialect == "postgresql":
            conn = psycopg.connect(self._libpq, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            # the engine's setting (store/db.py): a commit does not wait for the WAL to reach the disk
            conn.execute("SET synchronous_commit TO off")
        else:  # the engine's pragmas (store/db.py); transactions are begun and ended explicitly
            conn = sqlite3.connect(self._path, timeout=SQLITE_BUSY_SECONDS, check_same_thread=False,
                                   isolation_level=None)
            for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL"):
                conn.execute(f"PRAGMA {pragma}")
        with self._guard:
            self._open.add(conn)
        return conn

    def _discard(self, conn: Any) -> None:
        with self._guard:
            self._open.discard(conn)
        with contextlib.suppress(self._base_error):
            conn.close()

    def _drain(self) -> None:
        """Close the idle connections."""
        while True:
            try:
                self._discard(self._free.get_nowait())
            except queue.Empty:
                return

    def close(self) -> None:
        """Close every connection (as ``Engine.dispose``: later writes open new ones)."""
        with self._guard:
            conns, self._open = list(self._open), set()
        self._drain()
        for conn in conns:
            with contextlib.suppress(self._base_error):
                conn.close()


def _locked(exc: sqlite3.OperationalError) -> bool:
    """SQLite's answer when its write lock stayed taken for the whole busy timeout."""
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) \
        or "locked" in str(exc)


class LoopConnections:
    """PostgreSQL connections of one event loop (psycopg's ``AsyncConnection``, in autocommit): a move's one
    statement is awaited on the loop instead of handed to a worker thread and back (issue 49). Used from that
    loop only, so it needs no lock. Fair: a connection given back goes to the move that has waited longest, never
    to one that came later (an ``asyncio.Queue`` lets a newcomer take what a woken waiter was promised, and under
    load the waiters starved). A connection that failed is closed with the idle ones, and its place passes on."""

    def __init__(self, libpq: str, size: int = LOOP_CONNECTIONS) -> None:
        self.libpq = libpq
        self.size = size
        self._idle: list[psycopg.AsyncConnection[Any]] = []  # the last given back first (the warmest)
        # in order of arrival: each is given a connection, or None (a place to open one in)
        self._waiters: collections.deque[asyncio.Future[psycopg.AsyncConnection[Any] | None]] = collections.deque()
        self._open = 0  # connections open or being opened, and places handed to a waiter

    async def _take(self) -> psycopg.AsyncConnection[Any]:
        """An idle connection, a new one while fewer than ``size`` are open, else the next one given back after
        those asked for before (a move awaiting it holds up no other: the loop goes on)."""
        if self._idle:
            return self._idle.pop()
        if self._open < self.size and not self._waiters:
            self._open += 1
            return await self._connect()
        waiter: asyncio.Future[psycopg.AsyncConnection[Any] | None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(WAIT_SECONDS):
                conn = await waiter
        except BaseException as exc:
            if waiter.done() and not waiter.cancelled():  # handed over just as this move gave up: pass it on
                self._give(waiter.result())
            else:
                waiter.cancel()
                self._waiters.remove(waiter)
            if isinstance(exc, TimeoutError):
                raise psycopg.OperationalError("no free database connection on the event loop") from None
            raise
        return conn if conn is not None else await self._connect()

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        """A new connection, in a place already counted in ``_open`` (given up if it cannot be opened)."""
        try:
            conn = await psycopg.AsyncConnection.connect(self.libpq, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            await conn.execute("SET synchronous_commit TO off")  # the engine's setting (store/db.py)
        except BaseException:
            self._give(None)
            raise
        return conn

    def _give(self, conn: psycopg.AsyncConnection[Any] | None) -> None:
        """A connection given back (None: a place freed) goes to the longest waiting move, else stays idle."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        if conn is None:
            self._open -= 1
        else:
            self._idle.append(conn)

    async def one_row(self, sql: str, params: Mapping[str, Any]) -> Any:
        """``sql``'s first column of its one row, or None; driver errors as SQLAlchemy's (as :meth:`run`)."""
        try:
            conn = await self._take()
        except psycopg.Error as exc:
            raise DBAPIError.instance(sql, None, exc, psycopg.Error, connection_invalidated=True) from exc
        try:
            async with conn.cursor() as cur:
                await cur.execute(sql, params)
                row = await cur.fetchone()
        except psycopg.Error as exc:
            broken = bool(conn.closed or conn.broken or isinstance(exc, psycopg.OperationalError)
                          or not isinstance(exc, psycopg.DatabaseError))
            if broken:
                await self._discard(conn)
                await self.close()  # as SQLAlchemy's pool does: the idle ones are likely dead too
            else:  # a refused write (a used key): the connection is fine
                self._give(conn)
            raise DBAPIError.instance(sql, None, exc, psycopg.Error, connection_invalidated=broken) from exc
        except BaseException:  # cancelled mid-statement: the connection's state is not known
            await asyncio.shield(self._discard(conn))
            raise
        self._give(conn)
        return row[0] if row is not None else None

    async def _discard(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._give(None)
        with contextlib.suppress(psycopg.Error):
            await conn.close()

    async def close(self) -> None:
        """Close the idle connections."""
        while self._idle:
            conn = self._idle.pop()
            self._open -= 1
            with contextlib.suppress(psycopg.Error):
                await conn.close()
