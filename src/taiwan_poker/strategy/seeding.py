"""Seeds derived from what a draw is about, so the same question always gets the same sample.

The strategy's reads and the coach's estimates are Monte Carlo: a read of the
ranges at a public point of a hand, an equity over simulated deals.  Drawn
from a seed that is a hash of that point (:func:`seed_of`), the answer is a
function of the point alone: the same in a bot's decision, the coach's advice
and the review of the hand afterwards, in any process and whatever the caches
hold.  The seeds are made of what the asker may see (public actions, its own
cards), never of a hidden card, so they tell nobody anything.
"""

from __future__ import annotations

import hashlib

import numpy as np


def seed_of(key: object) -> int:
    """A 128-bit seed from ``key``'s ``repr`` (of cards, actions, numbers and tuples of them: stable across
    processes and runs, unlike ``hash``)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=16).digest(), "big")


def generator_for(key: object) -> np.random.Generator:
    """A NumPy generator seeded by :func:`seed_of` ``key``."""
    return np.random.default_rng(seed_of(key))
