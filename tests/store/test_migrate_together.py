"""Several processes starting together on a new database migrate it one at a time (instances started at once,
or test workers importing an app): none fails with "table already exists"."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

PROCESSES = 4
SCRIPT = """
import sys, time
from pathlib import Path
from taiwan_poker.store.db import Database
go = Path(sys.argv[2])
while not go.exists():
    time.sleep(0.005)
Database(sys.argv[1]).migrate()
"""


def migrate_at_once(url: str, tmp_path: Path) -> list[subprocess.CompletedProcess[str]]:
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT, url, str(go)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(PROCESSES)]
    time.sleep(2.0)  # every process has imported and waits for the signal
    go.touch()
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=60)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_processes_starting_together_on_a_new_database_all_migrate_it(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = (f"sqlite:///{tmp_path / 'new.sqlite3'}" if backend == "sqlite"
           else str(request.getfixturevalue("pg_url")))
    results = migrate_at_once(url, tmp_path)
    assert [r.returncode for r in results] == [0] * PROCESSES, [r.stderr[-800:] for r in results if r.returncode]
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            revisions = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
            assert len(revisions) == 1, "one revision row: migrated once, then found current"
            assert conn.execute(sa.text("SELECT count(*) FROM members")).scalar_one() == 0
    finally:
        engine.dispose()
