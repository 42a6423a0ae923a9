"""The lookup API: real situations mapped onto the solved tables, distributions, and sanity of the strategy."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.cards import Card
from taiwan_poker.strategy.classes import class_weights
from taiwan_poker.strategy.habits import Habits
from taiwan_poker.strategy.preflop import (
    READ_FLOOR,
    PreflopAction,
    PreflopLookupError,
    _phm,
    distribution,
    frequencies,
    hand_class,
    lookup,
    nearest_stack,
    position_index,
    ranges,
    ranges_after,
    seat_position,
)

FOLDS_TO_BTN = [("UTG", "fold"), ("HJ", "fold"), ("CO", "fold")]


def test_hand_reading() -> None:
    assert hand_class("AsAs") == "AA=" and hand_class("As Ah") == "AA" and hand_class("KhAh") == "AKs"
    assert hand_class("aks") == "AKs" and hand_class("QQs") == "QQ="
    assert hand_class([Card(12, 0, 1), Card(12, 0, 2)]) == "AA="
    with pytest.raises(PreflopLookupError):
        hand_class("banana")


def test_positions() -> None:
    assert position_index(6, "BTN") == 3 and position_index(2, "BTN") == 0 and position_index(2, "BB") == 1
    assert seat_position(5, 5, [1, 3, 5]) == 0  # three-handed: the button is first to act
    assert seat_position(1, 5, [1, 3, 5]) == 1  # … then the small blind
    assert seat_position(3, 3, [3, 7]) == 0  # heads-up: the button is the small blind
    with pytest.raises(PreflopLookupError):
        position_index(6, "LJ")


def test_nearest_stack_on_a_log_scale() -> None:
    assert [nearest_stack(x) for x in (5, 14, 15, 28, 29, 63, 64, 141, 142, 1000)] == [
        10, 10, 20, 20, 40, 40, 100, 100, 200, 200
    ]


def test_pseudo_harmonic_mapping() -> None:
    assert _phm(0.5, 1.0, 0.5) == pytest.approx(1.0) and _phm(0.5, 1.0, 1.0) == pytest.approx(0.0)
    assert 0.5 < _phm(0.5, 1.0, 0.7) < 1.0  # a size closer to A goes to A more often than not
    xs = [0.5 + i / 20 for i in range(11)]
    assert all(_phm(0.5, 1.0, a) >= _phm(0.5, 1.0, b) for a, b in itertools.pairwise(xs))


def test_first_in_distribution() -> None:
    d = distribution(2, 6, 100, "UTG", [], "AA")
    assert [k for k, _, _ in d] == ["fold", "raise"]
    assert sum(p for _, _, p in d) == pytest.approx(1.0)
    assert dict((k, p) for k, _, p in d)["raise"] > 0.99
    assert dict((k, p) for k, _, p in distribution(2, 6, 100, "UTG", [], "72o"))["fold"] > 0.99


def test_identical_pairs_need_two_decks() -> None:
    with pytest.raises(PreflopLookupError):
        lookup(1, 2, 100, "SB", [], "AA=")
    assert lookup(1, 2, 100, "SB", [], "AA").decks == 2


@pytest.mark.parametrize("decks", [2, 6])
@pytest.mark.parametrize("stack", [20, 100])
def test_big_blind_defends_far_more_than_27_percent(decks: int, stack: float) -> None:
    """The bully's 3-BB open took the old bot's big blind off its hand 73 % of the time."""
    hist = [*FOLDS_TO_BTN, ("BTN", "raise", 3.0), ("SB", "fold")]
    f = frequencies(decks, 6, stack, "BB", hist)
    assert 1 - f["fold"] > 0.45
    hu = frequencies(decks, 2, stack, "BB", [("SB", "raise", 3.0)])
    assert 1 - hu["fold"] > 0.45


@pytest.mark.parametrize("decks", [2, 6])
def test_opener_does_not_fold_to_a_3x_reraise(decks: int) -> None:
    """The old bot folded 92 % to a re-raise after opening; the tables stay well below that."""
    assert frequencies(decks, 6, 100, "BTN", FOLDS_TO_BTN)["raise 2.5"] > 0.3  # the button opens a real range
    hist = [*FOLDS_TO_BTN, ("BTN", "raise", 2.5), ("SB", "fold"), ("BB", "raise", 7.5)]
    facing = frequencies(decks, 6, 100, "BTN", hist)
    assert sum(facing.values()) == pytest.approx(1.0)
    assert facing["fold"] < 0.6
    hu = frequencies(decks, 2, 100, "SB", [("SB", "raise", 3.0), ("BB", "raise", 9.0)])
    assert hu["fold"] < 0.6


def test_ranges_follow_the_actions() -> None:
    r = ranges(2, 6, 100, "BB", [*FOLDS_TO_BTN, ("BTN", "raise", 2.5), ("SB", "fold")])
    assert set(r) == {"BTN", "BB"}
    assert sum(r["BTN"].values()) == pytest.approx(1.0)
    assert r["BTN"].get("72o", 0.0) < r["BTN"]["AA"]
    assert "72o" not in r["BTN"] or r["BTN"]["72o"] < 1e-3


def test_sizes_are_carried_to_the_real_pot() -> None:
    """Facing a 3-BB open instead of 2.5, the answer's raise sizes scale with the real pot."""
    res = lookup(2, 6, 100, "BB", [*FOLDS_TO_BTN, ("BTN", "raise", 3.0), ("SB", "fold")], "AKs")
    raises = [a for a in res.actions if a.kind == "raise"]
    assert raises and all(a.to_bb > a.abstract_to_bb for a in raises)
    assert res.path[-2] == "BTN raise 2.5" and any("BTN raise 3" in n for n in res.notes)


