"""Store tests use the shared database fixture (and a fresh PostgreSQL schema where they need a new one)."""

from tests.db_fixtures import db, fresh_db
from tests.members.conftest import pg_url

__all__ = ["db", "fresh_db", "pg_url"]
