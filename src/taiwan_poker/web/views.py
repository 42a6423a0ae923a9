"""JSON shapes shared by the API and the pages: core results → plain dicts in the reader's language."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..evaluate import CATEGORIES, Category, HandValue
from ..trainer.drills import Drill
from ..trainer.lab import LabHand
from ..trainer.next_card import DrawOdds, Target, TargetKind
from ..trainer.scenarios import Scenario, pct
from . import rules_page
from .i18n import card_json, t


def category_json(lang: str, category: Category) -> dict[str, Any]:
    return {"code": category.value, "name": t(lang, f"category.{category.value}")}


def hand_json(lang: str, hand: HandValue) -> dict[str, Any]:
    return {"category": category_json(lang, hand.category), "best": [card_json(c) for c in hand.best],
            "rank": hand.rank}


def lab_json(lang: str, hand_id: str, hand: LabHand) -> dict[str, Any]:
    v = hand.view()
    best = v["best"]
    return {
        "id": hand_id,
        "decks": v["decks"],
        "street": {"code": v["street"].value, "name": t(lang, f"street.{v['street'].value}")},
        "next_street": (None if v["next_street"] is None
                        else {"code": v["next_street"].value, "name": t(lang, f"street.{v['next_street'].value}")}),
        "burn": card_json(v["burn"]),
        "hole": [card_json(c) for c in v["hole"]],
        "board": [card_json(c) for c in v["board"]],
        "dealer_burns": v["dealer_burns"],
        "best": None if best is None else {"category": category_json(lang, best["category"]),
                                           "cards": [card_json(c) for c in best["cards"]], "rank": best["rank"]},
        "used": v["used"],
        "remaining": v["remaining"],
        "total": v["total"],
    }


def target_name(lang: str, target: Target) -> str:
    if target.kind is TargetKind.SUIT:
        return t(lang, "target.suit", suit=t(lang, f"suit.{target.value}"))
    if target.kind is TargetKind.RANK:
        return t(lang, "target.rank", rank=t(lang, f"rank.{target.value}"))
    return t(lang, "target.face", suit=t(lang, f"suit.{target.value & 3}"), rank=t(lang, f"rank.{target.value >> 2}"))


def fraction_json(x: Any) -> dict[str, Any]:
    return {"fraction": f"{x.numerator}/{x.denominator}", "percent": pct(x), "value": float(x)}


def odds_json(lang: str, odds: DrawOdds, target: Target) -> dict[str, Any]:
    return {
        "target": {"code": target.code, "name": target_name(lang, target)},
        "decks": odds.decks,
        "known": odds.known,
        "unseen": odds.unseen,
        "seen_targets": odds.seen_targets,
        "outs": odds.outs,
        "next_card": fraction_json(odds.next_card),
        "two_cards": fraction_json(odds.two_cards),
        "formula_next": f"{odds.outs}/{odds.unseen}",
        "formula_two": f"1 − C({odds.unseen - odds.outs},2)/C({odds.unseen},2)",
    }


def scenario_json(lang: str, s: Scenario) -> dict[str, Any]:
    p = f"practice.{s.id}"
    return {
        "id": s.id,
        "title": t(lang, f"{p}.title"),
        "premise": t(lang, f"{p}.premise", **s.params),
        "question": t(lang, f"{p}.question", **s.params),
        "decks": s.decks or None,
        "hole": [card_json(c) for c in s.hole],
        "board": [card_json(c) for c in s.board],
        "burn": [card_json(c) for c in s.burn],
        "choices": [{"id": c, "label": t(lang, f"{p}.choice.{c}")} for c in s.choices],
    }


def explanation(lang: str, s: Scenario) -> str:
    params = dict(s.explanation)
    if "category" in params:
        params["category"] = t(lang, f"category.{params['category'].value}")
    return t(lang, f"practice.{s.id}.explain", **params)


def drill_json(lang: str, d: Drill) -> dict[str, Any]:
    question_key = "drill.question.next" if d.draws == 1 else "drill.question.two"
    return {
        "seed": d.seed,
        "decks": d.decks,
        "hole": [card_json(c) for c in d.hole],
        "board": [card_json(c) for c in d.board],
        "burn": card_json(d.burn),
        "target": {"code": d.target.code, "name": target_name(lang, d.target)},
        "draws": d.draws,
        "question": t(lang, question_key, target=target_name(lang, d.target), decks=d.decks,
                      burn=card_text(lang, d.burn)),
        "choices": [fraction_json(c) for c in d.choices],
    }


def drill_explanation(lang: str, d: Drill) -> str:
    o = d.odds
    key = "drill.explain.next" if d.draws == 1 else "drill.explain.two"
    burn_key = "drill.explain.burn_hit" if d.burn_matches else "drill.explain.burn_miss"
    target = target_name(lang, d.target)
    per_deck = d.target.copies_per_deck()
    # "13 hearts", "4 cards of rank Ace", "the 10 of diamonds once": one sentence per kind of target
    copies = t(lang, f"drill.copies.{d.target.kind.value}", target=target, per_deck=per_deck, all=per_deck * d.decks)
    return t(lang, key, decks=d.decks, total=52 * d.decks, known=o.known, unseen=o.unseen, copies=copies,
             seen=o.seen_targets, outs=o.outs, answer=f"{d.answer.numerator}/{d.answer.denominator}",
             percent=pct(d.answer), target=target, miss=o.unseen - o.outs) + " " + t(
        lang, burn_key, burn=card_text(lang, d.burn))


def card_text(lang: str, card: Any) -> str:
    return t(lang, "card.short", rank=t(lang, f"rank.{card.rank}"), suit=t(lang, f"suit.{card.suit}"),
             symbol="♠♥♦♣"[card.suit], deck=card.deck)


def example_json(lang: str, e: rules_page.Example) -> dict[str, Any]:
    return {
        "key": e.key,
        "explanation": t(lang, e.key + ".ruling") if e.key.startswith("rules.") else t(lang, e.key + ".def"),
        "decks": e.decks,
        "hands": [[card_json(c) for c in h] for h in e.hands],
        "results": [hand_json(lang, v) for v in e.values],
        "tie": e.tie,
    }


@cache
def rules_json(lang: str) -> dict[str, Any]:
    """The Rules page's content (the same for every request of one language, so computed once)."""
    return {
        "flow": [{"title": t(lang, f"rules.flow.{i}.title"), "text": t(lang, f"rules.flow.{i}.text")}
                 for i in range(1, 6)],
        "cards_used": {"heads_up": rules_page.cards_used(2), "six_max": rules_page.cards_used(6)},
        "betting": [{"action": t(lang, f"rules.bet.{a}.name"), "when": t(lang, f"rules.bet.{a}.when")}
                    for a in ("check", "call", "raise", "fold", "allin")],
        "min_raise": {"big_blind": rules_page.min_raise_examples()[0]["min_to"],
                      "examples": list(rules_page.min_raise_examples()[1:])},
        "ranking": [category_json(lang, c) for c in CATEGORIES],
        "categories": [example_json(lang, e) for e in rules_page.category_examples()],
        "duplicate_rulings": [example_json(lang, e) for e in rules_page.duplicate_rulings()],
    }
