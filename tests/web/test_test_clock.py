"""The browser tests' clock (``TP_TEST_CLOCK_FILE``): ahead of the real one, or stopped until the test moves it, and
never outside local mode."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from taiwan_poker.web.config import Settings, server_clock


def settings(tmp_path: Path, host: str = "127.0.0.1") -> Settings:
    return Settings(data_dir=tmp_path, database_url="sqlite://", google_client_id=None, host=host,
                    test_clock_file=tmp_path / "clock")


def test_a_clock_ahead_runs_with_the_real_one_plus_the_seconds_written(tmp_path: Path) -> None:
    s = settings(tmp_path)
    (tmp_path / "clock").write_text("3600")
    read = server_clock(s)()
    now = dt.datetime.now(dt.UTC)
    assert dt.timedelta(seconds=3590) < read - now < dt.timedelta(seconds=3610)


def test_a_stopped_clock_reads_the_instant_written_until_it_is_moved(tmp_path: Path) -> None:
    s = settings(tmp_path)
    (tmp_path / "clock").write_text("@1700000000.5")
    clock = server_clock(s)
    assert clock() == clock() == dt.datetime.fromtimestamp(1700000000.5, dt.UTC)
    (tmp_path / "clock").write_text("@1700000006.5")
    assert clock() - dt.datetime.fromtimestamp(1700000000.5, dt.UTC) == dt.timedelta(seconds=6)


def test_an_unreadable_file_counts_nothing_ahead_and_a_public_server_ignores_the_file(tmp_path: Path) -> None:
    (tmp_path / "clock").write_text("@soon")
    read = server_clock(settings(tmp_path))()
    assert abs(read - dt.datetime.now(dt.UTC)) < dt.timedelta(seconds=10)
    (tmp_path / "clock").write_text("@1700000000")
    read = server_clock(settings(tmp_path, host="0.0.0.0"))()
    assert abs(read - dt.datetime.now(dt.UTC)) < dt.timedelta(seconds=10)
