"""Random legal play, for property tests, cross-checks and benchmarks (seeded generators welcome)."""

from __future__ import annotations

import random

from .actions import Action, ActionKind, Legal
from .hand import Hand
from .match import Match

_SIMPLE = {k: Action(k) for k in ActionKind}


def random_action(legal: Legal, rng: random.Random) -> Action:
    """A uniformly chosen legal action kind; bet/raise sizes uniform in their range (half the time the minimum)."""
    kind = legal.actions[int(rng.random() * len(legal.actions))]
    if kind is ActionKind.BET or kind is ActionKind.RAISE:
        lo, hi = legal.min_to, legal.max_to
        if hi == lo or rng.random() < 0.5:
            return Action(kind, lo)
        return Action(kind, rng.randint(lo, hi))
    return _SIMPLE[kind]


def play_out(hand: Hand, rng: random.Random) -> Hand:
    """Finish ``hand`` with random legal actions."""
    while not hand.complete:
        hand.act(random_action(hand.legal(), rng))
    return hand


def play_match(match: Match, rng: random.Random, max_hands: int = 1000) -> Match:
    """Play hands with random legal actions until the match is over (or ``max_hands``)."""
    for _ in range(max_hands):
        if match.over:
            break
        play_out(match.start_hand(), rng)
    return match
