"""Bot strength in the duplicate format, and bot decision time.

Run:  ``.venv/bin/python benchmarks/bench_bots.py [--deals N] [--ring-deals M] [--workers W] [--decks 2,6]``

Headless matches through the engine (no HTTP), as in the Annual Computer
Poker Competition: every deal is played once per seating (heads-up: the two
bots swap seats; six-handed: the bot under test takes each of the six seats
against five copies of a baseline), with fresh 100-big-blind stacks each hand.
Prints bb/100 of the first-named bot with its 95 % confidence interval for:

* each level against the level below (heads-up);
* each level against the always-call and random-legal baselines (heads-up and six-handed);

at each deck count, then the simulator's hands per second and each level's
decision time (p50 / p95 / max, measured on every decision of the bot under
test).  Target (issue 12): every interval above 0; the strong level's p95
under 300 ms.  Never asserts.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from rich.console import Console
from rich.table import Table

from taiwan_poker.bots.arena import Tally, duplicate_heads_up, duplicate_ring
from taiwan_poker.bots.levels import policy_of
from taiwan_poker.rules.ruleset import RuleSet

HEADS_UP = [("solid", "beginner"), ("strong", "solid")] + [
    (level, base) for level in ("beginner", "solid", "strong") for base in ("caller", "random")
]
RING = [(level, base) for level in ("beginner", "solid", "strong") for base in ("caller", "random")]


class Job(NamedTuple):
    hero: str
    villain: str
    decks: int
    seats: int
    deals: int
    seed: int


class Result(NamedTuple):
    job: Job
    units: list[float]
    hands: int
    seconds: float
    timings: list[float]


def run(job: Job) -> Result:
    rules = RuleSet(decks=job.decks, seats=job.seats)
    play = duplicate_heads_up if job.seats == 2 else duplicate_ring
    tally = play(rules, policy_of(job.hero), policy_of(job.villain), job.deals, seed=job.seed)
    return Result(job, tally.units, tally.hands, tally.seconds, tally.timings)


def split(job: Job, chunks: int) -> list[Job]:
    """The same deals cut into ``chunks`` jobs with disjoint seeds (so workers share the load)."""
    size = -(-job.deals // chunks)
    return [job._replace(deals=min(size, job.deals - i * size), seed=job.seed * 100 + i)
            for i in range(chunks) if job.deals - i * size > 0]


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20_000, help="duplicate deals per heads-up pairing")
    ap.add_argument("--ring-deals", type=int, default=2_000, help="deals per six-handed pairing (x6 hands)")
    ap.add_argument("--decks", default="2,6")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunks", type=int, default=8, help="pieces each pairing is cut into")
    ap.add_argument("--only", default="", help="run only pairings whose 'bot-against' matches, e.g. strong-solid")
    args = ap.parse_args()
    decks = [int(d) for d in args.decks.split(",")]
    jobs = [Job(h, v, d, 2, args.deals, 1) for d in decks for h, v in HEADS_UP]
    jobs += [Job(h, v, d, 6, args.ring_deals, 2) for d in decks for h, v in RING]
    if args.only:
        jobs = [j for j in jobs if f"{j.hero}-{j.villain}" in args.only.split(",")]
    pieces = [p for j in jobs for p in split(j, args.chunks)]
    merged: dict[Job, Tally] = {j: Tally() for j in jobs}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for res in pool.map(run, pieces):
            key = next(j for j in jobs if (j.hero, j.villain, j.decks, j.seats) == res.job[:4])
            t = merged[key]
            t.units += res.units
            t.hands += res.hands
            t.seconds += res.seconds
            t.timings += res.timings
    wall = time.perf_counter() - t0
    console = Console(width=150)
    table = Table(title="Bot strength, duplicate format (bb/100 of the first bot, 95 % CI)")
    for col in ("table", "decks", "bot", "against", "deals", "hands", "bb/100", "95 % CI", "excludes 0", "hands/s"):
        table.add_column(col, justify="right" if col not in ("bot", "against", "table") else "left")
    timings: dict[str, list[float]] = {}
    for job, t in merged.items():
        lo, hi = t.bb_per_100 - t.ci95, t.bb_per_100 + t.ci95
        table.add_row("heads-up" if job.seats == 2 else "6-handed", str(job.decks), job.hero, job.villain,
                      f"{len(t.units):,}", f"{t.hands:,}", f"{t.bb_per_100:+.1f}", f"[{lo:+.1f}, {hi:+.1f}]",
                      "yes" if lo > 0 else "NO", f"{t.hands_per_second:,.0f}")
        timings.setdefault(job.hero, []).extend(t.timings)
    console.print(table)
    times = Table(title="Decision time of the bot under test (one core, this machine)")
    for col in ("level", "decisions", "p50 ms", "p95 ms", "p99 ms", "max ms"):
        times.add_column(col, justify="right")
    for level, values in timings.items():
        times.add_row(level, f"{len(values):,}", *(f"{1000 * percentile(values, q):.2f}" for q in (0.5, 0.95, 0.99)),
                      f"{1000 * max(values):.2f}")
    console.print(times)
    total = sum(t.hands for t in merged.values())
    console.print(f"{total:,} hands in {wall:.0f} s wall on {args.workers} worker(s): "
                  f"{total / wall:,.0f} hands/s overall")


if __name__ == "__main__":
    main()
