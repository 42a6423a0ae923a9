"""Physical cards, card notation and the multi-deck shoe.

A *face* is a rank and a suit (``As``); a *physical card* is a face from one
deck (``As:2``).  With several decks the same face exists several times and
each copy keeps its identity.  Indices used by the batch evaluator and the
odds tools: ``face = rank * 4 + suit`` (0..51) and
``index = (deck - 1) * 52 + face``.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from .errors import CardError, TooManyCopiesError

RANKS = "23456789TJQKA"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
MIN_DECKS = 1
MAX_DECKS = 8
CARDS_PER_DECK = 52

RANK_NAMES_EN = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES_ZH = ("黑桃", "紅心", "方塊", "梅花")
SUIT_NAMES_EN = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A physical card: rank 0..12 (2..A), suit 0..3 (s h d c), deck 1..8.

    Equal only to the same physical card; strength never depends on the deck.
    """

    rank: int
    suit: int
    deck: int = 1

    @property
    def face(self) -> int:
        """Face index 0..51 (rank * 4 + suit); deck numbers never matter for strength."""
        return self.rank * 4 + self.suit

    @property
    def index(self) -> int:
        """Physical index 0..52*decks-1."""
        return (self.deck - 1) * CARDS_PER_DECK + self.rank * 4 + self.suit

    @property
    def face_str(self) -> str:
        """Contract notation without the deck: ``As``."""
        return RANKS[self.rank] + SUITS[self.suit]

    @property
    def label(self) -> str:
        """Contract notation with the deck: ``As:2``."""
        return f"{self.face_str}:{self.deck}"

    def __str__(self) -> str:
        return self.face_str

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The physical card with this index."""
        if not 0 <= index < CARDS_PER_DECK * MAX_DECKS:
            raise CardError(f"card index {index} out of range", index=index, reason="index")
        deck, face = divmod(index, CARDS_PER_DECK)
        return cls(face >> 2, face & 3, deck + 1)


@dataclass(frozen=True, slots=True)
class CardSpec:
    """A parsed card name: a face and, when given, the deck number."""

    rank: int
    suit: int
    deck: int | None = None

    @property
    def face(self) -> int:
        return self.rank * 4 + self.suit

    def __str__(self) -> str:
        text = RANKS[self.rank] + SUITS[self.suit]
        return text if self.deck is None else f"{text}:{self.deck}"


def parse_card(text: str) -> CardSpec:
    """Parse ``As``, ``10h``, ``td``, ``As:2`` (case-insensitive) into a :class:`CardSpec`."""
    if not isinstance(text, str):
        raise CardError(f"a card must be a string, not {type(text).__name__}", card=repr(text))
    raw = text.strip()
    body, sep, deck_text = raw.partition(":")
    deck: int | None = None
    if sep:
        if not (deck_text.isascii() and deck_text.isdigit()):
            raise CardError(f"bad deck number in card {text!r}", card=text)
        deck = int(deck_text)
        if not MIN_DECKS <= deck <= MAX_DECKS:
            raise CardError(f"deck number {deck} in card {text!r} is out of range 1..{MAX_DECKS}", card=text)
    if len(body) == 3 and body[:2] == "10":
        body = "T" + body[2]
    if len(body) != 2:
        raise CardError(f"bad card {text!r}: expected rank + suit such as As or Td", card=text)
    rank = RANKS.find(body[0].upper())
    suit = SUITS.find(body[1].lower())
    if rank < 0:
        raise CardError(f"unknown rank {body[0]!r} in card {text!r}", card=text)
    if suit < 0:
        raise CardError(f"unknown suit {body[1]!r} in card {text!r}", card=text)
    return CardSpec(rank, suit, deck)


def min_decks_for(specs: Iterable[CardSpec]) -> int:
    """The smallest deck count that can hold all the named cards (at least 1)."""
    specs = list(specs)
    copies = Counter(s.face for s in specs)
    explicit = max((s.deck for s in specs if s.deck is not None), default=1)
    return max(MIN_DECKS, explicit, max(copies.values(), default=1))


def check_decks(decks: object) -> int:
    """Validate a deck count (1..8) and return it."""
    if isinstance(decks, bool) or not isinstance(decks, int) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise CardError(f"decks must be an integer from {MIN_DECKS} to {MAX_DECKS}, not {decks!r}", code="bad_decks")
    return decks


def resolve_cards(specs: Sequence[CardSpec], decks: int) -> list[Card]:
    """Turn card names into distinct physical cards of a ``decks``-deck shoe.

    Cards with a deck number keep it; the others take the lowest-numbered
    free copy of their face.  Naming more copies of a face than the shoe
    holds, or one physical card twice, is :class:`TooManyCopiesError`.
    """
    check_decks(decks)
    taken: set[tuple[int, int]] = set()
    per_face = Counter(s.face for s in specs)
    for face, count in per_face.items():
        if count > decks:
            name = RANKS[face >> 2] + SUITS[face & 3]
            raise TooManyCopiesError(
                f"{count} copies of {name} named but {decks} deck(s) hold only {decks}",
                card=name, count=count, decks=decks,
            )
    for spec in specs:
        if spec.deck is None:
            continue
        if spec.deck > decks:
            raise CardError(f"card {spec} names deck {spec.deck} but only {decks} deck(s) are in play", card=str(spec))
        if (spec.face, spec.deck) in taken:
            raise TooManyCopiesError(f"physical card {spec} named twice", card=str(spec))
        taken.add((spec.face, spec.deck))
    out: list[Card] = []
    for spec in specs:
        deck = spec.deck
        if deck is None:
            deck = next(d for d in range(1, decks + 1) if (spec.face, d) not in taken)
            taken.add((spec.face, deck))
        out.append(Card(spec.rank, spec.suit, deck))
    return out


def parse_cards(texts: Iterable[str], decks: int | None = None) -> list[Card]:
    """Parse card names and resolve them to physical cards (``decks`` defaults to the minimum needed)."""
    specs = [parse_card(t) for t in texts]
    return resolve_cards(specs, min_decks_for(specs) if decks is None else decks)


def pretty(card: Card) -> str:
    """A human form with the suit symbol: ``A♠``."""
    return RANK_NAMES_EN[card.rank] + SUIT_SYMBOLS[card.suit]


class RandomSource(Protocol):
    """What a shuffle needs: an unbiased ``randrange`` (``random.Random`` and ``secrets.SystemRandom`` both fit)."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...


