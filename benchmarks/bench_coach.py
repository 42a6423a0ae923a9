"""Coach latency: how long after a state the coach's advice is ready (target p95 < 200 ms, issue 13).

Two figures, on random decision points of random hands (2–6 seats, 2–6 decks,
bots playing, so every street and several opponents occur):

* ``advise()`` alone, the core computation from the seat's view (two equity
  simulations of 3,000 deals, the outs, the best hand);
* ``GET /api/rooms/{code}/coach`` through the app in-process (Starlette's
  TestClient, SQLite): the whole server answer a page waits for, at a solo
  table against bots, on every turn of the member for ``--hands`` hands.

    .venv/bin/python benchmarks/bench_coach.py [--points 400] [--hands 30]

Prints p50 / p95 / p99 / max in milliseconds.  Never asserts.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
import warnings
from pathlib import Path

from rich.console import Console
from rich.table import Table

warnings.filterwarnings("ignore")

from fastapi.testclient import TestClient  # noqa: E402

from taiwan_poker.bots.levels import policy_of  # noqa: E402
from taiwan_poker.coach.advice import advise  # noqa: E402
from taiwan_poker.rules import Hand, RuleSet  # noqa: E402
from taiwan_poker.strategy.seat import seat_view  # noqa: E402
from taiwan_poker.web import create_app  # noqa: E402
from taiwan_poker.web.config import Settings  # noqa: E402


def percentiles(values: list[float]) -> list[str]:
    s = sorted(values)
    return [f"{1000 * s[min(len(s) - 1, int(q * len(s)))]:.1f}" for q in (0.5, 0.95, 0.99)] + [f"{1000 * s[-1]:.1f}"]


def core(points: int) -> list[float]:
    rng = random.Random(2026)
    times: list[float] = []
    while len(times) < points:
        seats, decks = rng.randint(2, 6), rng.randint(2, 6)
        hand = Hand.start(RuleSet(decks=decks, seats=seats), [2000] * seats, 0, rng=rng)
        while not hand.complete:
            seat = hand.to_act
            assert seat is not None
            view = seat_view(hand, seat)
            t0 = time.perf_counter()
            advise(view)
            times.append(time.perf_counter() - t0)
            hand.act(policy_of("solid")(view, rng), seat=seat)
    return times


def over_http(hands: int) -> list[float]:
    data = Path(tempfile.mkdtemp())
    settings = Settings(data_dir=data, database_url=f"sqlite:///{data / 'tp.sqlite3'}", google_client_id=None,
                        host="127.0.0.1", rate_limit_scale=0, bot_pause=(0.0, 0.0))
    times: list[float] = []
    with TestClient(create_app(data, warm=False, settings=settings)) as c:
        c.post("/api/auth/local", json={"name": "Bench"}, headers={"X-CSRF-Token": "signin"})
        c.headers["X-CSRF-Token"] = c.cookies["tp_csrf"]
        code = c.post("/api/rooms", json={"seats": 4, "bots": 3, "level": "solid", "decks": 3}).json()["code"]
        played = 0
        deadline = time.monotonic() + 600
        while played < hands and time.monotonic() < deadline:
            s = c.get(f"/api/rooms/{code}").json()
            hand = s["hand"]
            if s["status"] == "over":
                code = c.post(f"/api/rooms/{code}/rematch").json()["code"]
            elif hand is not None and not hand["complete"] and hand["to_act"] == s["you"]:
                t0 = time.perf_counter()
                r = c.get(f"/api/rooms/{code}/coach")
                times.append(time.perf_counter() - t0)
                assert r.status_code == 200 and r.json()["advice"] is not None, r.text
                action = r.json()["advice"]["action"]
                legal = hand["legal"]["actions"]
                kind = action if action in ("fold", "check", "call") and action in legal else \
                    "check" if "check" in legal else "call"
                c.post(f"/api/rooms/{code}/actions", json={"version": s["version"], "action": {"kind": kind}})
            elif hand is not None and hand["complete"]:
                played += 1
                c.post(f"/api/rooms/{code}/next", json={"version": s["version"]})
            else:
                time.sleep(0.005)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--points", type=int, default=400, help="decision points for advise() alone")
    ap.add_argument("--hands", type=int, default=30, help="hands played at a solo table over the API")
    args = ap.parse_args()
    table = Table(title="Coach latency (ms); target p95 < 200")
    for col in ("what", "samples", "p50", "p95", "p99", "max"):
        table.add_column(col, justify="left" if col == "what" else "right")
    t = core(args.points)
    table.add_row("advise() from a seat's view", f"{len(t):,}", *percentiles(t))
    h = over_http(args.hands)
    table.add_row("GET /api/rooms/{code}/coach (in-process, SQLite)", f"{len(h):,}", *percentiles(h))
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
