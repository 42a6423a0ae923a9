"""The strongest strategy: a probability for each action at a seat's view, shared by the bots and the coach.

Before the flop the solved tables answer (:mod:`.preflop_seat`; where they do
not reach, a ranking by starting-hand strength); after it the size-aware
play of :mod:`.postflop`, or heads-up on the river, when the parameters say
so, the re-solve of :mod:`.river`.  :func:`strategy` returns the distribution with the
numbers behind it; the strong bot samples an action from it
(:func:`sample`) and the coach shows it (``raise to 60: 55 %, call: 45 %``).
The distribution is a function of the view: the range read draws from a seed
made of the hand's public line (:mod:`.seeding`), so a bot, the coach and the
review of the hand get the same distribution at the same decision.  Only the
choice of an action from it (:func:`sample`) draws from the caller's
``random.Random`` (the OS CSPRNG in live play, a seed in tests and
simulations).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules.actions import Action
from . import river
from .legal import action_key
from .params import SHIPPED, Params
from .postflop import Situation, action_values, fold_limit, postflop_choices, situation
from .preflop_seat import fallback_choices, merge, preflop_choices
from .seat import SeatView


@dataclass(frozen=True, slots=True)
class Strategy:
    """The actions with their probabilities (summing to 1), and what they rest on."""

    choices: tuple[tuple[Action, float], ...]
    source: str  # "tables" (the solved preflop tables), "ranking" (their fallback), "postflop" or "resolve"
    price: float  # call / (pot + call)
    equity: float | None  # against the ranges read (preflop: against the tables' ranges, when facing a bet)
    place: float | None  # after the flop: the hand's place in its own range (0 weakest .. 1 best)
    alpha: float  # the most of the range that may fold to the bet faced (0 when nothing is to call)
    situation: Situation | None = None  # after the flop: the read behind it (values of actions)

    @property
    def likeliest(self) -> Action:
        return max(self.choices, key=lambda c: c[1])[0]

    def probability(self, view: SeatView, action: Action) -> float:
        """The probability this strategy gives the move ``action`` makes (matched by what it does at the table)."""
        key = action_key(view, action)
        return sum(p for a, p in self.choices if action_key(view, a) == key)


def strategy(v: SeatView, params: Params = SHIPPED) -> Strategy:
    """The strongest strategy's distribution at ``v`` (the seat must be to act), played with ``params`` after
    the flop (:mod:`.params`)."""
    price = v.price()
    alpha = v.call_amount / v.pot if v.call_amount > 0 and v.pot > 0 else 0.0
    if v.street == 0:
        answer = preflop_choices(v)
        if answer is not None:
            choices, eq = answer
            return Strategy(tuple(choices), "tables", price, eq, None, alpha)
        return Strategy(tuple(fallback_choices(v)), "ranking", price, None, None, alpha)
    st = situation(v, params)
    if v.call_amount > 0:  # the fold limit the post-flop play uses (the solved game's share blended in)
        alpha = fold_limit(v, st, params)
    if river.applies(v, params):
        solved = river.river_choices(v, params)
        if solved is not None:
            return Strategy(tuple(merge(v, solved)), "resolve", price, st.equity, st.place, alpha, st)
    return Strategy(tuple(merge(v, postflop_choices(v, st, params))), "postflop", price, st.equity, st.place, alpha,
                    st)


def sample(s: Strategy, rng: random.Random) -> Action:
    """One action drawn from the distribution."""
    x = rng.random()
    for action, p in s.choices:
        x -= p
        if x <= 0:
            return action
    return s.choices[-1][0]


def values(v: SeatView, s: Strategy, actions: list[Action]) -> list[float] | None:
    """Each action's value in chips (fold 0) after the flop, with the parameters the strategy was played with;
    None before it (the tables hold no values)."""
    if s.situation is None:
        return None
    return action_values(v, s.situation, actions)
