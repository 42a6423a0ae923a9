"""The bot levels a table offers, their names in zh-TW and English, and the baselines used to measure them."""

from __future__ import annotations

from typing import NamedTuple

from .policies import Policy, always_call, beginner, random_legal, solid, strong


class Level(NamedTuple):
    key: str
    zh: str
    en: str
    policy: Policy


LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", "新手（鬆散被動）", "Beginner (loose-passive)", beginner),
    "solid": Level("solid", "穩健（緊凶）", "Solid (tight-aggressive)", solid),
    "strong": Level("strong", "高手（均衡策略、依下注大小讀牌）", "Strong (solved preflop, reads bet sizes)", strong),
}
DEFAULT_LEVEL = "solid"
BASELINES: dict[str, Level] = {
    "caller": Level("caller", "跟注機", "Always-call", always_call),
    "random": Level("random", "隨機", "Random-legal", random_legal),
}


def policy_of(key: str) -> Policy:
    """A level's or baseline's policy (KeyError for an unknown key)."""
    return (LEVELS.get(key) or BASELINES[key]).policy
