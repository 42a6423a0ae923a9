"""Database fixtures: a migrated database per test, on SQLite (a temp file) and on this machine's PostgreSQL."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from taiwan_poker.store.db import Database

PG_ADMIN_URL = os.environ.get("TP_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty database (no schema yet) on SQLite or in a fresh PostgreSQL schema, dropped afterwards."""
    if request.param == "sqlite":
        database = Database(f"sqlite:///{tmp_path / 'tp.sqlite3'}")
        yield database
        database.dispose()
        return
    schema = f"tp_test_{secrets.token_hex(4)}"
    admin = sa.create_engine(PG_ADMIN_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    database = Database(f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}")
    try:
        yield database
    finally:
        database.dispose()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def db(fresh_db: Database) -> Database:
    """A database migrated to the newest schema."""
    fresh_db.migrate()
    return fresh_db
