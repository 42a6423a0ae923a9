"""The strongest level's play after the flop: a distribution over actions that respects bet sizes.

From the public read (:mod:`.range_read`: every player's range narrowed by
the kind and size of each action) and the seat's own cards:

* ``equity``: the hand's share against the opponents' ranges (a product over
  opponents in a pot of three or more: the rules below read it; the coach
  shows :func:`table_equity`, one showdown against them all), on the street's
  shared run-outs, with
  every holding that shares a physical card with the seat's hole cards or
  private burn left out;
* ``place``: where that equity ranks in the seat's *own* range as the others
  read it (0 the weakest hand it can have here, 1 the best).

**Facing a bet** that costs ``c`` into a pot ``P`` (the price ``c/(P + c)``,
the minimum defence ``1 − α`` with ``α = c/P``), **heads-up**: the one-bet game
of :mod:`.defence` is solved at the decision point (the bettor's range before
its bet against the seat's own, check-down payoffs): against the bettor's
range *at the size it bet* as that game has it, the hand folds when its place
is below the game's fold share (at most ``α``), and never when its equity
against that range beats the price.  Each reading, the solved game's and the
read's below, answers the bet in full, with its own equity and place, and the
two answers are mixed by the trust in solving, a habit read
(:func:`trust_in_solving`).  A bet of many pots (α from 0.85, fully at 0.95:
6 to 19 pots and more) is answered by the price alone, not by the minimum
defence: the top of a range that cannot beat the bet folds, for the bet
risks far more than the pot it could steal.  Yet from 4 pots up to those 19
(α 0.8 to 0.95) the minimum defence holds whatever the read or the price says:
the top ``1 − α`` of the range by place calls a barrel or an overbet (a
bettor who jams the turn whenever the range folds to it is otherwise paid
by nothing).  Against a big bettor who won
more of its showdowns after big bets than ``1 − price`` (its calls paid too
little), the price against the strongest range that bets so big so often
answers too, as far as the showdowns seen allow (that frequency read is
averaged over a window of rates, :func:`rate_window`); and on the river, against a
bettor whose river bets of any size won more of their showdowns than that,
the price against the strongest range betting as often folds more, but never
past the minimum defence (from the bottom of the range).  **Multi-way** the read's
range answers: a hand whose equity beats the price is never folded (nor one
within a tenth of it: the estimate is noisy; the fold fades in linearly
under that); otherwise the hand folds when
its place is below ``α^(1/k)`` (``k`` players share the defence), so the range
as a whole folds at most ``α``, at every size — no fixed equity margin; facing
a raise only the price counts (raises are read as mostly value).  The top 12 % of the
range (7 % multi-way) raises for value most of the time, and heads-up on the
flop and turn a third of the hands just below the fold line raise as bluffs
instead of folding.

**With no bet to call**: the top ``V`` of the range bets for value (38 %,
30 %, 24 % of it on the flop, turn and river heads-up in position; less out
of position and multi-way), the stronger the hand the larger the size (a
third, two thirds, the pot; all in when the stack is short), and a fifth of
the very best hands out of position check to trap on the flop and turn
(against a player keen to bet when checked to, more: up to all of the top
quarter, on every street);
and a check keeps 15 % of the value hands everywhere but in position on the
river (the read of a check already assumes so), against players who fold
to bets: a checked range that holds no strong hands is bet into at will.
Bluffs come from the bottom of the range (on the flop and turn the hands just
above the bottom tenth, which keep some equity) in the proportion that makes
the size honest: ``V·f/(1 + f)`` at size ``f``, more on earlier streets
(``ζ`` of :mod:`.range_read`), a third as many multi-way.

Every boundary is a smooth step, so near it the hand mixes (the coach shows
the split); every answer by the price is a linear ramp up to it, and every
habit read enters through a linear ramp or a window no steeper than 3 (issue
50: a read's share moved by 0.05 moves no probability by more than 0.15,
``tests/strategy/test_smooth.py``).  The numbers are :class:`~.params.Params`.
:func:`action_values` estimates each action's value in chips for the coach
and the review: fold 0; check or call the equity's share of the pot; a bet
the pot when everyone folds (each opponent folding as this strategy would,
against the bettor's range narrowed by the bet) plus the showdown against
those who call.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..lru import LruMap
from ..rules.actions import FOLD, Action, ActionKind
from ..rules.replay import StreetAction
from .defence import Defence, bettor_adds, solve
from .habits import BIG, Habits, bet_pots
from .legal import action_key, allin, check_or_call, check_or_fold, pot_fraction, raise_to
from .multiway import share_per_runout
from .params import SHIPPED, Params, Ramp
from .particles import (
    FloatArray,
    ValueArray,
    equity_against,
    equity_matrix,
    pair_clashes,
    percentiles,
    share_of,
    values,
)
from .range_read import (
    HandRead,
    StreetRead,
    apply_actions,
    betting_share,
    decision_key,
    hand_read,
    in_position,
    reweight,
    smooth,
)
from .range_read import value_share as read_value_share
from .seat import SeatView

Choices = list[tuple[Action, float]]
STANDINGS = 64  # decision points whose range standing is kept (LBR asks many hole cards at one point)


@dataclass(frozen=True, slots=True)
class Situation:
    """The numbers behind a decision after the flop (the coach shows them)."""

    read: HandRead
    equity: float
    place: float
    alpha: float  # the most of the range that may fold (0 with nothing to call)
    range_equity: FloatArray  # each holding of the seat's own range against the opponents
    hero_score: dict[int, FloatArray]  # per opponent, per holding of theirs: the seat's wins over run-outs
    hero_count: dict[int, FloatArray]
    standing: RangeStanding | None = None
    defence: Defence | None = None  # heads-up facing a bet: the solved one-bet game (:mod:`.defence`)
    solved: float = 0.0  # how much the solved defence answers the bet (1) rather than the read (0): habits
    read_equity: float = 0.5  # the equity and place against the read's range
    read_place: float = 0.5
    node_equity: float = 0.5  # ... and against the bettor's range at its size in the solved game
    node_place: float = 0.5
    floor_equity: float | None = None  # heads-up facing a big bet: against the strongest range betting as often
    value_equity: float | None = None  # heads-up facing a river bet from a player whose river bets win: ditto
    value_sure: float = 0.0  # ... how sure its river bets are value (:func:`river_value_betting`)
    floor_fold: float = 0.0  # the price's answer against floor_equity over the window of rates (:func:`rate_window`)
    value_fold: float = 0.0  # ... and against value_equity
    params: Params = SHIPPED  # the parameters it was read with (the values of actions use them too)


def _known_mask(cards: npt.NDArray[np.int64], known: list[int]) -> npt.NDArray[np.bool_]:
    """The rows of ``cards`` (holdings or run-outs, physical card indices) holding none of ``known``."""
    if cards.size == 0:
        return np.ones(len(cards), dtype=bool)
    hit = np.zeros(max(int(cards.max()), max(known, default=0)) + 1, dtype=bool)
    hit[known] = True
    return np.asarray(~hit[cards].any(axis=1), dtype=bool)


def _hand_on_runouts(v: SeatView, sr: StreetRead) -> tuple[list[int], ValueArray, npt.NDArray[np.bool_]]:
    """The cards the seat knows (hole cards and private burn), its hand's value on each of the street's run-outs,
    and which run-outs it can meet (none of them holds a card the seat knows)."""
    known = [c.index for c in v.hole + v.burns]
    runouts = sr.runouts
    hv = values(np.array([[c.index for c in v.hole]], dtype=np.int64), runouts)[0]
    ok = _known_mask(runouts.cards, known) if runouts.cards.shape[1] else np.ones(runouts.count, dtype=bool)
    return known, hv, ok


def situation(v: SeatView, p: Params = SHIPPED) -> Situation:
    """The read, the hand's equity and its place in its own range at ``v``'s decision after the flop."""
    point = decision_key(v, p.read)  # once: every cache below is per decision point
    read = hand_read(v, p.read, point)
    sr = read.street
    known, hv, hero_ok = _hand_on_runouts(v, sr)
    mine = sr.ranges.get(v.seat)
    equity = 1.0
    standing = _range_equity(v, read, p, point)
    range_eq = standing.equity
    hero_score: dict[int, FloatArray] = {}
    hero_count: dict[int, FloatArray] = {}
    for s in v.opponents:
        if s not in sr.ranges:
            continue
        r = sr.ranges[s]
        w = read.weights[s] * _known_mask(r.cards, known)
        ok = sr.ok[s] & hero_ok[None, :]
        score = ((hv[None, :] > sr.vals[s]) + 0.5 * (hv[None, :] == sr.vals[s])) * ok
        hero_score[s], hero_count[s] = score.sum(axis=1), ok.sum(axis=1).astype(np.float64)
        den = float((hero_count[s] * w).sum())
        equity *= float((hero_score[s] * w).sum()) / den if den > 0 else 0.5
    place = share_of(range_eq, read.weights[v.seat], equity) if mine is not None else 0.5
    alpha = v.call_amount / v.pot if v.call_amount > 0 and v.pot > 0 else 0.0
    read_equity, read_place = node_equity, node_place = equity, place
    dfn = solved_defence(v, read, standing, p, point)
    solved = 0.0
    if dfn is not None and mine is not None:  # against the bettor's range at its size, as the game solved it
        s = v.opponents[0]
        rho = dfn.bettor * _known_mask(sr.ranges[s].cards, known)
        den = float((hero_count[s] * rho).sum())
        node_equity = float((hero_score[s] * rho).sum()) / den if den > 0 else equity
        sc, ct = standing.pairs[s]
        node_place = share_of(equity_against(sc, ct, dfn.bettor), read.weights[v.seat], node_equity)
        solved = trust_in_solving(v, s, p)
        if v.street == 3:  # a big river bet: the solved game (exact there) answers, whatever the habits
            solved = max(solved, ramp(alpha, p.facing.river_solved))
        equity = solved * node_equity + (1 - solved) * equity
        place = solved * node_place + (1 - solved) * place
    floor = value_eq = None
    sure = floor_fold = value_fold = 0.0
    if mine is not None and len(v.opponents) == 1 and v.opponents[0] in hero_score:
        s = v.opponents[0]
        floors = frequency_floor(v, read, standing, hero_score[s], hero_count[s], known, p, point)
        if floors is not None:
            floor, floor_fold = float(floors[0]), _window_fold(floors, v.price(), p)
        if v.street == 3 and (sure := river_value_betting(v, v.price(), p)) > 0:
            values_eq = river_value_equity(v, read, standing, hero_score[s], hero_count[s], known, p)
            if values_eq is not None:
                value_eq, value_fold = float(values_eq[0]), _window_fold(values_eq, v.price(), p)
    return Situation(read, equity, place, alpha, range_eq, hero_score, hero_count, standing, dfn, solved,
                     read_equity, read_place, node_equity, node_place, floor, value_eq, sure, floor_fold, value_fold,
                     p)


def table_equity(v: SeatView, st: Situation) -> float:
    """The hand's share at one showdown against every opponent's read range at once (:mod:`.multiway`), on the
    street's run-outs: what the coach shows multi-way.  ``st.equity``, which the rules read, is a product of the
    heads-up shares and understates it with two or more opponents."""
    sr = st.read.street
    known, hv, hero_ok = _hand_on_runouts(v, sr)
    wins: list[FloatArray] = []
    ties: list[FloatArray] = []
    seen = hero_ok.copy()
    for s in v.opponents:
        if s not in sr.ranges:
            continue
        w = st.read.weights[s] * _known_mask(sr.ranges[s].cards, known)
        held = w[:, None] * (sr.ok[s] & hero_ok[None, :])  # each holding's weight on each run-out it can meet
        mass = held.sum(axis=0)
        seen &= mass > 0
        mass = np.where(mass > 0, mass, 1.0)
        wins.append((held * (hv[None, :] > sr.vals[s])).sum(axis=0) / mass)
        ties.append((held * (hv[None, :] == sr.vals[s])).sum(axis=0) / mass)
    if not wins or not seen.any():
        return st.equity
    return float(share_per_runout(np.array(wins), np.array(ties))[seen].mean())


def _window_fold(equities: FloatArray, price: float, p: Params) -> float:
    """The price's answer (:func:`_price_fold` over ``floor_width``) averaged over the window of rates."""
    ok = equities[~np.isnan(equities)]
    fp = p.facing
    return float(np.mean(1.0 - np.clip((ok - (price - fp.floor_width)) / fp.floor_width, 0.0, 1.0)))


