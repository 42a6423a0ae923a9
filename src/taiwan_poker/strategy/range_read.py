"""What the public actions of a hand say about each player's range, street by street, by the size of each bet.

**Before the flop** each player still in starts from the solved tables' range
for their position after the preflop actions (:func:`~.preflop.ranges_after`);
where the tables cannot read the hand (more than six players, a straddle, a
line they do not cover) from a width: the share of starting hands a player
who opened, called or re-raised plays (:data:`WIDTHS`).

**After the flop** each holding's strength on the street's board (its equity
against a random hand, run-outs included) places it in its own range: ``u`` is
its weighted percentile there (0 the weakest).  Each action then reweights
the range, by its kind and its size ``f`` (the chips it adds beyond a call,
over the pot after calling):

* a **check** with a bet available: the top is partly kept back (strong hands
  check too, to trap), ``1 − 0.55·s((u − 0.75)/0.25)``;
* a **call** of a bet of size ``f``: its minimum defence says at most
  ``α = f/(1 + f)`` folds, so the caller's range loses its bottom ``0.85·α``
  (smoothly) and part of its top (those hands raise), ``× (1 − 0.4·s((u − 0.9)/0.1))``;
* a **bet or raise** of size ``f``: a polarised range, value on top and
  bluffs at the bottom.  The value share is ``v = min(0.5, 0.28·f^−0.6)`` of the
  range (a third of the pot: the top half; the pot: 28 %; an all-in 16 times
  the pot: 5 %), halved for a raise; the bluffs are ``v·f/(1 + f)·ζ`` of it
  (the share that makes a caller of the value indifferent, ``ζ`` = 1.4, 1.2, 1.0
  on the flop, turn and river, where draws bluff more), at most 35 %.

``s`` is a smooth step from 0 to 1 and every weight keeps a floor of 3 %
(nobody's range is ever read to nothing).  So a one-chip bet narrows a range
hardly at all, a pot-sized bet makes it strong-or-air, and an overbet all-in
strong with a few bluffs — in the proportion that makes its size honest.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..rules.actions import ActionKind
from ..rules.replay import StreetAction
from .classes import CLASSES, N_CLASSES, class_weights, representative
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
from .preflop import PreflopLookupError, ranges_after
from .preflop_seat import preflop_situation
from .seat import SeatView
from .strength import preflop_rank

FLOOR = 0.03
ZETA = {1: 1.4, 2: 1.2, 3: 1.0}
WIDTHS = {"open": 0.3, "call": 0.35, "raise2": 0.1, "raise3": 0.05, "limp": 0.6}
CACHE = 4096  # street reads kept (one a street and public line)


def smooth(x: FloatArray | float) -> FloatArray:
    """A smooth step: 0 below −1, 1 above 1 (a logistic of slope 3, clipped)."""
    return np.asarray(1.0 / (1.0 + np.exp(-3.0 * np.clip(x, -6, 6))))


def value_share(f: float) -> float:
    """The share of a range that bets or raises ``f`` times the pot for value (see the module docstring)."""
    return float(min(0.5, 0.28 * max(f, 0.05) ** -0.6))


def bluff_share(f: float, street: int) -> float:
    return float(min(0.35, value_share(f) * f / (1 + f) * ZETA.get(street, 1.0)))


def reweight(weights: FloatArray, u: FloatArray, action: StreetAction, f: float, raised_before: bool) -> FloatArray:
    """A range's weights after one action of size ``f`` (the module docstring's rules)."""
    kind = action.effect
    if kind is ActionKind.FOLD:
        return weights
    if kind is ActionKind.CHECK:
        factor = 1.0 - 0.55 * smooth((u - 0.75) / 0.25 * 3)
    elif kind is ActionKind.CALL:
        alpha = f / (1 + f) if f > 0 else 0.0
        factor = smooth((u - 0.85 * alpha) / 0.08) * (1.0 - 0.4 * smooth((u - 0.9) / 0.1 * 3))
    else:
        v = value_share(f) * (0.5 if raised_before else 1.0)
        b = bluff_share(f, action.street) * (0.5 if raised_before else 1.0)
        factor = smooth((u - (1.0 - v)) / 0.04) + smooth((b - u) / 0.04)
    return weights * np.maximum(FLOOR, np.minimum(1.0, factor))


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


_cache: OrderedDict[tuple[object, ...], StreetRead] = OrderedDict()


def _remember(key: tuple[object, ...], read: StreetRead) -> StreetRead:
    _cache[key] = read
    _cache.move_to_end(key)
    while len(_cache) > CACHE:
        _cache.popitem(last=False)
    return read


def clear_cache() -> None:
    _cache.clear()


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


def width_ranges(v: SeatView) -> dict[int, FloatArray]:
    """Class distributions from how wide each live seat's preflop line is (the fallback of the tables)."""
    rank = _class_rank(v.decks)
    prior = class_weights(max(2, v.decks)) if v.decks >= 2 else class_weights(1)
    raises = 0
    width: dict[int, float] = {}
    for a in v.history:
        if a.street != 0:
            continue
        if a.aggressive:
            raises += 1
            width[a.seat] = WIDTHS["open"] if raises == 1 else WIDTHS["raise2"] if raises == 2 else WIDTHS["raise3"]
        elif a.effect is ActionKind.CALL:
            width[a.seat] = WIDTHS["limp"] if raises == 0 else WIDTHS["call"] if raises == 1 else WIDTHS["raise3"]
    out: dict[int, FloatArray] = {}
    for s in v.live:
        w = width.get(s, 1.0)
        dist = prior * np.where(rank <= w, 1.0, 0.04)
        out[s] = dist / dist.sum()
    return out


