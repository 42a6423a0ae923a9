"""Regression tests for the outside audit's findings (issue: hardening), through the real app in-process.

Each test names the finding it pins.  Browser-level checks (the redirect in
Chromium, CSP) and real-server checks (1 GiB bodies, a silent certificate
endpoint) live in tests/web/.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from taiwan_poker.store import repo
from taiwan_poker.web.body_limit import MAX_BODY_BYTES
from taiwan_poker.web.members_ws import recheck_sessions
from tests.members.conftest import AppFactory, client
from tests.members.test_rooms_api import actor, state


def seated_pair(app: FastAPI) -> tuple[TestClient, TestClient, str]:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    return a, b, code


# --- 1. request bodies and socket messages are bounded ------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/rooms/ZZZZZZ/actions", "/api/auth/local", "/api/calc/pot-odds"])
def test_finding1_a_body_over_64_kib_is_refused_413_before_anything_else(app: FastAPI, path: str) -> None:
    anon = client(app)
    r = anon.post(path, content=b"x" * (MAX_BODY_BYTES + 1), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert "64 KiB" in r.json()["error"]["message"] and "請求內容太大" in r.json()["error"]["message"]
    en = anon.post(path, content=b"x" * (MAX_BODY_BYTES + 1), headers={"accept-language": "en"})
    assert en.json()["error"]["message"] == "The request is too large: the limit is 64 KiB."


def test_finding1_a_chunked_body_is_cut_off_at_the_cap_and_changes_nothing(app: FastAPI) -> None:
    anon = client(app)

    def chunks() -> Any:
        for _ in range(64):  # 4 MiB in 64 KiB chunks, no Content-Length
            yield b'{"name": "' + b"x" * 65536

    r = anon.post("/api/auth/local", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert anon.get("/api/me").json()["member"] is None, "no member was created"


def test_finding1_bodies_under_the_cap_are_served_as_before(app: FastAPI) -> None:
    r = client(app).post("/api/calc/pot-odds", json={"pot": 60, "bet": 20})
    assert r.status_code == 200 and r.json()["break_even"]["value"] == pytest.approx(0.2)


def test_finding1_a_member_may_hold_at_most_8_room_sockets(app: FastAPI) -> None:
    a, _, code = seated_pair(app)
    from contextlib import ExitStack

    with ExitStack() as stack:
        for _ in range(8):
            ws = stack.enter_context(a.websocket_connect(f"/ws/rooms/{code}"))
            assert ws.receive_json()["type"] == "state"
        with a.websocket_connect(f"/ws/rooms/{code}") as extra:
            reply = extra.receive_json()
            assert reply["type"] == "error" and reply["error"]["code"] == "too_many_sockets"
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 1008
    with a.websocket_connect(f"/ws/rooms/{code}") as again:  # closing them frees the places
        assert again.receive_json()["type"] == "state"


# --- 4. a session that ends takes its sockets with it ---------------------------------------------------------


def _expect_session_ended(ws: Any) -> None:
    reply = ws.receive_json()
    assert reply["type"] == "error" and reply["error"]["code"] == "session_ended", reply
    assert "hand" not in json.dumps(reply)
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4401


def test_finding4_sign_out_closes_the_members_open_sockets_and_their_actions_are_not_applied(app: FastAPI) -> None:
    a, b, code = seated_pair(app)
    me, _, st = actor(a, b, code)
    with me.websocket_connect(f"/ws/rooms/{code}") as ws:
        assert ws.receive_json()["state"]["hand"]["you"]["hole"]
        assert me.post("/api/auth/logout").status_code == 200
        _expect_session_ended(ws)
    assert state(b, code)["version"] == st["version"]


def test_finding4_signing_in_again_rotates_the_session_and_closes_the_old_sessions_sockets(app: FastAPI) -> None:
    a, _, code = seated_pair(app)
    with a.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.receive_json()
        assert a.post("/api/auth/local", json={"name": "Alice"}).status_code == 200
        _expect_session_ended(ws)


def test_finding4_a_session_ended_elsewhere_closes_the_socket_at_the_next_check(app: FastAPI) -> None:
    """Another instance (or expiry) ends the session in the database: the server's session check (one query for
    every open socket, every 15 s; run here at once) closes the socket, and nothing it sends is applied."""
    a, b, code = seated_pair(app)
    me, _, st = actor(a, b, code)
    with me.websocket_connect(f"/ws/rooms/{code}") as ws, b.websocket_connect(f"/ws/rooms/{code}") as other:
        ws.receive_json()
        other.receive_json()
        with app.state.db.transaction() as s:
            repo.end_session(s, me.cookies["tp_session"])  # signed out on "another instance"
        assert recheck_sessions(app) == 1, "only the ended session's socket is closed"
        assert app.state.sockets.end_missing(set(), set()) == 0, "a socket opened after a check is not judged by it"
        _expect_session_ended(ws)
        other.send_text(json.dumps({"type": "ping"}))
        assert other.receive_json() == {"type": "pong"}, "the other player's socket lives on"
    assert state(b, code)["version"] == st["version"], "nothing was applied"


def test_finding4_a_push_after_the_session_ended_carries_no_cards(app: FastAPI) -> None:
    a, b, code = seated_pair(app)
    me, other, st = actor(a, b, code)
    with other.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.receive_json()
        with app.state.db.transaction() as s:
            repo.end_session(s, other.cookies["tp_session"])  # ended on "another instance"
        recheck_sessions(app)
        kind = "call" if "call" in st["hand"]["legal"]["actions"] else "check"
        assert me.post(f"/api/rooms/{code}/actions", json={"version": st["version"],
                                                         "action": {"kind": kind}}).json()["applied"]
        _expect_session_ended(ws)


# --- 6. binary frames ------------------------------------------------------------------------------------------


def test_finding6_a_binary_frame_gets_a_clean_error_and_the_socket_stays_open(app: FastAPI) -> None:
    a, _, code = seated_pair(app)
    with a.websocket_connect(f"/ws/rooms/{code}") as ws:
        v = ws.receive_json()["state"]["version"]
        ws.send_bytes(b"\x00\x01binary")
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "bad_message"
        assert reply["state"]["version"] == v
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}


# --- 8. the CSRF token is bound to the session -------------------------------------------------------------------


def test_finding8_a_planted_csrf_cookie_with_a_matching_header_is_refused(app: FastAPI) -> None:
    victim = client(app, "Victim")
    planted = {"X-CSRF-Token": "attacker-chosen"}
    victim.cookies.set("tp_csrf", "attacker-chosen")
    r = victim.post("/api/rooms", json={"decks": 2}, headers=planted)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_required"
    assert victim.get("/api/rooms").json() == {"rooms": []}


def test_finding8_another_sessions_valid_token_does_not_work_for_this_session(app: FastAPI) -> None:
    attacker, victim = client(app, "Mallory"), client(app, "Victim")
    stolen = attacker.cookies["tp_csrf"]
    r = victim.post("/api/rooms", json={"decks": 2}, headers={"X-CSRF-Token": stolen})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_required"
    assert victim.post("/api/rooms", json={"decks": 2}).status_code == 200, "its own token works"
    assert victim.get("/api/me").json()["csrf"] == victim.cookies["tp_csrf"] != stolen


# --- make failures loud: quarantine, bounded memory, health and metrics ------------------------------------------


def _corrupt(app: FastAPI, code: str) -> None:
    """Damage the room's stored log so that it cannot be replayed, and drop this process's copy."""
    from taiwan_poker.store.models import RoomEvent

    rooms = app.state.rooms
    room_id = rooms.loader.room_id(code)
    with app.state.db.transaction() as s:
        event = s.query(RoomEvent).filter_by(room_id=room_id, seq=2).one()
        event.payload = {"kind": "hand", "hand": 1, "event": {"type": "no-such-event"}}
    rooms.loader._cache.discard(room_id)


def test_a_room_whose_log_cannot_be_replayed_is_quarantined_logged_and_counted(
    make_app: AppFactory, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app()
    a, b, code = seated_pair(app)
    h, _, healthy = seated_pair(app)
    _corrupt(app, code)
    with caplog.at_level("ERROR", logger="taiwan_poker.rooms"):
        r = a.get(f"/api/rooms/{code}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "room_quarantined"
    assert "紀錄受損" in r.json()["error"]["message"]
    record = next(x for x in caplog.records if "quarantined" in x.getMessage())
    assert record.__dict__["room"] == code and record.exc_info is not None
    assert app.state.rooms.errors == {"quarantined": 1}
    # it stays quarantined: no replay per request, no action, the lobby still lists it, the other room plays on
    assert b.post(f"/api/rooms/{code}/actions", json={"version": 1, "action": {"kind": "fold"}}).status_code == 409
    assert app.state.rooms.errors == {"quarantined": 1}
    assert [(x["code"], x["status"]) for x in a.get("/api/rooms").json()["rooms"]] == [(code, "quarantined")]
    assert h.get(f"/api/rooms/{healthy}").json()["status"] == "playing"
    with a.websocket_connect(f"/ws/rooms/{code}") as ws:
        assert ws.receive_json()["error"]["code"] == "room_quarantined"
    assert "tp_room_errors_total{kind=\"quarantined\"} 1.0" in a.get("/metrics").text


def test_the_sweep_logs_and_counts_a_failing_room_and_sweeps_the_others(
    make_app: AppFactory, caplog: pytest.LogCaptureFixture
) -> None:
    import datetime as dt

    app = make_app()
    _, _, bad = seated_pair(app)
    _, _, good = seated_pair(app)
    rooms = app.state.rooms
    _corrupt(app, bad)
    later = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)
    rooms.clock = lambda: later
    with caplog.at_level("ERROR"):
        assert rooms.sweep() == [good], "the healthy room timed out; the damaged one did not stop the sweep"
    assert rooms.errors["quarantined"] == 1
    assert any(getattr(x, "room", None) == bad for x in caplog.records)
    assert rooms.sweep() == [], "the quarantined room is not tried again"
    assert rooms.errors["quarantined"] == 1


def test_the_room_cache_is_bounded_and_evicted_rooms_are_rebuilt_from_the_log(make_app: AppFactory) -> None:
    app = make_app()
    rooms = app.state.rooms
    rooms.loader._cache.capacity = 3
    codes = [seated_pair(app) for _ in range(5)]
    seen = {code: state(a, code) for a, _, code in codes}
    assert len(rooms.loader) <= 3
    for a, _, code in codes:  # every room reads the same after eviction and rebuild
        again = state(a, code)
        assert again["version"] == seen[code]["version"] and again["hand"] == seen[code]["hand"]
    assert len(rooms.loader) <= 3
    assert len(rooms.loader.locks) == 0, "no room lock outlives its use"
    rooms.loader._cache.idle_seconds = 0
    rooms.sweep()
    assert len(rooms.loader) == 0, "idle rooms leave the cache"


def test_health_readiness_and_metrics(make_app: AppFactory) -> None:
    app = make_app()
    c = client(app, "Alice")
    assert c.get("/healthz").json() == {"status": "ok", "database": "ok"}
    assert c.get("/readyz").json() == {"ready": True, "started": True}
    code = c.post("/api/rooms", json={"decks": 2}).json()["code"]
    c.get(f"/api/rooms/{code}")
    text = c.get("/metrics").text
    assert 'tp_http_requests_total{method="GET",route="/api/rooms/{code}",status="200"} 1.0' in text
    assert code not in text, "routes are templates, not every room code"
    for name in ("tp_open_sockets", "tp_rooms_in_memory", "tp_action_seconds_bucket", "tp_database_errors_total"):
        assert name in text, name


def test_a_database_that_does_not_answer_gives_503_with_a_reason_and_is_counted(make_app: AppFactory) -> None:
    from taiwan_poker.store.db import Database

    app = make_app()
    c = client(app, "Alice")
    app.state.db = Database("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1")
    app.state.session_cache.db = app.state.db
    app.state.session_cache.ttl = 0
    r = c.get("/healthz")
    assert r.status_code == 503 and r.json() == {"status": "error", "database": "unavailable"}
    assert c.get("/readyz").status_code == 200, "still in a proxy's rotation: its own 503s speak the user's language"
    r = c.get("/api/me", headers={"accept-language": "en"})
    assert r.status_code == 503 and r.json()["error"]["code"] == "database_unavailable"
    assert r.headers["retry-after"] == "2" and "not applied" in r.json()["error"]["message"]
    assert "tp_database_errors_total 2.0" in c.get("/metrics").text


def test_every_response_carries_a_request_id_and_a_proxys_id_is_kept(app: FastAPI) -> None:
    c = client(app)
    first, second = c.get("/healthz"), c.get("/healthz")
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    assert c.get("/healthz", headers={"X-Request-ID": "proxy-123"}).headers["x-request-id"] == "proxy-123"
    assert c.get("/healthz", headers={"X-Request-ID": "bad id\n"}).headers["x-request-id"] != "bad id\n"
