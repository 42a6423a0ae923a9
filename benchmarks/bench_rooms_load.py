"""Load test of member rooms through the real HTTP and WebSocket API on loopback.

Starts ``taiwan-poker serve`` in a subprocess (SQLite in a fresh data
directory, or a fresh schema of the machine's PostgreSQL), signs in a
simulated member per seat, fills each table (heads-up and 6-seat tables by
default, ``--seats 2,6``), and lets them play over WebSockets: each acts when
the server says it is their turn, after a human-like think time (default
2–8 s, mean 5 s: the spec gives 45 s a decision; ``--think 1,3`` is a harsher
stress).  The load generator runs on the same two cores as
the server and the database, so its own CPU use is part of the picture.
Prints actions per second, the latency from an action being sent to the
first other player receiving the new state (p50 / p95 / p99), and errors, for
each table size and room count.  The clock starts once every socket has
connected and shown its table ("connect s": how long that start-up storm
took, thousands of sockets at once).  Bounded: every level runs for
``--seconds`` after that.

    .venv/bin/python benchmarks/bench_rooms_load.py [--rooms 50,200,500] [--backends sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from prometheus_client.parser import text_string_to_metric_families
from tests.server_process import ServerProcess

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PING_SECONDS = 25.0  # room.js sends {"type": "ping"} this often
OPENING = 200  # WebSocket handshakes in flight at once


@dataclass
class Level:
    rooms: int
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    pending: dict[str, tuple[float, int, int]] = field(default_factory=dict)  # room -> (sent, version, seat)
    connected: int = 0  # sockets that received their first state
    measuring: bool = False  # latencies count only once every socket is connected
    connect_seconds: float = 0.0
    generator_cpu: float = 0.0  # CPU seconds of this load generator while measuring
    server_cpu: float = 0.0  # CPU seconds of the server process while measuring


async def sign_in(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    http.cookies.clear()
    r = await http.post("/api/auth/local", json={"name": name})
    r.raise_for_status()
    http.cookies.clear()
    return {"cookie": f"tp_session={r.cookies['tp_session']}; tp_csrf={r.cookies['tp_csrf']}",
            "csrf": r.cookies["tp_csrf"]}


async def setup_room(base: str, i: int, seats: int, sem: asyncio.Semaphore) -> tuple[str, list[dict[str, str]]]:
    """A table of ``seats`` seats, every seat taken (the last one to sit down fills it: hand 1 is dealt)."""
    async with sem, httpx.AsyncClient(base_url=base, timeout=60) as http:
        members = [await sign_in(http, f"P{i}-{s}") for s in range(seats)]
        first = members[0]
        r = await http.post("/api/rooms", json={"decks": 2, "seats": seats},
                            headers={"cookie": first["cookie"], "x-csrf-token": first["csrf"]})
        r.raise_for_status()
        code = r.json()["code"]
        for m in members[1:]:  # seats fill in order, so member s sits in seat s
            r = await http.post(f"/api/rooms/{code}/join", headers={"cookie": m["cookie"], "x-csrf-token": m["csrf"]})
            r.raise_for_status()
        return code, members


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    acts = legal["actions"]
    if "bet" in acts and rng.random() < 0.15:
        return {"kind": "bet", "to": legal["min_bet_to"]}
    if "raise" in acts and rng.random() < 0.1:
        return {"kind": "raise", "to": legal["min_raise_to"]}
    for kind in ("check", "call"):
        if kind in acts:
            return {"kind": kind}
    return {"kind": "fold"}


async def player(ws_url: str, origin: str, code: str, seat: int, creds: dict[str, str], level: Level,
                 think: tuple[float, float], rng: random.Random, stop: asyncio.Event,
                 opening: asyncio.Semaphore) -> None:
    acted_on = -1
    first = True
    # like a browser: no protocol pings of its own (the server's are answered), and room.js's keep-alive message
    next_ping = time.monotonic() + rng.uniform(0, PING_SECONDS)
    async with opening:  # at most OPENING handshakes at once: thousands of SYNs at once overflow the listen backlog
        ws = await websockets.connect(ws_url, additional_headers={"Cookie": creds["cookie"], "Origin": origin},
                                      max_size=2**20, ping_interval=None)
    async with ws:

        async def act_later(version: int, message: dict[str, Any]) -> None:
            await asyncio.sleep(rng.uniform(*think))
            if stop.is_set():
                return
            level.pending[code] = (time.perf_counter(), version, seat)
            await ws.send(json.dumps(message))

        tasks: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            if time.monotonic() >= next_ping:
                next_ping += PING_SECONDS
                await ws.send('{"type": "ping"}')
            try:  # wake for a message or the next keep-alive only (no polling: thousands of sockets share 2 cores)
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, next_ping - time.monotonic()))
            except TimeoutError:
                continue
            now = time.perf_counter()
            msg = json.loads(raw)
            if msg.get("type") == "error":
                if msg["error"]["code"] not in ("stale_version", "duplicate", "no_hand", "hand_in_progress"):
                    level.errors.append(msg["error"]["code"])
                continue
            if msg.get("type") != "state":
                continue
            st = msg["state"]
            if first:
                first = False
                level.connected += 1
            pend = level.pending.get(code)
            if pend is not None and pend[2] != seat and st["version"] > pend[1]:
                if level.measuring:
                    level.latencies.append(now - pend[0])
                    level.actions += 1
                del level.pending[code]
            hand = st.get("hand")
            if not hand or st["version"] <= acted_on or (st.get("match") or {}).get("over"):
                continue
            if not hand["complete"] and hand["to_act"] == seat and "legal" in hand:
                acted_on = st["version"]
                message = {"type": "action", "version": st["version"], "key": uuid.uuid4().hex,
                           "action": choose(hand["legal"], rng)}
            elif hand["complete"] and seat == 0:
                acted_on = st["version"]
                message = {"type": "next", "version": st["version"]}
            else:
                continue
            task = asyncio.create_task(act_later(st["version"], message))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        for task in tasks:
            task.cancel()


async def run_level(base: str, rooms: int, seats: int, seconds: float, think: tuple[float, float],
                    server_pid: int) -> Level:
    level = Level(rooms)
    sem = asyncio.Semaphore(20)
    tables = await asyncio.gather(*(setup_room(base, i, seats, sem) for i in range(rooms)))
    stop = asyncio.Event()
    opening = asyncio.Semaphore(OPENING)
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(rooms)
    players = [
        asyncio.create_task(player(f"{ws_base}/ws/rooms/{code}", base, code, seat, creds[seat], level, think,
                                   random.Random(rng.random()), stop, opening))
        for code, creds in tables for seat in range(seats)
    ]
    started = time.perf_counter()
    while level.connected < len(players) and time.perf_counter() - started < 300:
        await asyncio.sleep(0.2)  # every socket connected and shown its table: the start-up storm is over
    level.connect_seconds = time.perf_counter() - started
    level.measuring = True
    cpu_before, server_before = time.process_time(), server_cpu(server_pid)
    await asyncio.sleep(seconds)
    level.generator_cpu = time.process_time() - cpu_before
    level.server_cpu = server_cpu(server_pid) - server_before
    stop.set()
    for task in players:
        task.cancel()
    results = await asyncio.gather(*players, return_exceptions=True)
    level.errors += [type(r).__name__ for r in results
                     if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    return level


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def gc_pauses(base: str) -> str:
    """The server's garbage-collector pauses from its /metrics: per generation, how many, total, and over 50 ms."""
    text = httpx.get(f"{base}/metrics", timeout=10).text
    out = []
    for family in text_string_to_metric_families(text):
        if family.name != "tp_gc_pause_seconds":
            continue
        by_gen: dict[str, dict[str, float]] = {}
        for sample in family.samples:
            gen = by_gen.setdefault(sample.labels.get("generation", "?"), {})
            if sample.name.endswith("_count"):
                gen["n"] = sample.value
            elif sample.name.endswith("_sum"):
                gen["sum"] = sample.value
            elif sample.name.endswith("_bucket") and sample.labels.get("le") == "0.05":
                gen["le50"] = sample.value
        for g, v in sorted(by_gen.items()):
            n = v.get("n", 0)
            out.append(f"gen{g} {n:.0f} ({v.get('sum', 0) * 1000:.0f} ms, {n - v.get('le50', n):.0f} over 50 ms)")
    return "; ".join(out) or "not reported"


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000 if len(values) > 1 else values[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", default="50,200,500")
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--seats", default="2,6", help="table sizes, e.g. 2,6")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", default="2,8", help="think time range in seconds, e.g. 2,8")
    args = ap.parse_args()
    think = tuple(float(x) for x in args.think.split(","))
    assert len(think) == 2
    rows = []
    levels = [(b, n, r) for b in args.backends.split(",") for n in (int(x) for x in args.seats.split(","))
              for r in (int(x) for x in args.rooms.split(","))]
    for backend, seats, rooms in levels:
        tmp = Path(tempfile.mkdtemp(prefix="tp-load-"))
        env = {"TP_RATE_LIMIT_SCALE": "0"}  # a thousand simulated members share one address here
        schema = None
        if backend == "postgresql":
            schema = f"tp_load_{secrets.token_hex(4)}"
            with sa.create_engine(PG_ADMIN_URL).begin() as conn:
                conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
            env["DATABASE_URL"] = f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}"
        server = ServerProcess(tmp / "data", tmp / "server.log", env)
        base = server.start()
        try:
            assert server.proc is not None
            level = asyncio.run(run_level(base, rooms, seats, args.seconds, think,  # type: ignore[arg-type]
                                          server.proc.pid))
            gc_note = gc_pauses(base)
        finally:
            server.stop()
            if schema:
                with sa.create_engine(PG_ADMIN_URL).begin() as conn:
                    conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        lat = level.latencies
        rows.append((backend, seats, rooms, level.actions / args.seconds, pct(lat, 50), pct(lat, 95),
                     pct(lat, 99), len(level.errors), sorted(set(level.errors))[:3], level.connect_seconds,
                     level.server_cpu / max(1, level.actions) * 1000, level.generator_cpu / args.seconds))
        print(f"{backend:10} seats={seats} rooms={rooms:4} done; server GC pauses (whole run): {gc_note}", flush=True)
    print(f"\nthink time {think[0]:g}–{think[1]:g} s per decision, {args.seconds:g} s per level, "
          f"load average {os.getloadavg()[0]:.2f}; latency = action sent → another player receives the new state")
    print(f"{'backend':10} {'seats':>5} {'rooms':>5} {'connect s':>9} {'actions/s':>10} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'errors':>7} {'server CPU ms/action':>21} {'generator cores':>16}")
    for backend, seats, rooms, aps, p50, p95, p99, errors, kinds, connect, cpu_ms, gen in rows:
        print(f"{backend:10} {seats:>5} {rooms:>5} {connect:>9.1f} {aps:>10.1f} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} "
              f"{errors:>7} {cpu_ms:>21.2f} {gen:>16.2f} {' '.join(kinds)}")
    print("target: 500 rooms with p99 < 150 ms and no errors")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
