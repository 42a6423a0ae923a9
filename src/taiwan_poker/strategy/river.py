"""Heads-up river decisions re-solved over two ranges (issue 50, item 2), when ``Params.resolve.river`` is on.

At a heads-up river decision the rest of the hand is solved (:mod:`.resolve`: the betting tree of check or call,
bets and raises of ⅓, ⅔ and 1 pot, all in, over 32 strength buckets a range, exact multi-deck showdowns) for the
*logit* (quantal response) equilibrium of temperature ``resolve.temperature`` pots, and the seat plays its
holding's strategy at the root.  The temperature is what makes the answer smooth in the read: every probability
is a softmax of action values over the temperature, so a small change in a range moves it a little (never a
100 % call to a 100 % fold), where the exact equilibrium jumps at thresholds.

The ranges are the public read's (:mod:`.range_read`) at the decision:

* the opponent's: the read's weights for it after the street's actions so far;
* the seat's own: the *same read of its own public line* (how the opponent would read it), an approximation of
  its range "as it played": Strong does not keep the probabilities its rules gave every holding at its earlier
  decisions, so the read's rules stand in for them.  Its actual holding always has a bucket of its own.

The read is drawn from seeds of the public line and the solver has no randomness and no clock, so the answer is a
function of what the seat sees.  Multi-way pots and earlier streets keep the rules of :mod:`.postflop`; a range
the read leaves empty falls back to them too (``None``).
"""

from __future__ import annotations

from ..rules.actions import CHECK, FOLD, Action
from .legal import allin, check_or_call, raise_to
from .params import SHIPPED, Params
from .range_read import hand_read, in_position
from .resolve import RiverSpot, combo_weights, solve, universe
from .seat import SeatView

Choices = list[tuple[Action, float]]


def applies(v: SeatView, p: Params = SHIPPED) -> bool:
    """Whether ``v``'s decision is re-solved: the parameter is on, the river, heads-up."""
    return p.resolve.river and v.street == 3 and len(v.live) == 2 and len(v.board) == 5


def spot_of(v: SeatView) -> tuple[RiverSpot, int]:
    """The solver's spot at ``v`` (player 0 acts first on the river) and the opponent's seat."""
    other = next(s for s in v.live if s != v.seat)
    last = in_position(v.seat, v.button, v.live, len(v.stacks))
    oop, ip = (other, v.seat) if last else (v.seat, other)
    street_bets = v.bets[oop], v.bets[ip]
    spot = RiverSpot(
        decks=v.decks,
        board=tuple(c.index for c in v.board),
        hole=(v.hole[0].index, v.hole[1].index),
        pot=float(v.pot - street_bets[0] - street_bets[1]),  # a folded seat's chips stay in the pot
        stacks=(float(v.stacks[oop]), float(v.stacks[ip])),
        actor=1 if last else 0,
        bets=(float(street_bets[0]), float(street_bets[1])),
        dead=tuple(c.index for c in v.burns),
        bets_made=v.raises_on(3),
        big_blind=float(v.big_blind),
    )
    return spot, other


def river_choices(v: SeatView, p: Params = SHIPPED) -> Choices | None:
    """The seat's distribution at a heads-up river decision by re-solving (the module docstring); None when a
    range is empty (the caller plays its rules)."""
    spot, other = spot_of(v)
    read = hand_read(v, p.read)
    u = universe(spot)
    by_player = (other, v.seat) if spot.actor == 1 else (v.seat, other)
    ranges = tuple(combo_weights(u, read.street.ranges[s].cards, read.weights[s]) for s in by_player)
    r = p.resolve
    try:
        sol = solve(spot, (ranges[0], ranges[1]), iterations=r.iterations, max_buckets=r.buckets,
                    temperature=r.temperature, step=r.step, by_kind=r.by_kind)
    except ValueError:
        return None
    out: Choices = []
    for label, amount, prob in zip(sol.labels, sol.amounts, sol.strategy, strict=True):
        out.append((_action(v, label, amount), float(prob)))
    return out


def _action(v: SeatView, label: str, amount: float) -> Action:
    if label == "fold":
        return FOLD
    if label == "check":
        return CHECK
    if label.startswith("call"):
        return check_or_call(v)
    if label.startswith("all-in"):
        return allin(v)
    return raise_to(v, v.bets[v.seat] + round(amount))
