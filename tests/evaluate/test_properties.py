"""Property tests (Hypothesis) of the evaluator on multi-deck hands of 5–7 physical cards, 1–8 decks.

- batch equals scalar (physical indices and plain faces, every integer dtype, threads 1 and 2),
  on the C kernel and on the NumPy fallback
- card order and deck numbers don't matter
- adding a card never lowers the best hand
- comparison is a total order consistent with the categories and with the reference judge
- the best five are a sub-multiset of the input and re-evaluate to the same rank
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.cards import Card
from taiwan_poker.evaluate import Category, Ranking, categories_of, evaluate, evaluate_batch, hand_value, rank_batch

from .kernels import KERNELS, using
from .reference import DEFAULT_ORDER, SF_HIGH_ORDER, best_of, key5

rankings = st.sampled_from(list(Ranking))


@st.composite
def hands(draw: st.DrawFn, min_size: int = 5, max_size: int = 7) -> tuple[int, list[Card]]:
    """A shoe size and distinct physical cards from it.

    Half the time the cards come from a few ranks and suits, so multi-deck
    structures (five of a kind, repeated-rank flushes) show up often.
    """
    decks = draw(st.integers(1, 8))
    size = draw(st.integers(min_size, max_size))
    if draw(st.booleans()):
        ranks = draw(st.lists(st.integers(0, 12), min_size=2, max_size=5, unique=True))
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
        pool = [Card(r, s, d) for r in ranks for s in suits for d in range(1, decks + 1)]
        if len(pool) < size:
            pool = [Card.from_index(i) for i in range(52 * decks)]
        cards = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    else:
        idx = draw(st.lists(st.integers(0, 52 * decks - 1), min_size=size, max_size=size, unique=True))
        cards = [Card.from_index(i) for i in idx]
    return decks, cards


batches = st.lists(hands(), min_size=1, max_size=40)
dtypes = st.sampled_from([np.int8, np.uint16, np.int32, np.int64])


@given(batches, rankings, dtypes)
def test_batch_equals_scalar_for_5_6_7_cards_1_to_8_decks(
    batch: list[tuple[int, list[Card]]], ranking: Ranking, dtype: type
) -> None:
    """Batch API == scalar API (same tables): values and category codes, row by row, for each hand size."""
    check_batch_equals_scalar(batch, ranking, dtype)


@pytest.mark.parametrize("kernel", KERNELS)
@settings(max_examples=60)
@given(batches, rankings, dtypes)
def test_batch_equals_scalar_on_each_kernel(
    kernel: str, batch: list[tuple[int, list[Card]]], ranking: Ranking, dtype: type
) -> None:
    """The same property, explicitly on the C kernel and on the NumPy fallback (fewer examples)."""
    with using(kernel):
        check_batch_equals_scalar(batch, ranking, dtype)


def check_batch_equals_scalar(batch: list[tuple[int, list[Card]]], ranking: Ranking, dtype: type) -> None:
    for k in (5, 6, 7):
        rows = [cards for _, cards in batch if len(cards) == k]
        if not rows:
            continue
        scalar = [hand_value(cards, ranking) for cards in rows]
        if dtype is not np.int8:  # int8 cannot hold physical indices above 127
            values, codes = evaluate_batch(np.array([[c.index for c in r] for r in rows], dtype=dtype), ranking)
            assert values.dtype == np.uint32
            assert values.tolist() == scalar
            assert codes.tolist() == [evaluate(r, ranking).category.code for r in rows]
        faces = np.array([[c.face for c in r] for r in rows], dtype=dtype)
        assert rank_batch(faces, ranking).tolist() == scalar


def test_batch_threads_do_not_change_results(batch_kernel: str) -> None:
    """Splitting a batch over threads (rows ≥ 2 × 32,768) gives the same values as one thread, for k = 5, 6, 7."""
    rng = np.random.default_rng(2026)
    for k in (5, 6, 7):
        arr = rng.integers(0, 416, size=(150_001, k), dtype=np.int32)
        for ranking in Ranking:
            one = rank_batch(arr, ranking, threads=1)
            two = rank_batch(arr, ranking, threads=2)
            four = rank_batch(arr, ranking, threads=4)
            assert np.array_equal(one, two)
            assert np.array_equal(one, four)
            rows = rng.choice(len(arr), 300, replace=False)
            rows = np.append(rows, [0, len(arr) - 1])
            assert one[rows].tolist() == [hand_value([Card.from_index(int(i)) for i in arr[r]], ranking) for r in rows]


@given(hands(), rankings, st.randoms(use_true_random=False))
def test_card_order_does_not_matter(hand: tuple[int, list[Card]], ranking: Ranking, rnd) -> None:  # type: ignore[no-untyped-def]
    _, cards = hand
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert hand_value(shuffled, ranking) == hand_value(cards, ranking)
    assert evaluate(shuffled, ranking).category is evaluate(cards, ranking).category


@given(hands(), rankings, st.randoms(use_true_random=False))
def test_deck_numbers_do_not_matter(hand: tuple[int, list[Card]], ranking: Ranking, rnd) -> None:  # type: ignore[no-untyped-def]
    """牌副編號僅供辨識，不參與大小比較: renumbering decks (even onto other decks) keeps the value."""
    _, cards = hand
    renumbered = [Card(c.rank, c.suit, rnd.randint(1, 8)) for c in cards]
    assert hand_value(renumbered, ranking) == hand_value(cards, ranking)
    arr = np.array([[c.index for c in renumbered], [c.face for c in cards]])
    assert rank_batch(arr, ranking).tolist() == [hand_value(cards, ranking)] * 2


@given(hands(5, 6), rankings, st.data())
def test_adding_a_card_never_lowers_the_best_hand(hand: tuple[int, list[Card]], ranking: Ranking, data) -> None:  # type: ignore[no-untyped-def]
    decks, cards = hand
    free = [i for i in range(52 * decks) if i not in {c.index for c in cards}]
    extra = Card.from_index(data.draw(st.sampled_from(free)))
    assert hand_value([*cards, extra], ranking) >= hand_value(cards, ranking)


@given(st.lists(hands(), min_size=2, max_size=12), rankings)
def test_comparison_is_a_total_order_consistent_with_categories_and_reference(
    batch: list[tuple[int, list[Card]]], ranking: Ranking
) -> None:
    """Values are integers (a total order); categories never contradict it; the order is the reference's."""
    order = DEFAULT_ORDER if ranking is Ranking.FIVE_OF_A_KIND_HIGH else SF_HIGH_ORDER
    judged = [(evaluate(cards, ranking), best_of(cards, order)[0]) for _, cards in batch]
    strength = {c: len(ranking.order) - 1 - i for i, c in enumerate(ranking.order)}
    for a, ka in judged:
        for b, kb in judged:
            assert (a.rank > b.rank) == (ka > kb)
            assert (a.rank == b.rank) == (ka == kb)
            assert (a < b) == (a.rank < b.rank)
            assert (a == b) == (a.rank == b.rank)
            if strength[a.category] > strength[b.category]:
                assert a.rank > b.rank
            if a.rank == b.rank:
                assert a.category is b.category
                assert [c.rank for c in a.best] == [c.rank for c in b.best]


