"""The kernel's scalar and equity entry points on both kernels: compiled (``_kernel.c``) and NumPy / pure Python.

- ``hand_value`` through the compiled kernel equals the pure-Python one on
  multi-deck 5-, 6- and 7-card hands (rare categories included, both rankings),
  reads any object with ``.rank`` and ``.suit``, and leaves bad counts to the
  Python error; on the NumPy kernel the scalar evaluator is pure Python;
- ``exact_tally``: the C one and the NumPy one (the original face-pattern
  enumeration) give the very same integers, as drop-ins for each other;
- ``mc_tally``: reproducible from its seed, the same when a run is split by
  chunks (so whatever the threads), and the C and NumPy ones agree within
  statistical error; a range set with no consistent deal is an error, not a hang.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.cards import Card
from taiwan_poker.errors import CardCountError
from taiwan_poker.evaluate import Ranking, batch, hand_value, numpy_kernel, scalar
from taiwan_poker.evaluate.batch import MC_CHUNK, showdown_exact, showdown_monte_carlo
from taiwan_poker.evaluate.scalar import python_hand_value

from .kernels import KERNELS, NO_C_KERNEL, using
from .test_kernels import dense_hands, random_hands

needs_c = pytest.mark.skipif(not batch.c_kernel_available(), reason=NO_C_KERNEL)


def c_module() -> Any:
    from taiwan_poker.evaluate import _kernel  # type: ignore[attr-defined]

    return _kernel


# --- scalar ------------------------------------------------------------------------------------------


@needs_c
@pytest.mark.parametrize("k", [5, 6, 7])
def test_compiled_hand_value_equals_python(k: int) -> None:
    rng = np.random.default_rng(k)
    rows = np.concatenate([random_hands(rng, 20_000, k), dense_hands(rng, 2_000, k)])
    hands = [[Card.from_index(int(i)) for i in row] for row in rows]
    with using("c"):
        assert scalar._compiled is not None
        for ranking in Ranking:
            assert [hand_value(h, ranking) for h in hands] == [python_hand_value(h, ranking) for h in hands]


@needs_c
def test_compiled_hand_value_reads_any_card_like_object() -> None:
    class Plain:  # no slots: the kernel falls back to getattr
        def __init__(self, rank: int, suit: int) -> None:
            self.rank, self.suit = rank, suit

    cards = [Card(12, 0), Card(12, 1), Card(11, 0), Card(11, 2), Card(3, 3), Card(0, 0)]
    lookup = batch.lookup("c", Ranking.FIVE_OF_A_KIND_HIGH)
    want = python_hand_value(cards)
    assert c_module().hand_value([Plain(c.rank, c.suit) for c in cards], lookup) == want
    assert c_module().hand_value(tuple(cards), lookup) == want
    assert c_module().hand_value(cards[:4], lookup) == -1  # the caller raises bad_card_count
    with pytest.raises(IndexError):
        c_module().hand_value([Plain(13, 0), *cards[1:]], lookup)
    with pytest.raises(AttributeError):
        c_module().hand_value([object(), *cards[1:]], lookup)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("count", [0, 4, 8])
def test_bad_count_is_bad_card_count_on_each_kernel(kernel: str, count: int) -> None:
    with using(kernel), pytest.raises(CardCountError):
        hand_value([Card.from_index(i) for i in range(count)])


def test_numpy_kernel_judges_scalar_hands_in_python() -> None:
    with using("numpy"):
        assert scalar._compiled is None
        assert hand_value([Card.from_index(i) for i in (48, 49, 50, 51, 44)]) == python_hand_value(
            [Card.from_index(i) for i in (48, 49, 50, 51, 44)]
        )


# --- exact -------------------------------------------------------------------------------------------


@st.composite
def exact_spots(draw: st.DrawFn) -> dict[str, Any]:
    """Face-level arguments of ``showdown_exact``: 1-3 decks, 2-3 players, at most ~100k face patterns."""
    decks = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    nplayers = draw(st.integers(2, 3))
    kinds = ["exact"] + [draw(st.sampled_from(["exact", "range"])) for _ in range(nplayers - 1)]
    ranges = kinds.count("range")
    board_size = draw(st.sampled_from([3, 4, 5] if ranges == 0 else [4, 5] if ranges == 1 else [5]))
    shoe = rng.permutation(52 * decks)
    exact_cards = 2 * kinds.count("exact")
    known = shoe[: exact_cards + board_size] % 52
    remaining = np.full(52, decks, dtype=np.int32)
    np.subtract.at(remaining, known, 1)
    fixed = np.full((nplayers, 2), -1, dtype=np.int16)
    combos: list[np.ndarray | None] = []
    pos = 0
    for i, kind in enumerate(kinds):
        if kind == "exact":
            fixed[i] = known[pos : pos + 2]
            pos += 2
            combos.append(None)
        else:
            a = rng.integers(0, 52, size=60)
            b = rng.integers(0, 52, size=60)
            combos.append(np.stack([np.maximum(a, b), np.minimum(a, b)], axis=1).astype(np.int16))
    board = known[pos : pos + board_size].astype(np.int16)
    return {"remaining": remaining, "board": board, "fixed": fixed, "combos": combos}


@needs_c
@settings(max_examples=40, deadline=None)
@given(spot=exact_spots(), ranking=st.sampled_from(list(Ranking)))
def test_exact_tally_c_equals_numpy(spot: dict[str, Any], ranking: Ranking) -> None:
    """The C enumeration gives the very integers of the NumPy one (the original exact path)."""
    results = []
    for kernel in ("c", "numpy"):
        with using(kernel):
            results.append(showdown_exact(spot["remaining"], spot["board"], spot["fixed"], spot["combos"], ranking))
    (c_counts, c_total), (n_counts, n_total) = results
    assert c_total == n_total
    assert np.array_equal(c_counts, n_counts)
    # a deal with k best hands is counted once by each of them: the pot shares add up to the deals
    nplayers = len(spot["fixed"])
    for k in range(1, nplayers + 1):
        assert c_counts[:, k - 1].sum() % k == 0
    assert sum(int(c_counts[:, k - 1].sum()) // k for k in range(1, nplayers + 1)) == c_total


@needs_c
def test_exact_tally_numpy_is_a_drop_in_for_the_c_one() -> None:
    lookup_c = batch.lookup("c", Ranking.FIVE_OF_A_KIND_HIGH)
    lookup_n = batch.lookup("numpy", Ranking.FIVE_OF_A_KIND_HIGH)
    remaining = np.full(52, 2, dtype=np.int32)
    board = np.array([40, 29, 8, 1], dtype=np.int16)  # Jh 9h 4s 2h
    fixed = np.array([[49, 45], [-1, -1]], dtype=np.int16)  # AhKh vs a range
    for f in (49, 45, 40, 29, 8, 1):
        remaining[f] -= 1
    combos = np.array([[51, 50], [47, 46], [43, 43], [49, 45]], dtype=np.int16)
    outs = []
    for module, lookup in ((c_module(), lookup_c), (numpy_kernel, lookup_n)):
        out = np.full((2, 2), 99, dtype=np.int64)
        total = module.exact_tally(lookup, remaining, board, fixed, (None, combos), out)
        outs.append((total, out.tolist()))
    assert outs[0] == outs[1]
    with pytest.raises(ValueError):
        c_module().exact_tally(lookup_c, remaining[:51], board, fixed, (None, combos), np.zeros(4, np.int64))
    with pytest.raises(ValueError):
        numpy_kernel.exact_tally(lookup_n, remaining[:51], board, fixed, (None, combos), np.zeros(4, np.int64))


# --- Monte Carlo -------------------------------------------------------------------------------------


def heads_up(decks: int) -> dict[str, Any]:
    """AhKh against a random hand and a range of four physical combos, preflop, ``decks`` decks."""
    hero = (49, 45)
    unseen = np.array([i for i in range(52 * decks) if i not in hero], dtype=np.int16)
    pairs = np.array([[51, 50], [47, 46], [43, 42], [3, 2]], dtype=np.int16)
    fixed = np.array([hero, (-1, -1), (-1, -1)], dtype=np.int16)
    return {"unseen": unseen, "board": np.zeros(0, np.int16), "fixed": fixed, "pairs": (None, None, pairs)}


@pytest.mark.parametrize("kernel", KERNELS)
def test_mc_tally_is_reproducible_and_split_by_chunks(kernel: str) -> None:
    spot = heads_up(2)
    args = (spot["unseen"], spot["board"], spot["fixed"], spot["pairs"])
    deals = 4 * MC_CHUNK + 777
    with using(kernel):
        whole, rej = showdown_monte_carlo(*args, deals, 5, threads=1)
        again, rej2 = showdown_monte_carlo(*args, deals, 5, threads=2)
        head, rej_a = showdown_monte_carlo(*args, 3 * MC_CHUNK, 5, 0, threads=1)
        tail, rej_b = showdown_monte_carlo(*args, MC_CHUNK + 777, 5, 3, threads=1)
        other, _ = showdown_monte_carlo(*args, deals, 6, threads=1)
    assert np.array_equal(whole, again) and rej == rej2
    assert np.array_equal(whole, head + tail) and rej == rej_a + rej_b
    assert not np.array_equal(whole, other)
    assert sum(int(whole[:, k - 1].sum()) // k for k in (1, 2, 3)) == deals  # once per best hand of each deal


@needs_c
def test_mc_c_and_numpy_agree_within_statistical_error() -> None:
    spot = heads_up(1)
    args = (spot["unseen"], spot["board"], spot["fixed"], spot["pairs"])
    shares = []
    n = 200_000
    for kernel in ("c", "numpy"):
        with using(kernel):
            counts, _ = showdown_monte_carlo(*args, n, 11)
        shares.append(counts @ (1 / np.arange(1, 4)) / n)
    se = np.sqrt(2 * 0.25 / n)  # two independent estimates of a share of variance <= 1/4
    assert np.all(np.abs(shares[0] - shares[1]) <= 4.5 * se), shares


@pytest.mark.parametrize("kernel", KERNELS)
def test_mc_tally_without_a_consistent_deal_is_an_error(kernel: str) -> None:
    unseen = np.arange(2, 52, dtype=np.int16)
    only = np.array([[51, 50]], dtype=np.int16)  # both opponents hold the very same two physical cards
    fixed = np.array([[0, 1], [-1, -1], [-1, -1]], dtype=np.int16)
    with using(kernel), pytest.raises(ValueError, match="no consistent deal"):
        showdown_monte_carlo(unseen, np.zeros(0, np.int16), fixed, (None, only, only), 10, 1)


@needs_c
def test_both_kernels_share_the_chunk_size() -> None:
    assert c_module().MC_CHUNK == numpy_kernel.MC_CHUNK == MC_CHUNK
