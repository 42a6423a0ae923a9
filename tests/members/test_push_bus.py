"""Two app instances on one PostgreSQL: pushes and session ends cross instances through LISTEN/NOTIFY."""

from __future__ import annotations

import queue
import threading
from typing import Any

from fastapi import FastAPI

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
