"""SQLite keeps the app to one process: a second server process on the same file is told so at start-up.

The first process holds an exclusive ``flock`` on ``<database>.lock`` for its
lifetime (the kernel lets it go when the process dies, even by ``kill -9``).
A second process cannot take it and warns: with SQLite there is no push bus
and no shared cache, so a table moved by one process reaches the other's
sockets only by the page's polling; several instances need PostgreSQL
(``docs/scaling.md``).  It is a warning, not a refusal: the version guard
still keeps every write consistent.
"""

from __future__ import annotations

import contextlib
import fcntl
from typing import IO

from sqlalchemy.engine import make_url

SECOND_PROCESS_WARNING = (
    "另一個伺服器程序正在使用這個 SQLite 資料庫：SQLite 只支援單一程序；多台伺服器請改用 PostgreSQL。"
    " / Another server process is using this SQLite database ({path}): with SQLite the app is one process; "
    "run several instances on PostgreSQL (docs/scaling.md)."
)


class SqliteClaim:
    """The claim of one process on a SQLite database file (nothing for other databases)."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.path = parsed.database if parsed.get_backend_name() == "sqlite" else None
        self._handle: IO[bytes] | None = None

    def take(self) -> bool:
        """Claim the file; False when another process holds it (or this one already, through another app)."""
        if not self.path or self.path == ":memory:":
            return True
        handle = open(f"{self.path}.lock", "ab")  # noqa: SIM115 - held open for the process's lifetime
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._handle = handle
        return True

    def release(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None
