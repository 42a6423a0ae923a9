"""Tables of 2–9 seats through the HTTP API: settings, seats, the first hand, away/back, leaving, the lobby."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.members.conftest import client


def st(c: TestClient, code: str) -> dict[str, Any]:
    r = c.get(f"/api/rooms/{code}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def table(app: FastAPI, players: int, **settings: Any) -> tuple[list[TestClient], str]:
    cs = [client(app, f"P{i}") for i in range(players)]
    r = cs[0].post("/api/rooms", json=settings)
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    for c in cs[1:]:
        assert c.post(f"/api/rooms/{code}/join").status_code == 200
    return cs, code


def by_seat(cs: list[TestClient], code: str) -> dict[int, TestClient]:
    return {st(c, code)["you"]: c for c in cs}


def test_a_full_six_seat_table_deals_and_every_view_has_six_seats(app: FastAPI) -> None:
    cs, code = table(app, 6, seats=6, decks=3, stack=1500, blinds=[25, 50])
    seats = by_seat(cs, code)
    assert sorted(seats) == list(range(6))
    for seat, c in seats.items():
        s = st(c, code)
        assert s["seats"] == 6 and s["stack"] == 1500 and s["blinds"] == [25, 50] and s["decks"] == 3
        hand = s["hand"]
        assert len(hand["seats"]) == 6 and hand["you"]["seat"] == seat and len(hand["you"]["hole"]) == 2
        assert ("legal" in hand) == (hand["to_act"] == seat), "legal only for the seat to act"
        assert sum(x["stack"] + x["contributed"] for x in hand["seats"]) == 6 * 1500
    spectator = st(client(app), code)
    assert spectator["you"] is None and "you" not in spectator["hand"] and "legal" not in spectator["hand"]


def test_a_table_that_is_not_full_waits_for_its_creator_to_deal(app: FastAPI) -> None:
    cs, code = table(app, 3, seats=6)
    s = st(cs[0], code)
    assert s["status"] == "waiting" and s["hand"] is None and s["creator"] and not st(cs[1], code)["creator"]
    r = cs[1].post(f"/api/rooms/{code}/next", json={"version": s["version"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = cs[0].post(f"/api/rooms/{code}/next", json={"version": s["version"]})
    assert r.status_code == 200 and r.json()["applied"]
    assert st(cs[2], code)["hand"]["hand_no"] == 1 and st(cs[2], code)["status"] == "playing"
    late = client(app, "Late")
    assert late.post(f"/api/rooms/{code}/join").status_code == 200
    s = st(late, code)
    assert s["you"] == 3 and "you" not in s["hand"], "a player who sits down mid-hand plays from the next hand"


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"seats": 1}, 400, "bad_seats"), ({"seats": 10}, 400, "bad_seats"), ({"decks": 7}, 400, "bad_decks"),
    ({"decks": 1}, 400, "bad_decks"), ({"stack": 50}, 400, "bad_stack"), ({"blinds": [30, 20]}, 400, "bad_blinds"),
    ({"blinds": [10]}, 400, "bad_blinds"), ({"stack": 100, "blinds": [10, 20]}, 400, "bad_stack"),
    ({"seats": "6"}, 422, "bad_request"), ({"seats": True}, 422, "bad_request"), ({"color": "red"}, 422, "bad_request"),
])
def test_bad_table_settings_are_refused_with_a_code_and_nothing_is_created(
    app: FastAPI, body: dict[str, Any], status: int, code: str
) -> None:
    c = client(app, "Host")
    r = c.post("/api/rooms", json=body)
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text
    assert c.get("/api/rooms").json() == {"rooms": []}


def test_nine_seats_work_through_the_api(app: FastAPI) -> None:
    cs, code = table(app, 9, seats=9, decks=2)
    s = st(cs[4], code)
    assert s["status"] == "playing" and len(s["hand"]["seats"]) == 9


def test_the_creator_changes_the_settings_until_the_first_hand(app: FastAPI) -> None:
    cs, code = table(app, 2, seats=4)
    r = cs[1].post(f"/api/rooms/{code}/settings", json={"seats": 3})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = cs[0].post(f"/api/rooms/{code}/settings", json={"seats": 3, "stack": 3000, "blinds": [25, 50]})
    assert r.status_code == 200 and r.json()["seats"] == 3
    assert [p["stack"] for p in st(cs[1], code)["players"]] == [3000, 3000]
    s = st(cs[0], code)
    cs[0].post(f"/api/rooms/{code}/next", json={"version": s["version"]})
    r = cs[0].post(f"/api/rooms/{code}/settings", json={"seats": 2})
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_started"


def test_away_and_back_and_a_paused_table(app: FastAPI) -> None:
    cs, code = table(app, 2)
    s = st(cs[0], code)
    to_act = s["hand"]["to_act"]
    seats = by_seat(cs, code)
    other = seats[1 - to_act]
    other.post(f"/api/rooms/{code}/away")
    assert next(p for p in st(other, code)["players"] if p["seat"] == 1 - to_act)["away"]
    actor = seats[to_act]
    r = actor.post(f"/api/rooms/{code}/actions", json={"version": st(actor, code)["version"],
                                                       "action": {"kind": "call"}})
    assert r.json()["applied"]
    s = st(actor, code)
    assert s["hand"]["complete"] or s["hand"]["to_act"] == to_act, "the away player's turn was taken at once"
    while not st(actor, code)["hand"]["complete"]:
        s = st(actor, code)
        kind = "check" if "check" in s["hand"]["legal"]["actions"] else "call"
        actor.post(f"/api/rooms/{code}/actions", json={"version": s["version"], "action": {"kind": kind}})
    s = st(actor, code)
    assert s["status"] == "paused", "one player present: no more hands"
    r = actor.post(f"/api/rooms/{code}/next", json={"version": s["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_paused"
    other.post(f"/api/rooms/{code}/back")
    assert st(actor, code)["status"] == "playing"


def test_leaving_mid_hand_out_of_turn_folds_and_the_hand_goes_on(app: FastAPI) -> None:
    cs, code = table(app, 3, seats=3)
    s = st(cs[0], code)
    seats = by_seat(cs, code)
    leaver_seat = next(x for x in range(3) if x != s["hand"]["to_act"])
    assert seats[leaver_seat].post(f"/api/rooms/{code}/leave").status_code == 200
    after = st(cs[0] if leaver_seat != st(cs[0], code)["you"] else cs[1], code)
    assert after["hand"]["seats"][leaver_seat]["folded"] and not after["hand"]["complete"]
    assert after["hand"]["to_act"] == s["hand"]["to_act"]
    assert next(p for p in after["players"] if p["left"])["seat"] == leaver_seat
    total = sum(x["stack"] for x in after["hand"]["seats"] if x["seat"] != leaver_seat) + after["hand"]["pot"]
    assert total + after["hand"]["seats"][leaver_seat]["stack"] == 3 * 2000


def test_the_lobby_shows_your_turn_the_seats_and_the_blinds(app: FastAPI) -> None:
    cs, code = table(app, 2, seats=4, blinds=[5, 10], stack=1000)
    cs[0].post(f"/api/rooms/{code}/next", json={"version": st(cs[0], code)["version"]})
    s = st(cs[0], code)
    mine = {c: c.get("/api/rooms").json()["rooms"][0] for c in cs}
    for c, room in mine.items():
        assert room["code"] == code and room["seats"] == 4 and room["taken"] == 2 and room["blinds"] == [5, 10]
        assert room["your_turn"] == (st(c, code)["you"] == s["hand"]["to_act"])
    assert sum(room["your_turn"] for room in mine.values()) == 1
