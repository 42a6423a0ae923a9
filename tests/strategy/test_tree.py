"""The abstract preflop game: positions, blinds, the action set, caps, and the tree layout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taiwan_poker.strategy.tree import (
    POSITION_NAMES,
    GameSpec,
    Kind,
    TerminalKind,
    build_tree,
    legal_actions,
)


def test_positions_and_blinds() -> None:
    hu = build_tree(GameSpec(2, 100)).nodes[0]
    assert hu.player == 0 and hu.state.contrib == (0.5, 1.0)  # heads-up the small blind (button) acts first
    six = build_tree(GameSpec(6, 100)).nodes[0]
    assert six.player == 0 and six.state.contrib == (0, 0, 0, 0, 0.5, 1.0)
    assert POSITION_NAMES[6] == ("UTG", "HJ", "CO", "BTN", "SB", "BB")


def test_postflop_position() -> None:
    hu = GameSpec(2, 100)
    assert hu.in_position(0, 1)  # the button acts last after the flop
    six = GameSpec(6, 100)
    assert six.in_position(3, 5) and six.in_position(5, 4) and six.in_position(0, 5) and not six.in_position(4, 0)


def test_first_in_actions() -> None:
    root = build_tree(GameSpec(6, 100)).nodes[0]
    assert [a.kind for a in root.actions] == [Kind.FOLD, Kind.RAISE]  # no open limp, no 40-x open shove
    assert [a.to for a in root.actions if a.kind is Kind.RAISE] == [2.5]
    hu = build_tree(GameSpec(2, 100)).nodes[0]
    assert [(a.kind, a.to) for a in hu.actions] == [
        (Kind.FOLD, 0.5), (Kind.CALL, 1.0), (Kind.RAISE, 2.0), (Kind.RAISE, 2.5), (Kind.RAISE, 3.5), (Kind.ALLIN, 100)
    ]


def test_short_stacks_shove_instead_of_sized_reraises() -> None:
    tree = build_tree(GameSpec(2, 10))
    root = tree.nodes[0]
    after_open = tree.nodes[root.children[3]]  # SB raises to 2.5
    assert [a.kind for a in after_open.actions] == [Kind.FOLD, Kind.CALL, Kind.ALLIN]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("stack", [10, 40, 200])
def test_layout_and_invariants(players: int, stack: float) -> None:
    tree = build_tree(GameSpec(players, stack))
    assert [c for n in tree.nodes for c in n.children] == list(range(1, len(tree.nodes)))  # breadth-first
    for n in tree.nodes:
        s = n.state
        assert max(s.contrib) == s.level or n.is_terminal
        assert all(0 <= c <= stack for c in s.contrib)
        if n.is_terminal:
            live = n.live
            if n.terminal is TerminalKind.FOLD:
                assert len(live) == 1
            else:
                assert len(live) >= 2 and len({s.contrib[p] for p in live}) == 1  # everyone in has matched
                assert (n.terminal is TerminalKind.ALLIN) == (s.contrib[live[0]] >= stack)
                assert len(live) <= (5 if n.terminal is TerminalKind.ALLIN else 4)
            continue
        kinds = [a.kind for a in n.actions]
        assert (Kind.FOLD in kinds) == (s.level > s.contrib[n.player])
        tos = [a.to for a in n.actions if a.kind in (Kind.RAISE, Kind.ALLIN)]
        assert tos == sorted(tos) and len(set(tos)) == len(tos)
        assert all(s.level < t <= stack for t in tos)
        assert n.actions == legal_actions(tree.spec, s, n.player)
        assert s.raises <= tree.spec.z.max_raises


@given(st.integers(2, 6), st.sampled_from([10.0, 20.0, 40.0, 100.0, 200.0]), st.lists(st.integers(0, 10), max_size=20))
def test_random_walks_conserve_chips(players: int, stack: float, picks: list[int]) -> None:
    tree = build_tree(GameSpec(players, stack))
    node = tree.nodes[0]
    for k in picks:
        if node.is_terminal:
            break
        before = node.pot
        a = node.actions[k % len(node.actions)]
        child = tree.nodes[node.children[k % len(node.actions)]]
        added = child.pot - before
        assert added == pytest.approx(0.0 if a.kind is Kind.FOLD else a.to - node.state.contrib[node.player])
        node = child
