"""The bots' policies: two baselines and three levels, each a function of a seat's view and a random source.

Every policy is stateless: it reads the hand so far from the view's public
history, so a bot that restarts mid-hand decides exactly as before.  The
levels are written out for players in ``docs/bots.md``; the numbers here are
that document's numbers.  The maths they share with the coach (the seat's
typed view, starting-hand strength, range reading, equity, the value lines)
is in :mod:`taiwan_poker.strategy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..rules.actions import CALL, CHECK, FOLD, Action, ActionKind
from ..strategy.estimate import RangeWeights, equity
from ..strategy.legal import check_or_call, check_or_fold, pot_fraction, raise_to
from ..strategy.params import SHIPPED, Params
from ..strategy.policy import sample, strategy
from ..strategy.push_fold import push_fold_choices
from ..strategy.reading import preflop_widths
from ..strategy.seat import SeatView
from ..strategy.strength import preflop_equity, preflop_rank
from ..strategy.thresholds import RAISE_MARGIN, value_threshold

Policy = Callable[[SeatView, random.Random], Action]


def _np_rng(rng: random.Random) -> np.random.Generator:
    return np.random.default_rng(rng.getrandbits(64))


def _faces(v: SeatView) -> tuple[int, int]:
    return v.hole[0].face, v.hole[1].face


# --- baselines -------------------------------------------------------------------------------------------------


def always_call(v: SeatView, rng: random.Random) -> Action:
    """Baseline: checks or calls every time, whatever the cards."""
    return check_or_call(v)


def random_legal(v: SeatView, rng: random.Random) -> Action:
    """Baseline: one of the legal kinds at random; a bet or raise to a random legal amount."""
    kind = rng.choice(v.actions)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(kind, rng.randint(v.min_to, v.max_to))
    return Action(kind)


# --- level 1: the loose-passive beginner ----------------------------------------------------------------------


def beginner(v: SeatView, rng: random.Random) -> Action:
    """Plays most hands, calls a lot, rarely bets or raises, and only with a very strong hand."""
    if v.street == 0:
        eq = float(preflop_equity(v.decks)[_faces(v)])
        top = float(preflop_rank(v.decks)[_faces(v)])
        if top <= 0.03 and v.raises_on(0) <= 1 and rng.random() < 0.5:
            return raise_to(v, 3 * max(v.current_bet, v.big_blind))
        if v.call_amount == 0:
            return CHECK
        cheap = v.call_amount <= 3 * v.big_blind
        affordable = v.call_amount <= 0.25 * (v.stack + v.bets[v.seat])
        if (cheap and eq >= 0.36) or (affordable and eq >= 0.45) or eq >= 0.6:
            return CALL
        return check_or_fold(v)
    eq = equity(v.hole, v.board, v.burns, v.decks, [None] * len(v.opponents), 200, _np_rng(rng))
    if v.call_amount == 0:
        if eq >= 0.75 and rng.random() < 0.35:
            return pot_fraction(v, 0.5)
        return CHECK
    if eq >= 0.9 and rng.random() < 0.2:
        return raise_to(v, 2 * v.current_bet)
    if eq >= 0.55 or (eq >= 0.33 and v.call_amount <= v.pot) or eq >= v.price():
        return CALL
    return FOLD


# --- shared by the two stronger levels ------------------------------------------------------------------------


def _behind(v: SeatView) -> int:
    """Players still in the hand who act after this seat preflop (the order runs from the seat after the big blind)."""
    n = len(v.stacks)
    order = [s for s in ((v.big_blind_seat + 1 + i) % n for i in range(n)) if s in v.live]
    return len(order) - 1 - order.index(v.seat)


OPEN_TOP = {0: 0.5, 1: 0.36, 2: 0.27, 3: 0.22, 4: 0.18, 5: 0.15, 6: 0.13, 7: 0.12, 8: 0.11}


def _cut(top: npt.NDArray[np.float64], keep: float, floor: float) -> RangeWeights:
    return RangeWeights(np.where(top <= keep, 1.0, floor))


def _preflop_tight(v: SeatView, rng: random.Random, *, mix: bool) -> Action:
    """Raise-or-fold preflop by the hand's rank among starting hands, by position and by the raises before."""
    top = float(preflop_rank(v.decks)[_faces(v)])
    raises = v.raises_on(0)
    heads_up = len(v.live) == 2
    if raises == 0:
        width = OPEN_TOP.get(_behind(v), 0.11) + (0.04 if mix else 0.0)
        if heads_up and v.seat == v.button:
            width = 0.7 if mix else 0.6
        if top <= width:
            size = rng.choice((2.2, 2.5, 3.0)) if mix else 2.5
            limpers = sum(1 for a in v.history if a.street == 0 and a.kind is ActionKind.CALL)
            return raise_to(v, round((size + limpers) * v.big_blind))
        if v.call_amount == 0:
            return CHECK
        if heads_up and top <= 0.7 and v.call_amount <= v.big_blind:
            return CALL  # the small blind completes heads-up with most hands
        return check_or_fold(v)
    reraise = 0.05 if raises == 1 else 0.025
    call = (0.3 if heads_up else 0.16) if raises == 1 else 0.06
    if top <= reraise or (mix and raises == 1 and 0.2 <= top <= 0.26 and rng.random() < 0.3):
        return raise_to(v, 3 * v.current_bet)
    if top <= call and v.call_amount <= 0.35 * (v.stack + v.bets[v.seat]):
        return CALL
    if top <= reraise * 2 and v.call_amount > 0:
        return CALL  # a strong hand facing a big raise calls rather than folds
    return check_or_fold(v)


