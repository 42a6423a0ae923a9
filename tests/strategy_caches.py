"""Emptying the strategy's caches of reads in a test, as a restarted server or another instance has them."""

from __future__ import annotations

import pytest

from taiwan_poker.lru import LruMap
from taiwan_poker.strategy import postflop, range_read


def forget_strategy_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh, empty caches of street reads, decision reads, solved defences and range standings."""
    for module, name in ((range_read, "_cache"), (range_read, "_reads"), (postflop, "_defences"),
                         (postflop, "_range_eqs")):
        monkeypatch.setattr(module, name, LruMap(8, clock=lambda: 0.0))
