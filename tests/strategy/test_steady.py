"""Issue 50, steady advice: Strong's distribution at a decision is a function of what the seat may see, the same in
any process and in any order of asking (the reads and equities draw from seeds made of the spot, and no cache
changes an answer). 1,000 spots from headless hands, heads-up and six-handed, before and after the flop, are
answered here in one order and in a fresh process (another hash seed) in the reverse order; and a seat that always
took the coach's likeliest action is never marked less than good by a review run in another process."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

from taiwan_poker.bots import sit_and_go
from taiwan_poker.bots.levels import policy_of as policy_of_level
from taiwan_poker.bots.policies import Policy
from taiwan_poker.bots.sit_and_go import CREATOR, play_sit_and_go
from taiwan_poker.history.review import review
from taiwan_poker.rules.actions import Action
from taiwan_poker.rules.hand import Hand
from taiwan_poker.strategy.policy import strategy
from taiwan_poker.strategy.seat import SeatView, seat_view

ROOT = Path(__file__).resolve().parents[2]
SPOTS = 1000


def spots(n: int = SPOTS) -> list[SeatView]:
    """The first ``n`` decisions of headless matches (solid and strong bots; two and six seats)."""
    seen: list[SeatView] = []
    view = seat_view

    def grab(hand: Hand, seat: int) -> SeatView:
        v = view(hand, seat)
        seen.append(v)
        return v

    with patch.object(sit_and_go, "seat_view", grab):  # the headless match's own name for it
        seed = 0
        while len(seen) < n:
            play_sit_and_go(None, 2 if seed % 2 else 6, seed=seed, levels=("solid", "strong"), max_hands=12,
                            bot_pause=(0.0, 0.0))
            seed += 1
    return seen[:n]


def answers(views: list[SeatView], reverse: bool) -> dict[int, list[tuple[str, float]]]:
    order = range(len(views) - 1, -1, -1) if reverse else range(len(views))
    return {i: [(repr(a), p) for a, p in strategy(views[i]).choices] for i in order}


def in_another_process(function: str, data: object, path: Path, hash_seed: str) -> Any:
    """``function`` of this module run on ``data`` in a fresh Python with another hash seed (through a pickle)."""
    path.write_bytes(pickle.dumps(data))
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    code = f"from tests.strategy.test_steady import {function}; {function}({str(path)!r})"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=600)
    return pickle.loads(path.read_bytes())


def main(path: str) -> None:
    """In the other process: answer the pickled spots in reverse order."""
    views = pickle.loads(Path(path).read_bytes())
    Path(path).write_bytes(pickle.dumps(answers(views, reverse=True)))


def test_the_same_decisions_get_the_same_distributions_in_another_process_and_order(tmp_path: Path) -> None:
    views = spots()
    assert sum(v.street > 0 for v in views) > 300 and len({len(v.dealt) for v in views}) > 1
    here = answers(views, reverse=False)
    there = in_another_process("main", views, tmp_path / "spots.pkl", "12345")
    differ = [i for i in here if here[i] != there[i]]
    assert differ == [], [(i, here[i], there[i]) for i in differ[:5]]


def follow_the_coach(v: SeatView, rng: object) -> Action:
    """The coach's likeliest action, always."""
    return strategy(v).likeliest


def coached_hands() -> list[tuple[Hand, int]]:
    """Complete hands of headless matches where the creator's seat always took the coach's likeliest action against
    the strong bot (heads-up) or solid and strong bots (six seats), with that seat."""
    levels = policy_of_level

    def policy_of(key: str) -> Policy:
        return follow_the_coach if key == "coach" else levels(key)

    out: list[tuple[Hand, int]] = []
    with patch.object(sit_and_go, "policy_of", policy_of):  # the headless match's own name for it
        for seed in range(8):
            seats = 2 if seed % 2 else 6
            bots = ("strong", "solid", "strong", "solid", "strong")[:seats - 1]  # the creator's is levels[0]
            played = play_sit_and_go(None, seats, seed=seed, levels=("coach", *bots), max_hands=10,
                                     bot_pause=(0.0, 0.0))
            for i, hand in enumerate(played.state.hands):
                seat = played.state.seat_in_hand(CREATOR, i)
                if seat is not None and hand.complete:
                    out.append((hand, seat))
    return out


def marks(path: str) -> None:
    """In the other process: the review's marks of the pickled hands' coached seats."""
    hands = pickle.loads(Path(path).read_bytes())
    Path(path).write_bytes(pickle.dumps([[(d.suggestion, d.action, d.mark) for d in review(hand, seat)[0]]
                                         for hand, seat in hands]))


def test_following_the_coach_is_never_marked_a_mistake_by_a_review_in_another_process(tmp_path: Path) -> None:
    hands = coached_hands()
    reviewed = in_another_process("marks", hands, tmp_path / "hands.pkl", "54321")
    decisions = [d for hand in reviewed for d in hand]
    assert len(decisions) > 150 and any(d[0] in ("bet", "raise") for d in decisions), len(decisions)
    assert [d for d in decisions if d[2] != "good"] == []
