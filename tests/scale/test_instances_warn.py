"""Instances on one PostgreSQL that cannot exchange pushes say so at start-up (real processes): a second one
without TP_PUSH_BUS=1, or one with it beside one without; instances that all run the bus say nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.server_process import ServerProcess

WITHOUT_BUS = "Another server instance uses this database: start every instance with TP_PUSH_BUS=1"
OTHER_WITHOUT_BUS = "An instance without TP_PUSH_BUS=1 uses this database"


def warnings_of(server: ServerProcess) -> list[str]:
    return [json.loads(line)["message"] for line in server.log_path.read_text().splitlines()
            if line.startswith("{") and json.loads(line).get("level") == "WARNING"]


def test_instances_that_cannot_exchange_pushes_warn_and_those_that_can_do_not(tmp_path: Path, pg_url: str) -> None:
    def instance(name: str, bus: bool) -> ServerProcess:
        env = {"DATABASE_URL": pg_url, "TP_PUSH_BUS": "1" if bus else "0"}
        return ServerProcess(tmp_path / name, tmp_path / f"{name}.log", env)

    plain_a, plain_b, bus_c, bus_d = (instance("a", False), instance("b", False), instance("c", True),
                                      instance("d", True))
    try:
        plain_a.start()
        plain_b.start()
        assert not any(WITHOUT_BUS in w for w in warnings_of(plain_a)), "the first instance is alone"
        told = [w for w in warnings_of(plain_b) if WITHOUT_BUS in w]
        assert len(told) == 1 and "TP_PUSH_BUS=1" in told[0] and "每個程序都要設定" in told[0]
        bus_c.start()
        assert any(OTHER_WITHOUT_BUS in w for w in warnings_of(bus_c)), "an instance without the bus is running"
        plain_a.kill()  # kill -9: its database session, and its lock, end with it
        plain_b.stop()
        bus_d.start()
        assert not any(OTHER_WITHOUT_BUS in w or WITHOUT_BUS in w for w in warnings_of(bus_d)), \
            "two instances that both run the bus say nothing"
    finally:
        for server in (plain_a, plain_b, bus_c, bus_d):
            server.stop()
