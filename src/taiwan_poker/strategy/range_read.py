"""What the public actions of a hand say about each player's range, street by street, by the size of each bet.

**Before the flop** each player still in starts from the solved tables' range
for their position after the preflop actions (:func:`~.preflop.ranges_after`);
where the tables cannot read the hand (more than six players, a straddle, a
line they do not cover) from a width: the share of starting hands a player
who opened, called or re-raised plays (``read.widths`` of :mod:`.params`).

**After the flop** each holding's strength on the street's board (its equity
against a random hand, run-outs included) places it in its own range: ``u`` is
its weighted percentile there (0 the weakest).  Each action then reweights
the range, by its kind and its size ``f`` (the chips it adds beyond a call,
over the pot after calling):

* a **check** with a bet available: the value share the player would have bet
  (:func:`betting_share`, the strategy's own) is mostly gone, but for the
  slow-plays (15 % of it everywhere, ``check_keep``) and the traps of the
  very top out of position, ``1 − (1 − k)·s((u − (1 − V))/0.03)`` with
  ``k = max(0.15, 0.35·s((u − 0.88)/0.02))``;
* a **call** of a bet of size ``f``: its minimum defence says at most
  ``α = f/(1 + f)`` folds, so the caller's range loses its bottom ``0.85·α``
  (smoothly) and part of its top (those hands raise), ``× (1 − 0.4·s((u − 0.9)/0.1))``;
* a **bet or raise** of size ``f``: a polarised range, value on top and
  bluffs below.  The value share is ``v = min(0.9, 0.28·f^−0.6)`` of the
  range (a tenth of the pot: 90 %; a third: 54 %; the pot: 28 %; an all-in 16
  times the pot: 5 %), halved for a raise; the bluffs are ``½·v·f/(1 + f)·ζ``
  of it: half the share that would make a caller of the value indifferent
  (players bluff less than that: ``read_bluffs``; ``ζ`` = 1.25, 1.1, 1.0 on
  the flop, turn and river, where draws bluff more), at most 35 %, and a raise
  holds a third of that (``raise_bluffs``: raises are mostly value).
  On the river the bluffs are the weakest hands; before it the hands just
  above the weakest 15 % (draws keep some equity; air gives up).

``s`` is a smooth step from 0 to 1 and every weight keeps a floor (nobody's
range is ever read to nothing): 3 % after a check or a call, 3 % of the
line's own share ``v + b`` after a bet or raise.  So a one-chip bet narrows a range
hardly at all, a pot-sized bet makes it strong-or-air, and an overbet all-in
strong with a few bluffs — in the proportion that makes its size honest.

Every number here is a field of :class:`~.params.ReadParams` (the names in ``code`` above); the functions take
them as an argument, by default the shipped ones, and the caches keep reads under other numbers apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..lru import LruMap
from ..rules.actions import ActionKind
from ..rules.replay import StreetAction
from .classes import CLASSES, N_CLASSES, class_weights, representative
from .params import SHIPPED, ReadParams, Widths
from .particles import (
    FloatArray,
    Range,
    Runouts,
    ValueArray,
    clashes,
    draw_runouts,
    percentiles,
    sample_range,
    strength,
    values,
)
from .preflop import READ_FLOOR, PreflopLookupError, ranges_after
from .preflop_seat import preflop_situation
from .seat import SeatView
from .seeding import generator_for
from .strength import preflop_rank

CACHE = 256  # street reads and decision reads kept (a heads-up street read is about 50 kB, six-handed 150 kB)


def smooth(x: FloatArray | float) -> FloatArray:
    """A smooth step: 0 below −1, 1 above 1 (a logistic of slope 3, clipped)."""
    return np.asarray(1.0 / (1.0 + np.exp(-3.0 * np.clip(x, -6, 6))))


def value_share(f: float, p: ReadParams = SHIPPED.read) -> float:
    """The share of a range that bets or raises ``f`` times the pot for value (see the module docstring)."""
    return float(min(p.value_cap, p.value_scale * max(f, 0.01) ** p.value_power))


def bluff_share(f: float, street: int, p: ReadParams = SHIPPED.read) -> float:
    """The share of a range read as bluffing with a bet of ``f`` times the pot (see the module docstring)."""
    return float(min(p.bluff_cap, p.read_bluffs * value_share(f, p) * f / (1 + f) * p.zeta.of(street, 1.0)))


def betting_share(street: int, last: bool, opponents: int, p: ReadParams = SHIPPED.read) -> float:
    """The share of its range a player bets for value when it may open the betting: 38 %, 30 %, 24 % on the flop,
    turn and river heads-up for the last to act; 85 % of that for the first; 55 % of it for each further
    opponent.  The strategy bets so (:mod:`.postflop`), and reads a check so (the module docstring)."""
    return p.value.of(street) * (1.0 if last else p.out_of_position) * p.multiway ** max(0, opponents - 1)


def in_position(seat: int, button: int, live: tuple[int, ...] | list[int], seats: int) -> bool:
    """Whether ``seat`` acts last after the flop among the ``live`` seats."""
    order = [(button + 1 + i) % seats for i in range(seats)]
    return [s for s in order if s in live][-1] == seat


def reweight(weights: FloatArray, u: FloatArray, action: StreetAction, f: float, raised_before: bool,
             check_share: float | None = None, traps: bool = False, p: ReadParams = SHIPPED.read) -> FloatArray:
    """A range's weights after one action of size ``f`` (the module docstring's rules); ``check_share`` the
    value share a check leaves out (:func:`betting_share` of the checker), ``traps`` whether its best hands
    may check (the first to act, before the river)."""
    kind = action.effect
    if kind is ActionKind.FOLD:
        return weights
    if kind is ActionKind.CHECK:
        # the value hands bet; what checks is the rest, with the traps of the very top
        share = p.value.flop if check_share is None else check_share
        trap = p.trap * smooth((u - p.trap_from) / p.trap_width) if traps else 0.0
        keep = np.maximum(trap, p.check_keep)  # a check never rules the strong hands out: players slow-play
        factor = 1.0 - (1.0 - keep) * smooth((u - (1.0 - share)) / p.check_width)
    elif kind is ActionKind.CALL:
        alpha = f / (1 + f) if f > 0 else 0.0
        factor = smooth((u - p.call_fold * alpha) / p.call_width) * (
            1.0 - p.call_raise_share * smooth((u - p.call_raise_from) / p.call_raise_width))
    else:
        v = value_share(f, p) * (p.raise_value if raised_before else 1.0)
        b = bluff_share(f, action.street, p) * (p.raise_bluffs if raised_before else 1.0)
        lo = 0.0 if action.street >= 3 else p.semi_bluff_floor  # before the river, bluffs keep some equity
        bluffs = smooth((b + lo - u) / p.bet_width) * (smooth((u - lo) / p.bet_width) if lo > 0 else 1.0)
        factor = smooth((u - (1.0 - v)) / p.bet_width) + bluffs
        # the rest keeps a floor in proportion to the line's own share: a big raise narrows to nearly its share
        return weights * np.maximum(p.floor * min(1.0, v + b), np.minimum(1.0, factor))
    return weights * np.maximum(p.floor, np.minimum(1.0, factor))


@dataclass(frozen=True, slots=True)
class StreetRead:
    """One street's public read: the board's run-outs, and for each seat in, its range and values on them.

    ``ranges`` hold the weights at the start of the street; :func:`current` applies the street's actions.
    """

    street: int
    runouts: Runouts
    ranges: dict[int, Range]
    vals: dict[int, ValueArray]
    ok: dict[int, npt.NDArray[np.bool_]]
    strengths: dict[int, FloatArray]  # each holding's strength on this street's board (reading its actions)
    pot: int  # chips in before the street's first action
    tables: bool  # the preflop ranges came from the solved tables (else from widths)


def _no_clock() -> float:
    return 0.0  # the caches are bounded by size only: the core reads no clock


_cache: LruMap[tuple[object, ...], StreetRead] = LruMap(CACHE, clock=_no_clock)


@dataclass(frozen=True, slots=True)
class HandRead:
    """The read at a decision: the street's read and every live seat's weights after this street's actions."""

    street: StreetRead
    weights: dict[int, FloatArray]


