"""Starting-hand classes of the preflop solver: names, physical weights and card removal, per deck count.

The solver's hands are the 182 chart classes of :func:`taiwan_poker.odds.ranges.chart_classes`
(169 classic classes, a pair cell meaning two *different* suits, plus the 13
identical-card classes ``AA=`` … ``22=`` that exist from two decks up).  With
``d`` decks each class stands for a number of physical two-card hands:

=============  ==================  =========================
class          face combos         physical hands
=============  ==================  =========================
``QQ``         6                   ``6 d²``
``QQ=``        4                   ``4 C(d, 2)``
``AKs``        4                   ``4 d²``
``AKo``        12                  ``12 d²``
=============  ==================  =========================

which sum to ``C(52d, 2)``.  :func:`class_weights` is the prior of a random
hand; :func:`removal_matrix` is the exact card removal between two hands:
``J[i, j] = P(j | i) / P(j)``, the factor by which holding a hand of class ``i``
changes the chance that one other player holds class ``j`` (``J = 1`` would
mean no removal).  At two decks, ``J[AA, AA] ≈ 0.56``: holding two aces almost
halves the chance of meeting them.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from ..cards import RANKS, Card
from ..odds.charts import normalize_class
from ..odds.ranges import chart_class_combos, chart_classes

FloatArray = npt.NDArray[np.float64]

CLASSES: tuple[str, ...] = tuple(chart_classes())
INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}
N_CLASSES = len(CLASSES)
SOLVED_DECKS: tuple[int, ...] = (2, 3, 4, 5, 6)


class UnknownClassError(ValueError):
    """A starting-hand class name that is not one of the 182."""


def class_index(name: str) -> int:
    """Index of a class name (``AKs``, ``aks``, ``KAs``, ``QQ``, ``QQo``, ``QQ=``, ``QQs``)."""
    key = normalize_class(name)
    if len(key) == 3 and key[0] == key[1] and key[2] == "o":
        key = key[:2]
    try:
        return INDEX[key]
    except KeyError:
        raise UnknownClassError(f"unknown starting-hand class {name!r} (e.g. AA, AKs, AKo, AA=)") from None


def class_of_faces(a: int, b: int) -> str:
    """The class of two faces (``rank * 4 + suit``): ``AKs``, ``AKo``, ``QQ`` or ``QQ=`` (the same face twice)."""
    ra, rb = a // 4, b // 4
    if ra < rb:
        ra, rb, a, b = rb, ra, b, a
    if ra == rb:
        return RANKS[ra] * 2 + ("=" if a == b else "")
    return RANKS[ra] + RANKS[rb] + ("s" if a % 4 == b % 4 else "o")


def class_of_cards(first: Card, second: Card) -> str:
    """The class of two physical cards (two copies of one face make an identical pair ``XX=``)."""
    return class_of_faces(first.face, second.face)


def _remaining_physical(combos: list[tuple[int, int]], remaining: list[int]) -> int:
    return sum(comb(remaining[a], 2) if a == b else remaining[a] * remaining[b] for a, b in combos)


@cache
def _combos(name: str) -> tuple[tuple[int, int], ...]:
    return tuple(chart_class_combos(name))


def class_counts(decks: int) -> npt.NDArray[np.int64]:
    """Physical two-card hands of each class in a full ``52 * decks`` shoe (0 for ``XX=`` at one deck)."""
    full = [decks] * 52
    return np.array([_remaining_physical(list(_combos(c)), full) for c in CLASSES], dtype=np.int64)


@cache
def class_weights(decks: int) -> FloatArray:
    """Prior probability of each class for one random hand (sums to 1)."""
    counts = class_counts(decks).astype(np.float64)
    out = counts / comb(52 * decks, 2)
    out.setflags(write=False)
    return out


@cache
def removal_matrix(decks: int) -> FloatArray:
    """``J[i, j] = P(other hand in j | my hand in i) / P(j)``: exact card removal between two hands.

    Computed with one representative combo of ``i`` (every combo of a class gives
    the same counts by suit symmetry).  ``w[i] * w[j] * J[i, j]`` is the joint
    probability of the two classes, symmetric in ``i`` and ``j``.  Rows of
    classes that cannot occur (``XX=`` at one deck) are zero.
    """
    w = class_weights(decks)
    out = np.zeros((N_CLASSES, N_CLASSES))
    unseen_pairs = comb(52 * decks - 2, 2)
    for i, name in enumerate(CLASSES):
        if w[i] == 0:
            continue
        a, b = _combos(name)[0]
        remaining = [decks] * 52
        remaining[a] -= 1
        remaining[b] -= 1
        for j, other in enumerate(CLASSES):
            if w[j] > 0:
                out[i, j] = _remaining_physical(list(_combos(other)), remaining) / unseen_pairs / w[j]
    out.setflags(write=False)
    return out


def representative(name: str) -> str:
    """The two faces simulated for a class (``AA`` → ``AsAh``, ``AA=`` → ``AsAs``, ``AKs`` → ``AsKs``)."""
    hi, lo, kind = name[0], name[1], name[2:]
    if hi == lo:
        return f"{hi}s{hi}s" if kind == "=" else f"{hi}s{hi}h"
    return f"{hi}s{lo}s" if kind == "s" else f"{hi}s{lo}h"


def range_text(name: str) -> str:
    """The range text of a class for the equity engine (a pair cell ``QQ`` is ``QQo``: two different suits)."""
    if len(name) == 2:
        return name + "o"
    return name
