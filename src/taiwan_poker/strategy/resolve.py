"""A heads-up river re-solver: discounted CFR or a logit equilibrium over two ranges, exact multi-deck showdowns.

Issue 50, item 2.  Pure (no I/O, no clock, no randomness).  Strong plays it on heads-up river decisions when
``Params.resolve.river`` is on (:mod:`.river`); ``taiwan_poker_lab.resolve_bench`` measures it.  It solves the
river only; the turn and the flop are not done (see the end).

**What is solved.**  The rest of the hand from a decision on the river, heads-up: the pot, both players'
bets so far on the street, their stacks, who acts and how many bets and raises the street has seen
(:class:`RiverSpot`), and a range for each player (player 0 acts first on the street, player 1 last).  The
game is the betting tree of :class:`Actions` over those two ranges; chance deals the pair of holdings.
A solve (:func:`solve`) returns the acting player's average strategy at the root for its actual holding and
for every holding of its range, the other player's answer to each root action over its whole range, and
the exploitability (:class:`Solution`).

**Cards.**  The holdings are pairs of *physical* cards of the shoe (``Card.index``) that the acting player
has not seen: the board and its own burn (``dead``) are taken out of the shoe; its own hole cards are not
(its range may hold them), but every count against its actual holding leaves them out.  With several decks
two A♠ are two cards, so a holding can be A♠A♠, and a player holding one A♠ leaves the others possible
for the opponent.  Holdings with the same two faces play the same (deck numbers never change strength and
no player can tell them apart), so the solver works on *face combos* (at most 1,378): a face combo
``{f, g}`` stands for its ``r_f·r_g`` physical holdings (``r_f(r_f-1)/2`` for a pair of one face),
``r_f`` being the unseen copies of face ``f``.  A range gives a weight per physical holding of each face
combo; :func:`combo_weights` turns weights over physical holdings into that (the mean over each face
combo: exact when the weights do not depend on deck numbers, the only kind of range a player can hold).
Card removal is counted exactly: for face combos ``A`` and ``B`` the number of (holding of ``A``, holding
of ``B``) pairs with no physical card in common is ``|A|·|B|`` times ``C(r_f - a_f, b_f) / C(r_f, b_f)``
for each face ``f`` they share (``a_f``, ``b_f`` copies of ``f`` in each); :func:`compat` computes it
densely (the reference), and the universe lists once the few per cent of combo pairs that share a face.
Showdowns use the project's evaluator (``evaluate.rank_batch``, the compiled batch kernel): a hand value
per face combo on the board, so win, tie or lose for every pair, weighted by the compatible pairs: the
showdown values are exact for any number of decks (tested against a brute force over physical holdings).

**Buckets.**  Each player's combos with positive weight are sorted by hand value.  ``max_buckets=None``
keeps one information set per face combo (no abstraction).  Otherwise combos of equal hand value share a
bucket (they differ only by card removal) and, when there are more distinct values than ``max_buckets``,
neighbouring values are merged into buckets of about equal range weight (a value is never split, so there
may be fewer buckets than allowed).  The acting player's actual holding always has a bucket of its own, so
its card removal is exact and it gets a strategy even at weight 0.  Bucketing ties strategies only: the
fold and showdown values of the bucketed game are sums of the exact combo-by-combo values over each
bucket's combos, weighted by the range (a product of small matrices over hand values, plus a correction
for each pair of combos sharing a face), so the game solved is "the same game, where a player only learns
its bucket".  ``full_check`` plays the bucketed strategy in the game without buckets: on the bench's spots
32 buckets cost 0.1-1 thousandths of the pot over the bucketed figure (more at 300 iterations, where the
bucketed game is nearly solved).

**Action abstraction** (:class:`Actions`).  Not facing a bet: check, or bet ⅓, ⅔ or 1 pot, or all in.
Facing a bet: fold, call, or raise to ``call + fraction × (pot after the call)`` for the same fractions, or
all in.  Sizes below a minimum bet (one big blind) or a minimum raise (the last increment) are dropped, and
sizes at or above the effective stack become the all-in (what the other can cover; the rest is never at
stake).  ``max_bets`` (3) caps the bets and raises of the street, counting those made before the root;
past it, only fold and call.  Pot 10 and 45 behind: 213 nodes.

**Solver.**  Discounted CFR (Brown & Sandholm 2019; α = 1.5, β = 0, γ = 2, as :mod:`.cfr`) with
alternating updates (simultaneous ones, ``alternating=False``, were ten times further from equilibrium at
400 iterations), vectorised over buckets: the tree is walked depth by depth (all nodes of one depth at
once, padded to the widest action set; heads-up one player acts at each depth), and all terminals of a
player are valued with two matrix products (fold values use the weighted compatible-pair matrix, showdowns
also the wins-plus-half-ties one).  :attr:`Solution.exploitability` is the average strategy's NashConv / 2:
each player's best response to the other's average strategy (exact here: the betting is public, so a max
per node and bucket is a best response), minus the game's total, halved; in chips, and per thousand of the
pot at the root (:attr:`Solution.milli_pot`).  ``check_every`` records it as the iterations go and
``target_milli_pot`` stops at the first check under a target.

**Deterministic.**  No randomness and no clock: a solve is a function of its inputs, bit for bit the same in
two calls, in another process (another hash seed, BLAS on one thread) and whatever the order of the board
cards, the dead cards or the holdings given to :func:`combo_weights` (tested).  It is not smooth in the
last bits: a 1e-14 relative change in the matrices moved a strategy by up to 0.0025 after 100 iterations
(regret matching near ties), which is far from a flip but is why two builds of BLAS on other CPUs could
differ a little.

**Where it stands** (``python -m taiwan_poker_lab.resolve_bench``: 5 seeded spots a deck count, two range
shapes, on a 2-core machine shared with other work, so the CPU time of the process is the steadier figure;
the wall clock was 1-1.5x it at a load of 3 and up to 10x at a load of 8-15).  p95 over the spots, 2 and 6
decks, from the cards (the universe is about 10 ms of it; an iteration about 0.35-0.5 ms):

* 32 buckets, 50 iterations: 34-48 ms CPU; 10-20 thousandths of the pot from equilibrium (10-21 played
  without buckets);
* 32 buckets, 100 iterations: 48-62 ms CPU; 2.5-6.6 thousandths (3.7-6.7 without buckets);
* 96 buckets, 300 iterations: 166-222 ms CPU; 0.3-1.4 thousandths (0.8-3.8 without buckets);
* no buckets (1,378 combos): about 4.5 s for 100 iterations;
* the logit solve Strong plays (32 buckets, 50 steps): 12-31 ms CPU with the universe cached, 35-49
  thousandths of the pot from equilibrium (its smoothing; above).

**Not smooth, so a logit equilibrium.**  The issue wants a 0.05 change in a read to move no action's
probability by more than 0.15.  The DCFR solve does not meet that (``resolve_bench --steadiness``, 32 buckets,
5 % of the opponent's read moved to its weaker half): facing a pot bet some holdings went from a 100 % fold to
a 100 % call.  That is the equilibrium, not noise: where the opponent has no choice left the answer is a best
response, a threshold in the read.  ``temperature`` > 0 solves instead for the *logit* (agent quantal
response) equilibrium: at every node and bucket each action's probability is proportional to
``exp(Q / τ)``, ``Q`` the action's value (chips per holding of the bucket, given the other's reach there)
under both players' strategies, ``τ`` = ``temperature`` × the pot at the root.  It is found by magnetic
mirror descent (Sokota et al. 2023) with a uniform magnet: the logits move as
``z ← (z + η·Q) / (1 + η·τ)``, ``η`` = ``step`` / pot, players alternating, and the last iterate is the
answer (it converges; the average is not needed).  A probability is a softmax, so it moves by at most about
``ΔQ / 4τ`` when a read moves the values by ``ΔQ``, and a holding between a sure call and a sure fold mixes.
Measured (``resolve_bench --steadiness --spots 5``: 20 decisions, τ = 0.15 pot, η = 1 / pot, 50 iterations,
32 buckets): 5 % of the read moved changes no holding's probability by more than 0.116 and flips none (DCFR,
100 and 300 iterations: up to 0.99 and 1.0, 192 and 1,681 holdings flipped between a sure fold and a sure
call); the smoothing costs 35-49 thousandths of the pot in exploitability (DCFR at 300 iterations: 0-1.3).
With ``step`` much larger (η·τ ≳ 0.5) it oscillates.

**Ranges consistent with what Strong played** (not built here; the caller's job).  The range of the acting
player should be its range at the start of the hand times, at each of its own earlier decisions, the
probability its policy gave to the action it took with that holding (Bayes with its own strategy, which
it knows exactly).  Today's Strong does not produce a range strategy, so wiring this in needs either
Strong's policy asked for every holding at each past decision, or (the goal) the re-solver run at every
decision: :func:`after_action` multiplies a range by the solution's strategy for the action taken, the range
for the next re-solve.  The opponent's range is the read of it (the weights the post-flop read gives each
holding), passed in as weights.  Both stay outside this module.

**Left to do.**

* The turn.  The river card is a chance node: up to 52 faces, each with its unseen copies, and card
  removal changes per card (a holding using the river's face loses a copy).  The bucket-level trick used
  here needs each bucket's mix of combos fixed by the ranges; after the turn's betting the mix inside a
  river bucket depends on the turn strategy, so the turn needs either combo-level reach at the river's
  chance nodes (1,378 combos x 48 river cards x the river tree: a far smaller river action set, or river
  cards sampled) or buckets on the turn that the river keeps.  Then the flop (the same, two levels deep).
* Speed: the iterations are bound by NumPy's per-call cost (about 60 calls a half-iteration), not by the
  buckets; a compiled loop, a smaller tree, or warm starts from the previous decision's solve would buy
  the rest of the budget.
* Ranges as played: :mod:`.river` gives Strong's own range as the read of its public line, not the
  probabilities it played (see there); the coach still explains a re-solved decision by equity and price.
* Strength: played by Strong on heads-up river decisions it lost to today's Strong (duplicate, 12,000 deals
  a deck count: -5.0 [-22.3, +12.4] bb/100 at 2 decks, -16.0 [-33.3, +1.4] at 6), so it ships off.  Its
  uniform prior bets 58 % of unbet river spots (the rules 25 %); ``by_kind`` (42 %) played -2.1
  [-25.5, +21.3] at 2 decks and +9.6 [-14.4, +33.7] at 6 (6,000 deals each) but bluff-raises the worst
  hands facing a bet; off too.  Not
  yet tried: a lower temperature where the read cannot move the answer much (with no bet to call the moves
  were 0.03 at 0.15 pot), the habits (the rules read them on the river; this reads only the ranges), and
  the own range from the probabilities played.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import CARDS_PER_DECK, check_decks
from ..evaluate import rank_batch

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

DCFR_ALPHA = 1.5
DCFR_BETA = 0.0
DCFR_GAMMA = 2.0

FOLD, CHECK, CALL, BET, RAISE, ALLIN = "fold", "check", "call", "bet", "raise", "all-in"


# ---------------------------------------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class Actions:
    """The action abstraction: bet and raise sizes as fractions of the pot, all in, a cap on bets+raises."""

    bet_fractions: tuple[float, ...] = (1 / 3, 2 / 3, 1.0)
    raise_fractions: tuple[float, ...] = (1 / 3, 2 / 3, 1.0)
    allin: bool = True
    max_bets: int = 3


@dataclass(frozen=True, slots=True)
class RiverSpot:
    """A heads-up river decision seen by the acting player.

    ``board``: the five board cards, ``hole``: the actor's two cards, ``dead``: other cards the actor saw
    (its burn), all physical indices (``Card.index``).  ``pot``: chips in the pot from earlier streets;
    ``bets``: what each player put in on this street so far; ``stacks``: chips behind.  Player 0 acts first
    on the street.  ``bets_made``: bets and raises already made on the street.
    """

    decks: int
    board: tuple[int, ...]
    hole: tuple[int, int]
    pot: float
    stacks: tuple[float, float]
    actor: int = 0
    bets: tuple[float, float] = (0.0, 0.0)
    dead: tuple[int, ...] = ()
    bets_made: int = 0
    big_blind: float = 1.0


# ------------------------------------------------------------------------------------------------ cards


@dataclass(frozen=True, slots=True)
class Universe:
    """The face combos a holding can be, given the cards the actor saw (board and dead, not its hole)."""

    remaining: IntArray  # unseen copies of each of the 52 faces
    faces: IntArray  # n x 2 faces, f <= g, sorted
    counts: FloatArray  # physical holdings per combo
    values: IntArray  # hand value on the board (higher wins)
    shared: tuple[IntArray, IntArray, FloatArray]  # the pairs of combos sharing a face, and their factor


@lru_cache(maxsize=64)
def _universe(decks: int, removed: tuple[int, ...], board_faces: tuple[int, ...]) -> Universe:
    remaining = np.full(CARDS_PER_DECK, decks, dtype=np.int64)
    for card in removed:
        remaining[card % CARDS_PER_DECK] -= 1
    f, g = np.triu_indices(CARDS_PER_DECK)  # f <= g, in a fixed order
    rf, rg = remaining[f], remaining[g]
    counts = np.where(f == g, rf * (rf - 1) // 2, rf * rg).astype(np.float64)
    keep = counts > 0
    faces = np.stack([f[keep], g[keep]], axis=1).astype(np.int64)
    rows = np.concatenate([faces, np.broadcast_to(np.array(board_faces), (len(faces), 5))], axis=1)
    values = rank_batch(rows.astype(np.int16)).astype(np.int64)
    for a in (remaining, faces, values):
        a.setflags(write=False)
    counts = counts[keep]
    counts.setflags(write=False)
    bare = Universe(remaining, faces, counts, values, (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)))
    every = np.arange(len(faces))
    shared = _sharing_pairs(bare, every, every)
    for part in shared:
        part.setflags(write=False)
    return Universe(remaining, faces, counts, values, shared)


def universe(spot: RiverSpot) -> Universe:
    """The face combos of ``spot`` (cached per deck count and seen cards)."""
    check_decks(spot.decks)
    if len(spot.board) != 5:
        raise ValueError("the river needs five board cards")
    seen = (*spot.board, *spot.dead)
    every = (*seen, *spot.hole)
    if len(set(every)) != len(every) or any(not 0 <= c < spot.decks * CARDS_PER_DECK for c in every):
        raise ValueError("board, hole and dead cards must be distinct physical cards of the shoe")
    return _universe(spot.decks, tuple(sorted(seen)), tuple(sorted(c % CARDS_PER_DECK for c in spot.board)))


def combo_index(u: Universe, faces: tuple[int, int]) -> int:
    """The row of ``u.faces`` of a face pair."""
    f, g = sorted(faces)
    hit = np.flatnonzero((u.faces[:, 0] == f) & (u.faces[:, 1] == g))
    if len(hit) != 1:
        raise ValueError(f"faces {faces} are not a possible holding")
    return int(hit[0])


def combo_weights(u: Universe, holdings: npt.ArrayLike, weights: npt.ArrayLike) -> FloatArray:
    """A weight per physical holding of each face combo: the mean over its holdings (absent ones count 0).

    ``holdings``: ``m x 2`` physical indices; holdings that use a seen card are impossible and dropped.
    """
    h = np.asarray(holdings, dtype=np.int64).reshape(-1, 2)
    w = np.asarray(weights, dtype=np.float64).reshape(-1)
    if len(h) != len(w):
        raise ValueError("one weight per holding")
    fa, fb = np.minimum(h[:, 0] % CARDS_PER_DECK, h[:, 1] % CARDS_PER_DECK), np.maximum(
        h[:, 0] % CARDS_PER_DECK, h[:, 1] % CARDS_PER_DECK)
    lookup = np.full((CARDS_PER_DECK, CARDS_PER_DECK), -1, dtype=np.int64)
    lookup[u.faces[:, 0], u.faces[:, 1]] = np.arange(len(u.faces))
    rows = lookup[fa, fb]
    ok = (rows >= 0) & (h[:, 0] != h[:, 1])
    out = np.zeros(len(u.faces), dtype=np.float64)
    np.add.at(out, rows[ok], w[ok])
    return out / u.counts


def physical_holdings(decks: int, removed: Sequence[int]) -> IntArray:
    """Every pair of physical cards of the shoe not in ``removed``, as ``m x 2`` indices (low, high)."""
    cards = np.setdiff1d(np.arange(decks * CARDS_PER_DECK), np.asarray(removed, dtype=np.int64))
    i, j = np.triu_indices(len(cards), k=1)
    return np.stack([cards[i], cards[j]], axis=1)


@cache
def _ratio_table() -> FloatArray:
    """``C(r - a, b) / C(r, b)``: the share of ``b`` copies of a face left for one side after ``a`` are taken."""
    t = np.zeros((CARDS_PER_DECK, 3, 3))
    for r in range(t.shape[0]):
        for a in range(3):
            for b in range(3):
                t[r, a, b] = math.comb(r - a, b) / math.comb(r, b) if r >= a and math.comb(r, b) else 0.0
    t.setflags(write=False)
    return t


def compat(u: Universe, rows: IntArray, cols: IntArray) -> FloatArray:
    """Pairs of physical holdings (one of combo ``rows[i]``, one of ``cols[j]``) with no card in common."""
    table = _ratio_table()
    fa, fb = u.faces[rows], u.faces[cols]
    out = u.counts[rows][:, None] * u.counts[cols][None, :]
    pair = fa[:, 0] == fa[:, 1]
    for slot in (0, 1):
        face = fa[:, slot]
        a = np.where(pair, 2, 1) if slot == 0 else np.ones(len(rows), dtype=np.int64)
        b = (fb[None, :, 0] == face[:, None]).astype(np.int64) + (fb[None, :, 1] == face[:, None])
        ratio = table[u.remaining[face][:, None], a[:, None], b]
        if slot == 1:
            ratio = np.where(pair[:, None], 1.0, ratio)
        out *= ratio
    return out


# ------------------------------------------------------------------------------------------------- tree


@dataclass(frozen=True, slots=True)
class Tree:
    """The betting tree, nodes in breadth-first order (node 0 the root; node ``n_nodes`` a padding sink)."""

    n_nodes: int
    kind: IntArray  # 0 decision, 1 fold, 2 showdown
    final_pot: FloatArray  # the pot at a terminal (all chips in)
    added: FloatArray  # n x 2: chips each player adds after the root
    folder: IntArray  # who folded (fold terminals), else -1
    depth_nodes: tuple[IntArray, ...]  # decision nodes by depth
    depth_actor: tuple[int, ...]
    children: IntArray  # decision node -> its children (padded with n_nodes), rows indexed by node
    mask: BoolArray  # which action slots exist
    local: IntArray  # a decision node's row in its player's regret array
    labels: tuple[tuple[str, ...], ...]  # a decision node's actions (empty for terminals)
    amounts: tuple[tuple[float, ...], ...]  # chips the node's actor puts in with each
    root_pot: float


def _sizes(pot_now: float, s_me: float, s_other: float, cap: float, fracs: Sequence[float], allin: bool,
           minimum: float) -> list[float]:
    """Street totals the actor can bet or raise to (ascending, distinct), the all-in last."""
    to_call = s_other - s_me
    base = pot_now + to_call
    out: list[float] = []
    for frac in fracs:
        total = s_other + frac * base
        if total >= cap:
            out.append(cap)  # a size the stack cannot make is the all-in
            continue
        if total - s_other < minimum - 1e-9:
            continue
        out.append(round(total, 9))
    if allin and cap > s_other:
        out.append(cap)
    return sorted(set(out))


def build_tree(spot: RiverSpot, actions: Actions = Actions()) -> Tree:
    """The betting tree of ``spot`` under ``actions`` (effective stacks: what one side cannot cover goes back)."""
    s0, s1 = spot.bets
    cap = min(s0 + spot.stacks[0], s1 + spot.stacks[1])
    s0, s1 = min(s0, cap), min(s1, cap)
    root_pot = spot.pot + s0 + s1
    root_bets = (s0, s1)
    # state: (bets, actor, checked_before, bets_made, last_increment)
    kind: list[int] = []
    pot: list[float] = []
    added: list[tuple[float, float]] = []
    folder: list[int] = []
    depth: list[int] = []
    actor_of: list[int] = []
    kids: list[list[int]] = []
    labels: dict[int, tuple[str, ...]] = {}
    amounts: dict[int, tuple[float, ...]] = {}
    queue: list[tuple[int, tuple[float, float], int, bool, int, float]] = []

    def add_node(k: int, bets: tuple[float, float], d: int, who: int, fold_by: int = -1) -> int:
        kind.append(k)
        pot.append(spot.pot + bets[0] + bets[1])
        added.append((bets[0] - root_bets[0], bets[1] - root_bets[1]))
        folder.append(fold_by)
        depth.append(d)
        actor_of.append(who)
        kids.append([])
        return len(kind) - 1

    root = add_node(0, root_bets, 0, spot.actor)
    first_inc = abs(s0 - s1) if s0 != s1 else spot.big_blind
    queue.append((root, root_bets, spot.actor, spot.actor == 1 and s0 == s1, spot.bets_made, first_inc))
    head = 0
    while head < len(queue):
        node, bets, me, checked, made, inc = queue[head]
        head += 1
        other = 1 - me
        d = depth[node] + 1
        s_me, s_other = bets[me], bets[other]

        def put(total: float, b: tuple[float, float] = bets, who: int = me) -> tuple[float, float]:
            return (total, b[1]) if who == 0 else (b[0], total)

        moves: list[tuple[str, float, int]] = []  # label, street total, child
        if s_other > s_me:
            moves.append((FOLD, s_me, add_node(1, bets, d, -1, me)))
            moves.append((CALL, s_other, add_node(2, put(s_other), d, -1)))
            if made < actions.max_bets and s_other < cap:
                for total in _sizes(pot[node], s_me, s_other, cap, actions.raise_fractions, actions.allin,
                                    max(inc, spot.big_blind)):
                    child = add_node(0, put(total), d, other)
                    queue.append((child, put(total), other, False, made + 1, total - s_other))
                    moves.append((ALLIN if total >= cap else RAISE, total, child))
        else:
            if checked:
                moves.append((CHECK, s_me, add_node(2, bets, d, -1)))
            else:
                child = add_node(0, bets, d, other)
                queue.append((child, bets, other, True, made, inc))
                moves.append((CHECK, s_me, child))
            if made < actions.max_bets and s_me < cap:
                for total in _sizes(pot[node], s_me, s_other, cap, actions.bet_fractions, actions.allin,
                                    spot.big_blind):
                    child = add_node(0, put(total), d, other)
                    queue.append((child, put(total), other, False, made + 1, total - s_other))
                    moves.append((ALLIN if total >= cap else BET, total, child))
        kids[node] = [c for _, _, c in moves]
        names: list[str] = []
        for label, total, _ in moves:
            amount = total - s_me
            if label in (BET, RAISE):
                label = f"{label} {amount:.4g} ({(total - s_other) / (pot[node] + s_other - s_me):.0%} pot)"
            elif label in (CALL, ALLIN):
                label = f"{label} {amount:.4g}"
            names.append(label)
        labels[node] = tuple(names)
        amounts[node] = tuple(total - s_me for _, total, _ in moves)
    n = len(kind)
    # decision nodes first, depth by depth, then the folds, then the showdowns: every level of decisions
    # and each kind of terminal is a contiguous run of nodes (slices, not gathers, in the solver's loops)
    order = sorted(range(n), key=lambda i: (kind[i], depth[i], i))
    new = np.empty(n, dtype=np.int64)
    new[order] = np.arange(n)
    width = max(len(k) for k in kids)
    children = np.full((n, width), n, dtype=np.int64)
    mask = np.zeros((n, width), dtype=bool)
    for old in range(n):
        row = new[old]
        for j, c in enumerate(kids[old]):
            children[row, j] = new[c]
            mask[row, j] = True
    kind_a = np.array(kind, dtype=np.int64)[order]
    depth_a = np.array(depth, dtype=np.int64)[order]
    actor_a = np.array(actor_of, dtype=np.int64)[order]
    local = np.full(n, -1, dtype=np.int64)
    counters = [0, 0]
    depth_nodes: list[IntArray] = []
    depth_actor: list[int] = []
    for dd in range(int(depth_a.max()) + 1):
        nodes = np.flatnonzero((depth_a == dd) & (kind_a == 0))
        if len(nodes) == 0:
            continue
        who = {int(a) for a in actor_a[nodes]}
        assert len(who) == 1, "heads-up: one actor per depth"
        p = who.pop()
        local[nodes] = counters[p] + np.arange(len(nodes))
        counters[p] += len(nodes)
        depth_nodes.append(nodes)
        depth_actor.append(p)
    return Tree(
        n_nodes=n,
        kind=kind_a,
        final_pot=np.array(pot, dtype=np.float64)[order],
        added=np.array(added, dtype=np.float64)[order],
        folder=np.array(folder, dtype=np.int64)[order],
        depth_nodes=tuple(depth_nodes),
        depth_actor=tuple(depth_actor),
        children=children,
        mask=mask,
        local=local,
        labels=tuple(labels.get(old, ()) for old in order),
        amounts=tuple(amounts.get(old, ()) for old in order),
        root_pot=root_pot,
    )


# ---------------------------------------------------------------------------------------------- buckets


@dataclass(frozen=True, slots=True)
class Side:
    """One player's part of the game: its combos, their buckets and its payoff matrices against the other."""

    combos: IntArray  # rows of the universe, sorted by bucket
    bucket: IntArray  # bucket of each combo
    starts: IntArray  # first combo of each bucket
    mass: FloatArray  # range weight of each bucket (physical holdings x weight)
    fold: FloatArray  # K x K_other: compatible-pair weight (per holding of the bucket, averaged)
    equity: FloatArray  # K x K_other: the same, wins + half the ties


