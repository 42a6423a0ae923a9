"""The member-room service on SQLite and PostgreSQL: whole matches, hidden cards, versions, clock and restarts."""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
from typing import Any
from unittest.mock import ANY

import pytest
import sqlalchemy as sa

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store import repo
from taiwan_poker.store.db import Database
from taiwan_poker.store.models import Member, Room, RoomEvent
from taiwan_poker.tables import TableState
from tests.leaks import check_events, check_hand_view, check_room_state


class Clock:
    """A settable clock for the action-clock tests."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


def members(db: Database, *names: str) -> list[Member]:
    with db.transaction() as s:
        return [repo.create_local_member(s, n) for n in names]


def seated_room(service: RoomService, db: Database, decks: int = 2) -> tuple[str, list[Member]]:
    alice, bob = members(db, "Alice", "Bob")
    code = service.create_room(alice, decks)
    service.join(code, bob)
    return code, [alice, bob]


WEIGHTS = {"check": 8, "call": 8, "fold": 2, "bet": 3, "raise": 2, "allin": 0.3}


def random_action(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action, mostly passive so matches last several hands."""
    kinds = legal["actions"]
    kind = rng.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
    if kind in ("bet", "raise"):
        lo, hi = legal[f"min_{kind}_to"], legal[f"max_{kind}_to"]
        return {"kind": kind, "to": rng.choice([lo, lo, lo, rng.randint(lo, hi), hi])}
    return {"kind": kind}


def truth(service: RoomService, code: str) -> TableState:
    """The table as folded by the service (after a read, so the cache is current)."""
    service.state(code, None)
    cached = service.loader._cache.get(service.loader.room_id(code))
    assert cached is not None
    return cached.state


def same_text_as_view(service: RoomService, code: str, viewers: list[Member | None]) -> None:
    """A push's JSON text (the shared part encoded once per version) says exactly what the view says, to everyone."""
    room = service.loader.cached(code, truth(service, code).version)
    assert room is not None
    for member in viewers:
        text = json.loads(service.reads.view_text(room, member))
        view = service.reads.view(room, member)
        for moving in ("server_time", "seconds_left"):  # read from the clock a moment apart
            text.pop(moving, None)
            view.pop(moving, None)
        assert text == view


def play_match(service: RoomService, code: str, players: list[Member], rng: random.Random, max_hands: int = 40) -> int:
    """Random legal play to the end of the match (or max_hands); checks every payload for leaks. Returns hands."""
    spectator = None
    hands = 0
    for _ in range(5000):
        states = [service.state(code, m) for m in players]
        match = truth(service, code)
        hand = match.hand
        for seat, st in enumerate(states):
            check_room_state(st, seat, hand, f"seat {seat}")
        check_room_state(service.state(code, spectator), None, hand, "spectator")
        same_text_as_view(service, code, [*players, spectator])
        if not hand.complete:
            assert sum(states[0]["match"]["stacks"]) + hand.pot == 4000, "chips are conserved mid-hand"
        if states[0]["match"]["over"]:
            break
        if hand.complete:
            hands += 1
            assert sum(match.stacks()) == 4000, "chips are conserved after every hand"
            if hands >= max_hands:
                break
            service.next_hand(code, players[hands % 2], states[0]["version"])
            continue
        seat = hand.to_act
        legal = states[seat]["hand"]["legal"]
        result = service.act(code, players[seat], random_action(legal, rng), states[seat]["version"],
                             f"k{rng.random()}")
        assert result.applied
    return hands


def test_whole_matches_conserve_chips_and_no_payload_shows_a_hidden_card(db: Database) -> None:
    seeds = iter(range(1000))
    service = RoomService(db, rng_factory=lambda: random.Random(next(seeds)))
    rng = random.Random(7)
    total_hands = 0
    for decks in (2, 3, 6):
        code, players = seated_room(service, db, decks=decks)
        total_hands += play_match(service, code, players, rng)
        match = truth(service, code)
        assert match.over and sum(match.stacks()) == 4000
        for seat, member in enumerate(players):
            history = service.reads.history(code, member)
            assert len(history) == len(match.hands)
            for entry, hand in zip(history, match.hands, strict=True):
                check_hand_view(entry["final"], seat, hand, f"history seat {seat}")
                check_events(entry["events"], seat, hand, f"history seat {seat}")
    assert total_hands >= 5


