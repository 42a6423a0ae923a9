"""Share links: the token of a shared hand, made once per (room, hand) and looked up by the share page."""

from __future__ import annotations

import secrets

from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from .models import SharedHand, utcnow


def share_token(engine: Engine, room_id: int, hand_no: int) -> str:
    """The hand's token, made (random, 32 bytes) the first time it is shared."""
    query = select(SharedHand.token).where(SharedHand.room_id == room_id, SharedHand.hand_no == hand_no)
    with engine.connect() as conn:
        token = conn.scalar(query)
    if token is not None:
        return token
    token = secrets.token_urlsafe(32)
    try:
        with engine.begin() as conn:
            conn.execute(insert(SharedHand).values(token=token, room_id=room_id, hand_no=hand_no,
                                                              created_at=utcnow()))
    except IntegrityError:  # shared by someone else at the same moment: theirs it is
        with engine.connect() as conn:
            found = conn.scalar(query)
        assert found is not None
        return found
    return token


def shared_hand(engine: Engine, token: str) -> tuple[int, int] | None:
    """(room id, hand number) of a share token, or None."""
    with engine.connect() as conn:
        row = conn.execute(select(SharedHand.room_id, SharedHand.hand_no).where(SharedHand.token == token)).first()
    return (row[0], row[1]) if row is not None else None
