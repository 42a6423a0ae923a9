"""The review of a played hand for one seat: every decision with its equity, its price and a mark.

Each decision is judged on what the seat knew then: the hand is replayed up to
that decision and the coach's numbers are computed from the seat's own view
(:func:`~taiwan_poker.coach.advice.advise`).  Marks (``docs/coach.md``):

* facing a bet, with ``margin = equity − price``: a fold is a *mistake* when
  the margin is over 10 points and *questionable* over 3; a call is a mistake
  under −10 points and questionable under −3; a raise is questionable under
  −15 (a bluff can be right, so never a mistake);
* with nothing to call: a check is questionable with 20 points more equity
  than the value-bet line, a bet questionable under 25 % (a bluff).

Where it can be computed exactly, the chip cost of a mistake is given: a call
or fold facing an all-in heads-up, with the opponent's cards shown at the
end, where the equity against those very cards is exact.  For a hand that
went all-in before the river with the cards shown, the all-in EV compares
the chips the seat could expect at that moment with the chips it won.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import Card
from ..coach.advice import advise
from ..odds.equity import equity as exact_equity
from ..rules.actions import ActionKind
from ..rules.events import ActionTaken, BoardDealt, HandShown, PotAwarded
from ..rules.hand import Hand
from ..rules.replay import STREET_NAMES, replay
from ..rules.views import events_for
from ..strategy.seat import seat_view
from ..strategy.thresholds import value_threshold

SAMPLES = 4000


@dataclass(frozen=True, slots=True)
class Decision:
    street: str
    action: str
    to: int
    call: int
    pot: int
    price: float
    equity: float  # against the ranges read from the opponents' actions so far
    equity_random: float
    suggestion: str
    mark: str  # "good", "questionable" or "mistake"
    cost: int | None  # chips the choice gave up, when exactly computable
    exact_equity: float | None  # against the cards shown later, when that is how the cost was computed

    def to_json(self) -> dict[str, object]:
        return {"street": self.street, "action": self.action, "to": self.to, "call": self.call, "pot": self.pot,
                "price": round(self.price, 4), "equity": round(self.equity, 4),
                "equity_random": round(self.equity_random, 4), "suggestion": self.suggestion, "mark": self.mark,
                "cost": self.cost,
                "exact_equity": None if self.exact_equity is None else round(self.exact_equity, 4)}


@dataclass(frozen=True, slots=True)
class AllInEV:
    street: str  # the street on which the last chips went in
    equity: float  # the seat's share of the pots it could win, at that moment, against the shown cards
    expected: int  # chips it could expect back from the pots
    won: int  # chips it won back

    def to_json(self) -> dict[str, object]:
        return {"street": self.street, "equity": round(self.equity, 4), "expected": self.expected, "won": self.won}


def mark(action: ActionKind, equity: float, price: float, call: int, opponents: int) -> str:
    """good / questionable / mistake for one decision (rules in the module docstring)."""
    if call > 0:
        margin = equity - price
        if action is ActionKind.FOLD:
            return "mistake" if margin > 0.10 else "questionable" if margin > 0.03 else "good"
        if action is ActionKind.CALL:
            return "mistake" if margin < -0.10 else "questionable" if margin < -0.03 else "good"
        return "questionable" if margin < -0.15 else "good"
    if action in (ActionKind.CHECK, ActionKind.FOLD):
        return "questionable" if equity >= value_threshold(opponents) + 0.2 else "good"
    return "questionable" if equity < 0.25 else "good"


def review(hand: Hand, seat: int, seed: int = 0) -> tuple[list[Decision], AllInEV | None]:
    """The seat's decisions in ``hand`` (complete), and the all-in EV where it applies."""
    events = hand.events
    shown = {e.seat: e for e in events if isinstance(e, HandShown)}
    decisions: list[Decision] = []
    own = iter([a for a in replay(events_for(hand, seat)).actions if a.seat == seat])  # in the log's order
    for i, ev in enumerate(events):
        if not isinstance(ev, ActionTaken) or ev.seat != seat:
            continue
        kind = next(own).effect  # an all-in as the call, bet or raise it was
        if ev.timeout:
            continue
        before = Hand.from_events(hand.rules, events[:i])
        view = seat_view(before, seat)
        advice = advise(view, np.random.default_rng(seed * 1000 + i), SAMPLES)
        verdict = mark(kind, advice.equity_range, advice.price, view.call_amount, len(view.opponents))
        cost, exact = _exact_cost(before, view.call_amount, seat, kind, shown)
        if cost is not None:  # exact: the choice either gave up chips or it did not
            verdict = "mistake" if cost > 0 else "good"
        decisions.append(Decision(STREET_NAMES[view.street], kind.value, ev.to, view.call_amount, view.pot,
                                  advice.price, advice.equity_range, advice.equity_random, advice.action, verdict,
                                  cost, exact))
    return decisions, allin_ev(hand, seat)


