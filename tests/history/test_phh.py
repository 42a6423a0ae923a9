"""PHH export: pokerkit reads every exported hand and replays it to the same final stacks; hidden cards stay ????."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pokerkit import HandHistory

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.cards import Card
from taiwan_poker.history.phh import hand_phh, match_phh
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.events import ActionTaken, HandShown, ShoeDrawn
from taiwan_poker.rules.views import events_for
from taiwan_poker_lab.arena import play_to_end
from tests.history.pokerkit_reader import pokerkit_replay


def played(seats: int, decks: int, seed: int, levels: list[str]) -> Hand:
    rules = RuleSet(decks=decks, seats=seats)
    rng = random.Random(seed)
    stacks = [rng.choice((300, 2000, 2000, 4000)) for _ in range(seats)]
    policies = [policy_of(levels[s % len(levels)]) for s in range(seats)]
    return play_to_end(Hand.start(rules, stacks, seed % seats, rng=rng), policies, [rng] * seats)


def duplicate_faces(hand: Hand) -> bool:
    cards = [*hand.board, *(c for s in hand.players for c in hand.hole_cards(s))]
    return max(Counter(c.face for c in cards if c is not None).values()) > 1


def export(hand: Hand, viewer: int | None) -> str:
    names = [f"P{i}" for i in range(hand.rules.seats)]
    return hand_phh(events_for(hand, viewer), names=names, small_blind=hand.rules.small_blind,
                    big_blind=hand.rules.big_blind, decks=hand.rules.decks, table="ABCDEF", hand_no=hand.hand_no)


def single_deck_twin(hand: Hand) -> Hand:
    """The same hand move for move, each repeated face of its shoe replaced by a face the shoe lacks (same deck).

    Betting never depends on the cards, so the twin has the same actions, blinds and stacks; only the showdown may
    be judged differently, and our engine judges the twin's cards as pokerkit, which knows one deck, can.  A face
    a burn or an unused card shares with a hole or board card is changed on the burn's side.
    """
    shoe = next(e for e in hand.events if isinstance(e, ShoeDrawn)).cards
    judged = {*hand.board, *(c for s in hand.players for c in hand.hole_cards(s))}
    spare = iter(sorted(set(range(52)) - {c.face for c in shoe if c is not None}))
    faces: set[int] = set()
    cards = list(shoe)
    for i in sorted(range(len(cards)), key=lambda i: (cards[i] not in judged, i)):  # hole and board cards first
        c = cards[i]
        if c is not None and c.face in faces:
            face = next(spare)
            c = cards[i] = Card(face >> 2, face & 3, c.deck)
        if c is not None:
            faces.add(c.face)
    twin = Hand.start(hand.rules, list(hand.initial_stacks), hand.button, cards=cards, hand_no=hand.hand_no)
    moves = [e for e in hand.events if isinstance(e, ActionTaken)]
    for e in moves:
        sized = e.kind in (ActionKind.BET, ActionKind.RAISE)
        twin.act(Action(e.kind, e.to if sized else None), seat=e.seat, open_fold=True)
    assert [e for e in twin.events if isinstance(e, ActionTaken)] == moves and twin.complete
    return twin


def written_cards(actions: list[str]) -> list[str]:
    """Each dealing or showing action with its cards blanked (their count kept): what a twin's file shares."""
    return [re.sub(r"^(d dh p\d+ |d db |p\d+ sm )(\S*)$", lambda m: m[1] + "?" * len(m[2]), a) for a in actions]


def physical(faces: str, decks: list[int]) -> list[str]:
    """Written faces (``AhAh``) with their deck numbers: ``['Ah:1', 'Ah:2']``."""
    return [f"{faces[2 * i:2 * i + 2]}:{d}" for i, d in enumerate(decks)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), decks=st.integers(2, 6), seed=st.integers(0, 2**31),
       levels=st.lists(st.sampled_from(["caller", "random", "beginner", "solid", "strong"]), min_size=2,
                       max_size=6))
def test_pokerkit_replays_every_exported_hand_to_the_same_final_stacks(seats: int, decks: int, seed: int,
                                                                       levels: list[str]) -> None:
    """Repeated faces (common at 2–6 decks) included: pokerkit cannot hold two identical cards, so it replays the
    hand's single-deck twin, whose file must be this hand's but for the stand-in faces."""
    hand = played(seats, decks, seed, levels)
    viewer = hand.players[seed % len(hand.players)]
    hh = HandHistory.loads(export(hand, viewer))  # every hand parses, repeated faces and all
    fields = hh.user_defined_fields
    order = fields["_seats"]
    board = "".join(a[5:] for a in hh.actions if a.startswith("d db "))
    assert physical(board, fields["_board_decks"]) == [c.label for c in hand.board], "the board's physical cards"
    mine = order.index(viewer)
    hole = next(a.split()[3] for a in hh.actions if a.startswith(f"d dh p{mine + 1} "))
    assert physical(hole, fields["_hole_decks"][mine]) == [c.label for c in hand.hole_cards(viewer) if c is not None]
    twin = single_deck_twin(hand)
    twin_hh = HandHistory.loads(export(twin, viewer))
    assert written_cards(twin_hh.actions) == written_cards(hh.actions), "the same file but for the faces"
    assert (twin_hh.starting_stacks, twin_hh.blinds_or_straddles) == (hh.starting_stacks, hh.blinds_or_straddles)
    assert {k: v for k, v in twin_hh.user_defined_fields.items() if k != "_private_burns"} == \
        {k: v for k, v in fields.items() if k != "_private_burns"}
    same_chips(list(list(twin_hh)[-1].stacks), twin, order)  # pokerkit judges the twin as our engine does
    if not duplicate_faces(hand):  # no repeated face among the cards judged: the twin ends as the hand did
        assert twin.stacks == hand.stacks
        same_chips(list(list(hh)[-1].stacks), hand, order)


