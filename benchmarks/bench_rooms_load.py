"""Load test of member rooms through the real HTTP and WebSocket API on loopback.

Starts ``taiwan-poker serve`` in a subprocess (SQLite in a fresh data
directory, or a fresh schema of the machine's PostgreSQL), signs in a
simulated member per seat, fills each table (heads-up and 6-seat tables by
default, ``--seats 2,6``), and lets them play over WebSockets: each acts when
the server says it is their turn, after a human-like think time (default
2–8 s, mean 5 s: the spec gives 45 s a decision; ``--think 1,3`` is a harsher
stress).  The load generator runs in its own process(es) (``--generators N``
splits the tables across N processes, each with its own event loop) on the
same two cores as the server and the database, so its CPU use is part of the
picture and is reported apart ("generator cores").
Prints actions per second next to the offered load (one decision in flight per
table: tables / mean think; achieved well below offered, or latency growing,
means saturation), the latency from an action being sent to the first other
player receiving the new state (p50 / p95 / p99; heads-up: the opponent), and
errors, for each table size and room count.  "setup s" is the time to spawn
the generator processes, sign every member in and fill every table; the clock
starts once every socket has connected and shown its table ("connect s": how
long that start-up storm took, thousands of sockets at once).  Bounded: every
level runs for ``--seconds`` after that, or after ``--warmup`` seconds of
unmeasured play (right after the storm the first decisions are still being
thought about, so a short window reads below the offered load).  CPU per
action is reported for the server (all its instances) and for PostgreSQL
(every ``postgres`` process on the machine, so keep other databases quiet;
"-" with SQLite).

Several instances (issue 14, PostgreSQL only; SQLite levels are skipped with a
note): ``--instances 1,2`` runs each level once per instance count, the
instances sharing one fresh schema, with the push bus (``TP_PUSH_BUS=1``) on
when there is more than one (``--bus auto``; ``on`` / ``off`` force it).
Tables are created and joined through the instance their members use; each
member's socket goes to an instance chosen at random per (table, seat), the
same in every run, so about half of the heads-up pairs straddle two
instances.  Every latency sample is tagged cross-instance (the receiver's
instance is not the sender's: the push went through ``LISTEN``/``NOTIFY``) or
same-instance, and both are reported apart.

    .venv/bin/python benchmarks/bench_rooms_load.py [--rooms 50,200,500] [--backends sqlite,postgresql]

Issue 14, one against two instances at 500 and 1,000 heads-up tables, then at saturation:

    .venv/bin/python benchmarks/bench_rooms_load.py --backends postgresql --seats 2 --rooms 500,1000 \\
        --instances 1,2 --think 2,8 --seconds 40 --generators 2 --warmup 10
    .venv/bin/python benchmarks/bench_rooms_load.py --backends postgresql --seats 2 --rooms 1500 \\
        --instances 1,2 --think 1,3 --seconds 40 --generators 2 --warmup 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import orjson
import sqlalchemy as sa
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from prometheus_client.parser import text_string_to_metric_families
from tests.server_process import ServerProcess

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PING_SECONDS = 25.0  # room.js sends {"type": "ping"} this often
OPENING = 200  # WebSocket handshakes in flight at once (shared out among the generator processes)
SETUP = 32  # tables being set up at once (shared out among the generator processes)
CONNECT_TIMEOUT = 300.0  # the start-up storm gives up waiting for the last sockets after this
REPLY_TIMEOUT = 900.0  # a generator process that says nothing for this long has failed
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Level:
    """What one generator process measured (and, merged, a whole level)."""

    rooms: int
    latencies: list[float] = field(default_factory=list)
    cross: list[bool] = field(default_factory=list)  # per latency: the receiver's instance is not the sender's
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    # room -> (sent, version, seat, instance of the sender)
    pending: dict[str, tuple[float, int, int, int]] = field(default_factory=dict)
    connected: int = 0  # sockets that received their first state
    measuring: bool = False  # latencies count only once every socket is connected
    setup_seconds: float = 0.0
    connect_seconds: float = 0.0
    generator_cpu: float = 0.0  # CPU seconds of the load generator processes while measuring
    server_cpu: float = 0.0  # CPU seconds of the server processes (all instances) while measuring
    server_system: float = 0.0  # ... of it in the kernel (system time: sockets, wake-ups, the database's files)
    postgres_cpu: float | None = None  # CPU seconds of PostgreSQL while measuring (None: not visible here)
    think: list[float] = field(default_factory=lambda: [2.0, 8.0])  # the players' think range now (--saturate steps it)
    round_trips: list[float] = field(default_factory=list)  # an action sent -> its own reply (the sender's socket)
    pushes: list[float] = field(default_factory=list)  # an action sent -> each other seat's socket hears of it
    applied: int = 0  # replies saying the action was applied, while measuring
    over: set[str] = field(default_factory=set)  # tables whose match is over (they stop playing)
    heard: dict[str, set[int]] = field(default_factory=dict)  # room -> the other seats that heard of its pending action
    wall: float = 0.0  # seconds measured (--saturate: one step's window)


@dataclass(frozen=True)
class Table:
    code: str
    members: list[dict[str, str]]  # per seat: cookie and CSRF token
    instances: list[int]  # per seat: the instance its member signs in, joins and connects through


def instance_for(room: int, seat: int, instances: int) -> int:
    """The instance a seat's member uses: random per (table, seat) but the same in every run and process."""
    return 0 if instances == 1 else random.Random(f"{room}:{seat}").randrange(instances)


