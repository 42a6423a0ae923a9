"""Several instances on one PostgreSQL must all run the push bus: an instance started otherwise says so.

Without ``TP_PUSH_BUS=1`` an instance neither sends nor hears the other
instances' table changes, so players connected to different instances would
not see each other's moves until they reload.  Each instance therefore holds,
for its lifetime, an advisory lock on its schema on a connection of its own:
without the bus an *exclusive* one, with the bus a *shared* one.  An
instance that cannot take its lock has met one it cannot talk to and logs a
zh-TW/English warning at start-up: without the bus, "another instance uses
this database"; with it, "an instance without the bus uses this database".
Instances that all run the bus share the lock and say nothing.
"""

from __future__ import annotations

import contextlib
import logging

import psycopg
from sqlalchemy.engine import make_url

log = logging.getLogger("taiwan_poker.instances")

INSTANCE_LOCK = 0x7470_696E  # advisory-lock key of running instances ("tpin"), with the schema's hash

WITHOUT_BUS_WARNING = (
    "另一個伺服器程序也在使用這個資料庫：每個程序都要設定 TP_PUSH_BUS=1，不同程序上的玩家才看得到彼此的動作。"
    " / Another server instance uses this database: start every instance with TP_PUSH_BUS=1, or players on "
    "different instances will not see each other's moves (docs/scaling.md)."
)
OTHER_WITHOUT_BUS_WARNING = (
    "有伺服器程序未設定 TP_PUSH_BUS=1 卻使用同一個資料庫：它的玩家看不到這裡的動作。"
    " / An instance without TP_PUSH_BUS=1 uses this database: its players will not see moves made here "
    "(docs/scaling.md)."
)


class InstanceClaim:
    """This instance's advisory lock on a PostgreSQL schema (nothing for other databases)."""

    def __init__(self, url: str, push_bus: bool) -> None:
        parsed = make_url(url)
        self.libpq_url = (parsed.set(drivername="postgresql").render_as_string(hide_password=False)
                          if parsed.get_backend_name() == "postgresql" else None)
        self.push_bus = push_bus
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None

    def take(self) -> bool:
        """Take the lock and keep it; False (and a warning logged) when an instance it cannot talk to runs."""
        if self.libpq_url is None:
            return True
        kind = "pg_try_advisory_lock_shared" if self.push_bus else "pg_try_advisory_lock"
        conn = psycopg.connect(self.libpq_url, autocommit=True, connect_timeout=5)
        row = conn.execute(f"SELECT {kind}(%s, hashtext(current_schema()))", (INSTANCE_LOCK,)).fetchone()
        if row is not None and row[0]:
            self._conn = conn
            return True
        conn.close()
        log.warning(OTHER_WITHOUT_BUS_WARNING if self.push_bus else WITHOUT_BUS_WARNING)
        return False

    def release(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()  # the session's advisory locks go with it
            self._conn = None
