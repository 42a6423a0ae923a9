"""Unit-of-work operations on the store; each takes an open session and does one job."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import secrets
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import Connection, Engine, Table, Update, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session

from ..errors import TaiwanPokerError
from ..jsontext import compact_json
from .direct import DirectConnections
from .models import ActionKey, Member, Room, RoomEvent, Seat, WebSession, utcnow

# the action path's statements, built once (tables, not ORM entities: no ORM bookkeeping on the hot path)
_ROOMS = cast(Table, Room.__table__)
_INSERT_EVENT = insert(cast(Table, RoomEvent.__table__))
_INSERT_KEY = insert(cast(Table, ActionKey.__table__))
_SEATS = cast(Table, Seat.__table__)

ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
ROOM_CODE_LENGTH = 6
GUEST_ROOM_CODE_LENGTH = 12  # a guest's solo table is never shared: a code nobody finds by guessing (31^12)
SESSION_TTL = dt.timedelta(days=30)
GUEST_TTL = dt.timedelta(days=1)  # a guest's session, and how long a guest and their tables are kept


class RoomRow(NamedTuple):
    """The columns of a room a view needs, read without an ORM session."""

    id: int
    code: str
    version: int
    status: str
    deadline: dt.datetime | None
    rules: dict[str, Any]


def room_row(engine: Engine, room_id: int) -> RoomRow | None:
    """One autocommit read of a room's view columns (a single round trip on PostgreSQL)."""
    t = Room.__table__
    query = select(t.c.id, t.c.code, t.c.version, t.c.status, t.c.deadline, t.c.rules).where(t.c.id == room_id)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        row = conn.execute(query).first()
    return RoomRow(*row) if row is not None else None


class StaleVersion(TaiwanPokerError):
    """The room moved on since the version the caller acted on; nothing was written."""

    code = "stale_version"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- members and sessions ---------------------------------------------------------------------------------------


def upsert_google_member(
    session: Session, sub: str, name: str, email: str | None, picture: str | None
) -> Member:
    """Create or update the member with this Google ``sub``."""
    member = session.scalar(select(Member).where(Member.google_sub == sub))
    if member is None:
        member = Member(google_sub=sub, display_name=name[:100], email=email, picture=picture)
        session.add(member)
    else:
        member.display_name, member.email, member.picture = name[:100], email, picture
    session.flush()
    return member


def create_local_member(session: Session, name: str) -> Member:
    """A local-mode member (no Google account)."""
    member = Member(display_name=name[:100])
    session.add(member)
    session.flush()
    return member


def create_guest(session: Session) -> Member:
    """A guest: plays against bots only, for one day at most (then :func:`purge_guests` removes it)."""
    member = Member(display_name=f"訪客 Guest {secrets.randbelow(9000) + 1000}", guest=True)
    session.add(member)
    session.flush()
    return member


def is_guest(conn: Connection, member_id: int) -> bool:
    t = Member.__table__
    return bool(conn.execute(select(t.c.guest).where(t.c.id == member_id)).scalar())


def guests_since(session: Session, since: dt.datetime) -> int:
    """Guests created since ``since`` (the server bounds how many live at once)."""
    return int(session.scalar(select(func.count()).select_from(Member).where(Member.guest.is_(True),
                                                                               Member.created_at >= since)) or 0)


def open_rooms_created_by(session: Session, member_id: int) -> list[str]:
    """Codes of the member's tables that are not over."""
    query = select(Room.code).where(Room.created_by == member_id, Room.status.not_in(("over", "quarantined")))
    return list(session.scalars(query))


def purge_guests(session: Session, before: dt.datetime) -> int:
    """Remove guests created before ``before``: their sessions, their tables (with logs and seats), themselves."""
    ids = list(session.scalars(select(Member.id).where(Member.guest.is_(True), Member.created_at < before)))
    if not ids:
        return 0
    rooms = select(Room.id).where(Room.created_by.in_(ids))
    for table in (RoomEvent, Seat, ActionKey):
        session.execute(delete(table).where(table.room_id.in_(rooms)))
    session.execute(delete(Seat).where(Seat.member_id.in_(ids)))
    session.execute(delete(ActionKey).where(ActionKey.member_id.in_(ids)))
    session.execute(delete(Room).where(Room.created_by.in_(ids)))
    session.execute(delete(WebSession).where(WebSession.member_id.in_(ids)))
    session.execute(delete(Member).where(Member.id.in_(ids)))
    return len(ids)


