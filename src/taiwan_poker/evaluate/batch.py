"""Batch evaluator for the odds tools: an ``N × k`` array of card indices (k = 5..7) in, values out.

Card indices are physical (``(deck - 1) * 52 + rank * 4 + suit``, 0..415) or
plain faces (0..51, the same thing for deck 1).  Both kernels use the very
tables of the scalar evaluator, so batch and scalar always agree.

Besides :func:`rank_batch`, the equity engine's showdown counters:
:func:`showdown_exact` (every deal, exact integers) and
:func:`showdown_monte_carlo` (seeded random deals); and the scalar
``hand_value`` uses the compiled kernel when it is the one in use.

Two interchangeable kernels do the work, with identical results (Monte Carlo:
the same distribution, so equal within statistical error):

``c``
    the compiled extension ``taiwan_poker.evaluate._kernel`` (built from
    ``_kernel.c`` by ``pip install`` when a C compiler is available); it
    releases the GIL, so a large batch is split across threads.
``numpy``
    :mod:`taiwan_poker.evaluate.numpy_kernel`, pure NumPy (about three times
    slower for batches, far slower for equity); needs no compiler.  The scalar
    evaluator then runs in pure Python.

The environment variable ``TAIWAN_POKER_KERNEL`` chooses, when this module is
first imported:

- unset, empty or ``auto``: the C kernel when it is built, else the NumPy one
  with a single :class:`KernelFallbackWarning` saying why;
- ``numpy``: always the NumPy kernel (no warning);
- ``c``: the C kernel, or an :class:`KernelUnavailableError` (an
  ``ImportError``) explaining how to build it;
- anything else: :class:`KernelUnavailableError` naming the accepted values.

:func:`kernel` tells which one is in use; :func:`set_kernel` switches at run
time (tests and benchmarks).
"""

from __future__ import annotations

import importlib
import itertools
import os
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import CardCountError, CardError
from . import numpy_kernel, scalar
from .categories import DEFAULT_RANKING, TIEBREAK_BITS, Ranking
from .scalar import tables

KERNEL_ENV = "TAIWAN_POKER_KERNEL"
KERNELS = ("c", "numpy")

EvalRows = Callable[..., Any]
"""``eval_rows(cards, k, itemsize, card_bits, card_suit, keys, nonflush, flush, out, start, stop) -> bad row | -1``"""


class KernelFallbackWarning(RuntimeWarning):
    """The compiled kernel is not available: the (slower) NumPy kernel is used instead."""


class KernelUnavailableError(ImportError):
    """The kernel asked for (``TAIWAN_POKER_KERNEL`` or :func:`set_kernel`) cannot be used."""


def _import_c_kernel() -> tuple[ModuleType | None, str | None]:
    """The compiled kernel module, or None and why it could not be imported."""
    try:
        module = importlib.import_module(f"{__package__}._kernel")
    except ImportError as exc:  # not built (no compiler at install time), or built for another Python
        return None, f"{type(exc).__name__}: {exc}"
    if not hasattr(module, "mc_tally"):  # an extension built from an older _kernel.c
        return None, "ImportError: the compiled kernel is out of date (no mc_tally); rebuild it"
    return module, None


_C_MODULE, C_KERNEL_ERROR = _import_c_kernel()
_C_EVAL_ROWS: EvalRows | None = _C_MODULE.eval_rows if _C_MODULE is not None else None
_HOW_TO_BUILD = (
    "build it with a C compiler and the Python headers installed (e.g. `pip install -e .` again; "
    "on Debian: apt-get install gcc python3-dev)"
)


def c_kernel_available() -> bool:
    """Whether the compiled kernel could be imported."""
    return _C_EVAL_ROWS is not None


def _unavailable(reason: str) -> KernelUnavailableError:
    return KernelUnavailableError(
        f"{reason}: the compiled batch kernel taiwan_poker.evaluate._kernel could not be imported "
        f"({C_KERNEL_ERROR}); {_HOW_TO_BUILD}, or set {KERNEL_ENV}=numpy (or leave it unset) "
        "to use the pure NumPy kernel"
    )


def _resolve(name: str) -> tuple[str, ModuleType]:
    if name == "numpy":
        return "numpy", numpy_kernel
    if name == "c":
        if _C_EVAL_ROWS is None or _C_MODULE is None:
            raise _unavailable("the C kernel was asked for")
        return "c", _C_MODULE
    raise KernelUnavailableError(f"unknown batch kernel {name!r}: use one of {', '.join(KERNELS)} or auto")


