"""Headless bot matches through the engine (no HTTP), in the duplicate format for measuring strength.

Every hand starts with fresh stacks of ``rules.starting_stack``.  In the
duplicate format each deal (one seeded shoe and button) is played once for
each seating of the bots, so luck of the cards cancels: heads-up the two bots
swap seats; six-handed the bot under test sits in each of the six seats in
turn against the same five baselines.  Bots decide from their seat's view only
(:func:`~taiwan_poker.strategy.seat.seat_view`).

Beside the matches: an all-in adjustment that scores a hand whose board was dealt out after the last decision by
its expected chips over every run-out (``allin_ev``: the same expectation, much less noise), Local Best Response
matches (:func:`lbr_heads_up`, the player in :mod:`.lbr`), a fold-to-size probe (:func:`fold_to_size`) and
decision-time percentiles (:func:`percentiles`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from taiwan_poker.bots.policies import Policy
from taiwan_poker.evaluate.batch import rank_batch
from taiwan_poker.rules.actions import ALLIN, Action, ActionKind
from taiwan_poker.rules.events import ActionTaken, BlindPosted, BoardDealt, HandShown
from taiwan_poker.rules.hand import Hand
from taiwan_poker.rules.pots import build_pots
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker.strategy.habits import Habits
from taiwan_poker.strategy.seat import SeatView, seat_view
from taiwan_poker.strategy.table_habits import hand_counts

from .lbr import (
    ActionDistribution,
    DistributionPolicy,
    LbrSettings,
    LocalBestResponse,
    act_with,
    as_distribution,
    posterior,
    sample_action,
    strip,
    unseen,
    win_probability,
)
from .luck import LuckAdjuster, dealt_cards, runouts


class Memory:
    """What the players of a match have seen each other do before the flop so far (:mod:`~..strategy.habits`),
    by who plays (the two or more policies of the match, whatever seat they take in a deal)."""

    def __init__(self) -> None:
        self.seen: dict[object, Habits] = {}

    def habits(self, players: Sequence[object]) -> tuple[Habits | None, ...]:
        return tuple(self.seen.get(p) for p in players)

    def add(self, hand: Hand, players: Sequence[object]) -> None:
        for seat, h in hand_counts(hand).items():
            self.seen[players[seat]] = self.seen.get(players[seat], Habits()) + h


def play_to_end(hand: Hand, policies: Sequence[Policy], rngs: Sequence[random.Random],
                timings: list[float] | None = None, timed_seats: frozenset[int] = frozenset(),
                habits: tuple[Habits | None, ...] = ()) -> Hand:
    """Let each seat's policy act, from its seat's view (with the players' ``habits`` seen so far), until the hand
    is over (an illegal action raises)."""
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        t0 = time.perf_counter()
        view = seat_view(hand, seat)
        action = policies[seat](replace(view, habits=habits) if habits else view, rngs[seat])
        if timings is not None and seat in timed_seats:
            timings.append(time.perf_counter() - t0)
        hand.act(action, seat=seat)
    return hand


def _played(rules: RuleSet, policies: Sequence[Policy], button: int, deal_seed: int, decide_seeds: Sequence[int],
            timings: list[float] | None, timed_seats: frozenset[int], memory: Memory | None) -> tuple[Hand, list[int]]:
    stacks = [rules.starting_stack] * rules.seats
    hand = Hand.start(rules, stacks, button, rng=random.Random(deal_seed))
    players: list[object] = list(policies)
    habits = memory.habits(players) if memory is not None else ()
    play_to_end(hand, policies, [random.Random(s) for s in decide_seeds], timings, timed_seats, habits)
    if memory is not None:
        memory.add(hand, players)
    return hand, stacks


def play_hand(rules: RuleSet, policies: Sequence[Policy], button: int, deal_seed: int,
              decide_seeds: Sequence[int], timings: list[float] | None = None,
              timed_seats: frozenset[int] = frozenset(), memory: Memory | None = None) -> list[int]:
    """One hand from fresh stacks; each seat's chips won (negative: lost).  With ``memory``, the players see
    each other's habits from the match's earlier hands, and this hand is added to them (policies are the
    players: two seats with the same policy object count as one player)."""
    hand, stacks = _played(rules, policies, button, deal_seed, decide_seeds, timings, timed_seats, memory)
    return [after - before for after, before in zip(hand.stacks, stacks, strict=True)]


def play_hand_ev(rules: RuleSet, policies: Sequence[Policy], button: int, deal_seed: int,
                 decide_seeds: Sequence[int], timings: list[float] | None = None,
                 timed_seats: frozenset[int] = frozenset(), memory: Memory | None = None) -> list[float]:
    """As :func:`play_hand`, but a hand dealt out after an all-in scores its expected chips (:func:`allin_ev`)."""
    hand, stacks = _played(rules, policies, button, deal_seed, decide_seeds, timings, timed_seats, memory)
    ev = allin_ev(hand, np.random.default_rng(deal_seed))
    return ev if ev is not None else [float(after - before) for after, before in zip(hand.stacks, stacks, strict=True)]


ALLIN_EV_SAMPLES = 4000


def allin_ev(hand: Hand, rng: np.random.Generator, samples: int = ALLIN_EV_SAMPLES) -> list[float] | None:
    """Each seat's expected chips won, over the run-outs, when board cards were dealt after the last decision
    (players all in); None when the hand needed no run-out.

    The board still to come is a uniform draw from the cards not dealt before the last decision (dealer burns
    included: nobody saw them), so this is the hand's expected result given everything at that moment; it
    counts every run-out when there are at most ``samples`` of them, else ``samples`` drawn at random.  Pots
    and side pots are the engine's; odd chips are split evenly.
    """
    events = hand.events
    if not hand.complete or not any(isinstance(e, HandShown) for e in events):
        return None
    last = max((i for i, e in enumerate(events) if isinstance(e, ActionTaken | BlindPosted)), default=-1)
    if not any(isinstance(e, BoardDealt) for e in events[last + 1:]):
        return None
    dealt, board, holes = dealt_cards(events[: last + 1])
    runs = runouts(unseen(dealt, hand.rules.decks), 5 - len(board), rng, samples)
    contrib = list(hand.betting.contrib)
    folded = hand.betting.folded
    live = [s for s in range(len(contrib)) if not folded[s]]
    rows = np.empty((len(runs), 7), dtype=np.int16)
    rows[:, 2:2 + len(board)] = [c.index for c in board]
    rows[:, 2 + len(board):] = runs
    values = np.zeros((len(runs), len(contrib)), dtype=np.int64)
    for s in live:
        rows[:, 0], rows[:, 1] = holes[s][0].index, holes[s][1].index
        values[:, s] = rank_batch(rows, threads=1)
    won = np.zeros(len(contrib))
    for pot in build_pots(contrib, [not f for f in folded]):
        eligible = list(pot.eligible)
        if not eligible:
            continue
        v = values[:, eligible]
        best = v == v.max(axis=1, keepdims=True)
        won[eligible] += pot.amount * (best / best.sum(axis=1, keepdims=True)).mean(axis=0)
    return [float(won[s] - contrib[s]) for s in range(len(contrib))]


@dataclass
class Tally:
    """Per-deal results of the bot under test, in big blinds per hand, and how long the hands took."""

    units: list[float] = field(default_factory=list)
    hands: int = 0
    seconds: float = 0.0
    timings: list[float] = field(default_factory=list)
    adjusted: list[float] = field(default_factory=list)  # LBR: the same deals scored for luck (:mod:`.luck`)

    @property
    def bb_per_100(self) -> float:
        return mean_ci(self.units)[0]

    @property
    def ci95(self) -> float:
        """Half-width of the 95 % confidence interval of :attr:`bb_per_100` (deals are independent)."""
        return mean_ci(self.units)[1]

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def mean_ci(units: Sequence[float]) -> tuple[float, float]:
    """The mean of per-deal big blinds in bb/100, and the half-width of its 95 % confidence interval."""
    n = len(units)
    mean = sum(units) / n if n else 0.0
    if n < 2:
        return 100 * mean, math.inf
    var = sum((u - mean) ** 2 for u in units) / (n - 1)
    return 100 * mean, 100 * 1.96 * math.sqrt(var / n)


def duplicate_heads_up(rules: RuleSet, hero: Policy, villain: Policy, deals: int, seed: int = 0,
                       tally: Tally | None = None, *, allin_ev: bool = False) -> Tally:
    """``deals`` deals, each played twice with the seats swapped; units are the hero's big blinds per hand.
    The two remember each other's habits over the match (:class:`Memory`), as players at one table do.

    ``allin_ev``: score hands dealt out after an all-in by their expected chips (:func:`allin_ev`)."""
    tally = tally or Tally()
    play = play_hand_ev if allin_ev else play_hand
    bb = rules.big_blind
    memory = Memory()
    t0 = time.perf_counter()
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        button = d % 2
        net = 0.0
        for hero_seat in (0, 1):
            seats = [hero, villain] if hero_seat == 0 else [villain, hero]
            decide = [deal_seed * 4 + hero_seat * 2 + s for s in (0, 1)]
            net += play(rules, seats, button, deal_seed, decide, tally.timings, frozenset({hero_seat}),
                        memory)[hero_seat]
        tally.units.append(net / 2 / bb)
        tally.hands += 2
    tally.seconds += time.perf_counter() - t0
    return tally


def duplicate_ring(rules: RuleSet, hero: Policy, field_: Policy, deals: int, seed: int = 0,
                   tally: Tally | None = None, *, allin_ev: bool = False) -> Tally:
    """``deals`` deals at a full table, each played once with the hero in every seat against copies of ``field_``
    (the copies are one player to the hero's memory of habits, :class:`Memory`).

    ``allin_ev``: score hands dealt out after an all-in by their expected chips (:func:`allin_ev`)."""
    tally = tally or Tally()
    play = play_hand_ev if allin_ev else play_hand
    n = rules.seats
    bb = rules.big_blind
    memory = Memory()
    t0 = time.perf_counter()
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        button = d % n
        net = 0.0
        for hero_seat in range(n):
            seats = [hero if s == hero_seat else field_ for s in range(n)]
            decide = [deal_seed * 16 + hero_seat * n + s for s in range(n)]
            net += play(rules, seats, button, deal_seed, decide, tally.timings, frozenset({hero_seat}),
                        memory)[hero_seat]
        tally.units.append(net / n / bb)
        tally.hands += n
    tally.seconds += time.perf_counter() - t0
    return tally


# --- Local Best Response matches ---------------------------------------------------------------------------------


def _responder(hand: Hand, seat: int, other: int, habits: tuple[Habits | None, ...] = ()
               ) -> Callable[[Action], SeatView | None]:
    """The other seat's view, without its cards, after ``seat`` would take an action (None if it would not act)."""

    def respond(action: Action) -> SeatView | None:
        fork = hand.fork()
        fork.act(action, seat=seat)
        return strip(replace(seat_view(fork, other), habits=habits)) if fork.to_act == other else None

    return respond


LBR_PLAYERS = ("lbr", "opponent")
Trace = Callable[[Hand, SeatView, Action, ActionDistribution | None], None]  # see :func:`lbr_hand`


def lbr_hand(rules: RuleSet, opponent: Policy | DistributionPolicy, model: DistributionPolicy, lbr_seat: int,
             button: int, deal_seed: int, settings: LbrSettings | None = None, *, ev: bool = True,
             timings: list[float] | None = None, memory: Memory | None = None,
             scores: list[float] | None = None, trace: Trace | None = None) -> float:
    """One heads-up hand of LBR (in ``lbr_seat``) against ``opponent``, whose probabilities LBR reads from
    ``model``; LBR's chips won (its expected chips when the board was dealt out after an all-in and ``ev``).
    With ``memory``, the opponent sees LBR's habits over the match, and LBR asks the model with them too.
    With ``scores``, the hand's score for luck (:mod:`.luck`) is appended to it: an opponent that tells its
    probabilities then draws from them (the same draw as playing it, for the strategy's levels).  ``trace`` is
    told every decision before it is applied: the hand, the view, the action and the opponent's distribution
    (None at LBR's own decisions, and for an opponent that only samples)."""
    stacks = [rules.starting_stack] * 2
    hand = Hand.start(rules, stacks, button, rng=random.Random(deal_seed))
    luck = LuckAdjuster(hand, lbr_seat, np.random.default_rng(deal_seed + 7)) if scores is not None else None
    other = 1 - lbr_seat
    lbr = LocalBestResponse(model, settings, random.Random(deal_seed * 4 + lbr_seat))
    lbr.new_hand([c for c in hand.hole_cards(lbr_seat) if c is not None],
                 [c for c in hand.private_burns(lbr_seat) if c is not None], rules.decks)
    rng = random.Random(deal_seed * 4 + 2 + lbr_seat)
    players = [LBR_PLAYERS[0] if s == lbr_seat else LBR_PLAYERS[1] for s in (0, 1)]
    habits = memory.habits(players) if memory is not None else ()
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        view = replace(seat_view(hand, seat), habits=habits)
        dist: ActionDistribution | None = None
        if seat == lbr_seat:
            t0 = time.perf_counter()
            action = lbr.decide(view, _responder(hand, seat, other, habits))
            if timings is not None:
                timings.append(time.perf_counter() - t0)
        else:
            if luck is not None and isinstance(opponent, DistributionPolicy):
                dist = opponent.distribution(view, rng)
                luck.decision(hand, view, dist)
                action = sample_action(dist, rng)
            else:
                action = act_with(opponent, view, rng)
            lbr.observe(strip(view), action)
        if trace is not None:
            trace(hand, view, action, dist)
        hand.act(action, seat=seat)
        if luck is not None:
            luck.acted(hand, action)
    if memory is not None:
        memory.add(hand, players)
    result = allin_ev(hand, np.random.default_rng(deal_seed)) if ev else None
    net = result[lbr_seat] if result is not None else float(hand.stacks[lbr_seat] - stacks[lbr_seat])
    if luck is not None and scores is not None:
        scores.append(luck.score(net))
    return net


def lbr_heads_up(rules: RuleSet, opponent: Policy | DistributionPolicy, deals: int, seed: int = 0,
                 settings: LbrSettings | None = None, *, samples: int | Sequence[int] = (8, 3, 3, 3),
                 ev: bool = True, tally: Tally | None = None, luck: bool = False) -> Tally:
    """LBR against ``opponent`` heads-up, duplicate: each deal played with LBR in either seat.  Units are LBR's
    big blinds per hand (×1000: milli-big-blinds per game, the paper's unit: the opponent's exploitability as
    LBR finds it).  The opponent's probabilities are its own when it tells them, else estimated with
    ``samples`` seeded calls per decision (:class:`~.lbr.SampledDistribution`).  The opponent remembers LBR's
    habits over the match (:class:`Memory`) as it would at a table, and LBR reads its probabilities with them.
    With ``luck``, each deal is also scored for luck (:mod:`.luck`) into :attr:`Tally.adjusted`."""
    if rules.seats != 2:
        raise ValueError("LBR is heads-up")
    tally = tally or Tally()
    model = as_distribution(opponent, samples, seed)
    memory = Memory()
    t0 = time.perf_counter()
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        scores: list[float] | None = [] if luck else None
        net = sum(lbr_hand(rules, opponent, model, s, d % 2, deal_seed, settings, ev=ev, timings=tally.timings,
                           memory=memory, scores=scores)
                  for s in (0, 1))
        tally.units.append(net / 2 / rules.big_blind)
        if scores is not None:
            tally.adjusted.append(sum(scores) / 2 / rules.big_blind)
        tally.hands += 2
    tally.seconds += time.perf_counter() - t0
    return tally


# --- fold to size --------------------------------------------------------------------------------------------

SIZES = ("1 chip", "1 BB", "1/3 pot", "pot", "2x pot")
"""The bet sizes of the fold-to-size probe: ``b`` of a pot ``p`` (the pot before the bet)."""


@dataclass(frozen=True, slots=True)
class FoldSpot:
    """One answer of the policy to a scripted bet: ``bet`` (b) the chips it must call, ``pot`` (p) the rest of the
    pot; ``equity`` (folds only, when evaluated) its share against the bettor's range, ``price`` b / (p + 2b)."""

    street: int
    size: str
    bet: int
    pot: int
    folded: bool
    price: float
    equity: float | None = None

    @property
    def cap(self) -> float:
        """The most it may fold: b / (p + b), the share at which the bet would profit with any two cards."""
        return self.bet / (self.pot + self.bet)


def _opening(v: SeatView, street: int) -> bool:
    """Whether the seat to act may make the street's first bet (before the flop: the first raise)."""
    if v.street != street:
        return False
    if street == 0:
        return v.raises_on(0) == 0 and (v.can(ActionKind.RAISE) or v.can(ActionKind.BET))
    return v.call_amount == 0 and v.can(ActionKind.BET)


def _scripted(v: SeatView, other: int, size: str) -> Action:
    """The scripted bet: the other seat must call ``b`` = size of ``p``, ``p`` the pot with the bets matched at
    the other seat's level; clamped to the legal range (all in when it reaches the stack)."""
    p = v.pot - v.bets[v.seat] + v.bets[other]
    b = {"1 BB": v.big_blind, "1/3 pot": round(p / 3), "pot": p, "2x pot": 2 * p}[size]
    kind = ActionKind.BET if v.can(ActionKind.BET) else ActionKind.RAISE
    to = max(v.min_to, min(v.max_to, v.bets[other] + b))
    return ALLIN if to >= v.bets[v.seat] + v.stack else Action(kind, to)


class ScriptedSpot(NamedTuple):
    """One scripted bet of the probe: the hand after it, the answering seat's view and answer, the bettor's
    earlier decisions (views without cards) and the size."""

    hand: Hand
    view: SeatView
    answer: Action
    bettor: list[tuple[SeatView, Action]]
    size: str


def fold_spots(rules: RuleSet, policy: Policy, trial: int, seed: int = 0) -> list[ScriptedSpot]:
    """One trial of the probe: a heads-up self-play hand of ``policy``; on a street drawn at random, the first seat
    that may open the betting there (each chance taken with probability 1/2) bets every size of :data:`SIZES` in
    turn, each on its own copy of the hand, and the other seat answers by its policy.  Empty when the hand never
    offered the chance.  The one-chip bet (after the flop only) is an all-in: the same deal is played again with
    the bettor holding one chip more than it has put in, the same actions up to the spot."""
    pick = random.Random(seed * 7919 + trial)
    street = pick.randrange(4)
    deal_seed = seed * 1_000_003 + trial
    button = trial % 2
    hand = Hand.start(rules, [rules.starting_stack] * 2, button, rng=random.Random(deal_seed))
    rngs = [random.Random(deal_seed * 4 + s) for s in (0, 1)]
    done: list[tuple[int, Action]] = []
    seen: list[list[tuple[SeatView, Action]]] = [[], []]
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        v = seat_view(hand, seat)
        if v.street > street:
            return []
        if _opening(v, street) and pick.random() < 0.5:
            other = 1 - seat
            out = []
            for i, size in enumerate(SIZES):
                if size == "1 chip":
                    if street == 0:
                        continue
                    stacks = [rules.starting_stack] * 2
                    stacks[seat] = rules.starting_stack - v.stack + 1
                    bet = Hand.start(rules, stacks, button, rng=random.Random(deal_seed))
                    for s, a in done:
                        bet.act(a, seat=s)
                    bet.act(ALLIN, seat=seat)
                else:
                    bet = hand.fork()
                    bet.act(_scripted(v, other, size), seat=seat)
                if bet.to_act == other:
                    answer_view = seat_view(bet, other)
                    answer = policy(answer_view, random.Random(deal_seed * 8 + i))
                    out.append(ScriptedSpot(bet, answer_view, answer, seen[seat], size))
            return out
        action = policy(v, rngs[seat])
        seen[seat].append((strip(v), action))
        done.append((seat, action))
        hand.act(action, seat=seat)
    return []


def fold_to_size(rules: RuleSet, policy: Policy, trials: int, seed: int = 0, *, evaluate: bool = True,
                 samples: int | Sequence[int] = (8, 3, 3, 3), preflop_particles: int = 300, particles: int = 48,
                 rollouts: int = 2000) -> list[FoldSpot]:
    """The policy's answers to scripted bets of every size (:data:`SIZES`) on every street, heads-up self-play
    (:func:`fold_spots`).  With ``evaluate``, each fold's equity against the bettor's range: the range its own
    decisions imply by Bayes' rule (the bettor plays ``policy``; the scripted bet itself says nothing), as LBR
    reads it (:func:`~.lbr.posterior`)."""
    if rules.seats != 2:
        raise ValueError("the fold-to-size probe is heads-up")
    model = as_distribution(policy, samples, seed)
    out: list[FoldSpot] = []
    for t in range(trials):
        opp = None
        for spot in fold_spots(rules, policy, t, seed):
            v = spot.view
            folded = spot.answer.kind is ActionKind.FOLD
            eq = None
            if folded and evaluate:
                rng = random.Random(seed * 31 + t)
                if opp is None:  # the bettor's range is the same for every size of the trial
                    opp = posterior(model, v.known, rules.decks, spot.bettor, rng, preflop=preflop_particles,
                                    postflop=particles)
                eq = win_probability(v.hole, v.burns, v.board, rules.decks, opp, rollouts,
                                     np.random.default_rng(rng.getrandbits(64)))
            out.append(FoldSpot(v.street, spot.size, v.call_amount, v.pot - v.call_amount, folded, v.price(), eq))
    return out


def percentiles(values: Sequence[float], qs: Sequence[float] = (0.5, 0.95, 0.99)) -> list[float]:
    """The ``qs`` quantiles of ``values`` (nearest rank; 0 for no values)."""
    s = sorted(values)
    return [s[min(len(s) - 1, int(q * len(s)))] if s else 0.0 for q in qs]
