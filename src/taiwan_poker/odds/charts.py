"""Preflop equity charts for 1–6 decks: each starting class against one random hand.

Classes (182): the 169 classic ones — ``AA`` … ``22`` (a pair cell means two
*different* suits), ``AKs`` … ``32s``, ``AKo`` … ``32o`` — plus the 13
identical-card classes ``AA=`` … ``22=`` (two copies of one face, possible
from two decks up; ``null`` at one deck).  Every combo of a class has the same
equity by suit symmetry, so each cell is simulated with one representative
combo (``As Ah``, ``As As``, ``As Ks``, ``As Kh``) against a random hand and
a random board (:mod:`taiwan_poker.odds.equity`'s sampler), with a fixed seed.

The numbers are computed once (``taiwan-poker odds charts --build``) and
shipped as ``taiwan_poker/data/preflop_equity.json``; :func:`load_charts`
reads them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from math import sqrt
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import RANKS
from ..errors import TaiwanPokerError
from ..evaluate import DEFAULT_RANKING
from .equity import _Sampler, _setup
from .ranges import chart_classes

CHART_FORMAT = 1
CHART_SEED = 20260919
CHART_DECKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
CHART_HANDS = 400_000
DATA_FILE = "preflop_equity.json"


class ChartError(TaiwanPokerError):
    code = "bad_chart"


@dataclass(frozen=True, slots=True)
class ChartCell:
    """One class at one deck count: equity (win + tie share) vs a random hand, its SE, win and tie rates."""

    name: str
    decks: int
    equity: float
    se: float
    win: float
    tie: float
    hands: int


def representative(name: str) -> str:
    """The combo simulated for a chart class (``AA`` → ``AsAh``, ``AA=`` → ``AsAs``, ``AKs`` → ``AsKs``)."""
    hi, lo, kind = name[0], name[1], name[2:]
    if hi == lo:
        return f"{hi}s{hi}s" if kind == "=" else f"{hi}s{hi}h"
    return f"{hi}s{lo}s" if kind == "s" else f"{hi}s{lo}h"


def simulate_cell(name: str, decks: int, hands: int, rng: np.random.Generator) -> ChartCell | None:
    """Monte Carlo one class against one random hand (``None`` if the class needs more decks)."""
    if name.endswith("=") and decks < 2:
        return None
    setup = _setup(representative(name), ["random"], (), decks, None, DEFAULT_RANKING)
    sampler = _Sampler(setup, rng)
    # The sampler rejects deals that reuse a physical card: draw until ``hands`` deals are kept.
    parts: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]] = []
    kept = 0
    while kept < hands:
        eq, is_best, nb, _ = sampler.batch(int((hands - kept) * 1.1) + 16)
        parts.append((eq[:, 0], is_best[:, 0] & (nb == 1)))
        kept += len(eq)
    e = np.concatenate([p[0] for p in parts])[:hands]
    sole = np.concatenate([p[1] for p in parts])[:hands]
    mean = float(e.mean())
    se = float(e.std(ddof=1) / sqrt(hands))
    win = float(sole.mean())
    tie = float(((e > 0) & ~sole).mean())
    return ChartCell(name, decks, mean, se, win, tie, hands)


def build_charts(
    decks: Sequence[int] = CHART_DECKS,
    hands: int = CHART_HANDS,
    seed: int = CHART_SEED,
    *,
    progress: Callable[[int, str], None] | None = None,
) -> dict[str, Any]:
    """Compute the chart document (one generator through the deck counts in order, classes in chart order)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    classes = chart_classes()
    table: dict[str, dict[str, list[float | int] | None]] = {}
    worst = 0.0
    for d in decks:
        row: dict[str, list[float | int] | None] = {}
        for name in classes:
            cell = simulate_cell(name, d, hands, rng)
            if cell is None:
                row[name] = None
            else:
                row[name] = [round(cell.equity, 6), round(cell.se, 6), round(cell.win, 6), round(cell.tie, 6)]
                worst = max(worst, cell.se)
            if progress is not None:
                progress(d, name)
        table[str(d)] = row
    return {
        "format": CHART_FORMAT,
        "description": (
            "Preflop equity of each starting class against one random hand, heads-up, board dealt to the river; "
            "equity = win + tie/2. Pair cells 'XX' are two different suits; 'XX=' two identical cards (2+ decks)."
        ),
        "method": "monte_carlo",
        "seed": seed,
        "hands_per_cell": hands,
        "max_standard_error": round(worst, 6),
        "precision_note": (
            f"each cell: {hands:,} simulated hands; standard error at most {worst:.5f} "
            f"(95% interval about ±{1.96 * worst:.4f})"
        ),
        "columns": ["equity", "se", "win", "tie"],
        "classes": classes,
        "decks": table,
    }


@dataclass(frozen=True, slots=True)
class PreflopCharts:
    """The shipped chart data."""

    document: dict[str, Any]

    @property
    def decks(self) -> list[int]:
        return sorted(int(d) for d in self.document["decks"])

    @property
    def classes(self) -> list[str]:
        return list(self.document["classes"])

    def cell(self, decks: int, name: str) -> ChartCell | None:
        """The cell of a class at a deck count (``None`` for ``XX=`` at one deck)."""
        row = self.document["decks"].get(str(decks))
        if row is None:
            raise ChartError(f"the chart has no data for {decks} deck(s) (it covers {self.decks})", decks=decks)
        key = normalize_class(name)
        if key not in row:
            raise ChartError(f"unknown starting class {name!r} (e.g. AA, AKs, AKo, AA=)", name=name)
        v = row[key]
        if v is None:
            return None
        return ChartCell(key, decks, v[0], v[1], v[2], v[3], int(self.document["hands_per_cell"]))

    def grid(self, decks: int) -> list[list[ChartCell | None]]:
        """13 × 13 grid, row/column A..2: pairs on the diagonal, suited above it, offsuit below."""
        out: list[list[ChartCell | None]] = []
        order = list(range(12, -1, -1))
        for i in order:
            row: list[ChartCell | None] = []
            for j in order:
                if i == j:
                    name = RANKS[i] * 2
                elif i > j:
                    name = RANKS[i] + RANKS[j] + "s"
                else:
                    name = RANKS[j] + RANKS[i] + "o"
                row.append(self.cell(decks, name))
            out.append(row)
        return out


def normalize_class(name: str) -> str:
    """``aks`` → ``AKs``, ``KA o`` → ``AKo``, ``QQs`` → ``QQ=`` (chart key form)."""
    text = name.strip().replace(" ", "")
    if len(text) < 2:
        return text
    r1, r2 = text[0].upper(), text[1].upper()
    kind = text[2:].lower()
    if r1 in RANKS and r2 in RANKS and RANKS.index(r2) > RANKS.index(r1):
        r1, r2 = r2, r1
    if r1 == r2:
        if kind in ("=", "s"):
            return r1 + r2 + "="
        if kind == "o":
            return r1 + r2
    return r1 + r2 + kind


@cache
def load_charts() -> PreflopCharts:
    """The shipped charts (``taiwan_poker/data/preflop_equity.json``)."""
    try:
        text = resources.files("taiwan_poker").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise ChartError("the preflop chart data file is missing; run `taiwan-poker odds charts --build`") from exc
    doc = json.loads(text)
    if doc.get("format") != CHART_FORMAT:
        raise ChartError(f"chart data format {doc.get('format')!r} is not {CHART_FORMAT}")
    return PreflopCharts(doc)


def preflop_equity(decks: int, name: str) -> ChartCell | None:
    """Shortcut: the shipped chart cell of a class at a deck count."""
    return load_charts().cell(decks, name)
