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

from .model import PayoffModel
from .tree import GameSpec, TerminalKind, Tree, build_tree

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]

DCFR_ALPHA = 1.5
DCFR_BETA = 0.0
DCFR_GAMMA = 2.0


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
    """The tree as index arrays (built once per solve)."""

    tree: Tree
    players: int
    n_nodes: int
    dec_nodes: IntArray
    dec_player: IntArray
    dec_start: IntArray  # first edge of each decision
    dec_levels: list[tuple[int, int, int, int]]  # per depth (deepest last): decision slice and edge slice
    edge_dec: IntArray
    edge_child: IntArray
    edge_player: IntArray
    edge_prev: IntArray  # the same player's previous edge on the path (E = the prior row)
    dec_own: IntArray  # the acting player's last edge before the node (E = prior)
    term_nodes: IntArray
    term_last: IntArray  # (T, N) each player's last edge on the path to the terminal (E = prior)
    term_const: FloatArray  # (T, N) value per unit of Q (see _terminal_values)
    term_scale: FloatArray  # (T, N) P·α_k for players at showdown, else 0
    z_groups: list[tuple[FloatArray, IntArray]]  # (matrix transposed, the edges whose reach it multiplies)
    pair_tp: IntArray  # (t * N + p) of each segment of pairs
    pair_start: IntArray
    pair_z: IntArray  # row of the stacked Z values
    pair_tj: IntArray  # (t * N + j) of the opponent of each pair
    n_edges: int = 0
    notes: dict[str, float] = field(default_factory=dict)


def compile_tree(tree: Tree, chance: Chance, model: PayoffModel) -> Compiled:
    spec = tree.spec
    n = spec.players
    nodes = tree.nodes
    decisions = [nd for nd in nodes if not nd.is_terminal]
    edge_dec: list[int] = []
    edge_child: list[int] = []
    edge_player: list[int] = []
    dec_start: list[int] = []
    for i, nd in enumerate(decisions):
        dec_start.append(len(edge_dec))
        for c in nd.children:
            edge_dec.append(i)
            edge_child.append(c)
            edge_player.append(nd.player)
    n_edges = len(edge_dec)
    # each node's last edge per player (on the path from the root, the edge into the node included)
    last = np.full((len(nodes), n), n_edges, dtype=np.int64)
    into = np.full(len(nodes), -1, dtype=np.int64)
    for e, c in enumerate(edge_child):
        into[c] = e
    for nd in nodes:
        if nd.parent >= 0:
            last[nd.index] = last[nd.parent]
            e = int(into[nd.index])
            last[nd.index, edge_player[e]] = e
    if edge_child != list(range(1, len(nodes))):
        raise ValueError("the tree is not laid out breadth-first")
    edge_prev = np.array([last[decisions[d].index, edge_player[e]] for e, d in enumerate(edge_dec)], dtype=np.int64)
    dec_own = np.array([last[nd.index, nd.player] for nd in decisions], dtype=np.int64)
    levels: list[tuple[int, int, int, int]] = []
    depths = [nd.depth for nd in decisions]
    lo = 0
    while lo < len(decisions):
        hi = lo
        while hi < len(decisions) and depths[hi] == depths[lo]:
            hi += 1
        e_lo = dec_start[lo]
        e_hi = dec_start[hi] if hi < len(decisions) else n_edges
        levels.append((lo, hi, e_lo, e_hi))
        lo = hi
    terms = [nd for nd in nodes if nd.is_terminal]
    t_count = len(terms)
    const = np.zeros((t_count, n))
    scale = np.zeros((t_count, n))
    # realisation matrices, keyed by signed bias
    mats: dict[float, FloatArray] = {}
    z_keys: dict[tuple[int, float], int] = {}
    z_edges: dict[float, list[int]] = {}
    pairs: list[tuple[int, int, int]] = []  # (t*N+p, zrow-key index, t*N+j)
    key_list: list[tuple[int, float]] = []
    for t, nd in enumerate(terms):
        contrib = nd.state.contrib
        pot = sum(contrib)
        live = nd.live
        if nd.terminal is TerminalKind.FOLD:
            for p in range(n):
                const[t, p] = (pot if p == live[0] else 0.0) - contrib[p]
            continue
        k = len(live)
        alpha = model.alpha(k)
        bias = 0.0
        if nd.terminal is TerminalKind.FLOP:
            behind = spec.stack - max(contrib)
            bias = model.bias(behind / pot)
        for p in range(n):
            if p not in live:
                const[t, p] = -contrib[p]
                continue
            const[t, p] = pot / k - contrib[p] - pot * alpha * (k - 1) / 2
            scale[t, p] = pot * alpha
            for j in live:
                if j == p:
                    continue
                sb = 0.0 if bias == 0.0 else (bias if spec.in_position(p, j) else -bias)
                e = int(last[nd.index, j])
                key = (e, sb)
                if key not in z_keys:
                    z_keys[key] = len(key_list)
                    key_list.append(key)
                pairs.append((t * n + p, z_keys[key], t * n + j))
    # group the Z rows by matrix; row order = concatenation of groups
    order: list[int] = []
    groups: list[tuple[FloatArray, IntArray]] = []
    for sb in sorted({k[1] for k in key_list}):
        if sb not in mats:
            mats[sb] = chance.removal * model.realised(chance.equity.astype(np.float64), sb)
        members = [i for i, k in enumerate(key_list) if k[1] == sb]
        order += members
        z_edges[sb] = [key_list[i][0] for i in members]
        matrix = np.ascontiguousarray(mats[sb].T, dtype=chance.prior.dtype)
        groups.append((matrix, np.array(z_edges[sb], dtype=np.int64)))
    row_of = np.empty(len(key_list), dtype=np.int64)
    row_of[np.array(order, dtype=np.int64)] = np.arange(len(order))
    pairs.sort(key=lambda x: x[0])
    if pairs:
        tp = np.array([x[0] for x in pairs], dtype=np.int64)
        starts = np.flatnonzero(np.r_[True, tp[1:] != tp[:-1]])
        pair_tp = tp[starts]
        pair_z = row_of[np.array([x[1] for x in pairs], dtype=np.int64)]
        pair_tj = np.array([x[2] for x in pairs], dtype=np.int64)
    else:
        starts = pair_tp = pair_z = pair_tj = np.zeros(0, dtype=np.int64)
    return Compiled(
        tree=tree,
        players=n,
        n_nodes=len(nodes),
        dec_nodes=np.array([nd.index for nd in decisions], dtype=np.int64),
        dec_player=np.array([nd.player for nd in decisions], dtype=np.int64),
        dec_start=np.array(dec_start, dtype=np.int64),
        dec_levels=levels[::-1],
        edge_dec=np.array(edge_dec, dtype=np.int64),
        edge_child=np.array(edge_child, dtype=np.int64),
        edge_player=np.array(edge_player, dtype=np.int64),
        edge_prev=edge_prev,
        dec_own=dec_own,
        term_nodes=np.array([nd.index for nd in terms], dtype=np.int64),
        term_last=last[[nd.index for nd in terms]],
        term_const=const,
        term_scale=scale,
        z_groups=groups,
        pair_tp=pair_tp,
        pair_start=starts.astype(np.int64),
        pair_z=pair_z,
        pair_tj=pair_tj,
        n_edges=n_edges,
        notes={"z_rows": float(len(key_list)), "pairs": float(len(pairs))},
    )


