"""Starting-hand classes and simple ranges, multi-deck aware.

Syntax (tokens separated by commas and/or spaces; ranks ``2``–``9``, ``T`` or ``10``, ``J Q K A``):

=================  ==========================================================
``AKs``            suited: A and K of the same suit (4 face combos)
``AKo``            offsuit: A and K of different suits (12 face combos)
``AK``             both of the above
``QQ``             any pair of queens: two different suits *or* identical cards
``QQo``            a pair of queens of two different suits (6 face combos)
``QQ=``            identical queens: same rank and suit from two decks (4 face
                   combos, only with 2+ decks); ``QQs`` is accepted as an alias
``QQ+``            QQ, KK, AA (the same kind: ``QQo+``, ``QQ=+`` work too)
``AQo+``           AQo, AKo (the kicker climbs up to one below the top card)
``KTs+``           KTs, KJs, KQs
``A5s-A2s``        A5s, A4s, A3s, A2s (same top card, same suffix)
``22-55``          22, 33, 44, 55 (pairs, same suffix on both ends)
``AsKs``           one exact face combo; ``AsAs`` two identical A♠
``random``         every two-card hand (also ``any``, ``*``)
=================  ==========================================================

A *face combo* is two faces (``rank * 4 + suit``) stored high first; it is an
identical pair when both faces are equal.  How many physical hands a face combo
stands for depends on the cards still unseen: ``r_a * r_b`` for two faces,
``C(r_a, 2)`` for an identical pair.  Malformed input raises
:class:`RangeError` (code ``bad_range``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb

from ..cards import RANKS, parse_card
from ..errors import CardError, TaiwanPokerError

FaceCombo = tuple[int, int]


class RangeError(TaiwanPokerError):
    """A range or starting-hand class that cannot be parsed."""

    code = "bad_range"


_RANK = r"(?:10|[2-9TJQKAtjqka])"
_CLASS_RE = re.compile(rf"^({_RANK})({_RANK})(s|o|=)?(\+)?$")
_DASH_RE = re.compile(rf"^({_RANK})({_RANK})(s|o|=)?-({_RANK})({_RANK})(s|o|=)?$")
_CARD_RE = re.compile(r"(?:10|[2-9TJQKAtjqka])[shdcSHDC](?::\d)?")
RANDOM_WORDS = frozenset({"random", "any", "*", "100%"})


def _rank(text: str) -> int:
    return RANKS.index("T" if text == "10" else text.upper())


def combo(a: int, b: int) -> FaceCombo:
    """The canonical face combo (high face first)."""
    return (a, b) if a >= b else (b, a)


def class_combos(high: int, low: int, kind: str | None) -> list[FaceCombo]:
    """Face combos of one class: ranks ``high >= low``; kind ``s``, ``o``, ``=`` or None (all)."""
    out: list[FaceCombo] = []
    if high == low:
        if kind in (None, "o"):
            out += [combo(high * 4 + s1, high * 4 + s2) for s1 in range(4) for s2 in range(s1 + 1, 4)]
        if kind in (None, "=", "s"):
            out += [(high * 4 + s, high * 4 + s) for s in range(4)]
        return out
    if kind in (None, "s"):
        out += [combo(high * 4 + s, low * 4 + s) for s in range(4)]
    if kind in (None, "o"):
        out += [combo(high * 4 + s1, low * 4 + s2) for s1 in range(4) for s2 in range(4) if s1 != s2]
    return out


def class_name(high: int, low: int, kind: str | None) -> str:
    """Canonical class name: ``AKs``, ``AKo``, ``AK``, ``QQ``, ``QQo``, ``QQ=``."""
    base = RANKS[high] + RANKS[low]
    if kind is None:
        return base
    if high == low and kind == "s":
        kind = "="
    return base + kind


def _norm_kind(high: int, low: int, kind: str | None, token: str) -> str | None:
    if high == low:
        return "=" if kind == "s" else kind
    if kind == "=":
        raise RangeError(f"'=' (identical cards) needs a pair, e.g. QQ=, not {token!r}", token=token)
    return kind


def _parse_class(token: str) -> list[FaceCombo]:
    m = _CLASS_RE.match(token)
    if m:
        r1, r2 = _rank(m.group(1)), _rank(m.group(2))
        high, low = max(r1, r2), min(r1, r2)
        kind = _norm_kind(high, low, m.group(3), token)
        if not m.group(4):
            return class_combos(high, low, kind)
        if high == low:
            return [c for r in range(high, 13) for c in class_combos(r, r, kind)]
        return [c for k in range(low, high) for c in class_combos(high, k, kind)]
    m = _DASH_RE.match(token)
    if m:
        a1, a2, b1, b2 = (_rank(m.group(i)) for i in (1, 2, 4, 5))
        ka, kb = m.group(3), m.group(6)
        if ka != kb:
            raise RangeError(f"both ends of {token!r} need the same suffix", token=token)
        if a1 == a2 and b1 == b2:
            lo, hi = sorted((a1, b1))
            kind = _norm_kind(a1, a1, ka, token)
            return [c for r in range(lo, hi + 1) for c in class_combos(r, r, kind)]
        ha, la = max(a1, a2), min(a1, a2)
        hb, lb = max(b1, b2), min(b1, b2)
        if ha != hb or ha in (la, lb):
            raise RangeError(f"a dash range like A5s-A2s keeps the same top card: {token!r}", token=token)
        kind = _norm_kind(ha, la, ka, token)
        lo, hi = sorted((la, lb))
        return [c for k in range(lo, hi + 1) for c in class_combos(ha, k, kind)]
    cards = _CARD_RE.findall(token)
    if len(cards) == 2 and "".join(cards) == token:
        try:
            specs = [parse_card(c) for c in cards]
        except CardError as exc:
            raise RangeError(f"bad hand {token!r}: {exc.message}", token=token) from None
        if any(s.deck is not None for s in specs):
            raise RangeError(f"a range names faces, not physical cards: {token!r}", token=token)
        return [combo(specs[0].face, specs[1].face)]
    raise RangeError(
        f"cannot read {token!r} as a hand class or range (examples: QQ+, AKs, AQo+, A5s-A2s, 22-55, QQ=, AsKs, random)",
        token=token,
    )


@dataclass(frozen=True, slots=True)
class HandRange:
    """A set of face combos (high face first; equal faces = identical pair)."""

    text: str
    combos: frozenset[FaceCombo]

    @property
    def is_random(self) -> bool:
        return len(self.combos) == len(ALL_COMBOS)

    def physical_count(self, remaining: Sequence[int]) -> int:
        """Physical two-card hands in the range, given ``remaining[f]`` unseen copies of each face."""
        total = 0
        for a, b in self.combos:
            total += comb(remaining[a], 2) if a == b else remaining[a] * remaining[b]
        return total

    def sorted_combos(self) -> list[FaceCombo]:
        return sorted(self.combos, reverse=True)


ALL_COMBOS: frozenset[FaceCombo] = frozenset(combo(a, b) for a in range(52) for b in range(a + 1))


def parse_range(text: str | Iterable[str]) -> HandRange:
    """Parse a range (see the module docstring); raise :class:`RangeError` (``bad_range``) when malformed."""
    raw = text if isinstance(text, str) else ",".join(text)
    tokens = [t for t in re.split(r"[\s,]+", raw.strip()) if t]
    if not tokens:
        raise RangeError("empty range", token="")
    out: set[FaceCombo] = set()
    for token in tokens:
        if token.lower() in RANDOM_WORDS:
            out |= ALL_COMBOS
        else:
            out.update(_parse_class(token))
    return HandRange(raw, frozenset(out))


def chart_classes() -> list[str]:
    """The 182 chart classes: 169 classic (``AA`` … ``32o``; a pair cell = two different suits) and 13 ``XX=``.

    Order: pairs high to low, then suited, then offsuit (each high card first),
    then the identical classes ``AA=`` … ``22=``.
    """
    pairs = [RANKS[r] * 2 for r in range(12, -1, -1)]
    suited = [RANKS[h] + RANKS[k] + "s" for h in range(12, -1, -1) for k in range(h - 1, -1, -1)]
    offsuit = [RANKS[h] + RANKS[k] + "o" for h in range(12, -1, -1) for k in range(h - 1, -1, -1)]
    identical = [RANKS[r] * 2 + "=" for r in range(12, -1, -1)]
    return pairs + suited + offsuit + identical


def chart_class_combos(name: str) -> list[FaceCombo]:
    """Face combos of a chart class (a pair cell ``QQ`` means two different suits, like ``QQo``)."""
    if len(name) == 2 and name[0] == name[1]:
        return _parse_class(name + "o")
    return _parse_class(name)