def _class_rank(decks: int) -> FloatArray:
    grid = preflop_rank(decks)
    out = np.empty(N_CLASSES)
    for i, name in enumerate(CLASSES):
        text = representative(name)
        faces = [_face(text[:2]), _face(text[2:])]
        out[i] = grid[faces[0], faces[1]]
    return out


def _face(text: str) -> int:
    from ..cards import RANKS, SUITS

    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def width_ranges(v: SeatView, seats: tuple[int, ...], widths: Widths = SHIPPED.read.widths) -> dict[int, FloatArray]:
    """Class distributions from how wide each of ``seats``' preflop line is (the fallback of the tables)."""
    rank = _class_rank(v.decks)
    prior = class_weights(max(2, v.decks)) if v.decks >= 2 else class_weights(1)
    raises = 0
    width: dict[int, float] = {}
    for a in v.history:
        if a.street != 0:
            continue
        if a.aggressive:
            raises += 1
            width[a.seat] = widths.open if raises == 1 else widths.raise2 if raises == 2 else widths.raise3
        elif a.effect is ActionKind.CALL:
            width[a.seat] = widths.limp if raises == 0 else widths.call if raises == 1 else widths.raise3
    out: dict[int, FloatArray] = {}
    for s in seats:
        w = width.get(s, 1.0)
        dist = prior * np.where(rank <= w, 1.0, widths.outside)
        out[s] = dist / dist.sum()
    return out


