"""Generated drills: random multi-deck spots whose answers are exact fractions.

A drill is fully determined by its ``seed`` (a practice seed, not a live-play
shuffle), so a shell can grade an answer statelessly by regenerating it.
The wrong choices are the mistakes the spec warns about: forgetting your own
burn, subtracting cards you have not seen, and single-deck counting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..cards import CARDS_PER_DECK, Card, full_shoe
from ..errors import TaiwanPokerError
from .next_card import DrawOdds, Target, TargetKind, draw_odds

DRILL_DECKS = (2, 3, 4, 5, 6)
MAX_SEED = 2**32


@dataclass(frozen=True)
class Drill:
    seed: int
    decks: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    burn: Card
    target: Target
    draws: int  # 1: the next card; 2: at least one of the next two
    odds: DrawOdds
    answer: Fraction
    choices: tuple[Fraction, ...]

    @property
    def known(self) -> tuple[Card, ...]:
        return (*self.hole, *self.board, self.burn)

    @property
    def burn_matches(self) -> bool:
        return self.target.matches(self.burn)


def _chance(outs: int, unseen: int, draws: int) -> Fraction:
    outs = max(0, min(outs, unseen))
    if draws == 1:
        return Fraction(outs, unseen)
    return 1 - Fraction(comb(unseen - outs, 2), comb(unseen, 2))


def generate_drill(seed: int) -> Drill:
    """The drill for ``seed`` (0 ≤ seed < 2**32)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise TaiwanPokerError(f"drill seed must be an integer from 0 to {MAX_SEED - 1}", code="bad_seed", seed=seed)
    rng = random.Random(seed)
    decks = rng.choice(DRILL_DECKS)
    board_size = rng.choice((3, 4))
    cards = rng.sample(full_shoe(decks), 2 + board_size + 1)
    hole, board, burn = tuple(cards[:2]), tuple(cards[2:2 + board_size]), cards[-1]
    draws = 1 if board_size == 4 else rng.choice((1, 2))
    # Ask about something the burn tells you about, most of the time.
    kind = rng.choice((TargetKind.SUIT, TargetKind.SUIT, TargetKind.RANK, TargetKind.FACE))
    source = burn if rng.random() < 0.7 else rng.choice(cards[:-1])
    value = {TargetKind.SUIT: source.suit, TargetKind.RANK: source.rank, TargetKind.FACE: source.face}[kind]
    target = Target(kind, value)
    known = (*hole, *board, burn)
    odds = draw_odds(decks, known, target)
    answer = odds.next_card if draws == 1 else odds.two_cards
    n, o = odds.unseen, odds.outs
    burn_hit = 1 if target.matches(burn) else 0
    wrong = [
        _chance(o + burn_hit, n + 1, draws),  # forgot your own burn
        _chance(o, n - 2 - (1 + board_size - 2), draws),  # subtracted the opponent's hole cards and dealer burns
        _chance(target.copies_per_deck() - (odds.seen_targets - burn_hit), CARDS_PER_DECK - len(known) + 1,
                draws),  # single-deck counting
        _chance(o + 1, n, draws),
        _chance(o - 1, n, draws),
    ]
    choices = [answer]
    for w in wrong:
        if w not in choices and 0 <= w <= 1 and len(choices) < 4:
            choices.append(w)
    step = 1
    while len(choices) < 4:
        w = _chance(o + step + 1, n, draws)
        if w not in choices:
            choices.append(w)
        step += 1
    rng.shuffle(choices)
    return Drill(seed=seed, decks=decks, hole=hole, board=board, burn=burn, target=target, draws=draws,
                 odds=odds, answer=answer, choices=tuple(choices))


def parse_fraction(text: str) -> Fraction:
    """``"22/97"`` → Fraction; anything else is a ``bad_fraction`` error."""
    try:
        num, _, den = str(text).partition("/")
        value = Fraction(int(num), int(den or "1"))
    except (ValueError, ZeroDivisionError):
        raise TaiwanPokerError(f"bad fraction {text!r}: expected a/b", code="bad_fraction", value=text) from None
    return value
