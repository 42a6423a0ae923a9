#!/usr/bin/env python3
"""Reproduce the preflop solver's shipped data: equity matrices, the multi-way calibration, the solved tables.

    .venv/bin/python scripts/solve_preflop.py matrix    [--decks 2,3,4,5,6] [--deals 40000] [--seed 20261222]
    .venv/bin/python scripts/solve_preflop.py calibrate [--decks 2,6] [--tuples 600] [--seed 20261223]
    .venv/bin/python scripts/solve_preflop.py solve     [--decks ...] [--players 2,...,6] [--stacks 10,20,...]
                                                        [--iterations N] [--out FILE]
    .venv/bin/python scripts/solve_preflop.py pack      [--keep-shipped]
    .venv/bin/python scripts/solve_preflop.py show      --decks 2 --players 6 --stack 100

Every step is deterministic given its seed (the solver itself has no randomness).
Long steps keep their partial results in ``--work`` (default /tmp/taiwan_poker_preflop)
and resume from them; the final files go to ``src/taiwan_poker/data/``.
See docs/strategy.md for the method and the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# The solver multiplies many small matrices: OpenBLAS threads only spin (measured 10x slower on 2 busy cores).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from taiwan_poker.strategy import equity_matrix as em  # noqa: E402
from taiwan_poker.strategy.classes import N_CLASSES, SOLVED_DECKS  # noqa: E402

DATA = ROOT / "src" / "taiwan_poker" / "data"
DEFAULT_WORK = Path("/tmp/taiwan_poker_preflop")
STACKS = (10, 20, 40, 100, 200)
PLAYERS = (2, 3, 4, 5, 6)
ITERATIONS = {2: 4000, 3: 2000, 4: 1500, 5: 1000, 6: 1000}  # per player count


def iterations_for(players: int, stack: float) -> int:
    return ITERATIONS[players]


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def cmd_matrix(args: argparse.Namespace) -> None:
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    mats: dict[int, np.ndarray] = {}
    worst = 0.0
    for d in args.decks:
        part = work / f"matrix_d{d}_n{args.deals}_s{args.seed}.npz"
        if part.exists():
            with np.load(part) as f:
                eq, se = f["eq"], f["se"]
            print(f"decks {d}: loaded {part}", flush=True)
        else:
            t0 = time.time()

            def progress(i: int, d: int = d, t0: float = t0) -> None:
                if i % 10 == 0 or i == N_CLASSES - 1:
                    print(f"decks {d}: row {i + 1}/{N_CLASSES}  {time.time() - t0:.0f} s", flush=True)

            eq, se = em.build_matrix(d, args.deals, args.seed, progress=progress)
            np.savez_compressed(part, eq=eq, se=se)
            print(f"decks {d}: done in {time.time() - t0:.0f} s, max SE {np.nanmax(se):.5f}", flush=True)
        mats[d] = eq
        worst = max(worst, float(np.nanmax(se)))
    out = args.out or DATA / em.MATRIX_FILE
    np.savez_compressed(out, **em.matrices_to_npz(mats, args.deals, args.seed, worst))
    print(f"wrote {out} ({out.stat().st_size:,} bytes), max SE {worst:.5f}")


def cmd_calibrate(args: argparse.Namespace) -> None:
    from taiwan_poker_lab.calibrate import fit_alpha

    mats = em.load_matrix()
    for k in args.players:
        for d in args.decks:
            t0 = time.time()
            fit = fit_alpha(mats.get(d), d, k, args.tuples, args.deals, args.seed)
            print(
                f"players {k} decks {d}: alpha {fit.alpha:.4f}  rmse {fit.rmse:.4f} (1/k alone: {fit.rmse_equal:.4f})"
                f"  {fit.tuples} tuples x {args.deals} deals, seed {args.seed}, {time.time() - t0:.0f} s",
                flush=True,
            )


def _solve_one(d: int, n: int, stack: float, iterations: int, work: Path, check_every: int) -> dict[str, object]:
    from taiwan_poker.strategy.classes import class_weights, removal_matrix
    from taiwan_poker.strategy.model import PayoffModel
    from taiwan_poker.strategy.tree import GameSpec
    from taiwan_poker_lab.cfr import Chance, solve

    key = f"d{d}_p{n}_s{stack:g}"
    part = work / f"solve_{key}_i{iterations}.npz"
    meta_path = part.with_suffix(".json")
    if part.exists() and meta_path.exists():
        meta: dict[str, object] = json.loads(meta_path.read_text())
        print(f"{key}: loaded ({meta['exploitability_mbb']:.2f} mbb)", flush=True)
        return meta
    chance = Chance(class_weights(d), removal_matrix(d), em.equity_matrix(d))
    model = PayoffModel.for_decks(d)
    t0 = time.time()

    def progress(t: int, mbb: float) -> None:
        print(f"{key}: iteration {t}: {mbb:.3f} mbb  ({time.time() - t0:.0f} s)", flush=True)

    res = solve(GameSpec(n, stack), chance, iterations, model=model, check_every=check_every, progress=progress)
    seconds = time.time() - t0
    np.savez_compressed(part, strategy=res.strategy.astype(np.float32))
    meta = {
        "key": key,
        "decks": d,
        "players": n,
        "stack": stack,
        "iterations": res.iterations,
        "exploitability_mbb": round(res.final.mbb, 4),
        "nash_conv_mbb": round(1000 * res.final.nash_conv, 4),
        "values_bb": [round(v, 5) for v in res.final.values],
        "best_response_bb": [round(v, 5) for v in res.final.best],
        "trace": [[t, round(m, 4)] for t, m in res.trace],
        "seconds": round(seconds, 1),
        "decisions": len(res.compiled.dec_start),
        "edges": res.compiled.n_edges,
        "terminals": len(res.compiled.tree.terminals),
        "unreached_share": round(res.unreached, 6),
        "average_exploitability_mbb": round(res.average_mbb, 4),
        "refined_share": round(res.refined, 6),
    }
    meta_path.write_text(json.dumps(meta))
    print(f"{key}: {res.final.mbb:.3f} mbb after {res.iterations} iterations, {seconds:.0f} s", flush=True)
    return meta


def _claim(work: Path, key: str) -> bool:
    """Take a table for this process (several ``solve --claim`` processes share one grid)."""
    try:
        fd = os.open(work / f"claim_{key}", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True


def cmd_solve(args: argparse.Namespace) -> None:
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    for d in args.decks:
        for n in args.players:
            for stack in args.stacks:
                iterations = args.iterations or iterations_for(n, stack)
                key = f"d{d}_p{n}_s{float(stack):g}"
                if args.claim and not _claim(work, key):
                    continue
                _solve_one(d, n, float(stack), iterations, work, args.check_every)


def _grid(args: argparse.Namespace) -> list[tuple[int, int, float]]:
    return [(d, n, float(s)) for d in args.decks for n in args.players for s in args.stacks]


def _finite(d: dict[str, object]) -> dict[str, object]:
    """JSON has no infinity: an unlimited setting is written as null."""
    return {k: (None if isinstance(v, float) and v == float("inf") else v) for k, v in d.items()}


def cmd_pack(args: argparse.Namespace) -> None:
    from dataclasses import asdict

    from taiwan_poker.strategy.model import ALPHA3, ALPHA4, ALPHA5, PayoffModel
    from taiwan_poker.strategy.tables import META_FILE, STRATEGY_FILE, pack
    from taiwan_poker.strategy.tree import GameSpec, sizing_for
    from taiwan_poker_lab import cfr

    work: Path = args.work
    solved = {}
    for d, n, stack in _grid(args):
        key = f"d{d}_p{n}_s{stack:g}"
        iterations = args.iterations or iterations_for(n, stack)
        part = work / f"solve_{key}_i{iterations}.npz"
        if not part.with_suffix(".json").exists():
            print(f"{key}: not solved, left out")
            continue
        meta = json.loads(part.with_suffix(".json").read_text())
        with np.load(part) as f:
            strategy = f["strategy"]
        solved[key] = (GameSpec(n, stack), strategy, meta)
    mats = em.load_matrix()
    model = PayoffModel()
    common = {
        "description": (
            "Preflop strategies of the abstract game (docs/strategy.md): per table d{decks}_p{players}_s{stack}, "
            "the probability (count / 255) of each action of each decision node (breadth-first order of "
            "taiwan_poker.strategy.tree.build_tree) for each of the 182 classes."
        ),
        "solver": {
            "algorithm": "discounted CFR, simultaneous updates",
            "alpha": cfr.DCFR_ALPHA,
            "beta": cfr.DCFR_BETA,
            "gamma": cfr.DCFR_GAMMA,
            "randomness": "none: a solve is a pure function of the tree, the equity matrix and the iterations",
        },
        "equity_matrix": {"file": em.MATRIX_FILE, "seed": mats.seed, "deals_per_cell": mats.deals,
                          "max_standard_error": mats.max_se},
        "model": {
            "b_max": model.b_max,
            "a_max": model.a_max,
            "spr_half": model.spr_half,
            "b_step": model.b_step,
            "alpha3": ALPHA3,
            "alpha4": ALPHA4,
            "alpha5": ALPHA5,
            "calibration_seed": 20261223,
        },
        "sizing": {
            str(n): {str(int(s)): _finite(asdict(sizing_for(n, s))) for s in args.stacks} for n in args.players
        },
        "seed": mats.seed,
    }
    arrays, doc = pack(solved, common)
    if args.keep_shipped:
        _keep_shipped(arrays, doc, [f"d{d}_p{n}_s{stack:g}" for d, n, stack in _grid(args)])
    out_dir: Path = args.out or DATA
    np.savez_compressed(out_dir / STRATEGY_FILE, **arrays)
    (out_dir / META_FILE).write_text(json.dumps(doc, indent=1, allow_nan=False) + "\n")
    size = (out_dir / STRATEGY_FILE).stat().st_size + (out_dir / META_FILE).stat().st_size
    print(f"wrote {len(arrays)} tables to {out_dir} ({size:,} bytes)")


def _shipped() -> tuple[dict[str, np.ndarray], dict[str, object]]:
    from taiwan_poker.strategy.tables import META_FILE, STRATEGY_FILE

    with np.load(DATA / STRATEGY_FILE) as f:
        arrays = {k: f[k] for k in f.files}
    return arrays, json.loads((DATA / META_FILE).read_text())


def _keep_shipped(arrays: dict[str, np.ndarray], doc: dict[str, object], keys: list[str]) -> None:
    """Add the shipped tables the work directory lacks, as they are, where the current tree is the one they solved.

    A solve is a pure function of the tree, the equity matrix and the iterations, so a table whose tree
    fingerprint (and iteration count) is unchanged would be solved again to the same numbers; the shipped one is
    kept instead (``solve`` on its key reproduces it; tests/strategy checks one such reproduction).
    """
    from taiwan_poker.strategy.tables import fingerprint
    from taiwan_poker.strategy.tree import GameSpec, build_tree

    old_arrays, old_doc = _shipped()
    tables = doc["tables"]
    assert isinstance(tables, dict)
    old_tables = old_doc["tables"]
    assert isinstance(old_tables, dict)
    for key in keys:
        if key in tables or key not in old_tables:
            continue
        meta = old_tables[key]
        spec = GameSpec(int(meta["players"]), float(meta["stack"]))
        if fingerprint(build_tree(spec)) != meta["fingerprint"] or meta["iterations"] != iterations_for(
                spec.players, spec.stack):
            print(f"{key}: the shipped table was solved on another tree; solve it again")
            continue
        arrays[key], arrays[f"{key}_kept"] = old_arrays[key], old_arrays[f"{key}_kept"]
        tables[key] = meta
        print(f"{key}: kept as shipped")
    doc["tables"] = dict(sorted(tables.items()))


def cmd_report(args: argparse.Namespace) -> None:
    """A Markdown table of the solves kept in --work (exploitability, iterations, time, tree size)."""
    rows = []
    shipped = _shipped()[1]["tables"]
    assert isinstance(shipped, dict)
    for d, n, stack in _grid(args):
        key = f"d{d}_p{n}_s{stack:g}"
        iterations = args.iterations or iterations_for(n, stack)
        path = args.work / f"solve_{key}_i{iterations}.json"
        if path.exists():
            rows.append(json.loads(path.read_text()))
        elif key in shipped:  # solved earlier and kept (pack --keep-shipped)
            rows.append(shipped[key])
    print("| decks | players | stack | decisions | iterations | exploitability (mbb/hand) | seconds |")
    print("|---|---|---|---|---|---|---|")
    for m in rows:
        print(
            f"| {m['decks']} | {m['players']} | {m['stack']:g} | {m['decisions']} | {m['iterations']} "
            f"| {m['exploitability_mbb']:.2f} | {m['seconds']:.0f} |"
        )


def cmd_grid(args: argparse.Namespace) -> None:
    """The shipped grid as compact Markdown tables: exploitability by players and stack against decks, tree size
    and solve time at two decks, data sizes, and the figures docs/strategy.md quotes."""
    from taiwan_poker.strategy.tables import META_FILE, STRATEGY_FILE

    tables = _shipped()[1]["tables"]
    assert isinstance(tables, dict)
    decks = sorted({int(m["decks"]) for m in tables.values()})
    print("| players | stack (BB) | " + " | ".join(f"{d} decks" for d in decks)
          + " | decision nodes | nodes shipped | seconds (2 decks) |")
    print("|---|---|" + "---|" * len(decks) + "---|---|---|")
    for n in PLAYERS:
        for stack in STACKS:
            row = [tables.get(f"d{d}_p{n}_s{stack:g}") for d in decks]
            two = tables.get(f"d2_p{n}_s{stack:g}") or {}
            print(f"| {n} | {stack} | " + " | ".join("–" if m is None else f"{m['exploitability_mbb']:.2f}"
                                                     for m in row)
                  + f" | {two.get('decisions', '–')} | {two.get('nodes_shipped', '–')} | {two.get('seconds', '–')} |")
    total = sum(float(m["seconds"]) for m in tables.values())
    print(f"\ntables: {len(tables)}; solve seconds in all: {total:,.0f}; "
          f"largest reach dropped: {max(float(m['reach_dropped']) for m in tables.values()):.2e}")
    print(f"trace d2_p6_s100: {tables['d2_p6_s100']['trace']}")
    for f in (STRATEGY_FILE, META_FILE):
        print(f"{f}: {(DATA / f).stat().st_size:,} bytes")


def cmd_sanity(args: argparse.Namespace) -> None:
    """How often the tables fold where the audit's preflop bully won, and how often each seat opens six-handed."""
    from taiwan_poker.strategy.preflop import frequencies, positions

    def folds(d: int, n: int, stack: float, pos: str, history: list[tuple[str, str, float]]) -> float:
        return frequencies(d, n, stack, pos, history).get("fold", 0.0)

    print("| spot | " + " | ".join(f"{d} decks" for d in args.decks) + " |")
    print("|---|" + "---|" * len(args.decks))
    hu_open: list[tuple[str, str, float]] = [("SB", "raise", 3.0)]
    six_fold = [(p, "fold", 0.0) for p in ("UTG", "HJ", "CO")]
    spots = [
        ("heads-up 100 BB: big blind facing a 3-BB open", 2, "BB", hu_open),
        ("heads-up 100 BB: button facing a 3-bet to 9 BB after opening 2.5", 2, "SB",
         [("SB", "raise", 2.5), ("BB", "raise", 9.0)]),
        ("six-handed 100 BB: big blind facing a 3-BB button open", 6, "BB",
         [*six_fold, ("BTN", "raise", 3.0), ("SB", "fold", 0.0)]),
        ("six-handed 100 BB: button facing a 3-bet to 9 BB from the big blind", 6, "BTN",
         [*six_fold, ("BTN", "raise", 2.5), ("SB", "fold", 0.0), ("BB", "raise", 9.0)]),
    ]
    for name, n, pos, history in spots:
        cells = [f"{100 * folds(d, n, 100.0, pos, history):.1f} %" for d in args.decks]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    names = positions(6)[:-1]
    print("| six-handed 100 BB, enters first | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for d in args.decks:
        cells = []
        for i, pos in enumerate(names):
            history = [(p, "fold", 0.0) for p in names[:i]]
            cells.append(f"{100 * (1 - folds(d, 6, 100.0, pos, history)):.1f} %")
        print(f"| {d} decks | " + " | ".join(cells) + " |")


def cmd_crossdeck(args: argparse.Namespace) -> None:
    """What the nearest-deck rule costs: exploitability in a d-deck game of the tables solved at other deck counts."""
    from taiwan_poker.strategy.classes import class_weights, removal_matrix
    from taiwan_poker.strategy.model import PayoffModel
    from taiwan_poker.strategy.tree import GameSpec, build_tree
    from taiwan_poker_lab.cfr import Chance, compile_tree, exploitability

    print("| players | stack | game decks | table decks | exploitability (mbb/hand) |")
    print("|---|---|---|---|---|")
    for n in args.players:
        for stack in args.stacks:
            tree = build_tree(GameSpec(n, float(stack)))
            for d in args.decks:
                chance = Chance(class_weights(d), removal_matrix(d), em.equity_matrix(d))
                c = compile_tree(tree, chance, PayoffModel.for_decks(d))
                for other in (d - 1, d, d + 1):
                    part = args.work / f"solve_d{other}_p{n}_s{stack:g}_i{iterations_for(n, stack)}.npz"
                    if not part.exists():
                        continue
                    with np.load(part) as f:
                        strategy = f["strategy"].astype(np.float64)
                    mbb = exploitability(c, chance, strategy).mbb
                    print(f"| {n} | {stack} | {d} | {other} | {mbb:.2f} |", flush=True)


def cmd_show(args: argparse.Namespace) -> None:
    """Print a decision of the shipped tables as a 13 x 13 grid (percent of hands that do not fold / check)."""
    from taiwan_poker.cards import RANKS
    from taiwan_poker.strategy import preflop

    hist = []
    for item in filter(None, args.history.split(",")):
        parts = item.split(":")
        hist.append((parts[0], parts[1], float(parts[2]) if len(parts) > 2 else 0.0))
    print(f"{args.position} after {hist or 'nothing'} ({args.decks} decks, {args.players} players, {args.stack:g} BB)")
    print(preflop.frequencies(args.decks, args.players, args.stack, args.position, hist))
    order = list(range(12, -1, -1))
    for i in order:
        cells = []
        for j in order:
            if i == j:
                name = RANKS[i] * 2
            elif i > j:
                name = RANKS[i] + RANKS[j] + "s"
            else:
                name = RANKS[j] + RANKS[i] + "o"
            res = preflop.lookup(args.decks, args.players, args.stack, args.position, hist, name)
            passive = sum(a.probability for a in res.actions if a.kind in ("fold", "check"))
            cells.append(f"{100 * (1 - passive):3.0f}")
        print(" ".join(cells))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="directory for partial results")
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("matrix", help="class-vs-class equity matrices (Monte Carlo, our engine)")
    m.add_argument("--decks", type=_ints, default=list(SOLVED_DECKS))
    m.add_argument("--deals", type=int, default=em.MATRIX_DEALS)
    m.add_argument("--seed", type=int, default=em.MATRIX_SEED)
    m.add_argument("--out", type=Path, default=None)
    m.set_defaults(func=cmd_matrix)
    c = sub.add_parser("calibrate", help="fit the multi-way rule's alpha_k to engine equities")
    c.add_argument("--decks", type=_ints, default=[2, 6])
    c.add_argument("--players", type=_ints, default=[3, 4])
    c.add_argument("--tuples", type=int, default=600)
    c.add_argument("--deals", type=int, default=4000)
    c.add_argument("--seed", type=int, default=20261223)
    c.set_defaults(func=cmd_calibrate)
    v = sub.add_parser("solve", help="solve the abstract games (partial results kept in --work)")
    v.add_argument("--decks", type=_ints, default=list(SOLVED_DECKS))
    v.add_argument("--players", type=_ints, default=list(PLAYERS))
    v.add_argument("--stacks", type=_ints, default=list(STACKS))
    v.add_argument("--iterations", type=int, default=0, help="0: the shipped count for the player count")
    v.add_argument("--check-every", type=int, default=250, help="exploitability checks (0: only at the end)")
    v.add_argument("--claim", action="store_true", help="share the grid with other --claim processes")
    v.set_defaults(func=cmd_solve)
    x = sub.add_parser("crossdeck", help="exploitability of neighbouring deck counts' tables (the nearest-deck rule)")
    x.add_argument("--decks", type=_ints, default=[3, 5])
    x.add_argument("--players", type=_ints, default=[2, 3, 4])
    x.add_argument("--stacks", type=_ints, default=list(STACKS))
    x.set_defaults(func=cmd_crossdeck)
    g = sub.add_parser("grid", help="the shipped grid as Markdown (exploitability, tree, time, sizes)")
    g.set_defaults(func=cmd_grid)
    y = sub.add_parser("sanity", help="fold shares where the audit's bully won, and six-handed first-in rates")
    y.add_argument("--decks", type=_ints, default=[2, 6])
    y.set_defaults(func=cmd_sanity)
    w = sub.add_parser("show", help="print one decision of the shipped tables as a grid")
    w.add_argument("--decks", type=int, default=2)
    w.add_argument("--players", type=int, default=6)
    w.add_argument("--stack", type=float, default=100)
    w.add_argument("--position", default="UTG")
    w.add_argument("--history", default="", help="e.g. UTG:fold,HJ:raise:2.5")
    w.set_defaults(func=cmd_show)
    for name, func, helptext in (
        ("pack", cmd_pack, "pack the solves kept in --work into the shipped data files"),
        ("report", cmd_report, "print the solves kept in --work as a Markdown table"),
    ):
        k = sub.add_parser(name, help=helptext)
        k.add_argument("--decks", type=_ints, default=list(SOLVED_DECKS))
        k.add_argument("--players", type=_ints, default=list(PLAYERS))
        k.add_argument("--stacks", type=_ints, default=list(STACKS))
        k.add_argument("--iterations", type=int, default=0)
        k.add_argument("--out", type=Path, default=None)
        if name == "pack":
            k.add_argument("--keep-shipped", action="store_true",
                           help="keep the shipped tables the work directory lacks (same tree and iterations)")
        k.set_defaults(func=func)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
