"""The shipped solved tables: how a solved strategy is packed into package data and read back.

One table per ``(decks, players, stack)``: the strategy of every edge of the
abstract tree (:func:`.tree.build_tree` of ``GameSpec(players, stack)``, edges
in the tree's breadth-first order) for each of the 182 classes, as ``uint8``
counts out of 255 per node and class (rounded by largest remainders, so each
node's actions add up to exactly 255).  The tree is not stored: it is rebuilt
from its spec and checked against a fingerprint of its actions.

``taiwan_poker/data/preflop_strategy.npz`` holds the arrays (key
``d{decks}_p{players}_s{stack}``), ``preflop_strategy.json`` how each was solved:
iterations, the solver's seedless determinism, exploitability, run time.
"""

from __future__ import annotations

import io
import json
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from .classes import N_CLASSES
from .tree import GameSpec, Tree, build_tree

STRATEGY_FILE = "preflop_strategy.npz"
META_FILE = "preflop_strategy.json"
TABLE_FORMAT = 1
SCALE = 255


class TableError(ValueError):
    """The shipped tables are missing, of another format, or do not match this code's trees."""


def table_key(decks: int, players: int, stack: float) -> str:
    return f"d{decks}_p{players}_s{stack:g}"


def fingerprint(tree: Tree) -> str:
    """A checksum of the tree's decisions and actions (the order the strategy rows are stored in)."""
    text = ";".join(
        f"{n.player}:" + ",".join(f"{a.kind.value}{a.to:g}" for a in n.actions) for n in tree.nodes if not n.is_terminal
    )
    return f"{zlib.crc32(text.encode()):08x}-{sum(len(n.actions) for n in tree.nodes)}"


def node_starts(tree: Tree) -> npt.NDArray[np.int64]:
    """First edge row of each decision node (in node order)."""
    sizes = [len(n.actions) for n in tree.nodes if not n.is_terminal]
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


def encode(tree: Tree, strategy: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.uint8]:
    """Quantise a strategy (edges × classes) to counts out of 255 that add up to 255 at every node and class."""
    starts = node_starts(tree)
    sizes = np.diff(np.r_[starts, len(strategy)])
    p = np.clip(np.asarray(strategy, dtype=np.float64), 0.0, None)
    sums = np.add.reduceat(p, starts, axis=0)
    node_of = np.repeat(np.arange(len(starts)), sizes)
    p = p / np.where(sums > 0, sums, 1.0)[node_of]
    scaled = p * SCALE
    base = np.floor(scaled).astype(np.int64)
    short = SCALE - np.add.reduceat(base, starts, axis=0)  # per node and class: counts still to hand out
    rem = scaled - base
    out = base.copy()
    for size in np.unique(sizes):
        nodes = np.flatnonzero(sizes == size)
        rows = starts[nodes][:, None] + np.arange(size)[None, :]  # (n, size)
        r = rem[rows]  # (n, size, H)
        rank = np.argsort(np.argsort(-r, axis=1, kind="stable"), axis=1, kind="stable")
        out[rows] += rank < short[nodes][:, None, :]
    return out.astype(np.uint8)


def decode(counts: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    out: npt.NDArray[np.float32] = counts.astype(np.float32) / np.float32(SCALE)
    return out


@dataclass(frozen=True, slots=True)
class SolvedTable:
    """One solved game: its tree, the strategy per edge and class, and how it was solved."""

    key: str
    spec: GameSpec
    tree: Tree
    strategy: npt.NDArray[np.float32]  # (edges, classes)
    starts: npt.NDArray[np.int64]  # first edge row of each decision node (node order)
    decision_row: dict[int, int]  # node index -> its position among the decisions
    meta: dict[str, Any]

    def node_strategy(self, node: int) -> npt.NDArray[np.float32]:
        """``(actions, classes)`` probabilities at a decision node."""
        d = self.decision_row[node]
        lo = int(self.starts[d])
        return self.strategy[lo : lo + len(self.tree.nodes[node].actions)]


@dataclass(frozen=True, slots=True)
class TableSet:
    """The shipped document: which tables exist and how they were made."""

    meta: dict[str, Any]
    arrays: dict[str, npt.NDArray[np.uint8]]

    @property
    def keys(self) -> list[str]:
        return sorted(self.arrays)

    def grid(self) -> tuple[list[int], list[int], list[float]]:
        tables = self.meta["tables"].values()
        return (
            sorted({int(t["decks"]) for t in tables}),
            sorted({int(t["players"]) for t in tables}),
            sorted({float(t["stack"]) for t in tables}),
        )


Packed = tuple[dict[str, npt.NDArray[np.uint8]], dict[str, Any]]
Solved = dict[str, tuple[GameSpec, npt.NDArray[np.floating[Any]], dict[str, Any]]]


def pack(tables: Solved, common: dict[str, Any]) -> Packed:
    """The arrays and the metadata document of the data files (the script writes them)."""
    arrays: dict[str, npt.NDArray[np.uint8]] = {}
    metas: dict[str, Any] = {}
    for key, (spec, strategy, meta) in sorted(tables.items()):
        tree = build_tree(spec)
        arrays[key] = encode(tree, strategy)
        metas[key] = {**meta, "fingerprint": fingerprint(tree)}
    return arrays, {"format": TABLE_FORMAT, **common, "tables": metas}


def read_tables(npz: bytes, meta_text: str) -> TableSet:
    meta = json.loads(meta_text)
    if meta.get("format") != TABLE_FORMAT:
        raise TableError(f"preflop table format {meta.get('format')!r} is not {TABLE_FORMAT}")
    with np.load(io.BytesIO(npz)) as data:
        arrays = {k: np.asarray(data[k], dtype=np.uint8) for k in data.files}
    return TableSet(meta, arrays)


@cache
def load_tables() -> TableSet:
    """The shipped tables (``taiwan_poker/data/preflop_strategy.npz`` and ``.json``)."""
    base = resources.files("taiwan_poker").joinpath("data")
    try:
        raw = base.joinpath(STRATEGY_FILE).read_bytes()
        text = base.joinpath(META_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise TableError("the preflop strategy tables are missing; run scripts/solve_preflop.py") from exc
    return read_tables(raw, text)


@lru_cache(maxsize=32)
def solved_table(decks: int, players: int, stack: float) -> SolvedTable:
    """One shipped table, with its tree rebuilt and checked (remembered for the 32 most recent)."""
    tables = load_tables()
    key = table_key(decks, players, stack)
    if key not in tables.arrays:
        raise TableError(f"no solved table {key}")
    spec = GameSpec(players, stack)
    tree = build_tree(spec)
    meta = tables.meta["tables"][key]
    if meta.get("fingerprint") != fingerprint(tree):
        raise TableError(f"the table {key} was solved on another tree than this code builds")
    counts = tables.arrays[key]
    if counts.shape != (sum(len(n.actions) for n in tree.nodes), N_CLASSES):
        raise TableError(f"the table {key} has shape {counts.shape}")
    decisions = [n.index for n in tree.nodes if not n.is_terminal]
    return SolvedTable(
        key, spec, tree, decode(counts), node_starts(tree), {n: i for i, n in enumerate(decisions)}, meta
    )
