"""The room service's write path alone, in one process: CPU per action without sockets, event loop or load generator.

Plays heads-up (or ``--seats N``) tables through :class:`~taiwan_poker.rooms.service.RoomService` as the socket
handler does: each action made against the version its player saw, with an idempotency key, then the acting
seat's reply view and every other seat's push text (:meth:`RoomReads.cached_view_text`). Prints CPU
milliseconds per action (this process: the database client's share included, the database server's not)
for SQLite and PostgreSQL, each ``--repeat`` times, so a change to the write path can be compared with its
noise (the end-to-end figure is ``bench_rooms_load.py --saturate``). ``--profile`` prints cProfile's top
entries of the last run.

    .venv/bin/python benchmarks/bench_write_path.py [--backends sqlite,postgresql] [--actions 3000] [--repeat 3]
    .venv/bin/python benchmarks/bench_write_path.py --deflate --seats 6   # the socket's compression of the views
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import pstats
import random
import secrets
import statistics
import sys
import tempfile
import time
import uuid
import zlib
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from taiwan_poker.jsontext import compact_json
from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store import repo
from taiwan_poker.store.db import Database
from taiwan_poker.store.models import Member

try:  # the socket's reply text (issue 49); older code encoded the reply's view whole
    from taiwan_poker.web.members_ws import StateReply
except ImportError:
    StateReply = None  # type: ignore[assignment,misc]

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """As the load benchmark's players choose: mostly check or call, sometimes the smallest bet or raise."""
    acts = legal["actions"]
    if "bet" in acts and rng.random() < 0.15:
        return {"kind": "bet", "to": legal["min_bet_to"]}
    if "raise" in acts and rng.random() < 0.1:
        return {"kind": "raise", "to": legal["min_raise_to"]}
    for kind in ("check", "call"):
        if kind in acts:
            return {"kind": kind}
    return {"kind": "fold"}


def reply_text(result: Any) -> int | None:
    """The reply's JSON text as the socket builds it (``StateReply`` where there is one; before it, the view and
    Starlette's ``send_json``); the version when known without a view."""
    if StateReply is not None:
        return int(StateReply.of(result).version)
    compact_json({"type": "state", "applied": result.applied, "reason": result.reason, "state": result.state})
    return None


def play(service: RoomService, tables: list[tuple[str, list[Member]]], actions: int, rng: random.Random
         ) -> tuple[int, float]:
    """``actions`` actions (and next-hand deals) round-robin over the tables: how many were applied, and the CPU
    seconds of the timed part (the write and the texts sent; not the players' choosing)."""
    applied = 0
    cpu = 0.0
    versions = {code: service.reads.table_state(code).version for code, _ in tables}
    done = 0
    while done < actions:
        for code, seated in tables:
            state = service.reads.loader.cached(code, versions[code])
            assert state is not None
            table = state.state
            if table.over:
                continue
            hand = table.hand
            if hand is not None and not hand.complete:
                member = next(m for m in seated if table.seat_in_hand(m.id, len(table.hands) - 1) == hand.to_act)
                view = service.reads.cached_view(code, member, versions[code])
                assert view is not None
                action = choose(view["hand"]["legal"], rng)
                started = time.process_time()
                result = service.act(code, member, action, versions[code], uuid.uuid4().hex)
            else:
                member = seated[0]
                started = time.process_time()
                result = service.next_hand(code, member, versions[code])
            version = reply_text(result)
            version = result.state["version"] if version is None else version
            for other in seated:  # the pushes to the other seats, from the cache as the socket sends them
                if other is not member:
                    service.reads.cached_view_text(code, other, version)
            cpu += time.process_time() - started
            applied += result.applied
            done += 1
            versions[code] = version
            if done >= actions:
                break
    return applied, cpu