def _buckets(values: IntArray, mass: FloatArray, rows: IntArray, limit: int | None,
             single: int | None) -> tuple[IntArray, IntArray]:
    """Combos (rows) ordered by bucket and their bucket numbers; ``single`` gets a bucket of its own, first."""
    pool = rows if single is None else rows[rows != single]
    order = np.lexsort((pool, values[pool]))
    pool = pool[order]
    v = values[pool]
    if limit is None:
        group = np.arange(len(pool), dtype=np.int64)
    else:
        group = np.concatenate([[0], np.cumsum(v[1:] != v[:-1])]).astype(np.int64)
        groups = int(group[-1]) + 1 if len(group) else 0
        room = limit - (single is not None)
        if groups > room > 0:
            gm = np.bincount(group, weights=mass[pool], minlength=groups)
            cum = np.cumsum(gm)
            total = cum[-1] if len(cum) else 0.0
            mid = (cum - gm / 2) / total if total > 0 else (np.arange(groups) + 0.5) / groups
            merged = np.minimum((mid * room).astype(np.int64), room - 1)
            merged = np.concatenate([[0], np.cumsum(merged[1:] != merged[:-1])]).astype(np.int64)
            group = merged[group]
    if single is not None:
        pool = np.concatenate([[single], pool]).astype(np.int64)
        group = np.concatenate([[0], group + 1]).astype(np.int64)
    return pool, group


