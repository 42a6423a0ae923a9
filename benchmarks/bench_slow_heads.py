"""Unfinished request heads and slow request bodies against a real server process (audit issues 19 and 51).

Each case opens N connections that send ``GET / HTTP/1.1\\r\\nHost: x\\r\\n`` and never finish the head
(``--kind head``), or a whole head with ``Content-Length: 60000`` and then one body byte every 20 seconds
(``--kind body``, the audit's slow bodies: the attackers open a new connection for each one the server
closes, for ``--duration`` seconds), from many loopback addresses (200 a address unless the case says how
many addresses; ``N@A/K``: A addresses spread over K /24 networks, default all in as few as hold them), in
four attacker processes (one process cannot hold 20,000 sockets under a 20,000-descriptor limit).
Meanwhile this process asks ``/healthz`` from 127.0.0.1 every 0.2 s and counts the server's open descriptors.
The table gives how many the server held at peak (descriptors above its idle count), how many it closed and
how long it held each (from the attacker's connect to the server's close; "open" counts those still open
when the case ended, 10 s after the last connect), ``/healthz`` latency, the log lines written and whether
the server was alive at the end.  The server runs as shipped (``TP_RATE_LIMIT_SCALE=1``: 300 per address,
1,200 per /24, a 5-second head deadline, a 10-second body deadline and 1 KiB/s), with its descriptor limit
raised to the hard limit (``--max-descriptors`` to lower it).

    .venv/bin/python benchmarks/bench_slow_heads.py [--cases 1000,5000,20000,1000@1] [--max-descriptors N]
    .venv/bin/python benchmarks/bench_slow_heads.py --kind body --cases 19500@98,19500@98/98 --duration 60
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server_process import ServerProcess

UNFINISHED = b"GET / HTTP/1.1\r\nHost: x\r\n"
SLOW_BODY = (b"POST /api/auth/local HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 60000\r\n\r\n{")
DRIP = 20.0  # seconds between a slow body's bytes
PER_ADDRESS = 200
WORKERS = 4
SHORT = {"refused_address": "refused (address cap)", "refused_network": "refused (network cap)",
         "refused_full": "refused (full)", "evicted": "evicted", "evicted_idle": "idle evicted",
         "head_timeout": "heads timed out", "body_timeout": "bodies timed out", "accept_failed": "failed accepts"}
LINGER = 10.0  # seconds the attackers watch after their last connect


def attack(port: int, sources: list[str], per_source: int, linger: float, kind: str, duration: float
           ) -> dict[str, object]:
    """One attacker process: connect from every source at once, send the unfinished head (or a slow body's
    head and first byte, then a byte every 20 s), watch for closes; slow bodies reconnect until ``duration``."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    first = SLOW_BODY if kind == "body" else UNFINISHED
    sel = selectors.DefaultSelector()
    origin: dict[socket.socket, str] = {}
    started: dict[socket.socket, float] = {}
    held: list[float] = []
    failed = 0
    end = time.monotonic() + (duration if kind == "body" else 0)

    def connect(source: str) -> None:
        s = socket.socket()
        s.bind((source, 0))
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_WRITE)
        origin[s] = source

    def drop(s: socket.socket) -> None:
        sel.unregister(s)
        s.close()
        source = origin.pop(s)
        if time.monotonic() < end:
            connect(source)

    for source in sources:
        for _ in range(per_source):
            connect(source)
    last_connect = time.monotonic()
    next_drip = last_connect + DRIP
    give_up = max(end, last_connect) + 6 * linger
    while sel.get_map() and time.monotonic() < min(max(end, last_connect) + linger, give_up):
        if kind == "body" and time.monotonic() >= next_drip:
            next_drip += DRIP
            for s in list(started):
                with contextlib.suppress(OSError):
                    s.send(b" ")
        for key, events in sel.select(0.1):
            s = key.fileobj  # type: ignore[assignment]
            if events & selectors.EVENT_WRITE:
                if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                    failed += 1
                    drop(s)
                    continue
                try:
                    s.send(first)
                except OSError:
                    failed += 1
                    drop(s)
                    continue
                started[s] = last_connect = time.monotonic()
                sel.modify(s, selectors.EVENT_READ)
                continue
            try:
                gone = s.recv(4096) == b""
            except OSError:
                gone = True
            if gone:
                held.append(time.monotonic() - started.pop(s))
                drop(s)
    still_open = len(started)
    pending = len(sel.get_map()) - still_open  # never connected
    return {"held": held, "open": still_open, "failed": failed + pending}


def descriptors(pid: int) -> int:
    try:
        return len(list(Path(f"/proc/{pid}/fd").iterdir()))
    except OSError:
        return 0


def guard_counts(base: str) -> dict[str, float]:
    """The connection guard's counters from /metrics (empty without the guard)."""
    try:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
            text = r.read().decode()
    except OSError:
        return {}
    counts = {}
    for line in text.splitlines():
        if line.startswith("tp_connections_dropped_total{"):
            reason = line.split('reason="')[1].split('"')[0]
            counts[reason] = float(line.rsplit(" ", 1)[1])
    return counts


