"""Every HTTP response and WebSocket message sent to each player, over many complete matches, is checked
against the server's truth at that payload's version: no card the player may not see at that moment."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest
from fastapi import FastAPI

from taiwan_poker.store import repo
from taiwan_poker.tables import event_from_json, fold
from tests.leaks import card_strings, check_events, check_hand_view, check_room_state
from tests.members.conftest import client
from tests.rooms.test_service import random_action

_TRUTH: dict[tuple[int, str, int], Any] = {}


def truth_at(app: FastAPI, code: str, version: int) -> Any:
    """The match as it was at ``version``, replayed from the room's log."""
    key = (id(app), code, version)
    if key not in _TRUTH:
        with app.state.db.transaction() as s:
            room = repo.room_by_code(s, code)
            assert room is not None
            _TRUTH[key] = fold(event_from_json(p) for p in repo.load_events(s, room.id)[:version])
    return _TRUTH[key]


def check_payload(app: FastAPI, code: str, seat: int | None, payload: dict[str, Any], where: str) -> None:
    st = payload.get("state", payload)
    match = truth_at(app, code, st["version"])
    check_room_state(st, seat, match.hand if match else None, where)


def drain(ws: Any, version: int, sink: list[dict[str, Any]]) -> None:
    """Read pushes until the socket has caught up with ``version`` (no read if it already has)."""
    seen = max((m["state"]["version"] for m in sink if "state" in m), default=-1)
    while seen < version:
        msg = ws.receive_json()
        sink.append(msg)
        if "state" in msg:
            seen = max(seen, msg["state"]["version"])


def test_no_payload_to_any_player_ever_holds_a_card_they_may_not_see(app: FastAPI) -> None:
    rng = random.Random(2026)
    seeds = iter(range(10_000))
    app.state.rooms.rng_factory = lambda: random.Random(next(seeds))  # deterministic deals for a stable test
    players = [client(app, "Alice"), client(app, "Bob")]
    spectator = client(app, "Carol")
    recorded: list[tuple[int | None, str, dict[str, Any], str]] = []  # (seat, code, payload, where)
    matches = hands_seen = allins = folds = 0
    for match_no in range(40):
        if hands_seen >= 25 and allins and folds:
            break
        decks = 2 + match_no % 5
        code = players[0].post("/api/rooms", json={"decks": decks}).json()["code"]
        players[1].post(f"/api/rooms/{code}/join")
        matches += 1
        sockets = [players[0].websocket_connect(f"/ws/rooms/{code}"), players[1].websocket_connect(f"/ws/rooms/{code}"),
                   spectator.websocket_connect(f"/ws/rooms/{code}")]
        inbox: list[list[dict[str, Any]]] = [[], [], []]
        with sockets[0] as w0, sockets[1] as w1, sockets[2] as w2:
            socks = [w0, w1, w2]
            for _ in range(600):
                views = [c.get(f"/api/rooms/{code}").json() for c in (*players, spectator)]
                for seat, v in zip((0, 1, None), views, strict=True):
                    recorded.append((seat, code, v, "http state"))
                version = views[0]["version"]
                for i, sock in enumerate(socks):
                    drain(sock, version, inbox[i])
                st = views[0]
                if st["match"]["over"] or st["match"]["hands_played"] > 12:
                    break
                if st["hand"]["complete"]:
                    hands_seen += 1
                    r = players[hands_seen % 2].post(f"/api/rooms/{code}/next", json={"version": version})
                    recorded.append((hands_seen % 2, code, r.json(), "http next"))
                    continue
                seat = st["hand"]["to_act"]
                legal = views[seat]["hand"]["legal"]
                action = random_action(legal, rng)
                allins += action["kind"] == "allin"
                folds += action["kind"] == "fold"
                body = {"version": version, "key": f"{code}-{version}", "action": action}
                if rng.random() < 0.3:
                    socks[seat].send_text(json.dumps({"type": "action", **body}))
                    while True:  # pushes may come first; the reply says "applied"
                        msg = socks[seat].receive_json()
                        inbox[seat].append(msg)
                        if "applied" in msg:
                            assert msg["applied"], msg
                            break
                else:
                    r = players[seat].post(f"/api/rooms/{code}/actions", json=body)
                    assert r.status_code == 200 and r.json()["applied"], r.text
                    recorded.append((seat, code, r.json(), "http action"))
            for i, seat in enumerate((0, 1, None)):
                recorded += [(seat, code, m, "ws") for m in inbox[i] if "state" in m]
        for seat, c in enumerate(players):
            hist = c.get(f"/api/rooms/{code}/history").json()["hands"]
            final = truth_at(app, code, c.get(f"/api/rooms/{code}").json()["version"])
            for entry, hand in zip(hist, final.hands, strict=True):
                check_hand_view(entry["final"], seat, hand, "history")
                check_events(entry["events"], seat, hand, "history")
    for seat, code, payload, where in recorded:
        check_payload(app, code, seat, payload, f"{where} to seat {seat}")
    assert hands_seen >= 25 and allins >= 1 and folds >= 1, (matches, hands_seen, allins, folds)
    assert len(recorded) > 300