def _reduce(m: FloatArray, starts_r: IntArray, starts_c: IntArray) -> FloatArray:
    """Sum the blocks of ``m`` (rows and columns already grouped by bucket)."""
    out: FloatArray = np.add.reduceat(np.add.reduceat(m, starts_r, axis=0), starts_c, axis=1)
    return out


def _sharing_pairs(u: Universe, rows: IntArray, cols: IntArray) -> tuple[IntArray, IntArray, FloatArray]:
    """Every (row, column) position pair whose combos share a face, once, with its factor ``R``: the
    compatible pairs over ``|A|·|B|`` (pairs sharing no face have ``R`` = 1 and are not listed)."""
    fa, fb = u.faces[rows], u.faces[cols]
    # the columns holding each face: an incidence list sorted by face (a pair of one face is listed once)
    col_pos = np.concatenate([np.arange(len(cols)), np.flatnonzero(fb[:, 1] != fb[:, 0])])
    col_face = np.concatenate([fb[:, 0], fb[fb[:, 1] != fb[:, 0], 1]])
    order = np.argsort(col_face, kind="stable")
    col_pos, col_face = col_pos[order], col_face[order]
    per_face = np.bincount(col_face, minlength=CARDS_PER_DECK)
    first = np.concatenate([[0], np.cumsum(per_face)[:-1]])
    out_i: list[IntArray] = []
    out_j: list[IntArray] = []
    for slot in (0, 1):
        face = fa[:, slot]
        live = np.arange(len(rows)) if slot == 0 else np.flatnonzero(fa[:, 1] != fa[:, 0])
        n = per_face[face[live]]
        i = np.repeat(live, n)
        offset = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        j = col_pos[first[face[i]] + offset]
        if slot == 1:  # a column holding both faces was listed with the first already
            keep = (fb[j, 0] != fa[i, 0]) & (fb[j, 1] != fa[i, 0])
            i, j = i[keep], j[keep]
        out_i.append(i)
        out_j.append(j)
    i, j = np.concatenate(out_i), np.concatenate(out_j)
    table = _ratio_table()
    ratio = np.ones(len(i))
    pair = fa[i, 0] == fa[i, 1]
    for slot in (0, 1):
        face = fa[i, slot]
        a = np.where(pair, 2, 1) if slot == 0 else np.ones(len(i), dtype=np.int64)
        b = (fb[j, 0] == face).astype(np.int64) + (fb[j, 1] == face)
        r = table[u.remaining[face], a, b]
        ratio *= np.where(pair, 1.0, r) if slot == 1 else r
    return i, j, ratio