def test_the_match_survives_a_restart_exactly(db: Database) -> None:
    first = RoomService(db)
    code, players = seated_room(first, db)
    rng = random.Random(3)
    play_match(first, code, players, rng, max_hands=3)
    st = first.state(code, players[0])
    if not st["match"]["over"] and st["hand"]["complete"]:
        first.next_hand(code, players[0], st["version"])
    before = [first.state(code, m) for m in players]
    restarted = RoomService(db)  # a fresh process: empty cache, everything from the log
    after = [restarted.state(code, m) for m in players]
    for b, a in zip(before, after, strict=True):
        for volatile in ("server_time", "seconds_left"):
            b.pop(volatile)
            a.pop(volatile)
        assert a == b
    if not after[0]["match"]["over"]:
        seat = after[0]["hand"]["to_act"]
        legal = after[seat]["hand"]["legal"]
        assert restarted.act(code, players[seat], random_action(legal, rng), after[seat]["version"]).applied


def test_the_same_action_sent_twice_at_once_is_applied_once(db: Database) -> None:
    service = RoomService(db)
    code, players = seated_room(service, db)
    st = service.state(code, players[0])
    seat = st["hand"]["to_act"]
    st = service.state(code, players[seat])
    barrier = threading.Barrier(2)
    results = []

    def send() -> None:
        barrier.wait()
        results.append(service.act(code, players[seat], {"kind": "call"}, st["version"], "same-key"))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.applied for r in results) == [False, True]
    assert [r.reason for r in results if not r.applied] == ["duplicate"]
    after = service.state(code, players[seat])
    assert after["version"] > st["version"]
    # a different key at the old version is stale: nothing changes
    stale = service.act(code, players[seat], {"kind": "call"}, st["version"], "other-key")
    assert not stale.applied and stale.reason == "stale_version"
    assert service.state(code, players[seat])["version"] == after["version"]


def test_two_processes_on_one_room_never_apply_a_stale_action(db: Database) -> None:
    """Actions trust the cache only as far as the version guard in the database: another writer is caught."""
    first, second = RoomService(db), RoomService(db)
    code, players = seated_room(first, db)
    st = first.state(code, players[0])
    seat = st["hand"]["to_act"]
    assert second.act(code, players[seat], {"kind": "call"}, st["version"], "k1").applied  # first's cache is behind
    moved = second.state(code, players[0])
    # the first process still caches the old version: the old version is refused, nothing is stored twice
    again = first.act(code, players[seat], {"kind": "call"}, st["version"], "k2")
    assert not again.applied and again.reason == "stale_version" and again.state["version"] == moved["version"]
    # the current version is accepted by the first process: it reads the room afresh
    nxt = moved["hand"]["to_act"]
    done = first.act(code, players[nxt], {"kind": "check"}, moved["version"], "k3")
    assert done.applied and done.state["version"] > moved["version"]
    # and now the second process is the one behind
    late = second.act(code, players[nxt], {"kind": "check"}, moved["version"], "k4")
    assert not late.applied and late.reason == "stale_version"
    assert second.state(code, players[0]) == {**first.state(code, players[0]), "server_time": ANY,
                                               "seconds_left": ANY}


def test_two_stale_actions_change_nothing(db: Database) -> None:
    service = RoomService(db)
    code, players = seated_room(service, db)
    st = service.state(code, players[0])
    seat = st["hand"]["to_act"]
    for wrong in (st["version"] - 1, st["version"] + 5):
        res = service.act(code, players[seat], {"kind": "call"}, wrong, None)
        assert not res.applied and res.reason == "stale_version"
    assert service.state(code, players[seat])["version"] == st["version"]