def _bet_faced(v: SeatView, read: HandRead, standing: RangeStanding) -> StreetAction | None:
    """Heads-up, facing the one opponent's bet or raise on this street (with both ranges read): that action."""
    this = [a for a in v.history if a.street == v.street]
    if v.call_amount <= 0 or len(v.opponents) != 1 or not this:
        return None
    last, s = this[-1], v.opponents[0]
    if last.seat != s or not last.aggressive or s not in standing.pairs or v.seat not in read.weights:
        return None
    return last


def _range_before(v: SeatView, read: HandRead, s: int, p: Params) -> FloatArray:
    """The bettor's range on this street just before its bet (the read's weights for it)."""
    this = sum(1 for a in v.history if a.street == v.street)
    return apply_actions(v, read.street, v.street, upto=this - 1, p=p.read)[s]


def top_share(weights: FloatArray, strength: FloatArray, share: float) -> FloatArray:
    """The strongest ``share`` of a range's mass (by ``strength``; the holding on the edge in part)."""
    out: FloatArray = top_shares(weights, strength, np.array([share]))[0]
    return out


def top_shares(weights: FloatArray, strength: FloatArray, shares: FloatArray) -> FloatArray:
    """:func:`top_share` for each of ``shares`` (one row each)."""
    order = np.argsort(-strength, kind="stable")
    w = weights[order]
    room = shares[:, None] * float(weights.sum()) - (np.cumsum(w) - w)[None, :]
    out = np.zeros((len(shares), len(weights)))
    out[:, order] = np.clip(room, 0.0, w[None, :])
    return out


