"""Random legal play, for property tests, cross-checks and benchmarks (seeded generators welcome)."""

from __future__ import annotations

import random

from .actions import Action, ActionKind, Legal
from .hand import RUNS, Hand
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
    """Finish ``hand`` with random legal actions (and random answers to running it twice, showing or mucking)."""
    while not hand.complete:
        pending = hand.pending
        if pending is None:
            hand.act(random_action(hand.legal(), rng))
        elif pending.kind == RUNS:
            hand.answer_runs(pending.seats[0], rng.random() < 0.7)
        else:
            hand.choose_show(pending.seats[0], rng.random() < 0.3)
    return hand


def play_match(match: Match, rng: random.Random, max_hands: int = 1000) -> Match:
    """Play hands with random legal actions until the match is over (or ``max_hands``)."""
    for _ in range(max_hands):
        if match.over:
            break
        play_out(match.start_hand(), rng)
    return match
