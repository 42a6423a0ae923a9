"""The store on both backends: members, sessions, rooms, the gap-free event log and idempotency keys."""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from collections.abc import Callable

import pytest
from sqlalchemy.exc import IntegrityError

from taiwan_poker.store import repo
from taiwan_poker.store.db import Database
from taiwan_poker.store.models import Room, WebSession


def test_google_member_is_created_then_updated_by_sub(db: Database) -> None:
    with db.transaction() as s:
        a = repo.upsert_google_member(s, "sub-1", "Alice", "a@example.com", None)
    with db.transaction() as s:
        b = repo.upsert_google_member(s, "sub-1", "Alice Chen", "a@example.com", "https://x/p.png")
    assert a.id == b.id
    assert b.display_name == "Alice Chen"


def test_session_rotation_and_sign_out(db: Database) -> None:
    with db.transaction() as s:
        member = repo.create_local_member(s, "小明")
        first = repo.start_session(s, member.id)
    with db.transaction() as s:
        assert repo.member_for_session(s, first).id == member.id  # type: ignore[union-attr]
        second = repo.start_session(s, member.id, replaces=first)
    with db.transaction() as s:
        assert repo.member_for_session(s, first) is None, "rotation must end the old session"
        assert repo.member_for_session(s, second).id == member.id  # type: ignore[union-attr]
        repo.end_session(s, second)
    with db.transaction() as s:
        assert repo.member_for_session(s, second) is None
        assert repo.member_for_session(s, None) is None
        assert repo.member_for_session(s, "forged-token") is None


def test_expired_session_is_refused(db: Database) -> None:
    with db.transaction() as s:
        member = repo.create_local_member(s, "Bob")
        token = repo.start_session(s, member.id)
        row = s.get(WebSession, repo._hash(token))
        assert row is not None
        row.expires_at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    with db.transaction() as s:
        assert repo.member_for_session(s, token) is None


def test_room_codes_are_short_unambiguous_and_found_case_insensitively(db: Database) -> None:
    with db.transaction() as s:
        member = repo.create_local_member(s, "Host")
        room = repo.insert_room(s.connection(), member.id, {"decks": 2})
        repo.seat_taken(s.connection(), room.id, 0, member.id)
        code = room.code
    assert len(code) == repo.ROOM_CODE_LENGTH
    assert not set(code) & set("0O1IL")
    with db.transaction() as s:
        found = repo.room_by_code(s, code.lower())
        assert found is not None and found.id == room.id
        assert [seat.member_id for seat in repo.seats(s, room.id)] == [member.id]
        assert [r.id for r in repo.rooms_of(s, member.id)] == [room.id]


def test_event_log_is_gap_free_and_stale_versions_write_nothing(db: Database) -> None:
    with db.transaction() as s:
        room = repo.insert_room(s.connection(), repo.create_local_member(s, "Host").id, {})
    with db.transaction() as s:
        assert repo.append_events(s, room.id, 0, [{"e": 1}, {"e": 2}]) == 2
    with pytest.raises(repo.StaleVersion), db.transaction() as s:
        repo.append_events(s, room.id, 0, [{"e": "stale"}])
    with db.transaction() as s:
        assert repo.append_events(s, room.id, 2, [{"e": 3}]) == 3
        assert repo.load_events(s, room.id) == [{"e": 1}, {"e": 2}, {"e": 3}]
        assert repo.load_events(s, room.id, after=2) == [{"e": 3}]


def race(append: Callable[[int], object], writers: int = 4) -> list[str]:
    """``append(n)`` for ``writers`` threads released at once: each one's outcome, ``ok`` or ``stale``."""
    outcomes: list[str] = []
    barrier = threading.Barrier(writers)

    def writer(n: int) -> None:
        barrier.wait()
        try:
            append(n)
            outcomes.append("ok")
        except repo.StaleVersion:
            outcomes.append("stale")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_concurrent_appends_at_one_version_leave_exactly_one_applied(db: Database) -> None:
    with db.transaction() as s:
        room = repo.insert_room(s.connection(), repo.create_local_member(s, "Host").id, {})

    def append(n: int) -> None:
        with db.transaction() as s:
            repo.append_events(s, room.id, 0, [{"writer": n}])

    assert sorted(race(append)) == ["ok", "stale", "stale", "stale"]
    with db.transaction() as s:
        assert len(repo.load_events(s, room.id)) == 1


