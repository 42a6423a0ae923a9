"""The host's table over HTTP and the room socket (issue 23): each control's route, its refusals with a code, the
log everyone reads, seat choice, rebuys, the choices at an all-in and a showdown, and table talk pushed live."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.members.conftest import client
from tests.members.test_push_bus import receive


def st(c: TestClient, code: str) -> dict[str, Any]:
    r = c.get(f"/api/rooms/{code}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def three(app: FastAPI, **settings: Any) -> tuple[list[TestClient], str]:
    """Alice (host), Bob and Carol at a four-seat table, the first hand not dealt yet."""
    players = [client(app, n) for n in ("Alice", "Bob", "Carol")]
    code = players[0].post("/api/rooms", json={"seats": 4, **settings}).json()["code"]
    for p in players[1:]:
        assert p.post(f"/api/rooms/{code}/join").status_code == 200
    return players, code


def fold_hand(players: list[TestClient], code: str) -> None:
    while not (s := st(players[0], code))["hand"]["complete"]:
        seat = s["hand"]["to_act"]
        r = players[seat].post(f"/api/rooms/{code}/actions", json={"version": s["version"], "action": {"kind": "fold"}})
        assert r.status_code == 200 and r.json()["applied"], r.text


def test_the_host_controls_over_http_each_refused_to_others_with_not_host(app: FastAPI) -> None:
    (alice, bob, carol), code = three(app)
    for method, path, body in (("post", "pause", None), ("post", "resume", None), ("delete", "players/2", None),
                               ("post", "players/2/stack", {"stack": 900}), ("post", "stakes", {"blinds": [20, 40]}),
                               ("post", "options", {"rebuys": True}), ("post", "silence", {"seat": 2}),
                               ("post", "host", {"seat": 2}), ("post", "cohosts", {"seat": 2})):
        r = getattr(bob, method)(f"/api/rooms/{code}/{path}", **({"json": body} if body is not None else {}))
        assert error(r) == (403, "not_host"), (path, r.text)
    assert alice.post(f"/api/rooms/{code}/next", json={"version": st(alice, code)["version"]}).status_code == 200
    fold_hand([alice, bob, carol], code)
    assert alice.post(f"/api/rooms/{code}/pause").json()["paused"] == {"by": "Alice"}
    version = st(bob, code)["version"]
    assert error(bob.post(f"/api/rooms/{code}/next", json={"version": version})) == (409, "host_paused")
    assert alice.post(f"/api/rooms/{code}/resume").json()["paused"] is None
    view = alice.post(f"/api/rooms/{code}/players/2/stack", json={"stack": 900}).json()
    assert next(p for p in view["players"] if p["seat"] == 2)["stack"] == 900
    assert alice.post(f"/api/rooms/{code}/stakes", json={"blinds": [20, 40], "straddle": True}).json()["blinds"] == [
        20, 40]
    assert error(alice.post(f"/api/rooms/{code}/stakes", json={"action_clock": 1})) == (400, "bad_clock")
    assert alice.post(f"/api/rooms/{code}/stakes", json={"decks": 3}).status_code == 422
    assert alice.post(f"/api/rooms/{code}/cohosts", json={"seat": 1}).json()["players"][1]["cohost"] is True
    assert bob.post(f"/api/rooms/{code}/pause").status_code == 200, "a co-host uses the controls"
    assert error(bob.post(f"/api/rooms/{code}/host", json={"seat": 1})) == (403, "not_host"), "not the host's role"
    assert alice.delete(f"/api/rooms/{code}/players/2").status_code == 200
    summary = st(alice, code)["match"]["summary"]
    assert next(r for r in summary if r["name"] == "Carol")["removed"] is True
    assert alice.post(f"/api/rooms/{code}/host", json={"seat": 1}).json()["host"] is False
    assert st(bob, code)["host"] is True
    log = carol.get(f"/api/rooms/{code}/log").json()["log"]
    assert [(e["type"], e["name"]) for e in log[:3]] == [("player_sat", n) for n in ("Alice", "Bob", "Carol")]
    log = log[3:]
    assert [e["type"] for e in log] == ["table_paused", "table_resumed", "stack_adjusted", "rules_changed",
                                        "cohost_set", "table_paused", "player_left", "host_changed"]
    assert [e["by"] for e in log] == ["Alice"] * 5 + ["Bob", "Alice", "Alice"]
    assert carol.get(f"/api/rooms/{code}/log", params={"since": log[-2]["version"]}).json()["log"] == log[-1:]


def test_a_joining_player_picks_a_seat_or_asks_to_sit_where_the_host_approves(app: FastAPI) -> None:
    alice, bob, carol, dave = (client(app, n) for n in ("Alice", "Bob", "Carol", "Dave"))
    code = alice.post("/api/rooms", json={"seats": 4}).json()["code"]
    assert bob.post(f"/api/rooms/{code}/join", json={"seat": 3}).json()["you"] == 3
    assert error(carol.post(f"/api/rooms/{code}/join", json={"seat": 3})) == (409, "seat_taken")
    assert error(carol.post(f"/api/rooms/{code}/join", json={"seat": 5})) == (400, "bad_seat")
    assert error(carol.post(f"/api/rooms/{code}/join", json={"seat": 9})) == (422, "bad_request")  # no table has it
    assert alice.post(f"/api/rooms/{code}/options", json={"approval": True}).json()["options"]["approval"] is True
    asked = carol.post(f"/api/rooms/{code}/join", json={"seat": 2}).json()
    assert asked["you"] is None and asked["requested"] is True
    dave.post(f"/api/rooms/{code}/join")
    requests = st(alice, code)["requests"]
    assert [(r["name"], r["seat"]) for r in requests] == [("Carol", 2), ("Dave", None)]
    assert error(bob.post(f"/api/rooms/{code}/requests/{requests[0]['id']}", json={"approve": True})) == (
        403, "not_host")
    assert alice.post(f"/api/rooms/{code}/requests/{requests[0]['id']}", json={"approve": True}).status_code == 200
    assert st(carol, code)["you"] == 2
    assert alice.post(f"/api/rooms/{code}/requests/{requests[1]['id']}", json={"approve": False}).status_code == 200
    assert st(dave, code)["you"] is None and st(dave, code)["requested"] is False
    assert error(alice.post(f"/api/rooms/{code}/requests/{requests[1]['id']}", json={"approve": True})) == (
        404, "no_request")


def test_a_busted_player_rebuys_over_http_and_the_summary_counts_it(app: FastAPI) -> None:
    alice, bob = client(app, "Alice"), client(app, "Bob")
    code = alice.post("/api/rooms", json={"rebuys": True}).json()["code"]
    bob.post(f"/api/rooms/{code}/join")
    assert st(alice, code)["options"]["rebuys"] is True
    while not (s := st(alice, code))["hand"]["complete"] or 0 not in s["match"]["stacks"]:
        if s["hand"]["complete"]:
            alice.post(f"/api/rooms/{code}/next", json={"version": s["version"]})
            continue
        seat = s["hand"]["to_act"]
        c = (alice, bob)[seat]
        legal = st(c, code)["hand"]["legal"]["actions"]
        c.post(f"/api/rooms/{code}/actions", json={"version": s["version"],
                                                     "action": {"kind": "allin" if "allin" in legal else "call"}})
    busted = (alice, bob)[s["match"]["stacks"].index(0)]
    assert st(busted, code)["may_buy"] == 2000 and st(busted, code)["busted"]
    view = busted.post(f"/api/rooms/{code}/buy").json()
    assert view["may_buy"] == 0 and view["match"]["chips"] == 6000 and view["status"] == "playing"
    assert error(busted.post(f"/api/rooms/{code}/buy", json={"amount": 5})) == (409, "no_topup")


def test_running_it_twice_and_show_cards_over_http_and_the_socket(app: FastAPI) -> None:
    alice, bob = client(app, "Alice"), client(app, "Bob")
    code = alice.post("/api/rooms", json={"run_twice": True}).json()["code"]
    bob.post(f"/api/rooms/{code}/join")
    for _ in range(2):
        s = st(alice, code)
        c = (alice, bob)[s["hand"]["to_act"]]
        legal = st(c, code)["hand"]["legal"]["actions"]
        c.post(f"/api/rooms/{code}/actions", json={"version": s["version"],
                                                     "action": {"kind": "allin" if "allin" in legal else "call"}})
    s = st(alice, code)
    assert s["hand"]["pending"] == {"kind": "runs", "seats": [0, 1], "answers": {}}
    r = alice.post(f"/api/rooms/{code}/runs", json={"version": s["version"], "agree": True})
    assert r.json()["applied"] and r.json()["state"]["hand"]["pending"]["answers"] == {"0": True}
    with bob.websocket_connect(f"/ws/rooms/{code}") as ws:
        first = receive(ws)
        assert first["type"] == "state"
        ws.send_text(json.dumps({"type": "runs", "agree": True, "version": first["state"]["version"]}))
        while (msg := receive(ws))["type"] != "state" or "applied" not in msg:
            assert msg["type"] != "error", msg
        assert msg["applied"] and msg["state"]["hand"]["runs"] == 2 and len(msg["state"]["hand"]["board2"]) == 5


def test_the_winner_of_an_uncontested_pot_shows_a_card_over_http(app: FastAPI) -> None:
    alice, bob = client(app, "Alice"), client(app, "Bob")
    code = alice.post("/api/rooms").json()["code"]
    bob.post(f"/api/rooms/{code}/join")
    s = st(alice, code)
    folder = (alice, bob)[s["hand"]["to_act"]]
    winner_seat = 1 - s["hand"]["to_act"]
    winner = (alice, bob)[winner_seat]
    assert error(winner.post(f"/api/rooms/{code}/show", json={"cards": [0]})) == (409, "no_show")
    folder.post(f"/api/rooms/{code}/actions", json={"version": s["version"], "action": {"kind": "fold"}})
    assert st(winner, code)["hand"]["you"]["may_show"] is True
    assert error(folder.post(f"/api/rooms/{code}/show", json={"cards": [0]})) == (400, "illegal_action")
    assert error(winner.post(f"/api/rooms/{code}/show", json={"cards": [2]})) == (422, "bad_request")
    shown = winner.post(f"/api/rooms/{code}/show", json={"cards": [1]}).json()
    card = shown["hand"]["you"]["hole"][1]
    assert st(folder, code)["hand"]["seats"][winner_seat]["showed"] == [card]
    assert shown["hand"]["you"]["hole"][0] not in json.dumps(st(folder, code)), "the other card stays hidden"


def test_chat_over_http_and_pushed_to_sockets_muted_lines_left_out(app: FastAPI) -> None:
    (alice, bob, carol), code = three(app)
    spectator = client(app, "Rail")
    with bob.websocket_connect(f"/ws/rooms/{code}") as wb, spectator.websocket_connect(f"/ws/rooms/{code}") as wr:
        assert receive(wb)["type"] == "state" and receive(wr)["type"] == "state"
        r = alice.post(f"/api/rooms/{code}/chat", json={"text": "<i>hi</i> all"})
        assert r.status_code == 200 and r.json()["message"]["text"] == "<i>hi</i> all"
        pushed = receive(wb)
        assert pushed["type"] == "chat" and [m["text"] for m in pushed["messages"]] == ["<i>hi</i> all"]
        assert bob.post(f"/api/rooms/{code}/mute", json={"seat": 2}).json() == {"muted": [2]}
        carol.post(f"/api/rooms/{code}/chat", json={"text": "from Carol"})
        wb.send_text(json.dumps({"type": "chat", "text": "from Bob"}))
        got = []
        while not any(m.get("text") == "from Bob" for m in got):
            msg = receive(wb)
            got += msg.get("messages", [msg["message"]] if msg["type"] == "chat_sent" else [])
        assert "from Carol" not in [m.get("text") for m in got], "a muted player's line never reaches Bob"
        wr.send_text(json.dumps({"type": "ping"}))
        assert receive(wr)["type"] == "pong", "players-only lines reach no spectator"
    assert error(spectator.post(f"/api/rooms/{code}/chat", json={"text": "hey"})) == (403, "chat_closed")
    assert error(alice.post(f"/api/rooms/{code}/chat", json={"text": "x" * 201})) == (400, "bad_chat")
    assert alice.post(f"/api/rooms/{code}/chat", json={"text": "hi", "extra": 1}).status_code == 422
    line = carol.get(f"/api/rooms/{code}/chat").json()["messages"][0]
    assert error(bob.delete(f"/api/rooms/{code}/chat/{line['id']}")) == (403, "not_host")
    assert alice.delete(f"/api/rooms/{code}/chat/{line['id']}").json()["log"][-1]["type"] == "chat_deleted"
    assert carol.get(f"/api/rooms/{code}/chat").json()["messages"][0]["deleted"] is True
    react = bob.post(f"/api/rooms/{code}/chat", json={"reaction": "👍"}).json()["message"]
    assert react["kind"] == "reaction" and react["text"] == "👍"


def test_a_deleted_line_is_pushed_as_a_deletion_to_open_sockets(app: FastAPI) -> None:
    (alice, bob, _carol), code = three(app)
    line = bob.post(f"/api/rooms/{code}/chat", json={"text": "oops"}).json()["message"]
    with bob.websocket_connect(f"/ws/rooms/{code}") as ws:
        assert receive(ws)["type"] == "state"
        backlog = receive(ws)
        assert backlog["type"] == "chat" and backlog["messages"][0]["text"] == "oops"
        assert alice.delete(f"/api/rooms/{code}/chat/{line['id']}").status_code == 200
        while (msg := receive(ws))["type"] != "chat":
            assert msg["type"] == "state"
        assert [(m["kind"], m["to"]) for m in msg["messages"]] == [("delete", line["id"])]


def test_the_hand_options_are_set_at_creation_and_kept_by_a_change_of_settings_that_leaves_them_out(
        app: FastAPI) -> None:
    alice = client(app, "Alice")
    code = alice.post("/api/rooms", json={"seats": 4, "straddle": True, "run_twice": True}).json()["code"]
    options = st(alice, code)["options"]
    assert (options["straddle"], options["run_twice"], options["show_or_muck"]) == (True, True, False)
    view = alice.post(f"/api/rooms/{code}/settings", json={"seats": 5}).json()
    assert view["seats"] == 5 and view["options"]["straddle"] and view["options"]["run_twice"]
    view = alice.post(f"/api/rooms/{code}/settings", json={"seats": 5, "straddle": False}).json()
    assert not view["options"]["straddle"] and view["options"]["run_twice"]


def test_sockets_opening_on_a_room_without_chat_read_the_chat_once_not_once_each(app: FastAPI,
                                                                                  monkeypatch: Any) -> None:
    """A reconnect storm (thousands of sockets after a restart) must not read the chat table once per socket: the
    room's newest line is read once and stands a few seconds; a line written here counts at once."""
    from taiwan_poker.store import chat as chat_store

    (alice, bob, carol), code = three(app)
    calls = {"newest": 0, "lines": 0}
    real_newest, real_lines = chat_store.newest_id, chat_store.lines

    def newest(*a: Any, **k: Any) -> int:
        calls["newest"] += 1
        return real_newest(*a, **k)

    def lines(*a: Any, **k: Any) -> Any:
        calls["lines"] += 1
        return real_lines(*a, **k)

    monkeypatch.setattr(chat_store, "newest_id", newest)
    monkeypatch.setattr(chat_store, "lines", lines)
    for c in (alice, bob, carol, alice, bob):
        with c.websocket_connect(f"/ws/rooms/{code}") as ws:
            assert receive(ws)["type"] == "state"
            ws.send_text(json.dumps({"type": "ping"}))
            assert receive(ws)["type"] == "pong", "no chat backlog: the room has none"
    assert calls == {"newest": 1, "lines": 0}
    bob.post(f"/api/rooms/{code}/chat", json={"text": "just now"})
    with carol.websocket_connect(f"/ws/rooms/{code}") as ws:
        assert receive(ws)["type"] == "state"
        backlog = receive(ws)
        assert backlog["type"] == "chat" and [m["text"] for m in backlog["messages"]] == ["just now"]
