"""Settings of the web shell, from the ``serve`` options and the environment.

``DATABASE_URL`` (default: SQLite in the data directory), ``TP_GOOGLE_CLIENT_ID``
(or ``GOOGLE_CLIENT_ID``; without it the app runs in local mode),
``TP_ACTION_CLOCK_SECONDS`` (default 45, the spec's action clock; tests shorten it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..store.db import database_url

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    database_url: str
    google_client_id: str | None
    host: str
    action_clock_seconds: int = 45

    @property
    def local_mode(self) -> bool:
        """Local sign-in is on only with no Google client ID and a server listening on localhost."""
        return not self.google_client_id and self.host in LOCAL_HOSTS

    @property
    def secure_cookies(self) -> bool:
        """Cookies are ``Secure`` outside local mode."""
        return not self.local_mode

    @classmethod
    def from_env(cls, data_dir: Path | None, host: str = "127.0.0.1") -> Settings:
        directory = Path(data_dir or "data")
        clock = os.environ.get("TP_ACTION_CLOCK_SECONDS", "45")
        return cls(
            data_dir=directory,
            database_url=database_url(directory),
            google_client_id=os.environ.get("TP_GOOGLE_CLIENT_ID") or os.environ.get("GOOGLE_CLIENT_ID") or None,
            host=host,
            action_clock_seconds=int(clock) if clock.isdigit() and int(clock) > 0 else 45,
        )
