"""A seat's view, the same one a browser gets, read into typed fields: the input of the bots and the coach.

:func:`seat_view` builds it only from :func:`taiwan_poker.rules.views.view`
and :func:`~taiwan_poker.rules.views.events_for` for that seat, the functions
that decide what a browser may see: its own hole cards and private burn, the
board, stacks, bets and pots, and the public actions (typed by
:func:`~taiwan_poker.rules.replay.replay`).  Another seat's cards, a dealer
burn and the shoe are not in those views, so they cannot reach a bot or the coach.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card, parse_cards
from ..rules.actions import ActionKind
from ..rules.hand import Hand
from ..rules.replay import STREET_NAMES, StraddlePost, StreetAction, replay
from ..rules.views import events_for, view
from .habits import Habits

STREETS = STREET_NAMES


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view when it is to act (every field is public or that seat's own)."""

    seat: int
    decks: int
    big_blind: int
    button: int
    big_blind_seat: int
    street: int
    hole: tuple[Card, ...]
    burns: tuple[Card, ...]
    board: tuple[Card, ...]
    pot: int  # every chip put in this hand, this street's bets included
    current_bet: int
    bets: tuple[int, ...]
    stacks: tuple[int, ...]
    live: tuple[int, ...]  # seats still in the hand (not folded), this one included
    actions: tuple[ActionKind, ...]
    call_amount: int
    min_to: int
    max_to: int
    history: tuple[StreetAction, ...]
    start_stacks: tuple[int, ...] = ()  # each seat's chips before the blinds (0: not dealt in)
    straddle: int | None = None  # the seat that posted a straddle this hand
    habits: tuple[Habits | None, ...] = ()  # per seat, what the table saw its player do in earlier hands (public)

    @property
    def reads_habits(self) -> bool:
        """Whether the strategy reads the players' habits here: everywhere but before the flop facing no raise."""
        return not (self.street == 0 and self.raises_on(0) == 0)

    def seeing(self, habits: tuple[Habits | None, ...]) -> SeatView:
        """This view with ``habits`` (per seat, what the table saw of its player) where the strategy reads them
        and anything was seen, else as it is: the bots, the coach and the review attach them alike, so one
        decision is one view to all of them."""
        if not self.reads_habits or all(h is None for h in habits):
            return self
        return replace(self, habits=habits)

    def habits_of(self, seat: int) -> Habits | None:
        """What the table saw of the player in ``seat`` (None: nothing known)."""
        return self.habits[seat] if 0 <= seat < len(self.habits) else None

    @property
    def dealt(self) -> tuple[int, ...]:
        """Seats dealt into this hand (folded ones included)."""
        return tuple(s for s, chips in enumerate(self.start_stacks) if chips > 0) or self.live

    def live_at(self, street: int) -> tuple[int, ...]:
        """Seats still in at the start of ``street``: dealt in, no fold before it (leavers are not in ``live``)."""
        gone = {a.seat for a in self.history if a.street < street and a.kind is ActionKind.FOLD}
        later = {a.seat for a in self.history if a.street >= street and a.kind is ActionKind.FOLD}
        return tuple(s for s in self.dealt if s not in gone and (s in self.live or s in later))

    @property
    def opponents(self) -> tuple[int, ...]:
        return tuple(s for s in self.live if s != self.seat)

    @property
    def stack(self) -> int:
        return self.stacks[self.seat]

    @property
    def known(self) -> tuple[Card, ...]:
        """Every physical card this seat knows is not in the unseen stock: hole, own burn, board."""
        return self.hole + self.burns + self.board

    def price(self) -> float:
        """The share of the pot a call costs (break-even equity); 0 when nothing is to call."""
        if self.call_amount <= 0:
            return 0.0
        return self.call_amount / (self.pot + self.call_amount)

    def can(self, kind: ActionKind) -> bool:
        return kind in self.actions

    def acted(self, seat: int, street: int) -> tuple[StreetAction, ...]:
        return tuple(a for a in self.history if a.seat == seat and a.street == street)

    def raises_on(self, street: int) -> int:
        """Bets and raises (all-ins above the bet level included) made on ``street``."""
        return sum(1 for a in self.history if a.street == street and a.aggressive)

    def aggressor(self, street: int) -> int | None:
        """The last seat to bet or raise on ``street``."""
        last = None
        for a in self.history:
            if a.street == street and a.aggressive:
                last = a.seat
        return last


def from_views(seat_view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], decks: int,
               big_blind: int) -> SeatView:
    """Read a seat's view (:func:`~taiwan_poker.rules.views.view`) and its visible events into a :class:`SeatView`."""
    you = seat_view.get("you")
    legal = seat_view.get("legal")
    if you is None or legal is None:
        raise ValueError("a seat view is read only for a seat that is dealt in and to act")
    seats = seat_view["seats"]
    seen = replay(events)
    straddle = next((st.seat for st in seen.steps if isinstance(st, StraddlePost)), None)
    return SeatView(
        seat=you["seat"],
        decks=decks,
        big_blind=big_blind,
        button=seat_view["button"],
        big_blind_seat=seat_view["big_blind_seat"],
        street=STREETS.index(seat_view["street"]),
        hole=tuple(parse_cards(you["hole"], decks)),
        burns=tuple(parse_cards([b for b in you["burns"] if b is not None], decks)),
        board=tuple(parse_cards(seat_view["board"], decks)),
        pot=seat_view["pot"],
        current_bet=seat_view["current_bet"],
        bets=tuple(s["bet"] for s in seats),
        stacks=tuple(s["stack"] for s in seats),
        live=tuple(s["seat"] for s in seats if s["in_hand"] and not s["folded"]),
        actions=tuple(ActionKind(a) for a in legal["actions"]),
        call_amount=legal["call_amount"],
        min_to=legal.get("min_raise_to", legal.get("min_bet_to", 0)),
        max_to=legal.get("max_raise_to", legal.get("max_bet_to", 0)),
        history=seen.actions,
        start_stacks=seen.start_stacks,
        straddle=straddle,
    )


def seat_view(hand: Hand, seat: int) -> SeatView:
    """The typed view of ``seat`` when it is to act: built from the seat's browser view and nothing else."""
    rules = hand.rules
    return from_views(view(hand, seat), events_for(hand, seat), rules.decks, rules.big_blind)
