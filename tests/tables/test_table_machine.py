"""The table state machine, rule by rule (docs/rules.md, member tables), and its invariants over 2–9 seats."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taiwan_poker.bots.levels import LEVELS, policy_of
from taiwan_poker.errors import IllegalActionError
from taiwan_poker.rules import Action, ActionKind, RuleSet
from taiwan_poker.rules.events import HandEnded, SeatFolded, ShoeDrawn
from taiwan_poker.strategy.seat import seat_view
from taiwan_poker.tables import (
    Act,
    AddBot,
    AdjustStack,
    AnswerRuns,
    AnswerSeat,
    Away,
    Back,
    BuyChips,
    ChangeRules,
    Deal,
    EndMatch,
    HandHost,
    Join,
    Leave,
    NameCohost,
    Open,
    Pause,
    Rematch,
    RemoveBot,
    RemovePlayer,
    Resume,
    SetOptions,
    ShowCards,
    ShowOrMuck,
    Straddle,
    TableError,
    TableOptions,
    TableState,
    TimeOut,
    chips_conserved,
    decide,
    decide_folded,
    event_from_json,
    event_to_json,
    fold,
    table_view,
)
from taiwan_poker.tables.commands import stamped
from taiwan_poker.tables.events import DECLARED, HandEvent, MatchEnded, PlayerAway, PlayerLeft
from taiwan_poker.tables.settings import changed_rules
from taiwan_poker.tables.state import Phase, Wait
from taiwan_poker.tables.timing import BotMove, due, time_out_from, waiting
from taiwan_poker.tables.views import table_ledger

START = dt.datetime(2026, 1, 5, 20, 0, tzinfo=dt.UTC)  # the fake clock's first reading


class Table:
    """A table driven through decide/fold on a fake clock (every command happens at ``now``, which only
    :meth:`wait` and :meth:`sweep` move), checking the invariants after every single event."""

    def __init__(self, seats: int = 2, decks: int = 2, seed: int = 1, bot_pause: tuple[float, float] = (0.0, 0.0),
                 **rules: Any) -> None:
        self.rng = random.Random(seed)
        self.log: list[Any] = []
        self.state: TableState | None = None
        self.now = START
        self.do(Open(RuleSet(decks=decks, seats=seats, **rules), 100, "P100", bot_pause=bot_pause))

    def wait(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)

    def sweep(self) -> list[Any]:
        """The server's timer: wait for the table's next deadline and apply what falls due then (a bot's move is
        its policy's, from its seat's view)."""
        upcoming = due(self.s, self.now)
        assert upcoming.next is not None, "nothing falls due at this table"
        self.now = max(self.now, upcoming.next)
        command = due(self.s, self.now).command
        assert command is not None
        return self.do(bot_act(self.s, self.rng) if isinstance(command, BotMove) else command)

    def do(self, command: Any) -> list[Any]:
        decided = decide_folded(self.state, stamped(command, self.now), self.rng)
        events = decided.events
        for event in events:
            assert event.at == self.now, "every event carries its command's time"
            assert event_from_json(event_to_json(event)) == event, "the JSON round trip keeps every event"
            self.state = fold([event], self.state)
            assert chips_conserved(self.state), f"chips conserved after {event}"
            books = table_ledger(self.state)["totals"]
            assert books["balanced"], f"the books add up after {event}: {books}"
            assert books["paid_in"] == self.state.chips_entered and books["took"] == self.state.removed
        assert whole(decided.state) == whole(self.s), "the machine's own fold is the events' fold"
        self.log += events
        return events

    @property
    def s(self) -> TableState:
        assert self.state is not None
        return self.state


def untimed(events: list[Any]) -> list[Any]:
    """``events`` without their time, to compare with events written out in a test."""
    return [e._replace(at=None) for e in events]


def bot_act(state: TableState, rng: random.Random) -> Act:
    """The move of the bot to act, from its seat's view, as in live play."""
    turn = state.bot_to_act()
    assert turn is not None and state.hand is not None
    seat, bot = turn
    assert bot.bot is not None
    return Act(bot.member, policy_of(bot.bot)(seat_view(state.hand, seat), rng))


