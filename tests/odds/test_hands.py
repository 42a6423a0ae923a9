"""Starting hands, outs with private information, pot odds and the range parser."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.errors import CardError
from taiwan_poker.odds.outs import TargetError, at_least_one, outs_probability, target_faces
from taiwan_poker.odds.potodds import PotOddsError, break_even_equity, call_ev, showdown_equity
from taiwan_poker.odds.ranges import RangeError, chart_class_combos, chart_classes, parse_range
from taiwan_poker.odds.starting import (
    SPEC_STARTING_TABLE,
    class_combinations,
    class_probability,
    identical_pair,
    pocket_aces,
    pocket_pair,
    starting_hand_stats,
    suited,
)

# ------------------------------------------------------------------------------------------- starting


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_spec_starting_table(decks: int) -> None:
    stats = starting_hand_stats(decks)
    assert stats.total_cards == 52 * decks and stats.cards_per_rank == 4 * decks
    for key, row in SPEC_STARTING_TABLE.items():
        assert f"{float(stats.rows()[key]) * 100:.4f}" == row[decks - 1], (key, decks)


@pytest.mark.parametrize("decks", range(1, 9))
def test_starting_formulas_equal_class_counts(decks: int) -> None:
    total = comb(52 * decks, 2)
    pairs = sum(class_combinations(r * 2, decks) for r in "23456789TJQKA")
    assert Fraction(pairs, total) == pocket_pair(decks)
    identical = sum(class_combinations(r * 2 + "=", decks) for r in "23456789TJQKA")
    assert Fraction(identical, total) == identical_pair(decks)
    suited_count = sum(
        class_combinations(a + b + "s", decks) for i, a in enumerate("23456789TJQKA") for b in "23456789TJQKA"[:i]
    )
    assert Fraction(suited_count + identical, total) == suited(decks)
    assert class_probability("AA", decks) == pocket_aces(decks)
    assert class_probability("random", decks) == 1
    # Every two-card hand is in exactly one chart class.
    assert (
        sum(
            class_combinations(c, decks) if len(c) != 2 else class_combinations(c + "o", decks) for c in chart_classes()
        )
        == total
    )


def test_named_classes() -> None:
    assert class_combinations("AKs", 2) == 16
    assert class_combinations("AKo", 2) == 48
    assert class_combinations("AK", 2) == 64
    assert class_combinations("QQ", 2) == comb(8, 2)
    assert class_combinations("QQo", 2) == 24
    assert class_combinations("QQ=", 2) == 4
    assert class_combinations("AsAs", 2) == 1
    assert class_combinations("AsAs", 3) == 3
    assert class_combinations("AsAs", 1) == 0
    assert class_probability("AsAs", 2) == Fraction(1, comb(104, 2))
    # With a seen card (own burn As): one A♠ left at two decks.
    assert class_combinations("AsAs", 2, parse_cards(["As"], 2)) == 0
    assert class_probability("AA", 2, parse_cards(["As"], 2)) == Fraction(comb(7, 2), comb(103, 2))


# ---------------------------------------------------------------------------------------------- outs

HOLE_BOARD = ["Ah", "Qh", "Jh", "8h", "4s", "2d"]


def test_spec_heart_draw_table() -> None:
    hearts = target_faces(suit="h")
    unknown = outs_probability(parse_cards(HOLE_BOARD, 2), hearts, 2)
    assert (unknown.outs, unknown.unseen) == (22, 98)
    assert f"{float(unknown.next_card) * 100:.4f}" == "22.4490"
    burn_heart = outs_probability(parse_cards([*HOLE_BOARD, "7h"], 2), hearts, 2)
    assert (burn_heart.outs, burn_heart.unseen) == (21, 97)
    assert f"{float(burn_heart.next_card) * 100:.4f}" == "21.6495"
    burn_other = outs_probability(parse_cards([*HOLE_BOARD, "7s"], 2), hearts, 2)
    assert (burn_other.outs, burn_other.unseen) == (22, 97)
    assert f"{float(burn_other.next_card) * 100:.4f}" == "22.6804"
    assert unknown.next_two == 1 - Fraction(comb(76, 2), comb(98, 2))


def test_outs_face_and_rank_targets() -> None:
    known = parse_cards(["As", "Kd", "As:2", "7c", "8c", "9d"], 3)
    face = outs_probability(known, target_faces(face="As"), 3)
    assert face.outs == 1 and face.next_card == Fraction(1, 156 - 6)  # (d - x) / (52d - k)
    rank = outs_probability(known, target_faces(rank="A"), 3)
    assert rank.outs == 12 - 2
    explicit = outs_probability(known, target_faces(faces=["Tc", "Td", "6h"]), 3)
    assert explicit.outs == 9
    both = outs_probability(known, target_faces(rank="T", suit="c"), 3)
    assert both.outs == 12 + 39 - 3 - 2  # tens ∪ clubs, T♣ counted once, 7♣ 8♣ seen


def test_outs_formula_and_errors() -> None:
    assert at_least_one(46, 9, 2) == 1 - Fraction(comb(37, 2), comb(46, 2))
    with pytest.raises(TargetError):
        target_faces()
    with pytest.raises(TargetError):
        target_faces(suit="x")
    with pytest.raises(CardError):
        target_faces(face="Zz")
    with pytest.raises(CardError):
        parse_cards(["As", "As"], 1)


# ------------------------------------------------------------------------------------------- pot odds


def test_spec_pot_odds_example() -> None:
    assert break_even_equity(60, 20) == Fraction(1, 5)
    assert call_ev(60, 20, Fraction(1, 5)) == pytest.approx(0.0)
    assert call_ev(60, 20, 0.25) > 0
    assert showdown_equity(0.4, 0.1, 0.5) == pytest.approx(0.45)
    assert showdown_equity(0.4, 0.3, Fraction(1, 3)) == pytest.approx(0.5)
    with pytest.raises(PotOddsError):
        break_even_equity(60, 0)
    with pytest.raises(PotOddsError):
        showdown_equity(0.5, 0.1, 2)


# --------------------------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("text", "combos"),
    [
        ("QQ+", 30),  # 3 pairs x (6 two-suit + 4 identical)
        ("QQo+", 18),
        ("QQ=+", 12),
        ("AKs", 4),
        ("AKo", 12),
        ("AQo+", 24),
        ("A5s-A2s", 16),
        ("KTs+", 12),
        ("22-55", 40),
        ("55-22", 40),
        ("AsAs", 1),
        ("AA=", 4),
        ("AAs", 4),
        ("AsKs, QQ+", 31),
        ("AKs AKo", 16),
        ("random", 1378),
        ("T9s", 4),
        ("109s", 4),
        ("kts+", 12),
    ],
)
def test_range_parser(text: str, combos: int) -> None:
    assert len(parse_range(text).combos) == combos


@pytest.mark.parametrize("text", ["", "AKx", "AK+s", "Q2s-J2s", "AKs-AQo", "AK=", "AsAs:2", "AhKhQh", "ZZ", "A"])
def test_range_errors(text: str) -> None:
    with pytest.raises(RangeError) as info:
        parse_range(text)
    assert info.value.code == "bad_range"


def test_chart_classes_partition() -> None:
    classes = chart_classes()
    assert len(classes) == 182 and len(set(classes)) == 182
    seen: set[tuple[int, int]] = set()
    for c in classes:
        combos = set(chart_class_combos(c))
        assert not combos & seen
        seen |= combos
    assert len(seen) == 1378