def _initial_kernel() -> tuple[str, ModuleType]:
    choice = os.environ.get(KERNEL_ENV, "").strip().lower() or "auto"
    if choice == "auto":
        if _C_MODULE is not None:
            return "c", _C_MODULE
        warnings.warn(
            f"taiwan_poker: the compiled batch kernel is not available ({C_KERNEL_ERROR}); using the pure "
            f"NumPy kernel (same results, about three times slower). To get the fast one, {_HOW_TO_BUILD}; "
            f"set {KERNEL_ENV}=numpy to choose NumPy explicitly and silence this warning.",
            KernelFallbackWarning,
            stacklevel=1,
        )
        return "numpy", numpy_kernel
    if choice not in KERNELS:
        raise KernelUnavailableError(
            f"{KERNEL_ENV}={os.environ.get(KERNEL_ENV)!r} is not a batch kernel: use c, numpy or auto (or unset it)"
        )
    if choice == "c" and _C_MODULE is None:
        raise _unavailable(f"{KERNEL_ENV}=c")
    return _resolve(choice)


@cache
def lookup(name: str, ranking: Ranking) -> Any:
    """Kernel ``name``'s prepared table of one ranking (made once): the first argument of its equity functions."""
    module = _C_MODULE if name == "c" else numpy_kernel
    if module is None:
        raise _unavailable("the C kernel was asked for")
    t = tables()
    return module.prepare(t.keys, t.nonflush[ranking], t.flush[ranking])


def _use(name: str, module: ModuleType) -> None:
    global _kernel_name, _module, _eval_rows
    _kernel_name, _module, _eval_rows = name, module, module.eval_rows
    if name == "c":
        scalar.use_compiled(module.hand_value, lambda ranking: lookup("c", ranking))
    else:
        scalar.use_compiled(None, None)


_kernel_name: str
_module: ModuleType
_eval_rows: EvalRows
_use(*_initial_kernel())


def kernel() -> str:
    """The batch kernel in use: ``"c"`` or ``"numpy"``."""
    return _kernel_name


def set_kernel(name: str) -> str:
    """Use the ``"c"`` or ``"numpy"`` kernel from now on (the scalar evaluator too); returns the previous one.

    Raises :class:`KernelUnavailableError` for ``"c"`` when the extension is not built.
    """
    previous = _kernel_name
    _use(*_resolve(name))
    return previous


_MIN_ROWS_PER_THREAD = 32_768


