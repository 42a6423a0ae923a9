"""Vectorised sampling without replacement (NumPy ``Generator`` in, index arrays out)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def draw_distinct(rng: np.random.Generator, n: int, k: int, rows: int) -> npt.NDArray[np.int64]:
    """``rows`` independent uniform draws of ``k`` distinct values from ``0..n-1``, in draw order.

    Draw ``i`` takes ``u ~ U{0..n-1-i}`` and maps it to the ``u``-th smallest value
    not yet drawn in its row (sequential sampling without replacement), so every
    ordered ``k``-tuple of distinct values is equally likely.  The generator is
    consumed as ``k`` calls of ``rng.integers(0, n - i, size=rows)``.
    """
    if not 0 <= k <= n:
        raise ValueError(f"cannot draw {k} distinct values from {n}")
    out = np.empty((rows, k), dtype=np.int64)
    for i in range(k):
        u = rng.integers(0, n - i, size=rows, dtype=np.int64)
        if i:
            taken = np.sort(out[:, :i], axis=1)
            for j in range(i):
                u += u >= taken[:, j]
        out[:, i] = u
    return out