def _read_depth(v: SeatView) -> float:
    """The stack depth, in big blinds, at which the read looks the tables up: the effective stack of the two
    deepest seats dealt in (public: not the asker's own effective stack)."""
    starts = v.start_stacks or v.stacks
    return sorted(starts[s] for s in v.dealt)[-2] / v.big_blind


def preflop_ranges(v: SeatView, widths: Widths = SHIPPED.read.widths) -> tuple[dict[int, FloatArray], bool]:
    """The class distribution at the flop of each seat that saw it: the tables' where they read the line, else
    widths.  Public, whoever asks and whenever: of the seats in at the flop (not those still in at the decision),
    at the table's depth (not the asker's), so the read at a street's start is the same whichever seat makes it
    at whichever point of the street (its cache and its seed take that for granted)."""
    seats = v.live_at(1)
    sit = preflop_situation(v)
    if sit is not None:
        observed = {pos: h for seat, pos in sit.positions.items()
                    if (h := v.habits_of(seat)) is not None}
        try:
            got = ranges_after(v.decks, sit.players, _read_depth(v), sit.history, READ_FLOOR, observed)
            by_seat = {seat: got[pos] for seat, pos in sit.positions.items() if pos in got and seat in seats}
            if set(by_seat) == set(seats):
                return by_seat, True
        except PreflopLookupError:
            pass
    return width_ranges(v, seats, widths), False


def _street_pot(v: SeatView, street: int) -> int:
    return v.pot - sum(a.amount for a in v.history if a.street >= street)


def _habits_key(v: SeatView) -> tuple[object, ...]:
    """What of the table's habits the preflop read uses, rounded (so close readings share a cache entry)."""
    return tuple(None if h is None else tuple(round(x, 2) for lvl in range(3)
                                              for x in (h.raise_rate(lvl), h.fold_rate(lvl)))
                 for h in v.habits)


def _public_line(v: SeatView, street: int) -> tuple[object, ...]:
    """The hand's public line to the start of ``street``: the table, the board then, the actions before it."""
    return (v.decks, v.big_blind, v.button, v.start_stacks, v.straddle, v.board[: 2 + street] if street else (),
            tuple(a for a in v.history if a.street < street), tuple(v.live_at(street)))


def _public_key(v: SeatView, street: int, p: ReadParams) -> tuple[object, ...]:
    return (*_public_line(v, street), _habits_key(v), p)


