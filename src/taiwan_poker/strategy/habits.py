"""What a table has seen a player do before the flop over the hands so far: public counts, and the rates read
from them.

Equilibrium tables cannot know that the player to their left raises every
hand and folds to every re-raise.  A player who has watched a few dozen hands
can, and so can the strongest level: each seat's view may carry the
:class:`Habits` of whoever sits there, counted from the public actions of the
hands already played at the table (never the cards).  Per player:

* how often it raised, and how often it folded, when it acted with nobody
  having raised yet, with one raise before it, and with two or more (a raise
  that goes all in counts);
* how often, having raised, it folded when somebody re-raised it.

The rates are shrunk towards what a sound player does (:data:`PRIOR`), by
:data:`WEIGHT` hands' worth, so a few hands say little and a hundred say
much.  :mod:`.preflop_seat` reads them (re-raising a player who folds to
re-raises too often).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..rules.actions import ActionKind
from ..rules.replay import StreetAction

LEVELS = 3  # no raise yet, one raise, two or more
PRIOR_RAISE = (0.25, 0.08, 0.03)  # a sound player's raise rate at each level (6-handed; heads-up is looser)
PRIOR_FOLD = (0.55, 0.8, 0.9)  # a sound player's fold rate at each level
PRIOR_FOLD_TO_RERAISE = 0.5
WEIGHT = 10.0  # the prior counts as this many observed spots


@dataclass(frozen=True, slots=True)
class Habits:
    """One player's preflop counts (module docstring)."""

    spots: tuple[int, ...] = (0,) * LEVELS  # decisions at each raise level
    raises: tuple[int, ...] = (0,) * LEVELS
    folds: tuple[int, ...] = (0,) * LEVELS
    reraised: int = 0  # re-raises faced over its own raise (its answer counted once per hand)
    folded: int = 0  # of those, folds

    def __add__(self, other: Habits) -> Habits:
        def add(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(a + b for a, b in zip(x, y, strict=True))

        return Habits(add(self.spots, other.spots), add(self.raises, other.raises), add(self.folds, other.folds),
                      self.reraised + other.reraised, self.folded + other.folded)

    def raise_rate(self, level: int) -> float:
        """The shrunk rate of raising at ``level`` (0: unraised, 1: one raise, 2: two or more)."""
        i = min(level, LEVELS - 1)
        return (self.raises[i] + WEIGHT * PRIOR_RAISE[i]) / (self.spots[i] + WEIGHT)

    def fold_rate(self, level: int) -> float:
        """The shrunk rate of folding at ``level``."""
        i = min(level, LEVELS - 1)
        return (self.folds[i] + WEIGHT * PRIOR_FOLD[i]) / (self.spots[i] + WEIGHT)

    def fold_to_reraise(self) -> float:
        """The shrunk rate of folding, having raised, to a re-raise."""
        return (self.folded + WEIGHT * PRIOR_FOLD_TO_RERAISE) / (self.reraised + WEIGHT)


def count_hand(actions: Iterable[StreetAction]) -> dict[int, Habits]:
    """Each seat's counts from one hand's public actions (only those before the flop count)."""
    spots: dict[int, list[int]] = {}
    raises: dict[int, list[int]] = {}
    folds: dict[int, list[int]] = {}
    raised_at: dict[int, int] = {}  # seat -> the number of raises when it last raised
    answered: set[int] = set()
    reraised: dict[int, int] = {}
    folded: dict[int, int] = {}
    level = 0
    for a in actions:
        if a.street != 0:
            break
        s = a.seat
        if s in raised_at and level > raised_at[s] and s not in answered:
            answered.add(s)
            reraised[s] = 1
            folded[s] = int(a.kind is ActionKind.FOLD)
        i = min(level, LEVELS - 1)
        spots.setdefault(s, [0] * LEVELS)[i] += 1
        row = raises.setdefault(s, [0] * LEVELS)
        folds.setdefault(s, [0] * LEVELS)[i] += int(a.kind is ActionKind.FOLD)
        if a.aggressive:
            row[i] += 1
            level += 1
            raised_at[s] = level
    return {s: Habits(tuple(spots[s]), tuple(raises[s]), tuple(folds[s]), reraised.get(s, 0), folded.get(s, 0))
            for s in spots}
