"""Engine, migrations and sessions: SQLite by default, PostgreSQL by URL."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

from ..jsontext import compact_json
from .direct import DirectConnections

MIGRATIONS = Path(__file__).parent / "migrations"
JSON_CODEC: dict[str, Any] = {"json_serializer": compact_json}  # stored events written by orjson


def database_url(data_dir: Path | str | None = None, *, create: bool = True) -> str:
    """``DATABASE_URL`` when set, else a SQLite file in the data directory (made unless ``create`` is False)."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return url.replace("postgres://", "postgresql+psycopg://", 1).replace(
            "postgresql://", "postgresql+psycopg://", 1
        )
    directory = Path(data_dir or "data")
    if create:
        directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory.resolve() / 'taiwan-poker.sqlite3'}"


def make_engine(url: str) -> Engine:
    """An engine with the settings each backend needs (SQLite: WAL, foreign keys, busy timeout)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **JSON_CODEC)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    engine = create_engine(url, pool_size=20, max_overflow=20, pool_recycle=1800, **JSON_CODEC)
    if engine.dialect.name == "postgresql":

        @event.listens_for(engine, "connect")
        def _pg_settings(dbapi_conn: Any, _record: Any) -> None:
            # The same durability trade-off as SQLite's WAL + synchronous=NORMAL above: a commit does not wait
            # for the WAL to reach the disk. An app-server crash loses nothing (PostgreSQL has the commit);
            # only a crash of the database machine itself can lose the last fraction of a second, and the
            # database stays consistent. Without it every action waits for an fsync and tail latency follows
            # the disk.
            cur = dbapi_conn.cursor()
            cur.execute("SET synchronous_commit TO off")
            cur.close()
            dbapi_conn.commit()

    return engine


MIGRATION_LOCK = 0x7470_6D69  # PostgreSQL advisory-lock key of the migrations ("tpmi"), with the schema's hash


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest Alembic revision (or to ``revision``).

    One process at a time: instances starting together on a new database would otherwise both create the
    tables and one would fail. PostgreSQL: a transaction-scoped advisory lock per schema, taken before Alembic
    reads the schema's revision. SQLite: an exclusive ``flock`` on ``<database>.migrate.lock``.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with _migration_lock(engine), engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k, hashtext(current_schema()))"), {"k": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """An exclusive file lock beside a SQLite database file while it is migrated (nothing for others)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    with open(f"{path}.migrate.lock", "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class SchemaState:
    """Where a database's schema stands against this package's migrations."""

    current: str | None  # the database's Alembic revision; None: no schema yet
    head: str | None  # the newest revision this package knows
    known: frozenset[str]  # every revision this package knows

    @property
    def newer_than_package(self) -> bool:
        """Migrated by a newer version of the package: this one does not know its revision."""
        return self.current is not None and self.current not in self.known


def schema_state(engine: Engine) -> SchemaState:
    """Read the database's revision (read-only: nothing is created or migrated)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(cfg)
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    return SchemaState(current, script.get_current_head(), frozenset(s.revision for s in script.walk_revisions()))


class Database:
    """An engine plus a session factory; ``transaction()`` is one unit of work."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.direct = DirectConnections(self.engine)  # the driver's own connections for a move's write

    def migrate(self) -> None:
        migrate(self.engine)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work is committed on success and rolled back on any error."""
        with self._sessions() as session, session.begin():
            yield session

    def ping(self) -> None:
        """One round trip to the database (raises when it does not answer)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    def dispose(self) -> None:
        self.engine.dispose()
        self.direct.close()
