"""The table's own clock (issue 46), deadline by deadline, to the second: the action clock and the time bank, the
server's second of grace after the seats' time-out button, a choice's window, the showdown pause, the rebuy wait
and a bot's pause; a timer runs on while the table waits for the same thing; ``due`` and the machine agree.

Each deadline is checked one second before it (nothing due, the command refused) and at it (due, accepted), so
moving any of them by one second fails a test here."""

from __future__ import annotations

import datetime as dt

from taiwan_poker.rules import Action, ActionKind
from taiwan_poker.rules.events import Street
from taiwan_poker.tables import Act, AddBot, AnswerRuns, Deal, Pause, SetOptions, TableOptions, TimeOut
from taiwan_poker.tables.events import TableOpened, TimeBankUsed, event_from_json, event_to_json
from taiwan_poker.tables.limits import BOT_PAUSE_SECONDS
from taiwan_poker.tables.state import Timer, Wait
from taiwan_poker.tables.timing import BotMove, Due, clock_view, due
from tests.tables.test_host_table import bust_seat_one, refused
from tests.tables.test_table_machine import START, Table, member_to_act, seated_table, untimed

SECOND = dt.timedelta(seconds=1)


def at(seconds: float) -> dt.datetime:
    return START + dt.timedelta(seconds=seconds)


def test_the_action_clock_then_the_time_bank_then_the_seats_button_then_the_server_a_second_later() -> None:
    """docs/rules.md: 45 s to act, then the player's 60-s time bank; then any seated member may press time-out,
    and a second later the server applies it itself."""
    t = seated_table(2, time_bank=60)  # heads-up: hand 1 is dealt at START, the button (seat 0) to act
    assert t.s.clock.turn == Timer(Wait.ACT, (1, 0, Street.PREFLOP.value), START, at(45))
    t.wait(104)
    assert refused(t, TimeOut(101)) == "clock_running", "a second before the clock and the bank have run out"
    assert due(t.s, t.now) == Due(None, at(106), Wait.ACT)
    assert not clock_view(t.s, 1, t.now)["timeout_allowed"]
    t.wait(1)
    assert clock_view(t.s, 1, t.now)["timeout_allowed"] and clock_view(t.s, 1, t.now)["bank_deadline"] == \
        at(105).isoformat()
    assert refused(t, TimeOut(None)) == "clock_running" and due(t.s, t.now).command is None, \
        "the server waits a second after the seats' button"
    t.wait(1)
    assert due(t.s, t.now).command == TimeOut(None, at(106))
    events = t.sweep()
    assert TimeBankUsed(0, 60) in untimed(events), "a time-out uses up the whole bank"


def test_a_move_past_the_action_clock_draws_the_whole_seconds_it_took_on_the_time_bank() -> None:
    for late, drawn in ((45, 0), (45.001, 1), (46, 1), (57.5, 13)):
        t = seated_table(2, time_bank=60)
        t.wait(late)
        events = untimed(t.do(Act(member_to_act(t), Action(ActionKind.CALL))))
        assert [e for e in events if isinstance(e, TimeBankUsed)] == ([TimeBankUsed(0, drawn)] if drawn else []), \
            late
        assert t.s.seats[0].bank == 60 - drawn  # type: ignore[union-attr]


def test_the_next_turn_starts_its_own_clock_and_a_write_in_between_does_not_restart_it() -> None:
    t = seated_table(3)
    t.wait(20)
    t.do(Act(member_to_act(t), Action(ActionKind.CALL)))
    timer = t.s.clock.turn
    assert timer is not None and timer.since == at(20) and timer.deadline == at(65), "the next player's 45 s"
    t.wait(10)
    t.do(Pause(100))  # the host's pause waits for the hand's end; the turn's clock runs on
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    assert t.s.clock.turn == timer


def test_the_showdown_pause_before_the_server_deals_the_next_hand() -> None:
    t = seated_table(2)
    t.do(Act(member_to_act(t), Action(ActionKind.FOLD)))  # hand 1 is over at START
    assert t.s.clock.turn == Timer(Wait.DEAL, (1,), START, at(6))
    t.wait(5)
    assert refused(t, Deal(None)) == "clock_running" and due(t.s, t.now) == Due(None, at(6), Wait.DEAL)
    t.wait(1)
    assert due(t.s, t.now).command == Deal(None, at(6))
    t.sweep()
    assert t.s.hand is not None and t.s.hand.hand_no == 2 and t.s.hand.events and t.s.hand_running