def seated_table(players: int, seats: int | None = None, **kw: Any) -> Table:
    t = Table(seats or players, **kw)
    for m in range(101, 100 + players):
        t.do(Join(m, f"P{m}"))
    return t


def member_to_act(t: Table) -> int:
    hand = t.s.hand
    assert hand is not None and hand.to_act is not None
    seat = t.s.seats[hand.to_act]
    assert seat is not None
    return seat.member


def test_heads_up_deals_when_the_second_player_sits_and_the_button_posts_the_small_blind() -> None:
    t = seated_table(2)
    hand = t.s.hand
    assert hand is not None and t.s.phase is Phase.PLAYING
    assert hand.button == 0 and hand.sb_seat == 0 and hand.bb_seat == 1 and hand.to_act == 0


def test_a_bigger_table_waits_for_its_creator_or_a_full_table() -> None:
    t = seated_table(3, seats=6)
    assert t.s.phase is Phase.WAITING and t.s.hand is None
    with pytest.raises(TableError) as info:
        t.do(Deal(101))
    assert info.value.code == "not_creator"
    t.do(Deal(100))
    hand = t.s.hand
    assert hand is not None and hand.players == (0, 1, 2)
    assert (hand.button, hand.sb_seat, hand.bb_seat) == (0, 1, 2)


def test_if_the_creator_leaves_before_the_first_hand_any_player_may_deal_it() -> None:
    t = seated_table(3, seats=6)
    t.do(Leave(100))
    t.do(Deal(101))
    assert t.s.hand_running and t.s.hand is not None and t.s.hand.players == (1, 2)


def test_a_player_who_joins_mid_match_plays_from_the_next_hand() -> None:
    t = seated_table(3, seats=4)
    t.do(Deal(100))
    t.do(Join(200, "Late"))
    assert t.s.hand is not None and 3 not in t.s.hand.players
    while t.s.hand_running:
        t.do(Act(member_to_act(t), Action(ActionKind.FOLD)))
    t.sweep()
    assert 3 in t.s.hand.players


def test_moving_button_skips_empty_and_busted_seats() -> None:
    t = seated_table(3, seats=5)
    t.do(Deal(100))
    buttons = []
    for _ in range(4):
        buttons.append(t.s.hand.button)  # type: ignore[union-attr]
        while t.s.hand_running:
            t.do(Act(member_to_act(t), Action(ActionKind.FOLD)))
        t.sweep()
    assert buttons == [0, 1, 2, 0]


def test_leaving_mid_hand_folds_at_once_even_out_of_turn_and_the_last_opponent_takes_the_pot() -> None:
    """The audit's room JQVAPM: B raises to 100, A leaves; the hand ends, every chip accounted for."""
    t = seated_table(2)
    t.do(Act(100, Action(ActionKind.RAISE, 100)))  # seat 0 (button, small blind) raises to 100
    events = t.do(Leave(101))  # seat 1 leaves while it is their turn
    assert any(isinstance(e, HandEvent) and isinstance(e.event, HandEnded) for e in events)
    assert t.s.over and t.s.winner == 0 and t.s.phase is Phase.OVER
    assert t.s.stacks() == (2020, 0) and t.s.removed == 1980
    view = table_view(t.s, 100)
    assert view["hand"]["complete"] and "legal" not in view["hand"], "no live buttons after the match ends"


def test_leaving_out_of_turn_in_a_three_way_hand_lets_the_others_play_on() -> None:
    t = seated_table(3)  # a full table deals at once
    hand = t.s.hand
    assert hand is not None
    to_act = hand.to_act
    leaver = next(s for s in hand.players if s != to_act)
    member = t.s.seats[leaver].member  # type: ignore[union-attr]
    events = t.do(Leave(member))
    assert isinstance(events[0], HandEvent) and events[0].event == SeatFolded(leaver)
    assert isinstance(events[1], PlayerLeft) and t.s.hand_running and t.s.hand.to_act == to_act  # type: ignore[union-attr]


