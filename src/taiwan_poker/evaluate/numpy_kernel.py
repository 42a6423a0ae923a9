"""Pure NumPy twin of the compiled kernel (``_kernel.c``): same arguments, same tables, same results.

Each function takes exactly what its C namesake takes:

- :func:`eval_rows`: the batch evaluator (below);
- :func:`prepare`: one ranking's table columns for the equity functions (a :class:`Lookup`);
- :func:`exact_tally`: exact showdown tallies over every deal, by face patterns — the very integers of the C
  one;
- :func:`mc_tally`: Monte Carlo showdown tallies — the same distribution as the C one (uniform over the
  consistent deals), drawn by NumPy's generator, so equal to it within statistical error, not draw for draw.

A *tally* is a ``P x P`` int64 matrix: ``counts[i, k - 1]`` is the number of deals (exact: physical deals)
in which player ``i`` holds one of exactly ``k`` best hands.

:func:`eval_rows` computes, vectorised over blocks of rows:

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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from .tables import HASH_BITS, HASH_MULT, HASH_SIZE

MAX_INDEX = 416
MC_CHUNK = 16_384  # Monte Carlo deals per random stream (the C kernel's MC_CHUNK)
MAX_REJECT_ROWS = 1_000_000  # a Monte Carlo draw of this many rows with no consistent deal gives up
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


# ------------------------------------------------------------------------------------------- equity


@dataclass(frozen=True, slots=True)
class Lookup:
    """One ranking's table columns and the per-card words, as :func:`prepare` returns them."""

    keys: npt.NDArray[np.uint64]
    nonflush: npt.NDArray[np.uint32]
    flush: npt.NDArray[np.uint32]
    card_bits: npt.NDArray[np.uint64]
    card_suit: npt.NDArray[np.uint8]

    def values(self, rows: npt.NDArray[np.integer]) -> npt.NDArray[np.uint32]:
        """Values of an ``N x k`` array of good card indices."""
        rows = np.ascontiguousarray(rows)
        out = np.empty(len(rows), dtype=np.uint32)
        args = (self.card_bits, self.card_suit, self.keys, self.nonflush, self.flush, out)
        eval_rows(rows, rows.shape[1], rows.dtype.itemsize, *args, 0, len(rows))
        return out


def prepare(keys: npt.NDArray[np.uint64], nonflush: npt.NDArray[np.uint32], flush: npt.NDArray[np.uint32]) -> Lookup:
    """The :class:`Lookup` of one ranking's columns (the C one packs them into a table of its own)."""
    if keys.size < HASH_SIZE or nonflush.size < HASH_SIZE or flush.size < HASH_SIZE:
        raise ValueError("prepare: the table columns are too short")
    face = np.arange(MAX_INDEX) % 52
    card_bits = np.left_shift(np.uint64(1), (4 * (face >> 2)).astype(np.uint64))
    return Lookup(keys, nonflush, flush, card_bits, (face & 3).astype(np.uint8))


def _tally(values: npt.NDArray[np.uint32], weight: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    """Add deals (rows of player values, with weights) to the ``P x P`` tally ``out`` (flat or square)."""
    nplayers = values.shape[1]
    counts = out.reshape(nplayers, nplayers)
    is_best = values == values.max(axis=1)[:, None]
    nb = is_best.sum(axis=1)
    for k in range(1, nplayers + 1):
        rows = nb == k
        if rows.any():
            counts[:, k - 1] += (is_best[rows] * weight[rows, None]).sum(axis=0)


def _board_multisets(
    remaining: npt.NDArray[np.int64], size: int
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64]]:
    """All face multisets (non-decreasing rows) and their physical counts ``prod C(r_f, m_f)``."""
    r = remaining
    rows = np.zeros((1, 0), dtype=np.int16)
    run = np.zeros(1, dtype=np.int64)  # copies of the last face at the tail of each row
    faces = np.arange(52, dtype=np.int16)
    num = np.ones(1, dtype=np.int64)
    den = np.ones(1, dtype=np.int64)
    for step in range(size):
        if step == 0:
            ok = np.broadcast_to(r > 0, (1, 52))
        else:
            last = rows[:, -1].astype(np.int64)
            ok = (faces[None, :] > last[:, None]) & (r[None, :] > 0)
            ok |= (faces[None, :] == last[:, None]) & (run[:, None] < r[last][:, None])
        ri, fi = np.nonzero(ok)
        new_face = faces[fi]
        if step == 0:
            new_run = np.ones(len(fi), dtype=np.int64)
        else:
            same = rows[ri, -1] == new_face
            new_run = np.where(same, run[ri] + 1, 1)
        num = num[ri] * (r[fi] - (new_run - 1))
        den = den[ri] * new_run
        rows = np.concatenate([rows[ri], new_face[:, None]], axis=1)
        run = new_run
    return rows, num // den


