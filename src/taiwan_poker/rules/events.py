"""Hand events: immutable typed records, each with its audience (everyone, one seat, nobody), and their JSON.

Events are ``NamedTuple``s rather than frozen dataclasses: just as immutable
and typed, and three times cheaper to build on the hot path.

A hand is an append-only list of these; its state is a fold over them
(:mod:`taiwan_poker.rules.hand`).  Like lichess's versioned events, a member
outside an event's audience learns only that an event happened.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from ..cards import Card, parse_card
from ..errors import TaiwanPokerError
from ..evaluate import Category
from ..evaluate.categories import unpack_ranks
from ..evaluate.scalar import pick_best
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


class HandStarted(NamedTuple):
    """A new hand: its number, the button, the blinds' seats and every seat's stack before the blinds."""

    hand_no: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    stacks: tuple[int, ...]


class ShoeDrawn(NamedTuple):
    """The cards this hand can use, in dealing order (``None`` = unknown, for adjudication).  Nobody sees it."""

    cards: tuple[Card | None, ...]


class PrivateCards(NamedTuple):
    """One seat's private burn and two hole cards; only that seat sees them."""

    seat: int
    burn: Card | None
    hole: tuple[Card | None, ...]


class BlindPosted(NamedTuple):
    seat: int
    amount: int
    big: bool


class AntePosted(NamedTuple):
    """A dealt-in player's ante (a tournament's, from its level on), posted before the blinds: dead money in the
    pot, no part of the bet to call (a short stack posts what it has and is all in)."""

    seat: int
    amount: int


class ActionTaken(NamedTuple):
    """A decision: ``amount`` chips added, bringing the seat's street total ``to``."""

    seat: int
    kind: ActionKind
    amount: int
    to: int
    allin: bool
    timeout: bool = False


class PrivateBurn(NamedTuple):
    """Every-street schedule: a further private burn before a street; only its owner sees it."""

    seat: int
    card: Card | None


class DealerBurn(NamedTuple):
    """The dealer's burn before a street; nobody sees it."""

    street: Street
    card: Card | None


class BoardDealt(NamedTuple):
    """A new street begins with these public cards."""

    street: Street
    cards: tuple[Card, ...]


class ChipsReturned(NamedTuple):
    """Chips no other player matched go back to their owner before the pots are built."""

    seat: int
    amount: int


class HandShown(NamedTuple):
    """A hand shown at showdown: hole cards, the board it played with, category and packed rank."""

    seat: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    category: Category
    rank: int

    @property
    def best(self) -> tuple[Card, ...]:
        """The best five cards, strongest first in comparison order (worked out when asked for)."""
        return pick_best((*self.hole, *self.board), self.category, unpack_ranks(self.rank, 5))


class PotAwarded(NamedTuple):
    """One pot: its chips, who could win it, who did and what each winner got."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


class StraddlePosted(NamedTuple):
    """Under the gun's live straddle of two big blinds, posted after the blinds: the bet to call preflop, the
    next full raise is to four big blinds, and the straddler acts last preflop (with the option)."""

    seat: int
    amount: int


class RunsOffered(NamedTuple):
    """Nobody can bet any more before the river (every player still in is all in, or all but one): each of
    ``seats`` may agree to deal the rest of the board twice, each run for half of every pot."""

    seats: tuple[int, ...]


class RunsAnswered(NamedTuple):
    """A player's answer to running it twice (a decline settles it: once)."""

    seat: int
    agree: bool


class RunsChosen(NamedTuple):
    """The rest of the board is dealt ``runs`` times: 2 when everyone agreed, 1 when someone declined or the
    answers did not come in time."""

    runs: int


class SecondBoard(NamedTuple):
    """The second run's cards for ``street``: dealt after the first run's river, from the same shoe, each
    street after its dealer's burn (so no card is dealt twice)."""

    street: Street
    cards: tuple[Card, ...]


class RunShown(NamedTuple):
    """A hand's result on the second run's board (its hole cards were already shown by :class:`HandShown`)."""

    seat: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    category: Category
    rank: int

    @property
    def best(self) -> tuple[Card, ...]:
        return pick_best((*self.hole, *self.board), self.category, unpack_ranks(self.rank, 5))


class ShowdownChoices(NamedTuple):
    """A showdown where hands may be mucked: ``first`` showed first (the river's last aggressor, else the first
    player after the button); each of ``seats`` cannot win any pot and may show or muck (muck by default)."""

    first: int
    seats: tuple[int, ...]


class HandMucked(NamedTuple):
    """A player mucked at showdown: their cards are never shown to anyone."""

    seat: int


class CardsShown(NamedTuple):
    """After a hand won without a showdown, its winner chose to show these of their hole cards."""

    seat: int
    cards: tuple[Card, ...]


class HandEnded(NamedTuple):
    stacks: tuple[int, ...]