def test_the_leak_checker_catches_a_leaked_card(app: FastAPI) -> None:
    """The checker itself: an opponent's hole card or burn slipped into a payload is caught."""


    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    st = a.get(f"/api/rooms/{code}").json()
    match = truth_at(app, code, st["version"])
    check_room_state(st, 0, match.hand, "honest")
    opponent = [c.face_str for c in match.hand.hole_cards(1)]
    burn = [c.face_str for c in match.hand.private_burns(1)]
    for leak in ({**st, "debug": opponent}, {**st, "hand": {**st["hand"], "peek": burn}},
                 {**st, "hand": {**st["hand"], "you": {**st["hand"]["you"], "hole": opponent}}}):
        with pytest.raises(AssertionError):
            check_room_state(leak, 0, match.hand, "tampered")


def test_no_payload_at_a_six_seat_table_holds_a_card_they_may_not_see(app: FastAPI) -> None:
    """Six players and a spectator, over HTTP and sockets, through several hands with side pots, a player
    going away and coming back and one leaving mid-hand: every payload checked against the truth at its version."""
    rng = random.Random(66)
    seeds = iter(range(10_000))
    app.state.rooms.rng_factory = lambda: random.Random(501 + next(seeds))
    rooms = app.state.rooms
    real_clock, offset = rooms.clock, [0.0]  # moved on to draw on time banks and let the server time a turn out
    rooms.clock = lambda: real_clock() + dt.timedelta(seconds=offset[0])
    players = [client(app, f"P{i}") for i in range(6)]
    spectator = client(app, "Watcher")
    code = players[0].post("/api/rooms", json={"seats": 6, "decks": 3, "stack": 2000, "blinds": [5, 10]}).json()["code"]
    for c in players[1:]:
        assert c.post(f"/api/rooms/{code}/join").status_code == 200  # the sixth fills the table: hand 1 is dealt
    seat_of = {i: c.get(f"/api/rooms/{code}").json()["you"] for i, c in enumerate(players)}
    assert sorted(seat_of.values()) == list(range(6))
    recorded: list[tuple[int | None, dict[str, Any], str]] = []
    hands = allins = shoves = 0
    banked = timed_out = False
    left: set[int] = set()
    with players[0].websocket_connect(f"/ws/rooms/{code}") as w0, \
            players[3].websocket_connect(f"/ws/rooms/{code}") as w3, \
            spectator.websocket_connect(f"/ws/rooms/{code}") as ws:
        socks = {0: w0, 3: w3, None: ws}
        inbox: dict[int | None, list[dict[str, Any]]] = {0: [], 3: [], None: []}
        for _ in range(400):
            views = {i: c.get(f"/api/rooms/{code}").json() for i, c in enumerate(players)}
            views_spec = spectator.get(f"/api/rooms/{code}").json()
            for i, v in views.items():  # a player who left still sees their own cards of the hands they played
                recorded.append((seat_of[i], v, "http state"))
            recorded.append((None, views_spec, "http spectator"))
            st = views_spec
            for key, sock in socks.items():
                drain(sock, st["version"], inbox[key])
            if st["match"]["over"] or hands >= 8:
                break
            if not st["hand"] or st["hand"]["complete"]:
                hands += 1
                if hands == 4:  # a player steps away, then comes back two hands later
                    players[2].post(f"/api/rooms/{code}/away")
                if hands == 6:
                    players[2].post(f"/api/rooms/{code}/back")
                dealer = next(i for i in range(6) if i not in left)
                r = players[dealer].post(f"/api/rooms/{code}/next", json={"version": st["version"]})
                recorded.append((seat_of[dealer], r.json(), "http next"))
                continue
            to_act = st["hand"]["to_act"]
            actor = next(i for i, s in seat_of.items() if s == to_act and i not in left)
            if hands == 2 and not banked:  # a move 20 s into the time bank: drawn by a public event
                offset[0] += 45 + 20
                banked = True
            if hands == 7 and not timed_out:  # nobody acts: clock and bank run out, the server folds the turn
                offset[0] += 45 + 61
                assert rooms.sweep() == [code]
                timed_out = True
                continue
            if hands == 5 and 5 not in left and actor != 5:  # someone leaves mid-hand, out of turn
                players[5].post(f"/api/rooms/{code}/leave")
                left.add(5)
                continue
            legal = views[actor]["hand"]["legal"]
            action = random_action(legal, rng)
            if action["kind"] in ("bet", "raise"):  # small raises only: the table should last several hands
                action["to"] = legal[f"min_{action['kind']}_to"]
            elif action["kind"] == "allin" and hands != 3:
                action = {"kind": "call"} if "call" in legal["actions"] else {"kind": "check"}
            if hands == 3:  # hand 4: three players all in for stacks that differ by now, the rest fold: side pots
                shoves += 1
                action = {"kind": "allin"} if shoves <= 3 and "allin" in legal["actions"] else \
                    {"kind": "call"} if "call" in legal["actions"] and shoves <= 3 else {"kind": "fold"}
            allins += action["kind"] == "allin"
            r = players[actor].post(f"/api/rooms/{code}/actions",
                                    json={"version": st["version"], "key": f"k{st['version']}", "action": action})
            assert r.status_code == 200 and r.json()["applied"], r.text
            recorded.append((seat_of[actor], r.json(), "http action"))
        for key, messages in inbox.items():
            recorded += [(seat_of[key] if key is not None else None, m, "ws") for m in messages if "state" in m]
    for i, c in enumerate(players):
        hist = c.get(f"/api/rooms/{code}/history").json()["hands"]
        final = truth_at(app, code, c.get(f"/api/rooms/{code}").json()["version"])
        for entry, hand, lineup in zip(hist, final.hands, final.lineups, strict=True):
            mine = seat_of[i] if lineup[seat_of[i]] is not None else None  # nobody took over a seat here
            check_hand_view(entry["final"], mine, hand, f"history P{i}")
            check_events(entry["events"], mine, hand, f"history P{i}")
    for seat, payload, where in recorded:
        check_payload(app, code, seat, payload, f"{where} to seat {seat}")
    assert hands >= 5 and allins >= 1 and left == {5}
    assert any(len(hand.pots) > 1 for hand in final.hands), "at least one hand was split into side pots"
    assert banked and timed_out and any(p["bank"] < 60 for p in views_spec["players"]), "time banks were drawn"
    assert len(recorded) > 300


