"""Blinds players expect (issue 21, docs/rules.md "Blinds when players bust, leave or join"): the big blind moves
on exactly one player each hand, so nobody skips it when others go broke and nobody posts it twice in a row,
also when the table goes heads-up (the TDA's button adjustment)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.rules import Action, ActionKind, RuleSet
from taiwan_poker.rules.hand import blind_seats
from taiwan_poker.rules.pots import clockwise_after
from taiwan_poker.tables import Act, Deal, Join, Open, TableState, decide, fold
from taiwan_poker.tables.machine import next_button


def blinds_after(last_big_blind: int, stacks: list[int]) -> tuple[int, int, int]:
    """(button, small blind, big blind) of the next hand."""
    button = next_button(last_big_blind, stacks)
    players = [s for s in clockwise_after(button, len(stacks)) if stacks[s] > 0]
    small, big = blind_seats(button, players)
    return button, small, big


def test_tda_heads_up_switch_when_the_button_busts_nobody_posts_the_big_blind_twice() -> None:
    # three-handed: A (0) button, B (1) small blind, C (2) big blind; A busts
    button, small, big = blinds_after(2, [0, 500, 700])
    assert big == 1 and small == button == 2, "C posted the big blind: now B does, C has the button"


def test_tda_heads_up_switch_when_the_small_blind_busts() -> None:
    button, small, big = blinds_after(2, [500, 0, 700])
    assert big == 0 and small == button == 2


def test_tda_heads_up_switch_when_the_big_blind_busts() -> None:
    button, small, big = blinds_after(2, [500, 700, 0])
    assert big == 0 and small == button == 1, "the big blind moves on to A; B has the button heads-up"


def test_heads_up_the_big_blind_alternates() -> None:
    assert blinds_after(1, [500, 500]) == (1, 1, 0)
    assert blinds_after(0, [500, 500]) == (0, 0, 1)


def test_a_bust_out_lets_nobody_skip_the_big_blind() -> None:
    # six-handed: the big blind was seat 2; seat 3, next in line, goes broke: seat 4 posts it (not skipped)
    button, small, big = blinds_after(2, [800, 800, 800, 0, 800, 800])
    assert big == 4 and small == 2 and button == 1
    # the player who was to be the small blind went broke: the button and small blind are the two players
    # before the big blind, so the big blind is still the next player in line
    button, small, big = blinds_after(2, [800, 800, 0, 800, 800, 800])
    assert big == 3 and small == 1 and button == 0


def test_a_player_who_joins_posts_the_big_blind_when_it_reaches_their_seat() -> None:
    # seat 1 was empty last hand (big blind 0); a newcomer sits there: the big blind moves on to them
    button, small, big = blinds_after(0, [800, 800, 800, 800])
    assert big == 1 and small == 0 and button == 3


def _play_match(seats: int, seed: int) -> TableState:
    rng = random.Random(seed)
    rules = RuleSet(decks=2, seats=seats, starting_stack=200, small_blind=10, big_blind=20)
    state = fold(decide(None, Open(rules, 1, "P1"), rng))
    for member in range(2, seats + 1):
        state = fold(decide(state, Join(member, f"P{member}"), rng), state)
    for _ in range(400):
        if state.over:
            break
        hand = state.hand
        if hand is None or hand.complete:
            state = fold(decide(state, Deal(1), rng), state)  # a seated player deals the next hand
            continue
        seat = hand.to_act
        assert seat is not None
        occupant = state.seats[seat]
        assert occupant is not None
        legal = hand.legal()
        kind = rng.choice([k for k in legal.actions if k is not ActionKind.BET and k is not ActionKind.RAISE]
                          or [ActionKind.FOLD])
        if ActionKind.ALLIN in legal.actions and rng.random() < 0.35:
            kind = ActionKind.ALLIN
        state = fold(decide(state, Act(occupant.member, Action(kind)), rng), state)
    return state


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_the_big_blind_moves_on_one_player_every_hand_through_bust_outs_and_heads_up(seats: int, seed: int) -> None:
    state = _play_match(seats, seed)
    hands = state.hands
    for before, after in itertools.pairwise(hands):
        alive = [s for s in range(seats) if after.initial_stacks[s] > 0]
        expected = next(s for s in clockwise_after(before.bb_seat, seats) if s in alive)
        assert after.bb_seat == expected, (before.hand_no, before.bb_seat, after.bb_seat, alive)
        assert after.bb_seat != before.bb_seat, "nobody posts the big blind twice in a row"
