"""Batch evaluator for the odds tools: an ``N × k`` array of card indices (k = 5..7) in, values out.

Card indices are physical (``(deck - 1) * 52 + rank * 4 + suit``, 0..415) or
plain faces (0..51, the same thing for deck 1).  The compiled kernel uses the
very tables of the scalar evaluator, so both always agree.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np
import numpy.typing as npt

from ..errors import CardCountError, CardError
from . import _kernel  # type: ignore[attr-defined]
from .categories import DEFAULT_RANKING, TIEBREAK_BITS, Ranking
from .scalar import tables

_MIN_ROWS_PER_THREAD = 32_768


@cache
def _pool(workers: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tp-eval")


def default_threads() -> int:
    """Threads used by default: the CPUs this process may run on."""
    return max(1, len(os.sched_getaffinity(0)))


def rank_batch(
    cards: npt.ArrayLike, ranking: Ranking = DEFAULT_RANKING, *, threads: int | None = None
) -> npt.NDArray[np.uint32]:
    """Packed hand values (same integers as the scalar ``hand_value``) for each row."""
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise CardCountError(f"expected an N x 5..7 array of card indices, got shape {arr.shape}", shape=arr.shape)
    if arr.dtype.kind not in "iu":
        raise CardError(f"card indices must be integers, not {arr.dtype}", dtype=str(arr.dtype))
    if arr.dtype == np.int8 or arr.dtype == np.uint64:
        arr = arr.astype(np.int16 if arr.dtype == np.int8 else np.int64)  # the kernel reads 1-byte items unsigned
    arr = np.ascontiguousarray(arr)
    n, k = arr.shape
    out = np.empty(n, dtype=np.uint32)
    t = tables()
    args = (t.card_bits, t.card_suit, t.keys, t.nonflush[ranking], t.flush[ranking], out)

    def run(start: int, stop: int) -> int:
        return int(_kernel.eval_rows(arr, k, arr.dtype.itemsize, *args, start, stop))

    workers = max(1, min(threads or default_threads(), n // _MIN_ROWS_PER_THREAD))
    if workers == 1:
        bad = run(0, n)
    else:
        bounds = np.linspace(0, n, workers + 1).astype(int)
        results = [r for r in _pool(workers).map(run, bounds[:-1], bounds[1:]) if r >= 0]
        bad = min(results, default=-1)
    if bad >= 0:
        raise CardError(f"row {bad} holds a card index outside 0..415", row=bad)
    return out


def categories_of(values: npt.NDArray[np.uint32], ranking: Ranking = DEFAULT_RANKING) -> npt.NDArray[np.uint8]:
    """Category codes (:attr:`Category.code`, 0 = five of a kind .. 9 = high card) of packed values."""
    strength_to_code = np.array([c.code for c in reversed(ranking.order)], dtype=np.uint8)
    codes: npt.NDArray[np.uint8] = strength_to_code[values >> TIEBREAK_BITS]
    return codes


def evaluate_batch(
    cards: npt.ArrayLike, ranking: Ranking = DEFAULT_RANKING, *, threads: int | None = None
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint8]]:
    """Values and category codes for each row of card indices."""
    values = rank_batch(cards, ranking, threads=threads)
    return values, categories_of(values, ranking)


