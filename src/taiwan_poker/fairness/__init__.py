"""Provable fairness: a shoe derived from the server's and the players' seeds, committed card by card, and the
checks anyone can run (pure; see ``docs/fairness.md``)."""

from .drbg import HmacDrbg
from .shoe import (
    CommittedShoe,
    Opening,
    audit_path,
    leaf,
    merkle_root,
    player_mix,
    root_from_path,
    seed_commitment,
    shuffled_shoe,
    verify_opening,
)

__all__ = ["CommittedShoe", "HmacDrbg", "Opening", "audit_path", "leaf", "merkle_root", "player_mix",
           "root_from_path", "seed_commitment", "shuffled_shoe", "verify_opening"]