def start_session(session: Session, member_id: int, replaces: str | None = None,
                  ttl: dt.timedelta = SESSION_TTL) -> str:
    """A new session token for the member (the old one, if given, is ended: rotation on sign-in)."""
    if replaces:
        end_session(session, replaces)
    token = secrets.token_urlsafe(32)
    session.add(WebSession(token_hash=_hash(token), member_id=member_id, expires_at=utcnow() + ttl))
    session.flush()
    return token


def member_for_session(session: Session, token: str | None) -> Member | None:
    """The member signed in with this token, if the session exists and has not expired."""
    if not token:
        return None
    row = session.get(WebSession, _hash(token))
    if row is None:
        return None
    expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=dt.UTC)
    if expires <= utcnow():
        session.delete(row)
        return None
    return session.get(Member, row.member_id)


def live_session_hashes(session: Session, hashes: set[str]) -> set[str]:
    """Which of these session hashes still belong to a session that has not expired (one query)."""
    if not hashes:
        return set()
    query = select(WebSession.token_hash).where(WebSession.token_hash.in_(hashes), WebSession.expires_at > utcnow())
    return set(session.scalars(query))


def end_session(session: Session, token: str) -> None:
    """Sign out: forget the session."""
    session.execute(delete(WebSession).where(WebSession.token_hash == _hash(token)))


# --- rooms ---------------------------------------------------------------------------------------------------------


def new_room_code(length: int = ROOM_CODE_LENGTH) -> str:
    """A code of unambiguous characters."""
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(length))


def insert_room(conn: Connection, creator_id: int, rules: dict[str, Any], code_length: int = ROOM_CODE_LENGTH
                ) -> RoomRow:
    """A new, empty room (version 0) with a unique code; its first events are the caller's to append."""
    t = _ROOMS
    for _ in range(20):
        code = new_room_code(code_length)
        if conn.execute(select(t.c.id).where(t.c.code == code)).first() is None:
            break
    else:  # pragma: no cover - 31^6 codes
        raise TaiwanPokerError("could not find a free room code", code="room_code_exhausted")
    now = utcnow()
    room_id = conn.execute(
        insert(t).values(code=code, created_by=creator_id, rules=rules, status="waiting", version=0,
                         created_at=now, updated_at=now).returning(t.c.id)
    ).scalar_one()
    return RoomRow(room_id, code, 0, "waiting", None, rules)


def seat_taken(conn: Connection, room_id: int, seat_no: int, member_id: int) -> None:
    """Index a member's seat (the lobby lists a member's rooms from this)."""
    conn.execute(insert(_SEATS).values(room_id=room_id, seat_no=seat_no, member_id=member_id, joined_at=utcnow()))


def seat_left(conn: Connection, room_id: int, seat_no: int, when: dt.datetime) -> None:
    """Mark the seat's current occupant as gone in the index."""
    t = _SEATS
    conn.execute(update(t).where(t.c.room_id == room_id, t.c.seat_no == seat_no, t.c.left_at.is_(None))
                 .values(left_at=when))


def due_rooms(session: Session, now: dt.datetime, statuses: tuple[str, ...]
              ) -> list[tuple[int, str, dt.datetime | None]]:
    """Rooms of one of ``statuses`` whose deadline has come: (id, code, deadline)."""
    t = _ROOMS
    query = select(t.c.id, t.c.code, t.c.deadline).where(t.c.deadline <= now, t.c.status.in_(statuses))
    return [(row.id, row.code, row.deadline) for row in session.execute(query)]


def room_by_code(session: Session, code: str) -> Room | None:
    """The room with this code (case-insensitive), if any."""
    return session.scalar(select(Room).where(Room.code == code.strip().upper()))


def seats(session: Session, room_id: int, *, current: bool = True) -> list[Seat]:
    """The room's seats, lowest number first (only those not left, by default)."""
    query = select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat_no)
    if current:
        query = query.where(Seat.left_at.is_(None))
    return list(session.scalars(query))


def seats_with_members(session: Session, room_id: int) -> list[tuple[Seat, Member]]:
    """Every seat ever taken in the room with its member, lowest seat first (one query)."""
    query = (
        select(Seat, Member).join(Member, Member.id == Seat.member_id).where(Seat.room_id == room_id)
        .order_by(Seat.seat_no, Seat.id)
    )
    return [(seat, member) for seat, member in session.execute(query)]


def rooms_of(session: Session, member_id: int) -> list[Room]:
    """Rooms where the member has a seat (current or past), newest first."""
    mine = select(Seat.room_id).where(Seat.member_id == member_id)
    query = select(Room).where(Room.id.in_(mine)).order_by(Room.updated_at.desc())
    return list(session.scalars(query))


