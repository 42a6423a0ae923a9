"""The coach in a sit-and-go: the prize value (ICM) of a push-or-fold decision near the money.

**Near the money** (:func:`near_money`): the players left are at most the
places paid plus :data:`NEAR_MONEY_MARGIN` (two) — a six-player sit-and-go
paying two places from four players left, one paying one place from three.
There every chip lost is worth more than a chip won, and the coach shows, for
a decision the push-or-fold tables cover (:func:`~taiwan_poker.strategy.push_fold.push_fold_spot`:
first in, or facing one all-in), each option's value both ways:

* **chips**: the stack the player expects to hold when the hand is over;
* **ICM**: the prize points they expect to win (Malmuth–Harville,
  :mod:`taiwan_poker.strategy.icm`) over the stacks each outcome leaves,
  with the payouts of the places still to be decided.

**The outcomes.**  Folding first in: the pot goes to the big blind.  Pushing:
the players behind call in turn with the tables' calling ranges (each given
that those before it folded, card removal against the hand); the first caller
sees a showdown with the hand's equity against its calling range (the
class-against-class equity matrix), a later overcall counts as a fold; when
all fold the pot is the pusher's.  Facing one all-in: folding gives the pot to
the shover; calling is a showdown against the tables' shoving range of that
position.  The players behind are taken to fold.  Side pots follow the chips
put in (a covered stack gets back what nobody matched).

Everything is a function of the seat's view and the tournament's public
payouts: the same decision gets the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from ..strategy.classes import class_index, removal_matrix
from ..strategy.equity_matrix import equity_matrix
from ..strategy.icm import icm_equities
from ..strategy.push_fold import PushFoldSpot, action_range, nearest_push_fold_decks, push_fold_spot, ranges_at
from ..strategy.seat import SeatView
from ..tables.tournament import Tournament, payout_amounts

NEAR_MONEY_MARGIN = 2  # near the money: players left <= places paid + this


@dataclass(frozen=True, slots=True)
class TournamentSeat:
    """What the coach knows of the sit-and-go (public): what places 1, 2, … still to be decided pay (prize
    points, one entry per player left) and how many places the whole field pays."""

    payouts: tuple[int, ...]
    places_paid: int


def tournament_seat(t: Tournament, players_left: int | None = None) -> TournamentSeat:
    """The coach's view of a sit-and-go: the payouts of the places the players left play for (the busted took
    the places below them). ``players_left``: as at an earlier hand (its players dealt in: the review); None, now."""
    field = len(t.field)
    left = max(1, field - len(t.places) if players_left is None else players_left)
    return TournamentSeat(payout_amounts(t.settings, field)[:left], len(t.settings.payout_table(field)))


def near_money(players_left: int, places_paid: int) -> bool:
    """Whether a sit-and-go is near (or in) the money: players left <= places paid + :data:`NEAR_MONEY_MARGIN`."""
    return players_left <= places_paid + NEAR_MONEY_MARGIN


@dataclass(frozen=True, slots=True)
class IcmOption:
    """One option of the decision: ``allin``, ``call`` or ``fold``; the stack expected at the end of the hand
    (chips) and the prize points expected (ICM)."""

    action: str
    chips: float
    icm: float


@dataclass(frozen=True, slots=True)
class IcmAdvice:
    options: tuple[IcmOption, ...]  # the aggressive option first, then fold
    stacks: tuple[int, ...]  # per seat, chips at the start of the hand (0: not dealt in)
    payouts: tuple[int, ...]  # what places 1, 2, … still to be decided pay
    equity: float  # the hand's equity in a showdown against the range it meets (weighted by how often)
    icm_now: float  # the prize points the stacks at the start of the hand are worth to the seat

    @property
    def best(self) -> str:
        """The option worth the most prize points (the aggressive one on a tie)."""
        return max(self.options, key=lambda o: o.icm).action

    def to_json(self) -> dict[str, object]:
        return {
            "options": [{"action": o.action, "chips": round(o.chips, 1), "icm": round(o.icm, 2)}
                        for o in self.options],
            "best": self.best, "stacks": list(self.stacks), "payouts": list(self.payouts),
            "pool": sum(self.payouts), "equity": round(self.equity, 4), "icm_now": round(self.icm_now, 2),
        }


def settle(start: Sequence[int], contrib: Sequence[float], winner: int, loser: int) -> list[float]:
    """Every seat's stack after a showdown of ``winner`` against ``loser`` (the others folded), with the chips
    each put in: a layer of the pot goes to the winner where the winner matched it, else to the loser."""
    out = [float(s) - float(c) for s, c in zip(start, contrib, strict=True)]
    levels = sorted({0.0, float(contrib[winner]), float(contrib[loser])})
    for lo, hi in pairwise(levels):
        layer = sum(max(0.0, min(float(c), hi) - lo) for c in contrib)
        out[winner if contrib[winner] >= hi else loser] += layer
    top = levels[-1]
    rest = sum(max(0.0, float(c) - top) for c in contrib)  # dead money above both (a blind nobody matched)
    if rest:
        out[winner if contrib[winner] >= contrib[loser] else loser] += rest
    return out


def _equity(hand: int, weights: npt.NDArray[np.float64], decks: int) -> tuple[float, float]:
    """The hand's equity against a range (weights per class, card removal against the hand), and the range's
    weight after removal."""
    w = weights * removal_matrix(decks)[hand]
    total = float(w.sum())
    if total <= 0:
        return 0.5, 0.0
    return float((w * equity_matrix(decks)[hand]).sum()) / total, total


def icm_advice(v: SeatView, t: TournamentSeat) -> IcmAdvice | None:
    """The chips and ICM of each option of the seat's push-or-fold decision near the money (None elsewhere:
    far from the money, a spot the push-or-fold game does not cover, or facing more than one all-in)."""
    dealt = v.dealt
    if not near_money(len(dealt), t.places_paid):
        return None
    spot = push_fold_spot(v)
    if spot is None or spot.facing > 1:
        return None
    start = [v.start_stacks[s] if s < len(v.start_stacks) else 0 for s in range(len(v.stacks))]
    contrib = [float(start[s] - v.stacks[s]) if s in dealt else 0.0 for s in range(len(v.stacks))]
    stacks = tuple(start)
    payouts = t.payouts[: len(dealt)]

    def icm(final: Sequence[float]) -> float:
        live = [s for s in range(len(final)) if s in dealt]
        values = icm_equities([max(0.0, final[s]) for s in live], payouts)
        return values[live.index(v.seat)]

    decks = nearest_push_fold_decks(v.decks)
    hand = class_index(spot.hand)
    hero = v.seat
    if spot.facing == 0:
        return _first_in(v, spot, start, contrib, stacks, payouts, decks, hand, icm)
    shover_pos = next(p for p, w in enumerate(spot.before) if w != "fold")
    shover = spot.seats[shover_pos]
    shove = action_range(v.decks, spot.players, spot.stack_bb, shover_pos, spot.before[:shover_pos], "allin")
    eq, _ = _equity(hand, shove, decks)
    fold = [float(s) - c for s, c in zip(start, contrib, strict=True)]
    fold[shover] += v.pot
    called = list(contrib)
    called[hero] = float(min(start[hero], contrib[shover]))
    won = settle(start, called, hero, shover)
    lost = settle(start, called, shover, hero)
    options = (
        IcmOption("call", eq * won[hero] + (1 - eq) * lost[hero], eq * icm(won) + (1 - eq) * icm(lost)),
        IcmOption("fold", fold[hero], icm(fold)),
    )
    return IcmAdvice(options, stacks, payouts, eq, icm([float(s) for s in start]))


def _first_in(v: SeatView, spot: PushFoldSpot, start: list[int], contrib: list[float],
              stacks: tuple[int, ...], payouts: tuple[int, ...], decks: int, hand: int,
              icm: Callable[[Sequence[float]], float]) -> IcmAdvice:
    hero = v.seat
    fold = [float(s) - c for s, c in zip(start, contrib, strict=True)]
    fold[spot.seats[-1]] += v.pot  # first in, a fold leaves the pot to the big blind
    chips = 0.0
    prize = 0.0
    reach = 1.0  # the chance that everyone between the hero and the next player folds
    seen = 0.0
    after = (*spot.before, "allin")
    for pos in range(spot.position + 1, spot.players):
        before = after + ("fold",) * (pos - spot.position - 1)
        prior = ranges_at(v.decks, spot.players, spot.stack_bb, pos, before)[pos]
        calls = action_range(v.decks, spot.players, spot.stack_bb, pos, before, "call")
        eq, w_call = _equity(hand, calls, decks)
        _, w_all = _equity(hand, prior, decks)
        p_call = w_call / w_all if w_all > 0 else 0.0
        q = reach * p_call
        if q > 0:
            caller = spot.seats[pos]
            put = list(contrib)
            put[hero] = float(start[hero])
            put[caller] = float(min(start[caller], start[hero]))
            won = settle(start, put, hero, caller)
            lost = settle(start, put, caller, hero)
            chips += q * (eq * won[hero] + (1 - eq) * lost[hero])
            prize += q * (eq * icm(won) + (1 - eq) * icm(lost))
            seen += q * eq
        reach *= 1 - p_call
    steal = [float(s) - c for s, c in zip(start, contrib, strict=True)]
    steal[hero] += v.pot
    chips += reach * steal[hero]
    prize += reach * icm(steal)
    called = 1 - reach
    options = (IcmOption("allin", chips, prize), IcmOption("fold", fold[hero], icm(fold)))
    return IcmAdvice(options, stacks, payouts, seen / called if called > 0 else 0.0, icm([float(s) for s in start]))


__all__ = ["NEAR_MONEY_MARGIN", "IcmAdvice", "IcmOption", "TournamentSeat", "icm_advice", "near_money", "settle",
           "tournament_seat"]
