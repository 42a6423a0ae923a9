"""Vectorised sampling without replacement (NumPy ``Generator`` in, index arrays out)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def draw_distinct(rng: np.random.Generator, n: int, k: int, rows: int) -> npt.NDArray[np.int16]:
    """``rows`` independent uniform draws of ``k`` distinct values from ``0..n-1`` (n <= 32767), in draw order.

    Draw ``i`` takes ``u ~ U{0..n-1-i}`` and maps it to the ``u``-th smallest value
    not yet drawn in its row (sequential sampling without replacement), so every
    ordered ``k``-tuple of distinct values is equally likely.  The generator is
    consumed as ``k`` calls of ``rng.integers(0, n - i, size=rows, dtype=np.int64)``.
    """
    if not 0 <= k <= n or n > np.iinfo(np.int16).max:
        raise ValueError(f"cannot draw {k} distinct values from {n}")
    out = np.empty((rows, k), dtype=np.int16)
    taken = out[:, :0]
    for i in range(k):
        u = rng.integers(0, n - i, size=rows, dtype=np.int64).astype(np.int16)
        for j in range(i):  # taken is sorted ascending: skip over every value already drawn
            u += u >= taken[:, j]
        out[:, i] = u
        if i + 1 < k:
            taken = np.sort(out[:, : i + 1], axis=1)
    return out
