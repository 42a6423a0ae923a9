"""Issue 49: with SQLite a socket's move is written on the event loop itself, and only when that needs no wait.

A move whose room is being written by another thread, or whose database write lock is taken, is not waited for on
the loop: nothing is written there, the worker thread writes it, and the loop meanwhile answers everyone else.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store.direct import SQLITE_BUSY_SECONDS, Busy, DirectConnections
from tests.members.test_rooms_api import actor, state

WAIT = 30.0  # seconds a step of these tests may take at most (a condition, never a sleep)


def _move(st: dict[str, Any], key: str) -> str:
    return json.dumps({"type": "action", "version": st["version"], "key": key, "action": {"kind": "call"}})


class Spy:
    """Wraps ``RoomService.act``: which calls were made at once (``now``) and whether they were written there."""

    def __init__(self, rooms: RoomService, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[bool, str]] = []
        self.in_thread = threading.Event()
        act = rooms.act

        def spy(*args: Any, now: bool = False, **kw: Any) -> Any:
            if not now:
                self.in_thread.set()
            try:
                result = act(*args, **{**kw, "now": now})
            except Busy:
                self.calls.append((now, "busy"))
                raise
            self.calls.append((now, "written"))
            return result

        monkeypatch.setattr(rooms, "act", spy)


def test_a_move_is_written_on_the_event_loop_with_sqlite(
        app: FastAPI, pair: tuple[TestClient, TestClient, str], monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, room = pair
    rooms: RoomService = app.state.rooms
    assert rooms.moves_now, "the app runs on SQLite here"
    spy = Spy(rooms, monkeypatch)
    me, _, st = actor(a, b, room)
    with me.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.receive_json()
        ws.send_text(_move(st, "k1"))
        reply = ws.receive_json()
    assert reply["applied"] and reply["state"]["version"] > st["version"]
    assert spy.calls == [(True, "written")], "written at once, on the loop, with no worker thread"
    assert state(me, room)["version"] == reply["state"]["version"]


class RoomBusy:
    """Another thread is writing the room: it holds the room's lock."""

    def __init__(self, rooms: RoomService, room: str) -> None:
        self.lock = rooms.loader.locks(rooms.loader.room_id(room))

    def hold(self) -> None:
        assert self.lock.take()

    def release(self) -> None:
        self.lock.release()


class DatabaseLocked:
    """Another connection holds SQLite's write lock."""

    def __init__(self, rooms: RoomService, room: str) -> None:
        self.writer = sqlite3.connect(rooms.db.engine.url.database or "", isolation_level=None)

    def hold(self) -> None:
        self.writer.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.writer.execute("ROLLBACK")
        self.writer.close()


@pytest.mark.parametrize("busy", [RoomBusy, DatabaseLocked])
def test_a_move_that_would_wait_is_written_on_a_worker_thread_and_the_loop_answers_meanwhile(
        app: FastAPI, pair: tuple[TestClient, TestClient, str], monkeypatch: pytest.MonkeyPatch,
        busy: type[RoomBusy | DatabaseLocked]) -> None:
    a, b, room = pair
    rooms: RoomService = app.state.rooms
    spy = Spy(rooms, monkeypatch)
    me, other, st = actor(a, b, room)
    blocker = busy(rooms, room)
    with me.websocket_connect(f"/ws/rooms/{room}") as ws, other.websocket_connect(f"/ws/rooms/{room}") as ws_o:
        ws.receive_json()
        ws_o.receive_json()
        blocker.hold()
        try:
            ws.send_text(_move(st, "k2"))
            assert spy.in_thread.wait(WAIT), "the move went on to a worker thread"
            ws_o.send_text(json.dumps({"type": "ping"}))
            assert ws_o.receive_json() == {"type": "pong"}, "the event loop is not held up by the wait"
            assert rooms.loader.cached(room, st["version"] + 1) is None, "nothing was written on the loop"
        finally:
            blocker.release()
        reply = ws.receive_json()
    assert reply["applied"] and reply["state"]["version"] > st["version"]
    assert spy.calls == [(True, "busy"), (False, "written")]
    assert state(other, room)["version"] == reply["state"]["version"], "written once"


def test_a_write_at_once_on_a_locked_database_leaves_its_connection_as_it_was(tmp_path: Any) -> None:
    import sqlalchemy as sa

    path = tmp_path / "busy.sqlite3"
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(sa.text("PRAGMA journal_mode=WAL"))  # as the app's database
        conn.execute(sa.text("CREATE TABLE t (x INTEGER)"))
    direct = DirectConnections(engine, size=1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")

    def insert(conn: Any) -> None:
        conn.execute("BEGIN")
        try:
            conn.execute("INSERT INTO t VALUES (1)")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    with pytest.raises(Busy):
        direct.run(insert, "INSERT", now=True)
    holder.execute("ROLLBACK")
    holder.close()
    # the one connection is back, with the engine's busy timeout, and takes the next write
    assert direct.run(lambda conn: conn.execute("PRAGMA busy_timeout").fetchone()[0], "PRAGMA") \
        == SQLITE_BUSY_SECONDS * 1000
    direct.run(insert, "INSERT", now=True)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM t")).scalar() == 1, "the busy write stored nothing"
    direct.close()
    engine.dispose()
