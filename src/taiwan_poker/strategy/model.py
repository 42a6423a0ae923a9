"""How the abstract game values a hand where the preflop betting stops: the realisation model and the multi-way rule.

**Heads-up, all-in.**  The pot is split by the class-vs-class equity ``E[i, j]``
(:mod:`.equity_matrix`), the cards run out with no further betting.

**Heads-up, the flop is seen with chips behind.**  Post-flop play is not
modelled move by move; a hand's share of the pot is its equity *realised*:
``e' = σ(a · logit(E[i, j]) + s · b)`` with ``σ`` the logistic function,
``s = +1`` for the player in position after the flop and ``-1`` for the one out
of position.  Both terms grow with the stack-to-pot ratio ``spr`` (chips behind
÷ pot at the flop), through ``f = spr / (spr + SPR_HALF)``: the positional bias
``b = B_MAX · f`` and the sharpening ``a = 1 + A_MAX · f`` (with chips behind,
strong hands win more than their equity and weak ones give up theirs).  The
two shares still add up to one (the game stays zero-sum).  With ``B_MAX =
0.35``, ``A_MAX = 0.3`` and ``SPR_HALF = 3``, at 100 BB after a 2.5-BB open
(spr ≈ 17.7, ``b = 0.30``, ``a = 1.26``) an out-of-position hand with 30 / 45 /
70 % equity realises 0.68 / 0.81 / 0.97 of it and an in-position one 1.06 /
1.12 / 1.14 — the factors usually quoted for single-raised pots (in position
about 1.05–1.15, out of position 0.75–0.9 on average, weak hands far less);
with little behind (spr → 0) the shares tend to the plain equity.

**Three or more players.**  ``share_p = 1/k + α_k · Σ_j (e'_pj − 1/2)`` over the
other ``k − 1`` players ``j`` still in, with the pairwise (realised) equities
``e'_pj``; ``α_2 = 1`` is the heads-up case, ``α_3``, ``α_4``, ``α_5`` are fitted by least
squares to three-, four- and five-way equities of our engine (``scripts/solve_preflop.py
calibrate``).  The shares always add up to one; being linear in each opponent's
hand they let the solver sum over opponents one at a time.  A dominated hand
in a three-way pot can get a share slightly below zero (e.g. the queens in
``AA`` v ``KK`` v ``QQ``): the rule is a first-order one and is fitted on typical deals.

**Card removal.**  Every opponent's hand is weighted by the exact removal
matrix against *my* hand (:func:`.classes.removal_matrix`); removal between two
opponents' hands is ignored (at two decks and more it is small), so in pots of
three or more each player sees a slightly different chance model.  Heads-up the
model is exact: one joint distribution for both players.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

B_MAX = 0.35
A_MAX = 0.3
SPR_HALF = 3.0
B_STEP = 0.025  # realisation biases are rounded to this grid (a handful of distinct matrices per tree)

# Fitted by ``scripts/solve_preflop.py calibrate --decks 2,3,4,5,6 --players 3,4,5 --tuples 3000`` (seed 20261223,
# 4,000 deals a tuple; docs/strategy.md): decks -> α_3, α_4, α_5.  Six-way pots (never in the shipped trees)
# would use 2/k.
ALPHA3: dict[int, float] = {2: 0.4412, 3: 0.4461, 4: 0.4480, 5: 0.4529, 6: 0.4578}
ALPHA4: dict[int, float] = {2: 0.2490, 3: 0.2561, 4: 0.2585, 5: 0.2618, 6: 0.2614}
ALPHA5: dict[int, float] = {2: 0.1617, 3: 0.1660, 4: 0.1682, 5: 0.1701, 6: 0.1726}


@dataclass(frozen=True, slots=True)
class PayoffModel:
    """The constants of the terminal values (kept with every solved table)."""

    b_max: float = B_MAX
    a_max: float = A_MAX
    spr_half: float = SPR_HALF
    b_step: float = B_STEP
    alpha3: float = ALPHA3[2]
    alpha4: float = ALPHA4[2]
    alpha5: float = ALPHA5[2]

    @classmethod
    def for_decks(cls, decks: int) -> PayoffModel:
        """The shipped model at a deck count (its fitted ``α_3``, ``α_4``)."""
        d = min(max(decks, min(ALPHA3)), max(ALPHA3))
        return cls(alpha3=ALPHA3[d], alpha4=ALPHA4[d], alpha5=ALPHA5[d])

    def alpha(self, k: int) -> float:
        if k <= 2:
            return 1.0
        if k == 3:
            return self.alpha3
        if k == 4:
            return self.alpha4
        if k == 5:
            return self.alpha5
        return 2.0 / k

    def bias(self, spr: float) -> float:
        """``b(spr)`` rounded to the grid (0 when nothing is behind)."""
        if spr <= 0:
            return 0.0
        b = self.b_max * spr / (spr + self.spr_half)
        return round(round(b / self.b_step) * self.b_step, 6)

    def sharpening(self, bias: float) -> float:
        """``a`` for a (rounded) bias: ``1 + A_MAX · f`` with the same ``f = b / B_MAX``."""
        if self.b_max <= 0:
            return 1.0
        return 1.0 + self.a_max * abs(bias) / self.b_max

    def realised(self, eq: FloatArray, signed_bias: float) -> FloatArray:
        """The realised pairwise equity for the player whose bias is ``signed_bias`` (+ in position)."""
        return realised(eq, signed_bias, self.sharpening(signed_bias))


def realised(eq: FloatArray, bias: float, sharpening: float = 1.0) -> FloatArray:
    """``σ(sharpening · logit(eq) + bias)`` elementwise (0 and 1 stay put)."""
    if bias == 0.0 and sharpening == 1.0:
        return eq.copy()
    with np.errstate(divide="ignore"):
        logit = np.log(eq) - np.log1p(-eq)
    out: FloatArray = 1.0 / (1.0 + np.exp(-(sharpening * logit + bias)))
    return out


def share(eqs: list[float], alpha: float) -> float:
    """One player's pot share against the others by the multi-way rule (``eqs``: pairwise equities)."""
    k = len(eqs) + 1
    return 1.0 / k + alpha * sum(e - 0.5 for e in eqs)