def test_an_uncalled_bet_of_a_player_who_leaves_stays_in_the_pot() -> None:
    t = seated_table(3)
    first = member_to_act(t)
    t.do(Act(first, Action(ActionKind.RAISE, 200)))
    for _ in range(2):
        t.do(Act(member_to_act(t), Action(ActionKind.FOLD)))
    # the raiser won the blinds and kept the raise; now test the leave: a fresh hand, the raiser leaves at once
    t.sweep()
    raiser = member_to_act(t)
    t.do(Act(raiser, Action(ActionKind.RAISE, 300)))
    before = t.s.chips_in_play() + t.s.removed
    t.do(Leave(raiser))
    assert t.s.chips_in_play() + t.s.removed == before
    assert chips_conserved(t.s)


def test_two_timeouts_in_a_row_mark_a_player_away_and_a_table_without_two_present_pauses() -> None:
    t = seated_table(2)
    for _ in range(4):
        if not t.s.hand_running:
            if t.s.phase is Phase.PAUSED:
                break
            t.sweep()
        t.sweep()
    away = [i for i, s in enumerate(t.s.seats) if s is not None and s.away]
    assert away, "two time-outs in a row mark the player away"
    assert any(isinstance(e, PlayerAway) for e in t.log)
    while t.s.hand_running:
        t.sweep()
    assert t.s.phase is Phase.PAUSED, "fewer than two present: the table waits"
    with pytest.raises(TableError) as info:
        t.do(Deal(None))
    assert info.value.code == "table_paused"
    member = t.s.seats[away[0]].member  # type: ignore[union-attr]
    t.do(Back(member))
    if len(t.s.present()) >= 2:
        t.sweep()
        assert t.s.hand_running


def test_an_away_players_turn_is_played_at_once_without_a_clock() -> None:
    t = seated_table(3, seats=4)
    t.do(Away(102))
    t.do(Deal(100))
    hand = t.s.hand
    assert hand is not None and hand.to_act != 2, "seat 2 is away: its turn is taken at once"


def test_folding_when_checking_is_possible_is_allowed_at_a_table() -> None:
    t = seated_table(2)
    t.do(Act(100, Action(ActionKind.CALL)))
    view = table_view(t.s, 101)
    assert view["hand"]["legal"]["actions"][:2] == ["fold", "check"]
    t.do(Act(101, Action(ActionKind.FOLD)))
    assert t.s.hand is not None and t.s.hand.complete


def play_all_in_to_the_end(t: Table) -> None:
    """Everyone goes all in (or calls one) hand after hand until the match is over."""
    while not t.s.over:
        if not t.s.hand_running:
            t.sweep()
            continue
        legal = t.s.hand.legal()  # type: ignore[union-attr]
        kind = ActionKind.ALLIN if legal.allows(ActionKind.ALLIN) else ActionKind.CALL
        t.do(Act(member_to_act(t), Action(kind)))


def test_the_match_ends_when_one_player_holds_every_chip_and_a_rematch_is_seen_by_all() -> None:
    t = seated_table(2)
    play_all_in_to_the_end(t)
    assert t.s.winner is not None and sorted(t.s.stacks()) == [0, 4000]
    with pytest.raises(TableError):
        t.do(Deal(None))
    t.do(Rematch(101, "NEWONE"))
    assert t.s.rematch == "NEWONE" and t.do(Rematch(100, "OTHER")) == []


def test_a_match_abandoned_by_everyone_else_is_won_by_the_last_player_with_chips() -> None:
    t = seated_table(3)
    last = t.s.seats[2]
    assert last is not None
    for m in (100, 101):
        t.do(Leave(m))
    assert t.s.over and t.s.winner == 2 and t.s.stacks()[2] > 0
    assert [e for e in t.log if isinstance(e, MatchEnded)] == [MatchEnded(2, at=t.now)]
    assert t.s.forfeit == 1 and table_view(t.s, 102)["match"]["forfeit"] == 1, "the second leave ended it"


def test_a_match_won_at_the_cards_is_not_called_a_forfeit_even_if_someone_left_earlier() -> None:
    t = seated_table(3)
    t.do(Leave(102))
    play_all_in_to_the_end(t)
    view = table_view(t.s, 100)["match"]
    assert view["left"] == [2] and view["forfeit"] is None


