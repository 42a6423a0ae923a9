"""Scale-out tests use the member-room fixtures (apps, PostgreSQL schemas, clients closed after each test)."""

from tests.members.conftest import _close_clients, make_app, pg_url

__all__ = ["_close_clients", "make_app", "pg_url"]
