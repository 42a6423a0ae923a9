"""Provable fairness at a table (issue 47, docs/fairness.md): the server's seeds, the players' seeds, each hand's
committed shoe, and what each viewer may check (pure).

* Before any card of hand ``n`` is dealt, the server's seed for it is drawn and its hash published (hand 1's when
  the table opens; hand ``n+1``'s when hand ``n`` is dealt), so the server is bound to it before it sees the
  players' seeds for that hand.
* Each seated player sends a seed for the next hand (the page makes 32 random bytes); a bot's is drawn by the
  server at the deal. A player whose seed has not arrived when the hand is dealt adds none: the hand is dealt from
  the seeds that did arrive (and the server's, committed before).
* The shoe is derived from them (:class:`~taiwan_poker.fairness.CommittedShoe`), its Merkle root published with the
  deal, and the hand dealt from its first cards in order.
* After the hand, a viewer is given the openings of the cards they saw (their own burn and hole cards, the board,
  the cards shown to them); when the match ends the server's seeds are revealed (unless the table never reveals
  them), and every shoe can be recomputed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..cards import Card, RandomSource
from ..fairness import CommittedShoe, seed_commitment
from ..fairness.record import record
from ..rules.events import BoardDealt, CardsShown, HandShown, PrivateCards, SecondBoard
from ..rules.hand import Hand

SEED_BYTES = 32
PLAYER_SEED_BYTES = (16, 64)  # what a player may send, in bytes
_SEED_HEX = re.compile(f"(?:[0-9a-fA-F]{{2}}){{{PLAYER_SEED_BYTES[0]},{PLAYER_SEED_BYTES[1]}}}")


class DealSeeds(NamedTuple):
    """What a hand's shoe was derived from (kept on the server; revealed at the match's end) and its root."""

    hand_no: int
    server_seed: bytes
    seeds: tuple[tuple[int, bytes], ...]  # (seat, seed) of every seat that gave one
    root: bytes
    size: int


def hand_id(hand_no: int) -> str:
    """The DRBG's nonce for a table's hand (a record names it as ``hand_id``)."""
    return f"hand-{hand_no}"


def draw_seed(rng: RandomSource) -> bytes:
    """A server seed (or a bot's): 256 bits from the table's random source (the OS CSPRNG in live play)."""
    return bytes(rng.randrange(256) for _ in range(SEED_BYTES))


def check_player_seed(text: object) -> bytes | None:
    """A player's seed as sent (hex, 16 to 64 bytes), or None when it is not one."""
    if not isinstance(text, str) or _SEED_HEX.fullmatch(text) is None:  # fromhex alone would take spaces
        return None
    return bytes.fromhex(text)


@functools.lru_cache(maxsize=256)
def _shoe(decks: int, server_seed: bytes, hand_no: int, seeds: tuple[tuple[int, bytes], ...]) -> CommittedShoe:
    return CommittedShoe.derive(decks, server_seed, hand_id(hand_no), dict(seeds))


def shoe_of(decks: int, deal: DealSeeds) -> CommittedShoe:
    """The hand's committed shoe, re-derived (and kept for the next asker)."""
    return _shoe(decks, deal.server_seed, deal.hand_no, deal.seeds)


def derive(decks: int, server_seed: bytes, hand_no: int, seeds: Mapping[int, bytes]) -> CommittedShoe:
    return _shoe(decks, server_seed, hand_no, tuple(sorted(seeds.items())))


def commitment(server_seed: bytes) -> str:
    return seed_commitment(server_seed).hex()


def seen_cards(hand: Hand, seat: int | None) -> list[Card]:
    """The physical cards a viewer saw in a finished hand: the board (both runs), every hand shown at the showdown
    or after it, and for a seat dealt in its own burn and hole cards."""
    out: list[Card] = []
    for ev in hand.events:
        if isinstance(ev, BoardDealt | SecondBoard):
            out += ev.cards
        elif isinstance(ev, HandShown):
            out += ev.hole
        elif isinstance(ev, CardsShown):
            out += ev.cards
        elif isinstance(ev, PrivateCards) and ev.seat == seat:
            out += [c for c in (ev.burn, *ev.hole) if c is not None]
    return out


def fairness_record(decks: int, deal: DealSeeds, hand: Hand, seat: int | None, revealed: bool) -> dict[str, Any]:
    """The record a viewer gets of a finished hand: the openings of the cards they saw, the players' seeds, and the
    server's seed once revealed (docs/fairness.md)."""
    shoe = shoe_of(decks, deal)
    where = {card: p for p, card in enumerate(shoe.cards)}
    positions = [where[c] for c in seen_cards(hand, seat) if c in where] if hand.complete else []
    return record(shoe, decks, hand_id(deal.hand_no), seed_commitment(deal.server_seed), positions,
                  dict(deal.seeds), deal.server_seed if revealed else None)


__all__ = ["DealSeeds", "check_player_seed", "commitment", "derive", "draw_seed", "fairness_record", "hand_id",
           "seen_cards", "shoe_of"]