def test_a_table_everyone_leaves_before_the_first_hand_closes_with_no_winner() -> None:
    t = seated_table(2, seats=3)
    for m in (100, 101):
        t.do(Leave(m))
    assert t.s.over and t.s.winner is None and t.s.phase is Phase.OVER


def test_only_the_creator_seats_bots_between_hands_and_each_bot_has_its_own_negative_number() -> None:
    t = Table(4)
    with pytest.raises(TableError) as err:
        t.do(AddBot(101, "solid"))
    assert err.value.code == "not_creator"
    with pytest.raises(TableError) as err:
        t.do(AddBot(100, "grandmaster"))
    assert err.value.code == "bad_level"
    t.do(Join(101, "P101"))
    t.do(AddBot(100, "beginner"))
    assert t.s.hand is None, "three of four seats: the creator deals"
    t.do(AddBot(100, "strong"))
    assert t.s.hand is not None and t.s.phase is Phase.PLAYING, "the bot filled the table: the first hand is dealt"
    bots = [x for x in t.s.seats if x is not None and x.bot is not None]
    assert [b.bot for b in bots] == ["beginner", "strong"]
    assert len({b.member for b in bots}) == 2 and all(b.member < 0 for b in bots)
    for command in (AddBot(100, "solid"), RemoveBot(100, 2)):
        with pytest.raises(TableError) as err:
            t.do(command)
        assert err.value.code == "hand_in_progress"


def test_removing_a_bot_takes_its_chips_off_and_frees_its_seat() -> None:
    t = Table(3)
    t.do(AddBot(100, "solid"))
    with pytest.raises(TableError) as err:
        t.do(RemoveBot(100, 0))
    assert err.value.code == "no_bot", "a member's seat holds no bot"
    t.do(RemoveBot(100, 1))
    assert t.s.seats[1] is None and t.s.departed[-1].bot == "solid"
    t.do(AddBot(100, "beginner"))
    t.do(AddBot(100, "beginner"))
    assert t.s.hand is not None


def test_bots_alone_deal_no_hand_and_end_the_match_when_the_last_member_leaves() -> None:
    t = Table(3)
    t.do(AddBot(100, "solid"))
    t.do(AddBot(100, "strong"))  # full: hand 1 is dealt
    hand = t.s.hand
    assert hand is not None
    t.do(Away(100))
    while t.s.hand_running:  # the away member's turns are played at once; the bots' turns by their policies
        turn = t.s.bot_to_act()
        assert turn is not None
        seat, bot = turn
        assert bot.bot is not None
        t.do(Act(bot.member, policy_of(bot.bot)(seat_view(t.s.hand, seat), random.Random(seat))))  # type: ignore[arg-type]
    assert t.s.phase is Phase.PAUSED, "only bots are here: the table waits"
    with pytest.raises(TableError) as err:
        t.do(Deal(None))
    assert err.value.code == "table_paused"
    t.do(Back(100))
    t.sweep()
    t.do(Leave(100))
    assert t.s.over and t.s.winner is None, "bots do not play on for themselves"
    assert not t.s.hand_running


# --- properties over 2–9 seats ------------------------------------------------------------------------------------


def snapshot(state: TableState) -> Any:
    return (state.seats, state.over, state.winner, state.rematch, state.removed, state.bought_in, state.version,
            state.lineups, state.departed, [h.snapshot() for h in state.hands], state.host, state.cohosts,
            state.paused_by, state.options, state.requests, state.rebought, state.adjusted, state.rules, state.log,
            state.accounts, state.straddle_next, state.straddle_always, state.clock, state.bot_pause)


def whole(state: TableState) -> tuple[Any, ...]:
    """Every field of ``state``; of the hands (which compare by identity) the earlier ones themselves (a move never
    touches them: the same objects) and the last one's snapshot."""
    return tuple((state.hands[:-1], state.hands[-1].snapshot() if state.hands else None) if f.name == "hands"
                 else getattr(state, f.name) for f in dataclasses.fields(state))


