"""Upgrade a heads-up room's log of format v1 (the room service before tables) to table events (format 2).

A v1 log held ``{"kind": "match" | "hand" | "forfeit" | "left" | "rematch", ...}``
payloads, and the seats lived only in the database's seat rows.  The upgrade
opens the table with its creator, seats the players from the seat rows, and
turns each payload into the table events the state machine would have written:
the match's hands as they were dealt and played, a forfeit as the player
leaving (which now folds a hand they left running, so no hand stays frozen),
and the match's end where one player holds every chip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..errors import TaiwanPokerError
from ..rules.events import event_from_json
from ..rules.ruleset import RuleSet
from .events import HandEvent, PlayerSat, RematchOpened, TableEvent, TableOpened
from .machine import Leave, decide, fold, settle


class SeatRow(NamedTuple):
    """A v1 seat row: who sat in which seat, and whether they left."""

    seat: int
    member: int
    name: str
    left: bool


def is_v1(payloads: Sequence[dict[str, Any]]) -> bool:
    return bool(payloads) and "kind" in payloads[0] and "v" not in payloads[0]


def upgrade_v1(rules_json: dict[str, Any], creator: int, seats: Sequence[SeatRow],
               payloads: Sequence[dict[str, Any]]) -> list[TableEvent]:
    """The table events equivalent to a v1 room (``payloads`` may be empty: a room still waiting)."""
    rules = RuleSet.from_json(rules_json)
    by_seat = {row.seat: row for row in seats}
    if 0 not in by_seat:
        raise TaiwanPokerError("a v1 room without its creator's seat", code="bad_event")
    out: list[TableEvent] = [TableOpened(rules, creator),
                             PlayerSat(0, by_seat[0].member, by_seat[0].name, rules.starting_stack)]
    state = fold(out)

    def add(events: Sequence[TableEvent]) -> None:
        nonlocal state
        out.extend(events)
        state = fold(events, state)

    for payload in payloads:
        kind = payload.get("kind")
        if kind == "match":
            row = by_seat[1]
            add([PlayerSat(1, row.member, row.name, rules.starting_stack)])
        elif kind == "hand":
            add([HandEvent(int(payload["hand"]), event_from_json(payload["event"]))])
            if state.hand is not None and state.hand.complete:
                add(settle(state))
        elif kind in ("forfeit", "left"):
            seat = int(payload["seat"])
            occupant = state.seats[seat]
            if occupant is not None:
                add(decide(state, Leave(occupant.member)))
        elif kind == "rematch":
            add([RematchOpened(str(payload["code"]))])
        else:
            raise TaiwanPokerError(f"unknown v1 payload {payload!r}"[:200], code="bad_event")
    if not payloads and by_seat[0].left:  # a waiting room its creator left
        add(decide(state, Leave(by_seat[0].member)))
    return out