def _kept_pairs(u: Universe, rows: IntArray, cols: IntArray) -> tuple[IntArray, IntArray, FloatArray]:
    """:func:`_sharing_pairs` of these rows and columns, taken from the universe's list."""
    at_row = np.full(len(u.faces), -1, dtype=np.int64)
    at_row[rows] = np.arange(len(rows))
    at_col = np.full(len(u.faces), -1, dtype=np.int64)
    at_col[cols] = np.arange(len(cols))
    a, b, ratio = u.shared
    i, j = at_row[a], at_col[b]
    keep = (i >= 0) & (j >= 0)
    return i[keep], j[keep], ratio[keep]


def _by_value(values: IntArray, group: IntArray, weight: FloatArray, levels: IntArray, k: int) -> FloatArray:
    """``k x len(levels)``: the weight of each bucket's combos at each hand value."""
    at = np.searchsorted(levels, values)
    flat = np.bincount(group * len(levels) + at, weights=weight, minlength=k * len(levels))
    return np.asarray(flat, dtype=np.float64).reshape(k, len(levels))


def sides(u: Universe, weights: tuple[FloatArray, FloatArray], actor: int, hole_combo: int,
          max_buckets: int | None, *, dense: bool = False) -> tuple[Side, Side, float]:
    """Both players' sides and the total weight of the deals (compatible pairs x weights).

    The bucket matrices are sums over combo pairs: a pair sharing no face has ``|A|·|B|`` compatible
    holdings, so the dense part is a product of small matrices over hand values (who wins depends on the
    values only), and the pairs that share a face (a few per cent) are corrected one by one.  ``dense``
    builds the full combo-by-combo matrices instead (the reference, O(combos²)).
    """
    rows_b: list[IntArray] = []
    groups: list[IntArray] = []
    for p in (0, 1):
        w = weights[p]
        rows = np.flatnonzero(w > 0)
        single = hole_combo if p == actor else None
        if single is not None:
            rows = np.union1d(rows, [single]).astype(np.int64)
        if len(rows) == 0:
            raise ValueError(f"player {p}'s range is empty")
        r, g = _buckets(u.values, w * u.counts, rows, max_buckets, single)
        rows_b.append(r)
        groups.append(g)
    starts: list[IntArray] = []
    masses: list[FloatArray] = []  # per bucket
    combo_mass: list[FloatArray] = []  # per combo: weight x holdings
    shares: list[FloatArray] = []  # per combo: its share of its bucket
    for p in (0, 1):
        rows, group = rows_b[p], groups[p]
        st = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]).astype(np.int64)
        mass_c = weights[p][rows] * u.counts[rows]
        mass = np.add.reduceat(mass_c, st)
        # within a bucket, combos count by their weight (uniformly by holdings when the bucket weighs 0)
        share = np.where(mass[group] > 0, mass_c / np.where(mass[group] > 0, mass[group], 1.0), 0.0)
        empty = mass[group] <= 0
        if empty.any():
            holdings = np.add.reduceat(u.counts[rows], st)
            share = np.where(empty, u.counts[rows] / holdings[group], share)
        starts.append(st)
        masses.append(mass)
        combo_mass.append(mass_c)
        shares.append(share)
    k = (len(masses[0]), len(masses[1]))
    folds: list[FloatArray] = []
    equities: list[FloatArray] = []
    if dense:
        c01 = compat(u, rows_b[0], rows_b[1])
        v0, v1 = u.values[rows_b[0]], u.values[rows_b[1]]
        beats = (v0[:, None] > v1[None, :]).astype(np.float64) + 0.5 * (v0[:, None] == v1[None, :])
        for p in (0, 1):
            o = 1 - p
            c = c01 if p == 0 else c01.T
            win = beats if p == 0 else 1.0 - beats.T
            per_holding = c / u.counts[rows_b[p]][:, None] * weights[o][rows_b[o]][None, :]
            folds.append(_reduce(shares[p][:, None] * per_holding, starts[p], starts[o]))
            equities.append(_reduce(shares[p][:, None] * per_holding * win, starts[p], starts[o]))
    else:
        i, j, ratio = _kept_pairs(u, rows_b[0], rows_b[1])
        delta = ratio - 1.0
        vi, vj = u.values[rows_b[0]][i], u.values[rows_b[1]][j]
        win_ij = (vi > vj) + 0.5 * (vi == vj)
        levels = np.unique(np.concatenate([u.values[rows_b[0]], u.values[rows_b[1]]]))
        beats_v = (levels[:, None] > levels[None, :]) + 0.5 * (levels[:, None] == levels[None, :])
        pos = (i, j)
        for p in (0, 1):
            o = 1 - p
            share_v = _by_value(u.values[rows_b[p]], groups[p], shares[p], levels, k[p])
            mass_v = _by_value(u.values[rows_b[o]], groups[o], combo_mass[o], levels, k[o])
            fold = np.broadcast_to(masses[o][None, :], (k[p], k[o])).copy()
            equity = share_v @ beats_v @ mass_v.T
            me, them = pos[p], pos[o]
            cell = groups[p][me] * k[o] + groups[o][them]
            corr = shares[p][me] * combo_mass[o][them] * delta
            fold += np.bincount(cell, weights=corr, minlength=k[p] * k[o]).reshape(k[p], k[o])
            won = win_ij if p == 0 else 1.0 - win_ij
            equity += np.bincount(cell, weights=corr * won, minlength=k[p] * k[o]).reshape(k[p], k[o])
            folds.append(fold)
            equities.append(equity)
    out = [Side(rows_b[p], groups[p], starts[p], masses[p], folds[p], equities[p]) for p in (0, 1)]
    total = float(masses[0] @ folds[0].sum(axis=1))
    return out[0], out[1], total


