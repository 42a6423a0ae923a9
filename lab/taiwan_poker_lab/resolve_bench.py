"""How fast and how close the river re-solver gets: ``python -m taiwan_poker_lab.resolve_bench``.

For a few heads-up river spots on 2 and 6 decks (boards, hole cards and burns dealt from seeded shoes, so
every run measures the same spots) it prints, per spot and setting: the physical holdings and face combos
in each range, the buckets, the tree's nodes, the iterations, the milliseconds (the set-up: universe, card
removal and bucket matrices; the whole solve, wall clock and this process's CPU time) and the
exploitability per thousand of the pot at the root, in the bucketed game (``mpot``) and with the bucketed
strategy played in the game without buckets (``full mpot``: what the buckets cost; measured apart, not
timed).  Then the p95 of the solve time of each setting over the spots, against the issue's budget (a
decision's p95 under 50 ms heads-up).  The solve time counts everything from the cards and ranges: the
universe (hand values, shared faces) is built afresh each time, as at a player's first river decision.

Ranges: ``wide`` gives every holding the same weight (a river checked through); ``polar`` gives the
bettor (player 1) its best 35 % and worst 15 % of holdings at full weight and the rest at 0.1, and the
other player everything between its best 10 % and worst 30 % — shapes only, not Strong's ranges.

``--steadiness`` prints only how far the answer moves when the read of the opponent moves (the issue's
smoothness target), which the full run prints last.

Run one process at a time (BLAS is held to one thread).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads: one core, as the bench promises
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import random
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from taiwan_poker.cards import deal
from taiwan_poker.strategy.params import SHIPPED
from taiwan_poker.strategy.resolve import FloatArray, RiverSpot, Universe, _universe, solve, universe


@dataclass(frozen=True, slots=True)
class Setting:
    name: str
    iterations: int
    max_buckets: int | None
    temperature: float = 0.0  # > 0: the logit equilibrium of this temperature (pots), as Strong plays it
    step: float = 1.0
    by_kind: bool = False


_R = SHIPPED.resolve
LOGIT = Setting(f"logit x{_R.iterations}", _R.iterations, _R.buckets, _R.temperature, _R.step,
                _R.by_kind)  # as Strong plays
KINDS = Setting(f"kinds x{_R.iterations}", _R.iterations, _R.buckets, _R.temperature, _R.step, True)
SETTINGS = (
    Setting("b32 x50", 50, 32),
    Setting("b32 x100", 100, 32),
    Setting("b96 x100", 100, 96),
    Setting("b96 x300", 300, 96),
    LOGIT,
)
STEADINESS = (Setting("b32 x100", 100, 32), Setting("b32 x300", 300, 32), LOGIT, KINDS)


def spots(decks: int, count: int) -> list[RiverSpot]:
    """``count`` river spots of ``decks`` decks: pot 10, 45 behind each, player 0 to act (seeded deals)."""
    out = []
    for i in range(count):
        cards = deal(decks, 8, random.Random(1_000 * decks + i))
        out.append(RiverSpot(decks=decks, board=tuple(c.index for c in cards[:5]),
                             hole=(cards[5].index, cards[6].index), dead=(cards[7].index,), pot=10.0,
                             stacks=(45.0, 45.0), actor=0))
    return out


def _percentile(u: Universe) -> FloatArray:
    """Each combo's place by strength, 0 (worst) .. 1 (best), weighted by its holdings."""
    order = np.argsort(u.values, kind="stable")
    cum = np.cumsum(u.counts[order]) - u.counts[order] / 2
    out = np.empty(len(order))
    out[order] = cum / u.counts.sum()
    return out


def ranges(u: Universe, shape: str) -> tuple[FloatArray, FloatArray]:
    if shape == "wide":
        w = np.ones(len(u.faces))
        return w, w
    q = _percentile(u)
    bettor = np.where((q >= 0.65) | (q < 0.15), 1.0, 0.1)
    other = np.where((q < 0.9) & (q >= 0.3), 1.0, 0.0)
    return other, bettor