def deflate(seats: int, actions: int) -> None:
    """The socket's compression (``--deflate``): one table's views as each seat receives them, one after another,
    compressed as permessage-deflate does (a compressor a socket, its window kept between messages) with
    uvicorn's 4 KiB window and the server's (``web/ws_protocol.py``): CPU microseconds and bytes a message."""
    from taiwan_poker.web.ws_protocol import MEM_LEVEL, SERVER_WINDOW_BITS  # here: --backends runs on older code

    db = Database(f"sqlite:///{tempfile.mkdtemp(prefix='tp-deflate-')}/tp.sqlite3")
    db.migrate()
    service = RoomService(db)
    with db.transaction() as s:
        people = [repo.create_local_member(s, f"P{i}") for i in range(seats)]
    code = service.create_room(people[0], 2, seats)
    for m in people[1:]:
        service.join(code, m)
    rng = random.Random(7)
    texts: list[list[bytes]] = [[] for _ in people]
    for _ in range(actions):
        play(service, [(code, people)], 1, rng)
        room = service.loader.locked_read(code)
        for k, m in enumerate(people):
            texts[k].append(service.reads.view_text(room, m).encode())
    db.dispose()
    size = statistics.mean(len(t) for seq in texts for t in seq)
    print(f"seats={seats}: {actions} versions, a view {size:,.0f} bytes on average")
    compressor: Any = None
    with contextlib.suppress(ImportError):  # older code: zlib only
        from taiwan_poker.web.ws_protocol import compressor
    ways: list[tuple[str, Any]] = [(f"zlib, window {1 << (bits - 10)} KiB", functools.partial(
        zlib.compressobj, 6, zlib.DEFLATED, -bits, MEM_LEVEL)) for bits in (12, SERVER_WINDOW_BITS)]
    if compressor is not None:
        ways.append((f"ISA-L, window {1 << (SERVER_WINDOW_BITS - 10)} KiB (the server's)",
                     functools.partial(compressor, SERVER_WINDOW_BITS)))
    for name, make in ways:
        started, sent = time.process_time(), 0
        for seq in texts:
            z = make()
            for t in seq:
                sent += len(z.compress(t) + z.flush(zlib.Z_SYNC_FLUSH))
        count = sum(len(seq) for seq in texts)
        print(f"  {name}: {(time.process_time() - started) / count * 1e6:6.1f} us "
              f"and {sent / count:6.0f} bytes a message")


def run(url: str, seats: int, tables: int, actions: int, profile: bool, sort: str = "tottime"
        ) -> tuple[float, str | None]:
    db = Database(url)
    db.migrate()
    service = RoomService(db)
    rng = random.Random(7)
    made = []
    with db.transaction() as s:
        people = [repo.create_local_member(s, f"P{i}") for i in range(tables * seats)]
    for t in range(tables):
        seated = people[t * seats:(t + 1) * seats]
        code = service.create_room(seated[0], 2, seats)
        for m in seated[1:]:
            service.join(code, m)
        made.append((code, seated))
    play(service, made, actions // 5, rng)  # warm: caches, compiled statements
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    applied, cpu = play(service, made, actions, rng)
    if profiler:
        profiler.disable()
    db.dispose()
    top = None
    if profiler:
        out = Path(tempfile.mkstemp(suffix=".txt")[1])
        with out.open("w") as f:
            pstats.Stats(profiler, stream=f).sort_stats(sort).print_stats(40)
        top = out.read_text()
    return cpu / max(1, applied) * 1000, top


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--actions", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--deflate", action="store_true", help="the socket's compression of the views instead")
    args = ap.parse_args()
    if args.deflate:
        deflate(args.seats, min(args.actions, 600))
        return
    for backend in args.backends.split(","):
        figures = []
        top = None
        for k in range(args.repeat):
            if backend == "sqlite":
                url = f"sqlite:///{tempfile.mkdtemp(prefix='tp-write-')}/tp.sqlite3"
                ms, top = run(url, args.seats, args.tables, args.actions, args.profile and k == args.repeat - 1)
            else:
                schema = f"tp_write_{secrets.token_hex(4)}"
                admin = sa.create_engine(PG_ADMIN_URL)
                with admin.begin() as conn:
                    conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
                try:
                    ms, top = run(f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}", args.seats, args.tables,
                                  args.actions, args.profile and k == args.repeat - 1)
                finally:
                    with admin.begin() as conn:
                        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
                    admin.dispose()
            figures.append(ms)
        spread = f" ± {statistics.stdev(figures):.3f}" if len(figures) > 1 else ""
        print(f"{backend:10} seats={args.seats}: {statistics.mean(figures):.3f}{spread} ms CPU an action "
              f"(runs: {', '.join(f'{x:.3f}' for x in figures)})", flush=True)
        if top:
            print(top)


if __name__ == "__main__":
    main()
