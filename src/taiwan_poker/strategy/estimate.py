"""Fast Monte Carlo equity for the bots and the coach: the hero against opponents' weighted ranges, on physical cards.

The unseen stock is every physical card of the shoe minus what the hero knows
(hole cards, own private burn, board): with several decks an opponent can hold
the hero's very faces.  Each sampled deal gives every opponent two unseen cards
and completes the board; a deal counts with the product of the opponents'
range weights for their cards (importance weighting, so a narrow range costs no
more samples than a wide one).  Evaluation runs in the batch evaluator's kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..cards import CARDS_PER_DECK, Card
from ..evaluate.batch import categories_of, rank_batch

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class RangeWeights:
    """An opponent's range: a weight for each face pair (52 × 52), and per-street reweighting of made hands.

    ``street_weights[s]`` (if given) maps the category code of the opponent's
    best hand on the board of street ``s`` (0 five of a kind .. 9 high card) to
    a factor: how much likelier that holding is after what they did on it.
    """

    faces: FloatArray
    street_weights: tuple[tuple[int, FloatArray], ...] = ()


def _unseen(known: Sequence[Card], decks: int) -> IntArray:
    mask = np.ones(CARDS_PER_DECK * decks, dtype=bool)
    mask[[c.index for c in known]] = False
    return np.flatnonzero(mask).astype(np.int64)


def _sample(unseen: IntArray, rows: int, k: int, rng: np.random.Generator) -> IntArray:
    """``rows`` draws of ``k`` distinct unseen cards (rejection of rows with a repeat; exact uniform)."""
    out: list[IntArray] = []
    have = 0
    n = len(unseen)
    keep = max(0.05, float(np.exp(-k * (k - 1) / (2 * n))))  # chance a row of k i.i.d. picks has no repeat
    while have < rows:
        want = int((rows - have) / keep * 1.1) + 8
        picks = rng.integers(0, n, size=(want, k))
        srt = np.sort(picks, axis=1)
        ok = ~(srt[:, 1:] == srt[:, :-1]).any(axis=1) if k > 1 else np.ones(want, dtype=bool)
        good = picks[ok]
        out.append(good)
        have += len(good)
    return unseen[np.concatenate(out)[:rows]]


def equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    dead: Sequence[Card],
    decks: int,
    opponents: Sequence[RangeWeights | None],
    samples: int,
    rng: np.random.Generator,
) -> float:
    """The hero's share of the pot at showdown against ``opponents`` (None: a random hand), by ``samples`` deals."""
    if not opponents:
        return 1.0
    unseen = _unseen([*hole, *board, *dead], decks)
    need = 5 - len(board)
    k = need + 2 * len(opponents)
    drawn = _sample(unseen, samples, k, rng)
    rows = len(drawn)
    cards = np.empty((rows, 7), dtype=np.int16)
    cards[:, 2 : 2 + len(board)] = [c.index for c in board]
    cards[:, 2 + len(board) :] = drawn[:, :need]
    faces = drawn % CARDS_PER_DECK
    weight = np.ones(rows)
    values = np.empty((rows, len(opponents)), dtype=np.uint32)
    for j, opp in enumerate(opponents):
        a, b = need + 2 * j, need + 2 * j + 1
        cards[:, 0] = drawn[:, a]
        cards[:, 1] = drawn[:, b]
        values[:, j] = rank_batch(cards, threads=1)
        if opp is None:
            continue
        weight *= opp.faces[faces[:, a], faces[:, b]]
        for street, factors in opp.street_weights:
            shown = 2 + 2 + street  # the opponent's two cards and the board of that street (3, 4 or 5 cards)
            codes = categories_of(rank_batch(cards[:, :shown], threads=1))
            weight *= factors[codes]
    cards[:, 0] = hole[0].index
    cards[:, 1] = hole[1].index
    hero = rank_batch(cards, threads=1)
    best = values.max(axis=1)
    ties = (values == hero[:, None]).sum(axis=1)
    share = np.where(hero > best, 1.0, np.where(hero == best, 1.0 / (ties + 1), 0.0))
    total = weight.sum()
    if total <= 0:
        return float(share.mean())
    return float((share * weight).sum() / total)

