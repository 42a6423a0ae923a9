"""The heap keeper: survivors of full collections are frozen, and frozen cyclic garbage is reclaimed later."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from taiwan_poker.web.heap import HeapKeeper


class Node:
    """A cycle-capable object that can be watched with a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def keeper() -> Iterator[tuple[HeapKeeper, FakeClock]]:
    clock = FakeClock()
    heap = HeapKeeper(reclaim_seconds=600, clock=clock)
    heap.start()
    try:
        yield heap, clock
    finally:
        heap.stop()


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_survivors_of_a_full_collection_are_frozen_and_later_ones_are_walked(
    keeper: tuple[HeapKeeper, FakeClock],
) -> None:
    heap, _ = keeper
    assert heap._after_collection in gc.callbacks
    alive = [Node() for _ in range(100)]
    gc.collect()
    frozen = gc.get_freeze_count()
    assert frozen >= len(alive) and heap.full_collections >= 1
    assert not any(n is alive[0] for n in gc.get_objects(2)), "a frozen object is out of the collector's sight"
    young = cycle()
    assert gc.collect() >= 2 and young() is None, "garbage made after the freeze is still collected"


def test_frozen_cyclic_garbage_is_reclaimed_once_the_interval_has_passed(
    keeper: tuple[HeapKeeper, FakeClock],
) -> None:
    heap, clock = keeper
    ref = cycle()
    gc.freeze()  # as if the cycle had been alive at the last full collection
    gc.collect()
    assert ref() is not None, "frozen cycles wait for the reclaim"
    clock.now += 599
    assert not heap.reclaim_if_due()
    gc.collect()
    assert ref() is not None
    clock.now += 2
    assert heap.reclaim_if_due() and heap.reclaims == 1
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert ref() is None, "after the reclaim the next full collection frees the cycle"
    assert gc.get_freeze_count() > 0, "and freezes the survivors again"
    assert not heap.reclaim_if_due(), "the next reclaim is a whole interval later"


def test_stop_ends_the_freezing() -> None:
    heap = HeapKeeper()
    heap.start()
    heap.stop()
    assert heap._after_collection not in gc.callbacks
    frozen = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() == frozen and heap.full_collections == 0


def test_the_young_generation_is_collected_less_often_while_running_and_as_before_after() -> None:
    from taiwan_poker.web.heap import YOUNG_THRESHOLD

    before = gc.get_threshold()
    keeper = HeapKeeper()
    keeper.start()
    try:
        assert gc.get_threshold() == (max(before[0], YOUNG_THRESHOLD), before[1], before[2])
    finally:
        keeper.stop()
        gc.unfreeze()
    assert gc.get_threshold() == before
