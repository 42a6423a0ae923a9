"""Issue 50, smooth advice: a 0.05 change in any read Strong takes from the table's habits after the flop moves no
action's probability by more than 0.15, and never turns a call of 99 % or more into a fold of 99 % or more (or
back).

The reads are the opponents' shrunk rates (:mod:`taiwan_poker.strategy.habits`): of betting when unbet, raising
a bet and folding to one; of big bets and overbets unbet and facing a bet on the street (the share of its range
the frequency floor reads); the mean strength of the hands shown after big bets; and the share of the showdowns
after big bets, and after river bets, won.  Each is moved by ±0.05 through the counts (so the rate the strategy
reads moves by exactly that; a move that would leave [0, 1] is skipped), one at a time, for each opponent.  The
spots are Strong's decisions after the flop in headless duplicate matches that remember habits (heads-up against
Solid and three exploiters, six-handed against Beginner: multi-way pots), each as played and, heads-up facing a
bet, with the opponent seen as two seasoned players who reached many showdowns (one betting big for value, one
bluffing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from taiwan_poker.bots.levels import policy_of
from taiwan_poker.rules.actions import ActionKind
from taiwan_poker.rules.ruleset import RuleSet
from taiwan_poker.strategy.habits import Habits
from taiwan_poker.strategy.legal import action_key
from taiwan_poker.strategy.params import SHIPPED
from taiwan_poker.strategy.policy import strategy
from taiwan_poker.strategy.seat import SeatView
from taiwan_poker_lab.arena import duplicate_heads_up, duplicate_ring
from taiwan_poker_lab.exploiters import EXPLOITERS
from tests.strategy.strong_spots import Policy, strong_after_flop

STEP = 0.05
MOST = 0.15
READS = ("bet", "raise", "fold", "big_unbet", "big_facing", "strength", "big_won", "river_won")
SEASONED = (  # two opponents seen over a few hundred decisions, with showdowns after big bets and river bets
    Habits(after_spots=(200, 100), after_raises=(120, 25), after_folds=30, street_spots=(80, 40, 60, 30, 50, 20),
           big_bets=(10, 8, 5, 3, 8, 6, 4, 2, 7, 5, 3, 2), big_shown=(12, 8, 9, 6, 8, 6), river_shown=(20, 14),
           big_strength=(10, 7200, 8, 6000, 7, 6100)),
    Habits(after_spots=(150, 80), after_raises=(100, 20), after_folds=10, street_spots=(60, 30, 50, 20, 40, 15),
           big_bets=(12, 15, 6, 8, 10, 10, 4, 5, 9, 9, 3, 3), big_shown=(15, 6, 12, 5, 10, 4), river_shown=(25, 9),
           big_strength=(14, 8400, 10, 6100, 9, 5200)),
)


def spots() -> list[SeatView]:
    """Strong's decisions after the flop in short duplicate matches (2 and 6 decks, heads-up and six seats)."""

    def play(watched: Policy) -> None:
        for i, name in enumerate(("solid", "barreler", "overbettor", "maniac")):
            other = EXPLOITERS[name] if name in EXPLOITERS else policy_of(name)
            duplicate_heads_up(RuleSet(decks=2 if i % 2 else 6, seats=2), watched, other, 10, seed=70 + i)
        duplicate_ring(RuleSet(decks=6, seats=6), watched, policy_of("beginner"), 2, seed=75)

    return strong_after_flop(play)


def _add(t: tuple[int, ...], i: int, x: float) -> Any:
    """``t`` with ``x`` added at ``i``: fractional counts, so the rate read moves by exactly the step."""
    out: list[float] = list(t)
    out[i] += x
    return tuple(out)


