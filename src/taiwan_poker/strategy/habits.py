"""What a table has seen a player do before the flop over the hands so far: public counts, and the rates read
from them.

Equilibrium tables cannot know that the player to their left raises every
hand and folds to every re-raise.  A player who has watched a few dozen hands
can, and so can the strongest level: each seat's view may carry the
:class:`Habits` of whoever sits there, counted from the public actions of the
hands already played at the table (never the cards).  Per player:

* how often it raised, and how often it folded, when it acted with nobody
  having raised yet, with one raise before it, and with two or more (a raise
  that goes all in counts);
* how often, having raised, it folded when somebody re-raised it;
* after the flop, how often it bet when nobody had bet on the street, and how
  often it raised a bet, and folded to one;
* and on each street after the flop, apart with no bet yet and facing one,
  how often a decision of its was a big bet or raise: at least :data:`BIG`
  times the pot (the pot once it had called), or at least :data:`JAM` times
  (an overbet, all in as a rule); and how often, having made such a bet on
  that street in a hand that reached the showdown, it won there (a player
  who bets big for value wins most of those; one who bets big with anything
  does not; and one may do either on different streets: a best response
  jams the flop and turn with hands that keep some equity, the river only
  with hands that win); and, for a bet or raise of any size on the river,
  whether it won the showdown that followed;
* and, for a hand it showed down after a big bet, how strong it was on the
  board of that bet's street (its equity against one random hand there, the
  cards to come included): the showdowns that follow a big bet are an
  unbiased sample of the hands that bet so (whether the caller calls does
  not depend on the bettor's cards), so their strength tells a player who
  bets big with the top of its range from one who bets big with anything
  far sooner than the wins do, which depend mostly on how tightly the
  caller called.

The rates are shrunk towards what a sound player does (the ``PRIOR_*``
constants before the flop, :class:`~.params.HabitParams` after it), by
:data:`WEIGHT` hands' worth (``HabitParams.weight`` after the flop), so a few
hands say little and a hundred say much.  :mod:`.preflop_seat` reads them (re-raising a player who folds to
re-raises too often), and so does :mod:`.postflop` (how far to trust a bet:
a player who bets less often than a balanced range would is read by the
size, one who bets more often is met with the solved defence; and a big bet
is called by every hand that beats the price against the strongest range
that could bet that big as often as the table saw).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..rules.actions import ActionKind
from ..rules.replay import StreetAction
from .params import SHIPPED, HabitParams

LEVELS = 3  # no raise yet, one raise, two or more
PRIOR_RAISE = (0.25, 0.08, 0.03)  # a sound player's raise rate at each level (6-handed; heads-up is looser)
PRIOR_FOLD = (0.55, 0.8, 0.9)  # a sound player's fold rate at each level
PRIOR_FOLD_TO_RERAISE = (0.5, 0.4)  # an open re-raised; a re-raise re-raised
BIG, JAM = 1.5, 4.0  # what is counted as a big bet and an overbet: the chips over the call, in pots (once called)
WEIGHT = 10.0  # the prior counts as this many observed spots (before the flop; after it: HabitParams.weight)


@dataclass(frozen=True, slots=True)
class Habits:
    """One player's preflop counts (module docstring)."""

    spots: tuple[int, ...] = (0,) * LEVELS  # decisions at each raise level
    raises: tuple[int, ...] = (0,) * LEVELS
    folds: tuple[int, ...] = (0,) * LEVELS
    reraised: tuple[int, int] = (0, 0)  # re-raises faced over its own open, over its own re-raise (once a hand)
    folded: tuple[int, int] = (0, 0)  # of those, folds
    after_spots: tuple[int, int] = (0, 0)  # after the flop: decisions with no bet yet on the street, facing one
    after_raises: tuple[int, int] = (0, 0)  # of those, bets and raises
    street_spots: tuple[int, ...] = (0,) * 6  # decisions: (flop unbet, flop facing a bet, turn unbet, ...)
    big_bets: tuple[int, ...] = (0,) * 12  # of those, big bets and overbets: (flop unbet big, ... over, ...)
    big_shown: tuple[int, ...] = (0,) * 6  # per street (flop, turn, river): hands it bet big in on that street
    # that reached the showdown, and of those, won: (flop shown, flop won, turn shown, ...)
    after_folds: int = 0  # after the flop, folds facing a bet (of after_spots[1])
    river_shown: tuple[int, int] = (0, 0)  # hands it bet or raised on the river in (any size) that reached the
    # showdown; of those, won
    big_strength: tuple[int, ...] = (0,) * 6  # per street: hands it showed down after a big bet on that street,
    # and the sum of their strengths there in thousandths: (flop shown, flop strength, turn shown, ...)

    def __add__(self, other: Habits) -> Habits:
        def add(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(a + b for a, b in zip(x, y, strict=True))

        return Habits(add(self.spots, other.spots), add(self.raises, other.raises), add(self.folds, other.folds),
                      _add2(self.reraised, other.reraised), _add2(self.folded, other.folded),
                      _add2(self.after_spots, other.after_spots), _add2(self.after_raises, other.after_raises),
                      add(self.street_spots, other.street_spots), add(self.big_bets, other.big_bets),
                      add(self.big_shown, other.big_shown), self.after_folds + other.after_folds,
                      _add2(self.river_shown, other.river_shown), add(self.big_strength, other.big_strength))

    def raise_rate(self, level: int) -> float:
        """The shrunk rate of raising at ``level`` (0: unraised, 1: one raise, 2: two or more)."""
        i = min(level, LEVELS - 1)
        return (self.raises[i] + WEIGHT * PRIOR_RAISE[i]) / (self.spots[i] + WEIGHT)

    def fold_rate(self, level: int) -> float:
        """The shrunk rate of folding at ``level``."""
        i = min(level, LEVELS - 1)
        return (self.folds[i] + WEIGHT * PRIOR_FOLD[i]) / (self.spots[i] + WEIGHT)

    def fold_to_reraise(self, level: int) -> float:
        """The shrunk rate of folding to a re-raise, having raised at ``level`` (0: its open; more: a re-raise)."""
        i = min(level, 1)
        return (self.folded[i] + WEIGHT * PRIOR_FOLD_TO_RERAISE[i]) / (self.reraised[i] + WEIGHT)

    def aggression_after(self, facing: bool, p: HabitParams = SHIPPED.habits) -> float:
        """After the flop, the shrunk rate of betting when nobody has bet on the street (``facing`` False), or of
        raising a bet (True)."""
        i = int(facing)
        prior = p.raise_rate if facing else p.bet_rate
        return (self.after_raises[i] + p.weight * prior) / (self.after_spots[i] + p.weight)

    def big_rate(self, street: int, facing: bool, pots: float, p: HabitParams = SHIPPED.habits) -> float:
        """On ``street`` (1 flop .. 3 river), with no bet yet or ``facing`` one, the shrunk rate of decisions
        that bet or raised at least ``pots`` times the pot over the call, as the counts tell it: from
        :data:`BIG`, big bets and overbets; from :data:`JAM`, overbets; under :data:`BIG`, 1 (the counts do
        not bound a smaller bet)."""
        if pots < BIG:
            return 1.0
        k = 2 * (min(max(street, 1), 3) - 1) + int(facing)
        over = pots >= JAM
        seen = self.big_bets[2 * k + 1] + (0 if over else self.big_bets[2 * k])
        prior = p.overbet_rate + (0.0 if over else p.big_rate)
        return (seen + p.weight * prior) / (self.street_spots[k] + p.weight)

    def fold_after(self, p: HabitParams = SHIPPED.habits) -> float:
        """After the flop, the shrunk rate of folding facing a bet."""
        return (self.after_folds + p.weight * p.fold_rate) / (self.after_spots[1] + p.weight)

    def big_shown_on(self, street: int) -> tuple[int, int]:
        """Showdowns reached after a big bet of its on ``street`` (1 flop .. 3 river), and of those, won."""
        i = 2 * (min(max(street, 1), 3) - 1)
        return self.big_shown[i], self.big_shown[i + 1]

    def _shown_after_big(self, streets: tuple[int, ...]) -> tuple[int, int]:
        """Hands shown down after a big bet on any of ``streets`` (1 flop .. 3 river), and their strengths' sum
        in thousandths."""
        idx = [2 * (min(max(st, 1), 3) - 1) for st in streets]
        return sum(self.big_strength[i] for i in idx), sum(self.big_strength[i + 1] for i in idx)

    def big_bet_shown(self, *streets: int) -> int:
        """How many hands it showed down after a big bet on any of ``streets`` (1 flop .. 3 river)."""
        return self._shown_after_big(streets)[0]

    def big_bet_strength(self, *streets: int, p: HabitParams = SHIPPED.habits) -> float:
        """The shrunk mean strength of the hands it showed down after a big bet on any of ``streets``, each on
        the board of its bet's street."""
        n, total = self._shown_after_big(streets)
        return (total / 1000 + p.strength_weight * p.strength) / (n + p.strength_weight)


def bet_pots(a: StreetAction, pot: int) -> float:
    """How big a bet or raise is: the chips over the call, in pots once called (``pot`` before the action)."""
    call = a.level_before - (a.to - a.amount)
    return (a.to - a.level_before) / max(1, pot + call)


def count_hand(actions: Iterable[StreetAction], showdown: Mapping[int, bool] | None = None,
               strength_of: Callable[[int, int], float | None] | None = None) -> dict[int, Habits]:
    """Each seat's counts from one hand's public actions (module docstring); ``showdown``: the seats that reached
    the showdown, and whether each won a share of a pot there; ``strength_of(seat, street)``: the strength of the
    hand the seat showed down on that street's board (None: not shown)."""
    spots: dict[int, list[int]] = {}
    raises: dict[int, list[int]] = {}
    folds: dict[int, list[int]] = {}
    after_spots: dict[int, list[int]] = {}
    after_raises: dict[int, list[int]] = {}
    raised_at: dict[int, int] = {}  # seat -> the number of raises when it last raised
    answered: set[int] = set()
    reraised: dict[int, list[int]] = {}
    folded: dict[int, list[int]] = {}
    street_spots: dict[int, list[int]] = {}
    after_folds: dict[int, int] = {}
    big_bets: dict[int, list[int]] = {}
    big_streets: dict[int, set[int]] = {}
    river_bettors: set[int] = set()
    level, street, pot = 0, 0, -1
    for a in actions:
        s = a.seat
        if pot < 0:  # the blinds: about one and a half of the first level
            pot = a.level_before * 3 // 2
        if a.street != street:
            level, street = 0, a.street
        if street > 0:
            i = min(level, 1)
            after_spots.setdefault(s, [0, 0])[i] += 1
            after_raises.setdefault(s, [0, 0])[i] += int(a.aggressive)
            after_folds[s] = after_folds.get(s, 0) + int(i == 1 and a.kind is ActionKind.FOLD)
            k = 2 * (street - 1) + i
            street_spots.setdefault(s, [0] * 6)[k] += 1
            size = bet_pots(a, pot) if a.aggressive else 0.0
            if size >= BIG:
                big_bets.setdefault(s, [0] * 12)[2 * k + int(size >= JAM)] += 1
                big_streets.setdefault(s, set()).add(street)
            if street == 3 and a.aggressive:
                river_bettors.add(s)
            level += int(a.aggressive)
            pot += a.amount
            continue
        pot += a.amount
        if s in raised_at and level > raised_at[s] and s not in answered:
            answered.add(s)
            own = min(raised_at[s] - 1, 1)  # its raise was an open (0) or a re-raise (1)
            reraised.setdefault(s, [0, 0])[own] = 1
            folded.setdefault(s, [0, 0])[own] = int(a.kind is ActionKind.FOLD)
        i = min(level, LEVELS - 1)
        spots.setdefault(s, [0] * LEVELS)[i] += 1
        row = raises.setdefault(s, [0] * LEVELS)
        folds.setdefault(s, [0] * LEVELS)[i] += int(a.kind is ActionKind.FOLD)
        if a.aggressive:
            row[i] += 1
            level += 1
            raised_at[s] = level
    shown = {s: tuple(x for st in (1, 2, 3) for x in ((1, int(won)) if st in big_streets[s] else (0, 0)))
             for s, won in (showdown or {}).items() if s in big_streets}
    river = {s: (1, int(won)) for s, won in (showdown or {}).items() if s in river_bettors}
    strong: dict[int, list[int]] = {}
    for s in (showdown or {}):
        for st in sorted(big_streets.get(s, ())):
            x = strength_of(s, st) if strength_of is not None else None
            if x is not None:
                row = strong.setdefault(s, [0] * 6)
                row[2 * (st - 1)] += 1
                row[2 * (st - 1) + 1] += round(1000 * x)
    seats = set(spots) | set(after_spots)
    zero = [0] * LEVELS
    return {s: Habits(tuple(spots.get(s, zero)), tuple(raises.get(s, zero)), tuple(folds.get(s, zero)),
                      _pair(reraised.get(s)), _pair(folded.get(s)), _pair(after_spots.get(s)),
                      _pair(after_raises.get(s)), tuple(street_spots.get(s, [0] * 6)),
                      tuple(big_bets.get(s, [0] * 12)), shown.get(s, (0,) * 6), after_folds.get(s, 0),
                      river.get(s, (0, 0)), tuple(strong.get(s, [0] * 6)))
            for s in seats}


def _add2(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return x[0] + y[0], x[1] + y[1]


def _pair(x: list[int] | None) -> tuple[int, int]:
    return (x[0], x[1]) if x else (0, 0)
