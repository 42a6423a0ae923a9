"""The typed replay of a viewer's visible events: it agrees with the engine, and it has one bet level."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.events import STREETS, ActionTaken
from taiwan_poker.rules.replay import BlindPost, StreetAction, VisibleHand, replay
from taiwan_poker.rules.simulate import random_action
from taiwan_poker.rules.views import events_for


def agrees(seen: VisibleHand, hand: Hand, viewer: int | None) -> None:
    b = hand.betting
    assert seen.pot == hand.pot and list(seen.contributed) == b.contrib
    assert list(seen.bets) == b.bets and list(seen.stacks) == b.stacks
    assert seen.level == b.current_bet
    assert [s in seen.folded or s not in seen.players for s in range(b.n)] == b.folded
    assert seen.players == hand.players and seen.live == tuple(b.live_seats())
    assert seen.street == STREETS.index(hand.street) and seen.board == hand.board
    assert seen.complete == hand.complete
    if hand.complete:
        assert seen.end_stacks == hand.stacks
    shown = {e.seat for e in hand.shown}
    for s in hand.players:
        mine = s == viewer
        assert seen.hole(s) == (hand.hole_cards(s) if mine or s in shown else (None, None))
        assert seen.burns(s) == (hand.private_burns(s) if mine else ())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), decks=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_the_replay_of_every_viewers_events_agrees_with_the_engine_at_every_step(seats: int, decks: int,
                                                                                  seed: int) -> None:
    """Pot, bets, stacks, who folded, the street and the bet level, after each action, for each seat and a spectator;
    each action's level before it is the engine's current bet then (short blinds and leavers included)."""
    rng = random.Random(seed)
    rules = RuleSet(decks=decks, seats=seats, small_blind=10, big_blind=20)
    stacks = [rng.choice((0, 5, 15, 20, 35, 300, 2000)) for _ in range(seats)]
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0] = stacks[-1] = 500
    hand = Hand.start(rules, stacks, rng.choice([s for s in range(seats) if stacks[s] > 0]), rng=rng)
    levels: list[int] = []  # the engine's current bet before each action
    while True:
        for viewer in (*hand.players, None):
            agrees(replay(events_for(hand, viewer)), hand, viewer)
        if hand.complete:
            break
        live = [s for s in hand.players if not hand.betting.folded[s] and s != hand.to_act]
        if live and len(hand.betting.live_seats()) > 2 and rng.random() < 0.05:
            hand.fold_out_of_turn(rng.choice(live))  # a player leaves mid-hand: no action, the seat folds
            continue
        levels.append(hand.betting.current_bet)
        hand.act(random_action(hand.legal(), rng))
    actions = replay(events_for(hand, None)).actions
    taken = [e for e in hand.events if isinstance(e, ActionTaken)]
    assert [(a.seat, a.kind, a.amount, a.to, a.allin) for a in actions] == [
        (e.seat, e.kind, e.amount, e.to, e.allin) for e in taken]
    for a, level in zip(actions, levels, strict=True):
        assert a.level_before == level and a.aggressive == (a.to > level)


def short_big_blind() -> Hand:
    """Three seats, blinds 10/20: seat 1 posts 10, seat 2 a short all-in big blind of 15; seat 0 (35 chips) to act."""
    rules = RuleSet(decks=2, seats=3, small_blind=10, big_blind=20)
    return Hand.start(rules, [35, 500, 15], 0, rng=random.Random(4))


def test_preflop_the_level_is_the_blind_posted_not_the_rules_big_blind() -> None:
    hand = short_big_blind()
    seen = replay(events_for(hand, None))
    assert seen.blinds == (BlindPost(1, 10, False), BlindPost(2, 15, True))
    assert seen.level == hand.betting.current_bet == 15
    hand.act(Action(ActionKind.ALLIN))  # to 35: above the 15 posted (and above the rules' 20)
    hand.act(Action(ActionKind.CALL))
    shove, call = replay(events_for(hand, None)).actions
    assert (shove.level_before, shove.to, shove.aggressive, shove.effect) == (15, 35, True, ActionKind.RAISE)
    assert (call.level_before, call.aggressive, call.effect) == (35, False, ActionKind.CALL)


def test_an_all_in_between_the_short_blind_and_the_big_blind_is_a_raise() -> None:
    """The case where the old walkers disagreed: 20 is a raise over the 15 posted, not a call of the big blind."""
    rules = RuleSet(decks=2, seats=3, small_blind=10, big_blind=20)
    hand = Hand.start(rules, [20, 500, 15], 0, rng=random.Random(4))
    hand.act(Action(ActionKind.ALLIN))
    shove = replay(events_for(hand, None)).actions[0]
    assert (shove.to, shove.level_before, shove.aggressive, shove.answerable) == (20, 15, True, True)


def test_later_streets_start_at_zero_and_an_all_in_there_is_a_bet() -> None:
    rules = RuleSet(decks=2, seats=2, small_blind=10, big_blind=20)
    hand = Hand.start(rules, [1000, 300], 0, rng=random.Random(1))
    hand.act(Action(ActionKind.CALL))
    hand.act(Action(ActionKind.CHECK))
    assert replay(events_for(hand, 1)).level == 0
    hand.act(Action(ActionKind.ALLIN))  # seat 1 acts first after the flop
    seen = replay(events_for(hand, 1))
    shove = seen.actions[-1]
    assert (shove.street, shove.level_before, shove.to, shove.effect) == (1, 0, 280, ActionKind.BET)
    assert isinstance(seen.steps[-1], StreetAction) and seen.level == 280


def test_an_all_in_over_players_all_in_already_is_answered_by_nobody() -> None:
    """Heads-up, the big blind is all in for 15 and the button shoves 20: the 5 over come back uncalled."""
    rules = RuleSet(decks=2, seats=2, small_blind=10, big_blind=20)
    hand = Hand.start(rules, [20, 15], 0, rng=random.Random(2))
    hand.act(Action(ActionKind.ALLIN))
    seen = replay(events_for(hand, None))
    shove = seen.actions[0]
    assert shove.aggressive and shove.rival_cap == 15 and not shove.answerable
    assert seen.complete and seen.end_stacks == hand.stacks


def test_the_replay_needs_the_hands_start() -> None:
    with pytest.raises(TaiwanPokerError) as err:
        replay([{"version": 0}, {"type": "blind_posted", "seat": 0, "amount": 10, "big": False}])
    assert err.value.code == "bad_event"