@given(hands(), rankings)
def test_best_five_is_a_sub_multiset_and_reevaluates_to_the_same_rank(
    hand: tuple[int, list[Card]], ranking: Ranking
) -> None:
    _, cards = hand
    judged = evaluate(cards, ranking)
    best = judged.best
    assert len(best) == 5
    remaining = list(cards)
    for c in best:
        remaining.remove(c)  # raises if best holds a card (or a copy) that is not in the hand
    assert hand_value(best, ranking) == judged.rank
    assert evaluate(best, ranking).category is judged.category
    assert tuple(c.rank for c in best) == judged.ranks
    order = DEFAULT_ORDER if ranking is Ranking.FIVE_OF_A_KIND_HIGH else SF_HIGH_ORDER
    assert key5(best, order) == best_of(cards, order)[0]


@given(hands(), rankings)
def test_categories_of_matches_scalar_category(hand: tuple[int, list[Card]], ranking: Ranking) -> None:
    _, cards = hand
    value = hand_value(cards, ranking)
    code = categories_of(np.array([value], dtype=np.uint32), ranking)[0]
    assert Category(list(Category)[code]) is evaluate(cards, ranking).category
    assert ranking.category_of(value) is evaluate(cards, ranking).category


@given(st.lists(hands(7, 7), min_size=1, max_size=20), rankings)
def test_batch_accepts_non_contiguous_and_fortran_ordered_arrays(
    batch: list[tuple[int, list[Card]]], ranking: Ranking
) -> None:
    arr = np.array([[c.index for c in cards] for _, cards in batch], dtype=np.int32)
    want = [hand_value(cards, ranking) for _, cards in batch]
    assert rank_batch(arr[:, ::-1], ranking).tolist() == want
    assert rank_batch(np.asfortranarray(arr), ranking).tolist() == want
    assert rank_batch(np.repeat(arr, 2, axis=0)[::2], ranking).tolist() == want
