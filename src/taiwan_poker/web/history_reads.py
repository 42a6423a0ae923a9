"""Read-only access to played hands for the history pages and exports, on top of the room service.

Every card that leaves here comes from the fail-closed views
(:func:`~taiwan_poker.rules.views.view`, :func:`~taiwan_poker.tables.views.hand_events`):
the member's own seat's, or a spectator's for public pages.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ..history.hand_stats import HandStats, hand_stats
from ..history.review import allin_ev
from ..lru import LruMap
from ..rooms.service import RoomError, RoomService
from ..rules.views import view
from ..store import repo
from ..store.models import Member, RoomEvent
from ..tables.state import TableState
from ..tables.views import hand_events, names_in_hand

_EV_CACHE: LruMap[tuple[int, int, int], tuple[int, bool]] = LruMap(20_000)  # (room, hand, seat) → (diff, all-in)


def table_state(rooms: RoomService, code: str) -> tuple[int, TableState]:
    """The room's id and its folded state as stored now."""
    room_id = rooms.room_id(code)
    return room_id, rooms.table_state(code, room_id)


def hand_index(state: TableState, hand_no: int) -> int:
    """The 0-based index of hand ``hand_no``, or ``hand_not_found``."""
    if not 1 <= hand_no <= len(state.hands):
        raise RoomError(f"this table has no hand {hand_no}", code="hand_not_found")
    return hand_no - 1


def hand_json(state: TableState, code: str, member: int | None, index: int) -> dict[str, Any]:
    """One hand as ``member`` (None: public information only) saw it: final view, events, names and rules."""
    hand = state.hands[index]
    seat = state.seat_in_hand(member, index)
    rules = state.rules
    return {"table": code.upper(), "hand_no": hand.hand_no, "seat": seat, "decks": rules.decks,
            "blinds": [rules.small_blind, rules.big_blind], "names": names_in_hand(state, index),
            "complete": hand.complete, "final": view(hand, seat), "events": hand_events(state, member, index)}


def public_hand_json(state: TableState, code: str, index: int) -> dict[str, Any]:
    """A finished hand with public information only (a share link's replay): no seat's private cards."""
    out = hand_json(state, code, None, index)
    out["table"] = None  # a shared hand does not lead to its table
    return out


def hand_started_at(rooms: RoomService, room_id: int) -> list[dt.datetime]:
    """When each hand of the room was dealt (the time its ``hand_started`` event was stored)."""
    query = select(RoomEvent.created_at, RoomEvent.payload).where(RoomEvent.room_id == room_id).order_by(RoomEvent.seq)
    out: list[dt.datetime] = []
    with rooms.db.engine.connect() as conn:
        for created, payload in conn.execute(query):
            if payload.get("type") == "hand" and payload.get("event", {}).get("type") == "hand_started":
                out.append(created if created.tzinfo else created.replace(tzinfo=dt.UTC))
    return out


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One finished hand the member played, with its numbers."""

    code: str
    hand_no: int
    started: dt.datetime | None
    stats: HandStats
    ev_net: int  # the net result with the all-in EV in place of the cards' verdict, where it applies
    allin: bool

    def to_json(self) -> dict[str, Any]:
        return {"table": self.code, "hand_no": self.hand_no,
                "started": self.started.isoformat() if self.started else None, **self.stats.to_json(),
                "ev_net": self.ev_net, "allin_ev": self.allin}


def _ev_net(room_id: int, state: TableState, index: int, seat: int, net: int) -> tuple[int, bool]:
    """The net with the all-in EV in place of the result (a finished hand never changes: remembered)."""
    key = (room_id, index, seat)
    known = _EV_CACHE.get(key)
    if known is None:
        ev = allin_ev(state.hands[index], seat)
        known = (0, False) if ev is None else (ev.expected - ev.won, True)
        _EV_CACHE.put(key, known)
    return net + known[0], known[1]


def played_hands(rooms: RoomService, member: Member) -> list[PlayedHand]:
    """Every finished hand the member played at any table, oldest first."""
    with rooms.db.transaction() as s:
        rows = [(r.id, r.code) for r in repo.rooms_of(s, member.id)]
    out: list[PlayedHand] = []
    for room_id, code in rows:
        try:
            state = rooms.table_state(code, room_id)
        except RoomError:  # a quarantined table has no readable hands
            continue
        dates = hand_started_at(rooms, room_id)
        for i, hand in enumerate(state.hands):
            seat = state.seat_in_hand(member.id, i)
            if seat is None or not hand.complete:
                continue
            stats = hand_stats(hand_events(state, member.id, i), seat)
            if stats is None:
                continue
            ev_net, allin = _ev_net(room_id, state, i, seat, stats.net)
            out.append(PlayedHand(code, hand.hand_no, dates[i] if i < len(dates) else None, stats, ev_net, allin))
    out.sort(key=lambda h: (h.started or dt.datetime.min.replace(tzinfo=dt.UTC), h.code, h.hand_no))
    return out


def filter_hands(hands: list[PlayedHand], table: str | None = None, since: dt.date | None = None,
                 until: dt.date | None = None, result: str | None = None) -> list[PlayedHand]:
    """The hands at ``table``, dealt from ``since`` to ``until`` (whole days, UTC), with that ``result``."""
    out = []
    for h in hands:
        day = h.started.date() if h.started else None
        if table and h.code != table.upper():
            continue
        if since and (day is None or day < since):
            continue
        if until and (day is None or day > until):
            continue
        if result and h.stats.result != result:
            continue
        out.append(h)
    return out
