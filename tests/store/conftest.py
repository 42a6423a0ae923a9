"""Store tests use the shared database fixture."""

from tests.db_fixtures import db

__all__ = ["db"]