def _pair_factor(
    placed: npt.NDArray[np.int16], a: npt.NDArray[np.int16], b: npt.NDArray[np.int16], r: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Physical ways to give faces (a, b) given the faces already placed in each row."""
    used_a = (placed == a[:, None]).sum(axis=1) if placed.shape[1] else np.zeros(len(a), dtype=np.int64)
    used_b = (placed == b[:, None]).sum(axis=1) if placed.shape[1] else np.zeros(len(b), dtype=np.int64)
    left_a = r[a] - used_a
    left_b = r[b] - used_b
    same = a == b
    return np.where(same, left_a * (left_a - 1) // 2, left_a * left_b).astype(np.int64)


def exact_tally(
    lookup: Lookup,
    remaining: npt.NDArray[np.int32],
    board: npt.NDArray[np.int16],
    fixed: npt.NDArray[np.int16],
    combos: Sequence[npt.NDArray[np.int16] | None],
    out: npt.NDArray[np.int64],
) -> int:
    """Tally every deal into ``out`` (``P x P`` int64, overwritten); returns the physical deals counted.

    ``remaining``: unseen copies of each face (52); ``board``: the known board faces (0, 3, 4 or 5);
    ``fixed``: ``P x 2`` faces of the exact holdings, ``-1`` for a range; ``combos``: per player ``None``
    (exact) or the range's face combos (``n x 2``).  Deals are enumerated as face patterns — the board
    completion as a face multiset weighted by ``prod C(r_f, m_f)``, then each range player's combo in turn
    weighted by the copies left — so the counts are those of the physical deals.
    """
    fixed = np.asarray(fixed, dtype=np.int16).reshape(-1, 2)
    nplayers = len(fixed)
    if remaining.size != 52 or len(board) > 5 or len(combos) != nplayers or out.size < nplayers * nplayers:
        raise ValueError("exact_tally: inconsistent arguments")
    r = np.asarray(remaining, dtype=np.int64)
    need = 5 - len(board)
    board_rows, weight = _board_multisets(r, need)
    board_id = np.arange(len(board_rows), dtype=np.int64)
    placed = board_rows
    hand_cols: dict[int, tuple[int, int]] = {}
    for i, player_combos in enumerate(combos):
        if player_combos is None:
            continue
        pc = np.asarray(player_combos, dtype=np.int16).reshape(-1, 2)
        n_rows, n_c = len(placed), len(pc)
        ri = np.repeat(np.arange(n_rows), n_c)
        ci = np.tile(np.arange(n_c), n_rows)
        a, b = pc[ci, 0], pc[ci, 1]
        factor = _pair_factor(placed[ri], a, b, r)
        keep = factor > 0
        ri, a, b, factor = ri[keep], a[keep], b[keep], factor[keep]
        col = placed.shape[1]
        placed = np.concatenate([placed[ri], a[:, None], b[:, None]], axis=1)
        weight = weight[ri] * factor
        board_id = board_id[ri]
        hand_cols[i] = (col, col + 1)
    n = len(placed)
    known = np.asarray(board, dtype=np.int16)
    values = np.empty((n, nplayers), dtype=np.uint32)
    for i in range(nplayers):
        if i not in hand_cols:  # an exact holding depends only on the board: judge each board once
            arr = np.empty((len(board_rows), 7), dtype=np.int16)
            arr[:, :2] = fixed[i]
            arr[:, 2 : 2 + len(known)] = known
            arr[:, 2 + len(known) :] = board_rows
            values[:, i] = lookup.values(arr)[board_id]
        else:
            c0, c1 = hand_cols[i]
            arr = np.empty((n, 7), dtype=np.int16)
            arr[:, 0] = placed[:, c0]
            arr[:, 1] = placed[:, c1]
            arr[:, 2 : 2 + len(known)] = known
            arr[:, 2 + len(known) :] = placed[:, :need]
            values[:, i] = lookup.values(arr)
    flat = out.reshape(-1)[: nplayers * nplayers]
    flat[:] = 0
    _tally(values, weight, flat)
    return int(weight.sum())


def sample_deals(
    rng: np.random.Generator,
    unseen: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    fixed: npt.NDArray[np.int16],
    pairs: Sequence[npt.NDArray[np.int16] | None],
    rows: int,
) -> tuple[npt.NDArray[np.int16], int]:
    """Up to ``rows`` deals (``n x P x 7`` physical indices: hole cards, then the board) and the number rejected.

    Proposal: the board completion and the random players' cards i.i.d. uniform over the ``unseen`` cards
    (one ``rng.integers(0, len(unseen), (rows, k))``), then each range player (``pairs[i]``: its physical
    hands) a uniform hand of its range (one ``rng.integers`` each, in player order); rows where two cards
    coincide are rejected, which leaves the kept rows exactly uniform over the consistent deals.
    """
    nplayers = len(fixed)
    random_players = [i for i in range(nplayers) if fixed[i, 0] < 0 and pairs[i] is None]
    range_players = [i for i in range(nplayers) if pairs[i] is not None]
    need = 5 - len(board)
    k = need + 2 * len(random_players)
    drawn = np.asarray(unseen, dtype=np.int64)[rng.integers(0, len(unseen), size=(rows, k))]
    picks: dict[int, npt.NDArray[np.int16]] = {}
    for i in range_players:
        hands = pairs[i]
        assert hands is not None
        picks[i] = hands[rng.integers(0, len(hands), size=rows)]
    rejected = 0
    if picks or k > 1:
        allc = np.concatenate([drawn, *picks.values()], axis=1).astype(np.int16)
        allc.sort(axis=1)
        ok = ~(allc[:, 1:] == allc[:, :-1]).any(axis=1)
        rejected = int(rows - ok.sum())
        if rejected:
            drawn = drawn[ok]
            picks = {i: v[ok] for i, v in picks.items()}
    n = len(drawn)
    cards = np.empty((n, nplayers, 7), dtype=np.int16)
    cards[:, :, 2 : 2 + len(board)] = np.asarray(board, dtype=np.int16)
    cards[:, :, 2 + len(board) :] = drawn[:, None, :need]
    nxt = need
    for i in range(nplayers):
        if i in picks:
            cards[:, i, :2] = picks[i]
        elif fixed[i, 0] >= 0:
            cards[:, i, :2] = fixed[i]
        else:
            cards[:, i, :2] = drawn[:, nxt : nxt + 2]
            nxt += 2
    return cards, rejected


def mc_tally(
    lookup: Lookup,
    unseen: npt.NDArray[np.int16],
    board: npt.NDArray[np.int16],
    fixed: npt.NDArray[np.int16],
    pairs: Sequence[npt.NDArray[np.int16] | None],
    deals: int,
    seed: int,
    first_chunk: int,
    out: npt.NDArray[np.int64],
) -> int:
    """Tally ``deals`` random deals into ``out`` (``P x P`` int64, overwritten); returns the deals rejected.

    ``unseen``: the physical cards not known (the pool); ``board``: the known board cards; ``fixed``:
    ``P x 2`` exact holdings, ``-1`` for the others; ``pairs``: per player ``None`` (exact or random) or the
    physical hands of its range (``n x 2``).  Deals are made in chunks of :data:`MC_CHUNK`, chunk ``c``
    from its own generator seeded by ``(seed, c)``, numbered from ``first_chunk``: a run split into
    several calls by chunks gives the same tallies.
    """
    fixed = np.asarray(fixed, dtype=np.int16).reshape(-1, 2)
    nplayers = len(fixed)
    if len(board) > 5 or len(pairs) != nplayers or out.size < nplayers * nplayers or deals < 0 or first_chunk < 0:
        raise ValueError("mc_tally: inconsistent arguments")
    if any(p is not None and len(p) == 0 for p in pairs):
        raise ValueError("mc_tally: an empty range")
    flat = out.reshape(-1)[: nplayers * nplayers]
    flat[:] = 0
    rejected = 0
    ones = np.ones(MC_CHUNK, dtype=np.int64)
    for chunk in range(first_chunk, first_chunk + -(-deals // MC_CHUNK)):
        want = min(MC_CHUNK, deals - (chunk - first_chunk) * MC_CHUNK)
        rng = np.random.default_rng([seed, chunk])
        streak = 0  # rows rejected since the last kept one
        rows = int(want * 1.1) + 16
        while want:
            cards, rej = sample_deals(rng, unseen, board, fixed, pairs, rows)
            rejected += rej
            streak = streak + rej if len(cards) == 0 else 0
            if streak >= MAX_REJECT_ROWS:
                raise ValueError("mc_tally: the ranges leave no consistent deal")
            if len(cards) == 0:
                rows = min(2 * rows, MAX_REJECT_ROWS)
            cards = cards[:want]
            values = lookup.values(cards.reshape(-1, 7)).reshape(len(cards), nplayers)
            _tally(values, ones[: len(cards)], flat)
            want -= len(cards)
    return rejected
