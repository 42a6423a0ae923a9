"""The coach's numbers against the odds module: the spec's heart draw, its pot-odds example, equities, suggestions."""

from __future__ import annotations

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.coach.advice import advise, improving_outs, reason
from taiwan_poker.odds.equity import equity
from taiwan_poker.odds.outs import outs_probability, target_faces
from taiwan_poker.odds.potodds import break_even_equity
from taiwan_poker.rules.actions import ActionKind
from taiwan_poker.strategy.seat import SeatView


def seat(hole: list[str], board: list[str], burn: list[str], *, pot: int = 80, call: int = 20, decks: int = 2,
         live: tuple[int, ...] = (0, 1)) -> SeatView:
    return SeatView(
        seat=0, decks=decks, big_blind=20, button=1, big_blind_seat=0, street=max(0, len(board) - 2),
        hole=tuple(parse_cards(hole, decks)), burns=tuple(parse_cards(burn, decks)),
        board=tuple(parse_cards(board, decks)), pot=pot, current_bet=call, bets=(0, call), stacks=(1000, 1000),
        live=live, actions=(ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE) if call else
        (ActionKind.CHECK, ActionKind.BET), call_amount=call, min_to=2 * call or 20, max_to=1000, history=(),
    )


@pytest.mark.parametrize(("burn", "formula"), [("7h", "21/97"), ("7c", "22/97")])
def test_the_spec_heart_draw_counts_physical_outs_with_the_own_burn_removed(burn: str, formula: str) -> None:
    v = seat(["Ah", "Qh"], ["Jh", "8h", "4s", "2d"], [burn])
    outs = improving_outs(v)
    assert outs is not None and outs.unseen == 97 and outs.known == 7
    flush = next(g for g in outs.groups if g.category == "flush")
    assert f"{flush.outs}/{outs.unseen}" == formula
    odds = outs_probability(list(v.known), target_faces(suit="h"), 2)
    assert flush.next_card == pytest.approx(float(odds.next_card))
    assert flush.by_river is None, "on the turn only the next card is left"


def test_before_the_burn_is_known_the_spec_counts_22_of_98() -> None:
    v = seat(["Ah", "Qh"], ["Jh", "8h", "4s", "2d"], [])
    outs = improving_outs(v)
    assert outs is not None
    assert next(f"{g.outs}/{outs.unseen}" for g in outs.groups if g.category == "flush") == "22/98"


def test_on_the_flop_the_outs_by_the_river_use_the_two_card_formula() -> None:
    v = seat(["Ah", "Qh"], ["Jh", "8h", "4s"], ["7c"])
    outs = improving_outs(v)
    assert outs is not None
    flush = next(g for g in outs.groups if g.category == "flush")
    n, o = outs.unseen, flush.outs
    from math import comb
    assert flush.by_river == pytest.approx(1 - comb(n - o, 2) / comb(n, 2))


def test_the_price_is_the_spec_pot_odds_example() -> None:
    v = seat(["Ah", "Qh"], ["Jh", "8h", "4s", "2d"], ["7c"], pot=80, call=20)  # P = 60, then a bet B = 20
    assert v.price() == pytest.approx(float(break_even_equity(60, 20))) == pytest.approx(0.2)


def test_equity_against_a_random_hand_matches_the_exact_calculator() -> None:
    v = seat(["Ah", "Qh"], ["Jh", "8h", "4s", "2d"], ["7c"])
    exact = equity("AhQh", ["random"], board="Jh8h4s2d", decks=2, burn="7c", method="exact").players[0].equity
    advice = advise(v, samples=30_000)
    assert advice.equity_random == pytest.approx(exact, abs=0.01)
    assert advice.best == "high_card" and len(advice.best_cards) == 5


def test_the_suggestion_gives_its_reason_in_numbers() -> None:
    assert reason(0.312, 0.2, 0.25, "postflop") == "equity 31.2% · price 20.0% · defend 75%"
    assert reason(0.62, 0.0, 0.0, "postflop") == "equity 62.0%"
    assert reason(0.45, 1 / 3, 0.5, "tables") == "equity 45.0% · price 33.3% · solved preflop"


def test_the_suggestion_is_the_strategys_likeliest_action_with_its_distribution() -> None:
    v = seat(["Ah", "Qh"], ["Jh", "8h", "4s", "2d"], ["7c"], pot=80, call=20)
    advice = advise(v, samples=2000)
    assert advice.mix and advice.action == advice.mix[0][0]
    assert sum(p for _, _, p in advice.mix) == pytest.approx(1, abs=0.02)
    assert advice.to_json()["mix"][0]["action"] == advice.action
    # a nut-flush draw facing a quarter-pot bet is never folded: its equity beats the 20 % price
    assert advice.equity_range > advice.price and "fold" not in [k for k, _, _ in advice.mix]
