"""A match: a sequence of hands at one table; stacks carry over, the button rotates, busted players are out.

The match ends when one player holds every chip (heads-up: as soon as either
player has none).  The button moves each hand to the next seat clockwise that
still has chips; the blinds follow it (no dead button).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import RandomSource, live_rng
from ..errors import BadStacksError, TaiwanPokerError
from .events import event_from_json, event_to_json
from .hand import Hand
from .ruleset import RuleSet


class MatchOverError(TaiwanPokerError):
    code = "match_over"


class Match:
    """Hands in sequence.  ``rng`` (default: the OS CSPRNG) shuffles every hand's shoe."""

    __slots__ = ("_rng", "_stacks", "button", "hands", "initial_stacks", "rules")

    def __init__(
        self,
        rules: RuleSet,
        rng: RandomSource | None = None,
        *,
        stacks: Sequence[int] | None = None,
        button: int = 0,
    ) -> None:
        self.rules = rules
        self._rng: RandomSource = rng if rng is not None else live_rng()
        start = list(stacks) if stacks is not None else [rules.starting_stack] * rules.seats
        if len(start) != rules.seats or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in start):
            raise BadStacksError(f"a match needs {rules.seats} non-negative stacks")
        if sum(1 for s in start if s > 0) < 2:
            raise BadStacksError("a match needs at least two players with chips")
        if not 0 <= button < rules.seats:
            raise BadStacksError(f"the button must be a seat from 0 to {rules.seats - 1}")
        self.initial_stacks = tuple(start)
        self._stacks = tuple(start)
        self.button = button
        self.hands: list[Hand] = []

    @property
    def hand(self) -> Hand | None:
        """The current (or last) hand."""
        return self.hands[-1] if self.hands else None

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips each seat has at the table now (behind, while a hand is running)."""
        h = self.hand
        return h.stacks if h is not None else self._stacks

    @property
    def over(self) -> bool:
        """One player holds every chip (no hand running)."""
        h = self.hand
        return (h is None or h.complete) and sum(1 for s in self.stacks if s > 0) < 2

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        return next(s for s, c in enumerate(self.stacks) if c > 0)

    def start_hand(self) -> Hand:
        """Deal the next hand: stacks carried over, the button on the next seat with chips."""
        h = self.hand
        if h is not None and not h.complete:
            raise MatchOverError("the current hand is not finished", code="hand_in_progress")
        if self.over:
            raise MatchOverError("the match is over")
        stacks = self.stacks
        n = self.rules.seats
        first = 1 if h is not None else 0
        self.button = next(
            (self.button + i) % n for i in range(first, n + first) if stacks[(self.button + i) % n] > 0
        )
        hand = Hand.start(self.rules, stacks, self.button, rng=self._rng, hand_no=len(self.hands) + 1)
        self.hands.append(hand)
        return hand

    def to_json(self) -> dict[str, Any]:
        """Rules, starting stacks and button, and every hand's event log."""
        return {
            "rules": self.rules.to_json(),
            "initial_stacks": list(self.initial_stacks),
            "button": self.hands[0].button if self.hands else self.button,
            "hands": [[event_to_json(e) for e in h.events] for h in self.hands],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any], rng: RandomSource | None = None) -> Match:
        """Replay a match; ``rng`` deals the hands still to come."""
        rules = RuleSet.from_json(obj["rules"])
        match = cls(rules, rng, stacks=obj["initial_stacks"], button=obj["button"])
        for log in obj["hands"]:
            hand = Hand.from_events(rules, [event_from_json(e) for e in log])
            match.hands.append(hand)
            match.button = hand.button
        return match
