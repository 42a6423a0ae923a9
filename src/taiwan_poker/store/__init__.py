"""Persistence (shell layer): members, sessions, rooms and their append-only event logs.

SQLAlchemy 2 with Alembic migrations; SQLite by default (a file in the data
directory), PostgreSQL when ``DATABASE_URL`` says so.
"""