def test_a_players_seed_arriving_while_another_decides_leaves_the_decision_current(db: Database) -> None:
    """Every browser sends its seed for the next hand just after a deal (docs/fairness.md), while the first
    player decides: a seed is no change a request is made against, so it never makes an action stale; any other
    event still does."""
    service = RoomService(db)
    code, players = seated_room(service, db)
    st = service.state(code, players[0])
    seat = st["hand"]["to_act"]
    waiting = players[1 - seat]
    service.request(code, waiting, "seed", {"seed": "ab" * 32})
    assert service.state(code, waiting)["version"] == st["version"] + 1 and service.state(code, waiting)["seed_sent"]
    res = service.act(code, players[seat], {"kind": "call"}, st["version"], "k1")
    assert res.applied, res.reason
    again = service.act(code, players[seat], {"kind": "call"}, st["version"], "k1")
    assert not again.applied and again.reason == "duplicate", "a retried action is still known"
    after = service.state(code, waiting)
    service.request(code, players[seat], "seed", {"seed": "cd" * 32})
    res = service.act(code, waiting, {"kind": "check"}, after["version"] - 1, None)
    assert not res.applied and res.reason == "stale_version", "made before the call: stale"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"kind": "raise", "to": 30}, "illegal_action"),  # below the minimum raise to 40
        ({"kind": "raise", "to": -40}, "bad_amount"),
        ({"kind": "raise", "to": 10**12}, "bad_amount"),
        ({"kind": "raise", "to": 40.5}, "bad_amount"),
        ({"kind": "raise", "to": "40"}, "bad_amount"),
        ({"kind": "raise"}, "bad_amount"),
        ({"kind": "call", "to": 20}, "bad_amount"),
        ({"kind": "dance"}, "bad_action"),
        ("call", "bad_action"),
        ({"kind": "check"}, "illegal_action"),  # preflop the small blind faces the big blind
    ],
)
def test_bad_actions_are_refused_and_change_nothing(db: Database, action: Any, code: str) -> None:
    service = RoomService(db)
    room, players = seated_room(service, db)
    st = service.state(room, players[0])
    seat = st["hand"]["to_act"]
    with pytest.raises(Exception) as info:
        service.act(room, players[seat], action, st["version"], "k")
    assert getattr(info.value, "code", None) == code
    after = service.state(room, players[seat])
    assert after["version"] == st["version"]
    assert after["hand"] == st["hand"]
    assert sum(after["match"]["stacks"]) + after["hand"]["pot"] == 4000


def test_wrong_turn_unknown_room_outsider_and_bad_version_are_clear_errors(db: Database) -> None:
    service = RoomService(db)
    room, players = seated_room(service, db)
    (outsider,) = members(db, "Carol")
    st = service.state(room, players[0])
    seat = st["hand"]["to_act"]
    cases = [
        (lambda: service.act(room, players[1 - seat], {"kind": "call"}, st["version"]), "not_your_turn"),
        (lambda: service.act("NOPE42", players[seat], {"kind": "call"}, st["version"]), "room_not_found"),
        (lambda: service.act(room, outsider, {"kind": "call"}, st["version"]), "not_seated"),
        (lambda: service.act(room, players[seat], {"kind": "call"}, "7"), "bad_version"),
        (lambda: service.act(room, players[seat], {"kind": "call"}, st["version"], "x" * 65), "bad_key"),
        (lambda: service.join(room, outsider), "room_full"),
        (lambda: service.create_room(outsider, 7), "bad_decks"),
    ]
    for call, expected in cases:
        with pytest.raises(TaiwanPokerError) as info:
            call()
        assert info.value.code == expected
    assert service.state(room, players[0])["version"] == st["version"]


def test_a_spectator_sees_public_information_only(db: Database) -> None:
    service = RoomService(db)
    room, _players = seated_room(service, db)
    (outsider,) = members(db, "Carol")
    st = service.state(room, outsider)
    assert st["spectator"] and st["you"] is None
    assert "you" not in st["hand"] and "legal" not in st["hand"]
    check_room_state(st, None, truth(service, room).hand, "spectator")


