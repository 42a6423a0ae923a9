"""A provably fair shoe: derived from the server's seed and every player's seed, committed position by position.

The algorithm, which ``docs/fairness.md`` writes out for anyone to implement (the browser's verifier does, with
WebCrypto):

1. **The players' mix.** ``mix = SHA-256("taiwan-poker mix v1" || for each seat in order: seat (1 byte) ||
   seed length (1 byte) || seed)``.
2. **The shoe.** The ``52 × decks`` physical cards in index order (deck by deck; in a deck rank by rank from
   2 to A, each rank ``s h d c``) are shuffled by a forward Fisher–Yates: for ``i = 0 .. N−2``, ``span = N − i``,
   a 32-bit big-endian word ``w`` is drawn until ``w < 2^32 − (2^32 mod span)`` (rejection: no modulo bias),
   and position ``i`` swaps with ``i + w mod span``. The words come from HMAC_DRBG(SHA-256) instantiated with
   entropy = the server seed, nonce = the hand's id (``"CODE/hand_no"`` in ASCII), personalization = ``mix``,
   read in order from generate calls of 1,024 bytes.
3. **The salts.** 16 bytes per position ``p``: the first 16 bytes of ``SHA-256(key || p (2 bytes, big-endian))``
   with ``key = SHA-256("taiwan-poker salts v1" || server seed || hand id)``.
4. **The commitments.** Position ``p`` holding card ``c`` is the leaf ``SHA-256(0x00 || salt_p || p (2 bytes,
   big-endian) || c's label in ASCII, e.g. "As:2")``; the shoe's commitment is the Merkle root over the leaves
   in position order, as RFC 6962 / 9162 build it (``SHA-256(0x01 || left || right)``, the left subtree the
   largest power of two below the count). An opening of a card is its position, card, salt and audit path.
5. **The server seed's commitment.** ``SHA-256("taiwan-poker seed v1" || server seed)``.

A commitment says nothing about its card (128-bit salts), so the root may be published to everyone before the
deal; a player later gets the openings of exactly the cards they saw, and everyone can recompute the whole shoe
once the server seed is revealed.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..cards import CARDS_PER_DECK, Card, physical_cards
from .drbg import HmacDrbg

CHUNK = 1024  # bytes per generate call of the DRBGs
SALT_BYTES = 16
SEED_BYTES = 32
MIX_TAG = b"taiwan-poker mix v1"
SALT_TAG = b"taiwan-poker salts v1"
SEED_TAG = b"taiwan-poker seed v1"


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def seed_commitment(server_seed: bytes) -> bytes:
    """What the server publishes before the players' seeds: the hash of its seed."""
    return _sha(SEED_TAG + server_seed)


def player_mix(seeds: Mapping[int, bytes]) -> bytes:
    """Every seated player's seed, by seat, in one 32-byte value (the DRBG's personalization)."""
    parts = [MIX_TAG]
    for seat in sorted(seeds):
        seed = seeds[seat]
        if not 0 <= seat < 256 or not 1 <= len(seed) < 256:
            raise ValueError("a seat is 0-255 and a player's seed 1-255 bytes")
        parts.append(bytes((seat, len(seed))) + seed)
    return _sha(b"".join(parts))


def _stream(drbg: HmacDrbg) -> Iterator[bytes]:
    while True:
        yield drbg.generate(CHUNK)


_WORDS = struct.Struct(f">{CHUNK // 4}I")


def _words(drbg: HmacDrbg) -> Iterator[int]:
    for block in _stream(drbg):
        yield from _WORDS.unpack(block)


def shuffled_order(decks: int, server_seed: bytes, hand_id: str, mix: bytes) -> list[int]:
    """The shoe in dealing order as card indices (``Card.index``; position 0 is dealt first)."""
    n = CARDS_PER_DECK * decks
    order = list(range(n))
    words = _words(HmacDrbg(server_seed, hand_id.encode("ascii"), mix))
    for i in range(n - 1):
        span = n - i
        limit = (1 << 32) - (1 << 32) % span
        w = next(words)
        while w >= limit:
            w = next(words)
        j = i + w % span
        order[i], order[j] = order[j], order[i]
    return order


