"""Local Best Response (Lisý and Bowling, 2017, "Equilibrium Approximation Quality of Current No-Limit Poker
Bots"): a cheap lower bound on how much a policy can be beaten heads-up.

LBR plays against a policy whose action probabilities it can ask.  It keeps the opponent's range: weights on the
opponent's possible private cards, multiplied at each of the opponent's decisions by the probability the policy
gives the action it took (Bayes' rule).  At each of its own decisions it estimates its chance to win against that
range if the hand were checked down (rollouts of the board), and for every bet size the share of the range that
would fold to it (the policy's fold probability for each holding), and takes the action with the best immediate
value, assuming a bet is either folded to or called and the hand is then checked down:

* fold: 0;
* check or call: ``wp · pot − (1 − wp) · asked``;
* bet or raise by ``a`` over the call: ``fp · pot + (1 − fp) · (wp' · (pot + a) − (1 − wp') · (asked + a))``,

with ``wp'`` the chance to win against the part of the range that does not fold.  As in the paper, LBR only
checks or calls before the flop (``preflop="call"``), and bets the pot or all in after it.

Taiwan Poker's physical cards: the opponent's private cards are two hole cards and a private burn drawn from the
physical cards LBR has not seen (its own hole cards and own burn, and the board, removed), so with several decks
the opponent may hold LBR's very faces.  To stay tractable the range is a sample of such triples (particles, a few
hundred before the flop, resampled to a few dozen at the flop; see ``docs/bots.md``).

A policy that can tell its action probabilities implements :class:`DistributionPolicy`.  The levels today only
sample an action; :class:`SampledDistribution` estimates a policy's distribution at a view by calling it with a
few fixed seeds (cached per view), and :func:`as_distribution` uses a policy's own ``distribution`` whenever it
has one, so the estimate is bypassed once a level returns its probabilities.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from taiwan_poker.cards import CARDS_PER_DECK, MAX_DECKS, Card
from taiwan_poker.evaluate.batch import rank_batch
from taiwan_poker.rules.actions import ALLIN, CALL, CHECK, FOLD, Action, ActionKind
from taiwan_poker.strategy.legal import action_key
from taiwan_poker.strategy.seat import SeatView

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
PolicyFn = Callable[[SeatView, random.Random], Action]
ActionDistribution = list[tuple[Action, float]]
Respond = Callable[[Action], SeatView | None]

_CARDS = tuple(Card.from_index(i) for i in range(CARDS_PER_DECK * MAX_DECKS))


# --- policies that tell their action probabilities -----------------------------------------------------------


@runtime_checkable
class DistributionPolicy(Protocol):
    """A policy that can tell its action probabilities at a view (they sum to 1)."""

    def distribution(self, view: SeatView, rng: random.Random) -> ActionDistribution: ...


def probability(dist: ActionDistribution, view: SeatView, key: int) -> float:
    """The probability a distribution gives the move with this :func:`action_key`."""
    return sum(p for a, p in dist if action_key(view, a) == key)


def sample_action(dist: ActionDistribution, rng: random.Random) -> Action:
    """One action drawn from a distribution."""
    x = rng.random() * sum(p for _, p in dist)
    for action, p in dist:
        x -= p
        if x < 0:
            return action
    return dist[-1][0]


class SampledDistribution:
    """A sampling policy's action probabilities at a view, estimated by calling it with fixed seeds.

    ``samples`` calls per decision (a number for every street, or one per street: preflop calls are cheap and
    post-flop ones are not); the seeds are the same for every view, so two holdings are compared with the same
    random choices.  Estimates are cached per view (the view holds the cards, so one entry per holding).
    Calling the object plays the policy itself.
    """

    def __init__(self, policy: PolicyFn, samples: int | Sequence[int] = (8, 3, 3, 3), seed: int = 0,
                 cache_limit: int = 200_000) -> None:
        self.policy = policy
        self.samples = (samples,) * 4 if isinstance(samples, int) else tuple(samples)
        if len(self.samples) != 4 or min(self.samples) < 1:
            raise ValueError("samples: a positive number, or one for each of the four streets")
        self.seed = seed
        self.cache_limit = cache_limit
        self._cache: dict[SeatView, ActionDistribution] = {}
        self.calls = 0

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        return self.policy(view, rng)

    def distribution(self, view: SeatView, rng: random.Random) -> ActionDistribution:
        hit = self._cache.get(view)
        if hit is not None:
            return hit
        n = self.samples[view.street]
        counts: dict[Action, int] = {}
        for i in range(n):
            action = self.policy(view, random.Random(self.seed * 1_000_003 + i))
            counts[action] = counts.get(action, 0) + 1
        self.calls += n
        dist = [(a, c / n) for a, c in counts.items()]
        if len(self._cache) >= self.cache_limit:
            self._cache.clear()
        self._cache[view] = dist
        return dist


def as_distribution(policy: PolicyFn | DistributionPolicy, samples: int | Sequence[int] = (8, 3, 3, 3),
                    seed: int = 0) -> DistributionPolicy:
    """The policy's own :class:`DistributionPolicy` when it has one, else a :class:`SampledDistribution` of it."""
    if isinstance(policy, DistributionPolicy):
        return policy
    return SampledDistribution(policy, samples, seed)


