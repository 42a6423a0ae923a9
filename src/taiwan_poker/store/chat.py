"""Table talk as stored: a room's chat lines (messages, reactions, the host's deletions) and viewers' mutes.

Outside the table's event log (see migration 0005): a line never moves the table's version, a deleted line's
text is blanked for good, and a table's chat is removed when the table is cleaned up (:func:`purge_chat`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple, TypeGuard

from sqlalchemy import Connection, Engine, delete, func, insert, or_, select, update

from .models import MAX_ROW_ID, ChatMessage, ChatMute, Room

TEXT, REACTION, DELETE = "text", "reaction", "delete"


class ChatLine(NamedTuple):
    id: int
    member: int
    seat: int | None
    name: str
    kind: str
    text: str
    target: int | None
    audience: str
    deleted: bool
    at: dt.datetime


_COLUMNS = (ChatMessage.id, ChatMessage.member_id, ChatMessage.seat, ChatMessage.name, ChatMessage.kind,
            ChatMessage.text, ChatMessage.target, ChatMessage.audience, ChatMessage.deleted, ChatMessage.created_at)


def is_line_id(value: object) -> TypeGuard[int]:
    """Whether ``value`` can be a line's id (a whole number the column holds): anything else names no line."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ROW_ID


def insert_line(conn: Connection, room_id: int, member: int, seat: int | None, name: str, kind: str, text: str,
                target: int | None, audience: str, now: dt.datetime) -> int:
    """Store one line; its id (rooms share one sequence, so ids order a room's lines)."""
    result = conn.execute(insert(ChatMessage).values(
        room_id=room_id, member_id=member, seat=seat, name=name[:100], kind=kind, text=text, target=target,
        audience=audience, deleted=False, created_at=now).returning(ChatMessage.id))
    return int(result.scalar_one())


def lines(engine: Engine, room_id: int, after: int = 0, limit: int = 100,
          audiences: Iterable[str] | None = None) -> list[ChatLine]:
    """The room's lines after id ``after`` (of the given ``audiences`` only, when named), oldest first (at most
    ``limit``: the newest of them)."""
    query = select(*_COLUMNS).where(ChatMessage.room_id == room_id, ChatMessage.id > after)
    if audiences is not None:
        query = query.where(ChatMessage.audience.in_(list(audiences)))
    query = query.order_by(ChatMessage.id.desc()).limit(limit)
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [ChatLine._make(row) for row in reversed(rows)]


def newest_id(engine: Engine, room_id: int) -> int:
    """The id of the room's newest line (0: none)."""
    with engine.connect() as conn:
        value = conn.execute(select(func.max(ChatMessage.id)).where(ChatMessage.room_id == room_id)).scalar()
    return int(value or 0)


def line(engine: Engine, room_id: int, line_id: int) -> ChatLine | None:
    with engine.connect() as conn:
        row = conn.execute(select(*_COLUMNS).where(ChatMessage.room_id == room_id, ChatMessage.id == line_id)).first()
    return ChatLine._make(row) if row is not None else None


def delete_line(conn: Connection, room_id: int, line_id: int, by: int, name: str, now: dt.datetime) -> int:
    """Blank a line's text for good and record the deletion as a line of its own, for the deleted line's own
    audience (so its readers catch it up, and nobody else learns of the line)."""
    conn.execute(update(ChatMessage).where(ChatMessage.room_id == room_id, ChatMessage.id == line_id)
                 .values(text="", deleted=True))
    audience = conn.execute(select(ChatMessage.audience).where(ChatMessage.room_id == room_id,
                                                               ChatMessage.id == line_id)).scalar()
    return insert_line(conn, room_id, by, None, name, DELETE, "", line_id, audience or "players", now)


def latest(conn: Connection, room_ids: Iterable[int]) -> dict[int, int]:
    """The newest line id of each room (rooms without lines are left out)."""
    ids = list(room_ids)
    query = select(ChatMessage.room_id, func.max(ChatMessage.id)).where(ChatMessage.room_id.in_(ids)).group_by(
        ChatMessage.room_id)
    return {room_id: int(top) for room_id, top in conn.execute(query).all()} if ids else {}


def mutes(engine: Engine, room_id: int, member: int) -> set[int]:
    """The members ``member`` muted at this table."""
    with engine.connect() as conn:
        return set(conn.scalars(select(ChatMute.muted_id).where(ChatMute.room_id == room_id,
                                                                ChatMute.member_id == member)))


def set_mute(engine: Engine, room_id: int, member: int, muted: int, on: bool) -> None:
    with engine.begin() as conn:
        conn.execute(delete(ChatMute).where(ChatMute.room_id == room_id, ChatMute.member_id == member,
                                            ChatMute.muted_id == muted))
        if on:
            conn.execute(insert(ChatMute).values(room_id=room_id, member_id=member, muted_id=muted))


def purge_chat(engine: Engine, over_before: dt.datetime, idle_before: dt.datetime) -> int:
    """Remove the chat (and mutes) of tables whose match ended before ``over_before`` or whose last change was
    before ``idle_before``; returns how many lines went."""
    stale = select(Room.id).where(or_(Room.status.in_(("over", "quarantined")) & (Room.updated_at < over_before),
                                      Room.updated_at < idle_before))
    with engine.begin() as conn:
        gone = conn.execute(delete(ChatMessage).where(ChatMessage.room_id.in_(stale))).rowcount or 0
        conn.execute(delete(ChatMute).where(ChatMute.room_id.in_(stale)))
    return int(gone)
