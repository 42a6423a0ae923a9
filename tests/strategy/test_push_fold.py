"""The push-or-fold tables (taiwan_poker.strategy.push_fold): the abstract game is pure push or fold, the shipped
grid and its solving figures, and sanity of the solved ranges."""

from __future__ import annotations

import numpy as np
import pytest

from taiwan_poker.strategy.classes import CLASSES, class_weights
from taiwan_poker.strategy.push_fold import (
    MAX_PUSH_FOLD_BB,
    PUSH_FOLD_DECKS,
    PUSH_FOLD_STACKS,
    PushFoldError,
    load_push_fold,
    nearest_push_fold_stack,
    push_fold,
    push_fold_spec,
    push_fold_table,
)
from taiwan_poker.strategy.tree import Kind, TerminalKind, build_tree

PLAYERS = (2, 3, 4, 5, 6)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_game_is_all_in_or_fold_first_in_and_call_or_fold_facing_all_ins(players: int) -> None:
    tree = build_tree(push_fold_spec(players, 20.0))
    for node in tree.decisions:
        kinds = tuple(a.kind for a in node.actions)
        facing = node.state.level >= 20.0
        assert kinds == ((Kind.FOLD, Kind.CALL) if facing else (Kind.FOLD, Kind.ALLIN)), node
    assert {t.terminal for t in tree.terminals} == {TerminalKind.FOLD, TerminalKind.ALLIN}


@pytest.mark.parametrize("players", PLAYERS)
def test_every_player_may_call_a_shove(players: int) -> None:
    tree = build_tree(push_fold_spec(players, 10.0))
    everyone = [t for t in tree.terminals if all(c >= 10.0 for c in t.state.contrib)]
    assert len(everyone) == 1


def test_the_grid_is_shipped_with_its_solving_figures() -> None:
    tables = load_push_fold().meta["tables"]
    assert len(tables) == len(PUSH_FOLD_DECKS) * len(PLAYERS) * len(PUSH_FOLD_STACKS)
    for meta in tables.values():
        assert meta["iterations"] >= 1000
        assert 0 <= meta["exploitability_mbb"] < 0.1  # thousandths of a big blind per hand
        assert meta["seconds"] > 0
    assert MAX_PUSH_FOLD_BB == max(PUSH_FOLD_STACKS) == 20.0


@pytest.mark.parametrize("decks", PUSH_FOLD_DECKS)
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("stack", PUSH_FOLD_STACKS)
def test_aces_always_shove_first_in_and_always_call_a_shove(decks: int, players: int, stack: float) -> None:
    for position in range(players - 1):
        assert push_fold(decks, players, stack, position, "AA", ["fold"] * position).probability("allin") == 1.0
    behind = ["allin"] + ["fold"] * (players - 2)
    assert push_fold(decks, players, stack, players - 1, "AA", behind).probability("call") == 1.0


def _shove_share(decks: int, players: int, stack: float, position: int) -> float:
    table = push_fold_table(decks, players, stack)
    node = next(n for n in table.tree.decisions if n.player == position and not any(
        n.state.contrib[p] >= stack for p in range(players)))
    w = class_weights(decks)
    return float((table.node_strategy(node.index)[1] * w).sum() / w.sum())


@pytest.mark.parametrize("decks", (2, 6))
@pytest.mark.parametrize("players", PLAYERS)
def test_the_shoving_range_widens_as_the_stack_shrinks(decks: int, players: int) -> None:
    for position in range(players - 1):
        shares = [_shove_share(decks, players, s, position) for s in sorted(PUSH_FOLD_STACKS)]
        assert shares == sorted(shares, reverse=True), (position, shares)
        assert shares[0] > shares[-1]


@pytest.mark.parametrize("decks", PUSH_FOLD_DECKS)
def test_a_dominated_hand_folds_at_20_bb_utg_six_handed(decks: int) -> None:
    answer = push_fold(decks, 6, 20, 0, "72o")
    assert answer.probability("fold") == 1.0 and answer.probabilities[0][0] == "fold"


def test_heads_up_the_button_shoves_wider_than_the_big_blind_calls() -> None:
    hands = np.array(class_weights(2))
    table = push_fold_table(2, 2, 10.0)
    shove = table.node_strategy(0)[1]
    call = table.node_strategy(table.tree.nodes[0].children[1])[1]
    assert (shove * hands).sum() > (call * hands).sum()


def test_the_nearest_solved_depth_on_a_log_scale() -> None:
    assert nearest_push_fold_stack(3) == 5
    assert nearest_push_fold_stack(7.1) == 10  # the boundary sqrt(50) = 7.07
    assert nearest_push_fold_stack(12) == 10 and nearest_push_fold_stack(12.3) == 15
    assert nearest_push_fold_stack(40) == 20
    assert push_fold(2, 6, 18, 0, "AKo").stack == 20


def test_decks_beyond_the_grid_read_the_nearest() -> None:
    assert push_fold(1, 3, 10, 0, "KQs").decks == 2
    assert push_fold(8, 3, 10, 0, "KQs").decks == 6


def test_bad_questions_are_refused() -> None:
    with pytest.raises(PushFoldError):
        push_fold(2, 7, 10, 0, "AA")
    with pytest.raises(PushFoldError):
        push_fold(2, 6, 10, 2, "AA", ["fold"])  # two positions act before position 2
    with pytest.raises(PushFoldError):
        push_fold(2, 6, 10, 0, "XYz")
    with pytest.raises(PushFoldError):
        push_fold(2, 6, 10, 1, "AA", ["raise"])


def test_facing_a_shove_the_answer_is_call_or_fold_and_tighter_than_shoving() -> None:
    first = push_fold(2, 3, 10, 1, "A2o", ["fold"])
    facing = push_fold(2, 3, 10, 1, "A2o", ["allin"])
    assert [k for k, _ in first.probabilities] == ["fold", "allin"]
    assert [k for k, _ in facing.probabilities] == ["fold", "call"] and facing.facing == 1
    assert facing.probability("call") <= first.probability("allin")
    assert all(c in CLASSES for c in (first.hand, facing.hand))
