"""Fit the multi-way rule's ``α_k`` to three- and four-way equities of our engine.

The rule (:mod:`.model`) gives player ``p`` the share ``1/k + α_k · Σ_j (E[p, j] − 1/2)``
of a ``k``-way pot.  Deals for the fit: ``k`` classes drawn at random, each
either from all hands (by the class prior) or, half of the time, from the top
30 % of hands (by equity against a random hand) so that raised pots between
strong ranges count too; each tuple's true ``k``-way equities come from a
Monte Carlo run of :func:`taiwan_poker.odds.equity.equity` (the first class as
its representative hand, the others as class ranges).  ``α_k`` is the
least-squares slope through the origin of ``share − 1/k`` on ``Σ_j (E[p, j] − 1/2)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from taiwan_poker.odds.equity import equity
from taiwan_poker.odds.ranges import parse_range
from taiwan_poker.strategy.classes import CLASSES, class_weights, range_text, removal_matrix, representative

FloatArray = npt.NDArray[np.float64]

CALIBRATION_SEED = 20261223


@dataclass(frozen=True, slots=True)
class Fit:
    """The fitted slope and how well the linear rule (and the plain ``1/k`` rule) explain the shares."""

    players: int
    decks: int
    alpha: float
    rmse: float
    rmse_equal: float  # the error of ``1/k`` for everyone (no information)
    tuples: int


def _top_classes(eq: FloatArray, decks: int, share: float) -> FloatArray:
    """Prior restricted to the best ``share`` of hands by equity against a random hand."""
    w = class_weights(decks)
    vs_random = (eq * removal_matrix(decks)) @ w
    order = np.argsort(-vs_random)
    keep = np.zeros_like(w)
    cum = 0.0
    for i in order:
        if cum >= share:
            break
        keep[i] = w[i]
        cum += w[i]
    out: FloatArray = keep / keep.sum()
    return out


def fit_alpha(
    eq: FloatArray, decks: int, players: int, tuples: int, deals: int, seed: int = CALIBRATION_SEED
) -> Fit:
    """Fit ``α_players`` at ``decks`` decks from ``tuples`` random class tuples of ``deals`` deals each."""
    rng = np.random.default_rng([seed, decks, players])
    prior = class_weights(decks)
    top = _top_classes(eq, decks, 0.30)
    xs: list[float] = []
    ys: list[float] = []
    for _ in range(tuples):
        pick = [int(rng.choice(len(CLASSES), p=top if rng.random() < 0.5 else prior)) for _ in range(players)]
        res = equity(
            representative(CLASSES[pick[0]]),
            [parse_range(range_text(CLASSES[c])) for c in pick[1:]],
            decks=decks,
            method="monte_carlo",
            precision=1e-9,
            max_hands=deals,
            seed=int(rng.integers(1 << 62)),
        )
        for p, pe in enumerate(res.players):
            xs.append(sum(eq[pick[p], pick[j]] - 0.5 for j in range(players) if j != p))
            ys.append(pe.equity - 1.0 / players)
    x = np.array(xs)
    y = np.array(ys)
    alpha = float(x @ y / (x @ x))
    rmse = float(np.sqrt(np.mean((y - alpha * x) ** 2)))
    return Fit(players, decks, alpha, rmse, float(np.sqrt(np.mean(y**2))), tuples)