def act_with(policy: PolicyFn | DistributionPolicy, view: SeatView, rng: random.Random) -> Action:
    """Play a policy: call it, or draw from its distribution when it only tells probabilities."""
    if callable(policy):
        return policy(view, rng)
    return sample_action(policy.distribution(view, rng), rng)


def strip(view: SeatView) -> SeatView:
    """A seat's view without its private cards: what anyone at the table may know of its decision."""
    return replace(view, hole=(), burns=())


# --- the opponent's range ---------------------------------------------------------------------------------------


def unseen(known: Sequence[Card], decks: int) -> IntArray:
    """Physical card indices of the shoe minus ``known``."""
    mask = np.ones(CARDS_PER_DECK * decks, dtype=bool)
    mask[[c.index for c in known]] = False
    return np.flatnonzero(mask).astype(np.int64)


def draw_distinct(pool: IntArray, rows: int, k: int, rng: np.random.Generator) -> IntArray:
    """``rows`` draws of ``k`` distinct cards of ``pool`` each (uniform)."""
    out = np.empty((rows, k), dtype=np.int64)
    todo = np.arange(rows)
    while len(todo):
        picks = rng.integers(0, len(pool), size=(len(todo), k))
        srt = np.sort(picks, axis=1)
        ok = ~(srt[:, 1:] == srt[:, :-1]).any(axis=1) if k > 1 else np.ones(len(todo), dtype=bool)
        out[todo[ok]] = pool[picks[ok]]
        todo = todo[~ok]
    return out


@dataclass
class OpponentRange:
    """Particles for an opponent's private cards, each two hole cards and a private burn (physical card indices,
    one row each), with their Bayes weights."""

    cards: IntArray
    weights: FloatArray

    @classmethod
    def uniform(cls, known: Sequence[Card], decks: int, count: int, rng: np.random.Generator) -> OpponentRange:
        """``count`` holdings drawn uniformly from the cards the observer has not seen, all of weight 1."""
        return cls(draw_distinct(unseen(known, decks), count, 3, rng), np.ones(count))

    def __len__(self) -> int:
        return len(self.weights)

    @property
    def mass(self) -> float:
        return float(self.weights.sum())

    def normalised(self) -> FloatArray:
        total = self.weights.sum()
        return self.weights / total if total > 0 else np.full(len(self.weights), 1.0 / max(1, len(self.weights)))

    def holding_view(self, view: SeatView, i: int) -> SeatView:
        """The opponent's view at a decision had it held particle ``i`` (``view`` holds no private cards)."""
        a, b, burn = self.cards[i]
        return replace(view, hole=(_CARDS[a], _CARDS[b]), burns=(_CARDS[burn],))

    def _each(self, fn: Callable[[SeatView], float], view: SeatView) -> FloatArray:
        out = np.zeros(len(self.weights))
        memo: dict[tuple[int, int, int], float] = {}
        for i in np.flatnonzero(self.weights > 0):
            row = (int(self.cards[i, 0]), int(self.cards[i, 1]), int(self.cards[i, 2]))
            value = memo.get(row)
            if value is None:
                value = memo[row] = fn(self.holding_view(view, int(i)))
            out[i] = value
        return out

    def likelihood(self, policy: DistributionPolicy, view: SeatView, action: Action,
                   rng: random.Random) -> FloatArray:
        """For each particle: the probability the policy takes ``action`` at ``view`` with those cards."""
        key = action_key(view, action)
        return self._each(lambda hv: probability(policy.distribution(hv, rng), hv, key), view)

    def fold_probabilities(self, policy: DistributionPolicy, view: SeatView, rng: random.Random) -> FloatArray:
        """For each particle: the probability the policy folds at ``view`` with those cards."""
        return self._each(lambda hv: probability(policy.distribution(hv, rng), hv, -1), view)

    def update(self, policy: DistributionPolicy, view: SeatView, action: Action, rng: random.Random,
               floor: float = 0.0) -> None:
        """Bayes' rule: each weight times the probability of the action taken (at least ``floor``, so an
        estimated probability of 0 does not end the range); an update that would leave no weight is skipped."""
        lik = self.likelihood(policy, view, action, rng)
        new = self.weights * np.maximum(lik, floor)
        if new.sum() > 0:
            self.weights = new

    def exclude(self, cards: Sequence[Card]) -> None:
        """Zero the particles holding any of these physical cards (the board dealt since)."""
        if not cards:
            return
        hit = np.isin(self.cards, [c.index for c in cards]).any(axis=1)
        self.weights = np.where(hit, 0.0, self.weights)

    def resample(self, count: int, rng: np.random.Generator) -> OpponentRange:
        """``count`` particles drawn in proportion to weight (systematic resampling), each of weight 1."""
        w = self.normalised()
        positions = (rng.random() + np.arange(count)) / count
        index = np.minimum(np.searchsorted(np.cumsum(w), positions), len(w) - 1)
        return OpponentRange(self.cards[index].copy(), np.ones(count))