def refuse_cookies() -> CookieJar:
    """A cookie jar that keeps nothing: one client serves every member, each sending their own cookie header."""
    return CookieJar(DefaultCookiePolicy(allowed_domains=[]))


async def post(http: httpx.AsyncClient, url: str, **kw: Any) -> httpx.Response:
    """A set-up POST, sent again if the server closed the kept-alive connection as it went out (a race of
    keep-alive timers, not an answer; at worst a spare table is left unused)."""
    for attempt in range(3):
        try:
            return await http.post(url, **kw)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def sign_in(http: httpx.AsyncClient, base: str, name: str) -> dict[str, str]:
    r = await post(http, f"{base}/api/auth/local", json={"name": name}, headers={"X-CSRF-Token": "signin"})
    r.raise_for_status()
    return {"cookie": f"tp_session={r.cookies['tp_session']}; tp_csrf={r.cookies['tp_csrf']}",
            "csrf": r.cookies["tp_csrf"]}


async def setup_room(http: httpx.AsyncClient, bases: list[str], i: int, seats: int,
                     sem: asyncio.Semaphore) -> Table:
    """A table of ``seats`` seats, every seat taken (the last one to sit down fills it: hand 1 is dealt).

    Each member signs in, creates or joins through their own instance (so a table made on one instance is
    joined on another)."""
    where = [instance_for(i, s, len(bases)) for s in range(seats)]
    async with sem:
        members = [await sign_in(http, bases[where[s]], f"P{i}-{s}") for s in range(seats)]
        first = members[0]
        r = await post(http, f"{bases[where[0]]}/api/rooms", json={"decks": 2, "seats": seats},
                            headers={"cookie": first["cookie"], "x-csrf-token": first["csrf"]})
        r.raise_for_status()
        code = r.json()["code"]
        for s, m in enumerate(members[1:], 1):  # seats fill in order, so member s sits in seat s
            r = await post(http, f"{bases[where[s]]}/api/rooms/{code}/join",
                           headers={"cookie": m["cookie"], "x-csrf-token": m["csrf"]})
            if r.status_code != 409:  # 409: the first try of a repeated join had seated them
                r.raise_for_status()
        return Table(code, members, where)


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
                 rng: random.Random, stop: asyncio.Event, opening: asyncio.Semaphore, instance: int = 0) -> None:
    """One seat's member: acts on its turn after a think time drawn from ``level.think`` (read at each decision,
    so ``--saturate`` can shorten it while playing)."""
    acted_on = -1
    first = True
    awaiting: float | None = None  # when this seat's last action went out, until its reply comes back
    async with opening:  # at most OPENING handshakes at once: thousands of SYNs at once overflow the listen backlog
        ws = await websockets.connect(ws_url, additional_headers={"Cookie": creds["cookie"], "Origin": origin},
                                      max_size=2**20, ping_interval=None)
    async with ws:

        async def act_later(version: int, message: dict[str, Any]) -> None:
            nonlocal awaiting
            await asyncio.sleep(rng.uniform(*level.think))
            if stop.is_set():
                return
            awaiting = time.perf_counter()
            level.pending[code] = (awaiting, version, seat, instance)
            level.heard[code] = set()
            await ws.send(orjson.dumps(message).decode())

        async def keep_alive() -> None:
            """Like a browser: no protocol pings of its own (the server's are answered), and room.js's keep-alive
            message every PING_SECONDS; then, once told to stop, the socket closed (ending the reading below)."""
            next_ping = time.monotonic() + rng.uniform(0, PING_SECONDS)
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=max(0.0, next_ping - time.monotonic()))
                if not stop.is_set():
                    next_ping += PING_SECONDS
                    await ws.send('{"type": "ping"}')
            await ws.close()

        tasks: set[asyncio.Task[None]] = set()
        pinger = asyncio.create_task(keep_alive())
        while not stop.is_set():
            try:  # one read a message: no timer or task of its own (thousands of sockets share 2 cores)
                raw = await ws.recv()
            except websockets.ConnectionClosed:
                if stop.is_set():  # closed by keep_alive: the run is over
                    break
                raise
            now = time.perf_counter()
            msg = orjson.loads(raw)
            if awaiting is not None and (msg.get("type") == "error" or "applied" in msg):  # the reply to our action
                if level.measuring:
                    level.round_trips.append(now - awaiting)
                    level.applied += bool(msg.get("applied"))
                awaiting = None
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
            if pend is not None and pend[2] != seat and st["version"] > pend[1] and seat not in level.heard[code]:
                if level.measuring:
                    if not level.heard[code]:  # the first other player to hear of it (heads-up: the opponent)
                        level.latencies.append(now - pend[0])
                        level.cross.append(pend[3] != instance)
                        level.actions += 1
                    level.pushes.append(now - pend[0])  # every other seat
                level.heard[code].add(seat)
            hand = st.get("hand")
            if (st.get("match") or {}).get("over"):
                level.over.add(code)
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
        for task in (*tasks, pinger):
            task.cancel()


