"""Histories equal the table (issue 45): random matches at the table machine, with straddles, boards run twice,
time-outs, shows after an uncontested pot, new stakes, players leaving (between hands or in one) and their seats
taken over by new players; at the end every hand's
histories, for every player of it and for a spectator, tell the story the live table told (``agreement.py``)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from taiwan_poker.history.exports import Format, hand_record, render_json, render_text
from taiwan_poker.rules import Action, ActionKind, RuleSet
from taiwan_poker.rules.events import ActionTaken, BlindPosted, HandStarted, StraddlePosted
from taiwan_poker.tables import (
    Act,
    AnswerRuns,
    Back,
    ChangeRules,
    Command,
    Deal,
    Join,
    Leave,
    Open,
    ShowCards,
    ShowOrMuck,
    Straddle,
    TableError,
    TableState,
    TimeOut,
    decide,
    fold,
    history,
    table_view,
)
from taiwan_poker.tables.commands import stamped
from taiwan_poker.tables.events import HandEvent
from taiwan_poker.tables.settings import changed_rules
from taiwan_poker.tables.timing import due
from tests.history.agreement import LiveHand, check_histories

T = TypeVar("T")
Pick = Callable[[Sequence[T]], T]  # one of these: hypothesis draws it (or, to explore, a random.Random chooses)

HOST = 100
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Ned")
MOVES = {"fold": 2, "check": 6, "call": 6, "bet": 3, "raise": 2, "allin": 1.5}


class LiveTable:
    """A table played through ``decide``/``fold`` on a fake clock (``now``), its hands recorded as the live table's
    views showed them."""

    def __init__(self, seats: int, seed: int, **rules: Any) -> None:
        self.rng = random.Random(seed)  # the shoe's
        self.state: TableState | None = None
        self.now = dt.datetime(2026, 1, 5, 20, 0, tzinfo=dt.UTC)
        self.hands: dict[int, LiveHand] = {}
        self.do(Open(RuleSet(decks=2, seats=seats, **rules), HOST, NAMES[0]))
        for i in range(1, seats):
            self.do(Join(HOST + i, NAMES[i]))
        self.newcomers = iter(range(seats, len(NAMES)))

    @property
    def s(self) -> TableState:
        assert self.state is not None
        return self.state

    def do(self, command: Command) -> None:
        """Apply a command; the hand it dealt, the moves it made (an away player's time-out folds included) and
        the hand's end as the live table pushed and showed them."""
        before = self.state.hand.hand_no if self.state is not None and self.state.hand is not None else 0
        events = decide(self.state, stamped(command, self.now), self.rng)
        self.state = fold(events, self.state)
        hand = self.state.hand
        if hand is None:
            return
        public = table_view(self.state, None)
        if hand.hand_no != before:
            self.hands[hand.hand_no] = LiveHand.dealt(public)
        live = self.hands[hand.hand_no]
        for e in (e.event for e in events if isinstance(e, HandEvent)):
            if isinstance(e, ActionTaken):
                live.moves.append((e.seat, e.kind is ActionKind.FOLD, e.timeout))
            elif isinstance(e, HandStarted):  # a hand that runs out at once is over in the view that deals it
                live.start, live.posts = {s: e.stacks[s] for s in live.names}, {}
            elif isinstance(e, BlindPosted | StraddlePosted):
                live.posts[e.seat] = e.amount
        if hand.complete:
            live.ended(public)

    def on_time(self, command: Command) -> None:
        """The server's own command (a time-out, the next deal) once the table's clock says it is due."""
        upcoming = due(self.s, self.now)
        if upcoming.next is not None:
            self.now = max(self.now, upcoming.next)
        self.do(command)

    def member(self, seat: int) -> int:
        occupant = self.s.seats[seat]
        assert occupant is not None
        return occupant.member

    def move(self, pick: Pick[Any]) -> None:
        """The player to act moves, or their clock runs out, or a player leaves; a choice the hand waits for is
        made or lapses."""
        hand = self.s.hand
        assert hand is not None
        if hand.pending is not None:
            seat = hand.pending.seats[0]
            if pick(range(10)) == 0:
                self.on_time(TimeOut(None))  # the window closes: declined, or mucked
            elif hand.pending.kind == "runs":
                self.do(AnswerRuns(self.member(seat), pick((True, True, True, False))))
            else:
                self.do(ShowOrMuck(self.member(seat), pick((False, True))))
            return
        players = [s for s in hand.players if not hand.betting.folded[s] and self.member(s) != HOST]
        if players and sum(x is not None for x in self.s.seats) >= 3 and pick(range(15)) == 0:
            self.do(Leave(self.member(pick(players))))  # mid-hand: their hand folds at once, out of turn
            return
        seat = hand.to_act
        assert seat is not None
        if pick(range(12)) == 0:
            self.on_time(TimeOut(None))
            return
        legal = table_view(self.s, self.member(seat))["hand"]["legal"]
        kind = pick([k for k in legal["actions"] for _ in range(int(2 * MOVES[k]))])
        to = None
        if kind in ("bet", "raise"):
            lo, hi = legal[f"min_{kind}_to"], legal[f"max_{kind}_to"]
            to = pick((lo, hi, (lo + hi) // 2))
        self.do(Act(self.member(seat), Action(ActionKind(kind), to)))

    def between_hands(self, pick: Pick[Any]) -> bool:
        """What happens between hands: a show, new stakes, a player leaving, new players taking the empty seats,
        players choosing to straddle; then the next deal (False when the match is over)."""
        hand = self.s.hand
        assert hand is not None and hand.complete
        if self.s.over:
            return False
        winner = hand.pots[0].winners[0]
        if len(hand.pots) == 1 and not hand.shown and pick((False, True)):
            self.do(ShowCards(self.member(winner), pick(((0,), (1,), (0, 1)))))
        if pick(range(4)) == 0:
            big = pick((20, 40, 50, 100))
            self.do(ChangeRules(HOST, changed_rules(self.s.rules, {"blinds": [big // 2, big]})))
        seated = [i for i, x in enumerate(self.s.seats) if x is not None and x.member != HOST]
        if len(seated) >= 2 and pick(range(3)) == 0:
            self.do(Leave(self.member(pick(seated))))
        for seat, occupant in enumerate(self.s.seats):  # a seat left empty is taken by someone new
            newcomer = next(self.newcomers, None) if occupant is None and not self.s.over else None
            if newcomer is not None:
                self.do(Join(HOST + newcomer, NAMES[newcomer], seat=seat))
        for occupant in self.s.seats:
            if occupant is not None and occupant.away:
                self.do(Back(occupant.member))
            if occupant is not None and self.s.rules.straddle and not self.s.over and pick(range(3)) == 0:
                self.do(Straddle(occupant.member, pick(("next", "always", "off"))))
        try:
            self.on_time(Deal(None))
        except TableError:
            return False
        return self.s.hand_running

    def viewers(self, index: int) -> list[int | None]:
        """A spectator and every member dealt in to hand ``index`` (0-based), those who left since included."""
        return [None, *(m for m in self.s.lineups[index] if m is not None and self.s.seat_in_hand(m, index) is not None
                        and self.s.hands[index].dealt_in(self.s.seat_in_hand(m, index)))]  # type: ignore[arg-type]


def check_every_hand(table: LiveTable, code: str = "TBL") -> int:
    """Every finished hand's histories, for each of its viewers, against the live hand; returns how many hands."""
    state = table.s
    checked = 0
    for index, hand in enumerate(state.hands):
        if not hand.complete:
            continue
        live = table.hands[hand.hand_no]
        for member in table.viewers(index):
            record = [hand_record(state, code, member, index)]
            check_histories(live, render_json(record, table=code, single=True), history(state, member)[index],
                            render_text(record, Format.TEXT, single=True), render_text(record, Format.PHH, single=True),
                            state.seat_in_hand(member, index))
        checked += 1
    return checked


def play(seats: int, seed: int, hands: int, pick: Pick[Any], **rules: Any) -> LiveTable:
    """A match of up to ``hands`` hands, each move and choice picked by ``pick``."""
    table = LiveTable(seats, seed, **rules)
    if not table.s.hand_running:
        table.do(Deal(HOST))
    played = 0
    for _ in range(2000):
        if table.s.hand_running:
            table.move(pick)
            continue
        played += 1
        if played >= hands or not table.between_hands(pick):
            break
    return table


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          phases=tuple(p for p in Phase if p is not Phase.explain))  # the explain phase takes minutes
@given(seats=st.integers(2, 6), straddle=st.booleans(), run_twice=st.booleans(), show_or_muck=st.booleans(),
       seed=st.integers(0, 2**32 - 1), hands=st.integers(2, 7), data=st.data())
def test_every_history_of_every_hand_tells_what_the_live_table_showed(
        seats: int, straddle: bool, run_twice: bool, show_or_muck: bool, seed: int, hands: int,
        data: st.DataObject) -> None:
    """Posts (blinds, straddle), actions (time-outs marked), the pots of each run, stacks, names as seated then and
    each hand's own stakes agree in the JSON the replayer draws, the table history, the text and the PHH; pokerkit
    replays each PHH to the stacks the table recorded."""
    table = play(seats, seed, hands, lambda options: data.draw(st.sampled_from(options)), straddle=straddle,
                 run_twice=run_twice, show_or_muck=show_or_muck)
    assert check_every_hand(table) >= 1
    for name, seen in (("a straddle", any(h.straddle is not None for h in table.hands.values())),
                       ("a board run twice", any(h.board2 for h in table.hands.values())),
                       ("a time-out", any(h.timeouts for h in table.hands.values())),
                       ("cards shown after an uncontested pot", any(h.showed for h in table.hands.values())),
                       ("new stakes", len({h.blinds for h in table.hands.values()}) > 1),
                       ("a seat taken over", len(table.s.departed) > 0)):
        event(name if seen else f"no {name}")