def win_probability(hole: Sequence[Card], dead: Sequence[Card], board: Sequence[Card], decks: int,
                    opponent: OpponentRange, samples: int, rng: np.random.Generator,
                    weights: FloatArray | None = None) -> float:
    """The hero's share of the pot at a showdown against the weighted range, the rest of the board dealt out
    (no more betting).  ``dead``: cards only the hero knows are gone (its own burn).  Each particle with weight
    gets the same number of board run-outs, drawn from the cards neither player holds."""
    w = opponent.weights if weights is None else weights
    live = np.flatnonzero(w > 0)
    if len(live) == 0:
        return 0.5
    need = 5 - len(board)
    per = max(1, samples // len(live)) if need else 1
    rows = np.repeat(live, per)
    opp = opponent.cards[rows]
    cards_h = np.empty((len(rows), 7), dtype=np.int16)
    cards_o = np.empty((len(rows), 7), dtype=np.int16)
    if board:
        cards_h[:, 2:2 + len(board)] = [c.index for c in board]
        cards_o[:, 2:2 + len(board)] = [c.index for c in board]
    if need:
        pool = unseen([*hole, *dead, *board], decks)
        runout = np.empty((len(rows), need), dtype=np.int64)
        todo = np.arange(len(rows))
        while len(todo):
            draw = draw_distinct(pool, len(todo), need, rng)
            clash = (draw[:, :, None] == opp[todo][:, None, :]).any(axis=(1, 2))
            runout[todo[~clash]] = draw[~clash]
            todo = todo[clash]
        cards_h[:, 2 + len(board):] = runout
        cards_o[:, 2 + len(board):] = runout
    cards_h[:, 0], cards_h[:, 1] = hole[0].index, hole[1].index
    cards_o[:, 0], cards_o[:, 1] = opp[:, 0], opp[:, 1]
    mine = rank_batch(cards_h, threads=1)
    theirs = rank_batch(cards_o, threads=1)
    share = np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))
    rw = w[rows]
    return float((share * rw).sum() / rw.sum())


def posterior(policy: DistributionPolicy, known: Sequence[Card], decks: int,
              decisions: Sequence[tuple[SeatView, Action]], rng: random.Random, *, preflop: int = 300,
              postflop: int = 48, floor: float = 0.0) -> OpponentRange:
    """An opponent's range given their decisions (their views without private cards, and the actions taken),
    seen by an observer who knows ``known`` (own cards and burn, the board so far): ``preflop`` particles
    weighted by the preflop decisions, resampled to ``postflop`` particles for the later ones."""
    np_rng = np.random.default_rng(rng.getrandbits(64))
    rng_range = OpponentRange.uniform(known, decks, preflop, np_rng)
    resampled = False
    for view, action in decisions:
        if view.street > 0 and not resampled:
            rng_range = rng_range.resample(postflop, np_rng)
            resampled = True
        rng_range.update(policy, view, action, rng, floor)
    return rng_range


# --- the local best response -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LbrSettings:
    """How LBR plays and how much it computes.

    ``sizes``: bets and raises as fractions of the pot after calling (all in is always a candidate);
    ``preflop``: ``"call"`` (the paper's: check or call every preflop decision) or ``"act"`` (the same local
    choice before the flop too); ``particles`` / ``preflop_particles``: the range's sample after / before the
    flop; ``rollouts``: board run-outs per win-probability estimate; ``floor``: the least likelihood an action
    gets in a Bayes update (an estimated distribution may give 0 to an action the policy does take).
    """

    sizes: tuple[float, ...] = (1.0,)
    preflop: Literal["call", "act"] = "call"
    particles: int = 48
    preflop_particles: int = 300
    rollouts: int = 1200
    floor: float = 0.02


def _check_or_call(view: SeatView) -> Action:
    return CHECK if view.can(ActionKind.CHECK) else CALL


