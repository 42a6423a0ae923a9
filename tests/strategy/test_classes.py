"""Starting classes of the solver: physical weights, identical-card classes, exact pairwise card removal."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from taiwan_poker.odds.ranges import chart_class_combos
from taiwan_poker.odds.starting import class_combinations
from taiwan_poker.strategy.classes import (
    CLASSES,
    INDEX,
    class_counts,
    class_index,
    class_of_faces,
    class_weights,
    removal_matrix,
)

IDENTICAL = [c for c in CLASSES if c.endswith("=")]


def test_182_classes_13_identical() -> None:
    assert len(CLASSES) == 182 and len(IDENTICAL) == 13


@pytest.mark.parametrize("decks", [1, 2, 3, 4, 5, 6])
def test_counts_are_every_physical_hand(decks: int) -> None:
    counts = class_counts(decks)
    assert counts.sum() == comb(52 * decks, 2)
    assert class_weights(decks).sum() == pytest.approx(1.0)
    for name in ("AA", "AA=", "AKs", "AKo"):
        text = {"AA": "AAo"}.get(name, name)
        assert counts[INDEX[name]] == class_combinations(text, decks)


def test_identical_classes_exist_only_from_two_decks() -> None:
    w1 = class_weights(1)
    assert all(w1[INDEX[c]] == 0 for c in IDENTICAL)
    assert all(w1[INDEX[c]] > 0 for c in CLASSES if c not in IDENTICAL)
    for decks in (2, 3, 6):
        assert all(class_weights(decks)[INDEX[c]] > 0 for c in IDENTICAL)


@pytest.mark.parametrize("decks", [2, 4, 6])
def test_removal_is_symmetric_and_averages_to_one(decks: int) -> None:
    j = removal_matrix(decks)
    w = class_weights(decks)
    assert np.allclose(j, j.T)
    assert np.allclose(j @ w, 1.0)


def test_removal_two_decks_aces() -> None:
    """Holding A♠A♥ at two decks: 13 of the 5,151 other hands are two aces of different suits."""
    j = removal_matrix(2)
    w = class_weights(2)
    assert j[INDEX["AA"], INDEX["AA"]] * w[INDEX["AA"]] == pytest.approx(13 / comb(102, 2))
    assert j[INDEX["AA="], INDEX["AA="]] * w[INDEX["AA="]] == pytest.approx(3 / comb(102, 2))


def test_class_names() -> None:
    assert class_index("aks") == class_index("KAs") == INDEX["AKs"]
    assert class_index("QQo") == class_index("qq") == INDEX["QQ"]
    assert class_index("QQs") == class_index("QQ=") == INDEX["QQ="]
    with pytest.raises(ValueError):
        class_index("AKx")


@given(st.integers(0, 51), st.integers(0, 51))
def test_class_of_faces_contains_the_faces(a: int, b: int) -> None:
    name = class_of_faces(a, b)
    assert (max(a, b), min(a, b)) in chart_class_combos(name)
    assert class_of_faces(b, a) == name
