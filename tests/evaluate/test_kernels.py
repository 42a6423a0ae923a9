"""The two batch kernels: the compiled one (``_kernel.c``) and its pure NumPy twin (``numpy_kernel``).

- they agree exactly on large seeded batches of multi-deck 5-, 6- and 7-card
  hands (every category, both rankings, every integer dtype), and the NumPy
  one equals the scalar evaluator;
- the NumPy ``eval_rows`` is a drop-in for the C one: same arguments, same
  rows written, same first bad row;
- ``TAIWAN_POKER_KERNEL`` chooses (``numpy`` / ``c`` / ``auto``); a missing
  kernel gives one clear warning and the NumPy path, never an ImportError
  (nor the old "circular import" one); ``=c`` without it fails clearly;
- the thread count works where ``os.sched_getaffinity`` does not exist;
- setup.py's build of the kernel is optional: without a compiler it says so
  and succeeds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from taiwan_poker.cards import Card
from taiwan_poker.evaluate import CATEGORIES, Ranking, batch, categories_of, hand_value, numpy_kernel, rank_batch
from taiwan_poker.evaluate.batch import KernelFallbackWarning, KernelUnavailableError, default_threads
from taiwan_poker.evaluate.scalar import tables

from .kernels import NO_C_KERNEL, using

ROOT = Path(__file__).resolve().parents[2]
needs_c = pytest.mark.skipif(not batch.c_kernel_available(), reason=NO_C_KERNEL)


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``n`` rows of ``k`` distinct physical cards, each row from a shoe of 1 to 8 decks (int16)."""
    size = 52 * rng.integers(1, 9, size=(n, 1))
    out = (rng.random((n, k)) * size).astype(np.int16)
    while True:
        s = np.sort(out, axis=1)
        bad = np.nonzero((s[:, 1:] == s[:, :-1]).any(axis=1))[0]
        if bad.size == 0:
            return out
        out[bad] = (rng.random((bad.size, k)) * size[bad]).astype(np.int16)


