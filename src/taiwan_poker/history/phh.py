"""Hands as PHH, the Poker Hand History format that pokerkit reads, written from one viewer's visible events.

The exporter reads only :func:`~taiwan_poker.rules.views.events_for` of the
viewer's seat (or a spectator's), the same fail-closed events a browser gets:
a card the viewer may not see is never in the input, so it is written
``????`` as PHH allows.

Players are listed as PHH numbers them: ``p1`` is the first seat after the
button and the last is the button (heads-up, ``p1`` is the big blind and
``p2`` the button, whose blind pokerkit posts reversed).  Multi-deck identity
and private burns have no PHH field; they go in user-defined fields (names
starting with ``_``), which a reader that knows one deck ignores:

* ``_decks``: decks in the shoe;
* ``_hole_decks``: each player's hole cards' deck numbers (0 where unknown);
* ``_board_decks``: the deck number of each board card, in dealing order;
* ``_private_burns``: each player's private burn (``????`` unless it is the viewer's);
* ``_private_burn_decks``: their deck numbers (0 where unknown);
* ``_table``: the table's code; ``_seats``: our seat numbers (0-based) of p1, p2, …;
* ``_runs``: 2 when the board was run twice (written only then).

``blinds_or_straddles`` holds every forced bet of the hand at its player: the
small and big blinds of the hand's own stakes and, when under the gun
straddled, the straddle (``[10, 20, 40, 0]``).

**Run it twice.** PHH has no action for choosing the number of runouts, so a
reader learns it from ``_runs``: the second run's cards follow the first run's
river as more ``d db`` actions (the streets dealt again, as pokerkit deals
them), and a reader selects two runouts when the showdown asks (pokerkit:
``state.select_runout_count(2)`` for each player asked, with
``Automation.RUNOUT_COUNT_SELECTION`` left out of the hand history's
automations).  Each run pays half of every pot, the first the odd chip, as
ours does.

A time-out is written as its action with the commentary ``# timed out``; a
winner who showed cards without a showdown, as a commentary (PHH shows cards
only at a showdown).

**A player who left mid-hand** folded out of turn, which PHH cannot say: a
comment marks the point they left, and their fold is written at their next turn
in pokerkit's order (``pN f # left the table``), or a muck at the showdown; a
player our table no longer asked (the hand went on without the leaver) checks
or calls there with the commentary ``# not asked at our table``, which moves no
chip that stays with anyone else.  ``_folded_out_of_turn`` lists the leavers
whose fold cannot be replayed so: the hand ended before their next turn
(everyone else folded behind them, or they left after the last raise: a reader
would need streets our table never dealt), they left a bet nobody matched (our
table keeps it in the pot, ``docs/rules.md``; a reader gives it back), or the
board was then run twice (a reader starts the second run after their turn).  A
reader that plays turns, as pokerkit does, cannot replay such a hand to our
stacks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..rules.actions import ActionKind
from ..rules.replay import (
    AntePost,
    BlindPost,
    Mucked,
    PotWon,
    SeatLeft,
    SecondDealt,
    ShownAfter,
    ShownHand,
    StraddlePost,
    StreetAction,
    StreetDealt,
    VisibleHand,
    replay,
)


def _face(card: Card | None) -> str:
    return "??" if card is None else card.face_str


def _deck(card: Card | None) -> int:
    return 0 if card is None else card.deck


def hand_phh(events: Sequence[Mapping[str, Any]], *, names: Sequence[str], small_blind: int, big_blind: int,
             decks: int, table: str = "", hand_no: int | None = None, event: str | None = None,
             level: int | None = None) -> str:
    """One hand in PHH (TOML) from a viewer's events (``events_for``); ``names`` by seat, the blinds the hand's;
    a sit-and-go's hand names its tournament (PHH's ``event``) and blind level (``level``, from 1)."""
    hand = replay(events)
    stacks = hand.start_stacks
    n = len(stacks)
    order = [s for s in ((hand.button + 1 + i) % n for i in range(n)) if stacks[s] > 0]  # p1 .. pN (the button)
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    turns = _Turns(order, stacks)
    actions: list[str] = []
    for step in hand.steps:
        actions += turns.before(step)
        if isinstance(step, StreetAction):
            timed_out = " # timed out" if step.timeout else ""
            if step.kind is ActionKind.FOLD:
                actions.append(f"{player[step.seat]} f{timed_out}")
            elif step.answerable:
                actions.append(f"{player[step.seat]} cbr {step.to}{timed_out}")
            else:  # a check or call, or an all-in nobody can answer (PHH calls, the excess comes back)
                actions.append(f"{player[step.seat]} cc{timed_out}")
        elif isinstance(step, SeatLeft):
            actions.append(f"# {player[step.seat]} left the table: folded out of turn (written at their turn)")
        elif isinstance(step, StreetDealt | SecondDealt):
            actions.append("d db " + "".join(c.face_str for c in step.cards))
        elif isinstance(step, ShownHand):
            actions.append(f"{player[step.seat]} sm " + "".join(c.face_str for c in step.hole))
        elif isinstance(step, Mucked):
            actions.append(f"{player[step.seat]} sm")
        elif isinstance(step, ShownAfter):
            actions.append(f"# {player[step.seat]} showed " + "".join(c.face_str for c in step.cards))
    hole = {s: hand.hole(s) for s in order}
    burns = {s: next(iter(hand.burns(s)), None) for s in order}
    deals = [f"d dh {player[s]} " + "".join(_face(c) for c in hole[s]) for s in order]
    fields: list[tuple[str, Any]] = [
        ("variant", "NT"),
        ("antes", _antes(hand, order)),
        ("blinds_or_straddles", _forced_bets(hand, order, small_blind, big_blind)),
        ("min_bet", big_blind),
        ("starting_stacks", [stacks[s] for s in order]),
        ("actions", deals + actions),
        ("players", [names[s] for s in order]),
    ]
    if event is not None:
        fields.append(("event", event))
    if level is not None:
        fields.append(("level", level))
    if hand_no is not None:
        fields.append(("hand", hand_no))
    if hand.end_stacks is not None:
        fields.append(("finishing_stacks", [hand.end_stacks[s] for s in order]))
    fields += [
        ("_table", table),
        ("_seats", order),
        ("_decks", decks),
        ("_hole_decks", [[_deck(c) for c in hole[s]] for s in order]),
        ("_board_decks", [_deck(c) for s in hand.steps if isinstance(s, StreetDealt | SecondDealt) for c in s.cards]),
        ("_private_burns", [_face(burns[s]) + ("" if burns[s] is not None else "??") for s in order]),
        ("_private_burn_decks", [_deck(burns[s]) for s in order]),
    ]
    if hand.runs > 1:
        fields.append(("_runs", hand.runs))
    unplaced = _unplaced(hand, turns)
    if unplaced:
        fields.append(("_folded_out_of_turn", [player[s] for s in order if s in unplaced]))
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields)


def _unplaced(hand: VisibleHand, turns: _Turns) -> set[int]:
    """The players who left mid-hand whose fold a reader that plays turns cannot replay as our table did: those
    no turn was left for, those all in for more than any player still in the hand put in (our table gives that
    part to the players still in, a reader gives it back, or to nobody, as it only sees the leavers muck it), and
    any who left a hand whose board was then run twice (a reader starts the second run after the leaver's turn)."""
    left = {s.seat for s in hand.steps if isinstance(s, SeatLeft)}
    most = max((hand.contributed[s] for s in hand.live), default=0)
    kept = {s for s in left if turns.stacks[s] == 0 and hand.contributed[s] > most}
    return turns.gone | kept | (left if hand.runs > 1 else set())


class _Turns:
    """Whom pokerkit would ask to act next, so that a player who left mid-hand is written folding when it asks them.

    At our table a player who leaves folds at once, out of turn; PHH has no such fold, so the leaver is written
    folding at their next turn in the betting, or mucking at a showdown they are not asked to act before (see the
    module's docstring).  This follows pokerkit's turns: a round asks every player with chips behind (when two or
    more have any), and again after each bet or raise it must answer.
    """

    def __init__(self, order: Sequence[int], stacks: Sequence[int]) -> None:
        self.order = list(order)  # p1 .. pN, clockwise from the first seat after the button
        self.name = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
        self.stacks = {s: stacks[s] for s in order}  # chips behind
        self.bets = dict.fromkeys(order, 0)  # this round's
        self.live = set(order)  # not folded, as the file has told it so far
        self.due = set(order)  # who must still act this round (pre-flop: everyone, the big blind's option too)
        self.last = order[-1]  # who acted (or posted) last: the round's next turn is clockwise from them
        self.gone: set[int] = set()  # left the table, their fold not written yet
        self.over = False  # the betting is over: shows, mucks and pots

    def before(self, step: object) -> list[str]:
        """The actions to write before ``step`` for the players who left, and the turns moved on by it."""
        out: list[str] = []
        if isinstance(step, AntePost):
            self.stacks[step.seat] -= step.amount
        elif isinstance(step, BlindPost | StraddlePost):
            self.stacks[step.seat] -= step.amount
            self.bets[step.seat] += step.amount
            self.last = step.seat
        elif isinstance(step, SeatLeft):
            self.gone.add(step.seat)
        elif isinstance(step, StreetAction):
            out = self._folds(stop=step.seat)
            self.due.discard(step.seat)
            self.stacks[step.seat] -= step.amount
            self.bets[step.seat] += step.amount
            if step.kind is ActionKind.FOLD:
                self.live.discard(step.seat)
            elif step.answerable:  # written as a bet or raise: everyone else with chips answers it
                self.due = self._acting() - {step.seat}
            self.last = step.seat
            self._settle()
        elif isinstance(step, StreetDealt | SecondDealt) and not self.over:
            out = self._folds()
            self._round(betting=isinstance(step, StreetDealt))
        elif isinstance(step, ShownHand | Mucked | PotWon) and not self.over:
            self.over = True
            out = self._folds() + (self._mucks() if isinstance(step, ShownHand | Mucked) else [])
        return out

    def _acting(self) -> set[int]:
        return {s for s in self.live if self.stacks[s] > 0}

    def _settle(self) -> None:
        """With fewer than two players left to act, the round asks only one who has a bet to answer."""
        if len(self._acting()) < 2:
            top = max(self.bets[s] for s in self.live) if self.live else 0
            self.due = {s for s in self.due if s in self.live and self.bets[s] < top}

    def _round(self, betting: bool) -> None:
        """A new street: a betting round, or none (the second run's board)."""
        acting = self._acting()
        self.bets = dict.fromkeys(self.order, 0)
        self.due = acting if betting and len(acting) >= 2 else set()
        self.last = self.order[-1]

    def _walk(self) -> list[int]:
        """The seats in turn, clockwise from the last to act."""
        n = len(self.order)
        start = self.order.index(self.last)
        return [self.order[(start + k) % n] for k in range(1, n + 1)]

    def _turn(self, seat: int, move: str) -> str:
        """A move written for a turn our table did not play: a leaver's fold, or a check or call (its chips)."""
        self.due.discard(seat)
        self.last = seat
        if move.startswith("f"):
            self.gone.discard(seat)
            self.live.discard(seat)
        else:
            call = min(max(self.bets.values()) - self.bets[seat], self.stacks[seat])
            self.bets[seat] += call
            self.stacks[seat] -= call
        self._settle()
        return f"{self.name[seat]} {move}"

    def _folds(self, stop: int | None = None) -> list[str]:
        """The leavers asked to act before ``stop``'s turn (None: before the round ends), clockwise from the last.

        Before the round ends, a player still to act ahead of a leaver in pokerkit's order, whom our table did not
        ask (the hand went on without the leaver), checks or calls: it moves no chip that stays with anyone else,
        as whoever is left wins what they put in, or nobody bets after it."""
        walk = self._walk()
        walk = walk[:walk.index(stop)] if stop in walk else walk
        waiting = [s for s in walk if s in self.gone and s in self.due and self.stacks[s] > 0]
        out = []
        for seat in walk[:walk.index(waiting[-1]) + 1] if waiting else ():
            if seat not in self.due:  # not asked (any more: a fold may have closed the round)
                continue
            if seat in waiting:
                out.append(self._turn(seat, "f # left the table"))
            elif stop is None and self.stacks[seat] > 0:
                out.append(self._turn(seat, f"cc {NOT_ASKED}"))
        return out

    def _mucks(self) -> list[str]:
        """At the showdown, the leavers not asked to act since muck."""
        out = [f"{self.name[s]} sm # left the table" for s in self.order if s in self.gone]
        self.gone.clear()
        return out


NOT_ASKED = "# not asked at our table: the hand went on without a player who left"


def _antes(hand: VisibleHand, order: Sequence[int]) -> list[int]:
    """``antes`` in PHH order: what each player posted (a short stack less than the ante)."""
    posted = {step.seat: step.amount for step in hand.steps if isinstance(step, AntePost)}
    return [posted.get(seat, 0) for seat in order]


def _forced_bets(hand: VisibleHand, order: Sequence[int], small_blind: int, big_blind: int) -> list[int]:
    """``blinds_or_straddles`` in PHH order: each blind and the straddle at the player who posted it, at the
    hand's stakes (pokerkit posts a short stack's all-in for less itself); heads-up reversed, as PHH says the
    button's small blind is."""
    out = [0] * len(order)
    for step in hand.steps:
        if isinstance(step, BlindPost):
            out[order.index(step.seat)] = big_blind if step.big else small_blind
        elif isinstance(step, StraddlePost):
            out[order.index(step.seat)] = step.amount
    return out[::-1] if len(order) == 2 else out


def _toml(value: Any) -> str:
    """A TOML value: strings, integers and (nested) arrays of them are all PHH needs; JSON writes them the same."""
    if isinstance(value, bool):  # pragma: no cover - no boolean fields
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def match_phh(hands: Sequence[str]) -> str:
    """Several hands in one file, as pokerkit's ``HandHistory.loads_all`` reads them (``[1]``, ``[2]``, …)."""
    return "\n".join(f"[{i + 1}]\n{text}" for i, text in enumerate(hands))