def same_chips(theirs: list[int], hand: Hand, order: list[int]) -> None:
    """pokerkit's final stacks (PHH order) are ours, but for odd chips: pokerkit gives a split pot's remainder to
    one winner, we give it one chip each clockwise from the button (``docs/rules.md``)."""
    ours = [hand.stacks[s] for s in order]
    if theirs == ours:
        return
    odd = {order.index(w) for p in hand.pots if p.amount % len(p.winners) for w in p.winners}
    assert odd and sum(theirs) == sum(ours), (theirs, ours)
    for i, (t, o) in enumerate(zip(theirs, ours, strict=True)):
        assert t == o or (i in odd and abs(t - o) < len(order)), (theirs, ours)


def test_only_cards_the_viewer_may_see_are_written() -> None:
    for seed in range(40):
        hand = played(3, 2, seed, ["caller", "caller", "caller"])
        shown = {e.seat for e in hand.shown}
        for viewer in (hand.players[0], None):
            hh = HandHistory.loads(export(hand, viewer))
            order = hh.user_defined_fields["_seats"]
            dealt = {a.split()[2]: a.split()[3] for a in hh.actions if a.startswith("d dh")}
            for i, seat in enumerate(order):
                hole = "".join(c.face_str for c in hand.hole_cards(seat) if c is not None)
                mine = seat == viewer
                known = mine or seat in shown  # shown at the showdown: written where they were dealt too
                assert dealt[f"p{i + 1}"] == (hole if known else "????"), "others' hole cards are dealt unseen"
                shows = [a for a in hh.actions if a.startswith(f"p{i + 1} sm")]
                assert bool(shows) == (seat in shown) and all(a.endswith(hole) for a in shows)
                burn = hh.user_defined_fields["_private_burns"][i]
                assert burn == (hand.private_burns(seat)[0].face_str if mine else "????")  # type: ignore[union-attr]


def test_a_match_file_holds_every_hand_and_pokerkit_reads_them_all() -> None:
    hands = [export(played(2, 2, seed, ["solid", "beginner"]), 0) for seed in range(5)]
    assert len(list(HandHistory.loads_all(match_phh(hands)))) == 5


@pytest.mark.parametrize("decks", [2, 6])
def test_deck_numbers_and_the_viewers_burn_are_in_user_defined_fields(decks: int) -> None:
    hand = played(2, decks, 3, ["caller"])
    text = export(hand, 0)
    hh = HandHistory.loads(text)
    fields = hh.user_defined_fields
    order = fields["_seats"]
    mine = order.index(0)
    burn = hand.private_burns(0)[0]
    assert burn is not None
    assert fields["_decks"] == decks
    assert fields["_private_burns"][mine] == burn.face_str and fields["_private_burn_decks"][mine] == burn.deck
    assert fields["_hole_decks"][mine] == [c.deck for c in hand.hole_cards(0) if c is not None]
    assert fields["_board_decks"] == [c.deck for c in hand.board]
    assert any(isinstance(e, HandShown) for e in hand.events) or "????" in text


@pytest.mark.parametrize(("stacks", "shove"), [
    ([20, 500, 15], "p3 cbr 20"),  # a raise over the short big blind's 15, though not over the rules' 20
    ([35, 500, 15], "p3 cbr 35"),
])
def test_an_all_in_over_a_short_big_blind_is_written_as_the_raise_it_was(stacks: list[int], shove: str) -> None:
    """The level is the blind posted: pokerkit posts the short blind too, and replays the raise to our stacks."""
    rules = RuleSet(decks=1, seats=3, small_blind=10, big_blind=20)
    hand = Hand.start(rules, stacks, 0, rng=random.Random(5))
    hand.act(Action(ActionKind.ALLIN))
    hand.act(Action(ActionKind.CALL))
    assert hand.complete
    text = export(hand, None)
    assert shove in text
    hh = HandHistory.loads(text)
    assert list(list(hh)[-1].stacks) == [hand.stacks[s] for s in hh.user_defined_fields["_seats"]]


