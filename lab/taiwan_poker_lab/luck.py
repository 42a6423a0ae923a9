"""A lower-variance score of a heads-up hand (after AIVAT: Burch, Schmid, Moravčík, Morrill and Bowling, 2018,
"AIVAT: A New Variance Reduction Technique for Agent Evaluation in Imperfect Information Games").

The measured result of a hand moves with the cards and with the mixed choices of a player whose probabilities
are known; neither says anything about how well the other played.  The score here is the result minus, at each
board card dealt and at each decision of the known player, how far a value estimate moved from what was
expected at that point:

* a decision of the known player (its distribution ``π``): ``V(after the action taken) − Σ π(a) · V(after a)``;
* a street dealt (the hand goes on): ``V(new board) − V(old board)``.

and the deal itself: ``V(the hole cards dealt) − V(an even share)``.  Each term has mean zero given everything
before it, so the score stays unbiased whatever ``V`` is; the closer ``V`` follows the result, the less variance
is left.  ``V`` is the check-down value from one seat's side, both players' cards known (this is a measurement,
not a player): ``share · 2m − m`` with ``m`` the chips both have matched and ``share`` the seat's share of a
showdown with the rest of the board dealt out, exact from the flop on (every physical card still in the shoe),
sampled before it.  A fold is scored by the chips it gives up.  The expected share after a card is the share
before it, and heads-up an even share is the expected share of a deal, which is what gives the street and deal
terms their zero mean.  (A value that also counts the chips later streets may add, ``share · F``, fitted on
640 hands against the strongest level, left the variance where it was: see ``docs/bots.md``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

import numpy as np

from taiwan_poker.cards import Card
from taiwan_poker.evaluate.batch import rank_batch
from taiwan_poker.rules.actions import Action, ActionKind
from taiwan_poker.rules.events import BoardDealt, DealerBurn, Event, PrivateCards
from taiwan_poker.rules.hand import Hand
from taiwan_poker.strategy.seat import SeatView

from .lbr import ActionDistribution, draw_distinct, unseen

EXACT_RUNOUTS = 50_000  # count every run-out when there are at most this many, else draw this many


def dealt_cards(events: Sequence[Event]) -> tuple[list[Card], list[Card], dict[int, tuple[Card, ...]]]:
    """From a hand's events: every card dealt (hole cards, private and dealer burns, board), the board, and each
    seat's hole cards."""
    dealt: list[Card] = []
    board: list[Card] = []
    holes: dict[int, tuple[Card, ...]] = {}
    for e in events:
        if isinstance(e, PrivateCards):
            holes[e.seat] = tuple(c for c in e.hole if c is not None)
            dealt += [c for c in (e.burn, *e.hole) if c is not None]
        elif isinstance(e, DealerBurn) and e.card is not None:
            dealt.append(e.card)
        elif isinstance(e, BoardDealt):
            board += e.cards
            dealt += e.cards
    return dealt, board, holes


def runouts(pool: np.ndarray, need: int, rng: np.random.Generator, samples: int = EXACT_RUNOUTS) -> np.ndarray:
    """The board cards still to come: every choice of ``need`` cards of ``pool`` when there are at most
    ``samples``, else ``samples`` uniform draws (one row each)."""
    if need == 0:
        return np.zeros((1, 0), dtype=np.int64)
    if comb(len(pool), need) <= samples:
        return np.array(list(combinations(pool.tolist(), need)), dtype=np.int64).reshape(-1, need)
    return draw_distinct(pool, samples, need, rng)


def showdown_share(hand: Hand, seat: int, rng: np.random.Generator) -> float:
    """``seat``'s share of a heads-up showdown with the board dealt out from the cards not yet dealt."""
    dealt, board, holes = dealt_cards(hand.events)
    return share_against(holes[seat], holes[1 - seat], dealt, board, hand.rules.decks, rng)


def share_against(mine: Sequence[Card], theirs: Sequence[Card], dealt: Sequence[Card], board: Sequence[Card],
                  decks: int, rng: np.random.Generator) -> float:
    """The share of a showdown of hole cards ``mine`` against ``theirs`` (wins, and half the ties) over the rest
    of the board drawn from the shoe minus ``dealt``."""
    runs = runouts(unseen(dealt, decks), 5 - len(board), rng)
    rows = np.empty((len(runs), 7), dtype=np.int16)
    rows[:, 2:2 + len(board)] = [c.index for c in board]
    rows[:, 2 + len(board):] = runs
    ranks = []
    for hole in (mine, theirs):
        rows[:, 0], rows[:, 1] = hole[0].index, hole[1].index
        ranks.append(rank_batch(rows, threads=1))
    return float(np.mean(np.where(ranks[0] > ranks[1], 1.0, np.where(ranks[0] == ranks[1], 0.5, 0.0))))


def _added(view: SeatView, action: Action) -> int:
    """The chips ``action`` adds to the acting seat's bet at ``view``."""
    if action.kind is ActionKind.CALL:
        return min(view.call_amount, view.stack)
    if action.kind is ActionKind.ALLIN:
        return view.stack
    if action.kind in (ActionKind.BET, ActionKind.RAISE) and action.to is not None:
        return action.to - view.bets[view.seat]
    return 0


class LuckAdjuster:
    """The score of one heads-up hand from ``seat``'s side (module docstring).  The runner tells it each known
    decision of the other seat before it is applied (:meth:`decision`) and the hand after every action
    (:meth:`acted`); :meth:`score` turns the hand's result into the adjusted one."""

    def __init__(self, hand: Hand, seat: int, rng: np.random.Generator) -> None:
        self.seat = seat
        self.rng = rng
        self.correction = 0.0
        self._shares: dict[int, float] = {}
        self._board = len(hand.board)
        self._pending: tuple[dict[Action, float], float] | None = None
        self._street_term(hand, self.share(hand) - 0.5)  # the deal: an even share is what a deal gives on average

    def share(self, hand: Hand) -> float:
        key = len(hand.board)
        if key not in self._shares:
            self._shares[key] = showdown_share(hand, self.seat, self.rng)
        return self._shares[key]

    def _street_term(self, hand: Hand, moved: float) -> None:
        """The term of a deal that moved the share by ``moved``: ``moved · 2m``."""
        self.correction += moved * 2 * min(hand.betting.contrib)

    def decision(self, hand: Hand, view: SeatView, dist: ActionDistribution) -> None:
        """The other seat is to act at ``view`` and draws from ``dist``: each action's value, and their mean."""
        share = self.share(hand)
        contrib = list(hand.betting.contrib)
        values: dict[Action, float] = {}
        for action, _ in dist:
            if action.kind is ActionKind.FOLD:
                values[action] = float(contrib[view.seat])
            else:
                after = contrib.copy()
                after[view.seat] += _added(view, action)
                matched = min(after)
                values[action] = share * 2 * matched - matched
        self._pending = values, sum(p * values[a] for a, p in dist)

    def acted(self, hand: Hand, action: Action) -> None:
        """After ``action`` was applied to ``hand``: the decision's term, and a street's when one was dealt."""
        if self._pending is not None:
            values, mean = self._pending
            self.correction += values[action] - mean
            self._pending = None
        if len(hand.board) != self._board:
            old = self._shares[self._board]
            self._board = len(hand.board)
            if not hand.complete:  # a run-out after an all-in is scored by its expectation (the result's)
                self._street_term(hand, self.share(hand) - old)

    def score(self, result: float) -> float:
        return result - self.correction