def test_action_clock_time_bank_time_out_button_and_server_sweep(db: Database) -> None:
    """The spec's 45-s clock, then the player's 60-s time bank (ours, starting by itself); once both have run
    out the server checks or folds at its next sweep, and any seated member may press time-out."""
    clock = Clock()
    service = RoomService(db, clock=clock)
    room, players = seated_room(service, db)
    st = service.state(room, players[0])
    assert st["seconds_left"] == pytest.approx(45)
    assert [p["bank"] for p in st["players"]] == [60, 60]
    with pytest.raises(TaiwanPokerError) as info:
        service.timeout(room, players[0], st["version"])
    assert info.value.code == "clock_running"
    seat = st["hand"]["to_act"]
    clock.advance(46)  # the action clock has run out: the time bank runs
    assert service.sweep() == [] and not service.state(room, players[0])["timeout_allowed"]
    with pytest.raises(TaiwanPokerError) as info:
        service.timeout(room, players[1 - seat], st["version"])
    assert info.value.code == "clock_running", "the time bank is still running"
    clock.advance(59)  # 45 + 60 s: clock and bank both used up
    res = service.timeout(room, players[1 - seat], st["version"])
    # the small blind faces the big blind: time-out folds (it cannot check), and the whole bank is gone
    assert res.applied and res.state["hand"]["complete"] and res.state["hand"]["seats"][seat]["folded"]
    assert res.state["players"][seat]["bank"] == 0
    # the server deals the next hand by itself after the showdown pause
    assert service.sweep() == []
    clock.advance(7)
    assert service.sweep() == [room]
    st = service.state(room, players[0])
    assert not st["hand"]["complete"] and st["hand"]["hand_no"] == 2
    # and times out an abandoned turn by itself at its first sweep after clock + bank (the bank of the seat
    # that timed out is empty: 45 s; the other seat's is full: 105 s)
    to_act = st["hand"]["to_act"]
    wait = 45 + st["players"][to_act]["bank"]
    clock.advance(wait)  # the seats' button first: the server waits a second more
    assert service.sweep() == [] and service.state(room, players[0])["timeout_allowed"]
    clock.advance(1)
    assert service.sweep() == [room]
    assert service.state(room, players[0])["version"] > st["version"]


def test_a_move_past_the_action_clock_draws_on_the_time_bank(db: Database) -> None:
    clock = Clock()
    service = RoomService(db, clock=clock)
    room, players = seated_room(service, db)
    st = service.state(room, players[0])
    seat = st["hand"]["to_act"]
    clock.advance(45 + 12.5)  # 12.5 s into the bank: 13 whole seconds are drawn
    res = service.act(room, players[seat], {"kind": "call"}, st["version"])
    assert res.applied and res.state["players"][seat]["bank"] == 60 - 13
    assert res.state["players"][1 - seat]["bank"] == 60


def test_leaving_forfeits_and_either_player_can_open_a_rematch(db: Database) -> None:
    service = RoomService(db)
    room, players = seated_room(service, db)
    with pytest.raises(TaiwanPokerError):
        service.rematch(room, players[0])
    service.leave(room, players[0])
    st = service.state(room, players[1])
    assert st["match"]["over"] and st["match"]["winner"] == 1 and st["status"] == "over"
    new_code = service.rematch(room, players[1])
    assert service.rematch(room, players[0]) == new_code
    assert service.state(room, players[0])["match"]["rematch"] == new_code
    service.join(new_code, players[0])
    assert service.state(new_code, players[1])["status"] == "playing"
    lobby = service.reads.lobby(players[1])
    assert [r["code"] for r in lobby][:2] == [new_code, room]


def test_each_seats_last_action_on_the_street_is_public_and_resets_with_the_board(db: Database) -> None:
    service = RoomService(db)
    room, players = seated_room(service, db)
    st = service.state(room, players[0])
    seat = st["hand"]["to_act"]
    assert st["hand"]["last_actions"] == {}, "blinds are not decisions"
    service.act(room, players[seat], {"kind": "raise", "to": 60}, st["version"])
    for viewer in (*players, None):
        last = service.state(room, viewer)["hand"]["last_actions"]
        assert last == {str(seat): {"kind": "raise", "to": 60, "amount": 50, "allin": False, "timeout": False}}
    st = service.state(room, players[1 - seat])
    service.act(room, players[1 - seat], {"kind": "call"}, st["version"])
    st = service.state(room, players[0])
    assert st["hand"]["street"] == "flop" and st["hand"]["last_actions"] == {}, "a new street starts clean"


