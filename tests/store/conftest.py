"""Store tests use the shared database fixture."""

from tests.db_fixtures import db, fresh_db

__all__ = ["db", "fresh_db"]
