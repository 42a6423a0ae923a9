"""The Independent Chip Model (Malmuth–Harville): what a tournament stack is worth in prize money.

Each player's chance to finish first is their share of the chips; given who
finished first, each other player's chance to finish second is their share of
the chips left, and so on (Harville 1973; Malmuth's use of it for poker).  A
player's equity is the sum over places of the chance to finish there times
what the place pays:

    >>> [round(x, 3) for x in icm_equities((5000, 3000, 2000), (50, 30, 20))]
    [38.393, 32.75, 28.857]

A player with no chips has already finished below everyone who has some;
several without chips share those places evenly (as players who bust in the
same hand from equal stacks tie).  The equities add up to what the places of
the players given pay (``payouts`` is cut or padded with zeros to the number
of players).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache


def _padded(payouts: Sequence[float], players: int) -> tuple[float, ...]:
    out = tuple(float(p) for p in payouts[:players])
    return out + (0.0,) * (players - len(out))


@cache
def _finishes(stacks: tuple[float, ...], payouts: tuple[float, ...]) -> tuple[float, ...]:
    """Equities of players who all hold chips, for places ``0 .. len(stacks) - 1`` paying ``payouts``."""
    n = len(stacks)
    out = [0.0] * n
    # reach[mask]: the chance that exactly the players in ``mask`` have finished (in the top places, in any order)
    reach: dict[int, float] = {0: 1.0}
    total = sum(stacks)
    by_size: list[list[int]] = [[] for _ in range(n + 1)]
    by_size[0].append(0)
    for size in range(n):
        if size >= len(payouts) or all(p == 0 for p in payouts[size:]):
            break
        pay = payouts[size]
        for mask in by_size[size]:
            chance = reach[mask]
            left = total - sum(stacks[i] for i in range(n) if mask >> i & 1)
            for i in range(n):
                if mask >> i & 1:
                    continue
                p = chance * stacks[i] / left
                out[i] += p * pay
                nxt = mask | (1 << i)
                if nxt not in reach:
                    reach[nxt] = 0.0
                    by_size[size + 1].append(nxt)
                reach[nxt] += p
    return tuple(out)


def icm_equities(stacks: Sequence[float], payouts: Sequence[float]) -> tuple[float, ...]:
    """Each player's prize equity (in the units of ``payouts``, place 1 first) for their chip ``stacks``."""
    if any(s < 0 for s in stacks):
        raise ValueError("a stack cannot be negative")
    n = len(stacks)
    pays = _padded(payouts, n)
    alive = [i for i, s in enumerate(stacks) if s > 0]
    out = [0.0] * n
    if alive:
        got = _finishes(tuple(float(stacks[i]) for i in alive), pays[: len(alive)])
        for i, v in zip(alive, got, strict=True):
            out[i] = v
    out_of_chips = [i for i in range(n) if stacks[i] <= 0]
    if out_of_chips:
        share = sum(pays[len(alive):]) / len(out_of_chips)
        for i in out_of_chips:
            out[i] = share
    return tuple(out)


def icm_equity(stacks: Sequence[float], payouts: Sequence[float], player: int) -> float:
    """One player's prize equity (:func:`icm_equities`)."""
    return icm_equities(stacks, payouts)[player]


__all__ = ["icm_equities", "icm_equity"]