def shuffled_shoe(decks: int, server_seed: bytes, hand_id: str, mix: bytes) -> list[Card]:
    """The whole shoe in dealing order (position 0 is dealt first)."""
    cards = physical_cards(decks)
    return [cards[i] for i in shuffled_order(decks, server_seed, hand_id, mix)]


def salts(server_seed: bytes, hand_id: str, count: int) -> list[bytes]:
    """The salt of every position: the first 16 bytes of ``SHA-256(key || position (2 bytes))`` with
    ``key = SHA-256("taiwan-poker salts v1" || server seed || hand id)``."""
    key = _sha(SALT_TAG + server_seed + hand_id.encode("ascii"))
    sha = hashlib.sha256
    return [sha(key + p.to_bytes(2, "big")).digest()[:SALT_BYTES] for p in range(count)]


def leaf(salt: bytes, position: int, card: Card) -> bytes:
    """The commitment to ``card`` at ``position`` (a Merkle leaf's hash)."""
    return _sha(b"\x00" + salt + position.to_bytes(2, "big") + card.label.encode("ascii"))


def _node(left: bytes, right: bytes) -> bytes:
    return _sha(b"\x01" + left + right)


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """RFC 9162's Merkle tree hash of the leaf hashes, built bottom up: pairing each level's nodes in order and
    carrying a last odd one up unchanged gives the same tree as RFC 9162's split at the largest power of two."""
    if not leaves:
        return _sha(b"")
    level = list(leaves)
    sha = hashlib.sha256
    while len(level) > 1:
        up = [sha(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) & 1:
            up.append(level[-1])
        level = up
    return level[0]


def audit_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """The hashes that take leaf ``index`` to the root (RFC 9162 2.1.3.1), nearest first."""
    n = len(leaves)
    if n <= 1:
        return []
    k = _split(n)
    if index < k:
        return [*audit_path(leaves[:k], index), merkle_root(leaves[k:])]
    return [*audit_path(leaves[k:], index - k), merkle_root(leaves[:k])]


def root_from_path(leaf_hash: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root an audit path leads to (RFC 9162 2.1.3.2), None when the path does not fit the tree."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf_hash
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = _node(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


@dataclass(frozen=True, slots=True)
class Opening:
    """What proves one card of a committed shoe: its position, the card, its salt and the audit path."""

    position: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]

    def to_json(self) -> dict[str, object]:
        return {"position": self.position, "card": self.card.label, "salt": self.salt.hex(),
                "path": [h.hex() for h in self.path]}


@dataclass(frozen=True, slots=True)
class CommittedShoe:
    """A hand's shoe with everything the server keeps to open it: the cards, the salts, the leaves, the root."""

    cards: tuple[Card, ...]
    salts: tuple[bytes, ...]
    leaves: tuple[bytes, ...]
    root: bytes

    @classmethod
    def derive(cls, decks: int, server_seed: bytes, hand_id: str, seeds: Mapping[int, bytes]) -> CommittedShoe:
        cards = shuffled_shoe(decks, server_seed, hand_id, player_mix(seeds))
        salt = salts(server_seed, hand_id, len(cards))
        sha = hashlib.sha256
        leaves = tuple(sha(b"\x00" + salt[p] + p.to_bytes(2, "big") + c.label.encode("ascii")).digest()
                       for p, c in enumerate(cards))  # leaf(), inlined: this runs for every card of every deal
        return cls(tuple(cards), tuple(salt), leaves, merkle_root(leaves))

    def open(self, position: int) -> Opening:
        return Opening(position, self.cards[position], self.salts[position],
                       tuple(audit_path(self.leaves, position)))


def verify_opening(opening: Opening, size: int, root: bytes) -> bool:
    """Whether ``opening`` proves its card at its position of the shoe committed by ``root`` (``size`` cards)."""
    if len(opening.salt) != SALT_BYTES:
        return False
    got = root_from_path(leaf(opening.salt, opening.position, opening.card), opening.position, size, opening.path)
    return got == root


def shoe_size(decks: int) -> int:
    return CARDS_PER_DECK * decks