def random_command(t: Table, rng: random.Random) -> Any:
    s = t.s
    members = [x.member for x in s.seats if x is not None]
    anyone = rng.choice(members) if members else 100
    roll = rng.random()
    if roll < 0.04:
        return Leave(anyone)
    if roll < 0.07:
        return Away(anyone)
    if roll < 0.12:
        return Back(anyone)
    if roll < 0.15:
        return Join(rng.randrange(200, 230), "new")
    if roll < 0.18:
        return Rematch(anyone, "RMATCH")
    if roll < 0.22:  # the server's timer: what is due now, else a time-out that may be early
        command = due(s, t.now).command
        return bot_act(s, rng) if isinstance(command, BotMove) else command or TimeOut(None)
    if roll < 0.25:  # a seated member presses time-out
        return TimeOut(anyone)
    if roll < 0.28:
        return AddBot(s.host, rng.choice(list(LEVELS)))
    if roll < 0.30:
        return RemoveBot(s.host, rng.randrange(len(s.seats)))
    if roll < 0.40:  # the host's controls and the players' chips (issue 23)
        return host_command(s, anyone, rng)
    if not s.hand_running:
        return Deal(s.host if not s.started else None)
    hand = s.hand
    assert hand is not None
    if hand.pending is not None:  # an answer to running it twice, a show or a muck, or the window closing
        chooser = rng.choice(hand.pending.seats)
        occupant = s.seats[chooser]
        if occupant is None or rng.random() < 0.3:
            return TimeOut(None if rng.random() < 0.5 else anyone)
        if hand.pending.kind == "runs":
            return AnswerRuns(occupant.member, rng.random() < 0.7)
        return ShowOrMuck(occupant.member, rng.random() < 0.4)
    turn = s.bot_to_act()
    if turn is not None:  # a bot decides from its seat's view, as in live play
        seat, bot = turn
        assert bot.bot is not None
        return Act(bot.member, policy_of(bot.bot)(seat_view(hand, seat), rng))
    legal = hand.legal()
    kind = rng.choice(list(legal.actions))
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return Act(member_to_act(t), Action(kind, rng.randint(legal.min_to, legal.max_to)))
    return Act(member_to_act(t), Action(kind))


GAPS = st.lists(st.one_of(st.integers(0, 3_000), st.integers(0, 130_000)), min_size=150, max_size=150)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 9), players=st.integers(2, 9), decks=st.integers(2, 6), seed=st.integers(0, 2**32),
       options=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()), gaps=GAPS)
def test_random_commands_at_random_times_keep_every_invariant(seats: int, players: int, decks: int, seed: int,
                                                             options: tuple[bool, bool, bool, bool],
                                                             gaps: list[int]) -> None:
    """Hypothesis chooses the time of every command (``gaps``: milliseconds after the last one). Chips conserved
    at every event (checked inside Table.do: rebuys, top-ups, the host's stack adjustments and removals
    included), the books balanced, no card twice (a second run's board included), views hide what they must
    (mucked hands, burns), the clock's deadlines follow the rules and the machine refuses the server's commands
    exactly until ``due`` says they fall due, and folding the whole log again gives the same state (its clock
    too); the host's table options drawn at random."""
    straddle, runs, muck, rebuys = options
    t = Table(seats, decks=decks, seed=seed, bot_pause=(0.5, 1.5), straddle=straddle, run_twice=runs,
              show_or_muck=muck)
    if rebuys:
        t.do(SetOptions(100, TableOptions(rebuys=True)))
    for m in range(101, 100 + min(players, seats)):
        t.do(Join(m, f"P{m}"))
    rng = random.Random(seed)
    for gap in gaps:
        t.wait(gap / 1000)
        command = random_command(t, rng)
        before = t.s
        try:
            t.do(command)
        except (TableError, IllegalActionError) as exc:  # refused, nothing changed: only for the reasons it may meet
            assert exc.code in REFUSALS[type(command)], f"{command} refused: {exc.code} {exc}"
            if exc.code == "clock_running":
                check_on_time(before, command, t.now, accepted=False)
            continue
        check_on_time(before, command, t.now, accepted=True)
        check_clock(t.s, t.now)
        check_cards_and_views(t.s)
        if t.s.over and t.s.rematch:
            break
    assert snapshot(fold(t.log)) == snapshot(t.s), "replaying the log gives the same state"