def live_rng() -> random.Random:
    """The generator for live play: the operating system's CSPRNG."""
    return secrets.SystemRandom()


@cache
def physical_cards(decks: int) -> tuple[Card, ...]:
    """Every physical card of ``decks`` decks in index order (built once; cards are immutable)."""
    check_decks(decks)
    return tuple(Card.from_index(i) for i in range(decks * CARDS_PER_DECK))


def full_shoe(decks: int) -> list[Card]:
    """Every physical card of ``decks`` decks, in index order."""
    return list(physical_cards(decks))


_BIT_LENGTHS = tuple(n.bit_length() for n in range(CARDS_PER_DECK * MAX_DECKS + 1))


def _fisher_yates(cards: list[Card], start: int, count: int, rng: RandomSource) -> None:
    """Swap steps ``start .. start+count-1`` of an unbiased Fisher–Yates shuffle, in place.

    With a ``getrandbits`` generator (``random.Random``, ``secrets.SystemRandom``)
    each index is drawn by rejection sampling on the fewest random bits, as
    ``random.Random.randrange`` does, without its per-call overhead.
    """
    n = len(cards)
    getrandbits = getattr(rng, "getrandbits", None)
    if getrandbits is None:
        for i in range(start, start + count):
            j = rng.randrange(i, n)
            cards[i], cards[j] = cards[j], cards[i]
        return
    bits = _BIT_LENGTHS
    for i in range(start, start + count):
        span = n - i
        k = bits[span]
        r = getrandbits(k)
        while r >= span:
            r = getrandbits(k)
        j = i + r
        cards[i], cards[j] = cards[j], cards[i]


def deal(decks: int, count: int, rng: RandomSource | None = None) -> list[Card]:
    """``count`` distinct cards uniformly at random from a fresh ``decks``-deck shoe, in dealing order.

    Only the cards dealt are shuffled into place (a lazy Fisher–Yates), so a
    hand pays for the 3n+8 cards it uses, not for the whole shoe.
    """
    cards = full_shoe(decks)
    if not 0 <= count <= len(cards):
        raise CardError(f"cannot deal {count} cards from {decks} deck(s)", code="shoe_empty")
    _fisher_yates(cards, 0, count, rng if rng is not None else live_rng())
    return cards[:count]


class Shoe:
    """A freshly rebuilt ``decks``-deck shoe dealt by a lazy, unbiased Fisher–Yates shuffle.

    Drawing ``k`` cards performs the next ``k`` swap steps of Fisher–Yates, so
    the cards come out uniformly at random without shuffling the whole shoe.
    ``rng`` defaults to the OS CSPRNG; simulations and tests may inject a
    seeded ``random.Random``.
    """

    __slots__ = ("_cards", "_pos", "_rng", "decks")

    def __init__(self, decks: int, rng: RandomSource | None = None) -> None:
        self.decks = check_decks(decks)
        self._cards = full_shoe(decks)
        self._pos = 0
        self._rng: RandomSource = rng if rng is not None else live_rng()

    def __len__(self) -> int:
        """Cards not yet dealt."""
        return len(self._cards) - self._pos

    def draw(self, count: int = 1) -> list[Card]:
        """Deal ``count`` cards uniformly at random from those left."""
        if count < 0 or count > len(self):
            raise CardError(f"cannot deal {count} cards: {len(self)} left in the shoe", code="shoe_empty")
        start = self._pos
        _fisher_yates(self._cards, start, count, self._rng)
        self._pos = start + count
        return self._cards[start:start + count]

    def shuffle(self) -> list[Card]:
        """Deal out the rest of the shoe in random order."""
        return self.draw(len(self))