def test_idempotency_key_is_remembered_once(db: Database) -> None:
    with db.transaction() as s:
        member = repo.create_local_member(s, "Host")
        room = repo.insert_room(s.connection(), member.id, {})
    with db.transaction() as s:
        assert repo.used_action_key(s, room.id, member.id, "k1") is None
        repo.record_action_key(s, room.id, member.id, "k1", 5)
    with db.transaction() as s:
        assert repo.used_action_key(s, room.id, member.id, "k1") == 5
    with pytest.raises(IntegrityError), db.transaction() as s:
        repo.record_action_key(s, room.id, member.id, "k1", 6)
    with db.transaction() as s:
        assert repo.used_action_key(s, room.id, member.id, "k1") == 5


def test_a_direct_append_is_all_or_nothing(db: Database) -> None:
    """A move's write on the driver's own connections (issue 49): the version guard, the events, the idempotency key
    and (PostgreSQL) the notification stand or fall together, stored as the engine stores them; concurrent appends
    at one version leave exactly one."""
    import psycopg

    pg = db.engine.dialect.name == "postgresql"
    with db.transaction() as s:
        member = repo.create_local_member(s, "Host")
        room = repo.insert_room(s.connection(), member.id, {})
    channel = f"tp_test_{secrets.token_hex(6)}"  # parallel runs share the server's channels
    url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    listener = psycopg.connect(url, autocommit=True) if pg else None
    if listener is not None:
        listener.execute(f"LISTEN {channel}")
    try:
        deadline = dt.datetime(2026, 12, 7, 3, 4, 5, 678901, tzinfo=dt.UTC)
        assert repo.append_events_direct(db.direct, room.id, 0, [{"e": 1}, {"e": "二"}], (member.id, "k1"),
                                         (channel, "first") if pg else None, status="playing", deadline=deadline,
                                         rules={"decks": 2}) == 2
        row = repo.room_row(db.engine, room.id)
        assert row is not None and (row.version, row.status, row.rules) == (2, "playing", {"decks": 2})
        assert row.deadline is not None and row.deadline.replace(tzinfo=dt.UTC) == deadline
        with db.transaction() as s:
            assert [r.deadline for r in [s.get(Room, room.id)]] == [row.deadline]
            assert repo.due_rooms(s, deadline, ("playing",)) == [(room.id, row.code, row.deadline)]
        with pytest.raises(repo.StaleVersion):  # stale: nothing stored, nothing told
            repo.append_events_direct(db.direct, room.id, 0, [{"e": "stale"}], (member.id, "k2"),
                                      (channel, "stale") if pg else None)
        with pytest.raises(IntegrityError):  # the key used before: nothing stored, nothing told
            repo.append_events_direct(db.direct, room.id, 2, [{"e": "again"}], (member.id, "k1"),
                                      (channel, "dup") if pg else None)
        assert repo.append_events_direct(db.direct, room.id, 2, [{"e": 3}], None, (channel, "third") if pg else None,
                                         status="waiting", deadline=None) == 3
        if listener is not None:
            assert [n.payload for n in listener.notifies(timeout=1.0, stop_after=3)] == ["first", "third"]
    finally:
        if listener is not None:
            listener.close()
    with db.transaction() as s:
        assert repo.load_events(s, room.id) == [{"e": 1}, {"e": "二"}, {"e": 3}]
        stored = repo.load_stored_events(s, room.id)
        assert all(at is not None and abs((at.replace(tzinfo=dt.UTC) - dt.datetime.now(dt.UTC)).total_seconds()) < 60
                   for _, at in stored)
        assert repo.used_action_key(s, room.id, member.id, "k1") == 2
        assert repo.used_action_key(s, room.id, member.id, "k2") is None
    row = repo.room_row(db.engine, room.id)
    assert row is not None and (row.version, row.status, row.deadline, row.rules) == (3, "waiting", None, {"decks": 2})

    assert sorted(race(lambda n: repo.append_events_direct(db.direct, room.id, 3, [{"writer": n}],
                                                           (member.id, f"w{n}")))) == ["ok", "stale", "stale", "stale"]
    with db.transaction() as s:
        assert len(repo.load_events(s, room.id)) == 4
