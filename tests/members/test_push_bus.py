"""Two app instances on one PostgreSQL: pushes and session ends cross instances through LISTEN/NOTIFY."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import pytest
from fastapi import FastAPI

from taiwan_poker.rooms.bus import RESYNC_SECONDS
from taiwan_poker.store import repo
from tests.members.conftest import AppFactory, client
from tests.members.test_hardening import _expect_session_ended


def receive(ws: Any, seconds: float = 10.0) -> dict[str, Any]:
    """The next message, or a failure after ``seconds`` (a lost push must fail the test, not hang it)."""
    box: queue.Queue[Any] = queue.Queue()
    threading.Thread(target=lambda: box.put(ws.receive_json()), daemon=True).start()
    try:
        return dict(box.get(timeout=seconds))
    except queue.Empty:
        raise AssertionError(f"no message within {seconds} s") from None


def test_a_move_on_one_instance_reaches_a_socket_on_the_other_and_a_sign_out_closes_it(
        make_app: AppFactory, pg_url: str) -> None:
    one: FastAPI = make_app(database_url=pg_url, push_bus=True)
    two: FastAPI = make_app(database_url=pg_url, push_bus=True)
    a, b = client(one, "Alice"), client(one, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    elsewhere = client(two)  # Bob's browser, connected to the other instance
    elsewhere.cookies.update(b.cookies)
    with elsewhere.websocket_connect(f"/ws/rooms/{code}") as ws:
        first = receive(ws)["state"]
        assert first["hand"]["you"]["hole"], "instance two serves Bob's own view"
        version = first["version"]
        actor = a if a.get(f"/api/rooms/{code}").json()["you"] == first["hand"]["to_act"] else b
        legal = actor.get(f"/api/rooms/{code}").json()["hand"]["legal"]["actions"]
        r = actor.post(f"/api/rooms/{code}/actions",
                       json={"version": version, "action": {"kind": "call" if "call" in legal else "check"}})
        assert r.status_code == 200 and r.json()["applied"]
        pushed = receive(ws)
        assert pushed["type"] == "state" and pushed["state"]["version"] > version, "the push crossed instances"
        assert pushed["state"]["hand"]["you"]["seat"] == first["hand"]["you"]["seat"]
        assert two.state.rooms.bus is not None and two.state.rooms.bus.heard >= 1
        assert b.post("/api/auth/logout").status_code == 200  # on instance one
        _expect_session_ended(ws)  # instance two closes Bob's socket too


def test_lost_and_late_notifications_converge_within_the_polling_period(make_app: AppFactory, pg_url: str) -> None:
    """Instance two hears none of the table's notifications (simulated loss): its socket still gets each new
    state within the 2-s period, by the listener's version check; a late one arriving after it changes nothing."""
    one: FastAPI = make_app(database_url=pg_url, push_bus=True)
    two: FastAPI = make_app(database_url=pg_url, push_bus=True)
    a, b = client(one, "Alice"), client(one, "Bob")
    elsewhere = client(two)  # starts instance two (and its listener)
    bus = two.state.rooms.bus
    assert bus is not None
    late: list[str] = []
    handle = bus._handle
    bus._handle = lambda payload: late.append(payload) if ":r:" in payload else handle(payload)  # type: ignore[method-assign]
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    elsewhere.cookies.update(b.cookies)
    with elsewhere.websocket_connect(f"/ws/rooms/{code}") as ws:
        version = receive(ws)["state"]["version"]
        for _ in range(2):
            state = a.get(f"/api/rooms/{code}").json()
            actor = a if state["you"] == state["hand"]["to_act"] else b
            legal = actor.get(f"/api/rooms/{code}").json()["hand"]["legal"]["actions"]
            sent = time.monotonic()
            r = actor.post(f"/api/rooms/{code}/actions",
                           json={"version": version, "action": {"kind": "call" if "call" in legal else "check"}})
            assert r.status_code == 200 and r.json()["applied"]
            pushed = receive(ws, seconds=5)
            waited = time.monotonic() - sent
            assert pushed["state"]["version"] == r.json()["state"]["version"] > version
            assert waited < RESYNC_SECONDS + 1.0, f"converged in {waited:.2f} s"
            version = pushed["state"]["version"]
        assert len(late) >= 2 and bus.resynced >= 2, "the notifications were lost and the version check announced"
        for payload in late:  # the lost notifications arrive late after all: nothing is sent again
            handle(payload)
        ws.send_json({"type": "ping"})
        assert receive(ws)["type"] == "pong", "no stale or repeated state was pushed"