def _sized(view: SeatView, to: int) -> Action | None:
    """A bet or raise to ``to`` clamped to the legal range (all in when it reaches the stack); None if neither."""
    allin_to = view.bets[view.seat] + view.stack
    kind = ActionKind.BET if view.can(ActionKind.BET) else ActionKind.RAISE if view.can(ActionKind.RAISE) else None
    if kind is None:
        return ALLIN if view.can(ActionKind.ALLIN) and allin_to > view.current_bet else None
    to = max(view.min_to, min(view.max_to, to))
    if to >= allin_to and view.can(ActionKind.ALLIN):
        return ALLIN
    return Action(kind, to)


class LocalBestResponse:
    """The LBR player of one seat heads-up against a policy that tells its action probabilities.

    The runner tells it each new hand (:meth:`new_hand`), each opponent decision (:meth:`observe`, the
    opponent's view without its cards) and asks it to act (:meth:`decide`) with a ``respond`` function that gives
    the opponent's view (without cards) after a hypothetical action of LBR's, or None if the opponent would not
    act next.  It never sees the opponent's cards.
    """

    def __init__(self, opponent: DistributionPolicy, settings: LbrSettings | None = None,
                 rng: random.Random | None = None) -> None:
        self.opponent = opponent
        self.settings = settings or LbrSettings()
        self.rng = rng or random.Random(0)
        self._np = np.random.default_rng(self.rng.getrandbits(64))
        self.range = OpponentRange(np.zeros((0, 3), dtype=np.int64), np.zeros(0))
        self._hole: tuple[Card, ...] = ()
        self._burns: tuple[Card, ...] = ()
        self._decks = 2
        self._street = 0
        self._board: tuple[Card, ...] = ()
        self.last_utilities: dict[Action, float] = {}

    def new_hand(self, hole: Sequence[Card], burns: Sequence[Card], decks: int) -> None:
        """A new hand: LBR's own cards; the range starts uniform over the cards it has not seen."""
        self._hole, self._burns, self._decks = tuple(hole), tuple(burns), decks
        self._street, self._board = 0, ()
        self.range = OpponentRange.uniform([*hole, *burns], decks, self.settings.preflop_particles, self._np)

    def _sync(self, view: SeatView) -> None:
        """Catch up with the board: drop holdings that hold a card dealt since; resample at the flop."""
        if view.board != self._board:
            self.range.exclude(view.board[len(self._board):])
            self._board = view.board
        if view.street > 0 and self._street == 0:
            self.range = self.range.resample(self.settings.particles, self._np)
        self._street = view.street

    def observe(self, view: SeatView, action: Action) -> None:
        """The opponent acted: Bayes' rule on its range (``view`` is its view without private cards)."""
        self._sync(view)
        self.range.update(self.opponent, view, action, self.rng, self.settings.floor)

    def win_probability(self, view: SeatView, weights: FloatArray | None = None) -> float:
        return win_probability(self._hole, self._burns, view.board, self._decks, self.range,
                               self.settings.rollouts, self._np, weights)

    def candidates(self, view: SeatView) -> list[Action]:
        """The bets and raises LBR weighs: each pot fraction of :attr:`LbrSettings.sizes`, and all in."""
        out: list[Action] = []
        for fraction in self.settings.sizes:
            size = max(view.big_blind, round(fraction * (view.pot + view.call_amount)))
            action = _sized(view, view.current_bet + size)
            if action is not None and action not in out:
                out.append(action)
        if view.can(ActionKind.ALLIN) and view.bets[view.seat] + view.stack > view.current_bet and ALLIN not in out:
            out.append(ALLIN)
        return out

    def decide(self, view: SeatView, respond: Respond) -> Action:
        """LBR's action at its own view: the best immediate value as in the module docstring."""
        self._sync(view)
        passive = _check_or_call(view)
        if view.street == 0 and self.settings.preflop == "call":
            self.last_utilities = {passive: 0.0}
            return passive
        pot, asked = view.pot, view.call_amount
        wp = self.win_probability(view)
        utils: dict[Action, float] = {passive: wp * pot - (1 - wp) * asked}
        if asked > 0:
            utils[FOLD] = 0.0
        opp_reach = max(view.bets[s] + view.stacks[s] for s in view.opponents)
        for action in self.candidates(view):
            to = view.bets[view.seat] + view.stack if action.kind is ActionKind.ALLIN else (action.to or 0)
            extra = min(to, opp_reach) - view.current_bet  # what the opponent must add to call (beyond `asked`)
            answer = respond(action)
            if answer is None:
                fp, callers = 0.0, self.range.weights
            else:
                folds = self.range.fold_probabilities(self.opponent, answer, self.rng)
                w = self.range.normalised()
                fp = float((w * folds).sum())
                callers = self.range.weights * (1 - folds)
            wp_call = self.win_probability(view, callers) if callers.sum() > 0 else wp
            utils[action] = fp * pot + (1 - fp) * (wp_call * (pot + extra) - (1 - wp_call) * (asked + extra))
        self.last_utilities = utils
        return max(utils, key=lambda a: utils[a])