# ----------------------------------------------------------------------------------------------- solver


@dataclass(frozen=True, slots=True)
class Reply:
    """The other player's answer to a root action: its actions and their frequencies over its whole range."""

    labels: tuple[str, ...]
    frequencies: FloatArray  # weighted by the range (its reach is 1 here: it has not acted since the root)


@dataclass(frozen=True, slots=True)
class Solution:
    """The root strategy of a solve and how far it is from an equilibrium."""

    labels: tuple[str, ...]  # the actor's root actions
    amounts: tuple[float, ...]  # chips each root action puts in
    replies: tuple[Reply | None, ...]  # after each root action, the other player's answer (None: hand over)
    strategy: FloatArray  # probability of each root action with the actor's actual holding
    combos: IntArray  # the actor's face combos (k x 2 faces) ...
    range_strategy: FloatArray  # ... and the strategy of each (k x actions)
    exploitability: float  # chips: (best response of each side against the other's average - total) / 2
    best_responses: tuple[float, float]  # each player's best-response value (chips, from the root)
    value: float  # the actor's value of the average strategies (chips)
    root_pot: float
    iterations: int  # iterations run (fewer than asked when the target was met)
    nodes: int
    buckets: tuple[int, int]
    combo_counts: tuple[int, int]
    holdings: tuple[int, int]  # physical holdings with positive weight (the actor's own included)
    trace: tuple[tuple[int, float], ...]  # (iteration, exploitability in chips) when checked
    full_exploitability: float | None = None  # chips: the bucketed strategy's, in the game without buckets

    @property
    def milli_pot(self) -> float:
        """Exploitability per thousand of the pot at the root."""
        return 1000.0 * self.exploitability / self.root_pot


