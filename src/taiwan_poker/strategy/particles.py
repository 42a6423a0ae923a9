"""Ranges as weighted physical holdings ("particles"), their strength on a board, and equities on shared run-outs.

A player's range is ``K`` two-card holdings of *physical* cards, each with a
weight.  They are drawn from a distribution over the 182 starting-hand
classes (the solved preflop tables' range for that position, or a width
read from the actions): a class by its probability, one of its face combos
uniformly, then one physical copy of each face among those the board has not
used (two different copies for an identical pair ``XX=``); the weight
corrects for the copies the board took.  Holdings are drawn from the shoe
minus the *public* cards only, so one range serves every viewer; a holding
that shares a physical card with what a viewer knows (its own hole cards and
private burn) is masked out when that viewer's equity is worked out, which is
exactly the conditioning on the viewer's cards.

A board's **run-outs** are ``R`` completions of the board drawn without
replacement from the shoe minus the board, shared by every holding, so the
holdings are compared on the same cards.  On each run-out every holding's
seven cards are evaluated once (the batch evaluator); equities of one
holding (or range) against another range are then comparisons of these
values, with pairs that share a physical card left out.

**Strength** (for reading actions) is a holding's equity against one random
hand on that board, the run-outs included (so a draw counts for what it may
become), with ``Q`` random reference hands per run-out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ..cards import CARDS_PER_DECK
from ..evaluate.batch import rank_batch
from .classes import CLASSES, N_CLASSES, _combos

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
ValueArray = npt.NDArray[np.uint32]

PARTICLES = 128  # holdings per range
RUNOUTS = {3: 48, 4: 40, 5: 1}  # run-outs by board size (the river has none to draw)
REFERENCES = 6  # random reference hands per run-out for strength


@dataclass(frozen=True, slots=True)
class Range:
    """``cards[k]`` the two physical card indices of holding ``k``, ``weights[k]`` its weight (not normalised)."""

    cards: IntArray
    weights: FloatArray

    def with_weights(self, weights: FloatArray) -> Range:
        return Range(self.cards, weights)

    @property
    def mass(self) -> float:
        return float(self.weights.sum())


@cache
def _combo_table() -> tuple[IntArray, IntArray]:
    """Every face combo of every class: ``faces[m] = (a, b)`` and ``klass[m]`` its class index."""
    faces: list[tuple[int, int]] = []
    klass: list[int] = []
    for i, name in enumerate(CLASSES):
        for a, b in _combos(name):
            faces.append((a, b))
            klass.append(i)
    return np.array(faces, dtype=np.int64), np.array(klass, dtype=np.int64)


@cache
def _combos_per_class() -> IntArray:
    _, klass = _combo_table()
    return np.bincount(klass, minlength=N_CLASSES).astype(np.int64)


def sample_range(classes: FloatArray, decks: int, board: Sequence[int], rng: np.random.Generator,
                 k: int = PARTICLES) -> Range:
    """``k`` physical holdings drawn from a class distribution, avoiding the board's physical cards."""
    faces, klass = _combo_table()
    p = np.asarray(classes, dtype=np.float64)[klass] / _combos_per_class()[klass]
    if decks < 2:
        p = np.where(faces[:, 0] == faces[:, 1], 0.0, p)
    total = p.sum()
    p = p / total if total > 0 else np.full(len(p), 1.0 / len(p))
    picks = rng.choice(len(faces), size=k, p=p)
    taken = np.zeros(CARDS_PER_DECK * decks, dtype=bool)
    taken[list(board)] = True
    free = ~taken.reshape(decks, CARDS_PER_DECK).T  # free[face, deck]
    count = free.sum(axis=1)
    decks_of = np.argsort(~free, axis=1, kind="stable")  # per face: its free decks first, in deck order
    a, b = faces[picks, 0], faces[picks, 1]
    la, lb = count[a], count[b]
    pair = a == b
    lb = np.where(pair, la - 1, lb)  # a pair's second card: one of the other free decks
    ia = np.minimum((rng.random(k) * la).astype(np.int64), np.maximum(la - 1, 0))
    ib = np.minimum((rng.random(k) * lb).astype(np.int64), np.maximum(lb - 1, 0))
    ib = np.where(pair & (ib >= ia), ib + 1, ib)
    ok = (la > 0) & (lb > 0)
    weights = np.where(ok, la * lb / (decks * np.where(pair, max(1, decks - 1), decks)), 0.0)
    cards = np.stack([decks_of[a, ia] * CARDS_PER_DECK + a, decks_of[b, ib] * CARDS_PER_DECK + b], axis=1)
    cards = np.where(ok[:, None], cards, 0).astype(np.int64)
    return Range(cards, weights)


