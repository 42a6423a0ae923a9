"""Server time per web route: p50 / p95 over repeated requests, tables warmed first (target p95 < 50 ms).

Runs the app in-process through Starlette's TestClient, so the figure is the
server's time (routing, core calls, template rendering, JSON) without network.

    .venv/bin/python benchmarks/bench_web.py [--n 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

warnings.filterwarnings("ignore")

from fastapi.testclient import TestClient  # noqa: E402

from taiwan_poker.web import create_app  # noqa: E402
from taiwan_poker.web.odds_page import warm_up  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=200, help="requests per route")
    args = ap.parse_args()
    t0 = time.perf_counter()
    warm_up()
    warm = time.perf_counter() - t0
    client = TestClient(create_app(warm=False))
    hand_id = client.post("/api/lab/hands", json={"decks": 2}).json()["id"]

    def lab_hand() -> Any:
        h = client.post("/api/lab/hands", json={"decks": 3}).json()
        for _ in range(3):
            client.post(f"/api/lab/hands/{h['id']}/next")
        return h

    routes: list[tuple[str, Callable[[], Any]]] = [
        ("GET /", lambda: client.get("/")),
        ("GET /rules", lambda: client.get("/rules")),
        ("GET /odds", lambda: client.get("/odds?decks=3")),
        ("GET /calculators", lambda: client.get("/calculators")),
        ("GET /lab", lambda: client.get("/lab")),
        ("GET /practice", lambda: client.get("/practice")),
        ("GET /rules (en)", lambda: client.get("/rules", headers={"Accept-Language": "en"})),
        ("GET /api/rules", lambda: client.get("/api/rules")),
        ("GET /api/odds", lambda: client.get("/api/odds?decks=2")),
        ("POST /api/evaluate", lambda: client.post("/api/evaluate", json={"cards": ["As", "As", "Ah", "Kd", "Kc",
                                                                                   "2h", "3d"]})),
        ("POST /api/lab/hands", lambda: client.post("/api/lab/hands", json={"decks": 2})),
        ("GET /api/lab/hands/{id}", lambda: client.get(f"/api/lab/hands/{hand_id}")),
        ("lab hand to the river (4 req)", lab_hand),
        ("GET /api/practice/scenarios", lambda: client.get("/api/practice/scenarios")),
        ("POST /api/practice/answers", lambda: client.post("/api/practice/answers",
                                                           json={"scenario": "pot_odds", "choice": "20"})),
        ("GET /api/practice/drill", lambda: client.get("/api/practice/drill")),
        ("POST /api/calc/outs", lambda: client.post("/api/calc/outs", json={
            "decks": 2, "hole": ["Ah", "Qh"], "board": ["Jh", "8h", "4s", "2d"], "burn": "7c"})),
        ("POST /api/calc/pot-odds", lambda: client.post("/api/calc/pot-odds", json={"pot": 60, "bet": 20})),
        ("POST /api/calc/equity (exact turn)", lambda: client.post("/api/calc/equity", json={
            "decks": 2, "hero": "AhQh", "opponents": ["random"], "board": "Jh8h4s2d", "burn": "7c"})),
        ("POST /api/evaluate (bad card, 400)", lambda: client.post("/api/evaluate", json={"cards": ["Xx"]})),
    ]
    print(f"tables warmed in {warm:.1f} s; {args.n} requests per route\n")
    print(f"{'route':<40} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    worst = 0.0
    for name, call in routes:
        for _ in range(5):
            call()
        times = []
        for _ in range(args.n):
            t = time.perf_counter()
            call()
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p50, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
        worst = max(worst, p95) if "4 req" not in name else worst
        print(f"{name:<40} {p50:8.2f} {p95:8.2f} {times[-1]:8.2f}")
    print(f"\nworst single-request p95: {worst:.2f} ms (target < 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