def check_on_time(state: TableState, command: Any, now: dt.datetime, *, accepted: bool) -> None:
    """The machine takes a command that waits for the clock exactly when its time has come: the server's
    (member None) when ``due`` says it is due, a member's time-out once the clock and the time bank (or the
    choice's window) have run out."""
    if isinstance(command, TimeOut) and command.member is not None:
        allowed = time_out_from(state, server=False)
        assert accepted == (allowed is not None and now >= allowed), (command, allowed, now)
    elif isinstance(command, TimeOut | Deal | EndMatch) and command.member is None:
        assert accepted == isinstance(due(state, now).command, type(command)), (command, due(state, now), now)


def check_clock(state: TableState, now: dt.datetime) -> None:
    """The running timer is the wait the table is in, it began at the last event (or earlier: it runs on while
    the table waits for the same thing) and lasts that wait's length; ``due`` agrees with the machine."""
    expected = waiting(state)
    timer = state.clock.turn
    assert (timer is None) == (expected is None), (timer, expected)
    if timer is None or expected is None:
        assert due(state, now) == (None, None, None)
        return
    wait, key, _seconds = expected
    assert (timer.wait, timer.key) == (wait, key) and timer.since is not None and timer.deadline is not None
    assert timer.since <= now
    length = (timer.deadline - timer.since).total_seconds()
    if wait is Wait.BOT:
        assert state.bot_pause[0] <= length <= state.bot_pause[1], (timer, state.bot_pause)
    else:  # docs/rules.md: the action clock, a choice's 10 s, the 6-s showdown pause, the minute's rebuy wait
        assert length == {Wait.ACT: state.rules.action_clock, Wait.CHOICE: 10, Wait.DEAL: 6, Wait.REBUYS: 60}[wait]
    upcoming = due(state, now)
    assert upcoming.next is not None and upcoming.wait is wait
    assert (upcoming.command is None) == (now < upcoming.next)
    if upcoming.command is not None and not isinstance(upcoming.command, BotMove):
        decide(state, upcoming.command, random.Random(0))  # what is due is allowed: it raises nothing


def host_command(s: TableState, anyone: int, rng: random.Random) -> Any:
    """A command of the host's table: mostly the host's (or a co-host's), sometimes anyone's."""
    seat = rng.randrange(len(s.seats))
    who = s.host if rng.random() < 0.8 else anyone
    roll = rng.random()
    if roll < 0.05:
        return Pause(who)
    if roll < 0.25:
        return Resume(who)
    if roll < 0.32:
        return RemovePlayer(who, seat)
    if roll < 0.42:
        return AdjustStack(who, seat, rng.choice([1, 50, 2000, 7000]))
    if roll < 0.5:
        return SetOptions(who, TableOptions(rng.random() < 0.7, rng.random() < 0.3, rng.random() < 0.5))
    if roll < 0.58:
        changes = {"blinds": rng.choice([[5, 10], [10, 20], [25, 50]]), "straddle": rng.random() < 0.5,
                   "run_twice": rng.random() < 0.5, "show_or_muck": rng.random() < 0.5}
        return ChangeRules(who, changed_rules(s.rules, changes))
    if roll < 0.62:
        return NameCohost(who, seat, rng.random() < 0.7)
    if roll < 0.65:
        return HandHost(who, seat)
    if roll < 0.66:
        return EndMatch(who)
    if roll < 0.69:
        return Straddle(anyone, rng.choice(["next", "always", "off"]))
    if roll < 0.7 and s.requests:
        return AnswerSeat(who, rng.choice(s.requests).id, rng.random() < 0.7)
    if roll < 0.75:
        return ShowCards(anyone, (rng.randrange(2),))
    if roll < 0.8:
        return Join(rng.randrange(200, 230), "new", seat=seat if rng.random() < 0.5 else None)
    return BuyChips(anyone, None if rng.random() < 0.7 else rng.randint(1, 500))


