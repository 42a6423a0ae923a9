#!/usr/bin/env python3
"""Reproduce the preflop solver's shipped data: equity matrices, the multi-way calibration, the solved tables.

    .venv/bin/python scripts/solve_preflop.py matrix    [--decks 2,3,4,5,6] [--deals 40000] [--seed 20261222]
    .venv/bin/python scripts/solve_preflop.py calibrate [--decks 2,6] [--tuples 600] [--seed 20261223]
    .venv/bin/python scripts/solve_preflop.py solve     [--decks ...] [--players 2,...,6] [--stacks 10,20,...]
                                                        [--iterations N] [--out FILE]
    .venv/bin/python scripts/solve_preflop.py show      --decks 2 --players 6 --stack 100

Every step is deterministic given its seed (the solver itself has no randomness).
Long steps keep their partial results in ``--work`` (default /tmp/taiwan_poker_preflop)
and resume from them; the final files go to ``src/taiwan_poker/data/``.
See docs/strategy.md for the method and the figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from taiwan_poker.strategy import equity_matrix as em  # noqa: E402
from taiwan_poker.strategy.classes import N_CLASSES, SOLVED_DECKS  # noqa: E402

DATA = ROOT / "src" / "taiwan_poker" / "data"
DEFAULT_WORK = Path("/tmp/taiwan_poker_preflop")


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
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