def _exact_cost(before: Hand, call: int, seat: int, kind: ActionKind, shown: dict[int, HandShown]
                ) -> tuple[int | None, float | None]:
    """Facing an all-in heads-up with the opponent's cards shown later: the exact chips the choice gave up."""
    if call <= 0 or kind not in (ActionKind.CALL, ActionKind.FOLD):
        return None, None
    b = before.betting
    live = [s for s in before.players if not b.folded[s] and s != seat]
    if len(live) != 1 or b.stacks[live[0]] != 0 or live[0] not in shown:
        return None, None
    hero = before.hole_cards(seat)
    burns = [c for c in before.private_burns(seat) if c is not None]
    if any(c is None for c in hero):
        return None, None
    villain = shown[live[0]].hole
    result = exact_equity(
        [c for c in hero if c is not None], [list(villain)], list(before.board), decks=before.rules.decks,
        burn=burns[0] if burns else None, method="exact",
    )
    eq = result.players[0].equity
    pot_after_call = before.pot + call
    ev_call = eq * pot_after_call - call  # against folding, which keeps the call
    if kind is ActionKind.FOLD:
        return max(0, round(ev_call)), eq
    return max(0, round(-ev_call)), eq


def allin_ev(hand: Hand, seat: int) -> AllInEV | None:
    """When the seat was all in, or called one, before the river and cards were shown: expected against won."""
    events = hand.events
    shown = {e.seat: e for e in events if isinstance(e, HandShown)}
    if seat not in shown or len(shown) < 2:
        return None
    last_action = max((i for i, e in enumerate(events) if isinstance(e, ActionTaken)), default=None)
    if last_action is None:
        return None
    board_then = [c for e in events[:last_action + 1] if isinstance(e, BoardDealt) for c in e.cards]
    if len(board_then) >= 5:
        return None  # the betting went on to the river: no all-in before it
    pots = [e for e in events if isinstance(e, PotAwarded)]
    expected = 0.0
    won = 0
    total = 0
    for pot in pots:
        if seat not in pot.eligible:
            continue
        total += pot.amount
        won += sum(share for w, share in zip(pot.winners, pot.shares, strict=True) if w == seat)
        rivals = [s for s in pot.eligible if s != seat]
        if not rivals:
            expected += pot.amount
            continue
        if any(r not in shown for r in rivals):
            return None
        expected += pot.amount * _share(hand, seat, [shown[r].hole for r in rivals], board_then)
    if total == 0:
        return None
    return AllInEV(STREET_NAMES[{0: 0, 3: 1, 4: 2}[len(board_then)]], expected / total, round(expected), won)


def _share(hand: Hand, seat: int, rivals: Sequence[tuple[Card, ...]], board: Sequence[Card]) -> float:
    """The seat's exact share against the rivals' shown cards."""
    hero = [c for c in hand.hole_cards(seat) if c is not None]
    burns = [c for c in hand.private_burns(seat) if c is not None]
    result = exact_equity(hero, [list(r) for r in rivals], list(board), decks=hand.rules.decks,
                          burn=burns[0] if burns else None, method="exact")
    return float(result.players[0].equity)

