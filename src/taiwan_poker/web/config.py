"""Settings of the web shell, from the ``serve`` options and the environment.

``DATABASE_URL`` (default: SQLite in the data directory), ``TP_GOOGLE_CLIENT_ID``
(or ``GOOGLE_CLIENT_ID``; without it the app runs in local mode),
``TP_ACTION_CLOCK_SECONDS`` (default 45, the spec's action clock; tests shorten it),
``TP_RATE_LIMIT_SCALE`` (default 1: multiplies every rate limit; 0 turns them off),
``TP_RATE_LIMIT_STORAGE`` (default ``memory://``; e.g. ``redis://127.0.0.1:6379`` to share the counters),
``TP_GOOGLE_CERTS_URL`` (default Google's; tests point it at a local endpoint),
``TP_TEST_CLOCK_FILE`` (browser tests only, and only in local mode: a file holding seconds the server's clock runs
ahead of the real one, or ``@`` and the stopped clock's reading, which a test moves on instead of waiting, e.g. for a
sit-and-go's level).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..auth.google import GOOGLE_CERTS_URL
from ..store.db import database_url
from ..store.models import utcnow
from ..tables.limits import ACTION_CLOCK_SECONDS, BOT_PAUSE_SECONDS

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def is_loopback(host: str) -> bool:
    """``host`` (an address or ``localhost``) is reachable from this computer only: 127.0.0.0/8, ::1."""
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name other than localhost, or 0.0.0.0-like wildcards written as names
        return False


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    database_url: str
    google_client_id: str | None
    host: str
    action_clock_seconds: int = ACTION_CLOCK_SECONDS
    rate_limit_scale: float = 1.0  # multiplies every rate limit; 0 turns them off (load benchmarks, API fuzzing)
    rate_limit_storage: str = "memory://"
    google_certs_url: str = GOOGLE_CERTS_URL
    bot_pause: tuple[float, float] = BOT_PAUSE_SECONDS  # a bot's human-like pause before a move, s (0, 0 in tests)
    push_bus: bool = False  # several instances on one PostgreSQL: pushes and session ends cross them (TP_PUSH_BUS=1)
    test_clock_file: Path | None = None  # seconds ahead of the real clock (TP_TEST_CLOCK_FILE; local mode only)

    @property
    def local_mode(self) -> bool:
        """Local sign-in is on only with no Google client ID and a server listening on localhost."""
        return not self.google_client_id and is_loopback(self.host)

    @property
    def public_without_signin(self) -> bool:
        """Listening beyond this computer with no Google client ID: local sign-in is off there, so nobody could
        sign in (``taiwan-poker serve`` refuses to start so, ``taiwan-poker doctor`` names it)."""
        return not self.google_client_id and not is_loopback(self.host)

    @property
    def secure_cookies(self) -> bool:
        """Cookies are ``Secure`` outside local mode."""
        return not self.local_mode

    @classmethod
    def from_env(cls, data_dir: Path | None, host: str = "127.0.0.1", *, create_dir: bool = True) -> Settings:
        """The settings of this environment; ``create_dir=False`` leaves a missing data directory alone."""
        directory = Path(data_dir or "data")
        clock = os.environ.get("TP_ACTION_CLOCK_SECONDS", "")
        return cls(
            data_dir=directory,
            database_url=database_url(directory, create=create_dir),
            google_client_id=os.environ.get("TP_GOOGLE_CLIENT_ID") or os.environ.get("GOOGLE_CLIENT_ID") or None,
            host=host,
            action_clock_seconds=int(clock) if clock.isdigit() and int(clock) > 0 else ACTION_CLOCK_SECONDS,
            rate_limit_scale=_non_negative(os.environ.get("TP_RATE_LIMIT_SCALE"), 1.0),
            rate_limit_storage=os.environ.get("TP_RATE_LIMIT_STORAGE") or "memory://",
            google_certs_url=os.environ.get("TP_GOOGLE_CERTS_URL") or GOOGLE_CERTS_URL,
            bot_pause=_pause(os.environ.get("TP_BOT_PAUSE_SECONDS")),
            push_bus=os.environ.get("TP_PUSH_BUS", "").strip().lower() in ("1", "on", "true", "yes"),
            test_clock_file=Path(os.environ["TP_TEST_CLOCK_FILE"]) if os.environ.get("TP_TEST_CLOCK_FILE") else None,
        )


def server_clock(settings: Settings) -> Callable[[], dt.datetime]:
    """The clock the tables run on: the real one, or, for a browser test in local mode, what ``test_clock_file``
    says at each reading: ``S`` the real clock plus S seconds, ``@T`` a clock stopped at T seconds since the epoch
    (nothing on the table's clock happens until the test moves it; an unreadable file counts 0 seconds ahead)."""
    path = settings.test_clock_file
    if path is None or not settings.local_mode:
        return utcnow

    def ahead() -> dt.datetime:
        try:
            text = path.read_text().strip()
            stopped = text.startswith("@")
            seconds = float(text.removeprefix("@") or 0)
        except (OSError, ValueError):
            stopped, seconds = False, 0.0
        if not math.isfinite(seconds):
            stopped, seconds = False, 0.0
        if stopped:
            return dt.datetime.fromtimestamp(seconds, dt.UTC)
        return utcnow() + dt.timedelta(seconds=seconds)

    return ahead


def _pause(raw: str | None) -> tuple[float, float]:
    """``"0.5,1.5"`` → (0.5, 1.5); anything unreadable gives the default."""
    try:
        low, high = (float(x) for x in (raw or "").split(","))
    except ValueError:
        return BOT_PAUSE_SECONDS
    return (low, high) if 0 <= low <= high <= 30 else BOT_PAUSE_SECONDS


def _non_negative(raw: str | None, default: float) -> float:
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default
