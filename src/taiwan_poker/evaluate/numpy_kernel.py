"""Pure NumPy twin of the compiled batch kernel (``_kernel.c``): same arguments, same tables, same results.

:func:`eval_rows` takes exactly what ``_kernel.eval_rows`` takes and computes
the same thing, vectorised over blocks of rows:

- a card index outside 0..415 stops the scan: the rows before it are written,
  the first bad row is returned (``-1`` when every row is good);
- ``key`` = sum of ``card_bits`` over the row (rank counts, four bits a rank);
  it is looked up in the ``nonflush`` column; when a suit holds five or more
  of the row's cards (the first such suit, as in C), the sum of ``card_bits``
  over that suit's cards is looked up in the ``flush`` column and the higher
  value wins;
- a key is found by the kernel's own open-addressing probe: home slot
  ``(key * 0x9E3779B97F4A7C15 mod 2**64) >> (64 - 17)``, then the next slots
  until the key (its value) or an empty slot (value 0).

To count suits without a second pass, each card's ``card_bits`` word gets a
3-bit counter for its suit above the 52 rank-count bits (enough for 7 cards),
so one sum per row gives the key and the four suit counts.

About three times slower than the C kernel, but needs no compiler; it is
used when the extension is not built or when ``TAIWAN_POKER_KERNEL=numpy``
(see :mod:`taiwan_poker.evaluate.batch`).
"""

from __future__ import annotations

import sys

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from .tables import HASH_BITS, HASH_MULT, HASH_SIZE

MAX_INDEX = 416
BLOCK_ROWS = 16_384  # rows per vectorised step: the temporaries stay in the CPU cache
WINDOW = 8  # slots compared at once after a key's home slot

_MULT = np.uint64(HASH_MULT)
_SHIFT = np.uint64(64 - HASH_BITS)
_MASK = HASH_SIZE - 1
_EMPTY = np.uint64(0)

# Rank-count keys use the low 52 bits (13 ranks x 4 bits); above them, 3 bits a suit count that suit's cards.
_RANK_BITS = 52
_RANK_MASK = np.uint64((1 << _RANK_BITS) - 1)
_SUIT_SHIFTS = [np.uint64(_RANK_BITS + 3 * s) for s in range(4)]