# -- the load generator processes ------------------------------------------------------------------------------
#
# The parent steps every generator through the same phases, so their windows line up:
#   child: set up its tables            -> ("setup", seconds)
#   parent: "connect"; child opens its sockets, plays -> ("connected", sockets, seconds)
#   parent: "measure"; child counts latencies and its CPU from now
#   parent: "stop";    child stops      -> ("result", {...})
# --saturate has several windows in one play: ("think", low, high), "measure", "collect" -> ("result", {...}), ...
# A child that fails sends ("error", traceback).


def generator_process(conn: Connection, job: dict[str, Any]) -> None:
    """Entry point of one load generator process (spawned): its own event loop and its share of the tables."""
    try:
        asyncio.run(generate(conn, job))
    except BaseException:
        with contextlib.suppress(OSError):
            conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


async def generate(conn: Connection, job: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    bases: list[str] = job["bases"]
    seats: int = job["seats"]
    room_ids: list[int] = job["room_ids"]

    async def command(expected: str) -> None:
        got = await loop.run_in_executor(None, conn.recv)
        if got != expected:
            raise RuntimeError(f"generator expected {expected!r}, got {got!r}")

    level = Level(len(room_ids))
    level.think[:] = job["think"]
    started = time.perf_counter()
    sem = asyncio.Semaphore(job["setup"])
    limits = httpx.Limits(max_connections=job["setup"] * 2, max_keepalive_connections=job["setup"] * 2,
                          keepalive_expiry=2.0)  # under the server's 5-s keep-alive: never reuse one it closes
    async with httpx.AsyncClient(timeout=60, cookies=refuse_cookies(), limits=limits) as http:
        tables = await asyncio.gather(*(setup_room(http, bases, i, seats, sem) for i in room_ids))
    conn.send(("setup", time.perf_counter() - started))

    await command("connect")
    stop = asyncio.Event()
    opening = asyncio.Semaphore(job["opening"])
    rng = random.Random(job["seed"])
    players = [
        asyncio.create_task(player(f"{bases[t.instances[seat]].replace('http://', 'ws://')}/ws/rooms/{t.code}",
                                   bases[t.instances[seat]], t.code, seat, t.members[seat], level,
                                   random.Random(rng.random()), stop, opening, t.instances[seat]))
        for t in tables for seat in range(seats)
    ]
    started = time.perf_counter()
    # every socket connected and shown its table (or failed): the start-up storm is over
    while (level.connected < len(players) and time.perf_counter() - started < CONNECT_TIMEOUT
           and level.connected + sum(task.done() for task in players) < len(players)):
        await asyncio.sleep(0.2)
    conn.send(("connected", level.connected, time.perf_counter() - started))

    # then windows: ("think", low, high) changes the think range; "measure" opens a window; "collect" closes it
    # and reports it (play goes on); "stop" closes it, reports it and ends
    cpu_before = time.process_time()
    while True:
        got = await loop.run_in_executor(None, conn.recv)
        if isinstance(got, tuple) and got[0] == "think":
            level.think[:] = got[1:]
            continue
        if got == "measure":
            level.latencies, level.cross, level.pushes, level.round_trips = [], [], [], []
            level.actions = level.applied = 0
            level.errors = []
            level.measuring = True
            cpu_before = time.process_time()
            continue
        if got not in ("collect", "stop"):
            raise RuntimeError(f"generator: unknown command {got!r}")
        level.measuring = False
        cpu = time.process_time() - cpu_before
        if got == "stop":
            stop.set()
            for task in players:
                task.cancel()
            results = await asyncio.gather(*players, return_exceptions=True)
            level.errors += [type(r).__name__ for r in results
                             if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
        conn.send(("result", {"latencies": level.latencies, "cross": level.cross, "actions": level.actions,
                              "errors": level.errors, "cpu": cpu, "pushes": level.pushes,
                              "round_trips": level.round_trips, "applied": level.applied,
                              "over": len(level.over)}))
        if got == "stop":
            return


def reply(conn: Connection, proc: mp.process.BaseProcess, kind: str) -> tuple[Any, ...]:
    """The next message of one generator process, which must be ``kind``."""
    deadline = time.monotonic() + REPLY_TIMEOUT
    while not conn.poll(1.0):
        if not proc.is_alive() and not conn.poll(0):
            raise RuntimeError(f"generator process {proc.pid} ended (exit code {proc.exitcode})")
        if time.monotonic() > deadline:
            raise RuntimeError(f"generator process {proc.pid} said nothing for {REPLY_TIMEOUT:g} s")
    msg: tuple[Any, ...] = conn.recv()
    if msg[0] == "error":
        raise RuntimeError(f"generator process {proc.pid} failed:\n{msg[1]}")
    if msg[0] != kind:
        raise RuntimeError(f"generator process {proc.pid}: expected {kind!r}, got {msg[0]!r}")
    return msg


Workers = list[tuple[mp.process.BaseProcess, Connection]]


def start_generators(bases: list[str], rooms: int, seats: int, think: tuple[float, float], generators: int,
                     level: Level) -> Workers:
    """Spawn the generator processes, have them set up their tables and connect every socket (``level`` gets the
    set-up and connect times and the sockets connected)."""
    ctx = mp.get_context("spawn")
    shares = [list(range(rooms))[g::generators] for g in range(generators)]
    shares = [share for share in shares if share]
    workers: Workers = []
    started = time.perf_counter()
    try:
        for g, share in enumerate(shares):
            ours, theirs = ctx.Pipe()
            job = {"bases": bases, "seats": seats, "think": think, "room_ids": share, "seed": rooms * 1000 + g,
                   "setup": max(1, SETUP // len(shares)), "opening": max(1, OPENING // len(shares))}
            worker = ctx.Process(target=generator_process, args=(theirs, job), name=f"tp-load-{g}", daemon=True)
            worker.start()
            theirs.close()
            workers.append((worker, ours))
        for proc, conn in workers:
            reply(conn, proc, "setup")
        level.setup_seconds = time.perf_counter() - started

        started = time.perf_counter()
        for _, conn in workers:
            conn.send("connect")
        for proc, conn in workers:
            _, connected, _ = reply(conn, proc, "connected")
            level.connected += connected
        level.connect_seconds = time.perf_counter() - started
    except BaseException:
        end_generators(workers)
        raise
    return workers


def end_generators(workers: Workers) -> None:
    for proc, conn in workers:
        conn.close()  # a generator still waiting for a command reads the end of the pipe and ends
        proc.join(30)
        if proc.is_alive():
            proc.terminate()
            proc.join(10)


def measure_window(workers: Workers, level: Level, seconds: float, server_pids: list[int], postgres: bool,
                   close: str = "stop") -> None:
    """One measured window of ``seconds``: the generators' samples and CPU, the servers' and PostgreSQL's CPU, merged
    into ``level``. ``close``: "stop" ends the generators' play, "collect" lets it go on."""
    server_before, system_before = server_cpu(server_pids), server_cpu(server_pids, system=True)
    postgres_before = postgres_cpu() if postgres else None
    started = time.perf_counter()
    for _, conn in workers:
        conn.send("measure")
    time.sleep(seconds)
    for _, conn in workers:
        conn.send(close)
    level.wall = time.perf_counter() - started
    level.server_cpu = server_cpu(server_pids) - server_before
    level.server_system = server_cpu(server_pids, system=True) - system_before
    postgres_after = postgres_cpu() if postgres else None
    if postgres_before is not None and postgres_after is not None:
        level.postgres_cpu = postgres_after - postgres_before
    for proc, conn in workers:
        result = reply(conn, proc, "result")[1]
        level.latencies += result["latencies"]
        level.cross += result["cross"]
        level.actions += result["actions"]
        level.errors += result["errors"]
        level.generator_cpu += result["cpu"]
        level.pushes += result["pushes"]
        level.round_trips += result["round_trips"]
        level.applied += result["applied"]
        level.over |= {f"{proc.pid}:{k}" for k in range(result["over"])}  # a count per generator, kept as a set


def run_level(bases: list[str], rooms: int, seats: int, seconds: float, think: tuple[float, float],
              server_pids: list[int], generators: int, warmup: float = 0.0, postgres: bool = False) -> Level:
    level = Level(rooms)
    workers = start_generators(bases, rooms, seats, think, generators, level)
    try:
        time.sleep(warmup)  # unmeasured play: the window then starts in the steady state, not mid first decision
        measure_window(workers, level, seconds, server_pids, postgres)
    finally:
        end_generators(workers)
    return level


# -- measuring the processes -----------------------------------------------------------------------------------


def _stat(pid: int | str) -> tuple[str, list[str]]:
    """A process's command name and its /proc stat fields from the state on (field 3 is index 0)."""
    head, tail = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)
    return head.split("(", 1)[1], tail.split()


def server_cpu(pids: list[int], system: bool = False) -> float:
    """CPU seconds (user + system, with their reaped children's; ``system``: the system part alone) the server
    processes have used, all instances."""
    total = 0
    for pid in pids:
        fields = _stat(pid)[1]
        total += int(fields[12]) + int(fields[14]) if system else sum(int(x) for x in fields[11:15])
    return total / CLOCK_TICKS


def settle(pids: list[int], timeout: float = 30.0) -> None:
    """Wait until freshly started servers are idle (each computes its odds tables in a thread at start-up)."""
    deadline = time.monotonic() + timeout
    before = server_cpu(pids)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = server_cpu(pids)
        if now - before < 0.05:
            return
        before = now


def postgres_cpu() -> float | None:
    """CPU seconds of every process named ``postgres`` on this machine (None if none is visible).

    Counts each one's user + system time and its reaped children's (cutime + cstime).  Backends are children
    of the postmaster, so a backend that ends during the window is still counted, through the postmaster's
    children's time once it is reaped; one that starts during the window counts from zero.  Whatever else
    uses this PostgreSQL server at the same time is counted too."""
    total, seen = 0, False
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name, fields = _stat(entry.name)
        except (OSError, IndexError, ValueError):  # ended meanwhile, or unreadable
            continue
        if name == "postgres":
            seen = True
            total += sum(int(x) for x in fields[11:15])
    return total / CLOCK_TICKS if seen else None


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


def pct(values: list[float], p: int) -> float:
    """The p-th percentile of latencies in seconds, in milliseconds (NaN with none)."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000


def percentiles(values: list[float]) -> str:
    return "/".join(f"{pct(values, p):.1f}" for p in (50, 95, 99)) if values else "-"


# -- the levels ------------------------------------------------------------------------------------------------


@dataclass
class Row:
    backend: str
    instances: int
    bus: bool
    seats: int
    rooms: int
    think: tuple[float, float]
    seconds: float
    level: Level

    @property
    def actions_per_second(self) -> float:
        return self.level.actions / self.seconds

    @property
    def offered(self) -> float:
        """One decision in flight per table (heads-up or not): tables / mean think."""
        return self.rooms / (sum(self.think) / 2)

    def per_action_ms(self, cpu: float) -> float:
        return cpu / max(1, self.level.actions) * 1000

    def split(self, cross: bool) -> list[float]:
        return [lat for lat, c in zip(self.level.latencies, self.level.cross, strict=True) if c == cross]


@contextlib.contextmanager
def servers_running(backend: str, instances: int, bus: bool) -> Iterator[tuple[list[str], list[int]]]:
    """``instances`` fresh servers on a fresh database (SQLite file, or a new PostgreSQL schema): their base URLs
    and pids, idle; stopped (and the schema dropped) afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="tp-load-"))
    env = {"TP_RATE_LIMIT_SCALE": "0",  # a thousand simulated members share one address here
           "TP_PUSH_BUS": "1" if bus else "0"}
    schema = None
    if backend == "postgresql":
        schema = f"tp_load_{secrets.token_hex(4)}"
        with sa.create_engine(PG_ADMIN_URL).begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        env["DATABASE_URL"] = f"{PG_ADMIN_URL}?options=-csearch_path%3D{schema}"
    # at the log level a host runs by default (info: a socket's move logs "room events stored")
    servers = [ServerProcess(tmp / f"data{k}", tmp / f"server{k}.log", env, log_level="info")
               for k in range(instances)]
    try:
        bases = [server.start() for server in servers]  # one after another: the first creates the tables
        pids = [server.proc.pid for server in servers if server.proc is not None]
        settle(pids)
        yield bases, pids
    finally:
        for server in servers:
            server.stop()
        if schema:
            with sa.create_engine(PG_ADMIN_URL).begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))