def strength_window(strength: float, p: Params) -> FloatArray:
    """The mean strengths shown that a frequency read averages over: the one read first, then up to
    ``strength_window`` over it (the stronger, the more careful), as :func:`rate_window`."""
    fp = p.facing
    return np.asarray(np.minimum(strength + np.linspace(0.0, fp.strength_window, fp.floor_points), 1.0),
                      dtype=np.float64)


def rate_window(rate: float, p: Params) -> FloatArray:
    """The rates a frequency read averages over: the rate seen first, then down to ``floor_window`` under it
    (evenly, ``floor_points`` of them; none under a thousandth).  A hand calls in the proportion of them against
    whose strongest range it beats the price, so a read rate that moves by ``d`` moves the answer by at most
    about ``d / floor_window``."""
    fp = p.facing
    return np.asarray(np.maximum(rate - np.linspace(0.0, fp.floor_window, fp.floor_points), 1e-3), dtype=np.float64)


def value_betting(v: SeatView, price: float, p: Params = SHIPPED) -> float:
    """Heads-up, how sure the one opponent's big bets on this street are value, by the showdowns it reached after
    them: a call of a bet at this price pays when it wins more than the price, so a bettor who won more than
    ``1 − price`` of those showdowns was called too often.  0 at ``1 − price`` or under, 1 at ``value_margin``
    over it; times the weight of the evidence, ``n / (n + weight)`` for ``n`` showdowns seen (none: 0)."""
    seen = v.habits_of(v.opponents[0]) if len(v.opponents) == 1 else None
    return _record_says_value(seen.big_shown_on(v.street) if seen is not None else (0, 0), price, p)


def river_value_betting(v: SeatView, price: float, p: Params = SHIPPED) -> float:
    """Heads-up on the river, how sure the one opponent's river bets of any size are value, by the showdowns it
    reached after them, as :func:`value_betting` reads big bets.  A best response bets the river only with hands
    that win once the range calls as the minimum defence asks (its bluffs would just break even)."""
    seen = v.habits_of(v.opponents[0]) if len(v.opponents) == 1 and v.street == 3 else None
    return _record_says_value(seen.river_shown if seen is not None else (0, 0), price, p)


def _record_says_value(record: tuple[int, int], price: float, p: Params) -> float:
    """From ``(showdowns, won)`` after a kind of bet: 0 at a win share of ``1 − price`` or under, 1 at
    ``value_margin`` over it, times ``n / (n + weight)``."""
    n, won = record
    w = p.habits.weight
    return n / (n + w) * _linear(won / n, 1 - price, 1 - price + p.facing.value_margin) if n > 0 else 0.0


def ramp(x: float, r: Ramp) -> float:
    """0 at ``r.lo`` or under, 1 at ``r.hi`` or over, linear between."""
    return _linear(x, r.lo, r.hi)


def _linear(x: float, lo: float, hi: float) -> float:
    return float(min(1.0, max(0.0, (x - lo) / (hi - lo))))


