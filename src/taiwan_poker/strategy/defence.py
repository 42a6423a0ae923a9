"""Heads-up defence against a bet after the flop, from a one-bet subgame solved at decision time.

When the one opponent left bets or raises, the defender does not take the
bet's size at its word.  It solves the small game that ends at that bet: the
bettor, holding any hand of its range *before* the bet, chooses among its
passive move (check, or fold and call when it faced a bet) and a few sizes
(the one it chose, half the pot, the pot, all in); the defender, holding any
hand of its own range, folds or calls each size; a called bet, a check and a
call are then checked down (each pair of holdings' equity on the street's
run-outs, the read's).  This is the model Local Best Response plays by, so a
defence solved in it leaves a bet-everything line nothing to gain.

The game is solved by CFR+ (regret matching with regrets floored at zero, a
linearly weighted average), vectorised over both ranges (``iterations``),
without the holdings the reads have all but ruled out (``prune``; they
fold, as the weakest would).  The numbers are :class:`~.params.DefenceParams`.
From its average strategy at the size actually bet the defence takes:

* the **bettor's range at that size**: its range before the bet times the
  probability it bets that size there (each holding at least a fiftieth of
  the size's mean probability, ``node_floor``, so no holding is ruled
  out);
* the **fold share**: how much of the defender's range folds there.

Payoffs, from the bettor's side, with ``P`` the pot before the bet, ``c``
what the bettor had to call, ``x`` what the defender must add to call a size
and ``E`` the bettor's equity against a holding: a fold by the defender
``P``; a call ``E·(P + c + 2x) − (c + x)``; the passive call ``E·(P + c) − c``,
a check ``E·P``, a fold 0.  The defender's are the pot ``P`` minus these.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .params import SHIPPED, DefenceParams
from .particles import FloatArray


@dataclass(frozen=True, slots=True)
class Defence:
    """The solved defence at the size bet: the bettor's range there and the share of the defender's range
    that folds (by weight)."""

    bettor: FloatArray  # weights over the bettor's holdings at the size it bet
    fold_share: float
    sizes: tuple[int, ...]  # what the defender must add to call each size the game offered (the bet's first)
    exploitability: float  # of the average strategy in this game, chips (sum of both sides' best-response gains)


def bettor_adds(pot: int, to_call: int, actual: int, stack: int, defender_cap: int,
                p: DefenceParams = SHIPPED.defence) -> list[int]:
    """The adds (beyond the call) the defender faces for each size the bettor may choose: the bet made first,
    then half the pot, the pot and all in (each capped by what the defender can call; near-equal ones merged)."""
    first = min(actual, defender_cap)
    out = [first]
    after_call = pot + to_call
    for a in [round(f * after_call) for f in p.extra_sizes] + [stack - to_call]:
        x = min(a, stack - to_call, defender_cap)
        if x <= 0:
            continue
        if all(abs(x - y) > p.same_size * max(x, y) for y in out):
            out.append(x)
    return out


def solve(
    eq_defender: FloatArray,
    valid: npt.NDArray[np.bool_],
    defender: FloatArray,
    bettor: FloatArray,
    pot: int,
    to_call: int,
    adds: list[int],
    iterations: int | None = None,
    p: DefenceParams = SHIPPED.defence,
) -> Defence:
    """Solve the one-bet game (module docstring).

    ``eq_defender[j, i]`` the defender's holding ``j``'s equity against the bettor's holding ``i``,
    ``valid[j, i]`` the pairs that share no physical card, ``defender`` and ``bettor`` the two ranges'
    weights (the bettor's before its bet), ``pot`` the pot before the bet, ``to_call`` what the bettor had
    to call, ``adds`` what the defender must add to call each size (the size bet first); ``iterations`` by
    default ``p``'s.
    """
    if iterations is None:
        iterations = p.iterations
    # holdings the reads have all but ruled out take no part (a smaller game, the same answer)
    keep_d = np.flatnonzero(defender > p.prune * float(defender.max(initial=0.0)))
    keep_r = np.flatnonzero(bettor > p.prune * float(bettor.max(initial=0.0)))
    if len(keep_d) and len(keep_r) and (len(keep_d) < len(defender) or len(keep_r) < len(bettor)):
        sub = solve(eq_defender[np.ix_(keep_d, keep_r)], valid[np.ix_(keep_d, keep_r)], defender[keep_d],
                    bettor[keep_r], pot, to_call, adds, iterations, p)
        full = np.zeros(len(bettor))
        full[keep_r] = sub.bettor
        share = float(defender[keep_d].sum() / max(float(defender.sum()), 1e-12))
        return Defence(full, sub.fold_share * share + (1 - share), sub.sizes, sub.exploitability)
    V = valid.astype(np.float64)
    ED = np.where(valid, eq_defender, 0.0)
    ER = V - ED  # the bettor's equity on valid pairs
    d = defender / max(float(defender.sum()), 1e-12)
    r = bettor / max(float(bettor.sum()), 1e-12)
    x = np.asarray(adds, dtype=np.float64)
    total = pot + to_call + 2 * x  # the pot when called
    k = len(adds)
    # called: the bettor's net (n_d x n_r per size) and the defender's
    called_r = ER[None] * total[:, None, None] - V[None] * (to_call + x)[:, None, None]
    called_d = ED[None] * total[:, None, None] - V[None] * x[:, None, None]
    called_rt = np.ascontiguousarray(called_r.transpose(0, 2, 1))
    passive = [np.zeros(len(r))] if to_call > 0 else []  # a fold
    passive.append((ER * (pot + to_call) - V * to_call).T @ d)  # call or check, then check down
    u_passive = np.stack(passive, axis=1)
    folded_to = pot * (V.T @ d)  # per bettor holding: the pot times the defender's valid weight
    m = u_passive.shape[1] + k
    reg_r = np.zeros((len(r), m))
    reg_call = np.zeros((len(d), k))
    reg_fold = np.zeros((len(d), k))
    avg_r = np.zeros((len(r), m))
    avg_q = np.zeros((len(d), k))
    for t in range(1, iterations + 1):
        pos = np.maximum(reg_r, 0.0)
        s = pos.sum(axis=1, keepdims=True)
        sigma = np.where(s > 0, pos / np.maximum(s, 1e-300), 1.0 / m)
        cs = reg_call + reg_fold
        q = np.where(cs > 0, reg_call / np.maximum(cs, 1e-300), 0.5)  # call probability
        # the bettor's values: per size, folds pay the pot, calls the called payoff
        dq = d[:, None] * q
        u_bets = folded_to[:, None] - pot * (V.T @ dq) + np.matmul(called_rt, dq.T[:, :, None])[:, :, 0].T
        u = np.concatenate([u_passive, u_bets], axis=1)
        ev = (sigma * u).sum(axis=1, keepdims=True)
        reg_r = np.maximum(reg_r + u - ev, 0.0)
        # the defender's: calling each size against the bettor's hands that bet it (folding is worth 0)
        reach = r[:, None] * sigma[:, -k:]
        g = np.matmul(called_d, reach.T[:, :, None])[:, :, 0].T
        reg_call = np.maximum(reg_call + (1 - q) * g, 0.0)
        reg_fold = np.maximum(reg_fold - q * g, 0.0)
        avg_r += t * sigma
        avg_q += t * q
    avg_r /= avg_r.sum(axis=1, keepdims=True)
    avg_q /= iterations * (iterations + 1) / 2
    gap = _exploitability(called_r, called_d, u_passive, folded_to, V, d, r, avg_r, avg_q, pot)
    at = avg_r[:, u_passive.shape[1]]  # the size bet is the first aggressive option
    mass = float((r * at).sum())
    weights = bettor * (at + p.node_floor * mass)
    fold = float((d * (1 - avg_q[:, 0])).sum())
    return Defence(weights, fold, tuple(adds), gap)


def _exploitability(called_r: FloatArray, called_d: FloatArray, u_passive: FloatArray, folded_to: FloatArray,
                    V: FloatArray, d: FloatArray, r: FloatArray, sigma: FloatArray, q: FloatArray,
                    pot: float) -> float:
    """What each side's best response gains over the strategy pair's value, summed (0 at an equilibrium)."""
    k = q.shape[1]
    u_bets = folded_to[:, None] - pot * (V.T @ (d[:, None] * q)) + np.einsum("kji,jk->ik", called_r, d[:, None] * q)
    u = np.concatenate([u_passive, u_bets], axis=1)
    value_r = float((r * (sigma * u).sum(axis=1)).sum())
    best_r = float((r * u.max(axis=1)).sum())
    g = np.einsum("kji,ik->jk", called_d, r[:, None] * sigma[:, -k:])
    value_d = float((d[:, None] * g * q).sum())
    best_d = float((d[:, None] * np.maximum(g, 0.0)).sum())
    return (best_r - value_r) + (best_d - value_d)