def run_configuration(backend: str, seats: int, rooms: int, instances: int, bus: bool, seconds: float,
                      think: tuple[float, float], generators: int, warmup: float) -> Row:
    with servers_running(backend, instances, bus) as (bases, pids):
        level = run_level(bases, rooms, seats, seconds, think, pids, generators, warmup, backend == "postgresql")
        gc_notes = [gc_pauses(base) for base in bases]
    row = Row(backend, instances, bus, seats, rooms, think, seconds, level)
    cross, same = row.split(True), row.split(False)
    pg = "-" if level.postgres_cpu is None else f"{level.postgres_cpu / seconds:.2f}"
    print(f"{backend:10} instances={instances} bus={'on' if bus else 'off'} seats={seats} rooms={rooms:4} done: "
          f"setup {level.setup_seconds:.1f} s, {level.connected}/{rooms * seats} sockets in "
          f"{level.connect_seconds:.1f} s; {len(level.latencies)} samples, p50/p95/p99 ms cross-instance "
          f"{percentiles(cross)} ({len(cross)}), same-instance {percentiles(same)} ({len(same)}); cores: server "
          f"{level.server_cpu / seconds:.2f}, postgres {pg}, generator {level.generator_cpu / seconds:.2f}",
          flush=True)
    for k, note in enumerate(gc_notes, 1):
        print(f"    server GC pauses (whole run), instance {k}: {note}", flush=True)
    return row


