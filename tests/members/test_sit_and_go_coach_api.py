"""The coach's ICM through the HTTP API of a sit-and-go (docs/tournaments.md, "Bots and coach")."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from tests.members.conftest import client
from tests.members.test_bots_api import wait_for


def test_the_coach_endpoint_of_a_sit_and_go_shows_icm_at_a_short_three_player_table(app: FastAPI) -> None:
    # three players, one place paid: always near the money; 15 big blinds from the first hand
    a = client(app, "Alice")
    body = {"decks": 2, "seats": 3, "bots": 2, "level": "beginner",
            "tournament": {"preset": "turbo", "levels": [[50, 100, 0], [100, 200, 0]]}}
    r = a.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    for _ in range(40):
        s = wait_for(a, code, lambda s: bool(s.get("over")) or (
            s["hand"] is not None and not s["hand"]["complete"] and s["hand"]["to_act"] == s["you"]))
        hand = s["hand"]
        if hand is None or hand["complete"] or hand["to_act"] != s["you"]:
            break
        advice = a.get(f"/api/rooms/{code}/coach").json()["advice"]
        if advice["icm"] is not None:
            assert advice["push_fold"] and len(advice["icm"]["options"]) == 2
            assert advice["icm"]["pool"] == 300 and advice["icm"]["best"] in ("allin", "call", "fold")
            return
        kind = "check" if "check" in hand["legal"]["actions"] else "fold"
        a.post(f"/api/rooms/{code}/actions", json={"version": s["version"], "action": {"kind": kind}})
    pytest.fail("no push-or-fold decision of the member came up with the coach's ICM")