def frequency_floor(v: SeatView, read: HandRead, standing: RangeStanding, score: FloatArray, count: FloatArray,
                    known: list[int], p: Params = SHIPPED, point: tuple[object, ...] | None = None
                    ) -> FloatArray | None:
    """Heads-up, facing a big bet (:data:`~.habits.BIG` pots or more): the hand's equity against the range of a
    bettor who bets this big as often as the table saw it do there (its habits, per street, unbet or facing a
    bet).  Two readings of that range, blended by :func:`loose_trust` (how many hands it showed down after its
    big bets): the strongest part of its range before the bet with that much mass (the worst case), and its
    range before the bet tilted toward the holdings as strong as those it showed (:func:`shown_range`).  A
    player who overbets half the time cannot hold only the nuts, and one who shows down anything after its
    big bets bets big with anything: a hand beating the price against that range is a call.  The equities over
    the window of rates (:func:`rate_window`: the first at the rate seen; NaN where the hand's cards rule that
    range out; with hands shown after big bets, one per rate and mean strength shown, :func:`strength_window`);
    None elsewhere.  The ranges are public: made once per decision point (``point``, :func:`decision_key`)."""
    last = _bet_faced(v, read, standing)
    if last is None:
        return None
    s = v.opponents[0]
    pots = bet_pots(last, v.pot - last.amount)
    if pots < BIG:
        return None
    key = (point or decision_key(v, p.read), v.habits_of(s), p)  # the point's key reads preflop habits only
    rho = _floors.get(key)
    if rho is None:
        rho = _floor_ranges(v, read, standing, s, pots, last.level_before > 0, p)
        _floors.put(key, rho)
    return _shares_against(rho, read, s, score, count, known)


_floors: LruMap[tuple[object, ...], FloatArray] = LruMap(STANDINGS, clock=lambda: 0.0)


def _floor_ranges(v: SeatView, read: HandRead, standing: RangeStanding, s: int, pots: float, facing: bool,
                  p: Params) -> FloatArray:
    """:func:`frequency_floor`'s ranges of the bettor ``s``, one row a rate (and mean strength shown)."""
    seen = v.habits_of(s) or Habits()
    share = seen.big_rate(v.street, facing, pots, p.habits)
    before, rho = _strongest_betting(v, read, standing, s, rate_window(share, p), p)
    trust = loose_trust(seen, v.street, p)
    if trust > 0 and before.sum() > 0:  # rates × mean strengths shown: each pair's blend of the two readings
        strength = seen.big_bet_strength(*_shown_streets(v.street), p=p.habits)
        shown = shown_ranges(before, read.street.strengths[s], strength_window(strength, p))
        rho = ((1 - trust) * rho[:, None, :] + trust * shown[None, :, :]).reshape(-1, len(before))
    return rho


def _shown_streets(street: int) -> tuple[int, ...]:
    """The streets whose showdowns after big bets read a big bet on ``street``: the flop and the turn together
    (a player who jams those with anything does so on both, and tight calls give few showdowns a street); the
    river alone (a best response bets the river big only with winners)."""
    return (1, 2) if street < 3 else (3,)


def loose_trust(seen: Habits, street: int, p: Params = SHIPPED) -> float:
    """How far a big bet is read by the hands the bettor showed down after its big bets (:func:`shown_range`)
    rather than as the strongest hands that bet that often: ``n / (n + strength_weight)`` for ``n`` shown."""
    n = seen.big_bet_shown(*_shown_streets(street))
    return n / (n + p.habits.strength_weight)


def shown_value(seen: Habits, street: int, p: Params = SHIPPED) -> float:
    """How sure a big bettor's big bets are value by the hands it showed down after them: their mean strength
    (shrunk) from ``value_shown.lo`` (0) to its ``hi`` (1), times ``n / (n + strength_weight)`` for ``n`` shown
    (none: 0)."""
    streets = _shown_streets(street)
    n = seen.big_bet_shown(*streets)
    return n / (n + p.habits.strength_weight) * ramp(seen.big_bet_strength(*streets, p=p.habits),
                                                     p.facing.value_shown)


def shown_range(before: FloatArray, strength: FloatArray, mean: float) -> FloatArray:
    """``before`` tilted toward its stronger holdings, weights times ``exp(λ · strength)``, with ``λ`` chosen so
    that its mean strength is ``mean`` (within what the holdings reach): of the ranges as strong on average as
    the hands shown down, the one that keeps most of ``before`` (the maximum-entropy tilt)."""
    w = before * (before > 0)
    if w.sum() <= 0:
        return w
    x = strength - float(strength[w > 0].mean())
    lo, hi = -80.0, 80.0
    for _ in range(40):
        lam = (lo + hi) / 2
        e = w * np.exp(lam * x - np.max(lam * x[w > 0]))
        if float((e * strength).sum() / e.sum()) < mean:
            lo = lam
        else:
            hi = lam
    e = w * np.exp(lo * x - np.max(lo * x[w > 0]))
    return np.asarray(e / e.sum(), dtype=np.float64)


def shown_ranges(before: FloatArray, strength: FloatArray, means: FloatArray) -> FloatArray:
    """:func:`shown_range` for each of ``means`` (one row each; the same bisection, side by side)."""
    w = before * (before > 0)
    if w.sum() <= 0:
        return np.zeros((len(means), len(w)))
    on = w > 0
    x = strength - float(strength[on].mean())
    lo, hi = np.full(len(means), -80.0), np.full(len(means), 80.0)

    def tilt(lam: FloatArray) -> FloatArray:
        z = lam[:, None] * x[None, :]
        return np.asarray(w[None, :] * np.exp(z - np.max(np.where(on[None, :], z, -np.inf), axis=1, keepdims=True)),
                          dtype=np.float64)

    for _ in range(40):
        lam = (lo + hi) / 2
        e = tilt(lam)
        under = (e @ strength) / e.sum(axis=1) < means
        lo, hi = np.where(under, lam, lo), np.where(under, hi, lam)
    e = tilt(lo)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float64)


def _strongest_betting(v: SeatView, read: HandRead, standing: RangeStanding, s: int, shares: FloatArray,
                       p: Params) -> tuple[FloatArray, FloatArray]:
    """The bettor's range just before its bet, and the strongest of it against our range for each of ``shares``
    (one row each, unit mass)."""
    sc, ct = standing.pairs[s]
    strength = equity_against((ct - sc).T, ct.T, read.weights[v.seat])  # each of its holdings against our range
    before = _range_before(v, read, s, p)
    tops = top_shares(before, strength, shares)
    total = tops.sum(axis=1, keepdims=True)
    return before, np.divide(tops, total, out=np.zeros_like(tops), where=total > 0)