# -- saturation (issue 49) ---------------------------------------------------------------------------------------

PROFILE_CATEGORIES = (  # a sample counts for the first category met walking its stack from the innermost frame out
    # (py-spy names a frame "function (path:line)", the path from its package: "(json/encoder.py:258)")
    ("JSON", ("(json/", "orjson")),
    ("WebSocket compression", ("permessage_deflate", "zlib")),
    ("database client (SQLAlchemy, psycopg, sqlite3)", ("(sqlalchemy/", "(psycopg", "(sqlite3/",
                                                         "(taiwan_poker/store/")),
    ("push bus", ("(taiwan_poker/rooms/bus.py",)),
    ("seat views", ("(taiwan_poker/tables/views.py", "(taiwan_poker/rules/views.py", "(taiwan_poker/rooms/reads.py",
                    "(taiwan_poker/tables/timing.py")),
    ("table machine (decide, evolve, fold, events)", ("(taiwan_poker/tables/", "(taiwan_poker/rules/",
                                                      "(taiwan_poker/fairness/", "(taiwan_poker/cards.py",
                                                      "(taiwan_poker/frozen.py", "(<string>")),
    ("room service (write path, loader, hub)", ("(taiwan_poker/rooms/", "(taiwan_poker/lru.py")),
    ("web handlers (socket, API, metrics, logs)", ("(taiwan_poker/web/", "(prometheus_client", "(logging/",
                                                   "(pythonjsonlogger")),
    ("uvicorn / websockets / Starlette", ("(uvicorn/", "(websockets/", "(starlette/", "(fastapi/", "(h11/",
                                          "(httptools/", "(anyio/")),
    ("thread hand-offs (executor, queues, locks)", ("(concurrent/futures", "(threading.py", "(queue.py")),
    ("asyncio loop", ("(asyncio/", "uvloop", "(selectors.py")),
)