def run(decks_list: tuple[int, ...], count: int, settings: tuple[Setting, ...], shapes: tuple[str, ...]) -> None:
    print(f"{'decks':>5} {'spot':>4} {'range':>5} {'setting':>9} {'holdings':>13} {'combos':>11} {'buckets':>9} "
          f"{'nodes':>5} {'iters':>5} {'setup ms':>8} {'ms':>7} {'cpu ms':>7} {'mpot':>7} {'full mpot':>9}")
    times: dict[tuple[int, str, str], list[float]] = {}
    cpu_times: dict[tuple[int, str, str], list[float]] = {}
    for decks in decks_list:
        for n, spot in enumerate(spots(decks, count)):
            for shape in shapes:
                for s in settings:
                    _universe.cache_clear()  # count the universe (evaluator calls) in every solve
                    start = time.perf_counter()
                    u = universe(spot)
                    w = ranges(u, shape)
                    sol = solve(spot, w, iterations=1, max_buckets=s.max_buckets, temperature=s.temperature,
                                step=s.step, by_kind=s.by_kind)
                    setup = time.perf_counter() - start  # set-up plus one iteration and the exploitability
                    _universe.cache_clear()
                    start, cpu_start = time.perf_counter(), time.process_time()
                    u = universe(spot)
                    w = ranges(u, shape)
                    sol = solve(spot, w, iterations=s.iterations, max_buckets=s.max_buckets,
                                temperature=s.temperature, step=s.step, by_kind=s.by_kind)
                    ms = 1000 * (time.perf_counter() - start)
                    cpu = 1000 * (time.process_time() - cpu_start)
                    times.setdefault((decks, shape, s.name), []).append(ms)
                    cpu_times.setdefault((decks, shape, s.name), []).append(cpu)
                    full = solve(spot, w, iterations=s.iterations, max_buckets=s.max_buckets, full_check=True,
                                 temperature=s.temperature, step=s.step, by_kind=s.by_kind)
                    assert full.full_exploitability is not None
                    print(f"{decks:>5} {n:>4} {shape:>5} {s.name:>9} {sol.holdings!s:>13} "
                          f"{sol.combo_counts!s:>11} {sol.buckets!s:>9} {sol.nodes:>5} {sol.iterations:>5} "
                          f"{1000 * setup:>8.1f} {ms:>7.1f} {cpu:>7.1f} {sol.milli_pot:>7.2f} "
                          f"{1000 * full.full_exploitability / sol.root_pot:>9.2f}", flush=True)
    print("\np95 of the solve time over the spots (nearest rank), wall clock and this process's CPU time (what a "
          "quiet machine would show), against the 50 ms budget:")
    for key, ms_list in times.items():
        decks, shape, name = key
        wall, cpu_list = sorted(ms_list), sorted(cpu_times[key])
        p95 = wall[min(len(wall) - 1, int(np.ceil(0.95 * len(wall))) - 1)]
        cpu95 = cpu_list[min(len(cpu_list) - 1, int(np.ceil(0.95 * len(cpu_list))) - 1)]
        median = f"{wall[len(wall) // 2]:7.1f} / {cpu_list[len(cpu_list) // 2]:7.1f}"
        print(f"  {decks} decks {shape:>5} {name:>9}: p95 {p95:7.1f} ms wall, {cpu95:7.1f} ms CPU "
              f"(x{cpu95 / 50:.1f} the budget); median {median}")


def _shift(u: Universe, w: FloatArray, amount: float) -> FloatArray:
    """``w`` with ``amount`` of its weight moved from its stronger half to its weaker half."""
    q = _percentile(u)
    mass = w * u.counts
    weak, strong = q < 0.5, q >= 0.5
    out = w.copy()
    out[weak] *= 1 + amount * mass.sum() / mass[weak].sum()
    out[strong] *= 1 - amount * mass.sum() / mass[strong].sum()
    return out


