"""The lab table (實驗桌): one seat, a real multi-deck shoe, no opponent.

The hand follows the spec's order for one player: private burn, two hole
cards, then a dealer burn before each of flop, turn and river.  The shoe and
the dealer burns stay inside :class:`LabHand`; :meth:`LabHand.view` is the
only thing a shell may send to the player, and it never contains them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..cards import CARDS_PER_DECK, Card, RandomSource, Shoe, check_decks
from ..errors import TaiwanPokerError
from ..evaluate import DEFAULT_RANKING, Ranking, evaluate
from ..tables.limits import DECKS

LAB_MIN_DECKS = DECKS.start
LAB_MAX_DECKS = DECKS.stop - 1


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


_NEXT = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}
_BOARD_CARDS = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}


def check_lab_decks(decks: object) -> int:
    """The lab table plays 2 to 6 decks (the spec's trial range)."""
    d = check_decks(decks)
    if not LAB_MIN_DECKS <= d <= LAB_MAX_DECKS:
        raise TaiwanPokerError(f"the lab table uses {LAB_MIN_DECKS} to {LAB_MAX_DECKS} decks, not {d}",
                               code="bad_decks", decks=d)
    return d


@dataclass
class LabHand:
    """One lab hand; create with :meth:`deal`, move with :meth:`advance`, show with :meth:`view`."""

    decks: int
    ranking: Ranking
    burn: Card
    hole: tuple[Card, Card]
    _shoe: Shoe = field(repr=False)
    board: list[Card] = field(default_factory=list)
    street: Street = Street.PREFLOP
    _dealer_burns: list[Card] = field(default_factory=list, repr=False)

    @classmethod
    def deal(cls, decks: int, rng: RandomSource | None = None, ranking: Ranking = DEFAULT_RANKING) -> LabHand:
        """Shuffle a fresh shoe, take your private burn, then your two hole cards."""
        shoe = Shoe(check_lab_decks(decks), rng)
        burn = shoe.draw(1)[0]
        a, b = shoe.draw(2)
        return cls(decks=decks, ranking=ranking, burn=burn, hole=(a, b), _shoe=shoe)

    @property
    def finished(self) -> bool:
        return self.street is Street.RIVER

    def advance(self) -> Street:
        """Burn one card face down, then deal the next street."""
        if self.street is Street.RIVER:
            raise TaiwanPokerError("the river is already dealt; start a new hand", code="hand_over")
        nxt = _NEXT[self.street]
        self._dealer_burns.extend(self._shoe.draw(1))
        self.board.extend(self._shoe.draw(_BOARD_CARDS[nxt]))
        self.street = nxt
        return nxt

    @property
    def used(self) -> int:
        """Cards taken from the shoe so far (private burn, hole cards, dealer burns, board)."""
        return 3 + len(self._dealer_burns) + len(self.board)

    @property
    def remaining(self) -> int:
        return len(self._shoe)

    def view(self) -> dict[str, Any]:
        """What the player may see: never the dealer burns, never the shoe order."""
        cards = [*self.hole, *self.board]
        best: dict[str, Any] | None = None
        if len(cards) >= 5:
            hand = evaluate(cards, self.ranking)
            best = {"category": hand.category, "cards": list(hand.best), "rank": hand.rank}
        return {
            "decks": self.decks,
            "street": self.street,
            "next_street": _NEXT.get(self.street),
            "burn": self.burn,
            "hole": list(self.hole),
            "board": list(self.board),
            "dealer_burns": len(self._dealer_burns),
            "best": best,
            "used": self.used,
            "remaining": self.remaining,
            "total": CARDS_PER_DECK * self.decks,
        }
