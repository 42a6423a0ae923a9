"""Player actions, the legal options of the seat to act, and the illegal-action error."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from ..errors import BadActionError, IllegalActionError


class ActionKind(StrEnum):
    """What a player can do.  ``bet``/``raise`` carry a street total ("raise to")."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"


ORDER: tuple[ActionKind, ...] = tuple(ActionKind)
_SIZED = (ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: ``kind`` and, for bet/raise, ``to`` = the street total the player brings their bet to."""

    kind: ActionKind
    to: int | None = None

    def __str__(self) -> str:
        return self.kind.value if self.to is None else f"{self.kind.value} {self.to}"


FOLD = Action(ActionKind.FOLD)
CHECK = Action(ActionKind.CHECK)
CALL = Action(ActionKind.CALL)
ALLIN = Action(ActionKind.ALLIN)
_SIMPLE = {"fold": FOLD, "check": CHECK, "call": CALL, "allin": ALLIN, "all-in": ALLIN}


def parse_action(text: object) -> Action:
    """Read the contract notation: ``fold``, ``check``, ``call``, ``allin``, ``bet N``, ``raise N``."""
    if not isinstance(text, str):
        raise BadActionError(f"an action must be a string, not {type(text).__name__}")
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _SIMPLE:
        return _SIMPLE[words[0]]
    if len(words) == 2 and words[0] in ("bet", "raise"):
        if not (words[1].isascii() and words[1].isdigit()):
            raise BadActionError(f"bad amount in action {text!r}: expected a whole number of chips")
        return Action(ActionKind(words[0]), int(words[1]))
    raise BadActionError(f"unknown action {text!r}: expected fold, check, call, bet N, raise N or allin")


class Legal(NamedTuple):
    """The options of the seat to act.

    ``call_amount`` is what a call puts in (less than the bet faced when it is an
    all-in call).  ``min_to``/``max_to`` are street totals for ``bet`` or
    ``raise`` (whichever is in ``actions``), 0 when neither is.  ``allin_to`` is
    the street total an all-in reaches.  (A NamedTuple: immutable, and cheap on the hot path.)
    """

    seat: int
    actions: tuple[ActionKind, ...]
    call_amount: int
    min_to: int
    max_to: int
    allin_to: int

    def allows(self, kind: ActionKind) -> bool:
        return kind in self.actions

    def to_json(self) -> dict[str, Any]:
        """The contract's ``legal`` object."""
        out: dict[str, Any] = {"actions": [a.value for a in self.actions], "call_amount": self.call_amount}
        if ActionKind.RAISE in self.actions:
            out["min_raise_to"] = self.min_to
            out["max_raise_to"] = self.max_to
        elif ActionKind.BET in self.actions:
            out["min_bet_to"] = self.min_to
            out["max_bet_to"] = self.max_to
        return out

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is allowed (verify step of verify/can/do).

        The error's ``reason`` says why (and its parameters the amounts), so a shell can tell the player in
        their language, e.g. "the minimum raise is to 140"."""
        kind = action.kind
        if kind in _SIZED:
            to = action.to
            if to is None:
                raise IllegalActionError(f"{kind.value} needs an amount (the street total)", legal=self,
                                         reason=f"{kind.value}_needs_amount")
            if kind not in self.actions:
                if to == self.allin_to and ActionKind.ALLIN in self.actions:
                    return
                if kind is ActionKind.RAISE and ActionKind.BET in self.actions:
                    raise IllegalActionError("cannot raise now: a bet is not yet made; bet instead", legal=self,
                                             reason="bet_instead")
                if kind is ActionKind.BET and ActionKind.RAISE in self.actions:
                    raise IllegalActionError("cannot bet now: there is a bet to face; raise instead", legal=self,
                                             reason="raise_instead")
                raise IllegalActionError(f"{kind.value} is not allowed now", legal=self,
                                         reason=f"no_{kind.value}")
            if to < self.min_to:
                if to == self.allin_to and ActionKind.ALLIN in self.actions:
                    return
                raise IllegalActionError(
                    f"{kind.value} to {to} is below the minimum {kind.value} to {self.min_to}", legal=self,
                    reason=f"{kind.value}_below_min", to=to, min_to=self.min_to, max_to=self.max_to,
                )
            if to > self.max_to:
                if to == self.allin_to and ActionKind.ALLIN in self.actions:  # the whole stack: say to go all in
                    raise IllegalActionError(
                        f"{kind.value} to {to} is your whole stack, more than anyone can call (at most {self.max_to});"
                        " go all in instead (allin: the chips nobody can call come back)", legal=self,
                        reason=f"{kind.value}_whole_stack", to=to, min_to=self.min_to, max_to=self.max_to)
                raise IllegalActionError(
                    f"{kind.value} to {to} is above the maximum {kind.value} to {self.max_to}", legal=self,
                    reason=f"{kind.value}_above_max", to=to, min_to=self.min_to, max_to=self.max_to,
                )
            return
        if kind not in self.actions:
            reasons = {
                ActionKind.CHECK: ("cannot check: there is a bet to call", "no_check"),
                ActionKind.CALL: ("nothing to call; check instead", "no_call"),
                ActionKind.FOLD: ("cannot fold when checking is possible", "no_fold"),
                ActionKind.ALLIN: ("cannot go all-in: betting is not reopened for this player", "no_allin"),
            }
            message, reason = reasons.get(kind, (f"{kind.value} is not allowed now", f"no_{kind.value}"))
            raise IllegalActionError(message, legal=self, reason=reason, call=self.call_amount)