def test_a_notification_carries_the_events_and_the_other_instance_serves_its_socket_from_memory(
        make_app: AppFactory, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Instance two folds the events a notification carries onto its cached table (no read of the log) and the
    result is what a fresh replay of the log gives; a notification that skips a version is not folded."""
    one: FastAPI = make_app(database_url=pg_url, push_bus=True)
    two: FastAPI = make_app(database_url=pg_url, push_bus=True)
    a, b = client(one, "Alice"), client(one, "Bob")
    elsewhere = client(two)
    elsewhere.cookies.update(b.cookies)
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    bus = two.state.rooms.bus
    assert bus is not None
    reads: list[int] = []
    real_load = repo.load_stored_events
    with elsewhere.websocket_connect(f"/ws/rooms/{code}") as ws:
        version = receive(ws)["state"]["version"]
        monkeypatch.setattr(repo, "load_stored_events", lambda *args: reads.append(1) or real_load(*args))
        for _ in range(3):
            state = a.get(f"/api/rooms/{code}").json()
            if state["hand"]["complete"]:
                break
            actor = a if state["you"] == state["hand"]["to_act"] else b
            legal = actor.get(f"/api/rooms/{code}").json()["hand"]["legal"]["actions"]
            r = actor.post(f"/api/rooms/{code}/actions",
                           json={"version": version, "action": {"kind": "call" if "call" in legal else "check"}})
            assert r.status_code == 200 and r.json()["applied"]
            pushed = receive(ws)["state"]
            assert pushed["version"] == r.json()["state"]["version"]
            version = pushed["version"]
        assert bus.absorbed >= 1 and not reads, "served from the notification's events, the log not read"
        monkeypatch.undo()
    pushed_view = elsewhere.get(f"/api/rooms/{code}").json()
    fresh = make_app(database_url=pg_url)
    reader = client(fresh)
    reader.cookies.update(b.cookies)
    volatile = ("server_time", "seconds_left")
    assert ({k: v for k, v in pushed_view.items() if k not in volatile}
            == {k: v for k, v in reader.get(f"/api/rooms/{code}").json().items() if k not in volatile})
    rooms = two.state.rooms
    room_id = rooms.loader.room_id(code)
    cached = rooms.loader._cache.get(room_id)
    assert cached is not None
    assert not rooms.absorb(room_id, cached.state.version + 2, {"e": [{"v": 2, "type": "x"}], "s": "playing"}), \
        "events that do not follow the cached version directly are left to the log"


def test_a_chat_line_and_a_host_action_on_one_instance_reach_a_socket_on_the_other(
        make_app: AppFactory, pg_url: str) -> None:
    """Issue 23: table talk lives outside the log, with its own notification (the line's id); the host's controls
    are table events. Bob's socket on instance two gets Alice's line (and not Carol's, whom he muted) and the
    table paused by Alice on instance one, each within the polling period."""
    one: FastAPI = make_app(database_url=pg_url, push_bus=True)
    two: FastAPI = make_app(database_url=pg_url, push_bus=True)
    alice, bob, carol = client(one, "Alice"), client(one, "Bob"), client(one, "Carol")
    code = alice.post("/api/rooms", json={"seats": 3}).json()["code"]
    for c in (bob, carol):
        assert c.post(f"/api/rooms/{code}/join").status_code == 200  # full: hand 1 is dealt
    assert bob.post(f"/api/rooms/{code}/mute", json={"seat": 2}).status_code == 200
    elsewhere = client(two)
    elsewhere.cookies.update(bob.cookies)
    with elsewhere.websocket_connect(f"/ws/rooms/{code}") as ws:
        first = receive(ws)
        assert first["type"] == "state"
        sent = time.monotonic()
        assert carol.post(f"/api/rooms/{code}/chat", json={"text": "muted line"}).status_code == 200
        assert alice.post(f"/api/rooms/{code}/chat", json={"text": "hello from instance one"}).status_code == 200
        while (msg := receive(ws, seconds=5))["type"] != "chat":
            pass
        assert [m["text"] for m in msg["messages"]] == ["hello from instance one"], msg
        assert time.monotonic() - sent < RESYNC_SECONDS + 1.0
        assert alice.post(f"/api/rooms/{code}/pause").status_code == 200
        while (msg := receive(ws, seconds=5))["type"] != "state" or msg["state"]["paused"] is None:
            pass
        assert msg["state"]["paused"] == {"by": "Alice"} and msg["state"]["log"][-1]["type"] == "table_paused"
        bus = two.state.rooms.bus
        assert bus is not None and bus.heard >= 3