# what a generated command may legitimately be refused for (TableError codes); any other refusal or error fails
REFUSALS: dict[type[Any], set[str]] = {
    Leave: {"not_seated"}, Away: {"not_seated"}, Back: {"not_seated"},
    Join: {"match_over", "left_match", "room_full", "seat_taken"},
    Rematch: {"match_not_over"}, TimeOut: {"no_hand", "match_over", "clock_running", "not_seated"},
    AddBot: {"match_over", "hand_in_progress", "room_full"}, RemoveBot: {"match_over", "hand_in_progress", "no_bot"},
    Deal: {"match_over", "table_paused", "not_seated", "host_paused", "clock_running"},
    Act: set(),  # a move drawn from the seat's legal options (or a bot's choice) is never refused
    Pause: {"not_host", "match_over"}, Resume: {"not_host"},
    RemovePlayer: {"not_host", "match_over", "hand_in_progress", "empty_seat", "not_removable"},
    AdjustStack: {"not_host", "match_over", "hand_in_progress", "empty_seat", "table_not_started", "cohost_stack"},
    EndMatch: {"not_host", "match_over", "hand_in_progress", "table_not_started", "clock_running"},
    Straddle: {"no_straddle", "not_seated", "match_over"},
    SetOptions: {"not_host", "match_over"}, ChangeRules: {"not_host", "match_over", "hand_in_progress"},
    NameCohost: {"not_host", "empty_seat", "bot_seat"}, HandHost: {"not_host", "empty_seat", "bot_seat"},
    AnswerSeat: {"not_host", "match_over", "room_full"},
    ShowCards: {"no_show", "illegal_action"},
    BuyChips: {"not_seated", "no_rebuys", "match_over", "table_not_started", "hand_in_progress", "no_topup",
               "bad_buy"},
    AnswerRuns: set(), ShowOrMuck: set(),
}
CARD_LABEL = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][shdc]:[1-8](?![0-9])")


def card_labels(view: dict[str, Any]) -> set[str]:
    """Every physical card (``Ah:1``) named anywhere in a view's JSON."""
    return set(CARD_LABEL.findall(json.dumps(view)))


def check_cards_and_views(state: TableState) -> None:
    hand = state.hand
    if hand is None:
        return
    shoe = next(e for e in hand.events if isinstance(e, ShoeDrawn))
    labels = [c.label for c in shoe.cards if c is not None]
    assert max(Counter(labels).values()) == 1, "no physical card twice in a hand"
    index = len(state.hands) - 1
    shown = {e.seat for e in hand.shown}
    public = {c.label for c in (*hand.board, *hand.board2)} | {c.label for e in hand.shown for c in (*e.hole, *e.best)}
    public |= {c.label for e in hand.shown2 for c in e.best} | {c.label for cs in hand.volunteered.values() for c in cs}
    assert not shown & set(hand.mucked), "a mucked hand is never shown"
    viewers = {*state.lineups[index], *(s.member for s in state.seats if s is not None), None}
    for member in viewers:
        seat = state.seat_in_hand(member, index)
        seen = card_labels(table_view(state, member))
        own = {c.label for c in (*hand.hole_cards(seat), *hand.private_burns(seat))} if seat is not None else set()
        assert own <= seen, "a player's own cards and burn are in their view"
        for other in hand.players:
            if other == seat:
                continue
            burns = {c.label for c in hand.private_burns(other) if c is not None}
            assert not burns & seen, f"member {member} sees seat {other}'s private burn {burns & seen}"
            hole = {c.label for c in hand.hole_cards(other) if c is not None}
            hole -= {c.label for c in hand.volunteered.get(other, ())}  # shown by their choice
            assert other in shown or not hole & seen, f"member {member} sees seat {other}'s unshown hole cards"
        assert seen <= public | own, f"member {member} sees cards nobody showed them: {seen - public - own}"
    spectator = table_view(state, None)
    assert spectator["hand"] is not None and "you" not in spectator["hand"] and "legal" not in spectator["hand"]