class SeatFolded(NamedTuple):
    """A player left the table mid-hand: their hand is folded at once, whoever's turn it is.

    Their chips already in the pot stay there (an uncalled bet of theirs is not
    given back: they walked away from it).
    """

    seat: int


Event = (
    HandStarted | ShoeDrawn | PrivateCards | BlindPosted | ActionTaken | PrivateBurn | DealerBurn | BoardDealt
    | ChipsReturned | HandShown | PotAwarded | HandEnded | SeatFolded | StraddlePosted | RunsOffered | RunsAnswered
    | RunsChosen | SecondBoard | RunShown | ShowdownChoices | HandMucked | CardsShown | AntePosted
)

TYPE_NAMES: dict[type[Any], str] = {
    HandStarted: "hand_started", ShoeDrawn: "shoe_drawn", PrivateCards: "private_cards",
    BlindPosted: "blind_posted", ActionTaken: "action", PrivateBurn: "private_burn", DealerBurn: "dealer_burn",
    BoardDealt: "board_dealt", ChipsReturned: "chips_returned", HandShown: "hand_shown",
    PotAwarded: "pot_awarded", HandEnded: "hand_ended", SeatFolded: "seat_folded",
    StraddlePosted: "straddle_posted", RunsOffered: "runs_offered", RunsAnswered: "runs_answered",
    RunsChosen: "runs_chosen", SecondBoard: "second_board", RunShown: "run_shown",
    ShowdownChoices: "showdown_choices", HandMucked: "hand_mucked", CardsShown: "cards_shown",
    AntePosted: "ante_posted",
}
AUDIENCE: dict[type[Any], Audience] = {  # every type named: nothing defaults to everyone
    HandStarted: Audience.EVERYONE, ShoeDrawn: Audience.NOBODY, PrivateCards: Audience.SEAT,
    BlindPosted: Audience.EVERYONE, ActionTaken: Audience.EVERYONE, PrivateBurn: Audience.SEAT,
    DealerBurn: Audience.NOBODY, BoardDealt: Audience.EVERYONE, ChipsReturned: Audience.EVERYONE,
    HandShown: Audience.EVERYONE, PotAwarded: Audience.EVERYONE, HandEnded: Audience.EVERYONE,
    SeatFolded: Audience.EVERYONE, StraddlePosted: Audience.EVERYONE, RunsOffered: Audience.EVERYONE,
    RunsAnswered: Audience.EVERYONE, RunsChosen: Audience.EVERYONE, SecondBoard: Audience.EVERYONE,
    RunShown: Audience.EVERYONE, ShowdownChoices: Audience.EVERYONE,
    HandMucked: Audience.EVERYONE,  # that a hand was mucked, never its cards
    CardsShown: Audience.EVERYONE, AntePosted: Audience.EVERYONE,
}
EVENT_TYPES: dict[str, type[Any]] = {name: cls for cls, name in TYPE_NAMES.items()}


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (``None`` = spectator) may see this event's content."""
    aud = AUDIENCE[type(event)]
    if aud is Audience.EVERYONE:
        return True
    if aud is Audience.NOBODY:
        return False
    return seat is not None and seat == event[0]  # seat-audience events have ``seat`` first


def event_type(event: Event) -> str:
    """The event's name in JSON."""
    return TYPE_NAMES[type(event)]


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": name, field: value, ...}`` with cards as ``As:2`` labels."""
    out: dict[str, Any] = {"type": TYPE_NAMES[type(event)]}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = _dump(value)
    if isinstance(event, HandShown | RunShown):
        out["best"] = _dump(event.best)
    return out


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


_CARD_LISTS = {"cards", "hole", "board"}
_CARDS = {"burn", "card"}
_INT_LISTS = {"stacks", "eligible", "winners", "shares", "seats"}
_ENUMS: dict[str, type[StrEnum]] = {"kind": ActionKind, "street": Street, "category": Category}


def event_from_json(obj: dict[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_json`."""
    if not isinstance(obj, dict) or obj.get("type") not in EVENT_TYPES:
        raise TaiwanPokerError(f"unknown event {obj!r}", code="bad_event")
    cls = EVENT_TYPES[obj["type"]]
    kwargs: dict[str, Any] = {}
    try:
        for name in cls._fields:
            raw = obj[name]
            if name in _CARD_LISTS:
                kwargs[name] = tuple(_card(c) for c in raw)
            elif name in _CARDS:
                kwargs[name] = _card(raw)
            elif name in _INT_LISTS:
                kwargs[name] = tuple(int(v) for v in raw)
            elif name in _ENUMS:
                kwargs[name] = _ENUMS[name](raw)
            else:
                kwargs[name] = raw
    except (KeyError, ValueError, TypeError) as exc:
        raise TaiwanPokerError(f"bad {obj['type']} event: {exc}", code="bad_event") from None
    event: Event = cls(**kwargs)
    return event
