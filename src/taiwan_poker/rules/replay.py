"""One hand replayed from the events one seat (or a spectator) may see: typed steps, in order, and the chips.

The input is the visible events as JSON-ready dicts, exactly as
:func:`~taiwan_poker.rules.views.events_for` writes them (and the table's
``hand_events``, the stored histories and the exports read them): an event
outside the viewer's audience is only its version and is skipped.  Every
reader of a hand's public story (a seat's typed view, the hand's numbers, the
PHH and text exports) goes through :func:`replay`, so they agree on it.

**The street's bet level** is the street total a player must reach to stay in:
before the flop it starts at the largest blind *posted* (a big blind that is a
short all-in posts less, and the level is what it posted; a straddle counts as a blind), on later streets at
0; each call, bet, raise or all-in lifts it to its street total.  An action is
**aggressive** when its street total exceeds the level before it: a bet, a
raise, or an all-in that raised the bet (by a full raise or not).

The steps are ``NamedTuple``s, like the engine's events: as immutable and
typed as frozen dataclasses, and cheaper to build on a bot's hot path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, TypeAlias

from ..cards import Card, parse_card
from ..errors import TaiwanPokerError
from .actions import ActionKind

STREET_NAMES: tuple[str, ...] = ("preflop", "flop", "turn", "river")
_STREET_INDEX = {name: i for i, name in enumerate(STREET_NAMES)}
_KINDS = {kind.value: kind for kind in ActionKind}  # a dict lookup: calling the enum costs more than the rest


class BlindPost(NamedTuple):
    """A blind: ``amount`` may be less than the rule's blind when it put the seat all in."""

    seat: int
    amount: int
    big: bool


class AntePost(NamedTuple):
    """An ante: dead money in the pot, before the blinds (no part of the street's bet level)."""

    seat: int
    amount: int


class StraddlePost(NamedTuple):
    """Under the gun's live straddle (two big blinds), posted after the blinds; it sets the preflop bet level."""

    seat: int
    amount: int


class PrivateDeal(NamedTuple):
    """The viewer's own private burn and hole cards (no other seat's are ever in the input)."""

    seat: int
    burn: Card | None
    hole: tuple[Card | None, ...]


class ExtraBurn(NamedTuple):
    """A further private burn of the viewer before a street (the every-street schedule)."""

    seat: int
    card: Card | None


class StreetAction(NamedTuple):
    """A decision on ``street`` (0 preflop .. 3 river): ``amount`` chips added, the seat's street total now ``to``.

    ``level_before`` is the street's bet level just before it (see the module docstring); ``rival_cap`` the
    highest street total another seat still in the hand could then reach (its bet plus its chips behind).
    """

    street: int
    seat: int
    kind: ActionKind
    amount: int
    to: int
    level_before: int
    rival_cap: int
    allin: bool
    timeout: bool = False

    @property
    def aggressive(self) -> bool:
        """A bet or a raise: the street total went above the level (an all-in counts when it did)."""
        return self.to > self.level_before

    @property
    def effect(self) -> ActionKind:
        """What it did at the table: an all-in reads as the call, bet or raise it was; other kinds as they are."""
        if self.kind is not ActionKind.ALLIN:
            return self.kind
        if not self.aggressive:
            return ActionKind.CALL
        return ActionKind.BET if self.level_before == 0 else ActionKind.RAISE

    @property
    def answerable(self) -> bool:
        """Whether another player could put in more to meet it: nobody can answer an all-in raise over
        players who are all in already, and its excess comes back uncalled."""
        return self.aggressive and self.rival_cap > self.level_before


class SeatLeft(NamedTuple):
    """A player left the table mid-hand: their hand folded out of turn on ``street``."""

    street: int
    seat: int


class StreetDealt(NamedTuple):
    """The board cards that open ``street`` (1 flop .. 3 river)."""

    street: int
    cards: tuple[Card, ...]


class ChipsBack(NamedTuple):
    """An uncalled bet (or its unmatched part) given back to its owner."""

    seat: int
    amount: int


class ShownHand(NamedTuple):
    """Hole cards shown at the showdown, with the category they made (``five_of_a_kind`` .. ``high_card``)."""

    seat: int
    hole: tuple[Card, ...]
    category: str