def test_no_payload_at_a_hosts_table_holds_a_card_or_a_line_its_reader_may_not_have(app: FastAPI) -> None:
    """Issue 23: a straddle, run-it-twice, show-or-muck and rebuy table with a host who pauses, adjusts stacks,
    changes the stakes, names a co-host, silences and deletes, and players who chat, react, mute, show and muck.
    Every HTTP answer and socket message (states and chat) is checked against the truth at its version: no hidden
    card (burns, unshown or mucked hands) anywhere, both runs' boards as dealt, and no chat line outside its
    audience (a spectator never gets the players' lines), from a player its reader muted, or deleted text."""
    rng = random.Random(23)
    seeds = iter(range(10_000))  # seeds picked so the deals reach every scenario (re-picked when writes stopped
    app.state.rooms.rng_factory = lambda: random.Random(504 + next(seeds))  # drawing a bot's pause: issue 46)
    players = [client(app, n) for n in ("Host", "Bea", "Cal")]
    rail = client(app, "Rail")
    code = players[0].post("/api/rooms", json={"seats": 3, "decks": 2, "stack": 600, "blinds": [10, 20],
                                               "straddle": True, "run_twice": True, "show_or_muck": True,
                                               "rebuys": True}).json()["code"]
    assert players[0].post(f"/api/rooms/{code}/straddle", json={"choice": "always"}).status_code == 200
    for c in players[1:]:
        assert c.post(f"/api/rooms/{code}/join").status_code == 200  # full: hand 1
        assert c.post(f"/api/rooms/{code}/straddle", json={"choice": "always"}).status_code == 200
    recorded: list[tuple[int | None, dict[str, Any], str]] = []
    chats: list[tuple[str, dict[str, Any], str]] = []  # (reader, chat payload, where)
    mutes: dict[str, dict[str, int]] = {"Bea": {}}  # reader -> muted name -> first line id after the mute
    seen = {"runs2": 0, "muck": 0, "showed": 0, "rebuy": 0, "deleted": 0}
    names = ["Host", "Bea", "Cal"]

    def say(i: int, text: str) -> None:
        r = players[i].post(f"/api/rooms/{code}/chat", json={"text": text})
        if r.status_code == 200:
            chats.append((names[i], {"messages": [r.json()["message"]]}, "http chat"))

    with players[1].websocket_connect(f"/ws/rooms/{code}") as w1, rail.websocket_connect(f"/ws/rooms/{code}") as wr:
        socks = {1: w1, None: wr}
        inbox: dict[int | None, list[dict[str, Any]]] = {1: [], None: []}
        hands = 0
        for _ in range(500):
            views = [c.get(f"/api/rooms/{code}").json() for c in players]
            spec = rail.get(f"/api/rooms/{code}").json()
            recorded += [(v["you"], v, "http state") for v in views] + [(None, spec, "http spectator")]
            for key, sock in socks.items():
                drain(sock, spec["version"], inbox[key])
            hand = spec["hand"]
            if spec["match"]["over"] or hands >= 12:
                break
            if rng.random() < 0.15:
                say(rng.randrange(3), rng.choice(["nice hand", "ouch", "gl", "我跟", "<b>bold?</b>"]))
            if hand["pending"]:
                seat = rng.choice(hand["pending"]["seats"])
                kind = hand["pending"]["kind"]
                body = {"version": spec["version"], "agree": rng.random() < 0.8} if kind == "runs" else \
                    {"version": spec["version"], "show": rng.random() < 0.3}
                r = players[seat].post(f"/api/rooms/{code}/{'runs' if kind == 'runs' else 'showdown'}", json=body)
                assert r.status_code == 200, r.text
                recorded.append((seat, r.json(), f"http {kind}"))
                continue
            if hand["complete"]:
                hands += 1
                seen["runs2"] += hand["runs"] == 2
                seen["muck"] += any(s.get("mucked") for s in hand["seats"])
                winner = next((i for i, v in enumerate(views) if v["hand"]["you"].get("may_show")), None) \
                    if all(v["hand"].get("you") for v in views) else None
                if winner is not None and rng.random() < 0.7:
                    r = players[winner].post(f"/api/rooms/{code}/show", json={"cards": [rng.randrange(2)]})
                    recorded.append((winner, r.json(), "http show"))
                    seen["showed"] += 1
                for i, v in enumerate(views):
                    if v["may_buy"] and v["busted"]:
                        r = players[i].post(f"/api/rooms/{code}/buy")
                        recorded.append((i, r.json(), "http rebuy"))
                        seen["rebuy"] += 1
                host_turn = hands % 4
                if host_turn == 0:
                    players[0].post(f"/api/rooms/{code}/pause")
                    players[0].post(f"/api/rooms/{code}/resume")
                elif host_turn == 1:
                    target = rng.randrange(1, 3)
                    players[0].post(f"/api/rooms/{code}/players/{target}/stack", json={"stack": rng.choice([300, 900])})
                elif host_turn == 2:
                    players[0].post(f"/api/rooms/{code}/stakes", json={"blinds": rng.choice([[10, 20], [15, 30]])})
                    players[0].post(f"/api/rooms/{code}/cohosts", json={"seat": 2, "on": rng.random() < 0.5})
                else:
                    lines = players[0].get(f"/api/rooms/{code}/chat").json()["messages"]
                    live = [m for m in lines if m["kind"] == "text" and not m["deleted"]]
                    if live:
                        r = players[0].delete(f"/api/rooms/{code}/chat/{live[-1]['id']}")
                        recorded.append((0, r.json(), "http delete chat"))
                        seen["deleted"] += 1
                    players[0].post(f"/api/rooms/{code}/silence", json={"seat": 2, "on": hands % 8 == 3})
                if hands == 2:  # Bea mutes Cal from here on
                    last = max([m["id"] for m in players[1].get(f"/api/rooms/{code}/chat").json()["messages"]] or [0])
                    players[1].post(f"/api/rooms/{code}/mute", json={"seat": 2})
                    mutes["Bea"]["Cal"] = last + 1
                if hands == 6:
                    players[0].post(f"/api/rooms/{code}/options", json={"spectator_chat": True})
                    r = rail.post(f"/api/rooms/{code}/chat", json={"text": "hello from the rail"})
                    assert r.status_code == 200
                r = players[0].post(f"/api/rooms/{code}/next", json={"version": players[0].get(
                    f"/api/rooms/{code}").json()["version"]})
                recorded.append((0, r.json(), "http next"))
                continue
            seat = hand["to_act"]
            legal = views[seat]["hand"]["legal"]
            kinds = legal["actions"]
            kind = "allin" if "allin" in kinds and rng.random() < 0.25 else \
                "check" if "check" in kinds else "call" if "call" in kinds and rng.random() < 0.8 else kinds[0]
            if kind == "fold" and "check" in kinds:
                kind = "check"
            r = players[seat].post(f"/api/rooms/{code}/actions",
                                   json={"version": spec["version"], "key": f"k{spec['version']}",
                                         "action": {"kind": kind}})
            assert r.status_code == 200, r.text
            recorded.append((seat, r.json(), "http action"))
        for key, messages in inbox.items():
            recorded += [(key, m, "ws") for m in messages if "state" in m]
            chats += [("Bea" if key == 1 else "Rail", m, "ws chat") for m in messages if m.get("type") == "chat"]
    for reader, c in zip((*names, "Rail"), (*players, rail), strict=True):
        chats.append((reader, c.get(f"/api/rooms/{code}/chat").json(), "http chat read"))
    for seat, payload, where in recorded:
        check_payload(app, code, seat, payload, f"{where} to seat {seat}")
    with app.state.db.transaction() as s:
        room_id = repo.room_by_code(s, code).id  # type: ignore[union-attr]
    from taiwan_poker.store import chat as chat_store
    stored = {line.id: line for line in chat_store.lines(app.state.db.engine, room_id, 0, 10_000)}
    for reader, payload, where in chats:
        assert not list(card_strings(payload)), f"{where} to {reader}: a card in the chat"
        for m in payload["messages"]:
            line = stored[m["id"]]
            if reader == "Rail":
                assert line.audience == "everyone", f"{where}: a players-only line reached a spectator"
            muted_from = mutes.get(reader, {}).get(line.name)
            assert where == "http chat" or muted_from is None or m["id"] < muted_from or line.kind == "delete", \
                f"{where}: {reader} got a line of a player they muted"
            if line.deleted and where == "http chat read":
                assert m["text"] == "", "deleted text is never sent again"
    assert seen["runs2"] and seen["muck"] and seen["showed"] and seen["deleted"] and seen["rebuy"], seen
    assert len(recorded) > 200