def preflop_ranges(v: SeatView) -> tuple[dict[int, FloatArray], bool]:
    """Each live seat's class distribution at the flop: the tables' where they read the line, else widths."""
    sit = preflop_situation(v)
    if sit is not None:
        try:
            got = ranges_after(v.decks, sit.players, sit.stack_bb, sit.history)
            by_seat = {seat: got[pos] for seat, pos in sit.positions.items() if pos in got and seat in v.live}
            if set(by_seat) == set(v.live):
                return by_seat, True
        except PreflopLookupError:
            pass
    return width_ranges(v), False


def _street_pot(v: SeatView, street: int) -> int:
    return v.pot - sum(a.amount for a in v.history if a.street >= street)


def _public_key(v: SeatView, street: int) -> tuple[object, ...]:
    return (v.decks, v.big_blind, v.button, v.start_stacks, v.straddle, v.board[: 2 + street] if street else (),
            tuple(a for a in v.history if a.street < street), tuple(v.live_at(street)))


def street_read(v: SeatView, street: int, rng: np.random.Generator) -> StreetRead:
    """The public read at the start of ``street`` (1 flop .. 3 river), cached by the public line to it."""
    key = _public_key(v, street)
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return hit
    board = tuple(c.index for c in v.board[: 2 + street])
    seats = v.live_at(street)
    if street == 1:
        dists, tables = preflop_ranges(v)
        ranges = {s: sample_range(dists[s], v.decks, board, rng) for s in seats if s in dists}
        for s in seats:  # a seat the fallback did not cover: any two cards
            if s not in ranges:
                ranges[s] = sample_range(class_weights(v.decks), v.decks, board, rng)
    else:
        prev = street_read(v, street - 1, rng)
        tables = prev.tables
        weights = apply_actions(v, prev, street - 1)
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
    return _remember(key, read)


def apply_actions(v: SeatView, read: StreetRead, street: int) -> dict[int, FloatArray]:
    """Every seat's weights after the actions of ``street`` so far (sizes from the pot as it went)."""
    weights = {s: r.weights.copy() for s, r in read.ranges.items()}
    pot = read.pot
    bets: dict[int, int] = {}
    raised = False
    for a in v.history:
        if a.street != street or a.seat not in weights:
            continue
        before = bets.get(a.seat, 0)
        call_part = max(0, a.level_before - before)
        f = max(0, a.to - a.level_before) / max(1, pot + call_part)
        if a.effect is ActionKind.CALL and call_part > 0:
            # the size that was called: the last raise over the pot before it
            f = call_part / max(1, pot - call_part)
        if a.effect is not ActionKind.FOLD:
            u = percentiles(read.strengths[a.seat], weights[a.seat])
            weights[a.seat] = reweight(weights[a.seat], u, a, f, raised and a.aggressive)
        if a.aggressive:
            raised = True
        pot += a.amount
        bets[a.seat] = a.to
    return weights


def hand_read(v: SeatView, rng: np.random.Generator) -> HandRead:
    """The read at ``v``'s decision after the flop: the street's read and the weights after its actions so far."""
    if v.street < 1:
        raise ValueError("the range read starts on the flop")
    read = street_read(v, v.street, rng)
    weights = apply_actions(v, read, v.street)
    return HandRead(read, {s: weights[s] for s in v.live if s in weights})
