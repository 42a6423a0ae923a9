"""Provable fairness over HTTP (issue 47): a player's seed (``POST /seed``), the host's "never reveal" before the
first hand, and what a hand's export opens before and after the match ends."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from taiwan_poker.fairness.record import verify_record
from tests.members.conftest import client


def _play_out(players: list[TestClient], code: str) -> dict[str, Any]:
    for _ in range(100):
        s = players[0].get(f"/api/rooms/{code}").json()
        hand = s["hand"]
        if hand["complete"]:
            return s
        actor = next(c for c in players if c.get(f"/api/rooms/{code}").json()["you"] == hand["to_act"])
        mine = actor.get(f"/api/rooms/{code}").json()
        kind = "check" if "check" in mine["hand"]["legal"]["actions"] else "call"
        assert actor.post(f"/api/rooms/{code}/actions", json={"version": mine["version"],
                                                               "action": {"kind": kind}}).json()["applied"]
    raise AssertionError("the hand did not end")


def test_a_seed_goes_into_the_next_hand_and_a_bad_one_is_refused_with_a_message(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    b.post(f"/api/rooms/{code}/join")  # hand 1 is dealt
    for bad in ("xyz", "ab" * 15, "ab" * 65, " " + "ab" * 16):
        r = b.post(f"/api/rooms/{code}/seed", json={"seed": bad}, headers={"Accept-Language": "zh-TW"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seed_hex", r.text
        assert "十六進位" in r.json()["error"]["message"], "the reader's language"
    assert b.post(f"/api/rooms/{code}/seed", json={"seed": 12}).status_code == 422, "not a string"
    assert b.get(f"/api/rooms/{code}").json()["seed_sent"] is False, "nothing changed"
    r = b.post(f"/api/rooms/{code}/seed", json={"seed": "ab" * 32})
    assert r.status_code == 200 and r.json()["seed_sent"] and r.json()["fairness"]["next"]["hand_no"] == 2
    outsider = client(app, "Eve")
    assert outsider.post(f"/api/rooms/{code}/seed", json={"seed": "cd" * 32}).json()["error"]["code"] == "not_seated"
    s = _play_out([a, b], code)
    assert a.post(f"/api/rooms/{code}/next", json={"version": s["version"]}).json()["applied"]
    bob_seat = b.get(f"/api/rooms/{code}").json()["you"]
    record = b.get(f"/api/rooms/{code}/hands/2.json").json()["fairness"]
    assert record["player_seeds"][str(bob_seat)] == "ab" * 32
    assert record["openings"] == [], "no card opened while the hand is played"


def test_never_reveal_is_chosen_before_the_first_hand_and_the_exports_then_keep_the_seeds(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2, "reveal": False}).json()["code"]
    assert a.get(f"/api/rooms/{code}").json()["fairness"]["reveal"] is False
    assert a.post(f"/api/rooms/{code}/options", json={"reveal": True}).status_code == 200
    assert a.post(f"/api/rooms/{code}/options", json={"reveal": False}).status_code == 200
    b.post(f"/api/rooms/{code}/join")
    r = a.post(f"/api/rooms/{code}/options", json={"reveal": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_started"
    _play_out([a, b], code)
    assert a.post(f"/api/rooms/{code}/end").json()["match"]["over"]
    exported = b.get(f"/api/rooms/{code}/hands.json").json()
    assert all("server_seed" not in h["fairness"] for h in exported["hands"])
    assert all(verify_record(h["fairness"]).ok for h in exported["hands"]), "the openings still check"


def test_after_the_match_every_export_carries_the_seeds_and_recomputes(app: FastAPI) -> None:
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 3}).json()["code"]
    b.post(f"/api/rooms/{code}/join")
    _play_out([a, b], code)
    before = b.get(f"/api/rooms/{code}/hands/1.json").json()["fairness"]
    assert "server_seed" not in before and before["openings"]
    assert a.post(f"/api/rooms/{code}/end").json()["match"]["over"]
    spectator = client(app)
    for reader in (a, b, spectator):
        for h in reader.get(f"/api/rooms/{code}/hands.json").json()["hands"]:
            report = verify_record(h["fairness"])
            assert report.ok and report.shoe and report.seed, report.problems