def _strategy(regret: FloatArray, mask: BoolArray) -> FloatArray:
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=1, keepdims=True)
    uniform = mask[:, :, None] / mask.sum(axis=1)[:, None, None]
    out: FloatArray = np.where(total > 0, pos / np.where(total > 0, total, 1.0), uniform)
    return out


class _Game:
    """The compiled game: tree, sides and terminal tables."""

    def __init__(self, tree: Tree, side: tuple[Side, Side], total: float) -> None:
        self.tree = tree
        self.side = side
        self.total = total
        self.k = (len(side[0].mass), len(side[1].mass))
        n = tree.n_nodes
        self.fold_nodes = np.flatnonzero(tree.kind == 1)
        self.sd_nodes = np.flatnonzero(tree.kind == 2)
        self.term = np.concatenate([self.fold_nodes, self.sd_nodes])
        self.nf = len(self.fold_nodes)
        pot_sd = tree.final_pot[self.sd_nodes]
        self.fold_u: list[FloatArray] = []
        self.sd_add: list[FloatArray] = []
        for p in (0, 1):
            folded = tree.folder[self.fold_nodes]
            add_p = tree.added[self.fold_nodes, p]
            u = np.where(folded == p, -add_p, tree.final_pot[self.fold_nodes] - add_p)
            self.fold_u.append(u)
            self.sd_add.append(tree.added[self.sd_nodes, p])
        self.sd_pot = pot_sd
        self.rows = [tree.local[d] for d in tree.depth_nodes]
        for d in (*tree.depth_nodes, *self.rows, self.fold_nodes, self.sd_nodes, self.term):
            assert len(d) == 0 or np.array_equal(d, np.arange(d[0], d[0] + len(d))), "contiguous runs"
        self.node_sl = [slice(int(d[0]), int(d[0]) + len(d)) for d in tree.depth_nodes]
        self.row_sl = [slice(int(r[0]), int(r[0]) + len(r)) for r in self.rows]
        first = int(self.term[0]) if len(self.term) else 0
        self.term_sl = slice(first, first + len(self.term))
        self.fold_sl = slice(first, first + len(self.fold_nodes))
        self.sd_sl = slice(first + len(self.fold_nodes), first + len(self.term))
        self.count = [int(sum(len(d) for d, a in zip(tree.depth_nodes, tree.depth_actor, strict=True) if a == p))
                      for p in (0, 1)]
        self.width = tree.children.shape[1]
        self.kids = [tree.children[d] for d in tree.depth_nodes]
        masks = [tree.mask[d][:, :, None] for d in tree.depth_nodes]
        self.levels_up = list(zip(self.node_sl, tree.depth_actor, self.row_sl, self.kids, masks, strict=True))[::-1]
        del n

    def reach(self, q: int, sigma: FloatArray) -> FloatArray:
        """Player ``q``'s own reach of every node under its strategy ``sigma`` (it depends on nothing else)."""
        reach = np.ones((self.tree.n_nodes + 1, self.k[q]))
        for nodes, p, rows, ch in zip(self.node_sl, self.tree.depth_actor, self.row_sl, self.kids, strict=True):
            r = reach[nodes][:, None, :]
            reach[ch] = r * sigma[rows] if q == p else r
        return reach

    def reaches(self, sigma: Sequence[FloatArray]) -> list[FloatArray]:
        return [self.reach(q, sigma[q]) for q in (0, 1)]

    def terminal(self, p: int, reach_other: FloatArray) -> FloatArray:
        """Values for ``p`` at every node (terminals filled), given the other's reach."""
        s = self.side[p]
        v = np.zeros((self.tree.n_nodes + 1, self.k[p]))
        ro = reach_other[self.term_sl]
        # einsum, not BLAS: OpenBLAS splits these products by its thread count, and the sums then differ in the
        # last bits between processes (one thread or two): the same spot must give the same answer anywhere
        a = np.einsum("ij,kj->ik", ro, s.fold)
        f = self.nf
        v[self.fold_sl] = self.fold_u[p][:, None] * a[:f]
        e = np.einsum("ij,kj->ik", ro[f:], s.equity)
        v[self.sd_sl] = self.sd_pot[:, None] * e - self.sd_add[p][:, None] * a[f:]
        return v

    def backward(self, p: int, v: FloatArray, sigma: FloatArray | None,
                 regret: FloatArray | None) -> FloatArray:
        """Fill decision nodes' values for ``p`` (best response when ``sigma`` is None); regrets into ``regret``."""
        for nodes, actor, rows, ch, m in self.levels_up:
            vc = v[ch]
            if actor == p:
                if sigma is None:
                    v[nodes] = np.where(m, vc, -np.inf).max(axis=1)
                else:
                    s = sigma[rows]
                    v[nodes] = (s * vc).sum(axis=1)
                    if regret is not None:
                        regret[rows] += np.where(m, vc - v[nodes][:, None, :], 0.0)
            else:
                v[nodes] = (vc * m).sum(axis=1)
        return v


