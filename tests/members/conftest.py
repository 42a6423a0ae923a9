"""Fixtures for the member-room web layer: an app per test on SQLite or PostgreSQL, and signed-in clients."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from taiwan_poker.web import create_app
from taiwan_poker.web.config import Settings
from tests.db_fixtures import PG_ADMIN_URL

AppFactory = Callable[..., FastAPI]


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema in the machine's PostgreSQL ``test`` database, dropped afterwards."""
    schema = f"tp_web_{secrets.token_hex(4)}"
    admin = sa.create_engine(PG_ADMIN_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tp.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def make_app(tmp_path: Path) -> AppFactory:
    def factory(**over: Any) -> FastAPI:
        fields: dict[str, Any] = {
            "data_dir": tmp_path, "database_url": f"sqlite:///{tmp_path / 'tp.sqlite3'}",
            "google_client_id": None, "host": "127.0.0.1", "action_clock_seconds": 45,
            # these tests play whole matches at machine speed, far beyond a human's pace; the limits are on
            # (the same code runs) but 50 times wider. tests/members/test_rate_limits.py tests them as shipped.
            "rate_limit_scale": 50.0,
            "bot_pause": (0.0, 0.0),  # bots act at once in tests (live play pauses 0.5-1.5 s)
        }
        fields.update(over)
        return create_app(tmp_path, warm=False, settings=Settings(**fields))

    return factory


@pytest.fixture
def app(make_app: AppFactory) -> FastAPI:
    return make_app()


_OPEN: list[TestClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    """Every client a test opened is closed after it (its lifespan, sweeper and sockets end)."""
    yield
    while _OPEN:
        _OPEN.pop().__exit__(None, None, None)


def client(app: FastAPI, name: str | None = None, **kw: Any) -> TestClient:
    """A browser-like client; signed in locally as ``name`` when given (closed after the test)."""
    c = TestClient(app, **kw)
    c.__enter__()
    _OPEN.append(c)
    c.headers["X-CSRF-Token"] = "signin"  # as the pages send it before a session exists (no form elsewhere can)
    if name is not None:
        r = c.post("/api/auth/local", json={"name": name})
        assert r.status_code == 200, r.text
        c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
    return c


@pytest.fixture
def pair(app: FastAPI) -> Iterator[tuple[TestClient, TestClient, str]]:
    """Two signed-in members seated in a new 2-deck room: (creator, joiner, code)."""
    a, b = client(app, "Alice"), client(app, "Bob")
    code = a.post("/api/rooms", json={"decks": 2}).json()["code"]
    assert b.post(f"/api/rooms/{code}/join").status_code == 200
    yield a, b, code
