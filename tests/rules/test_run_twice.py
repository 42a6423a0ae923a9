"""Running it twice (issue 23; docs/rules.md, run it twice): when nobody can bet any more before the river and
every player still in agrees, the rest of the board is dealt twice from the same shoe and each pot is halved."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.errors import IllegalActionError, TaiwanPokerError
from taiwan_poker.rules import ALLIN, CALL, ActionKind, BurnSchedule, Hand, RuleSet, adjudicate, events_for, view
from taiwan_poker.rules.events import (
    BoardDealt,
    DealerBurn,
    PrivateBurn,
    PrivateCards,
    RunsChosen,
    RunsOffered,
    SecondBoard,
    ShoeDrawn,
    visible_to,
)
from taiwan_poker.rules.simulate import random_action
from tests.rules.helpers import make_hand, play

LABEL = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][shdc]:[1-8](?![0-9])")

# seat 0 (the button) all in for 1000, the small blind (5) folds, the big blind calls: 2,005 chips, an odd pot
ODD = {"stacks": [1000, 1000, 1000], "blinds": (5, 10), "holes": [["As", "Ad"], [], ["Kh", "Kd"]]}


def odd_pot_hand(board: list[str], board2: list[str]) -> Hand:
    hand = make_hand(ODD["stacks"], 0, ODD["holes"], board, blinds=ODD["blinds"], board2=board2, run_twice=True)
    return play(hand, ["allin", "fold", "call"])


def test_an_all_in_before_the_river_asks_every_player_still_in_and_deals_nothing_meanwhile() -> None:
    hand = odd_pot_hand(["2c", "7h", "9s", "Tc", "3d"], ["Kc", "4s", "5h", "8c", "Jd"])
    assert hand.pending is not None and hand.pending.kind == "runs" and hand.pending.seats == (0, 2)
    assert isinstance(hand.events[-1], RunsOffered) and hand.board == () and hand.to_act is None
    with pytest.raises(IllegalActionError):
        hand.answer_runs(1, True)  # the folded small blind is not asked
    hand.answer_runs(0, True)
    assert hand.pending is not None and hand.pending.seats == (2,) and hand.runs == 0


def test_two_runs_halve_the_pot_the_first_run_taking_the_odd_chip() -> None:
    hand = odd_pot_hand(["2c", "7h", "9s", "Tc", "3d"], ["Kc", "4s", "5h", "8c", "Jd"])
    for seat in (0, 2):
        hand.answer_runs(seat, True)
    assert hand.complete and hand.runs == 2
    assert [(p.amount, p.winners) for p in hand.pots] == [(1003, (0,)), (1002, (2,))]
    assert hand.pot_runs == [1, 2] and hand.stacks == (1003, 995, 1002)
    assert [c.face_str for c in hand.board2] == ["Kc", "4s", "5h", "8c", "Jd"]
    assert {e.seat: e.category.value for e in hand.shown2} == {0: "one_pair", 2: "three_of_a_kind"}


def test_a_tie_in_one_run_splits_that_runs_half_by_the_odd_chip_rule() -> None:
    hand = odd_pot_hand(["Ts", "Jh", "Qd", "Kc", "Ac"], ["2c", "7h", "9s", "3d", "4c"])
    for seat in (0, 2):
        hand.answer_runs(seat, True)
    assert [(p.amount, p.winners, p.shares) for p in hand.pots] == [(1003, (0, 2), (501, 502)), (1002, (0,), (1002,))]
    assert hand.stacks == (1503, 995, 502), "the first winner clockwise from the button takes the odd chip"


def test_a_decline_deals_the_board_once() -> None:
    hand = odd_pot_hand(["2c", "7h", "9s", "Tc", "3d"], [])
    hand.answer_runs(2, False)
    assert hand.complete and hand.runs == 1 and hand.board2 == () and len(hand.pots) == 1
    assert hand.stacks == (2005, 995, 0)


def test_when_the_window_closes_unanswered_the_board_is_dealt_once() -> None:
    hand = odd_pot_hand(["2c", "7h", "9s", "Tc", "3d"], [])
    hand.answer_runs(0, True)
    events = hand.close_choices()
    assert events[0] == RunsChosen(1) and hand.complete and hand.runs == 1


def test_an_all_in_on_the_flop_runs_the_turn_and_river_twice() -> None:
    hand = make_hand([1000, 1000], 0, [["As", "Ad"], ["Kh", "Kd"]], ["2c", "7h", "9s", "Tc", "3d"],
                     board2=["Kc", "4s"], split=3, run_twice=True)
    play(hand, ["call", "check", "bet 20", "allin", "call"])
    assert hand.street.value == "flop" and hand.pending is not None
    for seat in hand.pending.seats:
        hand.answer_runs(seat, True)
    assert [c.face_str for c in hand.board2] == ["2c", "7h", "9s", "Kc", "4s"], "the flop is shared"
    assert hand.stacks == (1000, 1000)


def test_each_run_deals_from_the_same_shoe_in_order_after_a_dealer_burn() -> None:
    rules = RuleSet(decks=2, seats=3, run_twice=True)
    for seed in range(60):
        hand = Hand.start(rules, [500, 500, 500], 0, rng=random.Random(seed))
        while not hand.complete and hand.pending is None:
            hand.act(ALLIN if hand.legal().allows(ActionKind.ALLIN) else CALL)
        if hand.pending is None or len(hand.players) != 3 or len(hand.betting.live_seats()) != 3:
            continue
        for seat in hand.pending.seats:
            hand.answer_runs(seat, True)
        shoe = next(e for e in hand.events if isinstance(e, ShoeDrawn)).cards
        n = 3
        run2 = [e for e in hand.events if isinstance(e, SecondBoard)]
        burns = [e for e in hand.events if isinstance(e, DealerBurn)]
        assert [c for e in run2 for c in e.cards] == [shoe[3 * n + 9], shoe[3 * n + 10], shoe[3 * n + 11],
                                                        shoe[3 * n + 13], shoe[3 * n + 15]]
        assert [e.card for e in burns] == [shoe[3 * n], shoe[3 * n + 4], shoe[3 * n + 6], shoe[3 * n + 8],
                                           shoe[3 * n + 12], shoe[3 * n + 14]]
        assert hand.cards_used == 3 * n + 16 == len(shoe)
        return
    raise AssertionError("no three-way all-in preflop in 60 deals")


@st.composite
def run_twice_tables(draw: st.DrawFn) -> tuple[RuleSet, list[int], int, int]:
    seats = draw(st.integers(2, 9))
    decks = draw(st.integers(1, 8))
    burns = BurnSchedule.ONCE_PER_HAND
    if RuleSet(decks=8, seats=seats, burns=BurnSchedule.EVERY_STREET, run_twice=True).cards_per_hand <= 52 * decks \
            and draw(st.booleans()):
        burns = BurnSchedule.EVERY_STREET
    if RuleSet(decks=8, seats=seats, burns=burns, run_twice=True).cards_per_hand > 52 * decks:
        decks = 8
    rules = RuleSet(decks=decks, seats=seats, small_blind=5, big_blind=10, burns=burns, run_twice=True,
                    straddle=draw(st.booleans()))
    stacks = draw(st.lists(st.integers(0, 400), min_size=seats, max_size=seats))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0], stacks[-1] = 300, 200
    button = draw(st.sampled_from([s for s in range(seats) if stacks[s] > 0]))
    return rules, stacks, button, draw(st.integers(0, 2**32))


def dealt_cards(hand: Hand) -> list[object]:
    """Every card taken from the shoe: private burns, hole cards, dealer burns, both runs' boards."""
    out: list[object] = []
    for e in hand.events:
        if isinstance(e, PrivateCards):
            out += [e.burn, *e.hole]
        elif isinstance(e, PrivateBurn | DealerBurn):
            out.append(e.card)
        elif isinstance(e, BoardDealt | SecondBoard):
            out += list(e.cards)
    return out


