"""A discounted-CFR solver for the abstract preflop game, vectorised over starting classes.

Every decision node of the tree (:mod:`.tree`) is a public state: its player's
information set is the node together with that player's hand class, so each
node holds a regret and an average-strategy vector per action over the 182
classes.  One iteration is

1. the current strategy of every node by regret matching;
2. a forward pass, level by level, of each player's reach (the probability that
   the player's own actions lead to an edge, times the prior of the class);
3. the value of every terminal for every player and hand, from the other
   players' reaches (:mod:`.model`: card removal, equity, realisation, the
   multi-way rule);
4. a backward pass, level by level, of counterfactual values and the
   instantaneous regrets of the acting player;
5. discounted accumulation (DCFR, Brown & Sandholm 2019: positive regrets
   ×``t^α/(t^α+1)``, negative ×``t^β/(t^β+1)``, the average strategy
   weighted by ``t^γ``; α = 1.5, β = 0, γ = 2) for all players at once
   (simultaneous updates).

:func:`exploitability` measures the average strategy: a best response of each
player against the others (a max over actions node by node, which is exact
here because all actions are public and the only chance event is the deal),
giving NashConv = Σ_p (best-response value − value); heads-up the
exploitability is NashConv / 2.  There is no randomness: a solve is a pure
function of the tree, the equity matrix and the number of iterations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from taiwan_poker.strategy.model import PayoffModel
from taiwan_poker.strategy.tree import GameSpec, Kind, Node, TerminalKind, Tree, build_tree

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]

DCFR_ALPHA = 1.5
DCFR_BETA = 0.0
DCFR_GAMMA = 2.0


class Segments:
    """Consecutive runs of rows (segments) of bounded length, reduced by length groups.

    ``np.add.reduceat`` along the first axis of a 2-D array was measured ten
    times slower than adding the k-th rows of all segments of one length at once.
    """

    __slots__ = ("count", "groups")

    def __init__(self, starts: IntArray, total: int) -> None:
        sizes = np.diff(np.r_[starts, total]).astype(np.int64)
        self.count = len(starts)
        self.groups = [(int(n), np.flatnonzero(sizes == n), starts[sizes == n]) for n in np.unique(sizes)]

    def _reduce(self, x: FloatArray, index: IntArray | None, op: str) -> FloatArray:
        out = np.empty((self.count, x.shape[1]), dtype=x.dtype)
        for n, ids, first in self.groups:
            rows = first if index is None else index[first]
            acc = x[rows]
            for k in range(1, n):
                more = x[first + k] if index is None else x[index[first + k]]
                if op == "sum":
                    acc += more
                elif op == "max":
                    np.maximum(acc, more, out=acc)
                else:
                    acc *= more
            out[ids] = acc
        return out

    def sum(self, x: FloatArray, index: IntArray | None = None) -> FloatArray:
        """Per segment, the sum of its rows (of ``x[index]`` when an index is given, without gathering it)."""
        return self._reduce(x, index, "sum")

    def max(self, x: FloatArray) -> FloatArray:
        return self._reduce(x, None, "max")

    def argmax(self, x: FloatArray) -> IntArray:
        """Per segment and column, the offset of the largest row within the segment (the first on a tie)."""
        out = np.empty((self.count, x.shape[1]), dtype=np.int64)
        for n, ids, first in self.groups:
            out[ids] = np.argmax(np.stack([x[first + k] for k in range(n)]), axis=0)
        return out

    def prod(self, x: FloatArray, index: IntArray | None = None) -> FloatArray:
        return self._reduce(x, index, "prod")


@dataclass(frozen=True, slots=True)
class Chance:
    """The chance model of a deck count: class prior, pairwise removal, heads-up equity (all over the same classes)."""

    prior: FloatArray  # (H,)
    removal: FloatArray  # (H, H), symmetric; removal @ prior == 1
    equity: FloatArray  # (H, H), E[i, j] + E[j, i] == 1

    @property
    def size(self) -> int:
        return len(self.prior)

    def astype(self, dtype: type[np.floating[Any]]) -> Chance:
        return Chance(self.prior.astype(dtype), self.removal.astype(dtype), self.equity.astype(dtype))


@dataclass(slots=True)
class Compiled:
    """The tree as index arrays (built once per solve).

    Values are kept per *slot*, a (node, player still in the hand) pair: a
    player who has folded has no decisions below the fold, and its value
    there is a closed form (``−chips in × Π_j Y_j`` at the fold), so only the
    players still in carry values through a subtree.
    """

    tree: Tree
    players: int
    n_nodes: int
    n_edges: int
    n_slots: int
    dec_start: IntArray  # first edge of each decision
    dec_player: IntArray
    dec_slot: IntArray  # slot of (decision, its player)
    levels: list[dict[str, IntArray]]  # per depth, deepest first (see compile_tree)
    level_segs: list[tuple[Segments, Segments]]  # per level: the edges of each decision, the children of each slot
    edge_dec: IntArray
    edge_player: IntArray
    edge_prev: IntArray  # the same player's previous edge on the path (E = the prior row)
    edge_parent_node: IntArray
    dec_own: IntArray  # the acting player's last edge before the node (E = prior)
    root_slots: IntArray  # slot of (root, p) for every player
    fold_edges: IntArray  # edges that are folds
    fold_child: IntArray
    fold_parent: IntArray
    fold_chips: FloatArray  # what the folding player has put in
    fold_live_edges: IntArray  # the last edges of the players still in after the fold, grouped by fold
    fold_live_start: IntArray
    term_groups: list[tuple[IntArray, IntArray, IntArray]]  # per live count k: (nodes, slots (T,k), last edges (T,k))
    slot_const: FloatArray  # per terminal slot (indexed by slot): value per unit of Q
    slot_scale: FloatArray  # P·α_k at showdowns
    term_slots: IntArray  # the slots of terminals, in slot order
    z_groups: list[tuple[FloatArray, IntArray]]  # (matrix transposed, the edges whose reach it multiplies)
    z_edges: IntArray  # the edge of each stacked Z row
    pair_slot: IntArray  # the terminal slot of each segment of pairs
    pair_start: IntArray
    pair_z: IntArray  # row of the stacked Z values
    nodes_seg: Segments  # the edges of each decision
    pair_seg: Segments
    fold_seg: Segments
    notes: dict[str, float] = field(default_factory=dict)


def compile_tree(tree: Tree, chance: Chance, model: PayoffModel) -> Compiled:
    spec = tree.spec
    n = spec.players
    nodes = tree.nodes
    if [c for nd in nodes for c in nd.children] != list(range(1, len(nodes))):
        raise ValueError("the tree is not laid out breadth-first")
    decisions = [nd for nd in nodes if not nd.is_terminal]
    edge_dec: list[int] = []
    edge_player: list[int] = []
    dec_start: list[int] = []
    for i, nd in enumerate(decisions):
        dec_start.append(len(edge_dec))
        edge_dec += [i] * len(nd.children)
        edge_player += [nd.player] * len(nd.children)
    n_edges = len(edge_dec)
    into = [-1] * len(nodes)
    for e in range(n_edges):
        into[e + 1] = e  # breadth-first: edge e leads to node e + 1
    last = np.full((len(nodes), n), n_edges, dtype=np.int64)
    for nd in nodes:
        if nd.parent >= 0:
            last[nd.index] = last[nd.parent]
            last[nd.index, edge_player[into[nd.index]]] = into[nd.index]
    # slots
    lives = [nd.live for nd in nodes]
    slot_of: dict[tuple[int, int], int] = {}
    for nd in nodes:
        for p in lives[nd.index]:
            slot_of[(nd.index, p)] = len(slot_of)

    def slot(node: int, p: int) -> int:
        return slot_of[(node, p)]

    n_slots = len(slot_of)
    edge_prev = np.array([last[decisions[d].index, edge_player[e]] for e, d in enumerate(edge_dec)], dtype=np.int64)
    edge_parent_node = np.array([decisions[d].index for d in edge_dec], dtype=np.int64)
    # folds
    fold_edges: list[int] = []
    fold_chips: list[float] = []
    fold_live_edges: list[int] = []
    fold_live_start: list[int] = []
    is_fold = np.zeros(n_edges, dtype=bool)
    for e in range(n_edges):
        nd = decisions[edge_dec[e]]
        a = nd.actions[e - dec_start[edge_dec[e]]]
        if a.kind is Kind.FOLD:
            child = nodes[e + 1]
            is_fold[e] = True
            fold_edges.append(e)
            fold_chips.append(child.state.contrib[nd.player])
            fold_live_start.append(len(fold_live_edges))
            fold_live_edges += [int(last[child.index, j]) for j in lives[child.index]]
    fold_pos = {e: i for i, e in enumerate(fold_edges)}
    # levels (decisions grouped by depth, deepest first)
    levels: list[dict[str, IntArray]] = []
    lo = 0
    while lo < len(decisions):
        hi = lo
        while hi < len(decisions) and decisions[hi].depth == decisions[lo].depth:
            hi += 1
        e_lo = dec_start[lo]
        e_hi = dec_start[hi] if hi < len(decisions) else n_edges
        own_slot = []
        own_fold = []
        parent_slots: list[int] = []
        child_slots: list[int] = []
        seg: list[int] = []
        for d in range(lo, hi):
            nd = decisions[d]
            for c in nd.children:
                e = into[c]
                own_slot.append(slot(c, nd.player) if not is_fold[e] else 0)
                own_fold.append(fold_pos.get(e, -1))
            for p in lives[nd.index]:
                if p == nd.player:
                    continue
                parent_slots.append(slot(nd.index, p))
                seg.append(len(child_slots))
                child_slots += [slot(c, p) for c in nd.children]
        levels.append(
            {
                "d": np.array([lo, hi, e_lo, e_hi], dtype=np.int64),
                "starts": np.array(dec_start[lo:hi], dtype=np.int64) - e_lo,
                "own_slot": np.array(own_slot, dtype=np.int64),
                "own_fold": np.array(own_fold, dtype=np.int64),
                "parent_slots": np.array(parent_slots, dtype=np.int64),
                "child_slots": np.array(child_slots, dtype=np.int64),
                "seg": np.array(seg, dtype=np.int64),
            }
        )
        lo = hi
    # terminals
    terms = [nd for nd in nodes if nd.is_terminal]
    slot_const = np.zeros(n_slots)
    slot_scale = np.zeros(n_slots)
    by_k: dict[int, list[Node]] = {}
    z_keys: dict[tuple[int, float], int] = {}
    key_list: list[tuple[int, float]] = []
    pairs: list[tuple[int, int]] = []  # (terminal slot, z key)
    for nd in terms:
        live = lives[nd.index]
        by_k.setdefault(len(live), []).append(nd)
        contrib = nd.state.contrib
        pot = sum(contrib)
        if nd.terminal is TerminalKind.FOLD:
            slot_const[slot(nd.index, live[0])] = pot - contrib[live[0]]
            continue
        k = len(live)
        alpha = model.alpha(k)
        bias = 0.0
        if nd.terminal is TerminalKind.FLOP:
            bias = model.bias((spec.stack - max(contrib)) / pot)
        for p in live:
            sp = slot(nd.index, p)
            slot_const[sp] = pot / k - contrib[p] - pot * alpha * (k - 1) / 2
            slot_scale[sp] = pot * alpha
            for j in live:
                if j == p:
                    continue
                sb = 0.0 if bias == 0.0 else (bias if spec.in_position(p, j) else -bias)
                key = (int(last[nd.index, j]), sb)
                if key not in z_keys:
                    z_keys[key] = len(key_list)
                    key_list.append(key)
                pairs.append((sp, z_keys[key]))
    term_groups = []
    for _k, group in sorted(by_k.items()):
        term_groups.append(
            (
                np.array([nd.index for nd in group], dtype=np.int64),
                np.array([[slot(nd.index, p) for p in lives[nd.index]] for nd in group], dtype=np.int64),
                np.array([[last[nd.index, p] for p in lives[nd.index]] for nd in group], dtype=np.int64),
            )
        )
    # the realisation matrices and the stacked Z rows
    order: list[int] = []
    groups: list[tuple[FloatArray, IntArray]] = []
    for sb in sorted({k[1] for k in key_list}):
        matrix = chance.removal * model.realised(chance.equity.astype(np.float64), sb)
        members = [i for i, k in enumerate(key_list) if k[1] == sb]
        order += members
        edges = np.array([key_list[i][0] for i in members], dtype=np.int64)
        groups.append((np.ascontiguousarray(matrix.T, dtype=chance.prior.dtype), edges))
    row_of = np.empty(len(key_list), dtype=np.int64)
    row_of[np.array(order, dtype=np.int64)] = np.arange(len(order))
    z_edges = np.concatenate([g[1] for g in groups]) if groups else np.zeros(0, dtype=np.int64)
    pairs.sort()
    if pairs:
        ps = np.array([x[0] for x in pairs], dtype=np.int64)
        starts = np.flatnonzero(np.r_[True, ps[1:] != ps[:-1]])
        pair_slot = ps[starts]
        pair_z = row_of[np.array([x[1] for x in pairs], dtype=np.int64)]
    else:
        starts = pair_slot = pair_z = np.zeros(0, dtype=np.int64)
    term_slots = np.concatenate([g[1].reshape(-1) for g in term_groups])
    return Compiled(
        tree=tree,
        players=n,
        n_nodes=len(nodes),
        n_edges=n_edges,
        n_slots=n_slots,
        dec_start=np.array(dec_start, dtype=np.int64),
        dec_player=np.array([nd.player for nd in decisions], dtype=np.int64),
        dec_slot=np.array([slot(nd.index, nd.player) for nd in decisions], dtype=np.int64),
        levels=levels[::-1],
        level_segs=[
            (Segments(lv["starts"], int(lv["d"][3] - lv["d"][2])), Segments(lv["seg"], len(lv["child_slots"])))
            for lv in levels[::-1]
        ],
        edge_dec=np.array(edge_dec, dtype=np.int64),
        edge_player=np.array(edge_player, dtype=np.int64),
        edge_prev=edge_prev,
        edge_parent_node=edge_parent_node,
        dec_own=np.array([last[nd.index, nd.player] for nd in decisions], dtype=np.int64),
        root_slots=np.array([slot(0, p) for p in range(n)], dtype=np.int64),
        fold_edges=np.array(fold_edges, dtype=np.int64),
        fold_child=np.array(fold_edges, dtype=np.int64) + 1,
        fold_parent=edge_parent_node[np.array(fold_edges, dtype=np.int64)],
        fold_chips=np.array(fold_chips),
        fold_live_edges=np.array(fold_live_edges, dtype=np.int64),
        fold_live_start=np.array(fold_live_start, dtype=np.int64),
        term_groups=term_groups,
        slot_const=slot_const,
        slot_scale=slot_scale,
        term_slots=term_slots,
        z_groups=groups,
        z_edges=z_edges,
        pair_slot=pair_slot,
        pair_start=starts.astype(np.int64),
        pair_z=pair_z,
        nodes_seg=Segments(np.array(dec_start, dtype=np.int64), n_edges),
        pair_seg=Segments(starts.astype(np.int64), len(pairs)),
        fold_seg=Segments(np.array(fold_live_start, dtype=np.int64), len(fold_live_edges)),
        notes={"z_rows": float(len(key_list)), "pairs": float(len(pairs)), "slots": float(n_slots)},
    )


def regret_matching(c: Compiled, regret: FloatArray) -> FloatArray:
    """The current strategy: positive regrets normalised per node (uniform where none is positive)."""
    pos = np.maximum(regret, 0.0)
    sums = c.nodes_seg.sum(pos)
    empty = sums <= 0
    inv = np.divide(1.0, sums, out=np.zeros_like(sums), where=~empty)
    out: FloatArray = pos * inv[c.edge_dec]
    if empty.any():
        counts = np.diff(np.r_[c.dec_start, c.n_edges]).astype(pos.dtype)
        uniform = np.broadcast_to((1.0 / counts)[c.edge_dec][:, None], out.shape)
        np.copyto(out, uniform, where=empty[c.edge_dec])
    return out


def normalise(c: Compiled, weights: FloatArray) -> FloatArray:
    """An average strategy from accumulated weights (uniform where a node was never reached)."""
    return regret_matching(c, weights)


def reaches(c: Compiled, sigma: FloatArray, prior: FloatArray) -> FloatArray:
    """Reach of each edge for the player who takes it (row ``E``: the prior, for players who have not acted)."""
    r = np.empty((c.n_edges + 1, sigma.shape[1]), dtype=sigma.dtype)
    r[c.n_edges] = prior
    for lv in reversed(c.levels):
        _, _, e_lo, e_hi = (int(x) for x in lv["d"])
        r[e_lo:e_hi] = r[c.edge_prev[e_lo:e_hi]] * sigma[e_lo:e_hi]
    return r


@dataclass(slots=True)
class Leaves:
    """Values at the leaves of the slot tree: every terminal slot, and the folding player at every fold."""

    slots: FloatArray  # (n_slots, H): filled at the terminal slots
    folds: FloatArray  # (folds, H): the value of the folding player just after its fold


def terminal_values(c: Compiled, chance: Chance, reach: FloatArray) -> Leaves:
    """Counterfactual values (big blinds) at the terminals and folds.

    With ``Y_j = J π_j`` the removal-weighted reach of player ``j``:
    a player ``p`` still in at terminal ``t`` gets ``Q_p · (const + P·α_k · Σ_j Z_pj / Y_j)``
    with ``Q_p = Π_{j≠p} Y_j`` and ``Z_pj = (J ∘ e'_pj) π_j``; a player who folds
    gets ``−chips in × Π_{j≠p} Y_j`` right at its fold.
    """
    h = chance.size
    dtype = reach.dtype
    y_all = reach @ chance.removal  # J is symmetric
    # product of the folded players' Y, node by node (top-down)
    fp = np.ones((c.n_nodes, h), dtype=dtype)
    fold_y = y_all[c.fold_edges]
    is_fold_child = np.zeros(c.n_nodes, dtype=np.int64) - 1
    is_fold_child[c.fold_child] = np.arange(len(c.fold_child))
    for lv in reversed(c.levels):
        _, _, e_lo, e_hi = (int(x) for x in lv["d"])
        fp[e_lo + 1 : e_hi + 1] = fp[c.edge_parent_node[e_lo:e_hi]]
        f = is_fold_child[e_lo + 1 : e_hi + 1]
        hit = f >= 0
        if hit.any():
            rows = np.flatnonzero(hit) + e_lo + 1
            fp[rows] *= fold_y[f[hit]]
    values = np.zeros((c.n_slots, h), dtype=dtype)
    inner = np.zeros((c.n_slots, h), dtype=dtype)
    inner[c.term_slots] = c.slot_const[c.term_slots, None]
    if len(c.pair_z):
        z = np.concatenate([reach[edges] @ m for m, edges in c.z_groups], axis=0)
        denom = y_all[c.z_edges]
        ratio = np.divide(z, denom, out=np.zeros_like(z), where=denom > 1e-30)
        sums = c.pair_seg.sum(ratio, c.pair_z)
        inner[c.pair_slot] += c.slot_scale[c.pair_slot, None] * sums
    for t_nodes, t_slots, t_edges in c.term_groups:
        k = t_slots.shape[1]
        y = y_all[t_edges]  # (T, k, H)
        base = fp[t_nodes]  # (T, H)
        for i in range(k):
            q = base.copy()
            for j in range(k):
                if j != i:
                    q *= y[:, j]
            values[t_slots[:, i]] = q * inner[t_slots[:, i]]
    prod = c.fold_seg.prod(y_all, c.fold_live_edges)
    folds = -c.fold_chips[:, None].astype(dtype) * fp[c.fold_parent] * prod
    return Leaves(values, folds)


def backward(
    c: Compiled, sigma: FloatArray | None, leaves: Leaves, *, best_response: bool = False
) -> tuple[FloatArray, FloatArray | None]:
    """Slot values (``(n_slots, H)``) and (with ``sigma``) the acting player's instantaneous regrets per edge.

    With ``best_response``, each player maximises over its actions at its own
    nodes (every player's best response at once, against the others' ``sigma``).
    """
    values = leaves.slots.copy()
    h = values.shape[1]
    regret = None if best_response or sigma is None else np.zeros((c.n_edges, h), dtype=values.dtype)
    for lv, (edge_seg, child_seg) in zip(c.levels, c.level_segs, strict=True):
        d_lo, d_hi, e_lo, e_hi = (int(x) for x in lv["d"])
        own = values[lv["own_slot"]]
        folds = lv["own_fold"] >= 0
        if folds.any():
            own[folds] = leaves.folds[lv["own_fold"][folds]]
        if best_response:
            mine = edge_seg.max(own)
        else:
            assert sigma is not None
            mine = edge_seg.sum(own * sigma[e_lo:e_hi])
            if regret is not None:
                regret[e_lo:e_hi] = own - mine[c.edge_dec[e_lo:e_hi] - d_lo]
        values[c.dec_slot[d_lo:d_hi]] = mine
        if len(lv["parent_slots"]):
            values[lv["parent_slots"]] = child_seg.sum(values, lv["child_slots"])
    return values, regret


@dataclass(frozen=True, slots=True)
class Exploitability:
    """Best-response values against the average strategy (big blinds per hand, each player's own seat)."""

    values: tuple[float, ...]  # each player's value under the strategy
    best: tuple[float, ...]  # each player's best-response value against the others

    @property
    def nash_conv(self) -> float:
        return float(sum(b - v for b, v in zip(self.best, self.values, strict=True)))

    @property
    def mbb(self) -> float:
        """Heads-up: exploitability (NashConv / 2) in milli-big-blinds a hand; more players: NashConv in mbb."""
        conv = self.nash_conv
        return 1000.0 * (conv / 2 if len(self.values) == 2 else conv)


def exploitability(c: Compiled, chance: Chance, sigma: FloatArray) -> Exploitability:
    """Measure a strategy profile (usually the average strategy) in double precision."""
    chance = chance.astype(np.float64)
    sigma = sigma.astype(np.float64)
    reach = reaches(c, sigma, chance.prior)
    leaves = terminal_values(c, chance, reach)
    on, _ = backward(c, sigma, leaves)
    br, _ = backward(c, sigma, leaves, best_response=True)
    w = chance.prior
    vals = tuple(float(on[c.root_slots[p]] @ w) for p in range(c.players))
    best = tuple(float(br[c.root_slots[p]] @ w) for p in range(c.players))
    return Exploitability(vals, best)


@dataclass(slots=True)
class SolveResult:
    """The strategy to ship (per edge and class), its measured exploitability and the trace of the solve.

    ``strategy`` is the average strategy, except (1) at information sets the
    player never reaches under it (a class it never brings to that node),
    where the average is undefined and the final regret-matching strategy — a
    best response in the making, since counterfactual regrets do not depend on
    one's own reach — is used instead, and then (2) wherever the player brings
    a class to a node less than once in a thousand deals, where the best
    response against the others is used (:func:`refine_unreached`).  ``final``
    measures ``strategy``; the trace's last point is that figure.
    """

    compiled: Compiled
    strategy: FloatArray
    iterations: int
    final: Exploitability
    trace: list[tuple[int, float]]
    unreached: float  # share of (node, class) information sets filled from the final current strategy
    average_mbb: float  # exploitability of the average strategy before :func:`refine_unreached`
    refined: float  # share of information sets :func:`refine_unreached` changed


def blend_unreached(c: Compiled, weights: FloatArray, current: FloatArray, tolerance: float = 1e-9) -> tuple[
    FloatArray, float
]:
    """The average strategy, with the current strategy where an information set's average weight is (nearly) nil."""
    total = c.nodes_seg.sum(weights)  # (D, H)
    top = total.max(axis=1, keepdims=True)
    empty = total <= tolerance * np.maximum(top, 1e-300)
    avg = normalise(c, weights)
    out: FloatArray = np.where(empty[c.edge_dec], current, avg)
    return out, float(empty.mean())


def refine_unreached(
    c: Compiled, chance: Chance, sigma: FloatArray, min_reach: float = 1e-3
) -> tuple[FloatArray, float]:
    """Best responses where a player (almost) never brings a class: the strategy to ship.

    Where a class reaches a node with probability under ``min_reach`` under its
    own player's strategy (a line it takes with less than one hand in a
    thousand), its average strategy rests on few iterations and can show
    leftovers (pocket aces folding 1 % after a limp-call it never makes).
    There the player takes the action with the best counterfactual value
    against the others' strategies (computed bottom-up, so a refined node sees
    the refined play below it).  Returns the refined strategy and the share of
    information sets changed; the exploitability is measured again afterwards.
    """
    chance = chance.astype(np.float64)
    sigma = sigma.astype(np.float64)
    own = reaches(c, sigma, np.ones(chance.size))
    low = own[c.dec_own] < min_reach  # (D, H)
    leaves = terminal_values(c, chance, reaches(c, sigma, chance.prior))
    values = leaves.slots.copy()
    out = sigma.copy()
    changed = 0
    for lv, (edge_seg, child_seg) in zip(c.levels, c.level_segs, strict=True):
        d_lo, d_hi, e_lo, e_hi = (int(x) for x in lv["d"])
        mine_v = values[lv["own_slot"]]
        folds = lv["own_fold"] >= 0
        if folds.any():
            mine_v[folds] = leaves.folds[lv["own_fold"][folds]]
        local = c.edge_dec[e_lo:e_hi] - d_lo
        top = edge_seg.max(mine_v)
        gain = top - edge_seg.sum(mine_v * sigma[e_lo:e_hi])
        scale = edge_seg.max(np.abs(mine_v))
        mask = low[d_lo:d_hi] & (gain > 1e-6 * scale) & (scale > 0)  # no change where nothing is at stake
        best = edge_seg.argmax(mine_v)  # (D_d, H)
        offset = np.arange(e_hi - e_lo) - (c.dec_start[d_lo:d_hi] - e_lo)[local]
        onehot = (best[local] == offset[:, None]).astype(np.float64)
        out[e_lo:e_hi] = np.where(mask[local], onehot, sigma[e_lo:e_hi])
        changed += int(mask.sum())
        values[c.dec_slot[d_lo:d_hi]] = edge_seg.sum(mine_v * out[e_lo:e_hi])
        if len(lv["parent_slots"]):
            values[lv["parent_slots"]] = child_seg.sum(values, lv["child_slots"])
    return out, float(changed / low.size)


def solve_tree(
    tree: Tree,
    chance: Chance,
    iterations: int,
    *,
    model: PayoffModel | None = None,
    check_every: int = 0,
    target_mbb: float = 0.0,
    progress: Callable[[int, float], None] | None = None,
    alternating: bool = False,
) -> SolveResult:
    """Run DCFR on a tree for ``iterations`` iterations (stopping early once a check reaches ``target_mbb``).

    The iterations run in single precision; the exploitability checks and the
    final measurement in double precision.
    """
    model = model or PayoffModel()
    exact = chance.astype(np.float64)
    fast = chance.astype(np.float32)
    c = compile_tree(tree, fast, model)
    c64 = compile_tree(tree, exact, model)
    h = chance.size
    regret = np.zeros((c.n_edges, h), dtype=np.float32)
    avg = np.zeros((c.n_edges, h), dtype=np.float64)
    trace: list[tuple[int, float]] = []
    done = 0
    turns: list[npt.NDArray[np.bool_] | None] = (
        [c.edge_player == p for p in range(c.players)] if alternating else [None]
    )
    for t in range(1, iterations + 1):
        ta = t**DCFR_ALPHA
        tb = t**DCFR_BETA
        for mask in turns:
            sigma = regret_matching(c, regret)
            reach = reaches(c, sigma, fast.prior)
            term = terminal_values(c, fast, reach)
            _, inst = backward(c, sigma, term)
            assert inst is not None
            own = reach[c.dec_own][c.edge_dec]
            if mask is None:
                regret += inst
                regret *= np.where(regret > 0, np.float32(ta / (ta + 1)), np.float32(tb / (tb + 1)))
                avg += (t**DCFR_GAMMA) * (own * sigma)
            else:
                r = regret[mask] + inst[mask]
                regret[mask] = r * np.where(r > 0, np.float32(ta / (ta + 1)), np.float32(tb / (tb + 1)))
                avg[mask] += (t**DCFR_GAMMA) * (own[mask] * sigma[mask])
        done = t
        if check_every and t % check_every == 0 and t < iterations:
            ex = exploitability(c64, exact, normalise(c, avg))
            trace.append((t, ex.mbb))
            if progress is not None:
                progress(t, ex.mbb)
            if ex.mbb <= target_mbb:
                break
    average, unreached = blend_unreached(c, avg, regret_matching(c, regret).astype(np.float64))
    average_mbb = exploitability(c64, exact, average).mbb
    strategy, refined = refine_unreached(c64, exact, average)
    final = exploitability(c64, exact, strategy)
    trace.append((done, final.mbb))
    if progress is not None:
        progress(done, final.mbb)
    return SolveResult(c64, strategy, done, final, trace, unreached, average_mbb, refined)


def solve(
    spec: GameSpec,
    chance: Chance,
    iterations: int,
    *,
    model: PayoffModel | None = None,
    check_every: int = 0,
    target_mbb: float = 0.0,
    progress: Callable[[int, float], None] | None = None,
    alternating: bool = False,
) -> SolveResult:
    """Build the abstract game of ``spec`` and solve it (see :func:`solve_tree`)."""
    return solve_tree(
        build_tree(spec),
        chance,
        iterations,
        model=model,
        check_every=check_every,
        target_mbb=target_mbb,
        progress=progress,
        alternating=alternating,
    )
