"""Heads-up equity of every starting class against every other, per deck count (the solver's showdown table).

``E[i, j]`` is the share of the pot (win + tie / 2) that a hand of class ``i``
wins against one hand of class ``j`` when the five board cards are dealt, with
the physical cards of both hands removed from the shoe (card removal between
the two hands and the board is exact; the matrix averages over every physical
hand of ``j`` given one representative hand of ``i``, which by suit symmetry
stands for them all).  Each cell ``i < j`` is a Monte Carlo run of our
equity engine (:func:`taiwan_poker.odds.equity.equity`, the same C or NumPy
kernel as the odds tools) with its own seed derived from ``(seed, decks, i,
j)``; ``E[j, i] = 1 - E[i, j]`` and ``E[i, i] = 1/2`` by symmetry.

The tables are built once (``scripts/solve_preflop.py matrix``) and shipped as
``taiwan_poker/data/preflop_matrix.npz``; :func:`load_matrix` reads them.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from ..odds.equity import equity
from ..odds.ranges import parse_range
from .classes import CLASSES, N_CLASSES, SOLVED_DECKS, class_weights, range_text, representative

FloatArray = npt.NDArray[np.float64]

MATRIX_FILE = "preflop_matrix.npz"
MATRIX_SEED = 20261222
MATRIX_DEALS = 40_000
QUANT = 65535  # equities are stored as uint16 fractions of this


def cell_seed(seed: int, decks: int, i: int, j: int) -> int:
    """The Monte Carlo seed of one cell (independent of the order the cells are computed in)."""
    state = np.random.SeedSequence([seed, decks, i, j]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


def matrix_cell(decks: int, i: int, j: int, deals: int, seed: int) -> tuple[float, float]:
    """Equity of class ``i`` against class ``j`` (and its standard error) from ``deals`` random deals."""
    res = equity(
        representative(CLASSES[i]),
        [parse_range(range_text(CLASSES[j]))],
        decks=decks,
        method="monte_carlo",
        precision=1e-9,
        max_hands=deals,
        seed=cell_seed(seed, decks, i, j),
    )
    hero = res.players[0]
    return hero.equity, float(hero.equity_se or 0.0)


def build_matrix(
    decks: int,
    deals: int = MATRIX_DEALS,
    seed: int = MATRIX_SEED,
    *,
    progress: Callable[[int], None] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """The equity matrix at ``decks`` decks and the standard error of each cell (NaN rows for impossible classes)."""
    w = class_weights(decks)
    eq = np.full((N_CLASSES, N_CLASSES), np.nan)
    se = np.zeros((N_CLASSES, N_CLASSES))
    for i in range(N_CLASSES):
        if w[i] == 0:
            continue
        eq[i, i] = 0.5
        for j in range(i + 1, N_CLASSES):
            if w[j] == 0:
                continue
            e, s = matrix_cell(decks, i, j, deals, seed)
            eq[i, j], eq[j, i] = e, 1.0 - e
            se[i, j] = se[j, i] = s
        if progress is not None:
            progress(i)
    return eq, se


def encode_matrix(eq: FloatArray) -> npt.NDArray[np.uint16]:
    """Quantise to uint16 (NaN → 0); the upper triangle is rounded and the lower one mirrors it exactly."""
    q = np.round(np.nan_to_num(eq, nan=0.0) * QUANT).astype(np.int64)
    iu = np.triu_indices(N_CLASSES, 1)
    q.T[iu] = QUANT - q[iu]
    np.fill_diagonal(q, 0)
    return q.astype(np.uint16)


def decode_matrix(q: npt.NDArray[np.uint16], decks: int) -> FloatArray:
    """The inverse of :func:`encode_matrix`: ``E[i, j] + E[j, i] = 1``, the diagonal 1/2, NaN where impossible."""
    eq = q.astype(np.float64) / QUANT
    np.fill_diagonal(eq, 0.5)
    absent = class_weights(decks) == 0
    eq[absent, :] = np.nan
    eq[:, absent] = np.nan
    return eq


@dataclass(frozen=True, slots=True)
class MatrixSet:
    """The shipped matrices: one per deck count, with how they were made."""

    decks: tuple[int, ...]
    matrices: dict[int, FloatArray]
    deals: int
    seed: int
    max_se: float

    def get(self, decks: int) -> FloatArray:
        if decks not in self.matrices:
            raise KeyError(f"no equity matrix for {decks} decks (have {list(self.decks)})")
        return self.matrices[decks]


def matrices_to_npz(
    matrices: dict[int, FloatArray], deals: int, seed: int, max_se: float
) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays of the data file (the script writes them with ``np.savez_compressed``)."""
    out: dict[str, npt.NDArray[np.generic]] = {
        f"decks_{d}": encode_matrix(m) for d, m in sorted(matrices.items())
    }
    out["meta"] = np.array([deals, seed, round(max_se * 1e9)], dtype=np.int64)
    out["classes"] = np.array(CLASSES)
    return out


def matrices_from_npz(data: dict[str, npt.NDArray[np.generic]] | np.lib.npyio.NpzFile) -> MatrixSet:
    """Read the arrays written by :func:`matrices_to_npz`."""
    if tuple(str(c) for c in data["classes"]) != CLASSES:
        raise ValueError("the equity matrix file lists other classes than this code")
    decks = tuple(sorted(int(k.split("_")[1]) for k in data if str(k).startswith("decks_")))
    mats = {d: decode_matrix(np.asarray(data[f"decks_{d}"], dtype=np.uint16), d) for d in decks}
    for m in mats.values():
        m.setflags(write=False)
    meta = np.asarray(data["meta"])
    return MatrixSet(decks, mats, int(meta[0]), int(meta[1]), float(meta[2]) / 1e9)


@cache
def load_matrix() -> MatrixSet:
    """The shipped equity matrices (``taiwan_poker/data/preflop_matrix.npz``)."""
    raw = resources.files("taiwan_poker").joinpath("data", MATRIX_FILE).read_bytes()
    with np.load(io.BytesIO(raw)) as data:
        return matrices_from_npz({k: data[k] for k in data.files})


def equity_matrix(decks: int) -> FloatArray:
    """The shipped heads-up class-vs-class equity matrix at ``decks`` decks (2–6)."""
    return load_matrix().get(decks)


def deck_counts() -> Sequence[int]:
    return SOLVED_DECKS