# --- the event log -------------------------------------------------------------------------------------------------


def append_events(
    session: Session | Connection, room_id: int, expected_version: int, payloads: Sequence[dict[str, Any]],
    **room_values: Any,
) -> int:
    """Append events after ``expected_version`` and return the new version, or raise :class:`StaleVersion`.

    The version bump (with any ``room_values``, e.g. status and deadline) is one
    UPDATE guarded by the expected version, so concurrent writers serialise on
    it and exactly one of them wins.
    """
    if not payloads:
        return expected_version
    new_version = expected_version + len(payloads)
    now = utcnow()
    params = {"b_id": room_id, "b_expected": expected_version, "b_new": new_version, "b_now": now}
    params.update((f"b_{name}", value) for name, value in room_values.items())
    result = session.execute(_version_bump(tuple(sorted(room_values))), params)
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleVersion(f"room {room_id} is no longer at version {expected_version}", room=room_id)
    session.execute(
        _INSERT_EVENT,
        [{"room_id": room_id, "seq": expected_version + i + 1, "payload": dict(p), "created_at": now}
         for i, p in enumerate(payloads)],
    )
    return new_version


def append_events_direct(
    direct: DirectConnections, room_id: int, expected_version: int, payloads: Sequence[dict[str, Any]],
    key: tuple[int, str] | None = None, notify: tuple[str, str] | None = None, at_once: bool = False,
    **room_values: Any,
) -> int:
    """:func:`append_events` and the idempotency ``key`` (member, key) as :func:`record_action_key` stores it, all
    or nothing, on the driver's own connections (:mod:`.direct`): on PostgreSQL one statement, atomic by itself,
    with the ``NOTIFY`` (channel, message), one round trip where a transaction takes five; on SQLite one
    transaction. Raises :class:`StaleVersion` (nothing stored) when the room is no longer at
    ``expected_version``, and ``IntegrityError`` (nothing stored) when the key was used. ``at_once``: written at
    once or not at all (:meth:`DirectConnections.run`'s ``now``: :class:`~.direct.Busy`)."""
    new_version = expected_version + len(payloads)
    now = utcnow()
    if direct.dialect == "postgresql":
        params: dict[str, Any] = {"id": room_id, "expected": expected_version, "new": new_version, "now": now,
                                  # one JSON array (a text[] of JSON documents costs the driver a regex pass each)
                                  "payloads": compact_json(list(payloads))}
        for name, value in room_values.items():
            params[f"v_{name}"] = json.dumps(value) if name == "rules" else value
        if key is not None:
            params["member"], params["key"] = key[0], key[1][:64]
        if notify is not None:
            params["channel"], params["message"] = notify
        sql = _append_at_once_sql(tuple(sorted(room_values)), key is not None, notify is not None)

        def one_statement(conn: Any) -> Any:
            with conn.cursor() as cur:
                cur.execute(sql, params)
                row = cur.fetchone()
            return row[0] if row is not None else None

        if (direct.one_row_now(sql, params) if at_once else direct.run(one_statement, sql)) != 1:
            raise StaleVersion(f"room {room_id} is no longer at version {expected_version}", room=room_id)
        return new_version
    assert notify is None, "SQLite has no notifications"
    stamp = direct.timestamp(now)
    columns = tuple(sorted(room_values))
    bump = _sqlite_bump_sql(columns)
    values = [direct.timestamp(v) if c == "deadline" else direct.json(v) if c == "rules" else v
              for c, v in sorted(room_values.items())]
    rows = [(room_id, expected_version + i + 1, direct.json(p), stamp) for i, p in enumerate(payloads)]

    def transaction(conn: Any) -> bool:
        conn.execute("BEGIN")
        try:
            if conn.execute(bump, (new_version, stamp, *values, room_id, expected_version)).rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            conn.executemany(_SQLITE_INSERT_EVENT, rows)
            if key is not None:
                conn.execute(_SQLITE_INSERT_KEY, (room_id, key[0], key[1][:64], new_version))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return True

    if not direct.run(transaction, bump, now=at_once):
        raise StaleVersion(f"room {room_id} is no longer at version {expected_version}", room=room_id)
    return new_version


_SQLITE_INSERT_EVENT = "INSERT INTO room_events (room_id, seq, payload, created_at) VALUES (?, ?, ?, ?)"
_SQLITE_INSERT_KEY = "INSERT INTO action_keys (room_id, member_id, key, version) VALUES (?, ?, ?, ?)"


@functools.cache
def _sqlite_bump_sql(columns: tuple[str, ...]) -> str:
    return ("UPDATE rooms SET version = ?, updated_at = ?" + "".join(f", {c} = ?" for c in columns)
            + " WHERE id = ? AND version = ?")