def shifted(h: Habits, read: str, street: int, d: float) -> Habits | None:
    """``h`` with one post-flop read moved by ``d`` (None where that would leave [0, 1] or nothing is counted)."""
    w, sw = SHIPPED.habits.weight, SHIPPED.habits.strength_weight
    k = 2 * (min(max(street, 1), 3) - 1)
    if read in ("bet", "raise"):
        i = int(read == "raise")
        ok = 0 <= h.aggression_after(bool(i)) + d <= 1
        return replace(h, after_raises=_add(h.after_raises, i, d * (h.after_spots[i] + w))) if ok else None
    if read == "fold":
        ok = 0 <= h.fold_after() + d <= 1
        folds: Any = h.after_folds + d * (h.after_spots[1] + w)
        return replace(h, after_folds=folds) if ok else None
    if read in ("big_unbet", "big_facing"):  # big bets and overbets alike (the overbet count is in both rates)
        j = k + int(read == "big_facing")
        ok = 0 <= h.big_rate(street, read == "big_facing", 10.0) + d <= 1
        return replace(h, big_bets=_add(h.big_bets, 2 * j + 1, d * (h.street_spots[j] + w))) if ok else None
    if read == "strength":
        streets = (1, 2) if street < 3 else (3,)
        ok = 0 <= h.big_bet_strength(*streets) + d <= 1
        shown = h.big_bet_shown(*streets)
        i = 2 * (streets[0] - 1) + 1
        return replace(h, big_strength=_add(h.big_strength, i, 1000 * d * (shown + sw))) if ok else None
    if read == "big_won":
        n, won = h.big_shown[k], h.big_shown[k + 1]
        return replace(h, big_shown=_add(h.big_shown, k + 1, d * n)) if n and 0 <= won / n + d <= 1 else None
    n, won = h.river_shown  # river_won
    return replace(h, river_shown=_add(h.river_shown, 1, d * n)) if n and 0 <= won / n + d <= 1 else None


def seeing(v: SeatView, seat: int, h: Habits) -> SeatView:
    habits = list(v.habits) + [None] * (len(v.stacks) - len(v.habits))
    habits[seat] = h
    return replace(v, habits=tuple(habits))


def distribution(v: SeatView) -> tuple[dict[int, float], float, float]:
    """Strong's probabilities by move (action key), and its fold and check-or-call probabilities."""
    out: dict[int, float] = {}
    fold = passive = 0.0
    for a, p in strategy(v).choices:
        out[action_key(v, a)] = out.get(action_key(v, a), 0.0) + p
        fold += p if a.kind is ActionKind.FOLD else 0.0
        passive += p if a.kind in (ActionKind.CALL, ActionKind.CHECK) else 0.0
    return out, fold, passive


def moves(v: SeatView, report: Callable[[float, bool, str], None]) -> None:
    """Each read of each opponent moved by ±0.05: the largest move of a probability, and whether it flipped."""
    base, fold, call = distribution(v)
    for seat in v.opponents:
        h = v.habits_of(seat) or Habits()
        for read in READS:
            for d in (STEP, -STEP):
                moved = shifted(h, read, v.street, d)
                if moved is None:
                    continue
                got, fold2, call2 = distribution(seeing(v, seat, moved))
                move = max(abs(got.get(k, 0.0) - base.get(k, 0.0)) for k in base.keys() | got.keys())
                flip = (call >= 0.99 and fold2 >= 0.99) or (fold >= 0.99 and call2 >= 0.99)
                report(move, flip, f"street {v.street}, {len(v.opponents)} opponent(s), seat {seat} {read} {d:+}")


def test_a_small_change_in_a_read_moves_the_advice_a_little_and_never_flips_a_call_into_a_fold() -> None:
    views = spots()
    asked = [v for v in views]
    facing = [v for v in views if v.call_amount > 0 and len(v.opponents) == 1]
    asked += [seeing(v, v.opponents[0], h) for h in SEASONED for v in facing]
    assert len(views) > 100 and len(facing) > 40 and any(len(v.opponents) > 1 for v in views)
    floors = sum(1 for v in asked[len(views):] if (s := strategy(v).situation) is not None and s.floor_equity)
    assert floors > 10  # the frequency floor is asked (big bets faced by players with big-bet habits)
    worst: list[tuple[float, str]] = [(0.0, "")]
    flips: list[str] = []

    def report(move: float, flip: bool, what: str) -> None:
        worst[0] = max(worst[0], (move, what))
        if flip:
            flips.append(what)

    for v in asked:
        moves(v, report)
    assert worst[0][0] <= MOST, worst[0]
    assert flips == []
