"""Starting-hand strength for the bots and the coach, by physical face pair, from the shipped preflop charts.

``preflop_equity(decks)[a, b]``: the equity of faces ``a`` and ``b`` (``rank * 4
+ suit``) against one random hand; an identical pair (``a == b``, two decks or
more) has its own cell.  ``preflop_rank(decks)[a, b]``: the share of starting
hands at least as strong (0.02 = a top-2 % hand), weighted by how many physical
hands each face pair stands for at that deck count.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from ..cards import RANKS
from ..odds.charts import load_charts

FloatGrid = npt.NDArray[np.float64]


def class_of(a: int, b: int) -> str:
    """The chart class of two faces: ``AKs``, ``AKo``, ``QQ`` or ``QQ=`` (identical)."""
    ra, rb = a // 4, b // 4
    if ra < rb:
        ra, rb, a, b = rb, ra, b, a
    if ra == rb:
        return RANKS[ra] * 2 + ("=" if a == b else "")
    return RANKS[ra] + RANKS[rb] + ("s" if a % 4 == b % 4 else "o")


@cache
def preflop_equity(decks: int) -> FloatGrid:
    """52 × 52 grid of equity against one random hand (NaN where the pair cannot occur)."""
    charts = load_charts()
    chart_decks = min(max(decks, charts.decks[0]), charts.decks[-1])
    grid = np.full((52, 52), np.nan)
    for a in range(52):
        for b in range(52):
            if a == b and decks < 2:
                continue
            cell = charts.cell(chart_decks, class_of(a, b))
            if cell is not None:
                grid[a, b] = cell.equity
    grid.setflags(write=False)
    return grid


@cache
def preflop_rank(decks: int) -> FloatGrid:
    """52 × 52 grid: the share of physical starting hands at least as strong as this one (0 best .. 1 worst)."""
    eq = preflop_equity(decks)
    weight = np.full((52, 52), float(decks * decks))
    np.fill_diagonal(weight, decks * (decks - 1) / 2)
    iu = np.triu_indices(52)  # each unordered pair once
    values = eq[iu]
    w = np.where(np.isnan(values), 0.0, weight[iu])
    order = np.argsort(-np.nan_to_num(values, nan=-1.0), kind="stable")
    cum = np.cumsum(w[order]) / w.sum()
    ranks = np.empty(len(values))
    ranks[order] = cum
    grid = np.ones((52, 52))
    grid[iu] = ranks
    grid.T[iu] = ranks
    grid.setflags(write=False)
    return grid
