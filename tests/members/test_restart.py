"""A server killed mid-hand (a real process, SIGKILL) and started again continues every hand exactly:
nothing lost, nothing duplicated — on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.rooms.test_service import random_action
from tests.server_process import ServerProcess

VOLATILE = ("server_time", "seconds_left", "timeout_allowed")


def signed_in(base: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=base, timeout=10)
    r = c.post("/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"})
    assert r.status_code == 200, r.text
    c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
    return c


def stable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in VOLATILE}


def step(players: list[httpx.Client], code: str, rng: random.Random, finish: bool = False) -> dict[str, Any]:
    """One move of the match: an action by the seat to act, or the next hand; returns the state before it."""
    st = players[0].get(f"/api/rooms/{code}").json()
    if st["match"]["over"]:
        return st
    if st["hand"]["complete"]:
        r = players[0].post(f"/api/rooms/{code}/next", json={"version": st["version"]})
        assert r.status_code == 200
        return st
    seat = st["hand"]["to_act"]
    legal = players[seat].get(f"/api/rooms/{code}").json()["hand"]["legal"]
    action = {"kind": "allin"} if finish and "allin" in legal["actions"] else random_action(legal, rng)
    if finish and action["kind"] == "fold" and "call" in legal["actions"]:
        action = {"kind": "call"}
    r = players[seat].post(f"/api/rooms/{code}/actions",
                           json={"version": st["version"], "key": f"k{st['version']}", "action": action})
    assert r.status_code == 200 and r.json()["applied"], r.text
    return st


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_mid_hand_restart_and_finish_the_match(backend: str, tmp_path: Path, request: pytest.FixtureRequest
                                                    ) -> None:
    env = {"DATABASE_URL": request.getfixturevalue("pg_url")} if backend == "postgresql" else {}
    server = ServerProcess(tmp_path / "data", tmp_path / "server.log", env)
    base = server.start()
    rng = random.Random(5)
    try:
        players = [signed_in(base, "Alice"), signed_in(base, "Bob")]
        code = players[0].post("/api/rooms", json={"decks": 3}).json()["code"]
        assert players[1].post(f"/api/rooms/{code}/join").status_code == 200
        for _ in range(12):
            step(players, code, rng)
        st = players[0].get(f"/api/rooms/{code}").json()
        while st["hand"]["complete"] or st["hand"]["street"] == "preflop":  # stop mid-hand, after the flop
            step(players, code, rng)
            st = players[0].get(f"/api/rooms/{code}").json()
            if st["match"]["over"]:
                pytest.fail("the match ended before a mid-hand kill could be tested")
        before = [stable(c.get(f"/api/rooms/{code}").json()) for c in players]
        history_before = [c.get(f"/api/rooms/{code}/history").json() for c in players]

        server.kill()
        server.start()

        after = [stable(c.get(f"/api/rooms/{code}").json()) for c in players]
        assert after == before, "the restarted server shows exactly the same table"
        assert [c.get(f"/api/rooms/{code}/history").json() for c in players] == history_before
        versions = [before[0]["version"]]
        for i in range(400):
            st = step(players, code, rng, finish=i > 40)
            if st["match"]["over"]:
                break
            versions.append(players[0].get(f"/api/rooms/{code}").json()["version"])
        final = players[0].get(f"/api/rooms/{code}").json()
        assert final["match"]["over"], "the match was finished after the restart"
        assert sorted(final["match"]["stacks"]) == [0, 4000], "no chip lost or duplicated"
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
        hands = players[0].get(f"/api/rooms/{code}/history").json()["hands"]
        assert [h["hand_no"] for h in hands] == list(range(1, len(hands) + 1))
        assert all(h["final"]["complete"] for h in hands)
    finally:
        server.stop()