def _shares_against(rho: FloatArray, read: HandRead, s: int, score: FloatArray, count: FloatArray,
                    known: list[int]) -> FloatArray | None:
    """The hand's share against each row of weights ``rho`` on ``s``'s holdings (those clashing with our cards
    out; NaN where none is left); None when the first row leaves none."""
    rho = rho * _known_mask(read.street.ranges[s].cards, known)[None, :]
    den = rho @ count
    if not den[0] > 0:
        return None
    return np.asarray(np.where(den > 0, (rho @ score) / np.where(den > 0, den, 1.0), np.nan), dtype=np.float64)


def river_value_equity(v: SeatView, read: HandRead, standing: RangeStanding, score: FloatArray,
                       count: FloatArray, known: list[int], p: Params = SHIPPED) -> FloatArray | None:
    """Heads-up, facing a river bet of any size: the hand's equity against the strongest part of the bettor's
    range before the bet that bets as often as the table saw it bet after the flop (or raise, facing a bet):
    the worst case of that frequency, which :func:`facing_bet` answers when the bettor's river bets win their
    showdowns (:func:`river_value_betting`).  Over the window of rates, as :func:`frequency_floor`; None where no
    bet is faced."""
    last = _bet_faced(v, read, standing)
    if last is None:
        return None
    s = v.opponents[0]
    share = (v.habits_of(s) or Habits()).aggression_after(facing_raise(v), p.habits)
    _, rho = _strongest_betting(v, read, standing, s, rate_window(share, p), p)
    return _shares_against(rho, read, s, score, count, known)


def trust_in_solving(v: SeatView, bettor: int, p: Params = SHIPPED) -> float:
    """How much the solved defence answers ``bettor``'s bet (1) rather than the read of its size (0), by how often
    the table saw it bet (or raise) after the flop (:mod:`.habits`): a player who bets no more than a balanced
    range would (``trust_bet.lo``, ``trust_raise.lo``) bets for value and is read by the size; one who bets much
    more often (their ``hi``) is met with the solved game.  Without habits, the prior's rate: mostly solved."""
    raising = facing_raise(v)
    rate = (v.habits_of(bettor) or Habits()).aggression_after(raising, p.habits)
    return ramp(rate, p.facing.trust_raise if raising else p.facing.trust_bet)


_defences: LruMap[tuple[object, ...], Defence] = LruMap(STANDINGS, clock=lambda: 0.0)


def solved_defence(v: SeatView, read: HandRead, standing: RangeStanding, p: Params = SHIPPED,
                   point: tuple[object, ...] | None = None) -> Defence | None:
    """Heads-up, facing the one opponent's bet or raise: the one-bet game solved (:mod:`.defence`), once per
    decision point; None elsewhere."""
    last = _bet_faced(v, read, standing)
    if last is None:
        return None
    s = v.opponents[0]
    key = (point or decision_key(v, p.read), p.defence)
    hit = _defences.get(key)
    if hit is not None:
        return hit
    before = _range_before(v, read, s, p)
    sc, ct = standing.pairs[s]
    valid = ct > 0
    eq = np.where(valid, sc / np.maximum(ct, 1), 0.0).astype(np.float64)
    pot = v.pot - last.amount
    to_call = max(0, last.level_before - (last.to - last.amount))
    adds = bettor_adds(pot, to_call, v.call_amount, v.stacks[s] + last.amount, v.stack, p.defence)
    out = solve(eq, valid, read.weights[v.seat], before, pot, to_call, adds, p=p.defence)
    _defences.put(key, out)
    return out


_range_eqs: LruMap[tuple[object, ...], RangeStanding] = LruMap(STANDINGS, clock=lambda: 0.0)


@dataclass(frozen=True, slots=True)
class RangeStanding:
    """The seat's own range against the opponents' at a decision (public: one per decision point)."""

    equity: FloatArray  # each holding's equity against the opponents' ranges now (a product over them)
    start: float  # the whole range's equity against theirs at the street's start (0.5: even)
    pairs: dict[int, tuple[FloatArray, FloatArray]]  # per opponent: wins (+ half ties), valid run-outs (ours × theirs)


def _range_equity(v: SeatView, read: HandRead, p: Params, point: tuple[object, ...] | None = None
                  ) -> RangeStanding:
    """The seat's range against the opponents' (:class:`RangeStanding`), cached per decision point."""
    key = point or decision_key(v, p.read)
    hit = _range_eqs.get(key)
    if hit is not None:
        return hit
    sr = read.street
    mine = sr.ranges.get(v.seat)
    out = np.ones(len(mine.cards)) if mine is not None else np.ones(0)
    before = np.ones(len(out))
    pairs: dict[int, tuple[FloatArray, FloatArray]] = {}
    if mine is not None:
        for s in v.opponents:
            if s in sr.ranges:
                sc, ct = equity_matrix(sr.vals[v.seat], sr.vals[s], sr.ok[v.seat], sr.ok[s],
                                       ~pair_clashes(mine.cards, sr.ranges[s].cards))
                pairs[s] = (sc.astype(np.float32), ct.astype(np.float32))
                out = out * equity_against(sc, ct, read.weights[s])
                before = before * equity_against(sc, ct, sr.ranges[s].weights)
    w = sr.ranges[v.seat].weights if mine is not None else np.ones(0)
    start = float((before * w).sum() / w.sum()) if mine is not None and w.sum() > 0 else 0.5
    standing = RangeStanding(out, start, pairs)
    _range_eqs.put(key, standing)
    return standing


def _band(q: float, lo: float, hi: float, width: float) -> float:
    return float(smooth((q - lo) / width) * smooth((hi - q) / width))