class PotWon(NamedTuple):
    """One pot: its chips, who could win it, who did and each winner's share; ``run`` the board it was paid on
    (1, or 2 for the second run of a board run twice: each run pays half of every pot)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    run: int = 1


class SecondDealt(NamedTuple):
    """The second run's cards for ``street`` (1 flop .. 3 river), dealt after the first run's river."""

    street: int
    cards: tuple[Card, ...]


class SecondShown(NamedTuple):
    """A shown hand's result on the second run's board (its hole cards were shown by :class:`ShownHand`)."""

    seat: int
    category: str


class Mucked(NamedTuple):
    """A player mucked at the showdown: that they did, never what."""

    seat: int


class ShownAfter(NamedTuple):
    """The winner of an uncontested pot chose to show these hole cards after the hand."""

    seat: int
    cards: tuple[Card, ...]


Step: TypeAlias = (
    BlindPost | PrivateDeal | ExtraBurn | StreetAction | SeatLeft | StreetDealt | ChipsBack | ShownHand | PotWon
    | StraddlePost | SecondDealt | SecondShown | Mucked | ShownAfter | AntePost
)


@dataclass(frozen=True, slots=True)
class VisibleHand:
    """A hand as one viewer saw it: the steps in order, and the chips and streets after the last of them."""

    hand_no: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    start_stacks: tuple[int, ...]  # before the blinds; 0: not dealt in
    steps: tuple[Step, ...]
    street: int  # the street reached: 0 preflop .. 3 river
    level: int  # the current street's bet level
    bets: tuple[int, ...]  # this street's totals
    contributed: tuple[int, ...]  # the whole hand's chips in, returned chips taken back
    stacks: tuple[int, ...]  # chips behind now (pots won included)
    folded: frozenset[int]  # seats that folded or left, in turn or not
    end_stacks: tuple[int, ...] | None  # from the hand's end, once it is over

    @property
    def complete(self) -> bool:
        return self.end_stacks is not None

    @property
    def players(self) -> tuple[int, ...]:
        """Seats dealt in (those with chips at the start)."""
        return tuple(s for s, chips in enumerate(self.start_stacks) if chips > 0)

    @property
    def live(self) -> tuple[int, ...]:
        """Seats still in the hand: dealt in and not folded."""
        return tuple(s for s in self.players if s not in self.folded)

    @property
    def pot(self) -> int:
        """Every chip put in this hand, this street's bets included."""
        return sum(self.contributed)

    @property
    def blinds(self) -> tuple[BlindPost, ...]:
        return tuple(s for s in self.steps if isinstance(s, BlindPost))

    @property
    def actions(self) -> tuple[StreetAction, ...]:
        return tuple(s for s in self.steps if isinstance(s, StreetAction))

    @property
    def board(self) -> tuple[Card, ...]:
        """The board (the first run's, when it was run twice)."""
        return tuple(c for s in self.steps if isinstance(s, StreetDealt) for c in s.cards)

    @property
    def runs(self) -> int:
        """How many times the board was dealt: 2 when it was run twice, else 1."""
        return 2 if any(isinstance(s, SecondDealt) for s in self.steps) else 1

    @property
    def board2(self) -> tuple[Card, ...]:
        """The second run's whole board: the cards dealt before the all-in, then its own (empty if run once)."""
        second = [s for s in self.steps if isinstance(s, SecondDealt)]
        if not second:
            return ()
        shared = [c for s in self.steps if isinstance(s, StreetDealt) and s.street < second[0].street
                  for c in s.cards]
        return (*shared, *(c for s in second for c in s.cards))

    @property
    def shown(self) -> tuple[ShownHand, ...]:
        return tuple(s for s in self.steps if isinstance(s, ShownHand))

    @property
    def pots(self) -> tuple[PotWon, ...]:
        return tuple(s for s in self.steps if isinstance(s, PotWon))

    def hole(self, seat: int) -> tuple[Card | None, ...]:
        """The seat's hole cards as the viewer knows them (``None`` where unknown): its own, or shown ones."""
        known: tuple[Card | None, ...] = (None, None)
        for s in self.steps:
            if isinstance(s, PrivateDeal | ShownHand) and s.seat == seat:
                known = s.hole
        return known

    def burns(self, seat: int) -> tuple[Card | None, ...]:
        """The seat's private burns the viewer knows (only the viewer's own are ever known)."""
        out: list[Card | None] = []
        for s in self.steps:
            if isinstance(s, PrivateDeal) and s.seat == seat:
                out.append(s.burn)
            elif isinstance(s, ExtraBurn) and s.seat == seat:
                out.append(s.card)
        return tuple(out)


@cache
def _card(label: str) -> Card:
    spec = parse_card(label)
    return Card(spec.rank, spec.suit, spec.deck or 1)


