"""Views (information hiding), event audiences, matches, and adjudication replaying simulated hands."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.rules import ActionKind, Hand, IllegalActionError, RuleSet, parse_action
from taiwan_poker.rules.adjudicate import adjudicate
from taiwan_poker.rules.events import ActionTaken
from taiwan_poker.rules.match import Match, MatchOverError
from taiwan_poker.rules.simulate import play_match, play_out, random_action
from taiwan_poker.rules.views import events_for, view

from .helpers import make_hand, play


def _all_cards(obj: object) -> list[str]:
    """Every card in a view, as its face (views write labels with the deck: ``Qc:1``)."""
    text = json.dumps(obj)
    words = [w.strip('"').split(":")[0] for w in text.replace("[", " ").replace("]", " ").replace(",", " ").split()]
    return [w for w in words if len(w) == 2 and w[1] in "shdc" and w[0] in "23456789TJQKA"]


def test_view_shows_own_burn_and_hole_cards_only() -> None:
    """000 §02/§私人牌: a seat sees its own private burn and hole cards, never an opponent's before showdown."""
    rules = RuleSet(decks=1, seats=3)
    hand = Hand.start(rules, [1000] * 3, 0, rng=random.Random(3))
    for seat in range(3):
        v = view(hand, seat)
        assert v["you"]["hole"] == [c.label for c in hand.hole_cards(seat)]
        assert v["you"]["burns"] == [c.label for c in hand.private_burns(seat)]
        others = {c.face_str for s in range(3) if s != seat for c in (*hand.hole_cards(s), *hand.private_burns(s))}
        assert not others & set(_all_cards(v))
    spectator = view(hand, None)
    assert "you" not in spectator and _all_cards(spectator) == []


def test_showdown_reveals_hole_cards_but_never_private_burns() -> None:
    """000 §02: burns are never shown, even after the showdown; shown hands are public."""
    rules = RuleSet(decks=1, seats=2)
    hand = Hand.start(rules, [500, 500], 0, rng=random.Random(11))
    play(hand, ["allin", "call"])
    assert hand.complete and len(hand.shown) == 2
    for seat in (0, 1, None):
        v = view(hand, seat)
        assert all("shown" in e for e in v["seats"])
        other_burns = {c.face_str for s in (0, 1) if s != seat for c in hand.private_burns(s)}
        shown_faces = {c.face_str for s in (0, 1) for c in hand.hole_cards(s)} | {c.face_str for c in hand.board}
        assert not (other_burns - shown_faces) & set(_all_cards(v))


def test_event_stream_hides_private_content_keeps_versions_gap_free() -> None:
    """lichess model: outside its audience an event is only a version number; versions have no gaps."""
    rules = RuleSet(decks=2, seats=2)
    hand = Hand.start(rules, [2000, 2000], 0, rng=random.Random(1))
    play(hand, ["call", "check"])
    for seat in (0, 1, None):
        stream = events_for(hand, seat)
        assert [e["version"] for e in stream] == list(range(hand.version))
        kinds = [e.get("type") for e in stream]
        assert "shoe_drawn" not in kinds and "dealer_burn" not in kinds
        private = [e for e in stream if e.get("type") == "private_cards"]
        assert [e["seat"] for e in private] == ([] if seat is None else [seat])
    assert events_for(hand, 0, since=3) == events_for(hand, 0)[3:]


def test_view_lists_legal_options_for_the_seat_to_act_only() -> None:
    """Views: only the seat to act gets its legal options (call amount, min/max raise-to)."""
    hand = make_hand([2000, 2000], 0)
    assert view(hand, 0)["legal"]["min_raise_to"] == 40
    assert "legal" not in view(hand, 1)


def test_heads_up_match_button_alternates_and_ends_when_a_player_has_no_chips() -> None:
    """000: the button moves every hand; a heads-up match ends as soon as either player has no chips."""
    rules = RuleSet(decks=2, seats=2, starting_stack=200)
    rng = random.Random(9)
    match = Match(rules, rng)
    play_match(match, rng)
    assert match.over and match.winner is not None and sorted(match.stacks) == [0, 400]
    buttons = [h.button for h in match.hands]
    assert all(a != b for a, b in itertools.pairwise(buttons))
    with pytest.raises(MatchOverError):
        match.start_hand()


def test_match_refuses_a_new_hand_while_one_is_running_and_acting_out_of_turn() -> None:
    """Match/verify: no new hand before the current one ends; a seat acting out of turn is refused."""
    rules = RuleSet(decks=2, seats=3)
    match = Match(rules, random.Random(2))
    hand = match.start_hand()
    with pytest.raises(MatchOverError):
        match.start_hand()
    wrong = (hand.to_act + 1) % 3  # type: ignore[operator]
    with pytest.raises(IllegalActionError):
        hand.act(parse_action("call"), seat=wrong)


def _word(ev: ActionTaken) -> str:
    return f"{ev.kind.value} {ev.to}" if ev.kind in (ActionKind.BET, ActionKind.RAISE) else ev.kind.value


@settings(max_examples=60)
@given(st.integers(2, 9), st.integers(0, 2**32), st.sampled_from(["no-limit", "pot-limit", "limit"]))
def test_adjudicating_a_simulated_hand_reproduces_it(seats: int, seed: int, structure: str) -> None:
    """Adjudication agrees with the engine: the full action list gives the same stacks and pots; every
    prefix gives the same seat to act and legal options."""
    rng = random.Random(seed)
    rules = RuleSet(decks=2, seats=seats, structure=structure)  # type: ignore[arg-type]
    stacks = [rng.randint(1, 3000) for _ in range(seats)]
    button = rng.randrange(seats)
    hand = Hand.start(rules, stacks, button, rng=rng)
    request = {
        "decks": 2, "structure": structure, "stacks": stacks, "button": button,
        "hole_cards": [[c.face_str for c in hand.hole_cards(s)] for s in range(seats)],  # type: ignore[union-attr]
    }
    legal_at: list[dict[str, object]] = []
    while not hand.complete:
        legal = hand.legal()
        legal_at.append({"to_act": hand.to_act, "legal": legal.to_json(), "pot": hand.pot})
        hand.act(random_action(legal, rng))
    request["board"] = [c.face_str for c in hand.board]
    words = [_word(e) for e in hand.events if isinstance(e, ActionTaken)]
    out = adjudicate({**request, "actions": words})
    assert out["final_stacks"] == list(hand.stacks)
    assert [p["amount"] for p in out["pots"]] == [p.amount for p in hand.pots]
    for i, expected in enumerate(legal_at):
        now = adjudicate({**request, "actions": words[:i]})
        assert {k: now[k] for k in ("to_act", "legal", "pot")} == expected


def test_random_hand_play_out_helper_finishes() -> None:
    """Nine seats, one deck (35 of 52 cards at most): a random hand finishes with chips conserved."""
    rng = random.Random(4)
    hand = play_out(Hand.start(RuleSet(decks=1, seats=9), [100] * 9, 3, rng=rng), rng)
    assert hand.complete and sum(hand.stacks) == 900
