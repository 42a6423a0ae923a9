"""Strong's heads-up river re-solve (:mod:`taiwan_poker.strategy.river`, ``Params.resolve.river``): where it plays,
the spot it solves, legal and deterministic answers, and the nuts and the worst hand facing a bet."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from itertools import combinations

import numpy as np
import pytest

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.cards import Card
from taiwan_poker.evaluate import rank_batch
from taiwan_poker.rules.actions import Action, ActionKind
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker.strategy.params import SHIPPED, Params, ResolveParams
from taiwan_poker.strategy.policy import strategy
from taiwan_poker.strategy.range_read import in_position
from taiwan_poker.strategy.river import applies, spot_of
from taiwan_poker.strategy.seat import SeatView
from taiwan_poker_lab.arena import duplicate_heads_up, duplicate_ring
from tests.strategy.strong_spots import Policy, strong_after_flop

ON = replace(SHIPPED, resolve=replace(SHIPPED.resolve, river=True))
OFF = replace(SHIPPED, resolve=replace(SHIPPED.resolve, river=False))


@cache
def views() -> tuple[SeatView, ...]:
    """Strong's decisions after the flop in short duplicate matches: heads-up (2 and 6 decks) and six-handed."""

    def play(watched: Policy) -> None:
        for decks in (2, 6):
            duplicate_heads_up(RuleSet(decks=decks, seats=2), watched, policy_of("solid"), 60, seed=decks)
        duplicate_ring(RuleSet(decks=6, seats=6), watched, policy_of("beginner"), 1, seed=3)

    return tuple(strong_after_flop(play))


def heads_up_river() -> list[SeatView]:
    return [v for v in views() if v.street == 3 and len(v.live) == 2]


def legal(v: SeatView, a: Action) -> bool:
    if not v.can(a.kind):
        return False
    return a.to is None or v.min_to <= a.to <= v.max_to


def test_heads_up_river_decisions_are_re_solved_legal_and_deterministic() -> None:
    river = heads_up_river()
    assert len(river) > 15 and any(v.call_amount > 0 for v in river) and any(v.call_amount == 0 for v in river)
    for v in river:
        s = strategy(v, ON)
        assert s.source == "resolve" and applies(v, ON) and not applies(v, OFF)
        assert sum(p for _, p in s.choices) == pytest.approx(1.0)
        assert all(legal(v, a) for a, _ in s.choices), (v.actions, s.choices)
        assert strategy(v, ON).choices == s.choices
        assert strategy(v, OFF).source == "postflop"


def test_earlier_streets_and_multi_way_rivers_keep_the_rules() -> None:
    others = [v for v in views() if v.street < 3 or len(v.live) > 2]
    assert any(len(v.live) > 2 and v.street == 3 for v in others) and any(v.street < 3 for v in others)
    for v in others:
        assert not applies(v, ON)
        assert strategy(v, ON).choices == strategy(v, OFF).choices


def test_the_solved_spot_is_the_seats_view() -> None:
    """Pot before the street, the street's bets, stacks and bets made as the view has them, player 0 the first to
    act on the river; the root's call puts in what the view must call."""
    from taiwan_poker.strategy.resolve import build_tree

    for v in heads_up_river():
        spot, other = spot_of(v)
        me = spot.actor
        last = in_position(v.seat, v.button, v.live, len(v.stacks))
        assert me == int(last) and other in v.live and other != v.seat
        assert spot.pot + sum(spot.bets) == v.pot
        assert spot.bets[me] == v.bets[v.seat] and spot.bets[1 - me] == v.bets[other]
        assert spot.stacks[me] == v.stack and spot.stacks[1 - me] == v.stacks[other]
        assert spot.bets_made == v.raises_on(3) and spot.board == tuple(c.index for c in v.board)
        tree = build_tree(spot)
        if v.call_amount > 0:
            assert tree.labels[0][:2] == ("fold", f"call {tree.amounts[0][1]:.4g}")
            assert tree.amounts[0][1] == min(v.call_amount, v.stack)
        else:
            assert tree.labels[0][0] == "check"


def _extreme_holes(v: SeatView) -> tuple[tuple[Card, Card], tuple[Card, Card]]:
    """The best and the worst two cards the seat could hold here (unseen physical cards)."""
    seen = {c.index for c in (*v.board, *v.burns)}
    cards = [i for i in range(52 * v.decks) if i not in seen]
    pairs = np.array(list(combinations(cards, 2)), dtype=np.int64)
    board = np.array([c.index for c in v.board], dtype=np.int64)
    rows = np.concatenate([pairs, np.broadcast_to(board, (len(pairs), 5))], axis=1)
    value = rank_batch(rows.astype(np.int16))
    best, worst = pairs[int(np.argmax(value))], pairs[int(np.argmin(value))]
    return ((Card.from_index(int(best[0])), Card.from_index(int(best[1]))),
            (Card.from_index(int(worst[0])), Card.from_index(int(worst[1]))))


def test_facing_a_bet_the_nuts_do_not_fold_and_the_worst_hand_mostly_does() -> None:
    facing = [v for v in heads_up_river() if v.call_amount > 0 and v.can(ActionKind.FOLD)]
    assert len(facing) >= 4
    for v in facing:
        best, worst = _extreme_holes(v)
        strong = strategy(replace(v, hole=best), ON).choices
        weak = strategy(replace(v, hole=worst), ON).choices
        assert sum(p for a, p in strong if a.kind is ActionKind.FOLD) < 0.01, strong
        assert sum(p for a, p in weak if a.kind is ActionKind.FOLD) > 0.5, weak


def test_the_parameters_choose_the_solver_settings() -> None:
    """The temperature is read: a colder solve leaves the same spot's answer less mixed (lower entropy)."""
    river = [v for v in heads_up_river() if v.call_amount == 0]

    def entropy(p: Params) -> float:
        total = 0.0
        for v in river:
            probs = np.array([x for _, x in strategy(v, p).choices])
            total += float(-(probs * np.log(np.maximum(probs, 1e-300))).sum())
        return total

    cold = replace(ON, resolve=ResolveParams(river=True, temperature=0.03, step=1.0, iterations=150))
    assert entropy(cold) < 0.8 * entropy(ON)


def test_a_folded_seats_chips_on_the_river_stay_in_the_pot() -> None:
    """Three saw the river, one bet 50 and folded to a raise: its 50 are in the pot the two left play for."""
    v = heads_up_river()[0]
    third = replace(v, bets=(*v.bets, 50), stacks=(*v.stacks, 100), pot=v.pot + 50)
    assert spot_of(third)[0].pot == spot_of(v)[0].pot + 50
    assert spot_of(third)[0].bets == spot_of(v)[0].bets


def test_the_prior_by_kind_is_read() -> None:
    """With no bet to call, the prior by kind leaves more checks than the uniform prior (four sizes of bet)."""
    river = [v for v in heads_up_river() if v.call_amount == 0]
    kinds = replace(ON, resolve=replace(ON.resolve, by_kind=True))
    uniform = replace(ON, resolve=replace(ON.resolve, by_kind=False))

    def checks(p: Params) -> float:
        return sum(x for v in river for a, x in strategy(v, p).choices if a.kind is ActionKind.CHECK) / len(river)

    assert checks(kinds) > checks(uniform) + 0.05