@functools.cache
def _append_at_once_sql(columns: tuple[str, ...], keyed: bool, notify: bool) -> str:
    """PostgreSQL's one statement of :func:`append_events_direct` (psycopg's parameters): data-modifying CTEs that all
    run, each inserting only when the guarded UPDATE matched."""
    values = ", ".join(f"{c} = %(v_{c})s::json" if c == "rules" else f"{c} = %(v_{c})s" for c in columns)
    parts = [
        "WITH bump AS (UPDATE rooms SET version = %(new)s, updated_at = %(now)s"
        + (f", {values}" if values else "") + " WHERE id = %(id)s AND version = %(expected)s RETURNING id)",
        "logged AS (INSERT INTO room_events (room_id, seq, payload, created_at) "
        "SELECT bump.id, %(expected)s + e.n, e.payload, %(now)s "
        "FROM bump, json_array_elements(%(payloads)s::json) WITH ORDINALITY AS e(payload, n))",
    ]
    if keyed:
        parts.append("used AS (INSERT INTO action_keys (room_id, member_id, key, version) "
                     "SELECT bump.id, %(member)s, %(key)s, %(new)s FROM bump)")
    if notify:  # a plain SELECT in a WITH runs only when referenced: the final SELECT reads it
        parts.append("told AS (SELECT pg_notify(%(channel)s, %(message)s) FROM bump)")
    return ", ".join(parts) + " SELECT count(*) FROM bump" + (" WHERE (SELECT count(*) FROM told) >= 0" if notify
                                                                else "")


@functools.cache
def _version_bump(columns: tuple[str, ...]) -> Update:
    """The guarded UPDATE of a room's version (and ``columns``), built once so SQLAlchemy keys its cache once."""
    t = _ROOMS
    return (
        update(t)
        .where(t.c.id == bindparam("b_id"), t.c.version == bindparam("b_expected"))
        .values(version=bindparam("b_new"), updated_at=bindparam("b_now"), **{c: bindparam(f"b_{c}") for c in columns})
    )


def set_room_status(engine: Engine, room_id: int, status: str) -> None:
    """Set a room's status outside any other transaction (and stop its clock), e.g. to quarantine it."""
    with engine.begin() as conn:
        conn.execute(update(_ROOMS).where(_ROOMS.c.id == room_id).values(status=status, deadline=None))


def load_events(session: Session, room_id: int, after: int = 0) -> list[dict[str, Any]]:
    """The room's event payloads with ``seq > after``, in order."""
    return [payload for payload, _ in load_stored_events(session, room_id, after)]


def load_stored_events(session: Session, room_id: int, after: int = 0) -> list[tuple[dict[str, Any], dt.datetime]]:
    """The room's event payloads with ``seq > after``, in order, each with the time it was stored."""
    query = (select(RoomEvent.payload, RoomEvent.created_at).where(RoomEvent.room_id == room_id, RoomEvent.seq > after)
             .order_by(RoomEvent.seq))
    return [(dict(p), at) for p, at in session.execute(query)]


def hand_start_times(conn: Connection, room_id: int) -> list[dt.datetime]:
    """When each hand of the room was dealt: the time its ``hand_started`` event was stored, in hand order (UTC).

    The event's type is read inside the JSON payload by the database (SQLite's ``json_extract``, PostgreSQL's
    ``->>``), so only those rows come back."""
    payload = RoomEvent.payload
    query = (select(RoomEvent.created_at)
             .where(RoomEvent.room_id == room_id, payload["type"].as_string() == "hand",
                    payload[("event", "type")].as_string() == "hand_started")
             .order_by(RoomEvent.seq))
    return [t if t.tzinfo else t.replace(tzinfo=dt.UTC) for t in conn.scalars(query)]


def used_action_key(session: Session | Connection, room_id: int, member_id: int, key: str) -> int | None:
    """The version an already-used idempotency key produced, or ``None`` if it is new."""
    return session.scalar(
        select(ActionKey.version).where(
            ActionKey.room_id == room_id, ActionKey.member_id == member_id, ActionKey.key == key
        )
    )


def record_action_key(session: Session | Connection, room_id: int, member_id: int, key: str, version: int) -> None:
    """Remember an idempotency key with the version its action produced.

    A key used twice violates the unique constraint (``IntegrityError``), which
    fails the whole transaction: the repeated action is not stored.
    """
    session.execute(_INSERT_KEY, {"room_id": room_id, "member_id": member_id, "key": key[:64], "version": version})