def facing_raise(v: SeatView) -> bool:
    """Whether the bet faced raises one made on this street (this seat's, or another's)."""
    return v.raises_on(v.street) >= 2 or any(a.aggressive for a in v.acted(v.seat, v.street))


def facing_barrel(v: SeatView) -> bool:
    """Whether the bettor also bet an earlier street after the flop and this seat called it: a second or third
    barrel, which is mostly value."""
    bettor = v.aggressor(v.street)
    return bettor is not None and any(
        v.aggressor(s) == bettor and any(a.effect is ActionKind.CALL for a in v.acted(v.seat, s))
        for s in range(1, v.street))


def _shared_alpha(v: SeatView, alpha: float) -> float:
    """α shared by the ``k`` players still to answer the bet: each may fold ``α^(1/k)`` of their range."""
    k = max(1, len(v.live) - 1)
    return alpha ** (1.0 / k) if alpha > 0 else 0.0


def _read_alpha(v: SeatView, st: Situation, p: Params) -> float:
    """The read's fold limit: α shared among the players still to answer, and a little more for a range that
    was behind before the bet (say, against a tight re-raiser's: their bets need fewer bluffs)."""
    alpha = _shared_alpha(v, st.alpha)
    start = st.standing.start if st.standing is not None else 0.5
    f = p.facing
    return min(f.fold_cap, alpha + f.range_disadvantage * max(0.0, 0.5 - start)) if alpha > 0 else 0.0


def _solved_alpha(st: Situation) -> float:
    assert st.defence is not None
    return min(st.defence.fold_share, st.alpha)


def fold_limit(v: SeatView, st: Situation, p: Params = SHIPPED) -> float:
    """The most of the range that folds to the bet faced, as :func:`facing_bet` plays it: the read's limit,
    blended with the solved game's fold share (never above α) by the trust in solving."""
    alpha = _read_alpha(v, st, p)
    if st.defence is not None and st.solved > 0:
        alpha = st.solved * _solved_alpha(st) + (1 - st.solved) * alpha
    return alpha


def facing_bet(v: SeatView, st: Situation, p: Params = SHIPPED) -> Choices:
    """Facing a bet: the read's answer, and heads-up the solved game's, each played out in full (:func:`_answer`)
    and mixed by the trust in solving (a habit read, so the answer moves with it no faster than the trust)."""
    fp = p.facing
    price = v.price()
    heads_up = len(v.opponents) == 1
    shown = shown_value(v.habits_of(v.opponents[0]) or Habits(), v.street, p) if heads_up else 0.0
    read_alpha = _read_alpha(v, st, p)
    read = _answer(v, st, p, st.read_equity, st.read_place, read_alpha,
                   _read_fold(v, st.read_equity, st.read_place, read_alpha, price, p), shown)
    fold, value_raise, bluff_raise = read
    if st.defence is not None and st.solved > 0:  # the solved game's fold share (at most α), from the bottom
        alpha = _solved_alpha(st)
        solved_fold = _price_fold(st.node_equity, price, fp.price_width) * float(
            smooth((alpha - st.node_place) / fp.place_width))
        node = _answer(v, st, p, st.node_equity, st.node_place, alpha, solved_fold, shown)
        w = st.solved
        fold, value_raise, bluff_raise = (w * x + (1 - w) * y for x, y in zip(node, read, strict=True))
    call = max(0.0, 1.0 - fold - value_raise - bluff_raise)
    raise_action = raise_to(v, v.current_bet + v.pot + v.call_amount)
    if (raise_action.kind is not ActionKind.ALLIN and raise_action.to is not None
            and raise_action.to - v.bets[v.seat] >= fp.allin_share * v.stack):
        raise_action = allin(v)
    return [(FOLD, fold), (check_or_call(v), call), (raise_action, value_raise + bluff_raise)]


def _answer(v: SeatView, st: Situation, p: Params, e: float, q: float, alpha: float, fold: float, shown: float
            ) -> tuple[float, float, float]:
    """One reading's answer to the bet (the read's, or the solved game's): its fold, value raise and bluff raise,
    from the hand's equity ``e`` and place ``q`` in that reading, its fold limit ``alpha`` and its own fold.

    A bet of many pots is answered by the price (``overbet``); a big bet this player makes too often by the price
    against the strongest range betting as often (:func:`frequency_floor`), and more so as its big bets proved
    value; a river bet from a player whose river bets win, by the price against the strongest range betting so
    often, never past the minimum defence; a bet of 4 to 19 pots never folds the top ``1 − α`` (:func:`defend_big`).
    Every answer by the price is a linear ramp from fold (at ``price − width``) to call (at the price): never a fold
    of a hand that beats the price, and no step."""
    fp = p.facing
    price = v.price()
    heads_up = len(v.opponents) == 1
    big = ramp(st.alpha, fp.overbet)  # a bet many times the pot: the price answers, not the minimum defence
    if big > 0:
        fold = (1 - big) * fold + big * _price_fold(e, price, fp.price_width)
    if st.floor_equity is not None:  # a big bet this player makes too often: a hand beating that price calls
        beaten = st.floor_fold
        # big bets that win their showdowns, or after which strong hands were shown: the price answers
        sure = max(value_betting(v, price, p), shown)
        fold = beaten * ((1 - sure) * fold + sure * beaten)
    if st.value_equity is not None and (sure := st.value_sure) > 0:
        # river bets that win their showdowns: the price against the strongest range betting so often answers,
        # but never past the minimum defence (from the bottom of the range: bluffs still break even at most)
        mdf = float(smooth((_shared_alpha(v, st.alpha) - q) / fp.place_width))
        fold = max(fold, sure * min(st.value_fold, mdf))
    fold = defend_big(v, st, fold, shown, p, q)
    value_raise = bluff_raise = 0.0
    if v.can(ActionKind.RAISE) or (v.can(ActionKind.ALLIN) and v.stack > v.call_amount):
        top = fp.value_top if heads_up else fp.value_top_multiway
        value_raise = fp.value_raise * float(smooth((q - (1 - top)) / fp.value_raise_width)) * float(
            smooth((e - fp.value_raise_equity) / fp.value_equity_width))
        if heads_up and v.street < 3 and fold > 0:
            bluff_raise = fp.bluff_raise * fold * _band(q, alpha - fp.bluff_band, alpha, fp.bluff_band_width)
            fold -= bluff_raise
    return fold, value_raise, bluff_raise


