"""Odds-tools benchmark (issue 4): exact tables, seeded Monte Carlo, equity, and eval7 on single-deck spots.

Run:  .venv/bin/python benchmarks/bench_odds.py

Prints one table:

* the exact seven-card distribution for 1–6 decks (pattern structure built from scratch, then six deck counts);
* the spec's seeded Monte Carlo, 5 × 1,000,000 hands with the batch evaluator;
* heads-up flop equity, one hand vs a random hand, exact, 2 decks;
* preflop heads-up equity by Monte Carlo to ±0.1 % at 95 %, 2 decks;

then single-deck spots run through ours and eval7's equity functions
(``py_hand_vs_range_exact`` — river boards only — and
``py_hand_vs_range_monte_carlo``) with the ratio of the times.

Wall-clock on whatever machine runs this (on the shared 2-core box figures are
noisy).  Not an assertion.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any, TypeVar

import eval7  # type: ignore[import-untyped]
from rich.console import Console
from rich.table import Table

from taiwan_poker.odds import seven
from taiwan_poker.odds.equity import equity
from taiwan_poker.odds.simulate import simulate_seven

T = TypeVar("T")


def timed(fn: Callable[[], T], repeat: int = 1) -> tuple[float, T]:
    """Best wall time of ``repeat`` runs and the last result."""
    best = float("inf")
    result: Any = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def e7_cards(text: str) -> list[Any]:
    return [eval7.Card(text[i : i + 2]) for i in range(0, len(text), 2)]


def e7_random_range(dead: list[Any]) -> list[tuple[tuple[Any, Any], float]]:
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "shdc"]
    return [((a, b), 1.0) for a, b in itertools.combinations(deck, 2) if a not in dead and b not in dead]


def main() -> None:
    console = Console()
    rows: list[tuple[str, str, str, str]] = []

    # 1. exact seven-card distribution, 1..6 decks, from a cold start
    seven._structure.cache_clear()
    seven._exact_counts.cache_clear()
    t_struct, _ = timed(lambda: seven._structure(7))
    t_decks, _ = timed(lambda: [seven.seven_card_counts(d) for d in range(1, 7)])
    ok = seven.seven_card_counts(1) == seven.CLASSIC_SEVEN_CARD_ONE_DECK
    rows.append(
        (
            "七選五精確分布 exact 7-card distribution, 1–6 decks",
            "< 10 s",
            f"{t_struct + t_decks:.2f} s",
            f"structure {t_struct:.2f} s + six deck counts {t_decks:.2f} s; 1 deck = classic table: {ok}",
        )
    )

    # 2. seeded Monte Carlo 5 x 1,000,000
    t_mc, sims = timed(simulate_seven)
    rows.append(
        (
            "種子蒙地卡羅 seeded Monte Carlo 5 × 1,000,000",
            "< 5 s",
            f"{t_mc:.2f} s",
            f"{5_000_000 / t_mc / 1e6:.1f} M hands/s incl. sampling; decks {[s.decks for s in sims]}",
        )
    )

    # 3. heads-up flop equity vs random, exact, 2 decks
    equity("AhKh", ["random"], "Jh 8h 4s", decks=2, method="exact")  # warm up tables
    t_flop, flop = timed(lambda: equity("AhKh", ["random"], "Jh 8h 4s", decks=2, method="exact"), repeat=3)
    rows.append(
        (
            "翻牌權益精確 flop equity AhKh vs random, exact, 2 decks",
            "< 1 s",
            f"{t_flop:.3f} s",
            f"{flop.samples:,} physical showdowns (face-pattern weighted); equity {flop.players[0].equity:.5f}",
        )
    )

    # 4. preflop heads-up Monte Carlo to ±0.1 % at 95 %
    t_pre, pre = timed(lambda: equity("AhKh", ["random"], "", decks=2, precision=0.001, seed=1))
    p0 = pre.players[0]
    rows.append(
        (
            "翻牌前蒙地卡羅 preflop AhKh vs random to ±0.1% @95%, 2 decks",
            "< 2 s",
            f"{t_pre:.3f} s",
            f"{pre.samples:,} hands; equity {p0.equity:.4f} ± {1.96 * (p0.equity_se or 0):.4f}",
        )
    )

    table = Table(title="台灣撲克機率工具 Odds benchmark")
    table.add_column("工作 Task")
    table.add_column("目標 Target", justify="right")
    table.add_column("時間 Time", justify="right")
    table.add_column("備註 Notes")
    for r in rows:
        table.add_row(*r)
    console.print(table)

    # 5. single-deck spots: ours vs eval7
    cmp = Table(title="單副牌對照 eval7 (single deck; same spots, same machine)")
    cmp.add_column("情境 Spot")
    cmp.add_column("ours", justify="right")
    cmp.add_column("eval7", justify="right")
    cmp.add_column("ours / eval7 time", justify="right")
    cmp.add_column("equity ours | eval7")

    # a. river, hand vs random range, exact (eval7's exact function needs a full board)
    hero, board = "AhKh", "Jh8h4s2d9c"
    hc, bc = e7_cards(hero), e7_cards(board)
    rng_e7 = e7_random_range(hc + bc)
    t_o, r_o = timed(lambda: equity(hero, ["random"], board, decks=1, method="exact"), repeat=5)
    t_e, r_e = timed(lambda: eval7.py_hand_vs_range_exact(hc, rng_e7, bc), repeat=5)
    cmp.add_row(
        "river AhKh vs random, exact", f"{t_o * 1e3:.2f} ms", f"{t_e * 1e3:.2f} ms",
        f"{t_o / t_e:.2f}", f"{r_o.players[0].equity:.5f} | {r_e:.5f}",
    )  # fmt: skip

    # b. flop, hand vs random, exact: eval7 looped over every turn/river pair
    flop_board = "Jh8h4s"
    fb = e7_cards(flop_board)
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "shdc"]
    rest = [c for c in deck if c not in hc + fb]

    def e7_flop() -> float:
        total = 0.0
        n = 0
        for tr in itertools.combinations(rest, 2):
            full = fb + list(tr)
            opts = [o for o in rng_all if o[0][0] not in full and o[0][1] not in full]
            total += eval7.py_hand_vs_range_exact(hc, opts, full) * len(opts)
            n += len(opts)
        return total / n

    rng_all = e7_random_range(hc)
    t_o, r_o = timed(lambda: equity(hero, ["random"], flop_board, decks=1, method="exact"), repeat=3)
    t_e, r_e = timed(e7_flop)
    cmp.add_row(
        "flop AhKh vs random, exact (eval7: loop of river exacts)", f"{t_o * 1e3:.1f} ms", f"{t_e * 1e3:.1f} ms",
        f"{t_o / t_e:.2f}", f"{r_o.players[0].equity:.5f} | {r_e:.5f}",
    )  # fmt: skip

    # c. preflop, hand vs hand, Monte Carlo 1,000,000 hands each
    n = 1_000_000
    kk = [((eval7.Card("Kd"), eval7.Card("Kc")), 1.0)]
    aa = e7_cards("AsAh")
    t_o, r_o = timed(
        lambda: equity("AsAh", ["KdKc"], "", decks=1, method="monte_carlo", precision=1e-9, max_hands=n, seed=1)
    )
    t_e, r_e = timed(lambda: eval7.py_hand_vs_range_monte_carlo(aa, kk, [], n))
    cmp.add_row(
        "preflop AsAh vs KdKc, MC 1,000,000", f"{t_o:.3f} s", f"{t_e:.3f} s",
        f"{t_o / t_e:.2f}", f"{r_o.players[0].equity:.5f} | {r_e:.5f}",
    )  # fmt: skip

    # d. preflop, hand vs random, Monte Carlo 1,000,000 hands each
    rng_pre = e7_random_range(hc)
    t_o, r_o = timed(
        lambda: equity(hero, ["random"], "", decks=1, method="monte_carlo", precision=1e-9, max_hands=n, seed=1)
    )
    t_e, r_e = timed(lambda: eval7.py_hand_vs_range_monte_carlo(hc, rng_pre, [], n))
    cmp.add_row(
        "preflop AhKh vs random, MC 1,000,000", f"{t_o:.3f} s", f"{t_e:.3f} s",
        f"{t_o / t_e:.2f}", f"{r_o.players[0].equity:.5f} | {r_e:.5f}",
    )  # fmt: skip

    # e. preflop, hand vs hand, exact (ours only has it; eval7 has no preflop exact)
    t_o, r_o = timed(lambda: equity("AsAh", ["KdKc"], "", decks=1, method="exact"))
    cmp.add_row(
        "preflop AsAh vs KdKc, exact (1,712,304 boards)", f"{t_o:.3f} s", "—", "—",
        f"{r_o.players[0].equity:.6f} | —",
    )  # fmt: skip
    console.print(cmp)
    console.print("ratio < 1: ours is faster. eval7 is single-deck only; its MC cycles the villain range in order.")


if __name__ == "__main__":
    main()