@dataclass(frozen=True, slots=True)
class Runouts:
    """``cards[r]``: the board's completion on run-out ``r`` (physical indices; no columns on the river)."""

    board: tuple[int, ...]
    cards: IntArray  # (R, 5 - len(board))
    references: IntArray  # (R, Q, 2) random hands for strength, disjoint from board and run-out

    @property
    def count(self) -> int:
        return len(self.cards)


def draw_runouts(board: Sequence[int], decks: int, rng: np.random.Generator, count: int | None = None,
                 references: int = REFERENCES) -> Runouts:
    """``count`` completions of ``board`` and ``references`` random hands for each, all from the unseen shoe."""
    need = 5 - len(board)
    count = RUNOUTS[len(board)] if count is None else count
    mask = np.ones(CARDS_PER_DECK * decks, dtype=bool)
    mask[list(board)] = False
    stock = np.flatnonzero(mask)
    take = need + 2 * references
    rows = stock[np.argsort(rng.random((count, len(stock))), axis=1)[:, :take]]  # draws without replacement
    return Runouts(tuple(board), rows[:, :need].astype(np.int64),
                   rows[:, need:].reshape(count, references, 2).astype(np.int64))


def values(hands: IntArray, runouts: Runouts) -> ValueArray:
    """``out[n, r]``: the value of holding ``n`` on run-out ``r`` (the batch evaluator's, higher is better)."""
    n, r = len(hands), runouts.count
    cards = np.empty((n, r, 7), dtype=np.int16)
    cards[:, :, :2] = hands[:, None, :]
    b = len(runouts.board)
    cards[:, :, 2 : 2 + b] = runouts.board
    cards[:, :, 2 + b :] = runouts.cards[None, :, :]
    return rank_batch(cards.reshape(n * r, 7), threads=1).reshape(n, r)


def shared(a: IntArray, b: IntArray) -> npt.NDArray[np.bool_]:
    """``out[i, j]``: row ``i`` of ``a`` and row ``j`` of ``b`` (physical card indices) share a card."""
    out = np.zeros((len(a), len(b)), dtype=bool)
    if a.size == 0 or b.size == 0:
        return out
    holds = np.zeros((int(max(a.max(), b.max())) + 1, len(b)), dtype=bool)  # holds[card, j]: row j has it
    cols = np.arange(len(b))
    for c in range(b.shape[1]):
        holds[b[:, c], cols] = True
    for c in range(a.shape[1]):
        out |= holds[a[:, c]]
    return out


def clashes(hands: IntArray, runouts: Runouts) -> npt.NDArray[np.bool_]:
    """``out[n, r]``: holding ``n`` shares a physical card with run-out ``r``."""
    return shared(hands, runouts.cards)


def pair_clashes(a: IntArray, b: IntArray) -> npt.NDArray[np.bool_]:
    """``out[i, j]``: holding ``i`` of ``a`` and holding ``j`` of ``b`` share a physical card."""
    return shared(a, b)


