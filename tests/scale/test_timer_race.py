"""Two real server instances share one PostgreSQL and both run the server's clock: every abandoned turn is
timed out exactly once and every next hand dealt exactly once, whichever instance's sweeper gets there first
(the version guard lets one in; ``docs/scaling.md``)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import sqlalchemy as sa

from taiwan_poker.tables.events import event_from_json
from taiwan_poker.tables.limits import NEXT_HAND_SECONDS, TIMEOUT_GRACE_SECONDS
from taiwan_poker.tables.machine import fold
from tests.members.test_restart import signed_in
from tests.server_process import ServerProcess

TABLES = 6
CLOCK = 1  # seconds: the turn is abandoned at once; the server applies the time-out after the grace


def stored_state(url: str, code: str) -> object:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            payloads = conn.execute(sa.text(
                "SELECT e.payload FROM room_events e JOIN rooms r ON r.id = e.room_id WHERE r.code = :c "
                "ORDER BY e.seq"), {"c": code}).scalars().all()
    finally:
        engine.dispose()
    return fold(event_from_json(p if isinstance(p, dict) else dict(p)) for p in payloads)


def test_two_instances_time_out_each_abandoned_turn_once_and_deal_each_next_hand_once(
        tmp_path: Path, pg_url: str) -> None:
    env = {"DATABASE_URL": pg_url, "TP_PUSH_BUS": "1", "TP_ACTION_CLOCK_SECONDS": str(CLOCK)}
    servers = [ServerProcess(tmp_path / f"i{i}", tmp_path / f"i{i}.log", env) for i in range(2)]
    for server in servers:
        server.start()
    try:
        codes = []
        for t in range(TABLES):  # tables opened on either instance; nobody acts
            home = servers[t % 2].base
            alice, bob = signed_in(home, f"A{t}"), signed_in(home, f"B{t}")
            code = alice.post("/api/rooms", json={"decks": 2}).json()["code"]
            assert bob.post(f"/api/rooms/{code}/join").status_code == 200
            codes.append(code)
        deadline = time.monotonic() + CLOCK + TIMEOUT_GRACE_SECONDS + NEXT_HAND_SECONDS + 20
        states = {}
        while time.monotonic() < deadline:
            states = {code: stored_state(pg_url, code) for code in codes}
            if all(len(s.hands) >= 2 for s in states.values()):  # type: ignore[attr-defined]
                break
            time.sleep(1)
        time.sleep(2)  # both sweepers had seconds more to do anything twice
        for code in codes:
            state = stored_state(pg_url, code)
            hands = state.hands  # type: ignore[attr-defined]
            assert len(hands) == 2, f"{code}: hand 2 dealt once (not zero or twice): {len(hands)} hands"
            timeouts = [e for e in hands[0].events if getattr(e, "timeout", False)]
            assert len(timeouts) == 1, f"{code}: exactly one time-out applied, got {len(timeouts)}"
            assert hands[0].complete, "heads-up, the small blind's time-out folds the hand"
        for server in servers:  # both instances were sweeping (and neither failed at it)
            metrics = httpx.get(f"{server.base}/metrics").text
            assert 'tp_room_errors_total{kind="sweep"}' not in metrics
    finally:
        for server in servers:
            server.stop()