def test_an_all_in_nobody_can_answer_is_written_as_a_call() -> None:
    """Heads-up, the big blind is all in for 15 and the button shoves 20: PHH calls, the 5 over come back."""
    rules = RuleSet(decks=1, seats=2, small_blind=10, big_blind=20)
    hand = Hand.start(rules, [20, 15], 0, rng=random.Random(2))
    hand.act(Action(ActionKind.ALLIN))
    assert hand.complete
    text = export(hand, 0)
    assert '"p2 cc"' in text
    hh = HandHistory.loads(text)
    assert list(list(hh)[-1].stacks) == [hand.stacks[s] for s in hh.user_defined_fields["_seats"]]


def straddled_and_run_twice(seed: int) -> Hand:
    """Four players at one deck (pokerkit judges it as we do), the straddle on: the first to act goes all in, the
    straddler calls all in, the blinds fold, and both agree to run the board twice."""
    rules = RuleSet(decks=1, seats=4, straddle=True, run_twice=True)
    hand = Hand.start(rules, [2000, 2000, 2000, 2000], 0, rng=random.Random(seed))
    assert hand.straddle_seat == 3 and hand.to_act == 0
    for kind in (ActionKind.ALLIN, ActionKind.FOLD, ActionKind.FOLD, ActionKind.CALL):
        hand.act(Action(kind))
    for seat in (0, 3):
        hand.answer_runs(seat, True)
    assert hand.complete and hand.runs == 2
    return hand


@pytest.mark.parametrize("viewer", [0, 3, None])
def test_the_straddle_is_a_forced_bet_and_pokerkit_replays_a_board_run_twice_to_our_stacks(
        viewer: int | None) -> None:
    """``blinds_or_straddles`` holds the straddle at its player (p3, under the gun); the second run's cards follow
    the first run's river, ``_runs = 2`` tells a reader to select two runouts, and pokerkit pays each run half of
    the pot, the first the odd chip, as we do (tests/history/pokerkit_reader.py)."""
    for seed in range(5):
        hand = straddled_and_run_twice(seed)
        hh = HandHistory.loads(export(hand, viewer))
        order = hh.user_defined_fields["_seats"]
        assert order == [1, 2, 3, 0] and hh.blinds_or_straddles == [10, 20, 40, 0]
        assert hh.user_defined_fields["_runs"] == 2
        assert "".join(a[5:] for a in hh.actions if a.startswith("d db ")) == \
            "".join(c.face_str for c in (*hand.board, *hand.board2))
        assert list(pokerkit_replay(export(hand, viewer)).stacks) == [hand.stacks[s] for s in order]


def test_a_player_who_left_mid_hand_is_written_folding_at_their_next_turn() -> None:
    """The small blind leaves before acting (our table folds them at once); PHH, which has no fold out of turn,
    writes it where pokerkit asks them, after the calls of under the gun and the button, and pokerkit replays the
    hand to our stacks."""
    rules = RuleSet(decks=1, seats=4)
    hand = Hand.start(rules, [2000, 2000, 2000, 2000], 0, rng=random.Random(3))
    hand.fold_out_of_turn(1)
    while not hand.complete:
        legal = hand.legal()
        hand.act(Action(ActionKind.CHECK if legal.allows(ActionKind.CHECK) else ActionKind.CALL))
    text = export(hand, None)
    actions = HandHistory.loads(text).actions
    moves = [a for a in actions if not a.startswith(("d ", "#"))]
    assert moves[:4] == ["p3 cc", "p4 cc", "p1 f # left the table", "p2 cc"], moves
    assert "_folded_out_of_turn" not in text
    order = HandHistory.loads(text).user_defined_fields["_seats"]
    assert list(pokerkit_replay(text).stacks) == [hand.stacks[s] for s in order]


def test_leavers_all_in_for_more_than_the_players_still_in_are_listed_as_folded_out_of_turn() -> None:
    """Under the gun and the button go all in for 2,000 and leave; the blinds call all in for less. Our table gives
    the leavers' excess to the players still in (docs/rules.md), which a reader that only sees the leavers muck at
    the showdown cannot do: the file names them, and the rest of it still replays in pokerkit."""
    rules = RuleSet(decks=1, seats=4)
    hand = Hand.start(rules, [2000, 1960, 1105, 2000], 0, rng=random.Random(4))
    hand.act(Action(ActionKind.ALLIN))  # under the gun
    hand.act(Action(ActionKind.CALL))  # the button, all in
    hand.fold_out_of_turn(3)
    hand.fold_out_of_turn(0)
    hand.act(Action(ActionKind.CALL))  # the small blind, all in for less
    hand.act(Action(ActionKind.CALL))  # the big blind, all in for less
    assert hand.complete
    hh = HandHistory.loads(export(hand, None))
    assert hh.user_defined_fields["_folded_out_of_turn"] == ["p3", "p4"]  # seats 3 and 0
    assert [a for a in hh.actions if "left the table" in a and not a.startswith("#")] == \
        ["p3 sm # left the table", "p4 sm # left the table"]