def test_a_seated_player_may_deal_the_next_hand_at_once() -> None:
    t = seated_table(2)
    t.do(Act(member_to_act(t), Action(ActionKind.FOLD)))
    t.do(Deal(101))
    assert t.s.hand_running and t.s.clock.turn is not None and t.s.clock.turn.wait is Wait.ACT


def test_the_window_to_run_it_twice_closes_after_ten_seconds_and_the_server_a_second_later() -> None:
    t = seated_table(2, run_twice=True)
    t.do(Act(100, Action(ActionKind.ALLIN)))
    t.do(Act(101, Action(ActionKind.CALL)))
    assert t.s.clock.turn == Timer(Wait.CHOICE, (1, "runs"), START, at(10))
    t.do(AnswerRuns(100, True))
    assert t.s.clock.turn == Timer(Wait.CHOICE, (1, "runs"), START, at(10)), "an answer does not reopen it"
    t.wait(9)
    assert refused(t, TimeOut(100)) == "clock_running"
    t.wait(1)
    assert refused(t, TimeOut(None)) == "clock_running" and due(t.s, t.now) == Due(None, at(11), Wait.CHOICE)
    t.wait(1)
    assert due(t.s, t.now).command == TimeOut(None, at(11))
    t.sweep()
    assert t.s.hand is not None and t.s.hand.complete and t.s.hand.runs == 1


def test_a_rebuy_wait_ends_the_match_a_minute_after_it_began_to_the_second() -> None:
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    bust_seat_one(t)
    began = t.now
    assert t.s.clock.turn == Timer(Wait.REBUYS, (), began, began + 60 * SECOND)
    t.wait(59)
    assert due(t.s, t.now).command is None
    t.wait(1)
    assert due(t.s, t.now).command is not None
    t.sweep()
    assert t.s.over


def test_a_bot_moves_when_its_pause_is_over_and_the_pause_is_the_tables_data() -> None:
    t = Table(2, bot_pause=(2.0, 2.0))
    t.do(AddBot(100, "solid"))  # full: hand 1 is dealt; the button (seat 0, the member) acts first
    t.do(Act(100, Action(ActionKind.CALL)))
    assert t.s.bot_to_act() is not None
    assert t.s.clock.turn == Timer(Wait.BOT, (1, 1, Street.PREFLOP.value), START, at(2))
    assert due(t.s, at(2) - dt.timedelta(milliseconds=1)) == Due(None, at(2), Wait.BOT)
    assert due(t.s, at(2)) == Due(BotMove(1), at(2), Wait.BOT)
    assert refused(t, TimeOut(100)) == "clock_running", "a bot is never timed out"
    ranged = Table(2, bot_pause=(0.5, 1.5))
    ranged.do(AddBot(100, "solid"))
    pauses = set()
    while ranged.s.hand_running and len(pauses) < 3:
        timer = ranged.s.clock.turn
        assert timer is not None and timer.since is not None and timer.deadline is not None
        if timer.wait is Wait.BOT:
            pause = (timer.deadline - timer.since).total_seconds()
            assert 0.5 <= pause <= 1.5
            pauses.add(pause)
        ranged.sweep()
    assert len(pauses) > 1 or not ranged.s.hand_running, "the pause varies from turn to turn"


def test_an_event_logged_before_events_carried_their_time_takes_the_time_it_was_stored() -> None:
    t = seated_table(2)
    stored = dt.datetime(2025, 5, 1, 8, 0, tzinfo=dt.UTC)
    for event in t.log:
        old = {k: v for k, v in event_to_json(event).items() if k not in ("at", "bot_pause")}
        if isinstance(event, TableOpened):  # a table opened before its bots' pace was logged keeps the default
            event = event._replace(bot_pause=BOT_PAUSE_SECONDS)
        assert event_from_json(old, stored) == event._replace(at=stored)
        assert event_from_json(old).at is None
