"""Both batch kernels for the tests: the compiled one (``c``, skipped when not built) and the NumPy fallback.

``batch_kernel`` (a fixture, see the ``conftest.py`` files) runs a test once
per kernel; tests driven by Hypothesis (whose examples must not share a
function-scoped fixture) use :func:`using` in their body instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from taiwan_poker.evaluate import batch

NO_C_KERNEL = "the compiled kernel taiwan_poker.evaluate._kernel is not built"
C = pytest.param("c", marks=pytest.mark.skipif(not batch.c_kernel_available(), reason=NO_C_KERNEL))
KERNELS = [C, "numpy"]


@contextmanager
def using(name: str) -> Iterator[str]:
    """Run the batch evaluator on the ``name`` kernel inside the block."""
    previous = batch.set_kernel(name)
    try:
        yield name
    finally:
        batch.set_kernel(previous)


@pytest.fixture(params=KERNELS)
def batch_kernel(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test runs once on the C kernel and once on the NumPy kernel."""
    with using(request.param) as name:
        yield name
