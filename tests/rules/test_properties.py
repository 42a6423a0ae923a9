"""Property tests over random hands and matches with random legal actions (2–9 seats, 1–8 decks)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.rules import (
    Action,
    ActionKind,
    BadActionError,
    BurnSchedule,
    Hand,
    IllegalActionError,
    Legal,
    RuleSet,
    Structure,
    cards_needed,
)
from taiwan_poker.rules.events import AUDIENCE, Audience, ShoeDrawn, visible_to
from taiwan_poker.rules.match import Match
from taiwan_poker.rules.simulate import play_match, random_action
from taiwan_poker.rules.views import events_for, view


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, list[int], int, int]:
    seats = draw(st.integers(2, 9))
    decks = draw(st.integers(1, 8))
    burns = BurnSchedule.ONCE_PER_HAND
    if cards_needed(seats, BurnSchedule.EVERY_STREET) <= 52 * decks and draw(st.booleans()):
        burns = BurnSchedule.EVERY_STREET
    structure = draw(st.sampled_from(list(Structure)))
    sb = draw(st.integers(1, 20))
    bb = draw(st.integers(sb, 40))
    rules = RuleSet(decks=decks, seats=seats, small_blind=sb, big_blind=bb, structure=structure, burns=burns)
    stacks = draw(st.lists(st.integers(0, 3000), min_size=seats, max_size=seats))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0], stacks[-1] = 500, 700
    button = draw(st.sampled_from([s for s in range(seats) if stacks[s] > 0]))
    return rules, stacks, button, draw(st.integers(0, 2**32))


def illegal_candidates(legal: Legal) -> list[Action]:
    """Actions that the legal options exclude."""
    out = [Action(k) for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.ALLIN)
           if k not in legal.actions]
    sized = [k for k in (ActionKind.BET, ActionKind.RAISE) if k in legal.actions]
    for k in (ActionKind.BET, ActionKind.RAISE):
        if k not in sized:
            out.append(Action(k, legal.allin_to + 1))
    for k in sized:
        out.append(Action(k, legal.max_to + 1))
        if legal.min_to - 1 != legal.allin_to:
            out.append(Action(k, legal.min_to - 1))
    return out


def card_ids(hand: Hand) -> list[object]:
    shoe = next(e for e in hand.events if isinstance(e, ShoeDrawn))
    return list(shoe.cards)


@settings(max_examples=400)
@given(tables())
def test_random_hands_conserve_chips_deal_each_card_once_accept_legal_refuse_illegal(
    table: tuple[RuleSet, list[int], int, int],
) -> None:
    """Chips are conserved at every step; no physical card twice; 3n+8 cards to the river (once-per-hand);
    every offered action is accepted, every other refused with the state unchanged."""
    rules, stacks, button, seed = table
    rng = random.Random(seed)
    hand = Hand.start(rules, stacks, button, rng=rng)
    total = sum(stacks)
    cards = card_ids(hand)
    assert len(cards) == len(set(cards)) == cards_needed(len(hand.players), rules.burns)
    step = 0
    while not hand.complete:
        b = hand.betting
        assert sum(b.stacks) + sum(b.contrib) == total
        legal = hand.legal()
        if step % 3 == 0:
            before = hand.snapshot()
            for bad in illegal_candidates(legal):
                try:
                    hand.act(bad)
                except (IllegalActionError, BadActionError):
                    pass
                else:  # pragma: no cover
                    raise AssertionError(f"{bad} accepted though not legal: {legal}")
            assert hand.snapshot() == before
        hand.act(random_action(legal, rng))
        step += 1
    assert sum(hand.stacks) == total
    assert sum(p.amount for p in hand.pots) == sum(hand.betting.contrib)  # contributions net of returned chips
    if len(hand.board) == 5 and rules.burns is BurnSchedule.ONCE_PER_HAND:
        assert hand.cards_used == 3 * len(hand.players) + 8


@settings(max_examples=100)
@given(tables())
def test_json_round_trip_and_replay_reproduce_the_state(table: tuple[RuleSet, list[int], int, int]) -> None:
    """State and event log serialise to JSON and back; replaying the events reproduces the state, mid-hand too."""
    rules, stacks, button, seed = table
    rng = random.Random(seed)
    hand = Hand.start(rules, stacks, button, rng=rng)
    twin: Hand | None = None  # restored from JSON after the first action, then played on in step
    while True:
        restored = Hand.from_json(json.loads(json.dumps(hand.to_json())))
        assert restored.snapshot() == hand.snapshot()
        assert Hand.from_events(rules, hand.events).snapshot() == hand.snapshot()
        if twin is not None:
            assert twin.snapshot() == hand.snapshot()
        if hand.complete:
            break
        action = random_action(hand.legal(), rng)
        hand.act(action)
        if twin is None:
            twin = restored
        twin.act(action)


@settings(max_examples=200)
@given(tables(), st.data())
def test_views_hold_no_card_their_seat_may_not_see(
    table: tuple[RuleSet, list[int], int, int], data: st.DataObject,
) -> None:
    """Non-interference: changing every card a seat may not see (others' hole cards and burns, dealer burns,
    undealt cards) leaves that seat's view and event stream unchanged until the showdown; a private burn
    appears only in its owner's view; the spectator sees only public events."""
    rules, stacks, button, seed = table
    if rules.burns is not BurnSchedule.ONCE_PER_HAND:
        rules = RuleSet(decks=rules.decks, seats=rules.seats, small_blind=rules.small_blind,
                        big_blind=rules.big_blind, structure=rules.structure)
    rng = random.Random(seed)
    hand = Hand.start(rules, stacks, button, rng=rng)
    players = list(hand.players)
    seat = data.draw(st.sampled_from([*players, None]))
    deck = list(card_ids(hand))
    n = len(players)
    order = [s for s in ((button + 1 + i) % rules.seats for i in range(rules.seats)) if s in players]
    visible: set[int] = set()
    if seat is not None:
        i = order.index(seat)
        visible |= {i, n + i, 2 * n + i}
    board_pos = [3 * n + 1, 3 * n + 2, 3 * n + 3, 3 * n + 5, 3 * n + 7]
    visible |= set(board_pos)
    hidden = [p for p in range(len(deck)) if p not in visible]
    values = [deck[p] for p in hidden]
    rng.shuffle(values)
    other = list(deck)
    for p, v in zip(hidden, values, strict=True):
        other[p] = v
    twin = Hand.start(rules, stacks, button, cards=other)  # type: ignore[arg-type]
    while True:
        if not (hand.complete and hand.shown):
            assert view(hand, seat) == view(twin, seat)
            assert events_for(hand, seat) == events_for(twin, seat)
        for s in players:
            v = view(hand, s)
            assert v["you"]["burns"] == [c.label for c in hand.private_burns(s)]
        spectator = view(hand, None)
        assert "you" not in spectator
        for e in events_for(hand, None):
            assert set(e) == {"version"} or e["type"] not in ("private_cards", "shoe_drawn", "dealer_burn")
        for ev in hand.events:
            if AUDIENCE[type(ev)] is Audience.NOBODY:
                assert all(not visible_to(ev, s) for s in [*players, None])
        if hand.complete:
            break
        action = random_action(hand.legal(), rng)
        hand.act(action)
        twin.act(action)
    shown = {e.seat for e in hand.shown}
    for s in players:
        v = view(hand, s)
        for entry in v["seats"]:
            assert ("shown" in entry) == (entry["seat"] in shown)


