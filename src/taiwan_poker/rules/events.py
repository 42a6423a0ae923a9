"""Hand events: frozen records, each with its audience (everyone, one seat, nobody), and their JSON form.

A hand is an append-only list of these; its state is a fold over them
(:mod:`taiwan_poker.rules.hand`).  Like lichess's versioned events, a member
outside an event's audience learns only that an event happened.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from ..cards import Card, parse_card
from ..errors import TaiwanPokerError
from ..evaluate import Category
from .actions import ActionKind


class Audience(StrEnum):
    """Who may see an event."""

    EVERYONE = "everyone"
    SEAT = "seat"
    NOBODY = "nobody"


class Street(StrEnum):
    """Betting rounds."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


STREETS: tuple[Street, ...] = tuple(Street)


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: ``type`` names the event in JSON; ``audience`` says who sees it."""

    type: ClassVar[str] = "event"
    audience: ClassVar[Audience] = Audience.EVERYONE

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) may see this event's content."""
        aud = self.audience
        if aud is Audience.EVERYONE:
            return True
        if aud is Audience.NOBODY:
            return False
        return seat is not None and seat == getattr(self, "seat", None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _dump(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new hand: its number, the button, the blinds' seats and every seat's stack before the blinds."""

    type: ClassVar[str] = "hand_started"
    hand_no: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShoeDrawn(Event):
    """The cards this hand can use, in dealing order (``None`` = unknown, for adjudication).  Nobody sees it."""

    type: ClassVar[str] = "shoe_drawn"
    audience: ClassVar[Audience] = Audience.NOBODY
    cards: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class PrivateCards(Event):
    """One seat's private burn and two hole cards; only that seat sees them."""

    type: ClassVar[str] = "private_cards"
    audience: ClassVar[Audience] = Audience.SEAT
    seat: int
    burn: Card | None
    hole: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    type: ClassVar[str] = "blind_posted"
    seat: int
    amount: int
    big: bool


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A decision: ``amount`` chips added, bringing the seat's street total ``to``."""

    type: ClassVar[str] = "action"
    seat: int
    kind: ActionKind
    amount: int
    to: int
    allin: bool
    timeout: bool = False


@dataclass(frozen=True, slots=True)
class PrivateBurn(Event):
    """Every-street schedule: a further private burn before a street; only its owner sees it."""

    type: ClassVar[str] = "private_burn"
    audience: ClassVar[Audience] = Audience.SEAT
    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class DealerBurn(Event):
    """The dealer's burn before a street; nobody sees it."""

    type: ClassVar[str] = "dealer_burn"
    audience: ClassVar[Audience] = Audience.NOBODY
    street: Street
    card: Card | None


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """A new street begins with these public cards."""

    type: ClassVar[str] = "board_dealt"
    street: Street
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ChipsReturned(Event):
    """Chips no other player matched go back to their owner before the pots are built."""

    type: ClassVar[str] = "chips_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A hand shown at showdown: hole cards, category and best five."""

    type: ClassVar[str] = "hand_shown"
    seat: int
    hole: tuple[Card, ...]
    category: Category
    best: tuple[Card, ...]
    rank: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One pot: its chips, who could win it, who did and what each winner got."""

    type: ClassVar[str] = "pot_awarded"
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    type: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        HandStarted, ShoeDrawn, PrivateCards, BlindPosted, ActionTaken, PrivateBurn,
        DealerBurn, BoardDealt, ChipsReturned, HandShown, PotAwarded, HandEnded,
    )
}


def _dump(value: object) -> Any:
    if isinstance(value, Card):
        return value.label
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    return value


def _card(text: object) -> Card | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise TaiwanPokerError(f"bad card in event: {text!r}", code="bad_event")
    spec = parse_card(text)
    return Card(spec.rank, spec.suit, spec.deck or 1)


_CARD_LISTS = {"cards", "hole", "best"}
_CARDS = {"burn", "card"}
_INT_LISTS = {"stacks", "eligible", "winners", "shares"}
_ENUMS: dict[str, type[StrEnum]] = {"kind": ActionKind, "street": Street, "category": Category}


def event_from_json(obj: dict[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_json`."""
    if not isinstance(obj, dict) or obj.get("type") not in EVENT_TYPES:
        raise TaiwanPokerError(f"unknown event {obj!r}", code="bad_event")
    cls = EVENT_TYPES[obj["type"]]
    kwargs: dict[str, Any] = {}
    try:
        for f in fields(cls):
            raw = obj[f.name]
            if f.name in _CARD_LISTS:
                kwargs[f.name] = tuple(_card(c) for c in raw)
            elif f.name in _CARDS:
                kwargs[f.name] = _card(raw)
            elif f.name in _INT_LISTS:
                kwargs[f.name] = tuple(int(v) for v in raw)
            elif f.name in _ENUMS:
                kwargs[f.name] = _ENUMS[f.name](raw)
            else:
                kwargs[f.name] = raw
    except (KeyError, ValueError, TypeError) as exc:
        raise TaiwanPokerError(f"bad {obj['type']} event: {exc}", code="bad_event") from None
    return cls(**kwargs)
