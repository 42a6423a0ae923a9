"""The Rules page's examples, judged by the engine so the page and the evaluator can never disagree.

Only the cards and the expected outcome are written here; the category and
the best five shown come from :func:`taiwan_poker.evaluate.evaluate`, and the
tests check they match the expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..cards import Card, parse_cards
from ..evaluate import CATEGORIES, Category, HandValue, evaluate
from ..rules.actions import Action, ActionKind
from ..rules.betting import Betting
from ..rules.ruleset import Structure, cards_needed


@dataclass(frozen=True)
class Example:
    key: str  # message key of the explanation
    decks: int
    hands: tuple[tuple[Card, ...], ...]  # one hand, or two hands compared
    expected: Category
    values: tuple[HandValue, ...]

    @property
    def category(self) -> Category:
        return self.values[0].category

    @property
    def tie(self) -> bool | None:
        """For two hands: whether they tie."""
        return self.values[0].rank == self.values[1].rank if len(self.values) == 2 else None


def _example(key: str, decks: int, expected: Category, *hands: str) -> Example:
    parsed = []
    for h in hands:
        parsed.append(tuple(parse_cards(h.split(), decks)))
    return Example(key, decks, tuple(parsed), expected, tuple(evaluate(h) for h in parsed))


CATEGORY_EXAMPLES = {
    Category.FIVE_OF_A_KIND: (2, "As:1 As:2 Ah Ad Ac"),
    Category.STRAIGHT_FLUSH: (1, "9h 8h 7h 6h 5h"),
    Category.FOUR_OF_A_KIND: (2, "Qs Qh Qh:2 Qd 3c"),
    Category.FULL_HOUSE: (1, "Js Jh Jd 4c 4s"),
    Category.FLUSH: (2, "Kd Kd:2 9d 6d 2d"),
    Category.STRAIGHT: (1, "Tc 9d 8h 7s 6c"),
    Category.THREE_OF_A_KIND: (2, "8s 8s:2 8c Ah 3d"),
    Category.TWO_PAIR: (1, "Ac Ad 5h 5s Kc"),
    Category.ONE_PAIR: (1, "Th Tc Ks 7d 2h"),
    Category.HIGH_CARD: (1, "As Jd 9c 6h 3s"),
}


@cache
def category_examples() -> tuple[Example, ...]:
    """One example per category, strongest first."""
    return tuple(_example(f"category.{c.value}", *CATEGORY_EXAMPLES[c][:1], c, CATEGORY_EXAMPLES[c][1])
                 for c in CATEGORIES)


@cache
def duplicate_rulings() -> tuple[Example, ...]:
    """The spec's duplicate-card rulings table (plus its 'only the best five' principle)."""
    return (
        _example("rules.ruling.four_any_suits", 2, Category.FOUR_OF_A_KIND, "As:1 As:2 Ah:1 Ah:2 Kc"),
        _example("rules.ruling.flush_over_two_pair", 2, Category.FLUSH, "As:1 As:2 Ks:1 Ks:2 Qs"),
        _example("rules.ruling.full_house_over_flush", 3, Category.FULL_HOUSE, "As:1 As:2 As:3 Ks:1 Ks:2"),
        _example("rules.ruling.no_duplicate_straight", 2, Category.FLUSH, "As Ks Qs Js:1 Js:2"),
        _example("rules.ruling.suits_never_break_ties", 2, Category.FLUSH,
                 "As:1 As:2 Ks:1 Ks:2 Qs", "Ah:1 Ah:2 Kh:1 Kh:2 Qh"),
        _example("rules.ruling.six_of_a_kind", 3, Category.FIVE_OF_A_KIND,
                 "As:1 As:2 As:3 Ah:1 Ah:2 Ah:3 Kd", "Ac:1 Ac:2 Ac:3 Ad:1 Ad:2 Ad:3 2c"),
    )


@cache
def min_raise_examples(big_blind: int = 20, stack: int = 2000) -> tuple[dict[str, int], ...]:
    """The spec's minimum-raise numbers, played through the rules engine's betting round.

    Heads-up, blinds 10/20: facing the big blind the smallest raise is to 40; after a
    raise to 60 (an increment of 40) the smallest re-raise is to 100.  On a new
    street the smallest bet is one big blind.
    """
    betting = Betting([stack, stack], Structure.NO_LIMIT, big_blind)
    betting.post_blind(0, big_blind // 2, False)
    betting.post_blind(1, big_blind, True)
    first = betting.legal(0)
    kind, add, to, _ = betting.resolve(0, Action(ActionKind.RAISE, 60), first)
    betting.apply(0, kind, add, to)
    second = betting.legal(1)
    opening = Betting([stack, stack], Structure.NO_LIMIT, big_blind)
    opening.new_street(big_blind)
    return (
        {"current": 0, "increment": big_blind, "min_to": opening.legal(0).min_to},
        {"current": big_blind, "increment": first.min_to - big_blind, "min_to": first.min_to},
        {"current": 60, "increment": 60 - big_blind, "min_to": second.min_to},
    )


def cards_used(players: int) -> int:
    """Cards a hand uses when it reaches the river (the rules engine's 3n + 8)."""
    return cards_needed(players)
