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


def test_the_review_of_a_sit_and_go_hand_reports_the_push_or_fold_mix_the_coach_gave_live(app: FastAPI) -> None:
    """The review advises each decision as the live coach did, in a sit-and-go too: a push-or-fold spot's mix comes
    from the push-or-fold tables with the payouts as they stood at that hand (a cash table's mix would differ)."""
    a = client(app, "Alice")
    body = {"decks": 2, "seats": 3, "bots": 2, "level": "beginner",
            "tournament": {"preset": "turbo", "levels": [[50, 100, 0], [100, 200, 0]]}}
    code = a.post("/api/rooms", json=body).json()["code"]
    live: dict[int, list[dict[str, object]]] = {}
    for _ in range(60):
        s = wait_for(a, code, lambda s: bool(s.get("over")) or s["hand"] is None or s["hand"]["complete"] or (
            s["hand"]["to_act"] == s["you"]))
        hand = s["hand"]
        if s.get("over") or hand is None or len([n for n, x in live.items() if any(d["push_fold"] for d in x)]) >= 2:
            break
        if hand["complete"]:
            wait_for(a, code, lambda s, n=hand["hand_no"]: bool(s.get("over")) or s["hand"]["hand_no"] > n)
            continue
        advice = a.get(f"/api/rooms/{code}/coach").json()["advice"]
        live.setdefault(hand["hand_no"], []).append(advice)
        kind = "check" if "check" in hand["legal"]["actions"] else "fold"
        a.post(f"/api/rooms/{code}/actions", json={"version": s["version"], "action": {"kind": kind}})
    pushed = [n for n, said in live.items() if any(d["push_fold"] for d in said)]
    assert pushed, "no push-or-fold decision came up"
    for n in pushed:
        wait_for(a, code, lambda s, n=n: bool(s.get("over")) or s["hand"]["hand_no"] > n or s["hand"]["complete"])
        decisions = a.get(f"/api/rooms/{code}/hands/{n}/review").json()["decisions"]
        assert [[d[k] for k in ("mix", "suggestion", "equity")] for d in decisions] == [
            [x[k] for k in ("mix", "action", "equity_range")] for x in live[n]], f"hand {n}"
