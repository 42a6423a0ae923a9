"""Finding 7: rate limits per member and per address, as shipped (scale 1): 429 + Retry-After, or a socket error.

The limits are set well above a fast human's pace (see web/rate_limits.py);
these tests reach them with machine-speed bursts and check that a refused
request changes nothing and says when to try again, in zh-TW and English.
"""

from __future__ import annotations

import json

import pytest
from fastapi import FastAPI
from starlette.websockets import WebSocketDisconnect

from taiwan_poker.web.members_ws import MAX_REFUSED
from taiwan_poker.web.rate_limits import POLICIES, RateLimited, RateLimiter
from tests.members.conftest import AppFactory, client


@pytest.fixture
def app(make_app: AppFactory) -> FastAPI:
    return make_app(rate_limit_scale=1.0)


def test_room_creation_is_limited_per_member_with_retry_after_and_nothing_is_created(app: FastAPI) -> None:
    c = client(app, "Alice")
    for _ in range(10):
        assert c.post("/api/rooms", json={"decks": 2}).status_code == 200
    r = c.post("/api/rooms", json={"decks": 2})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    retry = int(r.headers["retry-after"])
    assert 1 <= retry <= 60
    assert r.json()["error"]["message"] == f"操作太頻繁，請在 {retry} 秒後再試。"
    en = c.post("/api/rooms", json={"decks": 2}, headers={"accept-language": "en"})
    assert en.status_code == 429 and en.json()["error"]["message"].startswith("Too many requests; try again in")
    assert len(c.get("/api/rooms").json()["rooms"]) == 10, "refused requests created nothing"
    other = client(app, "Bob")
    assert other.post("/api/rooms", json={"decks": 2}).status_code == 200, "another member has their own limit"


def test_sign_ins_are_limited_per_address(app: FastAPI) -> None:
    c = client(app)
    for i in range(30):
        assert c.post("/api/auth/local", json={"name": f"p{i}"}).status_code == 200
        c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]  # signing in again is the signed-in page's request
    r = c.post("/api/auth/local", json={"name": "one too many"})
    assert r.status_code == 429 and "retry-after" in r.headers
    assert c.get("/api/me").json()["member"]["name"] == "p29", "the refused sign-in started no session"


def test_table_moves_are_limited_per_member_and_a_refused_move_changes_nothing(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    version = a.get(f"/api/rooms/{code}").json()["version"]
    stale = {"version": version - 1, "action": {"kind": "fold"}}
    answers: list[int] = []
    while 429 not in answers and len(answers) < 40:  # 8 a second: the 9th within one second is refused
        answers.append(a.post(f"/api/rooms/{code}/actions", json=stale).status_code)
    first_refusal = answers.index(429)  # a slow machine may spread the first 9 over two seconds: more pass first
    assert first_refusal >= 8 and set(answers[:first_refusal]) == {200}
    assert a.get(f"/api/rooms/{code}").json()["version"] == version


def test_a_socket_flood_is_answered_with_errors_then_closed(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    limited = 0
    with a.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(200):
                ws.send_text(json.dumps({"type": "ping"}))
                reply = ws.receive_json()
                if reply["type"] == "error":
                    assert "retry_after" in reply, reply
                    assert reply["error"]["code"] == "rate_limited" and reply["retry_after"] >= 1
                    limited += 1
        assert closed.value.code == 1008
    assert limited == MAX_REFUSED + 1, "each refused message was answered; the one past the allowance closed it"
    assert app.state.rate_limiter.rejected["socket_message"] == limited


class FakeTime:
    """A clock for the ``limits`` library's windows (it reads ``time.time()``)."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def time(self) -> float:
        return self.now


def test_the_limits_leave_room_for_a_fast_human(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten minutes of a very quick player: 3 moves a second without pause, a socket message for each plus
    the keep-alive, a new table every minute, a reconnect every 30 s, a sign-in every 5 minutes, from an
    address shared by a classroom of 30 doing the same sign-ins. Nothing is refused."""
    import limits.storage.memory
    import limits.strategies

    clock = FakeTime()
    for module in (limits.storage.memory, limits.strategies):
        monkeypatch.setattr(module, "time", clock)
    limiter = RateLimiter()
    for tick in range(10 * 60 * 3):  # a third of a second each
        clock.now += 1 / 3
        limiter.check("action", 1, "10.0.0.1")
        limiter.check("socket_message", 1, "10.0.0.1")
        if tick % 75 == 0:
            limiter.check("socket_message", 1, "10.0.0.1")  # keep-alive every 25 s
        if tick % 180 == 0:
            limiter.check("room_create", 1, "10.0.0.1")
        if tick % 90 == 0:
            limiter.check("socket_open", 1, "10.0.0.1")
        if tick % 900 == 0:
            for classmate in range(30):
                limiter.check("signin", None, "10.0.0.1")
                limiter.check("seat", classmate, "10.0.0.1")
    assert limiter.rejected == {}


def test_scale_zero_turns_the_limits_off_and_every_policy_parses() -> None:
    off = RateLimiter(scale=0)
    for _ in range(1000):
        off.check("action", 1, "x")
    tight = RateLimiter(scale=0.001)  # every window rounds up to 1
    for name in POLICIES:
        tight.check(name, 7, "y")
        with pytest.raises(RateLimited) as info:
            tight.check(name, 7, "y")
        assert info.value.code == "rate_limited" and info.value.params["policy"] == name


def test_table_talk_is_limited_per_member_over_http_and_the_socket_and_a_refused_line_is_not_stored(
        app: FastAPI) -> None:
    """Five lines in ten seconds (a chatty person writes one every few seconds): the sixth is refused, 429 over
    HTTP and an error message on the socket, and nothing of it is stored or sent."""
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    assert POLICIES["chat"].per_member.startswith("5/10second")
    for i in range(5):
        assert a.post(f"/api/rooms/{code}/chat", json={"text": f"line {i}"}).status_code == 200
    r = a.post(f"/api/rooms/{code}/chat", json={"text": "one too many"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited" and "retry-after" in r.headers
    with a.websocket_connect(f"/ws/rooms/{code}") as ws:
        assert ws.receive_json()["type"] == "state" and ws.receive_json()["type"] == "chat"
        ws.send_text(json.dumps({"type": "chat", "text": "over the socket"}))
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["error"]["code"] == "rate_limited" and refused["retry_after"]
    texts = [m["text"] for m in b.get(f"/api/rooms/{code}/chat").json()["messages"]]
    assert texts == [f"line {i}" for i in range(5)]
    assert b.post(f"/api/rooms/{code}/chat", json={"text": "Bob has his own limit"}).status_code == 200
