"""With SQLite the app stays one process: a second server process on the same database says so at start-up."""

from __future__ import annotations

import json
from pathlib import Path

from taiwan_poker.store.single_process import SqliteClaim
from tests.server_process import ServerProcess

MARK = "Another server process is using this SQLite database"


def test_a_second_process_on_the_same_sqlite_file_warns_and_a_killed_ones_claim_is_gone(tmp_path: Path) -> None:
    env = {"DATABASE_URL": ""}  # the data directory's SQLite file, whatever the environment says
    first = ServerProcess(tmp_path / "data", tmp_path / "first.log", env)
    second = ServerProcess(tmp_path / "data", tmp_path / "second.log", env)
    third = ServerProcess(tmp_path / "data", tmp_path / "third.log", env)
    try:
        first.start()
        second.start()
        told = [json.loads(line) for line in second.log_path.read_text().splitlines() if MARK in line]
        assert len(told) == 1 and told[0]["level"] == "WARNING", "the second process is told, once"
        assert "SQLite 只支援單一程序" in told[0]["message"], "in zh-TW first"
        assert MARK not in first.log_path.read_text()
        first.kill()  # kill -9: the kernel drops its lock
        second.stop()
        third.start()
        assert MARK not in third.log_path.read_text(), "no warning once the others are gone"
    finally:
        for server in (first, second, third):
            server.kill()


def test_the_claim_is_only_for_sqlite_files(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tp.sqlite3'}"
    one, two = SqliteClaim(url), SqliteClaim(url)
    assert one.take() and not two.take()
    one.release()
    assert two.take()
    two.release()
    assert SqliteClaim("postgresql+psycopg://postgres@127.0.0.1:5432/test").take()
    assert SqliteClaim("sqlite://").take()
