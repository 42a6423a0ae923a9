"""Table talk (issue 23): chat messages and reactions kept with a table, and each viewer's muted players.

Outside the table's event log on purpose: a message does not move the table's version (a move made against
it stays valid), a deleted message's text is really gone, and the chat is removed when the table is cleaned up.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.String(800), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("audience", sa.String(8), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_room_chat_room_id", "room_chat", ["room_id", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("member_id", sa.Integer(), primary_key=True),
        sa.Column("muted_id", sa.Integer(), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_room_chat_room_id", "room_chat")
    op.drop_table("room_chat")
