"""LBR against Strong with another post-flop parameter file, on the same deals as against today's Strong.

A screen for changes, before the bench's long LBR run: each deal is played by LBR (both seats) against
today's Strong and against Strong with the parameters in a file (:mod:`taiwan_poker_lab.params_file`: write the
shipped set with ``python -m taiwan_poker_lab.params_file > exp.json`` and change it), in two processes; both
runs keep their own memory of LBR's habits, as the bench does.  Prints both results and their paired difference
by deal, each with a 95 % interval, in mbb/g won by LBR (the luck-adjusted score too,
:mod:`taiwan_poker_lab.luck`).  The pairing narrows the difference's interval only while the two runs' decisions
agree: once they part, habits and later hands differ.

    .venv/bin/python benchmarks/lbr_paired.py --decks 2 --seed 501 --deals 600 exp.json
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.table import Table

from taiwan_poker.bots.policies import Strong
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker.strategy.params import SHIPPED
from taiwan_poker_lab.arena import Tally, lbr_heads_up, mean_ci
from taiwan_poker_lab.params_file import load


def run(decks: int, seed: int, deals: int, params_file: str) -> Tally:
    """The bench's LBR run for this seed against Strong, with the parameters in ``params_file`` ('': shipped)."""
    params = load(params_file) if params_file else SHIPPED
    return lbr_heads_up(RuleSet(decks=decks, seats=2), Strong(params), deals, seed, luck=True)


def cell(units: list[float]) -> str:
    mean, half = mean_ci(units)
    return f"{10 * mean:+.0f} ± {10 * half:.0f}"  # bb/100 × 10: mbb/g


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("params", help="a parameter file (taiwan_poker_lab.params_file)")
    ap.add_argument("--decks", type=int, default=2)
    ap.add_argument("--seed", type=int, default=501)
    ap.add_argument("--deals", type=int, default=600)
    args = ap.parse_args()
    load(args.params)  # fail fast on a bad file
    with ProcessPoolExecutor(2) as pool:
        base, changed = pool.map(run, [args.decks] * 2, [args.seed] * 2, [args.deals] * 2, ["", args.params])
    table = Table(title=f"LBR against Strong, {args.decks} decks, seed {args.seed}: {base.hands:,} hands a run "
                        f"(mbb/g won by LBR, 95 % CI)")
    for col in ("", "result", "luck-adjusted"):
        table.add_column(col, justify="left" if not col else "right")
    table.add_row("today's Strong", cell(base.units), cell(base.adjusted))
    table.add_row(args.params, cell(changed.units), cell(changed.adjusted))
    table.add_row("difference, paired by deal", cell([c - b for c, b in zip(changed.units, base.units, strict=True)]),
                  cell([c - b for c, b in zip(changed.adjusted, base.adjusted, strict=True)]))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