def _price_fold(equity: float, price: float, width: float) -> float:
    """The price's answer: fold (1) at ``price − width`` or less, call (0) at the price or more, linear between."""
    return 1.0 - _linear(equity, price - width, price)


def defend_big(v: SeatView, st: Situation, fold: float, shown: float = 0.0, p: Params = SHIPPED,
               place: float | None = None) -> float:
    """Facing a bet of 4 to 19 pots (α within ``defend_big``, linearly over ``defend_edge`` at both ends),
    ``fold`` capped by the minimum defence: the top ``1 − α`` of the range by place (``place``, by default the
    situation's; ``α^(1/k)`` shared by ``k`` players) never folds, however the read or the price answers.
    Barrels and overbets are read as mostly value, and a bettor who jams the turn and river whenever that range
    folds is paid nothing by it otherwise; from 19 pots the price alone answers (``overbet``).  Waived as far as
    ``shown`` says a heads-up bettor's big bets are value by the hands it showed down after them
    (:func:`shown_value`): the top of a range that cannot beat them folds."""
    fp = p.facing
    lo, hi, edge = fp.defend_big.lo, fp.defend_big.hi, fp.defend_edge
    weight = _linear(st.alpha, lo, lo + edge) * (1.0 - _linear(st.alpha, hi - edge, hi)) * (1.0 - shown)
    if weight <= 0:
        return fold
    q = st.place if place is None else place
    least = float(smooth((_shared_alpha(v, st.alpha) - q) / fp.place_width))
    return (1 - weight) * fold + weight * min(fold, least)


def _read_fold(v: SeatView, e: float, q: float, alpha: float, price: float, p: Params) -> float:
    """The fold of the read alone: the minimum defence by place, or facing a raise or a later barrel (mostly
    value) the price; either way none once the equity reaches ``price_safety`` of the price (estimates are
    noisy), fading linearly over ``safety_width`` under it."""
    fp = p.facing
    line = fp.price_safety * price
    guard = _price_fold(e, line, fp.safety_width)
    if guard <= 0:
        return 0.0
    if facing_raise(v) or (fp.barrels_by_price and facing_barrel(v)):  # mostly value: the price alone answers
        return guard
    return guard * float(smooth((alpha - q) / fp.place_width))  # the minimum defence against a bet


def value_share(v: SeatView, p: Params = SHIPPED) -> float:
    return betting_share(v.street, in_position(v.seat, v.button, v.live, len(v.stacks)), len(v.opponents), p.read)


def bet_sizes(v: SeatView, p: Params = SHIPPED) -> list[tuple[float, Action]]:
    """The bets on offer with their fractions of the pot: a third, two thirds and the pot (distinct legal moves;
    all in where that is what a size comes to)."""
    out: list[tuple[float, Action]] = []
    seen: set[int] = set()
    for f in p.betting.sizes:
        a = pot_fraction(v, f)
        key = action_key(v, a)
        if a.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN) and key not in seen:
            seen.add(key)
            out.append((f, a))
    return out


def size_weights(fractions: list[float], rank: float, p: Params = SHIPPED) -> list[float]:
    """How a value hand ``rank`` from the top of its range (0 the best) splits over the sizes: the largest size
    whose read value share (:func:`~.range_read.value_share`) still holds it — so a bet of each size is what a
    bet of that size reads as (smoothly mixed at the edges)."""
    eligible = [float(smooth((read_value_share(f, p.read) - rank) / p.betting.size_width)) for f in fractions]
    out, rest = [0.0] * len(fractions), 1.0
    for i in range(len(fractions) - 1, -1, -1):
        out[i] = rest * eligible[i]
        rest -= out[i]
    out[0] += rest  # the smallest size takes what is left
    return out


def eagerness(v: SeatView, p: Params = SHIPPED) -> float:
    """Heads-up, how keen the one opponent is to bet when checked to, by its habits: 0 at a rate of
    ``eager.lo`` or less (an unknown player counts as 50 %), 1 at ``eager.hi`` or more; times its rate of
    folding to a bet over ``folds_to_trap`` (at most 1: a player who never folds calls a bet as well as it makes
    one, and the bet builds the bigger pot).  Out of position Strong then checks more of its best hands (from
    the top 12 % of its range, about a third of them, up to the top quarter, all of them), and on the river
    too."""
    if len(v.opponents) != 1:
        return 0.0
    seen = v.habits_of(v.opponents[0])
    if seen is None:
        return 0.0
    keen = ramp(seen.aggression_after(False, p.habits), p.betting.eager)
    return keen * folding(v, p)  # a player who never folds: bet into it


def folding(v: SeatView, p: Params = SHIPPED) -> float:
    """How far the opponents fold to bets after the flop, by habits: their rate of folding facing a bet over
    ``folds_to_trap`` (at most 1; the lowest of them; an unknown player counts as the prior's 40 %).  A
    slow-play protects a check only against players who fold: one who never does is bet into."""
    rates = [(v.habits_of(s) or Habits()).fold_after(p.habits) for s in v.opponents]
    return min(1.0, min(rates, default=p.habits.fold_rate) / p.betting.folds_to_trap)


