"""A seat's preflop decision from the solved tables: its view read as a table situation, the answer as actions.

:func:`preflop_situation` reads the seats dealt in, the button and the
preflop actions of a :class:`~.seat.SeatView` as the tables' positions and
history in big blinds, with the effective stack at the start of the hand
(the smaller of the seat's and the largest other's).  The tables cover two to
six players without a straddle; elsewhere it answers ``None`` and the caller
falls back on :func:`fallback_choices` (a ranking by starting-hand strength).

:func:`preflop_choices` turns the table's probabilities into legal actions,
with the hand's equity against the ranges it faces (the tables' ranges at
this node, read with a floor, by the exact class-against-class equities).
Facing an all-in (or a call that is all in), where the equity is all a call
can realise, a hand whose equity beats the price is never folded: its fold
goes to the call.  Elsewhere the tables' folds stand even where the raw
equity beats the price: out of position a weak hand realises far less than
its equity, the equilibrium folds it, and forcing those calls cost 30 bb/100
against the solid level (measured when this rule was set, commit a26e097).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..lru import LruMap
from ..rules.actions import ALLIN, CALL, CHECK, FOLD, Action, ActionKind
from .classes import CLASSES, class_index, class_of_cards, class_weights, removal_matrix
from .equity_matrix import equity_matrix
from .habits import PRIOR_FOLD
from .legal import action_key, allin, check_or_call, check_or_fold, raise_to
from .preflop import (
    READ_FLOOR,
    PreflopLookupError,
    lookup,
    nearest_stack,
    positions,
    ranges,
    seat_position,
    table_decks,
)
from .seat import SeatView
from .strength import preflop_rank

Choices = list[tuple[Action, float]]
PRIORS = 256  # preflop decision points whose opponents' table ranges are kept


@dataclass(frozen=True, slots=True)
class PreflopSituation:
    players: int
    positions: dict[int, int]  # table seat -> position index in preflop order
    hero: int
    history: list[tuple[int, str, float]]
    stack_bb: float


def preflop_situation(v: SeatView) -> PreflopSituation | None:
    """The seat's preflop spot in the tables' terms, or None where the tables do not cover it."""
    dealt = v.dealt
    n = len(dealt)
    if not 2 <= n <= 6 or v.straddle is not None or v.button not in dealt or v.seat not in dealt:
        return None
    positions = {s: seat_position(s, v.button, dealt) for s in dealt}
    if positions.get(v.big_blind_seat) != n - 1:
        return None  # a dead or moved blind the tables do not know
    bb = v.big_blind
    history: list[tuple[int, str, float]] = []
    for a in v.history:
        if a.street != 0:
            continue
        kind = a.effect
        name = ("fold" if kind is ActionKind.FOLD else "check" if kind is ActionKind.CHECK
                else "call" if kind is ActionKind.CALL else "allin" if a.allin else "raise")
        history.append((positions[a.seat], name, a.to / bb))
    starts = v.start_stacks or v.stacks
    others = [starts[s] for s in dealt if s != v.seat]
    stack_bb = min(starts[v.seat], max(others)) / bb
    if not stack_bb > 0:
        return None
    return PreflopSituation(n, positions, positions[v.seat], history, stack_bb)


def _to_action(v: SeatView, kind: str, to_bb: float) -> Action:
    if kind == "fold":
        return check_or_fold(v) if v.call_amount == 0 else FOLD
    if kind in ("check", "call"):
        if v.can(ActionKind.CHECK):
            return CHECK
        return CALL if v.can(ActionKind.CALL) else ALLIN if v.can(ActionKind.ALLIN) else check_or_fold(v)
    if kind == "allin":
        return allin(v)
    return raise_to(v, round(to_bb * v.big_blind))


def merge(v: SeatView, choices: Choices) -> Choices:
    """One entry per distinct move (a check and a call-for-nothing, an all-in and the same raise), summing to 1."""
    merged: dict[int, tuple[Action, float]] = {}
    for action, p in choices:
        if p <= 0:
            continue
        key = action_key(v, action)
        old = merged.get(key)
        merged[key] = (old[0] if old else action, (old[1] if old else 0.0) + p)
    total = sum(p for _, p in merged.values()) or 1.0
    return [(a, p / total) for a, p in merged.values()]


_priors: LruMap[tuple[object, ...], dict[str, npt.NDArray[np.float64]]] = LruMap(PRIORS, clock=lambda: 0.0)


def _table_ranges(v: SeatView, sit: PreflopSituation) -> dict[str, npt.NDArray[np.float64]]:
    """The tables' ranges of the positions still in, as weights over :data:`CLASSES` (public: made once per
    decision point, which LBR and the coach ask for many hole cards)."""
    key = (v.decks, sit.players, sit.stack_bb, sit.hero, tuple(sit.history))
    hit = _priors.get(key)
    if hit is None:
        by_pos = ranges(v.decks, sit.players, sit.stack_bb, sit.hero, sit.history, READ_FLOOR)
        hit = {name: np.array([dist.get(c, 0.0) for c in CLASSES]) for name, dist in by_pos.items()}
        _priors.put(key, hit)
    return hit


def facing_equity(v: SeatView, sit: PreflopSituation) -> float | None:
    """The hand's all-in equity against the tables' ranges of the players still in (a product over them)."""
    try:
        by_pos = _table_ranges(v, sit)
    except PreflopLookupError:
        return None
    names = positions(sit.players)
    d = table_decks(v.decks, sit.players, nearest_stack(sit.stack_bb))
    eq = equity_matrix(d)
    removal = removal_matrix(d)
    i = class_index(class_of_cards(v.hole[0], v.hole[1]))
    out = 1.0
    for seat in v.opponents:
        pos = sit.positions.get(seat)
        dist = by_pos.get(names[pos]) if pos is not None else None
        # a line the tables never take leaves no range: then any two cards
        prior = class_weights(d) if dist is None else dist
        w = prior * removal[i]
        if not w.sum() > 0:
            w = class_weights(d) * removal[i]
        out *= float((eq[i] * w).sum() / w.sum())
    return out


def preflop_choices(v: SeatView) -> tuple[Choices, float | None] | None:
    """The tables' distribution at this decision as legal actions (and the equity behind the guard), or None."""
    sit = preflop_situation(v)
    if sit is None:
        return None
    try:
        found = lookup(v.decks, sit.players, sit.stack_bb, sit.hero, sit.history, v.hole)
    except PreflopLookupError:
        return None
    choices = [(_to_action(v, a.kind, a.to_bb), a.probability) for a in found.actions]
    eq = facing_equity(v, sit) if v.call_amount > 0 else None
    if eq is not None and eq > v.price() and _call_ends_betting(v):
        choices = [(check_or_call(v) if a.kind is ActionKind.FOLD else a, p) for a, p in choices]
    return merge(v, reraise_folders(v, choices)), eq


