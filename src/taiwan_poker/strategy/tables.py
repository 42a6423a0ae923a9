"""The shipped solved tables: how a solved strategy is packed into package data and read back.

One table per ``(decks, players, stack)``: the strategy of the decision
nodes of the abstract tree (:func:`.tree.build_tree` of ``GameSpec(players,
stack)``, in the tree's breadth-first order) for each of the 182 classes, as
``uint8`` counts out of 255 per node and class (rounded by largest remainders,
so each node's actions add up to exactly 255; the last action's count is not
stored, it is what is left).  Only nodes that matter are stored: nodes with
two actions or more whose *public reach* — the chance that the node comes up
at all when everyone plays the table (the product of each player's reach
summed over its classes) — is at least :data:`MIN_REACH`; ``kept`` marks
them.  The tree is not stored: it is rebuilt from its spec and checked
against a fingerprint of its actions.

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

from .classes import N_CLASSES, class_weights
from .tree import GameSpec, Tree, build_tree

STRATEGY_FILE = "preflop_strategy.npz"
META_FILE = "preflop_strategy.json"
TABLE_FORMAT = 1
SCALE = 255
MIN_REACH = 1e-6  # a node is shipped when its parent comes up at least once in a million hands


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


def public_reach(tree: Tree, strategy: npt.NDArray[np.floating[Any]], prior: npt.NDArray[np.floating[Any]]) -> (
    npt.NDArray[np.float64]
):
    """Per node, the chance it comes up when everyone follows ``strategy`` (card removal between hands ignored)."""
    n = tree.spec.players
    starts = node_starts(tree)
    row = {nd.index: i for i, nd in enumerate(n_ for n_ in tree.nodes if not n_.is_terminal)}
    reach = np.zeros((len(tree.nodes), n, len(prior)))
    reach[0] = prior
    out = np.zeros(len(tree.nodes))
    for nd in tree.nodes:
        out[nd.index] = float(np.prod(reach[nd.index].sum(axis=1)))
        if nd.is_terminal:
            continue
        lo = int(starts[row[nd.index]])
        for k, c in enumerate(nd.children):
            reach[c] = reach[nd.index]
            reach[c, nd.player] = reach[nd.index, nd.player] * strategy[lo + k]
    return out


def kept_nodes(tree: Tree, reach: npt.NDArray[np.float64], min_reach: float = MIN_REACH) -> npt.NDArray[np.bool_]:
    """Which decision nodes (in decision order) are shipped: those one action away from a line that comes up.

    A node is kept when its parent's public reach is at least ``min_reach`` (so
    every node that comes up that often, and every answer to one action the
    tables themselves never or hardly ever take, such as a 2.5-BB open where
    the table only limps or shoves).
    """
    decisions = [nd for nd in tree.nodes if not nd.is_terminal]
    return np.array(
        [len(nd.actions) > 1 and (nd.parent < 0 or reach[nd.parent] >= min_reach) for nd in decisions], dtype=bool
    )


def compress(tree: Tree, counts: npt.NDArray[np.uint8], kept: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """The rows shipped: every action but the last, of the kept nodes."""
    starts = node_starts(tree)
    sizes = np.diff(np.r_[starts, len(counts)])
    rows = [np.arange(starts[i], starts[i] + sizes[i] - 1) for i in np.flatnonzero(kept)]
    index = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    out: npt.NDArray[np.uint8] = counts[index]
    return out


def expand(tree: Tree, rows: npt.NDArray[np.uint8], kept: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """Undo :func:`compress`: the full ``(edges, classes)`` counts (zeros at nodes not shipped)."""
    starts = node_starts(tree)
    total = sum(len(nd.actions) for nd in tree.nodes)
    sizes = np.diff(np.r_[starts, total])
    out = np.zeros((total, rows.shape[1] if rows.ndim == 2 else N_CLASSES), dtype=np.int64)
    at = 0
    for i in np.flatnonzero(kept):
        lo, size = int(starts[i]), int(sizes[i])
        block = rows[at : at + size - 1].astype(np.int64)
        out[lo : lo + size - 1] = block
        out[lo + size - 1] = SCALE - block.sum(axis=0)
        at += size - 1
    if at != len(rows) or (out < 0).any():
        raise TableError("the stored rows do not fit the tree")
    out[starts[sizes == 1]] = SCALE  # a node with one action (a fold forced by the caps) takes it
    return out.astype(np.uint8)


@dataclass(frozen=True, slots=True)
class SolvedTable:
    """One solved game: its tree, the strategy per edge and class, and how it was solved."""

    key: str
    spec: GameSpec
    tree: Tree
    counts: npt.NDArray[np.uint8]  # (edges, classes), out of 255
    kept: npt.NDArray[np.bool_]  # per decision node: shipped
    starts: npt.NDArray[np.int64]  # first edge row of each decision node (node order)
    decision_row: dict[int, int]  # node index -> its position among the decisions
    meta: dict[str, Any]

    def stored(self, node: int) -> bool:
        """Whether the table has a strategy for this decision node (one-action nodes always do)."""
        d = self.decision_row.get(node)
        return d is not None and (bool(self.kept[d]) or len(self.tree.nodes[node].actions) == 1)

    def node_strategy(self, node: int) -> npt.NDArray[np.float32]:
        """``(actions, classes)`` probabilities at a decision node (each column adds up to 1)."""
        if not self.stored(node):
            raise TableError(f"node {node} of {self.key} is not shipped (its parent comes up too rarely)")
        size = len(self.tree.nodes[node].actions)
        if size == 1:
            return np.ones((1, N_CLASSES), dtype=np.float32)
        lo = int(self.starts[self.decision_row[node]])
        return decode(self.counts[lo : lo + size])


@dataclass(frozen=True, slots=True)
class TableSet:
    """The shipped document: which tables exist and how they were made."""

    meta: dict[str, Any]
    arrays: dict[str, npt.NDArray[np.uint8]]

    @property
    def keys(self) -> list[str]:
        return sorted(self.meta["tables"])

    def decks_for(self, players: int, stack: float) -> list[int]:
        """The deck counts solved for a player count and stack."""
        return sorted(
            int(t["decks"])
            for t in self.meta["tables"].values()
            if int(t["players"]) == players and float(t["stack"]) == float(stack)
        )

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
        counts = encode(tree, strategy)
        reach = public_reach(tree, decode(counts), class_weights(int(meta["decks"])))
        kept = kept_nodes(tree, reach)
        arrays[key] = compress(tree, counts, kept)
        arrays[f"{key}_kept"] = np.packbits(kept)
        decisions = [nd for nd in tree.nodes if not nd.is_terminal]
        dropped = [nd.index for nd, k in zip(decisions, kept, strict=True) if not k and len(nd.actions) > 1]
        metas[key] = {
            **meta,
            "fingerprint": fingerprint(tree),
            "nodes_shipped": int(kept.sum()),
            "nodes_one_action": sum(1 for nd in decisions if len(nd.actions) == 1),
            "nodes_dropped": len(dropped),
            "reach_dropped": float(reach[dropped].sum()),
        }
    return arrays, {"format": TABLE_FORMAT, **common, "min_reach": MIN_REACH, "tables": metas}


def unpack(npz: bytes, meta_text: str, fmt: int, error: type[ValueError], what: str
           ) -> tuple[dict[str, Any], dict[str, npt.NDArray[np.uint8]]]:
    """A family of packed tables (this module's, or the push-or-fold ones): its meta, checked to be of format
    ``fmt`` (else ``error``), and its arrays by key."""
    meta = json.loads(meta_text)
    if meta.get("format") != fmt:
        raise error(f"{what} format {meta.get('format')!r} is not {fmt}")
    with np.load(io.BytesIO(npz)) as data:
        arrays = {k: np.asarray(data[k], dtype=np.uint8) for k in data.files}
    return meta, arrays


def shipped(npz_file: str, meta_file: str, error: type[ValueError], script: str) -> tuple[bytes, str]:
    """The package data of a family of tables: its arrays' bytes and its meta's text (missing: ``error`` naming
    the ``script`` that makes them)."""
    base = resources.files("taiwan_poker").joinpath("data")
    try:
        return base.joinpath(npz_file).read_bytes(), base.joinpath(meta_file).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise error(f"{npz_file} is missing; run {script}") from exc


def read_tables(npz: bytes, meta_text: str) -> TableSet:
    return TableSet(*unpack(npz, meta_text, TABLE_FORMAT, TableError, "preflop table"))


@cache
def load_tables() -> TableSet:
    """The shipped tables (``taiwan_poker/data/preflop_strategy.npz`` and ``.json``)."""
    return read_tables(*shipped(STRATEGY_FILE, META_FILE, TableError, "scripts/solve_preflop.py"))


@lru_cache(maxsize=32)
def solved_table(decks: int, players: int, stack: float) -> SolvedTable:
    """One shipped table, with its tree rebuilt and checked (remembered for the 32 most recent)."""
    tables = load_tables()
    key = table_key(decks, players, stack)
    if key not in tables.arrays or f"{key}_kept" not in tables.arrays:
        raise TableError(f"no solved table {key}")
    spec = GameSpec(players, stack)
    tree = build_tree(spec)
    meta = tables.meta["tables"][key]
    if meta.get("fingerprint") != fingerprint(tree):
        raise TableError(f"the table {key} was solved on another tree than this code builds")
    decisions = [n.index for n in tree.nodes if not n.is_terminal]
    kept = np.unpackbits(tables.arrays[f"{key}_kept"])[: len(decisions)].astype(bool)
    rows = tables.arrays[key]
    if rows.ndim != 2 or rows.shape[1] != N_CLASSES:
        raise TableError(f"the table {key} has shape {rows.shape}")
    counts = expand(tree, rows, kept)
    return SolvedTable(key, spec, tree, counts, kept, node_starts(tree), {n: i for i, n in enumerate(decisions)}, meta)
