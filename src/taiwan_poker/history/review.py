"""The review of a played hand for one seat: every decision with its equity, its price and a mark.

Each decision is judged on what the seat knew then: the hand is replayed up to
that decision and the coach's numbers are computed from the seat's own view
(:func:`~taiwan_poker.coach.advice.advise`), the strongest strategy's
distribution among them.  They are the numbers the coach gave at that
decision: the same view (the table's habits attached alike), the same method
and the same draws (seeded by the spot and by the hand's public line).  The
mark is the decision's **expected loss against that strategy**
(``docs/coach.md``):

* the strategy's likeliest action (the coach's suggestion) is always *good*;
* after the flop, each action's value in chips comes from the strategy's
  one-step model (:func:`taiwan_poker.strategy.policy.values`); the loss is
  the strategy's expected value (its probabilities over those values) less
  the value of the action taken.  Up to a big blind or 5 % of the pot is
  *good*, up to three big blinds or 15 % of the pot *questionable*, more a
  *mistake*; an action the strategy itself takes at least a fifth of the time
  is *good* whatever the estimate;
* before the flop the solved tables give probabilities, not values: an
  action they take at least 10 % of the time is *good*, 2 % *questionable*,
  less a *mistake* (no loss in chips is given).

Where it can be computed exactly, the chip cost of a call or fold facing an
all-in heads-up is given too (the opponent's cards shown at the end make the
equity exact); it marks the decision only when the seat did not follow the
strategy's likeliest action.  For a hand that went all-in before the river
with the cards shown, the all-in EV compares the chips the seat could expect
at that moment with the chips it won.

Every mark carries its reason (:class:`Why`), so a *good* beside chips given up
says why it is good: the strategy's first choice, inside its mix, or a loss
within the tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..cards import Card
from ..coach.advice import advise_with_plan
from ..coach.tournament import TournamentSeat
from ..odds.equity import equity as exact_equity
from ..rules.actions import Action, ActionKind
from ..rules.events import ActionTaken, BoardDealt, HandShown, PotAwarded
from ..rules.hand import Hand
from ..rules.replay import STREET_NAMES, replay
from ..rules.views import events_for
from ..strategy.habits import Habits
from ..strategy.legal import action_key
from ..strategy.policy import Strategy, values
from ..strategy.seat import SeatView, seat_view


class Why(StrEnum):
    """The reason for a mark."""

    FIRST_CHOICE = "first_choice"  # the strategy's likeliest action (good; an exact cost is the cards' doing)
    IN_MIX = "in_mix"  # the strategy itself takes it often enough (good whatever the estimated loss)
    SMALL_LOSS = "small_loss"  # the loss against the strategy is within the tolerance (good)
    RARELY = "rarely"  # before the flop: the strategy seldom takes it (questionable or a mistake)
    BIG_LOSS = "big_loss"  # after the flop: the loss against the strategy is beyond the tolerance
    EXACT_NONE = "exact_none"  # against the cards shown later, the choice gave up nothing (good)
    EXACT_COST = "exact_cost"  # against the cards shown later, the choice gave up chips (a mistake)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A decision's mark against the strategy, why, its loss in chips (None before the flop) and how often the
    strategy takes the action taken."""

    mark: str  # "good", "questionable" or "mistake"
    why: Why
    loss: float | None
    probability: float


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
    loss: float | None = None  # expected chips given up against the strategy (after the flop)
    big_blind: int = 0
    probability: float = 0.0  # how often the strategy takes the action taken
    mix: tuple[tuple[str, int | None, float], ...] = ()  # the strategy there (the coach's distribution)
    why: Why = Why.FIRST_CHOICE  # the reason for the mark

    def to_json(self) -> dict[str, object]:
        return {"street": self.street, "action": self.action, "to": self.to, "call": self.call, "pot": self.pot,
                "price": round(self.price, 4), "equity": round(self.equity, 4),
                "equity_random": round(self.equity_random, 4), "suggestion": self.suggestion, "mark": self.mark,
                "why": self.why.value, "cost": self.cost,
                "exact_equity": None if self.exact_equity is None else round(self.exact_equity, 4),
                "loss": None if self.loss is None else round(self.loss, 1),
                "loss_bb": None if self.loss is None or not self.big_blind else round(self.loss / self.big_blind, 2),
                "probability": round(self.probability, 4),
                "mix": [{"action": k, "to": to, "probability": round(p, 4)} for k, to, p in self.mix]}


