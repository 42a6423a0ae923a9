"""Two real server instances on one PostgreSQL both run the server's clock at sit-and-go tables: each blind level
rises exactly once, whichever instance's sweeper gets there first (the version guard lets one in). The instances
share a test clock (``TP_TEST_CLOCK_FILE``) that the test moves past each level's deadline."""

from __future__ import annotations

import time
from pathlib import Path

from taiwan_poker.tables.events import LevelRaised, event_from_json
from tests.members.test_restart import signed_in
from tests.scale.test_timer_race import stored_log
from tests.server_process import ServerProcess

TABLES = 4
LEVELS = 3  # deadlines passed, one minute each


def levels(pg_url: str, code: str) -> list[int]:
    return [e.level for _, p in stored_log(pg_url, code) if isinstance(e := event_from_json(p), LevelRaised)]


def test_two_instances_raise_each_level_exactly_once(tmp_path: Path, pg_url: str) -> None:
    clock = tmp_path / "clock"
    clock.write_text("0")
    env = {"DATABASE_URL": pg_url, "TP_PUSH_BUS": "1", "TP_TEST_CLOCK_FILE": str(clock),
           "TP_BOT_PAUSE_SECONDS": "0,0"}
    servers = [ServerProcess(tmp_path / f"i{i}", tmp_path / f"i{i}.log", env) for i in range(2)]
    for server in servers:
        server.start(timeout=180)
    try:
        codes = []
        for t in range(TABLES):  # opened on either instance: a member and two bots, one-minute levels
            member = signed_in(servers[t % 2].base, f"A{t}")
            r = member.post("/api/rooms", json={"decks": 2, "seats": 3, "bots": 2,
                                                "tournament": {"preset": "deep", "minutes": 1}})
            assert r.status_code == 200, r.text
            codes.append(r.json()["code"])
        for passed in range(1, LEVELS + 1):
            clock.write_text(str(60 * passed))  # past level ``passed``'s deadline, on both instances at once
            want = list(range(2, passed + 2))
            deadline = time.monotonic() + 60
            while not all(len(levels(pg_url, code)) >= passed for code in codes):
                assert time.monotonic() < deadline, {code: levels(pg_url, code) for code in codes}
                time.sleep(0.2)
            # both sweepers keep looking every second: a second rise of the level would show within a few sweeps
            settle = time.monotonic() + 3
            while time.monotonic() < settle:
                assert all(levels(pg_url, code) == want for code in codes), \
                    {code: levels(pg_url, code) for code in codes}
                time.sleep(0.5)
    finally:
        for server in servers:
            server.stop()
