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
    # a plain ADD COLUMN (SQLite too): a batch copy of ``members`` would break the foreign keys pointing at it
    op.add_column("members", sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_members_guest_created", "members", ["guest", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_members_guest_created", "members")
    op.drop_column("members", "guest")