def profile_summary(raw: Path, top: int = 25) -> str:
    """Categories, the top functions by own samples and the app's by samples in them or below, from py-spy's raw
    (collapsed-stack) output."""
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    categories: dict[str, int] = {}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        frames = [f for f in stack.split(";") if f.strip() and not f.startswith(("process ", "thread "))]
        frames = [re.sub(r":\d+\)$", ")", f) for f in frames]  # a function's lines counted together
        if not frames:
            continue
        leaf = frames[-1]
        own[leaf] = own.get(leaf, 0) + count
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + count
        category = "other"
        for frame in reversed(frames):
            found = next((name for name, marks in PROFILE_CATEGORIES if any(m in frame for m in marks)), None)
            if found is not None:
                category = found
                break
        categories[category] = categories.get(category, 0) + count
    total = max(total, 1)
    out = [f"{total} samples"]
    out.append("by part (innermost frame of a known part):")
    out += [f"  {n / total:6.1%}  {name}" for name, n in sorted(categories.items(), key=lambda kv: -kv[1])]
    out.append(f"top {top} functions by own samples:")
    out += [f"  {n / total:6.1%}  {name}" for name, n in sorted(own.items(), key=lambda kv: -kv[1])[:top]]
    out.append(f"top {top} of the app's functions by samples in them or below:")
    ours = [(name, n) for name, n in inclusive.items() if "(taiwan_poker/" in name]
    out += [f"  {n / total:6.1%}  {name}" for name, n in sorted(ours, key=lambda kv: -kv[1])[:top]]
    return "\n".join(out)


