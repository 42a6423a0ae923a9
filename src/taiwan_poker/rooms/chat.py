"""Table talk: writing, reading, muting and the host's deletions of a table's chat (issue 23).

A chat line lives outside the table's event log (``store/chat.py``), so talking never makes a move stale. Who
may write or read it, and what it may say, are the table's rules (:mod:`taiwan_poker.tables.chat`); here are
only storage, the push (the hub here, the bus to other instances: by the line's id, each socket reading the
lines its member may read) and the host's deletion, which is a table command on the one write path
(:meth:`RoomService._write`) whose event blanks the line in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from ..lru import LruMap
from ..store import chat as store
from ..store import repo
from ..store.models import Member
from ..tables import DeleteChat, Silence, TableEvent, TableState
from ..tables.chat import EVERYONE, PLAYERS, chat_audience, check_reaction, clean_text, may_read
from ..tables.events import ChatDeleted, PlayerLeft, PlayerSat
from ..tables.limits import CHAT_KEPT_AFTER_MATCH_HOURS, CHAT_KEPT_IDLE_DAYS
from ..tables.views import names
from .loader import RoomError

if TYPE_CHECKING:
    from .service import RoomService

BACKLOG = 100  # lines a reader gets when they open the table


NEWEST_SECONDS = 5.0  # how long a read of a room's newest line stands (announced lines update it at once)
NEWEST_ROOMS = 4096


def line_json(line: store.ChatLine) -> dict[str, Any]:
    """A line as a reader gets it: text as text (the page escapes it), no member numbers."""
    out: dict[str, Any] = {"id": line.id, "kind": line.kind, "name": line.name, "seat": line.seat,
                           "audience": line.audience, "at": line.at.isoformat()}
    if line.kind == store.DELETE:
        out["to"] = line.target
    else:
        out.update(text="" if line.deleted else line.text, to=line.target, deleted=line.deleted)
    return out


def visible(state: TableState, member: int | None, lines: Sequence[store.ChatLine], muted: set[int]
            ) -> list[dict[str, Any]]:
    """The lines ``member`` may read: their audience includes them and their writer is not muted by them."""
    return [line_json(line) for line in lines
            if may_read(state, member, line.audience) and (line.kind == store.DELETE or line.member not in muted)]


def record_beside(conn: Connection, room_id: int, state: TableState, events: Sequence[TableEvent],
                  now: dt.datetime) -> None:
    """Inside the write path's transaction, what is kept beside the log: the seat index (the lobby's list of a
    member's tables) and the chat lines the host deleted (``ChatDeleted``: blanked for good)."""
    for event in events:
        if isinstance(event, PlayerSat) and event.bot is None:  # a bot has no member account
            repo.seat_taken(conn, room_id, event.seat, event.member)
        elif isinstance(event, PlayerLeft):
            repo.seat_left(conn, room_id, event.seat, now)
        elif isinstance(event, ChatDeleted):
            store.delete_line(conn, room_id, event.message, event.by, names(state).get(event.by, ""), now)


def beside_needed(events: Sequence[TableEvent]) -> bool:
    """Whether :func:`record_beside` has anything to write for ``events``."""
    return any((isinstance(e, PlayerSat) and e.bot is None) or isinstance(e, PlayerLeft | ChatDeleted)
               for e in events)


