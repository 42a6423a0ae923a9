"""Preflop table lookups: what the bots and the coach pay for a decision.

Run:  ``.venv/bin/python benchmarks/bench_preflop.py [--lookups N] [--decks 2]``

Prints, per player count at 100 BB, the time of the first lookup of a table
(its tree rebuilt, its counts expanded) and the p50 / p95 / max time of
lookups of random first-in and facing-an-open situations afterwards, then the
shipped data's size.  Never asserts.
"""

from __future__ import annotations

import argparse
import random
import time
from importlib import resources

from rich.console import Console
from rich.table import Table

from taiwan_poker.strategy.classes import CLASSES
from taiwan_poker.strategy.preflop import lookup, positions
from taiwan_poker.strategy.tables import META_FILE, STRATEGY_FILE, solved_table


def _situation(players: int, rng: random.Random) -> tuple[int, list[tuple[int, str, float]]]:
    """A random first-in or facing-one-open decision (positions before the opener fold)."""
    hero = rng.randrange(players)
    history: list[tuple[int, str, float]] = []
    opener = rng.randrange(hero + 1) if hero > 0 else 0
    for p in range(hero):
        if p < opener:
            history.append((p, "fold", 0.0))
        elif p == opener:
            history.append((p, "raise", rng.choice([2.0, 2.5, 3.0])))
        else:
            history.append((p, "fold", 0.0))
    return hero, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--decks", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(20261222)
    table = Table(title=f"preflop lookups, {args.decks} decks, 100 BB (ms)")
    for col in ("players", "first lookup", "p50", "p95", "max"):
        table.add_column(col, justify="right")
    for players in (2, 3, 4, 5, 6):
        solved_table.cache_clear()
        t0 = time.perf_counter()
        lookup(args.decks, players, 100, positions(players)[-1], [], "AA")
        first = time.perf_counter() - t0
        times = []
        for _ in range(args.lookups):
            hero, hist = _situation(players, rng)
            t0 = time.perf_counter()
            lookup(args.decks, players, 100, hero, hist, rng.choice(CLASSES))
            times.append(time.perf_counter() - t0)
        times.sort()
        table.add_row(
            str(players),
            f"{1000 * first:.0f}",
            f"{1000 * times[len(times) // 2]:.2f}",
            f"{1000 * times[int(len(times) * 0.95)]:.2f}",
            f"{1000 * times[-1]:.2f}",
        )
    Console().print(table)
    base = resources.files("taiwan_poker").joinpath("data")
    for name in (STRATEGY_FILE, META_FILE, "preflop_matrix.npz"):
        print(f"{name}: {len(base.joinpath(name).read_bytes()):,} bytes")


if __name__ == "__main__":
    main()
