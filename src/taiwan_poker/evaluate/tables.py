"""Lookup tables shared by the scalar and the batch evaluator.

Every hand of 5 to 7 cards is judged from two rank multisets: the ranks of
all its cards (everything but flushes) and, when one suit holds five or more
cards, the ranks of that suit's cards (flush and straight flush, ranks may
repeat).  A multiset is keyed by its rank counts packed four bits a rank
(``sum(1 << 4 * rank)``); there are 75,140 multisets of size 5..7 over 13
ranks.  For each key the tables hold the packed value of the best
non-flush hand and of the best flush hand, per ranking.

The tiebreak of a value is the five ranks of the best hand in comparison
order (``AAAKK``, ``KK A 9 7``, the wheel as ``5 4 3 2 A``), so it also tells
which cards make the best five.
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .categories import Category, Ranking, pack

HASH_BITS = 17
HASH_SIZE = 1 << HASH_BITS
HASH_MULT = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1
TABLE_FORMAT = 1

Ranks5 = tuple[int, ...]


def _straight_top(present: list[bool]) -> int:
    """Top rank of the best straight among the present ranks, or -1 (A-2-3-4-5 tops at 5)."""
    for top in range(12, 3, -1):
        if all(present[top - i] for i in range(5)):
            return top
    if present[12] and all(present[i] for i in range(4)):
        return 3
    return -1


def _straight_ranks(top: int) -> Ranks5:
    if top == 3:
        return (3, 2, 1, 0, 12)
    return (top, top - 1, top - 2, top - 3, top - 4)


def judge_ranks(counts: list[int]) -> tuple[Category, Ranks5]:
    """Best non-flush hand from rank counts: category and five ranks in comparison order."""
    desc = [r for r in range(12, -1, -1) if counts[r]]

    def kickers(exclude: set[int], n: int) -> list[int]:
        out: list[int] = []
        for r in desc:
            if r in exclude:
                continue
            out.extend([r] * min(counts[r], n - len(out)))
            if len(out) == n:
                break
        return out

    fives = [r for r in desc if counts[r] >= 5]
    if fives:
        return Category.FIVE_OF_A_KIND, (fives[0],) * 5
    quads = [r for r in desc if counts[r] >= 4]
    if quads:
        q = quads[0]
        return Category.FOUR_OF_A_KIND, (q, q, q, q, *kickers({q}, 1))
    trips = [r for r in desc if counts[r] >= 3]
    if trips:
        t = trips[0]
        pairs = [r for r in desc if r != t and counts[r] >= 2]
        if pairs:
            p = pairs[0]
            return Category.FULL_HOUSE, (t, t, t, p, p)
    top = _straight_top([c > 0 for c in counts])
    if top >= 0:
        return Category.STRAIGHT, _straight_ranks(top)
    if trips:
        t = trips[0]
        return Category.THREE_OF_A_KIND, (t, t, t, *kickers({t}, 2))
    pairs = [r for r in desc if counts[r] >= 2]
    if len(pairs) >= 2:
        a, b = pairs[0], pairs[1]
        return Category.TWO_PAIR, (a, a, b, b, *kickers({a, b}, 1))
    if pairs:
        p = pairs[0]
        return Category.ONE_PAIR, (p, p, *kickers({p}, 3))
    return Category.HIGH_CARD, tuple(desc[:5])


def judge_flush(counts: list[int]) -> tuple[Category, Ranks5]:
    """Best hand from the ranks of five or more cards of one suit: straight flush or flush.

    A flush keeps repeated ranks (A A K K Q of spades is a flush compared as
    A, A, K, K, Q); a straight flush needs five distinct consecutive ranks.
    """
    top = _straight_top([c > 0 for c in counts])
    if top >= 0:
        return Category.STRAIGHT_FLUSH, _straight_ranks(top)
    ranks = [r for r in range(12, -1, -1) for _ in range(counts[r])]
    return Category.FLUSH, tuple(ranks[:5])


def rank_key(ranks: tuple[int, ...]) -> int:
    """Packed rank-count key of a multiset of ranks."""
    return sum(1 << (4 * r) for r in ranks)


def hash_slot(key: int) -> int:
    """Home slot of a key in the open-addressing table (the C kernel uses the same formula)."""
    return ((key * HASH_MULT) & _MASK64) >> (64 - HASH_BITS)


def multisets() -> Iterator[tuple[int, ...]]:
    """All rank multisets of 5, 6 and 7 cards (75,140 of them)."""
    for size in (5, 6, 7):
        yield from combinations_with_replacement(range(13), size)


@dataclass(frozen=True)
class Tables:
    """The open-addressing hash table and its value columns.

    ``keys[slot]`` is a packed rank-count key (0 = empty);
    ``nonflush[ranking][slot]`` / ``flush[ranking][slot]`` its hand values.
    ``card_bits[i]`` / ``card_suit[i]`` map a physical card index (0..415)
    to its rank-count increment and suit.
    """

    keys: npt.NDArray[np.uint64]
    nonflush: dict[Ranking, npt.NDArray[np.uint32]]
    flush: dict[Ranking, npt.NDArray[np.uint32]]
    card_bits: npt.NDArray[np.uint64]
    card_suit: npt.NDArray[np.uint8]

    @property
    def nbytes(self) -> int:
        """Memory held by the arrays."""
        arrays: list[npt.NDArray[np.generic]] = [self.keys, self.card_bits, self.card_suit]
        arrays += [*self.nonflush.values(), *self.flush.values()]
        return sum(int(a.nbytes) for a in arrays)


def build_arrays() -> dict[str, npt.NDArray[np.generic]]:
    """Compute all table columns from the rules (about a second of pure Python)."""
    keys = np.zeros(HASH_SIZE, dtype=np.uint64)
    cols = {f"{kind}_{r.name}": np.zeros(HASH_SIZE, dtype=np.uint32) for kind in ("nonflush", "flush") for r in Ranking}
    for ms in multisets():
        counts = [0] * 13
        for r in ms:
            counts[r] += 1
        key = rank_key(ms)
        slot = hash_slot(key)
        while keys[slot]:
            slot = (slot + 1) & (HASH_SIZE - 1)
        keys[slot] = key
        nf = judge_ranks(counts)
        fl = judge_flush(counts)
        for ranking in Ranking:
            cols[f"nonflush_{ranking.name}"][slot] = pack(ranking, *nf)
            cols[f"flush_{ranking.name}"][slot] = pack(ranking, *fl)
    idx = np.arange(416)
    face = idx % 52
    return {
        "keys": keys,
        **cols,
        "card_bits": (np.uint64(1) << (4 * (face >> 2)).astype(np.uint64)).astype(np.uint64),
        "card_suit": (face & 3).astype(np.uint8),
    }


def _source_digest() -> str:
    """Digest of the code the tables are computed from, so a stale cache is never used."""
    here = Path(__file__).parent
    h = hashlib.sha256(str(TABLE_FORMAT).encode())
    for name in ("tables.py", "categories.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """Where computed tables are kept: ``$TAIWAN_POKER_CACHE`` or the user cache directory."""
    env = os.environ.get("TAIWAN_POKER_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "taiwan-poker"


def _from_arrays(arrays: dict[str, npt.NDArray[np.generic]]) -> Tables:
    return Tables(
        keys=arrays["keys"].astype(np.uint64, copy=False),
        nonflush={r: arrays[f"nonflush_{r.name}"].astype(np.uint32, copy=False) for r in Ranking},
        flush={r: arrays[f"flush_{r.name}"].astype(np.uint32, copy=False) for r in Ranking},
        card_bits=arrays["card_bits"].astype(np.uint64, copy=False),
        card_suit=arrays["card_suit"].astype(np.uint8, copy=False),
    )


def load_tables(*, use_cache: bool = True) -> Tables:
    """The tables, from the on-disk cache when it matches this code, else computed (and cached)."""
    path = cache_dir() / f"tables-{_source_digest()}.npz"
    if use_cache:
        try:
            with np.load(path) as data:
                return _from_arrays({k: data[k] for k in data.files})
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            pass
    arrays = build_arrays()
    if use_cache:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez(tmp, **arrays)  # type: ignore[arg-type]
            os.replace(tmp, path)
        except OSError:
            pass
    return _from_arrays(arrays)