def steadiness(decks_list: tuple[int, ...], count: int, settings: tuple[Setting, ...] = STEADINESS,
               amount: float = 0.05, judged: Setting = LOGIT) -> int:
    """How far the answer moves when the read of the opponent moves ``amount`` of its weight to its weaker
    half (the issue's target: a 0.05 change in a read moves no action's probability by more than 0.15 and
    never turns a sure call into a sure fold).

    Two decisions a spot, polar ranges: player 1 after a check (its read of player 0 moves), and player 0
    facing a pot bet (its read of the bettor moves: more bluffs).  Printed per setting: the largest change
    of any action's probability for the actual holding, over every holding of the range, and of the range's
    action frequencies; the holdings that flip between a fold of 99 % or more and a call of 99 % or more
    (facing the bet); the exploitability (thousandths of the pot) before the move.  Returns the number of
    decisions where the ``judged`` setting (the shipped one) moved a probability by more than 0.15 or flipped
    (0: the target is met).
    """
    print(f"\nsteadiness: the opponent's read moves {amount:.0%} of its weight to its weaker half "
          "(largest change of an action's probability)")
    print(f"{'decks':>5} {'spot':>4} {'decision':>14} {'setting':>10} {'holding':>8} {'any holding':>11} "
          f"{'range':>6} {'flips':>5} {'mpot':>6}")
    worst: dict[str, float] = {}
    flips: dict[str, int] = {}
    misses = 0
    for decks in decks_list:
        for n, base in enumerate(spots(decks, count)):
            for kind in ("ip after check", "oop facing pot"):
                if kind == "ip after check":
                    spot = RiverSpot(decks=base.decks, board=base.board, hole=base.hole, dead=base.dead,
                                     pot=base.pot, stacks=base.stacks, actor=1)
                else:
                    spot = RiverSpot(decks=base.decks, board=base.board, hole=base.hole, dead=base.dead,
                                     pot=base.pot, stacks=(45.0, 35.0), actor=0, bets=(0.0, 10.0), bets_made=1)
                u = universe(spot)
                w = ranges(u, "polar")
                other = 1 - spot.actor
                moved = (w[0], _shift(u, w[1], amount)) if other == 1 else (_shift(u, w[0], amount), w[1])
                for s in settings:
                    kw = {"iterations": s.iterations, "max_buckets": s.max_buckets, "temperature": s.temperature,
                          "step": s.step, "by_kind": s.by_kind}
                    a = solve(spot, w, **kw)  # type: ignore[arg-type]
                    b = solve(spot, moved, **kw)  # type: ignore[arg-type]
                    mine = w[spot.actor][_rows(u, a.combos)] * u.counts[_rows(u, a.combos)]
                    freq_a = mine @ a.range_strategy / mine.sum()
                    freq_b = mine @ b.range_strategy / mine.sum()
                    flip = 0
                    if a.labels[0] == "fold":
                        fa, fb = a.range_strategy[:, 0], b.range_strategy[:, 0]
                        ca, cb = a.range_strategy[:, 1], b.range_strategy[:, 1]
                        flip = int((((fa >= 0.99) & (cb >= 0.99)) | ((ca >= 0.99) & (fb >= 0.99))).sum())
                    every = float(np.abs(a.range_strategy - b.range_strategy).max())
                    worst[s.name] = max(worst.get(s.name, 0.0), every)
                    flips[s.name] = flips.get(s.name, 0) + flip
                    if s == judged and (every > 0.15 or flip):
                        misses += 1
                    print(f"{decks:>5} {n:>4} {kind:>14} {s.name:>10} "
                          f"{np.abs(a.strategy - b.strategy).max():>8.2f} {every:>11.2f} "
                          f"{np.abs(freq_a - freq_b).max():>6.3f} {flip:>5} {a.milli_pot:>6.1f}", flush=True)
    for name, most in worst.items():
        print(f"  {name:>10}: largest move {most:.3f} (target 0.15), flips {flips[name]}")
    return misses


def _rows(u: Universe, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    lookup = np.full((52, 52), -1, dtype=np.int64)
    lookup[u.faces[:, 0], u.faces[:, 1]] = np.arange(len(u.faces))
    out: npt.NDArray[np.int64] = lookup[faces[:, 0], faces[:, 1]]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", type=int, default=3, help="spots per deck count")
    parser.add_argument("--decks", type=int, nargs="+", default=[2, 6])
    parser.add_argument("--exact", action="store_true", help="also solve without buckets (slow)")
    parser.add_argument("--steadiness", action="store_true", help="only the steadiness check")
    args = parser.parse_args()
    settings = SETTINGS + ((Setting("exact x100", 100, None),) if args.exact else ())
    if not args.steadiness:
        run(tuple(args.decks), args.spots, settings, ("wide", "polar"))
    steadiness(tuple(args.decks), args.spots)


if __name__ == "__main__":
    main()
