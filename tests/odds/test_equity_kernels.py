"""Equity on both kernels (Hypothesis): exact results identical, Monte Carlo results equal within statistical error.

Spots: 1–6 decks, the hero against one or two opponents (exact hands, ranges,
random), flop to river, with or without the hero's burn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.cards import Card
from taiwan_poker.evaluate import batch
from taiwan_poker.odds.equity import equity
from taiwan_poker.odds.ranges import ALL_COMBOS, HandRange

from ..evaluate.kernels import NO_C_KERNEL, using

needs_c = pytest.mark.skipif(not batch.c_kernel_available(), reason=NO_C_KERNEL)


@st.composite
def spots(draw: st.DrawFn, max_unknown: int = 1) -> dict[str, Any]:
    """Keyword arguments of :func:`equity` (exact enumeration small enough to run both kernels)."""
    decks = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shoe = [Card.from_index(int(i)) for i in rng.permutation(52 * decks)]
    kinds = draw(st.lists(st.sampled_from(["exact", "range", "random"]), min_size=1, max_size=2))
    unknown = sum(k != "exact" for k in kinds)
    if unknown > max_unknown:
        kinds = ["exact"] * (len(kinds) - max_unknown) + [k for k in kinds if k != "exact"][:max_unknown]
        unknown = max_unknown
    board_size = draw(st.sampled_from([5] if unknown >= 2 else [4, 5] if unknown else [3, 4, 5]))
    hero, shoe = shoe[:2], shoe[2:]
    opponents: list[Any] = []
    for kind in kinds:
        if kind == "exact":
            opponents.append(shoe[:2])
            shoe = shoe[2:]
        elif kind == "random":
            opponents.append("random")
        else:
            combos = sorted(ALL_COMBOS)
            picked = frozenset(combos[i] for i in rng.choice(len(combos), size=80, replace=False))
            if decks == 1:
                picked = frozenset(c for c in picked if c[0] != c[1]) or frozenset({(51, 50)})
            opponents.append(HandRange("test range", picked))
    board, shoe = shoe[:board_size], shoe[board_size:]
    burn = shoe[0] if draw(st.booleans()) else None
    return {"hero": hero, "opponents": opponents, "board": board, "decks": decks, "burn": burn}


def run(kernel: str, spot: dict[str, Any], **kw: Any) -> Any:
    with using(kernel):
        return equity(spot["hero"], spot["opponents"], spot["board"], decks=spot["decks"], burn=spot["burn"], **kw)


@needs_c
@settings(max_examples=30, deadline=None)
@given(spot=spots())
def test_exact_equity_is_identical_on_both_kernels(spot: dict[str, Any]) -> None:
    try:
        c = run("c", spot, method="exact")
    except Exception as exc:  # e.g. a range with no live hand: both kernels must refuse alike
        with pytest.raises(type(exc)):
            run("numpy", spot, method="exact")
        return
    n = run("numpy", spot, method="exact")
    assert c.samples == n.samples
    assert [p.exact for p in c.players] == [p.exact for p in n.players]
    assert sum(p.exact[2] for p in c.players) == 1


@needs_c
@settings(max_examples=6, deadline=None)
@given(spot=spots(max_unknown=2))
def test_monte_carlo_agrees_across_kernels_and_with_exact(spot: dict[str, Any]) -> None:
    try:
        exact = run("c", spot, method="exact")
    except Exception:
        return
    c = run("c", spot, method="monte_carlo", precision=0.01, seed=7)
    n = run("numpy", spot, method="monte_carlo", precision=0.01, seed=7)
    for pc, pn, pe in zip(c.players, n.players, exact.players, strict=True):
        assert pc.equity_se is not None and pn.equity_se is not None
        assert abs(pc.equity - pn.equity) <= 4.5 * np.hypot(pc.equity_se, pn.equity_se) + 1e-9
        assert abs(pc.equity - pe.equity) <= 4.5 * pc.equity_se + 1e-9
        assert abs(pn.equity - pe.equity) <= 4.5 * pn.equity_se + 1e-9


def test_repeated_and_unhashable_requests_give_the_same_answer(batch_kernel: str) -> None:
    """The set-up cache: a repeat, a list (not cached) and the same cards as strings agree."""
    first = equity("AhKh", ["random"], "Jh 8h 4s 2d", decks=2, method="exact")
    again = equity("AhKh", ["random"], "Jh 8h 4s 2d", decks=2, method="exact")
    listed = equity(["Ah", "Kh"], ["random"], ["Jh", "8h", "4s", "2d"], decks=2, method="exact")
    assert first.players == again.players == listed.players
    mc = [equity("AhKh", [[Card(10, 0), Card(10, 2)]], "", decks=3, precision=0.01, seed=9).players for _ in range(2)]
    assert mc[0] == mc[1]
