"""Pushes across server instances through PostgreSQL ``LISTEN``/``NOTIFY`` (no new moving part).

Every instance listens on one channel of the shared database (named after
the database and schema, so two deployments, or parallel test runs, on one
server never hear each other).  A new line of a table's chat is announced the
same way (``c:<room>:<line>``), inside the transaction that stores it.  A table's new version is announced by a
``NOTIFY`` inside the very transaction that appends its events, so it goes
out exactly when the events are committed; an ended session is announced
the same way.  Each instance hands what it hears to its own hub (the sockets
then read their own views, from the log when their cache is behind) and to
its socket registry.  Its own messages it ignores: it has published them
locally already.

A table's notification carries the events that made the new version (with
the room's status and deadline) when they fit (they are a few hundred bytes;
PostgreSQL takes up to 8,000): an instance whose cached state is exactly the
version before folds them in (``RoomService.absorb``) and serves its sockets
from memory, with no read of the log.  They are the committed log records
themselves, sent by the transaction that appended them; a cache that is not
exactly one step behind, or a notification without events, is refreshed from
the log as before.  Every write is still decided against the version the
database holds.

A notification can be lost (the listening connection was cut, the database
restarted) or late.  So every ``RESYNC_SECONDS`` (the page's 2-s polling
period), and at once after each reconnection, the listener asks in one query
for the versions of the tables watched here and announces any that moved on
unheard: sockets converge within the period whatever was lost.

With SQLite there is no bus: the app is one process.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from ..jsontext import compact_json
from .hub import RoomHub

log = logging.getLogger("taiwan_poker.bus")

RECONNECT_SECONDS = 1.0
MAX_PAYLOAD = 7_900  # bytes; PostgreSQL refuses a notification of 8,000 or more
RESYNC_SECONDS = 2.0  # the version check of watched tables: the page's polling period


def channel_for(url: str) -> str:
    """The channel of one database and schema: ``tp_`` and a hash of the URL (channel names are identifiers)."""
    return "tp_" + hashlib.sha256(str(make_url(url).set(password=None)).encode()).hexdigest()[:20]


def _libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PushBus:
    """One listening connection per process; ``notify_*`` write into a caller's transaction or their own."""

    def __init__(self, url: str, hub: RoomHub, on_session_end: Callable[[str], object],
                 on_room: Callable[[int, int, dict[str, Any]], bool] | None = None) -> None:
        self.url = url
        self.on_room = on_room  # folds another instance's events into this one's cache (RoomService.absorb)
        self.channel = channel_for(url)
        self.instance = secrets.token_hex(4)
        self.hub = hub
        self.on_session_end = on_session_end
        self.heard = 0  # messages from other instances handed on
        self.resynced = 0  # tables announced by the version check (their notification was lost or late)
        self.reconnects = 0  # listening connections lost and made again
        self.absorbed = 0  # tables moved on in the cache from a notification's own events (no read of the log)
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    # -- sending --------------------------------------------------------------------------------------------

    def notify_room(self, conn: Connection, room_id: int, version: int, events: Sequence[dict[str, Any]] = (),
                    status: str | None = None, deadline: dt.datetime | None = None) -> None:
        """Announce a table's new version when ``conn``'s transaction commits, with the events that made it
        (and the room's status and deadline) when they fit in a notification."""
        conn.execute(text("SELECT pg_notify(:c, :p)"), dict(zip("cp", self.room_message(
            room_id, version, events, status, deadline), strict=True)))

    def room_message(self, room_id: int, version: int, events: Sequence[dict[str, Any]] = (),
                     status: str | None = None, deadline: dt.datetime | None = None) -> tuple[str, str]:
        """The channel and text of :meth:`notify_room`'s notification (for a caller that sends it itself)."""
        message = f"r:{room_id}:{version}"
        if events:
            body = compact_json({"e": list(events), "s": status, "d": deadline.isoformat() if deadline else None})
            if len(message) + len(body.encode()) + 16 < MAX_PAYLOAD:
                message = f"{message}|{body}"
        return self.channel, f"{self.instance}:{message}"

    def notify_chat(self, conn: Connection, room_id: int, line: int) -> None:
        """Announce a table's new chat line (its id only: each instance's sockets read what their member may)."""
        self._send(conn, f"c:{room_id}:{line}")

    def notify_session_end(self, conn: Connection, key: str) -> None:
        """Announce that a session (its hash) ended, so every instance closes its sockets."""
        self._send(conn, f"s:{key}")

    def _send(self, conn: Connection, message: str) -> None:
        conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": self.channel, "p": f"{self.instance}:{message}"})

    # -- listening ------------------------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Start listening (returns once the first ``LISTEN`` is in place, or after ``timeout``)."""
        self._thread = threading.Thread(target=self._run, name="tp-bus", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(_libpq_url(self.url), autocommit=True) as conn:
                    conn.execute(f'LISTEN "{self.channel}"')
                    self._ready.set()
                    checked = 0.0  # at once: whatever was sent while this connection was down is lost
                    while not self._stop.is_set():
                        if time.monotonic() - checked >= RESYNC_SECONDS:
                            checked = time.monotonic()
                            self._resync(conn)
                        for note in conn.notifies(timeout=0.5):
                            self._handle(note.payload)
            except Exception:  # the database restarted or the connection was cut: listen again shortly
                if self._stop.is_set():
                    return
                self.reconnects += 1
                log.warning("push bus connection lost; reconnecting", exc_info=True)
                self._stop.wait(RECONNECT_SECONDS)

    def _resync(self, conn: psycopg.Connection[Any]) -> None:
        """Announce every watched table whose stored version is ahead of what this instance announced."""
        watched = self.hub.watched()
        if not watched:
            return
        rows = conn.execute("SELECT id, version FROM rooms WHERE id = ANY(%s)", (list(watched),)).fetchall()
        for room_id, version in rows:
            if version > watched[room_id]:
                self.resynced += 1
                self.hub.publish(room_id, version)
        chat = self.hub.watched_chat()
        rows = conn.execute("SELECT room_id, max(id) FROM room_chat WHERE room_id = ANY(%s) GROUP BY room_id",
                            (list(chat),)).fetchall()
        for room_id, line in rows:
            if line > chat.get(room_id, 0):
                self.resynced += 1
                self.hub.publish_chat(room_id, line)

    def _handle(self, payload: str) -> None:
        head, _, body = payload.partition("|")
        instance, kind, *rest = head.split(":")
        if instance == self.instance:
            return
        self.heard += 1
        if kind == "r" and len(rest) == 2:
            room_id, version = int(rest[0]), int(rest[1])
            if body and self.on_room is not None:
                try:
                    if self.on_room(room_id, version, json.loads(body)):
                        self.absorbed += 1
                except Exception:  # the sockets will read the log instead
                    log.warning("a notification's events could not be folded", exc_info=True)
            self.hub.publish(room_id, version)
        elif kind == "c" and len(rest) == 2:
            self.hub.publish_chat(int(rest[0]), int(rest[1]))
        elif kind == "s" and len(rest) == 1:
            self.on_session_end(rest[0])
