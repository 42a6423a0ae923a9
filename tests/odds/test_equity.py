"""Equity calculator: known results, exact = Monte Carlo, symmetry, multi-deck brute force."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from taiwan_poker.cards import Card, parse_card, resolve_cards
from taiwan_poker.errors import CardCountError, CardError, TaiwanPokerError
from taiwan_poker.evaluate import rank_batch
from taiwan_poker.odds.equity import EquityError, equity
from taiwan_poker.odds.ranges import RangeError, parse_range


def brute_force(
    hero: Sequence[str],
    opponents: Sequence[str | None],
    board: Sequence[str],
    decks: int,
    burn: str | None = None,
    opp_range: str | None = None,
) -> list[tuple[int, int, Fraction]]:
    """Reference: every physical deal, judged card by card (opponent None = random or ``opp_range``).

    At most one unknown opponent; returns (wins, ties, equity) per player.
    """
    names = list(hero) + [c for o in opponents if o for c in (o[:2], o[2:])] + list(board)
    names += [burn] if burn else []
    cards = resolve_cards([parse_card(n) for n in names], decks)
    hero_c = cards[:2]
    pos = 2
    fixed: list[list[Card] | None] = []
    for o in opponents:
        if o:
            fixed.append(cards[pos : pos + 2])
            pos += 2
        else:
            fixed.append(None)
    board_c = cards[pos : pos + len(board)]
    used = {c.index for c in cards}
    rest = [i for i in range(52 * decks) if i not in used]
    allowed = parse_range(opp_range).combos if opp_range else None
    need = 5 - len(board)
    rows: list[list[list[int]]] = []
    for comp in combinations(rest, need):
        left = [i for i in rest if i not in comp]
        b = [c.index for c in board_c] + list(comp)
        unknown = [None] if all(f is not None for f in fixed) else combinations(left, 2)
        for pair in unknown:
            if pair is not None and allowed is not None:
                f1, f2 = pair[0] % 52, pair[1] % 52
                if (max(f1, f2), min(f1, f2)) not in allowed:
                    continue
            hands = [[c.index for c in hero_c] + b]
            for f in fixed:
                hands.append([c.index for c in f] + b if f is not None else [*pair, *b])  # type: ignore[misc]
            rows.append(hands)
    arr = np.array(rows, dtype=np.int16)
    n, p, _ = arr.shape
    values = rank_batch(arr.reshape(n * p, 7)).reshape(n, p)
    best = values.max(axis=1)
    is_best = values == best[:, None]
    nb = is_best.sum(axis=1)
    out = []
    for i in range(p):
        col = is_best[:, i]
        eq = sum((Fraction(int(((nb == k) & col).sum()), k) for k in range(1, p + 1)), Fraction(0))
        out.append((int((col & (nb == 1)).sum()), int((col & (nb > 1)).sum()), eq / n))
    return out


BRUTE_FORCE_CASES = [
    (["Ah", "Kh"], [None], ["Jh", "8h", "4s", "2d"], 2, None),
    (["Ah", "Kh"], [None], ["Jh", "8h", "4s", "2d"], 2, "7h"),
    (["As", "As"], ["KsKs"], ["Ks", "2c", "3d"], 3, None),
    (["Ah", "Qh"], ["JcJd", None], ["Jh", "8h", "4s", "2d"], 2, "Kh"),
    (["9c", "8c"], [None], ["7c", "6d", "2c", "2h"], 3, None),
]


@pytest.mark.parametrize(("hero", "opps", "board", "decks", "burn"), BRUTE_FORCE_CASES)
def test_exact_equals_physical_brute_force(hero, opps, board, decks, burn) -> None:  # type: ignore[no-untyped-def]
    check_exact_equals_brute_force(hero, opps, board, decks, burn)


@pytest.mark.parametrize(("hero", "opps", "board", "decks", "burn"), [BRUTE_FORCE_CASES[0], BRUTE_FORCE_CASES[2]])
def test_exact_equals_physical_brute_force_on_each_kernel(  # type: ignore[no-untyped-def]
    hero, opps, board, decks, burn, batch_kernel
) -> None:
    """The small cases again, explicitly on the C kernel and on the NumPy fallback."""
    check_exact_equals_brute_force(hero, opps, board, decks, burn)


def check_exact_equals_brute_force(  # type: ignore[no-untyped-def]
    hero, opps, board, decks, burn
) -> None:
    ref = brute_force(hero, opps, board, decks, burn)
    res = equity("".join(hero), [o or "random" for o in opps], board, decks=decks, burn=burn, method="exact")
    assert res.method == "exact"
    for pl, (_w, _t, e) in zip(res.players, ref, strict=True):
        assert pl.exact is not None
        assert pl.exact[2] == e
    # win/tie counts are proportional to the physical ones
    ratio = Fraction(res.players[0].exact[0], ref[0][0]) if ref[0][0] else None  # type: ignore[index]
    if ratio is not None:
        for pl, (w, t, _e) in zip(res.players, ref, strict=True):
            assert Fraction(pl.exact[0]) == ratio * w  # type: ignore[index]
            assert Fraction(pl.exact[1]) == ratio * t  # type: ignore[index]


def test_exact_range_equals_brute_force(batch_kernel: str) -> None:
    ref = brute_force(["Ah", "Kh"], [None], ["Jh", "8h", "4s", "Ks"], 2, opp_range="QQ+,AKs,JTs")
    res = equity("AhKh", ["QQ+,AKs,JTs"], "Jh 8h 4s Ks", decks=2, method="exact")
    assert [p.exact[2] for p in res.players] == [e for _, _, e in ref]  # type: ignore[index]


def test_aa_vs_kk_single_deck() -> None:
    # Averaged over the suit configurations of KK against A♠A♥: 1 x KsKh, 4 x one shared suit, 1 x KdKc.
    e_two = equity("AsAh", ["KsKh"], decks=1, method="exact").players[0].equity
    e_one = equity("AsAh", ["KsKd"], decks=1, method="exact").players[0].equity
    e_none = equity("AsAh", ["KdKc"], decks=1, method="exact").players[0].equity
    avg = (e_two + 4 * e_one + e_none) / 6
    assert round(avg * 100, 1) == 81.9
    mc = equity("AsAh", ["KK"], decks=1, method="monte_carlo", precision=0.002, seed=7).players[0]
    assert mc.equity_se is not None
    assert abs(mc.equity - avg) <= 4 * mc.equity_se


def test_known_single_deck_result_aks_vs_qq() -> None:
    # Classic: AKs vs QQ preflop (no shared suits) is about 46% / 54%.
    res = equity("AhKh", ["QsQd"], decks=1, method="exact")
    assert 0.45 < res.players[0].equity < 0.47


@pytest.mark.parametrize(
    ("hero", "opps", "board", "decks", "burn"),
    [
        ("AhKh", ["random"], "Jh 8h 4s", 2, None),
        ("AhKh", ["QQ+,AKs"], "Jh 8h 4s", 2, "7h"),
        ("7s7s", ["random", "AKo"], "7d Kc 2s 9s", 3, None),
        ("QdJd", ["random"], "", 1, None),
    ],
)
def test_exact_equals_monte_carlo(hero, opps, board, decks, burn) -> None:  # type: ignore[no-untyped-def]
    exact = equity(hero, opps, board, decks=decks, burn=burn, method="exact") if board else None
    mc = equity(hero, opps, board, decks=decks, burn=burn, method="monte_carlo", precision=0.004, seed=11)
    assert mc.method == "monte_carlo"
    for i, pl in enumerate(mc.players):
        assert pl.equity_se is not None and 1.96 * pl.equity_se <= 0.004 + 1e-9
        if exact is not None:
            assert abs(pl.equity - exact.players[i].equity) <= 4 * pl.equity_se + 1e-12
        else:
            # QdJd vs random preflop at one deck: about 60.3% (eval7 agrees: 60.25%)
            assert abs(pl.equity - (0.6025 if i == 0 else 0.3975)) <= 4 * pl.equity_se + 0.001


def test_symmetry_identical_holdings_tie() -> None:
    res = equity("AhKh", ["AhKh"], "Jh 8c 4s", decks=2, method="exact")
    assert res.players[0].tie == 1.0
    assert res.players[0].exact[2] == Fraction(1, 2)  # type: ignore[index]
    mirror = equity("AhKh", ["AdKd"], "", decks=1, method="monte_carlo", precision=0.005, seed=3)
    a, b = mirror.players
    assert a.equity + b.equity == pytest.approx(1.0)
    assert abs(a.equity - 0.5) <= 4 * (a.equity_se or 0)
    exact = equity("AhKh", ["AdKd"], "2c 3s 9c", decks=2, method="exact")
    assert exact.players[0].exact[2] == Fraction(1, 2)  # type: ignore[index]


def test_three_way_equities_sum_to_one() -> None:
    res = equity("AhAd", ["KcKs", "random"], "2h 7d 9s 4c", decks=2, method="exact")
    assert sum(p.exact[2] for p in res.players) == 1  # type: ignore[index,misc]
    mc = equity("AhAd", ["KcKs", "random"], "", decks=2, precision=0.01, seed=5)
    assert mc.method == "monte_carlo"
    assert sum(p.equity for p in mc.players) == pytest.approx(1.0)


def test_auto_switches_by_size() -> None:
    assert equity("AhKh", ["random"], "Jh 8h 4s", decks=2).method == "exact"
    assert equity("AhKh", ["random"], "", decks=2, precision=0.01, seed=1).method == "monte_carlo"


def test_unseen_burns_are_not_removed() -> None:
    # Giving the hero's burn removes it; nothing else is ever removed (no way to name others' burns).
    without = equity("AhQh", ["random"], "Jh 8h 4s 2d", decks=2, method="exact")
    with_burn = equity("AhQh", ["random"], "Jh 8h 4s 2d", decks=2, burn="7h", method="exact")
    assert without.samples != with_burn.samples
    assert without.players[0].equity != with_burn.players[0].equity


def test_monte_carlo_is_reproducible_with_a_seed() -> None:
    a = equity("AhKh", ["QQ+"], "", decks=2, precision=0.01, seed=42)
    b = equity("AhKh", ["QQ+"], "", decks=2, precision=0.01, seed=42)
    assert a.players == b.players


@pytest.mark.parametrize(
    ("hero", "opps", "board", "decks", "exc", "code"),
    [
        ("AhKh", ["AhKh"], "", 1, CardError, "too_many_copies"),
        ("AhKh", ["QQ+,AKx"], "", 2, RangeError, "bad_range"),
        ("AhKhQh", ["random"], "", 2, CardCountError, "bad_card_count"),
        ("AhKh", ["random"], "2c 3c", 2, CardCountError, "bad_card_count"),
        ("AhKh", [], "", 2, EquityError, "bad_equity_request"),
        ("AhKh", ["random"], "", 9, CardError, "bad_decks"),
        ("AhZz", ["random"], "", 2, CardError, "bad_card"),
        ("AsAh", ["AsAh"], "As Ah Ks", 2, CardError, "too_many_copies"),
        ("AsAh", ["AA"], "Ac Ad 2s", 1, RangeError, "bad_range"),
        ("AsAh", ["random", "random"], "", 2, EquityError, "bad_equity_request"),
    ],
)
def test_bad_requests(hero, opps, board, decks, exc, code) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(exc) as info:
        equity(hero, opps, board, decks=decks, method="exact" if len(opps) == 2 else "auto")
    assert isinstance(info.value, TaiwanPokerError)
    assert info.value.code == code
