"""Exact next-card counting with private information (the spec's heart-draw table).

You know ``k`` physical cards (hole cards, the board, your own private burn);
everything else — opponents' hole cards, their burns, the dealer burns and the
rest of the shoe — is unknown and exchangeable.  For a target (a suit, a rank
or one face) the chance that one given unseen position holds it is ``O / N``
with ``N = 52d - k`` unseen cards and ``O`` unseen target cards; at least one
hit in the next two positions is ``1 - C(N-O, 2) / C(N, 2)``.

The counting itself is :func:`taiwan_poker.odds.outs.outs_probability`; this
module adds the named targets (``suit:h``, ``rank:A``, ``face:Ah``) the
practice room and the calculators speak in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from ..cards import RANKS, SUITS, Card
from ..errors import TaiwanPokerError
from ..odds import potodds
from ..odds.outs import outs_probability


class TargetKind(StrEnum):
    """What a drawing hand is waiting for."""

    SUIT = "suit"
    RANK = "rank"
    FACE = "face"


@dataclass(frozen=True, slots=True)
class Target:
    """A fixed set of faces: every card of one suit, of one rank, or one exact face."""

    kind: TargetKind
    value: int  # suit 0..3, rank 0..12 or face 0..51

    def matches(self, card: Card) -> bool:
        if self.kind is TargetKind.SUIT:
            return card.suit == self.value
        if self.kind is TargetKind.RANK:
            return card.rank == self.value
        return card.face == self.value

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces (rank * 4 + suit) this target stands for."""
        if self.kind is TargetKind.SUIT:
            return tuple(r * 4 + self.value for r in range(13))
        if self.kind is TargetKind.RANK:
            return tuple(self.value * 4 + s for s in range(4))
        return (self.value,)

    def copies_per_deck(self) -> int:
        return {TargetKind.SUIT: 13, TargetKind.RANK: 4, TargetKind.FACE: 1}[self.kind]

    @property
    def code(self) -> str:
        """``suit:h``, ``rank:A`` or ``face:Ah``."""
        if self.kind is TargetKind.SUIT:
            return f"suit:{SUITS[self.value]}"
        if self.kind is TargetKind.RANK:
            return f"rank:{RANKS[self.value]}"
        return f"face:{RANKS[self.value >> 2]}{SUITS[self.value & 3]}"

    @classmethod
    def parse(cls, text: str) -> Target:
        """Parse ``suit:h``, ``rank:A`` or ``face:Ah``."""
        kind_text, _, value_text = str(text).partition(":")
        try:
            kind = TargetKind(kind_text.strip().lower())
        except ValueError:
            raise TaiwanPokerError(f"bad target {text!r}: use suit:h, rank:A or face:Ah", code="bad_target",
                                   target=text) from None
        v = value_text.strip()
        if kind is TargetKind.SUIT and len(v) == 1 and v.lower() in SUITS:
            return cls(kind, SUITS.index(v.lower()))
        if kind is TargetKind.RANK and len(v) == 1 and v.upper() in RANKS:
            return cls(kind, RANKS.index(v.upper()))
        if kind is TargetKind.FACE and len(v) == 2 and v[0].upper() in RANKS and v[1].lower() in SUITS:
            return cls(kind, RANKS.index(v[0].upper()) * 4 + SUITS.index(v[1].lower()))
        raise TaiwanPokerError(f"bad target {text!r}: use suit:h, rank:A or face:Ah", code="bad_target", target=text)


@dataclass(frozen=True, slots=True)
class DrawOdds:
    """The counts behind a draw and its exact chances."""

    decks: int
    known: int  # k: cards whose content you know
    unseen: int  # N = 52d - k
    seen_targets: int  # x: target cards among the known ones
    outs: int  # O = copies_per_deck * d - x
    next_card: Fraction  # O / N
    two_cards: Fraction  # 1 - C(N-O, 2) / C(N, 2)


def draw_odds(decks: int, known: Sequence[Card], target: Target) -> DrawOdds:
    """Exact chances that the next unseen card (and at least one of the next two) hits ``target``."""
    r = outs_probability(known, target.faces, decks)
    return DrawOdds(
        decks=r.decks,
        known=r.known,
        unseen=r.unseen,
        seen_targets=target.copies_per_deck() * r.decks - r.outs,
        outs=r.outs,
        next_card=r.next_card,
        two_cards=r.next_two,
    )


def break_even_equity(pot: int, bet: int) -> Fraction:
    """Break-even equity for calling ``bet`` when the pot held ``pot`` before the bet: B / (P + 2B)."""
    return potodds.break_even_equity(pot, bet)
