"""The practice room's three decision scenarios (pot odds, the price of a draw, value-raising the nuts).

Each scenario states its premises as numbers and cards, offers choices, and
grades an answer with an explanation whose numbers are computed here —
shells only translate the words around them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from ..cards import Card, full_shoe, parse_cards
from ..errors import TaiwanPokerError
from ..evaluate import Category, evaluate, hand_value
from .next_card import Target, TargetKind, break_even_equity, draw_odds


@dataclass(frozen=True)
class Scenario:
    """A decision with its premises; ``params`` fill the translated premise text."""

    id: str
    choices: tuple[str, ...]
    correct: str
    decks: int = 0
    hole: tuple[Card, ...] = ()
    board: tuple[Card, ...] = ()
    burn: tuple[Card, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    explanation: dict[str, Any] = field(default_factory=dict)


def pct(x: Fraction, places: int = 2) -> str:
    """A fraction as a percentage string, e.g. ``22.68%``."""
    return f"{float(x) * 100:.{places}f}%"


def _pot_odds() -> Scenario:
    pot, bet = 60, 20
    need = break_even_equity(pot, bet)
    return Scenario(
        id="pot_odds",
        choices=("15", "20", "25", "33"),
        correct="20",
        params={"pot": pot, "bet": bet},
        explanation={"pot": pot, "bet": bet, "final_pot": pot + 2 * bet, "need": pct(need, 0),
                     "fraction": f"{need.numerator}/{need.denominator}"},
    )


def _draw_price() -> Scenario:
    decks = 2
    cards = parse_cards(["Ah", "Qh", "Jh", "8h", "4s", "2d", "7c"], decks)
    hole, board, burn = cards[:2], cards[2:6], cards[6:]
    pot, bet = 80, 40
    odds = draw_odds(decks, [*hole, *board, *burn], Target(TargetKind.SUIT, 1))
    need = break_even_equity(pot, bet)
    return Scenario(
        id="draw_price",
        choices=("call", "fold"),
        correct="call" if odds.next_card >= need else "fold",
        decks=decks, hole=tuple(hole), board=tuple(board), burn=tuple(burn),
        params={"decks": decks, "pot": pot, "bet": bet},
        explanation={"outs": odds.outs, "unseen": odds.unseen, "hit": pct(odds.next_card),
                     "need": pct(need), "final_pot": pot + 2 * bet, "bet": bet,
                     "total_hearts": 13 * decks, "seen_hearts": odds.seen_targets, "known": odds.known},
    )


@cache
def _opponent_holdings(decks: int, mine: tuple[Card, ...], board: tuple[Card, ...],
                       known: tuple[Card, ...]) -> tuple[int, int, int]:
    """Against every opponent two-card holding (by face) the unseen cards allow: how many beat, tie, lose."""
    ours = hand_value([*mine, *board])
    left = [c for c in full_shoe(decks) if c not in known]
    # One representative physical card per face is enough: deck numbers never change strength.
    counts: dict[int, int] = {}
    reps: dict[int, list[Card]] = {}
    for c in left:
        counts[c.face] = counts.get(c.face, 0) + 1
        reps.setdefault(c.face, []).append(c)
    faces = sorted(counts)
    beat = tie = lose = 0
    for i, f in enumerate(faces):
        for g in faces[i:]:
            if f == g and counts[f] < 2:
                continue
            a = reps[f][0]
            b = reps[g][1] if f == g else reps[g][0]
            v = hand_value([a, b, *board])
            if v > ours:
                beat += 1
            elif v == ours:
                tie += 1
            else:
                lose += 1
    return beat, tie, lose


def _value_raise() -> Scenario:
    decks = 2
    cards = parse_cards(["Kc", "Ks:2", "Ks", "Kh", "Kd", "7c", "2s", "9d"], decks)
    hole, board, burn = cards[:2], cards[2:7], cards[7:]
    pot, bet = 100, 50
    hand = evaluate([*hole, *board])
    beat, tie, lose = _opponent_holdings(decks, tuple(hole), tuple(board), (*hole, *board, *burn))
    min_raise_to = bet + bet  # the opponent's bet is the last full raise increment
    kings_left = 4 * decks - sum(1 for c in (*hole, *board, *burn) if c.rank == 11)
    return Scenario(
        id="value_raise",
        choices=("fold", "call", "raise"),
        correct="raise" if beat == 0 else "call",
        decks=decks, hole=tuple(hole), board=tuple(board), burn=tuple(burn),
        params={"decks": decks, "pot": pot, "bet": bet},
        explanation={"category": hand.category, "beat": beat, "tie": tie, "lose": lose,
                     "holdings": beat + tie + lose, "kings_left": kings_left,
                     "min_raise_to": min_raise_to, "call_wins": pot + bet, "bet": bet,
                     "raise_wins": pot + min_raise_to},
    )


@cache
def scenarios() -> tuple[Scenario, ...]:
    """The three scenarios, computed once."""
    s = (_pot_odds(), _draw_price(), _value_raise())
    assert s[2].explanation["category"] is Category.FIVE_OF_A_KIND
    return s


def scenario(scenario_id: str) -> Scenario:
    for s in scenarios():
        if s.id == scenario_id:
            return s
    raise TaiwanPokerError(f"unknown scenario {scenario_id!r}", code="unknown_scenario", scenario=scenario_id)


@dataclass(frozen=True)
class Grade:
    scenario: Scenario
    choice: str
    correct: bool


def grade(scenario_id: str, choice: str) -> Grade:
    """Grade one answer."""
    s = scenario(scenario_id)
    if choice not in s.choices:
        raise TaiwanPokerError(f"unknown choice {choice!r} for scenario {scenario_id}; one of {', '.join(s.choices)}",
                               code="bad_choice", choice=choice, choices=", ".join(s.choices))
    return Grade(s, choice, choice == s.correct)


def known_cards(s: Scenario) -> Sequence[Card]:
    return (*s.hole, *s.board, *s.burn)
