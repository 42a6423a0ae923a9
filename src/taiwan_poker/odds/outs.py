"""Outs with private information.

A player knows ``k`` physical cards: their hole cards, the board, and their
own private burn once they have seen it.  Only those are subtracted.  Cards
that are dealt but unseen (opponents' hole cards and burns, dealer burns) are
*not* subtracted: with a well-shuffled shoe they do not change the
distribution of the next visible card.  With ``N = 52d - k`` unseen cards of
which ``O`` are outs:

* next card hits: ``O / N`` (``(d - x) / (52d - k)`` for one face seen ``x`` times);
* at least one of the next two hits: ``1 - C(N-O, 2) / C(N, 2)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..cards import RANKS, SUITS, Card, check_decks, parse_card
from ..errors import CardError, TaiwanPokerError


class TargetError(TaiwanPokerError):
    """An outs target that cannot be read."""

    code = "bad_target"


@dataclass(frozen=True, slots=True)
class OutsResult:
    """Counts and exact probabilities for one information state."""

    decks: int
    known: int
    unseen: int
    outs: int
    target_faces: tuple[int, ...]
    next_card: Fraction
    next_two: Fraction

    def to_json(self) -> dict[str, object]:
        return {
            "decks": self.decks,
            "known_cards": self.known,
            "unseen": self.unseen,
            "outs": self.outs,
            "target_faces": [RANKS[f >> 2] + SUITS[f & 3] for f in self.target_faces],
            "next_card": float(self.next_card),
            "next_card_fraction": f"{self.next_card.numerator}/{self.next_card.denominator}",
            "next_two": float(self.next_two),
            "next_two_fraction": f"{self.next_two.numerator}/{self.next_two.denominator}",
        }


def target_faces(
    *, face: str | None = None, rank: str | None = None, suit: str | None = None, faces: Iterable[str] = ()
) -> tuple[int, ...]:
    """The faces a target stands for: one face (``Ah``), a rank (``A``), a suit (``h``) and/or a set of faces."""
    out: set[int] = set()
    if face is not None:
        out.add(parse_card(face).face)
    if rank is not None:
        r = RANKS.find("T" if rank.strip() == "10" else rank.strip().upper())
        if r < 0 or len(rank.strip()) not in (1, 2):
            raise TargetError(f"unknown rank {rank!r} (use 2-9, T, J, Q, K, A)", target=str(rank))
        out.update(r * 4 + s for s in range(4))
    if suit is not None:
        s = SUITS.find(suit.strip().lower())
        if s < 0 or len(suit.strip()) != 1:
            raise TargetError(f"unknown suit {suit!r} (use s, h, d, c)", target=str(suit))
        out.update(r * 4 + s for r in range(13))
    for f in faces:
        out.add(parse_card(f).face)
    if not out:
        raise TargetError("give a target: a face, a rank, a suit or a set of outs", reason="missing")
    return tuple(sorted(out))


def at_least_one(unseen: int, outs: int, draws: int) -> Fraction:
    """Probability that at least one of ``draws`` cards dealt from ``unseen`` hits one of ``outs``."""
    if draws > unseen:
        raise CardError(f"cannot deal {draws} cards from {unseen}", code="bad_card_count")
    return 1 - Fraction(comb(unseen - outs, draws), comb(unseen, draws))


def outs_probability(known: Sequence[Card], target: Iterable[int], decks: int) -> OutsResult:
    """Probabilities for the next card(s) given the physical cards the player really knows."""
    d = check_decks(decks)
    faces = tuple(sorted(set(target)))
    seen = [0] * 52
    idents: set[int] = set()
    for c in known:
        if c.deck > d:
            raise CardError(f"card {c.label} is not in a {d}-deck shoe", card=c.label)
        if c.index in idents:
            raise CardError(f"physical card {c.label} named twice", code="too_many_copies", card=c.label)
        idents.add(c.index)
        seen[c.face] += 1
    k = len(known)
    unseen = 52 * d - k
    if unseen < 2:
        raise CardError("fewer than two unseen cards are left", code="bad_card_count")
    outs = sum(d - seen[f] for f in faces)
    return OutsResult(d, k, unseen, outs, faces, Fraction(outs, unseen), at_least_one(unseen, outs, 2))
