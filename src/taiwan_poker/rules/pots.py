"""Uncalled chips, main and side pots by contribution level, and splitting with the odd chip."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips and the seats (not folded, contributed to its level) that can win it."""

    amount: int
    eligible: tuple[int, ...]


def uncalled(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(seat, chips)`` of the top bet's part no other bet matches (folded bets count as matched), or None."""
    top = -1
    top_seat = -1
    second = 0
    for seat, bet in enumerate(bets):
        if bet > top:
            if top > second:
                second = top
            top, top_seat = bet, seat
        elif bet > second:
            second = bet
    if top > second:
        return top_seat, top - second
    return None


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Main pot then side pots, one per distinct contribution level of a player still in the hand.

    Folded players' chips stay in the pots of the levels they reached, but they
    are eligible for none.  Call after uncalled chips have been returned.
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > prev:
                amount += (c if c < level else level) - prev
        eligible = tuple(s for s, c in enumerate(contributions) if live[s] and c >= level)
        pots.append(Pot(amount, eligible))
        prev = level
    extra = sum(c - prev for c in contributions if c > prev)
    if extra:
        if pots:
            last = pots[-1]
            pots[-1] = Pot(last.amount + extra, last.eligible)
        else:
            pots.append(Pot(extra, ()))
    return pots


@cache
def clockwise_after(button: int, seats: int) -> tuple[int, ...]:
    """Seat order starting with the first seat clockwise from the button (the button itself last)."""
    return tuple((button + 1 + i) % seats for i in range(seats))


def split_pot(amount: int, winners: Sequence[int], order: Sequence[int]) -> dict[int, int]:
    """Split evenly; the indivisible chips go one each to the first winners clockwise from the button."""
    ordered = [s for s in order if s in winners]
    share, odd = divmod(amount, len(ordered))
    return {s: share + (1 if i < odd else 0) for i, s in enumerate(ordered)}


def award(pots: Sequence[Pot], values: Mapping[int, int], order: Sequence[int]) -> list[tuple[Pot, dict[int, int]]]:
    """Each pot to the best hand value(s) among its eligible seats; returns the pot and winner → chips."""
    out: list[tuple[Pot, dict[int, int]]] = []
    for pot in pots:
        best = max(values[s] for s in pot.eligible)
        winners = [s for s in pot.eligible if values[s] == best]
        out.append((pot, split_pot(pot.amount, winners, order)))
    return out
