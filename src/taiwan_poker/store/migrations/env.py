"""Alembic environment: runs on the connection handed over by ``taiwan_poker.store.db.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from taiwan_poker.store.models import Base

config = context.config
target_metadata = Base.metadata
connection = config.attributes.get("connection")

if connection is None:
    url = config.get_main_option("sqlalchemy.url") or "sqlite:///data/taiwan-poker.sqlite3"
    with create_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
