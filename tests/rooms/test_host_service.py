"""The host's table through the room service (issue 23): the choices' windows closed by the server's own clock,
the host's requests on the one write path, and chips that add up after rebuys."""

from __future__ import annotations

import random

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rooms.service import ActResult, RoomService
from taiwan_poker.store.db import Database
from tests.rooms.test_service import Clock, members, truth


def all_in(service: RoomService, code: str, players: list) -> None:  # type: ignore[type-arg]
    """Heads-up: the player to act goes all in and the other calls."""
    for _ in range(2):
        st = service.state(code, players[0])
        seat = st["hand"]["to_act"]
        legal = service.state(code, players[seat])["hand"]["legal"]["actions"]
        service.act(code, players[seat], {"kind": "allin" if "allin" in legal else "call"}, st["version"])


def test_the_server_deals_once_when_nobody_answers_the_offer_to_run_it_twice(db: Database) -> None:
    clock = Clock()
    service = RoomService(db, clock=clock)
    alice, bob = members(db, "Alice", "Bob")
    code = service.create_room(alice, options={"run_twice": True})
    service.join(code, bob)
    all_in(service, code, [alice, bob])
    st = service.state(code, alice)
    assert st["hand"]["pending"]["kind"] == "runs" and st["hand"]["you"]["choice"] == "runs"
    assert st["seconds_left"] == 10, "a short window, on the server's clock"
    clock.advance(10)
    assert service.sweep() == [], "the players' own time-out comes first, by a second"
    clock.advance(1.5)
    assert service.sweep() == [code]
    hand = truth(service, code).hand
    assert hand is not None and hand.complete and hand.runs == 1


def test_both_players_agree_over_the_service_and_the_board_is_run_twice(db: Database) -> None:
    service = RoomService(db)
    alice, bob = members(db, "Alice", "Bob")
    code = service.create_room(alice, options={"run_twice": True})
    service.join(code, bob)
    all_in(service, code, [alice, bob])
    version = service.state(code, alice)["version"]
    first = service.request(code, alice, "runs", {"agree": True}, version)
    assert isinstance(first, ActResult) and first.applied
    stale = service.request(code, bob, "runs", {"agree": True}, version)
    assert isinstance(stale, ActResult) and not stale.applied and stale.reason == "stale_version"
    done = service.request(code, bob, "runs", {"agree": True}, first.state["version"])
    assert isinstance(done, ActResult) and done.applied
    hand = done.state["hand"]
    assert hand["runs"] == 2 and len(hand["board2"]) == 5 and {p["run"] for p in hand["pots"]} == {1, 2}
    assert done.state["hand"]["you"]["strength2"] is not None


def test_the_server_mucks_for_a_player_who_does_not_choose_at_showdown(db: Database) -> None:
    clock = Clock()
    seeds = iter(range(1000))
    service = RoomService(db, clock=clock, rng_factory=lambda: random.Random(next(seeds)))
    players = members(db, "Alice", "Bob", "Carol")
    code = service.create_room(players[0], seats=3, options={"show_or_muck": True})
    for p in players[1:]:
        service.join(code, p)  # full: dealt
    for _ in range(200):  # everyone checks or calls down, hand after hand, until a hand may be mucked
        st = service.state(code, players[0])
        hand = st["hand"]
        if hand["pending"]:
            break
        if hand["complete"]:
            service.next_hand(code, players[0], st["version"])
            continue
        seat = hand["to_act"]
        legal = service.state(code, players[seat])["hand"]["legal"]["actions"]
        service.act(code, players[seat], {"kind": "check" if "check" in legal else "call"}, st["version"])
    hand = service.state(code, players[0])["hand"]
    assert hand["pending"] and hand["pending"]["kind"] == "show"
    chooser = hand["pending"]["seats"][0]
    clock.advance(11.5)
    assert service.sweep() == [code]
    state = service.state(code, players[chooser])
    assert state["hand"]["complete"] and state["hand"]["seats"][chooser]["mucked"]
    other = players[(chooser + 1) % 3]
    assert "shown" not in service.state(code, other)["hand"]["seats"][chooser]


def test_rebuys_through_the_service_keep_the_chips_adding_up(db: Database) -> None:
    service = RoomService(db)
    alice, bob = members(db, "Alice", "Bob")
    code = service.create_room(alice, options={"rebuys": True})
    service.join(code, bob)
    while True:
        all_in(service, code, [alice, bob])
        st = service.state(code, alice)
        if 0 in st["match"]["stacks"]:
            break
        service.next_hand(code, alice, st["version"])
    busted = [alice, bob][st["match"]["stacks"].index(0)]
    view = service.request(code, busted, "buy", {})
    assert isinstance(view, dict) and view["match"]["chips"] == 6000 and view["match"]["rebought"] == 2000
    assert sum(r["chips"] for r in view["match"]["summary"]) == 6000
    assert view["log"][-1]["type"] == "chips_bought" and view["log"][-1]["rebuy"] is True
    with pytest.raises(TaiwanPokerError) as info:
        service.request(code, busted, "buy", {"amount": "all"})
    assert info.value.code == "bad_request"


def test_the_server_ends_a_rebuy_table_a_minute_after_it_began_to_wait(db: Database) -> None:
    """The wait is kept across writes (a chat-free table where the winner's host action moves the version), and
    the sweep ends the match once it is over; the page is told what the table waits for, with the time left."""
    clock = Clock()
    service = RoomService(db, clock=clock, rng_factory=lambda: random.Random(5))
    alice, bob = members(db, "Alice", "Bob")
    code = service.create_room(alice, options={"rebuys": True})
    service.join(code, bob)
    while not any(p["stack"] == 0 for p in service.state(code, alice)["players"] if not p["left"]):
        st = service.state(code, alice)
        if st["hand"] is None or st["hand"]["complete"]:
            service.next_hand(code, alice, st["version"])
            continue
        all_in(service, code, [alice, bob])
    st = service.state(code, alice)
    busted = next(p["name"] for p in st["players"] if p["stack"] == 0)
    assert st["status"] == "rebuys" and st["waiting_for"] == {"kind": "rebuys", "names": [busted]}
    assert st["seconds_left"] == 60
    clock.advance(30)
    service.request(code, alice, "options", {"rebuys": True, "approval": True, "spectator_chat": False})
    assert service.state(code, alice)["seconds_left"] == 30, "a later write does not restart the wait"
    assert service.sweep() == []
    clock.advance(30.5)
    assert service.sweep() == [code]
    final = service.state(code, alice)
    assert final["status"] == "over" and final["match"]["over"]
    assert final["waiting_for"] is None
