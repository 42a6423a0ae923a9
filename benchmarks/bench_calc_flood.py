"""Room reads while the equity calculator is flooded (audit round 2, finding 5): figures, not asserts.

Starts the real server (``taiwan-poker serve``, rate limits as shipped), a member with a table, and N flood
clients that each post a heavy equity calculation (6 decks, five random opponents, precision 0.001) about
twice a second. Prints room-read latency (GET /api/rooms/CODE every 50 ms) quiet and during the flood, and
what the flood's requests got back.

    .venv/bin/python benchmarks/bench_calc_flood.py [--clients 60] [--seconds 10] [--scale 1]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server_process import ServerProcess  # noqa: E402

HEAVY = {"decks": 6, "hero": "AsKs", "opponents": ["random"] * 5, "precision": 0.001}


def reads(client: httpx.Client, code: str, seconds: float) -> list[float]:
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        client.get(f"/api/rooms/{code}").raise_for_status()
        out.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.05)
    return out


def row(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {ms[int(0.95 * len(ms))]:.1f} | "
            f"{ms[int(0.99 * len(ms))]:.1f} | {ms[-1]:.1f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--scale", default="1", help="TP_RATE_LIMIT_SCALE of the server (0: limits off)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tp-flood-"))
    server = ServerProcess(tmp / "data", tmp / "server.log", env={"TP_RATE_LIMIT_SCALE": args.scale})
    base = server.start()
    try:
        member = httpx.Client(base_url=base, timeout=30)
        member.post("/api/auth/local", json={"name": "Bench"}, headers={"X-CSRF-Token": "signin"}).raise_for_status()
        member.headers["X-CSRF-Token"] = member.cookies["tp_csrf"]
        code = member.post("/api/rooms", json={"seats": 2}).json()["code"]
        quiet = reads(member, code, 3)
        answers: collections.Counter[int] = collections.Counter()
        stop = threading.Event()

        def flood() -> None:
            with httpx.Client(base_url=base, timeout=120) as c:
                while not stop.is_set():
                    answers[c.post("/api/calc/equity", json=HEAVY).status_code] += 1
                    stop.wait(0.5)

        threads = [threading.Thread(target=flood, daemon=True) for _ in range(args.clients)]
        for th in threads:
            th.start()
        time.sleep(1)
        loaded = reads(member, code, args.seconds)
        stop.set()
        for th in threads:
            th.join(timeout=120)
        t0 = time.perf_counter()
        fresh = httpx.post(f"{base}/api/calc/equity", json={"hero": "AsAh", "opponents": ["KdKc"]}, timeout=120)
        fresh_ms = (time.perf_counter() - t0) * 1000
    finally:
        server.stop()
    print(f"{args.clients} flood clients, about 2 requests/s each, {args.seconds:g} s, "
          f"TP_RATE_LIMIT_SCALE={args.scale}")
    print("| room reads | n | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    print(row("quiet", quiet))
    print(row("during the flood", loaded))
    print("flood answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(answers.items())))
    print(f"a fresh calculation right after the flood: HTTP {fresh.status_code} in {fresh_ms:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
