"""Make failures loud: structured logs with request ids, room codes and timings; background errors logged."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taiwan_poker.web import create_app, logs
from taiwan_poker.web.config import Settings
from taiwan_poker.web.jobs import JobRunner


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The app's log configuration, writing to a buffer instead of stderr."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    buffer = io.StringIO()
    monkeypatch.setattr("sys.stderr", buffer)
    logs.configure("info", json_lines=True)
    yield buffer
    root.handlers, root.level = saved[0], saved[1]


def records(buffer: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]


def test_requests_log_json_lines_with_their_id_route_status_and_timing(captured: io.StringIO, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                        google_client_id=None, host="127.0.0.1")
    with TestClient(create_app(tmp_path, warm=False, settings=settings)) as c:
        c.post("/api/auth/local", json={"name": "Logger"}, headers={"X-CSRF-Token": "signin"})
        r = c.post("/api/rooms", json={"decks": 2}, headers={"X-CSRF-Token": c.cookies["tp_csrf"]})
        code = r.json()["code"]
        c.get(f"/api/rooms/{code}")
        c.get("/no-such-page")
    lines = records(captured)
    requests = [x for x in lines if x["message"] == "request"]
    assert [(x["method"], x["route"], x["status"]) for x in requests] == [
        ("POST", "/api/auth/local", 200), ("POST", "/api/rooms", 200), ("GET", "/api/rooms/{code}", 200),
        ("GET", "unmatched", 404)]
    created = requests[1]
    assert created["request_id"] == r.headers["x-request-id"]
    assert isinstance(created["ms"], float) and created["level"] == "INFO" and "time" in created
    assert len({x["request_id"] for x in requests}) == 4, "each request has its own id"


def test_room_events_carry_the_room_code_and_the_request_id(captured: io.StringIO, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                        google_client_id=None, host="127.0.0.1")
    app = create_app(tmp_path, warm=False, settings=settings)
    with TestClient(app) as a, TestClient(app) as b:
        for c, name in ((a, "A"), (b, "B")):
            c.post("/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"})
            c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
        code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
        joined = b.post(f"/api/rooms/{code}/join")
    stored = [x for x in records(captured) if x["message"] == "room events stored"]
    assert [x["room"] for x in stored] == [code, code], "opening the table, then the join that deals hand 1"
    assert stored[1]["request_id"] == joined.headers["x-request-id"] != stored[0]["request_id"]
    assert stored[1]["events"] > 1 and stored[1]["version"] == stored[0]["version"] + stored[1]["events"]


def test_a_failing_background_calculation_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    runner = JobRunner()

    def broken(progress: object) -> None:
        raise RuntimeError("boom")

    with caplog.at_level("ERROR", logger="taiwan_poker.web.jobs"):
        _, job, _ = runner.submit(broken)
        assert job.done.wait(5)
        deadline = time.monotonic() + 5
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.01)
    runner.shutdown()
    assert job.status == "error" and job.error is not None and job.error.code == "internal_error"
    assert caplog.records[0].exc_info is not None and "boom" in str(caplog.records[0].exc_info[1])


def test_a_terminal_gets_readable_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    buffer = io.StringIO()
    monkeypatch.setattr("sys.stderr", buffer)
    try:
        logs.configure("info", json_lines=False)
        token = logs.request_id.set("abc123")
        logging.getLogger("taiwan_poker.test").info("room events stored", extra={"room": "ABCDEF", "version": 3})
        logs.request_id.reset(token)
    finally:
        root.handlers, root.level = saved[0], saved[1]
    line = buffer.getvalue().strip()
    assert "[abc123] room events stored" in line and "room=ABCDEF" in line and "version=3" in line
