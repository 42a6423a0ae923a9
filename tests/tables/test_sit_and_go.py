"""Sit-and-go tournaments on the table machine (issue 46, docs/tournaments.md): each rule by name, on a fake clock.

The level clock is checked one second before each deadline (nothing due, RaiseLevel refused) and at it (due,
accepted), so moving a deadline by one second fails here."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from typing import Any

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rules import Action, ActionKind, RuleSet
from taiwan_poker.rules.events import AntePosted, BlindPosted, HandStarted
from taiwan_poker.rules.hand import Hand
from taiwan_poker.tables import (
    Act,
    AddBot,
    AdjustStack,
    AnswerSeat,
    Back,
    BuyChips,
    ChangeRules,
    Deal,
    EndMatch,
    Join,
    Leave,
    Open,
    Pause,
    RemoveBot,
    RemovePlayer,
    Resume,
    SetOptions,
    TableOptions,
    TableState,
    chips_conserved,
    decide,
    fold,
)
from taiwan_poker.tables.commands import RaiseLevel, SetTournament, stamped
from taiwan_poker.tables.events import (
    HandEvent,
    LevelRaised,
    PlayerAway,
    PlayersPlaced,
    TournamentFinished,
    event_from_json,
    event_to_json,
)
from taiwan_poker.tables.schedules import (
    DEFAULT_PAYOUTS,
    Level,
    Schedule,
    SitAndGo,
    default_payouts,
    payouts_from,
    preset,
    schedule_from,
)
from taiwan_poker.tables.state import Phase, Wait
from taiwan_poker.tables.timing import Due, due, level_deadline
from taiwan_poker.tables.tournament import Place, Tournament, payout_amounts, place_busted

START = dt.datetime(2026, 1, 5, 20, 0, tzinfo=dt.UTC)
SECOND = dt.timedelta(seconds=1)
MINUTE = dt.timedelta(minutes=1)


def settings(levels: tuple[Level, ...] = (Level(10, 20), Level(15, 30), Level(25, 50, 5)), minutes: int = 6,
             break_every: int = 0, break_minutes: int = 0, buy_in: int = 100) -> SitAndGo:
    return SitAndGo(Schedule(levels, minutes, break_every, break_minutes), default_payouts(), buy_in)


class Sng:
    """A sit-and-go driven through decide/fold on a fake clock, every invariant checked after each event."""

    def __init__(self, players: int = 2, seats: int | None = None, sng: SitAndGo | None = None, stack: int = 1500,
                 bots: int = 0) -> None:
        self.rng = random.Random(7)
        self.state: TableState | None = None
        self.now = START
        self.log: list[Any] = []
        rules = RuleSet(decks=2, seats=seats or players, starting_stack=stack)
        self.do(Open(rules, 100, "P100", bots=("beginner",) * bots, bot_pause=(0.0, 0.0),
                     tournament=sng or settings()))
        for m in range(101, 100 + players - bots):
            self.do(Join(m, f"P{m}"))

    @property
    def s(self) -> TableState:
        assert self.state is not None
        return self.state

    @property
    def t(self) -> Tournament:
        assert self.s.tournament is not None
        return self.s.tournament

    def do(self, command: Any) -> list[Any]:
        events = decide(self.state, stamped(command, self.now), self.rng)
        for event in events:
            assert event_from_json(event_to_json(event)) == event, "the JSON round trip keeps every event"
            self.state = fold([event], self.state)
            assert chips_conserved(self.state), f"chips conserved after {event}"
        self.log += events
        return events

    def refused(self, command: Any) -> str:
        before = self.state
        with pytest.raises(TaiwanPokerError) as info:
            self.do(command)
        assert self.state is before, "a refused command changes nothing"
        return info.value.code

    def at(self, when: dt.datetime) -> None:
        self.now = when

    def fold_hand(self) -> None:
        """The player to act folds (or checks) until the running hand is over."""
        while self.s.hand_running:
            hand = self.s.hand
            assert hand is not None and hand.to_act is not None
            seat = self.s.seats[hand.to_act]
            assert seat is not None
            kind = ActionKind.FOLD if hand.legal().allows(ActionKind.FOLD) else ActionKind.CHECK
            self.do(Act(seat.member, Action(kind)))

    def all_in(self) -> None:
        """Everyone goes all in (or calls it) in the running hand."""
        while self.s.hand_running:
            hand = self.s.hand
            assert hand is not None and hand.to_act is not None
            seat = self.s.seats[hand.to_act]
            assert seat is not None
            legal = hand.legal()
            kind = ActionKind.ALLIN if legal.allows(ActionKind.ALLIN) else ActionKind.CALL
            self.do(Act(seat.member, Action(kind)))


def blinds_posted(state: TableState, hand_no: int) -> list[int]:
    hand = state.hands[hand_no - 1]
    return [e.amount for e in hand.events if isinstance(e, BlindPosted)]


# --- the level clock ------------------------------------------------------------------------------------------


def test_the_level_rises_at_its_exact_deadline_and_not_a_second_before() -> None:
    t = Sng(2)  # heads-up: full at once, hand 1 dealt at START and level 1's six minutes start then
    assert t.t.started == START and t.t.field == (100, 101)
    t.at(START + 6 * MINUTE - SECOND)
    assert due(t.s, t.now).command is None or due(t.s, t.now).wait is not Wait.LEVEL
    assert t.refused(RaiseLevel(None)) == "clock_running"
    t.at(START + 6 * MINUTE)
    assert due(t.s, t.now) == Due(RaiseLevel(None, t.now), START + 6 * MINUTE, Wait.LEVEL)
    events = t.do(RaiseLevel(None))
    assert [e._replace(at=None) for e in events] == [LevelRaised(1, 2, 15, 30, 0)]
    assert t.t.level == 1 and (t.s.rules.small_blind, t.s.rules.big_blind) == (15, 30)
    assert t.refused(RaiseLevel(None)) == "clock_running", "a level rises once"
    assert due(t.s, t.now).next != START + 6 * MINUTE


def test_only_the_servers_clock_raises_a_level() -> None:
    t = Sng(2)
    t.at(START + 6 * MINUTE)
    assert t.refused(RaiseLevel(100)) == "not_host"


def test_a_level_change_applies_from_the_next_hand() -> None:
    t = Sng(2)
    t.at(START + 6 * MINUTE)
    t.do(RaiseLevel(None))
    assert blinds_posted(t.s, 1) == [10, 20] and t.s.hands[0].rules.big_blind == 20, "the running hand keeps its"
    t.fold_hand()
    t.at(t.now + 6 * SECOND)
    t.do(Deal(None))
    assert blinds_posted(t.s, 2) == [15, 30]


def test_a_late_raise_passes_over_the_levels_that_ran_out_meanwhile_and_deadlines_stay_on_the_schedule() -> None:
    t = Sng(2)
    t.at(START + 13 * MINUTE)  # the server was down for levels 2's end
    t.do(RaiseLevel(None))
    assert t.t.level == 2 and t.s.rules.ante == 5
    assert t.t.stage == len(t.t.stages) - 1 and t.t.stages[-1].minutes is None, "the last level lasts until the end"
    assert level_deadline(t.s) is None and due(t.s, t.now + 600 * MINUTE).wait is not Wait.LEVEL


def test_the_next_deadline_follows_the_schedule_not_the_time_of_the_raise() -> None:
    t = Sng(2, sng=settings(levels=(Level(10, 20), Level(15, 30), Level(20, 40), Level(30, 60))))
    t.at(START + 6 * MINUTE + 40 * SECOND)  # applied 40 s late
    t.do(RaiseLevel(None))
    t.at(START + 12 * MINUTE - SECOND)
    assert t.refused(RaiseLevel(None)) == "clock_running"
    t.at(START + 12 * MINUTE)
    assert isinstance(due(t.s, t.now).command, RaiseLevel)


def test_antes_are_posted_from_their_level_by_every_dealt_in_player_before_the_blinds() -> None:
    t = Sng(3, sng=settings(levels=(Level(10, 20), Level(20, 40, 4))), stack=1000)  # full: dealt at once
    t.at(START + 6 * MINUTE)
    t.do(RaiseLevel(None))
    t.fold_hand()
    t.at(t.now + 6 * SECOND)
    t.do(Deal(None))
    events = t.s.hands[1].events
    antes = [e for e in events if isinstance(e, AntePosted)]
    assert [a.amount for a in antes] == [4, 4, 4]
    assert events.index(antes[-1]) < min(i for i, e in enumerate(events) if isinstance(e, BlindPosted))


def test_a_stack_shorter_than_the_ante_posts_what_it_has_and_is_all_in() -> None:
    rules = RuleSet(decks=2, seats=3, starting_stack=1000, small_blind=10, big_blind=20, ante=5)
    hand = Hand.start(rules, [3, 500, 500], 0)
    antes = [e for e in hand.events if isinstance(e, AntePosted)]
    assert sorted(a.amount for a in antes) == [3, 5, 5]
    assert hand.stacks[0] == 0 and hand.pot == 3 + 5 + 5 + 10 + 20


def test_a_break_deals_no_hand_until_it_ends_and_the_level_before_it_stays_in_force() -> None:
    t = Sng(2, sng=settings(levels=(Level(10, 20), Level(15, 30)), minutes=1, break_every=1, break_minutes=2))
    t.at(START + MINUTE)
    events = t.do(RaiseLevel(None))
    assert [e._replace(at=None) for e in events] == [LevelRaised(1, 1, 10, 20, 0, True)]
    assert t.t.on_break
    t.fold_hand()
    assert t.s.phase is Phase.PAUSED and t.s.clock.turn is None
    assert t.refused(Deal(101)) == "tournament_break"
    t.at(START + 3 * MINUTE - SECOND)
    assert due(t.s, t.now) == Due(None, START + 3 * MINUTE, Wait.LEVEL)
    t.at(START + 3 * MINUTE)
    t.do(RaiseLevel(None))
    assert not t.t.on_break and t.t.level == 1 and t.s.phase is Phase.PLAYING
    assert due(t.s, t.now) == Due(None, START + 3 * MINUTE + 6 * SECOND, Wait.DEAL), "the showdown pause again"


def test_the_hosts_pause_stops_the_level_clock_and_resuming_moves_every_deadline_on() -> None:
    t = Sng(2)
    t.at(START + 2 * MINUTE)
    t.do(Pause(100))
    t.at(START + 20 * MINUTE)
    assert due(t.s, t.now).wait is not Wait.LEVEL
    t.do(Resume(100))
    t.at(START + 24 * MINUTE - SECOND)
    assert t.refused(RaiseLevel(None)) == "clock_running"
    t.at(START + 24 * MINUTE)
    assert isinstance(due(t.s, t.now).command, RaiseLevel)


# --- places and payouts ---------------------------------------------------------------------------------------


def test_players_who_bust_in_the_same_hand_are_placed_by_their_stacks_at_its_start() -> None:
    t = Tournament(settings(), field=(1, 2, 3, 4, 5, 6))
    places = place_busted(t, [(3, 4, 200), (1, 2, 900), (4, 5, 500)], remaining=2, button=0, seats=6)
    assert [(p.member, p.place) for p in places] == [(2, 3), (5, 4), (4, 5)]


def test_equal_starting_stacks_tie_and_share_their_places_payouts_odd_points_from_the_button() -> None:
    t = Tournament(settings(buy_in=101), field=(1, 2, 3, 4, 5, 6))  # pool 606: 65 % = 393 (+1 odd), 35 % = 212
    assert payout_amounts(t.settings, 6) == (394, 212, 0, 0, 0, 0)
    places = place_busted(t, [(4, 5, 700), (2, 3, 700)], remaining=1, button=3, seats=6)
    assert {p.place for p in places} == {2}, "a tie shares the best place of the pair"
    assert [(p.seat, p.payout) for p in places] == [(4, 106), (2, 106)], "212 split evenly"
    odd = place_busted(Tournament(settings(buy_in=1), field=(1, 2, 3, 4)), [(0, 1, 50), (2, 3, 50)],
                       remaining=1, button=1, seats=4)  # pool 4: 70 % = 2 (+1), 30 % = 1, split in two
    assert [(p.seat, p.payout) for p in odd] == [(2, 1), (0, 0)], "the odd point to the first from the button"


def test_the_default_payouts_pay_by_field_size_and_heads_up_the_winner_takes_all() -> None:
    assert DEFAULT_PAYOUTS[2] == (100,)
    for field in range(2, 7):
        amounts = payout_amounts(settings(), field)
        assert sum(amounts) == 100 * field and len(amounts) == field
    with pytest.raises(TaiwanPokerError) as info:
        payouts_from({"2": [60, 40]})
    assert info.value.code == "bad_payouts"
    for bad in ({"5": [50, 30]}, {"4": [30, 70]}, {"3": [50, 25, 25, 0]}, [[100]], {"6": [True, 99]}):
        with pytest.raises(TaiwanPokerError) as info:
            payouts_from(bad)
        assert info.value.code == "bad_payouts", bad
    assert payouts_from({"6": [50, 30, 20]})[4] == (50, 30, 20)


def test_a_heads_up_bust_ends_the_sit_and_go_with_every_place_and_the_winner_takes_all() -> None:
    t = Sng(2)
    while not t.s.over:
        if t.s.hand_running:
            t.all_in()
        else:
            t.at(t.now + 6 * SECOND)
            t.do(Deal(None))
    finished = [e for e in t.log if isinstance(e, TournamentFinished)]
    assert len(finished) == 1
    done = finished[0]
    assert done.places == (1, 2) and done.payouts == (200, 0) and done.hands == len(t.s.hands)
    assert t.s.winner == done.seats[0] and t.t.finished


def test_a_bust_at_a_three_handed_table_places_the_player_third_at_once() -> None:
    t = Sng(3)
    while not any(isinstance(e, PlayersPlaced) for e in t.log):
        if t.s.hand_running:
            t.all_in()
        else:
            t.at(t.now + 6 * SECOND)
            t.do(Deal(None))
    placed = next(e for e in t.log if isinstance(e, PlayersPlaced))
    assert placed.places[-1] == 3 or placed.places == (2, 2) or placed.places == (2, 3)
    assert t.s.over == (len(t.s.with_chips()) == 1)


# --- what a sit-and-go refuses ----------------------------------------------------------------------------------


def test_no_rebuys_top_ups_or_host_stack_changes_once_it_has_begun() -> None:
    t = Sng(3, bots=1)
    t.fold_hand()
    bot_seat = next(i for i, s in enumerate(t.s.seats) if s is not None and s.bot is not None)
    assert t.refused(BuyChips(101)) == "tournament_stacks"
    assert t.refused(AdjustStack(100, 1, 5000)) == "tournament_stacks"
    assert t.refused(RemovePlayer(100, 1)) == "tournament_stacks"
    assert t.refused(RemoveBot(100, bot_seat)) == "tournament_stacks"
    assert t.refused(SetOptions(100, TableOptions(rebuys=True))) == "tournament_stacks"
    assert t.refused(EndMatch(100)) == "tournament_running"
    assert t.refused(ChangeRules(100, dataclasses.replace(t.s.rules, big_blind=40))) == "tournament_blinds"
    assert t.refused(Join(200, "late")) == "tournament_started"
    assert t.refused(AddBot(100, "beginner")) in ("tournament_started", "room_full")
    assert t.refused(SetTournament(100, preset("turbo"))) == "tournament_started"


def test_a_sit_and_go_is_opened_with_two_to_six_seats_and_without_rebuys() -> None:
    rules = RuleSet(decks=2, seats=7)
    with pytest.raises(TaiwanPokerError) as info:
        decide(None, Open(rules, 1, "a", tournament=settings()))
    assert info.value.code == "bad_seats"
    with pytest.raises(TaiwanPokerError) as info:
        decide(None, Open(RuleSet(decks=2, seats=3), 1, "a", options=TableOptions(rebuys=True), tournament=settings()))
    assert info.value.code == "tournament_stacks"


def test_the_schedule_sets_the_blinds_of_the_table_from_level_one() -> None:
    state = fold(decide(None, Open(RuleSet(decks=2, seats=3, small_blind=50, big_blind=100), 1, "a",
                                   tournament=settings())))
    assert (state.rules.small_blind, state.rules.big_blind, state.rules.ante) == (10, 20, 0)


def test_bad_schedules_are_refused_with_a_code() -> None:
    for levels, minutes in (([], 5), ([[20, 10]], 5), ([[10, 20], [10, 20]], 5), ([[10, 20, 30]], 5),
                            ([[10, 20]], 0), ([[10, 20]], 61), ("x", 5)):
        with pytest.raises(TaiwanPokerError) as info:
            schedule_from(levels, minutes)
        assert info.value.code == "bad_schedule", (levels, minutes)
    assert SitAndGo.from_json(preset("deep").to_json()) == preset("deep")


def test_registration_before_the_start_and_the_creator_starts_with_two_or_more() -> None:
    t = Sng(2, seats=4)
    assert t.s.phase is Phase.WAITING and t.s.tournament is not None and not t.t.begun
    t.do(Leave(101))  # unregisters
    assert t.s.seat_of(101) is None
    assert t.refused(Deal(100)) == "table_paused", "one player cannot start"
    t.do(Join(101, "P101"))
    t.do(Deal(100))
    assert t.t.begun and t.t.field == (100, 101)


def test_it_starts_when_full() -> None:
    t = Sng(2, seats=3)
    assert not t.t.begun
    t.do(AddBot(100, "beginner"))
    assert t.t.begun and len(t.t.field) == 3


def test_an_away_or_leaving_player_is_blinded_off_never_removed_and_may_come_back() -> None:
    t = Sng(3)
    events = t.do(Leave(101))
    assert [type(e) for e in events] == [PlayerAway] and t.s.seat_of(101) is not None
    t.fold_hand()
    t.at(t.now + 6 * SECOND)
    t.do(Deal(None))  # two present members, one away: the sit-and-go deals on
    hand = t.s.hand
    assert hand is not None and hand.dealt_in(t.s.seat_of(101) or 0)
    t.fold_hand()
    t.do(Back(101))
    assert not t.s.seats[1].away  # type: ignore[union-attr]


def test_a_member_alone_away_against_bots_is_blinded_off_while_the_bots_play_on() -> None:
    t = Sng(3, bots=2)
    assert t.t.begun
    t.do(Leave(100))
    t.fold_hand()
    t.at(t.now + 6 * SECOND)
    assert due(t.s, t.now).command == Deal(None, t.now)
    t.do(Deal(None))
    assert t.s.hand_running and HandStarted in {type(e.event) for e in t.log if isinstance(e, HandEvent)}


def test_places_and_payouts_fold_from_the_log() -> None:
    t = Sng(2)
    while not t.s.over:
        if t.s.hand_running:
            t.all_in()
        else:
            t.at(t.now + 6 * SECOND)
            t.do(Deal(None))
    again = fold(t.log)
    assert again.tournament == t.s.tournament
    assert sorted(p.place for p in again.tournament.places) == [1, 2]  # type: ignore[union-attr]
    assert Place(t.t.places[0].member, t.t.places[0].seat, 1, 200) == t.t.places[0]


def test_nobody_sits_down_once_it_has_begun_not_a_bot_nor_an_approved_request() -> None:
    t = Sng(2, seats=4)
    t.do(SetOptions(100, TableOptions(approval=True)))
    t.do(Join(102, "P102"))  # asks to sit: the host approves who sits
    request = t.s.requests[0].id
    t.do(Deal(100))
    assert t.refused(AddBot(100, "beginner")) == "tournament_started"
    assert t.refused(AnswerSeat(100, request, True)) == "tournament_started"
    assert t.s.chips_entered == 2 * 1500


def test_the_pages_structure_data_is_the_presets_and_default_payouts() -> None:
    from taiwan_poker.tables.schedules import PRESET, structure_json

    data = structure_json()
    for name, p in PRESET.items():
        got = data["presets"][name]
        assert got["stack"] == p.stack and got["levels"] == [list(level) for level in p.schedule.levels]
        assert got["minutes"] == p.schedule.minutes and got["break_every"] == p.schedule.break_every
        first_ante = next(i for i, level in enumerate(p.schedule.levels, start=1) if level.ante)
        assert got["ante_from"] == first_ante
    assert data["payouts"] == {str(n): list(DEFAULT_PAYOUTS[n]) for n in range(2, 7)}
    assert data["bounds"]["minutes"] == [1, 60] and data["bounds"]["levels"] == [1, 40]
