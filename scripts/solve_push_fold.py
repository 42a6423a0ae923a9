#!/usr/bin/env python3
"""Solve the push-or-fold game of short stacks and pack it as package data (taiwan_poker.strategy.push_fold).

    nice -n 19 .venv/bin/python scripts/solve_push_fold.py solve [--decks 2,...,6] [--players 2,...,6]
                                                               [--stacks 5,10,15,20] [--iterations N]
    .venv/bin/python scripts/solve_push_fold.py pack
    .venv/bin/python scripts/solve_push_fold.py report

The solver is the preflop one (scripts/solve_preflop.py, docs/strategy.md): discounted CFR on the abstract tree,
deterministic. Partial results are kept in --work (default /tmp/taiwan_poker_push_fold) and resumed from.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from taiwan_poker.strategy import equity_matrix as em  # noqa: E402
from taiwan_poker.strategy.push_fold import (  # noqa: E402
    PUSH_FOLD_DECKS,
    PUSH_FOLD_FILE,
    PUSH_FOLD_FORMAT,
    PUSH_FOLD_META,
    PUSH_FOLD_STACKS,
    push_fold_key,
    push_fold_spec,
)

DATA = ROOT / "src" / "taiwan_poker" / "data"
DEFAULT_WORK = Path("/tmp/taiwan_poker_push_fold")
PLAYERS = (2, 3, 4, 5, 6)
ITERATIONS = 2000


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _grid(args: argparse.Namespace) -> list[tuple[int, int, float]]:
    return [(d, n, float(s)) for d in args.decks for n in args.players for s in args.stacks]


def _part(work: Path, key: str, iterations: int) -> Path:
    return work / f"pf_{key}_i{iterations}.npz"


def cmd_solve(args: argparse.Namespace) -> None:
    from taiwan_poker.strategy.classes import class_weights, removal_matrix
    from taiwan_poker.strategy.model import PayoffModel
    from taiwan_poker_lab.cfr import Chance, solve

    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    for d, n, stack in _grid(args):
        key = push_fold_key(d, n, stack)
        part = _part(work, key, args.iterations)
        if part.with_suffix(".json").exists():
            print(f"{key}: solved already", flush=True)
            continue
        chance = Chance(class_weights(d), removal_matrix(d), em.equity_matrix(d))
        t0 = time.time()
        res = solve(push_fold_spec(n, stack), chance, args.iterations, model=PayoffModel.for_decks(d),
                    check_every=args.check_every)
        seconds = time.time() - t0
        np.savez_compressed(part, strategy=res.strategy.astype(np.float32))
        meta = {
            "key": key, "decks": d, "players": n, "stack": stack, "iterations": res.iterations,
            "exploitability_mbb": round(res.final.mbb, 4), "nash_conv_mbb": round(1000 * res.final.nash_conv, 4),
            "values_bb": [round(v, 5) for v in res.final.values],
            "trace": [[t, round(m, 4)] for t, m in res.trace], "seconds": round(seconds, 1),
            "decisions": len(res.compiled.dec_start), "edges": res.compiled.n_edges,
            "terminals": len(res.compiled.tree.terminals),
        }
        part.with_suffix(".json").write_text(json.dumps(meta))
        print(f"{key}: {res.final.mbb:.4f} mbb after {res.iterations} iterations, {seconds:.1f} s", flush=True)


def cmd_pack(args: argparse.Namespace) -> None:
    from dataclasses import asdict

    from taiwan_poker.strategy.tables import encode, fingerprint
    from taiwan_poker.strategy.tree import build_tree
    from taiwan_poker_lab import cfr

    mats = em.load_matrix()
    arrays: dict[str, np.ndarray] = {}
    tables: dict[str, object] = {}
    for d, n, stack in _grid(args):
        key = push_fold_key(d, n, stack)
        part = _part(args.work, key, args.iterations)
        if not part.with_suffix(".json").exists():
            print(f"{key}: not solved, left out")
            continue
        meta = json.loads(part.with_suffix(".json").read_text())
        with np.load(part) as f:
            strategy = f["strategy"]
        tree = build_tree(push_fold_spec(n, stack))
        arrays[key] = encode(tree, strategy)
        tables[key] = {**meta, "fingerprint": fingerprint(tree)}
    doc = {
        "format": PUSH_FOLD_FORMAT,
        "description": (
            "Push-or-fold strategies (taiwan_poker.strategy.push_fold, docs/tournaments.md): per table "
            "d{decks}_p{players}_s{stack}, the probability (count / 255) of each action of each decision node "
            "(breadth-first order of taiwan_poker.strategy.tree.build_tree of push_fold_spec) for each of the "
            "182 classes. All-in or fold first in, call or fold facing all-ins, no antes."
        ),
        "solver": {
            "algorithm": "discounted CFR, simultaneous updates (taiwan_poker_lab.cfr)",
            "alpha": cfr.DCFR_ALPHA, "beta": cfr.DCFR_BETA, "gamma": cfr.DCFR_GAMMA,
            "randomness": "none: a solve is a pure function of the tree, the equity matrix and the iterations",
            "script": "scripts/solve_push_fold.py",
        },
        "equity_matrix": {"file": em.MATRIX_FILE, "seed": mats.seed, "deals_per_cell": mats.deals},
        "sizing": {str(n): {k: (None if v == float("inf") else v) for k, v in asdict(push_fold_spec(n, 10.0).z).items()}
                   for n in args.players},
        "tables": dict(sorted(tables.items())),
    }
    out: Path = args.out or DATA
    np.savez_compressed(out / PUSH_FOLD_FILE, **arrays)
    (out / PUSH_FOLD_META).write_text(json.dumps(doc, indent=1, allow_nan=False) + "\n")
    size = (out / PUSH_FOLD_FILE).stat().st_size + (out / PUSH_FOLD_META).stat().st_size
    print(f"wrote {len(arrays)} tables to {out} ({size:,} bytes)")


def cmd_report(args: argparse.Namespace) -> None:
    """The solves as Markdown: exploitability (mbb/hand) and seconds per table."""
    doc = json.loads((DATA / PUSH_FOLD_META).read_text())
    rows = doc["tables"].values()
    print("| players | stack (BB) | " + " | ".join(f"{d} decks" for d in args.decks) + " | seconds (all decks) |")
    print("|---|---|" + "---|" * len(args.decks) + "---|")
    for n in args.players:
        for s in args.stacks:
            cells = [next((m for m in rows if m["decks"] == d and m["players"] == n and m["stack"] == s), None)
                     for d in args.decks]
            secs = sum(m["seconds"] for m in cells if m is not None)
            print(f"| {n} | {s:g} | " + " | ".join("–" if m is None else f"{m['exploitability_mbb']:.3f}"
                                                   for m in cells) + f" | {secs:.1f} |")
    total = sum(m["seconds"] for m in rows)
    worst = max(m["exploitability_mbb"] for m in rows)
    print(f"\ntables: {len(rows)}; iterations: {sorted({m['iterations'] for m in rows})}; "
          f"seconds in all: {total:.0f}; worst exploitability: {worst:.4f} mbb/hand")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK)
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name, func in (("solve", cmd_solve), ("pack", cmd_pack), ("report", cmd_report)):
        k = sub.add_parser(name)
        k.add_argument("--decks", type=_ints, default=list(PUSH_FOLD_DECKS))
        k.add_argument("--players", type=_ints, default=list(PLAYERS))
        k.add_argument("--stacks", type=lambda t: [float(x) for x in t.split(",")], default=list(PUSH_FOLD_STACKS))
        k.add_argument("--iterations", type=int, default=ITERATIONS)
        k.add_argument("--check-every", type=int, default=500)
        k.add_argument("--out", type=Path, default=None)
        k.set_defaults(func=func)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
