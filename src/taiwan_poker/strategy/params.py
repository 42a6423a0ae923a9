"""Every tunable number of the strongest level's play after the flop, in one typed, frozen parameter set.

:data:`SHIPPED` holds the values the product plays with; the read (:mod:`.range_read`), the post-flop play
(:mod:`.postflop`), the one-bet defence (:mod:`.defence`), the post-flop habit rates (:mod:`.habits`) and the
heads-up river re-solve (:mod:`.river`) take a
:class:`Params` (or one of its groups) as an argument, by default these.  An experiment is another parameter set
(the lab loads one from a JSON file: ``taiwan_poker_lab.params_file``), never a patch of the code.

What stays out: the definitions the counts are kept by (:data:`~.habits.BIG` and :data:`~.habits.JAM`), the
sample sizes of the read (:mod:`.particles`), cache sizes, and the shape of the smooth step
(:func:`~.range_read.smooth`); the play before the flop has its solved tables.

Widths are those of :func:`~.range_read.smooth` (a logistic step from about 0 at ``−width`` to 1 at ``+width``)
unless a field says linear; a :class:`Ramp` is linear from ``lo`` (0) to ``hi`` (1).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Ramp:
    """A linear ramp: 0 at ``lo`` or under, 1 at ``hi`` or over."""

    lo: float
    hi: float


@dataclass(frozen=True, slots=True)
class PerStreet:
    """One number for each street after the flop."""

    flop: float
    turn: float
    river: float

    def of(self, street: int, default: float | None = None) -> float:
        """The street's number (1 flop, 2 turn, 3 river); another street: ``default`` (None: the river's)."""
        if street == 1:
            return self.flop
        if street == 2:
            return self.turn
        if street == 3:
            return self.river
        return self.river if default is None else default


@dataclass(frozen=True, slots=True)
class Widths:
    """The share of starting hands a preflop line plays, where the solved tables cannot read the hand."""

    open: float = 0.3  # the first raise
    call: float = 0.35  # a call of one raise
    raise2: float = 0.1  # the second raise
    raise3: float = 0.05  # a third raise or more, and a call of two raises
    limp: float = 0.6  # a call with no raise
    outside: float = 0.04  # the weight a class outside the width keeps


@dataclass(frozen=True, slots=True)
class ReadParams:
    """How the public actions narrow each player's range after the flop (:mod:`.range_read`)."""

    floor: float = 0.03  # every weight keeps this much after a check or call (times the line's share after a bet)
    value_scale: float = 0.28  # a bet of f pots is read as value for value_scale · f^value_power of the range ...
    value_power: float = -0.6  # ... (a third of the pot: 54 %, the pot: 28 %)
    value_cap: float = 0.9  # ... at most this (a tiny bet is read as nearly the whole range)
    raise_value: float = 0.5  # a raise over a bet holds this share of a bet's value share
    read_bluffs: float = 0.5  # bluffs read: this share of those that would make the size honest (players under-bluff)
    zeta: PerStreet = PerStreet(1.25, 1.1, 1.0)  # more bluffs on earlier streets (draws); also the bot's own
    bluff_cap: float = 0.35  # the most of a range read as bluffing
    raise_bluffs: float = 0.35  # a raise holds this share of a bet's bluffs (raises are mostly value)
    semi_bluff_floor: float = 0.15  # before the river bluffs are read just above the weakest 15 % (draws, not air)
    bet_width: float = 0.04  # the smooth step at the edges of a bet's value and bluff parts
    call_fold: float = 0.85  # a call removes the bottom call_fold · α of the range (α = f / (1 + f)) ...
    call_width: float = 0.08  # ... over this width
    call_raise_from: float = 0.9  # a caller's hands from this place up raised instead ...
    call_raise_share: float = 0.4  # ... this share of them
    call_raise_width: float = 0.1 / 3  # ... over this width
    check_width: float = 0.03  # the smooth step at the edge of the value share a check leaves out
    value: PerStreet = PerStreet(0.38, 0.30, 0.24)  # the share of a range that bets for value when unbet
    out_of_position: float = 0.85  # ... times this for the first to act
    multiway: float = 0.55  # ... times this for each opponent past the first
    trap: float = 0.35  # the share of the very best hands that check (out of position, before the river) ...
    trap_from: float = 0.88  # ... from this place in the range up (the top 12 %)
    trap_width: float = 0.02  # ... over this width
    check_keep: float = 0.15  # the share of its value hands a check is read to keep, anywhere (slow-plays)
    widths: Widths = Widths()  # preflop lines, where the solved tables do not reach


@dataclass(frozen=True, slots=True)
class HabitParams:
    """The priors the post-flop habit rates are shrunk toward (:mod:`.habits`: what a sound player does)."""

    bet_rate: float = 0.5  # an unknown player's rate of betting when nobody has bet on the street
    raise_rate: float = 0.15  # ... of raising a bet
    fold_rate: float = 0.4  # ... of folding to a bet
    big_rate: float = 0.04  # ... of big bets (BIG to JAM pots)
    overbet_rate: float = 0.02  # ... of overbets (JAM pots and more)
    weight: float = 10.0  # the prior counts as this many decisions seen
    strength: float = 0.8  # the mean strength of the hands shown down after big bets (value)
    strength_weight: float = 5.0  # ... counting as this many hands shown


