"""Histories equal the table, through the room service and its store (issue 45): a home game with a straddle, a
board run twice, Bob leaving and Eve taking his seat, new stakes, a time-out fold and an uncontested winner showing a
card; hand by hand, for each of its players and a spectator, the JSON (what the replayer draws), the table history,
the text and the PHH (replayed by pokerkit) agree with the live hand: posts, actions, pots, stacks and names."""

from __future__ import annotations

import random
from typing import Any

from taiwan_poker.history.exports import Format
from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store.db import Database
from taiwan_poker.store.models import Member
from tests.history.agreement import LiveHand, check_histories
from tests.rooms.test_service import Clock, members


class Game:
    """A table played through the service, each hand recorded from the views its players were sent."""

    def __init__(self, service: RoomService, code: str, players: list[Member]) -> None:
        self.service, self.code = service, code
        self.by_seat = dict(enumerate(players))
        self.hands: dict[int, LiveHand] = {}
        self.seen()

    def view(self, member: Member | None = None) -> dict[str, Any]:
        return self.service.state(self.code, member)

    def seen(self) -> dict[str, Any]:
        """Record what the table shows now: a new hand as dealt, a finished one's result."""
        view = self.view()
        hand = view["hand"]
        if hand is not None and hand["hand_no"] not in self.hands:
            self.hands[hand["hand_no"]] = LiveHand.dealt(view)
        if hand is not None and hand["complete"]:
            self.hands[hand["hand_no"]].ended(view)
        return view

    def act(self, kind: str, to: int | None = None) -> None:
        view = self.view()
        seat = view["hand"]["to_act"]
        action = {"kind": kind} if to is None else {"kind": kind, "to": to}
        done = self.service.act(self.code, self.by_seat[seat], action, view["version"])
        assert done.applied, done.reason
        self.hands[view["hand"]["hand_no"]].moved(self.seen(), seat, timed_out=False)

    def time_out(self, clock: Clock, by: Member) -> int:
        """The player to act lets the action clock and the time bank run out; another player presses time-out."""
        view = self.view()
        seat = view["hand"]["to_act"]
        clock.advance(view["seconds_left"] + view["players"][seat]["bank"] + 1)
        assert self.service.timeout(self.code, by, view["version"]).applied
        self.hands[view["hand"]["hand_no"]].moved(self.seen(), seat, timed_out=True)
        return int(seat)

    def to_act(self) -> int:
        return int(self.view()["hand"]["to_act"])

    def next_hand(self) -> None:
        view = self.view()
        assert self.service.next_hand(self.code, self.by_seat[self.to_act_or_any()], view["version"]).applied
        self.seen()

    def to_act_or_any(self) -> int:
        return next(s for s, p in enumerate(self.view()["players"]) if not p["left"])


def test_a_home_game_s_histories_tell_each_hand_as_the_table_did(db: Database) -> None:
    clock = Clock()
    seeds = iter(range(10_000))
    service = RoomService(db, clock=clock, rng_factory=lambda: random.Random(next(seeds)))
    alice, bob, carol, dave, eve = members(db, "Alice", "Bob", "Carol", "Dave", "Eve")
    code = service.create_room(alice, seats=5, options={"straddle": True, "run_twice": True})
    for m in (bob, carol, dave):
        service.join(code, m)
    service.request(code, dave, "straddle", {"choice": "always"})  # under the gun in the first hand
    assert service.next_hand(code, alice, service.state(code, alice)["version"]).applied  # the creator deals it
    game = Game(service, code, [alice, bob, carol, dave])

    # hand 1: the straddle, two players all in, the board run twice
    first = game.hands[1]
    assert first.straddle is not None and first.posts[first.straddle] == 40
    game.act("allin")
    game.act("allin" if game.to_act() != first.straddle else "call")
    while (hand := game.view()["hand"])["to_act"] is not None:
        game.act("fold")
    for seat in hand["pending"]["seats"]:
        view = game.view()
        assert service.request(code, game.by_seat[seat], "runs", {"agree": True}, view["version"]).applied
    assert game.seen()["hand"]["runs"] == 2 and len(game.hands[1].board2) == 5

    # Bob leaves and Eve takes his seat; the host raises the stakes
    bob_seat = 1
    service.leave(code, bob)
    service.join(code, eve, seat=bob_seat)
    game.by_seat[bob_seat] = eve
    service.request(code, alice, "stakes", {"blinds": [20, 40]})
    game.next_hand()

    # hand 2: the first to act lets the clock run out (folded), the rest fold to the big blind or the straddle,
    # who shows a card
    assert game.hands[2].blinds == (20, 40)
    timed_out = game.time_out(clock, alice if game.to_act() != 0 else carol)
    while game.view()["hand"]["to_act"] is not None:
        game.act("fold")
    winner = game.view()["hand"]["pots"][0]["winners"][0]
    service.request(code, game.by_seat[winner], "show", {"cards": [0]})
    game.seen()
    assert game.hands[2].timeouts == [timed_out] and game.hands[2].showed

    # hand 3: checked and called down to the showdown
    game.next_hand()
    while (hand := game.view()["hand"])["to_act"] is not None:
        legal = game.view(game.by_seat[hand["to_act"]])["hand"]["legal"]["actions"]
        game.act("check" if "check" in legal else "call")
    game.seen()

    reads = service.reads
    history_of = {m.id: reads.history(code, m) for m in (alice, bob, carol, dave, eve)}
    history_of[None] = reads.history(code, None)  # type: ignore[index]
    for hand_no, live in game.hands.items():
        assert live.pots, f"hand {hand_no} is over"
        viewers: list[Member | None] = [None, *(m for m in (alice, bob, carol, dave, eve)
                                                if m.display_name in live.names.values())]
        for member in viewers:
            seat = next((s for s, name in live.names.items() if member and name == member.display_name), None)
            check_histories(live, reads.export_json(code, member, hand_no),
                            history_of[member.id if member else None][hand_no - 1],  # type: ignore[index]
                            reads.export_text(code, member, Format.TEXT, hand_no),
                            reads.export_text(code, member, Format.PHH, hand_no), seat)
    first_to_act = game.hands[1].moves[0][0]
    review = reads.review(code, game.by_seat[first_to_act] if first_to_act != bob_seat else bob, 1)["decisions"][0]
    assert (review["pot"], review["call"]) == (sum(game.hands[1].posts.values()), 40), "the review counts the straddle"
    assert game.hands[1].names[bob_seat] == "Bob" and game.hands[2].names[bob_seat] == "Eve"
    whole = reads.export_json(code, None)["hands"]
    assert [h["names"][bob_seat] for h in whole] == ["Bob", "Eve", "Eve"], "the whole table's file names them too"