@settings(max_examples=300, deadline=None)
@given(run_twice_tables(), st.data())
def test_running_it_twice_conserves_chips_deals_no_card_twice_shows_both_boards_and_hides_the_rest(
        table: tuple[RuleSet, list[int], int, int], data: st.DataObject) -> None:
    rules, stacks, button, seed = table
    rng = random.Random(seed)
    hand = Hand.start(rules, stacks, button, rng=rng)
    while not hand.complete:
        pending = hand.pending
        if pending is None:
            hand.act(random_action(hand.legal(), rng))
        else:
            hand.answer_runs(pending.seats[0], data.draw(st.booleans(), label="agree") or rng.random() < 0.8)
    assert sum(hand.stacks) == sum(stacks), "chips in = chips out, both runs"
    assert sum(p.amount for p in hand.pots) == hand.pot
    cards = dealt_cards(hand)
    assert max(Counter(cards).values()) == 1, "no physical card dealt twice, across both runs"
    assert len(cards) == hand.cards_used
    board, board2 = [c.label for c in hand.board], [c.label for c in hand.board2]
    if hand.runs == 2:
        shared = 5 - sum(len(e.cards) for e in hand.events if isinstance(e, SecondBoard))
        assert len(board2) == 5 and board2[:shared] == board[:shared] and not set(board2[shared:]) & set(board)
    shown = {c.label for e in hand.shown for c in (*e.hole, *e.best)} | {c.label for e in hand.shown2 for c in e.best}
    for seat in [*hand.players, None]:
        v = view(hand, seat)
        assert v["board"] == board and v.get("board2", []) == (board2 if hand.runs == 2 else [])
        own = {c.label for c in (*hand.hole_cards(seat), *hand.private_burns(seat))} if seat is not None else set()
        seen = set(LABEL.findall(json.dumps(v)))
        assert seen <= set(board) | set(board2) | shown | own, f"seat {seat} sees {seen - set(board) - shown - own}"
        for e, ev in zip(events_for(hand, seat), hand.events, strict=True):
            if not visible_to(ev, seat):
                assert set(e) == {"version"}


