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
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        database = Database(f"sqlite:///{tmp_path / 'tp.sqlite3'}")
        database.migrate()
        yield database
        database.dispose()
        return
    schema = f"tp_test_{secrets.token_hex(4)}"
    admin = sa.create_engine(PG_ADMIN_URL)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    database = Database(f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}")
    try:
        database.migrate()
        yield database
    finally:
        database.dispose()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