def _hole_combo(u: Universe, spot: RiverSpot) -> int:
    return combo_index(u, (spot.hole[0] % CARDS_PER_DECK, spot.hole[1] % CARDS_PER_DECK))


def solve(
    spot: RiverSpot,
    ranges: tuple[npt.ArrayLike, npt.ArrayLike],
    *,
    iterations: int = 300,
    actions: Actions = Actions(),
    max_buckets: int | None = 96,
    check_every: int = 0,
    alternating: bool = True,
    full_check: bool = False,
    target_milli_pot: float = 0.0,
    temperature: float = 0.0,
    step: float = 1.0,
    by_kind: bool = False,
) -> Solution:
    """Solve the river from ``spot`` for ``iterations`` DCFR iterations.

    ``ranges``: per player, a weight per physical holding of each face combo of :func:`universe` (see
    :func:`combo_weights`).  ``check_every``: record the exploitability every so many iterations.
    ``target_milli_pot``: stop at a check (``check_every``) once the exploitability is at most this many
    thousandths of the pot (a count of iterations and a target, never a clock: the answer stays a function of
    the inputs).  ``full_check``: also measure the average strategy, each combo playing its bucket's, in the
    game without buckets (what the buckets cost).  ``temperature`` > 0: the logit equilibrium of that temperature
    (in pots at the root) by ``iterations`` steps of mirror descent of size ``step`` (per pot) instead, the last
    iterate returned (the module docstring; ``check_every`` and the target are then unused).  ``by_kind``: the
    logit's prior (magnet) gives each kind of action (fold, check or call, bet or raise of any size) the same
    weight, shared by the sizes of a kind, instead of each action the same.
    """
    u = universe(spot)
    w = tuple(np.asarray(r, dtype=np.float64).reshape(-1) for r in ranges)
    if any(len(x) != len(u.faces) for x in w) or any((x < 0).any() or not np.isfinite(x).all() for x in w):
        raise ValueError("each range needs a finite, non-negative weight per face combo of the universe")
    hole = _hole_combo(u, spot)
    s0, s1, total = sides(u, (w[0], w[1]), spot.actor, hole, max_buckets)
    tree = build_tree(spot, actions)
    game = _Game(tree, (s0, s1), total)
    width = game.width
    regret = [np.zeros((game.count[p], width, game.k[p])) for p in (0, 1)]
    average = [np.zeros_like(r) for r in regret]
    masks = [np.zeros((game.count[p], width), dtype=bool) for p in (0, 1)]
    own_nodes = [np.zeros(game.count[p], dtype=np.int64) for p in (0, 1)]
    for nodes, p, rows in zip(tree.depth_nodes, tree.depth_actor, game.rows, strict=True):
        masks[p][rows] = tree.mask[nodes]
        own_nodes[p][rows] = nodes
    trace: list[tuple[int, float]] = []
    t = 0
    if temperature > 0:
        avg, t = _smooth(game, masks, iterations, temperature * tree.root_pot, step / tree.root_pot, by_kind)
        return _solution(spot, u, w, hole, game, avg, t, trace, full_check, max_buckets)
    turns: tuple[tuple[int, ...], ...] = ((0,), (1,)) if alternating else ((0, 1),)
    sigma = [_strategy(regret[p], masks[p]) for p in (0, 1)]
    reach = game.reaches(sigma)
    for t in range(1, iterations + 1):
        ta, tb = t**DCFR_ALPHA, t**DCFR_BETA
        weight = float(t) ** DCFR_GAMMA
        for turn in turns:
            for p in turn:
                v = game.terminal(p, reach[1 - p])
                game.backward(p, v, sigma[p], regret[p])
                regret[p] *= np.where(regret[p] > 0, ta / (ta + 1), tb / (tb + 1))
                average[p] += weight * reach[p][own_nodes[p]][:, None, :] * sigma[p]
            for p in turn:  # a player's strategy and reach change only when its regrets do
                sigma[p] = _strategy(regret[p], masks[p])
                reach[p] = game.reach(p, sigma[p])
        if check_every and t % check_every == 0:
            trace.append((t, _exploitability(game, _normalise(average, masks))[0]))
            if 1000 * trace[-1][1] / tree.root_pot <= target_milli_pot:
                break
    return _solution(spot, u, w, hole, game, _normalise(average, masks), t, trace, full_check, max_buckets)


def _solution(spot: RiverSpot, u: Universe, w: tuple[FloatArray, ...], hole: int, game: _Game,
              avg: list[FloatArray], t: int, trace: list[tuple[int, float]], full_check: bool,
              max_buckets: int | None) -> Solution:
    tree = game.tree
    s0, s1 = game.side
    expl, brs, value = _exploitability(game, avg)
    side = game.side[spot.actor]
    root_rows = avg[spot.actor][tree.local[0]]  # width x K
    n_actions = int(tree.mask[0].sum())
    by_bucket = root_rows[:n_actions].T  # K x actions
    combos_strategy = by_bucket[side.bucket]
    hole_pos = int(np.flatnonzero(side.combos == hole)[0])
    holdings = [int(u.counts[s.combos][w[p][s.combos] > 0].sum()) for p, s in enumerate(game.side)]
    order = np.argsort(side.combos, kind="stable")
    full: float | None = None
    if full_check:
        f0, f1, f_total = sides(u, (w[0], w[1]), spot.actor, hole, None)
        full_game = _Game(tree, (f0, f1), f_total)
        spread = []
        for p, (fs, bs) in enumerate(zip((f0, f1), game.side, strict=True)):
            bucket_of_row = np.full(len(u.faces), -1, dtype=np.int64)
            bucket_of_row[bs.combos] = bs.bucket
            spread.append(avg[p][:, :, bucket_of_row[fs.combos]])
        full = _exploitability(full_game, spread)[0]
    return Solution(
        labels=tree.labels[0],
        amounts=tree.amounts[0],
        replies=tuple(_reply(tree, game, avg, int(c)) for c in tree.children[0, :n_actions]),
        strategy=combos_strategy[hole_pos].copy(),
        combos=u.faces[side.combos][order],
        range_strategy=combos_strategy[order],
        exploitability=expl,
        best_responses=(brs[0], brs[1]),
        value=value[spot.actor],
        root_pot=tree.root_pot,
        iterations=t,
        nodes=tree.n_nodes,
        buckets=game.k,
        combo_counts=(len(s0.combos), len(s1.combos)),
        holdings=(holdings[0], holdings[1]),
        trace=tuple(trace),
        full_exploitability=full,
    )


