"""A move's SQLite transaction on the app's tables against the same tables clustered on their keys (issue 49).

A move on SQLite writes one transaction: the room's version-guarded update (its deadline index too), the event
and the idempotency key. ``room_events`` and ``action_keys`` are rowid tables with a second B-tree for their
keys, so each insert writes two; ``WITHOUT ROWID`` would cluster each on its key, one B-tree each, fewer WAL
pages a move. This measures whether that is worth a migration: the app's migrated schema and its own statements
(``store/repo.py``), against a copy whose two tables are rebuilt ``WITHOUT ROWID`` (``action_keys`` keyed on
room, member and key), in WAL mode with the app's pragmas. Prints the CPU microseconds of a move (this process,
SQLite's work and the kernel's for its writes) for each, ``--repeat`` times interleaved, and the WAL's pages.

    .venv/bin/python benchmarks/bench_sqlite_tables.py [--moves 20000] [--rooms 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from taiwan_poker.store import repo
from taiwan_poker.store.db import Database

CLUSTERED = """
CREATE TABLE room_events_k (room_id INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL, payload JSON NOT NULL, created_at DATETIME NOT NULL, PRIMARY KEY (room_id, seq))
  WITHOUT ROWID;
DROP TABLE room_events;
ALTER TABLE room_events_k RENAME TO room_events;
CREATE TABLE action_keys_k (room_id INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  member_id INTEGER NOT NULL REFERENCES members (id), key VARCHAR(64) NOT NULL, version INTEGER NOT NULL,
  PRIMARY KEY (room_id, member_id, key)) WITHOUT ROWID;
DROP TABLE action_keys;
ALTER TABLE action_keys_k RENAME TO action_keys;
"""
PAYLOAD = json.dumps({"type": "action", "seat": 3, "kind": "call", "to": 40, "timeout": False})


def database(clustered: bool, rooms: int) -> str:
    """A fresh database made by the app's migrations, with ``rooms`` rooms of two members each."""
    path = Path(tempfile.mkdtemp(prefix="tp-sqlite-tables-")) / "tp.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.migrate()
    with db.transaction() as s:
        members = [repo.create_local_member(s, f"P{i}") for i in range(2 * rooms)]
    ids = [m.id for m in members]
    db.dispose()
    c = sqlite3.connect(path, isolation_level=None)
    if clustered:
        c.executescript(CLUSTERED)
    c.executemany("INSERT INTO rooms (id, code, created_by, rules, status, version, deadline, created_at, updated_at)"
                  " VALUES (?, ?, ?, '{}', 'playing', 0, '2026-12-08 01:00:00', '2026-12-08 01:00:00',"
                  " '2026-12-08 01:00:00')", [(r + 1, f"R{r:06d}", ids[2 * r]) for r in range(rooms)])
    c.close()
    return str(path)


def run(clustered: bool, moves: int, rooms: int) -> tuple[float, int]:
    """CPU microseconds a move and the WAL's size in pages after ``moves`` moves (a quarter more to warm)."""
    path = database(clustered, rooms)
    c = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "wal_autocheckpoint=0"):
        c.execute(f"PRAGMA {pragma}")
    bump = repo._sqlite_bump_sql(("deadline",))
    rng = random.Random(1)
    version = [0] * rooms
    first_member = [m for (m,) in c.execute("SELECT created_by FROM rooms ORDER BY id")]

    def move() -> None:
        r = rng.randrange(rooms)
        v = version[r]
        deadline = f"2026-12-08 02:{rng.randrange(60):02d}:{rng.randrange(60):02d}"
        c.execute("BEGIN IMMEDIATE")
        c.execute(bump, (v + 1, "2026-12-08 01:00:00", deadline, r + 1, v))
        c.execute(repo._SQLITE_INSERT_EVENT, (r + 1, v + 1, PAYLOAD, "2026-12-08 01:00:00"))
        c.execute(repo._SQLITE_INSERT_KEY, (r + 1, first_member[r] + rng.randrange(2), os.urandom(16).hex(), v + 1))
        c.execute("COMMIT")
        version[r] = v + 1

    for _ in range(moves // 4):
        move()
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    started = time.process_time()
    for _ in range(moves):
        move()
    cpu = (time.process_time() - started) / moves * 1e6
    pages = os.path.getsize(path + "-wal") // (4096 + 24)
    c.close()
    return cpu, pages


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=20000)
    ap.add_argument("--rooms", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    got: dict[str, list[tuple[float, int]]] = {"rowid (the app's)": [], "WITHOUT ROWID": []}
    for _ in range(args.repeat):  # interleaved: a slow minute of the machine falls on both
        for name, clustered in (("rowid (the app's)", False), ("WITHOUT ROWID", True)):
            got[name].append(run(clustered, args.moves, args.rooms))
    print(f"{args.moves:,} moves over {args.rooms} rooms, {args.repeat} runs each")
    print("| tables | CPU µs a move | runs | WAL pages a move |")
    print("|---|---|---|---|")
    for name, runs in got.items():
        cpu = [x for x, _ in runs]
        spread = statistics.stdev(cpu) if len(cpu) > 1 else 0.0
        pages = statistics.mean(p for _, p in runs) / args.moves
        print(f"| {name} | {statistics.mean(cpu):.1f} ± {spread:.1f} | {', '.join(f'{x:.1f}' for x in cpu)} "
              f"| {pages:.2f} |")


if __name__ == "__main__":
    main()