@dataclass(frozen=True, slots=True)
class AllInEV:
    street: str  # the street on which the last chips went in
    equity: float  # the seat's share of the pots it could win, at that moment, against the shown cards
    expected: int  # chips it could expect back from the pots
    won: int  # chips it won back

    def to_json(self) -> dict[str, object]:
        return {"street": self.street, "equity": round(self.equity, 4), "expected": self.expected, "won": self.won}


GOOD_SHARE = 0.2  # an action the strategy takes this often is good whatever the value estimate
PREFLOP_GOOD, PREFLOP_QUESTIONABLE = 0.10, 0.02


def mark(view: SeatView, plan: Strategy, taken: Action) -> Verdict:
    """The mark of one decision against the strategy, with its reason (rules in the module docstring)."""
    p = plan.probability(view, taken)
    if action_key(view, taken) == action_key(view, plan.likeliest):
        return Verdict("good", Why.FIRST_CHOICE, 0.0, p)
    choices = [a for a, _ in plan.choices]
    vals = values(view, plan, [taken, *choices])
    if vals is None:
        if p >= PREFLOP_GOOD:
            return Verdict("good", Why.IN_MIX, None, p)
        return Verdict("questionable" if p >= PREFLOP_QUESTIONABLE else "mistake", Why.RARELY, None, p)
    expected = sum(q * x for (_, q), x in zip(plan.choices, vals[1:], strict=True))
    loss = max(0.0, expected - vals[0])
    if p >= GOOD_SHARE:
        return Verdict("good", Why.IN_MIX, loss, p)
    bb, pot = view.big_blind, view.pot
    if loss <= max(bb, 0.05 * pot):
        return Verdict("good", Why.SMALL_LOSS, loss, p)
    return Verdict("questionable" if loss <= max(3 * bb, 0.15 * pot) else "mistake", Why.BIG_LOSS, loss, p)


def _taken(ev: ActionTaken) -> Action:
    if ev.kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(ev.kind, ev.to)
    return Action(ev.kind)


def review(hand: Hand, seat: int, habits: tuple[Habits | None, ...] = (), tournament: TournamentSeat | None = None
           ) -> tuple[list[Decision], AllInEV | None]:
    """The seat's decisions in ``hand`` (complete), and the all-in EV where it applies; ``habits``: what the
    table had seen of each seat's player before this hand (the coach saw them too, :mod:`~..strategy.habits`);
    ``tournament``: a sit-and-go's payouts as they stood at this hand (the coach's push-or-fold mix and ICM)."""
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
        view = seat_view(before, seat).seeing(habits)  # as the coach saw it then
        advice, plan = advise_with_plan(view, tournament=tournament)  # what the coach said, draw for draw
        taken = _taken(ev)
        verdict = mark(view, plan, taken)
        cost, exact = _exact_cost(before, view.call_amount, seat, kind, shown)
        if cost is not None and verdict.why is not Why.FIRST_CHOICE:  # exact: it gave up chips or it did not
            verdict = (Verdict("mistake", Why.EXACT_COST, verdict.loss, verdict.probability) if cost > 0
                       else Verdict("good", Why.EXACT_NONE, verdict.loss, verdict.probability))
        decisions.append(Decision(STREET_NAMES[view.street], kind.value, ev.to, view.call_amount, view.pot,
                                  advice.price, advice.equity_range, advice.equity_random, advice.action,
                                  verdict.mark, cost, exact, verdict.loss, view.big_blind, verdict.probability,
                                  advice.mix, verdict.why))
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

