"""The lookup tables and their on-disk cache (``TAIWAN_POKER_CACHE``): cached tables equal freshly built ones.

Every test points the cache at its own temporary directory, so the user's
cache is never touched.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from taiwan_poker.cards import Card
from taiwan_poker.evaluate import Ranking, scalar, tables
from taiwan_poker.evaluate.tables import Tables, build_arrays, cache_dir, load_tables


@cache
def fresh() -> dict[str, np.ndarray]:
    return build_arrays()


def as_arrays(t: Tables) -> dict[str, np.ndarray]:
    out = {"keys": t.keys, "card_bits": t.card_bits, "card_suit": t.card_suit}
    for r in Ranking:
        out[f"nonflush_{r.name}"] = t.nonflush[r]
        out[f"flush_{r.name}"] = t.flush[r]
    return out


def assert_equal_to_fresh(t: Tables) -> None:
    got, want = as_arrays(t), fresh()
    assert set(got) == set(want)
    for name, arr in want.items():
        assert got[name].dtype == arr.dtype, name
        assert np.array_equal(got[name], arr), name


@pytest.fixture
def cache_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TAIWAN_POKER_CACHE", str(tmp_path / "cache"))
    assert cache_dir() == tmp_path / "cache"
    return tmp_path / "cache"


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count calls of ``build_arrays`` (each answered with a copy of one real build, to save time)."""
    calls: list[int] = []

    def counted() -> dict[str, np.ndarray]:
        calls.append(1)
        return {k: v.copy() for k, v in fresh().items()}

    monkeypatch.setattr(tables, "build_arrays", counted)
    return calls


def test_first_load_builds_and_writes_the_cache_second_load_reads_it(cache_path: Path, builds: list[int]) -> None:
    first = load_tables(use_cache=True)
    assert len(builds) == 1
    files = list(cache_path.glob("tables-*.npz"))
    assert len(files) == 1
    assert not list(cache_path.glob("*.tmp*"))  # written atomically, no leftovers
    assert_equal_to_fresh(first)
    second = load_tables(use_cache=True)
    assert len(builds) == 1  # read from the cache, not rebuilt
    assert_equal_to_fresh(second)
    with np.load(files[0]) as data:  # the file itself holds exactly the fresh columns
        assert {k: data[k].tolist() for k in data.files} == {k: v.tolist() for k, v in fresh().items()}


def test_use_cache_false_builds_without_reading_or_writing(cache_path: Path) -> None:
    t = load_tables(use_cache=False)
    assert_equal_to_fresh(t)
    assert not cache_path.exists() or not any(cache_path.iterdir())


def test_cache_file_name_carries_the_source_digest(cache_path: Path, builds: list[int]) -> None:
    """A stale cache (tables from other code) is never used: the file name holds a digest of the source."""
    load_tables(use_cache=True)
    (path,) = cache_path.glob("tables-*.npz")
    assert path.name == f"tables-{tables._source_digest()}.npz"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "missing_column"])
def test_damaged_cache_file_is_rebuilt_not_a_crash(cache_path: Path, builds: list[int], damage: str) -> None:
    load_tables(use_cache=True)
    (path,) = cache_path.glob("tables-*.npz")
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not a table")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        arrays = dict(fresh())
        del arrays["flush_FIVE_OF_A_KIND_HIGH"]
        np.savez(path, **arrays)
    assert_equal_to_fresh(load_tables(use_cache=True))
    assert len(builds) == 2  # rebuilt once …
    assert_equal_to_fresh(load_tables(use_cache=True))
    assert len(builds) == 2  # … and the repaired cache is used again


def test_process_wide_tables_equal_freshly_built_ones() -> None:
    """Whatever cache the running process loaded its tables from, they equal a fresh build."""
    assert_equal_to_fresh(scalar.tables())


def test_tables_hold_every_rank_multiset_of_5_to_7_cards() -> None:
    """C(17,5) + C(18,6) + C(19,7) = 6,188 + 18,564 + 50,388 = 75,140 keys, each distinct."""
    keys = fresh()["keys"]
    used = keys[keys != 0]
    assert used.size == 75_140
    assert np.unique(used).size == used.size
    assert scalar.tables().nbytes == sum(a.nbytes for a in fresh().values())


def test_card_columns_match_card_indices() -> None:
    bits, suits = fresh()["card_bits"], fresh()["card_suit"]
    assert bits.shape == suits.shape == (416,)
    for i in range(416):
        card = Card.from_index(i)
        assert card.index == i
        assert int(bits[i]) == 1 << (4 * card.rank)
        assert int(suits[i]) == card.suit