def _cards(labels: Iterable[str]) -> tuple[Card, ...]:
    return tuple(_card(c) for c in labels)


def _maybe(label: str | None) -> Card | None:
    return None if label is None else _card(label)


def replay(events: Iterable[Mapping[str, Any]]) -> VisibleHand:
    """Fold a viewer's visible events (``events_for``) into a :class:`VisibleHand`; the hand may be unfinished."""
    it = iter(events)
    start = next((e for e in it if e.get("type") == "hand_started"), None)
    if start is None:
        raise TaiwanPokerError("the events hold no hand_started", code="bad_event")
    start_stacks = tuple(int(c) for c in start["stacks"])
    n = len(start_stacks)
    stacks, bets, contributed = list(start_stacks), [0] * n, [0] * n
    folded: set[int] = set()
    out = [chips <= 0 for chips in start_stacks]  # not dealt in or folded: no answer to a bet
    steps: list[Step] = []
    street = level = 0
    run = 1  # the run whose pots are being paid
    end: tuple[int, ...] | None = None
    for e in it:
        kind = e.get("type")
        if kind == "action":
            seat, to, amount = e["seat"], e["to"], e["amount"]
            act = _KINDS[e["kind"]]
            cap = 0
            for o in range(n):
                if o != seat and not out[o] and bets[o] + stacks[o] > cap:
                    cap = bets[o] + stacks[o]
            steps.append(StreetAction(street, seat, act, amount, to, level, cap, e["allin"], e.get("timeout", False)))
            if act is ActionKind.FOLD:
                folded.add(seat)
                out[seat] = True
                continue
            stacks[seat] -= amount
            contributed[seat] += amount
            bets[seat] = to
            if to > level:
                level = to
        elif kind == "blind_posted" or kind == "straddle_posted":
            seat, amount = e["seat"], e["amount"]
            steps.append(BlindPost(seat, amount, e["big"]) if kind == "blind_posted" else StraddlePost(seat, amount))
            stacks[seat] -= amount
            contributed[seat] += amount
            bets[seat] += amount
            if bets[seat] > level:
                level = bets[seat]
        elif kind == "ante_posted":
            seat, amount = e["seat"], e["amount"]
            steps.append(AntePost(seat, amount))
            stacks[seat] -= amount
            contributed[seat] += amount
        elif kind == "board_dealt":
            street = _STREET_INDEX[e["street"]]
            steps.append(StreetDealt(street, _cards(e["cards"])))
            bets = [0] * n
            level = 0
        elif kind == "private_cards":
            steps.append(PrivateDeal(e["seat"], _maybe(e["burn"]), tuple(_maybe(c) for c in e["hole"])))
        elif kind == "private_burn":
            steps.append(ExtraBurn(e["seat"], _maybe(e["card"])))
        elif kind == "seat_folded":
            steps.append(SeatLeft(street, e["seat"]))
            folded.add(e["seat"])
            out[e["seat"]] = True
        elif kind == "chips_returned":
            seat, amount = e["seat"], e["amount"]
            steps.append(ChipsBack(seat, amount))
            stacks[seat] += amount
            bets[seat] -= amount
            contributed[seat] -= amount
        elif kind == "hand_shown":
            steps.append(ShownHand(e["seat"], _cards(e["hole"]), str(e["category"])))
        elif kind == "pot_awarded":
            won = PotWon(e["amount"], tuple(e["eligible"]), tuple(e["winners"]), tuple(e["shares"]), run)
            steps.append(won)
            for seat, share in zip(won.winners, won.shares, strict=True):
                stacks[seat] += share
        elif kind == "second_board":
            steps.append(SecondDealt(_STREET_INDEX[e["street"]], _cards(e["cards"])))
        elif kind == "run_shown":
            steps.append(SecondShown(e["seat"], str(e["category"])))
            run = 2  # the second run's hands are shown before its pots are paid
        elif kind == "hand_mucked":
            steps.append(Mucked(e["seat"]))
        elif kind == "cards_shown":
            steps.append(ShownAfter(e["seat"], _cards(e["cards"])))
        elif kind == "hand_ended":
            end = tuple(int(c) for c in e["stacks"])
    return VisibleHand(
        hand_no=start["hand_no"], button=start["button"], small_blind_seat=start["small_blind_seat"],
        big_blind_seat=start["big_blind_seat"], start_stacks=start_stacks, steps=tuple(steps), street=street,
        level=level, bets=tuple(bets), contributed=tuple(contributed), stacks=tuple(stacks),
        folded=frozenset(folded), end_stacks=end,
    )