class RoomChat:
    """A table's chat for a :class:`~.service.RoomService` (its loader, clock, hub and bus)."""

    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms
        # each room's newest line as last read (a socket opening on a room without news reads nothing)
        self._newest: LruMap[int, tuple[float, int]] = LruMap(NEWEST_ROOMS)

    def known_newest(self, room_id: int) -> int | None:
        """The room's newest line id as known here without reading: the last read if it is under
        :data:`NEWEST_SECONDS` old, or a newer line announced since (None: it must be read)."""
        hit = self._newest.get(room_id)
        if hit is None or time.monotonic() - hit[0] > NEWEST_SECONDS:
            return None
        return max(hit[1], self.rooms.hub.chat_latest(room_id))

    def newest(self, room_id: int) -> int:
        """The room's newest line id (read at most every :data:`NEWEST_SECONDS`, announcements count at once)."""
        known = self.known_newest(room_id)
        if known is not None:
            return known
        value = store.newest_id(self.rooms.db.engine, room_id)
        self._newest.put(room_id, (time.monotonic(), value))
        return max(value, self.rooms.hub.chat_latest(room_id))

    def _room(self, code: str) -> tuple[int, TableState]:
        room = self.rooms.loader.locked_read(code)
        return room.row.id, room.state

    def say(self, code: str, member: Member, text: object = None, reaction: object = None, to: object = None
            ) -> dict[str, Any]:
        """Write a message (``text``) or a reaction (``reaction``, to the line ``to`` or to the table)."""
        room_id, state = self._room(code)
        audience = chat_audience(state, member.id)
        engine = self.rooms.db.engine
        if reaction is not None:
            kind, body = store.REACTION, check_reaction(reaction)
            if to is not None:
                target = store.line(engine, room_id, to) if store.is_line_id(to) else None
                if target is None or target.kind != store.TEXT or target.deleted \
                        or not may_read(state, member.id, target.audience):
                    raise RoomError("no such message at this table", code="chat_not_found")
        else:
            kind, body, to = store.TEXT, clean_text(text), None
        seat = state.seat_of(member.id)
        now = self.rooms.clock()
        with engine.begin() as conn:
            line_id = store.insert_line(conn, room_id, member.id, seat, member.display_name, kind, body,
                                        to if isinstance(to, int) else None, audience, now)
            if self.rooms.bus is not None:  # other instances hear of it when the line is committed
                self.rooms.bus.notify_chat(conn, room_id, line_id)
        self.rooms.hub.publish_chat(room_id, line_id)
        line = store.line(engine, room_id, line_id)
        assert line is not None
        return line_json(line)

    def read(self, code: str, member: Member | None, after: int = 0) -> dict[str, Any]:
        """The lines this member may read after id ``after`` (the newest ``BACKLOG`` of them), and whom they
        muted (by seat)."""
        room_id, state = self._room(code)
        return self.read_state(room_id, state, member, after)

    def read_state(self, room_id: int, state: TableState, member: Member | None, after: int = 0
                   ) -> dict[str, Any]:
        engine = self.rooms.db.engine
        reader = member.id if member is not None else None
        after = after if store.is_line_id(after) else 0
        # only lines of the audiences this reader belongs to are read: "last" says nothing of the others
        audiences = [a for a in (PLAYERS, EVERYONE) if may_read(state, reader, a)]
        lines = store.lines(engine, room_id, after, BACKLOG, audiences)
        muted = store.mutes(engine, room_id, member.id) if member is not None else set()
        return {"messages": visible(state, reader, lines, muted),
                "last": lines[-1].id if lines else after,
                "muted": sorted(i for i, s in enumerate(state.seats) if s is not None and s.member in muted)}

    def delete(self, code: str, member: Member, line_id: int) -> dict[str, Any]:
        """The host deletes a line: a table command (a public event in the log), the text blanked for good."""
        room_id, _state = self._room(code)
        line = store.line(self.rooms.db.engine, room_id, line_id) if store.is_line_id(line_id) else None
        if line is None or line.kind == store.DELETE or line.deleted:
            raise RoomError("no such message at this table", code="chat_not_found")
        written = self.rooms._write(code, member, DeleteChat(member.id, line_id, line.member))
        newest = store.lines(self.rooms.db.engine, room_id, line_id, 1)  # the deletion marker: tell the sockets
        if newest:
            self._announce(room_id, newest[-1].id)
        return self.rooms.reads.view(written.room, member)

    def silence(self, code: str, member: Member, line_id: int, on: bool) -> dict[str, Any]:
        """The host silences (or lets talk again) the writer of chat line ``line_id``: how a spectator, who has
        no seat to name, is silenced (a table command like any other, on the one write path)."""
        room_id, _state = self._room(code)
        line = store.line(self.rooms.db.engine, room_id, line_id) if store.is_line_id(line_id) else None
        if line is None or line.kind == store.DELETE:
            raise RoomError("no such message at this table", code="chat_not_found")
        written = self.rooms._write(code, member, Silence(member.id, None, bool(on), line.member, line.id,
                                                          line.name))
        return self.rooms.reads.view(written.room, member)

    def _announce(self, room_id: int, line_id: int) -> None:
        if self.rooms.bus is not None:
            with self.rooms.db.engine.begin() as conn:
                self.rooms.bus.notify_chat(conn, room_id, line_id)
        self.rooms.hub.publish_chat(room_id, line_id)

    def mute(self, code: str, member: Member, seat: object, on: bool) -> dict[str, Any]:
        """Mute (or unmute) the player in ``seat`` for this member only: their lines are not sent to them."""
        room_id, state = self._room(code)
        occupant = state.seats[seat] if isinstance(seat, int) and 0 <= seat < len(state.seats) else None
        if occupant is None or occupant.member == member.id:
            raise RoomError(f"no other player in seat {seat!r}", code="empty_seat", seat=seat)
        store.set_mute(self.rooms.db.engine, room_id, member.id, occupant.member, bool(on))
        muted = store.mutes(self.rooms.db.engine, room_id, member.id)
        return {"muted": sorted(i for i, s in enumerate(state.seats) if s is not None and s.member in muted)}

    def purge(self) -> int:
        """Remove the chat of tables whose match ended a day ago, or that have not changed in 30 days."""
        now = self.rooms.clock()
        return store.purge_chat(self.rooms.db.engine, now - dt.timedelta(hours=CHAT_KEPT_AFTER_MATCH_HOURS),
                                now - dt.timedelta(days=CHAT_KEPT_IDLE_DAYS))
