"""A hand's share of the pot at one showdown against several opponents at once (the coach's multi-way equity).

Against one opponent the share is the hand's wins and half its ties.  Against several it is not the product
of those heads-up shares: a run-out that makes the hand beats most ranges at once, and one that misses loses to
most of them, so the product understates it (9♥2♦ facing a raise six-handed: 0.7 % as a product of five
heads-up equities, 9 % against five random hands at one showdown).  Here each opponent's chance to lose to or
to tie the hand is taken on each run-out, the opponents independent of one another given the run-out, and the
hand's share, a pot split evenly among the tied hands, is averaged over the run-outs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def share_per_runout(win: FloatArray, tie: FloatArray) -> FloatArray:
    """``win[j, r]`` and ``tie[j, r]``: the chance the hand beats and ties opponent ``j`` on run-out ``r``.  The
    hand's expected share of the pot on each run-out: nothing when any opponent beats it, ``1 / (k + 1)`` when it
    ties ``k`` of them and beats the rest."""
    opponents, runouts = win.shape
    tied = np.zeros((runouts, opponents + 1))  # tied[r, k]: no opponent so far beats the hand, k of them tie it
    tied[:, 0] = 1.0
    for j in range(opponents):
        after = tied * win[j][:, None]
        after[:, 1:] += tied[:, :-1] * tie[j][:, None]
        tied = after
    return tied @ (1.0 / np.arange(1, opponents + 2))
