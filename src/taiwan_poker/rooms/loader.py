"""Tables as stored: the fold of each room's event log, cached per version, for the write path and the read side.

A cached room is immutable (a :class:`~taiwan_poker.tables.TableState` and its
stored columns at one version), so readers may use it without a lock; the
write path replaces it only after a commit. An instance whose cache is behind
folds only the events appended since (another instance wrote them), and a
push from another instance may carry those events so that no read is needed.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from ..errors import TaiwanPokerError
from ..jsontext import compact_json
from ..lru import LruMap
from ..store import repo
from ..store.db import Database
from ..tables import TableState, event_from_json, fold
from ..tables.timing import ClockFace, clock_face
from ..tables.views import SEAT_KEYS, public_table_view
from .cache import RoomLocks

log = logging.getLogger("taiwan_poker.rooms")

QUARANTINED = "quarantined"  # the status of a room whose log cannot be replayed
CACHE_ROOMS = 2000  # rooms whose folded state one process keeps (the rest are rebuilt from the log on demand)
CACHE_IDLE_SECONDS = 15 * 60.0
ROOM_IDS_REMEMBERED = 50_000


class RoomError(TaiwanPokerError):
    """A request about a room that cannot be served (not found, closed for checking, a malformed request)."""

    code = "room_error"


@dataclass(frozen=True)
class Room:
    """A room as folded from its log, with its stored columns at that version (and its public view, once built)."""

    state: TableState
    row: repo.RoomRow
    memo: dict[str, Any] = field(default_factory=dict, compare=False)

    def public(self) -> dict[str, Any]:
        """The part of the view every seat shares, built once for this version (several threads may race to
        build it; they build the same thing)."""
        view = self.memo.get("public")
        if view is None:
            view = self.memo["public"] = public_table_view(self.state)
        return view

    def clock(self) -> ClockFace:
        """The clock's part that depends on this version only (:func:`~taiwan_poker.tables.timing.clock_face`)."""
        face = self.memo.get("clock")
        if face is None:
            face = self.memo["clock"] = clock_face(self.state)
        return face

    def public_json(self) -> tuple[str, str | None]:
        """:meth:`public` as JSON text, built once for this version and shared by every socket's push: the top
        level without the viewer's keys (:data:`~taiwan_poker.tables.views.SEAT_KEYS`) and without the hand, and
        the hand's public part, each an object left open (no closing brace) for the viewer's part to follow."""
        parts = self.memo.get("public_json")
        if parts is None:
            public = self.public()
            top = {k: v for k, v in public.items() if k not in SEAT_KEYS and k != "hand"}
            hand = public.get("hand")
            parts = (compact_json(top)[:-1], None if hand is None else compact_json(hand)[:-1])
            self.memo["public_json"] = parts
        return parts


