"""The shipped solved tables: coverage, well-formed distributions, provenance, size, determinism, sanity."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from taiwan_poker.strategy.classes import INDEX, class_weights, removal_matrix
from taiwan_poker.strategy.equity_matrix import equity_matrix
from taiwan_poker.strategy.model import PayoffModel
from taiwan_poker.strategy.tables import (
    SCALE,
    compress,
    encode,
    expand,
    fingerprint,
    load_tables,
    solved_table,
)
from taiwan_poker.strategy.tree import GameSpec, Kind, build_tree
from taiwan_poker_lab.cfr import Chance, solve

DECKS = (2, 3, 4, 5, 6)
PLAYERS = (2, 3, 4, 5, 6)
STACKS = (10.0, 20.0, 40.0, 100.0, 200.0)


def test_grid_is_covered() -> None:
    tables = load_tables()
    decks, players, stacks = tables.grid()
    assert decks == list(DECKS) and players == list(PLAYERS) and stacks == list(STACKS)
    assert len(tables.keys) == 125


def test_data_is_compact() -> None:
    base = resources.files("taiwan_poker").joinpath("data")
    size = sum(len(base.joinpath(f).read_bytes()) for f in ("preflop_strategy.npz", "preflop_strategy.json"))
    assert size < 8_000_000


def test_provenance_is_recorded() -> None:
    meta = load_tables().meta
    assert meta["seed"] == 20261222 and meta["equity_matrix"]["seed"] == 20261222
    assert meta["solver"]["algorithm"].startswith("discounted CFR")
    for m in meta["tables"].values():
        assert m["iterations"] >= 500
        assert 0 <= m["exploitability_mbb"] < (5.0 if m["players"] == 2 else 150.0)
        assert m["trace"][-1][1] == pytest.approx(m["exploitability_mbb"], abs=1e-3)
        assert m["reach_dropped"] < 1e-3


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("stack", [10.0, 100.0])
def test_every_distribution_sums_to_one(players: int, stack: float) -> None:
    table = solved_table(2, players, stack)
    assert fingerprint(table.tree) == table.meta["fingerprint"]
    for node in table.tree.nodes:
        if node.is_terminal or not table.stored(node.index):
            continue
        counts = table.counts[table.starts[table.decision_row[node.index]] :][: len(node.actions)]
        assert (counts.astype(int).sum(axis=0) == SCALE).all()
        assert np.allclose(table.node_strategy(node.index).sum(axis=0), 1.0, atol=1e-5)


def test_packing_round_trip() -> None:
    tree = build_tree(GameSpec(3, 20.0))
    rng = np.random.default_rng(3)
    strategy = rng.random((sum(len(n.actions) for n in tree.nodes), 182)) ** 3
    counts = encode(tree, strategy)
    kept = np.array([len(n.actions) > 1 for n in tree.nodes if not n.is_terminal])
    kept[::3] = False
    back = expand(tree, compress(tree, counts, kept), kept)
    rows = np.concatenate(
        [np.arange(lo, lo + len(n.actions)) for lo, n, k in zip(
            np.cumsum([0] + [len(n.actions) for n in tree.nodes if not n.is_terminal])[:-1],
            [n for n in tree.nodes if not n.is_terminal], kept, strict=True) if k]
    )
    assert np.array_equal(back[rows], counts[rows])


def test_solve_is_deterministic_and_matches_the_shipped_table() -> None:
    """Heads-up 10 BB at two decks re-solved from scratch: the same counts as shipped (the solver has no randomness).

    Floating sums differ in the last bit with how the BLAS splits its work and how arrays sit in memory (seen: one
    BLAS thread against two, and the same code under pytest against a script), so a count on a rounding boundary
    may come out one off: at most one step, on at most 0.1 % of the entries (one fewer iteration already moves
    two; twenty fewer move 51, by up to 255)."""
    d = 2
    chance = Chance(class_weights(d), removal_matrix(d), equity_matrix(d))
    table = solved_table(d, 2, 10.0)
    spec = GameSpec(2, 10.0)
    res = solve(spec, chance, int(table.meta["iterations"]), model=PayoffModel.for_decks(d))
    assert res.final.mbb == pytest.approx(table.meta["exploitability_mbb"], abs=1e-3)
    again = encode(build_tree(spec), res.strategy)
    kept = table.kept
    mine = compress(table.tree, again, kept).astype(np.int64)
    shipped = compress(table.tree, table.counts, kept).astype(np.int64)
    off = np.abs(mine - shipped)
    assert off.max() <= 1 and np.count_nonzero(off) <= 0.001 * off.size, (off.max(), np.count_nonzero(off))


@pytest.mark.parametrize("decks", [2, 6])
def test_aces_never_fold(decks: int) -> None:
    """Pocket aces (and identical aces) fold nowhere, in every table of a deck count, at any shipped node."""
    for players in PLAYERS:
        for stack in STACKS:
            table = solved_table(decks, players, stack)
            decisions = [n for n in table.tree.nodes if not n.is_terminal]
            rows = [
                int(table.starts[i])
                for i, n in enumerate(decisions)
                if table.kept[i] and n.actions[0].kind is Kind.FOLD
            ]
            folds = table.counts[rows][:, [INDEX["AA"], INDEX["AA="]]]
            assert folds.max() <= 2, (table.key, rows[int(np.argmax(folds.max(axis=1)))])  # at most 2/255