def test_two_instances_racing_the_same_time_out_apply_it_exactly_once(db: Database) -> None:
    """The server's own clock may run on every instance: the version guard lets exactly one time-out in."""
    clock = Clock()
    first, second = RoomService(db, clock=clock), RoomService(db, clock=clock)
    room, players = seated_room(first, db)
    before = first.state(room, players[0])
    clock.advance(45 + 60 + 1)  # past the clock, the time bank and the seats' second
    barrier = threading.Barrier(2)
    swept: list[list[str]] = []

    def sweep(service: RoomService) -> None:
        barrier.wait()
        swept.append(service.sweep())

    threads = [threading.Thread(target=sweep, args=(s,)) for s in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(len(s) for s in swept) == [0, 1], "exactly one instance applied the time-out"
    after = truth(first, room)
    hand = after.hand
    assert hand is not None and hand.complete, "heads-up, the small blind's time-out folds: one fold, not two"
    timeouts = [e for e in hand.events if getattr(e, "timeout", False)]
    assert len(timeouts) == 1 and after.version > before["version"]


def test_an_instance_behind_reads_only_the_events_appended_since_its_cached_version(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another instance moved the table on: this one folds the new events onto its cache (no full replay), and
    the result is the state a fresh replay of the whole log gives."""
    clock = Clock()
    first, second = RoomService(db, clock=clock), RoomService(db, clock=clock)
    room, players = seated_room(first, db)
    rng = random.Random(7)
    second.state(room, players[0])  # second caches the table at its current version
    for _ in range(12):  # first plays on
        st = first.state(room, players[0])
        hand = st["hand"]
        if hand["complete"]:
            first.next_hand(room, players[0], st["version"])
            continue
        actor = players[0] if hand["to_act"] == st["you"] else players[1]
        legal = first.state(room, actor)["hand"]["legal"]
        first.act(room, actor, random_action(legal, rng), st["version"])
    loaded: list[int] = []
    real_load = repo.load_stored_events

    def counting(session: Any, room_id: int, after: int = 0) -> list[tuple[dict[str, Any], Any]]:
        out = real_load(session, room_id, after)
        loaded.append(len(out))
        return out

    cached = second.loader._cache.get(second.loader.room_id(room))
    assert cached is not None
    behind = cached.state.version
    monkeypatch.setattr(repo, "load_stored_events", counting)
    seen = second.state(room, players[0])
    monkeypatch.undo()
    now = truth(first, room)
    assert seen["version"] == now.version > behind
    assert loaded == [now.version - behind], "only the events appended since the cached version were read"
    fresh = RoomService(db, clock=clock)
    for who in (*players, None):  # incremental fold = a fresh replay of the whole log, in every seat's view
        assert second.state(room, who) == fresh.state(room, who)
        assert second.reads.history(room, who) == fresh.reads.history(room, who)


def test_a_room_stored_before_events_carried_their_time_runs_its_clock_from_when_they_were_stored(
        db: Database) -> None:
    """Issue 46: an event logged by an older server has no ``at``; the loader gives it the time it was stored,
    so a hand abandoned before the upgrade is still timed out by the clock it had."""
    clock = Clock()
    service = RoomService(db, clock=clock)
    room, players = seated_room(service, db)
    stored = clock.now - dt.timedelta(seconds=30)  # the old server wrote the log half a minute ago
    room_id = service.loader.room_id(room)
    events = RoomEvent.__table__
    with db.engine.begin() as conn:
        for seq, payload in conn.execute(sa.select(events.c.seq, events.c.payload).where(events.c.room_id == room_id)):
            old = {k: v for k, v in payload.items() if k not in ("at", "bot_pause")}
            conn.execute(sa.update(events).where(events.c.room_id == room_id, events.c.seq == seq)
                         .values(payload=old, created_at=stored))
        rooms = Room.__table__  # where an older server's sweeper looked: the end of the action clock
        conn.execute(sa.update(rooms).where(rooms.c.id == room_id).values(deadline=stored + dt.timedelta(seconds=45)))
    upgraded = RoomService(db, clock=clock)
    st = upgraded.state(room, players[0])
    assert st["deadline"] == (stored + dt.timedelta(seconds=45)).isoformat() and st["seconds_left"] == 15
    clock.advance(15 + 60)  # the clock and the bank, counted from when the hand was stored
    assert upgraded.sweep() == [], "the seats' button first"
    clock.advance(1)
    assert upgraded.sweep() == [room] and truth(upgraded, room).hand.complete  # type: ignore[union-attr]
