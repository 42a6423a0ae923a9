"""Provable fairness at the table (issue 47, docs/fairness.md): each hand dealt from a shoe committed before its
first card, the server bound to its seed before the players' seeds, the players' seeds mixed in, each viewer
given the openings of exactly the cards they saw, the server's seeds revealed when the match ends (or never)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.fairness.record import verify_record
from taiwan_poker.history.exports import hand_record
from taiwan_poker.rules import ActionKind
from taiwan_poker.rules.events import PrivateCards
from taiwan_poker.tables import AddBot, ContributeSeed, EndMatch, Join, Leave, SetOptions, TableOptions, table_view
from taiwan_poker.tables.events import HandEvent, SeedCommitted, SeedContributed, SeedsRevealed, ShoeCommitted
from tests.tables.test_host_table import finish_hand, refused
from tests.tables.test_table_machine import Table, seated_table

SEED_A = "ab" * 32
SEED_B = "cd" * 16


def _index(log: list[Any], match: Any) -> int:
    return next(i for i, e in enumerate(log) if match(e))


def _records(t: Table, member: int | None) -> list[dict[str, Any]]:
    return [r.fairness for i in range(len(t.s.hands)) if (r := hand_record(t.s, "T", member, i)).fairness]


def _ended(t: Table) -> Table:
    if t.s.hand_running:
        finish_hand(t)
    t.do(EndMatch(100))
    return t


def test_a_hands_shoe_root_and_its_server_seed_hash_are_published_before_its_first_card() -> None:
    t = seated_table(3)
    committed = _index(t.log, lambda e: isinstance(e, SeedCommitted) and e.hand_no == 1)
    shoe = _index(t.log, lambda e: isinstance(e, ShoeCommitted) and e.hand_no == 1)
    first_card = _index(t.log, lambda e: isinstance(e, HandEvent) and isinstance(e.event, PrivateCards))
    assert committed < shoe < first_card
    view = table_view(t.s, None)["fairness"]
    assert view["hand"]["root"] == t.log[shoe].root and view["hand"]["seed_hash"] == t.log[committed].digest
    assert view["next"]["hand_no"] == 2, "the next hand's server seed is committed while this one is played"


def test_the_server_commits_to_a_hands_seed_before_any_player_seed_for_that_hand_arrives() -> None:
    t = seated_table(3)
    t.do(ContributeSeed(101, SEED_A))
    finish_hand(t)
    t.sweep()  # hand 2 dealt
    commit2 = _index(t.log, lambda e: isinstance(e, SeedCommitted) and e.hand_no == 2)
    seed = _index(t.log, lambda e: isinstance(e, SeedContributed) and e.member == 101)
    shoe2 = _index(t.log, lambda e: isinstance(e, ShoeCommitted) and e.hand_no == 2)
    assert commit2 < seed < shoe2
    assert t.log[shoe2].seeds[t.log[shoe2].seats.index(1)] == SEED_A, "seat 1's seed went into hand 2's shoe"


def test_every_card_is_dealt_from_the_committed_shoe_and_the_revealed_seeds_recompute_every_shoe() -> None:
    t = seated_table(3, show_or_muck=False)
    for _ in range(4):
        t.do(ContributeSeed(102, f"{random.Random(len(t.s.hands)).getrandbits(256):064x}"))
        finish_hand(t, ActionKind.CALL)
        t.sweep()
    before = _records(t, 101)
    assert before and all("server_seed" not in r for r in before), "no server seed before the match ends"
    _ended(t)
    assert isinstance(t.log[-1], SeedsRevealed) and len(t.log[-1].seeds) == len(t.s.hands)
    for member in (100, 101, 102, None):
        records = _records(t, member)
        assert len(records) == len(t.s.hands)
        for r in records:
            report = verify_record(r)
            assert report.ok and report.seed and report.shoe, report.problems
    first = hand_record(t.s, "T", 101, 0)
    opened = {o["card"] for o in first.fairness["openings"]} if first.fairness else set()
    assert set(first.final["board"]) | set(first.final["you"]["hole"]) <= opened


def test_a_players_seed_changes_the_shoe() -> None:
    roots = []
    for seed in (None, SEED_A, SEED_B):
        t = seated_table(2, seed=7)
        finish_hand(t)
        if seed is not None:
            t.do(ContributeSeed(101, seed))
        t.sweep()
        roots.append(t.s.deals[-1].root)
    assert len(set(roots)) == 3, "the same server randomness, three shoes: the player's seed counts"


def test_a_player_whose_seed_has_not_arrived_adds_none_and_a_bots_is_drawn() -> None:
    t = Table(3)
    t.do(Join(101, "P101"))
    t.do(AddBot(100, "solid"))  # a full table: hand 1 is dealt
    bot = t.s.seats[2]
    assert bot is not None and bot.bot is not None
    drawn = next(e for e in t.log if isinstance(e, SeedContributed) and e.member == bot.member)
    t.do(ContributeSeed(100, SEED_B))
    finish_hand(t)
    while not t.s.hand_running:
        t.sweep()
    shoe = next(e for e in reversed(t.log) if isinstance(e, ShoeCommitted))
    assert shoe.seats == (0, 2) and shoe.seeds[0] == SEED_B, "seat 1 sent none: it adds none"
    first = next(e for e in t.log if isinstance(e, ShoeCommitted))
    assert first.seats == (2,) and first.seeds == (drawn.seed,), "hand 1: only the bot's seed, drawn at the deal"


def test_a_later_seed_replaces_the_earlier_one_and_the_same_one_again_changes_nothing() -> None:
    t = seated_table(2)
    t.do(ContributeSeed(101, SEED_A))
    assert t.do(ContributeSeed(101, SEED_A)) == []
    t.do(ContributeSeed(101, SEED_B))
    assert dict(t.s.player_seeds) == {101: bytes.fromhex(SEED_B)}


@pytest.mark.parametrize("seed", ["", "ab" * 15, "ab" * 65, "abc" * 11, "zz" * 16, " " + "ab" * 16, "ab" * 16 + "\n"])
def test_a_seed_that_is_not_16_to_64_bytes_of_hex_is_refused_and_changes_nothing(seed: str) -> None:
    t = seated_table(2)
    before = t.s
    assert refused(t, ContributeSeed(101, seed)) == "bad_seed_hex"
    assert t.s is before


def test_only_a_seated_player_sends_a_seed() -> None:
    t = seated_table(2)
    assert refused(t, ContributeSeed(555, SEED_A)) == "not_seated"
    _ended(t)
    assert refused(t, ContributeSeed(101, SEED_A)) == "match_over"


def test_a_table_that_never_reveals_keeps_its_seeds_and_the_choice_is_settled_before_the_first_hand() -> None:
    t = Table(3)
    t.do(SetOptions(100, TableOptions(reveal=False)))
    for m in (101, 102):
        t.do(Join(m, f"P{m}"))
    assert table_view(t.s, None)["fairness"]["reveal"] is False
    assert refused(t, SetOptions(100, TableOptions(reveal=True))) == "table_started"
    finish_hand(t)
    _ended(t)
    assert not any(isinstance(e, SeedsRevealed) for e in t.log) and not t.s.revealed
    assert table_view(t.s, None)["fairness"]["next"] is None, "no next hand once the match is over"
    assert all("server_seed" not in r for r in _records(t, 101))


# --- nothing leaks ----------------------------------------------------------------------------------------------


def _labels(obj: Any) -> set[str]:
    """Every card label (``As:2``) anywhere in a JSON value."""
    if isinstance(obj, str):
        return {obj} if ":" in obj and len(obj) <= 4 else set()
    if isinstance(obj, dict):
        return set().union(*(_labels(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(_labels(v) for v in obj)) if obj else set()
    return set()


def _check_no_leak(t: Table, viewers: list[int | None], only_last: bool = False) -> None:
    secret = [d.server_seed.hex() for d in t.s.deals] + ([t.s.seed_next[1].hex()] if t.s.seed_next else [])
    for member in viewers:
        text = json.dumps(table_view(t.s, member))
        assert not any(s in text for s in secret), "a server seed in a view"
        for i in range(len(t.s.hands) - 1 if only_last else 0, len(t.s.hands)):
            r = hand_record(t.s, "T", member, i)
            fairness = r.fairness
            assert fairness is not None
            if t.s.revealed:
                assert fairness["server_seed"] == t.s.deals[i].server_seed.hex()
            else:
                assert "server_seed" not in fairness and not any(s in json.dumps(r.to_json()) for s in secret)
            opened = {o["card"] for o in fairness["openings"]}
            if not r.complete:
                assert not opened, "no opening while the hand is played"
            seen = _labels(r.events) | _labels(r.final)
            assert opened <= seen, f"{member} got an opening of a card they never saw: {opened - seen}"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), decks=st.integers(2, 6), hands=st.integers(1, 4),
       reveal=st.booleans())
def test_no_viewer_gets_an_opening_of_a_card_they_did_not_see_nor_a_seed_before_its_time(
        seed: int, players: int, decks: int, hands: int, reveal: bool) -> None:
    rng = random.Random(seed)
    t = Table(players, decks=decks, seed=seed, show_or_muck=rng.random() < 0.5)
    t.do(SetOptions(100, TableOptions(reveal=reveal)))
    for m in range(101, 100 + players):
        t.do(Join(m, f"P{m}"))
    viewers: list[int | None] = [None, 100 + players + 5, *range(100, 100 + players)]
    def each() -> None:  # a seed arrives, and nothing leaks, before every move
        t.do(ContributeSeed(rng.choice(range(100, 100 + players)), f"{rng.getrandbits(128):032x}"))
        _check_no_leak(t, viewers, only_last=True)

    for _ in range(hands):
        finish_hand(t, choose=lambda legal: rng.choice(
            [k for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL) if legal.allows(k)]), each=each)
        if len([s for s in t.s.stacks() if s > 0]) < 2:
            break
        t.sweep()
    if t.s.hand_running:
        finish_hand(t)
    if not t.s.over:
        t.do(EndMatch(100))
    _check_no_leak(t, viewers)
    assert t.s.revealed is reveal


def test_a_leaver_still_gets_the_openings_of_what_they_saw() -> None:
    t = seated_table(3)
    finish_hand(t)
    t.do(Leave(102))
    r = hand_record(t.s, "T", 102, 0)
    assert r.fairness is not None and {o["card"] for o in r.fairness["openings"]} >= set(r.final["you"]["hole"])