def sample_events() -> list[Any]:
    """One instance of every table event type and every hand event type (inside a HandEvent)."""
    from taiwan_poker.cards import Card, parse_card
    from taiwan_poker.evaluate import DEFAULT_RANKING, hand_value
    from taiwan_poker.rules import events as he
    from taiwan_poker.tables import events as te
    from taiwan_poker.tables.schedules import preset

    c = Card(12, 0, 2)
    hole = (Card(12, 0, 1), Card(12, 1, 1))
    board = tuple(Card(parse_card(x).rank, parse_card(x).suit, 1) for x in ("Kd", "7c", "2s"))
    value = hand_value(hole + board)
    hand = [
        he.HandStarted(1, 0, 0, 1, (100, 100)), he.ShoeDrawn((c,)), he.PrivateCards(1, c, (c, c)),
        he.BlindPosted(0, 10, False), he.ActionTaken(0, ActionKind.CALL, 10, 20, False), he.PrivateBurn(1, c),
        he.DealerBurn(he.Street.FLOP, c), he.BoardDealt(he.Street.FLOP, (c, c, c)), he.ChipsReturned(0, 5),
        he.HandShown(1, hole, board, DEFAULT_RANKING.category_of(value), value),
        he.PotAwarded(40, (0, 1), (1,), (40,)),
        he.HandEnded((80, 120)), he.SeatFolded(1), he.StraddlePosted(1, 40), he.RunsOffered((0, 1)),
        he.RunsAnswered(1, True), he.RunsChosen(2), he.SecondBoard(he.Street.TURN, (c,)),
        he.RunShown(1, hole, board, DEFAULT_RANKING.category_of(value), value), he.ShowdownChoices(0, (1,)),
        he.HandMucked(1), he.CardsShown(0, (c,)), he.AntePosted(0, 2),
    ]
    assert {type(e) for e in hand} == set(he.TYPE_NAMES), "one of each hand event type"
    table = [te.TableOpened(RuleSet(), 1), te.SettingsChanged(RuleSet()), te.PlayerSat(1, 2, "B", 100),
             te.PlayerLeft(1, 100), te.PlayerAway(1), te.PlayerBack(1), te.MatchEnded(None), te.RematchOpened("X"),
             te.CoachSet(True), te.TimeBankUsed(1, 5), te.TablePaused(1), te.TableResumed(1),
             te.StackAdjusted(1, 100, 200, 1), te.RulesChanged(RuleSet(straddle=True), 1),
             te.OptionsSet(True, False, True, 1), te.SeatRequested(3, "C", 2), te.SeatAnswered(7, True, 1),
             te.HostChanged(2, 1), te.CohostSet(2, True, 1), te.ChipsBought(1, 500, True),
             te.PlayerSilenced(2, True, 1),
             te.ChatDeleted(9, 2, 1), te.StraddleChosen(2, "always"), te.ServerSeedDrawn(1, "00" * 32),
             te.SeedCommitted(1, "11" * 32), te.SeedContributed(2, "22" * 16),
             te.ShoeCommitted(1, "33" * 32, 104, (0,), ("22" * 16,)), te.SeedsRevealed(("00" * 32,)),
             te.TournamentSet(preset("turbo"), 1), te.TournamentStarted((1, 2)), te.LevelRaised(1, 2, 15, 30, 0),
             te.PlayersPlaced(3, (2,), (1,), (2,), (0,)), te.TournamentFinished((1, 2), (0, 1), (1, 2), (200, 0), 9, 3)]
    assert {type(e) for e in table} | {HandEvent} == set(te.DECLARED), "one of each table event type"
    return table + [HandEvent(1, e) for e in hand]


def test_walking_every_event_type_each_is_seen_by_exactly_its_audience() -> None:
    """Visibility fails closed: a seat's private cards reach that seat only, the shoe and dealer burns nobody."""
    from taiwan_poker.rules.events import AUDIENCE as HAND_AUDIENCE
    from taiwan_poker.rules.events import Audience
    from taiwan_poker.tables import visible_to

    for event in sample_events():
        inner = event.event if isinstance(event, HandEvent) else event
        audience = HAND_AUDIENCE[type(inner)] if isinstance(event, HandEvent) else DECLARED[type(event)].audience
        seen_by = {who for who in (0, 1, 2, None) if visible_to(event, who)}
        expected = {Audience.EVERYONE: {0, 1, 2, None}, Audience.NOBODY: set(), Audience.SEAT: {inner[0]}}[audience]
        assert seen_by == expected, (event, seen_by)
        assert event_from_json(event_to_json(event)) == event