@dataclass(frozen=True, slots=True)
class DefenceParams:
    """The one-bet game solved heads-up facing a bet (:mod:`.defence`)."""

    iterations: int = 120  # CFR+ iterations
    prune: float = 0.01  # holdings under this share of their range's largest weight are left out
    node_floor: float = 0.02  # each bettor holding keeps this share of the size's mean probability
    extra_sizes: tuple[float, ...] = (0.5, 1.0)  # pot fractions the bettor may choose besides its own and all in
    same_size: float = 0.1  # sizes within this share of each other count as one


@dataclass(frozen=True, slots=True)
class FacingParams:
    """Facing a bet after the flop (:func:`.postflop.facing_bet`)."""

    price_safety: float = 0.9  # a hand folds only when its read equity is under this share of the price
    barrels_by_price: bool = True  # a later barrel after a called bet is answered by the price alone
    range_disadvantage: float = 1.0  # each point of range equity under 50 % lets this many more points fold
    fold_cap: float = 0.95  # the read never folds more of the range than this
    place_width: float = 0.03  # the smooth step of a fold by place (the minimum defence)
    price_width: float = 0.04  # the price's answer: fold at price − width, call at the price (linear)
    safety_width: float = 0.04  # ... the read's, under price_safety · price
    floor_width: float = 0.1  # ... against the strongest range betting as often (a frequency read: wider)
    floor_window: float = 0.45  # ... averaged over the rates from the one seen down to this much under it
    floor_points: int = 31  # ... evenly spaced
    strength_window: float = 0.6  # ... and over the mean strengths shown after big bets, up to this much over it
    trust_bet: Ramp = Ramp(0.28, 0.63)  # bet rate: by the read at lo or under, by the solved game at hi or over
    trust_raise: Ramp = Ramp(0.0, 0.35)  # ... the same by the rate of raising a bet
    river_solved: Ramp = Ramp(0.6, 0.8)  # α of a river bet from which the solved game answers it, whatever the habits
    overbet: Ramp = Ramp(0.85, 0.95)  # α from which the price alone answers a bet (6 to 19 pots)
    defend_big: Ramp = Ramp(0.8, 0.95)  # α from 4 to 19 pots: the top 1 − α of the range calls it ...
    defend_edge: float = 0.02  # ... fading in and out linearly over this much α at both ends
    value_shown: Ramp = Ramp(0.55, 0.95)  # mean strength shown after big bets: value from lo, fully at hi
    value_margin: float = 0.35  # showdowns won over 1 − price: sure the big bets are value at this margin
    value_top: float = 0.12  # the top of the range that raises for value heads-up ...
    value_top_multiway: float = 0.07  # ... and multi-way
    value_raise: float = 0.7  # ... this share of those hands
    value_raise_equity: float = 0.55  # ... with at least this equity
    value_raise_width: float = 0.02  # the smooth step at the top's edge
    value_equity_width: float = 0.03  # ... and at the equity's
    bluff_raise: float = 0.35  # heads-up on the flop and turn: this share of the folds just under the line raise
    bluff_band: float = 0.12  # ... from this far under the fold line
    bluff_band_width: float = 0.02  # ... with smooth steps of this width at both ends
    allin_share: float = 0.6  # a raise that puts in this share of the stack or more goes all in


@dataclass(frozen=True, slots=True)
class BettingParams:
    """With no bet to call after the flop (:func:`.postflop.no_bet`)."""

    sizes: tuple[float, ...] = (1 / 3, 2 / 3, 1.0)  # the bets on offer, in pots
    size_width: float = 0.02  # the smooth step between a value hand's sizes
    value_width: float = 0.03  # the smooth step at the edge of the value share
    caller_equity: float = 0.5  # a value bet wants this much equity against the hands that call it ...
    caller_width: float = 0.04  # ... over this width
    eager: Ramp = Ramp(0.5, 0.85)  # an opponent's rate of betting when checked to: more traps from lo, all at hi
    folds_to_trap: float = 0.4  # ... times its rate of folding to a bet over this (at most 1)
    trap_shift: float = 0.13  # against an eager bettor all of the top trap_shift under the traps' edge trap too
    trap_width: float = 0.02  # the smooth step at the traps' edge
    multiway_bluffs: float = 0.3  # multi-way, this share of the heads-up bluffs
    bluff_floor: float = 0.1  # on the flop and turn bluffs come from just above this bottom share of the range
    bluff_width: float = 0.02  # the smooth step at the bluffs' edges
    bluff_folds_width: float = 0.05  # a bluff needs the folds that pay for its size, over this width
    opponent_width: float = 0.03  # the opponents' folds to our bet, as this strategy folds (the minimum defence)


@dataclass(frozen=True, slots=True)
class ResolveParams:
    """Heads-up river decisions re-solved (:mod:`.river`) instead of played by :mod:`.postflop`'s rules."""

    river: bool = False  # re-solve heads-up river decisions
    temperature: float = 0.15  # the logit equilibrium's temperature, in pots at the decision (smoothness)
    step: float = 1.0  # the mirror descent's step, per pot
    iterations: int = 50
    buckets: int = 32  # strength buckets per range
    by_kind: bool = False  # the logit's prior: each kind (fold, check/call, bet/raise) alike, not each size


@dataclass(frozen=True, slots=True)
class Params:
    """The strongest level's post-flop parameters (the module docstring); :data:`SHIPPED` the product's."""

    read: ReadParams = field(default_factory=ReadParams)
    habits: HabitParams = field(default_factory=HabitParams)
    defence: DefenceParams = field(default_factory=DefenceParams)
    facing: FacingParams = field(default_factory=FacingParams)
    betting: BettingParams = field(default_factory=BettingParams)
    resolve: ResolveParams = field(default_factory=ResolveParams)


SHIPPED = Params()
"""The parameters the product plays with."""