def strength(hands: IntArray, vals: ValueArray, runouts: Runouts) -> FloatArray:
    """Each holding's equity against one random hand on the board, over the run-outs (reading actions)."""
    q = runouts.references.shape[1]
    refs = runouts.references.reshape(-1, 2)
    r = runouts.count
    # each reference hand is evaluated on its own run-out only
    cards = np.empty((r * q, 7), dtype=np.int16)
    cards[:, :2] = refs
    b = len(runouts.board)
    cards[:, 2 : 2 + b] = runouts.board
    cards[:, 2 + b :] = np.repeat(runouts.cards, q, axis=0)
    ref = rank_batch(cards, threads=1).reshape(r, q)
    ok = ~clashes(hands, runouts)  # (n, r)
    ref_clash = shared(hands, refs).reshape(len(hands), r, q)
    valid = ok[:, :, None] & ~ref_clash
    v, rf = vals[:, :, None], ref[None]
    wins = np.count_nonzero((v > rf) & valid, axis=(1, 2))
    ties = np.count_nonzero((v == rf) & valid, axis=(1, 2))
    total = np.count_nonzero(valid, axis=(1, 2))
    return np.where(total > 0, (wins + 0.5 * ties) / np.maximum(total, 1), 0.5)


SHOWN_RUNOUTS = 64  # run-outs (each with its reference hands) for the strength of a hand shown down


def shown_strength(hole: Sequence[int], board: Sequence[int], decks: int) -> float:
    """The strength (as :func:`strength`) of a holding shown down, on the board of one street: over run-outs
    drawn from a generator seeded by the cards, so one hand always reads the same."""
    rng = np.random.default_rng([*hole, *board, decks])
    runouts = draw_runouts(board, decks, rng, count=SHOWN_RUNOUTS)
    hands = np.array([list(hole)], dtype=np.int64)
    return float(strength(hands, values(hands, runouts), runouts)[0])


def percentiles(scores: FloatArray, weights: FloatArray) -> FloatArray:
    """Each holding's place in its own range by ``scores``: the weighted share below it plus half its own (0..1)."""
    order = np.argsort(scores, kind="stable")
    w = weights[order]
    total = w.sum()
    out = np.empty(len(scores))
    if total <= 0:
        out[order] = np.linspace(0, 1, len(scores))
        return out
    cum = np.cumsum(w) - 0.5 * w
    out[order] = cum / total
    # equal scores share one place
    s = scores[order]
    _, first, counts = np.unique(s, return_index=True, return_counts=True)
    for f, c in zip(first, counts, strict=True):
        if c > 1:
            out[order[f : f + c]] = out[order[f : f + c]].mean()
    return out


def share_of(scores: FloatArray, weights: FloatArray, score: float) -> float:
    """The weighted share of a range scoring below ``score`` (ties count half): where ``score`` would rank."""
    total = float(weights.sum())
    if total <= 0:
        return 0.5
    below = float(weights[scores < score].sum()) + 0.5 * float(weights[scores == score].sum())
    return below / total


def equity_matrix(vals_a: ValueArray, vals_b: ValueArray, ok_a: npt.NDArray[np.bool_], ok_b: npt.NDArray[np.bool_],
                  pair_ok: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
    """Wins-plus-half-ties and valid counts of each holding of ``a`` against each of ``b`` over the run-outs.

    ``vals_*`` are ``(n, R)`` values, ``ok_*`` the holdings that do not clash with each run-out, ``pair_ok[i, j]``
    the pairs that share no card.  Returns ``(score[i, j], count[i, j])``.
    """
    va, vb = vals_a[:, None, :], vals_b[None, :, :]
    valid = ok_a[:, None, :] & ok_b[None, :, :]  # the pair mask does not depend on the run-out: applied after
    wins = np.count_nonzero((va > vb) & valid, axis=2)
    ties = np.count_nonzero((va == vb) & valid, axis=2)
    count = np.count_nonzero(valid, axis=2)
    return (wins + 0.5 * ties) * pair_ok, (count * pair_ok).astype(np.float64)


def equity_against(score: FloatArray, count: FloatArray, weights: FloatArray) -> FloatArray:
    """Each row's equity against the column range with ``weights`` (rows with no valid pair: 0.5)."""
    num = score @ weights
    den = count @ weights
    return np.where(den > 0, num / np.maximum(den, 1e-12), 0.5)