def py_spy(pid: int, seconds: float, out: Path) -> str:
    """Profile a server process with py-spy (``--gil``: only samples holding the GIL, i.e. where its one core goes)
    for ``seconds``: a flame graph ``out``.svg and collapsed stacks ``out``.txt, then their summary (also written to
    ``out``.top.txt). py-spy is a benchmark tool (``pip install -c constraints.txt py-spy``), not a dependency."""
    exe = Path(sys.executable).with_name("py-spy")
    if not exe.exists():
        return "py-spy is not installed (.venv/bin/pip install -c constraints.txt py-spy): no profile"
    out.parent.mkdir(parents=True, exist_ok=True)
    common = [str(exe), "record", "--gil", "--nonblocking", "--rate", "200", "--duration", str(int(seconds)),
              "--pid", str(pid)]
    svg = subprocess.Popen([*common, "--format", "flamegraph", "--output", f"{out}.svg"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    raw = subprocess.run([*common, "--format", "raw", "--output", f"{out}.txt"], capture_output=True, text=True,
                         check=False)
    svg.wait(60)
    if raw.returncode != 0:
        return f"py-spy failed: {raw.stderr[-500:]}"
    summary = profile_summary(Path(f"{out}.txt"))
    Path(f"{out}.top.txt").write_text(summary + "\n")
    return summary


@dataclass
class Step:
    """One load step of ``--saturate``: the think range and what its window measured."""

    backend: str
    instances: int
    seats: int
    rooms: int
    think: tuple[float, float]
    level: Level

    @property
    def seconds(self) -> float:
        return self.level.wall

    @property
    def actions_per_second(self) -> float:
        return self.level.applied / self.seconds

    @property
    def offered(self) -> float:
        return self.rooms / (sum(self.think) / 2)

    def per_action_ms(self, cpu: float | None) -> str:
        return "-" if cpu is None else f"{cpu / max(1, self.level.applied) * 1000:.2f}"

    def cores(self, cpu: float | None) -> str:
        return "-" if cpu is None else f"{cpu / self.seconds:.2f}"


STEP_HEADER = (f"{'backend':10} {'inst':>4} {'seats':>5} {'rooms':>5} {'think s':>9} {'offered':>7} {'actions/s':>9} "
               f"{'server ms/act':>13} {'server cores':>12} {'sys %':>5} {'pg ms/act':>9} {'gen ms/act':>10} "
               f"{'gen cores':>9} "
               f"{'reply p50/p95/p99 ms':>22} {'push p50/p95/p99 ms':>22} {'errors':>6} {'over':>4}")


def step_line(st: Step) -> str:
    lv = st.level
    kinds = " ".join(sorted(set(lv.errors))[:3])
    return (f"{st.backend:10} {st.instances:>4} {st.seats:>5} {st.rooms:>5} "
            f"{f'{st.think[0]:g}-{st.think[1]:g}':>9} {st.offered:>7.0f} {st.actions_per_second:>9.1f} "
            f"{st.per_action_ms(lv.server_cpu):>13} {st.cores(lv.server_cpu):>12} "
            f"{100 * lv.server_system / lv.server_cpu if lv.server_cpu else 0:>5.0f} "
            f"{st.per_action_ms(lv.postgres_cpu):>9} {st.per_action_ms(lv.generator_cpu):>10} "
            f"{st.cores(lv.generator_cpu):>9} {percentiles(lv.round_trips):>22} {percentiles(lv.pushes):>22} "
            f"{len(lv.errors):>6} {len(lv.over):>4} {kinds}").rstrip()


def run_saturation(backend: str, seats: int, rooms: int, instances: int, bus: bool, steps: list[float],
                   seconds: float, warmup: float, generators: int, profile: float, profile_out: Path | None
                   ) -> list[Step]:
    """Raise the load step by step on one set of tables (each step a shorter mean think, the range ±50 % around
    it) until the throughput stops growing; each step: ``warmup`` s unmeasured, then ``seconds`` measured.
    ``profile`` > 0: then that many seconds of py-spy on the first instance at the step of the highest
    throughput (not measured: the profiler costs the server some CPU)."""
    out: list[Step] = []
    postgres = backend == "postgresql"
    with servers_running(backend, instances, bus) as (bases, pids):
        first = (steps[0] * 0.5, steps[0] * 1.5)
        setup = Level(rooms)
        workers = start_generators(bases, rooms, seats, first, generators, setup)
        print(f"{backend} instances={instances} seats={seats} rooms={rooms}: set up in {setup.setup_seconds:.1f} s, "
              f"{setup.connected}/{rooms * seats} sockets in {setup.connect_seconds:.1f} s", flush=True)
        try:
            best = 0.0
            for mean in steps:
                think = (mean * 0.5, mean * 1.5)
                for _, conn in workers:
                    conn.send(("think", *think))
                time.sleep(warmup)
                level = Level(rooms)
                measure_window(workers, level, seconds, pids, postgres, close="collect")
                step = Step(backend, instances, seats, rooms, think, level)
                out.append(step)
                print(step_line(step), flush=True)
                if step.actions_per_second < best * 1.03:  # past the knee: more offered load buys nothing
                    break
                best = max(best, step.actions_per_second)
            if profile > 0 and profile_out is not None:
                peak = max(out, key=lambda st: st.actions_per_second)
                for _, conn in workers:
                    conn.send(("think", *peak.think))
                time.sleep(warmup)
                print(f"profiling instance 1 (pid {pids[0]}) for {profile:g} s at think {peak.think[0]:g}-"
                      f"{peak.think[1]:g} s ...", flush=True)
                print(py_spy(pids[0], profile, profile_out), flush=True)
            for _, conn in workers:
                conn.send("stop")
            for proc, conn in workers:
                reply(conn, proc, "result")
        finally:
            end_generators(workers)
    return out


def print_table(rows: list[Row], seconds: float, warmup: float) -> None:
    print(f"\n{seconds:g} s per level (after {warmup:g} s of warm-up), load average {os.getloadavg()[0]:.2f}; "
          "latency = action sent → another player receives the new state (x-inst: the receiver's instance is not "
          "the sender's); offered = tables / mean think")
    print(f"{'backend':10} {'inst':>4} {'bus':>3} {'seats':>5} {'rooms':>5} {'think':>5} {'setup s':>7} "
          f"{'connect s':>9} {'actions/s':>9} {'offered/s':>9} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
          f"{'x-inst p99':>10} {'errors':>6} {'server ms/act':>13} {'pg ms/act':>9} {'gen cores':>9}")
    for r in rows:
        lat, cross = r.level.latencies, r.split(True)
        server_ms = r.per_action_ms(r.level.server_cpu)
        pg_ms = "-" if r.level.postgres_cpu is None else f"{r.per_action_ms(r.level.postgres_cpu):.2f}"
        kinds = " ".join(sorted(set(r.level.errors))[:3])
        print(f"{r.backend:10} {r.instances:>4} {'on' if r.bus else 'off':>3} {r.seats:>5} {r.rooms:>5} "
              f"{f'{r.think[0]:g}-{r.think[1]:g}':>5} {r.level.setup_seconds:>7.1f} {r.level.connect_seconds:>9.1f} "
              f"{r.actions_per_second:>9.1f} {r.offered:>9.1f} {pct(lat, 50):>7.1f} {pct(lat, 95):>7.1f} "
              f"{pct(lat, 99):>7.1f} {f'{pct(cross, 99):.1f}' if cross else '-':>10} {len(r.level.errors):>6} "
              f"{server_ms:>13.2f} {pg_ms:>9} "
              f"{r.level.generator_cpu / r.seconds:>9.2f} {kinds}".rstrip())
    by_config = {(r.backend, r.seats, r.rooms, r.think, r.instances): r for r in rows}
    for r in rows:
        one = by_config.get((r.backend, r.seats, r.rooms, r.think, 1))
        if r.instances > 1 and one is not None and one.level.actions:
            print(f"{r.backend} seats={r.seats} rooms={r.rooms}: {r.instances} instances / 1: actions/s "
                  f"×{r.actions_per_second / one.actions_per_second:.2f} (offered {r.offered:.0f}/s), server CPU "
                  f"per action {one.per_action_ms(one.level.server_cpu):.2f} → "
                  f"{r.per_action_ms(r.level.server_cpu):.2f} ms")
    print("targets: 500 rooms with p99 < 150 ms and no errors; issue 14: 1,000 heads-up tables at 2-8 s think on two "
          "instances with p99 < 150 ms, cross-instance p99 < 100 ms, and saturated (1-3 s think) throughput on two "
          "instances at least 1.5× one instance's")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", default="50,200,500")
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--seats", default="2,6", help="table sizes, e.g. 2,6")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", default="2,8", help="think time range in seconds, e.g. 2,8")
    ap.add_argument("--instances", default="1", help="server instance counts to compare, e.g. 1,2 (>1: PostgreSQL)")
    ap.add_argument("--bus", choices=("auto", "on", "off"), default="auto",
                    help="the push bus (TP_PUSH_BUS): auto = on with more than one instance")
    ap.add_argument("--generators", type=int, default=1, help="load generator processes sharing the tables")
    ap.add_argument("--warmup", type=float, default=0.0,
                    help="seconds of unmeasured play after every socket has connected (default 0)")
    ap.add_argument("--saturate", action="store_true",
                    help="issue 49: on each configuration, raise the load step by step (--steps) until it saturates")
    ap.add_argument("--steps", default="1,0.5,0.3,0.2,0.15,0.1,0.07",
                    help="--saturate: mean think seconds of each step (its range ±50%%), e.g. 1,0.5,0.3")
    ap.add_argument("--profile", type=float, default=0.0,
                    help="--saturate: seconds of py-spy on instance 1 at the highest throughput (0: none)")
    ap.add_argument("--profile-out", default="benchmarks/profiles/rooms",
                    help="--saturate: where the profile goes (<this>-<config>.svg, .txt, .top.txt)")
    args = ap.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    think = (low, high)
    if args.generators < 1:
        ap.error("--generators must be at least 1")
    counts = [int(x) for x in args.instances.split(",")]
    if min(counts) < 1:
        ap.error("--instances must be at least 1")
    if args.saturate:
        saturate(args, counts)
        return
    rows: list[Row] = []
    levels = [(b, n, r, k) for b in args.backends.split(",") for n in (int(x) for x in args.seats.split(","))
              for r in (int(x) for x in args.rooms.split(",")) for k in counts]
    for backend, seats, rooms, instances in levels:
        if instances > 1 and backend != "postgresql":
            print(f"{backend:10} instances={instances} seats={seats} rooms={rooms:4} skipped: several instances "
                  "need PostgreSQL (with SQLite the app is one process)", flush=True)
            continue
        bus = backend == "postgresql" and (args.bus == "on" or (args.bus == "auto" and instances > 1))
        if instances > 1 and not bus:
            print(f"note: {instances} instances without the push bus: a player on another instance than the "
                  "actor hears of the action only by chance (this generator does not poll)", flush=True)
        rows.append(run_configuration(backend, seats, rooms, instances, bus, args.seconds, think, args.generators,
                                     args.warmup))
    print_table(rows, args.seconds, args.warmup)


def saturate(args: argparse.Namespace, counts: list[int]) -> None:
    steps = [float(x) for x in args.steps.split(",")]
    rooms = int(args.rooms.split(",")[0])
    results: list[Step] = []
    for backend in args.backends.split(","):
        for seats in (int(x) for x in args.seats.split(",")):
            for instances in counts:
                if instances > 1 and backend != "postgresql":
                    print(f"{backend} instances={instances} skipped: several instances need PostgreSQL", flush=True)
                    continue
                bus = backend == "postgresql" and (args.bus == "on" or (args.bus == "auto" and instances > 1))
                profile_out = Path(f"{args.profile_out}-{backend}-{seats}seats-{instances}inst")
                print(STEP_HEADER, flush=True)
                results += run_saturation(backend, seats, rooms, instances, bus, steps, args.seconds, args.warmup,
                                          args.generators, args.profile, profile_out)
    print(f"\nsaturation: {args.seconds:g} s a step after {args.warmup:g} s of warm-up; actions/s = applied actions "
          "(their replies); reply = an action sent -> its own reply; push = an action sent -> each other seat "
          "hears of it; CPU per applied action; gen = the load generator; over = tables whose match ended")
    print(STEP_HEADER)
    for st in results:
        print(step_line(st))
    peaks: dict[tuple[str, int, int], Step] = {}
    for st in results:
        key = (st.backend, st.seats, st.instances)
        if key not in peaks or st.actions_per_second > peaks[key].actions_per_second:
            peaks[key] = st
    for (backend, seats, instances), st in sorted(peaks.items()):
        one = peaks.get((backend, seats, 1))
        ratio = f" (×{st.actions_per_second / one.actions_per_second:.2f} one instance's)" \
            if instances > 1 and one is not None and one.actions_per_second else ""
        print(f"peak {backend} seats={seats} instances={instances}: {st.actions_per_second:.1f} actions/s{ratio}, "
              f"server {st.per_action_ms(st.level.server_cpu)} ms an action")
    print("targets (issue 49): ≤ 1 ms of server CPU an action on one instance; p99 < 100 ms at 1,000 actions/s; "
          "two instances ≥ ×1.5 one")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