def street_read(v: SeatView, street: int, p: ReadParams = SHIPPED.read) -> StreetRead:
    """The public read at the start of ``street`` (1 flop .. 3 river), cached by the public line to it (and the
    habits read, and the parameters) and drawn from a seed made of that line (:mod:`.seeding`): the same read
    whoever asks first, a bot or the coach, and in the review of the hand later; reads of one line under other
    habits or parameters share its draws."""
    key = _public_key(v, street, p)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    rng = generator_for(_public_line(v, street))
    board = tuple(c.index for c in v.board[: 2 + street])
    seats = v.live_at(street)
    if street == 1:
        dists, tables = preflop_ranges(v, p.widths)
        ranges = {s: sample_range(dists[s], v.decks, board, rng) for s in seats if s in dists}
        for s in seats:  # a seat the fallback did not cover: any two cards
            if s not in ranges:
                ranges[s] = sample_range(class_weights(v.decks), v.decks, board, rng)
    else:
        prev = street_read(v, street - 1, p)
        tables = prev.tables
        weights = apply_actions(v, prev, street - 1, p=p)
        ranges = {s: prev.ranges[s].with_weights(weights[s]) for s in seats}
        # a board card dealt since rules out the holdings that hold it
        for s in seats:
            r = ranges[s]
            dead = np.isin(r.cards, board).any(axis=1)
            if dead.any():
                ranges[s] = r.with_weights(np.where(dead, 0.0, r.weights))
    runouts = draw_runouts(board, v.decks, rng)
    vals = {s: values(r.cards, runouts) for s, r in ranges.items()}
    ok = {s: ~clashes(r.cards, runouts) for s, r in ranges.items()}
    strengths = {s: strength(r.cards, vals[s], runouts) for s, r in ranges.items()}
    read = StreetRead(street, runouts, ranges, vals, ok, strengths, _street_pot(v, street), tables)
    _cache.put(key, read)
    return read


def apply_actions(v: SeatView, read: StreetRead, street: int, upto: int | None = None,
                  p: ReadParams = SHIPPED.read) -> dict[int, FloatArray]:
    """Every seat's weights after the actions of ``street`` so far (sizes from the pot as it went); with ``upto``,
    after only the street's first ``upto`` actions."""
    weights = {s: r.weights.copy() for s, r in read.ranges.items()}
    pot = read.pot
    bets: dict[int, int] = {}
    folded: set[int] = set()
    raised = False
    actions = [a for a in v.history if a.street == street]
    for a in actions[:upto]:
        if a.seat not in weights:
            continue
        before = bets.get(a.seat, 0)
        call_part = max(0, a.level_before - before)
        f = max(0, a.to - a.level_before) / max(1, pot + call_part)
        if a.effect is ActionKind.CALL and call_part > 0:
            # the size that was called: the last raise over the pot before it
            f = call_part / max(1, pot - call_part)
        if a.effect is not ActionKind.FOLD:
            u = percentiles(read.strengths[a.seat], weights[a.seat])
            live = [s for s in weights if s not in folded]
            last = in_position(a.seat, v.button, live, len(v.stacks))
            share = betting_share(street, last, len(live) - 1, p)
            weights[a.seat] = reweight(weights[a.seat], u, a, f, raised and a.aggressive, share,
                                       traps=not last and street < 3, p=p)
        else:
            folded.add(a.seat)
        if a.aggressive:
            raised = True
        pot += a.amount
        bets[a.seat] = a.to
    return weights


def decision_key(v: SeatView, p: ReadParams = SHIPPED.read) -> tuple[object, ...]:
    """Everything public that a decision's read depends on: the line to this street, its actions, who decides
    (and the read's parameters)."""
    return (*_public_key(v, v.street, p), tuple(a for a in v.history if a.street == v.street), v.seat)


_reads: LruMap[tuple[object, ...], HandRead] = LruMap(CACHE, clock=_no_clock)


def hand_read(v: SeatView, p: ReadParams = SHIPPED.read, point: tuple[object, ...] | None = None) -> HandRead:
    """The read at ``v``'s decision after the flop: the street's read and the weights after its actions so far
    (cached by :func:`decision_key`, ``point`` when the caller has it: asking again for other hole cards at the
    same point costs nothing)."""
    if v.street < 1:
        raise ValueError("the range read starts on the flop")
    key = point or decision_key(v, p)
    hit = _reads.get(key)
    if hit is not None:
        return hit
    read = street_read(v, v.street, p)
    weights = apply_actions(v, read, v.street, p=p)
    out = HandRead(read, {s: weights[s] for s in v.live if s in weights})
    _reads.put(key, out)
    return out
