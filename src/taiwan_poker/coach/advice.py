"""In-hand advice for one seat, from that seat's view only (the same input a bot gets).

It shows the current best hand; the outs to improve it counted on physical
cards (the seat's own burn removed, duplicate faces counted, as in the spec's
outs rule ``O / N`` with ``N = 52d − k``); the price of the call faced; the
equity against random hands and against ranges read from the opponents'
actions; and a one-line suggestion with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import Card
from ..evaluate import HandValue, hand_value
from ..odds.outs import at_least_one
from ..strategy.estimate import equity
from ..strategy.reading import preflop_widths, read_range
from ..strategy.seat import SeatView
from ..strategy.strength import preflop_rank
from ..strategy.thresholds import RAISE_MARGIN, value_threshold

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
    action: str  # "fold", "check", "call", "bet" or "raise"
    reason: str  # the numbers behind it, e.g. "equity 31 % > price 20 % → call"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "best": self.best, "best_cards": list(self.best_cards), "price": round(self.price, 4),
            "call": self.call, "pot": self.pot, "equity_random": round(self.equity_random, 4),
            "equity_range": round(self.equity_range, 4), "action": self.action, "reason": self.reason,
            "outs": None,
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


def advise(v: SeatView, rng: np.random.Generator, samples: int = SAMPLES) -> Advice:
    """Advice for the seat to act, from its view only."""
    opponents = v.opponents
    eq_random = equity(v.hole, v.board, v.burns, v.decks, [None] * len(opponents), samples, rng)
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
    action, reason = suggest(eq_range, price, len(opponents), v.call_amount)
    return Advice(best, best_cards, improving_outs(v), price, v.call_amount, v.pot, eq_random, eq_range,
                  action, reason)


def suggest(eq: float, price: float, opponents: int, call: int) -> tuple[str, str]:
    """The suggested action and its reason in numbers (the page translates the words around them)."""
    pct = f"{eq:.0%}"
    cut = value_threshold(opponents)
    if call == 0:
        if eq >= cut:
            return "bet", f"equity {pct} ≥ {cut:.0%} → bet for value"
        return "check", f"equity {pct} < {cut:.0%} → check"
    if eq >= max(cut + RAISE_MARGIN, price):
        return "raise", f"equity {pct} ≥ {cut + RAISE_MARGIN:.0%} → raise"
    if eq >= price:
        return "call", f"equity {eq:.0%} > price {price:.0%} → call"
    return "fold", f"equity {eq:.0%} < price {price:.0%} → fold"
