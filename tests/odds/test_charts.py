"""Preflop equity charts: the shipped data file and the builder."""

from __future__ import annotations

import pytest

from taiwan_poker.odds.charts import ChartError, build_charts, load_charts, normalize_class, representative
from taiwan_poker.odds.ranges import chart_classes

# Single-deck equities vs a random hand (classic values; eval7 gives the same to ±0.1 %).
CLASSIC_ONE_DECK = {"AA": 0.852, "KK": 0.824, "QJs": 0.6025, "72o": 0.346}


def test_shipped_chart_shape() -> None:
    charts = load_charts()
    assert charts.decks == [1, 2, 3, 4, 5, 6]
    assert charts.classes == chart_classes()
    doc = charts.document
    assert doc["hands_per_cell"] >= 100_000 and doc["max_standard_error"] < 0.0015
    for d in charts.decks:
        for name in charts.classes:
            cell = charts.cell(d, name)
            if name.endswith("=") and d == 1:
                assert cell is None
                continue
            assert cell is not None
            assert 0.25 < cell.equity < 0.9 and 0 < cell.se < 0.0015
            assert cell.win <= cell.equity <= cell.win + cell.tie


def test_shipped_chart_values() -> None:
    charts = load_charts()
    for name, value in CLASSIC_ONE_DECK.items():
        cell = charts.cell(1, name)
        assert cell is not None
        assert abs(cell.equity - value) <= 4 * cell.se + 0.001, name
    # Multi-deck: aces lose a little value, identical aces are worth more than two-suit aces.
    aa1, aa2, ii2 = charts.cell(1, "AA"), charts.cell(2, "AA"), charts.cell(2, "AA=")
    assert aa1 is not None and aa2 is not None and ii2 is not None
    assert aa2.equity < aa1.equity
    assert ii2.equity > aa2.equity
    grid = charts.grid(2)
    assert len(grid) == 13 and all(len(r) == 13 for r in grid)
    assert grid[0][0] is not None and grid[0][0].name == "AA"
    assert grid[0][1] is not None and grid[0][1].name == "AKs"
    assert grid[1][0] is not None and grid[1][0].name == "AKo"


def test_names() -> None:
    assert normalize_class("aks") == "AKs"
    assert normalize_class("KAo") == "AKo"
    assert normalize_class("QQs") == "QQ="
    assert normalize_class("QQo") == "QQ"
    assert representative("AA=") == "AsAs"
    assert representative("AA") == "AsAh"
    assert representative("AKo") == "AsKh"
    with pytest.raises(ChartError):
        load_charts().cell(7, "AA")
    with pytest.raises(ChartError):
        load_charts().cell(2, "AXs")


def test_builder_is_reproducible() -> None:
    a = build_charts(decks=(2,), hands=500, seed=3)
    b = build_charts(decks=(2,), hands=500, seed=3)
    assert a == b
    assert a["decks"]["2"]["AA="] is not None
    assert len(a["decks"]["2"]) == 182
