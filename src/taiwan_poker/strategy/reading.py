"""Reading opponents' ranges from their public actions (the strong bot and the coach use it)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..rules.actions import ActionKind
from .estimate import RangeWeights
from .seat import SeatView

# By category code, 0 (five of a kind) .. 9 (high card): how much likelier each made hand is after
# a bet or raise / a call / only checks on that street.
AGGRESSIVE = np.array([1.0] * 7 + [0.9, 0.55, 0.25])
CALLED = np.array([0.6] * 7 + [0.8, 1.0, 0.45])
CHECKED = np.array([0.3] * 7 + [0.45, 0.85, 1.0])


def preflop_widths(v: SeatView) -> dict[int, float]:
    """How wide each opponent's preflop range is, from what they did preflop (a share of starting hands)."""
    widths: dict[int, float] = {}
    raises = 0
    for a in v.history:
        if a.street != 0:
            continue
        if a.aggressive:
            raises += 1
            widths[a.seat] = {1: 0.25, 2: 0.08}.get(raises, 0.04)
        elif a.kind is ActionKind.CALL:
            widths[a.seat] = {0: 0.6, 1: 0.3, 2: 0.1}.get(raises, 0.06)
    return widths


def read_range(v: SeatView, seat: int, width: float | None, top: npt.NDArray[np.float64]) -> RangeWeights | None:
    """An opponent's range read from their actions: their pre-flop width, then each street's made-hand weights."""
    streets: list[tuple[int, npt.NDArray[np.float64]]] = []
    for street in range(1, v.street + 1):
        acts = v.acted(seat, street)
        if not acts:
            continue
        if any(a.aggressive for a in acts):
            streets.append((street, AGGRESSIVE))
        elif any(a.kind is ActionKind.CALL for a in acts):
            streets.append((street, CALLED))
        else:
            streets.append((street, CHECKED))
    if width is None and not streets:
        return None
    faces = np.where(top <= width, 1.0, 0.04) if width is not None else np.ones((52, 52))
    return RangeWeights(faces, tuple(streets))