@settings(max_examples=80)
@given(st.integers(2, 9), st.integers(1, 8), st.integers(0, 2**32), st.integers(30, 300))
def test_random_matches_conserve_chips_rotate_button_and_end_with_one_player(
    seats: int, decks: int, seed: int, stack: int,
) -> None:
    """Match: stacks carry over, the button moves to the next seat with chips, busted players sit out,
    the match ends when one player holds every chip; chips conserved; JSON replay reproduces it."""
    rules = RuleSet(decks=decks, seats=seats, starting_stack=stack, small_blind=10, big_blind=20)
    rng = random.Random(seed)
    match = Match(rules, rng)
    play_match(match, rng, max_hands=400)
    total = stack * seats
    prev_button = None
    prev_stacks = list(match.initial_stacks)
    for hand in match.hands:
        assert sum(hand.stacks) == total
        assert list(hand.initial_stacks) == prev_stacks
        assert hand.players == tuple(s for s in range(seats) if prev_stacks[s] > 0)
        if prev_button is not None:
            expected = next((prev_button + i) % seats for i in range(1, seats + 1)
                            if prev_stacks[(prev_button + i) % seats] > 0)
            assert hand.button == expected
        prev_button, prev_stacks = hand.button, list(hand.stacks)
    if match.over:
        assert sorted(match.stacks)[-1] == total and match.winner is not None
    restored = Match.from_json(json.loads(json.dumps(match.to_json())), rng=random.Random(1))
    assert [h.snapshot() for h in restored.hands] == [h.snapshot() for h in match.hands]
    assert restored.stacks == match.stacks and restored.button == match.button
