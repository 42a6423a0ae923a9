"""The solver on games with known answers: Kuhn poker's value, best responses worked out by hand, convergence."""

from __future__ import annotations

import numpy as np
import pytest

from taiwan_poker.strategy.classes import class_weights, removal_matrix
from taiwan_poker.strategy.equity_matrix import equity_matrix
from taiwan_poker.strategy.model import PayoffModel
from taiwan_poker.strategy.tree import Act, GameSpec, Kind, Node, Sizing, State, TerminalKind, Tree
from taiwan_poker_lab.cfr import Chance, compile_tree, exploitability, reaches, solve, solve_tree


def kuhn_tree() -> Tree:
    """Kuhn poker as an abstract tree: ante 1 each, one bet of 1; player 0 acts first."""

    def st(c0: float, c1: float, folded: tuple[bool, bool] = (False, False)) -> State:
        return State((c0, c1), folded, (), max(c0, c1), 0, 0, -1, 1.0)

    check, bet, fold = Act(Kind.CALL, 1.0), Act(Kind.RAISE, 2.0), Act(Kind.FOLD, 1.0)
    call = Act(Kind.CALL, 2.0)
    show = TerminalKind.ALLIN  # a showdown with no realisation
    nodes = (
        Node(0, -1, 0, st(1, 1), 0, (check, bet), (1, 2)),
        Node(1, 0, 1, st(1, 1), 1, (check, bet), (3, 4)),
        Node(2, 0, 1, st(2, 1), 1, (fold, call), (5, 6)),
        Node(3, 1, 2, st(1, 1), terminal=show),
        Node(4, 1, 2, st(1, 2), 0, (fold, call), (7, 8)),
        Node(5, 2, 2, st(2, 1, (False, True)), terminal=TerminalKind.FOLD),
        Node(6, 2, 2, st(2, 2), terminal=show),
        Node(7, 4, 3, st(1, 2, (True, False)), terminal=TerminalKind.FOLD),
        Node(8, 4, 3, st(2, 2), terminal=show),
    )
    return Tree(GameSpec(2, 10.0), nodes)


def kuhn_chance() -> Chance:
    """Three cards J < Q < K, one each: the removal matrix is 0 on the diagonal and 3/2 elsewhere."""
    prior = np.full(3, 1 / 3)
    removal = np.full((3, 3), 1.5) - 1.5 * np.eye(3)
    eq = np.array([[0.5, 0.0, 0.0], [1.0, 0.5, 0.0], [1.0, 1.0, 0.5]])
    return Chance(prior, removal, eq)


@pytest.mark.parametrize("alternating", [False, True])
def test_kuhn_value_is_minus_one_eighteenth(alternating: bool) -> None:
    res = solve_tree(kuhn_tree(), kuhn_chance(), 2000, alternating=alternating)
    assert res.final.values[0] == pytest.approx(-1 / 18, abs=1e-4)
    assert res.final.values[1] == pytest.approx(1 / 18, abs=1e-4)
    assert res.final.mbb < (5.0 if not alternating else 0.5)  # exploitability in thousandths of a chip


def test_kuhn_equilibrium_family() -> None:
    """Player 0 bets the king 3x as often as it bluffs the jack; player 1 calls a bet with the queen 1/3 …"""
    res = solve_tree(kuhn_tree(), kuhn_chance(), 2000, alternating=True)
    s = res.strategy  # edges: 0 check, 1 bet (root); 2 check, 3 bet (after a check); 4 fold, 5 call (a bet)
    bet_j, bet_q, bet_k = s[1]
    assert bet_k == pytest.approx(3 * bet_j, abs=0.02)
    assert bet_q < 0.01
    assert s[5, 1] == pytest.approx(1 / 3, abs=0.02)
    assert s[5, 0] < 0.01 and s[5, 2] > 0.99  # J never calls, K always
    assert s[3, 0] == pytest.approx(1 / 3, abs=0.02)  # … and bluffs the jack a third of the time when checked to
    assert s[3, 2] > 0.99
    assert s[7, 1] == pytest.approx(bet_j + 1 / 3, abs=0.02)  # player 0's queen calls a bet after checking


def test_exploitability_decreases_with_iterations() -> None:
    chance = Chance(class_weights(2), removal_matrix(2), equity_matrix(2))
    spec = GameSpec(2, 20.0)
    figures = [solve(spec, chance, n).final.mbb for n in (10, 60, 300)]
    assert figures[0] > figures[1] > figures[2]
    assert figures[2] < 15.0


def test_best_response_by_hand_push_fold() -> None:
    """SB shoves every hand: the BB's best response (call iff the call wins) checked against a direct sum."""
    d = 2
    chance = Chance(class_weights(d), removal_matrix(d), equity_matrix(d))
    spec = GameSpec(2, 10.0, Sizing(open_to=(), threebet_ip=(), threebet_oop=(), fourbet=(), sb_limp=False))
    c = compile_tree(
        __import__("taiwan_poker.strategy.tree", fromlist=["build_tree"]).build_tree(spec), chance, PayoffModel()
    )
    root = c.tree.nodes[0]
    assert [a.kind for a in root.actions] == [Kind.FOLD, Kind.ALLIN]
    sigma = np.zeros((c.n_edges, chance.size))
    sigma[1] = 1.0  # shove
    sigma[2] = 0.5  # BB: fold / call half the time (ignored by its best response)
    sigma[3] = 0.5
    ex = exploitability(c, chance, sigma)
    w, j, e = chance.prior, chance.removal, chance.equity
    # BB with hand h: fold loses 1; call wins 20 * E[h, sb] - 10 against every SB hand (weighted by removal)
    call = (j * (20 * e - 10)) @ w
    bb_best = float(w @ np.maximum(call, -1.0))
    assert ex.best[1] == pytest.approx(bb_best, abs=1e-9)
    assert reaches(c, sigma, w)[1].sum() == pytest.approx(1.0)
