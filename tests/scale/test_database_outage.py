"""PostgreSQL goes away mid-match (every connection cut, new ones refused, as in a restart) under two real
server instances: requests during the outage get a clear 503 in zh-TW or English, never a 500 or a hang; the
app recovers without a restart (its pool and its push listener reconnect); no chip is lost or duplicated."""

from __future__ import annotations

import contextlib
import json
import random
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError
from websockets.sync.client import ClientConnection, connect

from taiwan_poker.web.members_ws import PUSH_RETRY_SECONDS
from tests.members.conftest import PG_ADMIN_URL, AppFactory, client
from tests.members.test_push_bus import receive
from tests.members.test_restart import signed_in, step
from tests.scale.tcp_gate import TcpGate
from tests.server_process import ServerProcess

OUTAGE_ANSWER_SECONDS = 5.0  # every request during the outage is answered within this (no hang)


@pytest.fixture
def gated_schema() -> Iterator[tuple[TcpGate, str]]:
    """A fresh schema, reached through a gate the test can cut; the URL goes through the gate."""
    schema = f"tp_gate_{secrets.token_hex(4)}"
    admin = sa.create_engine(PG_ADMIN_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    gate = TcpGate()
    gate.open()
    try:
        yield gate, f"postgresql+psycopg://postgres@127.0.0.1:{gate.port}/test?options=-csearch_path%3D{schema}"
    finally:
        gate.cut()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def socket_for(base: str, client: httpx.Client, code: str, stack: contextlib.ExitStack) -> ClientConnection:
    """A member's room socket (closed with ``stack``), past its first state."""
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    ws = stack.enter_context(connect(base.replace("http://", "ws://") + f"/ws/rooms/{code}",
                                     additional_headers={"Cookie": cookie, "Origin": base}, open_timeout=10))
    first = json.loads(ws.recv(timeout=10))
    assert first["type"] == "state"
    return ws


def next_state(ws: ClientConnection, newer_than: int, seconds: float) -> dict[str, Any]:
    """The first pushed state newer than ``newer_than`` within ``seconds`` (errors and pongs skipped)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        msg = json.loads(ws.recv(timeout=left))
        if msg["type"] == "state" and msg["state"]["version"] > newer_than:
            return dict(msg["state"])
    raise AssertionError(f"no state newer than {newer_than} within {seconds} s")


def answered(request: Any) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = request()
    return response, time.monotonic() - started


def read_again(client: httpx.Client, code: str, seconds: float = 15) -> httpx.Response:
    """The room read once the database answers again (503 until then, for at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while (r := client.get(f"/api/rooms/{code}")).status_code != 200:
        assert r.status_code == 503 and time.monotonic() < deadline, r.text
        time.sleep(0.2)
    return r


def test_a_database_outage_mid_match_answers_503_and_the_app_recovers_without_a_restart(
        tmp_path: Path, gated_schema: tuple[TcpGate, str]) -> None:
    gate, url = gated_schema
    env = {"DATABASE_URL": url, "TP_PUSH_BUS": "1"}
    one = ServerProcess(tmp_path / "one", tmp_path / "one.log", env)
    two = ServerProcess(tmp_path / "two", tmp_path / "two.log", env)
    one.start()
    two.start()
    rng = random.Random(11)
    stack = contextlib.ExitStack()
    try:
        players = [signed_in(one.base, "Alice"), signed_in(one.base, "Bob")]
        code = players[0].post("/api/rooms", json={"decks": 2}).json()["code"]
        assert players[1].post(f"/api/rooms/{code}/join").status_code == 200
        bob_elsewhere = signed_in(two.base, "Bob")  # Bob's browser on the other instance (same member)
        bob_elsewhere.cookies.clear()
        bob_elsewhere.cookies.update(players[1].cookies)
        watcher = socket_for(two.base, bob_elsewhere, code, stack)
        for _ in range(3):
            step(players, code, rng)
        before = players[0].get(f"/api/rooms/{code}").json()
        assert not before["hand"]["complete"] or not before["match"]["over"]

        gate.cut()
        seat = before["hand"]["to_act"] if not before["hand"]["complete"] else 0
        actor = players[seat]
        key = "outage-1"
        move = ({"version": before["version"], "key": key, "action": {"kind": "fold"}}
                if not before["hand"]["complete"] else {"version": before["version"]})
        path = f"/api/rooms/{code}/actions" if not before["hand"]["complete"] else f"/api/rooms/{code}/next"
        requests = {
            "read": lambda: players[0].get(f"/api/rooms/{code}"),
            "move": lambda: actor.post(path, json=move),
            "me": lambda: players[1].get("/api/me"),  # may be answered from the session cache
            "read en": lambda: players[0].get(f"/api/rooms/{code}", headers={"Accept-Language": "en"}),
            "other instance": lambda: bob_elsewhere.get(f"/api/rooms/{code}"),
            "health": lambda: players[0].get("/healthz"),
        }
        for name, request in requests.items():
            response, seconds = answered(request)
            assert seconds < OUTAGE_ANSWER_SECONDS, f"{name} took {seconds:.1f} s"
            if name == "me" and response.status_code == 200:
                continue
            assert response.status_code == 503, (name, response.status_code, response.text)
            if name != "health":
                body = response.json()["error"]
                assert body["code"] == "database_unavailable", name
                assert response.headers["Retry-After"] == "2"
                assert (body["message"].isascii()) == (name == "read en"), (name, body["message"])
        watcher.send(json.dumps({"type": "ping"}))  # the socket lives through the outage
        while (msg := json.loads(watcher.recv(timeout=5)))["type"] == "state":
            seen = msg["state"]["version"]
            assert seen <= before["version"], "a state pushed before the outage, nothing newer"
        assert msg["type"] == "pong", msg

        gate.open()
        r = read_again(players[0], code)
        assert r.json()["version"] == before["version"], "nothing was applied during the outage"
        again = actor.post(path, json=move)  # the move the outage refused, sent again (same key)
        assert again.status_code == 200 and again.json()["applied"], again.text
        try:
            pushed = next_state(watcher, before["version"], seconds=6.0)  # instance two's listener is back
        except (AssertionError, TimeoutError) as exc:
            bus = [line for line in httpx.get(f"{two.base}/metrics").text.splitlines() if "tp_bus" in line]
            raise AssertionError(f"{exc}; instance two: {bus}") from None
        assert pushed["version"] == again.json()["state"]["version"]
        assert actor.post(path, json=move).json()["applied"] is False, "a repeat is not applied twice"

        for i in range(300):  # play the match out: every chip is still there
            st = step(players, code, rng, finish=i > 20)
            if st["match"]["over"]:
                break
        final = players[0].get(f"/api/rooms/{code}").json()
        assert final["match"]["over"] and sorted(final["match"]["stacks"]) == [0, 4000]
        hands = players[0].get(f"/api/rooms/{code}/history").json()["hands"]
        assert [h["hand_no"] for h in hands] == list(range(1, len(hands) + 1))
        for server in (one, two):
            assert server.proc is not None and server.proc.poll() is None, "no instance was restarted"
        for server in (one, two):
            assert '"status": 500' not in server.log_path.read_text(), "no 500 was answered"
    finally:
        stack.close()
        one.stop()
        two.stop()


def socket_reply(ws: ClientConnection, seconds: float) -> dict[str, Any]:
    """The answer to a move sent on ``ws`` (pushed states skipped) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if msg["type"] == "error" or "applied" in msg:
            return msg
    raise AssertionError(f"no answer within {seconds} s")


def test_a_socket_move_in_an_outage_is_refused_at_once_and_the_loops_connections_come_back(
        tmp_path: Path, gated_schema: tuple[TcpGate, str]) -> None:
    """A socket's move is written on the event loop on PostgreSQL's own connections (issue 49): when the database
    goes away, one of them broken and new ones refused, the move is answered ``database_unavailable`` at once and
    changes nothing; once the database is back the loop opens new ones and the same move is applied once."""
    gate, url = gated_schema
    server = ServerProcess(tmp_path / "one", tmp_path / "one.log", {"DATABASE_URL": url})
    server.start()
    stack = contextlib.ExitStack()
    try:
        players = [signed_in(server.base, "Alice"), signed_in(server.base, "Bob")]
        code = players[0].post("/api/rooms", json={"decks": 2}).json()["code"]
        assert players[1].post(f"/api/rooms/{code}/join").status_code == 200
        sockets = [socket_for(server.base, p, code, stack) for p in players]

        def move(key: str) -> tuple[ClientConnection, dict[str, Any], int]:
            st = players[0].get(f"/api/rooms/{code}").json()
            assert not st["hand"]["complete"]
            seat = st["hand"]["to_act"]
            legal = players[seat].get(f"/api/rooms/{code}").json()["hand"]["legal"]["actions"]
            kind = "check" if "check" in legal else "call"
            return sockets[seat], {"type": "action", "version": st["version"], "key": key,
                                   "action": {"kind": kind}}, st["version"]

        ws, msg, version = move("before")
        ws.send(json.dumps(msg))
        assert socket_reply(ws, 10)["applied"], "written on the loop, which now holds a connection"

        ws, msg, version = move("outage")
        gate.cut()
        for attempt in range(2):  # the loop's connection broken, then a new one refused
            started = time.monotonic()
            ws.send(json.dumps(msg))
            answer = socket_reply(ws, OUTAGE_ANSWER_SECONDS)
            assert time.monotonic() - started < OUTAGE_ANSWER_SECONDS
            assert answer["type"] == "error" and answer["error"]["code"] == "database_unavailable", (attempt, answer)

        gate.open()
        r = read_again(players[0], code)
        assert r.json()["version"] == version, "nothing was applied during the outage"
        ws.send(json.dumps(msg))  # the same move again, on the same socket
        again = socket_reply(ws, 10)
        assert again.get("applied") and again["state"]["version"] > version, again
        ws.send(json.dumps(msg))
        assert socket_reply(ws, 10)["applied"] is False, "a repeat is not applied twice"
        assert '"status": 500' not in server.log_path.read_text(), "no 500 was answered"
    finally:
        stack.close()
        server.stop()


def test_a_push_whose_view_read_fails_is_retried_and_the_socket_stays_live(
        make_app: AppFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database blinks just as a push reads the socket's view: the push is tried again a moment later
    (the socket is not left deaf to this version and the next ones)."""
    app = make_app()
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    rooms = app.state.rooms
    failures = [OperationalError("SELECT", {}, ConnectionResetError("server closed the connection"))]
    real_state_at = rooms.reads.state_at

    def blinking(code: str, member: Any, version: int) -> dict[str, Any]:
        if failures:
            raise failures.pop()
        return dict(real_state_at(code, member, version))

    monkeypatch.setattr(rooms.reads, "cached_view_text", lambda *_: None)  # every push reads its view in a thread
    monkeypatch.setattr(rooms.reads, "state_at", blinking)
    with b.websocket_connect(f"/ws/rooms/{code}") as ws:
        version = receive(ws)["state"]["version"]
        for _ in range(2):
            state = a.get(f"/api/rooms/{code}").json()
            actor = a if state["you"] == state["hand"]["to_act"] else b
            if actor is b:
                break
            legal = state["hand"]["legal"]["actions"]
            r = a.post(f"/api/rooms/{code}/actions",
                       json={"version": version, "action": {"kind": "call" if "call" in legal else "check"}})
            assert r.status_code == 200 and r.json()["applied"]
            pushed = receive(ws, seconds=PUSH_RETRY_SECONDS + 3)
            assert pushed["type"] == "state" and pushed["state"]["version"] == r.json()["state"]["version"]
            version = pushed["state"]["version"]
        assert not failures, "the first push met the failure and was retried"