def test_limps_and_overcalls_are_read() -> None:
    res = lookup(2, 6, 100, "CO", [("UTG", "call"), ("HJ", "fold")], "AQo")
    assert any("limp" in n for n in res.notes)
    assert sum(a.probability for a in res.actions) == pytest.approx(1.0)
    three = lookup(2, 6, 100, "BB", [("UTG", "raise", 2.5), ("HJ", "call"), ("CO", "call"), ("BTN", "call"),
                                     ("SB", "call")], "99")
    assert sum(a.probability for a in three.actions) == pytest.approx(1.0)


def test_real_allin_maps_to_the_abstract_allin() -> None:
    res = lookup(2, 2, 30, "BB", [("SB", "allin", 30)], "A5o")
    assert res.stack == 40 and res.path == ("SB allin",)
    assert {a.kind for a in res.actions} == {"fold", "call"}
    assert [a.to_bb for a in res.actions if a.kind == "call"] == [30]


def test_history_errors() -> None:
    with pytest.raises(PreflopLookupError):
        lookup(2, 6, 100, "UTG", [("UTG", "raise", 2.5)], "AA")  # the hand has moved past the hero
    with pytest.raises(PreflopLookupError):
        lookup(2, 6, 100, "BB", [("UTG", "jump")], "AA")
    with pytest.raises(PreflopLookupError):
        lookup(2, 7, 100, "BB", [], "AA")


@settings(max_examples=80)
@given(st.integers(2, 6), st.sampled_from([10.0, 20.0, 40.0, 100.0, 200.0]), st.lists(st.integers(0, 9), max_size=12))
def test_abstract_lines_map_onto_themselves(players: int, stack: float, picks: list[int]) -> None:
    """Any line of the abstract tree, replayed as a real history, is read back to the very same node."""
    from taiwan_poker.strategy.tables import solved_table
    from taiwan_poker.strategy.tree import Kind

    table = solved_table(2, players, stack)
    node = table.tree.nodes[0]
    hist: list[PreflopAction] = []
    for k in [*picks, 0]:
        if node.is_terminal:
            break
        if table.stored(node.index) and len(node.actions) > 1:
            res = lookup(2, players, stack, node.player, hist, "KQs")
            assert res.node == node.index and not res.notes
        a = node.actions[k % len(node.actions)]
        kind = {Kind.FOLD: "fold", Kind.CALL: "call", Kind.RAISE: "raise", Kind.ALLIN: "allin"}[a.kind]
        if a.kind is Kind.CALL and node.state.level <= node.state.contrib[node.player]:
            kind = "check"
        hist.append(PreflopAction(node.player, kind, a.to))
        node = table.tree.nodes[node.children[k % len(node.actions)]]


