"""Bot strength in the duplicate format, against exploiters and Local Best Response; fold-to-size; decision time.

Run:  ``.venv/bin/python benchmarks/bench_bots.py [--part levels,exploiters,lbr,fold,times | all] [--quick]
[--workers W] [--decks 2,6] [--params FILE] [--json OUT]``

Headless matches through the engine (no HTTP), as in the Annual Computer
Poker Competition: every deal is played once per seating (heads-up: the two
bots swap seats; six-handed: the bot under test takes each of the six seats
against five copies of the other), with fresh 100-big-blind stacks each hand.
Parts (``--part``, default ``levels``, today's output):

* ``levels``: bb/100 of the first-named bot with its 95 % confidence interval: each level against the level
  below (heads-up and six-handed) and against the always-call and random-legal baselines, at each deck count;
  then the simulator's hands per second and each level's decision time (p50 / p95 / p99 / max);
* ``exploiters``: each level (``--heroes``) against every exploiter of ``taiwan_poker_lab.exploiters``, heads-up and
  six-handed (the level against five copies), hands dealt out after an all-in scored by their expected chips
  (``--no-allin-ev`` for the chips as they fell); targets (issue 22): every interval above 0, at least +20
  against the preflop bully, +400 against the all-in jammer;
* ``lbr``: Local Best Response against each level heads-up (``taiwan_poker_lab.lbr``), mbb/g with a 95 % interval (the
  policy's exploitability as LBR finds it; folding every hand loses 750), beside the same hands scored for luck
  (``taiwan_poker_lab.luck``: unbiased, a narrower interval); target: Strong at most 750;
* ``fold``: the fold-to-size probe heads-up: scripted bets of 1 chip, 1 BB, 1/3 pot, pot and 2x pot on each
  street of self-play; fold share against b / (p + b) + 5 points, and folds whose equity against the bettor's
  range beats the price (target: none);
* ``times``: each level's decision time in self-play, heads-up and six-handed (target: Strong's p95 < 50 ms).

``--params FILE`` (a parameter file of ``taiwan_poker_lab.params_file``): Strong plays with those post-flop
parameters wherever it is the bot under test (``strong@FILE`` in the tables; its opponents stay today's), and
``levels`` adds that Strong against today's Strong (``--only strong-strong`` for that pairing alone).  An
experiment is a parameter file, not a patch.

``--quick`` runs every chosen part with a handful of hands (a smoke run).  Never asserts.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import NamedTuple

from rich.console import Console
from rich.table import Table

from taiwan_poker.bots.levels import LEVELS, policy_of
from taiwan_poker.bots.policies import Policy, Strong
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker_lab.arena import (
    SIZES,
    FoldSpot,
    Tally,
    duplicate_heads_up,
    duplicate_ring,
    fold_to_size,
    lbr_heads_up,
    mean_ci,
    percentiles,
)
from taiwan_poker_lab.exploiters import EXPLOITERS
from taiwan_poker_lab.lbr import LbrSettings
from taiwan_poker_lab.params_file import load

HEADS_UP = [("solid", "beginner"), ("strong", "solid")] + [
    (level, base) for level in ("beginner", "solid", "strong") for base in ("caller", "random")
]
RING = [(level, base) for level in ("beginner", "solid", "strong") for base in ("caller", "random")]
RING_LEVELS = [("solid", "beginner"), ("strong", "solid")]
STREETS = ("preflop", "flop", "turn", "river")
TARGETS = {"bully": 20.0, "bully-caller": 20.0, "jammer": 400.0}
LBR_TARGET = 750.0
FOLD_SLACK = 0.05


def policy(key: str) -> Policy:
    """An exploiter, a level or a baseline by its key; ``strong@FILE``: Strong with the parameters in FILE."""
    if key.startswith("strong@"):
        return Strong(load(key.split("@", 1)[1]))
    return EXPLOITERS[key] if key in EXPLOITERS else policy_of(key)


def under_test(key: str, args: argparse.Namespace) -> str:
    """The key of the bot under test: Strong with ``--params`` when given."""
    return f"strong@{args.params}" if key == "strong" and args.params else key


def base(key: str) -> str:
    return key.split("@", 1)[0]


class Job(NamedTuple):
    hero: str
    villain: str
    decks: int
    seats: int
    deals: int
    seed: int
    kind: str = "match"  # match | lbr | fold
    option: str = ""  # match: "ev" to score all-ins by expected chips; lbr: preflop mode


class Result(NamedTuple):
    job: Job
    units: list[float]
    hands: int
    seconds: float
    timings: list[float]
    spots: list[FoldSpot]
    adjusted: Sequence[float] = ()  # LBR: the same deals scored for luck (taiwan_poker_lab.luck)


def run(job: Job) -> Result:
    rules = RuleSet(decks=job.decks, seats=job.seats)
    if job.kind == "lbr":
        settings = LbrSettings(preflop="act" if job.option == "act" else "call")
        tally = lbr_heads_up(rules, policy(job.villain), job.deals, seed=job.seed, settings=settings, luck=True)
        return Result(job, tally.units, tally.hands, tally.seconds, [], [], tally.adjusted)
    if job.kind == "fold":
        t0 = time.perf_counter()
        spots = fold_to_size(rules, policy(job.hero), job.deals, seed=job.seed)
        return Result(job, [], job.deals, time.perf_counter() - t0, [], spots)
    play = duplicate_heads_up if job.seats == 2 else duplicate_ring
    tally = play(rules, policy(job.hero), policy(job.villain), job.deals, seed=job.seed, allin_ev=job.option == "ev")
    return Result(job, tally.units, tally.hands, tally.seconds, tally.timings, [])


def split(job: Job, chunks: int) -> list[Job]:
    """The same deals cut into ``chunks`` jobs with disjoint seeds (so workers share the load)."""
    size = -(-job.deals // chunks)
    return [job._replace(deals=min(size, job.deals - i * size), seed=job.seed * 100 + i)
            for i in range(chunks) if job.deals - i * size > 0]


def percentile(values: list[float], q: float) -> float:
    return percentiles(values, (q,))[0]


class Merged(NamedTuple):
    tally: Tally
    spots: list[FoldSpot]


TIMING_KEEP = 5_000  # decision times kept per piece (a uniform subsample) when pieces are stored


def _store(res: Result) -> str:
    timings = res.timings
    if len(timings) > TIMING_KEEP:
        timings = random.Random(res.job.seed).sample(timings, TIMING_KEEP)
    return json.dumps({"job": list(res.job), "units": res.units, "hands": res.hands, "seconds": res.seconds,
                       "timings": timings, "adjusted": res.adjusted,
                       "spots": [[s.street, s.size, s.bet, s.pot, s.folded, s.price, s.equity] for s in res.spots]})


def _load_stored(path: str) -> dict[Job, Result]:
    out: dict[Job, Result] = {}
    try:
        with open(path) as f:
            for line in f:
                if line.strip():
                    d = json.loads(line)
                    job = Job(*d["job"])
                    out[job] = Result(job, d["units"], d["hands"], d["seconds"], d["timings"],
                                      [FoldSpot(*x) for x in d["spots"]], d.get("adjusted", []))
    except FileNotFoundError:
        pass
    return out


def execute(jobs: list[Job], chunks: int, workers: int, store: str = "") -> tuple[dict[Job, Merged], float]:
    """Run every job cut into pieces on ``workers`` processes; merged by job, with the wall time.  With ``store``
    each finished piece is appended to that file, and pieces found there are not run again (a run resumes)."""
    pieces = [p for j in jobs for p in split(j, chunks)]
    merged: dict[Job, Merged] = {j: Merged(Tally(), []) for j in jobs}
    by_key = {j[:4] + j[6:]: j for j in jobs}
    stored = _load_stored(store) if store else {}

    def add(res: Result) -> None:
        t, spots = merged[by_key[res.job[:4] + res.job[6:]]]
        t.units.extend(res.units)
        t.adjusted.extend(res.adjusted)
        t.hands += res.hands
        t.seconds += res.seconds
        t.timings.extend(res.timings)
        spots.extend(res.spots)

    todo = []
    for piece in pieces:
        if piece in stored:
            add(stored[piece])
        else:
            todo.append(piece)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(run, p) for p in todo]
        for done, future in enumerate(as_completed(futures), 1):
            res = future.result()
            add(res)
            if store:
                with open(store, "a") as f:
                    f.write(_store(res) + "\n")
            print(f"  {done}/{len(todo)} pieces ({len(pieces) - len(todo)} stored), {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    return merged, time.perf_counter() - t0


def ci_text(t: Tally, scale: float = 1.0) -> tuple[str, str, float]:
    lo, hi = (t.bb_per_100 - t.ci95) * scale, (t.bb_per_100 + t.ci95) * scale
    return f"{t.bb_per_100 * scale:+.1f}", f"[{lo:+.1f}, {hi:+.1f}]", lo


def table_name(seats: int) -> str:
    return "heads-up" if seats == 2 else f"{seats}-handed"


def times_table(console: Console, title: str, timings: dict[str, list[float]], record: dict[str, object]) -> None:
    times = Table(title=title)
    for col in ("level", "decisions", "p50 ms", "p95 ms", "p99 ms", "max ms"):
        times.add_column(col, justify="right")
    for level, values in timings.items():
        qs = percentiles(values, (0.5, 0.95, 0.99))
        times.add_row(level, f"{len(values):,}", *(f"{1000 * q:.2f}" for q in qs),
                      f"{1000 * max(values, default=0.0):.2f}")
        record[level] = {"decisions": len(values), "p50_ms": 1000 * qs[0], "p95_ms": 1000 * qs[1],
                         "p99_ms": 1000 * qs[2], "max_ms": 1000 * max(values, default=0.0)}
    console.print(times)


# --- the parts --------------------------------------------------------------------------------------------------


def part_levels(args: argparse.Namespace, decks: list[int], console: Console, out: dict[str, object]) -> None:
    new = [("strong", "strong")] if args.params else []  # Strong with the parameter file against today's
    jobs = [Job(under_test(h, args), v, d, 2, args.deals, 1) for d in decks for h, v in HEADS_UP + new]
    jobs += [Job(under_test(h, args), v, d, 6, args.ring_deals, 2) for d in decks
             for h, v in RING + RING_LEVELS + new]
    if args.only:
        jobs = [j for j in jobs if f"{base(j.hero)}-{j.villain}" in args.only.split(",")]
    merged, wall = execute(jobs, args.chunks, args.workers, args.store)
    table = Table(title="Bot strength, duplicate format (bb/100 of the first bot, 95 % CI)")
    for col in ("table", "decks", "bot", "against", "deals", "hands", "bb/100", "95 % CI", "excludes 0", "hands/s"):
        table.add_column(col, justify="right" if col not in ("bot", "against", "table") else "left")
    timings: dict[str, list[float]] = {}
    rows = []
    for job, (t, _) in merged.items():
        mean, ci, lo = ci_text(t)
        table.add_row(table_name(job.seats), str(job.decks), job.hero, job.villain, f"{len(t.units):,}",
                      f"{t.hands:,}", mean, ci, "yes" if lo > 0 else "NO", f"{t.hands_per_second:,.0f}")
        timings.setdefault(job.hero, []).extend(t.timings)
        rows.append({"seats": job.seats, "decks": job.decks, "bot": job.hero, "against": job.villain,
                     "hands": t.hands, "bb100": t.bb_per_100, "ci95": t.ci95})
    console.print(table)
    record: dict[str, object] = {}
    times_table(console, "Decision time of the bot under test (one core, this machine)", timings, record)
    total = sum(t.hands for t, _ in merged.values())
    console.print(f"{total:,} hands in {wall:.0f} s wall on {args.workers} worker(s): "
                  f"{total / wall:,.0f} hands/s overall")
    out["levels"] = {"rows": rows, "times": record, "wall_s": wall, "hands": total}


def part_exploiters(args: argparse.Namespace, decks: list[int], console: Console, out: dict[str, object]) -> None:
    heroes = [under_test(h, args) for h in args.heroes.split(",")]
    names = args.exploiters.split(",") if args.exploiters else list(EXPLOITERS)
    option = "" if args.no_allin_ev else "ev"
    jobs = [Job(h, x, d, seats, args.x_deals if seats == 2 else args.x_ring_deals, 3, "match", option)
            for h in heroes for seats in (int(n) for n in args.seats.split(",")) for d in decks for x in names]
    merged, wall = execute(jobs, args.chunks, args.workers, args.store)
    table = Table(title="Levels against the exploiters, duplicate format (bb/100 of the level, 95 % CI"
                        + (", all-ins scored by expected chips)" if option else ")"))
    for col in ("table", "decks", "level", "against", "hands", "bb/100", "95 % CI", "target", "met", "hands/s"):
        table.add_column(col, justify="right" if col not in ("level", "against", "table") else "left")
    timings: dict[str, list[float]] = {}
    rows = []
    for job, (t, _) in merged.items():
        mean, ci, lo = ci_text(t)
        target = TARGETS.get(job.villain, 0.0)
        met = lo > 0 and t.bb_per_100 >= target
        table.add_row(table_name(job.seats), str(job.decks), job.hero, job.villain, f"{t.hands:,}", mean, ci,
                      f"> 0, ≥ {target:+.0f}" if target else "> 0", "yes" if met else "NO",
                      f"{t.hands_per_second:,.0f}")
        timings.setdefault(job.hero, []).extend(t.timings)
        rows.append({"seats": job.seats, "decks": job.decks, "bot": job.hero, "against": job.villain,
                     "hands": t.hands, "bb100": t.bb_per_100, "ci95": t.ci95, "target": target, "met": met})
    console.print(table)
    record: dict[str, object] = {}
    times_table(console, "Decision time of the level against the exploiters (this machine)", timings, record)
    total = sum(t.hands for t, _ in merged.values())
    console.print(f"{total:,} hands in {wall:.0f} s wall on {args.workers} worker(s)")
    out["exploiters"] = {"rows": rows, "times": record, "wall_s": wall, "hands": total, "allin_ev": bool(option)}


def part_lbr(args: argparse.Namespace, decks: list[int], console: Console, out: dict[str, object]) -> None:
    levels = [under_test(lvl, args) for lvl in args.lbr_levels.split(",")]
    modes = args.lbr_preflop.split(",")
    jobs = [Job("lbr", lvl, d, 2, args.lbr_deals, args.lbr_seed, "lbr", m) for m in modes for d in decks
            for lvl in levels]
    merged, wall = execute(jobs, args.chunks, args.workers, args.store)
    table = Table(title="Local Best Response against each level, heads-up (mbb/g won by LBR, 95 % CI; "
                        "folding every hand loses 750)")
    for col in ("decks", "against", "LBR preflop", "hands", "mbb/g", "95 % CI", "luck-adjusted", "95 % CI",
                f"≤ {LBR_TARGET:.0f}", "s/hand"):
        table.add_column(col, justify="right" if col not in ("against", "LBR preflop") else "left")
    rows = []
    for job, (t, _) in merged.items():
        mean, ci, _ = ci_text(t, 10.0)
        adj, adj_ci = (10 * x for x in mean_ci(t.adjusted))
        ok = adj + adj_ci <= LBR_TARGET
        table.add_row(str(job.decks), job.villain, job.option, f"{t.hands:,}", mean, ci, f"{adj:+.1f}",
                      f"[{adj - adj_ci:+.1f}, {adj + adj_ci:+.1f}]", "yes" if ok else "NO",
                      f"{t.seconds / max(1, t.hands):.2f}")
        rows.append({"decks": job.decks, "against": job.villain, "preflop": job.option, "hands": t.hands,
                     "mbb": t.bb_per_100 * 10, "ci95": t.ci95 * 10, "adjusted_mbb": adj, "adjusted_ci95": adj_ci,
                     "cpu_s": t.seconds})
    console.print(table)
    console.print(f"{sum(t.hands for t, _ in merged.values()):,} hands in {wall:.0f} s wall on {args.workers} "
                  f"worker(s); LBR checks or calls preflop ('call', the paper's) or acts by the same rule ('act'); "
                  f"luck-adjusted: the same hands scored for the cards and the level's mixed choices "
                  f"(taiwan_poker_lab.luck, unbiased), whose interval the target is read on")
    out["lbr"] = {"rows": rows, "wall_s": wall}


def part_fold(args: argparse.Namespace, decks: list[int], console: Console, out: dict[str, object]) -> None:
    levels = [under_test(lvl, args) for lvl in args.fold_levels.split(",")]
    jobs = [Job(lvl, lvl, d, 2, args.fold_trials, 5, "fold") for d in decks for lvl in levels]
    merged, wall = execute(jobs, args.chunks, args.workers, args.store)
    rows = []
    for job, (_, spots) in merged.items():
        table = Table(title=f"Fold to size: {job.hero}, heads-up self-play, {job.decks} decks ({job.deals:,} trials)")
        for col in ("street", "size", "spots", "fold %", "cap %", "within", "folds checked", "beat the price"):
            table.add_column(col, justify="right" if col not in ("street", "size") else "left")
        cells: dict[tuple[int, str], list[FoldSpot]] = defaultdict(list)
        for s in spots:
            cells[s.street, s.size].append(s)
        for street in range(4):
            for size in SIZES:
                cell = cells.get((street, size), [])
                if not cell:
                    continue
                folds = [s for s in cell if s.folded]
                share = len(folds) / len(cell)
                cap = sum(s.cap for s in cell) / len(cell) + FOLD_SLACK
                checked = [s for s in folds if s.equity is not None]
                beat = [s for s in checked if s.equity is not None and s.equity > s.price]
                table.add_row(STREETS[street], size, f"{len(cell):,}", f"{100 * share:.1f}", f"{100 * cap:.1f}",
                              "yes" if share <= cap else "NO", f"{len(checked):,}", f"{len(beat):,}")
                rows.append({"level": job.hero, "decks": job.decks, "street": street, "size": size,
                             "spots": len(cell), "fold": share, "cap": cap, "checked": len(checked),
                             "beat": len(beat), "beat_margin": sorted(s.equity - s.price for s in beat
                                                                      if s.equity is not None)[-5:]})
        console.print(table)
    console.print(f"fold probe: {wall:.0f} s wall on {args.workers} worker(s); a fold 'beats the price' when its "
                  "equity against the bettor's Bayes range (the bettor's own policy) exceeds call / (pot + call)")
    out["fold"] = {"rows": rows, "wall_s": wall}


def part_times(args: argparse.Namespace, decks: list[int], console: Console, out: dict[str, object]) -> None:
    jobs = [Job(under_test(lvl, args), under_test(lvl, args), d, seats, args.t_deals, 6) for lvl in LEVELS
            for d in decks for seats in (2, 6)]
    merged, wall = execute(jobs, args.chunks, args.workers, args.store)
    out["times_wall_s"] = wall
    timings: dict[str, list[float]] = defaultdict(list)
    for job, (t, _) in merged.items():
        timings[f"{job.hero} ({table_name(job.seats)})"].extend(t.timings)
        timings[job.hero].extend(t.timings)
    record: dict[str, object] = {}
    times_table(console, "Decision time in self-play (the seat under test, every decision; this machine)",
                dict(sorted(timings.items())), record)
    out["times"] = record


PARTS: dict[str, Callable[[argparse.Namespace, list[int], Console, dict[str, object]], None]] = {
    "levels": part_levels, "exploiters": part_exploiters, "lbr": part_lbr, "fold": part_fold, "times": part_times,
}
QUICK = {"deals": 20, "ring_deals": 4, "x_deals": 10, "x_ring_deals": 2, "lbr_deals": 2, "fold_trials": 60,
         "t_deals": 10, "chunks": 2}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--part", default="levels", help="comma-separated: levels, exploiters, lbr, fold, times; or all")
    ap.add_argument("--quick", action="store_true", help="a smoke run: a handful of hands in every part")
    ap.add_argument("--deals", type=int, default=20_000, help="levels: duplicate deals per heads-up pairing")
    ap.add_argument("--ring-deals", type=int, default=2_000, help="levels: deals per six-handed pairing (x6 hands)")
    ap.add_argument("--decks", default="2,6")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunks", type=int, default=8, help="pieces each pairing is cut into")
    ap.add_argument("--only", default="", help="levels: only pairings whose 'bot-against' matches, e.g. strong-solid")
    ap.add_argument("--heroes", default="beginner,solid,strong", help="exploiters: the levels to test")
    ap.add_argument("--exploiters", default="", help="exploiters: a comma-separated subset (default: all)")
    ap.add_argument("--seats", default="2,6", help="exploiters: heads-up (2), six-handed (6) or both")
    ap.add_argument("--x-deals", type=int, default=10_000, help="exploiters: heads-up deals (x2 hands)")
    ap.add_argument("--x-ring-deals", type=int, default=3_334, help="exploiters: six-handed deals (x6 hands)")
    ap.add_argument("--no-allin-ev", action="store_true", help="exploiters: score all-ins by the chips as they fell")
    ap.add_argument("--lbr-levels", default="beginner,solid,strong")
    ap.add_argument("--lbr-preflop", default="call", help="call (the paper's), act, or both: call,act")
    ap.add_argument("--lbr-deals", type=int, default=100, help="LBR: deals per level and deck count (x2 hands)")
    ap.add_argument("--lbr-seed", type=int, default=4, help="LBR: another seed deals other hands (to add to a run)")
    ap.add_argument("--fold-levels", default="strong")
    ap.add_argument("--fold-trials", type=int, default=6_000, help="fold probe: self-play hands per level and decks")
    ap.add_argument("--t-deals", type=int, default=500, help="times: deals per level, table and deck count")
    ap.add_argument("--params", default="", help="Strong under test plays with the post-flop parameters in this "
                    "file (taiwan_poker_lab.params_file); levels adds it against today's Strong")
    ap.add_argument("--json", default="", help="also write the figures to this JSON file")
    ap.add_argument("--store", default="", help="append each finished piece to this file; pieces already there "
                    "are not run again (a long run resumes where it stopped)")
    args = ap.parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, min(getattr(args, key), value))
    if args.params:
        load(args.params)  # a bad file fails here, not in every worker
    parts = list(PARTS) if args.part == "all" else args.part.split(",")
    decks = [int(d) for d in args.decks.split(",")]
    console = Console(width=150)
    out: dict[str, object] = {"argv": list(argv if argv is not None else sys.argv[1:]),
                              "date": time.strftime("%Y-%m-%d %H:%M"), "load": _load()}
    for name in parts:
        PARTS[name](args, decks, console, out)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1, default=_plain)


def _load() -> list[float]:
    try:
        with open("/proc/loadavg") as f:
            return [float(x) for x in f.read().split()[:3]]
    except OSError:
        return []


def _plain(obj: object) -> object:
    if isinstance(obj, float) and math.isinf(obj):
        return None
    return str(obj)


if __name__ == "__main__":
    main()
