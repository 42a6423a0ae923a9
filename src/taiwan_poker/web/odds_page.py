"""The Odds page's numbers, computed once by the odds core and cached.

Five-card and seven-card tables are exact (combinatorial counts); the preflop
heat map is the odds core's shipped Monte Carlo chart (each cell's standard
error is stated).  Nothing here computes odds itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from functools import cache, wraps
from typing import Any

from ..cards import RANKS
from ..errors import TaiwanPokerError
from ..evaluate import CATEGORIES
from ..odds.charts import load_charts
from ..odds.five import five_card_counts, total_hands
from ..odds.seven import seven_card_counts
from ..odds.starting import starting_hand_stats

ODDS_DECKS = (1, 2, 3, 4, 5, 6)
_LOCK = threading.RLock()


def _once(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Cache, and let concurrent first callers wait for one computation instead of repeating it."""
    cached = cache(fn)

    @wraps(fn)
    def wrapper(*args: Any) -> dict[str, Any]:
        with _LOCK:
            return cached(*args)

    return wrapper


def check_odds_decks(decks: object) -> int:
    if isinstance(decks, bool) or not isinstance(decks, int) or decks not in ODDS_DECKS:
        raise TaiwanPokerError(f"the odds page covers 1 to 6 decks, not {decks!r}", code="bad_odds_decks")
    return decks


def _pct(x: Fraction, places: int) -> str:
    return f"{float(x) * 100:.{places}f}%"


@_once
def category_table(cards: int) -> dict[str, Any]:
    """Exact best-five category distribution of ``cards`` (5 or 7) random physical cards for 1–6 decks."""
    counts = {d: (five_card_counts(d) if cards == 5 else seven_card_counts(d)) for d in ODDS_DECKS}
    totals = {d: total_hands(d, cards) for d in ODDS_DECKS}
    places = 6 if cards == 5 else 4
    rows = []
    for c in CATEGORIES:
        probs = {d: Fraction(counts[d][c], totals[d]) for d in ODDS_DECKS}
        top = max(probs.values())
        rows.append({
            "category": c.value,
            "counts": {d: counts[d][c] for d in ODDS_DECKS},
            "percent": {d: _pct(probs[d], places) for d in ODDS_DECKS},
            "value": {d: float(probs[d]) for d in ODDS_DECKS},
            "bar": {d: (float(probs[d] / top) if top else 0.0) for d in ODDS_DECKS},
        })
    return {"cards": cards, "decks": list(ODDS_DECKS), "totals": totals, "rows": rows, "method": "exact"}


@_once
def starting_table() -> dict[str, Any]:
    stats = {d: starting_hand_stats(d) for d in ODDS_DECKS}
    rows = []
    for key in ("pocket_pair", "identical", "suited", "pocket_aces"):
        fr = {d: stats[d].rows()[key] for d in ODDS_DECKS}
        rows.append({"key": key, "percent": {d: _pct(fr[d], 4) for d in ODDS_DECKS},
                     "fraction": {d: f"{fr[d].numerator}/{fr[d].denominator}" for d in ODDS_DECKS}})
    return {"decks": list(ODDS_DECKS), "total_cards": {d: stats[d].total_cards for d in ODDS_DECKS},
            "cards_per_rank": {d: stats[d].cards_per_rank for d in ODDS_DECKS}, "rows": rows, "method": "exact"}


def _cell(cell: Any) -> dict[str, Any] | None:
    if cell is None:
        return None
    return {"name": cell.name, "equity": cell.equity, "se": cell.se, "win": cell.win, "tie": cell.tie,
            "percent": f"{cell.equity * 100:.1f}", "half_width": f"{1.96 * cell.se * 100:.2f}"}


@_once
def heat_map(decks: int) -> dict[str, Any]:
    """The 13 × 13 preflop equity grid (A..2) plus the identical-card row, for one deck count."""
    charts = load_charts()
    doc = charts.document
    grid = [[_cell(c) for c in row] for row in charts.grid(decks)]
    identical = [_cell(charts.cell(decks, r * 2 + "=")) for r in reversed(RANKS)]
    return {"decks": decks, "ranks": list(reversed(RANKS)), "grid": grid, "identical": identical,
            "method": doc.get("method", "monte_carlo"), "hands_per_cell": doc.get("hands_per_cell"),
            "seed": doc.get("seed"), "max_se": doc.get("max_standard_error")}


def warm_up() -> None:
    """Compute every table once (the seven-card one takes seconds); called in the background at start-up."""
    category_table(5)
    category_table(7)
    starting_table()
    for d in ODDS_DECKS:
        heat_map(d)