SIZES = st.sampled_from([2.0, 2.2, 2.5, 3.0, 4.0, 6.0, 9.0, 12.0, 25.0, 60.0])


@settings(max_examples=60)
@given(
    st.sampled_from([2, 3, 6]),
    st.integers(2, 6),
    st.sampled_from([12.0, 30.0, 75.0, 150.0]),
    st.lists(st.tuples(st.sampled_from(["fold", "call", "raise", "allin"]), SIZES), max_size=6),
    st.sampled_from(["AA", "AKs", "T9s", "72o", "QQ=", "55"]),
    st.integers(0, 2**32 - 1),
)
def test_any_reachable_situation_gives_a_distribution(
    decks: int, players: int, stack: float, moves: list[tuple[str, float]], hand: str, seed: int
) -> None:
    """Replay random real actions in turn order; whenever it is someone's turn, the answer sums to 1."""
    order = list(range(players))
    folded: set[int] = set()
    level, contrib = 1.0, [0.0] * players
    contrib[0 if players == 2 else players - 2] = 0.5
    contrib[players - 1] = 1.0
    hist: list[PreflopAction] = []
    turn = 0
    acted: set[int] = set()
    for kind, size in moves:
        live = [p for p in order if p not in folded]
        if len(live) < 2:
            break
        p = order[turn % players]
        turn += 1
        if p in folded or contrib[p] >= stack:
            continue
        if p in acted and contrib[p] >= level:
            break  # the betting round is over
        try:
            res = lookup(decks, players, stack, p, hist, hand, rng=random.Random(seed))
        except PreflopLookupError:
            res = None
        if res is not None:
            assert sum(a.probability for a in res.actions) == pytest.approx(1.0, abs=1e-6)
            assert all(a.probability >= 0 for a in res.actions)
            assert all(a.to_bb <= stack + 1e-9 for a in res.actions)
        acted.add(p)
        if kind == "fold" and contrib[p] < level:
            folded.add(p)
            hist.append(PreflopAction(p, "fold"))
        elif kind in ("call", "fold"):
            word = "call" if contrib[p] < level else "check"
            contrib[p] = min(level, stack)
            hist.append(PreflopAction(p, word, level))
        else:
            to = stack if kind == "allin" else min(max(size, level * 2), stack)
            contrib[p] = to
            level = max(level, to)
            hist.append(PreflopAction(p, "allin" if to >= stack else "raise", to))


def test_a_player_seen_never_folding_is_read_with_every_hand() -> None:
    """Issue 22 (LBR checks or calls every preflop decision): the big blind calls an open. Read by the tables, it
    holds about half the classes; seen calling every open over sixty hands it holds nearly every class at its
    prior weight; seen folding as the tables do, the read does not move; and the opener, whose habits say
    nothing new, keeps its range."""
    history = [(0, "raise", 2.5), (1, "call", 2.5)]
    prior = class_weights(2) / class_weights(2).sum()

    def share_held(r: np.ndarray) -> float:  # prior mass of the classes held at half their prior weight or more
        ratio = r / prior
        return float(prior[ratio >= 0.5 * ratio.max()].sum())

    plain = ranges_after(2, 2, 100, history, READ_FLOOR)
    caller = Habits(spots=(0, 60, 0), raises=(0, 0, 0), folds=(0, 0, 0))
    wide = ranges_after(2, 2, 100, history, READ_FLOOR, {1: caller})
    assert share_held(plain[1]) < 0.6 and share_held(wide[1]) > 0.95
    sound = Habits(spots=(0, 60, 0), raises=(0, 6, 0), folds=(0, 40, 0))  # folds two thirds: tighter, not looser
    assert np.allclose(ranges_after(2, 2, 100, history, READ_FLOOR, {1: sound})[1], plain[1])
    opener = Habits(spots=(60, 0, 0), raises=(40, 0, 0), folds=(20, 0, 0))
    assert np.allclose(ranges_after(2, 2, 100, history, READ_FLOOR, {0: opener})[0], plain[0])