# --- level 2: the solid tight-aggressive player ---------------------------------------------------------------


def solid(v: SeatView, rng: random.Random) -> Action:
    """Tight and aggressive: equity against each opponent's preflop range, pot odds, value bets."""
    if v.street == 0:
        return _preflop_tight(v, rng, mix=False)
    top = preflop_rank(v.decks)
    widths = preflop_widths(v)
    ranges = [_cut(top, widths[s], 0.05) if s in widths else None for s in v.opponents]
    eq = equity(v.hole, v.board, v.burns, v.decks, ranges, 400, _np_rng(rng))
    n = len(v.opponents)
    if v.call_amount == 0:
        if eq >= value_threshold(n):
            return pot_fraction(v, 0.66)
        if v.street == 1 and n == 1 and v.aggressor(0) == v.seat and eq >= 0.35 and rng.random() < 0.5:
            return pot_fraction(v, 0.5)  # a continuation bet
        return CHECK
    if eq >= value_threshold(n) + RAISE_MARGIN:
        return raise_to(v, 3 * v.current_bet)
    if eq >= v.price() + 0.03:
        return CALL
    return FOLD


# --- level 3: the strongest strategy ---------------------------------------------------------------------------


class Strong:
    """The strongest strategy (:mod:`taiwan_poker.strategy.policy`): the solved preflop tables, then size-aware
    play after the flop with ``params`` (:mod:`taiwan_poker.strategy.params`; the lab plays others); it draws its
    action from the strategy's distribution, which it also tells (LBR asks)."""

    def __init__(self, params: Params = SHIPPED) -> None:
        self.params = params

    def __call__(self, v: SeatView, rng: random.Random) -> Action:
        return sample(strategy(v, self.params), rng)

    def distribution(self, v: SeatView, rng: random.Random) -> list[tuple[Action, float]]:
        return list(strategy(v, self.params).choices)


strong = Strong()


# --- in a sit-and-go ---------------------------------------------------------------------------------------------


def in_tournament(policy: Policy) -> Policy:
    """``policy`` as played in a sit-and-go: with an effective stack of 20 big blinds or less, first in or facing
    only all-ins, the bot pushes or folds (calls or folds) from the solved push-or-fold tables
    (:mod:`taiwan_poker.strategy.push_fold`, docs/tournaments.md); everywhere else it plays ``policy``."""

    def play(v: SeatView, rng: random.Random) -> Action:
        choices = push_fold_choices(v)
        if choices is None:
            return policy(v, rng)
        r = rng.random()
        for action, p in choices:
            r -= p
            if r < 0:
                return action
        return max(choices, key=lambda c: c[1])[0]

    return play