@cache
def _pool(workers: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tp-eval")


def default_threads() -> int:
    """Threads used by default: the CPUs this process may run on (all CPUs where that cannot be asked)."""
    if hasattr(os, "sched_getaffinity"):  # Linux and some Unixes; not macOS or Windows
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def rank_batch(
    cards: npt.ArrayLike, ranking: Ranking = DEFAULT_RANKING, *, threads: int | None = None
) -> npt.NDArray[np.uint32]:
    """Packed hand values (same integers as the scalar ``hand_value``) for each row."""
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise CardCountError(f"expected an N x 5..7 array of card indices, got shape {arr.shape}", shape=arr.shape)
    if arr.dtype.kind not in "iu":
        raise CardError(f"card indices must be integers, not {arr.dtype}", dtype=str(arr.dtype), reason="dtype")
    if arr.dtype == np.int8 or arr.dtype == np.uint64:
        arr = arr.astype(np.int16 if arr.dtype == np.int8 else np.int64)  # the kernel reads 1-byte items unsigned
    arr = np.ascontiguousarray(arr)
    n, k = arr.shape
    out = np.empty(n, dtype=np.uint32)
    t = tables()
    args = (t.card_bits, t.card_suit, t.keys, t.nonflush[ranking], t.flush[ranking], out)
    eval_rows = _eval_rows

    def run(start: int, stop: int) -> int:
        return int(eval_rows(arr, k, arr.dtype.itemsize, *args, start, stop))

    workers = max(1, min(threads or default_threads(), n // _MIN_ROWS_PER_THREAD))
    if workers == 1:
        bad = run(0, n)
    else:
        bounds = np.linspace(0, n, workers + 1).astype(int)
        results = [r for r in _pool(workers).map(run, bounds[:-1], bounds[1:]) if r >= 0]
        bad = min(results, default=-1)
    if bad >= 0:
        raise CardError(f"row {bad} holds a card index outside 0..415", row=bad, reason="row")
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




# ------------------------------------------------------------------------------------ equity showdowns

Tally = npt.NDArray[np.int64]
"""``P x P`` counts: ``tally[i, k - 1]`` = deals in which player ``i`` holds one of exactly ``k`` best hands."""

MC_CHUNK = numpy_kernel.MC_CHUNK


def _equity_kernel(players: int) -> tuple[str, ModuleType]:
    """The kernel for an equity count: the one in use, NumPy beyond the C kernel's player limit."""
    if _kernel_name == "c" and players > _module.MAX_PLAYERS:
        return "numpy", numpy_kernel
    return _kernel_name, _module


def _int16(a: npt.ArrayLike) -> npt.NDArray[np.int16]:
    return np.ascontiguousarray(a, dtype=np.int16)


def showdown_exact(
    remaining: npt.ArrayLike,
    board: npt.ArrayLike,
    fixed: npt.ArrayLike,
    combos: Sequence[npt.ArrayLike | None],
    ranking: Ranking = DEFAULT_RANKING,
) -> tuple[Tally, int]:
    """Every deal, counted exactly: the tally over the physical deals and their number.

    All cards are faces (0..51).  ``remaining``: unseen copies of each face (52
    counts); ``board``: the known board (0, 3, 4 or 5 faces); ``fixed``: ``P x 2``
    hole faces, a row of ``-1`` for a range player; ``combos``: per player
    ``None`` (exact holding) or its range as face combos (``n x 2``).
    """
    fixed16 = _int16(fixed).reshape(-1, 2)
    players = len(fixed16)
    name, module = _equity_kernel(players)
    out = np.zeros((players, players), dtype=np.int64)
    total = module.exact_tally(
        lookup(name, ranking),
        np.ascontiguousarray(remaining, dtype=np.int32),
        _int16(board),
        fixed16,
        tuple(None if c is None else _int16(c).reshape(-1, 2) for c in combos),
        out,
    )
    return out, int(total)


def showdown_monte_carlo(
    unseen: npt.ArrayLike,
    board: npt.ArrayLike,
    fixed: npt.ArrayLike,
    pairs: Sequence[npt.ArrayLike | None],
    deals: int,
    seed: int,
    first_chunk: int = 0,
    ranking: Ranking = DEFAULT_RANKING,
    *,
    threads: int | None = None,
) -> tuple[Tally, int]:
    """``deals`` random deals, uniform over the consistent ones: their tally and the proposals rejected.

    All cards are physical indices.  ``unseen``: the cards the deals are made
    from; ``board``: the known board; ``fixed``: ``P x 2`` exact holdings, a row
    of ``-1`` otherwise; ``pairs``: per player ``None`` (exact or random) or the
    physical hands of its range (``n x 2``).  Deals come in chunks of
    :data:`MC_CHUNK`, each from its own stream seeded by ``(seed, chunk)``,
    chunks numbered from ``first_chunk``: the result depends on the seed and the
    chunks only, not on the threads (chunks are shared out among them) — a run
    continued with ``first_chunk`` past the chunks used so far draws fresh deals.
    """
    fixed16 = _int16(fixed).reshape(-1, 2)
    players = len(fixed16)
    name, module = _equity_kernel(players)
    args = (
        lookup(name, ranking),
        _int16(unseen),
        _int16(board),
        fixed16,
        tuple(None if p is None else _int16(p).reshape(-1, 2) for p in pairs),
    )
    seed64 = int(seed) % (1 << 64)

    def run(first: int, count: int) -> tuple[Tally, int]:
        out = np.zeros((players, players), dtype=np.int64)
        rejected = module.mc_tally(*args, count, seed64, first, out)
        return out, int(rejected)

    chunks = -(-deals // MC_CHUNK)
    workers = max(1, min(threads or default_threads(), chunks // 2))
    if workers == 1:
        return run(first_chunk, deals)
    cuts = [chunks * w // workers for w in range(workers + 1)]
    firsts = [first_chunk + lo for lo in cuts[:-1]]
    counts = [min((hi - lo) * MC_CHUNK, deals - lo * MC_CHUNK) for lo, hi in itertools.pairwise(cuts)]
    results = list(_pool(workers).map(run, firsts, counts))
    return sum((r[0] for r in results), np.zeros((players, players), dtype=np.int64)), sum(r[1] for r in results)