class RoomLoader:
    """Rooms by code, read and folded from the log, kept in a bounded cache; safe from several threads."""

    def __init__(self, db: Database, cache_capacity: int = CACHE_ROOMS,
                 cache_idle_seconds: float = CACHE_IDLE_SECONDS) -> None:
        self.db = db
        self.locks = RoomLocks()
        self.errors: dict[str, int] = {}  # room errors by kind, for the metrics
        self._cache: LruMap[int, Room] = LruMap(cache_capacity, idle_seconds=cache_idle_seconds)
        self._ids: LruMap[str, int] = LruMap(ROOM_IDS_REMEMBERED)

    def room_id(self, code: str) -> int:
        """The id of the room with this code (codes never change, so it is remembered)."""
        key = code.strip().upper()
        room_id = self._ids.get(key)
        if room_id is None:
            with self.db.transaction() as s:
                room = repo.room_by_code(s, key)
                if room is None:
                    raise RoomError(f"no room with code {code!r}", code="room_not_found")
                room_id = room.id
                self._ids.put(key, room_id)
        return room_id

    def read(self, room_id: int, code: str) -> Room:
        """The room as stored now: its columns in one light read, its state from the cache when current."""
        row = repo.room_row(self.db.engine, room_id)
        if row is None:
            raise RoomError(f"no room with code {code!r}", code="room_not_found")
        if row.status == QUARANTINED:
            raise RoomError("this table's record is damaged and it is closed for checking", code="room_quarantined")
        cached = self._cache.get(room_id)
        if cached is not None and cached.row.version == row.version:
            return cached
        return self._rebuild(row, cached if cached is not None and cached.row.version < row.version else None)

    def locked_read(self, code: str) -> Room:
        """The room by its code, read under its lock (so a read never sees a write half cached)."""
        room_id = self.room_id(code)
        with self.locks(room_id):
            return self.read(room_id, code)

    def current(self, room_id: int, code: str, version: object = None) -> Room:
        """The cached room when it is at ``version`` (no database read; the write's version guard catches a room
        another process moved on), else read and rebuilt."""
        cached = self.held(room_id, version) if version is not None else None
        return cached if cached is not None else self.read(room_id, code)

    def held(self, room_id: int, version: object) -> Room | None:
        """The cached room when it is exactly at ``version`` (memory only), else None."""
        cached = self._cache.get(room_id)
        return cached if cached is not None and cached.state.version == version else None

    def cached(self, code: str, version: int) -> Room | None:
        """The room from memory alone when it holds ``version`` or later (no database, no lock), else None."""
        room_id = self._ids.get(code.strip().upper())
        room = self._cache.get(room_id) if room_id is not None else None
        return room if room is not None and room.state.version >= version else None

    def keep(self, room: Room) -> None:
        """Cache a room the write path has just committed (only ever after the commit)."""
        self._ids.put(room.row.code, room.row.id)
        self._cache.put(room.row.id, room)

    def _rebuild(self, row: repo.RoomRow, behind: Room | None = None) -> Room:
        """The room at ``row.version``: the cached state ``behind`` it moved on by the events another instance
        appended since (read from the log), or the whole log folded afresh."""
        after = behind.state.version if behind is not None else 0
        with self.db.transaction() as s:
            stored = repo.load_stored_events(s, row.id, after)[: row.version - after]
        try:  # an event logged before events carried their time takes the time it was stored
            state = fold((event_from_json(p, aware(at)) for p, at in stored),
                         behind.state if behind is not None else None)
        except Exception as exc:  # a log that cannot be replayed: stop the room, loudly, instead of failing forever
            self._quarantine(row.id, row.code, exc)
            raise RoomError("this table's record is damaged and it is closed for checking",
                            code="room_quarantined") from exc
        room = Room(state, row)
        self._cache.put(row.id, room)
        return room

    def absorb(self, room_id: int, version: int, news: dict[str, Any]) -> bool:
        """Another instance's committed events, as its notification carried them (``e``, with the room's new
        status ``s`` and deadline ``d``): folded onto the cached state when they follow it directly, so this
        instance's sockets are served from memory.  Anything else (no cached state, a gap, a notification
        without its events) is left to the next read, which goes to the log."""
        events = news.get("e")
        if not isinstance(events, list) or not events:
            return False
        with self.locks(room_id):
            cached = self._cache.get(room_id)
            if cached is None or cached.state.version != version - len(events):
                return False
            state = fold((event_from_json(p) for p in events), cached.state)
            if state.version != version:
                return False
            deadline = news.get("d")
            rules = cached.row.rules if state.rules is cached.state.rules else state.rules.to_json()
            row = cached.row._replace(version=version, status=str(news.get("s")), rules=rules,
                                      deadline=dt.datetime.fromisoformat(deadline) if deadline else None)
            self._cache.put(room_id, Room(state, row))
        return True

    def _quarantine(self, room_id: int, code: str, exc: BaseException) -> None:
        """Mark a room whose log cannot be replayed: no sweep, no action; its members are told why."""
        self.count("quarantined")
        log.error("room quarantined: its event log cannot be replayed", exc_info=exc, extra={"room": code})
        repo.set_room_status(self.db.engine, room_id, QUARANTINED)
        self._cache.discard(room_id)

    def count(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def evict_idle(self) -> None:
        self._cache.evict_idle()

    def __len__(self) -> int:
        return len(self._cache)


def aware(moment: dt.datetime | None) -> dt.datetime | None:
    """A stored time as UTC (SQLite hands times back without their zone)."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment
