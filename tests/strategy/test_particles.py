"""The range read's particle arithmetic: card clashes, the equity matrix and the physical draws."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.cards import Card
from taiwan_poker.strategy.classes import INDEX, class_weights
from taiwan_poker.strategy.particles import draw_runouts, equity_matrix, sample_range, shared


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(0, 12), m=st.integers(0, 12), ka=st.integers(1, 3),
       kb=st.integers(0, 3))
def test_shared_cards_match_the_pairwise_comparison(seed: int, n: int, m: int, ka: int, kb: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 40, (n, ka)), rng.integers(0, 40, (m, kb))
    brute = (a[:, None, :, None] == b[None, :, None, :]).any(axis=(2, 3))
    assert (shared(a, b) == brute).all()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_equity_matrix_counts_each_valid_run_out_once(seed: int) -> None:
    """Wins plus half ties and valid counts: the plain triple loop's figures."""
    rng = np.random.default_rng(seed)
    n, m, r = 5, 4, 7
    va, vb = rng.integers(0, 4, (n, r)).astype(np.uint32), rng.integers(0, 4, (m, r)).astype(np.uint32)
    ok_a, ok_b, pair_ok = rng.random((n, r)) > 0.2, rng.random((m, r)) > 0.2, rng.random((n, m)) > 0.2
    score, count = equity_matrix(va, vb, ok_a, ok_b, pair_ok)
    for i in range(n):
        for j in range(m):
            runs = [k for k in range(r) if ok_a[i, k] and ok_b[j, k] and pair_ok[i, j]]
            assert count[i, j] == len(runs)
            assert score[i, j] == sum(1.0 if va[i, k] > vb[j, k] else 0.5 if va[i, k] == vb[j, k] else 0.0
                                      for k in runs)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), decks=st.integers(2, 6), board_size=st.sampled_from([3, 4, 5]))
def test_no_physical_card_is_drawn_twice(seed: int, decks: int, board_size: int) -> None:
    """Holdings avoid the board and hold two distinct physical cards; run-outs and their reference hands avoid
    the board and each other."""
    rng = np.random.default_rng(seed)
    board = [int(c) for c in rng.choice(52 * decks, size=board_size, replace=False)]
    held = sample_range(class_weights(decks), decks, board, rng)
    live = held.weights > 0
    assert live.sum() > 0 and ((held.weights >= 0) & (held.weights <= 1)).all()
    assert (held.cards[live, 0] != held.cards[live, 1]).all()
    assert not np.isin(held.cards[live], board).any() and held.cards.max() < 52 * decks
    runs = draw_runouts(board, decks, rng)
    rows = np.concatenate([runs.cards, runs.references.reshape(runs.count, -1)], axis=1)
    assert all(len(set(row)) == len(row) for row in rows.tolist())
    assert not np.isin(rows, board).any()


def test_an_identical_pair_takes_two_decks_of_its_face_in_proportion_to_the_free_ones() -> None:
    """Six decks, one A♠ on the board: two A♠ are drawn from the five other A♠ (weight 5·4 / 6·5); the other
    aces from all six (weight 1)."""
    weights = np.zeros_like(class_weights(6))
    weights[INDEX["AA="]] = 1.0
    spade_ace = Card(12, 0, 1).index  # in the first deck
    held = sample_range(weights, 6, [spade_ace], np.random.default_rng(1), k=400)
    faces = held.cards % 52
    assert (faces[:, 0] == faces[:, 1]).all() and (held.cards[:, 0] != held.cards[:, 1]).all()
    spades = faces[:, 0] == spade_ace % 52
    assert spades.any() and (~spades).any()
    assert np.allclose(held.weights[spades], 5 * 4 / (6 * 5)) and np.allclose(held.weights[~spades], 1.0)
    assert not np.isin(held.cards, [spade_ace]).any()
