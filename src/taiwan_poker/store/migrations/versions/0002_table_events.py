"""Tables: room logs become table events (format 2); a seat number may be taken again after its player left.

Every room's log of format v1 (the heads-up room service's payloads) is
rewritten into table events by :func:`taiwan_poker.tables.upgrade.upgrade_v1`,
with its seats taken from the seat rows; the room's version, status and clock
follow the new log.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.drop_constraint("seats_room_id_seat_no_key", "seats", type_="unique")
    else:
        with op.batch_alter_table("seats", naming_convention={"uq": "uq_%(table_name)s_%(column_0_name)s"}) as b:
            b.drop_constraint("uq_seats_room_id", type_="unique")
    rewrite_v1_logs(bind)


def rewrite_v1_logs(bind: sa.Connection) -> None:
    from taiwan_poker.tables import event_to_json, fold
    from taiwan_poker.tables.limits import NEXT_HAND_SECONDS
    from taiwan_poker.tables.state import Phase
    from taiwan_poker.tables.upgrade import SeatRow, is_v1, upgrade_v1

    meta = sa.MetaData()
    rooms = sa.Table("rooms", meta, autoload_with=bind)
    events = sa.Table("room_events", meta, autoload_with=bind)
    seats = sa.Table("seats", meta, autoload_with=bind)
    members = sa.Table("members", meta, autoload_with=bind)
    now = dt.datetime.now(dt.UTC)
    for room in bind.execute(sa.select(rooms)).mappings().all():
        payloads = [r.payload for r in bind.execute(
            sa.select(events.c.payload).where(events.c.room_id == room["id"]).order_by(events.c.seq))]
        if payloads and not is_v1(payloads):
            continue
        rows = bind.execute(
            sa.select(seats.c.seat_no, seats.c.member_id, members.c.display_name, seats.c.left_at)
            .join(members, members.c.id == seats.c.member_id).where(seats.c.room_id == room["id"])
        ).all()
        seat_rows = [SeatRow(r.seat_no, r.member_id, r.display_name, r.left_at is not None) for r in rows]
        new = upgrade_v1(room["rules"], room["created_by"], seat_rows, payloads)
        state = fold(new)
        phase = state.phase
        deadline = None
        if phase is Phase.PLAYING:
            wait = state.rules.action_clock if state.hand_running else NEXT_HAND_SECONDS
            deadline = now + dt.timedelta(seconds=wait)
        bind.execute(sa.delete(events).where(events.c.room_id == room["id"]))
        bind.execute(sa.insert(events), [
            {"room_id": room["id"], "seq": i + 1, "payload": event_to_json(e), "created_at": now}
            for i, e in enumerate(new)])
        bind.execute(sa.update(rooms).where(rooms.c.id == room["id"]).values(
            version=len(new), status=phase.value, deadline=deadline))


def downgrade() -> None:
    raise NotImplementedError("table logs cannot be turned back into heads-up room payloads")