def test_adjudicate_runs_it_twice_only_when_asked_and_answers_as_before_otherwise() -> None:
    base = {"decks": 1, "blinds": [5, 10], "stacks": [1000, 1000, 1000], "button": 0,
            "hole_cards": [["As", "Ad"], ["2h", "3h"], ["Kh", "Kd"]], "board": ["2c", "7h", "9s", "Tc", "3d"],
            "actions": ["allin", "fold", "call"]}
    once = adjudicate(base)
    assert "runs" not in once and once == adjudicate({**base, "run_twice": False})
    assert once["final_stacks"] == [2005, 995, 0]
    twice = adjudicate({**base, "run_twice": True, "board2": ["Kc", "4s", "5h", "8c", "Jd"]})
    assert twice["runs"] == 2 and twice["final_stacks"] == [1003, 995, 1002]
    assert twice["pots"] == [{"amount": 1003, "eligible": [0, 2], "winners": [0], "run": 1},
                             {"amount": 1002, "eligible": [0, 2], "winners": [2], "run": 2}]
    assert twice["board2"] == ["Kc", "4s", "5h", "8c", "Jd"] and [s["seat"] for s in twice["showdown2"]] == [0, 2]
    assert adjudicate({**base, "run_twice": True, "actions": ["fold", "fold"]})["runs"] == 1
    for bad, code in (({"board2": ["Kc"]}, "bad_json"), ({"run_twice": True, "board2": ["Kc", "4s"]}, "bad_card")):
        with pytest.raises(TaiwanPokerError) as info:
            adjudicate({**base, **bad})
        assert info.value.code == code
    with pytest.raises(TaiwanPokerError) as info:
        adjudicate({**base, "run_twice": True})
    assert info.value.code == "missing_cards", "the second run's cards are needed once the board is run twice"