def _softmax(z: FloatArray, m: BoolArray) -> FloatArray:
    """Over the action axis (1) of ``z``, legal actions (``m``) only."""
    x = np.where(m, z, -np.inf)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    out: FloatArray = e / e.sum(axis=1, keepdims=True)
    return out


def _log_magnet(tree: Tree, p: int, count: int, width: int, by_kind: bool) -> FloatArray:
    """Player ``p``'s log prior per (its node row, action slot): uniform, or uniform over kinds (``by_kind``)."""
    out = np.zeros((count, width, 1))
    if not by_kind:
        return out
    for nodes, actor in zip(tree.depth_nodes, tree.depth_actor, strict=True):
        if actor != p:
            continue
        for n in nodes:
            kinds = [label.split()[0] if label.split()[0] in (FOLD, CHECK, CALL) else "aggressive"
                     for label in tree.labels[n]]
            sizes = {k: kinds.count(k) for k in kinds}
            prior = np.array([1.0 / (len(sizes) * sizes[k]) for k in kinds])
            out[tree.local[n], : len(kinds), 0] = np.log(prior)
    return out


def _smooth(game: _Game, masks: Sequence[BoolArray], iterations: int, tau: float, eta: float,
            by_kind: bool = False) -> tuple[list[FloatArray], int]:
    """The logit (quantal response) equilibrium of temperature ``tau`` chips by magnetic mirror descent."""
    tree = game.tree
    m3 = [m[:, :, None] for m in masks]
    log_rho = [tau * _log_magnet(tree, p, game.count[p], game.width, by_kind) for p in (0, 1)]
    z = [np.zeros((game.count[p], game.width, game.k[p])) for p in (0, 1)]
    sigma = [_softmax(z[p], m3[p]) for p in (0, 1)]
    reach = game.reaches(sigma)
    levels = [(nodes, rows, ch) for nodes, a, rows, ch in
              zip(game.node_sl, tree.depth_actor, game.row_sl, game.kids, strict=True)]
    mine = [[lv for lv, a in zip(levels, tree.depth_actor, strict=True) if a == p] for p in (0, 1)]
    shrink = 1.0 / (1.0 + eta * tau)
    for _ in range(iterations):
        for p in (0, 1):
            v = game.terminal(p, reach[1 - p])
            game.backward(p, v, sigma[p], None)
            fold_t = game.side[p].fold.T
            for nodes, rows, ch in mine[p]:
                norm = reach[1 - p][nodes] @ fold_t  # the other's weight reaching each (node, bucket)
                q = v[ch] / np.where(norm > 0, norm, 1.0)[:, None, :]
                z[p][rows] = (z[p][rows] + eta * (np.where(norm[:, None, :] > 0, q, 0.0) + log_rho[p][rows])) * shrink
            sigma[p] = _softmax(z[p], m3[p])
            reach[p] = game.reach(p, sigma[p])
    return sigma, iterations


def after_action(u: Universe, weights: npt.ArrayLike, solution: Solution, action: int) -> FloatArray:
    """The actor's range once it has taken root action ``action``: each face combo's weight times the
    probability its strategy gives the action (Bayes with its own strategy, which it knows exactly).  This
    is how the range passed to the next re-solve stays consistent with what was played."""
    w = np.asarray(weights, dtype=np.float64).reshape(-1)
    lookup = np.full((CARDS_PER_DECK, CARDS_PER_DECK), -1, dtype=np.int64)
    lookup[u.faces[:, 0], u.faces[:, 1]] = np.arange(len(u.faces))
    rows = lookup[solution.combos[:, 0], solution.combos[:, 1]]
    out = np.zeros(len(u.faces))
    out[rows] = w[rows] * solution.range_strategy[:, action]
    return out


def _reply(tree: Tree, game: _Game, avg: Sequence[FloatArray], node: int) -> Reply | None:
    if tree.kind[node] != 0:
        return None
    who = next(a for nodes, a in zip(tree.depth_nodes, tree.depth_actor, strict=True) if node in nodes)
    mass = game.side[who].mass
    n = len(tree.labels[node])
    freq = avg[who][tree.local[node]][:n] @ mass / mass.sum()
    return Reply(tree.labels[node], freq)


def _normalise(average: Sequence[FloatArray], masks: Sequence[BoolArray]) -> list[FloatArray]:
    out: list[FloatArray] = []
    for a, m in zip(average, masks, strict=True):
        total = a.sum(axis=1, keepdims=True)
        uniform = m[:, :, None] / m.sum(axis=1)[:, None, None]
        out.append(np.where(total > 0, a / np.where(total > 0, total, 1.0), uniform))
    return out


def _exploitability(game: _Game, sigma: Sequence[FloatArray]) -> tuple[float, list[float], list[float]]:
    """(NashConv / 2, each player's best-response value, each player's value), in chips from the root."""
    reach = game.reaches(sigma)
    brs: list[float] = []
    values: list[float] = []
    for p in (0, 1):
        mass = game.side[p].mass
        v = game.terminal(p, reach[1 - p])
        br = game.backward(p, v.copy(), None, None)
        brs.append(float(mass @ br[0]) / game.total)
        on = game.backward(p, v, sigma[p], None)
        values.append(float(mass @ on[0]) / game.total)
    return (brs[0] + brs[1] - game.tree.root_pot) / 2, brs, values


def describe(solution: Solution) -> dict[str, Any]:
    """A plain summary (for the bench and logs)."""
    return {
        "actions": list(solution.labels),
        "strategy": [round(float(x), 4) for x in solution.strategy],
        "exploitability_milli_pot": round(solution.milli_pot, 2),
        "buckets": solution.buckets,
        "combos": solution.combo_counts,
        "holdings": solution.holdings,
        "iterations": solution.iterations,
        "nodes": solution.nodes,
    }