def log_lines(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    return data.count(b"\n"), len(data)


def sources_for(addresses: int, networks: int | None, case: int) -> list[str]:
    """``addresses`` loopback addresses, packed 250 to a /24, or spread over ``networks`` /24s."""
    if networks is None:
        return [f"127.{10 + case}.{i // 250}.{1 + i % 250}" for i in range(addresses)]
    return [f"127.{10 + case + (i % networks) // 200}.{(i % networks) % 200}.{1 + i // networks}"
            for i in range(addresses)]


def run_case(server: ServerProcess, heads: int, addresses: int, networks: int | None, case: int, kind: str,
             duration: float) -> dict[str, object]:
    assert server.proc is not None
    pid = server.proc.pid
    idle = descriptors(pid)
    lines_before, bytes_before = log_lines(server.log_path)
    counts_before = guard_counts(server.base)
    probes: list[tuple[float, bool]] = []
    peak = [0]
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(server.base + "/healthz", timeout=10) as r:
                    ok = r.status == 200
            except OSError:
                ok = False
            probes.append((time.monotonic() - t0, ok))
            stop.wait(0.2)

    def count() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], descriptors(pid) - idle)
            stop.wait(0.25)

    threads = [threading.Thread(target=probe), threading.Thread(target=count)]
    sources = sources_for(addresses, networks, case)
    per_source = heads // addresses
    workers = []
    for w in range(min(WORKERS, addresses)):
        mine = sources[w::WORKERS]
        workers.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", str(server.port), str(per_source), ",".join(mine), kind,
             str(duration)], stdout=subprocess.PIPE, text=True))
    for t in threads:
        t.start()
    results = [json.loads(p.communicate()[0]) for p in workers]
    stop.set()
    for t in threads:
        t.join()
    held = sorted(h for r in results for h in r["held"])
    counts = {k: v - counts_before.get(k, 0) for k, v in guard_counts(server.base).items()}
    lines_after, bytes_after = log_lines(server.log_path)
    latencies = sorted(t for t, _ in probes)
    return {
        "heads": heads, "addresses": addresses, "networks": len({s.rsplit(".", 1)[0] for s in sources}),
        "peak": peak[0], "held": len(held),
        "refused_fast": sum(h < 0.5 for h in held),
        "held_p50": statistics.median(held) if held else None, "held_max": held[-1] if held else None,
        "open": sum(int(r["open"]) for r in results), "failed": sum(int(r["failed"]) for r in results),
        "health_p50": statistics.median(latencies) if latencies else None,
        "health_max": latencies[-1] if latencies else None,
        "health_failed": sum(not ok for _, ok in probes), "probes": len(probes),
        "log_lines": lines_after - lines_before, "log_kib": (bytes_after - bytes_before) / 1024,
        "alive": server.proc.poll() is None,
        "guard": ", ".join(f"{SHORT.get(k, k)} {v:,.0f}" for k, v in sorted(counts.items()) if v) or "—",
    }


def seconds(value: object) -> str:
    return f"{value:.2f} s" if isinstance(value, float) else "—"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cases", default="1000,5000,20000,1000@1",
                        help="connections per case; N@A: from A addresses (default: 200 a address); N@A/K: A "
                             "addresses over K /24 networks")
    parser.add_argument("--kind", choices=("head", "body"), default="head",
                        help="unfinished heads (default) or slow bodies")
    parser.add_argument("--duration", type=float, default=60.0,
                        help="seconds the slow-body attackers keep reconnecting (default 60)")
    parser.add_argument("--max-descriptors", type=int, help="the server's descriptor limit (default: inherited)")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        port, per_source, sources, kind, duration = args.worker
        print(json.dumps(attack(int(port), sources.split(","), int(per_source), LINGER, kind, float(duration))))
        return
    cases: list[tuple[int, int, int | None]] = []
    for spec in args.cases.split(","):
        heads, _, where = spec.partition("@")
        addresses, _, networks = where.partition("/")
        cases.append((int(heads), int(addresses) if addresses else max(1, int(heads) // PER_ADDRESS),
                      int(networks) if networks else None))
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "data", Path(tmp) / "server.log", {"TP_RATE_LIMIT_SCALE": "1"},
                               max_descriptors=args.max_descriptors)
        server.start()
        assert server.proc is not None
        limit = Path(f"/proc/{server.proc.pid}/limits").read_text().split("Max open files")[1].split()[0]
        print(f"server: descriptor limit {limit}, idle descriptors {descriptors(server.proc.pid)}\n")
        what = "slow bodies" if args.kind == "body" else "heads"
        print(f"| {what} at once | addresses | networks | held at peak | closed | closed < 0.5 s | held p50 "
              "| held max | open at end | not connected | /healthz p50 | /healthz max | /healthz failed "
              "| log lines | alive | the guard |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        try:
            for i, (heads, addresses, networks) in enumerate(cases):
                r = run_case(server, heads, addresses, networks, i, args.kind, args.duration)
                print(f"| {r['heads']:,} | {r['addresses']} | {r['networks']} | {r['peak']:,} | {r['held']:,} "
                      f"| {r['refused_fast']:,} "
                      f"| {seconds(r['held_p50'])} | {seconds(r['held_max'])} | {r['open']:,} | {r['failed']:,} "
                      f"| {seconds(r['health_p50'])} | {seconds(r['health_max'])} "
                      f"| {r['health_failed']} of {r['probes']} | {r['log_lines']:,} ({r['log_kib']:,.0f} KiB) "
                      f"| {'yes' if r['alive'] else 'NO'} | {r['guard']} |", flush=True)
                time.sleep(2)
            lines, size = log_lines(server.log_path)
            print(f"\nthe server's log over the whole run: {lines:,} lines, {size / 1024:,.0f} KiB")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
