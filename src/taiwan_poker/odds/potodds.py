"""Pot odds: the price of a call and the equity needed to break even."""

from __future__ import annotations

from fractions import Fraction

from ..errors import TaiwanPokerError


class PotOddsError(TaiwanPokerError):
    code = "bad_amount"


def break_even_equity(pot: int | Fraction, bet: int | Fraction) -> Fraction:
    """Equity needed to call ``bet`` into a pot of ``pot`` before the bet: ``B / (P + 2B)``.

    Ignores later betting and fees.  ``P=60, B=20`` → 1/5.
    """
    p, b = Fraction(pot), Fraction(bet)
    if p < 0 or b <= 0:
        raise PotOddsError("the pot must be >= 0 and the bet > 0", pot=str(pot), bet=str(bet))
    return b / (p + 2 * b)


def showdown_equity(
    win: float | Fraction, tie: float | Fraction = 0, share: float | Fraction = Fraction(1, 2)
) -> float:
    """Equity with ties counted at the player's share of the pot: ``win + tie × share``."""
    if not 0 <= share <= 1:
        raise PotOddsError("the share of a tied pot is between 0 and 1", share=str(share))
    return float(win) + float(tie) * float(share)


def call_ev(pot: int | Fraction, bet: int | Fraction, equity: float | Fraction) -> float:
    """Expected chips of calling: ``equity × (P + 2B) − B`` (positive: the call gains)."""
    p, b = Fraction(pot), Fraction(bet)
    if p < 0 or b <= 0:
        raise PotOddsError("the pot must be >= 0 and the bet > 0", pot=str(pot), bet=str(bet))
    return float(equity) * float(p + 2 * b) - float(b)