RERAISE_TIMES = 3  # the exploiting re-raise: to three times the bet faced


def reraise_value(v: SeatView) -> tuple[Action, float] | None:
    """Facing a raise before the flop: a re-raise to three times the bet and its value in chips against the
    players' habits (:mod:`.habits`), if everyone folds the pot, else the re-raise lost (the hand's equity is
    not counted: a floor).  None without habits to go on, or when no re-raise is legal."""
    raiser = v.aggressor(0)
    if v.street != 0 or v.call_amount <= 0 or raiser is None or raiser == v.seat:
        return None
    seen = v.habits_of(raiser)
    if seen is None:
        return None
    action = raise_to(v, RERAISE_TIMES * v.current_bet)
    if action.kind not in (ActionKind.RAISE, ActionKind.ALLIN) or action_key(v, action) <= v.current_bet:
        return None
    risk = action_key(v, action) - v.bets[v.seat]
    level = v.raises_on(0) + 1  # the level the others then face
    folds = seen.fold_to_reraise(level - 2)  # the raiser's raise was an open (0) or a re-raise
    for s in v.live:
        if s in (v.seat, raiser) or v.stacks[s] == 0:
            continue
        other = v.habits_of(s)
        folds *= other.fold_rate(level) if other is not None else PRIOR_FOLD[min(level, len(PRIOR_FOLD) - 1)]
    return action, folds * v.pot - (1 - folds) * risk


def reraise_folders(v: SeatView, choices: Choices) -> Choices:
    """Against players who fold to re-raises too often (their habits at this table), the tables' folds of this
    hand become that re-raise when it wins more than it loses on folds alone (:func:`reraise_value`)."""
    fold = sum(p for a, p in choices if a.kind is ActionKind.FOLD)
    if fold <= 0 or not v.habits:
        return choices
    found = reraise_value(v)
    if found is None or found[1] <= 0:
        return choices
    return [(a, p) for a, p in choices if a.kind is not ActionKind.FOLD] + [(found[0], fold)]


def _call_ends_betting(v: SeatView) -> bool:
    """Whether a call would leave no more betting: the bet faced is an all-in that nobody else can still raise
    over, or the call puts this seat all in. Then the equity is all a call realises."""
    if v.call_amount >= v.stack:
        return True
    others = [s for s in v.live if s != v.seat]
    return len(others) == 1 and v.stacks[others[0]] == 0


def fallback_choices(v: SeatView) -> Choices:
    """Where the tables do not reach (seven or more players, a straddle): by starting-hand strength and raises.

    Open the top 15–50 % by position (the button heads-up 65 %) to 2.5 big blinds; facing one raise re-raise the
    top 5 % to three times, call the top 25 % (heads-up 45 %); facing more, re-raise the top 2.5 % and call the
    top 6 %; a call that is a small part of the stack and beats the price against a random hand is never folded.
    """
    top = float(preflop_rank(v.decks)[v.hole[0].face, v.hole[1].face])
    raises = v.raises_on(0)
    heads_up = len(v.live) == 2
    if raises == 0 or (v.straddle is not None and raises == 1 and v.current_bet <= 2 * v.big_blind):
        behind = _behind(v)
        width = 0.65 if heads_up and v.seat == v.button else min(0.5, 0.11 + 0.05 / max(behind, 1) + 0.04)
        opened = raise_to(v, round((2.5 + _limpers(v)) * max(v.big_blind, v.current_bet)))
        edge = max(0.0, min(1.0, (width + 0.03 - top) / 0.06))
        passive = check_or_call(v) if v.call_amount == 0 or (heads_up and top <= 0.7) else check_or_fold(v)
        return merge(v, [(opened, edge), (passive, 1 - edge)])
    if raises == 1:
        reraise, call = 0.05, 0.45 if heads_up else 0.25
    else:
        reraise, call = 0.025, 0.06
    if top <= reraise:
        return merge(v, [(raise_to(v, 3 * v.current_bet), 0.8), (check_or_call(v), 0.2)])
    if top <= call:
        return [(check_or_call(v), 1.0)]
    return [(check_or_fold(v), 1.0)]


def _behind(v: SeatView) -> int:
    n = len(v.stacks)
    order = [s for s in ((v.big_blind_seat + 1 + i) % n for i in range(n)) if s in v.live]
    return len(order) - 1 - order.index(v.seat)


def _limpers(v: SeatView) -> int:
    return sum(1 for a in v.history if a.street == 0 and a.effect is ActionKind.CALL)
