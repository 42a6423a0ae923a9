"""Guests: a visitor who plays against bots without an account is a member row marked ``guest``.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("members") as b:
        b.add_column(sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false()))
        b.create_index("ix_members_guest_created", ["guest", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("members") as b:
        b.drop_index("ix_members_guest_created")
        b.drop_column("guest")
