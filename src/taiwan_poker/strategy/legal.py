"""Turning an intention (check, call, bet or raise to about so much) into a legal action at a seat's view."""

from __future__ import annotations

from ..rules.actions import ALLIN, CALL, CHECK, FOLD, Action, ActionKind
from .seat import SeatView


def check_or_call(v: SeatView) -> Action:
    return CHECK if v.can(ActionKind.CHECK) else CALL if v.can(ActionKind.CALL) else ALLIN


def check_or_fold(v: SeatView) -> Action:
    return CHECK if v.can(ActionKind.CHECK) else FOLD


def raise_to(v: SeatView, to: int) -> Action:
    """Bet or raise to a street total of about ``to`` (clamped to the legal range; the whole stack when close)."""
    sized = ActionKind.BET if v.can(ActionKind.BET) else ActionKind.RAISE if v.can(ActionKind.RAISE) else None
    allin_to = v.bets[v.seat] + v.stack
    if sized is None:
        return ALLIN if v.can(ActionKind.ALLIN) and to >= allin_to else check_or_call(v)
    to = max(v.min_to, min(v.max_to, to))
    left = allin_to - to
    if to == allin_to or (left < v.pot * 0.3 and v.can(ActionKind.ALLIN) and v.max_to == allin_to):
        return ALLIN  # what would be left behind is not worth keeping
    return Action(sized, to)


def pot_fraction(v: SeatView, fraction: float) -> Action:
    """Bet (or raise) ``fraction`` of the pot after calling."""
    size = fraction * (v.pot + v.call_amount)
    return raise_to(v, v.current_bet + max(v.big_blind, round(size)))


def allin(v: SeatView) -> Action:
    """All in where allowed, else the largest raise, else a call."""
    if v.can(ActionKind.ALLIN):
        return ALLIN
    return raise_to(v, v.max_to) if v.max_to else check_or_call(v)


def action_key(view: SeatView, action: Action) -> int:
    """What an action does at the table, as one number: the street total it brings the seat to (-1: a fold).

    A check, a call and an all-in that only calls share a key with each other; an all-in that raises has the
    key of a raise to the same total, so two ways of writing one move count as one.
    """
    kind = action.kind
    allin_to = view.bets[view.seat] + view.stack
    if kind is ActionKind.FOLD:
        return -1
    if kind is ActionKind.CHECK or kind is ActionKind.CALL:
        return min(view.current_bet, allin_to)
    if kind is ActionKind.ALLIN:
        return allin_to
    return action.to if action.to is not None else -2