def regret_matching(c: Compiled, regret: FloatArray) -> FloatArray:
    """The current strategy: positive regrets normalised per node (uniform where none is positive)."""
    pos = np.maximum(regret, 0.0)
    sums = np.add.reduceat(pos, c.dec_start, axis=0)
    counts = np.diff(np.r_[c.dec_start, c.n_edges]).astype(np.float64)
    per = sums[c.edge_dec]
    uniform = (1.0 / counts)[c.edge_dec][:, None]
    out: FloatArray = np.where(per > 0, pos / np.where(per > 0, per, 1.0), uniform)
    return out


def normalise(c: Compiled, weights: FloatArray) -> FloatArray:
    """An average strategy from accumulated weights (uniform where a node was never reached)."""
    return regret_matching(c, weights)


def reaches(c: Compiled, sigma: FloatArray, prior: FloatArray) -> FloatArray:
    """Reach of each edge for the player who takes it (row ``E``: the prior, for players who have not acted)."""
    r = np.empty((c.n_edges + 1, sigma.shape[1]), dtype=sigma.dtype)
    r[c.n_edges] = prior
    for _, _, e_lo, e_hi in reversed(c.dec_levels):
        r[e_lo:e_hi] = r[c.edge_prev[e_lo:e_hi]] * sigma[e_lo:e_hi]
    return r


def terminal_values(c: Compiled, chance: Chance, reach: FloatArray) -> FloatArray:
    """``V[t, p, h]``: player ``p``'s counterfactual value with class ``h`` at terminal ``t`` (in big blinds).

    ``V = Q_p · (const + P·α_k · Σ_j Z_pj / Y_j)`` with ``Y_j = J π_j`` the removal-weighted
    reach of ``j``, ``Q_p = Π_{j≠p} Y_j`` and ``Z_pj = (J ∘ e'_pj) π_j``.
    """
    n = c.players
    h = chance.size
    y_all = reach @ chance.removal  # J is symmetric
    y = y_all[c.term_last]  # (T, N, H)
    t_count = y.shape[0]
    q = np.empty_like(y)
    q[:, 0] = 1.0
    for p in range(1, n):
        np.multiply(q[:, p - 1], y[:, p - 1], out=q[:, p])
    suffix = y[:, n - 1].copy()
    for p in range(n - 2, -1, -1):
        q[:, p] *= suffix
        suffix *= y[:, p]
    inner = np.empty_like(y)
    inner[...] = c.term_const[:, :, None]
    if len(c.pair_z):
        z = np.concatenate([reach[edges] @ m for m, edges in c.z_groups], axis=0)
        yflat = y.reshape(t_count * n, h)
        denom = yflat[c.pair_tj]
        ratio = np.divide(z[c.pair_z], denom, out=np.zeros_like(denom), where=denom > 1e-300)
        sums = np.add.reduceat(ratio, c.pair_start, axis=0)
        flat = inner.reshape(t_count * n, h)
        flat[c.pair_tp] += c.term_scale.reshape(-1)[c.pair_tp, None] * sums
    q *= inner
    return q


