"""The shipped class-vs-class equity matrices."""

from __future__ import annotations

import numpy as np
import pytest

from taiwan_poker.odds.charts import load_charts
from taiwan_poker.strategy.classes import CLASSES, INDEX, class_weights, removal_matrix
from taiwan_poker.strategy.equity_matrix import (
    decode_matrix,
    encode_matrix,
    load_matrix,
    matrices_from_npz,
    matrices_to_npz,
    matrix_cell,
)


def test_shipped_decks_and_provenance() -> None:
    ms = load_matrix()
    assert ms.decks == (2, 3, 4, 5, 6)
    assert ms.seed == 20261222 and ms.deals == 40_000
    assert 0 < ms.max_se < 0.003


@pytest.mark.parametrize("decks", [2, 3, 4, 5, 6])
def test_antisymmetric_and_bounded(decks: int) -> None:
    e = load_matrix().get(decks)
    assert np.allclose(e + e.T, 1.0)
    assert np.allclose(np.diag(e), 0.5)
    assert ((e >= 0) & (e <= 1)).all()


@pytest.mark.parametrize("decks", [2, 6])
def test_rows_average_to_the_preflop_charts(decks: int) -> None:
    """Each class against a random hand (the matrix weighted by prior and removal) is the shipped chart's figure."""
    e = load_matrix().get(decks)
    vs_random = (e * removal_matrix(decks)) @ class_weights(decks)
    charts = load_charts()
    chart = np.array([charts.cell(decks, c).equity for c in CLASSES])  # type: ignore[union-attr]
    assert np.abs(vs_random - chart).max() < 0.004


def test_known_matchups() -> None:
    e = load_matrix().get(2)
    assert 0.74 < e[INDEX["AA"], INDEX["KK"]] < 0.80
    assert 0.43 < e[INDEX["AKs"], INDEX["QQ"]] < 0.48
    assert e[INDEX["AA"], INDEX["72o"]] > 0.85


def test_cells_are_deterministic() -> None:
    assert matrix_cell(2, 0, 5, 2000, 7) == matrix_cell(2, 0, 5, 2000, 7)
    assert matrix_cell(2, 0, 5, 2000, 7) != matrix_cell(2, 0, 5, 2000, 8)


def test_encoding_round_trip() -> None:
    ms = load_matrix()
    back = matrices_from_npz(matrices_to_npz(dict(ms.matrices), ms.deals, ms.seed, ms.max_se))
    for d in ms.decks:
        assert np.array_equal(back.get(d), ms.get(d))
    e = ms.get(3)
    assert np.abs(decode_matrix(encode_matrix(e), 3) - e).max() <= 1 / 65535
