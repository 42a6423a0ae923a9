"""In-hand advice for one seat, from that seat's view only (the same input a bot gets).

It shows the current best hand; the outs to improve it counted on physical
cards (the seat's own burn removed, duplicate faces counted, as in the spec's
outs rule ``O / N`` with ``N = 52d − k``); the price of the call faced; the
equity against random hands and against the ranges read from the opponents'
actions; and the strongest strategy's distribution at this decision
(:func:`taiwan_poker.strategy.policy.strategy`, the one the strong bots
play), e.g. "raise to 60: 55 %, call: 45 %", its likeliest action being the
suggestion, with the numbers it rests on.

In a sit-and-go (``tournament`` given) a decision the push-or-fold game
covers (:mod:`taiwan_poker.strategy.push_fold`: 20 big blinds or less, first
in or facing only all-ins) is advised from the push-or-fold tables, as the
bots play it, and near the money the advice carries the ICM value of each
option beside its chips (:mod:`.tournament`).

The advice at a decision is a function of that decision: the deals of the
equity estimates come from a seed made of the spot (:func:`spot`), and the
strategy's range read from one made of the hand's public line
(:mod:`~taiwan_poker.strategy.seeding`).  So the review of the hand,
replaying it to the same moment, reports the equity and the strategy the
coach gave there.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction

from ..cards import Card
from ..evaluate import HandValue, hand_value
from ..odds.outs import at_least_one
from ..rules.actions import Action, ActionKind
from ..strategy.estimate import equity
from ..strategy.legal import action_key
from ..strategy.policy import Strategy, strategy
from ..strategy.postflop import table_equity
from ..strategy.push_fold import push_fold_choices
from ..strategy.reading import preflop_widths, read_range
from ..strategy.seat import SeatView
from ..strategy.seeding import generator_for
from ..strategy.strength import preflop_rank
from .tournament import IcmAdvice, TournamentSeat, icm_advice

SAMPLES = 3000  # deals per equity estimate: about ±1.8 % at 95 %


@dataclass(frozen=True, slots=True)
class OutsGroup:
    """Unseen physical cards whose next appearance lifts the hand to ``category``."""

    category: str
    faces: tuple[str, ...]
    outs: int  # O: physical cards of those faces the seat has not seen
    next_card: float  # O / N
    by_river: float | None  # 1 − C(N−O, 2) / C(N, 2): at least one in the next two cards (on the flop only)


@dataclass(frozen=True, slots=True)
class Outs:
    """The outs to improve, by the category each one makes (a card counts once, for the best it makes)."""

    unseen: int  # N = 52d − k
    known: int  # k: hole cards, own burn, board
    groups: tuple[OutsGroup, ...]  # strongest category first

    @property
    def total(self) -> int:
        return sum(g.outs for g in self.groups)


@dataclass(frozen=True, slots=True)
class Advice:
    best: str | None  # category of the best five cards now (None before the flop)
    best_cards: tuple[str, ...]
    outs: Outs | None
    price: float  # call / (pot + call); 0 when nothing is to call
    call: int
    pot: int
    equity_random: float
    equity_range: float
    action: str  # the strategy's likeliest: "fold", "check", "call", "bet", "raise" or "allin"
    reason: str  # the numbers behind it, e.g. "equity 31.2% · price 20.0% · defend 75%"
    mix: tuple[tuple[str, int | None, float], ...] = ()  # the strategy: (kind, street total or None, probability)
    alpha: float = 0.0  # the most of the range that may fold to the bet faced (minimum defence 1 − alpha)
    push_fold: bool = False  # the mix is the push-or-fold tables' (a sit-and-go, 20 big blinds or less)
    icm: IcmAdvice | None = None  # near the money in a sit-and-go: each option's chips and prize points

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "best": self.best, "best_cards": list(self.best_cards), "price": round(self.price, 4),
            "call": self.call, "pot": self.pot, "equity_random": round(self.equity_random, 4),
            "equity_range": round(self.equity_range, 4), "action": self.action, "reason": self.reason,
            "mix": [{"action": k, "to": to, "probability": round(p, 4)} for k, to, p in self.mix],
            "alpha": round(self.alpha, 4), "outs": None, "push_fold": self.push_fold,
            "icm": None if self.icm is None else self.icm.to_json(),
        }
        if self.outs is not None:
            o = self.outs
            out["outs"] = {
                "unseen": o.unseen, "known": o.known, "total": o.total,
                "groups": [{"category": g.category, "faces": list(g.faces), "outs": g.outs,
                            "formula": f"{g.outs}/{o.unseen}", "next_card": round(g.next_card, 4),
                            "by_river": None if g.by_river is None else round(g.by_river, 4)} for g in o.groups],
            }
        return out


def improving_outs(v: SeatView) -> Outs | None:
    """On the flop or turn: for each stronger category, the unseen physical cards whose next card makes it."""
    if len(v.board) not in (3, 4):
        return None
    mine = (*v.hole, *v.board)
    now = HandValue(hand_value(mine), mine).category
    order = list(type(now))  # categories, strongest first
    seen = [0] * 52
    for c in v.known:
        seen[c.face] += 1
    unseen = 52 * v.decks - len(v.known)
    by_category: dict[str, tuple[list[str], int]] = {}
    for face in range(52):
        left = v.decks - seen[face]
        if left <= 0:
            continue
        card = Card(face // 4, face % 4, 1)
        after = HandValue(hand_value((*mine, card)), (*mine, card)).category
        if order.index(after) < order.index(now):
            faces, outs = by_category.get(after.value, ([], 0))
            faces.append(card.face_str)
            by_category[after.value] = (faces, outs + left)
    groups = []
    for category in order:
        if category.value in by_category:
            faces, outs = by_category[category.value]
            by_river = float(at_least_one(unseen, outs, 2)) if len(v.board) == 3 else None
            groups.append(OutsGroup(category.value, tuple(faces), outs, float(Fraction(outs, unseen)), by_river))
    return Outs(unseen, len(v.known), tuple(groups))


def spot(v: SeatView) -> tuple[object, ...]:
    """The decision ``v`` is: every field of the view but the habits (what the table saw of the players in earlier
    hands, which the strategy reads where it may)."""
    return tuple(getattr(v, f.name) for f in fields(v) if f.name != "habits")


def advise(v: SeatView, samples: int = SAMPLES, *, tournament: TournamentSeat | None = None) -> Advice:
    """Advice for the seat to act, from its view only (and, in a sit-and-go, the tournament's public payouts)."""
    return advise_with_plan(v, samples, tournament=tournament)[0]


def advise_with_plan(v: SeatView, samples: int = SAMPLES, *, tournament: TournamentSeat | None = None
                     ) -> tuple[Advice, Strategy]:
    """The advice and the strategy behind it (the review marks decisions against it); the equity estimates draw
    from a seed made of the spot (:mod:`~taiwan_poker.strategy.seeding`), the strategy is a function of the view.
    In a sit-and-go (``tournament``) a push-or-fold spot's mix is the push-or-fold tables' and near the money the
    advice has each option's ICM value (:func:`.tournament.icm_advice`)."""
    rng = generator_for(spot(v))
    opponents = v.opponents
    eq_random = equity(v.hole, v.board, v.burns, v.decks, [None] * len(opponents), samples, rng)
    plan = strategy(v)
    multiway = len(opponents) > 1  # one showdown against them all, as against random hands (:mod:`.multiway`)
    if plan.situation is not None and multiway:
        eq_range = table_equity(v, plan.situation)
    elif plan.equity is not None and not multiway:
        eq_range = plan.equity
    else:  # before the flop: against the ranges the preflop actions suggest
        top = preflop_rank(v.decks)
        widths = preflop_widths(v)
        ranges = [read_range(v, s, widths.get(s), top) for s in opponents]
        eq_range = equity(v.hole, v.board, v.burns, v.decks, ranges, samples, rng)
    best: str | None = None
    best_cards: tuple[str, ...] = ()
    if len(v.board) >= 3:
        hv = HandValue(hand_value((*v.hole, *v.board)), (*v.hole, *v.board))
        best, best_cards = hv.category.value, tuple(c.label for c in hv.best)
    price = v.price()
    mix = tuple(sorted(((a.kind.value, street_total(v, a), p) for a, p in plan.choices if p >= 0.005),
                       key=lambda m: -m[2]))
    source = plan.source
    short = push_fold_choices(v) if tournament is not None else None
    if short is not None:
        mix = tuple(sorted(((a.kind.value, street_total(v, a), p) for a, p in short if p >= 0.005),
                           key=lambda m: -m[2]))
        source = "tables"
    action = mix[0][0] if mix else plan.likeliest.kind.value
    icm = icm_advice(v, tournament) if tournament is not None else None
    return Advice(best, best_cards, improving_outs(v), price, v.call_amount, v.pot, eq_random, eq_range,
                  action, reason(eq_range, price, plan.alpha, source), mix, plan.alpha, short is not None,
                  icm), plan


def street_total(v: SeatView, action: Action) -> int | None:
    """The street total a bet, raise or all-in brings the seat to (None for a fold, check or call)."""
    if action.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN):
        return action_key(v, action)
    return None


def reason(eq: float, price: float, alpha: float, source: str) -> str:
    """The numbers the strategy rests on (the page translates the words around them); the equity and the price
    to a tenth of a point, as the panel and the review show them."""
    parts = [f"equity {eq:.1%}"]
    if price > 0:
        parts.append(f"price {price:.1%}")
    if alpha > 0 and source == "postflop":
        parts.append(f"defend {1 - alpha:.0%}")
    if source == "tables":
        parts.append("solved preflop")
    return " · ".join(parts)