def backward(
    c: Compiled, sigma: FloatArray | None, term: FloatArray, *, best_response: bool = False
) -> tuple[FloatArray, FloatArray | None]:
    """Node values ``V[node, p, h]`` and (with ``sigma``) the acting player's instantaneous regrets per edge.

    With ``best_response``, each player maximises over its actions at its own
    nodes (every player's best response at once, against the others' ``sigma``).
    """
    n = c.players
    h = term.shape[2]
    values = np.zeros((c.n_nodes, n, h), dtype=term.dtype)
    values[c.term_nodes] = term
    regret = None if best_response or sigma is None else np.zeros((c.n_edges, h), dtype=term.dtype)
    for d_lo, d_hi, e_lo, e_hi in c.dec_levels:
        c_lo = int(c.edge_child[e_lo])
        child = values[c_lo : c_lo + e_hi - e_lo]  # (E_d, N, H): breadth-first, the children are one block
        starts = c.dec_start[d_lo:d_hi] - e_lo
        total = np.add.reduceat(child, starts, axis=0)
        eplayer = c.edge_player[e_lo:e_hi]
        own = child[np.arange(e_hi - e_lo), eplayer]  # (E_d, H)
        if best_response:
            mine = np.maximum.reduceat(own, starts, axis=0)
        else:
            assert sigma is not None
            mine = np.add.reduceat(own * sigma[e_lo:e_hi], starts, axis=0)
            if regret is not None:
                regret[e_lo:e_hi] = own - mine[c.edge_dec[e_lo:e_hi] - d_lo]
        total[np.arange(d_hi - d_lo), c.dec_player[d_lo:d_hi]] = mine
        values[c.dec_nodes[d_lo:d_hi]] = total
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
    term = terminal_values(c, chance, reach)
    on, _ = backward(c, sigma, term)
    br, _ = backward(c, sigma, term, best_response=True)
    w = chance.prior
    vals = tuple(float(on[0, p] @ w) for p in range(c.players))
    best = tuple(float(br[0, p] @ w) for p in range(c.players))
    return Exploitability(vals, best)


@dataclass(slots=True)
class SolveResult:
    """The average strategy (per edge and class), its measured exploitability and the trace of the solve."""

    compiled: Compiled
    average: FloatArray
    iterations: int
    final: Exploitability
    trace: list[tuple[int, float]]


def solve(
    spec: GameSpec,
    chance: Chance,
    iterations: int,
    *,
    model: PayoffModel | None = None,
    check_every: int = 0,
    target_mbb: float = 0.0,
    progress: Callable[[int, float], None] | None = None,
) -> SolveResult:
    """Run DCFR for ``iterations`` iterations (stopping early once a check reaches ``target_mbb``)."""
    model = model or PayoffModel()
    exact = chance
    chance = chance.astype(np.float32)
    c = compile_tree(build_tree(spec), chance, model)
    h = chance.size
    regret = np.zeros((c.n_edges, h), dtype=np.float32)
    avg = np.zeros((c.n_edges, h), dtype=np.float64)
    c64 = compile_tree(c.tree, exact.astype(np.float64), model)
    trace: list[tuple[int, float]] = []
    done = 0
    for t in range(1, iterations + 1):
        sigma = regret_matching(c, regret)
        reach = reaches(c, sigma, chance.prior)
        term = terminal_values(c, chance, reach)
        _, inst = backward(c, sigma, term)
        assert inst is not None
        regret += inst
        ta = t**DCFR_ALPHA
        tb = t**DCFR_BETA
        regret *= np.where(regret > 0, np.float32(ta / (ta + 1)), np.float32(tb / (tb + 1)))
        own = reach[c.dec_own][c.edge_dec]
        avg += (t**DCFR_GAMMA) * (own * sigma)
        done = t
        if check_every and (t % check_every == 0 or t == iterations):
            ex = exploitability(c64, exact, normalise(c, avg))
            trace.append((t, ex.mbb))
            if progress is not None:
                progress(t, ex.mbb)
            if ex.mbb <= target_mbb:
                break
    average = normalise(c, avg)
    final = exploitability(c64, exact, average)
    if not trace or trace[-1][0] != done:
        trace.append((done, final.mbb))
    return SolveResult(c, average, done, final, trace)
