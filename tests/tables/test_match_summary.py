"""An end for every match (issue 21): the summary lists every player who held chips, leavers and removed bots
included, with what they took away, and its chips add up to every chip that entered the table."""

from __future__ import annotations

import random

from taiwan_poker.rules import Action, ActionKind, RuleSet
from taiwan_poker.tables import Act, AddBot, Deal, Join, Leave, Open, RemoveBot, TableState, decide, fold, table_view
from taiwan_poker.tables.machine import settle
from taiwan_poker.tables.views import summary


def _play_out(state: TableState, rng: random.Random) -> TableState:
    """Everyone calls or checks the running hand down (bots' seats included, as their clients would)."""
    while state.hand is not None and not state.hand.complete:
        hand = state.hand
        seat = hand.to_act
        assert seat is not None
        occupant = state.seats[seat]
        assert occupant is not None
        kind = ActionKind.CHECK if hand.legal().allows(ActionKind.CHECK) else ActionKind.CALL
        state = fold(decide(state, Act(occupant.member, Action(kind)), rng), state)
    return state


def test_the_summary_counts_a_removed_bot_holding_chips_and_a_leaver_holding_chips() -> None:
    rng = random.Random(3)
    rules = RuleSet(decks=2, seats=4, starting_stack=3000, small_blind=25, big_blind=50)
    state = fold(decide(None, Open(rules, 1, "Alice", ("solid", "solid")), rng))
    state = fold(decide(state, Join(2, "Bob"), rng), state)  # the table is full: a hand is dealt
    assert state.hand is not None
    state = _play_out(state, rng)
    bot_seat = next(i for i, s in enumerate(state.seats) if s is not None and s.bot is not None)
    bot_chips = state.stacks()[bot_seat]
    assert bot_chips > 0
    state = fold(decide(state, RemoveBot(1, bot_seat), rng), state)
    bob_seat = state.seat_of(2)
    assert bob_seat is not None
    bob_chips = state.stacks()[bob_seat]
    state = fold(decide(state, Leave(2), rng), state)
    rows = summary(state)
    by_name = {r["name"]: r for r in rows}
    assert by_name["Bob"]["chips"] == bob_chips and by_name["Bob"]["left"]
    assert any(r["bot"] and r["left"] and r["chips"] == bot_chips for r in rows), rows
    assert sum(int(r["chips"]) for r in rows) == state.bought_in == 4 * 3000
    # and after the match ends (the last member leaves: bots do not play on), it still adds up
    state = fold(decide(state, Leave(1), rng), state)
    assert state.over
    view = table_view(state, None)
    assert sum(int(r["chips"]) for r in view["match"]["summary"]) == view["match"]["chips"] == 12_000
    assert {r["name"] for r in view["match"]["summary"]} >= {"Alice", "Bob"}


def test_a_player_who_left_is_not_offered_the_seat_again() -> None:
    rng = random.Random(5)
    rules = RuleSet(decks=2, seats=3, starting_stack=1000)
    state = fold(decide(None, Open(rules, 1, "Alice"), rng))
    for member in (2, 3):
        state = fold(decide(state, Join(member, f"P{member}"), rng), state)
    if not state.started:
        state = fold(decide(state, Deal(1), rng), state)
    state = fold(decide(state, Leave(3), rng), state)
    assert table_view(state, 3)["left_match"] is True
    assert table_view(state, 99)["left_match"] is False, "a stranger may still sit when a seat is free"


def test_a_busted_member_sees_they_are_out_and_bots_alone_never_play_on() -> None:
    rng = random.Random(11)
    rules = RuleSet(decks=2, seats=3, starting_stack=200, small_blind=10, big_blind=20)
    state = fold(decide(None, Open(rules, 1, "Guest", ("beginner", "beginner"), guest=True), rng))
    for _ in range(200):
        if state.over:
            break
        hand = state.hand
        assert hand is not None
        if hand.complete:
            state = fold(decide(state, Deal(1), rng), state)  # a seated player deals the next hand
            continue
        seat = hand.to_act
        assert seat is not None
        occupant = state.seats[seat]
        assert occupant is not None
        kind = ActionKind.ALLIN if occupant.bot is None or rng.random() < 0.5 else hand.legal().actions[-1]
        if kind not in hand.legal().actions:
            kind = ActionKind.CALL if hand.legal().allows(ActionKind.CALL) else ActionKind.CHECK
        state = fold(decide(state, Act(occupant.member, Action(kind)), rng), state)
    assert state.over
    assert not settle(state, rng), "nothing follows a finished match"
    if state.stacks()[0] == 0:
        assert table_view(state, 1)["busted"] is True
        assert next(p for p in table_view(state, 1)["players"] if p["seat"] == 0)["busted"]


def test_adding_and_removing_bots_keeps_the_books_balanced() -> None:
    rng = random.Random(2)
    rules = RuleSet(decks=2, seats=4, starting_stack=500)
    state = fold(decide(None, Open(rules, 1, "Alice"), rng))
    state = fold(decide(state, AddBot(1, "solid"), rng), state)
    state = fold(decide(state, RemoveBot(1, 1), rng), state)
    assert sum(int(r["chips"]) for r in summary(state)) == state.bought_in