def no_bet(v: SeatView, st: Situation, p: Params = SHIPPED) -> Choices:
    bp, rp = p.betting, p.read
    sizes = bet_sizes(v, p)
    if not sizes:
        return [(check_or_fold(v), 1.0)]
    q = st.place
    heads_up = len(v.opponents) == 1
    share = value_share(v, p)
    split = size_weights([f for f, _ in sizes], 1.0 - q, p)
    main = sizes[int(np.argmax(split))][1]
    in_range = float(smooth((q - (1 - share)) / bp.value_width))
    # value: ahead of the hands that would call that size, not just of the range
    value = in_range * float(smooth((response(v, st, main, p).equity - bp.caller_equity) / bp.caller_width)
                             ) if in_range > 0.01 else 0.0
    last = in_position(v.seat, v.button, v.live, len(v.stacks))
    keep = 0.0 if last and v.street == 3 else rp.check_keep * folding(v, p)  # slow-plays: a check that holds hands
    if not last:  # traps: a share of the very top before the river; all of a wider top against an eager bettor
        keen = eagerness(v, p)  # checking to a player who bets whenever checked to: it bets for us
        plain = (rp.trap if v.street < 3 else 0.0) * float(smooth((q - rp.trap_from) / bp.trap_width))
        eager = float(smooth((q - (rp.trap_from - bp.trap_shift)) / bp.trap_width))
        keep = max(keep, (1 - keen) * plain + keen * eager)
    value *= 1 - keep
    f_bluff, bluff_size = sizes[-1]  # bluffs take the largest size: it needs the fewest of them
    mass = share * f_bluff / (1 + f_bluff) * rp.zeta.of(v.street, 1.0) * (1.0 if heads_up else bp.multiway_bluffs)
    # the river: the very bottom, which can win no other way; earlier: just above the bottom tenth (some equity)
    bluff = (float(smooth((mass - q) / bp.bluff_width)) if v.street == 3
             else _band(q, bp.bluff_floor, bp.bluff_floor + mass, bp.bluff_width)) * (1 - value)
    if bluff > 0.01:  # a bluff needs folds: at least the share that pays for the size, f / (1 + f)
        bluff *= float(smooth((response(v, st, bluff_size, p).folds - f_bluff / (1 + f_bluff))
                              / bp.bluff_folds_width))
    out: Choices = [(a, value * w) for (_, a), w in zip(sizes, split, strict=True)]
    out.append((bluff_size, bluff))
    out.append((check_or_fold(v), max(0.0, 1.0 - value - bluff)))
    return out


def postflop_choices(v: SeatView, st: Situation, p: Params = SHIPPED) -> Choices:
    return facing_bet(v, st, p) if v.call_amount > 0 else no_bet(v, st, p)


# --- values of actions (the coach and the review) -------------------------------------------------------------


def _bet_action(v: SeatView, action: Action) -> StreetAction:
    to = v.bets[v.seat] + v.stack if action.kind is ActionKind.ALLIN else int(action.to or 0)
    return StreetAction(v.street, v.seat, action.kind, max(0, to - v.bets[v.seat]), to, v.current_bet, 0,
                        action.kind is ActionKind.ALLIN)


def action_values(v: SeatView, st: Situation, actions: list[Action]) -> list[float]:
    """Each action's value in chips from here (fold 0): a one-step look at folds and the showdown (module doc),
    with the parameters the situation was read with."""
    out: list[float] = []
    pot = v.pot
    for a in actions:
        kind = a.kind
        if kind is ActionKind.FOLD:
            out.append(0.0)
            continue
        key = action_key(v, a)
        add = max(0, key - v.bets[v.seat])
        if key <= v.current_bet:  # check or call
            out.append(st.equity * (pot + add) - add)
            continue
        out.append(_bet_value(v, st, a, add, st.params))
    return out


@dataclass(frozen=True, slots=True)
class Response:
    """How the opponents answer a bet, as this strategy would in their seats: the chance they all fold, the
    seat's equity against those who call, the chips the callers add."""

    folds: float
    equity: float
    called: float


def response(v: SeatView, st: Situation, a: Action, p: Params = SHIPPED) -> Response:
    """The opponents' answer to the seat's bet or raise ``a`` (each folds as the strategy would: the bottom of
    its range up to the minimum defence, never a hand whose equity against the bettor's narrowed range beats
    the price)."""
    sr = st.read.street
    add = max(0, action_key(v, a) - v.bets[v.seat])
    to = v.bets[v.seat] + add
    f = max(0, to - v.current_bet) / max(1, v.pot + v.call_amount)
    mine = st.read.weights.get(v.seat)
    folds_all, called, eq_called = 1.0, 0.0, 1.0
    if mine is None or v.seat not in sr.ranges or st.standing is None:
        return Response(0.0, st.equity, 0.0)
    u = percentiles(sr.strengths[v.seat], mine)
    narrowed = reweight(mine, u, _bet_action(v, a), f, v.raises_on(v.street) > 0, p=p.read)
    for s in v.opponents:
        if s not in st.standing.pairs:
            continue
        sc, ct = st.standing.pairs[s]
        theirs = equity_against(ct.T - sc.T, ct.T, narrowed)
        need = max(0, to - v.bets[s])
        price = need / (v.pot + add + need) if need else 0.0
        alpha = need / (v.pot + add) if need else 0.0
        w = st.read.weights[s]
        place = percentiles(theirs, w)
        fold = np.where(theirs > price, 0.0, smooth((alpha - place) / p.betting.opponent_width))
        total = float(w.sum()) or 1.0
        fp = float((w * fold).sum()) / total
        folds_all *= fp
        called += (1 - fp) * need
        keep = w * (1 - fold)
        den = float((st.hero_count.get(s, np.zeros(len(w))) * keep).sum())
        num = float((st.hero_score.get(s, np.zeros(len(w))) * keep).sum())
        eq_called *= num / den if den > 0 else st.equity
    return Response(folds_all, eq_called, called)


def _bet_value(v: SeatView, st: Situation, a: Action, add: int, p: Params) -> float:
    r = response(v, st, a, p)
    showdown = r.equity * (v.pot + add + r.called) - add
    return r.folds * v.pot + (1 - r.folds) * showdown
