"""The room API and WebSocket: bad input on every endpoint changes nothing; double clicks apply once."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.members.conftest import client


def state(c: TestClient, code: str) -> dict[str, Any]:
    r = c.get(f"/api/rooms/{code}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def actor(a: TestClient, b: TestClient, code: str) -> tuple[TestClient, TestClient, dict[str, Any]]:
    st = state(a, code)
    return (a, b, st) if st["hand"]["to_act"] == 0 else (b, a, state(b, code))


def test_create_join_and_lobby(pair: tuple[TestClient, TestClient, str]) -> None:
    a, _, code = pair
    st = state(a, code)
    assert st["status"] == "playing" and st["you"] == 0 and [p["name"] for p in st["players"]] == ["Alice", "Bob"]
    assert st["hand"]["you"]["seat"] == 0 and len(st["hand"]["you"]["hole"]) == 2
    assert st["match"]["stacks"] == [1990, 1980] or st["match"]["stacks"] == [1980, 1990]
    lobby = a.get("/api/rooms").json()["rooms"]
    assert lobby[0]["code"] == code and lobby[0]["seated"] and lobby[0]["status"] == "playing"


def test_spectator_and_anonymous_viewer_get_public_information_only(
    app: FastAPI, pair: tuple[TestClient, TestClient, str]
) -> None:
    _, _, code = pair
    for viewer in (client(app), client(app, "Carol")):
        st = state(viewer, code)
        assert st["spectator"] and "you" not in st["hand"] and "legal" not in st["hand"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"version": "V", "action": {"kind": "call"}}, 422, "bad_request"),
        ({"version": 1.5, "action": {"kind": "call"}}, 422, "bad_request"),
        ({"version": True, "action": {"kind": "call"}}, 422, "bad_request"),
        ({"action": {"kind": "call"}}, 422, "bad_request"),
        ({"version": 0, "action": {"kind": "call"}, "extra": 1}, 422, "bad_request"),
        ({"version": None, "action": {"kind": "raise", "to": 30}}, 400, "illegal_action"),
        ({"version": None, "action": {"kind": "raise", "to": -5}}, 400, "bad_amount"),
        ({"version": None, "action": {"kind": "raise", "to": 10**20}}, 400, "bad_amount"),
        ({"version": None, "action": {"kind": "raise", "to": 55.5}}, 400, "bad_amount"),
        ({"version": None, "action": {"kind": "shove"}}, 400, "bad_action"),
        ({"version": None, "action": {"kind": "check"}}, 400, "illegal_action"),
        ({"version": None, "action": {"kind": "call"}, "key": ""}, 400, "bad_key"),
    ],
)
def test_bad_actions_get_a_clear_error_and_change_nothing(
    pair: tuple[TestClient, TestClient, str], body: dict[str, Any], status: int, code: str
) -> None:
    a, b, room = pair
    me, _, st = actor(a, b, room)
    if "version" in body and body["version"] is None:
        body = {**body, "version": st["version"]}
    r = me.post(f"/api/rooms/{room}/actions", json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code
    assert r.json()["error"]["message"]
    after = state(me, room)
    assert after["version"] == st["version"] and after["hand"] == st["hand"]


def test_malformed_json_is_a_clear_error(pair: tuple[TestClient, TestClient, str]) -> None:
    a, _, room = pair
    r = a.post(f"/api/rooms/{room}/actions", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"


def test_not_your_turn_unknown_room_outsider_stale_and_wrong_language(
    app: FastAPI, pair: tuple[TestClient, TestClient, str]
) -> None:
    a, b, room = pair
    me, other, st = actor(a, b, room)
    v = st["version"]
    r = other.post(f"/api/rooms/{room}/actions", json={"version": v, "action": {"kind": "call"}})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = me.post("/api/rooms/ZZZZZZ/actions", json={"version": v, "action": {"kind": "call"}})
    assert r.status_code == 404 and r.json()["error"]["code"] == "room_not_found"
    carol = client(app, "Carol")
    r = carol.post(f"/api/rooms/{room}/actions", json={"version": v, "action": {"kind": "call"}})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    r = carol.post(f"/api/rooms/{room}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "room_full"
    r = me.post(f"/api/rooms/{room}/actions", json={"version": v + 3, "action": {"kind": "call"}})
    assert r.status_code == 200 and (r.json()["applied"], r.json()["reason"]) == (False, "stale_version")
    r = me.post(f"/api/rooms/{room}/timeout", json={"version": v})
    assert r.status_code == 409 and r.json()["error"]["code"] == "clock_running"
    r = me.post(f"/api/rooms/{room}/next", json={"version": v})
    assert r.status_code == 409 and r.json()["error"]["code"] == "hand_in_progress"
    zh = me.post(f"/api/rooms/{room}/actions", json={"version": v, "action": {"kind": "raise", "to": 30}})
    en = me.post(f"/api/rooms/{room}/actions", json={"version": v, "action": {"kind": "raise", "to": 30}},
                 headers={"Accept-Language": "en"})
    assert zh.json()["error"]["message"] != en.json()["error"]["message"]
    for bad in ({"decks": 7}, {"decks": 1}, {"decks": "2"}):
        r = me.post("/api/rooms", json=bad)
        assert r.status_code in (400, 422) and r.json()["error"]["code"] in ("bad_decks", "bad_request")
    assert state(me, room)["version"] == v


def test_the_same_action_posted_twice_at_once_is_applied_once(pair: tuple[TestClient, TestClient, str]) -> None:
    a, b, room = pair
    me, _, st = actor(a, b, room)
    barrier = threading.Barrier(2)
    results: list[dict[str, Any]] = []

    def click() -> None:
        barrier.wait()
        r = me.post(f"/api/rooms/{room}/actions", json={"version": st["version"], "key": "double-click",
                                                        "action": {"kind": "call"}})
        results.append(r.json())

    threads = [threading.Thread(target=click) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(bool(r.get("applied")) for r in results) == [False, True]
    after = state(me, room)
    calls = [s["bet"] for s in after["hand"]["seats"]]
    assert calls == [20, 20], "one call only: both seats have 20 in"


def test_websocket_pushes_and_bad_messages(pair: tuple[TestClient, TestClient, str]) -> None:
    a, b, room = pair
    me, other, st = actor(a, b, room)
    with me.websocket_connect(f"/ws/rooms/{room}") as ws_me, other.websocket_connect(f"/ws/rooms/{room}") as ws_o:
        assert ws_me.receive_json()["state"]["version"] == st["version"]
        assert ws_o.receive_json()["state"]["version"] == st["version"]
        for bad in ("garbage", json.dumps([1]), json.dumps({"type": "dance"}), "[" * 5000,
                    json.dumps({"type": "action", "version": "x", "action": {"kind": "call"}}),
                    json.dumps({"type": "action", "version": st["version"], "action": {"kind": "raise", "to": 1}})):
            ws_me.send_text(bad)
            reply = ws_me.receive_json()
            assert reply["type"] == "error" and reply["error"]["code"], bad
        ws_me.send_text(json.dumps({"type": "ping"}))
        assert ws_me.receive_json() == {"type": "pong"}
        assert state(me, room)["version"] == st["version"], "bad messages changed nothing"
        ws_me.send_text(json.dumps({"type": "action", "version": st["version"], "key": "k",
                                    "action": {"kind": "call"}}))
        reply = ws_me.receive_json()  # the reply only: the mover is not pushed the version its move made
        assert reply["type"] == "state" and reply["applied"] and reply["state"]["version"] > st["version"]
        assert reply["reason"] is None and set(reply) == {"type", "applied", "reason", "state"}
        now = state(me, room)
        clock = {"server_time": None, "seconds_left": None}  # read a moment apart
        assert {**reply["state"], **clock} == {**now, **clock}, "the reply is the mover's view"
        ws_me.send_text(json.dumps({"type": "ping"}))
        assert ws_me.receive_json() == {"type": "pong"}, "no second copy of the state"
        pushed = ws_o.receive_json()
        assert pushed["type"] == "state" and pushed["state"]["version"] == reply["state"]["version"]
        assert pushed["state"]["you"] == 1 - reply["state"]["you"]
        ws_me.send_text(json.dumps({"type": "action", "version": st["version"], "key": "k",
                                    "action": {"kind": "call"}}))  # the same move again: nothing applied
        again = ws_me.receive_json()
        assert again["type"] == "state" and not again["applied"] and again["reason"] == "duplicate"
        assert again["state"]["version"] == reply["state"]["version"]


def test_websocket_from_another_site_is_refused(pair: tuple[TestClient, TestClient, str]) -> None:
    a, _, room = pair
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), a.websocket_connect(
        f"/ws/rooms/{room}", headers={"origin": "https://evil.example"}
    ) as ws:
        ws.receive_json()


def test_unknown_room_websocket_gets_an_error(app: FastAPI) -> None:
    c = client(app, "Dan")
    with c.websocket_connect("/ws/rooms/NOPE99") as ws:
        assert ws.receive_json()["error"]["code"] == "room_not_found"
