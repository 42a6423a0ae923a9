"""The message catalogue: every user-facing string, zh-TW first, English second.

Messages live in ``messages/<lang>.json`` as flat ``key → text`` maps with
``{name}`` placeholders.  A missing English message falls back to zh-TW; a
missing key shows the key itself, which the tests forbid.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..cards import RANK_NAMES_EN, Card
from ..errors import TaiwanPokerError
from .error_registry import message_key

LANGS = ("zh-TW", "en")
DEFAULT_LANG = "zh-TW"
LANG_COOKIE = "tp_lang"
MESSAGES = Path(__file__).parent / "messages"


@cache
def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


class _Keep(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(lang: str, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in."""
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANG).get(key, key)
    return text.format_map(_Keep(params)) if params else text


def normalise(lang: str | None) -> str | None:
    """Map ``zh``, ``zh-tw``, ``zh-Hant``, ``en-US``… onto a supported language, or None."""
    if not lang:
        return None
    low = lang.strip().lower()
    if low.startswith("zh"):
        return "zh-TW"
    if low.startswith("en"):
        return "en"
    return None


def from_accept_language(header: str | None) -> str | None:
    """The best supported language of an ``Accept-Language`` header, or None."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        lang = normalise(tag)
        if lang and weight > 0:
            ranked.append((-weight, i, lang))
    return min(ranked)[2] if ranked else None


def negotiate(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """Explicit ``?lang=`` first, then the switch's cookie, then the browser's preference, then zh-TW."""
    return normalise(query) or normalise(cookie) or from_accept_language(accept_language) or DEFAULT_LANG


def card_aria(lang: str, card: Card) -> str:
    """A screen-reader label: 「第 2 副 黑桃 A」 / "A of spades, deck 2"."""
    return t(lang, "card.aria", rank=t(lang, f"rank.{card.rank}"), suit=t(lang, f"suit.{card.suit}"), deck=card.deck)


def card_json(card: Card) -> dict[str, Any]:
    """A card as the pages and the API draw it."""
    return {
        "label": card.label,
        "face": card.face_str,
        "rank": RANK_NAMES_EN[card.rank],
        "suit": "shdc"[card.suit],
        "symbol": "♠♥♦♣"[card.suit],
        "deck": card.deck,
    }


def error_message(lang: str, exc: TaiwanPokerError) -> str:
    """A core error in the reader's language (by its code and reason: :func:`.error_registry.message_key`),
    falling back to the code's general message, then to the core's English message."""
    params = {k: v for k, v in exc.params.items() if isinstance(v, (str, int, float))}
    for key in dict.fromkeys((message_key(exc), f"error.{exc.code}")):
        if key in catalogue(lang):
            text = t(lang, key, **params)
            if "{" not in text:
                return text
    return exc.message if lang == "en" else f"{t(lang, 'error.generic')}（{exc.message}）"
