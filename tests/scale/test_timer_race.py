"""Two real server instances share one PostgreSQL and both run the server's clock: every abandoned turn is
timed out exactly once and every next hand dealt exactly once, whichever instance's sweeper gets there first
(the version guard lets one in; ``docs/scaling.md``)."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import httpx
import sqlalchemy as sa

from taiwan_poker.tables.events import event_from_json
from taiwan_poker.tables.limits import NEXT_HAND_SECONDS
from taiwan_poker.tables.machine import fold
from tests.members.test_restart import signed_in
from tests.server_process import ServerProcess

TABLES = 6
CLOCK = 1  # seconds of action clock: the turn is abandoned at once
BANK = 2  # seconds of time bank, which starts by itself when the clock runs out
LATE = 3  # the server applies the time-out at most this many seconds after clock and bank ran out


def stored_log(url: str, code: str) -> list[tuple[dt.datetime, dict[str, object]]]:
    """The table's stored events with the time each was stored."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT e.created_at, e.payload FROM room_events e JOIN rooms r ON r.id = e.room_id "
                "WHERE r.code = :c ORDER BY e.seq"), {"c": code}).all()
    finally:
        engine.dispose()
    return [(t, p if isinstance(p, dict) else dict(p)) for t, p in rows]


def test_two_instances_time_out_each_abandoned_turn_once_and_deal_each_next_hand_once(
        tmp_path: Path, pg_url: str) -> None:
    """Both instances sweep; each abandoned turn is timed out once, at the end of the action clock plus the
    player's time bank plus at most ``LATE`` seconds, and each next hand is dealt once."""
    env = {"DATABASE_URL": pg_url, "TP_PUSH_BUS": "1", "TP_ACTION_CLOCK_SECONDS": str(CLOCK)}
    servers = [ServerProcess(tmp_path / f"i{i}", tmp_path / f"i{i}.log", env) for i in range(2)]
    for server in servers:
        server.start()
    try:
        codes = []
        for t in range(TABLES):  # tables opened on either instance; nobody acts
            home = servers[t % 2].base
            alice, bob = signed_in(home, f"A{t}"), signed_in(home, f"B{t}")
            code = alice.post("/api/rooms", json={"decks": 2, "time_bank": BANK}).json()["code"]
            assert bob.post(f"/api/rooms/{code}/join").status_code == 200
            codes.append(code)
        time.sleep(CLOCK + BANK + NEXT_HAND_SECONDS + CLOCK + LATE + 2)  # two hands' worth of the server's clock
        delays = []
        for code in codes:
            log = stored_log(pg_url, code)
            state = fold(event_from_json(p) for _, p in log)
            hands = state.hands  # type: ignore[attr-defined]
            assert len(hands) >= 2, f"{code}: the next hand was dealt"
            assert [h.hand_no for h in hands] == list(range(1, len(hands) + 1)), f"{code}: each hand dealt once"
            for hand in hands:
                timeouts = [e for e in hand.events if getattr(e, "timeout", False)]
                assert len(timeouts) == (1 if hand.complete else 0), f"{code}: one time-out a finished hand"
            started: dict[int, dt.datetime] = {}
            drawn = 0
            for when, p in log:
                inner = p.get("event") if p.get("type") == "hand" else None
                if isinstance(inner, dict) and inner.get("type") == "hand_started":
                    started[int(p["hand_no"])] = when  # type: ignore[arg-type]
                elif p.get("type") == "time_bank_used":
                    drawn = int(p["seconds"])  # type: ignore[arg-type]
                elif isinstance(inner, dict) and inner.get("type") == "action" and inner.get("timeout"):
                    late = (when - started[int(p["hand_no"])]).total_seconds() - CLOCK - drawn  # type: ignore[arg-type]
                    delays.append(late)
                    drawn = 0
        print(f"\ntime-outs applied {min(delays):.2f}-{max(delays):.2f} s after clock + bank ran out "
              f"({len(delays)} time-outs on {TABLES} tables, two instances)")
        assert all(-0.5 <= d <= LATE for d in delays), delays
        for server in servers:  # both instances were sweeping (and neither failed at it)
            metrics = httpx.get(f"{server.base}/metrics").text
            assert 'tp_room_errors_total{kind="sweep"}' not in metrics
    finally:
        for server in servers:
            server.stop()