def dense_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``n`` rows of ``k`` distinct cards of an 8-deck shoe from 2-5 ranks and 1-2 suits (rare categories)."""
    rows = np.empty((n, k), dtype=np.int16)
    for i in range(n):
        ranks = rng.choice(13, size=rng.integers(2, 6), replace=False)
        suits = rng.choice(4, size=rng.integers(1, 3), replace=False)
        pool = ((np.arange(8)[:, None, None] * 52) + ranks[None, :, None] * 4 + suits[None, None, :]).ravel()
        rows[i] = rng.choice(pool, size=k, replace=False)
    return rows


def test_kernels_agree_on_large_random_multideck_batches() -> None:
    """C == NumPy on 200,000 random + 6,000 dense hands for each of k = 5, 6, 7, both rankings; NumPy == scalar."""
    rng = np.random.default_rng(20260919)
    seen: set[int] = set()
    for k in (5, 6, 7):
        arr = np.concatenate([random_hands(rng, 200_000, k), dense_hands(rng, 6_000, k)])
        for ranking in Ranking:
            with using("numpy"):
                got = rank_batch(arr, ranking)
            if batch.c_kernel_available():
                with using("c"):
                    want = rank_batch(arr, ranking)
                assert np.array_equal(got, want), np.flatnonzero(got != want)[:10]
            rows = np.append(rng.choice(len(arr), 400, replace=False), np.arange(len(arr) - 400, len(arr)))
            scalar = [hand_value([Card.from_index(int(i)) for i in arr[r]], ranking) for r in rows]
            assert got[rows].tolist() == scalar
            seen.update(categories_of(got, ranking).tolist())
    assert seen == {c.code for c in CATEGORIES}  # every category, five of a kind and straight flush included


@needs_c
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_kernels_agree_for_every_integer_dtype(dtype: type) -> None:
    rng = np.random.default_rng(7)
    top = 52 if dtype in (np.uint8, np.int8) else 416
    arr = rng.integers(0, top, size=(40_000, 7)).astype(dtype)
    with using("c"):
        want = rank_batch(arr)
    with using("numpy"):
        assert np.array_equal(rank_batch(arr), want)
        assert np.array_equal(rank_batch(arr, threads=2), want)


@needs_c
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64])
@pytest.mark.parametrize("k", [5, 7])
def test_numpy_eval_rows_is_a_drop_in_for_the_c_one(dtype: type, k: int) -> None:
    """Same arguments → same return value (first bad row or -1) and the very same rows of ``out`` written."""
    from taiwan_poker.evaluate import _kernel  # type: ignore[attr-defined]

    t = tables()
    rng = np.random.default_rng(k)
    cards = rng.integers(0, 52 if dtype is np.uint8 else 416, size=(30_000, k)).astype(dtype)
    for start, stop, bad_row in [(0, 30_000, None), (123, 29_000, None), (5, 30_000, 20_001), (0, 9, 3),
                                 (100, 100, None), (20_000, 30_000, 10)]:
        if dtype is np.uint8 and bad_row is not None:
            continue  # every uint8 value is a good index
        arr = cards.copy()
        if bad_row is not None:
            arr[bad_row, k // 2] = 416
        outs, results = [], []
        for fn in (_kernel.eval_rows, numpy_kernel.eval_rows):
            out = np.full(len(arr), 0xFFFFFFFF, dtype=np.uint32)
            args = (t.card_bits, t.card_suit, t.keys, t.nonflush[Ranking.FIVE_OF_A_KIND_HIGH],
                    t.flush[Ranking.FIVE_OF_A_KIND_HIGH], out)
            results.append(fn(arr, k, arr.dtype.itemsize, *args, start, stop))
            outs.append(out)
        assert results[0] == results[1]
        assert np.array_equal(outs[0], outs[1])
        if bad_row is not None and start <= bad_row < stop:
            assert results[1] == bad_row


def test_numpy_probe_finds_every_table_key_and_misses_absent_ones() -> None:
    """The vectorised open-addressing probe: every one of the 75,140 keys at its slot, long chains included."""
    t = tables()
    used = np.flatnonzero(t.keys)
    assert len(used) == 75_140
    assert np.array_equal(numpy_kernel.probe(t.keys, t.keys[used]), used)
    # four-card multisets and impossible counts are not in the table
    absent = np.array([4, 0x1111, 0x8, 1 << 60, (1 << 52) - 1], dtype=np.uint64)
    assert numpy_kernel.probe(t.keys, absent).tolist() == [-1] * len(absent)
    assert numpy_kernel.lookup(t.keys, t.nonflush[Ranking.FIVE_OF_A_KIND_HIGH], absent).tolist() == [0] * 5


def test_set_kernel_switches_and_rejects_unknown_names(monkeypatch: pytest.MonkeyPatch) -> None:
    with using("numpy"):
        assert batch.kernel() == "numpy"
        with pytest.raises(KernelUnavailableError, match="unknown batch kernel 'fortran'"):
            batch.set_kernel("fortran")
        assert batch.kernel() == "numpy"
    monkeypatch.setattr(batch, "_C_EVAL_ROWS", None)
    monkeypatch.setattr(batch, "C_KERNEL_ERROR", "ModuleNotFoundError: No module named 'taiwan_poker.evaluate._kernel'")
    with pytest.raises(ImportError, match=r"TAIWAN_POKER_KERNEL=numpy") as info:
        batch.set_kernel("c")
    assert "circular" not in str(info.value)


def test_default_threads_without_sched_getaffinity(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS and Windows have no os.sched_getaffinity: the CPU count is used instead."""
    if hasattr(os, "sched_getaffinity"):
        assert default_threads() == len(os.sched_getaffinity(0))
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert default_threads() == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert default_threads() == 1


# --- a fresh interpreter per case: the kernel is chosen when taiwan_poker.evaluate is first imported ---------

BLOCK_KERNEL = """
import importlib.abc, sys

class NoKernel(importlib.abc.MetaPathFinder):  # as if the extension had never been built
    def find_spec(self, name, path=None, target=None):
        if name == "taiwan_poker.evaluate._kernel":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoKernel())
"""

