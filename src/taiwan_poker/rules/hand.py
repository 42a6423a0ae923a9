"""One hand as an append-only event log; its state is a fold over the events.

Dealing follows the spec (``seeds/000``): every card back in the shoe and
shuffled; one private burn per player from the shuffled order; two hole cards
each; the small and big blind; preflop betting; dealer burn + flop; betting;
dealer burn + turn; betting; dealer burn + river; betting; showdown.  Cards go
out one at a time clockwise from the seat after the button.

The live API is verify/can/do: :meth:`Hand.legal` says what the seat to act
may do, :meth:`Hand.act` refuses anything else with
:class:`~taiwan_poker.rules.actions.IllegalActionError` and changes nothing,
or records the decision and every event that follows from it (returned chips,
streets, the automatic run-out, showdown and pots).  Only ``_apply`` changes
state, so replaying the log rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..cards import Card, RandomSource, deal
from ..errors import BadStacksError, IllegalActionError, MissingCardsError
from ..evaluate import hand_value
from .actions import CHECK, FOLD, Action, ActionKind, Legal
from .betting import Betting
from .events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardsShown,
    ChipsReturned,
    DealerBurn,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    PrivateBurn,
    PrivateCards,
    RunsAnswered,
    RunsChosen,
    RunShown,
    RunsOffered,
    SeatFolded,
    SecondBoard,
    ShoeDrawn,
    ShowdownChoices,
    StraddlePosted,
    Street,
    event_from_json,
    event_to_json,
)
from .pots import Pot, award, build_pots, clockwise_after, uncalled
from .ruleset import BurnSchedule, RuleSet, Structure, cards_needed

_NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}
_BOARD_COUNT = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_STREET_INDEX = {Street.PREFLOP: 0, Street.FLOP: 1, Street.TURN: 2, Street.RIVER: 3}
_STREETS_AFTER = {0: (Street.FLOP, Street.TURN, Street.RIVER), 3: (Street.TURN, Street.RIVER), 4: (Street.RIVER,)}
RUNS = "runs"  # a pending choice: run it twice or not
SHOW = "show"  # a pending choice: show or muck at showdown


class Pending(NamedTuple):
    """What a hand waits for besides a move: the players still to answer, and about what (RUNS or SHOW)."""

    kind: str
    seats: tuple[int, ...]


def blind_seats(button: int, players: Sequence[int]) -> tuple[int, int]:
    """(small blind, big blind) seats: heads-up the button posts the small blind; else the next two seats.

    ``players`` is the dealt-in seats in clockwise order starting after the button.
    """
    if len(players) == 2:
        return button, players[0] if players[0] != button else players[1]
    return players[0], players[1]


class Hand:
    """A hand at one table.  Build with :meth:`start` (live) or :meth:`from_events` / :meth:`from_json` (replay)."""

    __slots__ = (
        "_aggressor", "_answers", "_board", "_board2", "_burns", "_choosing", "_deck", "_events", "_hole", "_legal",
        "_mucked", "_offer", "_pos", "_returned", "_shown", "_shown2", "_to_act", "_volunteered", "bb_seat",
        "betting", "button", "complete", "first_shower", "hand_no", "initial_stacks", "pot_runs", "pots", "rules",
        "runs", "sb_seat", "straddle_seat", "street",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._events: list[Event] = []
        self.hand_no = 0
        self.button = 0
        self.sb_seat = 0
        self.bb_seat = 0
        self.initial_stacks: tuple[int, ...] = ()
        self.betting: Betting = None  # type: ignore[assignment]  # set by HandStarted
        self._legal: Legal | None = None
        self.street = Street.PREFLOP
        self.complete = False
        self.pots: list[PotAwarded] = []
        self._deck: tuple[Card | None, ...] = ()
        self._pos = 0
        self._board: list[Card] = []
        self._hole: dict[int, tuple[Card | None, ...]] = {}
        self._burns: dict[int, list[Card | None]] = {}
        self._returned: list[ChipsReturned] = []
        self._shown: list[HandShown] = []
        self._to_act: int | None = None
        self.straddle_seat: int | None = None
        self.pot_runs: list[int] = []  # the run (1 or 2) of each pot in ``pots``
        self.runs = 0  # 0: not decided (or never asked), else how many times the board is dealt
        self._offer: tuple[int, ...] | None = None  # the seats asked to run it twice
        self._answers: dict[int, bool] = {}
        self._board2: list[Card] = []  # the second run's whole board (its first cards shared with the first)
        self._shown2: list[RunShown] = []
        self._choosing: list[int] = []  # seats that may still show or muck at showdown
        self._mucked: list[int] = []
        self.first_shower: int | None = None
        self._aggressor: int | None = None  # the river's last bettor or raiser
        self._volunteered: dict[int, tuple[Card, ...]] = {}  # cards an uncontested winner chose to show

    # -- construction ----------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: RuleSet,
        stacks: Sequence[int],
        button: int = 0,
        *,
        rng: RandomSource | None = None,
        cards: Sequence[Card | None] | None = None,
        hand_no: int = 1,
        straddle: bool | None = None,
    ) -> Hand:
        """Deal a new hand.

        ``stacks`` has one entry per seat (``rules.seats``); seats with no chips
        sit out.  Cards come from a fresh shoe shuffled with ``rng`` (default: the
        OS CSPRNG), or, for adjudication and tests, from ``cards`` in dealing order
        (``None`` = a card nobody knows).  ``straddle``: whether under the gun
        straddles this hand (a member table's player chooses; None: the rule set's
        ``straddle``, as the adjudication contract plays it).
        """
        n = len(stacks)
        if n != rules.seats:
            raise BadStacksError(f"{n} stacks given for {rules.seats} seats", seats=rules.seats)
        for s in stacks:
            if type(s) is not int or s < 0:
                raise BadStacksError(f"a stack must be a whole number of chips, not {s!r}")
        if not 0 <= button < n or stacks[button] <= 0:
            raise BadStacksError(f"the button must be a seat with chips, not {button!r}", button=button)
        players = []
        for s in clockwise_after(button, n):
            if stacks[s] > 0:
                players.append(s)
        if len(players) < 2:
            raise BadStacksError("a hand needs at least two players with chips")
        need = cards_needed(len(players), rules.burns, 2 if rules.run_twice else 1)
        if cards is None:
            deck: tuple[Card | None, ...] = tuple(deal(rules.decks, need, rng))
        else:
            deck = tuple(cards) + (None,) * max(0, need - len(cards))
        sb, bb = blind_seats(button, players)
        hand = cls(rules)
        events = hand._events
        # the events' own handlers, called directly (same effect as _emit, minus the dispatch)
        started = HandStarted(hand_no, button, sb, bb, tuple(stacks))
        hand._on_started(started)
        events.append(started)
        shoe = ShoeDrawn(deck)
        hand._on_shoe(shoe)
        events.append(shoe)
        k = len(players)
        on_private = hand._on_private
        for i, seat in enumerate(players):
            private = PrivateCards(seat, deck[i], (deck[k + i], deck[2 * k + i]))
            on_private(private)
            events.append(private)
        small, big = rules.small_blind, rules.big_blind
        left = stacks
        if rules.ante:
            left = list(stacks)
            for seat in players:
                ante = AntePosted(seat, min(rules.ante, left[seat]))
                hand._on_ante(ante)
                events.append(ante)
                left[seat] -= ante.amount
        for blind in (
            BlindPosted(sb, small if small < left[sb] else left[sb], False),
            BlindPosted(bb, big if big < left[bb] else left[bb], True),
        ):
            hand._on_blind(blind)
            events.append(blind)
        straddles = rules.straddle if straddle is None else straddle and rules.straddle
        if straddles and len(players) >= 3 and left[players[2]] >= 2 * big:  # a full straddle or none
            posted = StraddlePosted(players[2], 2 * big)
            hand._on_straddle(posted)
            events.append(posted)
        if hand._to_act is None:
            hand._progress()
        return hand

    @classmethod
    def from_events(cls, rules: RuleSet, events: Sequence[Event]) -> Hand:
        """Replay a log: the fold over the events."""
        hand = cls(rules)
        for ev in events:
            hand._emit(ev)
        return hand

    def __reduce__(self) -> tuple[Callable[[RuleSet, Sequence[Event]], Hand], tuple[RuleSet, list[Event]]]:
        """Pickled as its rule set and event log, and unpickled by replaying them (a class compiled by mypyc has
        no attributes for pickle to copy)."""
        return replayed, (self.rules, self._events[:])

    def to_json(self) -> dict[str, Any]:
        """The rule set and the whole event log (hidden cards included: server-side storage only)."""
        return {"rules": self.rules.to_json(), "events": [event_to_json(e) for e in self._events]}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Hand:
        return cls.from_events(RuleSet.from_json(obj["rules"]), [event_from_json(e) for e in obj["events"]])

    # -- queries ---------------------------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def version(self) -> int:
        """Number of events so far (the log's next index)."""
        return len(self._events)

    def events_since(self, version: int) -> list[Event]:
        return self._events[version:]

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the hand waits for (None once complete)."""
        return self._to_act

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self.betting.stacks)

    @property
    def pot(self) -> int:
        return self.betting.pot()

    @property
    def returned(self) -> tuple[ChipsReturned, ...]:
        return tuple(self._returned)

    @property
    def shown(self) -> tuple[HandShown, ...]:
        return tuple(self._shown)

    @property
    def shown2(self) -> tuple[RunShown, ...]:
        """The hands' results on the second run's board (when the board was run twice)."""
        return tuple(self._shown2)

    @property
    def board2(self) -> tuple[Card, ...]:
        """The second run's board (empty unless the board is run twice)."""
        return tuple(self._board2)

    @property
    def mucked(self) -> tuple[int, ...]:
        """Seats that mucked at showdown (their cards are in no view)."""
        return tuple(self._mucked)

    @property
    def volunteered(self) -> dict[int, tuple[Card, ...]]:
        """Cards the winner of an uncontested pot chose to show, by seat."""
        return dict(self._volunteered)

    @property
    def runs_answers(self) -> dict[int, bool]:
        return dict(self._answers)

    @property
    def pending(self) -> Pending | None:
        """The choices the hand waits for (running it twice, showing or mucking), None when it waits for none."""
        if self._offer is not None and not self.runs:
            return Pending(RUNS, tuple(s for s in self._offer if s not in self._answers))
        if self._choosing:
            return Pending(SHOW, tuple(self._choosing))
        return None

    @property
    def awarded(self) -> int:
        """Chips of the pots awarded so far (both runs)."""
        return sum(p.amount for p in self.pots)

    def hole_cards(self, seat: int) -> tuple[Card | None, ...]:
        return self._hole.get(seat, ())

    def private_burns(self, seat: int) -> tuple[Card | None, ...]:
        return tuple(self._burns.get(seat, ()))

    @property
    def cards_used(self) -> int:
        """Cards taken from the shoe so far (burns, hole cards, board)."""
        return self._pos

    @property
    def players(self) -> tuple[int, ...]:
        """Seats dealt into this hand."""
        return tuple(sorted(self._hole))

    def dealt_in(self, seat: int) -> bool:
        """Whether ``seat`` was dealt into this hand (cheaper than ``seat in players``)."""
        return seat in self._hole

    def legal(self) -> Legal:
        """Options of the seat to act (verify/can)."""
        legal = self._legal
        if legal is None:
            seat = self._to_act
            if seat is None:
                raise IllegalActionError("the hand is over: nobody is to act", reason="hand_over")
            legal = self._legal = self.betting.legal(seat)
        return legal

    def snapshot(self) -> dict[str, Any]:
        """Every piece of state as JSON-ready data (for equality checks of replay and round trips)."""
        b = self.betting
        return {
            "hand_no": self.hand_no, "button": self.button, "sb": self.sb_seat, "bb": self.bb_seat,
            "street": self.street.value, "complete": self.complete, "to_act": self._to_act,
            "stacks": list(b.stacks), "bets": list(b.bets), "contrib": list(b.contrib), "folded": list(b.folded),
            "acted": list(b.acted), "faced": list(b.faced), "current_bet": b.current_bet, "max_inc": b.max_inc,
            "raises": b.raises, "deck": [c.label if c else None for c in self._deck], "pos": self._pos,
            "board": [c.label for c in self._board],
            "hole": {str(s): [c.label if c else None for c in h] for s, h in sorted(self._hole.items())},
            "burns": {str(s): [c.label if c else None for c in h] for s, h in sorted(self._burns.items())},
            "returned": [event_to_json(e) for e in self._returned], "shown": [event_to_json(e) for e in self._shown],
            "pots": [event_to_json(e) for e in self.pots], "version": len(self._events),
            "straddle": self.straddle_seat, "runs": self.runs, "offer": self._offer, "answers": self._answers,
            "board2": [c.label for c in self._board2], "shown2": [event_to_json(e) for e in self._shown2],
            "pot_runs": self.pot_runs, "choosing": self._choosing, "mucked": self._mucked,
            "first_shower": self.first_shower, "aggressor": self._aggressor,
            "volunteered": {str(k): [c.label for c in v] for k, v in sorted(self._volunteered.items())},
        }

    # -- actions (do) ----------------------------------------------------------------------------------

    def act(
        self, action: Action, *, seat: int | None = None, timeout: bool = False, open_fold: bool = False
    ) -> list[Event]:
        """Apply the decision of the seat to act; returns the new events.  Illegal → error, nothing changed.

        ``open_fold`` also allows folding when checking is possible (member
        tables allow it; the adjudication contract does not).
        """
        to_act = self._to_act
        if to_act is None:
            raise IllegalActionError("the hand is over: nobody is to act", reason="hand_over")
        if seat is not None and seat != to_act:
            raise IllegalActionError(f"it is seat {to_act}'s turn, not seat {seat}'s", seat=seat, to_act=to_act,
                                     reason="not_your_turn")
        legal = self._legal
        if legal is None:
            legal = self._legal = self.betting.legal(to_act)
        if open_fold and action.kind is ActionKind.FOLD and legal.allows(ActionKind.CHECK):
            kind, amount, to, allin = ActionKind.FOLD, 0, self.betting.bets[to_act], False
        else:
            kind, amount, to, allin = self.betting.resolve(to_act, action, legal)
        events = self._events
        start = len(events)
        ev = ActionTaken(to_act, kind, amount, to, allin, timeout)
        self._on_action(ev)
        self._legal = None
        events.append(ev)
        if self._to_act is None:
            self._progress()
        return events[start:]

    def timeout_action(self) -> Action:
        """What a player who does not act is taken to do: check if possible, otherwise fold."""
        return CHECK if self.legal().allows(ActionKind.CHECK) else FOLD

    def timeout(self) -> list[Event]:
        """The action clock ran out: check if possible, otherwise fold."""
        return self.act(self.timeout_action(), timeout=True)

    def fold_out_of_turn(self, seat: int) -> list[Event]:
        """A player leaves mid-hand: their hand is folded now, whoever is to act (the seat to act folds normally)."""
        if self.complete:
            raise IllegalActionError("the hand is over", reason="hand_over")
        if seat not in self._hole or self.betting.folded[seat]:
            raise IllegalActionError(f"seat {seat} has no live hand", seat=seat, reason="no_live_hand")
        if seat == self._to_act:
            return self.act(FOLD, seat=seat, open_fold=True)
        events = self._events
        start = len(events)
        self._emit(SeatFolded(seat))
        if self._to_act is None:
            self._progress()
        return events[start:]

    def answer_runs(self, seat: int, agree: bool) -> list[Event]:
        """A player still in answers the offer to run it twice; a decline (or the last agreement) settles it."""
        pending = self.pending
        if pending is None or pending.kind != RUNS:
            raise IllegalActionError("nobody is asked to run it twice now", reason="no_runs")
        if seat not in pending.seats:
            raise IllegalActionError(f"seat {seat} is not asked to run it twice", seat=seat, reason="not_asked")
        events = self._events
        start = len(events)
        self._emit(RunsAnswered(seat, bool(agree)))
        if not agree or len(pending.seats) == 1:
            self._emit(RunsChosen(2 if agree else 1))
            self._progress()
        return events[start:]

    def choose_show(self, seat: int, show: bool) -> list[Event]:
        """A player who cannot win at showdown shows or mucks; the pots are paid once nobody is left to choose."""
        pending = self.pending
        if pending is None or pending.kind != SHOW or seat not in pending.seats:
            raise IllegalActionError(f"seat {seat} has no choice to show or muck now", seat=seat, reason="no_choice")
        events = self._events
        start = len(events)
        self._emit(self._shown_event(seat) if show else HandMucked(seat))
        if not self._choosing:
            live = self.betting.live_seats()
            self._finish(live, self._values(live))
        return events[start:]

    def close_choices(self) -> list[Event]:
        """The window for the pending choices closed: running it twice is declined (the board is dealt once) and
        every hand still to choose is mucked."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError("the hand waits for no choice", reason="no_choice")
        events = self._events
        start = len(events)
        if pending.kind == RUNS:
            self._emit(RunsChosen(1))
            self._progress()
        else:
            for seat in pending.seats:
                self._emit(HandMucked(seat))
            live = self.betting.live_seats()
            self._finish(live, self._values(live))
        return events[start:]

    def show_cards(self, seat: int, which: Sequence[int]) -> list[Event]:
        """The winner of a pot nobody contested shows one or both hole cards (``which``: 0 and/or 1)."""
        if not self.complete or self._shown or len(self.pots) != 1 or self.pots[0].winners != (seat,):
            raise IllegalActionError("only the winner of an uncontested pot may show cards", seat=seat,
                                     reason="no_show")
        picked = sorted({i for i in which if isinstance(i, int) and not isinstance(i, bool)})
        hole = self._hole.get(seat, ())
        if not picked or any(not 0 <= i < len(hole) for i in picked) or len(picked) != len(which):
            raise IllegalActionError("name one or both hole cards: 0 and/or 1", seat=seat, reason="bad_cards")
        before = self._volunteered.get(seat, ())
        cards = tuple(c for c in hole if c is not None)
        chosen = tuple(cards[i] for i in sorted(set(picked) | {cards.index(c) for c in before}))
        if chosen == before:
            return []
        events = self._events
        start = len(events)
        self._emit(CardsShown(seat, chosen))
        return events[start:]

    def fork(self) -> Hand:
        """An independent copy: decisions tried on it leave this hand as it is (the events are shared, immutable)."""
        other = Hand(self.rules)  # not Hand.__new__: a compiled (mypyc) class is only made through __init__
        other._aggressor = self._aggressor
        other._answers = dict(self._answers)
        other._board = self._board[:]
        other._board2 = self._board2[:]
        other._burns = {seat: burns[:] for seat, burns in self._burns.items()}
        other._choosing = self._choosing[:]
        other._deck = self._deck
        other._events = self._events[:]
        other._hole = dict(self._hole)
        other._legal = self._legal
        other._mucked = self._mucked[:]
        other._offer = self._offer
        other._pos = self._pos
        other._returned = self._returned[:]
        other._shown = self._shown[:]
        other._shown2 = self._shown2[:]
        other._to_act = self._to_act
        other._volunteered = dict(self._volunteered)
        other.bb_seat = self.bb_seat
        other.betting = self.betting.fork()
        other.button = self.button
        other.complete = self.complete
        other.first_shower = self.first_shower
        other.hand_no = self.hand_no
        other.initial_stacks = self.initial_stacks
        other.pot_runs = self.pot_runs[:]
        other.pots = self.pots[:]
        other.runs = self.runs
        other.sb_seat = self.sb_seat
        other.straddle_seat = self.straddle_seat
        other.street = self.street
        return other

    # -- event application (the only place state changes) ------------------------------------------

    def apply(self, ev: Event) -> None:
        """Fold one committed event into this hand (replaying a stored log, one event at a time)."""
        self._emit(ev)

    def _emit(self, ev: Event) -> None:
        _APPLY[ev.__class__](self, ev)
        self._legal = None
        self._events.append(ev)

    def _on_started(self, ev: HandStarted) -> None:
        self.hand_no = ev.hand_no
        self.button = ev.button
        self.sb_seat = ev.small_blind_seat
        self.bb_seat = ev.big_blind_seat
        self.initial_stacks = ev.stacks
        self.betting = Betting(ev.stacks, self.rules.structure, self.rules.big_blind)

    def _on_shoe(self, ev: ShoeDrawn) -> None:
        self._deck = ev.cards
        self._pos = 0

    def _on_private(self, ev: PrivateCards) -> None:
        self._hole[ev.seat] = ev.hole
        self._burns[ev.seat] = [ev.burn]
        self._pos += 3

    def _on_ante(self, ev: AntePosted) -> None:
        self.betting.post_ante(ev.seat, ev.amount)

    def _on_blind(self, ev: BlindPosted) -> None:
        self.betting.post_blind(ev.seat, ev.amount, ev.big)
        if ev.big:
            self._to_act = self.betting.next_to_act(self.bb_seat)

    def _on_straddle(self, ev: StraddlePosted) -> None:
        b = self.betting
        b.post_blind(ev.seat, ev.amount, False)
        if ev.amount > b.max_inc:
            b.max_inc = ev.amount  # a live straddle of 2 BB: the next full raise is to 4 BB
        self.straddle_seat = ev.seat
        self._to_act = b.next_to_act(ev.seat)

    def _on_action(self, ev: ActionTaken) -> None:
        b = self.betting
        if self.street is Street.RIVER and ev.to > b.current_bet:
            self._aggressor = ev.seat
        b.apply(ev.seat, ev.kind, ev.amount, ev.to)
        self._to_act = b.next_to_act(ev.seat)

    def _on_private_burn(self, ev: PrivateBurn) -> None:
        self._burns[ev.seat].append(ev.card)
        self._pos += 1

    def _on_dealer_burn(self, ev: DealerBurn) -> None:
        self._pos += 1

    def _on_board(self, ev: BoardDealt) -> None:
        self._board.extend(ev.cards)
        self._pos += len(ev.cards)
        self.street = ev.street
        bb = self.rules.big_blind  # limit: the big bet (2 BB) on turn and river; else bets start at 1 BB
        big = ev.street is not Street.FLOP and self.rules.structure is Structure.LIMIT
        self.betting.new_street(2 * bb if big else bb)
        self._to_act = self.betting.next_to_act(self.button)

    def _on_returned(self, ev: ChipsReturned) -> None:
        self.betting.give_back(ev.seat, ev.amount)
        self._returned.append(ev)

    def _on_shown(self, ev: HandShown) -> None:
        self._shown.append(ev)
        if ev.seat in self._choosing:
            self._choosing.remove(ev.seat)

    def _on_pot(self, ev: PotAwarded) -> None:
        stacks = self.betting.stacks
        for seat, share in zip(ev.winners, ev.shares, strict=True):
            stacks[seat] += share
        self.pots.append(ev)
        self.pot_runs.append(2 if self._shown2 else 1)  # the second run's pots follow its hands

    def _on_runs_offered(self, ev: RunsOffered) -> None:
        self._offer = ev.seats

    def _on_runs_answered(self, ev: RunsAnswered) -> None:
        self._answers[ev.seat] = ev.agree

    def _on_runs_chosen(self, ev: RunsChosen) -> None:
        self.runs = ev.runs
        if ev.runs == 2:
            self._board2 = self._board[:]

    def _on_second_board(self, ev: SecondBoard) -> None:
        self._board2.extend(ev.cards)
        self._pos += len(ev.cards)

    def _on_run_shown(self, ev: RunShown) -> None:
        self._shown2.append(ev)

    def _on_choices(self, ev: ShowdownChoices) -> None:
        self.first_shower = ev.first
        self._choosing = list(ev.seats)

    def _on_mucked(self, ev: HandMucked) -> None:
        self._mucked.append(ev.seat)
        if ev.seat in self._choosing:
            self._choosing.remove(ev.seat)

    def _on_cards_shown(self, ev: CardsShown) -> None:
        self._volunteered[ev.seat] = ev.cards

    def _on_seat_folded(self, ev: SeatFolded) -> None:
        b = self.betting
        b.fold_out_of_turn(ev.seat)
        to_act = self._to_act
        if to_act is not None:  # does the seat to act still have to? (the round may have closed without the leaver)
            self._to_act = b.next_to_act((to_act - 1) % b.n)

    def _on_ended(self, ev: HandEnded) -> None:
        self.complete = True
        self._to_act = None

    # -- what follows a closed betting round -----------------------------------------------------------

    def _progress(self) -> None:
        b = self.betting
        emit = self._emit
        while self._to_act is None and not self.complete and self.pending is None:
            back = uncalled(b.bets)
            if back is not None and not b.folded[back[0]]:  # a leaver's uncalled bet stays in the pot
                emit(ChipsReturned(back[0], back[1]))
            live = b.live_seats()
            if len(live) == 1:
                self._finish(live, None)
                return
            if self.street is Street.RIVER:
                if self.runs == 2 and len(self._board2) < 5:
                    self._deal_second_run(live)
                self._showdown(live)
                return
            if self.rules.run_twice and self._offer is None and b.active <= 1:
                emit(RunsOffered(tuple(live)))  # nobody can bet any more: the hand waits for the answers
                return
            self._deal_street(live)

    def _deal_street(self, live: list[int]) -> None:
        """Every-street private burns (if that schedule), the dealer's burn, then the street's board cards."""
        street = _NEXT_STREET[self.street]
        emit = self._emit
        deck = self._deck  # padded to the most cards the hand can use, so positions always exist
        if self.rules.burns is BurnSchedule.EVERY_STREET:
            for seat in clockwise_after(self.button, self.betting.n):
                if seat in live:
                    emit(PrivateBurn(seat, deck[self._pos]))
        emit(DealerBurn(street, deck[self._pos]))
        count = _BOARD_COUNT[street]
        cards = deck[self._pos:self._pos + count]
        if any(c is None for c in cards):
            raise MissingCardsError(f"the {street.value} is needed but was not given", needed=street.value)
        emit(BoardDealt(street, cards))  # type: ignore[arg-type]

    def _deal_second_run(self, live: list[int]) -> None:
        """The second run: the streets not dealt before the all-in, from the same shoe after the first run's
        river, each after its burns (the dealer's, and the players' own on the every-street schedule)."""
        deck = self._deck
        emit = self._emit
        for street in _STREETS_AFTER[len(self._board2)]:
            if self.rules.burns is BurnSchedule.EVERY_STREET:
                for seat in clockwise_after(self.button, self.betting.n):
                    if seat in live:
                        emit(PrivateBurn(seat, deck[self._pos]))
            emit(DealerBurn(street, deck[self._pos]))
            cards = deck[self._pos:self._pos + _BOARD_COUNT[street]]
            if any(c is None for c in cards):
                raise MissingCardsError(f"the second run's {street.value} is needed but was not given",
                                        needed=street.value)
            emit(SecondBoard(street, cards))  # type: ignore[arg-type]

    def _hole_of(self, seat: int) -> tuple[Card, Card]:
        hole = self._hole[seat]
        if hole[0] is None or hole[1] is None:
            raise MissingCardsError(f"seat {seat}'s hole cards are needed for the showdown", seat=seat)
        return hole  # type: ignore[return-value]

    def _values(self, live: Sequence[int], board: Sequence[Card] | None = None) -> dict[int, int]:
        cards = tuple(self._board if board is None else board)
        return {seat: hand_value(self._hole_of(seat) + cards, self.rules.ranking) for seat in live}

    def _shown_event(self, seat: int, value: int | None = None) -> HandShown:
        hole = self._hole_of(seat)
        board = tuple(self._board)
        if value is None:
            value = hand_value(hole + board, self.rules.ranking)
        return HandShown(seat, hole, board, self.rules.ranking.category_of(value), value)

    def _showdown(self, live: list[int]) -> None:
        """Every hand shown (clockwise from the button), or, where hands may be mucked and nobody is all in, the
        first to show and every winner shown and the others asked (see ``docs/rules.md``, show or muck)."""
        order = [s for s in clockwise_after(self.button, self.betting.n) if s in live]
        values = self._values(live)
        emit = self._emit
        if self.runs == 2:
            self._two_runs(order, values)
            return
        if not self.rules.show_or_muck or any(self.betting.stacks[s] == 0 for s in live):
            for seat in order:
                emit(self._shown_event(seat, values[seat]))
            self._finish(live, values)
            return
        first = self._aggressor if self._aggressor in live else order[0]
        start = order.index(first)
        order = order[start:] + order[:start]
        winners = {w for _pot, shares in self._awards(live, values) for w in shares}
        choosing = tuple(s for s in order if s != first and s not in winners)
        emit(ShowdownChoices(first, choosing))
        for seat in order:
            if seat not in choosing:
                emit(self._shown_event(seat, values[seat]))
        if not choosing:
            self._finish(live, values)

    def _two_runs(self, order: list[int], values: dict[int, int]) -> None:
        """Each run shown and paid in turn: every pot halved (the first run takes the odd chip), each half split
        among that run's winners by the odd-chip rule."""
        emit = self._emit
        b = self.betting
        live = sorted(order)
        pots = self._pots(live)
        clockwise = clockwise_after(self.button, b.n)
        board2 = tuple(self._board2)
        values2 = self._values(live, board2)
        for seat in order:
            emit(self._shown_event(seat, values[seat]))
        for run, vals in ((1, values), (2, values2)):
            if run == 2:
                for seat in order:
                    hole = self._hole_of(seat)
                    v = values2[seat]
                    emit(RunShown(seat, hole, board2, self.rules.ranking.category_of(v), v))
            halves = [Pot((p.amount + 1) // 2 if run == 1 else p.amount // 2, p.eligible) for p in pots]
            for pot, shares in award([p for p in halves if p.amount > 0], vals, clockwise):
                winners_t = tuple(sorted(shares))
                emit(PotAwarded(pot.amount, pot.eligible, winners_t, tuple(shares[w] for w in winners_t)))
        emit(HandEnded(tuple(b.stacks)))

    def _pots(self, live: list[int]) -> list[Pot]:
        b = self.betting
        contrib = b.contrib
        level = contrib[live[0]]
        if max(contrib) == level and all(contrib[s] == level for s in live):
            return [Pot(sum(contrib), tuple(live))]  # one pot: every player still in put in the same
        return build_pots(contrib, [not f for f in b.folded])

    def _awards(self, live: list[int], values: dict[int, int]) -> list[tuple[Pot, dict[int, int]]]:
        return award(self._pots(live), values, clockwise_after(self.button, self.betting.n))

    def _finish(self, live: list[int], values: dict[int, int] | None) -> None:
        b = self.betting
        emit = self._emit
        contrib = b.contrib
        total = sum(contrib)
        if len(live) == 1:  # won without a showdown: every chip to the last player
            emit(PotAwarded(total, (live[0],), (live[0],), (total,)))
            emit(HandEnded(tuple(b.stacks)))
            return
        assert values is not None
        level = contrib[live[0]]
        single = max(contrib) == level
        if single:
            for s in live:
                if contrib[s] != level:
                    single = False
                    break
        order = clockwise_after(self.button, b.n)
        if single:  # one pot: every player still in put in the same, nobody more
            best = max(values.values())
            winners = [s for s in live if values[s] == best]
            if len(winners) == 1:
                emit(PotAwarded(total, tuple(live), (winners[0],), (total,)))
                emit(HandEnded(tuple(b.stacks)))
                return
            pots = [Pot(total, tuple(live))]
        else:
            pots = build_pots(contrib, [not f for f in b.folded])
        for pot, shares in award(pots, values, order):
            winners_t = tuple(sorted(shares))
            emit(PotAwarded(pot.amount, pot.eligible, winners_t, tuple(shares[w] for w in winners_t)))
        emit(HandEnded(tuple(b.stacks)))

_APPLY: dict[type[Any], Callable[[Hand, Any], None]] = {
    HandStarted: Hand._on_started,
    ShoeDrawn: Hand._on_shoe,
    PrivateCards: Hand._on_private,
    BlindPosted: Hand._on_blind,
    ActionTaken: Hand._on_action,
    PrivateBurn: Hand._on_private_burn,
    DealerBurn: Hand._on_dealer_burn,
    BoardDealt: Hand._on_board,
    ChipsReturned: Hand._on_returned,
    HandShown: Hand._on_shown,
    PotAwarded: Hand._on_pot,
    HandEnded: Hand._on_ended,
    SeatFolded: Hand._on_seat_folded,
    StraddlePosted: Hand._on_straddle,
    RunsOffered: Hand._on_runs_offered,
    RunsAnswered: Hand._on_runs_answered,
    RunsChosen: Hand._on_runs_chosen,
    SecondBoard: Hand._on_second_board,
    RunShown: Hand._on_run_shown,
    ShowdownChoices: Hand._on_choices,
    HandMucked: Hand._on_mucked,
    CardsShown: Hand._on_cards_shown,
    AntePosted: Hand._on_ante,
}


def replayed(rules: RuleSet, events: Sequence[Event]) -> Hand:
    """:meth:`Hand.from_events`, as a function pickle can name."""
    return Hand.from_events(rules, events)
