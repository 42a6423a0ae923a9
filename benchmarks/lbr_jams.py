"""Where LBR's all-ins after the flop win: a diagnostic of the strongest level's answers to them.

Plays LBR against Strong heads-up (the bench's format: each deal with LBR in either seat, Strong remembering
LBR's habits over the run) and, at each of Strong's decisions facing an LBR all-in after the flop, records the
size (α = the call over the pot after it), Strong's fold probability, its own estimate of its equity and its
true share of the showdown against LBR's actual cards (exact over the run-outs left).  Prints, by street and
size, how often Strong folds, how often its hand in fact beat the price, and what its answers and calling every
jam were worth against folding, in big blinds a jam and in mbb/g over all the hands played.  These are static
values: LBR would jam other hands against another answer.

    .venv/bin/python benchmarks/lbr_jams.py --decks 2,6 --seed 401 --deals 188
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.table import Table

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.rules.actions import Action
from taiwan_poker.rules.hand import Hand
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker.strategy.policy import strategy
from taiwan_poker.strategy.seat import SeatView
from taiwan_poker_lab.arena import Memory, lbr_hand
from taiwan_poker_lab.lbr import ActionDistribution, as_distribution, probability
from taiwan_poker_lab.luck import showdown_share

BANDS = ((0.0, 0.8, "α < 0.8"), (0.8, 0.93, "0.8–0.93"), (0.93, 0.97, "0.93–0.97"), (0.97, 1.01, "≥ 0.97"))
STREETS = {1: "flop", 2: "turn", 3: "river"}


@dataclass(frozen=True, slots=True)
class Jam:
    street: int
    alpha: float
    price: float
    call_bb: float
    fold: float
    estimate: float
    true: float


def run(decks: int, seed: int, deals: int) -> tuple[list[Jam], list[float], list[float]]:
    rules = RuleSet(decks=decks, seats=2)
    strong = policy_of("strong")
    model = as_distribution(strong, (8, 3, 3, 3), seed)
    memory = Memory()
    jams: list[Jam] = []
    units: list[float] = []
    adjusted: list[float] = []
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        for lbr_seat in (0, 1):
            def trace(hand: Hand, view: SeatView, action: Action, dist: ActionDistribution | None,
                      lbr_seat: int = lbr_seat, deal_seed: int = deal_seed) -> None:
                last = view.history[-1] if view.history else None
                if (dist is None or view.street == 0 or last is None or last.seat != lbr_seat or not last.allin
                        or view.call_amount <= 0):
                    return
                plan = strategy(view)
                true = showdown_share(hand, view.seat, np.random.default_rng(deal_seed))
                jams.append(Jam(view.street, view.call_amount / view.pot, view.price(),
                                view.call_amount / rules.big_blind, probability(dist, view, -1),
                                plan.equity if plan.equity is not None else float("nan"), true))

            scores: list[float] = []
            net = lbr_hand(rules, strong, model, lbr_seat, d % 2, deal_seed, memory=memory, scores=scores,
                           trace=trace)
            units.append(net / rules.big_blind)
            adjusted.append(scores[0] / rules.big_blind)
    return jams, units, adjusted


def value(j: Jam, call_share: float) -> float:
    """Big blinds gained against folding by calling ``call_share`` of the time (the pot after the call is
    ``call / price``)."""
    return call_share * (j.true * j.call_bb / j.price - j.call_bb)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", default="2,6")
    ap.add_argument("--seed", type=int, default=401)
    ap.add_argument("--deals", type=int, default=188)
    args = ap.parse_args()
    decks = [int(x) for x in args.decks.split(",")]
    console = Console(width=170)
    with ProcessPoolExecutor(len(decks)) as pool:
        results = list(pool.map(run, decks, [args.seed] * len(decks), [args.deals] * len(decks)))
    for d, (jams, units, adjusted) in zip(decks, results, strict=True):
        hands = len(units)
        table = Table(title=f"LBR's all-ins after the flop against Strong, {d} decks: {hands:,} hands, LBR won "
                            f"{1000 * np.mean(units):+.0f} mbb/g ({1000 * np.mean(adjusted):+.0f} luck-adjusted)")
        for col in ("street", "size", "jams", "fold %", "beat the price %", "true equity", "estimate",
                    "answers, bb a jam", "calling all, bb a jam", "answers, mbb/g", "calling all, mbb/g"):
            table.add_column(col, justify="left" if col in ("street", "size") else "right")
        cells: dict[tuple[int, str], list[Jam]] = defaultdict(list)
        for j in jams:
            band = next(name for lo, hi, name in BANDS if lo <= j.alpha < hi)
            cells[j.street, band].append(j)
        for street in (1, 2, 3):
            for _, _, band in BANDS:
                cell = cells.get((street, band), [])
                if not cell:
                    continue
                n = len(cell)
                answers = sum(value(j, 1 - j.fold) for j in cell)
                every = sum(value(j, 1.0) for j in cell)
                table.add_row(STREETS[street], band, str(n), f"{100 * sum(j.fold for j in cell) / n:.0f}",
                              f"{100 * sum(j.true > j.price for j in cell) / n:.0f}",
                              f"{sum(j.true for j in cell) / n:.2f}", f"{sum(j.estimate for j in cell) / n:.2f}",
                              f"{answers / n:+.2f}", f"{every / n:+.2f}", f"{1000 * answers / hands:+.0f}",
                              f"{1000 * every / hands:+.0f}")
        console.print(table)


if __name__ == "__main__":
    main()