PROBE = """
import json, warnings
out = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        import taiwan_poker.rules  # the import that used to fail with a "circular import" error
        from taiwan_poker.cards import Card
        from taiwan_poker.evaluate import batch, hand_value, rank_batch
        rows = [[48, 49, 50, 51, 44, 0, 1], [0, 4, 8, 12, 16, 100, 200], [60, 64, 68, 72, 76]]
        out["kernel"] = batch.kernel()
        out["ok"] = [rank_batch([r]).tolist() == [hand_value([Card.from_index(i) for i in r])] for r in rows]
    except Exception as exc:
        out["error"] = [type(exc).__name__, isinstance(exc, ImportError), str(exc)]
out["warnings"] = [[w.category.__name__, str(w.message)] for w in caught]
print(json.dumps(out))
"""


def run_fresh(kernel_env: str | None, *, block: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != batch.KERNEL_ENV}
    if kernel_env is not None:
        env[batch.KERNEL_ENV] = kernel_env
    code = (BLOCK_KERNEL if block else "") + PROBE
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    result: dict[str, object] = json.loads(res.stdout.strip().splitlines()[-1])
    return result


def test_environment_variable_forces_the_numpy_kernel_without_a_warning() -> None:
    got = run_fresh("numpy", block=False)
    assert got == {"kernel": "numpy", "ok": [True, True, True], "warnings": []}
    assert run_fresh(" NumPy ", block=False)["kernel"] == "numpy"


def test_missing_kernel_falls_back_to_numpy_with_one_clear_warning() -> None:
    for env in (None, "", "auto"):
        got = run_fresh(env, block=True)
        assert got["kernel"] == "numpy" and got["ok"] == [True, True, True], got
        warnings = got["warnings"]
        assert isinstance(warnings, list) and len(warnings) == 1, warnings
        category, message = warnings[0]
        assert category == KernelFallbackWarning.__name__
        assert "compiled batch kernel is not available" in message
        assert "No module named 'taiwan_poker.evaluate._kernel'" in message
        assert "NumPy" in message and "TAIWAN_POKER_KERNEL=numpy" in message
        assert "circular" not in message


def test_forcing_the_c_kernel_when_it_is_missing_fails_clearly() -> None:
    got = run_fresh("c", block=True)
    assert "kernel" not in got
    name, is_import_error, message = got["error"]  # type: ignore[misc]
    assert name == "KernelUnavailableError" and is_import_error
    assert message.startswith("TAIWAN_POKER_KERNEL=c: the compiled batch kernel taiwan_poker.evaluate._kernel")
    assert "No module named" in message and "C compiler" in message and "TAIWAN_POKER_KERNEL=numpy" in message
    assert "circular" not in message


def test_unknown_kernel_name_fails_clearly() -> None:
    got = run_fresh("fortran", block=False)
    name, is_import_error, message = got["error"]  # type: ignore[misc]
    assert name == "KernelUnavailableError" and is_import_error
    assert message == "TAIWAN_POKER_KERNEL='fortran' is not a batch kernel: use c, numpy or auto (or unset it)"


@needs_c
def test_environment_variable_forces_the_c_kernel() -> None:
    assert run_fresh("c", block=False) == {"kernel": "c", "ok": [True, True, True], "warnings": []}
    assert run_fresh(None, block=False)["kernel"] == "c"


def test_setup_py_without_a_compiler_still_succeeds_and_says_so_once(tmp_path: Path) -> None:
    """``setup.py build_ext`` with no usable C compiler: exit 0, one clear message, no extension built (the
    table machine left to Python, TAIWAN_POKER_PURE=1, so the test does not wait for mypyc's analysis)."""
    pytest.importorskip("setuptools")
    (tmp_path / "src/taiwan_poker/evaluate").mkdir(parents=True)
    (tmp_path / "setup.py").write_text((ROOT / "setup.py").read_text())
    kernel_c = "src/taiwan_poker/evaluate/_kernel.c"
    (tmp_path / kernel_c).write_text((ROOT / kernel_c).read_text())
    env = {**os.environ, "CC": str(tmp_path / "no-such-compiler"), "TAIWAN_POKER_PURE": "1"}
    res = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "lib", "--build-temp", "tmp"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    assert res.stderr.count("could not be built") == 1
    assert "the evaluator's C kernel" in res.stderr and "NumPy" in res.stderr
    assert not list(tmp_path.rglob("_kernel*.so")) and not list(tmp_path.rglob("_kernel*.pyd"))