def _windows(keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Row ``s``: the ``WINDOW`` table slots from slot ``s`` on, wrapping round (a view of a padded copy)."""
    global _window_cache
    cached = _window_cache
    if cached is not None and cached[0] is keys:
        return cached[1]
    padded = np.concatenate([keys[:HASH_SIZE], keys[:WINDOW]])
    windows = sliding_window_view(padded, WINDOW)[:HASH_SIZE]
    _window_cache = (keys, windows)
    return windows


_window_cache: tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]] | None = None
_LITTLE_ENDIAN = sys.byteorder == "little"


def _first_true(flags: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """Per row of an ``m x 8`` boolean array: the first True column, 8 when there is none."""
    if _LITTLE_ENDIAN and WINDOW == 8:  # the 8 flags of a row as one word: count its trailing zero bytes
        word = np.ascontiguousarray(flags).view(np.uint64).ravel()
        lowest = word & (~word + np.uint64(1))
        return (np.bitwise_count(lowest - np.uint64(1)) >> 3).astype(np.intp)
    return np.where(flags.any(axis=1), flags.argmax(axis=1), WINDOW)


def probe(keys: npt.NDArray[np.uint64], wanted: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """Slot of each wanted key in the open-addressing table, or -1 when it is not there.

    The kernel's ``lookup``: from the home slot on, the first slot holding the
    key (found) or 0 (not there).  Every key tries its home slot; the few that
    go on compare the next ``WINDOW`` slots at once, as often as needed.
    """
    slot = ((wanted * _MULT) >> _SHIFT).astype(np.intp)
    have = keys.take(slot)  # take: faster than fancy indexing on 1-D tables
    hit = have == wanted
    found = np.where(hit, slot, -1)
    todo = np.flatnonzero(~hit & (have != _EMPTY))
    if not todo.size:
        return found
    windows = _windows(keys)
    base, want = (slot[todo] + 1) & _MASK, wanted[todo]  # the first slot of each key's next window
    while todo.size:
        have = windows[base]
        first = _first_true((have == want[:, None]) | (have == _EMPTY))
        done = first < WINDOW
        rows = np.flatnonzero(done)
        at = first[rows]
        hit = have[rows, at] == want[rows]
        found[todo[rows[hit]]] = (base[rows[hit]] + at[hit]) & _MASK
        more = ~done
        todo, base, want = todo[more], (base[more] + WINDOW) & _MASK, want[more]
    return found


def lookup(
    keys: npt.NDArray[np.uint64], values: npt.NDArray[np.uint32], wanted: npt.NDArray[np.uint64]
) -> npt.NDArray[np.uint32]:
    """Values of the wanted keys, 0 for a key that is not in the table."""
    slot = probe(keys, wanted)
    out: npt.NDArray[np.uint32] = np.where(slot >= 0, values.take(slot), np.uint32(0)).astype(np.uint32, copy=False)
    return out


def card_words(card_bits: npt.NDArray[np.uint64], card_suit: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    """Per card index: its rank-count increment plus 1 in its suit's 3-bit counter (sums of up to 7 cards)."""
    suit_one = np.left_shift(np.uint64(1), np.uint64(_RANK_BITS) + np.uint64(3) * card_suit.astype(np.uint64))
    words: npt.NDArray[np.uint64] = card_bits[:MAX_INDEX] | suit_one[:MAX_INDEX]
    return words


def _first_bad(block: npt.NDArray[np.integer]) -> int:
    """Index of the first row of ``block`` holding an index outside 0..415, or -1."""
    if block.size == 0 or (int(block.min()) >= 0 and int(block.max()) < MAX_INDEX):
        return -1
    rows = np.flatnonzero(((block < 0) | (block >= MAX_INDEX)).any(axis=1))
    return int(rows[0])


def _eval_block(
    block: npt.NDArray[np.integer],
    words: npt.NDArray[np.uint64],
    card_bits: npt.NDArray[np.uint64],
    card_suit: npt.NDArray[np.uint8],
    keys: npt.NDArray[np.uint64],
    nonflush: npt.NDArray[np.uint32],
    flush: npt.NDArray[np.uint32],
) -> npt.NDArray[np.uint32]:
    """Values of a block of good rows (every index in 0..415, at most 7 a row)."""
    idx = block.T  # k x m: card position by row
    total = words.take(idx[0])
    for j in range(1, idx.shape[0]):
        total += words.take(idx[j])
    value = lookup(keys, nonflush, total & _RANK_MASK)
    # the first suit with five or more cards, as the C loop finds it (with 7 cards there is at most one)
    five = np.stack([((total >> shift) & np.uint64(7)) >= 5 for shift in _SUIT_SHIFTS])
    rows = np.flatnonzero(five.any(axis=0))
    if rows.size:
        suit = five[:, rows].argmax(axis=0).astype(np.uint8)
        sub = idx[:, rows]
        suit_key = np.where(card_suit[sub] == suit, card_bits[sub], np.uint64(0)).sum(axis=0, dtype=np.uint64)
        value[rows] = np.maximum(value[rows], lookup(keys, flush, suit_key))
    return value


def eval_rows(
    cards: npt.NDArray[np.integer],
    k: int,
    itemsize: int,
    card_bits: npt.NDArray[np.uint64],
    card_suit: npt.NDArray[np.uint8],
    keys: npt.NDArray[np.uint64],
    nonflush: npt.NDArray[np.uint32],
    flush: npt.NDArray[np.uint32],
    out: npt.NDArray[np.uint32],
    start: int,
    stop: int,
) -> int:
    """Fill ``out[start:stop]`` with the values of rows ``start..stop-1`` of ``cards``; first bad row or -1.

    The arguments are the C kernel's: ``cards`` holds rows of ``k`` card
    indices of ``itemsize`` bytes each (1 = unsigned, 2/4/8 = signed, read
    through the array's own dtype here).  ``k`` is at most 7.
    """
    arr = np.asarray(cards)
    ok = (
        1 <= k <= 7 and itemsize in (1, 2, 4, 8) and arr.dtype.kind in "iu" and arr.dtype.itemsize == itemsize
        and 0 <= start <= stop and arr.size >= stop * k and out.size >= stop
        and card_bits.size >= MAX_INDEX and card_suit.size >= MAX_INDEX
        and keys.size >= HASH_SIZE and nonflush.size >= HASH_SIZE and flush.size >= HASH_SIZE
    )
    if not ok:
        raise ValueError("eval_rows: inconsistent buffer sizes or item size")
    rows = arr.reshape(-1)[: stop * k].reshape(-1, k)
    as_read = {1: np.uint8, 2: np.int16, 4: np.int32, 8: np.int64}[itemsize]  # the kernel's reading of an item
    if rows.dtype != as_read:
        rows = rows.view(as_read)
    words = card_words(card_bits, card_suit)
    for lo in range(start, stop, BLOCK_ROWS):
        block = rows[lo : min(lo + BLOCK_ROWS, stop)]
        bad = _first_bad(block)
        if bad >= 0:
            block = block[:bad]
        if len(block):
            out[lo : lo + len(block)] = _eval_block(block, words, card_bits, card_suit, keys, nonflush, flush)
        if bad >= 0:
            return lo + bad
    return -1
