"""One BLAS thread while the solver tests run.

The solver multiplies many small matrices (182 × 182); OpenBLAS's worker
threads only spin against each other and against the other test workers on a
small machine (measured: ten times slower).  The previous thread count is put
back after this folder's tests.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator

import numpy as np  # noqa: F401  (loads OpenBLAS)
import pytest


def _openblas() -> ctypes.CDLL | None:
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line and line.split()[-1].startswith("/")}
    except OSError:
        return None
    for path in sorted(paths):
        lib = ctypes.CDLL(path)
        for prefix in ("scipy_openblas", "openblas"):
            for suffix in ("64_", ""):
                setter, getter = f"{prefix}_set_num_threads{suffix}", f"{prefix}_get_num_threads{suffix}"
                if hasattr(lib, setter) and hasattr(lib, getter):
                    lib.set_threads = getattr(lib, setter)
                    lib.get_threads = getattr(lib, getter)
                    return lib
    return None


@pytest.fixture(autouse=True, scope="package")
def one_blas_thread() -> Iterator[None]:
    lib = _openblas()
    if lib is None:
        yield
        return
    before = int(lib.get_threads())
    lib.set_threads(1)
    try:
        yield
    finally:
        lib.set_threads(before)
