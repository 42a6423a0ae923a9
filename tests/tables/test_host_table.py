"""The host's table (issue 23): host controls, rebuys and top-ups, seat choice, the table's options, the choices at
a showdown and an all-in, each as a command of the table machine with a public event, rule by rule."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rules import Action, ActionKind
from taiwan_poker.rules.events import CardsShown, HandMucked, RunsChosen, RunsOffered
from taiwan_poker.tables import (
    Act,
    AddBot,
    AdjustStack,
    AnswerRuns,
    AnswerSeat,
    BuyChips,
    ChangeRules,
    Deal,
    DeleteChat,
    EndMatch,
    HandHost,
    Join,
    Leave,
    NameCohost,
    Pause,
    RemovePlayer,
    Resume,
    SetOptions,
    ShowCards,
    ShowOrMuck,
    Silence,
    Straddle,
    TableError,
    TableOptions,
    TimeOut,
    table_view,
)
from taiwan_poker.tables.events import (
    ChipsBought,
    HandEvent,
    HostChanged,
    MatchEnded,
    PlayerLeft,
    RulesChanged,
    SeatRequested,
    StackAdjusted,
    StraddleChosen,
    TablePaused,
)
from taiwan_poker.tables.limits import REBUY_WAIT_SECONDS
from taiwan_poker.tables.machine import next_under_the_gun
from taiwan_poker.tables.settings import changed_rules, table_options
from taiwan_poker.tables.state import Phase, Wait
from taiwan_poker.tables.timing import due
from taiwan_poker.tables.views import LOG_IN_VIEW, summary, table_ledger, table_log
from tests.tables.test_table_machine import Table, member_to_act, seated_table, untimed


def finish_hand(t: Table, kind: ActionKind = ActionKind.FOLD, choose: Callable[[Any], ActionKind] | None = None,
                each: Callable[[], object] | None = None) -> None:
    """Everyone folds (or checks and calls) until the hand is over; ``choose`` picks a move from the legal ones
    instead, and ``each`` runs before every move."""
    while t.s.hand_running:
        hand = t.s.hand
        assert hand is not None
        if hand.pending is not None:
            t.sweep()
            continue
        legal = hand.legal()
        move = choose(legal) if choose is not None else kind if legal.allows(kind) else \
            ActionKind.CHECK if legal.allows(ActionKind.CHECK) else ActionKind.CALL
        if each is not None:
            each()
        t.do(Act(member_to_act(t), Action(move)))


def refused(t: Table, command: Any) -> str:
    """The code a refused command gives (``illegal_action.<reason>`` for the engine's refusals)."""
    with pytest.raises(TaiwanPokerError) as info:
        t.do(command)
    reason = info.value.params.get("reason") if info.value.code == "illegal_action" else None
    return f"{info.value.code}.{reason}" if reason else info.value.code


# --- host controls --------------------------------------------------------------------------------------------


def test_the_host_pauses_between_hands_and_no_hand_is_dealt_until_they_resume() -> None:
    t = seated_table(3)  # a full table: hand 1 is dealt
    finish_hand(t)
    t.do(Pause(100))
    assert t.s.phase is Phase.PAUSED and table_view(t.s, 101)["paused"] == {"by": "P100"}
    assert refused(t, Deal(None)) == "host_paused" and refused(t, Deal(101)) == "host_paused"
    assert t.s.clock.turn is None and due(t.s, t.now + dt.timedelta(days=1)) == (None, None, None), \
        "no deadline: the server deals nothing"
    t.do(Resume(100))
    assert t.s.phase is Phase.PLAYING
    t.sweep()
    assert t.s.hand_running


def test_a_pause_asked_for_during_a_hand_lets_the_hand_finish_then_holds_the_next() -> None:
    t = seated_table(3)
    t.do(Pause(100))
    assert t.s.hand_running and t.s.phase is Phase.PLAYING, "the hand in play is played out"
    finish_hand(t)
    assert t.s.phase is Phase.PAUSED
    assert due(t.s, t.now + dt.timedelta(days=1)).command is None


def test_only_the_host_or_a_cohost_uses_the_controls() -> None:
    t = seated_table(3)
    finish_hand(t)
    for command in (Pause(101), RemovePlayer(101, 2), AdjustStack(101, 2, 500), SetOptions(101, TableOptions(True))):
        assert refused(t, command) == "not_host"
    assert refused(t, NameCohost(101, 1, True)) == "not_host"
    t.do(NameCohost(100, 1, True))
    t.do(Pause(101))
    assert t.s.paused_by == 101
    assert refused(t, HandHost(101, 1)) == "not_host", "only the host hands the role on"
    assert refused(t, NameCohost(101, 2, True)) == "not_host", "only the host names co-hosts"


def test_the_host_removes_a_player_between_hands_and_their_stack_is_listed_in_the_summary() -> None:
    t = seated_table(3)
    assert refused(t, RemovePlayer(100, 2)) == "hand_in_progress"
    finish_hand(t)
    chips = t.s.stacks()[2]
    events = t.do(RemovePlayer(100, 2))
    assert untimed(events)[0] == PlayerLeft(2, chips, by=100)
    row = next(r for r in summary(t.s) if r["name"] == "P102")
    assert row["left"] and row["removed"] and row["chips"] == chips
    assert refused(t, RemovePlayer(100, 0)) == "not_removable", "the host leaves, or hands the role on, instead"
    assert table_log(t.s)[-1] == {"version": t.s.version - (len(events) - 1), "type": "player_left",
                                  "key": "log.player_removed", "by": "P100", "seat": 2, "name": "P102", "took": chips}
    assert untimed(t.do(Join(102, "P102"))) == [SeatRequested(102, "P102", None)], "the host lets them sit again"


def test_an_adjusted_stack_is_a_public_event_with_who_did_it_and_the_chips_still_add_up() -> None:
    t = seated_table(2)
    finish_hand(t)
    before = t.s.stacks()[1]
    t.do(AdjustStack(100, 1, 5000))
    assert t.s.stacks()[1] == 5000 and t.s.adjusted == 5000 - before
    entry = table_view(t.s, None)["log"][-1]
    assert entry == {"version": t.s.version, "type": "stack_adjusted", "key": "log.stack_adjusted", "by": "P100",
                     "seat": 1, "name": "P101", "before": before, "after": 5000}
    assert table_view(t.s, 101)["match"]["chips"] == 4000 + 5000 - before
    assert sum(r["chips"] for r in summary(t.s)) == t.s.chips_entered
    t.sweep()
    assert refused(t, AdjustStack(100, 1, 10)) == "hand_in_progress"


def test_a_cohost_cannot_change_their_own_stack_or_the_hosts() -> None:
    """Audit issue 51: a co-host set its own stack to 999,999 and the host's to 1."""
    t = seated_table(3)
    t.do(NameCohost(100, 1, True))
    finish_hand(t)
    assert refused(t, AdjustStack(101, 1, 5000)) == "cohost_stack"
    assert refused(t, AdjustStack(101, 0, 1)) == "cohost_stack"
    t.do(AdjustStack(101, 2, 3000))  # another player's stack, within the cap
    assert t.s.stacks()[2] == 3000
    t.do(AdjustStack(100, 0, 2500))  # the host may change their own
    assert t.s.stacks()[0] == 2500


def test_a_stack_over_ten_starting_stacks_needs_the_host_to_confirm() -> None:
    t = seated_table(3)  # starting stack 2,000: the cap is 20,000
    t.do(NameCohost(100, 1, True))
    finish_hand(t)
    assert refused(t, AdjustStack(100, 2, 20_001)) == "stack_confirm"
    assert refused(t, AdjustStack(101, 2, 20_001)) == "stack_confirm"
    assert refused(t, AdjustStack(101, 2, 20_001, confirm=True)) == "stack_confirm", "only the host confirms"
    t.do(AdjustStack(101, 2, 20_000))
    t.do(AdjustStack(100, 2, 999_999, confirm=True))
    assert t.s.stacks()[2] == 999_999
    t.do(AdjustStack(101, 2, 500_000))  # lowering a stack already over the cap needs nobody's confirmation
    assert t.s.stacks()[2] == 500_000
    assert sum(r["chips"] for r in summary(t.s)) == t.s.chips_entered


def test_a_spectator_who_chats_can_be_silenced_by_their_chat_line_and_let_talk_again() -> None:
    t = seated_table(3)
    spectator = 500
    t.do(Silence(100, None, True, author=spectator, line=42, name="Watcher"))
    assert spectator in t.s.silenced
    view = table_view(t.s, None)
    assert view["silenced_spectators"] == [{"name": "Watcher", "line": 42}]
    assert table_log(t.s)[-1]["name"] == "Watcher" and table_log(t.s)[-1]["on"] is True
    assert refused(t, Silence(101, None, True, author=spectator, line=42, name="Watcher")) == "not_host"
    assert refused(t, Silence(100, None, True)) == "bad_request", "a seat or a chat line's writer"
    t.do(Silence(100, None, True, author=101, line=7, name="P101"))  # a seated player, by a line of theirs
    assert 101 in t.s.silenced and table_view(t.s, 101)["silenced"]
    assert [s["name"] for s in table_view(t.s, None)["silenced_spectators"]] == ["Watcher"]
    t.do(Silence(100, None, False, author=spectator, line=42, name="Watcher"))
    assert spectator not in t.s.silenced and table_view(t.s, None)["silenced_spectators"] == []


def test_new_blinds_and_clock_apply_from_the_next_hand_and_used_time_bank_stays_used() -> None:
    t = seated_table(2, time_bank=60)
    t.state = replace(t.s, seats=tuple(replace(s, bank=40) if s is not None else None for s in t.s.seats))
    new = changed_rules(t.s.rules, {"blinds": [25, 50], "action_clock": 30, "time_bank": 90})
    assert refused(t, ChangeRules(100, new)) == "hand_in_progress"
    finish_hand(t)
    t.do(ChangeRules(100, new))
    assert t.s.rules.big_blind == 50 and t.s.rules.action_clock == 30
    assert all(s.bank == 70 for s in t.s.seats if s is not None), "20 s used of 60: 70 of the new 90 are left"
    t.sweep()
    hand = t.s.hand
    assert hand is not None and hand.betting.current_bet == 50
    assert isinstance(next(i.event for i in t.s.log if isinstance(i.event, RulesChanged)), RulesChanged)
    with pytest.raises(TableError) as info:
        changed_rules(t.s.rules, {"decks": 3})
    assert info.value.code == "bad_option"
    with pytest.raises(TableError) as info:
        changed_rules(t.s.rules, {"action_clock": 2})
    assert info.value.code == "bad_clock"


def test_asking_to_sit_waits_for_the_host_who_approves_or_denies() -> None:
    t = seated_table(2, seats=4)
    t.do(SetOptions(100, table_options({"approval": True})))
    events = t.do(Join(200, "Asker", seat=3))
    assert untimed(events) == [SeatRequested(200, "Asker", 3)] and t.s.seat_of(200) is None
    assert table_view(t.s, 200)["requested"] and table_view(t.s, None)["requests"][0]["name"] == "Asker"
    assert t.do(Join(200, "Asker")) == [], "asking twice changes nothing"
    request = t.s.requests[0].id
    assert refused(t, AnswerSeat(101, request, True)) == "not_host"
    t.do(AnswerSeat(100, request, True))
    assert t.s.seat_of(200) == 3 and not t.s.requests
    t.do(Join(201, "Other"))
    t.do(AnswerSeat(100, t.s.requests[0].id, False))
    assert t.s.seat_of(201) is None and not t.s.requests
    kinds = [e["type"] for e in table_log(t.s)]
    assert kinds[-5:] == ["seat_requested", "seat_answered", "player_sat", "seat_requested", "seat_answered"]
    assert [e.get("approved") for e in table_log(t.s) if e["type"] == "seat_answered"] == [True, False]


def test_the_host_hands_the_role_on_and_names_and_unnames_cohosts() -> None:
    t = seated_table(3)
    t.do(NameCohost(100, 2, True))
    assert t.s.cohosts == {102}
    t.do(NameCohost(100, 2, False))
    assert t.s.cohosts == frozenset()
    t.do(HandHost(100, 1))
    assert t.s.host == 101 and table_view(t.s, 101)["host"] and not table_view(t.s, 100)["host"]
    assert refused(t, Pause(100)) == "not_host"
    assert [e["type"] for e in table_log(t.s)][-3:] == ["cohost_set", "cohost_set", "host_changed"]


def test_when_the_host_leaves_a_cohost_takes_the_role_else_the_first_member_seated() -> None:
    t = seated_table(4, seats=5)
    t.do(NameCohost(100, 3, True))
    events = t.do(Leave(100))
    assert HostChanged(103) in untimed(events) and t.s.host == 103
    t.do(Leave(103))
    assert t.s.host == 101


def test_a_bot_gets_no_role_and_the_host_cannot_be_silenced() -> None:
    t = Table(3)
    t.do(AddBot(100, "solid"))
    assert refused(t, HandHost(100, 1)) == "bot_seat"
    t.do(Join(101, "P101"))
    t.do(NameCohost(100, 2, True))
    assert refused(t, Silence(100, 2, True)) == "not_removable"
    assert refused(t, Silence(100, 0, True)) == "not_removable"


def test_silencing_and_deleting_chat_are_host_events_in_the_log() -> None:
    t = seated_table(3)
    t.do(Silence(100, 2, True))
    assert 102 in t.s.silenced and table_view(t.s, 102)["silenced"]
    t.do(DeleteChat(100, 7, 102))
    assert refused(t, DeleteChat(101, 7, 102)) == "not_host"
    t.do(Silence(100, 2, False))
    log = table_log(t.s)
    assert [(e["type"], e.get("name"), e.get("on")) for e in log[-3:]] == [
        ("player_silenced", "P102", True), ("chat_deleted", "P102", None), ("player_silenced", "P102", False)]
    assert log[-2]["message"] == 7


def test_every_host_action_is_in_the_log_everyone_reads_with_who_did_it() -> None:
    t = seated_table(3)
    finish_hand(t)
    t.do(Pause(100))
    t.do(Resume(100))
    t.do(SetOptions(100, table_options({"rebuys": True, "spectator_chat": True})))
    t.do(AdjustStack(100, 2, 1234))
    t.do(ChangeRules(100, changed_rules(t.s.rules, {"straddle": True})))
    for member in (100, 101, None):
        log = table_view(t.s, member)["log"]
        assert [e["type"] for e in log] == ["player_sat"] * 3 + ["table_paused", "table_resumed", "options_set",
                                                                 "stack_adjusted", "rules_changed"]
        assert {e["by"] for e in log[3:]} == {"P100"}


def test_a_view_carries_the_newest_entries_of_a_long_log_and_the_log_request_all_of_them() -> None:
    """Past ``LOG_IN_VIEW`` entries a view shows the newest ones, in order (built from those alone: a long
    table's views do not grow with its log); ``table_log`` without ``last`` gives every entry."""
    t = seated_table(3)
    for on in [True, False] * 30:
        t.do(Silence(100, 2, on))
    everything = table_log(t.s)
    assert len(everything) == 3 + 60 > LOG_IN_VIEW
    shown = table_view(t.s, 101)["log"]
    assert shown == everything[-LOG_IN_VIEW:] == table_log(t.s, last=LOG_IN_VIEW)
    assert shown[-1]["on"] is False and shown[0]["version"] < shown[-1]["version"]


# --- rebuys and top-ups ------------------------------------------------------------------------------------------


def bust_seat_one(t: Table) -> None:
    """Heads-up: both go all in until someone is busted."""
    while all(s > 0 for s in t.s.stacks()) or t.s.hand_running:
        if not t.s.hand_running:
            t.sweep()
            continue
        hand = t.s.hand
        assert hand is not None
        legal = hand.legal()
        t.do(Act(member_to_act(t), Action(ActionKind.ALLIN if legal.allows(ActionKind.ALLIN) else ActionKind.CALL)))


def test_without_rebuys_a_heads_up_bust_ends_the_match_and_a_top_up_is_refused() -> None:
    t = seated_table(2)
    finish_hand(t)
    assert refused(t, BuyChips(100)) == "no_rebuys"
    bust_seat_one(t)
    assert t.s.over


def test_a_busted_player_rebuys_when_the_host_allows_it_and_it_is_counted() -> None:
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    bust_seat_one(t)
    assert not t.s.over and t.s.phase is Phase.REBUYS, "the busted player may buy back in"
    busted = next(i for i, chips in enumerate(t.s.stacks()) if chips == 0)
    member = t.s.seats[busted].member  # type: ignore[union-attr]
    assert table_view(t.s, member)["may_buy"] == 2000 and table_view(t.s, member)["busted"]
    assert untimed(t.do(BuyChips(member))) == [ChipsBought(busted, 2000, True)]
    assert t.s.phase is Phase.PLAYING and t.s.rebought == 2000 and t.s.chips_entered == 6000
    rows = {r["name"]: r for r in summary(t.s)}
    assert rows[f"P{member}"]["bought"] == 4000 and rows[f"P{member}"]["rebuys"] == 1
    assert sum(r["chips"] for r in rows.values()) == t.s.chips_entered
    assert table_log(t.s)[-1]["type"] == "chips_bought"


def test_a_busted_player_who_leaves_instead_ends_a_heads_up_match() -> None:
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    bust_seat_one(t)
    busted = next(i for i, chips in enumerate(t.s.stacks()) if chips == 0)
    t.do(Leave(t.s.seats[busted].member))  # type: ignore[union-attr]
    assert t.s.over and t.s.winner == 1 - busted


def test_a_rebuy_table_waits_a_minute_for_the_busted_player_then_the_match_ends() -> None:
    """Audit issue 45: a heads-up rebuy table whose busted player only watched waited for ever, saying nobody
    was there. Now it says whom it waits for, waits REBUY_WAIT from when it began to, and then ends."""
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    bust_seat_one(t)
    busted = next(i for i, chips in enumerate(t.s.stacks()) if chips == 0)
    assert t.s.phase is Phase.REBUYS
    assert table_view(t.s, None)["waiting_for"] == {"kind": "rebuys", "names": [f"P{100 + busted}"]}
    start = t.now
    assert due(t.s, start) == (None, start + dt.timedelta(seconds=REBUY_WAIT_SECONDS), Wait.REBUYS)
    t.wait(30)
    t.do(Pause(100))  # a later write keeps the wait
    t.do(Resume(100))
    assert due(t.s, t.now).next == start + dt.timedelta(seconds=REBUY_WAIT_SECONDS), "a later write keeps the wait"
    t.wait(REBUY_WAIT_SECONDS - 30 - 1)
    assert refused(t, EndMatch(None)) == "clock_running", "a second early"
    t.wait(1)
    assert due(t.s, t.now).command == EndMatch(None, t.now)
    events = t.sweep()
    assert events[0] == MatchEnded(1 - busted, None, t.now) and t.s.over and t.s.winner == 1 - busted
    assert [type(e).__name__ for e in events[1:]] == ["SeedsRevealed"], "the match over, the seeds revealed"
    assert refused(t, EndMatch(None)) == "match_over"


def test_the_wait_ends_when_the_busted_player_rebuys_and_the_server_cannot_end_a_table_that_plays() -> None:
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    bust_seat_one(t)
    busted = next(i for i, chips in enumerate(t.s.stacks()) if chips == 0)
    t.do(BuyChips(t.s.seats[busted].member))  # type: ignore[union-attr]
    assert t.s.phase is Phase.PLAYING and table_view(t.s, None)["waiting_for"] is None
    assert refused(t, EndMatch(None)) == "clock_running"


def test_the_host_ends_the_match_between_hands_with_the_books_as_its_summary() -> None:
    t = seated_table(3)
    t.do(NameCohost(100, 1, True))
    assert refused(t, EndMatch(102)) == "not_host"
    assert refused(t, EndMatch(100)) == "hand_in_progress"
    finish_hand(t)
    stacks = t.s.stacks()
    assert untimed(t.do(EndMatch(101)))[0] == MatchEnded(None, 101), "a co-host may end it too"
    assert t.s.over and t.s.phase is Phase.OVER
    rows = {r["name"]: r for r in summary(t.s)}
    assert {name: r["chips"] for name, r in rows.items()} == {f"P{100 + i}": stacks[i] for i in range(3)}
    assert sum(r["net"] for r in rows.values()) == 0
    assert refused(t, Deal(100)) == "match_over"
    fresh = seated_table(2)
    assert refused(fresh, EndMatch(100)) in ("hand_in_progress", "table_not_started")


def test_a_player_who_left_sits_again_when_the_host_allows_as_a_new_buy_in() -> None:
    t = seated_table(3)
    finish_hand(t)
    took = t.s.stacks()[2]
    t.do(Leave(102))
    assert table_view(t.s, 102)["left_match"]
    assert untimed(t.do(Join(102, "P102"))) == [SeatRequested(102, "P102", None)]
    t.do(AnswerSeat(100, t.s.requests[0].id, True))
    assert t.s.seat_of(102) is not None and t.s.stacks()[t.s.seat_of(102)] == 2000  # type: ignore[index]
    row = next(r for r in table_ledger(t.s)["players"] if r["name"] == "P102")
    assert (row["buy_in"], row["buy_ins"], row["took"]) == (4000, 2, took)
    assert row["net"] == 2000 + took - 4000
    log = table_log(t.s)
    assert [(e["type"], e.get("name")) for e in log[-4:]] == [
        ("player_left", "P102"), ("seat_requested", "P102"), ("seat_answered", "P102"), ("player_sat", "P102")]
    assert log[-4]["took"] == took and log[-4]["by"] is None


def test_the_books_keep_rebuys_top_ups_and_adjustments_apart() -> None:
    """Audit issue 45: ``bought`` counted the host's adjustments (and went negative), ``rebuys: 1`` counted a
    50-chip top-up, and a leaver's rebuy count went back to 0."""
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    finish_hand(t)
    loser = next(i for i, chips in enumerate(t.s.stacks()) if chips < 2000)
    member = t.s.seats[loser].member  # type: ignore[union-attr]
    t.do(BuyChips(member, 2000 - t.s.stacks()[loser]))  # a top-up
    t.do(AdjustStack(100, loser, 100))  # the host takes most of it away
    row = next(r for r in table_ledger(t.s)["players"] if r["name"] == f"P{member}")
    assert (row["rebuy_count"], row["top_up_count"]) == (0, 1)
    assert row["adjusted"] == 100 - 2000 and row["adjustments"] == [
        {"chips": -1900, "by": "P100", "version": t.s.version}]
    assert next(p for p in table_view(t.s, None)["players"] if p["seat"] == loser)["bought"] >= 2000
    t.do(Leave(member))
    left = next(r for r in summary(t.s) if r["name"] == f"P{member}")
    assert left["top_ups"] == 1 and left["left"] and left["chips"] == 100
    books = table_ledger(t.s)["totals"]
    assert books["balanced"] and books["paid_in"] == books["on_table"] + books["took"]


def test_a_top_up_is_up_to_the_starting_stack_and_waits_for_the_hand_to_end() -> None:
    t = seated_table(2)
    t.do(SetOptions(100, TableOptions(rebuys=True)))
    t.do(Act(100, Action(ActionKind.RAISE, 100)))
    t.do(Act(101, Action(ActionKind.FOLD)))  # seat 1 lost its big blind: 1980
    assert refused(t, BuyChips(100)) == "no_topup", "at or above the starting stack: nothing to top up"
    assert refused(t, BuyChips(101, 21)) == "bad_buy"
    t.sweep()
    assert refused(t, BuyChips(101)) == "hand_in_progress"
    finish_hand(t)
    short = 2000 - t.s.stacks()[1]
    t.do(BuyChips(101, short))
    assert t.s.stacks()[1] == 2000 and not t.log[-1].rebuy  # type: ignore[union-attr]


# --- seat choice ------------------------------------------------------------------------------------------------


def test_a_joining_player_picks_any_empty_seat() -> None:
    t = Table(6)
    t.do(Join(101, "P101", seat=4))
    assert t.s.seat_of(101) == 4
    assert refused(t, Join(102, "P102", seat=4)) == "seat_taken"
    assert refused(t, Join(102, "P102", seat=6)) == "bad_seat"
    t.do(Join(102, "P102"))
    assert t.s.seat_of(102) == 1, "no seat named: the first free one"


# --- the table's options for the hands: straddle, run it twice, show or muck ---------------------------------------


def test_the_straddle_is_the_players_choice_where_the_table_allows_it() -> None:
    """Audit issue 45: the straddle was forced on the player under the gun. Now the host's option allows it and
    the player chooses: the next hand they are under the gun in, every time, or not at all."""
    t = seated_table(4, straddle=True)
    hand = t.s.hand
    assert hand is not None and hand.straddle_seat is None and hand.to_act == 3, "nobody chose: no straddle"
    finish_hand(t)
    utg = next_under_the_gun(t.s)
    assert utg is not None
    member = t.s.seats[utg].member  # type: ignore[union-attr]
    assert table_view(t.s, member)["straddle"] == {"choice": "off", "utg_next": True}
    assert untimed(t.do(Straddle(member, "next"))) == [StraddleChosen(member, "next")]
    assert t.do(Straddle(member, "next")) == [], "choosing again changes nothing"
    t.sweep()
    assert t.s.hand is not None and t.s.hand.straddle_seat == utg
    assert table_view(t.s, 100)["hand"]["straddle_seat"] == utg
    assert member not in t.s.straddle_next, "a straddle for the next hand is used up"
    finish_hand(t)
    for m in (100, 101, 102, 103):
        t.do(Straddle(m, "always"))
    for _ in range(3):
        t.sweep()
        assert t.s.hand is not None and t.s.hand.straddle_seat is not None, "always: every hand"
        finish_hand(t)
    t.do(Straddle(member, "off"))
    assert refused(t, Straddle(member, "sometimes")) == "bad_option"
    assert refused(t, Straddle(999, "next")) == "not_seated"
    plain = seated_table(4)
    assert refused(plain, Straddle(101, "next")) == "no_straddle"
    assert table_view(plain.s, 101)["straddle"] is None


def test_an_all_in_is_run_twice_when_everyone_agrees_and_once_when_the_window_closes() -> None:
    for agree in (True, None):
        t = seated_table(2, run_twice=True)
        t.do(Act(100, Action(ActionKind.ALLIN)))
        t.do(Act(101, Action(ActionKind.CALL)))
        hand = t.s.hand
        assert hand is not None and hand.pending is not None and hand.pending.seats == (0, 1)
        assert table_view(t.s, 100)["hand"]["you"]["choice"] == "runs"
        assert refused(t, TimeOut(None)) == "clock_running", "the window is still open"
        t.do(AnswerRuns(100, True))
        if agree:
            t.do(AnswerRuns(101, True))
            assert t.s.hand is not None and t.s.hand.runs == 2 and len(t.s.hand.board2) == 5
        else:
            events = t.sweep()
            assert HandEvent(hand.hand_no, RunsChosen(1)) in untimed(events)
        assert t.s.hand is not None and t.s.hand.complete


def test_bots_and_away_players_answer_at_once_no_and_muck() -> None:
    t = Table(2, run_twice=True)
    t.do(AddBot(100, "solid"))
    while t.s.hand_running:
        hand = t.s.hand
        assert hand is not None
        turn = t.s.bot_to_act()
        member = turn[1].member if turn is not None else 100
        legal = hand.legal()
        t.do(Act(member, Action(ActionKind.ALLIN if legal.allows(ActionKind.ALLIN) else ActionKind.CALL)))
    hand = t.s.hand
    assert hand is not None and hand.runs == 1 and any(isinstance(e, RunsOffered) for e in hand.events)


def test_at_a_show_or_muck_table_a_loser_chooses_and_the_window_closes_with_a_muck() -> None:
    seen = set()
    for seed in range(30):
        t = seated_table(3, show_or_muck=True, seed=seed)
        finish_hand_checking(t)
        hand = t.s.hand
        assert hand is not None
        if hand.pending is None:
            continue
        chooser = hand.pending.seats[0]
        member = t.s.seats[chooser].member  # type: ignore[union-attr]
        assert table_view(t.s, member)["hand"]["you"]["choice"] == "show"
        timer = t.s.clock.turn
        assert timer is not None and timer.deadline == t.now + dt.timedelta(seconds=10), "a short window"
        t.wait(10)
        assert due(t.s, t.now).command is None, "the server closes it a second after the players may"
        if seed % 2:
            t.do(ShowOrMuck(member, True))
            seen.add("show")
        else:
            t.wait(1)
            command = due(t.s, t.now).command
            assert isinstance(command, TimeOut)
            t.do(command)
            seen.add("muck")
            assert hand.hand_no and any(isinstance(e, HandMucked) for e in t.s.hand.events)  # type: ignore[union-attr]
        if t.s.hand.pending is not None:  # type: ignore[union-attr]
            t.sweep()
        assert t.s.hand.complete  # type: ignore[union-attr]
        if seen == {"show", "muck"}:
            return
    raise AssertionError(f"both choices were not met: {seen}")


def finish_hand_checking(t: Table) -> None:
    while t.s.hand_running and t.s.hand is not None and t.s.hand.pending is None:
        legal = t.s.hand.legal()
        t.do(Act(member_to_act(t), Action(ActionKind.CHECK if legal.allows(ActionKind.CHECK) else ActionKind.CALL)))


def test_the_winner_of_an_uncontested_pot_may_show_a_card_after_the_hand() -> None:
    t = seated_table(2)
    t.do(Act(100, Action(ActionKind.RAISE, 100)))
    assert refused(t, ShowCards(100, (0,))) == "no_show"
    t.do(Act(101, Action(ActionKind.FOLD)))
    assert refused(t, ShowCards(101, (0,))) == "illegal_action.no_show", "the folder has nothing to show"
    events = t.do(ShowCards(100, (1,)))
    hand = t.s.hand
    assert hand is not None
    assert untimed(events) == [HandEvent(hand.hand_no, CardsShown(0, (hand.hole_cards(0)[1],)))]  # type: ignore[arg-type]
    assert table_view(t.s, 101)["hand"]["seats"][0]["showed"] == [hand.hole_cards(0)[1].label]  # type: ignore[union-attr]
    t.do(ShowCards(100, (0,)))
    assert len(table_view(t.s, None)["hand"]["seats"][0]["showed"]) == 2


def test_the_options_are_written_to_the_log_and_shown_in_every_view() -> None:
    t = seated_table(2)
    events = t.do(SetOptions(100, table_options({"approval": True, "spectator_chat": True})))
    assert [type(e).__name__ for e in events] == ["OptionsSet"]
    view = table_view(t.s, None)
    assert view["options"] == {"rebuys": False, "approval": True, "spectator_chat": True, "straddle": False,
                               "run_twice": False, "show_or_muck": False, "reveal": True}
    assert isinstance(t.s.log[-1].event, type(events[0])) and not any(
        isinstance(item.event, TablePaused | StackAdjusted) for item in t.s.log)
