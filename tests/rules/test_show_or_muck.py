"""Show or muck (issue 23; docs/rules.md, show or muck): who shows first, who may muck, what is always shown, and
that a mucked hand's cards never reach anyone."""

from __future__ import annotations

import json

import pytest

from taiwan_poker.errors import IllegalActionError
from taiwan_poker.rules import Hand, events_for, view
from taiwan_poker.rules.events import CardsShown, HandMucked, HandShown, ShowdownChoices
from tests.rules.helpers import make_hand, play

HOLES = [["As", "Ad"], ["Kh", "Kd"], ["2c", "7d"]]  # seat 0 (the button) wins; seats 1 and 2 cannot
BOARD = ["3s", "8h", "9c", "Td", "4s"]
CHECK_TO_RIVER = ["call", "call", "check", "check", "check", "check", "check", "check", "check"]


def three_way(river: list[str], show_or_muck: bool = True) -> Hand:
    hand = make_hand([2000] * 3, 0, HOLES, BOARD, show_or_muck=show_or_muck)
    return play(hand, CHECK_TO_RIVER + river)


def labels(obj: object) -> str:
    return json.dumps(obj)


def test_the_last_aggressor_on_the_river_shows_first() -> None:
    hand = three_way(["check", "bet 20", "call", "call"])  # seat 2 bets the river
    choices = next(e for e in hand.events if isinstance(e, ShowdownChoices))
    assert choices == ShowdownChoices(2, (1,)) and hand.first_shower == 2
    assert [e.seat for e in hand.shown] == [2, 0], "the bettor first, then the winner; seat 1 may muck"


def test_with_no_river_bet_the_first_player_left_of_the_button_shows_first() -> None:
    hand = three_way(["check", "check", "check"])
    assert next(e for e in hand.events if isinstance(e, ShowdownChoices)) == ShowdownChoices(1, (2,))
    assert [e.seat for e in hand.shown] == [1, 0]


def test_a_winner_always_shows_and_a_hand_that_cannot_win_may_be_mucked_or_shown() -> None:
    mucked = three_way(["check", "check", "check"])
    assert mucked.pending is not None and mucked.pending.seats == (2,) and not mucked.complete
    assert view(mucked, 2)["you"]["choice"] == "show" and "choice" not in view(mucked, 1)["you"]
    mucked.choose_show(2, False)
    assert mucked.complete and mucked.mucked == (2,) and HandMucked(2) in mucked.events
    assert mucked.stacks == (2040, 1980, 1980)
    shown = three_way(["check", "check", "check"])
    shown.choose_show(2, True)
    assert shown.complete and [e.seat for e in shown.shown] == [1, 0, 2] and not shown.mucked
    with pytest.raises(IllegalActionError):
        shown.choose_show(2, True)


def test_when_the_window_closes_every_hand_still_to_choose_is_mucked() -> None:
    hand = three_way(["check", "bet 20", "call", "call"])
    events = hand.close_choices()
    assert events[0] == HandMucked(1) and hand.complete and hand.mucked == (1,)


def test_a_mucked_hands_cards_reach_no_view_and_no_event_stream() -> None:
    hand = three_way(["check", "check", "check"])
    hand.choose_show(2, False)
    secret = [c.label for c in hand.hole_cards(2)]
    for seat in (0, 1, None):
        for payload in (view(hand, seat), events_for(hand, seat)):
            assert not any(card in labels(payload) for card in secret), f"seat {seat} got a mucked card"
    assert all(card in labels(view(hand, 2)) for card in secret), "the mucker still sees their own cards"
    assert view(hand, 0)["seats"][2].get("mucked") is True and "shown" not in view(hand, 0)["seats"][2]


def test_an_all_in_showdown_shows_every_hand_as_the_tda_rules_do() -> None:
    hand = make_hand([2000] * 3, 0, HOLES, BOARD, show_or_muck=True)
    play(hand, ["allin", "call", "fold"])
    assert hand.complete and not any(isinstance(e, ShowdownChoices) for e in hand.events)
    assert [e.seat for e in hand.shown] == [1, 0], "every hand in an all-in is tabled, the loser's too"


def test_without_the_option_every_hand_still_in_is_shown_as_before() -> None:
    hand = three_way(["check", "check", "check"], show_or_muck=False)
    assert hand.complete and [e.seat for e in hand.shown] == [1, 2, 0]
    assert not any(isinstance(e, ShowdownChoices | HandMucked) for e in hand.events)


def test_the_winner_of_an_uncontested_pot_may_show_one_or_both_cards_after_the_hand() -> None:
    hand = make_hand([2000] * 3, 0, HOLES, BOARD)
    play(hand, ["raise 60"])
    with pytest.raises(IllegalActionError):
        hand.show_cards(0, [0])  # not before the hand is over
    play(hand, ["fold", "fold"])
    assert view(hand, 0)["you"]["may_show"] is True and "may_show" not in view(hand, 1)["you"]
    with pytest.raises(IllegalActionError):
        hand.show_cards(1, [0])
    assert hand.show_cards(0, [1]) == [CardsShown(0, (hand.hole_cards(0)[1],))]  # type: ignore[list-item]
    ad = hand.hole_cards(0)[1].label  # type: ignore[union-attr]
    assert view(hand, None)["seats"][0]["showed"] == [ad] and hand.hole_cards(0)[0].label not in labels(  # type: ignore[union-attr]
        view(hand, 2))
    hand.show_cards(0, [0])
    assert len(view(hand, 1)["seats"][0]["showed"]) == 2
    assert hand.show_cards(0, [0, 1]) == [], "showing what is shown already changes nothing"
    for bad in ([], [2], [0, 0]):
        with pytest.raises(IllegalActionError):
            hand.show_cards(0, bad)


def test_a_showdowns_winner_cannot_show_cards_afterwards() -> None:
    hand = three_way(["check", "check", "check"])
    hand.choose_show(2, False)
    with pytest.raises(IllegalActionError):
        hand.show_cards(0, [0])
    assert all(isinstance(e, HandShown) for e in hand.shown)
