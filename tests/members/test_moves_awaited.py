"""Issue 49: with PostgreSQL a socket's move is written on the event loop, its one statement awaited there.

The loop goes on serving everyone else while the statement waits (here for a row lock another connection holds),
and the loop's connections are handed out fairly: a connection given back goes to the move that has waited
longest, never to one that came after it.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import psycopg
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store import direct
from taiwan_poker.store.direct import LoopConnections
from tests.db_fixtures import PG_ADMIN_URL
from tests.members.conftest import AppFactory, client
from tests.members.test_moves_now import WAIT, Spy, _move
from tests.members.test_rooms_api import actor, state

LIBPQ = sa.make_url(PG_ADMIN_URL).set(drivername="postgresql").render_as_string(hide_password=False)
T = TypeVar("T")
LOCK_WAITS = sa.text("SELECT count(*) FROM pg_stat_activity "
                     "WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE rooms%'")


@pytest.fixture
def pg_pair(make_app: AppFactory, pg_url: str) -> Iterator[tuple[FastAPI, TestClient, TestClient, str]]:
    """Two members seated in a new 2-deck room of an app on PostgreSQL: (app, creator, joiner, code)."""
    app = make_app(database_url=pg_url)
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    yield app, a, b, code


def test_a_move_awaits_its_statement_on_the_loop_which_answers_others_meanwhile(
        pg_pair: tuple[FastAPI, TestClient, TestClient, str], pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app, a, b, room = pg_pair
    rooms: RoomService = app.state.rooms
    assert rooms.moves_now and rooms.moves_awaited
    spy = Spy(rooms, monkeypatch)
    me, other, st = actor(a, b, room)
    room_id = rooms.loader.room_id(room)
    blocker = sa.create_engine(pg_url).connect()  # holds the room's row, so the move's UPDATE waits for it
    blocker.execute(sa.text("SELECT id FROM rooms WHERE id = :id FOR UPDATE"), {"id": room_id})
    released = threading.Event()

    def release() -> None:
        if not released.is_set():
            released.set()
            blocker.rollback()

    # a loop blocked by the statement would never answer the ping: the lock is then let go after WAIT and the
    # assertion below fails, instead of the test hanging
    valve = threading.Timer(WAIT, release)
    try:
        # the second socket is the same client's (another tab): its messages are served by the same event loop
        with me.websocket_connect(f"/ws/rooms/{room}") as ws, me.websocket_connect(f"/ws/rooms/{room}") as ws_o:
            ws.receive_json()
            ws_o.receive_json()
            ws.send_text(_move(st, "k1"))
            # autocommit: each look is its own transaction (one holds one snapshot of the activity)
            with sa.create_engine(pg_url, isolation_level="AUTOCOMMIT").connect() as watch:
                waiting = _until(lambda: watch.execute(LOCK_WAITS).scalar())
            assert waiting, "the move's statement waits for the row"
            valve.start()
            ws_o.send_text(json.dumps({"type": "ping"}))
            assert ws_o.receive_json() == {"type": "pong"}
            assert not released.is_set(), "the loop answered while the statement waited"
            release()
            reply = ws.receive_json()
    finally:
        valve.cancel()
        release()
        blocker.close()
    assert reply["applied"] and reply["state"]["version"] > st["version"]
    assert spy.calls == [(True, "written")], "written on the loop, with no worker thread"
    assert state(other, room)["version"] == reply["state"]["version"]


def _until(probe: Callable[[], Any]) -> Any:
    """``probe()``'s first true value, asked again until WAIT seconds have passed (then its last)."""
    deadline = threading.Event()
    timer = threading.Timer(WAIT, deadline.set)
    timer.start()
    try:
        while not (value := probe()) and not deadline.is_set():
            deadline.wait(0.01)
        return value
    finally:
        timer.cancel()


# -- the loop's connections -------------------------------------------------------------------------------------


def _run(test: Callable[[LoopConnections], Awaitable[T]], size: int = 1) -> T:
    async def main() -> T:
        pool = LoopConnections(LIBPQ, size)
        try:
            return await test(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


async def _waiting(pool: LoopConnections, count: int) -> None:
    """Until ``count`` moves wait for a connection (the loop runs them up to their wait)."""
    while len(pool._waiters) < count:
        await asyncio.sleep(0)


def test_a_connection_given_back_goes_to_the_longest_waiting_move_not_a_newcomer() -> None:
    async def test(pool: LoopConnections) -> None:
        held = await pool._take()
        first = asyncio.ensure_future(pool._take())
        await _waiting(pool, 1)
        pool._give(held)
        newcomer = asyncio.ensure_future(pool._take())  # arrives after the hand-over, before the waiter runs
        assert await first is held
        await _waiting(pool, 1)
        assert not newcomer.done(), "the newcomer waits its turn"
        pool._give(held)
        assert await newcomer is held
        pool._give(held)
        assert pool._idle == [held] and pool._open == 1

    _run(test)


def test_a_move_that_gives_up_as_it_is_handed_a_connection_passes_it_on() -> None:
    async def test(pool: LoopConnections) -> None:
        held = await pool._take()
        first = asyncio.ensure_future(pool._take())
        second = asyncio.ensure_future(pool._take())
        await _waiting(pool, 2)
        pool._give(held)  # promised to the first ...
        first.cancel()  # ... which stops waiting before it runs
        assert await second is held
        with pytest.raises(asyncio.CancelledError):
            await first
        assert pool._open == 1 and not pool._waiters

    _run(test)


def test_a_discarded_connection_passes_its_place_to_a_waiting_move(monkeypatch: pytest.MonkeyPatch) -> None:
    async def test(pool: LoopConnections) -> None:
        held = await pool._take()
        waiting = asyncio.ensure_future(pool._take())
        await _waiting(pool, 1)
        await pool._discard(held)
        fresh = await waiting
        assert fresh is not held and not fresh.closed and held.closed
        assert pool._open == 1
        pool._give(fresh)

    _run(test)


def test_a_move_waits_for_a_connection_at_most_the_wait_and_its_place_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(direct, "WAIT_SECONDS", 0.05)

    async def test(pool: LoopConnections) -> None:
        held = await pool._take()
        with pytest.raises(psycopg.OperationalError, match="no free database connection"):
            await pool._take()
        assert not pool._waiters
        pool._give(held)
        assert await pool._take() is held and pool._open == 1
        pool._give(held)

    _run(test)


def test_a_statement_runs_on_the_loops_connection_and_a_refused_one_keeps_it() -> None:
    async def test(pool: LoopConnections) -> None:
        assert await pool.one_row("SELECT %(x)s::int + 1", {"x": 1}) == 2
        conn = pool._idle[-1]
        with pytest.raises(sa.exc.DBAPIError):
            await pool.one_row("SELECT 1 / %(x)s::int", {"x": 0})  # division by zero: the database refuses it
        assert pool._idle == [conn] and pool._open == 1, "a refused statement leaves a sound connection"

    _run(test)
