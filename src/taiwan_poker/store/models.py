"""Tables: members, web sessions, rooms, seats, room events, idempotency keys, shared hands and table talk."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MAX_ROW_ID = 2**31 - 1  # the largest value of an Integer column (PostgreSQL's int4): ids, versions, hand numbers


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dt.datetime: DateTime(timezone=True), dict[str, Any]: JSON}  # noqa: RUF012


class Member(Base):
    """A player: a Google account (``google_sub``), a local-mode name, or a guest who plays bots only (``guest``)."""

    __tablename__ = "members"
    __table_args__ = (Index("ix_members_guest_created", "guest", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    google_sub: Mapped[str | None] = mapped_column(String(255), unique=True)
    display_name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str | None] = mapped_column(String(320))
    picture: Mapped[str | None] = mapped_column(String(1000))
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, server_default=func.now())
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow, server_default=func.now())


class WebSession(Base):
    """A signed-in browser; the cookie holds a random token, the table only its SHA-256."""

    __tablename__ = "web_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column()


class Room(Base):
    """A member table; ``version`` counts its events (optimistic concurrency)."""

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("members.id"))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    version: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[dt.datetime | None] = mapped_column(index=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Seat(Base):
    """An index of who sat where (the lobby's list of a member's rooms); the table's log is the truth.

    A seat can be taken again after its player left, so a seat number may
    have several rows; the current occupant's has no ``left_at``.
    """

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat_no: Mapped[int] = mapped_column(Integer)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    joined_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    left_at: Mapped[dt.datetime | None] = mapped_column()


class RoomEvent(Base):
    """One entry of a room's append-only log; ``seq`` is gap-free from 1 and equals the room version after it."""

    __tablename__ = "room_events"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ActionKey(Base):
    """An idempotency key already used by a member in a room, with the version its action produced."""

    __tablename__ = "action_keys"
    __table_args__ = (UniqueConstraint("room_id", "member_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    key: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)


class SharedHand(Base):
    """A share link to one hand's public replay: a random token for (room, hand number)."""

    __tablename__ = "shared_hands"
    __table_args__ = (UniqueConstraint("room_id", "hand_no"),)

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    hand_no: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ChatMessage(Base):
    """One line of a table's talk: a message, a reaction (``target``: the message reacted to) or a host's
    deletion (``kind`` "delete", ``target`` the message deleted, whose own text is then blanked).

    ``audience`` says who may read it: "players" (seated at the table) or "everyone" (spectators too); a
    reader's muted players' lines are not sent to them. ``id`` orders a room's lines (and a reader's catch-up)."""

    __tablename__ = "room_chat"
    __table_args__ = (Index("ix_room_chat_room_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(8))
    text: Mapped[str] = mapped_column(String(800))
    target: Mapped[int | None] = mapped_column(Integer)
    audience: Mapped[str] = mapped_column(String(8))
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ChatMute(Base):
    """A viewer (``member_id``) who muted a player (``muted_id``) at one table: that player's lines are not sent
    to them."""

    __tablename__ = "chat_mutes"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    member_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    muted_id: Mapped[int] = mapped_column(Integer, primary_key=True)
