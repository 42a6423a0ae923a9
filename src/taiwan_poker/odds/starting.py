"""Starting-hand probabilities for ``d`` decks (exact fractions).

Two random physical cards from the full ``52d``-card shoe.  Unseen random burns
do not change this prior; once a player has seen cards (their own burn), use
:func:`class_probability` with ``known``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..cards import Card, check_decks
from ..errors import CardError
from .ranges import parse_range


@dataclass(frozen=True, slots=True)
class StartingHandStats:
    """The spec's starting-hand table for one deck count."""

    decks: int
    total_cards: int
    cards_per_rank: int
    pocket_pair: Fraction
    identical: Fraction
    suited: Fraction
    pocket_aces: Fraction

    def rows(self) -> dict[str, Fraction]:
        return {
            "pocket_pair": self.pocket_pair,
            "identical": self.identical,
            "suited": self.suited,
            "pocket_aces": self.pocket_aces,
        }


def pocket_pair(decks: int) -> Fraction:
    """Same rank: ``(4d-1)/(52d-1)`` (identical cards included)."""
    d = check_decks(decks)
    return Fraction(4 * d - 1, 52 * d - 1)


def identical_pair(decks: int) -> Fraction:
    """Same rank and suit (two copies of one face): ``(d-1)/(52d-1)``."""
    d = check_decks(decks)
    return Fraction(d - 1, 52 * d - 1)


def suited(decks: int) -> Fraction:
    """Same suit (identical cards included): ``(13d-1)/(52d-1)``."""
    d = check_decks(decks)
    return Fraction(13 * d - 1, 52 * d - 1)


def pocket_aces(decks: int) -> Fraction:
    """Two aces: ``C(4d,2)/C(52d,2)``."""
    d = check_decks(decks)
    return Fraction(comb(4 * d, 2), comb(52 * d, 2))


def starting_hand_stats(decks: int) -> StartingHandStats:
    """All rows of the spec's table for ``decks`` decks."""
    d = check_decks(decks)
    return StartingHandStats(d, 52 * d, 4 * d, pocket_pair(d), identical_pair(d), suited(d), pocket_aces(d))


def class_combinations(text: str, decks: int, known: Sequence[Card] = ()) -> int:
    """Physical two-card hands matching a class or range (``AKs``, ``QQ=``, ``AsAs``, ``QQ+``…)."""
    d = check_decks(decks)
    remaining = [d] * 52
    for c in known:
        remaining[c.face] -= 1
        if remaining[c.face] < 0:
            raise CardError(f"more copies of {c.face_str} known than {d} deck(s) hold", code="too_many_copies",
                            card=c.face_str)
    return parse_range(text).physical_count(remaining)


def class_probability(text: str, decks: int, known: Sequence[Card] = ()) -> Fraction:
    """Probability that two random unseen cards form the class (given the ``known`` cards are out)."""
    d = check_decks(decks)
    unseen = 52 * d - len(known)
    return Fraction(class_combinations(text, d, known), comb(unseen, 2))


# The spec's printed starting-hand table (percent, four decimals), decks 1..4.
SPEC_STARTING_TABLE: dict[str, tuple[str, str, str, str]] = {
    "pocket_pair": ("5.8824", "6.7961", "7.0968", "7.2464"),
    "identical": ("0.0000", "0.9709", "1.2903", "1.4493"),
    "suited": ("23.5294", "24.2718", "24.5161", "24.6377"),
    "pocket_aces": ("0.4525", "0.5228", "0.5459", "0.5574"),
}
