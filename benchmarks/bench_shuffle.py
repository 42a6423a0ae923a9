"""The provably fair shuffle's statistics (issue 47): the shoe of ``taiwan_poker.fairness.shuffled_order``, run
``--shuffles`` times (default 10^6) for each deck count, each from its own server seed.

Prints, for each deck count: chi-square tests of card face by position (N positions × 52 faces) and of physical
deck by position (N × decks), the worst position's p-value and the whole table's, the same for face pairs at
two pairs of positions (0, 1) and (N−2, N−1) (52 × 52 cells), and how long it took. Under a uniform shuffle the
p-values are uniform on [0, 1]: a worst-of-N p-value is expected near 1/N, never far below 1/(100 N).

    .venv/bin/python benchmarks/bench_shuffle.py [--shuffles 1000000] [--decks 2,3,4,5,6] [--workers 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.rules.test_shuffle_fairness import chi2_sf

from taiwan_poker.fairness.shoe import player_mix, shuffled_order

BATCH = 2000
MIX = player_mix({0: b"bench seat 0", 1: b"bench seat 1"})
Counts = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]


def count(decks: int, start: int, shuffles: int) -> Counts:
    """Counts of faces and decks by position, and of face pairs at positions (0, 1) and (N-2, N-1)."""
    n = 52 * decks
    faces = np.zeros(n * 52, np.int64)
    deck_of = np.zeros(n * decks, np.int64)
    head = np.zeros(52 * 52, np.int64)
    tail = np.zeros(52 * 52, np.int64)
    pos = np.arange(n, dtype=np.int64)
    for first in range(start, start + shuffles, BATCH):
        k = min(BATCH, start + shuffles - first)
        idx = np.array([shuffled_order(decks, s.to_bytes(32, "big"), f"BENCH/{s}", MIX)
                        for s in range(first, first + k)], dtype=np.int64)
        face, deck = idx % 52, idx // 52
        np.add.at(faces, (pos * 52 + face).ravel(), 1)
        np.add.at(deck_of, (pos * decks + deck).ravel(), 1)
        np.add.at(head, face[:, 0] * 52 + face[:, 1], 1)
        np.add.at(tail, face[:, -2] * 52 + face[:, -1], 1)
    return faces.reshape(n, 52), deck_of.reshape(n, decks), head.reshape(52, 52), tail.reshape(52, 52)


def chi2(table: npt.NDArray[np.int64], expected: npt.NDArray[np.float64]) -> float:
    return float(((table - expected) ** 2 / expected).sum())


def rows_p(table: npt.NDArray[np.int64]) -> tuple[float, float]:
    """The worst row's p-value (each row against a uniform row) and the whole table's."""
    total = table.sum(axis=1, keepdims=True)
    expected = np.broadcast_to(total / table.shape[1], table.shape).astype(np.float64)
    k = table.shape[1] - 1
    worst = min(chi2_sf(chi2(table[i], expected[i]), k) for i in range(table.shape[0]))
    return worst, chi2_sf(chi2(table, expected), table.shape[0] * k)


def pairs_p(table: npt.NDArray[np.int64], decks: int) -> float:
    """Face pairs at two positions against their exact probabilities without replacement from 52·decks cards."""
    n = 52 * decks
    same = decks * (decks - 1) / (n * (n - 1))
    other = decks * decks / (n * (n - 1))
    probs = np.full((52, 52), other)
    np.fill_diagonal(probs, same)
    expected = probs * table.sum()
    return chi2_sf(chi2(table, expected), 52 * 52 - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--shuffles", type=int, default=1_000_000)
    parser.add_argument("--decks", default="2,3,4,5,6")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.shuffles:,} shuffles per deck count, {args.workers} worker processes\n")
    print("| decks | positions | worst position (faces) p | faces, whole table p | worst position (decks) p "
          "| decks, whole table p | pairs (0,1) p | pairs (N−2,N−1) p | seconds | µs a shuffle |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for decks in (int(d) for d in args.decks.split(",")):
        started = time.perf_counter()
        share = -(-args.shuffles // args.workers)
        with ProcessPoolExecutor(args.workers) as pool:
            parts = list(pool.map(count, [decks] * args.workers, range(0, args.shuffles, share),
                                  [min(share, args.shuffles - s) for s in range(0, args.shuffles, share)]))
        faces, deck_of, head, tail = (sum(p[i] for p in parts) for i in range(4))
        took = time.perf_counter() - started
        worst_f, all_f = rows_p(faces)
        worst_d, all_d = rows_p(deck_of)
        print(f"| {decks} | {52 * decks} | {worst_f:.4f} | {all_f:.4f} | {worst_d:.4f} | {all_d:.4f} "
              f"| {pairs_p(head, decks):.4f} | {pairs_p(tail, decks):.4f} | {took:,.0f} "
              f"| {took * 1e6 * args.workers / args.shuffles:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
